/* run_report.c - the run report's JSON: one object per kernel launch with its metrics, the device, the checks. */
#include "run_report.h"
#include "check_report.h"

#include <stdio.h>

/* Write an [x, y, z] array. */
static void dim3_json(ws_json *w, ws_dim3 d)
{
    ws_json_begin_array(w);
    ws_json_uint(w, d.x);
    ws_json_uint(w, d.y);
    ws_json_uint(w, d.z);
    ws_json_end_array(w);
}

/* Percentage part / whole (0 when whole is 0). */
static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Write the occupancy metrics of a launch (members of its object). */
static void occ_json(ws_json *w, const ws_occ_result *o)
{
    ws_json_member_int(w, "launch__registers_per_thread", o->regs_per_thread);
    ws_json_member_double(w, "sm__maximum_warps_per_active_cycle_pct", 100.0 * o->occupancy, 2);
    ws_json_member_int(w, "launch__occupancy_limit_warps", o->limit_threads);
    ws_json_member_int(w, "launch__occupancy_limit_blocks", o->limit_blocks);
    ws_json_member_int(w, "launch__occupancy_limit_registers", o->limit_registers);
    ws_json_member_int(w, "launch__occupancy_limit_shared_mem", o->limit_shared_memory);
    ws_json_member_double(w, "launch__waves_per_multiprocessor", o->waves_per_sm, 2);
    ws_json_member_string(w, "occupancy_limiter", ws_occ_limiter_name(o->limiter));
}

/* Write the timing metrics of a launch (members of its object). */
static void tm_json(ws_json *w, const ws_tm_result *t, const ws_launch_stats *st)
{
    const ws_ms_counts *m = &t->mem;
    ws_json_member_double(w, "gpu__time_duration.sum", t->duration_ns, 0);
    ws_json_member_uint(w, "sm__cycles_elapsed.max", t->cycles);
    ws_json_member_double(w, "sm__cycles_active.avg", t->sm_active_cycles_avg, 1);
    ws_json_member_int(w, "warpsim__max_resident_blocks_per_sm", t->max_resident_blocks);
    ws_json_member_double(w, "smsp__thread_inst_executed_per_inst_executed.ratio",
                          st->warp_insts ? (double)st->thread_insts / (double)st->warp_insts : 0.0, 2);
    ws_json_member_double(w, "sm__warps_active.avg.pct_of_peak_sustained_active", t->achieved_occupancy_pct, 2);
    ws_json_member_double(w, "smsp__warps_active.avg.per_cycle_active", t->warps_active_per_cycle, 2);
    ws_json_member_double(w, "smsp__warps_eligible.avg.per_cycle_active", t->warps_eligible_per_cycle, 2);
    ws_json_member_double(w, "smsp__issue_active.avg.pct_of_peak_sustained_active", t->issue_active_pct, 2);
    ws_json_member_uint(w, "sm__inst_executed_pipe_tensor.sum", t->tensor_insts);
    ws_json_member_double(w, "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", t->tensor_active_pct, 2);
    ws_json_member_uint(w, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", m->gld_requests);
    ws_json_member_uint(w, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", m->gld_sectors);
    ws_json_member_uint(w, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", m->gst_requests);
    ws_json_member_uint(w, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", m->gst_sectors);
    ws_json_member_uint(w, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", m->shld_wavefronts);
    ws_json_member_uint(w, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", m->shst_wavefronts);
    ws_json_member_uint(w, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", m->shld_conflicts);
    ws_json_member_uint(w, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", m->shst_conflicts);
    ws_json_member_double(w, "l1tex__t_sector_hit_rate.pct", pct(m->l1_hit_sectors, m->l1_sectors), 2);
    ws_json_member_double(w, "lts__t_sector_hit_rate.pct", pct(m->l2_hit_sectors, m->l2_sectors), 2);
    ws_json_member_uint(w, "lts__t_sectors_srcunit_tex_op_read.sum", m->l2_read_sectors_from_l1);
    ws_json_member_uint(w, "dram__bytes_read.sum", m->dram_read_bytes);
    ws_json_member_uint(w, "dram__bytes_write.sum", m->dram_write_bytes);
    ws_json_key(w, "stalls");
    ws_json_begin_object(w);
    for (int i = 0; i < WS_ST_COUNT; i++) {
        char key[128];
        snprintf(key, sizeof key, "smsp__pcsamp_warps_issue_stalled_%s", ws_stall_names[i]);
        ws_json_member_uint(w, key, t->stall_cycles[i]);
    }
    ws_json_end_object(w);
}

/* Write one launch record as a JSON object. */
void ws_rep_launch_json(ws_json *w, const ws_rep_launch *r)
{
    ws_json_begin_object(w);
    ws_json_member_string(w, "kernel", r->kernel);
    if (r->ndevices > 1) ws_json_member_int(w, "device", r->device);
    ws_json_key(w, "grid");
    dim3_json(w, r->grid);
    ws_json_key(w, "block");
    dim3_json(w, r->block);
    ws_json_member_uint(w, "dynamic_smem", r->dyn_smem);
    /* Nsight Compute counts SASS: timing mode does too where ptxas's line table gave SASS per PTX instruction */
    int sass = r->has_tm && r->tm.sass_insts;
    ws_json_member_uint(w, "smsp__inst_executed.sum", sass ? r->tm.sass_insts : r->stats.warp_insts);
    ws_json_member_string(w, "warpsim__inst_executed_basis", sass ? "sass" : "ptx");
    ws_json_member_uint(w, "warpsim__ptx_inst_executed.sum", r->stats.warp_insts);
    ws_json_member_uint(w, "smsp__thread_inst_executed.sum", r->stats.thread_insts);
    ws_json_member_double(w, "host_seconds", r->stats.host_seconds, 9);
    if (r->has_occ) occ_json(w, &r->occ);
    if (r->has_tm) tm_json(w, &r->tm, &r->stats);
    if (r->error) ws_json_member_string(w, "error", r->error);
    if (r->has_um) {
        /* as nsys --cuda-um-gpu-page-faults / --cuda-um-cpu-page-faults count them, in pages of the preset's
         * um_page_bytes; the CPU's are those since the previous launch */
        ws_json_key(w, "unified_memory");
        ws_json_begin_object(w);
        ws_json_member_uint(w, "gpu_page_faults", r->tm.um.gpu_faults);
        ws_json_member_uint(w, "fault_batches", r->tm.um.batches);
        ws_json_member_uint(w, "htod_bytes", r->tm.um.htod_bytes);
        ws_json_member_uint(w, "dtoh_bytes", r->tm.um.dtoh_bytes);
        ws_json_member_uint(w, "evicted_pages", r->tm.um.evicted_pages);
        ws_json_member_uint(w, "remote_bytes", r->tm.um.remote_bytes);
        ws_json_member_uint(w, "cpu_page_faults", r->um_cpu_faults);
        ws_json_member_uint(w, "cpu_dtoh_bytes", r->um_cpu_dtoh_bytes);
        ws_json_end_object(w);
    }
    if (r->depth > 0) {
        ws_json_key(w, "device_launch");   /* a child grid (dynamic parallelism) */
        ws_json_begin_object(w);
        ws_json_member_uint(w, "depth", (uint64_t)r->depth);
        ws_json_member_uint(w, "parent", (uint64_t)r->parent);
        ws_json_end_object(w);
    }
    ws_json_end_object(w);
}

/* Write the whole run report. */
int ws_rep_run_write(FILE *out, const char *device, const ws_rep_launch *launches, size_t n, const ws_chk *checks)
{
    return ws_rep_run_write_ex(out, device, launches, n, checks, NULL, NULL);
}

/* Write the run report with more members written by extra(w, ctx) at the end of the top-level object. */
int ws_rep_run_write_ex(FILE *out, const char *device, const ws_rep_launch *launches, size_t n, const ws_chk *checks,
                        void (*extra)(ws_json *w, void *ctx), void *ctx)
{
    ws_json w;
    ws_json_init_file(&w, out);
    ws_json_begin_object(&w);
    ws_json_member_string(&w, "device", device);
    ws_json_key(&w, "launches");
    ws_json_begin_array(&w);
    for (size_t i = 0; i < n; i++) {
        ws_json_break(&w, 2);
        ws_rep_launch_json(&w, &launches[i]);
    }
    if (n) ws_json_break(&w, 0);
    ws_json_end_array(&w);
    if (checks) {
        ws_json_key(&w, "checks");
        ws_rep_checks_json(&w, checks);
    }
    if (extra) extra(&w, ctx);
    ws_json_end_object(&w);
    ws_json_break(&w, 0);
    return ws_json_finish(&w);
}
