/* explore_grid.c - the explorers of grids, blocks and residency (explore_grid.h). Each runs its kernel program
 * (explore/NAME.cu) and builds its result from what the kernel recorded (the program's JSON), what the simulator
 * counted (the run report: registers from ptxas, the occupancy calculator's limits, residency) and, when the
 * runtime collected it, where each block ran (the view data's "blocks"). */
#include "explore_grid.h"
#include "../device/device.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define UNLIMITED 2147483647LL

/* ------------------------------------------------------------------------------------------------ helpers */

/* The occupancy a run report gives one launch. */
json_t *cli_x_occupancy_of(const json_t *l, int warp_size)
{
    if (!l || !json_object_get(l, "launch__occupancy_limit_warps")) return NULL;
    static const char *const keys[4] = { "launch__occupancy_limit_warps", "launch__occupancy_limit_blocks",
                                         "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem" };
    static const char *const names[4] = { "threads", "blocks", "registers", "shared_memory" };
    json_t *o = json_object(), *lim = json_object(), *which = json_array();
    long long v[4], best = LLONG_MAX;
    for (int i = 0; i < 4; i++) {
        v[i] = cli_x_i(l, keys[i], UNLIMITED);
        if (v[i] >= UNLIMITED) json_object_set_new(lim, names[i], json_null());
        else cli_x_set_int(lim, names[i], v[i]);
        if (v[i] < best) best = v[i];
    }
    for (int i = 0; i < 4; i++) if (v[i] == best) json_array_append_new(which, json_string(names[i]));
    json_t *block = json_object_get(l, "block");
    long long threads = 1;
    for (size_t d = 0; d < 3; d++) threads *= json_integer_value(json_array_get(block, d));
    long long wpb = warp_size > 0 ? (threads + warp_size - 1) / warp_size : 0;
    cli_x_set_int(o, "registers", cli_x_i(l, "launch__registers_per_thread", 0));
    cli_x_set_int(o, "threads_per_block", threads);
    json_object_set_new(o, "limits", lim);
    cli_x_set_int(o, "blocks_per_sm", best);
    cli_x_set_int(o, "warps_per_block", wpb);
    cli_x_set_int(o, "warps_per_sm", best * wpb);
    cli_x_set_dbl(o, "occupancy_pct", cli_x_num(l, "sm__maximum_warps_per_active_cycle_pct", 0));
    cli_x_set_str(o, "limiter", cli_x_s(l, "occupancy_limiter", "none"));
    json_object_set_new(o, "limiters", which);
    return o;
}

/* The preset a run used, loaded here too (capacities for the pictures); NULL with x->err. */
static const ws_device *device_of(cli_xctx *x, const char *gpu)
{
    char err[1024];
    const ws_device *d = ws_device_get(gpu, err, sizeof err);
    if (!d) cli_x_fail(x, "%s", err);
    return d;
}

/* Where each block of a launch ran, from the view data's "blocks": [[block, sm, t_start, t_end], ...] as an
 * array of {"block", "sm", "t_start", "t_end"}; NULL when the view has none. */
static json_t *view_blocks(const json_t *view)
{
    json_t *items = json_object_get(json_object_get(view, "blocks"), "items");
    if (!json_is_array(items) || !json_array_size(items)) return NULL;
    json_t *out = json_array();
    size_t i;
    json_t *it;
    json_array_foreach(items, i, it) {
        json_t *b = json_object();
        cli_x_set_int(b, "block", json_integer_value(json_array_get(it, 0)));
        cli_x_set_int(b, "sm", json_integer_value(json_array_get(it, 1)));
        cli_x_set_int(b, "t_start", json_integer_value(json_array_get(it, 2)));
        cli_x_set_int(b, "t_end", json_integer_value(json_array_get(it, 3)));
        json_array_append_new(out, b);
    }
    return out;
}

/* Print "name N" limits of an occupancy object, the limiter(s) marked with '*'. */
static void print_limits(FILE *out, const json_t *occ)
{
    const json_t *lim = json_object_get(occ, "limits");
    long long best = cli_x_i(occ, "blocks_per_sm", 0);
    static const char *const names[4] = { "threads", "blocks", "registers", "shared_memory" };
    static const char *const words[4] = { "warp slots", "block slots", "registers", "shared memory" };
    for (int i = 0; i < 4; i++) {
        json_t *v = json_object_get(lim, names[i]);
        if (json_is_integer(v))
            fprintf(out, "%s%s %lld%s", i ? ", " : "", words[i], (long long)json_integer_value(v),
                    json_integer_value(v) == best ? "*" : "");
        else fprintf(out, "%s%s -", i ? ", " : "", words[i]);
    }
}

/* ------------------------------------------------------------------------------------------------ map */

const cli_xopt cli_x_map_opts[] = {
    { "n", CLI_XO_INT, "70", 1, 4096, "elements (the seed: 70)" },
    { "threads", CLI_XO_INT, "64", 1, 256, "threads per block (the seed: 64)" },
    { "element", CLI_XO_INT, "69", 0, 1 << 20, "the element to follow (the seed: 69)" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* Run the map explorer. */
int cli_x_map_run(cli_xctx *x, json_t *res)
{
    long long n = cli_x_int(x, "n"), threads = cli_x_int(x, "threads"), elem = cli_x_int(x, "element");
    long long blocks = (n + threads - 1) / threads;
    if (elem >= blocks * threads)
        return cli_x_fail(x, "--element %lld: the launch has %lld threads (elements 0 to %lld)", elem,
                          blocks * threads, blocks * threads - 1);
    char a0[32], a1[32];
    snprintf(a0, sizeof a0, "n=%lld", n);
    snprintf(a1, sizeof a1, "threads=%lld", threads);
    const char *args[] = { a0, a1, NULL };
    cli_xspec s = { .gpu = "teaching-sm", .timing = 1, .args = args };
    cli_xrun r;
    if (cli_x_run(x, &s, &r)) return -1;
    const ws_device *d = device_of(x, s.gpu);
    json_t *rec = json_object_get(r.out, "rec");
    if (!d || !json_is_array(rec) || (long long)json_array_size(rec) != blocks * threads) {
        cli_x_run_free(&r);
        return cli_x_fail(x, "map: the kernel recorded %zu threads, expected %lld", json_array_size(rec),
                          blocks * threads);
    }
    cli_x_set_str(res, "preset", s.gpu);
    cli_x_set_str(res, "mode", "timing");
    cli_x_set_int(res, "n", n);
    cli_x_set_int(res, "threads_per_block", threads);
    cli_x_set_int(res, "blocks", blocks);
    cli_x_set_int(res, "warp_size", d->warp_size);
    cli_x_set_int(res, "warps_per_block", (threads + d->warp_size - 1) / d->warp_size);
    cli_x_set_int(res, "launched_threads", blocks * threads);
    cli_x_set_int(res, "surplus_threads", blocks * threads - n);
    cli_x_set_bool(res, "correct", json_is_true(json_object_get(r.out, "correct")));
    /* every thread: [block, thread, warp, lane, index, active] as the kernel recorded it */
    json_t *all = json_array(), *first_off = NULL;
    size_t i;
    json_t *t;
    json_array_foreach(rec, i, t) {
        json_t *row = json_array();
        static const int pick[6] = { 0, 1, 2, 3, 5, 6 };
        for (int k = 0; k < 6; k++) json_array_append(row, json_array_get(t, pick[k]));
        json_array_append_new(all, row);
        long long idx = json_integer_value(json_array_get(t, 5));
        if (idx == elem) {
            json_t *e = json_object();
            cli_x_set_int(e, "index", idx);
            cli_x_set_int(e, "block", json_integer_value(json_array_get(t, 0)));
            cli_x_set_int(e, "thread", json_integer_value(json_array_get(t, 1)));
            cli_x_set_int(e, "warp", json_integer_value(json_array_get(t, 2)));
            cli_x_set_int(e, "lane", json_integer_value(json_array_get(t, 3)));
            cli_x_set_bool(e, "active", json_integer_value(json_array_get(t, 6)) != 0);
            cli_x_set_int(e, "smid", json_integer_value(json_array_get(t, 4)));
            json_object_set_new(res, "element", e);
        }
        if (!first_off && !json_integer_value(json_array_get(t, 6))) {
            first_off = json_object();
            cli_x_set_int(first_off, "block", json_integer_value(json_array_get(t, 0)));
            cli_x_set_int(first_off, "thread", json_integer_value(json_array_get(t, 1)));
            cli_x_set_int(first_off, "index", idx);
            cli_x_set_bool(first_off, "active", 0);
        }
    }
    json_object_set_new(res, "guard", first_off ? first_off : json_null());
    /* the SM each block ran on: the view data's block placement, else what %smid said inside the block */
    json_t *placed = view_blocks(cli_x_view(&r, 0)), *sms = json_array();
    for (long long b = 0; b < blocks; b++) {
        json_t *o = json_object();
        cli_x_set_int(o, "block", b);
        long long sm = json_integer_value(json_array_get(json_array_get(rec, (size_t)(b * threads)), 4));
        const char *src = "smid";
        json_t *p;
        size_t k;
        json_array_foreach(placed, k, p)
            if (cli_x_i(p, "block", -1) == b) {
                sm = cli_x_i(p, "sm", sm);
                src = "view";
                cli_x_set_int(o, "t_start", cli_x_i(p, "t_start", 0));
                cli_x_set_int(o, "t_end", cli_x_i(p, "t_end", 0));
            }
        cli_x_set_int(o, "sm", sm);
        cli_x_set_str(o, "source", src);
        json_array_append_new(sms, o);
    }
    json_decref(placed);
    json_object_set_new(res, "blocks_on_sms", sms);
    json_t *e = json_object_get(res, "element");
    if (e) {
        long long b = cli_x_i(e, "block", 0);
        cli_x_set_int(e, "sm", cli_x_i(json_array_get(sms, (size_t)b), "sm", -1));
        char f[128];
        snprintf(f, sizeof f, "%lld x %lld + %lld = %lld", b, threads, cli_x_i(e, "thread", 0), elem);
        cli_x_set_str(e, "formula", f);
    }
    json_object_set_new(res, "threads", all);
    cli_x_run_free(&r);
    return 0;
}

/* Print the map result. */
void cli_x_map_text(const json_t *res, FILE *out)
{
    fprintf(out, "N = %lld elements, %lld threads per block -> %lld blocks (%lld threads launched, %lld surplus); "
            "warps of %lld\n", cli_x_i(res, "n", 0), cli_x_i(res, "threads_per_block", 0), cli_x_i(res, "blocks", 0),
            cli_x_i(res, "launched_threads", 0), cli_x_i(res, "surplus_threads", 0), cli_x_i(res, "warp_size", 0));
    const json_t *e = json_object_get(res, "element");
    if (e)
        fprintf(out, "  element %lld: block %lld, thread %lld (%s), warp %lld, lane %lld; %s; block %lld ran on SM %lld\n",
                cli_x_i(e, "index", 0), cli_x_i(e, "block", 0), cli_x_i(e, "thread", 0), cli_x_s(e, "formula", ""),
                cli_x_i(e, "warp", 0), cli_x_i(e, "lane", 0),
                json_is_true(json_object_get(e, "active")) ? "inside the guard" : "fails the guard",
                cli_x_i(e, "block", 0), cli_x_i(e, "sm", 0));
    const json_t *g = json_object_get(res, "guard");
    if (json_is_object(g))
        fprintf(out, "  thread %lld of block %lld computes %lld >= N: it fails the guard and does nothing\n",
                cli_x_i(g, "thread", 0), cli_x_i(g, "block", 0), cli_x_i(g, "index", 0));
    fprintf(out, "  blocks on SMs (%s, timing model):", cli_x_s(res, "preset", ""));
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(res, "blocks_on_sms"), i, b)
        fprintf(out, "%s block %lld -> SM %lld", i ? "," : "", cli_x_i(b, "block", 0), cli_x_i(b, "sm", 0));
    fprintf(out, "\n  the results are %s\n", json_is_true(json_object_get(res, "correct")) ? "correct" : "WRONG");
}

/* ------------------------------------------------------------------------------------------------ launch */

const cli_xopt cli_x_launch_opts[] = {
    { "n", CLI_XO_INT, "1000", 1, 1 << 20, "elements (the seed: 1000)" },
    { "threads", CLI_XO_INT, "256", 1, 1024, "threads per block (the seed: 256)" },
    { "seed", CLI_XO_INT, "7", 0, 1e15, "the shuffled run's --block-order=random:SEED" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* One run of the launch program as a result object. */
static json_t *launch_case(const json_t *o)
{
    json_t *c = json_object();
    static const char *const keys[] = { "grid", "correct", "touched_once", "touched_more", "never", "first_never" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) cli_x_set_int(c, keys[i], cli_x_i(o, keys[i], 0));
    json_object_set(c, "order", json_object_get(o, "order"));
    cli_x_set_bool(c, "all_correct", cli_x_i(o, "correct", 0) == cli_x_i(o, "n", -1));
    return c;
}

/* Run the launch explorer: in order, shuffled, one block short. */
int cli_x_launch_run(cli_xctx *x, json_t *res)
{
    long long n = cli_x_int(x, "n"), threads = cli_x_int(x, "threads");
    char a0[32], a1[32], order[64];
    snprintf(a0, sizeof a0, "n=%lld", n);
    snprintf(a1, sizeof a1, "threads=%lld", threads);
    snprintf(order, sizeof order, "random:%lld", cli_x_int(x, "seed"));
    long long blocks = (n + threads - 1) / threads;
    const char *full[] = { a0, a1, NULL }, *shrt[] = { a0, a1, "short=1", NULL };
    cli_xspec s[3] = { { .gpu = "teaching-sm", .args = full }, { .gpu = "teaching-sm", .args = full, .block_order = order },
                       { .gpu = "teaching-sm", .args = shrt } };
    static const char *const names[3] = { "in_order", "shuffled", "short" };
    cli_x_set_str(res, "preset", "teaching-sm");
    cli_x_set_int(res, "n", n);
    cli_x_set_int(res, "threads_per_block", threads);
    cli_x_set_int(res, "blocks", blocks);
    cli_x_set_int(res, "surplus_threads", blocks * threads - n);
    cli_x_set_str(res, "block_order", order);
    for (int k = 0; k < 3; k++) {
        if (k == 2 && blocks < 2) {
            json_object_set_new(res, names[k], json_null());
            continue;
        }
        cli_xrun r;
        if (cli_x_run(x, &s[k], &r)) return -1;
        json_object_set_new(res, names[k], launch_case(r.out));
        cli_x_run_free(&r);
    }
    /* the index arithmetic of one thread: the last block's thread 5 (or its last) */
    long long b = blocks - 1, t = threads > 5 ? 5 : threads - 1, i = t + threads * b;
    json_t *ex = json_object();
    cli_x_set_int(ex, "block", b);
    cli_x_set_int(ex, "thread", t);
    cli_x_set_int(ex, "index", i);
    cli_x_set_bool(ex, "inside", i < n);
    json_object_set_new(res, "example", ex);
    return 0;
}

/* Print the launch result. */
void cli_x_launch_text(const json_t *res, FILE *out)
{
    long long n = cli_x_i(res, "n", 0);
    fprintf(out, "%lld elements, %lld threads per block -> %lld blocks (ceil(%lld / %lld)), %lld surplus threads\n", n,
            cli_x_i(res, "threads_per_block", 0), cli_x_i(res, "blocks", 0), n, cli_x_i(res, "threads_per_block", 0),
            cli_x_i(res, "surplus_threads", 0));
    const json_t *ex = json_object_get(res, "example");
    fprintf(out, "  i = threadIdx.x + blockDim.x * blockIdx.x: thread %lld of block %lld -> %lld + %lld x %lld = %lld (%s)\n",
            cli_x_i(ex, "thread", 0), cli_x_i(ex, "block", 0), cli_x_i(ex, "thread", 0),
            cli_x_i(res, "threads_per_block", 0), cli_x_i(ex, "block", 0), cli_x_i(ex, "index", 0),
            json_is_true(json_object_get(ex, "inside")) ? "inside the bounds check" : "outside: skipped");
    static const char *const names[3] = { "in_order", "shuffled", "short" };
    static const char *const words[3] = { "in order", "shuffled", "one block short" };
    for (int k = 0; k < 3; k++) {
        const json_t *c = json_object_get(res, names[k]);
        if (!json_is_object(c)) continue;
        fprintf(out, "  %-16s grid %lld, blocks ran as [", words[k], cli_x_i(c, "grid", 0));
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(c, "order"), i, v) fprintf(out, "%s%lld", i ? ", " : "", (long long)json_integer_value(v));
        fprintf(out, "]: %lld of %lld elements correct", cli_x_i(c, "correct", 0), n);
        if (cli_x_i(c, "never", 0))
            fprintf(out, ", %lld never computed (first at index %lld)", cli_x_i(c, "never", 0), cli_x_i(c, "first_never", 0));
        else fprintf(out, ", every element computed once");
        if (k == 1) fprintf(out, " (--block-order=%s)", cli_x_s(res, "block_order", ""));
        fprintf(out, "\n");
    }
}

/* ------------------------------------------------------------------------------------------------ fit */

const cli_xopt cli_x_fit_opts[] = {
    { "threads", CLI_XO_INT, "64", 1, 256, "your block: threads T" },
    { "regs", CLI_XO_INT, "32", 24, 128, "your block: registers per thread R (24, 32, 40, 48, 64, 96 or 128)" },
    { "smem", CLI_XO_INT, "4096", 0, 16384, "your block: shared memory S in bytes" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* Run the fit explorer: the seed's three blocks, and yours when any option is given. */
int cli_x_fit_run(cli_xctx *x, json_t *res)
{
    static const int allowed[] = { 24, 32, 40, 48, 64, 96, 128 };
    int custom = cli_x_given(x, "threads") || cli_x_given(x, "regs") || cli_x_given(x, "smem"), ok = 0;
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) ok |= allowed[i] == cli_x_int(x, "regs");
    if (!ok) return cli_x_fail(x, "--regs %lld: the kernels are compiled for 24, 32, 40, 48, 64, 96 or 128 registers",
                               cli_x_int(x, "regs"));
    /* one SM, so that the blocks the limits allow are resident together on it */
    static const char *const lines[] = { "sm_count = 1   # the explorer watches one SM", NULL };
    char preset[4096];
    if (cli_x_preset(x, "teaching-sm-1", "teaching-sm", lines, preset, sizeof preset)) return -1;
    long long cases[4][3] = { { 64, 32, 4096 }, { 64, 64, 4096 }, { 64, 32, 8192 },
                              { cli_x_int(x, "threads"), cli_x_int(x, "regs"), cli_x_int(x, "smem") } };
    static const char *const labels[4] = { "the seed's block", "R doubled", "S doubled", "your block" };
    int ncase = custom ? 4 : 3;
    char specs[4][64];
    const char *args[5];
    for (int k = 0; k < ncase; k++) {
        snprintf(specs[k], sizeof specs[k], "%lld:%lld:%lld:8", cases[k][0], cases[k][1], cases[k][2]);
        args[k] = specs[k];
    }
    args[ncase] = NULL;
    cli_xspec s = { .program = "fit", .gpu = preset, .timing = 1, .args = args };
    cli_xrun r;
    if (cli_x_run(x, &s, &r)) return -1;
    const ws_device *d = device_of(x, "teaching-sm");
    if (!d) { cli_x_run_free(&r); return -1; }
    json_t *sm = json_object();
    cli_x_set_int(sm, "warps", d->max_warps_per_sm);
    cli_x_set_int(sm, "threads", d->max_threads_per_sm);
    cli_x_set_int(sm, "blocks", d->max_blocks_per_sm);
    cli_x_set_int(sm, "registers", d->regs_per_sm);
    cli_x_set_int(sm, "shared_bytes", (long long)d->smem_per_sm);
    cli_x_set_int(sm, "warp_size", d->warp_size);
    cli_x_set_str(res, "preset", "teaching-sm");
    json_object_set_new(res, "sm", sm);
    json_t *arr = json_array();
    for (int k = 0; k < ncase; k++) {
        json_t *l = cli_x_launch(&r, (size_t)k), *o = cli_x_occupancy_of(l, d->warp_size);
        json_t *p = json_array_get(json_object_get(r.out, "launches"), (size_t)k);
        if (!o) {
            json_decref(arr);
            cli_x_run_free(&r);
            return cli_x_fail(x, "fit: launch %d has no occupancy in the run report (%s)", k,
                              cli_x_s(p, "error", "no record"));
        }
        cli_x_set_str(o, "label", labels[k]);
        cli_x_set_int(o, "regs_compiled", cases[k][1]);
        cli_x_set_int(o, "shared_bytes", cases[k][2]);
        cli_x_set_int(o, "resident_blocks_max", cli_x_i(l, "warpsim__max_resident_blocks_per_sm", -1));
        cli_x_set_int(o, "block_registers", cases[k][0] * cli_x_i(o, "registers", 0));
        cli_x_set_str(o, "error", cli_x_s(p, "error", ""));
        json_array_append_new(arr, o);
    }
    json_object_set_new(res, "cases", arr);
    cli_x_run_free(&r);
    return 0;
}

/* Print the fit result. */
void cli_x_fit_text(const json_t *res, FILE *out)
{
    const json_t *sm = json_object_get(res, "sm");
    fprintf(out, "teaching SM: %lld warps, %lld threads, %lld blocks, %lld registers, %lld bytes of shared memory\n",
            cli_x_i(sm, "warps", 0), cli_x_i(sm, "threads", 0), cli_x_i(sm, "blocks", 0), cli_x_i(sm, "registers", 0),
            cli_x_i(sm, "shared_bytes", 0));
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(res, "cases"), i, c) {
        fprintf(out, "  %-16s T = %lld, R = %lld (ptxas), S = %lld B: %lld blocks, %lld warps, %.0f%%; limits: ",
                cli_x_s(c, "label", ""), cli_x_i(c, "threads_per_block", 0), cli_x_i(c, "registers", 0),
                cli_x_i(c, "shared_bytes", 0), cli_x_i(c, "blocks_per_sm", 0), cli_x_i(c, "warps_per_sm", 0),
                cli_x_num(c, "occupancy_pct", 0));
        print_limits(out, c);
        fprintf(out, "; %lld resident at once in the timing model\n", cli_x_i(c, "resident_blocks_max", 0));
    }
    fprintf(out, "  (* the limiting resources)\n");
}

/* ------------------------------------------------------------------------------------------------ occupancy */

const cli_xopt cli_x_occupancy_opts[] = {
    { "threads", CLI_XO_INT, "256", 1, 1024, "your launch: threads per block" },
    { "regs", CLI_XO_INT, "32", 32, 255, "your launch: registers per thread (32, 64, 96, 128 or 255)" },
    { "smem", CLI_XO_INT, "0", 0, 227 * 1024, "your launch: dynamic shared memory, bytes" },
    { "grid", CLI_XO_INT, "1000", 1, 1000000, "your launch: blocks (for its waves)" },
    { "sms", CLI_XO_INT, "132", 1, 1024, "your launch: SMs of the device (for its waves)" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* One row of the occupancy result from a report launch. */
static json_t *occ_row(const json_t *l, const char *label, const char *guide, int ws)
{
    json_t *o = cli_x_occupancy_of(l, ws);
    if (!o) return NULL;
    cli_x_set_str(o, "label", label);
    if (guide) cli_x_set_str(o, "guide", guide);
    cli_x_set_int(o, "shared_bytes", cli_x_i(l, "dynamic_smem", 0));
    return o;
}

/* Waves of a grid: fills waves, slots, utilization into o. */
static void waves_into(json_t *o, long long grid, long long sms, long long bps)
{
    long long slots = sms * bps, waves = slots ? (grid + slots - 1) / slots : 0;
    cli_x_set_int(o, "grid", grid);
    cli_x_set_int(o, "sms", sms);
    cli_x_set_int(o, "slots", slots);
    cli_x_set_int(o, "waves", waves);
    cli_x_set_dbl(o, "utilization_pct", waves ? 100.0 * (double)grid / (double)(waves * slots) : 0.0);
    cli_x_set_int(o, "last_wave_blocks", waves ? grid - (waves - 1) * slots : 0);
}

/* Run the occupancy explorer: the guide's examples, the register sweep, the waves, and your launch. */
int cli_x_occupancy_run(cli_xctx *x, json_t *res)
{
    static const int allowed[] = { 32, 64, 96, 128, 255 };
    int ok = 0, custom = cli_x_given(x, "threads") || cli_x_given(x, "regs") || cli_x_given(x, "smem") ||
                         cli_x_given(x, "grid") || cli_x_given(x, "sms");
    for (size_t i = 0; i < 5; i++) ok |= allowed[i] == cli_x_int(x, "regs");
    if (!ok) return cli_x_fail(x, "--regs %lld: the kernels are compiled for 32, 64, 96, 128 or 255 registers",
                               cli_x_int(x, "regs"));
    const char *guide_gpu = "h200";
    const ws_device *d = device_of(x, guide_gpu);
    if (!d) return -1;
    /* the guide's examples and the register sweep on the guide's device (the H200 has its per-SM limits) */
    const char *main_args[] = { "768:32:0:1", "32:32:0:1", "256:32:102400:1", "256:32:0:1", "256:64:0:1",
                                "256:96:0:1", "256:128:0:1", "256:255:0:1", "768:0:0:264", "768:0:0:265",
                                "768:0:0:1000", "768:0:0:100000", NULL, NULL };
    char mine[96];
    snprintf(mine, sizeof mine, "%lld:%lld:%lld:%lld", cli_x_int(x, "threads"), cli_x_int(x, "regs"),
             cli_x_int(x, "smem"), cli_x_int(x, "grid") < 4096 ? cli_x_int(x, "grid") : 1);
    if (custom) main_args[12] = mine;
    cli_xspec s = { .gpu = guide_gpu, .args = main_args };
    cli_xrun r;
    if (cli_x_run(x, &s, &r)) return -1;
    json_t *dev = json_object();
    cli_x_set_str(dev, "preset", guide_gpu);
    cli_x_set_int(dev, "threads", d->max_threads_per_sm);
    cli_x_set_int(dev, "warps", d->max_warps_per_sm);
    cli_x_set_int(dev, "blocks", d->max_blocks_per_sm);
    cli_x_set_int(dev, "registers", d->regs_per_sm);
    cli_x_set_int(dev, "shared_bytes", (long long)d->smem_per_sm);
    cli_x_set_int(dev, "sms", d->sm_count);
    json_object_set_new(res, "device", dev);
    int ws = d->warp_size;
    json_t *ex = json_array(), *sweep = json_array(), *waves = json_array();
    static const char *const guide[3] = { "2 blocks, 75%", "32 blocks, 50%", "2 blocks" };
    static const char *const label[3] = { "768 threads/block, 32 registers", "32 threads/block, 32 registers",
                                          "256 threads/block, 100 KiB shared memory" };
    int bad = 0;
    for (int k = 0; k < 3; k++) {
        json_t *o = occ_row(cli_x_launch(&r, (size_t)k), label[k], guide[k], ws);
        if (!o) { bad = 1; break; }
        json_array_append_new(ex, o);
    }
    for (int k = 0; k < 5 && !bad; k++) {
        char lab[64];
        snprintf(lab, sizeof lab, "%d registers/thread", allowed[k]);
        json_t *o = occ_row(cli_x_launch(&r, (size_t)(3 + k)), lab, NULL, ws);
        if (!o) { bad = 1; break; }
        json_array_append_new(sweep, o);
    }
    long long bps_768 = 0;
    for (int k = 0; k < 4 && !bad; k++) {
        json_t *l = cli_x_launch(&r, (size_t)(8 + k)), *o = cli_x_occupancy_of(l, ws);
        if (!o) { bad = 1; break; }
        bps_768 = cli_x_i(o, "blocks_per_sm", 0);
        json_t *w = json_object();
        waves_into(w, json_integer_value(json_array_get(json_object_get(l, "grid"), 0)), d->sm_count, bps_768);
        cli_x_set_int(w, "blocks_per_sm", bps_768);
        cli_x_set_int(w, "threads_per_block", 768);
        cli_x_set_dbl(w, "waves_per_sm_report", cli_x_num(l, "launch__waves_per_multiprocessor", 0));
        json_decref(o);
        json_array_append_new(waves, w);
    }
    json_t *yours = NULL;
    if (!bad && custom) {
        yours = occ_row(cli_x_launch(&r, 12), "your launch", NULL, ws);
        if (!yours) {
            json_t *p = json_array_get(json_object_get(r.out, "launches"), 12);
            cli_x_run_free(&r);
            json_decref(ex); json_decref(sweep); json_decref(waves);
            return cli_x_fail(x, "your launch %s did not run: %s", mine, cli_x_s(p, "error", "no record"));
        }
    }
    cli_x_run_free(&r);
    if (bad) {
        json_decref(ex); json_decref(sweep); json_decref(waves);
        return cli_x_fail(x, "occupancy: a launch has no occupancy in the run report");
    }
    /* the guide's 8-SM GPU running 12 blocks at one block per SM: a preset with 8 SMs, a block that fits once */
    static const char *const lines8[] = { "sm_count = 8   # the CUDA guide's 8-SM wave example", NULL };
    char p8[4096];
    const char *args8[] = { "256:255:0:12", NULL };
    cli_xspec s8 = { .gpu = p8, .args = args8 };
    if (cli_x_preset(x, "guide-8sm", guide_gpu, lines8, p8, sizeof p8) || cli_x_run(x, &s8, &r)) {
        json_decref(ex); json_decref(sweep); json_decref(waves); json_decref(yours);
        return -1;
    }
    json_t *o8 = cli_x_occupancy_of(cli_x_launch(&r, 0), ws);
    cli_x_run_free(&r);
    if (!o8) {
        json_decref(ex); json_decref(sweep); json_decref(waves); json_decref(yours);
        return cli_x_fail(x, "occupancy: the 8-SM launch has no occupancy in the run report");
    }
    json_t *w8 = json_object();
    waves_into(w8, 12, 8, cli_x_i(o8, "blocks_per_sm", 0));
    cli_x_set_int(w8, "blocks_per_sm", cli_x_i(o8, "blocks_per_sm", 0));
    cli_x_set_int(w8, "threads_per_block", 256);
    json_decref(o8);
    json_array_insert_new(waves, 0, w8);
    if (yours) {
        waves_into(yours, cli_x_int(x, "grid"), cli_x_int(x, "sms"), cli_x_i(yours, "blocks_per_sm", 0));
        json_object_set_new(res, "yours", yours);
    }
    json_object_set_new(res, "examples", ex);
    json_object_set_new(res, "register_sweep", sweep);
    json_object_set_new(res, "waves", waves);
    return 0;
}

/* Print one occupancy row. */
static void occ_line(FILE *out, const json_t *o)
{
    fprintf(out, "  %-42s %3lld regs: %2lld blocks/SM, %2lld warps, %5.1f%%, limited by %s", cli_x_s(o, "label", ""),
            cli_x_i(o, "registers", 0), cli_x_i(o, "blocks_per_sm", 0), cli_x_i(o, "warps_per_sm", 0),
            cli_x_num(o, "occupancy_pct", 0), cli_x_s(o, "limiter", ""));
    if (json_object_get(o, "guide")) fprintf(out, " (guide: %s)", cli_x_s(o, "guide", ""));
    fprintf(out, "\n");
}

/* Print the occupancy result. */
void cli_x_occupancy_text(const json_t *res, FILE *out)
{
    const json_t *d = json_object_get(res, "device");
    fprintf(out, "the CUDA Programming Guide's device (%s): %lld threads, %lld blocks, %lld registers, %lld bytes of "
            "shared memory per SM\n", cli_x_s(d, "preset", ""), cli_x_i(d, "threads", 0), cli_x_i(d, "blocks", 0),
            cli_x_i(d, "registers", 0), cli_x_i(d, "shared_bytes", 0));
    size_t i;
    json_t *o;
    json_array_foreach(json_object_get(res, "examples"), i, o) occ_line(out, o);
    fprintf(out, " 256 threads/block, rising register use:\n");
    json_array_foreach(json_object_get(res, "register_sweep"), i, o) occ_line(out, o);
    fprintf(out, " waves:\n");
    json_array_foreach(json_object_get(res, "waves"), i, o)
        fprintf(out, "  %7lld blocks on %3lld SMs at %lld block%s/SM: %3lld wave%s, %5.1f%% of the slots used\n",
                cli_x_i(o, "grid", 0), cli_x_i(o, "sms", 0), cli_x_i(o, "blocks_per_sm", 0),
                cli_x_i(o, "blocks_per_sm", 0) == 1 ? "" : "s", cli_x_i(o, "waves", 0),
                cli_x_i(o, "waves", 0) == 1 ? "" : "s", cli_x_num(o, "utilization_pct", 0));
    const json_t *y = json_object_get(res, "yours");
    if (json_is_object(y)) {
        occ_line(out, y);
        fprintf(out, "  %7lld blocks on %3lld SMs: %lld waves, %.1f%% of the slots used\n", cli_x_i(y, "grid", 0),
                cli_x_i(y, "sms", 0), cli_x_i(y, "waves", 0), cli_x_num(y, "utilization_pct", 0));
    }
}

/* ------------------------------------------------------------------------------------------------ placement */

const cli_xopt cli_x_placement_opts[] = {
    { "blocks", CLI_XO_INT, "12", 1, 64, "blocks of each launch to follow" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* Run the placement explorer: three convolution blocks on the two-core GPU. */
int cli_x_placement_run(cli_xctx *x, json_t *res)
{
    char a0[32];
    snprintf(a0, sizeof a0, "blocks=%lld", cli_x_int(x, "blocks"));
    const char *args[] = { a0, NULL };
    cli_xspec s = { .gpu = "two-core", .timing = 1, .args = args };
    cli_xrun r;
    if (cli_x_run(x, &s, &r)) return -1;
    const ws_device *d = device_of(x, s.gpu);
    if (!d) { cli_x_run_free(&r); return -1; }
    json_t *core = json_object();
    cli_x_set_int(core, "cores", d->sm_count);
    cli_x_set_int(core, "threads", d->max_threads_per_sm);
    cli_x_set_int(core, "warps", d->max_warps_per_sm);
    cli_x_set_int(core, "shared_bytes", (long long)d->smem_per_sm);
    cli_x_set_str(res, "preset", s.gpu);
    json_object_set_new(res, "core", core);
    json_t *cfgs = json_array();
    size_t k;
    json_t *p;
    json_array_foreach(json_object_get(r.out, "launches"), k, p) {
        json_t *l = cli_x_launch(&r, k), *o = cli_x_occupancy_of(l, d->warp_size);
        if (!o) {
            json_decref(cfgs);
            cli_x_run_free(&r);
            return cli_x_fail(x, "placement: launch %zu has no occupancy in the run report", k);
        }
        cli_x_set_str(o, "name", cli_x_s(p, "name", ""));
        cli_x_set_int(o, "shared_bytes", cli_x_i(p, "shared_bytes", 0));
        cli_x_set_int(o, "resident_blocks_max", cli_x_i(l, "warpsim__max_resident_blocks_per_sm", -1));
        cli_x_set_int(o, "cycles", cli_x_i(l, "sm__cycles_elapsed.max", 0));
        /* the blocks over time: the view's placement (cycles a block was resident) when there is one, else the
         * kernel's own clock64 readings (its first and last instruction) and %smid */
        json_t *vb = view_blocks(cli_x_view(&r, k)), *blocks = json_array();
        size_t b;
        json_t *st;
        json_array_foreach(json_object_get(p, "stamps"), b, st) {
            json_t *e = json_object();
            cli_x_set_int(e, "block", (long long)b);
            cli_x_set_int(e, "first_clock", json_integer_value(json_array_get(st, 0)));
            cli_x_set_int(e, "last_clock", json_integer_value(json_array_get(st, 1)));
            cli_x_set_int(e, "smid", json_integer_value(json_array_get(st, 2)));
            size_t j;
            json_t *v;
            json_array_foreach(vb, j, v)
                if (cli_x_i(v, "block", -1) == (long long)b) {
                    cli_x_set_int(e, "sm", cli_x_i(v, "sm", 0));
                    cli_x_set_int(e, "t_start", cli_x_i(v, "t_start", 0));
                    cli_x_set_int(e, "t_end", cli_x_i(v, "t_end", 0));
                }
            json_array_append_new(blocks, e);
        }
        cli_x_set_str(o, "timeline", vb ? "view" : "kernel");
        json_decref(vb);
        json_object_set_new(o, "blocks", blocks);
        json_array_append_new(cfgs, o);
    }
    json_object_set_new(res, "configs", cfgs);
    cli_x_run_free(&r);
    return 0;
}

/* Print the placement result. */
void cli_x_placement_text(const json_t *res, FILE *out)
{
    const json_t *c = json_object_get(res, "core");
    fprintf(out, "two-core GPU: %lld cores, each with %lld threads (%lld warps) and %lld bytes of shared memory\n",
            cli_x_i(c, "cores", 0), cli_x_i(c, "threads", 0), cli_x_i(c, "warps", 0), cli_x_i(c, "shared_bytes", 0));
    size_t i;
    json_t *o;
    json_array_foreach(json_object_get(res, "configs"), i, o) {
        fprintf(out, "  %-18s %3lld threads, %4lld shared bytes: %lld per core (", cli_x_s(o, "name", ""),
                cli_x_i(o, "threads_per_block", 0), cli_x_i(o, "shared_bytes", 0), cli_x_i(o, "blocks_per_sm", 0));
        print_limits(out, o);
        fprintf(out, "); at most %lld resident in the timing model, %lld cycles\n", cli_x_i(o, "resident_blocks_max", 0),
                cli_x_i(o, "cycles", 0));
        int view = !strcmp(cli_x_s(o, "timeline", ""), "view");
        size_t b;
        json_t *e;
        fprintf(out, "    %s:", view ? "blocks on cores (cycles resident)" : "blocks (first-last clock64 reading)");
        json_array_foreach(json_object_get(o, "blocks"), b, e) {
            if (b >= 8) { fprintf(out, " ..."); break; }
            if (view)
                fprintf(out, " %lld@core%lld[%lld,%lld)", cli_x_i(e, "block", 0), cli_x_i(e, "sm", 0),
                        cli_x_i(e, "t_start", 0), cli_x_i(e, "t_end", 0));
            else
                fprintf(out, " %lld[%lld-%lld]", cli_x_i(e, "block", 0), cli_x_i(e, "first_clock", 0),
                        cli_x_i(e, "last_clock", 0));
        }
        fprintf(out, "\n");
    }
    fprintf(out, "  (* the limiting resources)\n");
}
