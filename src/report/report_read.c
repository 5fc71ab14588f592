/* report_read.c - the run report's launches, read with jansson. */
#include "report_read.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read a grid or block: [x], [x, y] or [x, y, z] of integers (missing ones are 1), or one integer;
 * 0, or -1 with what is wrong in why. */
static int read_dim3(const json_t *v, long long out[3], const char **why)
{
    out[0] = out[1] = out[2] = 1;
    if (json_is_integer(v)) {
        out[0] = json_integer_value(v);
    } else if (json_is_array(v) && json_array_size(v) >= 1 && json_array_size(v) <= 3) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            const json_t *e = json_array_get(v, i);
            if (!json_is_integer(e)) { *why = "is not an array of integers"; return -1; }
            out[i] = json_integer_value(e);
        }
    } else {
        *why = v ? "is not an array of 1 to 3 integers" : "is missing";
        return -1;
    }
    for (int i = 0; i < 3; i++)
        if (out[i] < 0) { *why = "has a negative dimension"; return -1; }
    return 0;
}

/* Take the launches out of a parsed report; 0, or -1 with a message. */
static int extract(const json_t *root, const char *name, ws_rep_launches *out, char *err, size_t errlen)
{
    const json_t *ls = json_is_object(root) ? json_object_get(root, "launches") : NULL;
    if (!json_is_array(ls)) {
        snprintf(err, errlen, "%s: not a run report (no \"launches\" array)", name);
        return -1;
    }
    size_t n = json_array_size(ls);
    out->v = n ? calloc(n, sizeof *out->v) : NULL;
    if (n && !out->v) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *l = json_array_get(ls, i);
        const json_t *kn = json_object_get(l, "kernel");
        const json_t *ds = json_object_get(l, "dynamic_smem");
        const char *what = NULL, *why = NULL;
        ws_rep_launch_cfg *c = &out->v[i];
        if (!json_is_object(l)) what = "the launch", why = "is not an object";
        else if (!json_is_string(kn)) what = "\"kernel\"", why = kn ? "is not a string" : "is missing";
        else if (read_dim3(json_object_get(l, "grid"), c->grid, &why)) what = "\"grid\"";
        else if (read_dim3(json_object_get(l, "block"), c->block, &why)) what = "\"block\"";
        else if (ds && (!json_is_integer(ds) || json_integer_value(ds) < 0))
            what = "\"dynamic_smem\"", why = "is not a non-negative integer";
        if (what) {
            snprintf(err, errlen, "%s: launch %zu: %s %s", name, i + 1, what, why);
            ws_rep_launches_free(out);
            return -1;
        }
        c->kernel = strdup(json_string_value(kn));
        c->dyn_smem = ds ? (size_t)json_integer_value(ds) : 0;
        out->n = i + 1;
        if (!c->kernel) {
            snprintf(err, errlen, "%s: out of memory", name);
            ws_rep_launches_free(out);
            return -1;
        }
    }
    out->n = n;
    return 0;
}

/* Say where jansson stopped parsing. */
static void parse_error(const json_error_t *je, const char *name, char *err, size_t errlen)
{
    if (je->line > 0) snprintf(err, errlen, "%s:%d:%d: not JSON: %s", name, je->line, je->column, je->text);
    else snprintf(err, errlen, "%s: %s", name, je->text);
}

/* Read a run report file. */
int ws_rep_read_launches(const char *path, ws_rep_launches *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root) {
        parse_error(&je, path, err, errlen);
        return -1;
    }
    int rc = extract(root, path, out, err, errlen);
    json_decref(root);
    return rc;
}

/* Read a run report held in memory. */
int ws_rep_parse_launches(const char *text, size_t len, const char *name, ws_rep_launches *out, char *err,
                          size_t errlen)
{
    memset(out, 0, sizeof *out);
    json_error_t je;
    json_t *root = json_loadb(text, len, 0, &je);
    if (!root) {
        parse_error(&je, name, err, errlen);
        return -1;
    }
    int rc = extract(root, name, out, err, errlen);
    json_decref(root);
    return rc;
}

/* Free the launches. */
void ws_rep_launches_free(ws_rep_launches *l)
{
    if (l->v)
        for (size_t i = 0; i < l->n; i++) free(l->v[i].kernel);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}
