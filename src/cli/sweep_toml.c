/* sweep_toml.c - the TOML subset of sweep.toml (sweep_toml.h), parsed by recursive descent into jansson. */
#include "sweep_toml.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parser's position and the first error. */
typedef struct tp {
    const char *s, *end, *name;
    int line;
    char *err;
    size_t errlen;
    int failed;
} tp;

/* Record an error at the current line (the first one wins). */
static void tp_fail(tp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tp_fail(tp *p, const char *fmt, ...)
{
    if (p->failed) return;
    p->failed = 1;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "%s:%d: %s", p->name, p->line, msg);
}

/* Skip spaces and tabs (and, when nl, line breaks and comments too). */
static void tp_space(tp *p, int nl)
{
    while (p->s < p->end) {
        char c = *p->s;
        if (c == ' ' || c == '\t' || c == '\r') p->s++;
        else if (c == '#') {
            while (p->s < p->end && *p->s != '\n') p->s++;
        } else if (c == '\n' && nl) {
            p->line++;
            p->s++;
        } else
            break;
    }
}

/* After a key = value or a header: only a comment may follow on the line. */
static void tp_eol(tp *p)
{
    tp_space(p, 0);
    if (p->s < p->end && *p->s != '\n') tp_fail(p, "unexpected '%c' after the value", *p->s);
}

/* A quoted string ("basic" with escapes, or 'literal'), into a new buffer; NULL on error. */
static char *tp_string(tp *p)
{
    char q = *p->s++;
    size_t cap = 64, n = 0;
    char *b = malloc(cap);
    if (!b) return NULL;
    while (p->s < p->end && *p->s != q) {
        char c = *p->s++;
        if (c == '\n') {
            tp_fail(p, "string not closed on its line");
            free(b);
            return NULL;
        }
        if (c == '\\' && q == '"') {
            if (p->s >= p->end) break;
            char e = *p->s++;
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == '"' ? '"' : e == '\\' ? '\\' : 0;
            if (!c) {
                tp_fail(p, "unsupported escape '\\%c' in a string", e);
                free(b);
                return NULL;
            }
        }
        if (n + 2 > cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                return NULL;
            }
            b = nb;
        }
        b[n++] = c;
    }
    if (p->s >= p->end) {
        tp_fail(p, "string not closed");
        free(b);
        return NULL;
    }
    p->s++;
    b[n] = 0;
    return b;
}

/* A key: bare (letters, digits, _ and -) or quoted; into out (cap bytes); 0 on success. */
static int tp_key(tp *p, char *out, size_t cap)
{
    tp_space(p, 0);
    if (p->s < p->end && (*p->s == '"' || *p->s == '\'')) {
        char *k = tp_string(p);
        if (!k) return -1;
        snprintf(out, cap, "%s", k);
        free(k);
        return 0;
    }
    size_t n = 0;
    while (p->s < p->end && (isalnum((unsigned char)*p->s) || *p->s == '_' || *p->s == '-')) {
        if (n + 1 < cap) out[n++] = *p->s;
        p->s++;
    }
    out[n] = 0;
    if (!n) {
        tp_fail(p, "expected a key");
        return -1;
    }
    return 0;
}

static json_t *tp_value(tp *p);

/* An array [v, v, ...] over any number of lines. */
static json_t *tp_array(tp *p)
{
    p->s++;
    json_t *a = json_array();
    for (;;) {
        tp_space(p, 1);
        if (p->s >= p->end) {
            tp_fail(p, "array not closed");
            break;
        }
        if (*p->s == ']') {
            p->s++;
            return a;
        }
        json_t *v = tp_value(p);
        if (!v) break;
        json_array_append_new(a, v);
        tp_space(p, 1);
        if (p->s < p->end && *p->s == ',') p->s++;
        else if (p->s < p->end && *p->s != ']') {
            tp_fail(p, "expected ',' or ']' in an array");
            break;
        }
    }
    json_decref(a);
    return NULL;
}

/* A value: string, integer, boolean or array. */
static json_t *tp_value(tp *p)
{
    tp_space(p, 0);
    if (p->s >= p->end) {
        tp_fail(p, "missing value");
        return NULL;
    }
    char c = *p->s;
    if (c == '"' || c == '\'') {
        char *s = tp_string(p);
        if (!s) return NULL;
        json_t *v = json_string(s);
        free(s);
        if (!v) tp_fail(p, "string is not valid UTF-8");
        return v;
    }
    if (c == '[') return tp_array(p);
    if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "false", 5)) {
        int t = c == 't';
        p->s += t ? 4 : 5;
        return json_boolean(t);
    }
    if (c == '+' || c == '-' || isdigit((unsigned char)c)) {
        char num[64];
        size_t n = 0;
        while (p->s < p->end && (isalnum((unsigned char)*p->s) || *p->s == '_' || *p->s == '+' || *p->s == '-' ||
                                 *p->s == '.')) {
            if (*p->s != '_' && n + 1 < sizeof num) num[n++] = *p->s;
            p->s++;
        }
        num[n] = 0;
        char *e;
        errno = 0;
        long long v = strtoll(num, &e, 10);
        if (*e || errno || e == num) {
            tp_fail(p, "'%s' is not an integer (this TOML subset has strings, integers, booleans and arrays)",
                    num);
            return NULL;
        }
        return json_integer(v);
    }
    tp_fail(p, "unsupported value starting with '%c' (use a \"string\", an integer or an [array])", c);
    return NULL;
}

/* A header [a.b] or [[a.b]]: the table it opens (created along the way). */
static json_t *tp_header(tp *p, json_t *root)
{
    p->s++;
    int aot = p->s < p->end && *p->s == '[';
    if (aot) p->s++;
    json_t *t = root;
    char key[256];
    for (;;) {
        if (tp_key(p, key, sizeof key)) return NULL;
        tp_space(p, 0);
        int last = p->s < p->end && *p->s == ']';
        json_t *next = json_object_get(t, key);
        if (last && aot) {
            if (!next) {
                next = json_array();
                json_object_set_new(t, key, next);
            } else if (!json_is_array(next)) {
                tp_fail(p, "[[%s]]: '%s' is already a table or value", key, key);
                return NULL;
            }
            json_t *o = json_object();
            json_array_append_new(next, o);
            next = o;
        } else if (!next) {
            next = json_object();
            json_object_set_new(t, key, next);
        } else if (json_is_array(next) && json_array_size(next) && !last) {
            next = json_array_get(next, json_array_size(next) - 1);
        } else if (!json_is_object(next)) {
            tp_fail(p, "table '%s' is already defined as a value", key);
            return NULL;
        }
        t = next;
        if (last) break;
        if (p->s >= p->end || *p->s != '.') {
            tp_fail(p, "expected '.' or ']' in a table header");
            return NULL;
        }
        p->s++;
    }
    p->s++;
    if (aot) {
        if (p->s >= p->end || *p->s != ']') {
            tp_fail(p, "expected ']]'");
            return NULL;
        }
        p->s++;
    }
    tp_eol(p);
    return p->failed ? NULL : t;
}

/* Parse text into a new object. */
json_t *sw_toml_parse(const char *text, size_t len, const char *name, char *err, size_t errlen)
{
    tp p = { text, text + len, name, 1, err, errlen, 0 };
    json_t *root = json_object(), *cur = root;
    for (;;) {
        tp_space(&p, 1);
        if (p.s >= p.end || p.failed) break;
        if (*p.s == '[') {
            cur = tp_header(&p, root);
            if (!cur) break;
            continue;
        }
        char key[256];
        if (tp_key(&p, key, sizeof key)) break;
        tp_space(&p, 0);
        if (p.s >= p.end || *p.s != '=') {
            tp_fail(&p, "expected '=' after key '%s'", key);
            break;
        }
        p.s++;
        if (json_object_get(cur, key)) {
            tp_fail(&p, "key '%s' is set twice", key);
            break;
        }
        json_t *v = tp_value(&p);
        if (!v) break;
        json_object_set_new(cur, key, v);
        tp_eol(&p);
    }
    if (p.failed) {
        json_decref(root);
        return NULL;
    }
    return root;
}

/* Read and parse a file. */
json_t *sw_toml_read(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0, r;
    char *buf = malloc(cap);
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    json_t *t = sw_toml_parse(buf, n, path, err, errlen);
    free(buf);
    return t;
}
