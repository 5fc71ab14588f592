/* explore_html_warp.c - the pictures of the warp explorers (explore_html_warp.h): latency, divergence and
 * rare-branch. */
#include "explore_html_warp.h"
#include "explore_svg.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------------ latency */

/* Fill and label of an issued instruction kind. */
static const char *kind_fill(const char *k)
{
    if (!strcmp(k, "LD")) return "#3b6fd8";
    if (!strcmp(k, "ADD")) return "#2e9a5e";
    if (!strcmp(k, "STORE")) return "#e07b28";
    if (!strcmp(k, "EXIT")) return "#8c96a3";
    return "#c3cad4";
}

/* Short label of an instruction kind in a cell. */
static const char *kind_label(const char *k)
{
    if (!strcmp(k, "STORE")) return "ST";
    if (!strcmp(k, "EXIT")) return "EX";
    if (!strcmp(k, "other")) return "";
    return k;
}

/* One latency run: the issue slot row and cycles x warps. */
static void latency_grid(FILE *f, const json_t *r, const char *key, int idx)
{
    const json_t *c = ws_rep_xs_get(r, key);
    long long warps = (long long)ws_rep_xs_d(c, "warps", 1), cycles = (long long)ws_rep_xs_d(c, "drawn_cycles", 1);
    long long window = (long long)ws_rep_xs_d(c, "window_cycles", 1);
    if (cycles > 200) cycles = 200;
    double left = 96, top = 46, cw = 880.0 / (double)cycles, ch = 24;
    if (cw > 34) cw = 34;
    if (ch > cw + 6 && warps > 8) ch = cw + 6 > 14 ? cw + 6 : 14;
    double W = left + cw * (double)cycles + 30, H = top + ch * (double)(warps + 1) + 26 + 70;
    if (W < 1000) W = 1000;
    char id[48];
    snprintf(id, sizeof id, "latency-svg-%d", idx);
    fprintf(f, "<figure id=\"fig-latency-%d\"><h2>", idx);
    fprintf(f, "%lld warp%s</h2>\n", warps, warps == 1 ? "" : "s");
    ws_rep_xs_svg(f, id, W, H, "cycles by warps: the instruction each warp issued in each cycle");
    /* cycle numbers */
    int step = cw >= 18 ? 1 : cw >= 8 ? 5 : 10;
    for (long long t = 1; t <= cycles; t++)
        if (t == 1 || t % step == 0)
            ws_rep_xs_textf(f, left + ((double)t - 0.5) * cw, top - 8, "middle", 10, 400, XS_MUTED, "%lld", t);
    ws_rep_xs_text(f, left - 8, top - 8, "end", 10, 600, XS_MUTED, "cycle");
    /* the window: first LD to last STORE */
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#1f2933\" "
               "stroke-width=\"1.5\" stroke-dasharray=\"5 3\" rx=\"3\"/>\n", left - 2, top - 2, cw * (double)window + 4,
            ch * (double)(warps + 1) + 4);
    /* the issue slot row */
    ws_rep_xs_text(f, left - 8, top + ch * 0.68, "end", 12, 650, XS_INK, "issue slot");
    const json_t *slots = json_object_get(c, "slots");
    unsigned char used[201] = { 0 };
    size_t i;
    json_t *s;
    json_array_foreach(slots, i, s) {
        long long t = (long long)json_integer_value(json_array_get(s, 0));
        if (t >= 1 && t <= cycles) used[t] = 1;
    }
    for (long long t = 1; t <= cycles; t++) {
        double x = left + (double)(t - 1) * cw;
        if (!used[t] && t <= window) {
            ws_rep_xs_rect(f, x + 1, top + 1, cw - 2, ch - 2, "#fde2e3", "#e5484d", NULL);
            if (cw >= 16) ws_rep_xs_text(f, x + cw / 2, top + ch * 0.68, "middle", 9.5, 600, "#c0392b", "idle");
        }
    }
    /* waits */
    json_array_foreach(json_object_get(c, "waits"), i, s) {
        long long w = (long long)json_integer_value(json_array_get(s, 0));
        long long t0 = (long long)json_integer_value(json_array_get(s, 1)), t1 = (long long)json_integer_value(json_array_get(s, 2));
        const char *why = json_string_value(json_array_get(s, 3));
        if (w >= warps || !why) continue;
        if (t0 < 1) t0 = 1;
        if (t1 > cycles + 1) t1 = cycles + 1;
        if (t1 <= t0) continue;
        double y = top + ch * (double)(w + 1);
        const char *fill = !strcmp(why, "not_selected") ? "#dfe9fb" : !strcmp(why, "long_scoreboard") ? "#f6e3b4"
                         : "#e6eadf";
        ws_rep_xs_rect(f, left + (double)(t0 - 1) * cw + 1, y + 4, (double)(t1 - t0) * cw - 2, ch - 8, fill, NULL, NULL);
    }
    /* issues */
    json_array_foreach(slots, i, s) {
        long long t = (long long)json_integer_value(json_array_get(s, 0)), w = (long long)json_integer_value(json_array_get(s, 1));
        const char *k = json_string_value(json_array_get(s, 2));
        if (t < 1 || t > cycles || w >= warps || !k) continue;
        double x = left + (double)(t - 1) * cw;
        ws_rep_xs_rrect(f, x + 1, top + 1, cw - 2, ch - 2, 3, kind_fill(k), NULL);
        ws_rep_xs_rrect(f, x + 1, top + ch * (double)(w + 1) + 1, cw - 2, ch - 2, 3, kind_fill(k), NULL);
        if (cw >= 20) {
            ws_rep_xs_text(f, x + cw / 2, top + ch * 0.68, "middle", 9.5, 650, "#fff", kind_label(k));
            ws_rep_xs_text(f, x + cw / 2, top + ch * (double)(w + 1) + ch * 0.68, "middle", 9.5, 650, "#fff", kind_label(k));
        }
    }
    for (long long w = 0; w < warps; w++)
        ws_rep_xs_textf(f, left - 8, top + ch * (double)(w + 1) + ch * 0.68, "end", ch >= 18 ? 12 : 9.5, 500, XS_INK,
                        "warp %lld", w);
    double ky = top + ch * (double)(warps + 1) + 30;
    double kx = ws_rep_xs_key(f, 10, ky, "#3b6fd8", NULL, "LD");
    kx = ws_rep_xs_key(f, kx, ky, "#2e9a5e", NULL, "ADD");
    kx = ws_rep_xs_key(f, kx, ky, "#e07b28", NULL, "STORE");
    kx = ws_rep_xs_key(f, kx, ky, "#8c96a3", NULL, "EXIT");
    kx = ws_rep_xs_key(f, kx, ky, "#f6e3b4", NULL, "waits for its load");
    kx = ws_rep_xs_key(f, kx, ky, "#e6eadf", NULL, "waits for its ADD");
    kx = ws_rep_xs_key(f, kx, ky, "#dfe9fb", NULL, "ready, another warp issued");
    ws_rep_xs_key(f, kx, ky, "#fde2e3", "#e5484d", "idle slot");
    ws_rep_xs_text_open(f, 10, ky + 26, "start", 12.5, 400, XS_INK);
    ws_rep_xs_span(f, 0, NULL, "First LD to last STORE (dashed): ");
    ws_rep_xs_snum(f, 700, NULL, r, -1, "%s.window_cycles", key);
    ws_rep_xs_span(f, 0, NULL, " cycles for ");
    ws_rep_xs_snum(f, 700, NULL, r, -1, "%s.units", key);
    ws_rep_xs_span(f, 0, NULL, " units: ");
    ws_rep_xs_snum(f, 700, NULL, r, -1, "%s.work_slots", key);
    ws_rep_xs_span(f, 0, NULL, " LD/ADD/STORE slots, ");
    ws_rep_xs_snum(f, 700, NULL, r, -1, "%s.exit_slots", key);
    ws_rep_xs_span(f, 0, NULL, " EXIT, ");
    ws_rep_xs_snum(f, 700, "#c0392b", r, -1, "%s.idle_slots", key);
    ws_rep_xs_span(f, 0, NULL, " idle; ");
    ws_rep_xs_snum(f, 700, NULL, r, 3, "%s.units_per_cycle", key);
    ws_rep_xs_span(f, 0, NULL, " units per cycle, ");
    ws_rep_xs_snum(f, 700, NULL, r, 3, "%s.units_per_work_slot", key);
    ws_rep_xs_span(f, 0, NULL, " per LD/ADD/STORE slot.");
    ws_rep_xs_text_close(f);
    ws_rep_xs_svg_end(f);
    fprintf(f, "</figure>\n");
}

/* The latency page. */
void ws_rep_xh_latency(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "latency", "Hide latency by picking another ready warp",
                    "Each warp runs LD &rarr; ADD &rarr; STORE. One issue slot per cycle; among the eligible warps the "
                    "lowest-numbered issues. A load issued in cycle c supplies its value at the start of cycle c + L; an "
                    "ADD supplies its result the next cycle. The timeline below is the timing model's: the real kernel ran "
                    "on a teaching SM whose loads take exactly L cycles and whose memory has no bandwidth limit.");
    fprintf(f, "<div class=\"cards\"><div class=\"card\"><div class=\"k\">load latency L</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "latency", -1);
    fprintf(f, " <small>cycles</small></div></div><div class=\"card\"><div class=\"k\">one warp</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "one_warp.unit_cycles", -1);
    fprintf(f, " <small>cycles per unit, ");
    ws_rep_xs_num(f, r, "one_warp.units_per_cycle", 3);
    fprintf(f, " units per cycle</small></div></div>");
    if (json_is_object(ws_rep_xs_get(r, "four_warps"))) {
        fprintf(f, "<div class=\"card\"><div class=\"k\">four warps</div><div class=\"v\">");
        ws_rep_xs_num(f, r, "four_warps.units", -1);
        fprintf(f, " <small>units in ");
        ws_rep_xs_num(f, r, "four_warps.work_slots", -1);
        fprintf(f, " LD/ADD/STORE slots, ");
        ws_rep_xs_num(f, r, "four_warps.idle_slots", -1);
        fprintf(f, " idle: ");
        ws_rep_xs_num(f, r, "four_warps.units_per_work_slot", 3);
        fprintf(f, " per slot</small></div></div>");
    }
    fprintf(f, "<div class=\"card\"><div class=\"k\">warps that fill every slot</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "fill_warps", -1);
    fprintf(f, " <small>at L = ");
    ws_rep_xs_num(f, r, "latency", -1);
    fprintf(f, "</small></div></div></div>\n");
    const json_t *runs = ws_rep_xs_get(r, "runs");
    for (size_t i = 0; i < json_array_size(runs); i++) {
        char key[32];
        snprintf(key, sizeof key, "runs.%zu", i);
        latency_grid(f, r, key, (int)i);
    }
    /* the sweep */
    const json_t *sw = ws_rep_xs_get(r, "sweep");
    size_t n = json_array_size(sw);
    double bw = 880.0 / (double)(n ? n : 1), maxu = 1.0 / 3.0, x0 = 60, y0 = 30, hh = 160;
    fprintf(f, "<figure id=\"fig-latency-sweep\"><h2>Units per cycle as warps are added</h2>\n");
    ws_rep_xs_svg(f, "latency-sweep-svg", 1000, y0 + hh + 60, "units per cycle for 1 to N warps");
    ws_rep_xs_line(f, x0, y0 + hh, x0 + bw * (double)n, y0 + hh, XS_MUTED, 1, NULL);
    ws_rep_xs_line(f, x0, y0 + hh - hh * 0.25 / maxu, x0 + bw * (double)n, y0 + hh - hh * 0.25 / maxu, XS_GRID, 1, "3 3");
    ws_rep_xs_text(f, x0 - 6, y0 + hh - hh * 0.25 / maxu + 4, "end", 10.5, 400, XS_MUTED, "0.25");
    ws_rep_xs_line(f, x0, y0, x0 + bw * (double)n, y0, "#2e9a5e", 1, "6 3");
    ws_rep_xs_text(f, x0 - 6, y0 + 4, "end", 10.5, 400, "#2e9a5e", "1/3");
    ws_rep_xs_text(f, x0 + bw * (double)n, y0 - 6, "end", 10.5, 400, "#2e9a5e",
                   "one unit per 3 slots: the most one issue slot allows");
    long long fill = (long long)ws_rep_xs_d(r, "fill_warps", -1);
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(sw, i);
        double u = ws_rep_xs_d(e, "units_per_cycle", 0), h = hh * u / maxu;
        long long w = (long long)ws_rep_xs_d(e, "warps", 0), idle = (long long)ws_rep_xs_d(e, "idle_slots", 0);
        ws_rep_xs_rect(f, x0 + (double)i * bw + 3, y0 + hh - h, bw - 6, h, w == fill ? "#e07b28" : idle ? "#9db7ea" : "#3b6fd8",
                       NULL, NULL);
        ws_rep_xs_textf(f, x0 + ((double)i + 0.5) * bw, y0 + hh + 14, "middle", 10.5, w == fill ? 700 : 400, XS_INK, "%lld", w);
    }
    ws_rep_xs_text(f, x0 + bw * (double)n / 2, y0 + hh + 32, "middle", 11.5, 400, XS_MUTED, "warps");
    ws_rep_xs_text_open(f, x0, y0 + hh + 52, "start", 12.5, 400, XS_INK);
    ws_rep_xs_span(f, 0, NULL, "Light bars leave idle slots between the first LD and the last STORE; from ");
    ws_rep_xs_snum(f, 700, "#e07b28", r, -1, "fill_warps");
    ws_rep_xs_span(f, 0, NULL, " warps on (orange) at L = ");
    ws_rep_xs_snum(f, 700, NULL, r, -1, "latency");
    ws_rep_xs_span(f, 0, NULL, " every slot is busy.");
    ws_rep_xs_text_close(f);
    ws_rep_xs_svg_end(f);
    fprintf(f, "<figcaption>Units per cycle = warps / (cycles from the first LD to the last STORE). It approaches but "
               "stays under 1/3: each warp also issues an EXIT after its STORE, an instruction the seed's model does not "
               "have, and in the lowest-numbered policy that EXIT takes the next slot. Counted per LD/ADD/STORE slot, "
               "every run does exactly 1/3 of a unit.</figcaption></figure>\n");
    fprintf(f, "<p class=\"note\">More warps are not always better under the lowest-numbered policy: a warp whose LD "
               "cannot issue before the lower warps' ADDs and STOREs starts its wait late, and idle slots come back at "
               "the end (the light bars after the orange one).</p>\n");
    ws_rep_xs_end(f, "Kernel: <code>explore/latency.cu</code> (addresses, a barrier, then LD, ADD, STORE), one block of "
                     "1 to N warps per launch, run with <code>warpsim run --timing</code> on a copy of "
                     "<code>teaching-sm</code> with <code>dram_latency = l1_hit_latency = L</code>, no bandwidth limit and "
                     "room for 32 warps. Every issue and every wait: the timing model's issue timeline (the run report's "
                     "view data).");
}

/* ------------------------------------------------------------------------------------------------ divergence */

/* Fill of a path. */
static const char *path_fill(const char *p)
{
    if (!strcmp(p, "true")) return "#3b6fd8";
    if (!strcmp(p, "false")) return "#d9534f";
    if (!strcmp(p, "branch")) return "#7b61c4";
    return "#8c96a3";
}

/* The divergence page. */
void ws_rep_xh_divergence(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "divergence", "Follow the active lanes through a branch",
                    "An 8-lane warp (the <code>teaching-8lane</code> preset). Each lane starts with its lane number + 1; "
                    "lanes whose bit is set take the true path (+10, &times;2), the others the false path (&minus;1, "
                    "&times;3, +5). The warp issues one instruction at a time: when its lanes disagree it issues both "
                    "paths, each with only its own lanes active. A path with no active lanes is not issued at all.");
    const json_t *runs = ws_rep_xs_get(r, "runs");
    long long lanes = (long long)ws_rep_xs_d(r, "lanes", 8);
    fprintf(f, "<div class=\"cards\">");
    static const char *const words[3] = { "your mask", "all lanes true", "all lanes false" };
    for (size_t i = 0; i < json_array_size(runs) && i < 3; i++) {
        fprintf(f, "<div class=\"card\"><div class=\"k\">%s</div><div class=\"v\">", words[i]);
        ws_rep_xs_numf(f, r, -1, "runs.%zu.warp_insts", i);
        fprintf(f, " <small>warp instructions");
        if (json_is_object(json_object_get(json_array_get(runs, i), "path_insts"))) {
            fprintf(f, "; path: ");
            ws_rep_xs_numf(f, r, -1, "runs.%zu.path_insts.true", i);
            fprintf(f, " true + ");
            ws_rep_xs_numf(f, r, -1, "runs.%zu.path_insts.false", i);
            fprintf(f, " false");
        }
        fprintf(f, "</small></div></div>");
    }
    fprintf(f, "</div>\n");
    const json_t *run0 = json_array_get(runs, 0), *steps = json_object_get(run0, "steps");
    size_t ns = json_array_size(steps);
    double left = 330, cw = 54, ch = 26, top = 70;
    double H = top + ch * (double)ns + (ns ? 8 : 36) + 72;
    fprintf(f, "<figure id=\"fig-divergence\"><h2>Every instruction the warp issued, and its active lanes</h2>\n");
    ws_rep_xs_svg(f, "divergence-svg", 1000, H, "the active mask of every issued instruction");
    ws_rep_xs_textf(f, 10, 20, "start", 12.5, 650, XS_INK, "mask 0x%02llx (bit set: true path)",
                    (long long)ws_rep_xs_d(r, "mask", 0));
    for (long long l = 0; l < lanes; l++) {
        double x = left + (double)l * cw;
        int t = ((long long)ws_rep_xs_d(r, "mask", 0) >> l) & 1;
        ws_rep_xs_textf(f, x + cw / 2, 20, "middle", 11, 600, XS_MUTED, "lane %lld", l);
        ws_rep_xs_rrect(f, x + 4, 28, cw - 8, 20, 4, t ? "#dce7fb" : "#f8dadd", NULL);
        ws_rep_xs_text(f, x + cw / 2, 42, "middle", 10.5, 650, t ? "#3b6fd8" : "#d9534f", t ? "true" : "false");
        char p[64];
        snprintf(p, sizeof p, "start.%lld", l);
        ws_rep_xs_tnum(f, x + cw / 2, top - 6, "middle", 12, 650, XS_INK, r, p, -1);
    }
    ws_rep_xs_text(f, left - 10, top - 6, "end", 11.5, 500, XS_MUTED, "start value");
    double y = top;
    size_t i;
    json_t *s;
    json_array_foreach(steps, i, s) {
        const char *path = ws_rep_xs_s(s, "path", "common");
        long long act = (long long)ws_rep_xs_d(s, "active", 0), ex = (long long)ws_rep_xs_d(s, "exec", 0);
        if (i % 2 == 0) ws_rep_xs_rect(f, 6, y, left + cw * (double)lanes - 6, ch, "#f7f8fa", NULL, NULL);
        fprintf(f, "<text x=\"14\" y=\"%.1f\" font-size=\"11.5\" class=\"mono\" fill=\"%s\">", y + ch * 0.66,
                strcmp(path, "common") ? path_fill(path) : XS_INK);
        ws_rep_xs_esc(f, ws_rep_xs_s(s, "text", ""));
        fprintf(f, "</text>\n");
        if (strcmp(path, "common"))
            ws_rep_xs_text(f, left - 10, y + ch * 0.66, "end", 10.5, 650, path_fill(path), path);
        for (long long l = 0; l < lanes; l++) {
            double x = left + (double)l * cw;
            if ((ex >> l) & 1) ws_rep_xs_rrect(f, x + 6, y + 4, cw - 12, ch - 8, 4, path_fill(path), NULL);
            else if ((act >> l) & 1) ws_rep_xs_rrect(f, x + 6, y + 4, cw - 12, ch - 8, 4, "#ffffff", path_fill(path));
            else ws_rep_xs_rrect(f, x + 6, y + 4, cw - 12, ch - 8, 4, "url(#divergence-svg-hatch)", "#d3d8df");
        }
        y += ch;
    }
    if (!ns)
        ws_rep_xs_text(f, left, y + 18, "start", 12.5, 400, XS_MUTED,
                       "(the active masks come from the run report's view data, which this warpsim does not collect)");
    y += ns ? 8 : 36;
    ws_rep_xs_text(f, left - 10, y + 18, "end", 11.5, 500, XS_MUTED, "final value");
    for (long long l = 0; l < lanes; l++) {
        char p[64];
        snprintf(p, sizeof p, "runs.0.values.%lld", l);
        int t = ((long long)ws_rep_xs_d(r, "mask", 0) >> l) & 1;
        ws_rep_xs_rrect(f, left + (double)l * cw + 4, y + 2, cw - 8, 24, 4, t ? "#dce7fb" : "#f8dadd", NULL);
        ws_rep_xs_tnum(f, left + ((double)l + 0.5) * cw, y + 19, "middle", 13, 700, t ? "#2c55b0" : "#b03a36", r, p, -1);
    }
    double ky = y + 58;
    double kx = ws_rep_xs_key(f, 10, ky, "#3b6fd8", NULL, "true path, lane executes");
    kx = ws_rep_xs_key(f, kx, ky, "#d9534f", NULL, "false path, lane executes");
    kx = ws_rep_xs_key(f, kx, ky, "#8c96a3", NULL, "both paths' code");
    ws_rep_xs_key(f, kx, ky, "url(#divergence-svg-hatch)", "#d3d8df", "lane masked off");
    ws_rep_xs_svg_end(f);
    fprintf(f, "<figcaption>The mixed warp issued ");
    ws_rep_xs_num(f, r, "runs.0.warp_insts", -1);
    fprintf(f, " instructions, ");
    ws_rep_xs_num(f, r, "extra_vs_all_true", -1);
    fprintf(f, " more than when all lanes take the true path (");
    ws_rep_xs_num(f, r, "runs.1.warp_insts", -1);
    fprintf(f, ") and ");
    ws_rep_xs_num(f, r, "extra_vs_all_false", -1);
    fprintf(f, " more than when all take the false path (");
    ws_rep_xs_num(f, r, "runs.2.warp_insts", -1);
    fprintf(f, "): the uniform warps skip the path no lane takes. The true path ends with a jump over the false path, "
               "so it costs one instruction more than its two operations.</figcaption></figure>\n");
    /* the three runs' values */
    fprintf(f, "<figure id=\"fig-divergence-values\"><h2>Final values</h2><table class=\"t\"><tr><th>run</th><th>mask</th>");
    for (long long l = 0; l < lanes; l++) fprintf(f, "<th>lane %lld</th>", l);
    fprintf(f, "<th>warp instructions</th></tr>\n");
    for (i = 0; i < json_array_size(runs); i++) {
        const json_t *o = json_array_get(runs, i);
        fprintf(f, "<tr><td>%s</td><td><code>0x%02llx</code></td>", i < 3 ? words[i] : "", (long long)ws_rep_xs_d(o, "mask", 0));
        for (long long l = 0; l < lanes; l++) {
            fprintf(f, "<td>");
            ws_rep_xs_numf(f, r, -1, "runs.%zu.values.%lld", i, l);
            fprintf(f, "</td>");
        }
        fprintf(f, "<td>");
        ws_rep_xs_numf(f, r, -1, "runs.%zu.warp_insts", i);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table></figure>\n");
    ws_rep_xs_end(f, "Kernel: <code>explore/divergence.cu</code> (each step one inline-PTX instruction, so the branch is "
                     "real), three launches on <code>teaching-8lane</code>: your mask, all lanes true, all lanes false. "
                     "Values: the kernel's output; warp instructions: the run report's <code>smsp__inst_executed.sum</code>; "
                     "the active and executed lanes of every issued instruction: the view data's divergence record.");
}

/* ------------------------------------------------------------------------------------------------ rare-branch */

/* One map of warps: a square per warp coloured by its kind. */
static void rare_map(FILE *f, const json_t *r, const char *key, double x0, double y0, const char *title)
{
    const char *k = ws_rep_xs_s(r, key, "");
    size_t n = strlen(k);
    long long cols = 64;
    double cell = 6.5;
    ws_rep_xs_text(f, x0, y0 - 8, "start", 13.5, 700, XS_INK, title);
    for (size_t i = 0; i < n && i < 65536; i++) {
        const char *fill = k[i] == '1' ? "#e07b28" : k[i] == '2' ? "#3b6fd8" : "#e4e8ee";
        ws_rep_xs_rect(f, x0 + (double)((long long)i % cols) * cell, y0 + (double)((long long)i / cols) * cell, cell - 1,
                       cell - 1, fill, NULL, NULL);
    }
}

/* The rare-branch page. */
void ws_rep_xh_rare(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "rare-branch", "A branch rare for threads is common for warps",
                    "Each thread takes an expensive path with probability p. A warp must issue that path when any of its "
                    "32 lanes takes it, which happens with probability 1 &minus; (1 &minus; p)<sup>32</sup>. The kernel "
                    "counted, with <code>__ballot_sync</code>, the warps that issued the path and the warps that "
                    "diverged, for random data and for the same data grouped so that the taking elements are "
                    "neighbours.");
    fprintf(f, "<div class=\"cards\"><div class=\"card\"><div class=\"k\">p per thread</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "p", 3);
    fprintf(f, "</div></div><div class=\"card\"><div class=\"k\">1 &minus; (1 &minus; p)<sup>32</sup></div><div class=\"v\">");
    ws_rep_xs_num(f, r, "formula_pct", 1);
    fprintf(f, "%% <small>of the warps</small></div></div><div class=\"card\"><div class=\"k\">simulated, random data</div>"
               "<div class=\"v\">");
    ws_rep_xs_num(f, r, "random.divergent_pct", 1);
    fprintf(f, "%% <small>(");
    ws_rep_xs_num(f, r, "random.divergent", -1);
    fprintf(f, " of ");
    ws_rep_xs_num(f, r, "warps", -1);
    fprintf(f, " warps diverge)</small></div></div><div class=\"card\"><div class=\"k\">grouped data</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "grouped.divergent", -1);
    fprintf(f, " <small>divergent warp(s)</small></div></div></div>\n");
    long long warps = (long long)ws_rep_xs_d(r, "warps", 4096);
    long long rows = (warps + 63) / 64;
    if (rows > 256) rows = 256;
    double mh = (double)rows * 6.5;
    fprintf(f, "<figure id=\"fig-rare\"><h2>Every warp: does it issue the rare path?</h2>\n");
    ws_rep_xs_svg(f, "rare-svg", 1000, mh + 150, "maps of the warps, random against grouped data");
    rare_map(f, r, "random.kinds", 20, 30, "random data");
    rare_map(f, r, "grouped.kinds", 500, 30, "grouped data");
    double ky = 30 + mh + 28;
    double kx = ws_rep_xs_key(f, 20, ky, "#e07b28", NULL, "diverges: some lanes take the path");
    kx = ws_rep_xs_key(f, kx, ky, "#3b6fd8", NULL, "all 32 lanes take it");
    ws_rep_xs_key(f, kx, ky, "#e4e8ee", NULL, "no lane takes it");
    /* instruction counts */
    double ri = ws_rep_xs_d(r, "random.warp_insts", 0), gi = ws_rep_xs_d(r, "grouped.warp_insts", 0);
    double mx = ri > gi ? ri : gi, bx = 240, bwid = 560;
    if (mx <= 0) mx = 1;
    ws_rep_xs_text(f, 20, ky + 38, "start", 12.5, 600, XS_INK, "warp instructions, random");
    ws_rep_xs_rect(f, bx, ky + 26, bwid * ri / mx, 16, "#e07b28", NULL, NULL);
    ws_rep_xs_tnum(f, bx + bwid * ri / mx + 8, ky + 39, "start", 12.5, 650, XS_INK, r, "random.warp_insts", -1);
    ws_rep_xs_text(f, 20, ky + 62, "start", 12.5, 600, XS_INK, "warp instructions, grouped");
    ws_rep_xs_rect(f, bx, ky + 50, bwid * gi / mx, 16, "#3b6fd8", NULL, NULL);
    ws_rep_xs_tnum(f, bx + bwid * gi / mx + 8, ky + 63, "start", 12.5, 650, XS_INK, r, "grouped.warp_insts", -1);
    ws_rep_xs_svg_end(f);
    fprintf(f, "<figcaption>Random data: ");
    ws_rep_xs_num(f, r, "random.issuing", -1);
    fprintf(f, " warps issue the rare path (");
    ws_rep_xs_num(f, r, "random.issuing_pct", 1);
    fprintf(f, "%%, the formula says ");
    ws_rep_xs_num(f, r, "formula_pct", 1);
    fprintf(f, "%%). Grouped: ");
    ws_rep_xs_num(f, r, "grouped.issuing", -1);
    fprintf(f, " warps issue it and ");
    ws_rep_xs_num(f, r, "grouped.divergent", -1);
    fprintf(f, " diverges (the one holding the boundary). The same work costs ");
    ws_rep_xs_num(f, r, "cost_ratio", 2);
    fprintf(f, "&times; the warp instructions in random order.</figcaption></figure>\n");
    ws_rep_xs_end(f, "Kernel: <code>explore/rare-branch.cu</code>, two launches on <code>teaching-sm</code> (random and "
                     "grouped data from a seeded generator). Issuing and divergent warps and each warp's kind: counted by "
                     "the kernel (<code>__ballot_sync</code>); warp instructions: the run report's "
                     "<code>smsp__inst_executed.sum</code>.");
}
