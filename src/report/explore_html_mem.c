/* explore_html_mem.c - the pictures of the memory explorers (explore_html_mem.h): sectors, banks, tile and
 * roofline. */
#include "explore_html_mem.h"
#include "explore_svg.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------------ sectors */

/* One load: 32 lanes above, their byte addresses on an axis, the 32-byte sectors and 128-byte lines below. */
static void sector_strip(FILE *f, const json_t *r, const char *key, double y)
{
    const json_t *c = ws_rep_xs_get(r, key), *offs = json_object_get(c, "offsets");
    const json_t *sec = json_object_get(c, "sector_of_lane");
    size_t n = json_array_size(offs);
    double base = ws_rep_xs_d(r, "base_mod_128", 0);
    if (strstr(key, "aos") || strstr(key, "soa")) base -= ws_rep_xs_d(r, "offset", 0);
    double maxa = 0;
    for (size_t i = 0; i < n; i++) {
        double a = base + json_number_value(json_array_get(offs, i)) + 4;
        if (a > maxa) maxa = a;
    }
    double span = ceil(maxa / 128.0) * 128.0;
    if (span < 128) span = 128;
    double x0 = 200, w = 780, sc = w / span;
    ws_rep_xs_text(f, 10, y + 12, "start", 13.5, 700, XS_INK, ws_rep_xs_s(c, "label", ""));
    ws_rep_xs_text_open(f, 10, y + 30, "start", 12, 400, XS_MUTED);
    ws_rep_xs_snum(f, 700, "#e07b28", r, -1, "%s.sectors", key);
    ws_rep_xs_span(f, 0, NULL, " sectors, ");
    ws_rep_xs_snum(f, 650, NULL, r, -1, "%s.lines", key);
    ws_rep_xs_span(f, 0, NULL, " line(s)");
    ws_rep_xs_text_close(f);
    ws_rep_xs_text_open(f, 10, y + 46, "start", 12, 400, XS_MUTED);
    ws_rep_xs_snum(f, 650, NULL, r, 1, "%s.efficiency_pct", key);
    ws_rep_xs_span(f, 0, NULL, "%% of the bytes used");
    ws_rep_xs_text_close(f);
    /* lanes */
    double lw = w / 32.0;
    for (size_t i = 0; i < n && i < 32; i++) {
        double lx = x0 + ((double)i + 0.5) * lw;
        double a = base + json_number_value(json_array_get(offs, i));
        double ax = x0 + (a + 2) * sc;
        ws_rep_xs_line(f, lx, y + 14, ax, y + 48, "#9db7ea", 1, NULL);
        ws_rep_xs_circle(f, lx, y + 10, 4.5, "#3b6fd8", NULL);
    }
    /* sectors: touched ones filled */
    long long nsec = (long long)(span / 32);
    for (long long s = 0; s < nsec; s++) {
        int hit = 0;
        for (size_t i = 0; i < n; i++) hit |= (long long)json_number_value(json_array_get(sec, i)) == s;
        ws_rep_xs_rect(f, x0 + (double)s * 32 * sc, y + 50, 32 * sc, 22, hit ? "#e07b28" : "#f1f3f6",
                       nsec <= 64 ? "#ffffff" : NULL, NULL);
    }
    /* the words the lanes asked for */
    for (size_t i = 0; i < n; i++) {
        double a = base + json_number_value(json_array_get(offs, i));
        ws_rep_xs_rect(f, x0 + a * sc, y + 74, 4 * sc > 1 ? 4 * sc : 1, 6, "#3b6fd8", NULL, NULL);
    }
    for (double l = 0; l <= span; l += 128) ws_rep_xs_line(f, x0 + l * sc, y + 46, x0 + l * sc, y + 84, "#1f2933", 1.3, NULL);
    int lab = span <= 128 * 8 ? 1 : span <= 128 * 16 ? 2 : 4;
    for (double l = 0; l <= span; l += 128 * lab) ws_rep_xs_textf(f, x0 + l * sc, y + 96, "middle", 10, 400, XS_MUTED, "%g", l);
}

/* The sectors page. */
void ws_rep_xh_sectors(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "sectors", "Count the sectors of one load instruction",
                    "32 active lanes each load one 4-byte word: 128 useful bytes. Lane l asks for byte base + 4 &times; "
                    "stride &times; l. The memory system fetches whole 32-byte sectors (grouped in 128-byte lines), so "
                    "spread-out addresses cost more sectors for the same useful bytes. The sector counts are the timing "
                    "model's (<code>l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum</code>, one request per load); the "
                    "addresses are the ones the lanes wrote down.");
    const json_t *runs = ws_rep_xs_get(r, "runs");
    size_t n = json_array_size(runs);
    fprintf(f, "<div class=\"cards\">");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<div class=\"card\" style=\"min-width:120px\"><div class=\"k\">stride ");
        ws_rep_xs_numf(f, r, -1, "runs.%zu.stride", i);
        fprintf(f, "</div><div class=\"v\">");
        ws_rep_xs_numf(f, r, -1, "runs.%zu.sectors", i);
        fprintf(f, " <small>sectors</small></div></div>");
    }
    fprintf(f, "<div class=\"card\"><div class=\"k\">{x, y} records: x only</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "aos.sectors", -1);
    fprintf(f, " <small>vs</small> ");
    ws_rep_xs_num(f, r, "soa.sectors", -1);
    fprintf(f, " <small>with a separate x[]</small></div></div></div>\n");
    fprintf(f, "<figure id=\"fig-sectors\"><h2>Lanes &rarr; addresses &rarr; 32-byte sectors and 128-byte lines</h2>\n");
    ws_rep_xs_svg(f, "sectors-svg", 1000, 112.0 * (double)(n + 2) + 50, "lanes, their addresses and the sectors touched");
    for (size_t i = 0; i < n; i++) {
        char key[32];
        snprintf(key, sizeof key, "runs.%zu", i);
        sector_strip(f, r, key, 14 + 112.0 * (double)i);
    }
    sector_strip(f, r, "aos", 14 + 112.0 * (double)n);
    sector_strip(f, r, "soa", 14 + 112.0 * (double)(n + 1));
    double ky = 112.0 * (double)(n + 2) + 34;
    double kx = ws_rep_xs_key(f, 10, ky, "#3b6fd8", NULL, "a lane / the word it asked for");
    kx = ws_rep_xs_key(f, kx, ky, "#e07b28", NULL, "a sector the load fetches");
    kx = ws_rep_xs_key(f, kx, ky, "#f1f3f6", NULL, "a sector left alone");
    ws_rep_xs_text(f, kx, ky + 1, "start", 12.5, 400, XS_INK, "| 128-byte line boundary (byte offsets below)");
    ws_rep_xs_svg_end(f);
    fprintf(f, "<figcaption>Stride 1 fills each sector with eight words: 4 sectors for 128 bytes. From stride 8 on every "
               "lane has a sector of its own: 32 sectors, 1,024 bytes fetched for 128 used. Loading only x from an array "
               "of {x, y} records is stride 2 (");
    ws_rep_xs_num(f, r, "aos.sectors", -1);
    fprintf(f, " sectors); a separate x[] array is stride 1 (");
    ws_rep_xs_num(f, r, "soa.sectors", -1);
    fprintf(f, ").</figcaption></figure>\n");
    fprintf(f, "<figure><h2>Every load</h2><table class=\"t\"><tr><th>load</th><th>requests</th><th>sectors</th>"
               "<th>from the addresses</th><th>lines</th><th>sector bytes</th><th>useful</th></tr>\n");
    for (size_t i = 0; i < n + 2; i++) {
        char key[32];
        if (i < n) snprintf(key, sizeof key, "runs.%zu", i);
        else snprintf(key, sizeof key, "%s", i == n ? "aos" : "soa");
        char lp[48];
        snprintf(lp, sizeof lp, "%s.label", key);
        fprintf(f, "<tr><td>");
        ws_rep_xs_esc(f, ws_rep_xs_s(r, lp, ""));
        fprintf(f, "</td><td>");
        ws_rep_xs_numf(f, r, -1, "%s.requests", key);
        fprintf(f, "</td><td>");
        ws_rep_xs_numf(f, r, -1, "%s.sectors", key);
        fprintf(f, "</td><td>");
        ws_rep_xs_numf(f, r, -1, "%s.sectors_from_addresses", key);
        fprintf(f, "</td><td>");
        ws_rep_xs_numf(f, r, -1, "%s.lines", key);
        fprintf(f, "</td><td>");
        ws_rep_xs_numf(f, r, -1, "%s.sector_bytes", key);
        fprintf(f, "</td><td>");
        ws_rep_xs_numf(f, r, 1, "%s.efficiency_pct", key);
        fprintf(f, "%%</td></tr>\n");
    }
    fprintf(f, "</table></figure>\n");
    ws_rep_xs_end(f, "Kernel: <code>explore/sectors.cu</code> (one warp, one load per launch), run with <code>warpsim run "
                     "--gpu teaching-sm --timing</code>. Requests and sectors: the timing model's "
                     "<code>l1tex__t_requests/sectors_pipe_lsu_mem_global_op_ld.sum</code>; each lane's byte offset: "
                     "written by the kernel (and checked against the view data's memory sample when there is one).");
}

/* ------------------------------------------------------------------------------------------------ banks */

/* Colours of the 8 banks. */
static const char *const g_bank[8] = { "#3b6fd8", "#e07b28", "#2e9a5e", "#9b59b6", "#d64550", "#1aa3a3", "#b8860b",
                                       "#5d6d7e" };

/* One pattern: the tile coloured by bank with the requested words, lanes -> banks, the rounds. */
static void bank_panel(FILE *f, const json_t *r, size_t i, double y)
{
    char key[32];
    snprintf(key, sizeof key, "runs.%zu", i);
    const json_t *c = ws_rep_xs_get(r, key), *words = json_object_get(c, "words"), *banks = json_object_get(c, "banks");
    long long nb = (long long)ws_rep_xs_d(r, "banks", 8), lanes = (long long)json_array_size(words);
    long long stride = (long long)ws_rep_xs_d(c, "stride", 0), row = stride == 9 ? 9 : 8;
    ws_rep_xs_textf(f, 10, y + 14, "start", 14, 700, XS_INK, "%s", ws_rep_xs_s(c, "label", ""));
    ws_rep_xs_text_open(f, 10, y + 32, "start", 12.5, 400, XS_INK);
    ws_rep_xs_span(f, 0, NULL, "word stride ");
    ws_rep_xs_snum(f, 650, NULL, r, -1, "%s.stride", key);
    ws_rep_xs_span(f, 0, NULL, ": ");
    ws_rep_xs_snum(f, 700, "#c0392b", r, -1, "%s.rounds", key);
    ws_rep_xs_span(f, 700, "#c0392b", " round(s)");
    ws_rep_xs_span(f, 0, NULL, ", ");
    ws_rep_xs_snum(f, 650, NULL, r, -1, "%s.conflicts", key);
    ws_rep_xs_span(f, 0, NULL, " conflict(s)");
    ws_rep_xs_text_close(f);
    /* the tile: 8 rows of `row` words, coloured by bank; the requested words outlined */
    double tx = 10, ty = y + 46, cs = 22;
    for (long long rr = 0; rr < 8; rr++)
        for (long long cc = 0; cc < row; cc++) {
            long long w = rr * row + cc;
            int asked = 0;
            for (long long l = 0; l < lanes; l++) asked |= json_integer_value(json_array_get(words, (size_t)l)) == w;
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"2\" fill=\"%s\" fill-opacity=\"%s\" "
                       "stroke=\"%s\" stroke-width=\"%s\"/>\n", tx + (double)cc * cs, ty + (double)rr * cs, cs - 2, cs - 2,
                    g_bank[w % nb % 8], asked ? "1" : "0.18", asked ? "#1f2933" : "none", asked ? "2" : "0");
            if (cc == 8) ws_rep_xs_text(f, tx + (double)cc * cs + (cs - 2) / 2, ty + (double)rr * cs + 15, "middle", 9, 500,
                                        XS_MUTED, "pad");
        }
    ws_rep_xs_textf(f, tx, ty + 8 * cs + 14, "start", 10.5, 400, XS_MUTED, "the tile, %lld words a row, coloured by bank", row);
    /* lanes -> banks; each bank's distinct words stacked below it, one per round */
    double lx0 = 290, bx0 = 290, lw = 80;
    long long most = 0;
    for (long long l = 0; l < lanes; l++) {
        long long w = (long long)json_integer_value(json_array_get(words, (size_t)l));
        long long b = (long long)json_integer_value(json_array_get(banks, (size_t)l));
        double lx = lx0 + ((double)l + 0.5) * lw, bx = bx0 + ((double)b + 0.5) * lw;
        ws_rep_xs_rrect(f, lx - 30, y + 46, 60, 24, 5, "#eef1f5", "#aab4c0");
        ws_rep_xs_textf(f, lx, y + 62, "middle", 11.5, 650, XS_INK, "lane %lld", l);
        ws_rep_xs_line(f, lx, y + 70, bx, y + 94, g_bank[b % 8], 1.4, NULL);
        /* the round this word is served in: its rank among the distinct words of its bank so far */
        long long rank = 0;
        int dup = 0;
        for (long long k = 0; k < l; k++) {
            long long wk = (long long)json_integer_value(json_array_get(words, (size_t)k));
            long long bk = (long long)json_integer_value(json_array_get(banks, (size_t)k));
            int seen = 0;
            for (long long q = 0; q < k; q++) seen |= json_integer_value(json_array_get(words, (size_t)q)) == wk;
            if (wk == w) dup = 1;
            if (bk == b && wk != w && !seen) rank++;
        }
        if (dup) continue;                   /* the same word as an earlier lane: served by the same broadcast */
        if (rank + 1 > most) most = rank + 1;
        double wy = y + 112 + (double)rank * 21;
        ws_rep_xs_rrect(f, bx - 31, wy, 62, 18, 4, g_bank[b % 8], NULL);
        ws_rep_xs_textf(f, bx, wy + 13, "middle", 10.5, 650, "#fff", "word %lld", w);
    }
    for (long long b = 0; b < nb; b++) {
        double bx = bx0 + ((double)b + 0.5) * lw;
        ws_rep_xs_rrect(f, bx - 31, y + 94, 62, 14, 3, "#ffffff", g_bank[b % 8]);
        ws_rep_xs_textf(f, bx, y + 105, "middle", 10, 650, g_bank[b % 8], "bank %lld", b);
    }
    for (long long k = 0; k < most; k++)
        ws_rep_xs_textf(f, bx0 - 8, y + 125 + (double)k * 21, "end", 10.5, 500, k ? "#c0392b" : XS_MUTED, "round %lld", k + 1);
}

/* The banks page. */
void ws_rep_xh_banks(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "banks", "Shared-memory banks",
                    "8 banks, 8 lanes (the <code>teaching-8lane</code> preset): bank w mod 8 holds the 4-byte word w, and "
                    "each bank serves one distinct word per round. Two lanes asking one bank for different words need two "
                    "rounds (a bank conflict); lanes asking for the same word share one broadcast. The rounds are the "
                    "timing model's shared-memory wavefronts "
                    "(<code>l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum</code>).");
    const json_t *runs = ws_rep_xs_get(r, "runs");
    size_t n = json_array_size(runs);
    fprintf(f, "<div class=\"cards\">");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<div class=\"card\"><div class=\"k\">");
        ws_rep_xs_esc(f, ws_rep_xs_s(json_array_get(runs, i), "label", ""));
        fprintf(f, "</div><div class=\"v\">");
        ws_rep_xs_numf(f, r, -1, "runs.%zu.rounds", i);
        fprintf(f, " <small>round(s)</small></div></div>");
    }
    fprintf(f, "</div>\n");
    double ph = 300;
    fprintf(f, "<figure id=\"fig-banks\"><h2>Lanes &rarr; words &rarr; banks</h2>\n");
    ws_rep_xs_svg(f, "banks-svg", 1000, ph * (double)n + 10, "lanes, the words they read and the banks serving them");
    for (size_t i = 0; i < n; i++) {
        if (i) ws_rep_xs_line(f, 10, ph * (double)i - 6, 990, ph * (double)i - 6, XS_GRID, 1, NULL);
        bank_panel(f, r, i, 8 + ph * (double)i);
    }
    ws_rep_xs_svg_end(f);
    fprintf(f, "<figcaption>A column of the 8 &times; 8 tile is words 0, 8, 16, ...: all in bank 0, so one bank serves "
               "eight words in ");
    ws_rep_xs_num(f, r, "runs.0.rounds", -1);
    fprintf(f, " rounds. Padding each row to 9 words moves the column's words to banks 0-7: ");
    ws_rep_xs_num(f, r, "runs.1.rounds", -1);
    fprintf(f, " round. All lanes reading one word: a broadcast, ");
    ws_rep_xs_num(f, r, "runs.2.rounds", -1);
    fprintf(f, " round.</figcaption></figure>\n");
    ws_rep_xs_end(f, "Kernel: <code>explore/banks.cu</code> (one 8-lane warp fills a shared tile, then each lane reads "
                     "word start + stride &times; lane), run with <code>warpsim run --gpu teaching-8lane --timing</code>. "
                     "Rounds and conflicts: the timing model's shared-memory wavefronts and bank conflicts of the load; "
                     "each lane's word: written by the kernel.");
}

/* ------------------------------------------------------------------------------------------------ tile */

/* Colours of the four threads of the 2 x 2 block, by y * 2 + x. */
static const char *const g_thr[4] = { "#3b6fd8", "#e07b28", "#2e9a5e", "#9b59b6" };

/* A matrix of cells at (x, y): values from path, highlight columns [c0, c1) / rows [r0, r1) (-1: none). */
static void matrix_cells(FILE *f, const json_t *r, const char *path, double x, double y, double cs, long long c0,
                         long long c1, long long r0, long long r1, const char *title)
{
    const json_t *m = ws_rep_xs_get(r, path);
    size_t rows = json_array_size(m);
    ws_rep_xs_text(f, x, y - 8, "start", 12.5, 650, XS_INK, title);
    for (size_t i = 0; i < rows; i++) {
        size_t cols = json_array_size(json_array_get(m, i));
        for (size_t j = 0; j < cols; j++) {
            int hl = ((long long)j >= c0 && (long long)j < c1) || ((long long)i >= r0 && (long long)i < r1);
            ws_rep_xs_rrect(f, x + (double)j * cs, y + (double)i * cs, cs - 3, cs - 3, 4, hl ? "#fff3e0" : "#f4f6f9",
                            hl ? "#e07b28" : "#d8dee6");
            char p[96];
            snprintf(p, sizeof p, "%s.%zu.%zu", path, i, j);
            ws_rep_xs_tnum(f, x + (double)j * cs + (cs - 3) / 2, y + (double)i * cs + cs * 0.6, "middle", 13, 650, XS_INK,
                           r, p, -1);
        }
    }
}

/* A shared tile whose cells carry the colour of the thread that loaded them. */
static void shared_cells(FILE *f, const json_t *r, const char *vals, const char *by, double x, double y, double cs,
                         const char *title)
{
    const json_t *m = ws_rep_xs_get(r, vals), *b = ws_rep_xs_get(r, by);
    ws_rep_xs_text(f, x, y - 8, "start", 12.5, 650, XS_INK, title);
    for (size_t i = 0; i < json_array_size(m); i++)
        for (size_t j = 0; j < json_array_size(json_array_get(m, i)); j++) {
            long long t = (long long)json_integer_value(json_array_get(json_array_get(b, i), j));
            ws_rep_xs_rrect(f, x + (double)j * cs, y + (double)i * cs, cs - 3, cs - 3, 4, "#ffffff", g_thr[t & 3]);
            ws_rep_xs_rect(f, x + (double)j * cs, y + (double)i * cs + cs - 9, cs - 3, 6, g_thr[t & 3], NULL, NULL);
            char p[96];
            snprintf(p, sizeof p, "%s.%zu.%zu", vals, i, j);
            ws_rep_xs_tnum(f, x + (double)j * cs + (cs - 3) / 2, y + (double)i * cs + cs * 0.52, "middle", 13, 650,
                           XS_INK, r, p, -1);
        }
}

/* The tile page. */
void ws_rep_xh_tile(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "tile", "A complete 2 \xc3\x97 2 tile, step by step",
                    "C = A &times; B with A 2 &times; 4 and B 4 &times; 2, in one block of 2 &times; 2 threads: thread "
                    "(r, c) owns C[r, c] and keeps its running sum in a register. Each round every thread loads one A "
                    "entry into As and one B entry into Bs (shared memory), all wait at barrier 1, each adds its two "
                    "products, all wait at barrier 2 before the next round overwrites the tiles. The kernel wrote down "
                    "every tile, every partial sum, and who loaded each entry.");
    fprintf(f, "<div class=\"cards\"><div class=\"card\"><div class=\"k\">after the first tile (k = 0, 1)</div>"
               "<div class=\"v\">[[");
    ws_rep_xs_num(f, r, "after_first.0.0", -1);
    fprintf(f, ", ");
    ws_rep_xs_num(f, r, "after_first.0.1", -1);
    fprintf(f, "], [");
    ws_rep_xs_num(f, r, "after_first.1.0", -1);
    fprintf(f, ", ");
    ws_rep_xs_num(f, r, "after_first.1.1", -1);
    fprintf(f, "]]</div></div><div class=\"card\"><div class=\"k\">at the end: C</div><div class=\"v\">[[");
    ws_rep_xs_num(f, r, "final.0.0", -1);
    fprintf(f, ", ");
    ws_rep_xs_num(f, r, "final.0.1", -1);
    fprintf(f, "], [");
    ws_rep_xs_num(f, r, "final.1.0", -1);
    fprintf(f, ", ");
    ws_rep_xs_num(f, r, "final.1.1", -1);
    fprintf(f, "]]</div></div><div class=\"card\"><div class=\"k\">thread (");
    ws_rep_xs_num(f, r, "thread.row", -1);
    fprintf(f, ", ");
    ws_rep_xs_num(f, r, "thread.col", -1);
    fprintf(f, "), first partial sum</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "thread.partials.0.sum", -1);
    fprintf(f, " <small>= ");
    ws_rep_xs_esc(f, ws_rep_xs_s(r, "thread.partials.0.text", ""));
    fprintf(f, "</small></div></div></div>\n");
    const json_t *rounds = ws_rep_xs_get(r, "rounds");
    size_t nr = json_array_size(rounds);
    long long T = (long long)ws_rep_xs_d(r, "tile", 2);
    double ph = 250;
    fprintf(f, "<figure id=\"fig-tile\"><h2>Round by round</h2>\n");
    ws_rep_xs_svg(f, "tile-svg", 1000, ph * (double)nr + 60, "the tiles loaded each round and the partial sums");
    for (size_t i = 0; i < nr; i++) {
        double y = 30 + ph * (double)i;
        long long k0 = (long long)ws_rep_xs_d(json_array_get(rounds, i), "k_first", 0);
        char p[64], q[64];
        ws_rep_xs_textf(f, 10, y, "start", 14, 700, XS_INK, "round %zu: k = %lld to %lld", i, k0, k0 + T - 1);
        matrix_cells(f, r, "A", 10, y + 34, 38, k0, k0 + T, -1, -1, "A (this round's columns)");
        matrix_cells(f, r, "B", 200, y + 34, 38, -1, -1, k0, k0 + T, "B (rows)");
        ws_rep_xs_arrow(f, 292, y + 100, 340, y + 100, XS_MUTED, 1.5);
        ws_rep_xs_text(f, 316, y + 90, "middle", 10.5, 500, XS_MUTED, "load");
        snprintf(p, sizeof p, "rounds.%zu.As", i);
        snprintf(q, sizeof q, "rounds.%zu.As_by", i);
        shared_cells(f, r, p, q, 352, y + 34, 46, "As");
        snprintf(p, sizeof p, "rounds.%zu.Bs", i);
        snprintf(q, sizeof q, "rounds.%zu.Bs_by", i);
        shared_cells(f, r, p, q, 462, y + 34, 46, "Bs");
        /* barrier 1 */
        ws_rep_xs_rect(f, 572, y + 20, 8, 120, "#1f2933", NULL, NULL);
        ws_rep_xs_text(f, 576, y + 156, "middle", 10.5, 650, XS_INK, "barrier 1");
        ws_rep_xs_text(f, 576, y + 170, "middle", 10, 400, XS_MUTED, "all loaded");
        ws_rep_xs_arrow(f, 590, y + 80, 640, y + 80, XS_MUTED, 1.5);
        ws_rep_xs_text(f, 615, y + 70, "middle", 10.5, 500, XS_MUTED, "add");
        snprintf(p, sizeof p, "rounds.%zu.sum", i);
        matrix_cells(f, r, p, 652, y + 34, 52, -1, -1, -1, -1, "partial sums");
        ws_rep_xs_rect(f, 770, y + 20, 8, 120, "#1f2933", NULL, NULL);
        ws_rep_xs_text(f, 774, y + 156, "middle", 10.5, 650, XS_INK, "barrier 2");
        ws_rep_xs_text(f, 774, y + 170, "middle", 10, 400, XS_MUTED, "all done reading");
        ws_rep_xs_text_open(f, 800, y + 60, "start", 12, 400, XS_INK);
        ws_rep_xs_span(f, 650, NULL, "thread (");
        ws_rep_xs_snum(f, 650, NULL, r, -1, "thread.row");
        ws_rep_xs_span(f, 650, NULL, ", ");
        ws_rep_xs_snum(f, 650, NULL, r, -1, "thread.col");
        ws_rep_xs_span(f, 650, NULL, "):");
        ws_rep_xs_text_close(f);
        ws_rep_xs_textf(f, 800, y + 78, "start", 12, 400, XS_INK, "%s", ws_rep_xs_s(json_array_get(ws_rep_xs_get(r,
                        "thread.partials"), i), "text", ""));
    }
    double ky = 30 + ph * (double)nr;
    double kx = 10;
    for (int t = 0; t < 4; t++) {
        char w[48];
        snprintf(w, sizeof w, "loaded by thread (%d, %d)", t / 2, t % 2);
        kx = ws_rep_xs_key(f, kx, ky, g_thr[t], NULL, w);
    }
    ws_rep_xs_svg_end(f);
    fprintf(f, "</figure>\n");
    /* the followed thread */
    fprintf(f, "<figure id=\"fig-tile-thread\"><h2>Thread (");
    ws_rep_xs_num(f, r, "thread.row", -1);
    fprintf(f, ", ");
    ws_rep_xs_num(f, r, "thread.col", -1);
    fprintf(f, "): what it loads and whose entries it reads</h2><ol class=\"steps\">\n");
    const json_t *loads = ws_rep_xs_get(r, "thread.loads"), *reads = ws_rep_xs_get(r, "thread.reads");
    for (size_t i = 0; i < json_array_size(loads); i++) {
        const json_t *l = json_array_get(loads, i);
        fprintf(f, "<li>Round %zu, load: A[%lld, %lld] = ", i, (long long)ws_rep_xs_d(l, "A.0", 0),
                (long long)ws_rep_xs_d(l, "A.1", 0));
        ws_rep_xs_numf(f, r, -1, "thread.loads.%zu.A_value", i);
        fprintf(f, " into As[%lld][%lld], B[%lld, %lld] = ", (long long)ws_rep_xs_d(l, "As.0", 0),
                (long long)ws_rep_xs_d(l, "As.1", 0), (long long)ws_rep_xs_d(l, "B.0", 0), (long long)ws_rep_xs_d(l, "B.1", 0));
        ws_rep_xs_numf(f, r, -1, "thread.loads.%zu.B_value", i);
        fprintf(f, " into Bs[%lld][%lld]. Barrier 1. Then it reads ", (long long)ws_rep_xs_d(l, "Bs.0", 0),
                (long long)ws_rep_xs_d(l, "Bs.1", 0));
        size_t first = 1;
        for (size_t k = 0; k < json_array_size(reads); k++) {
            const json_t *e = json_array_get(reads, k);
            if ((size_t)ws_rep_xs_d(e, "round", -1) != i) continue;
            fprintf(f, "%sAs[%lld][%lld] = ", first ? "" : "; ", (long long)ws_rep_xs_d(e, "a_at.0", 0),
                    (long long)ws_rep_xs_d(e, "a_at.1", 0));
            ws_rep_xs_numf(f, r, -1, "thread.reads.%zu.a", k);
            fprintf(f, " (loaded by thread (%lld, %lld)) and Bs[%lld][%lld] = ", (long long)ws_rep_xs_d(e, "a_from.0", 0),
                    (long long)ws_rep_xs_d(e, "a_from.1", 0), (long long)ws_rep_xs_d(e, "b_at.0", 0),
                    (long long)ws_rep_xs_d(e, "b_at.1", 0));
            ws_rep_xs_numf(f, r, -1, "thread.reads.%zu.b", k);
            fprintf(f, " (loaded by thread (%lld, %lld))", (long long)ws_rep_xs_d(e, "b_from.0", 0),
                    (long long)ws_rep_xs_d(e, "b_from.1", 0));
            first = 0;
        }
        fprintf(f, ". Its sum: ");
        ws_rep_xs_esc(f, ws_rep_xs_s(json_array_get(ws_rep_xs_get(r, "thread.partials"), i), "text", ""));
        fprintf(f, ". Barrier 2.</li>\n");
    }
    fprintf(f, "</ol><figcaption>Without barrier 1 a thread could read an As or Bs entry before the thread that loads "
               "it has written it; without barrier 2 a fast thread could overwrite an entry for the next round while "
               "a neighbour still needs this round's value.</figcaption></figure>\n");
    ws_rep_xs_end(f, "Kernel: <code>explore/tile.cu</code> (one block of 2 &times; 2 threads, two rounds of 2 &times; 2 "
                     "tiles), run with <code>warpsim run --gpu teaching-sm</code>. Tiles, loaders, partial sums and C: "
                     "written by the kernel itself, round by round.");
}

/* ------------------------------------------------------------------------------------------------ roofline */

/* Log-scale position of v between lo and hi over length len. */
static double logpos(double v, double lo, double hi, double len)
{
    if (v <= lo) return 0;
    return len * (log10(v) - log10(lo)) / (log10(hi) - log10(lo));
}

/* The roofline page. */
void ws_rep_xh_roofline(FILE *f, const json_t *r)
{
    ws_rep_xs_begin(f, "roofline", "A roofline you can check by hand",
                    "A kernel of W FLOPs moving Q bytes across DRAM needs at least W / P seconds of arithmetic and Q / "
                    "&beta; seconds of data movement: at best the slower of the two. The teaching device has P = 10 "
                    "TFLOP/s and &beta; = 200 GB/s. The vector add of 10<sup>6</sup> floats (1 FLOP and 12 bytes per "
                    "element) also ran on the simulated teaching device: its point is the timing model's time and DRAM "
                    "bytes.");
    fprintf(f, "<div class=\"cards\"><div class=\"card\"><div class=\"k\">intensity I = W / Q</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "vector_add.intensity", 4);
    fprintf(f, " <small>FLOP/byte (1/12)</small></div></div><div class=\"card\"><div class=\"k\">compute vs memory"
               "</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "vector_add.t_compute_us", 1);
    fprintf(f, " <small>&micro;s vs</small> ");
    ws_rep_xs_num(f, r, "vector_add.t_memory_us", 0);
    fprintf(f, " <small>&micro;s</small></div></div><div class=\"card\"><div class=\"k\">ceiling</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "vector_add.ceiling_gflops", 1);
    fprintf(f, " <small>GFLOP/s</small></div></div><div class=\"card\"><div class=\"k\">ridge P / &beta;</div>"
               "<div class=\"v\">");
    ws_rep_xs_num(f, r, "ridge", 0);
    fprintf(f, " <small>FLOP/byte</small></div></div><div class=\"card\"><div class=\"k\">simulated</div><div class=\"v\">");
    ws_rep_xs_num(f, r, "simulated.time_us", 2);
    fprintf(f, " <small>&micro;s, ");
    ws_rep_xs_num(f, r, "simulated.gflops", 2);
    fprintf(f, " GFLOP/s</small></div></div></div>\n");
    double X = 110, Y = 30, w = 760, h = 420, xlo = 0.01, xhi = 1000, ylo = 1, yhi = 100000;
    double P = ws_rep_xs_d(r, "peak_tflops", 10) * 1000, beta = ws_rep_xs_d(r, "bandwidth_gbs", 200);
    fprintf(f, "<figure id=\"fig-roofline\"><h2>The roofline, GFLOP/s against FLOP/byte (log scales)</h2>\n");
    ws_rep_xs_svg(f, "roofline-svg", 1000, Y + h + 70, "the roofline with the kernel's simulated point");
    ws_rep_xs_rect(f, X, Y, w, h, "#fbfcfd", "#d8dee6", NULL);
    for (double d = xlo; d <= xhi * 1.001; d *= 10) {
        double x = X + logpos(d, xlo, xhi, w);
        ws_rep_xs_line(f, x, Y, x, Y + h, XS_GRID, 1, NULL);
        ws_rep_xs_textf(f, x, Y + h + 16, "middle", 11, 400, XS_MUTED, "%g", d);
    }
    for (double d = ylo; d <= yhi * 1.001; d *= 10) {
        double y = Y + h - logpos(d, ylo, yhi, h);
        ws_rep_xs_line(f, X, y, X + w, y, XS_GRID, 1, NULL);
        ws_rep_xs_textf(f, X - 8, y + 4, "end", 11, 400, XS_MUTED, "%g", d);
    }
    ws_rep_xs_text(f, X + w / 2, Y + h + 36, "middle", 12, 600, XS_INK, "arithmetic intensity, FLOP per DRAM byte");
    fprintf(f, "<text x=\"22\" y=\"%.1f\" font-size=\"12\" font-weight=\"600\" fill=\"%s\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 22 %.1f)\">GFLOP/s</text>\n", Y + h / 2, XS_INK, Y + h / 2);
    /* the roof */
    double ridge = P / beta;
    double x1 = X, y1 = Y + h - logpos(beta * xlo, ylo, yhi, h);
    double xr = X + logpos(ridge, xlo, xhi, w), yr = Y + h - logpos(P, ylo, yhi, h);
    fprintf(f, "<path d=\"M%.1f,%.1f L%.1f,%.1f L%.1f,%.1f\" fill=\"none\" stroke=\"#1f2933\" stroke-width=\"3\"/>\n", x1,
            y1, xr, yr, X + w, yr);
    ws_rep_xs_line(f, xr, yr, xr, Y + h, "#1f2933", 1, "4 4");
    ws_rep_xs_text_open(f, xr + 6, Y + h - 8, "start", 11.5, 600, XS_INK);
    ws_rep_xs_span(f, 0, NULL, "ridge ");
    ws_rep_xs_snum(f, 700, NULL, r, 0, "ridge");
    ws_rep_xs_text_close(f);
    ws_rep_xs_textf(f, X + w - 8, yr - 8, "end", 11.5, 600, XS_INK, "P = %g TFLOP/s", P / 1000);
    ws_rep_xs_textf(f, X + logpos(0.012, xlo, xhi, w), Y + h - logpos(beta * 0.012, ylo, yhi, h) - 14, "start", 11.5,
                    600, XS_INK, "\xce\xb2 = %g GB/s", beta);
    /* the matrix presets */
    const json_t *mats = ws_rep_xs_get(r, "matrix");
    for (size_t i = 0; i < json_array_size(mats); i++) {
        const json_t *m = json_array_get(mats, i);
        double mi = ws_rep_xs_d(m, "intensity", 1), mg = ws_rep_xs_d(m, "ceiling_gflops", 1);
        double px = X + logpos(mi, xlo, xhi, w), py = Y + h - logpos(mg, ylo, yhi, h);
        ws_rep_xs_circle(f, px, py, 6, "#9b59b6", "#ffffff");
        ws_rep_xs_textf(f, px + 8, py + 16, "start", 10.5, 600, "#7d3c98", "matmul tile %g", ws_rep_xs_d(m, "tile", 0));
    }
    /* the vector add: model, with overhead, simulated */
    double vi = ws_rep_xs_d(r, "vector_add.intensity", 0.08), vg = ws_rep_xs_d(r, "vector_add.ceiling_gflops", 1);
    double px = X + logpos(vi, xlo, xhi, w), py = Y + h - logpos(vg, ylo, yhi, h);
    ws_rep_xs_circle(f, px, py, 7, "#ffffff", "#3b6fd8");
    double og = ws_rep_xs_d(r, "with_overhead.gflops", 1);
    ws_rep_xs_circle(f, px, Y + h - logpos(og, ylo, yhi, h), 5, "#ffffff", "#8c96a3");
    double si = ws_rep_xs_d(r, "simulated.intensity", 0.08), sg = ws_rep_xs_d(r, "simulated.gflops", 1);
    double sx = X + logpos(si, xlo, xhi, w), sy = Y + h - logpos(sg, ylo, yhi, h);
    ws_rep_xs_circle(f, sx, sy, 4.5, "#e5484d", NULL);
    ws_rep_xs_line(f, sx + 6, sy - 4, sx + 60, sy - 60, "#e5484d", 1, NULL);
    ws_rep_xs_text_open(f, sx + 62, sy - 64, "start", 12, 600, "#c0392b");
    ws_rep_xs_span(f, 0, NULL, "simulated vector add: ");
    ws_rep_xs_snum(f, 700, NULL, r, 2, "simulated.gflops");
    ws_rep_xs_span(f, 0, NULL, " GFLOP/s at I = ");
    ws_rep_xs_snum(f, 700, NULL, r, 4, "simulated.intensity");
    ws_rep_xs_text_close(f);
    ws_rep_xs_text_open(f, sx + 62, sy - 48, "start", 11.5, 400, XS_INK);
    ws_rep_xs_span(f, 0, NULL, "(roof ");
    ws_rep_xs_snum(f, 650, NULL, r, 1, "vector_add.ceiling_gflops");
    ws_rep_xs_span(f, 0, NULL, "; with H = ");
    ws_rep_xs_snum(f, 650, NULL, r, 0, "with_overhead.overhead_us");
    ws_rep_xs_span(f, 0, NULL, " \xc2\xb5s of overhead: ");
    ws_rep_xs_snum(f, 650, NULL, r, 1, "with_overhead.gflops");
    ws_rep_xs_span(f, 0, NULL, ")");
    ws_rep_xs_text_close(f);
    double ky = Y + h + 58;
    double kx = ws_rep_xs_key(f, X, ky, "#ffffff", "#3b6fd8", "vector add, the model's ceiling");
    kx = ws_rep_xs_key(f, kx, ky, "#ffffff", "#8c96a3", "with the 10 us overhead");
    kx = ws_rep_xs_key(f, kx, ky, "#e5484d", NULL, "simulated (timing model)");
    ws_rep_xs_key(f, kx, ky, "#9b59b6", NULL, "1024 x 1024 matmul, by tile size");
    ws_rep_xs_svg_end(f);
    fprintf(f, "</figure>\n");
    /* the numbers */
    fprintf(f, "<figure><h2>The vector add by hand, and in the simulator</h2><table class=\"t\"><tr><th></th><th>model</th>"
               "<th>simulated</th></tr>\n<tr><td>FLOPs W</td><td>");
    ws_rep_xs_num(f, r, "vector_add.flops", -1);
    fprintf(f, "</td><td>");
    ws_rep_xs_num(f, r, "simulated.flops", -1);
    fprintf(f, "</td></tr>\n<tr><td>bytes Q (requested / DRAM)</td><td>");
    ws_rep_xs_num(f, r, "vector_add.bytes", -1);
    fprintf(f, "</td><td>");
    ws_rep_xs_num(f, r, "simulated.dram_bytes", -1);
    fprintf(f, "</td></tr>\n<tr><td>time, &micro;s</td><td>");
    ws_rep_xs_num(f, r, "vector_add.t_bound_us", 1);
    fprintf(f, "</td><td>");
    ws_rep_xs_num(f, r, "simulated.time_us", 2);
    fprintf(f, "</td></tr>\n<tr><td>GFLOP/s</td><td>");
    ws_rep_xs_num(f, r, "vector_add.ceiling_gflops", 2);
    fprintf(f, "</td><td>");
    ws_rep_xs_num(f, r, "simulated.gflops", 2);
    fprintf(f, "</td></tr>\n<tr><td>with H = ");
    ws_rep_xs_num(f, r, "with_overhead.overhead_us", 0);
    fprintf(f, " &micro;s of overhead</td><td>");
    ws_rep_xs_num(f, r, "with_overhead.t_us", 0);
    fprintf(f, " &micro;s, ");
    ws_rep_xs_num(f, r, "with_overhead.gflops", 1);
    fprintf(f, " GFLOP/s</td><td></td></tr>\n<tr><td>half the traffic</td><td>");
    ws_rep_xs_num(f, r, "with_overhead.halved_t_us", 0);
    fprintf(f, " &micro;s: ");
    ws_rep_xs_num(f, r, "with_overhead.halved_speedup", 2);
    fprintf(f, "&times;</td><td></td></tr></table>\n");
    fprintf(f, "<table class=\"t\"><tr><th>1024 &times; 1024 matmul</th><th>FLOPs</th><th>requested bytes</th>"
               "<th>FLOP/byte</th><th>time &ge; &micro;s</th><th>GFLOP/s</th><th>bound</th></tr>\n");
    for (size_t i = 0; i < json_array_size(mats); i++) {
        fprintf(f, "<tr><td>tile ");
        ws_rep_xs_numf(f, r, -1, "matrix.%zu.tile", i);
        fprintf(f, "</td><td>");
        ws_rep_xs_numf(f, r, -1, "matrix.%zu.flops", i);
        fprintf(f, "</td><td>");
        ws_rep_xs_numf(f, r, -1, "matrix.%zu.bytes", i);
        fprintf(f, "</td><td>");
        ws_rep_xs_numf(f, r, 3, "matrix.%zu.intensity", i);
        fprintf(f, "</td><td>");
        ws_rep_xs_numf(f, r, 1, "matrix.%zu.t_bound_us", i);
        fprintf(f, "</td><td>");
        ws_rep_xs_numf(f, r, 1, "matrix.%zu.ceiling_gflops", i);
        fprintf(f, "</td><td>%s</td></tr>\n", ws_rep_xs_s(json_array_get(mats, i), "bound", ""));
    }
    fprintf(f, "</table><figcaption>Halving the traffic halves only the 60 &micro;s of memory time, not the fixed 10 "
               "&micro;s: 1.75&times;, not 2&times;. The matrix rows use 2n<sup>3</sup> FLOPs and 8n<sup>3</sup>/T + "
               "4n<sup>2</sup> requested bytes; tile 1 is no reuse at all.</figcaption></figure>\n");
    ws_rep_xs_end(f, "Kernel: <code>explore/roofline.cu</code>, run with <code>warpsim run --gpu teaching-sm --timing"
                     "</code>. P and &beta;: the preset (<code>fp32_tflops</code>, <code>mem_bandwidth_gbs</code>); "
                     "simulated time and bytes: the run report's <code>gpu__time_duration.sum</code> and "
                     "<code>dram__bytes_read.sum + dram__bytes_write.sum</code>; FLOPs: one add per element (the view "
                     "data's count when there is one).");
}
