/* sweep_html.c - the results page of a sweep (sweep_html.h), drawn with the explorers' kit (explore_svg.h). */
#include "sweep_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explore_svg.h"

/* Line colours of the series. */
static const char *const g_colors[] = { "#3b6fd8", "#e07b28", "#2e9a5e", "#c2417a", "#7a56c8", "#1f9bb0",
                                        "#b08a1f", "#5b6675" };
#define NCOLORS ((int)(sizeof g_colors / sizeof g_colors[0]))

/* Plot geometry (pixels). */
enum { PW = 680, PH = 300, PL = 78, PR = 170, PT = 16, PB = 46 };

/* What the page works on: the points, their parameter values and their per-point metric values. */
typedef struct page {
    const json_t *points, *params, *programs;
    size_t np, nparam, nm;
    const char **metric;        /* numeric metrics */
    double *val;                /* val[p * nm + m]: NaN when missing */
    size_t base;                /* the baseline point's index */
    int def;                    /* the metric shown first */
} page;

/* Parameter k's value at point p. */
static const char *pv(const page *g, size_t p, size_t k)
{
    const char *key = json_string_value(json_array_get(g->params, k));
    const char *v = json_string_value(json_object_get(json_array_get(g->points, p), key));
    return v ? v : "";
}

/* Index of parameter key, or -1. */
static int param_index(const page *g, const char *key)
{
    for (size_t k = 0; k < g->nparam; k++)
        if (!strcmp(json_string_value(json_array_get(g->params, k)), key)) return (int)k;
    return -1;
}

/* Whether a metric name is summed over a point's launches (else averaged). */
static int summed(const char *m)
{
    size_t n = strlen(m);
    return (n > 4 && !strcmp(m + n - 4, ".sum")) || !strcmp(m, "host_seconds");
}

/* Collect the numeric metrics and every point's value of each. */
static int collect(page *g, const json_t *res)
{
    const json_t *metrics = json_object_get(res, "metrics"), *rows = json_object_get(res, "rows");
    size_t nm = json_array_size(metrics);
    g->metric = calloc(nm ? nm : 1, sizeof *g->metric);
    if (!g->metric) return -1;
    for (size_t m = 0; m < nm; m++) {
        const char *name = json_string_value(json_array_get(metrics, m));
        size_t i;
        const json_t *r;
        int numeric = 0;
        json_array_foreach(rows, i, r) numeric |= json_is_number(json_object_get(r, name));
        if (numeric) g->metric[g->nm++] = name;
    }
    g->val = malloc((g->np ? g->np : 1) * (g->nm ? g->nm : 1) * sizeof *g->val);
    int *cnt = calloc((g->np ? g->np : 1) * (g->nm ? g->nm : 1), sizeof *cnt);
    if (!g->val || !cnt) {
        free(cnt);
        return -1;
    }
    for (size_t i = 0; i < g->np * g->nm; i++) g->val[i] = 0;
    size_t i;
    const json_t *r;
    json_array_foreach(rows, i, r) {
        const char *id = json_string_value(json_object_get(r, "point"));
        size_t p = id ? (size_t)atoi(id) : g->np;
        if (p >= g->np) continue;
        for (size_t m = 0; m < g->nm; m++) {
            const json_t *v = json_object_get(r, g->metric[m]);
            if (!json_is_number(v)) continue;
            g->val[p * g->nm + m] += json_number_value(v);
            cnt[p * g->nm + m]++;
        }
    }
    for (size_t k = 0; k < g->np * g->nm; k++) {
        if (!cnt[k]) g->val[k] = NAN;
        else if (!summed(g->metric[k % g->nm])) g->val[k] /= cnt[k];
    }
    free(cnt);
    g->def = 0;
    static const char *const pref[] = { "gpu__time_duration.sum", "sm__cycles_elapsed.max", "smsp__inst_executed.sum" };
    for (size_t k = 0; k < sizeof pref / sizeof pref[0]; k++)
        for (size_t m = 0; m < g->nm; m++)
            if (!strcmp(g->metric[m], pref[k])) {
                g->def = (int)m;
                k = sizeof pref / sizeof pref[0] - 1;
                break;
            }
    return 0;
}

/* Format a number for an axis or a cell: integers in full, else 4 significant digits. */
static void fmt(char *buf, size_t cap, double v)
{
    if (isnan(v)) snprintf(buf, cap, "-");
    else if (v == floor(v) && fabs(v) < 1e15) ws_rep_xs_int(buf, cap, (long long)v);
    else snprintf(buf, cap, "%.4g", v);
}

/* The argument a plot holds program prog at: the anchor point base's own for its program, else the argument at
 * the same position in prog's list (its last when the list is shorter). */
static const char *held_arg(const page *g, size_t base, const char *prog)
{
    const char *bprog = pv(g, base, 0), *barg = pv(g, base, 1);
    if (!strcmp(prog, bprog)) return barg;
    size_t i;
    const json_t *p;
    size_t bi = 0;
    json_array_foreach(g->programs, i, p) {
        if (strcmp(json_string_value(json_object_get(p, "name")), bprog)) continue;
        const json_t *args = json_object_get(p, "args");
        for (size_t k = 0; k < json_array_size(args); k++)
            if (!strcmp(json_string_value(json_array_get(args, k)), barg)) bi = k;
    }
    json_array_foreach(g->programs, i, p) {
        if (strcmp(json_string_value(json_object_get(p, "name")), prog)) continue;
        const json_t *args = json_object_get(p, "args");
        size_t n = json_array_size(args);
        return n ? json_string_value(json_array_get(args, bi < n ? bi : n - 1)) : "";
    }
    return "";
}

/* The point whose parameters the plots and speedups of metric m hold: the baseline, or when the baseline has no
 * value of m (a timing metric at a functional-mode baseline) the first point that has one. */
static size_t anchor(const page *g, size_t m)
{
    if (!isnan(g->val[g->base * g->nm + m])) return g->base;
    for (size_t p = 0; p < g->np; p++)
        if (!isnan(g->val[p * g->nm + m])) return p;
    return g->base;
}

/* The value series s shows at x category c (the first point of the pair), NAN where it has none. */
static double series_value(const page *g, size_t m, const int *ps, const int *pc, int s, int c)
{
    for (size_t p = 0; p < g->np; p++)
        if (ps[p] == s && pc[p] == c) return g->val[p * g->nm + m];
    return NAN;
}

/* One plot: metric m against parameter x; series by program (and device unless x is the device). */
static void plot(FILE *f, const page *g, size_t x, size_t m)
{
    int gpu = param_index(g, "gpu");
    size_t base = anchor(g, m);
    int by_gpu = 0;
    for (size_t p = 0; gpu >= 0 && (int)x != gpu && p < g->np; p++) by_gpu |= strcmp(pv(g, p, (size_t)gpu), pv(g, 0, (size_t)gpu)) != 0;
    /* the x categories, in order of first appearance */
    const char **cat = calloc(g->np, sizeof *cat);
    const char **ser = calloc(g->np, sizeof *ser);
    char (*sname)[160] = calloc(g->np, sizeof *sname);
    int *pc = malloc(g->np * sizeof *pc), *ps = malloc(g->np * sizeof *ps);
    if (!cat || !ser || !sname || !pc || !ps) goto done;
    size_t nc = 0, ns = 0;
    double ymax = 0;
    for (size_t p = 0; p < g->np; p++) {
        pc[p] = ps[p] = -1;
        const char *prog = pv(g, p, 0);
        int keep = 1;
        for (size_t k = 1; k < g->nparam && keep; k++) {
            if (k == x || (by_gpu && (int)k == gpu)) continue;
            const char *want = k == 1 ? held_arg(g, base, prog) : pv(g, base, k);
            keep = !strcmp(pv(g, p, k), want);
        }
        if (!keep && x != 0) continue;
        if (x == 0 && !keep) continue;
        const char *xv = pv(g, p, x);
        size_t c = 0;
        while (c < nc && strcmp(cat[c], xv)) c++;
        if (c == nc) cat[nc++] = xv;
        char sn[160];
        if (x == 0) snprintf(sn, sizeof sn, "%s", by_gpu ? pv(g, p, (size_t)gpu) : "all");
        else snprintf(sn, sizeof sn, "%s%s%s", prog, by_gpu ? " on " : "", by_gpu ? pv(g, p, (size_t)gpu) : "");
        size_t s = 0;
        while (s < ns && strcmp(sname[s], sn)) s++;
        if (s == ns) snprintf(sname[ns++], sizeof sname[0], "%s", sn);
        pc[p] = (int)c;
        ps[p] = (int)s;
        double v = g->val[p * g->nm + m];
        if (!isnan(v) && v > ymax) ymax = v;
    }
    if (ymax <= 0) ymax = 1;
    /* a round top for the axis */
    double step = pow(10, floor(log10(ymax / 4))), top = 0;
    static const double mult[] = { 1, 2, 2.5, 5, 10 };
    for (size_t k = 0; k < sizeof mult / sizeof mult[0]; k++)
        if (step * mult[k] * 4 >= ymax) {
            top = step * mult[k] * 4;
            break;
        }
    if (top <= 0) top = ymax;
    double iw = PW - PL - PR, ih = PH - PT - PB;
    const char *xname = json_string_value(json_array_get(g->params, x));
    fprintf(f, "<svg class=\"plot\" data-metric=\"%zu\" data-param=\"", m);
    ws_rep_xs_esc(f, xname);
    fprintf(f, "\"%s xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" "
               "aria-label=\"", (int)m == g->def ? "" : " style=\"display:none\"", PW, PH, PW, PH);
    ws_rep_xs_esc(f, g->metric[m]);
    fprintf(f, " against ");
    ws_rep_xs_esc(f, xname);
    fprintf(f, "\">\n");
    char buf[64];
    for (int t = 0; t <= 4; t++) {
        double y = PT + ih - ih * t / 4;
        ws_rep_xs_line(f, PL, y, PL + iw, y, XS_GRID, 1, NULL);
        fmt(buf, sizeof buf, top * t / 4);
        ws_rep_xs_text(f, PL - 6, y + 4, "end", 11, 400, XS_MUTED, buf);
    }
    for (size_t c = 0; c < nc; c++) {
        double cx = PL + (nc == 1 ? iw / 2 : iw * (double)c / (double)(nc - 1));
        ws_rep_xs_line(f, cx, PT + ih, cx, PT + ih + 4, XS_MUTED, 1, NULL);
        ws_rep_xs_text(f, cx, PT + ih + 17, "middle", 11, 400, XS_INK, cat[c]);
    }
    ws_rep_xs_text(f, PL + iw / 2, PH - 6, "middle", 12, 600, XS_INK, xname);
    double ly = 0;   /* the legend's next row */
    for (size_t s = 0; s < ns; s++) {
        const char *col = g_colors[s % NCOLORS];
        /* a series with exactly an earlier one's values would hide under it: drawn dashed, and the legend says so */
        int same = -1;
        for (size_t t = 0; t < s && same < 0; t++) {
            int eq = 1;
            for (size_t c = 0; c < nc && eq; c++) {
                double a = series_value(g, m, ps, pc, (int)s, (int)c), b = series_value(g, m, ps, pc, (int)t, (int)c);
                eq = isnan(a) ? isnan(b) : a == b;
            }
            if (eq) same = (int)t;
        }
        fprintf(f, "<polyline class=\"series\" data-series=\"");
        ws_rep_xs_esc(f, sname[s]);
        if (same >= 0) {
            fprintf(f, "\" data-same-as=\"");
            ws_rep_xs_esc(f, sname[same]);
        }
        fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", col,
                same >= 0 ? " stroke-dasharray=\"7 5\"" : "");
        for (size_t c = 0; c < nc; c++)
            for (size_t p = 0; p < g->np; p++) {
                if (ps[p] != (int)s || pc[p] != (int)c) continue;
                double v = g->val[p * g->nm + m];
                if (isnan(v)) continue;
                double cx = PL + (nc == 1 ? iw / 2 : iw * (double)c / (double)(nc - 1));
                fprintf(f, "%.1f,%.1f ", cx, PT + ih - ih * v / top);
                break;
            }
        fprintf(f, "\"/>\n");
        for (size_t p = 0; p < g->np; p++) {
            if (ps[p] != (int)s) continue;
            double v = g->val[p * g->nm + m];
            if (isnan(v)) continue;
            double cx = PL + (nc == 1 ? iw / 2 : iw * (double)pc[p] / (double)(nc - 1));
            fprintf(f, "<circle class=\"pt\" data-point=\"%s\" data-value=\"%.17g\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
                       "fill=\"%s\"><title>point ", json_string_value(json_object_get(json_array_get(g->points, p), "point")),
                    v, cx, PT + ih - ih * v / top, col);
            fmt(buf, sizeof buf, v);
            fprintf(f, "%s: %s</title></circle>\n",
                    json_string_value(json_object_get(json_array_get(g->points, p), "point")), buf);
        }
        ws_rep_xs_line(f, PW - PR + 14, PT + 10 + ly, PW - PR + 32, PT + 10 + ly, col, 2.5, same >= 0 ? "7 5" : NULL);
        ws_rep_xs_text(f, PW - PR + 38, PT + 14 + ly, "start", 11.5, 400, XS_INK, sname[s]);
        if (same >= 0) {
            char label[200];
            snprintf(label, sizeof label, "= %s", sname[same]);
            ws_rep_xs_text(f, PW - PR + 38, PT + 27 + ly, "start", 10, 400, XS_MUTED, label);
            ly += 13;
        }
        ly += 18;
    }
    fprintf(f, "</svg>\n");
done:
    free(cat);
    free(ser);
    free(sname);
    free(pc);
    free(ps);
}

/* The reference of point p for the speedups: same program and argument, the anchor point base's other
 * parameters. */
static long reference(const page *g, size_t p, size_t base)
{
    for (size_t q = 0; q < g->np; q++) {
        int same = 1;
        for (size_t k = 0; k < g->nparam && same; k++)
            same = !strcmp(pv(g, q, k), k < 2 ? pv(g, p, k) : pv(g, base, k));
        if (same) return (long)q;
    }
    return -1;
}

/* The table of every point with metric m and its speedup. */
static void table(FILE *f, const page *g, size_t m)
{
    fprintf(f, "<table class=\"t speedups\" data-metric=\"%zu\"%s><tr><th>point</th>", m,
            (int)m == g->def ? "" : " style=\"display:none\"");
    for (size_t k = 0; k < g->nparam; k++) {
        fprintf(f, "<th>");
        ws_rep_xs_esc(f, json_string_value(json_array_get(g->params, k)));
        fprintf(f, "</th>");
    }
    fprintf(f, "<th>status</th><th>");
    ws_rep_xs_esc(f, g->metric[m]);
    fprintf(f, "</th><th>speedup</th></tr>\n");
    char buf[64];
    size_t base = anchor(g, m);
    for (size_t p = 0; p < g->np; p++) {
        const json_t *pt = json_array_get(g->points, p);
        fprintf(f, "<tr%s data-point=\"%s\"><td>%s</td>", p == base ? " class=\"hl\"" : "",
                json_string_value(json_object_get(pt, "point")), json_string_value(json_object_get(pt, "point")));
        for (size_t k = 0; k < g->nparam; k++) {
            fprintf(f, "<td>");
            ws_rep_xs_esc(f, pv(g, p, k));
            fprintf(f, "</td>");
        }
        const char *st = json_string_value(json_object_get(pt, "status"));
        fprintf(f, "<td%s title=\"", st && strcmp(st, "passed") ? " class=\"lim\"" : "");
        ws_rep_xs_esc(f, json_string_value(json_object_get(pt, "reason")));
        fprintf(f, "\">");
        ws_rep_xs_esc(f, st ? st : "");
        double v = g->val[p * g->nm + m];
        fmt(buf, sizeof buf, v);
        fprintf(f, "</td><td>%s</td>", buf);
        long r = reference(g, p, base);
        double rv = r >= 0 ? g->val[(size_t)r * g->nm + m] : NAN;
        if (isnan(v) || isnan(rv) || v == 0) fprintf(f, "<td>-</td></tr>\n");
        else {
            double sp = rv / v;
            double w = fmin(120, 40 * sp);
            fprintf(f, "<td class=\"sp\" data-speedup=\"%.6f\">%.3f&times; <svg width=\"124\" height=\"10\" "
                       "style=\"display:inline;vertical-align:middle\"><rect width=\"%.1f\" height=\"10\" fill=\"%s\"/>"
                       "<line x1=\"40\" y1=\"0\" x2=\"40\" y2=\"10\" stroke=\"%s\"/></svg></td></tr>\n",
                    sp, sp, w, sp >= 1 ? "#2e9a5e" : "#e5484d", XS_INK);
        }
    }
    fprintf(f, "</table>\n");
}

/* Write the page. */
int ws_rep_sweep_html(FILE *f, const json_t *res, const char *out_dir, char *err, size_t errlen)
{
    page g;
    memset(&g, 0, sizeof g);
    g.points = json_object_get(res, "points");
    g.params = json_object_get(res, "parameters");
    g.programs = json_object_get(res, "programs");
    g.np = json_array_size(g.points);
    g.nparam = json_array_size(g.params);
    const char *base = json_string_value(json_object_get(res, "baseline"));
    g.base = base ? (size_t)atoi(base) : 0;
    if (!g.np || g.nparam < 2 || g.base >= g.np) {
        snprintf(err, errlen, "the results have no points");
        return -1;
    }
    if (collect(&g, res)) {
        snprintf(err, errlen, "out of memory");
        free(g.metric);
        return -1;
    }
    size_t failed = 0;
    for (size_t p = 0; p < g.np; p++)
        failed += strcmp(json_string_value(json_object_get(json_array_get(g.points, p), "status")), "passed") != 0;
    char lead[1024], cmd[4200];
    snprintf(lead, sizeof lead, "%zu points, %zu failed or not run, %zu metrics. Baseline: point %s. "
             "Each point's metric is the sum over its kernel launches (for <code>.sum</code> metrics and "
             "host_seconds) or their mean.", g.np, failed, g.nm, base ? base : "0000");
    snprintf(cmd, sizeof cmd, "warpsim sweep --out %s", out_dir);
    ws_rep_xs_begin_page(f, "sweep", cmd, "warpsim sweep results", lead);
    fprintf(f, "<p><label for=\"metric\"><b>Metric</b> </label><select id=\"metric\">");
    for (size_t m = 0; m < g.nm; m++) {
        fprintf(f, "<option value=\"%zu\"%s>", m, (int)m == g.def ? " selected" : "");
        ws_rep_xs_esc(f, g.metric[m]);
        fprintf(f, "</option>");
    }
    fprintf(f, "</select></p>\n");
    for (size_t x = 0; x < g.nparam && g.nm; x++) {
        int distinct = 0;
        for (size_t p = 1; p < g.np && !distinct; p++) distinct = strcmp(pv(&g, p, x), pv(&g, 0, x)) != 0;
        if (!distinct) continue;
        const char *xname = json_string_value(json_array_get(g.params, x));
        fprintf(f, "<figure class=\"param\" data-param=\"");
        ws_rep_xs_esc(f, xname);
        fprintf(f, "\"><h2>Metric against ");
        ws_rep_xs_esc(f, xname);
        fprintf(f, "</h2>\n");
        for (size_t m = 0; m < g.nm; m++) plot(f, &g, x, m);
        fprintf(f, "<figcaption>One line per %s; the other parameters at the baseline point's values (for a metric "
                   "the baseline lacks, such as a timing metric at a functional-mode baseline, the first point's that "
                   "has it).</figcaption>"
                   "</figure>\n", x == 0 ? "device" : "program (and device)");
    }
    fprintf(f, "<figure><h2>Speedups against the baseline</h2>\n");
    for (size_t m = 0; m < g.nm; m++) table(f, &g, m);
    fprintf(f, "<figcaption>Speedup = the reference point's metric / the point's, the reference having the point's "
               "program and argument and the baseline's other parameters (the highlighted row's, when the baseline lacks "
               "the metric; above 1: smaller than the reference, i.e. "
               "faster for times and counts). Hover a status for its reason.</figcaption></figure>\n");
    fprintf(f, "<script>(function(){var s=document.getElementById('metric');function show(){var m=s.value;"
               "document.querySelectorAll('[data-metric]').forEach(function(e){e.style.display="
               "e.getAttribute('data-metric')===m?'':'none';});}s.addEventListener('change',show);show();})();"
               "</script>\n");
    ws_rep_xs_end(f, "Made by warpsim sweep from the points' run reports (points/ID/report.json); the same data are "
                     "in results.csv and results.json.");
    free(g.metric);
    free(g.val);
    return 0;
}
