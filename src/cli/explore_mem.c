/* explore_mem.c - the explorers of memory traffic (explore_mem.h). The counts are the timing model's (the run
 * report's Nsight Compute metrics: global load requests and sectors, shared-memory wavefronts and bank
 * conflicts, DRAM bytes, time); the addresses and words each lane used are what the kernels wrote down, checked
 * against the view data's memory samples when the runtime collects them. */
#include "explore_mem.h"
#include "../device/device.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------------ sectors */

const cli_xopt cli_x_sectors_opts[] = {
    { "strides", CLI_XO_LIST, "1,2,4,8,16,32", 0, 32, "strides in words (comma-separated; the seed: 1,2,4,8,16,32)" },
    { "offset", CLI_XO_INT, "0", 0, 252, "bytes added to the 32-byte aligned base (a multiple of 4)" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* Sort integers ascending (small arrays). */
static void sort_ll(long long *v, int n)
{
    for (int i = 1; i < n; i++) {
        long long t = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > t) { v[j + 1] = v[j]; j--; }
        v[j + 1] = t;
    }
}

/* Distinct values among v[0..n). */
static int distinct(const long long *v, int n)
{
    long long s[64];
    if (n > 64) n = 64;
    memcpy(s, v, (size_t)n * sizeof *s);
    sort_ll(s, n);
    int d = 0;
    for (int i = 0; i < n; i++) if (i == 0 || s[i] != s[i - 1]) d++;
    return d;
}

/* The global load the view sampled in a launch: its number of sectors, or -1 when there is no sample. */
static long long view_load_sectors(const json_t *view)
{
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(view, "memory"), i, m)
        if (!strcmp(cli_x_s(m, "space", ""), "global") && !strcmp(cli_x_s(m, "op", ""), "load"))
            return (long long)json_array_size(json_object_get(m, "sectors"));
    return -1;
}

/* One load of the sectors kernel as a result object. */
static json_t *sector_case(const json_t *p, const json_t *launch, const json_t *view, long long base_mod)
{
    json_t *c = json_object(), *offs = json_object_get(p, "offsets"), *sec = json_array(), *lin = json_array();
    long long s[64], l[64];
    int n = (int)json_array_size(offs);
    if (n > 64) n = 64;
    for (int i = 0; i < n; i++) {
        long long a = base_mod + json_integer_value(json_array_get(offs, (size_t)i));
        s[i] = a / 32;
        l[i] = a / 128;
        cli_x_push_int(sec, s[i]);
        cli_x_push_int(lin, l[i]);
    }
    long long req = cli_x_i(launch, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", -1);
    long long sectors = cli_x_i(launch, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", -1);
    cli_x_set_str(c, "label", cli_x_s(p, "label", ""));
    cli_x_set_int(c, "stride", cli_x_i(p, "stride", 0));
    cli_x_set_int(c, "requests", req);
    cli_x_set_int(c, "sectors", sectors);
    cli_x_set_dbl(c, "sectors_per_request", req > 0 ? (double)sectors / (double)req : 0.0);
    cli_x_set_int(c, "sectors_from_addresses", distinct(s, n));
    cli_x_set_int(c, "view_sectors", view_load_sectors(view));
    cli_x_set_int(c, "lines", distinct(l, n));
    cli_x_set_int(c, "useful_bytes", 4LL * n);
    cli_x_set_int(c, "sector_bytes", 32 * sectors);
    cli_x_set_dbl(c, "efficiency_pct", sectors > 0 ? 100.0 * 4.0 * n / (32.0 * (double)sectors) : 0.0);
    json_object_set(c, "offsets", offs);
    json_object_set_new(c, "sector_of_lane", sec);
    json_object_set_new(c, "line_of_lane", lin);
    return c;
}

/* Run the sectors explorer. */
int cli_x_sectors_run(cli_xctx *x, json_t *res)
{
    long long strides[CLI_X_MAXLIST], off = cli_x_int(x, "offset");
    int ns = cli_x_list(x, "strides", strides, 16);
    if (off % 4) return cli_x_fail(x, "--offset %lld: a float is 4-byte aligned, so the offset is a multiple of 4", off);
    char nums[18][24];
    const char *args[20];
    int na = 0;
    snprintf(nums[0], sizeof nums[0], "offset=%lld", off);
    args[na++] = nums[0];
    for (int i = 0; i < ns; i++) {
        snprintf(nums[i + 1], sizeof nums[0], "%lld", strides[i]);
        args[na++] = nums[i + 1];
    }
    args[na] = NULL;
    cli_xspec s = { .program = "sectors", .gpu = "teaching-sm", .timing = 1, .args = args };
    cli_xrun r;
    if (cli_x_run(x, &s, &r)) return -1;
    long long base_mod = cli_x_i(r.out, "base_mod_128", 0) + off;
    cli_x_set_str(res, "preset", s.gpu);
    cli_x_set_int(res, "lanes", 32);
    cli_x_set_int(res, "bytes_per_lane", 4);
    cli_x_set_int(res, "offset", off);
    cli_x_set_int(res, "base_mod_128", base_mod);
    json_t *runs = json_array(), *launches = json_object_get(r.out, "launches");
    size_t n = json_array_size(launches);
    for (size_t i = 0; i < n; i++) {
        json_t *c = sector_case(json_array_get(launches, i), cli_x_launch(&r, i), cli_x_view(&r, i),
                                i + 2 < n ? base_mod : base_mod - off);
        if (i + 2 < n) json_array_append_new(runs, c);
        else json_object_set_new(res, i + 2 == n ? "aos" : "soa", c);
    }
    json_object_set_new(res, "runs", runs);
    cli_x_run_free(&r);
    return 0;
}

/* Print one sectors line. */
static void sector_line(FILE *out, const json_t *c)
{
    fprintf(out, "  %-16s %2lld sectors (%lld request, %lld from the lanes' addresses), %lld line%s: %4lld sector "
            "bytes for 128 useful (%.1f%%)\n", cli_x_s(c, "label", ""), cli_x_i(c, "sectors", 0),
            cli_x_i(c, "requests", 0), cli_x_i(c, "sectors_from_addresses", 0), cli_x_i(c, "lines", 0),
            cli_x_i(c, "lines", 0) == 1 ? " " : "s", cli_x_i(c, "sector_bytes", 0), cli_x_num(c, "efficiency_pct", 0));
}

/* Print the sectors result. */
void cli_x_sectors_text(const json_t *res, FILE *out)
{
    fprintf(out, "32 lanes, lane l loads the 4-byte word at base + 4 x stride x l (base %% 128 = %lld); distinct "
            "32-byte sectors of one load:\n", cli_x_i(res, "base_mod_128", 0));
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(res, "runs"), i, c) sector_line(out, c);
    fprintf(out, " the x of 32 {x, y} records:\n");
    sector_line(out, json_object_get(res, "aos"));
    sector_line(out, json_object_get(res, "soa"));
}

/* ------------------------------------------------------------------------------------------------ banks */

const cli_xopt cli_x_banks_opts[] = {
    { "column", CLI_XO_INT, "0", 0, 7, "the tile column the lanes read" },
    { "stride", CLI_XO_INT, NULL, 0, 10, "also try this word stride (your pattern)" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* Run the banks explorer: a column, the padded column, a broadcast (and your stride). */
int cli_x_banks_run(cli_xctx *x, json_t *res)
{
    char err[512];
    const ws_device *d = ws_device_get("teaching-8lane", err, sizeof err);
    if (!d) return cli_x_fail(x, "%s", err);
    long long col = cli_x_int(x, "column");
    int custom = cli_x_given(x, "stride");
    char p[4][32];
    snprintf(p[0], sizeof p[0], "%lld:8", col);
    snprintf(p[1], sizeof p[1], "%lld:9", col);
    snprintf(p[2], sizeof p[2], "%lld:0", col);
    snprintf(p[3], sizeof p[3], "%lld:%lld", col, cli_x_int(x, "stride"));
    const char *args[] = { p[0], p[1], p[2], custom ? p[3] : NULL, NULL };
    cli_xspec s = { .program = "banks", .gpu = "teaching-8lane", .timing = 1, .args = args };
    cli_xrun r;
    if (cli_x_run(x, &s, &r)) return -1;
    int banks = d->smem_banks;
    cli_x_set_str(res, "preset", s.gpu);
    cli_x_set_int(res, "banks", banks);
    cli_x_set_int(res, "lanes", d->warp_size);
    cli_x_set_int(res, "column", col);
    static const char *const labels[4] = { "column of an 8 x 8 tile", "padded to rows of 9", "all lanes, one word",
                                           "your stride" };
    json_t *runs = json_array();
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(r.out, "launches"), i, l) {
        json_t *c = json_object(), *bk = json_array(), *launch = cli_x_launch(&r, i);
        long long words[32], per_bank[64] = { 0 };
        int n = (int)json_array_size(json_object_get(l, "words"));
        if (n > 32) n = 32;
        for (int k = 0; k < n; k++) {
            words[k] = json_integer_value(json_array_get(json_object_get(l, "words"), (size_t)k));
            cli_x_push_int(bk, words[k] % banks);
        }
        /* rounds the mapping needs: the most distinct words any one bank serves */
        long long most = 0;
        for (int b = 0; b < banks && b < 64; b++) {
            long long ws[32];
            int m = 0;
            for (int k = 0; k < n; k++) if (words[k] % banks == b) ws[m++] = words[k];
            per_bank[b] = m ? distinct(ws, m) : 0;
            if (per_bank[b] > most) most = per_bank[b];
        }
        cli_x_set_str(c, "label", labels[i < 4 ? i : 3]);
        cli_x_set_int(c, "start", cli_x_i(l, "start", 0));
        cli_x_set_int(c, "stride", cli_x_i(l, "stride", 0));
        json_object_set(c, "words", json_object_get(l, "words"));
        json_object_set_new(c, "banks", bk);
        cli_x_set_int(c, "rounds", cli_x_i(launch, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", -1));
        cli_x_set_int(c, "conflicts", cli_x_i(launch, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", -1));
        cli_x_set_int(c, "rounds_from_words", most);
        cli_x_set_int(c, "distinct_words", distinct(words, n));
        /* the view's shared-memory sample of the load, when there is one: its wavefronts */
        long long vw = -1;
        size_t k;
        json_t *m;
        json_array_foreach(json_object_get(cli_x_view(&r, i), "memory"), k, m)
            if (!strcmp(cli_x_s(m, "space", ""), "shared") && !strcmp(cli_x_s(m, "op", ""), "load"))
                vw = cli_x_i(m, "wavefronts", -1);
        cli_x_set_int(c, "view_rounds", vw);
        json_array_append_new(runs, c);
    }
    json_object_set_new(res, "runs", runs);
    cli_x_run_free(&r);
    return 0;
}

/* Print the banks result. */
void cli_x_banks_text(const json_t *res, FILE *out)
{
    fprintf(out, "%lld lanes read one 4-byte word each; %lld banks, bank = word mod %lld, one distinct word per bank "
            "per round\n", cli_x_i(res, "lanes", 0), cli_x_i(res, "banks", 0), cli_x_i(res, "banks", 0));
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(res, "runs"), i, c) {
        fprintf(out, "  %-24s stride %lld: words [", cli_x_s(c, "label", ""), cli_x_i(c, "stride", 0));
        size_t k;
        json_t *v;
        json_array_foreach(json_object_get(c, "words"), k, v) fprintf(out, "%s%lld", k ? " " : "", (long long)json_integer_value(v));
        fprintf(out, "] banks [");
        json_array_foreach(json_object_get(c, "banks"), k, v) fprintf(out, "%s%lld", k ? " " : "", (long long)json_integer_value(v));
        fprintf(out, "]: %lld round%s (%lld bank conflicts)\n", cli_x_i(c, "rounds", 0),
                cli_x_i(c, "rounds", 0) == 1 ? "" : "s", cli_x_i(c, "conflicts", 0));
    }
}

/* ------------------------------------------------------------------------------------------------ tile */

const cli_xopt cli_x_tile_opts[] = {
    { "thread", CLI_XO_LIST, "0,1", 0, 1, "the thread (row, column) to follow (the seed: 0,1)" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* m[y][x] of a JSON matrix, as a number. */
static double at2(const json_t *m, size_t y, size_t x)
{
    return json_number_value(json_array_get(json_array_get(m, y), x));
}

/* Run the tile explorer. */
int cli_x_tile_run(cli_xctx *x, json_t *res)
{
    long long th[2] = { 0, 1 };
    if (cli_x_list(x, "thread", th, 2) != 2) return cli_x_fail(x, "--thread: expected ROW,COLUMN (e.g. 0,1)");
    cli_xspec s = { .program = "tile", .gpu = "teaching-sm" };
    cli_xrun r;
    if (cli_x_run(x, &s, &r)) return -1;
    const json_t *o = r.out;
    long long T = cli_x_i(o, "tile", 2), K = cli_x_i(o, "k", 4);
    cli_x_set_str(res, "preset", s.gpu);
    cli_x_set_int(res, "tile", T);
    cli_x_set_int(res, "m", cli_x_i(o, "m", 0));
    cli_x_set_int(res, "k", K);
    cli_x_set_int(res, "n", cli_x_i(o, "n", 0));
    json_object_set(res, "A", json_object_get(o, "A"));
    json_object_set(res, "B", json_object_get(o, "B"));
    json_object_set(res, "C", json_object_get(o, "C"));
    cli_x_set_bool(res, "correct", json_is_true(json_object_get(o, "correct")));
    json_t *rounds = json_object_get(o, "rounds"), *rs = json_array();
    long long y = th[0], xx = th[1], me = y * T + xx;
    json_t *loads = json_array(), *reads = json_array(), *partials = json_array();
    size_t ri;
    json_t *rd;
    json_array_foreach(rounds, ri, rd) {
        json_t *c = json_object();
        cli_x_set_int(c, "round", (long long)ri);
        cli_x_set_int(c, "k_first", (long long)ri * T);
        cli_x_set_int(c, "k_last", (long long)ri * T + T - 1);
        static const char *const keep[] = { "As", "Bs", "As_by", "Bs_by", "sum" };
        for (size_t k = 0; k < 5; k++) json_object_set(c, keep[k], json_object_get(rd, keep[k]));
        json_array_append_new(rs, c);
        /* what the followed thread loaded: A[row][r*T + x] into As[y][x], B[r*T + y][col] into Bs[y][x] */
        json_t *ld = json_object();
        cli_x_set_int(ld, "round", (long long)ri);
        json_object_set_new(ld, "A", json_pack("[II]", (json_int_t)y, (json_int_t)(ri * T + xx)));
        cli_x_set_dbl(ld, "A_value", at2(json_object_get(rd, "As"), (size_t)y, (size_t)xx));
        json_object_set_new(ld, "As", json_pack("[II]", (json_int_t)y, (json_int_t)xx));
        json_object_set_new(ld, "B", json_pack("[II]", (json_int_t)(ri * T + y), (json_int_t)xx));
        cli_x_set_dbl(ld, "B_value", at2(json_object_get(rd, "Bs"), (size_t)y, (size_t)xx));
        json_object_set_new(ld, "Bs", json_pack("[II]", (json_int_t)y, (json_int_t)xx));
        cli_x_set_int(ld, "loader_check", at2(json_object_get(rd, "As_by"), (size_t)y, (size_t)xx) == (double)me);
        json_array_append_new(loads, ld);
        /* what it read: As[y][k] and Bs[k][x], loaded by threads (y, k) and (k, x) */
        json_t *a = json_array_get(json_object_get(rd, "a"), (size_t)me), *b = json_array_get(json_object_get(rd, "b"), (size_t)me);
        json_t *ab = json_array_get(json_object_get(rd, "a_by"), (size_t)me), *bb = json_array_get(json_object_get(rd, "b_by"), (size_t)me);
        char text[256] = "";
        size_t tl = 0;
        if (ri) tl += (size_t)snprintf(text, sizeof text, "%g + ", at2(json_object_get(json_array_get(rounds, ri - 1), "sum"),
                                                                    (size_t)y, (size_t)xx));
        for (long long k = 0; k < T; k++) {
            json_t *e = json_object();
            long long ay = json_integer_value(json_array_get(ab, (size_t)k)), by = json_integer_value(json_array_get(bb, (size_t)k));
            cli_x_set_int(e, "round", (long long)ri);
            cli_x_set_int(e, "k", k);
            cli_x_set_dbl(e, "a", json_number_value(json_array_get(a, (size_t)k)));
            json_object_set_new(e, "a_at", json_pack("[II]", (json_int_t)y, (json_int_t)k));
            json_object_set_new(e, "a_from", json_pack("[II]", (json_int_t)(ay / T), (json_int_t)(ay % T)));
            cli_x_set_dbl(e, "b", json_number_value(json_array_get(b, (size_t)k)));
            json_object_set_new(e, "b_at", json_pack("[II]", (json_int_t)k, (json_int_t)xx));
            json_object_set_new(e, "b_from", json_pack("[II]", (json_int_t)(by / T), (json_int_t)(by % T)));
            json_array_append_new(reads, e);
            tl += (size_t)snprintf(text + tl, sizeof text - tl, "%s%g x %g", k ? " + " : "",
                                   json_number_value(json_array_get(a, (size_t)k)), json_number_value(json_array_get(b, (size_t)k)));
        }
        double sum = at2(json_object_get(rd, "sum"), (size_t)y, (size_t)xx);
        snprintf(text + tl, sizeof text - tl, " = %g", sum);
        json_t *pt = json_object();
        cli_x_set_int(pt, "round", (long long)ri);
        cli_x_set_dbl(pt, "sum", sum);
        cli_x_set_str(pt, "text", text);
        json_array_append_new(partials, pt);
    }
    json_object_set_new(res, "rounds", rs);
    json_object_set(res, "after_first", json_object_get(json_array_get(rounds, 0), "sum"));
    json_object_set(res, "final", json_object_get(o, "C"));
    json_t *t = json_object();
    cli_x_set_int(t, "row", y);
    cli_x_set_int(t, "col", xx);
    json_object_set_new(t, "loads", loads);
    json_object_set_new(t, "reads", reads);
    json_object_set_new(t, "partials", partials);
    json_object_set_new(res, "thread", t);
    cli_x_run_free(&r);
    return 0;
}

/* Print a JSON matrix as [[a, b], [c, d]]. */
static void print_matrix(FILE *out, const json_t *m)
{
    fprintf(out, "[");
    size_t i, j;
    json_t *row, *v;
    json_array_foreach(m, i, row) {
        fprintf(out, "%s[", i ? ", " : "");
        json_array_foreach(row, j, v) fprintf(out, "%s%g", j ? ", " : "", json_number_value(v));
        fprintf(out, "]");
    }
    fprintf(out, "]");
}

/* Print the tile result. */
void cli_x_tile_text(const json_t *res, FILE *out)
{
    long long T = cli_x_i(res, "tile", 2);
    fprintf(out, "C = A x B, A ");
    print_matrix(out, json_object_get(res, "A"));
    fprintf(out, ", B ");
    print_matrix(out, json_object_get(res, "B"));
    fprintf(out, "; %lld x %lld tiles, one block of %lld x %lld threads, thread (r, c) owns C[r, c]\n", T, T, T, T);
    size_t i;
    json_t *rd;
    json_array_foreach(json_object_get(res, "rounds"), i, rd) {
        fprintf(out, "  round %zu (k = %lld, %lld): every thread loads one A and one B entry: As ", i,
                cli_x_i(rd, "k_first", 0), cli_x_i(rd, "k_last", 0));
        print_matrix(out, json_object_get(rd, "As"));
        fprintf(out, ", Bs ");
        print_matrix(out, json_object_get(rd, "Bs"));
        fprintf(out, "; barrier 1; each thread adds %lld products; barrier 2; partial sums ", T);
        print_matrix(out, json_object_get(rd, "sum"));
        fprintf(out, "\n");
    }
    fprintf(out, "  C = ");
    print_matrix(out, json_object_get(res, "final"));
    fprintf(out, " (%s)\n", json_is_true(json_object_get(res, "correct")) ? "correct" : "WRONG");
    const json_t *t = json_object_get(res, "thread");
    fprintf(out, "  thread (%lld, %lld):\n", cli_x_i(t, "row", 0), cli_x_i(t, "col", 0));
    json_t *e;
    json_array_foreach(json_object_get(t, "loads"), i, e) {
        const json_t *a = json_object_get(e, "A"), *b = json_object_get(e, "B");
        fprintf(out, "    round %lld loads A[%lld, %lld] = %g into As[%lld][%lld] and B[%lld, %lld] = %g into Bs[%lld][%lld]\n",
                cli_x_i(e, "round", 0), (long long)json_integer_value(json_array_get(a, 0)),
                (long long)json_integer_value(json_array_get(a, 1)), cli_x_num(e, "A_value", 0),
                (long long)json_integer_value(json_array_get(json_object_get(e, "As"), 0)),
                (long long)json_integer_value(json_array_get(json_object_get(e, "As"), 1)),
                (long long)json_integer_value(json_array_get(b, 0)), (long long)json_integer_value(json_array_get(b, 1)),
                cli_x_num(e, "B_value", 0), (long long)json_integer_value(json_array_get(json_object_get(e, "Bs"), 0)),
                (long long)json_integer_value(json_array_get(json_object_get(e, "Bs"), 1)));
    }
    json_array_foreach(json_object_get(t, "reads"), i, e) {
        const json_t *aa = json_object_get(e, "a_at"), *af = json_object_get(e, "a_from");
        const json_t *ba = json_object_get(e, "b_at"), *bf = json_object_get(e, "b_from");
        fprintf(out, "    round %lld reads As[%lld][%lld] = %g (loaded by thread (%lld, %lld)) and Bs[%lld][%lld] = %g "
                "(loaded by thread (%lld, %lld))\n", cli_x_i(e, "round", 0),
                (long long)json_integer_value(json_array_get(aa, 0)), (long long)json_integer_value(json_array_get(aa, 1)),
                cli_x_num(e, "a", 0), (long long)json_integer_value(json_array_get(af, 0)),
                (long long)json_integer_value(json_array_get(af, 1)), (long long)json_integer_value(json_array_get(ba, 0)),
                (long long)json_integer_value(json_array_get(ba, 1)), cli_x_num(e, "b", 0),
                (long long)json_integer_value(json_array_get(bf, 0)), (long long)json_integer_value(json_array_get(bf, 1)));
    }
    json_array_foreach(json_object_get(t, "partials"), i, e)
        fprintf(out, "    after round %lld: %s\n", cli_x_i(e, "round", 0), cli_x_s(e, "text", ""));
}

/* ------------------------------------------------------------------------------------------------ roofline */

const cli_xopt cli_x_roofline_opts[] = {
    { "n", CLI_XO_INT, "1000000", 1024, 16777216, "floats of the vector add (the seed: 10^6)" },
    { "overhead", CLI_XO_DBL, "10", 0, 1e6, "fixed overhead H in microseconds (the seed: 10)" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* The roofline bound of W FLOPs and Q bytes at peak P FLOP/s and bandwidth beta B/s, as an object. */
static json_t *bound(double W, double Q, double P, double beta)
{
    json_t *o = json_object();
    double tc = W / P, tm = Q / beta, t = tc > tm ? tc : tm;
    cli_x_set_dbl(o, "flops", W);
    cli_x_set_dbl(o, "bytes", Q);
    cli_x_set_dbl(o, "intensity", W / Q);
    cli_x_set_dbl(o, "t_compute_us", tc * 1e6);
    cli_x_set_dbl(o, "t_memory_us", tm * 1e6);
    cli_x_set_dbl(o, "t_bound_us", t * 1e6);
    cli_x_set_dbl(o, "ceiling_gflops", W / t / 1e9);
    cli_x_set_str(o, "bound", tm >= tc ? "memory" : "compute");
    return o;
}

/* Run the roofline explorer. */
int cli_x_roofline_run(cli_xctx *x, json_t *res)
{
    char err[512];
    const ws_device *d = ws_device_get("teaching-sm", err, sizeof err);
    if (!d) return cli_x_fail(x, "%s", err);
    double P = d->fp32_tflops * 1e12, beta = d->mem_bandwidth_gbs * 1e9, H = cli_x_dbl(x, "overhead") * 1e-6;
    long long n = cli_x_int(x, "n");
    cli_x_set_str(res, "preset", "teaching-sm");
    cli_x_set_dbl(res, "peak_tflops", d->fp32_tflops);
    cli_x_set_dbl(res, "bandwidth_gbs", d->mem_bandwidth_gbs);
    cli_x_set_dbl(res, "ridge", P / beta);
    /* the model: W = n FLOPs, Q = 12 n bytes */
    json_t *va = bound((double)n, 12.0 * (double)n, P, beta);
    cli_x_set_int(va, "n", n);
    json_object_set_new(res, "vector_add", va);
    double t = cli_x_num(va, "t_bound_us", 0) * 1e-6, th = 12.0 * (double)n / 2.0 / beta;
    double thh = th > (double)n / P ? th : (double)n / P;
    json_t *ov = json_object();
    cli_x_set_dbl(ov, "overhead_us", H * 1e6);
    cli_x_set_dbl(ov, "t_us", (H + t) * 1e6);
    cli_x_set_dbl(ov, "gflops", (double)n / (H + t) / 1e9);
    cli_x_set_dbl(ov, "halved_t_us", (H + thh) * 1e6);
    cli_x_set_dbl(ov, "halved_speedup", (H + t) / (H + thh));
    json_object_set_new(res, "with_overhead", ov);
    /* the matrix presets: n = 1024, 2 n^3 FLOPs, 8 n^3 / T + 4 n^2 requested bytes */
    json_t *mats = json_array();
    static const int tiles[] = { 1, 16, 32, 64 };
    double mn = 1024.0;
    for (size_t i = 0; i < 4; i++) {
        json_t *m = bound(2.0 * mn * mn * mn, 8.0 * mn * mn * mn / tiles[i] + 4.0 * mn * mn, P, beta);
        cli_x_set_int(m, "n", 1024);
        cli_x_set_int(m, "tile", tiles[i]);
        json_array_append_new(mats, m);
    }
    json_object_set_new(res, "matrix", mats);
    /* the simulated vector add: the timing model's time and DRAM bytes */
    char a0[32];
    snprintf(a0, sizeof a0, "n=%lld", n);
    const char *args[] = { a0, NULL };
    cli_xspec s = { .program = "roofline", .gpu = "teaching-sm", .timing = 1, .args = args };
    cli_xrun r;
    if (cli_x_run(x, &s, &r)) return -1;
    json_t *l = cli_x_launch(&r, 0), *sim = json_object();
    double ns = cli_x_num(l, "gpu__time_duration.sum", 0);
    double q = cli_x_num(l, "dram__bytes_read.sum", 0) + cli_x_num(l, "dram__bytes_write.sum", 0);
    double w = cli_x_num(json_object_get(cli_x_view(&r, 0), "roofline"), "flops", cli_x_num(r.out, "flops", (double)n));
    cli_x_set_dbl(sim, "time_us", ns * 1e-3);
    cli_x_set_int(sim, "cycles", cli_x_i(l, "sm__cycles_elapsed.max", 0));
    cli_x_set_dbl(sim, "dram_bytes", q);
    cli_x_set_dbl(sim, "flops", w);
    cli_x_set_dbl(sim, "intensity", q > 0 ? w / q : 0.0);
    cli_x_set_dbl(sim, "gflops", ns > 0 ? w / ns : 0.0);
    cli_x_set_dbl(sim, "bandwidth_gbs", ns > 0 ? q / ns : 0.0);
    double roof = q > 0 ? fmin(P, beta * w / q) / 1e9 : 0.0;
    cli_x_set_dbl(sim, "roof_gflops", roof);
    cli_x_set_dbl(sim, "pct_of_roof", roof > 0 && ns > 0 ? 100.0 * (w / ns) / roof : 0.0);
    cli_x_set_bool(sim, "correct", json_is_true(json_object_get(r.out, "correct")));
    json_object_set_new(res, "simulated", sim);
    cli_x_run_free(&r);
    return 0;
}

/* Print the roofline result. */
void cli_x_roofline_text(const json_t *res, FILE *out)
{
    fprintf(out, "P = %g TFLOP/s, beta = %g GB/s: ridge at %g FLOP/byte\n", cli_x_num(res, "peak_tflops", 0),
            cli_x_num(res, "bandwidth_gbs", 0), cli_x_num(res, "ridge", 0));
    const json_t *v = json_object_get(res, "vector_add"), *o = json_object_get(res, "with_overhead");
    fprintf(out, "  vector add of %lld floats: W = %g FLOPs, Q = %g bytes, I = %.4f (1/%g) FLOP/byte\n",
            cli_x_i(v, "n", 0), cli_x_num(v, "flops", 0), cli_x_num(v, "bytes", 0), cli_x_num(v, "intensity", 0),
            1.0 / cli_x_num(v, "intensity", 1));
    fprintf(out, "    compute >= %g us, memory >= %g us: %s-bound, ceiling %.1f GFLOP/s\n",
            cli_x_num(v, "t_compute_us", 0), cli_x_num(v, "t_memory_us", 0), cli_x_s(v, "bound", ""),
            cli_x_num(v, "ceiling_gflops", 0));
    fprintf(out, "    with H = %g us of overhead: %g us, %.1f GFLOP/s; halving the traffic: %g us, %.2fx\n",
            cli_x_num(o, "overhead_us", 0), cli_x_num(o, "t_us", 0), cli_x_num(o, "gflops", 0),
            cli_x_num(o, "halved_t_us", 0), cli_x_num(o, "halved_speedup", 0));
    const json_t *s = json_object_get(res, "simulated");
    fprintf(out, "  simulated (timing model, %s): %.2f us, %g DRAM bytes, %g FLOPs -> I = %.4f, %.2f GFLOP/s (%.1f%% of "
            "the roof), %.1f GB/s\n", cli_x_s(res, "preset", ""), cli_x_num(s, "time_us", 0), cli_x_num(s, "dram_bytes", 0),
            cli_x_num(s, "flops", 0), cli_x_num(s, "intensity", 0), cli_x_num(s, "gflops", 0),
            cli_x_num(s, "pct_of_roof", 0), cli_x_num(s, "bandwidth_gbs", 0));
    fprintf(out, "  1024 x 1024 matrix product, 2n^3 FLOPs, 8n^3/T + 4n^2 requested bytes:\n");
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(res, "matrix"), i, m)
        fprintf(out, "    tile %2lld: I = %7.3f FLOP/byte, >= %9.1f us, %8.1f GFLOP/s, %s-bound\n", cli_x_i(m, "tile", 0),
                cli_x_num(m, "intensity", 0), cli_x_num(m, "t_bound_us", 0), cli_x_num(m, "ceiling_gflops", 0),
                cli_x_s(m, "bound", ""));
}
