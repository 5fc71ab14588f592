/* hs_report.c - the per-launch report written at exit when WARPSIM_REPORT=FILE is set: the session records each
 * launch (ws_rep_launch) and src/report/run_report.c writes the JSON; plus the timing summary on stderr. */
#include "hs_internal.h"
#include "../mem/um.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Whether a report was requested (looked up once); under `warpsim run` only the program itself writes it,
 * not child processes that inherit the environment (WARPSIM_ROOT_PID). */
int ws_hs_report_enabled(void)
{
    static int enabled = -1;
    if (enabled < 0) {
        const char *f = getenv("WARPSIM_REPORT");
        const char *root = getenv("WARPSIM_ROOT_PID");
        enabled = f && *f && (!root || !*root || strtol(root, NULL, 10) == (long)getpid());
    }
    return enabled;
}

static ws_rep_launch *launches;   /* every launch of the process (with a report or in timing mode) */
static size_t nlaunches, caplaunches;

static long nreported;              /* launches reported, kept or not: the next one's index */

/* Append one launch to the report; its index. */
long ws_hs_report_launch(const char *kernel, ws_dim3 grid, ws_dim3 block, size_t smem, int status,
                         const ws_launch_stats *st, const ws_occ_result *occ, const ws_tm_result *tm)
{
    long index = nreported++;
    if (!ws_hs_report_enabled() && !ws_hs_tm() && !ws_hs_view_enabled()) return index;
    if (nlaunches == caplaunches) {
        size_t cap = caplaunches ? caplaunches * 2 : 64;
        ws_rep_launch *n = realloc(launches, cap * sizeof *n);
        if (!n) return index;
        launches = n;
        caplaunches = cap;
    }
    ws_rep_launch *r = &launches[nlaunches++];
    memset(r, 0, sizeof *r);
    r->kernel = kernel;   /* the faces' registration records live for the whole process */
    r->grid = grid;
    r->block = block;
    r->dyn_smem = smem;
    r->error = status ? ws_hs_error_name(status) : NULL;
    if (status && !r->error) r->error = "error";
    r->stats = *st;
    r->device = ws_hs_current();
    r->ndevices = ws_hs_device_count();
    if (occ) { r->has_occ = 1; r->occ = *occ; }
    if (tm && tm->valid) { r->has_tm = 1; r->tm = *tm; }
    return index;
}

/* Mark a recorded launch as a child grid. */
void ws_hs_report_parent(long index, int depth, long parent)
{
    if (index >= 0 && (size_t)index < nlaunches && (size_t)index + 1 == nlaunches) {
        launches[index].depth = depth;
        launches[index].parent = parent;
    }
}

/* Record the CPU faults before the launch of report index `index` (the last one recorded). */
void ws_hs_report_um(long index, uint64_t cpu_faults, uint64_t cpu_bytes)
{
    if (!ws_hs_um_table() || index < 0 || (size_t)index + 1 != nlaunches) return;
    launches[index].has_um = 1;
    launches[index].um_cpu_faults = cpu_faults;
    launches[index].um_cpu_dtoh_bytes = cpu_bytes;
}

/* The run's "unified_memory" totals (timing mode, when managed memory was tracked). */
static void um_member(ws_json *w)
{
    const ws_um_counts *c = ws_hs_um_counts();
    if (!c) return;
    ws_json_key(w, "unified_memory");
    ws_json_begin_object(w);
    ws_json_member_uint(w, "page_bytes", ws_hs_um_page_bytes());
    ws_json_member_uint(w, "gpu_page_faults", c->gpu_faults);
    ws_json_member_uint(w, "cpu_page_faults", c->cpu_faults);
    ws_json_member_uint(w, "htod_bytes", c->htod_bytes);
    ws_json_member_uint(w, "dtoh_bytes", c->dtoh_bytes);
    ws_json_member_uint(w, "prefetch_htod_bytes", c->prefetch_htod_bytes);
    ws_json_member_uint(w, "prefetch_dtoh_bytes", c->prefetch_dtoh_bytes);
    ws_json_member_uint(w, "evicted_pages", c->evicted_pages);
    ws_json_member_uint(w, "remote_bytes", c->remote_bytes);
    ws_json_end_object(w);
}

/* Copies per device and direction (enum ws_rep_copy_dir), for the report's "devices". */
static struct { uint64_t count, bytes; double seconds; } copies[WS_HS_MAX_DEVICES][WS_REP_COPY_DIR_COUNT];

/* Count one copy of a device. */
void ws_hs_report_copy(int device, int dir, uint64_t bytes, double seconds)
{
    if (device < 0 || device >= WS_HS_MAX_DEVICES || dir < 0 || dir >= WS_REP_COPY_DIR_COUNT) return;
    copies[device][dir].count++;
    copies[device][dir].bytes += bytes;
    copies[device][dir].seconds += seconds;
}

/* The report's "devices" (several devices): each one's preset, name, launches and copies by direction. */
static void devices_member(ws_json *w, int nd)
{
    ws_json_key(w, "devices");
    ws_json_begin_array(w);
    for (int i = 0; i < nd; i++) {
        const ws_device *d = ws_hs_device_at(i);
        size_t nl = 0;
        for (size_t j = 0; j < nlaunches; j++) nl += launches[j].device == i;
        ws_json_break(w, 2);
        ws_json_begin_object(w);
        ws_json_member_int(w, "index", i);
        ws_json_member_string(w, "preset", d->name);
        ws_json_member_string(w, "name", d->full_name);
        ws_json_member_uint(w, "launches", nl);
        ws_json_key(w, "copies");
        ws_json_begin_array(w);
        for (int k = 0; k < WS_REP_COPY_DIR_COUNT; k++) {
            if (!copies[i][k].count) continue;
            ws_json_begin_object(w);
            ws_json_member_string(w, "direction", ws_rep_copy_dir_name(k));
            ws_json_member_uint(w, "count", copies[i][k].count);
            ws_json_member_uint(w, "bytes", copies[i][k].bytes);
            ws_json_member_double_g(w, "seconds", copies[i][k].seconds, 12);
            ws_json_end_object(w);
        }
        ws_json_end_array(w);
        ws_json_end_object(w);
    }
    ws_json_break(w, 0);
    ws_json_end_array(w);
}

/* The report's members after "launches": "devices" (with several devices), the unified-memory totals and "view"
 * (--view). */
static void extra_members(ws_json *w, void *ctx)
{
    (void)ctx;
    int nd = ws_hs_device_count();
    if (nd > 1) devices_member(w, nd);
    um_member(w);
    if (ws_hs_view_enabled()) ws_hs_view_member(w, launches, nlaunches);
}

/* Write the report file named by WARPSIM_REPORT. */
static void report_write(void)
{
    if (!ws_hs_report_enabled()) return;
    const char *path = getenv("WARPSIM_REPORT");
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "warpsim: cannot write the report %s\n", path);
        return;
    }
    /* another thread may still be inside a call at exit: wait a little for it, then write anyway */
    int locked = ws_hs_lock_timed(2);
    const ws_device *d = ws_hs_device_at(0);
    int bad = ws_rep_run_write_ex(out, d ? d->name : "unknown", launches, nlaunches,
                                  ws_hs_chk_report(),   /* --check: the findings */
                                  extra_members, NULL);
    if (locked) ws_hs_unlock();
    if (fclose(out) != 0 || bad) fprintf(stderr, "warpsim: error writing the report %s\n", path);
}

/* Classify what limits a kernel, from its timing result. */
static const char *limiter_of(const ws_device *d, const ws_tm_result *t)
{
    double secs = t->duration_ns * 1e-9;
    double dram = secs > 0 ? (double)(t->mem.dram_read_bytes + t->mem.dram_write_bytes) / (d->mem_bandwidth_gbs * 1e9 * secs) : 0;
    double fp = secs > 0 ? (double)t->flops / (d->fp32_tflops * 1e12 * secs) : 0;
    if (t->duration_ns < d->launch_overhead_us * 1e3) return "launch (shorter than the launch overhead)";
    if (dram > 0.6) return "memory bandwidth";
    if (fp > 0.6 || t->issue_active_pct > 60) return "compute (issue slots)";
    if (t->achieved_occupancy_pct < 25 || t->waves < 0.5) return "occupancy (too few warps to hide latency)";
    return "latency (warps stall on dependencies)";
}

/* Print a short human summary per kernel (timing mode, unless quiet) on stderr. */
static void summary_print(void)
{
    if (!ws_hs_timing() || ws_hs_quiet() || !nlaunches) return;
    int any = 0;
    for (size_t i = 0; i < nlaunches; i++) any |= launches[i].has_tm;
    if (!any) return;
    const ws_device *d = ws_hs_device_at(0);
    if (!d) return;
    int nd = ws_hs_device_count();
    if (nd > 1) fprintf(stderr, "\nwarpsim timing summary (%d devices, the first a %s)\n", nd, d->full_name);
    else fprintf(stderr, "\nwarpsim timing summary (%s, %d SMs at %.0f MHz)\n", d->full_name, d->sm_count, d->sm_clock_mhz);
    for (size_t i = 0; i < nlaunches; i++) {
        const ws_rep_launch *r = &launches[i];
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(launches[j].kernel, r->kernel) && launches[j].device == r->device) seen = 1;
        if (seen || !r->has_tm) continue;
        int n = 0;
        double total = 0;
        const ws_rep_launch *last = r;
        if (r->ndevices > 1) d = ws_hs_device_at(r->device);   /* one entry per kernel and device */
        for (size_t j = i; j < nlaunches; j++)
            if (!strcmp(launches[j].kernel, r->kernel) && launches[j].device == r->device && launches[j].has_tm) {
                n++;
                total += launches[j].tm.duration_ns;
                last = &launches[j];
            }
        const ws_tm_result *t = &last->tm;
        const ws_ms_counts *m = &t->mem;
        double bytes = (double)(m->dram_read_bytes + m->dram_write_bytes);
        double ai = bytes > 0 ? (double)t->flops / bytes : 0;
        double ridge = d->fp32_tflops * 1e12 / (d->mem_bandwidth_gbs * 1e9);
        double secs = t->duration_ns * 1e-9;
        if (r->ndevices > 1) fprintf(stderr, "  [device %d: %s]", r->device, d->full_name);
        fprintf(stderr, "  %s  <<<(%u,%u,%u), (%u,%u,%u)>>>  %d launch%s, %.2f us total\n", last->kernel, last->grid.x,
                last->grid.y, last->grid.z, last->block.x, last->block.y, last->block.z, n, n == 1 ? "" : "es", total / 1e3);
        fprintf(stderr, "    last launch: %.2f us, %llu cycles; limiter: %s\n", t->duration_ns / 1e3,
                (unsigned long long)t->cycles, limiter_of(d, t));
        fprintf(stderr, "    occupancy: achieved %.1f%% of theoretical %.1f%% (%d blocks/SM, %.2f waves); issue slots busy %.1f%%\n",
                t->achieved_occupancy_pct, last->has_occ ? 100.0 * last->occ.occupancy : 0.0, t->blocks_per_sm, t->waves,
                t->issue_active_pct);
        if (m->gld_requests || m->gst_requests)
            fprintf(stderr, "    global: %.1f sectors per load request, %.1f per store request (4 is ideal for 4-byte words)\n",
                    m->gld_requests ? (double)m->gld_sectors / (double)m->gld_requests : 0.0,
                    m->gst_requests ? (double)m->gst_sectors / (double)m->gst_requests : 0.0);
        if (m->shld_requests || m->shst_requests)
            fprintf(stderr, "    shared: %.2f wavefronts per load (1 = no bank conflicts), %llu conflict wavefronts\n",
                    m->shld_requests ? (double)m->shld_wavefronts / (double)m->shld_requests : 0.0,
                    (unsigned long long)(m->shld_conflicts + m->shst_conflicts));
        fprintf(stderr, "    roofline: %.3f FLOP/byte (ridge %.1f), %.1f GFLOP/s, %.1f GB/s of DRAM -> %s-bound side\n", ai, ridge,
                secs > 0 ? (double)t->flops / secs / 1e9 : 0.0, secs > 0 ? bytes / secs / 1e9 : 0.0,
                ai < ridge ? "memory" : "compute");
    }
    const ws_um_counts *c = ws_hs_um_counts();
    if (c && (c->gpu_faults || c->cpu_faults || c->prefetch_htod_bytes || c->prefetch_dtoh_bytes))
        fprintf(stderr, "  unified memory (%zu KiB pages): %llu GPU page faults moved %.2f MiB HtoD, %llu CPU page faults "
                "and evictions %.2f MiB DtoH, prefetches %.2f MiB HtoD / %.2f MiB DtoH\n", ws_hs_um_page_bytes() >> 10,
                (unsigned long long)c->gpu_faults, (double)c->htod_bytes / 1048576.0, (unsigned long long)c->cpu_faults,
                (double)c->dtoh_bytes / 1048576.0, (double)c->prefetch_htod_bytes / 1048576.0,
                (double)c->prefetch_dtoh_bytes / 1048576.0);
}

/* Write the report and the timing summary now. */
void ws_hs_report_flush(void)
{
    static int done;
    if (done) return;
    done = 1;
    ws_hs_chk_exit();   /* --check: leaks and the ERROR SUMMARY, before the report takes the findings */
    ws_hs_tl_close();    /* NVTX ranges still open end now, for the report's host timeline */
    report_write();
    ws_hs_view_files(launches, nlaunches);
    summary_print();
    ws_hs_tl_finish();   /* --trace, --stats */
}

/* At unload (after the program's atexit handlers): write the report and the timing summary. */
__attribute__((destructor)) static void ws_hs_fini(void) { ws_hs_report_flush(); }
