/* rt_report.c - the per-launch JSON report written at exit when WARPSIM_REPORT=FILE is set:
 * {"device": "h200", "launches": [{"kernel": ..., "grid": [..], "block": [..], "dynamic_smem": N,
 *   "smsp__inst_executed.sum": N, "smsp__thread_inst_executed.sum": N, "host_seconds": S}, ...]} */
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Whether a report was requested (looked up once); under `warpsim run` only the program itself writes it,
 * not child processes that inherit the environment (WARPSIM_ROOT_PID). */
int ws_rt_report_enabled(void)
{
    static int enabled = -1;
    if (enabled < 0) {
        const char *f = getenv("WARPSIM_REPORT");
        const char *root = getenv("WARPSIM_ROOT_PID");
        enabled = f && *f && (!root || !*root || strtol(root, NULL, 10) == (long)getpid());
    }
    return enabled;
}

/* Append one launch to the report. */
void ws_rt_report_launch(const ws_rt_func *f, ws_dim3 grid, ws_dim3 block, size_t smem, int status,
                         const ws_launch_stats *st, const ws_occ_result *occ, const ws_tm_result *tm)
{
    if (!ws_rt_report_enabled() && !ws_rt_g.tm) return;
    if (ws_rt_g.nlaunches == ws_rt_g.caplaunches) {
        size_t cap = ws_rt_g.caplaunches ? ws_rt_g.caplaunches * 2 : 64;
        ws_rt_launch_rec *n = realloc(ws_rt_g.launches, cap * sizeof *n);
        if (!n) return;
        ws_rt_g.launches = n;
        ws_rt_g.caplaunches = cap;
    }
    ws_rt_launch_rec *r = &ws_rt_g.launches[ws_rt_g.nlaunches++];
    memset(r, 0, sizeof *r);
    r->kernel = f->name; /* registration records live for the whole process */
    r->grid = grid;
    r->block = block;
    r->dyn_smem = smem;
    r->status = status;
    r->stats = *st;
    if (occ) { r->has_occ = 1; r->occ = *occ; }
    if (tm && tm->valid) { r->has_tm = 1; r->tm = *tm; }
}

/* Write s as a JSON string. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

/* Write one launch record as a JSON object: the one place that lists the per-launch metrics. */
static void json_launch(FILE *out, const ws_rt_launch_rec *r)
{
    fputs("{\"kernel\": ", out);
    json_string(out, r->kernel);
    fprintf(out, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"dynamic_smem\": %zu", r->grid.x, r->grid.y,
            r->grid.z, r->block.x, r->block.y, r->block.z, r->dyn_smem);
    fprintf(out, ", \"smsp__inst_executed.sum\": %llu", (unsigned long long)r->stats.warp_insts);
    fprintf(out, ", \"smsp__thread_inst_executed.sum\": %llu", (unsigned long long)r->stats.thread_insts);
    fprintf(out, ", \"host_seconds\": %.9f", r->stats.host_seconds);
    if (r->has_occ) {
        const ws_occ_result *o = &r->occ;
        fprintf(out, ", \"launch__registers_per_thread\": %d", o->regs_per_thread);
        fprintf(out, ", \"sm__maximum_warps_per_active_cycle_pct\": %.2f", 100.0 * o->occupancy);
        fprintf(out, ", \"launch__occupancy_limit_warps\": %d", o->limit_threads);
        fprintf(out, ", \"launch__occupancy_limit_blocks\": %d", o->limit_blocks);
        fprintf(out, ", \"launch__occupancy_limit_registers\": %d", o->limit_registers);
        fprintf(out, ", \"launch__occupancy_limit_shared_mem\": %d", o->limit_shared_memory);
        fprintf(out, ", \"launch__waves_per_multiprocessor\": %.2f", o->waves_per_sm);
        fprintf(out, ", \"occupancy_limiter\": ");
        json_string(out, ws_occ_limiter_name(o->limiter));
    }
    if (r->has_tm) {
        const ws_tm_result *t = &r->tm;
        const ws_ms_counts *m = &t->mem;
        fprintf(out, ", \"gpu__time_duration.sum\": %.0f", t->duration_ns);
        fprintf(out, ", \"sm__cycles_elapsed.max\": %llu", (unsigned long long)t->cycles);
        fprintf(out, ", \"sm__cycles_active.avg\": %.1f", t->sm_active_cycles_avg);
        fprintf(out, ", \"warpsim__max_resident_blocks_per_sm\": %d", t->max_resident_blocks);
        fprintf(out, ", \"smsp__thread_inst_executed_per_inst_executed.ratio\": %.2f",
                r->stats.warp_insts ? (double)r->stats.thread_insts / (double)r->stats.warp_insts : 0.0);
        fprintf(out, ", \"sm__warps_active.avg.pct_of_peak_sustained_active\": %.2f", t->achieved_occupancy_pct);
        fprintf(out, ", \"smsp__warps_active.avg.per_cycle_active\": %.2f", t->warps_active_per_cycle);
        fprintf(out, ", \"smsp__warps_eligible.avg.per_cycle_active\": %.2f", t->warps_eligible_per_cycle);
        fprintf(out, ", \"smsp__issue_active.avg.pct_of_peak_sustained_active\": %.2f", t->issue_active_pct);
        fprintf(out, ", \"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\": %llu", (unsigned long long)m->gld_requests);
        fprintf(out, ", \"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\": %llu", (unsigned long long)m->gld_sectors);
        fprintf(out, ", \"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum\": %llu", (unsigned long long)m->gst_requests);
        fprintf(out, ", \"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum\": %llu", (unsigned long long)m->gst_sectors);
        fprintf(out, ", \"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\": %llu", (unsigned long long)m->shld_wavefronts);
        fprintf(out, ", \"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum\": %llu", (unsigned long long)m->shst_wavefronts);
        fprintf(out, ", \"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\": %llu", (unsigned long long)m->shld_conflicts);
        fprintf(out, ", \"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\": %llu", (unsigned long long)m->shst_conflicts);
        fprintf(out, ", \"l1tex__t_sector_hit_rate.pct\": %.2f", m->l1_sectors ? 100.0 * (double)m->l1_hit_sectors / (double)m->l1_sectors : 0.0);
        fprintf(out, ", \"lts__t_sector_hit_rate.pct\": %.2f", m->l2_sectors ? 100.0 * (double)m->l2_hit_sectors / (double)m->l2_sectors : 0.0);
        fprintf(out, ", \"lts__t_sectors_srcunit_tex_op_read.sum\": %llu", (unsigned long long)m->l2_read_sectors_from_l1);
        fprintf(out, ", \"dram__bytes_read.sum\": %llu", (unsigned long long)m->dram_read_bytes);
        fprintf(out, ", \"dram__bytes_write.sum\": %llu", (unsigned long long)m->dram_write_bytes);
        fputs(", \"stalls\": {", out);
        for (int i = 0; i < WS_ST_COUNT; i++)
            fprintf(out, "%s\"smsp__pcsamp_warps_issue_stalled_%s\": %llu", i ? ", " : "", ws_stall_names[i],
                    (unsigned long long)t->stall_cycles[i]);
        fputc('}', out);
    }
    if (r->status) {
        fputs(", \"error\": ", out);
        json_string(out, ws_rt_error_name((cudaError_t)r->status));
    }
    fputc('}', out);
}

/* Write the report file named by WARPSIM_REPORT. */
void ws_rt_report_write(void)
{
    if (!ws_rt_report_enabled()) return;
    const char *path = getenv("WARPSIM_REPORT");
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "warpsim: cannot write the report %s\n", path);
        return;
    }
    /* another thread may still be inside a call at exit: wait a little for it, then write anyway */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 2;
    int locked = pthread_mutex_timedlock(&ws_rt_g.lock, &until) == 0;
    cudaError_t e = cudaSuccess;
    const ws_device *d = ws_rt_g.dev ? ws_rt_g.dev : ws_rt_device(&e);
    fputs("{\"device\": ", out);
    json_string(out, d ? d->name : "unknown");
    fputs(", \"launches\": [", out);
    for (size_t i = 0; i < ws_rt_g.nlaunches; i++) {
        fputs(i ? ",\n  " : "\n  ", out);
        json_launch(out, &ws_rt_g.launches[i]);
    }
    fputs(ws_rt_g.nlaunches ? "\n]" : "]", out);
    ws_rt_chk_json(out);   /* --check: the findings */
    fputs("}\n", out);
    if (locked) ws_rt_unlock();
    if (fclose(out) != 0) fprintf(stderr, "warpsim: error writing the report %s\n", path);
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
    if (!ws_rt_g.tm || ws_rt_quiet() || !ws_rt_g.nlaunches) return;
    int any = 0;
    for (size_t i = 0; i < ws_rt_g.nlaunches; i++) any |= ws_rt_g.launches[i].has_tm;
    if (!any) return;
    cudaError_t e = cudaSuccess;
    const ws_device *d = ws_rt_g.dev ? ws_rt_g.dev : ws_rt_device(&e);
    if (!d) return;
    fprintf(stderr, "\nwarpsim timing summary (%s, %d SMs at %.0f MHz)\n", d->full_name, d->sm_count, d->sm_clock_mhz);
    for (size_t i = 0; i < ws_rt_g.nlaunches; i++) {
        const ws_rt_launch_rec *r = &ws_rt_g.launches[i];
        int seen = 0;
        for (size_t j = 0; j < i; j++) if (!strcmp(ws_rt_g.launches[j].kernel, r->kernel)) seen = 1;
        if (seen || !r->has_tm) continue;
        int n = 0;
        double total = 0;
        const ws_rt_launch_rec *last = r;
        for (size_t j = i; j < ws_rt_g.nlaunches; j++)
            if (!strcmp(ws_rt_g.launches[j].kernel, r->kernel) && ws_rt_g.launches[j].has_tm) {
                n++;
                total += ws_rt_g.launches[j].tm.duration_ns;
                last = &ws_rt_g.launches[j];
            }
        const ws_tm_result *t = &last->tm;
        const ws_ms_counts *m = &t->mem;
        double bytes = (double)(m->dram_read_bytes + m->dram_write_bytes);
        double ai = bytes > 0 ? (double)t->flops / bytes : 0;
        double ridge = d->fp32_tflops * 1e12 / (d->mem_bandwidth_gbs * 1e9);
        double secs = t->duration_ns * 1e-9;
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
}

/* At unload (after the program's atexit handlers): write the report and the timing summary. */
__attribute__((destructor)) static void ws_rt_fini(void)
{
    ws_rt_chk_exit();   /* --check: leaks and the ERROR SUMMARY, before the report takes the findings */
    ws_rt_report_write();
    summary_print();
}
