/* hs_launch.c - the one kernel-launch path of every face: the occupancy calculator's residency for every launch
 * in every mode, the core's launch, the report record, the simulated clock, and pending faults. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_internal.h"

/* Whether a status from ws_launch is a fault of the running kernel (sticky), not a configuration error. */
int ws_hs_is_fault(int code)
{
    switch (code) {
    case 700:   /* cudaErrorIllegalAddress */
    case 702:   /* cudaErrorLaunchTimeout */
    case 710:   /* cudaErrorAssert */
    case 714:   /* cudaErrorHardwareStackError */
    case 715:   /* cudaErrorIllegalInstruction */
    case 716:   /* cudaErrorMisalignedAddress */
    case 717:   /* cudaErrorInvalidAddressSpace */
    case 718:   /* cudaErrorInvalidPc */
    case 719:   /* cudaErrorLaunchFailure */
        return 1;
    default:
        return 0;
    }
}

/* Registers per thread of a kernel as ptxas allocates them for the device (cached per PTX text); without ptxas, the
 * virtual registers it declares, capped so that its largest legal block fits. */
int ws_hs_kernel_regs(const ws_device *d, const ws_hs_kernel *k)
{
    int regs = 0;
    size_t smem = 0;
    if (k->ptx && ws_occ_kernel_regs(k->ptx, k->ptx_len, k->name, d, &regs, &smem) == 0) return regs;
    ws_kernel_info info;
    ws_kernel_get_info(k->k, &info);
    regs = info.ptx_regs;
    if (regs > d->max_regs_per_thread) regs = d->max_regs_per_thread;
    /* ptxas always fits the kernel's largest legal block (.maxntid, else the device's limit) in a block's registers:
     * so must the estimate, or an occupancy query would say 0 blocks for a kernel that launches */
    int maxt = info.max_threads > 0 && info.max_threads < d->max_threads_per_block ? info.max_threads
                                                                                  : d->max_threads_per_block;
    int fit = maxt > 0 ? d->max_regs_per_block / ((maxt + 31) / 32 * 32) / 8 * 8 : regs;
    if (fit > 0 && regs > fit) regs = fit;
    return regs < 16 ? 16 : regs;
}

/* Timing mode: give the kernel's module the SASS counts ptxas reports for the device (once per module and
 * architecture; without ptxas or its line table the timing model counts PTX instructions). */
static void kernel_sass(const ws_device *d, const ws_hs_kernel *k)
{
    char err[512];
    const ws_ptxas_table *t = k->ptx && ws_hs_tm() ? ws_occ_ptxas_table(k->ptx, k->ptx_len, d, err, sizeof err) : NULL;
    for (int i = 0; t && i < t->nsass; i++) {
        const ws_sass_fn *f = &t->sass[i];
        ws_sass_order order = { f->ni, f->iline, f->iblock, f->ianchor, f->idepth };
        ws_kernel_set_sass(k->k, t->arch, f->name, f->line, f->count, f->n, &order);
    }
}

/* Launch the grids a finished grid launched on the device (dynamic parallelism): as CDP2 allows, each starts
 * after its parent grid finished; non-tail children in the order they were launched (launching block, thread,
 * order of launch), each with all its own descendants (depth first), then the tail launches in their order. Each
 * is a launch of its own on the parent's queue (report, timeline, simulated clock), without host overhead. A
 * grid that faulted starts none of its children. */
static void run_children(ws_gpu *g, const ws_hs_kernel *parent, long parent_index, int ok, ws_hs_queue *q)
{
    ws_child_launch *c = NULL;
    int n = ws_gpu_children(g, &c);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            if (c[i].tail != pass) continue;
            if (ok && !ws_hs_fault_pending()) {
                ws_kernel_info info;
                ws_kernel_get_info(c[i].k, &info);
                void **args = calloc((size_t)info.nparams + 1, sizeof *args);
                for (int a = 0; args && a < info.nparams; a++) args[a] = c[i].params + info.param_offset[a];
                ws_hs_kernel ck = { (ws_kernel *)c[i].k, info.name, parent->ptx, parent->ptx_len, -1, 0, 0,
                                    c[i].cfg.depth, parent_index, { 0, 0, 0 } };
                int r = args ? ws_hs_launch(&ck, c[i].cfg.grid, c[i].cfg.block, c[i].cfg.dyn_smem, args, q, 0, NULL)
                             : WS_ERR_MEMORY_ALLOCATION;
                free(args);
                if (r != WS_OK) {
                    /* the device runtime accepted it, so a GPU would have run it: never drop it silently */
                    const char *name = ws_hs_error_name(r);
                    fprintf(stderr, "warpsim: the device-side launch of %s could not run (%s)\n", info.name,
                            name ? name : "error");
                    ws_hs_fault(WS_ERR_LAUNCH_FAILURE);
                }
            }
            ws_gpu_child_done(g, &c[i]);
        }
    free(c);
}

/* Launch k now. */
int ws_hs_launch(const ws_hs_kernel *k, ws_dim3 grid, ws_dim3 block, size_t smem, void **args, ws_hs_queue *q,
                 double host_cost, ws_launch_stats *out)
{
    int err = WS_OK;
    ws_gpu *g = ws_hs_gpu(&err);
    if (!g) return err;
    const ws_device *d = ws_gpu_device(g);
    ws_launch_stats st;
    memset(&st, 0, sizeof st);
    /* theoretical occupancy, for every launch in every mode: the residency the engines schedule with (functional
     * results of blocks that wait on each other depend on it) and the report's figures */
    ws_kernel_info info;
    ws_kernel_get_info(k->k, &info);
    ws_occ_opts opts = ws_occ_default_opts();
    opts.carveout_pct = k->carveout;
    opts.smem_optin = k->smem_optin;
    ws_occ_result occ;
    memset(&occ, 0, sizeof occ);
    long long nb = (long long)grid.x * grid.y * grid.z;
    int have_occ = ws_occ_compute_ex(d, (int)(block.x * block.y * block.z), ws_hs_kernel_regs(d, k),
                                     info.static_smem + smem, nb, &opts, &occ) == 0 && occ.ok;
    ws_launch_config cfg = { grid, block, smem, have_occ ? occ.blocks_per_sm : 0, k->cooperative, k->depth, k->cluster };
    kernel_sass(d, k);
    /* a cooperative grid runs only when all its blocks can be resident at once (as the occupancy calculator says);
     * a bad block shape is the core's configuration error first */
    int shape_ok = (uint64_t)block.x * block.y * block.z <= (uint64_t)d->max_threads_per_block;
    if (k->cooperative && shape_ok && (!have_occ || nb > (long long)occ.blocks_per_sm * d->sm_count)) {
        if (!ws_hs_quiet())
            fprintf(stderr, "warpsim: cooperative launch of %s: %lld blocks cannot be co-resident (%d per SM x %d SMs)\n",
                    k->name, nb, have_occ ? occ.blocks_per_sm : 0, d->sm_count);
        return WS_ERR_COOPERATIVE_TOO_LARGE;
    }
    int tl = ws_hs_tl_on();
    double t0 = tl ? ws_hs_tl_now() : 0;
    ws_hs_progress_begin(k->name, (uint64_t)nb);
    ws_hs_um_launch_begin();   /* timing mode, managed memory: CPU faults so far priced, pages unprotected */
    int r = ws_launch(g, k->k, &cfg, args, &st);
    ws_hs_progress_end();
    ws_tm *tm = ws_hs_tm();
    int ran = r == WS_OK || ws_hs_is_fault(r);
    long index = -1;
    if (ran)
        index = ws_hs_report_launch(k->name, grid, block, smem, r, &st, have_occ ? &occ : NULL,
                                    tm ? ws_tm_last(tm) : NULL);
    if (ran && k->depth > 0) ws_hs_report_parent(index, k->depth, k->parent);
    if (ran) {
        uint64_t cf, cb;
        ws_hs_um_launch_cpu(&cf, &cb);
        ws_hs_report_um(index, cf, cb);
    }
    double kt0 = 0, kt1 = 0;
    if (tm && r == WS_OK) {
        ws_hs_clock_kernel(q, ws_tm_last(tm)->duration_ns * 1e-9, host_cost);
        ws_hs_clock_last(&kt0, &kt1);
    }
    ws_hs_um_launch_end(q ? q->id : 0, kt0, tm && r == WS_OK);
    if (tl && ran) {
        /* the timeline: the simulated interval in timing mode, else the wall time the simulation took */
        double t1 = ws_hs_tl_now();
        if (tm && r == WS_OK) ws_hs_clock_last(&t0, &t1);
        else if (tm) t0 = t1;
        ws_hs_tl_kernel(k->name, grid, block, q ? q->id : 0, index, t0, t1);
    }
    if (out) *out = st;
    run_children(g, k, index, r == WS_OK, q);
    if (r == WS_OK) return WS_OK;
    if (ws_hs_is_fault(r)) {
        if (!ws_hs_quiet()) {
            const char *name = ws_hs_error_name(r);
            fprintf(stderr, "warpsim: kernel %s faulted: %s\n", k->name, st.error[0] ? st.error : name ? name : "fault");
        }
        ws_hs_fault(r);
        return WS_OK;   /* reported by the next synchronizing call, as a GPU does */
    }
    return r;
}
