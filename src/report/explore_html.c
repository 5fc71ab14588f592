/* explore_html.c - the pictures of `warpsim explore` (explore_html.h): the dispatcher and the pictures of the
 * grid and residency explorers (map, fit, launch, occupancy, placement); explore_html_warp.c and
 * explore_html_mem.c draw the others. Every number shown comes from the result object (ws_rep_xs_num). */
#include "explore_html.h"
#include "explore_html_mem.h"
#include "explore_html_warp.h"
#include "explore_svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Colours of blocks (block i uses g_block_fill[i % 8]). */
static const char *const g_block_fill[8] = { "#3b6fd8", "#e07b28", "#2e9a5e", "#9b59b6", "#d64550", "#1aa3a3",
                                             "#b8860b", "#5d6d7e" };
static const char *const g_block_wash[8] = { "#dce7fb", "#fbe5d2", "#d8f0e2", "#eadcf2", "#f8dadd", "#d2f1f1",
                                             "#f3e8c8", "#e1e5ea" };

/* ------------------------------------------------------------------------------------------------ map */

/* The map page. */
static void page_map(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "map", "Map an element to its block, warp and lane",
                    "One thread per element: thread <code>i = blockIdx.x &times; blockDim.x + threadIdx.x</code> adds "
                    "element <code>i</code>. The launch rounds up to whole blocks, so surplus threads fail the guard "
                    "<code>if (i &lt; n)</code>. Every cell below is one launched thread, as the kernel itself recorded "
                    "it: its block, its warp and lane, and the element its formula gave it.");
    fprintf(f, "<div class=\"cards\">");
    fprintf(f, "<div class=\"card\"><div class=\"k\">elements N</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "n", -1);
    fprintf(f, "</div></div><div class=\"card\"><div class=\"k\">threads per block</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "threads_per_block", -1);
    fprintf(f, "</div></div><div class=\"card\"><div class=\"k\">blocks</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "blocks", -1);
    fprintf(f, " <small>(");
    ws_rep_xs_num(f, r, "surplus_threads", -1);
    fprintf(f, " surplus threads)</small></div></div>");
    if (json_is_object(ws_rep_xs_get(r, "element"))) {
        fprintf(f, "<div class=\"card\" style=\"flex:2 1 340px\"><div class=\"k\">element ");
        ws_rep_xs_num(f, r, "element.index", -1);
        fprintf(f, "</div><div class=\"v\">block ");
        ws_rep_xs_num(f, r, "element.block", -1);
        fprintf(f, ", thread ");
        ws_rep_xs_num(f, r, "element.thread", -1);
        fprintf(f, " <small>warp ");
        ws_rep_xs_num(f, r, "element.warp", -1);
        fprintf(f, ", lane ");
        ws_rep_xs_num(f, r, "element.lane", -1);
        fprintf(f, ", on SM ");
        ws_rep_xs_num(f, r, "element.sm", -1);
        fprintf(f, "</small></div></div>");
    }
    fprintf(f, "</div>\n");

    long long blocks = (long long)ws_rep_xs_d(r, "blocks", 0), tpb = (long long)ws_rep_xs_d(r, "threads_per_block", 1);
    long long ws = (long long)ws_rep_xs_d(r, "warp_size", 32), wpb = (long long)ws_rep_xs_d(r, "warps_per_block", 1);
    long long elem = (long long)ws_rep_xs_d(r, "element.index", -1), n = (long long)ws_rep_xs_d(r, "n", 0);
    const json_t *threads = ws_rep_xs_get(r, "threads");
    /* at most 24 warp rows */
    long long rows_cap = 24, drawn_blocks = 0, rows = 0;
    while (drawn_blocks < blocks && rows + wpb <= rows_cap) { drawn_blocks++; rows += wpb; }
    if (drawn_blocks == 0) { drawn_blocks = 1; rows = wpb < rows_cap ? wpb : rows_cap; }
    double cell = 24, gap = 3, left = 92, top = 44;
    double bw = left + (double)ws * (cell + gap) + 10;
    double block_h = 30, row_h = cell + gap;
    double h = top + (double)drawn_blocks * (block_h + 14) + (double)rows * row_h + 150;
    double W = bw + 20 > 1000 ? bw + 20 : 1000;
    fprintf(f, "<figure id=\"fig-map\"><h2>The grid: blocks, warps, lanes</h2>\n");
    ws_rep_xs_svg(f, "map-svg", W, h, "the launched threads by block, warp and lane");
    /* lane numbers */
    for (long long l = 0; l < ws; l++)
        ws_rep_xs_textf(f, left + (double)l * (cell + gap) + cell / 2, top - 10, "middle", 10, 400, XS_MUTED, "%lld", l);
    ws_rep_xs_text(f, left - 8, top - 10, "end", 10, 600, XS_MUTED, "lane");
    double y = top;
    long long ew = -1, el = -1, eb = -1;
    double ex = 0, ey = 0;
    for (long long b = 0; b < drawn_blocks; b++) {
        char sm[64];
        snprintf(sm, sizeof sm, "blocks_on_sms.%lld.sm", b);
        ws_rep_xs_rrect(f, 6, y, bw - 6, block_h + (double)wpb * row_h + 6, 8, g_block_wash[b % 8], NULL);
        ws_rep_xs_textf(f, 16, y + 20, "start", 14, 650, g_block_fill[b % 8], "block %lld", b);
        ws_rep_xs_textf(f, 90, y + 20, "start", 12.5, 400, XS_INK,
                        "threads %lld-%lld, elements %lld-%lld", b * tpb, b * tpb + tpb - 1, b * tpb,
                        b * tpb + tpb - 1);
        ws_rep_xs_text(f, bw - 60, y + 20, "end", 12.5, 600, XS_INK, "ran on SM");
        ws_rep_xs_tnum(f, bw - 52, y + 20, "start", 12.5, 650, XS_INK, r, sm, -1);
        y += block_h;
        for (long long w = 0; w < wpb; w++) {
            ws_rep_xs_textf(f, left - 8, y + cell * 0.68, "end", 12, 600, XS_INK, "warp %lld", w);
            for (long long l = 0; l < ws; l++) {
                long long t = w * ws + l;
                double cx = left + (double)l * (cell + gap);
                if (t >= tpb) {
                    ws_rep_xs_rect(f, cx, y, cell, cell, "none", XS_GRID, NULL);
                    continue;
                }
                const json_t *rec = json_array_get(threads, (size_t)(b * tpb + t));
                long long idx = (long long)json_integer_value(json_array_get(rec, 4));
                int active = json_integer_value(json_array_get(rec, 5)) != 0;
                fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"3\" fill=\"%s\" "
                           "stroke=\"%s\"/>\n", cx, y, cell, cell, active ? "#ffffff" : "url(#map-svg-hatch)",
                        active ? g_block_fill[b % 8] : "#c9ced6");
                ws_rep_xs_textf(f, cx + cell / 2, y + cell * 0.66, "middle", idx > 999 ? 7.5 : 9.5, 500,
                                active ? XS_INK : "#9aa5b1", "%lld", idx);
                if (idx == elem) { ex = cx; ey = y; ew = w; el = l; eb = b; }
            }
            y += row_h;
        }
        y += 14;
    }
    if (drawn_blocks < blocks)
        ws_rep_xs_textf(f, 16, y + 4, "start", 12.5, 400, XS_MUTED, "... and %lld more blocks", blocks - drawn_blocks);
    /* the followed element */
    if (eb >= 0) {
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"4\" fill=\"none\" stroke=\"#e5484d\" "
                   "stroke-width=\"3\"/>\n", ex - 2, ey - 2, cell + 4, cell + 4);
        (void)ew;
        (void)el;
    }
    /* the SMs the blocks ran on */
    y += 16;
    ws_rep_xs_text(f, 10, y + 14, "start", 13, 650, XS_INK, "SMs");
    const json_t *sms = ws_rep_xs_get(r, "blocks_on_sms");
    long long used[64], nused = 0;
    size_t i;
    json_t *b;
    json_array_foreach(sms, i, b) {
        long long s = (long long)json_integer_value(json_object_get(b, "sm"));
        int seen = 0;
        for (long long k = 0; k < nused; k++) seen |= used[k] == s;
        if (!seen && nused < 64) used[nused++] = s;
    }
    for (long long k = 0; k < nused && k < 8; k++) {
        double sx = 60 + (double)k * 150;
        ws_rep_xs_rrect(f, sx, y, 136, 70, 8, "#f7f8fa", "#aab4c0");
        ws_rep_xs_textf(f, sx + 10, y + 18, "start", 12.5, 650, XS_INK, "SM %lld", used[k]);
        int m = 0;
        json_array_foreach(sms, i, b) {
            if ((long long)json_integer_value(json_object_get(b, "sm")) != used[k] || m >= 4) continue;
            long long bn = (long long)json_integer_value(json_object_get(b, "block"));
            ws_rep_xs_rrect(f, sx + 10 + m * 31, y + 30, 27, 28, 5, g_block_fill[bn % 8], NULL);
            ws_rep_xs_textf(f, sx + 23.5 + m * 31, y + 49, "middle", 12, 650, "#fff", "%lld", bn);
            m++;
        }
    }
    ws_rep_xs_textf(f, 60 + (double)(nused < 8 ? nused : 8) * 150, y + 40, "start", 12.5, 400, XS_MUTED,
                    "(the other SMs of %s ran no block of this launch)", ws_rep_xs_s(r, "preset", ""));
    double ky = y + 100;
    double kx = ws_rep_xs_key(f, 10, ky, "#ffffff", "#3b6fd8", "thread with an element (i < N)");
    kx = ws_rep_xs_key(f, kx, ky, "url(#map-svg-hatch)", "#c9ced6", "surplus thread: fails the guard");
    ws_rep_xs_key(f, kx, ky, "none", "#e5484d", "the element followed");
    ws_rep_xs_svg_end(f);
    fprintf(f, "<figcaption>Element ");
    ws_rep_xs_num(f, r, "element.index", -1);
    fprintf(f, " is computed by thread ");
    ws_rep_xs_num(f, r, "element.thread", -1);
    fprintf(f, " of block ");
    ws_rep_xs_num(f, r, "element.block", -1);
    fprintf(f, ": %s. It sits in warp ", ws_rep_xs_s(r, "element.formula", ""));
    ws_rep_xs_num(f, r, "element.warp", -1);
    fprintf(f, ", lane ");
    ws_rep_xs_num(f, r, "element.lane", -1);
    fprintf(f, ". ");
    if (json_is_object(ws_rep_xs_get(r, "guard"))) {
        fprintf(f, "Thread ");
        ws_rep_xs_num(f, r, "guard.thread", -1);
        fprintf(f, " of block ");
        ws_rep_xs_num(f, r, "guard.block", -1);
        fprintf(f, " computes ");
        ws_rep_xs_num(f, r, "guard.index", -1);
        fprintf(f, " and fails the guard. ");
    }
    fprintf(f, "The formula assigns work; it does not say where a block runs: the block scheduler placed each block "
               "on an SM (%s).</figcaption></figure>\n",
            !strcmp(ws_rep_xs_s(r, "blocks_on_sms.0.source", ""), "view")
                ? "from the timing model's block placement in the run report's view data"
                : "as <code>%smid</code> read inside the block");
    (void)n;
    ws_rep_xs_end(f, "Kernel: <code>explore/map.cu</code>, run with <code>warpsim run --gpu teaching-sm --timing</code>. "
                     "Block, thread, warp (<code>threadIdx.x / warpSize</code>), lane (<code>%laneid</code>) and element "
                     "of every thread: recorded by the kernel. The SM of each block: the timing model's placement.");
}

/* ------------------------------------------------------------------------------------------------ fit */

/* A byte count as "4 KiB" when it is whole KiB, else "520 bytes". */
static void bytes_words(char *buf, size_t cap, double v)
{
    if (v >= 1024 && fmod(v, 1024) == 0) snprintf(buf, cap, "%g KiB", v / 1024);
    else snprintf(buf, cap, "%g bytes", v);
}

/* One resource bar of the fit picture: capacity cap split into per-block shares of cost. */
static void fit_bar(FILE *f, const json_t *r, double x, double y, double w, const char *name, const char *unit,
                    double cap, double cost, const char *limit_path, int limiting, int idx)
{
    double limit = ws_rep_xs_d(r, limit_path, -1);
    char a[48], b[48];
    if (!strcmp(unit, "bytes")) {
        bytes_words(a, sizeof a, cap);
        bytes_words(b, sizeof b, cost);
    } else {
        ws_rep_xs_int(a, sizeof a, (long long)cap);
        ws_rep_xs_int(b, sizeof b, (long long)cost);
        size_t n = strlen(a), m = strlen(b);
        snprintf(a + n, sizeof a - n, " %s", unit);
        (void)m;
    }
    ws_rep_xs_text(f, x, y + 15, "start", 13, 650, limiting ? "#c0392b" : XS_INK, name);
    ws_rep_xs_textf(f, x, y + 31, "start", 11.5, 400, XS_MUTED, "%s per SM, %s per block", a, b);
    double bx = x + 250, bw = w - 250 - 140, bh = 26;
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"4\" fill=\"url(#fit-svg-hatch)\" "
               "stroke=\"%s\" stroke-width=\"%s\"/>\n", bx, y + 4, bw, bh, limiting ? "#c0392b" : "#aab4c0",
            limiting ? "2.5" : "1");
    if (cost > 0 && cap > 0) {
        long long nb = (long long)(cap / cost);
        if (nb > 64) nb = 64;
        double sw = bw * cost / cap;
        for (long long k = 0; k < nb; k++)
            ws_rep_xs_rect(f, bx + (double)k * sw + 1, y + 5, sw - 2, bh - 2, g_block_fill[idx % 8], "#ffffff", NULL);
        if (sw > 40)
            for (long long k = 0; k < nb; k++)
                ws_rep_xs_textf(f, bx + ((double)k + 0.5) * sw, y + 22, "middle", 11, 600, "#fff", "block %lld", k + 1);
    } else {
        ws_rep_xs_text(f, bx + 8, y + 22, "start", 11.5, 400, XS_MUTED, "not used: no limit");
    }
    ws_rep_xs_text_open(f, bx + bw + 14, y + 23, "start", 13, 400, limiting ? "#c0392b" : XS_INK);
    if (limit >= 0) {
        ws_rep_xs_snum(f, 700, NULL, r, -1, "%s", limit_path);
        ws_rep_xs_span(f, 0, NULL, " blocks");
        if (limiting) ws_rep_xs_span(f, 700, NULL, "  \xe2\x97\x80 limits");
    } else {
        ws_rep_xs_span(f, 0, XS_MUTED, "no limit");
    }
    ws_rep_xs_text_close(f);
}

/* Whether name is among the limiters of occupancy object o. */
static int is_limiter(const json_t *o, const char *name)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(o, "limiters"), i, v) if (!strcmp(json_string_value(v), name)) return 1;
    return 0;
}

/* The fit page. */
static void page_fit(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "fit", "What fits on a teaching SM",
                    "The invented SM holds at most 8 warps, 256 threads, 4 blocks, 8,192 registers and 16 KiB of shared "
                    "memory. A block of T threads, R registers per thread and S bytes of shared memory costs "
                    "&lceil;T/32&rceil; warp slots, one block slot, T &times; R registers and S bytes; each capacity "
                    "divided by its cost allows some whole blocks, and the smallest count decides. The register counts "
                    "are ptxas's, for real kernels compiled with <code>__maxnreg__(R)</code>.");
    const json_t *cases = ws_rep_xs_get(r, "cases");
    size_t nc = json_array_size(cases);
    fprintf(f, "<div class=\"cards\">");
    for (size_t i = 0; i < nc; i++) {
        fprintf(f, "<div class=\"card\"><div class=\"k\">");
        ws_rep_xs_esc(f, json_string_value(json_object_get(json_array_get(cases, i), "label")));
        fprintf(f, "</div><div class=\"v\">");
        ws_rep_xs_numf(f, r, -1, "cases.%zu.blocks_per_sm", i);
        fprintf(f, " blocks <small>");
        ws_rep_xs_numf(f, r, 0, "cases.%zu.occupancy_pct", i);
        fprintf(f, "%%");
        if (json_array_size(json_object_get(json_array_get(cases, i), "limiters")) == 1)
            fprintf(f, ", limited by %s",
                    json_string_value(json_array_get(json_object_get(json_array_get(cases, i), "limiters"), 0)));
        fprintf(f, "</small></div></div>");
    }
    fprintf(f, "</div>\n");
    double W = 1000, ph = 214;
    fprintf(f, "<figure id=\"fig-fit\"><h2>The four limits of each block</h2>\n");
    ws_rep_xs_svg(f, "fit-svg", W, ph * (double)nc + 40, "resource bars: each capacity split into per-block shares");
    for (size_t i = 0; i < nc; i++) {
        const json_t *c = json_array_get(cases, i);
        double y0 = 10 + ph * (double)i;
        ws_rep_xs_rrect(f, 4, y0, W - 8, ph - 14, 10, "#f7f8fa", "#dde2e8");
        char sb[48];
        bytes_words(sb, sizeof sb, ws_rep_xs_d(c, "shared_bytes", 0));
        ws_rep_xs_textf(f, 20, y0 + 24, "start", 15, 700, XS_INK, "%s: T = %lld, R = %lld, S = %s",
                        json_string_value(json_object_get(c, "label")),
                        (long long)json_integer_value(json_object_get(c, "threads_per_block")),
                        (long long)json_integer_value(json_object_get(c, "registers")), sb);
        ws_rep_xs_text_open(f, W - 24, y0 + 24, "end", 14, 400, XS_INK);
        ws_rep_xs_snum(f, 700, "#c0392b", r, -1, "cases.%zu.blocks_per_sm", i);
        ws_rep_xs_span(f, 700, "#c0392b", " blocks fit");
        ws_rep_xs_span(f, 0, NULL, ": ");
        ws_rep_xs_snum(f, 650, NULL, r, -1, "cases.%zu.warps_per_sm", i);
        ws_rep_xs_span(f, 0, NULL, " of ");
        ws_rep_xs_snum(f, 650, NULL, r, -1, "sm.warps");
        ws_rep_xs_span(f, 0, NULL, " warps, ");
        ws_rep_xs_snum(f, 650, NULL, r, 0, "cases.%zu.occupancy_pct", i);
        ws_rep_xs_span(f, 0, NULL, "%% occupancy");
        ws_rep_xs_text_close(f);
        double tpb = ws_rep_xs_d(c, "threads_per_block", 0), wpb = ws_rep_xs_d(c, "warps_per_block", 0);
        (void)tpb;
        char lp[96];
        snprintf(lp, sizeof lp, "cases.%zu.limits.threads", i);
        fit_bar(f, r, 20, y0 + 36, W - 30, "warp slots", "warps", ws_rep_xs_d(r, "sm.warps", 0), wpb, lp,
                is_limiter(c, "threads"), (int)i);
        snprintf(lp, sizeof lp, "cases.%zu.limits.blocks", i);
        fit_bar(f, r, 20, y0 + 76, W - 30, "block slots", "blocks", ws_rep_xs_d(r, "sm.blocks", 0), 1, lp,
                is_limiter(c, "blocks"), (int)i);
        snprintf(lp, sizeof lp, "cases.%zu.limits.registers", i);
        fit_bar(f, r, 20, y0 + 116, W - 30, "registers", "registers", ws_rep_xs_d(r, "sm.registers", 0),
                ws_rep_xs_d(c, "block_registers", 0), lp, is_limiter(c, "registers"), (int)i);
        snprintf(lp, sizeof lp, "cases.%zu.limits.shared_memory", i);
        fit_bar(f, r, 20, y0 + 156, W - 30, "shared memory", "bytes", ws_rep_xs_d(r, "sm.shared_bytes", 0),
                ws_rep_xs_d(c, "shared_bytes", 0), lp, is_limiter(c, "shared_memory"), (int)i);
    }
    ws_rep_xs_svg_end(f);
    fprintf(f, "<figcaption>Each bar is one SM capacity; each coloured segment is what one block takes of it, and the "
               "number on the right is how many whole blocks that capacity alone allows. The smallest decides (red). "
               "The timing model confirms it: with one SM and 8 blocks to run, at most ");
    for (size_t i = 0; i < nc; i++) {
        ws_rep_xs_numf(f, r, -1, "cases.%zu.resident_blocks_max", i);
        fprintf(f, "%s", i + 1 < nc ? ", " : "");
    }
    fprintf(f, " blocks were resident at once.</figcaption></figure>\n");
    ws_rep_xs_end(f, "Kernel: <code>explore/fit.cu</code>, one kernel per register count, run on the teaching SM "
                     "(<code>teaching-sm</code> with one SM) under <code>--timing</code>. Registers per thread: ptxas, as "
                     "the run report's <code>launch__registers_per_thread</code>; the limits: the occupancy calculator's "
                     "<code>launch__occupancy_limit_*</code>; resident blocks: the timing model's "
                     "<code>warpsim__max_resident_blocks_per_sm</code>.");
}

/* ------------------------------------------------------------------------------------------------ launch */

/* One strip of the launch picture: n elements, the blocks that computed them. */
static void launch_strip(FILE *f, const json_t *r, const char *key, double y, const char *title)
{
    const json_t *c = ws_rep_xs_get(r, key);
    double n = ws_rep_xs_d(r, "n", 1), tpb = ws_rep_xs_d(r, "threads_per_block", 1), blocks = ws_rep_xs_d(r, "blocks", 1);
    double grid = ws_rep_xs_d(c, "grid", 0);
    double x0 = 30, w = 880, span = blocks * tpb, sc = w / span;
    ws_rep_xs_text(f, x0, y, "start", 14, 700, XS_INK, title);
    const json_t *order = json_object_get(c, "order");
    for (long long b = 0; b < (long long)blocks; b++) {
        double bx = x0 + (double)b * tpb * sc;
        double in = (double)b * tpb + tpb > n ? n - (double)b * tpb : tpb;
        if (in < 0) in = 0;
        int ran = b < (long long)grid;
        if (ran) {
            ws_rep_xs_rect(f, bx, y + 12, in * sc, 30, g_block_fill[b % 8], "#ffffff", NULL);
            if (in < tpb) fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"30\" fill=\"url(#launch-svg-hatch)\" "
                                     "stroke=\"#c9ced6\"/>\n", bx + in * sc, y + 12, (tpb - in) * sc);
            long long pos = -1;
            size_t i;
            json_t *v;
            json_array_foreach(order, i, v) if (json_integer_value(v) == b) pos = (long long)i;
            ws_rep_xs_textf(f, bx + in * sc / 2, y + 32, "middle", 12.5, 650, "#fff", "block %lld", b);
            if (pos >= 0) {
                ws_rep_xs_circle(f, bx + 14, y + 58, 10, "#ffffff", g_block_fill[b % 8]);
                ws_rep_xs_textf(f, bx + 14, y + 62, "middle", 11, 700, g_block_fill[b % 8], "%lld", pos + 1);
                ws_rep_xs_text(f, bx + 28, y + 62, "start", 11, 400, XS_MUTED, pos == 0 ? "ran 1st" : pos == 1 ? "ran 2nd"
                               : pos == 2 ? "ran 3rd" : "ran next");
            }
        } else {
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"30\" fill=\"#fde2e3\" stroke=\"#e5484d\" "
                       "stroke-dasharray=\"4 3\"/>\n", bx, y + 12, in * sc);
            ws_rep_xs_text(f, bx + in * sc / 2, y + 32, "middle", 12, 650, "#c0392b", "never computed");
        }
    }
    for (double t = 0; t <= span; t += tpb)
        ws_rep_xs_textf(f, x0 + t * sc, y + 56 + 22, "middle", 10.5, 400, XS_MUTED, "%g", t);
}

/* The launch page. */
static void page_launch(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "launch", "Launch a grid: index arithmetic, bounds check, block order",
                    "<code>vecAdd&lt;&lt;&lt;blocks, threads&gt;&gt;&gt;</code> with <code>blocks = (n + threads - 1) / "
                    "threads</code>: each thread computes <code>i = threadIdx.x + blockDim.x * blockIdx.x</code> and "
                    "adds element <code>i</code> inside <code>if (i &lt; n)</code>. Blocks may run in any order; the "
                    "kernel counts how often each element was computed and which block took the first ticket.");
    fprintf(f, "<div class=\"cards\"><div class=\"card\"><div class=\"k\">elements</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "n", -1);
    fprintf(f, "</div></div><div class=\"card\"><div class=\"k\">blocks</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "blocks", -1);
    fprintf(f, " <small>of ");
    ws_rep_xs_num(f, r, "threads_per_block", -1);
    fprintf(f, " threads</small></div></div><div class=\"card\"><div class=\"k\">surplus threads</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "surplus_threads", -1);
    fprintf(f, "</div></div><div class=\"card\"><div class=\"k\">one block short</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "short.never", -1);
    fprintf(f, " <small>elements never computed, from index ");
    ws_rep_xs_num(f, r, "short.first_never", -1);
    fprintf(f, "</small></div></div></div>\n");
    fprintf(f, "<figure id=\"fig-launch\"><h2>Which block computed each element</h2>\n");
    ws_rep_xs_svg(f, "launch-svg", 960, 330, "the elements of three launches coloured by block");
    launch_strip(f, r, "in_order", 24, "in order");
    launch_strip(f, r, "shuffled", 124, "shuffled (--block-order)");
    if (json_is_object(ws_rep_xs_get(r, "short"))) launch_strip(f, r, "short", 224, "grid one block short");
    ws_rep_xs_svg_end(f);
    fprintf(f, "<figcaption>Thread ");
    ws_rep_xs_num(f, r, "example.thread", -1);
    fprintf(f, " of block ");
    ws_rep_xs_num(f, r, "example.block", -1);
    fprintf(f, " computes i = ");
    ws_rep_xs_num(f, r, "example.thread", -1);
    fprintf(f, " + ");
    ws_rep_xs_num(f, r, "threads_per_block", -1);
    fprintf(f, " &times; ");
    ws_rep_xs_num(f, r, "example.block", -1);
    fprintf(f, " = ");
    ws_rep_xs_num(f, r, "example.index", -1);
    fprintf(f, ". Hatched: the last block's surplus threads, which fail the bounds check. The circled numbers are the "
               "order the blocks started in. In order and shuffled (<code>%s</code>), all ",
            ws_rep_xs_s(r, "block_order", ""));
    ws_rep_xs_num(f, r, "in_order.correct", -1);
    fprintf(f, " and ");
    ws_rep_xs_num(f, r, "shuffled.correct", -1);
    fprintf(f, " elements are right; one block short, only ");
    ws_rep_xs_num(f, r, "short.correct", -1);
    fprintf(f, " are, and nothing reports an error.</figcaption></figure>\n");
    ws_rep_xs_end(f, "Kernel: <code>explore/launch.cu</code>, three runs with <code>warpsim run --gpu teaching-sm</code>: "
                     "in order, with <code>--block-order=random:SEED</code>, and with a grid of blocks &minus; 1. The "
                     "counts of computed elements and the block order: recorded by the kernel (atomics).");
}

/* ------------------------------------------------------------------------------------------------ occupancy */

/* One occupancy bar row. */
static void occ_bar(FILE *f, const json_t *r, const char *key, double y)
{
    const json_t *o = ws_rep_xs_get(r, key);
    double pct = ws_rep_xs_d(o, "occupancy_pct", 0), x0 = 330, w = 400;
    char p[128];
    ws_rep_xs_text(f, 10, y + 15, "start", 12.5, 500, XS_INK, ws_rep_xs_s(o, "label", ""));
    ws_rep_xs_rect(f, x0, y + 2, w, 18, "#eef1f5", NULL, NULL);
    ws_rep_xs_rect(f, x0, y + 2, w * pct / 100.0, 18, "#3b6fd8", NULL, NULL);
    snprintf(p, sizeof p, "%s.occupancy_pct", key);
    ws_rep_xs_tnum(f, x0 + w + 8, y + 16, "start", 12.5, 650, XS_INK, r, p, 1);
    ws_rep_xs_text(f, x0 + w + 50, y + 16, "start", 12.5, 400, XS_INK, "%");
    snprintf(p, sizeof p, "%s.blocks_per_sm", key);
    ws_rep_xs_tnum(f, x0 + w + 92, y + 16, "end", 12.5, 650, XS_INK, r, p, -1);
    ws_rep_xs_textf(f, x0 + w + 96, y + 16, "start", 12.5, 400, XS_MUTED, "blocks/SM, %s",
                    ws_rep_xs_s(o, "limiter", ""));
}

/* The occupancy page. */
static void page_occupancy(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "occupancy", "Occupancy and waves on the CUDA guide's device",
                    "The CUDA Programming Guide works its occupancy examples on an SM with 2,048 threads, 32 blocks, "
                    "65,536 registers and 233,472 bytes of shared memory (the H200's per-SM limits). Real kernels with "
                    "exactly R registers (ptxas) ran at each configuration; the occupancy calculator's limits come from "
                    "the run report. Blocks are handed out in waves of (blocks per SM &times; SMs).");
    const json_t *ex = ws_rep_xs_get(r, "examples"), *sw = ws_rep_xs_get(r, "register_sweep");
    fprintf(f, "<div class=\"cards\">");
    for (size_t i = 0; i < json_array_size(ex); i++) {
        fprintf(f, "<div class=\"card\"><div class=\"k\">");
        ws_rep_xs_esc(f, ws_rep_xs_s(json_array_get(ex, i), "label", ""));
        fprintf(f, "</div><div class=\"v\">");
        ws_rep_xs_numf(f, r, -1, "examples.%zu.blocks_per_sm", i);
        fprintf(f, " blocks <small>");
        ws_rep_xs_numf(f, r, 0, "examples.%zu.occupancy_pct", i);
        fprintf(f, "%% (guide: %s)</small></div></div>", ws_rep_xs_s(json_array_get(ex, i), "guide", ""));
    }
    fprintf(f, "</div>\n");
    size_t nrow = json_array_size(ex) + json_array_size(sw) + (json_is_object(ws_rep_xs_get(r, "yours")) ? 1 : 0);
    fprintf(f, "<figure id=\"fig-occupancy\"><h2>Occupancy: resident warps of 64</h2>\n");
    ws_rep_xs_svg(f, "occ-svg", 1000, 40 + 28.0 * (double)nrow + 30, "occupancy bars");
    double y = 10;
    char key[64];
    for (size_t i = 0; i < json_array_size(ex); i++, y += 28) {
        snprintf(key, sizeof key, "examples.%zu", i);
        occ_bar(f, r, key, y);
    }
    y += 12;
    ws_rep_xs_text(f, 10, y + 8, "start", 12, 650, XS_MUTED, "256 threads per block, rising register use:");
    y += 16;
    for (size_t i = 0; i < json_array_size(sw); i++, y += 28) {
        snprintf(key, sizeof key, "register_sweep.%zu", i);
        occ_bar(f, r, key, y);
    }
    if (json_is_object(ws_rep_xs_get(r, "yours"))) occ_bar(f, r, "yours", y);
    ws_rep_xs_svg_end(f);
    fprintf(f, "</figure>\n");
    /* waves */
    const json_t *wv = ws_rep_xs_get(r, "waves");
    size_t nw = json_array_size(wv);
    double h = 20;
    for (size_t i = 0; i < nw; i++) {
        double waves = ws_rep_xs_d(json_array_get(wv, i), "waves", 0);
        h += 46 + (waves <= 8 ? waves : 1) * 14;
    }
    fprintf(f, "<figure id=\"fig-waves\"><h2>Waves</h2>\n");
    ws_rep_xs_svg(f, "waves-svg", 1000, h, "waves of block slots");
    y = 10;
    for (size_t i = 0; i < nw; i++) {
        const json_t *o = json_array_get(wv, i);
        double slots = ws_rep_xs_d(o, "slots", 1), waves = ws_rep_xs_d(o, "waves", 0), grid = ws_rep_xs_d(o, "grid", 0);
        char p[64];
        ws_rep_xs_textf(f, 10, y + 14, "start", 13, 650, XS_INK, "%g blocks on %g SMs at %g block%s per SM:", grid,
                        ws_rep_xs_d(o, "sms", 0), ws_rep_xs_d(o, "blocks_per_sm", 0),
                        ws_rep_xs_d(o, "blocks_per_sm", 0) == 1 ? "" : "s");
        snprintf(p, sizeof p, "waves.%zu.waves", i);
        ws_rep_xs_tnum(f, 560, y + 14, "end", 13, 700, XS_INK, r, p, -1);
        ws_rep_xs_text(f, 565, y + 14, "start", 13, 400, XS_INK, waves == 1 ? "wave," : "waves,");
        snprintf(p, sizeof p, "waves.%zu.utilization_pct", i);
        ws_rep_xs_tnum(f, 660, y + 14, "end", 13, 700, XS_INK, r, p, 1);
        ws_rep_xs_text(f, 662, y + 14, "start", 13, 400, XS_INK, "% of the slots used");
        double cw = 900.0 / slots, x0 = 10;
        if (cw > 60) cw = 60;
        if (waves <= 8) {
            for (long long wn = 0; wn < (long long)waves; wn++) {
                double filled = grid - (double)wn * slots;
                if (filled > slots) filled = slots;
                double yy = y + 24 + (double)wn * 14;
                ws_rep_xs_rect(f, x0, yy, slots * cw, 11, "#eef1f5", NULL, NULL);
                if (cw >= 6) {
                    for (long long k = 0; k < (long long)filled; k++)
                        ws_rep_xs_rect(f, x0 + (double)k * cw + 1, yy, cw - 2, 11, "#3b6fd8", NULL, NULL);
                } else {
                    ws_rep_xs_rect(f, x0, yy, filled * cw, 11, "#3b6fd8", NULL, NULL);
                }
                ws_rep_xs_textf(f, x0 + slots * cw + 8, yy + 10, "start", 10.5, 400, XS_MUTED, "wave %lld: %g of %g",
                                wn + 1, filled, slots);
            }
            y += 46 + waves * 14;
        } else {
            double last = ws_rep_xs_d(o, "last_wave_blocks", 0);
            ws_rep_xs_rect(f, x0, y + 24, 900, 11, "#3b6fd8", NULL, NULL);
            ws_rep_xs_rect(f, x0 + 900 * (waves - 1) / waves, y + 24, 900 / waves * (1 - last / slots), 11, "#eef1f5",
                           NULL, NULL);
            ws_rep_xs_textf(f, x0, y + 50, "start", 10.5, 400, XS_MUTED, "%g full waves of %g slots, then %g blocks", waves - 1,
                            slots, last);
            y += 60;
        }
    }
    ws_rep_xs_svg_end(f);
    fprintf(f, "<figcaption>A grid just over a full wave (");
    ws_rep_xs_num(f, r, "waves.2.grid", -1);
    fprintf(f, " blocks) takes two waves and uses ");
    ws_rep_xs_num(f, r, "waves.2.utilization_pct", 1);
    fprintf(f, "%% of the slots; many waves make the tail small.</figcaption></figure>\n");
    ws_rep_xs_end(f, "Kernels: <code>explore/occupancy.cu</code> (one kernel per register count with "
                     "<code>__maxnreg__</code>, plus a small kernel for the waves), run with <code>warpsim run --gpu "
                     "h200</code> and a copy of the H200 preset with 8 SMs. Registers: ptxas; limits and occupancy: the "
                     "run report's <code>launch__occupancy_limit_*</code> and "
                     "<code>sm__maximum_warps_per_active_cycle_pct</code>; waves: the grid over (blocks per SM &times; "
                     "SMs).");
}

/* ------------------------------------------------------------------------------------------------ placement */

/* The placement page. */
static void page_placement(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "placement", "Blocks placed on a two-core GPU",
                    "The fictitious GPU has two cores, each with room for 384 resident threads (12 warps) and 1,536 "
                    "bytes of shared memory. A block is placed whole, on one core, only when its threads and its shared "
                    "array fit beside the blocks already there; the others wait until a block finishes.");
    const json_t *cfgs = ws_rep_xs_get(r, "configs");
    size_t nc = json_array_size(cfgs);
    fprintf(f, "<div class=\"cards\">");
    for (size_t i = 0; i < nc; i++) {
        const json_t *c = json_array_get(cfgs, i);
        fprintf(f, "<div class=\"card\"><div class=\"k\">");
        ws_rep_xs_esc(f, ws_rep_xs_s(c, "name", ""));
        fprintf(f, ": %g threads, %g bytes</div><div class=\"v\">", ws_rep_xs_d(c, "threads_per_block", 0),
                ws_rep_xs_d(c, "shared_bytes", 0));
        ws_rep_xs_numf(f, r, -1, "configs.%zu.blocks_per_sm", i);
        fprintf(f, " <small>per core</small></div></div>");
    }
    fprintf(f, "</div>\n");
    for (size_t i = 0; i < nc; i++) {
        const json_t *c = json_array_get(cfgs, i), *blocks = json_object_get(c, "blocks");
        int view = !strcmp(ws_rep_xs_s(c, "timeline", ""), "view");
        size_t nb = json_array_size(blocks);
        double tmax = 1;
        for (size_t b = 0; b < nb; b++) {
            const json_t *e = json_array_get(blocks, b);
            double t1 = view ? ws_rep_xs_d(e, "t_end", 0) : ws_rep_xs_d(e, "last_clock", 0);
            if (t1 > tmax) tmax = t1;
        }
        long long bps = (long long)ws_rep_xs_d(c, "blocks_per_sm", 1), cores = (long long)ws_rep_xs_d(r, "core.cores", 2);
        double lane_h = 24, x0 = 250, w = 700, sc = w / tmax;
        double rows = view ? (double)(cores * bps) : (double)nb;
        double h = 66 + rows * lane_h + (view ? (double)cores * 10 : 0) + 40;
        fprintf(f, "<figure id=\"fig-placement-%zu\"><h2>", i);
        ws_rep_xs_esc(f, ws_rep_xs_s(c, "name", ""));
        fprintf(f, ": %g-thread blocks, %g shared bytes each</h2>\n", ws_rep_xs_d(c, "threads_per_block", 0),
                ws_rep_xs_d(c, "shared_bytes", 0));
        char id[48];
        snprintf(id, sizeof id, "placement-svg-%zu", i);
        ws_rep_xs_svg(f, id, 1000, h, "blocks on the cores over time");
        /* what one core holds of the blocks at full residency */
        double thr = ws_rep_xs_d(c, "threads_per_block", 0) * (double)bps, smem = ws_rep_xs_d(c, "shared_bytes", 0) * (double)bps;
        double ct = ws_rep_xs_d(r, "core.threads", 384), cs = ws_rep_xs_d(r, "core.shared_bytes", 1536);
        ws_rep_xs_text(f, 10, 18, "start", 12, 650, XS_INK, "one core, full:");
        ws_rep_xs_rect(f, 110, 7, 300, 14, "#eef1f5", NULL, NULL);
        ws_rep_xs_rect(f, 110, 7, 300 * thr / ct, 14, "#3b6fd8", NULL, NULL);
        ws_rep_xs_textf(f, 416, 18, "start", 11.5, 400, XS_INK, "threads %g of %g", thr, ct);
        ws_rep_xs_rect(f, 560, 7, 300, 14, "#eef1f5", NULL, NULL);
        ws_rep_xs_rect(f, 560, 7, 300 * smem / cs, 14, "#e07b28", NULL, NULL);
        ws_rep_xs_textf(f, 866, 18, "start", 11.5, 400, XS_INK, "shared %g of %g", smem, cs);
        double y = 44;
        if (view) {
            for (long long core = 0; core < cores; core++) {
                ws_rep_xs_rect(f, x0, y, w, (double)bps * lane_h, "#f7f8fa", "#dde2e8", NULL);
                ws_rep_xs_textf(f, x0 - 10, y + (double)bps * lane_h / 2 + 5, "end", 13, 650, XS_INK, "core %lld", core);
                /* rows: give each block the first row free at its start */
                double row_free[64];
                for (int k = 0; k < 64; k++) row_free[k] = -1;
                for (size_t b = 0; b < nb; b++) {
                    const json_t *e = json_array_get(blocks, b);
                    if ((long long)ws_rep_xs_d(e, "sm", -1) != core) continue;
                    double t0 = ws_rep_xs_d(e, "t_start", 0), t1 = ws_rep_xs_d(e, "t_end", 0);
                    int row = 0;
                    while (row < bps - 1 && row < 63 && row_free[row] > t0) row++;
                    row_free[row] = t1;
                    double by = y + (double)row * lane_h + 2;
                    ws_rep_xs_rect(f, x0 + t0 * sc, by, (t1 - t0) * sc, lane_h - 4, g_block_fill[b % 8], "#ffffff", NULL);
                    ws_rep_xs_textf(f, x0 + t0 * sc + 5, by + lane_h - 9, "start", 11, 650, "#fff", "block %zu", b);
                }
                y += (double)bps * lane_h + 10;
            }
        } else {
            for (size_t b = 0; b < nb; b++) {
                const json_t *e = json_array_get(blocks, b);
                double t0 = ws_rep_xs_d(e, "first_clock", 0), t1 = ws_rep_xs_d(e, "last_clock", 0);
                ws_rep_xs_textf(f, x0 - 10, y + lane_h - 8, "end", 12, 500, XS_INK, "block %zu", b);
                ws_rep_xs_rect(f, x0, y, w, lane_h - 2, "#f7f8fa", NULL, NULL);
                ws_rep_xs_rect(f, x0 + t0 * sc, y + 2, (t1 - t0) * sc, lane_h - 6, g_block_fill[b % 8], NULL, NULL);
                y += lane_h;
            }
        }
        for (int k = 0; k <= 5; k++) {
            double t = tmax * k / 5.0;
            ws_rep_xs_line(f, x0 + t * sc, 40, x0 + t * sc, y, XS_GRID, 1, "2 3");
            ws_rep_xs_textf(f, x0 + t * sc, y + 14, "middle", 10.5, 400, XS_MUTED, "%.0f", t);
        }
        ws_rep_xs_text(f, x0 + w, y + 30, "end", 11, 400, XS_MUTED, "cycles (timing model)");
        ws_rep_xs_svg_end(f);
        fprintf(f, "<figcaption>");
        ws_rep_xs_numf(f, r, -1, "configs.%zu.blocks_per_sm", i);
        fprintf(f, " block(s) per core (limited by %s); the timing model never had more than ",
                ws_rep_xs_s(c, "limiter", ""));
        ws_rep_xs_numf(f, r, -1, "configs.%zu.resident_blocks_max", i);
        fprintf(f, " resident on one core; the launch took ");
        ws_rep_xs_numf(f, r, -1, "configs.%zu.cycles", i);
        fprintf(f, " cycles. %s</figcaption></figure>\n",
                view ? "Each bar is the interval a block was resident on its core."
                     : "Each bar spans the block's first and last <code>clock64()</code> reading; which core ran it "
                       "needs the run report's view data, which this warpsim does not collect.");
    }
    ws_rep_xs_end(f, "Kernel: <code>explore/placement.cu</code> (version 1 without a shared array, version 2 with "
                     "130 floats, the 256-thread preset with 258 floats), run with <code>warpsim run --gpu two-core "
                     "--timing</code>. Blocks per core: the run report's occupancy limits; residency over time: the "
                     "timing model's block placement (view data), or the kernel's own <code>clock64()</code> readings.");
}

/* Write explorer name's page. */
int ws_rep_explore_html(FILE *f, const char *name, const json_t *res, char *err, size_t errlen)
{
    static const struct { const char *name; void (*page)(FILE *, const json_t *); } pages[] = {
        { "map", page_map }, { "fit", page_fit }, { "launch", page_launch }, { "occupancy", page_occupancy },
        { "placement", page_placement }, { "latency", ws_rep_xh_latency }, { "divergence", ws_rep_xh_divergence },
        { "rare-branch", ws_rep_xh_rare }, { "sectors", ws_rep_xh_sectors }, { "banks", ws_rep_xh_banks },
        { "tile", ws_rep_xh_tile }, { "roofline", ws_rep_xh_roofline },
    };
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
        if (!strcmp(pages[i].name, name)) {
            pages[i].page(f, res);
            return ferror(f) ? -1 : 0;
        }
    snprintf(err, errlen, "no picture for explorer '%s'", name);
    return -1;
}
