/* cmd_view.c - `warpsim view REPORT.json [-o PAGE.html]`: the view page (src/report/view_html.h) of a run report
 * written with --view, rebuilt from the report's "view" member alone. The report is checked with jansson; the
 * member's JSON text is then embedded byte for byte as the report holds it. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../report/view_html.h"

/* Print the usage of `warpsim view`. */
static void view_usage(FILE *f)
{
    fprintf(f,
        "usage: warpsim view [-o PAGE.html] [--title TEXT] REPORT.json\n"
        "Write the view page of a run report made with --view: one self-contained HTML file (no network) with the\n"
        "kernel launches, their source and PTX, warp timeline, blocks on SMs, divergence, memory, occupancy,\n"
        "roofline and the host timeline. REPORT.json may also be the view JSON on its own.\n"
        "  -o PAGE.html    where to write it (default: REPORT.html beside the report; - for standard output)\n"
        "  --title TEXT    the page's title (default: the report's file name)\n");
}

/* Read a whole file into a NUL-terminated buffer; NULL (errno set) on failure. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            char *nb = cap > ((size_t)-1) / 4 ? NULL : realloc(buf, cap * 2 + 1);
            if (!nb) { free(buf); buf = NULL; errno = ENOMEM; break; }
            buf = nb;
            cap *= 2;
        }
    }
    int bad = buf && ferror(f);
    fclose(f);
    if (bad) { free(buf); errno = EIO; return NULL; }
    if (buf) buf[n] = 0;
    *len = n;
    return buf;
}

/* Skip JSON white space from i; the index of the next other byte. */
static size_t skip_ws(const char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
    return i;
}

/* The index just past the JSON string that starts at s[i] == '"'. */
static size_t skip_string(const char *s, size_t n, size_t i)
{
    for (i++; i < n && s[i] != '"'; i++)
        if (s[i] == '\\') i++;
    return i < n ? i + 1 : n;
}

/* The index just past the JSON value that starts at s[i] (the text is known to be valid JSON). */
static size_t skip_value(const char *s, size_t n, size_t i)
{
    if (s[i] == '"') return skip_string(s, n, i);
    if (s[i] != '{' && s[i] != '[') {
        while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' &&
               s[i] != '\r')
            i++;
        return i;
    }
    int depth = 0;
    for (; i < n; i++) {
        if (s[i] == '"') { i = skip_string(s, n, i) - 1; continue; }
        if (s[i] == '{' || s[i] == '[') depth++;
        else if ((s[i] == '}' || s[i] == ']') && --depth == 0) return i + 1;
    }
    return n;
}

/* Find the text of the top-level member key of the JSON object in s (valid JSON); the last one if repeated.
 * 0 with *at and *len set, or -1 when there is none. */
static int find_member(const char *s, size_t n, const char *key, size_t *at, size_t *len)
{
    size_t i = skip_ws(s, n, 0), klen = strlen(key);
    int found = 0;
    if (i >= n || s[i] != '{') return -1;
    i = skip_ws(s, n, i + 1);
    while (i < n && s[i] == '"') {
        size_t k0 = i + 1, k1 = skip_string(s, n, i) - 1;
        i = skip_ws(s, n, k1 + 1);
        if (i >= n || s[i] != ':') return -1;
        i = skip_ws(s, n, i + 1);
        size_t v0 = i, v1 = skip_value(s, n, i);
        if (k1 - k0 == klen && !memcmp(s + k0, key, klen)) { *at = v0; *len = v1 - v0; found = 1; }
        i = skip_ws(s, n, v1);
        if (i < n && s[i] == ',') i = skip_ws(s, n, i + 1);
        else break;
    }
    return found ? 0 : -1;
}

/* The page's default path: the report's path with ".json" replaced by ".html" (or ".html" added). */
static char *default_out(const char *in)
{
    size_t n = strlen(in);
    char *o = malloc(n + 6);
    if (!o) return NULL;
    memcpy(o, in, n + 1);
    if (n > 5 && !strcmp(o + n - 5, ".json")) o[n - 5] = 0;
    strcat(o, ".html");
    return o;
}

/* warpsim view [-o PAGE.html] [--title TEXT] REPORT.json */
int cli_view(int argc, char **argv)
{
    const char *in = NULL, *outp = NULL, *title = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { view_usage(stdout); return 0; }
        if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--title")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsim view: %s needs %s\n", a, strcmp(a, "--title") ? "a file" : "a text");
                return 2;
            }
            if (!strcmp(a, "--title")) title = argv[++i]; else outp = argv[++i];
        } else if (!strncmp(a, "-o", 2) && a[2]) {
            outp = a + 2;
        } else if (!strncmp(a, "--output=", 9)) {
            outp = a + 9;
        } else if (!strncmp(a, "--title=", 8)) {
            title = a + 8;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpsim view: unknown option '%s'\n", a);
            view_usage(stderr);
            return 2;
        } else if (in) {
            fprintf(stderr, "warpsim view: one report at a time ('%s' and '%s')\n", in, a);
            return 2;
        } else {
            in = a;
        }
    }
    if (!in) { view_usage(stderr); return 2; }
    size_t len = 0;
    char *text = slurp(in, &len);
    if (!text) { fprintf(stderr, "warpsim view: %s: %s\n", in, strerror(errno)); return 1; }
    json_error_t je;
    json_t *root = json_loadb(text, len, 0, &je);
    if (!root) {
        fprintf(stderr, "warpsim view: %s:%d:%d: %s\n", in, je.line, je.column, je.text);
        free(text);
        return 1;
    }
    size_t at = 0, vlen = 0;
    const json_t *view = json_is_object(root) ? json_object_get(root, "view") : NULL;
    char *dflt = NULL;
    int rc = 1;
    if (json_is_object(view)) {
        if (find_member(text, len, "view", &at, &vlen)) {
            fprintf(stderr, "warpsim view: %s: the \"view\" member could not be located\n", in);
            goto done;
        }
    } else if (view) {
        fprintf(stderr, "warpsim view: %s: \"view\" is not an object\n", in);
        goto done;
    } else if (json_is_object(root) && json_is_string(json_object_get(root, "mode")) &&
               json_is_object(json_object_get(root, "device")) && json_is_array(json_object_get(root, "launches"))) {
        at = 0;                                                   /* the view JSON on its own */
        vlen = len;
    } else {
        fprintf(stderr, "warpsim view: %s: the report has no view data: run with --view\n", in);
        goto done;
    }
    if (!outp) {
        dflt = default_out(in);
        if (!dflt) { fprintf(stderr, "warpsim view: out of memory\n"); goto done; }
        outp = dflt;
    }
    if (!strcmp(outp, in)) {
        fprintf(stderr, "warpsim view: %s: the page would overwrite the report\n", outp);
        goto done;
    }
    const char *base = strrchr(in, '/');
    base = base ? base + 1 : in;
    int to_stdout = !strcmp(outp, "-");
    FILE *f = to_stdout ? stdout : fopen(outp, "wb");
    if (!f) {
        fprintf(stderr, "warpsim view: %s: %s\n", outp, strerror(errno));
    } else {
        int bad = ws_rep_view_html(f, text + at, vlen, title ? title : base);
        if (!to_stdout && fclose(f)) bad = -1;
        if (bad) {
            fprintf(stderr, "warpsim view: %s: writing the page failed\n", outp);
            if (!to_stdout) remove(outp);
        } else {
            if (!to_stdout) fprintf(stderr, "warpsim view: wrote %s\n", outp);
            rc = 0;
        }
    }
done:
    free(dflt);
    json_decref(root);
    free(text);
    return rc;
}
