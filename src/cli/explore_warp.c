/* explore_warp.c - the explorers of what a warp issues (explore_warp.h). latency reads each launch's issue
 * timeline from the view data (which warp issued which instruction in every cycle, and why the others waited);
 * divergence reads the active and executed lanes of every instruction the warp issued from the view data, the
 * final values from the kernel and the instruction counts from the run report; rare-branch needs only what its
 * kernel counted (with __ballot_sync) and the run report's instruction counts. */
#include "explore_warp.h"
#include "../device/device.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------------ latency */

const cli_xopt cli_x_latency_opts[] = {
    { "latency", CLI_XO_INT, "4", 1, 30, "load latency L in cycles (the seed: 4, then 16)" },
    { "warps", CLI_XO_LIST, "1,4", 1, 32, "warp counts to draw (comma-separated)" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* The explorer's name for an instruction of the kernel, from its listing text. */
static const char *insn_kind(const char *text)
{
    if (!strncmp(text, "ld.global", 9)) return "LD";
    if (!strncmp(text, "add.f32", 7)) return "ADD";
    if (!strncmp(text, "st.global", 9)) return "STORE";
    if (!strncmp(text, "ret", 3) || !strncmp(text, "exit", 4)) return "EXIT";
    if (!strncmp(text, "bar", 3)) return "BAR";
    return "other";
}

/* The kind of the instruction at pc in a view launch's "ptx" list. */
static const char *kind_at(const json_t *view, long long pc)
{
    size_t i;
    json_t *in;
    json_array_foreach(json_object_get(view, "ptx"), i, in)
        if (cli_x_i(in, "pc", -1) == pc) return insn_kind(cli_x_s(in, "text", ""));
    return "other";
}

/* What one launch of the latency kernel did, from its view timeline; NULL when the view has no timeline. */
static json_t *latency_case(const json_t *view, int warps)
{
    json_t *tl = json_object_get(view, "timeline");
    json_t *sps = json_object_get(tl, "subpartitions");
    if (!json_is_array(sps) || !json_array_size(sps)) return NULL;
    /* every issue of block 0: [cycle, warp, kind], and each warp's stall intervals */
    long long ld[32], add[32], st[32], ex[32];
    for (int w = 0; w < 32; w++) ld[w] = add[w] = st[w] = ex[w] = -1;
    json_t *issues = json_array(), *states = json_array();
    size_t i;
    json_t *sp;
    json_array_foreach(sps, i, sp) {
        long long slot_warp[256];
        for (int k = 0; k < 256; k++) slot_warp[k] = -1;
        size_t j;
        json_t *w;
        json_array_foreach(json_object_get(sp, "warps"), j, w) {
            long long slot = cli_x_i(w, "slot", -1), wn = cli_x_i(w, "warp", -1);
            if (cli_x_i(w, "block", -1) != 0 || slot < 0 || slot >= 256 || wn < 0 || wn >= 32) continue;
            slot_warp[slot] = wn;
            size_t k;
            json_t *s;
            json_array_foreach(json_object_get(w, "states"), k, s) {
                json_t *e = json_array();
                cli_x_push_int(e, wn);
                cli_x_push_int(e, json_integer_value(json_array_get(s, 0)));
                cli_x_push_int(e, json_integer_value(json_array_get(s, 1)));
                json_array_append(e, json_array_get(s, 2));
                json_array_append_new(states, e);
            }
        }
        json_t *is;
        json_array_foreach(json_object_get(sp, "issues"), j, is) {
            long long cyc = json_integer_value(json_array_get(is, 0)), slot = json_integer_value(json_array_get(is, 1));
            long long pc = json_integer_value(json_array_get(is, 2));
            if (slot < 0 || slot >= 256 || slot_warp[slot] < 0) continue;
            long long wn = slot_warp[slot];
            const char *kind = kind_at(view, pc);
            if (!strcmp(kind, "LD") && ld[wn] < 0) ld[wn] = cyc;
            if (!strcmp(kind, "ADD") && add[wn] < 0) add[wn] = cyc;
            if (!strcmp(kind, "STORE") && st[wn] < 0) st[wn] = cyc;
            if (!strcmp(kind, "EXIT") && ex[wn] < 0) ex[wn] = cyc;
            json_t *e = json_array();
            cli_x_push_int(e, cyc);
            cli_x_push_int(e, wn);
            json_array_append_new(e, json_string(kind));
            json_array_append_new(issues, e);
        }
    }
    long long first = -1, last_st = -1, last = -1;
    for (int w = 0; w < warps && w < 32; w++) {
        if (ld[w] >= 0 && (first < 0 || ld[w] < first)) first = ld[w];
        if (st[w] > last_st) last_st = st[w];
        if (ex[w] > last) last = ex[w];
    }
    if (first < 0 || last_st < 0) {
        json_decref(issues);
        json_decref(states);
        return NULL;
    }
    if (last < last_st) last = last_st;
    /* the window: from the first LD (cycle 1) to the last STORE; the drawing goes on to the last EXIT */
    json_t *c = json_object(), *slots = json_array(), *per = json_array(), *waits = json_array();
    long long work = 0, exits = 0, other = 0, used = 0;
    json_t *e;
    json_array_foreach(issues, i, e) {
        long long cyc = json_integer_value(json_array_get(e, 0));
        if (cyc < first || cyc > last) continue;
        const char *kind = json_string_value(json_array_get(e, 2));
        json_t *s = json_array();
        cli_x_push_int(s, cyc - first + 1);
        json_array_append(s, json_array_get(e, 1));
        json_array_append(s, json_array_get(e, 2));
        json_array_append_new(slots, s);
        if (cyc > last_st) continue;
        used++;
        if (!strcmp(kind, "LD") || !strcmp(kind, "ADD") || !strcmp(kind, "STORE")) work++;
        else if (!strcmp(kind, "EXIT")) exits++;
        else other++;
    }
    json_array_foreach(states, i, e) {
        long long t0 = json_integer_value(json_array_get(e, 1)), t1 = json_integer_value(json_array_get(e, 2));
        if (t1 <= first || t0 > last) continue;
        if (t0 < first) t0 = first;
        if (t1 > last + 1) t1 = last + 1;
        json_t *s = json_array();
        json_array_append(s, json_array_get(e, 0));
        cli_x_push_int(s, t0 - first + 1);
        cli_x_push_int(s, t1 - first + 1);
        json_array_append(s, json_array_get(e, 3));
        json_array_append_new(waits, s);
    }
    for (int w = 0; w < warps && w < 32; w++) {
        json_t *p = json_object();
        cli_x_set_int(p, "warp", w);
        cli_x_set_int(p, "ld", ld[w] >= 0 ? ld[w] - first + 1 : -1);
        cli_x_set_int(p, "add", add[w] >= 0 ? add[w] - first + 1 : -1);
        cli_x_set_int(p, "store", st[w] >= 0 ? st[w] - first + 1 : -1);
        cli_x_set_int(p, "exit", ex[w] >= 0 ? ex[w] - first + 1 : -1);
        cli_x_set_int(p, "unit_cycles", ld[w] >= 0 && st[w] >= 0 ? st[w] - ld[w] + 1 : -1);
        json_array_append_new(per, p);
    }
    long long window = last_st - first + 1;
    cli_x_set_int(c, "warps", warps);
    cli_x_set_int(c, "units", warps);
    cli_x_set_int(c, "first_ld_cycle", first);
    cli_x_set_int(c, "window_cycles", window);
    cli_x_set_int(c, "drawn_cycles", last - first + 1);
    cli_x_set_int(c, "work_slots", work);
    cli_x_set_int(c, "exit_slots", exits);
    cli_x_set_int(c, "other_slots", other);
    cli_x_set_int(c, "idle_slots", window - used);
    cli_x_set_dbl(c, "units_per_cycle", (double)warps / (double)window);
    cli_x_set_dbl(c, "units_per_work_slot", work ? (double)warps / (double)work : 0.0);
    cli_x_set_int(c, "unit_cycles", cli_x_i(json_array_get(per, 0), "unit_cycles", -1));
    json_object_set_new(c, "per_warp", per);
    json_object_set_new(c, "slots", slots);
    json_object_set_new(c, "waits", waits);
    json_decref(issues);
    json_decref(states);
    return c;
}

/* Run the latency explorer: warps 1 to L + 2 (and the asked ones) on a teaching SM with load latency L. */
int cli_x_latency_run(cli_xctx *x, json_t *res)
{
    long long L = cli_x_int(x, "latency"), want[CLI_X_MAXLIST];
    int nwant = cli_x_list(x, "warps", want, CLI_X_MAXLIST);
    long long wmax = L + 2 > 32 ? 32 : L + 2;
    for (int i = 0; i < nwant; i++) if (want[i] > wmax) wmax = want[i];
    /* the seed's model: a load's value is there L cycles after it issued, an ADD's one cycle after; no
     * bandwidth limit; room for 32 warps in one block */
    char l1[64], l2[64];
    snprintf(l1, sizeof l1, "dram_latency = %lld", L);
    snprintf(l2, sizeof l2, "l1_hit_latency = %lld", L);
    const char *lines[] = { l1, l2, "mem_bandwidth_gbs = 0          # the seed's model omits bandwidth",
                            "max_threads_per_block = 1024", "max_block_dim = 1024, 1024, 64",
                            "max_threads_per_sm = 1024", "max_warps_per_sm = 32", "regs_per_sm = 65536",
                            "max_regs_per_block = 65536", NULL };
    char preset[4096];
    if (cli_x_preset(x, "teaching-sm-latency", "teaching-sm", lines, preset, sizeof preset)) return -1;
    char nums[32][24];
    const char *args[33];
    for (long long w = 1; w <= wmax; w++) {
        snprintf(nums[w - 1], sizeof nums[0], "%lld", w);
        args[w - 1] = nums[w - 1];
    }
    args[wmax] = NULL;
    cli_xspec s = { .program = "latency", .gpu = preset, .timing = 1, .args = args };
    cli_xrun r;
    if (cli_x_run(x, &s, &r)) return -1;
    if (!cli_x_view(&r, 0)) {
        cli_x_run_free(&r);
        return cli_x_fail(x, "latency needs the issue timeline of the run report's view data (WARPSIM_VIEW=1, "
                          "docs/view-format.md), and this warpsim's runtime does not collect it");
    }
    cli_x_set_str(res, "preset", "teaching-sm");
    cli_x_set_int(res, "latency", L);
    cli_x_set_int(res, "add_latency", 1);
    json_t *runs = json_array(), *sweep = json_array();
    long long fill = -1;
    for (long long w = 1; w <= wmax; w++) {
        json_t *c = latency_case(cli_x_view(&r, (size_t)(w - 1)), (int)w);
        if (!c) {
            json_decref(runs);
            json_decref(sweep);
            cli_x_run_free(&r);
            return cli_x_fail(x, "latency: the view data of launch %lld has no issue timeline of its warps", w);
        }
        json_t *sw = json_object();
        cli_x_set_int(sw, "warps", w);
        cli_x_set_int(sw, "window_cycles", cli_x_i(c, "window_cycles", 0));
        cli_x_set_int(sw, "idle_slots", cli_x_i(c, "idle_slots", 0));
        cli_x_set_dbl(sw, "units_per_cycle", cli_x_num(c, "units_per_cycle", 0));
        json_array_append_new(sweep, sw);
        if (fill < 0 && cli_x_i(c, "idle_slots", 1) == 0) fill = w;
        int keep = 0;
        for (int i = 0; i < nwant; i++) keep |= want[i] == w;
        if (w == 1) json_object_set(res, "one_warp", c);
        if (w == 4) json_object_set(res, "four_warps", c);
        if (keep) json_array_append(runs, c);
        json_decref(c);
    }
    cli_x_run_free(&r);
    json_object_set_new(res, "runs", runs);
    json_object_set_new(res, "sweep", sweep);
    if (fill > 0) cli_x_set_int(res, "fill_warps", fill);
    else json_object_set_new(res, "fill_warps", json_null());
    return 0;
}

/* Print one latency run. */
static void latency_line(FILE *out, const json_t *c)
{
    fprintf(out, "  %2lld warp%s: %lld unit%s; first LD to last STORE %lld cycles: %lld LD/ADD/STORE slots, %lld EXIT, "
            "%lld idle -> %.3f units per cycle, %.3f per LD/ADD/STORE slot\n", cli_x_i(c, "warps", 0),
            cli_x_i(c, "warps", 0) == 1 ? " " : "s", cli_x_i(c, "units", 0), cli_x_i(c, "units", 0) == 1 ? " " : "s",
            cli_x_i(c, "window_cycles", 0),
            cli_x_i(c, "work_slots", 0), cli_x_i(c, "exit_slots", 0), cli_x_i(c, "idle_slots", 0),
            cli_x_num(c, "units_per_cycle", 0), cli_x_num(c, "units_per_work_slot", 0));
}

/* Print the latency result. */
void cli_x_latency_text(const json_t *res, FILE *out)
{
    fprintf(out, "LD -> ADD -> STORE on one issue slot per cycle, lowest-numbered eligible warp first; load latency "
            "L = %lld, ADD result the next cycle\n", cli_x_i(res, "latency", 0));
    const json_t *one = json_object_get(res, "one_warp");
    fprintf(out, "  one warp: LD in cycle 1, ADD in %lld, STORE in %lld: one unit in %lld cycles\n",
            cli_x_i(json_array_get(json_object_get(one, "per_warp"), 0), "add", 0),
            cli_x_i(json_array_get(json_object_get(one, "per_warp"), 0), "store", 0), cli_x_i(one, "unit_cycles", 0));
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(res, "runs"), i, c) latency_line(out, c);
    if (json_is_integer(json_object_get(res, "fill_warps")))
        fprintf(out, "  %lld warps leave no issue slot empty between the first LD and the last STORE\n",
                cli_x_i(res, "fill_warps", 0));
    fprintf(out, "  (each warp also issues an EXIT after its STORE: the seed's model has none)\n");
}

/* ------------------------------------------------------------------------------------------------ divergence */

const cli_xopt cli_x_divergence_opts[] = {
    { "mask", CLI_XO_INT, "0xaa", 0, 255, "lanes that take the true path, one bit per lane (default 0xaa: 1, 3, 5, 7)" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* Source lines [t0, t1) of the true path and [f0, f1) of the false path in explore/divergence.cu. */
static int branch_lines(cli_xctx *x, long long *t0, long long *t1, long long *f0, long long *f1)
{
    char dir[4096], path[4200];
    if (cli_x_dir(x, dir, sizeof dir)) return -1;
    snprintf(path, sizeof path, "%s/divergence.cu", dir);
    FILE *f = fopen(path, "r");
    if (!f) return cli_x_fail(x, "cannot read %s", path);
    char line[512];
    long long n = 0;
    *t0 = *t1 = *f0 = *f1 = -1;
    while (fgets(line, sizeof line, f)) {
        n++;
        if (*t0 < 0 && strstr(line, "if ((taken >> lane) & 1) {")) *t0 = n + 1;
        else if (*t0 > 0 && *t1 < 0 && strstr(line, "} else {")) { *t1 = n; *f0 = n + 1; }
        else if (*f0 > 0 && *f1 < 0 && strstr(line, "}")) *f1 = n;
    }
    fclose(f);
    if (*f1 < 0) return cli_x_fail(x, "%s: cannot find the branch's two paths", path);
    return 0;
}

/* What the view says one launch's warp issued: steps with their path, and the path instruction counts. */
static void divergence_steps(const json_t *view, json_t *run, long long t0, long long t1, long long f0, long long f1)
{
    json_t *dv = json_object_get(view, "divergence");
    json_t *steps = json_object_get(dv, "steps");
    if (!json_is_array(steps)) {
        json_object_set_new(run, "steps", json_null());
        json_object_set_new(run, "path_insts", json_null());
        return;
    }
    json_t *out = json_array();
    long long nt = 0, nf = 0;
    size_t i;
    json_t *s;
    json_array_foreach(steps, i, s) {
        long long pc = json_integer_value(json_array_get(s, 0));
        const char *text = "";
        long long line = -1;
        size_t k;
        json_t *in;
        json_array_foreach(json_object_get(view, "ptx"), k, in)
            if (cli_x_i(in, "pc", -2) == pc) {
                text = cli_x_s(in, "text", "");
                line = cli_x_i(in, "line", -1);
            }
        const char *op = text;
        if (*op == '@') {                       /* a guard: "@%p1 bra ..." */
            while (*op && *op != ' ') op++;
            while (*op == ' ') op++;
        }
        int branch = !strncmp(op, "bra", 3);
        const char *path = branch ? "branch" : line >= t0 && line < t1 ? "true" : line >= f0 && line < f1 ? "false"
                         : "common";
        if (!strcmp(path, "true")) nt++;
        if (!strcmp(path, "false")) nf++;
        json_t *o = json_object();
        cli_x_set_int(o, "pc", pc);
        cli_x_set_str(o, "text", text);
        cli_x_set_int(o, "line", line);
        cli_x_set_str(o, "path", path);
        cli_x_set_int(o, "active", json_integer_value(json_array_get(s, 1)));
        cli_x_set_int(o, "exec", json_integer_value(json_array_get(s, 2)));
        json_array_append_new(out, o);
    }
    json_t *p = json_object();
    cli_x_set_int(p, "true", nt);
    cli_x_set_int(p, "false", nf);
    cli_x_set_int(p, "both", nt + nf);
    json_object_set_new(run, "steps", out);
    json_object_set_new(run, "path_insts", p);
}

/* Run the divergence explorer: the mask, all lanes true, all lanes false. */
int cli_x_divergence_run(cli_xctx *x, json_t *res)
{
    char err[512];
    const ws_device *d = ws_device_get("teaching-8lane", err, sizeof err);
    if (!d) return cli_x_fail(x, "%s", err);
    int lanes = d->warp_size;
    unsigned full = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1, mask = (unsigned)cli_x_int(x, "mask") & full;
    long long t0, t1, f0, f1;
    if (branch_lines(x, &t0, &t1, &f0, &f1)) return -1;
    char m[3][32];
    unsigned masks[3] = { mask, full, 0 };
    const char *args[4];
    for (int k = 0; k < 3; k++) {
        snprintf(m[k], sizeof m[k], "0x%x", masks[k]);
        args[k] = m[k];
    }
    args[3] = NULL;
    cli_xspec s = { .gpu = "teaching-8lane", .args = args };
    cli_xrun r;
    if (cli_x_run(x, &s, &r)) return -1;
    cli_x_set_str(res, "preset", s.gpu);
    cli_x_set_int(res, "lanes", lanes);
    cli_x_set_int(res, "mask", mask);
    json_t *start = json_array();
    for (int l = 0; l < lanes; l++) cli_x_push_int(start, l + 1);
    json_object_set_new(res, "start", start);
    json_object_set_new(res, "true_path", json_pack("[ss]", "+10", "x2"));
    json_object_set_new(res, "false_path", json_pack("[sss]", "-1", "x3", "+5"));
    static const char *const labels[3] = { "your mask", "all lanes true", "all lanes false" };
    json_t *runs = json_array();
    for (int k = 0; k < 3; k++) {
        json_t *p = json_array_get(json_object_get(r.out, "launches"), (size_t)k), *o = json_object();
        cli_x_set_str(o, "label", labels[k]);
        cli_x_set_int(o, "mask", masks[k]);
        json_t *tl = json_array();
        for (int l = 0; l < lanes; l++) if ((masks[k] >> l) & 1) cli_x_push_int(tl, l);
        json_object_set_new(o, "true_lanes", tl);
        json_object_set(o, "values", json_object_get(p, "values"));
        cli_x_set_int(o, "warp_insts", cli_x_i(cli_x_launch(&r, (size_t)k), "smsp__inst_executed.sum", -1));
        divergence_steps(cli_x_view(&r, (size_t)k), o, t0, t1, f0, f1);
        json_array_append_new(runs, o);
    }
    long long mi = cli_x_i(json_array_get(runs, 0), "warp_insts", 0);
    cli_x_set_int(res, "extra_vs_all_true", mi - cli_x_i(json_array_get(runs, 1), "warp_insts", 0));
    cli_x_set_int(res, "extra_vs_all_false", mi - cli_x_i(json_array_get(runs, 2), "warp_insts", 0));
    json_object_set_new(res, "runs", runs);
    cli_x_run_free(&r);
    return 0;
}

/* Print a lane mask as binary, lane 0 first. */
static void print_mask(FILE *out, long long m, long long lanes)
{
    for (long long l = 0; l < lanes; l++) fputc((m >> l) & 1 ? '1' : '.', out);
}

/* Print the divergence result. */
void cli_x_divergence_text(const json_t *res, FILE *out)
{
    long long lanes = cli_x_i(res, "lanes", 8);
    fprintf(out, "an %lld-lane warp; lane l starts with l + 1; true path +10, x2; false path -1, x3, +5\n", lanes);
    size_t i;
    json_t *o;
    json_array_foreach(json_object_get(res, "runs"), i, o) {
        fprintf(out, "  %-16s mask ", cli_x_s(o, "label", ""));
        print_mask(out, cli_x_i(o, "mask", 0), lanes);
        fprintf(out, " (lane 0 first): values [");
        size_t k;
        json_t *v;
        json_array_foreach(json_object_get(o, "values"), k, v) fprintf(out, "%s%lld", k ? ", " : "", (long long)json_integer_value(v));
        fprintf(out, "], %lld warp instructions", cli_x_i(o, "warp_insts", 0));
        const json_t *p = json_object_get(o, "path_insts");
        if (json_is_object(p))
            fprintf(out, ", path instructions issued: %lld true + %lld false", cli_x_i(p, "true", 0), cli_x_i(p, "false", 0));
        fprintf(out, "\n");
        const json_t *steps = json_object_get(o, "steps");
        if (i == 0 && json_is_array(steps)) {
            json_t *s;
            json_array_foreach(steps, k, s) {
                fprintf(out, "      ");
                print_mask(out, cli_x_i(s, "exec", 0), lanes);
                fprintf(out, "  %-6s %s\n", cli_x_s(s, "path", ""), cli_x_s(s, "text", ""));
            }
        }
    }
    fprintf(out, "  the mixed warp issues %lld more instructions than all-true and %lld more than all-false (a jump ends the\n"
            "  true path)\n",
            cli_x_i(res, "extra_vs_all_true", 0), cli_x_i(res, "extra_vs_all_false", 0));
    if (!json_is_array(json_object_get(json_array_get(json_object_get(res, "runs"), 0), "steps")))
        fprintf(out, "  (the active masks need the run report's view data, which this warpsim does not collect)\n");
}

/* ------------------------------------------------------------------------------------------------ rare-branch */

const cli_xopt cli_x_rare_opts[] = {
    { "p", CLI_XO_DBL, "0.01", 0, 1, "probability that one thread takes the rare path (the seed: 0.01)" },
    { "warps", CLI_XO_INT, "4096", 1, 65536, "warps of 32 threads (the seed: 4096)" },
    { "seed", CLI_XO_INT, "1", 0, 1e15, "seed of the data's random generator" },
    { NULL, 0, NULL, 0, 0, NULL },
};

/* One layout's counts as an object. */
static json_t *rare_layout(const json_t *o, const json_t *launch, long long warps)
{
    json_t *c = json_object();
    long long iss = cli_x_i(o, "issuing", 0), div = cli_x_i(o, "divergent", 0);
    cli_x_set_int(c, "issuing", iss);
    cli_x_set_int(c, "divergent", div);
    cli_x_set_dbl(c, "issuing_pct", 100.0 * (double)iss / (double)warps);
    cli_x_set_dbl(c, "divergent_pct", 100.0 * (double)div / (double)warps);
    cli_x_set_int(c, "warp_insts", cli_x_i(launch, "smsp__inst_executed.sum", -1));
    return c;
}

/* Run the rare-branch explorer: random data, then the same data grouped. */
int cli_x_rare_run(cli_xctx *x, json_t *res)
{
    double p = cli_x_dbl(x, "p");
    long long warps = cli_x_int(x, "warps");
    char a0[64], a1[64], a2[64];
    snprintf(a0, sizeof a0, "p=%.9g", p);
    snprintf(a1, sizeof a1, "warps=%lld", warps);
    snprintf(a2, sizeof a2, "seed=%lld", cli_x_int(x, "seed"));
    const char *args[] = { a0, a1, a2, NULL };
    cli_xspec s = { .program = "rare-branch", .gpu = "teaching-sm", .args = args };
    cli_xrun r;
    if (cli_x_run(x, &s, &r)) return -1;
    cli_x_set_str(res, "preset", s.gpu);
    cli_x_set_dbl(res, "p", p);
    cli_x_set_int(res, "warps", warps);
    cli_x_set_int(res, "lanes", 32);
    cli_x_set_int(res, "elements", cli_x_i(r.out, "elements", 0));
    cli_x_set_int(res, "taking", cli_x_i(r.out, "taking", 0));
    cli_x_set_dbl(res, "formula_pct", 100.0 * (1.0 - pow(1.0 - p, 32)));
    json_t *rnd = rare_layout(json_object_get(r.out, "random"), cli_x_launch(&r, 0), warps);
    json_t *grp = rare_layout(json_object_get(r.out, "grouped"), cli_x_launch(&r, 1), warps);
    /* each warp's kind as the kernel wrote it: one digit per warp, 0 none, 1 some lanes, 2 all lanes take it */
    json_object_set(rnd, "kinds", json_object_get(r.out, "random_warps"));
    json_object_set(grp, "kinds", json_object_get(r.out, "grouped_warps"));
    double ri = cli_x_num(rnd, "warp_insts", 0), gi = cli_x_num(grp, "warp_insts", 0);
    json_object_set_new(res, "random", rnd);
    json_object_set_new(res, "grouped", grp);
    cli_x_set_dbl(res, "cost_ratio", gi > 0 ? ri / gi : 0.0);
    cli_x_run_free(&r);
    return 0;
}

/* Print the rare-branch result. */
void cli_x_rare_text(const json_t *res, FILE *out)
{
    fprintf(out, "a branch each thread takes with probability p = %g; %lld warps of 32 lanes (%lld threads take it)\n",
            cli_x_num(res, "p", 0), cli_x_i(res, "warps", 0), cli_x_i(res, "taking", 0));
    fprintf(out, "  1 - (1 - p)^32 = %.1f%% of the warps should issue the rare path\n", cli_x_num(res, "formula_pct", 0));
    static const char *const names[2] = { "random", "grouped" };
    for (int k = 0; k < 2; k++) {
        const json_t *c = json_object_get(res, names[k]);
        fprintf(out, "  %-8s data: %5lld warps issue it (%.1f%%), %5lld diverge (%.1f%%); %lld warp instructions\n",
                names[k], cli_x_i(c, "issuing", 0), cli_x_num(c, "issuing_pct", 0), cli_x_i(c, "divergent", 0),
                cli_x_num(c, "divergent_pct", 0), cli_x_i(c, "warp_insts", 0));
    }
    fprintf(out, "  random data costs %.2fx the instructions of grouped data\n", cli_x_num(res, "cost_ratio", 0));
}
