/* cmd_occupancy.c - `warpsim occupancy`: the occupancy calculator, and every kernel of a CUDA program with its
 * ptxas resource usage and the occupancy of the launch configurations the program really uses. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "../analysis/occupancy.h"
#include "../device/device.h"
#include "../fatbin/fatbin.h"
#include "../report/json.h"
#include "../report/report_read.h"

/* Print the usage of `warpsim occupancy`. */
static void occ_usage(FILE *f)
{
    fprintf(f,
        "usage: warpsim occupancy [--gpu NAME] --threads T --regs R --smem BYTES [--grid BLOCKS] [--json]\n"
        "                         [--barriers N] [--carveout PCT] [--no-optin]\n"
        "       warpsim occupancy [--gpu NAME] [--json] [--no-run] PROGRAM [ARGS...]\n"
        "The first form computes the theoretical occupancy of blocks of T threads using R registers per thread and\n"
        "BYTES of shared memory per block (static + dynamic; suffix K/KB/KiB = 1024, M/MB/MiB = 1048576), as NVIDIA's\n"
        "cuda_occupancy.h does; --grid adds waves. The second form lists every kernel of a CUDA program with the\n"
        "registers and shared memory ptxas reports for the preset's architecture, then runs the program on the\n"
        "simulator (skipped with --no-run) and shows the occupancy of each launch configuration it used.\n"
        "  --gpu NAME      device preset (default %s; `warpsim devices` lists them)\n"
        "  --barriers N    named barriers per block (ptxas 'used N barriers'; limits blocks from sm_90)\n"
        "  --carveout PCT  shared-memory carve-out preference, percent (default: the driver's choice)\n"
        "  --no-optin      the block has not opted in to more than the default 48 KiB of shared memory\n"
        "  --json          machine-readable output\n",
        WS_DEVICE_DEFAULT);
}

/* Parse a non-negative integer argument that fills the whole string; 0 on success. */
static int parse_count(const char *s, long long max, long long *out)
{
    if (!s || !*s || !isdigit((unsigned char)*s)) return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end || errno || v > max) return -1;
    *out = v;
    return 0;
}

/* Parse a byte count with an optional K/KB/KiB or M/MB/MiB suffix (binary); 0 on success. */
static int parse_bytes(const char *s, size_t *out)
{
    if (!s || !*s || !isdigit((unsigned char)*s)) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || v < 0) return -1;
    double m = 1;
    if (!*end || !strcmp(end, "B")) m = 1;
    else if (!strcmp(end, "K") || !strcmp(end, "KB") || !strcmp(end, "KiB") || !strcmp(end, "k") || !strcmp(end, "kB")) m = 1024;
    else if (!strcmp(end, "M") || !strcmp(end, "MB") || !strcmp(end, "MiB")) m = 1048576;
    else return -1;
    double b = v * m;
    if (b != (double)(long long)b || b > 1e15) return -1;
    *out = (size_t)b;
    return 0;
}

/* Write a per-resource limit as a JSON member: the number, or null when the resource does not limit. */
static void limit_json(ws_json *w, const char *key, int v)
{
    if (v == WS_OCC_UNLIMITED) ws_json_member_null(w, key);
    else ws_json_member_int(w, key, v);
}

/* Write the occupancy fields of a result as JSON members of the open object. */
static void occ_members(ws_json *w, const ws_occ_result *r)
{
    ws_json_member_int(w, "blocks_per_sm", r->blocks_per_sm);
    ws_json_member_int(w, "warps_per_sm", r->warps_per_sm);
    ws_json_member_int(w, "max_warps_per_sm", r->max_warps_per_sm);
    ws_json_member_double_g(w, "occupancy", r->occupancy, 10);
    ws_json_member_string(w, "limiter", ws_occ_limiter_name(r->limiter));
    ws_json_key(w, "limiters");
    ws_json_begin_array(w);
    for (int l = WS_OCC_LIMIT_THREADS; l <= WS_OCC_LIMIT_BARRIERS; l++)
        if (r->limiters & WS_OCC_BIT(l)) ws_json_string(w, ws_occ_limiter_name((ws_occ_limiter)l));
    ws_json_end_array(w);
    ws_json_key(w, "limits");
    ws_json_begin_object(w);
    limit_json(w, "threads", r->limit_threads);
    limit_json(w, "blocks", r->limit_blocks);
    limit_json(w, "registers", r->limit_registers);
    limit_json(w, "shared_memory", r->limit_shared_memory);
    limit_json(w, "barriers", r->limit_barriers);
    ws_json_end_object(w);
    ws_json_member_int(w, "registers_per_thread", r->regs_per_thread);
    ws_json_member_int(w, "registers_per_block", r->regs_per_block);
    ws_json_member_uint(w, "shared_memory_per_block", r->smem_per_block);
    ws_json_member_uint(w, "shared_memory_config", r->smem_config);
    if (r->grid_blocks > 0 && r->ok) {
        ws_json_member_int(w, "grid_blocks", r->grid_blocks);
        ws_json_member_int(w, "waves", r->waves);
        ws_json_member_double_g(w, "waves_per_multiprocessor", r->waves_per_sm, 10);
        ws_json_member_double_g(w, "wave_utilization", r->wave_utilization, 10);
    }
    ws_json_member_string(w, "error", r->ok ? NULL : r->reason);
}

/* Text for a per-resource limit: the number, or "no limit". */
static const char *limtxt(int v, char *buf, size_t cap)
{
    if (v == WS_OCC_UNLIMITED) snprintf(buf, cap, "no limit");
    else snprintf(buf, cap, "%d", v);
    return buf;
}

/* Human-readable report of one calculator result. */
static void print_occ_human(const ws_device *d, const ws_occ_result *r, int regs, size_t smem)
{
    char a[16], b[16], c[16], e[16], g[16];
    printf("device            %s (%s, sm_%d%d, %d SMs)\n", d->name, d->full_name, d->cc_major, d->cc_minor, d->sm_count);
    printf("block             %d threads (%d warp%s of %d), %d registers/thread, %zu bytes shared memory\n",
           r->threads_per_block, r->warps_per_block, r->warps_per_block == 1 ? "" : "s", d->warp_size, regs, smem);
    printf("allocated         %d registers/thread, %d/warp, %d/block; %zu bytes shared memory/block",
           r->regs_per_thread, r->regs_per_warp, r->regs_per_block, r->smem_per_block);
    if (d->smem_reserved_per_block) printf(" (incl. %zu reserved)", d->smem_reserved_per_block);
    printf("\n");
    printf("blocks/SM limits  threads %s, blocks %s, registers %s, shared memory %s (of %zu bytes)",
           limtxt(r->limit_threads, a, sizeof a), limtxt(r->limit_blocks, b, sizeof b),
           limtxt(r->limit_registers, c, sizeof c), limtxt(r->limit_shared_memory, e, sizeof e), r->smem_config);
    if (r->limit_barriers != WS_OCC_UNLIMITED) printf(", barriers %s", limtxt(r->limit_barriers, g, sizeof g));
    printf("\n");
    if (!r->ok) {
        printf("blocks/SM         0: the block cannot run: %s\n", r->reason);
        return;
    }
    printf("blocks/SM         %d (limited by %s", r->blocks_per_sm, ws_occ_limiter_name(r->limiter));
    for (int l = WS_OCC_LIMIT_THREADS; l <= WS_OCC_LIMIT_BARRIERS; l++)
        if ((r->limiters & WS_OCC_BIT(l)) && l != (int)r->limiter) printf("; %s ties", ws_occ_limiter_name((ws_occ_limiter)l));
    printf(")\n");
    printf("warps/SM          %d of %d\n", r->warps_per_sm, r->max_warps_per_sm);
    printf("occupancy         %.2f%%\n", 100 * r->occupancy);
    if (r->grid_blocks > 0)
        printf("waves             %lld blocks on %d SMs x %d = %lld wave%s (%.*f waves/SM), wave utilization %.1f%%\n",
               r->grid_blocks, d->sm_count, r->blocks_per_sm, r->waves, r->waves == 1 ? "" : "s",
               r->waves_per_sm < 0.01 ? 4 : 2, r->waves_per_sm, 100 * r->wave_utilization);
}

/* ---- program mode ---- */

/* A kernel of the program with its ptxas report. */
typedef struct kern {
    ws_ptxas_kernel k;
    char short_name[256];
} kern;

/* A distinct launch configuration with how many launches used it. */
typedef struct launch_cfg {
    char kernel[512];
    long long grid[3], block[3];
    size_t dyn_smem;
    long count;
} launch_cfg;

/* Readable name of a mangled kernel: the identifier, with simple template arguments (_Z8dot_treeILi256EE... ->
 * dot_tree<256>); anything it does not understand is left as is. */
static void short_name(const char *m, char *out, size_t cap)
{
    snprintf(out, cap, "%s", m);
    if (strncmp(m, "_Z", 2)) return;
    const char *p = m + 2;
    char buf[512] = "";
    size_t n = 0;
    int nested = *p == 'N';
    if (nested) p++;
    do {
        if (!isdigit((unsigned char)*p)) return;
        long len = strtol(p, (char **)&p, 10);
        if (len <= 0 || (long)strlen(p) < len) return;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%.*s", n ? "::" : "", (int)len, p);
        if (n >= sizeof buf) return;
        p += len;
    } while (nested && *p && *p != 'E' && *p != 'I');
    if (*p == 'I') {
        p++;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "<");
        int first = 1;
        while (*p == 'L') {
            p++;
            while (*p && isalpha((unsigned char)*p) && *p != 'n') p++; /* the literal's type, e.g. 'i' */
            int neg = *p == 'n';
            if (neg) p++;
            const char *d = p;
            while (isdigit((unsigned char)*p)) p++;
            if (*p != 'E' || d == p) return;
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s%.*s", first ? "" : ",", neg ? "-" : "", (int)(p - d), d);
            if (n >= sizeof buf) return;
            p++;
            first = 0;
        }
        if (*p != 'E') return;
        snprintf(buf + n, sizeof buf - n, ">");
    }
    size_t len = strlen(buf);
    if (len >= cap) len = cap - 1;
    memcpy(out, buf, len);
    out[len] = 0;
}

/* qsort order for kernels: by readable name, then mangled name. */
static int cmp_kern(const void *a, const void *b)
{
    const kern *x = a, *y = b;
    int c = strcmp(x->short_name, y->short_name);
    return c ? c : strcmp(x->k.name, y->k.name);
}

/* Architecture number in a PTX text's .target directive (0 when absent). */
static int text_target(const char *t)
{
    const char *p = strstr(t, ".target");
    while (p && p > t && !isspace((unsigned char)p[-1])) p = strstr(p + 1, ".target");
    if (!p) return 0;
    p += 7;
    while (*p == ' ' || *p == '\t') p++;
    if (strncmp(p, "sm_", 3)) return 0;
    return atoi(p + 3);
}

/* Path of the running warpsim executable. */
static int self_exe(char *out, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    if (n <= 0) return -1;
    out[n] = 0;
    return 0;
}

/* Run the program under `warpsim run --quiet --report` and collect its launch configurations.
 * Returns 0 when a report was read (run_status gets the run's exit status), -1 with a message. */
static int collect_launches(const char *gpu, char **prog_argv, launch_cfg **cfgs, int *ncfg, long *nlaunch,
                            int *run_status, char *err, size_t errlen)
{
    *cfgs = NULL;
    *ncfg = 0;
    *nlaunch = 0;
    *run_status = -1;
    char exe[4096];
    if (self_exe(exe, sizeof exe)) {
        snprintf(err, errlen, "cannot find the warpsim executable (/proc/self/exe)");
        return -1;
    }
    const char *tmpdir = getenv("TMPDIR");
    char report[4096];
    snprintf(report, sizeof report, "%s/warpsim-report-XXXXXX.json", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemps(report, 5);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary report file: %s", strerror(errno));
        return -1;
    }
    close(fd);
    int pargc = 0;
    while (prog_argv[pargc]) pargc++;
    char **av = calloc((size_t)pargc + 9, sizeof *av);
    if (!av) { unlink(report); snprintf(err, errlen, "out of memory"); return -1; }
    int k = 0;
    av[k++] = exe;
    av[k++] = "run";
    av[k++] = "--quiet";
    if (gpu) { av[k++] = "--gpu"; av[k++] = (char *)gpu; }
    av[k++] = "--report";
    av[k++] = report;
    for (int i = 0; i < pargc; i++) av[k++] = prog_argv[i];
    av[k] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        free(av);
        unlink(report);
        snprintf(err, errlen, "fork failed: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        dup2(2, 1); /* the program's output goes to stderr: stdout carries only the occupancy report */
        execv(exe, av);
        _exit(127);
    }
    free(av);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    *run_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    struct stat sb;
    if (stat(report, &sb) || sb.st_size == 0) {
        unlink(report);
        snprintf(err, errlen, "`warpsim run` wrote no report (exit status %d)", *run_status);
        return -1;
    }
    ws_rep_launches ls;
    char rerr[512];
    int rc = ws_rep_read_launches(report, &ls, rerr, sizeof rerr);
    unlink(report);
    if (rc) {
        snprintf(err, errlen, "cannot read the run report: %s", rerr);
        return -1;
    }
    launch_cfg *out = NULL;
    int n = 0, cap = 0;
    for (size_t i = 0; i < ls.n; i++) {
        const ws_rep_launch_cfg *l = &ls.v[i];
        (*nlaunch)++;
        int j;
        for (j = 0; j < n; j++)
            if (!strcmp(out[j].kernel, l->kernel) && out[j].dyn_smem == l->dyn_smem &&
                !memcmp(out[j].grid, l->grid, sizeof l->grid) && !memcmp(out[j].block, l->block, sizeof l->block))
                break;
        if (j < n) { out[j].count++; continue; }
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            launch_cfg *no = realloc(out, (size_t)cap * sizeof *no);
            if (!no) break;
            out = no;
        }
        launch_cfg *c = &out[n++];
        memset(c, 0, sizeof *c);
        snprintf(c->kernel, sizeof c->kernel, "%s", l->kernel);
        memcpy(c->grid, l->grid, sizeof c->grid);
        memcpy(c->block, l->block, sizeof c->block);
        c->dyn_smem = l->dyn_smem;
        c->count = 1;
    }
    ws_rep_launches_free(&ls);
    *cfgs = out;
    *ncfg = n;
    return 0;
}

/* Find a kernel by mangled name, or NULL. */
static const kern *find_kern(const kern *ks, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(ks[i].k.name, name)) return &ks[i];
    return NULL;
}

/* warpsim occupancy [--gpu NAME] [--json] [--no-run] PROGRAM [ARGS...] */
static int program_mode(const ws_device *dev, const char *gpu, int json, int no_run, char **prog_argv)
{
    const char *prog = prog_argv[0];
    char err[1024] = "";
    char **texts = NULL;
    size_t *lens = NULL;
    int count = 0;
    if (access(prog, R_OK)) {
        fprintf(stderr, "warpsim occupancy: cannot read '%s': %s\n", prog, strerror(errno));
        return 2;
    }
    if (ws_fatbin_ptx_from_file(prog, &texts, &lens, &count, err, sizeof err)) {
        fprintf(stderr, "warpsim occupancy: %s: %s\n", prog, err);
        return 1;
    }
    if (count == 0) {
        fprintf(stderr, "warpsim occupancy: %s carries no PTX (build it with nvcc -arch=sm_XY so the fatbin "
                "includes PTX)\n", prog);
        ws_fatbin_free_texts(texts, lens, count);
        return 1;
    }
    /* use the PTX of the highest architecture the device supports (else the lowest there is) */
    int want = dev->cc_major * 10 + dev->cc_minor, best = -1, lowest = INT_MAX;
    for (int i = 0; i < count; i++) {
        int t = text_target(texts[i]);
        if (t <= want && t > best) best = t;
        if (t < lowest) lowest = t;
    }
    if (best < 0) best = lowest;
    kern *ks = NULL;
    int nk = 0, retargeted = 0, rc = 0;
    for (int i = 0; i < count && rc == 0; i++) {
        if (text_target(texts[i]) != best) continue;
        const ws_ptxas_table *t = ws_occ_ptxas_table(texts[i], lens[i], dev, err, sizeof err);
        if (!t) {
            fprintf(stderr, "warpsim occupancy: %s: %s\n", prog, err);
            rc = 1;
            break;
        }
        retargeted |= t->retargeted;
        for (int j = 0; j < t->n; j++) {
            if (find_kern(ks, nk, t->k[j].name)) continue;
            kern *nks = realloc(ks, (size_t)(nk + 1) * sizeof *nks);
            if (!nks) { rc = 1; break; }
            ks = nks;
            ks[nk].k = t->k[j];
            short_name(t->k[j].name, ks[nk].short_name, sizeof ks[nk].short_name);
            nk++;
        }
    }
    ws_fatbin_free_texts(texts, lens, count);
    if (rc) { free(ks); return rc; }
    qsort(ks, (size_t)nk, sizeof *ks, cmp_kern);

    launch_cfg *cfgs = NULL;
    int ncfg = 0, run_status = -1, run_ok = 0;
    long nlaunch = 0;
    char run_err[1024] = "";
    if (!no_run) {
        if (collect_launches(gpu ? gpu : dev->name, prog_argv, &cfgs, &ncfg, &nlaunch, &run_status, run_err, sizeof run_err) == 0) {
            run_ok = run_status == 0;
            if (!run_ok) snprintf(run_err, sizeof run_err, "the program exited with status %d under the simulator", run_status);
        }
    }
    int min_regs = dev->min_regs_per_thread;
    ws_json w;
    if (json) {
        char arch[32], target[32];
        snprintf(arch, sizeof arch, "sm_%d%d", dev->cc_major, dev->cc_minor);
        snprintf(target, sizeof target, "sm_%d", best);
        ws_json_init_file(&w, stdout);
        ws_json_begin_object(&w);
        ws_json_member_string(&w, "device", dev->name);
        ws_json_member_string(&w, "arch", arch);
        ws_json_member_string(&w, "program", prog);
        ws_json_member_string(&w, "ptx_target", target);
        ws_json_member_bool(&w, "ptx_retargeted", retargeted);
        ws_json_break(&w, 1);
        ws_json_key(&w, "kernels");
        ws_json_begin_array(&w);
        for (int i = 0; i < nk; i++) {
            const ws_ptxas_kernel *k = &ks[i].k;
            ws_json_break(&w, 2);
            ws_json_begin_object(&w);
            ws_json_member_string(&w, "kernel", k->name);
            ws_json_member_string(&w, "name", ks[i].short_name);
            ws_json_member_int(&w, "registers", k->regs);
            ws_json_member_int(&w, "registers_per_thread", k->regs < min_regs ? min_regs : k->regs);
            ws_json_member_uint(&w, "static_smem", k->static_smem);
            ws_json_member_int(&w, "barriers", k->barriers);
            ws_json_member_uint(&w, "stack_frame", k->stack_frame);
            ws_json_member_uint(&w, "spill_stores", k->spill_stores);
            ws_json_member_uint(&w, "spill_loads", k->spill_loads);
            ws_json_end_object(&w);
        }
        ws_json_break(&w, 1);
        ws_json_end_array(&w);
        ws_json_break(&w, 1);
        ws_json_key(&w, "run");
        ws_json_begin_object(&w);
        ws_json_member_bool(&w, "attempted", !no_run);
        ws_json_member_bool(&w, "ok", run_ok);
        ws_json_member_int(&w, "status", run_status);
        ws_json_member_int(&w, "launches", nlaunch);
        ws_json_member_string(&w, "error", run_err[0] ? run_err : NULL);
        ws_json_end_object(&w);
        ws_json_break(&w, 1);
        ws_json_key(&w, "launches");
        ws_json_begin_array(&w);
    } else {
        printf("%s on %s (%s, sm_%d%d, %d SMs)\n", prog, dev->name, dev->full_name, dev->cc_major, dev->cc_minor,
               dev->sm_count);
        printf("\nKernels (ptxas -arch=sm_%d%d -v on the program's sm_%d PTX%s):\n", dev->cc_major, dev->cc_minor,
               best, retargeted ? ", .target lowered to the device" : "");
        printf("  %-40s %5s %6s %10s %5s %6s %7s\n", "KERNEL", "REGS", "ALLOC", "SMEM", "BARS", "STACK", "SPILLS");
        for (int i = 0; i < nk; i++) {
            const ws_ptxas_kernel *k = &ks[i].k;
            printf("  %-40.40s %5d %6d %10zu %5d %6zu %7zu\n", ks[i].short_name, k->regs,
                   k->regs < min_regs ? min_regs : k->regs, k->static_smem, k->barriers, k->stack_frame,
                   k->spill_stores + k->spill_loads);
        }
        printf("  (REGS: ptxas; ALLOC: registers a launch allocates per thread, at least %d; SMEM: static bytes)\n",
               min_regs);
        if (no_run) printf("\nLaunches: not run (--no-run)\n");
        else if (run_err[0] && ncfg == 0) printf("\nLaunches: none recorded: %s\n", run_err);
        else {
            printf("\nLaunches (%ld launch%s, %d configuration%s)%s%s:\n", nlaunch, nlaunch == 1 ? "" : "es", ncfg,
                   ncfg == 1 ? "" : "s", run_err[0] ? "; " : "", run_err);
            printf("  %-28s %-16s %-12s %8s %6s %5s %6s %5s %7s %-13s %8s %5s\n", "KERNEL", "GRID", "BLOCK", "DYN SMEM",
                   "COUNT", "REGS", "BLK/SM", "WARPS", "OCC", "LIMITER", "WAVES/SM", "WAVES");
        }
    }
    for (int i = 0; i < ncfg; i++) {
        const launch_cfg *c = &cfgs[i];
        const kern *k = find_kern(ks, nk, c->kernel);
        long long threads = c->block[0] * c->block[1] * c->block[2];
        long long blocks = c->grid[0] * c->grid[1] * c->grid[2];
        ws_occ_result r;
        memset(&r, 0, sizeof r);
        int have = k != NULL && threads > 0 && threads <= INT_MAX;
        if (have) {
            ws_occ_opts o = ws_occ_default_opts();
            o.barriers = k->k.barriers;
            ws_occ_compute_ex(dev, (int)threads, k->k.regs, k->k.static_smem + c->dyn_smem, blocks, &o, &r);
        }
        char sn[256];
        if (k) snprintf(sn, sizeof sn, "%s", k->short_name);
        else short_name(c->kernel, sn, sizeof sn);
        if (json) {
            ws_json_break(&w, 2);
            ws_json_begin_object(&w);
            ws_json_member_string(&w, "kernel", c->kernel);
            ws_json_member_string(&w, "name", sn);
            ws_json_key(&w, "grid");
            ws_json_begin_array(&w);
            for (int d = 0; d < 3; d++) ws_json_int(&w, c->grid[d]);
            ws_json_end_array(&w);
            ws_json_key(&w, "block");
            ws_json_begin_array(&w);
            for (int d = 0; d < 3; d++) ws_json_int(&w, c->block[d]);
            ws_json_end_array(&w);
            ws_json_member_uint(&w, "dynamic_smem", c->dyn_smem);
            ws_json_member_int(&w, "count", c->count);
            ws_json_member_int(&w, "threads_per_block", threads);
            if (have) {
                ws_json_member_int(&w, "registers", k->k.regs);
                ws_json_member_uint(&w, "static_smem", k->k.static_smem);
                ws_json_member_int(&w, "barriers", k->k.barriers);
                occ_members(&w, &r);
            } else {
                ws_json_member_string(&w, "error", "kernel not found in the program's PTX");
            }
            ws_json_end_object(&w);
        } else {
            char g[40], b[40], occ[16], wps[16], wv[16];
            snprintf(g, sizeof g, "%lldx%lldx%lld", c->grid[0], c->grid[1], c->grid[2]);
            snprintf(b, sizeof b, "%lldx%lldx%lld", c->block[0], c->block[1], c->block[2]);
            if (!have) {
                printf("  %-28.28s %-16s %-12s %8zu %6ld  (kernel not found in the PTX)\n", sn, g, b, c->dyn_smem, c->count);
                continue;
            }
            if (!r.ok) {
                printf("  %-28.28s %-16s %-12s %8zu %6ld %5d  cannot run: %s\n", sn, g, b, c->dyn_smem, c->count,
                       r.regs_per_thread, r.reason);
                continue;
            }
            snprintf(occ, sizeof occ, "%.2f%%", 100 * r.occupancy);
            snprintf(wps, sizeof wps, "%.2f", r.waves_per_sm);
            snprintf(wv, sizeof wv, "%lld", r.waves);
            printf("  %-28.28s %-16s %-12s %8zu %6ld %5d %6d %5d %7s %-13s %8s %5s\n", sn, g, b, c->dyn_smem, c->count,
                   r.regs_per_thread, r.blocks_per_sm, r.warps_per_sm, occ, ws_occ_limiter_name(r.limiter), wps, wv);
        }
    }
    int bad = 0;
    if (json) {
        ws_json_break(&w, 1);
        ws_json_end_array(&w);
        ws_json_end_object(&w);
        ws_json_break(&w, 0);
        bad = ws_json_finish(&w) != 0;
    }
    free(cfgs);
    free(ks);
    if (!no_run && ncfg == 0 && run_err[0]) {
        if (!json) fprintf(stderr, "warpsim occupancy: %s\n", run_err);
        return 1;
    }
    return bad;
}

/* warpsim occupancy ... (see occ_usage) */
int cli_occupancy(int argc, char **argv)
{
    const char *gpu = NULL;
    long long threads = -1, regs = -1, grid = 0, barriers = 0, carve = -1;
    size_t smem = 0;
    int have_smem = 0, json = 0, no_run = 0, no_optin = 0;
    int i;
    for (i = 1; i < argc; i++) {
        char *a = argv[i];
        if (a[0] != '-') break;
        if (!strcmp(a, "--")) { i++; break; }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { occ_usage(stdout); return 0; }
        if (!strcmp(a, "--json")) { json = 1; continue; }
        if (!strcmp(a, "--no-run")) { no_run = 1; continue; }
        if (!strcmp(a, "--no-optin")) { no_optin = 1; continue; }
        /* options with a value: --opt VALUE or --opt=VALUE */
        const char *names[] = { "--gpu", "--threads", "--regs", "--smem", "--grid", "--barriers", "--carveout" };
        int which = -1;
        const char *val = NULL;
        for (int k = 0; k < 7; k++) {
            size_t n = strlen(names[k]);
            if (!strncmp(a, names[k], n) && (a[n] == 0 || a[n] == '=')) {
                which = k;
                if (a[n] == '=') val = a + n + 1;
                else if (i + 1 < argc) val = argv[++i];
                break;
            }
        }
        if (which < 0) {
            fprintf(stderr, "warpsim occupancy: unknown option '%s'\n", a);
            occ_usage(stderr);
            return 2;
        }
        if (!val) {
            fprintf(stderr, "warpsim occupancy: %s needs a value\n", names[which]);
            return 2;
        }
        int bad = 0;
        switch (which) {
        case 0: gpu = val; break;
        case 1: bad = parse_count(val, INT_MAX, &threads) || threads < 1; break;
        case 2: bad = parse_count(val, INT_MAX, &regs); break;
        case 3: bad = parse_bytes(val, &smem); have_smem = 1; break;
        case 4: bad = parse_count(val, LLONG_MAX / 2, &grid) || grid < 1; break;
        case 5: bad = parse_count(val, 1024, &barriers); break;
        case 6: bad = parse_count(val, 100, &carve); break;
        }
        if (bad) {
            fprintf(stderr, "warpsim occupancy: %s: invalid value '%s' (%s)\n", names[which], val,
                    which == 3 ? "bytes, optionally with K or M" : which == 6 ? "a percentage 0-100"
                    : which == 1 || which == 4 ? "a positive integer" : "a non-negative integer");
            return 2;
        }
    }
    char err[1024];
    int calc = threads >= 0 || regs >= 0 || have_smem || grid > 0;
    if (i < argc) {
        if (calc) {
            fprintf(stderr, "warpsim occupancy: give either --threads/--regs/--smem or a PROGRAM, not both\n");
            return 2;
        }
        const ws_device *dev = ws_device_get(gpu, err, sizeof err);
        if (!dev) {
            fprintf(stderr, "warpsim occupancy: %s\n", err);
            return 2;
        }
        return program_mode(dev, gpu, json, no_run, argv + i);
    }
    if (!calc) {
        occ_usage(stderr);
        return 2;
    }
    if (threads < 0 || regs < 0 || !have_smem) {
        fprintf(stderr, "warpsim occupancy: the calculator needs --threads, --regs and --smem (missing %s)\n",
                threads < 0 ? "--threads" : regs < 0 ? "--regs" : "--smem");
        return 2;
    }
    const ws_device *dev = ws_device_get(gpu, err, sizeof err);
    if (!dev) {
        fprintf(stderr, "warpsim occupancy: %s\n", err);
        return 2;
    }
    ws_occ_opts o = ws_occ_default_opts();
    o.barriers = (int)barriers;
    o.carveout_pct = (int)carve;
    o.smem_optin = !no_optin;
    ws_occ_result r;
    int rc = ws_occ_compute_ex(dev, (int)threads, (int)regs, smem, grid, &o, &r);
    if (json) {
        ws_json w;
        ws_json_init_file(&w, stdout);
        ws_json_begin_object(&w);
        ws_json_member_string(&w, "device", dev->name);
        ws_json_member_int(&w, "threads", threads);
        ws_json_member_int(&w, "regs", regs);
        ws_json_member_uint(&w, "smem", smem);
        occ_members(&w, &r);
        ws_json_end_object(&w);
        ws_json_break(&w, 0);
        if (ws_json_finish(&w)) return 1;
    } else {
        print_occ_human(dev, &r, (int)regs, smem);
    }
    return rc ? 1 : 0;
}
