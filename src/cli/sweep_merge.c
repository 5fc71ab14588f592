/* sweep_merge.c - the results of a sweep: every point's status.json and report.json (read with jansson) into one
 * table with a row per point and kernel launch (a failed point with no launch keeps one row), written as
 * OUT/results.csv and OUT/results.json (the report layer's JSON writer), and the page OUT/results.html
 * (src/report/sweep_html.c). Columns: point, program, arg, the swept axes, status, launch, kernel, grid, block,
 * dynamic_smem, then the run reports' metrics (Nsight Compute names) in the order they first appear. */
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include "../report/json.h"
#include "../report/sweep_html.h"

/* The report members that are the launch's identity, not metrics. */
static const char *const g_ident[] = { "kernel", "grid", "block", "dynamic_smem" };

/* Whether a report member is an identity column. */
static int is_ident(const char *k)
{
    for (size_t i = 0; i < sizeof g_ident / sizeof g_ident[0]; i++)
        if (!strcmp(k, g_ident[i])) return 1;
    return 0;
}

/* The column name of an axis ("set:l2_size" -> "l2_size"). */
static const char *axis_column(const char *key)
{
    return !strncmp(key, "set:", 4) ? key + 4 : key;
}

/* Load a JSON file, or NULL. */
static json_t *load(const sw_spec *s, const char *name, const char *file)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/points/%s/%s", s->out, name, file);
    return json_load_file(path, 0, NULL);
}

/* Format a real as the shortest of %.15g / %.17g that reads back exactly. */
static void fmt_real(char *buf, size_t cap, double v)
{
    snprintf(buf, cap, "%.15g", v);
    if (strtod(buf, NULL) != v) snprintf(buf, cap, "%.17g", v);
}

/* Write a CSV field (quoted when it holds a comma, quote or line break). */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* A value as CSV text: numbers as in the report, arrays joined with 'x' (grid, block). */
static void csv_value(FILE *f, const json_t *v)
{
    char buf[64];
    if (!v || json_is_null(v)) return;
    if (json_is_string(v)) csv_field(f, json_string_value(v));
    else if (json_is_integer(v)) fprintf(f, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v)) {
        fmt_real(buf, sizeof buf, json_real_value(v));
        fputs(buf, f);
    } else if (json_is_boolean(v)) fputs(json_is_true(v) ? "true" : "false", f);
    else if (json_is_array(v)) {
        size_t i;
        const json_t *e;
        json_array_foreach(v, i, e) {
            if (i) fputc('x', f);
            csv_value(f, e);
        }
    }
}

/* Write a jansson value with the report layer's writer (reals as fmt_real). */
static void emit(ws_json *w, const json_t *v)
{
    size_t i;
    const json_t *e;
    const char *k;
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        ws_json_begin_object(w);
        json_object_foreach((json_t *)v, k, e) {
            ws_json_key(w, k);
            emit(w, e);
        }
        ws_json_end_object(w);
        break;
    case JSON_ARRAY:
        ws_json_begin_array(w);
        json_array_foreach(v, i, e) emit(w, e);
        ws_json_end_array(w);
        break;
    case JSON_STRING: ws_json_string(w, json_string_value(v)); break;
    case JSON_INTEGER: ws_json_int(w, json_integer_value(v)); break;
    case JSON_REAL: {
        double d = json_real_value(v);
        char buf[64];
        snprintf(buf, sizeof buf, "%.15g", d);
        ws_json_double_g(w, d, strtod(buf, NULL) == d ? 15 : 17);
        break;
    }
    case JSON_TRUE: ws_json_bool(w, 1); break;
    case JSON_FALSE: ws_json_bool(w, 0); break;
    default: ws_json_null(w); break;
    }
}

/* Build the results tree: columns, parameters, metrics, points and rows. */
static json_t *build(const sw_spec *s, int *nfailed)
{
    json_t *res = json_object(), *cols = json_array(), *params = json_array(), *metrics = json_array();
    json_t *points = json_array(), *rows = json_array(), *axes = json_array(), *progs = json_array();
    json_object_set_new(res, "warpsim_sweep", json_string("results 1"));
    char bname[16];
    sw_point_name(s->baseline, bname, sizeof bname);
    json_object_set_new(res, "baseline", json_string(bname));
    json_array_append_new(params, json_string("program"));
    json_array_append_new(params, json_string("arg"));
    for (int a = 0; a < s->naxes; a++) json_array_append_new(params, json_string(axis_column(s->axis[a].key)));
    for (int i = 0; i < s->nprog; i++) {
        json_t *p = json_object(), *args = json_array();
        for (int k = 0; k < s->prog[i].nargs; k++) json_array_append_new(args, json_string(s->prog[i].args[k]));
        json_object_set_new(p, "name", json_string(s->prog[i].name));
        json_object_set_new(p, "args", args);
        json_array_append_new(progs, p);
    }
    for (int a = 0; a < s->naxes; a++) {
        json_t *ax = json_object(), *vals = json_array();
        for (int k = 0; k < s->axis[a].n; k++) json_array_append_new(vals, json_string(s->axis[a].v[k]));
        json_object_set_new(ax, "key", json_string(axis_column(s->axis[a].key)));
        json_object_set_new(ax, "values", vals);
        json_array_append_new(axes, ax);
    }
    json_t *seen = json_object();
    int n = sw_spec_npoints(s);
    *nfailed = 0;
    for (int id = 0; id < n; id++) {
        sw_point p;
        sw_point_decode(s, id, &p);
        char name[16];
        sw_point_name(id, name, sizeof name);
        json_t *pt = json_object();
        json_object_set_new(pt, "point", json_string(name));
        json_object_set_new(pt, "program", json_string(s->prog[p.prog].name));
        json_object_set_new(pt, "arg", json_string(s->prog[p.prog].args[p.arg]));
        for (int a = 0; a < s->naxes; a++)
            json_object_set_new(pt, axis_column(s->axis[a].key), json_string(s->axis[a].v[p.pick[a]]));
        json_t *st = sw_point_finished(s, id) ? load(s, name, "status.json") : NULL;
        const char *status = st ? json_string_value(json_object_get(st, "status")) : NULL;
        const char *reason = st ? json_string_value(json_object_get(st, "reason")) : NULL;
        if (!status) status = "not run", reason = "no finished marker";
        if (strcmp(status, "passed")) (*nfailed)++;
        json_object_set_new(pt, "status", json_string(status));
        json_object_set_new(pt, "reason", json_string(reason ? reason : ""));
        json_t *rep = st ? load(s, name, "report.json") : NULL;
        json_t *launches = json_object_get(rep, "launches");
        size_t nl = json_is_array(launches) ? json_array_size(launches) : 0;
        json_object_set_new(pt, "launches", json_integer((json_int_t)nl));
        for (size_t l = 0; l < (nl ? nl : 1); l++) {
            json_t *row = json_deep_copy(pt);
            json_object_del(row, "reason");
            json_object_del(row, "launches");
            json_t *lr = nl ? json_array_get(launches, l) : NULL;
            if (lr) json_object_set_new(row, "launch", json_integer((json_int_t)l));
            const char *k;
            json_t *v;
            json_object_foreach(lr, k, v) {
                json_object_set(row, k, v);
                if (!is_ident(k) && !json_object_get(seen, k)) {
                    json_object_set_new(seen, k, json_true());
                    json_array_append_new(metrics, json_string(k));
                }
            }
            json_array_append_new(rows, row);
        }
        json_array_append_new(points, pt);
        json_decref(st);
        json_decref(rep);
    }
    json_decref(seen);
    json_array_append_new(cols, json_string("point"));
    json_array_extend(cols, params);
    json_array_append_new(cols, json_string("status"));
    json_array_append_new(cols, json_string("launch"));
    for (size_t i = 0; i < sizeof g_ident / sizeof g_ident[0]; i++) json_array_append_new(cols, json_string(g_ident[i]));
    json_array_extend(cols, metrics);
    json_object_set_new(res, "columns", cols);
    json_object_set_new(res, "parameters", params);
    json_object_set_new(res, "metrics", metrics);
    json_object_set_new(res, "programs", progs);
    json_object_set_new(res, "axes", axes);
    json_object_set_new(res, "points", points);
    json_object_set_new(res, "rows", rows);
    return res;
}

/* Write results.csv. */
static int write_csv(const char *path, const json_t *res)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    const json_t *cols = json_object_get(res, "columns"), *rows = json_object_get(res, "rows"), *c, *r;
    size_t i, j;
    json_array_foreach(cols, i, c) {
        if (i) fputc(',', f);
        csv_field(f, json_string_value(c));
    }
    fputc('\n', f);
    json_array_foreach(rows, j, r) {
        json_array_foreach(cols, i, c) {
            if (i) fputc(',', f);
            csv_value(f, json_object_get(r, json_string_value(c)));
        }
        fputc('\n', f);
    }
    return fclose(f) ? -1 : 0;
}

/* Write results.json: the tree, one point and one row per line; rows list the columns in order. */
static int write_json(const char *path, const json_t *res)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    ws_json w;
    ws_json_init_file(&w, f);
    ws_json_begin_object(&w);
    const char *k;
    const json_t *v;
    const json_t *cols = json_object_get(res, "columns");
    json_object_foreach((json_t *)res, k, v) {
        ws_json_break(&w, 1);
        ws_json_key(&w, k);
        if (!strcmp(k, "rows") || !strcmp(k, "points")) {
            ws_json_begin_array(&w);
            size_t i;
            const json_t *r;
            json_array_foreach(v, i, r) {
                ws_json_break(&w, 2);
                if (!strcmp(k, "points")) {
                    emit(&w, r);
                    continue;
                }
                ws_json_begin_object(&w);
                size_t c;
                const json_t *cn;
                json_array_foreach(cols, c, cn) {
                    const json_t *cv = json_object_get(r, json_string_value(cn));
                    if (!cv) continue;
                    ws_json_key(&w, json_string_value(cn));
                    emit(&w, cv);
                }
                ws_json_end_object(&w);
            }
            ws_json_break(&w, 1);
            ws_json_end_array(&w);
        } else
            emit(&w, v);
    }
    ws_json_break(&w, 0);
    ws_json_end_object(&w);
    ws_json_break(&w, 0);
    int bad = ws_json_finish(&w);
    return fclose(f) || bad ? -1 : 0;
}

/* Merge every point into the results files. */
int sw_merge(const sw_spec *s)
{
    int nfailed = 0;
    json_t *res = build(s, &nfailed);
    char path[PATH_MAX + 32], err[512] = "";
    int rc = 0;
    snprintf(path, sizeof path, "%s/results.csv", s->out);
    if (write_csv(path, res)) rc = -1;
    snprintf(path, sizeof path, "%s/results.json", s->out);
    if (!rc && write_json(path, res)) rc = -1;
    snprintf(path, sizeof path, "%s/results.html", s->out);
    FILE *f = rc ? NULL : fopen(path, "w");
    if (!rc && (!f || ws_rep_sweep_html(f, res, s->out, err, sizeof err))) rc = -1;
    if (f && fclose(f)) rc = -1;
    if (rc) fprintf(stderr, "warpsim sweep: cannot write %s%s%s\n", path, err[0] ? ": " : "", err);
    json_decref(res);
    return rc ? -1 : nfailed;
}
