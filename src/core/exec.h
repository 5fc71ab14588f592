/* exec.h - the SIMT executor's state: linked modules and kernels, warps, blocks, launches and the GPU, plus the
 * services the instruction handlers and the engines use. The decoded program it runs is src/ptx/insn.h's. */
#ifndef WS_EXEC_H
#define WS_EXEC_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "sim.h"
#include "../ptx/insn.h"
#include "../mem/mem.h"

#define WS_LANES 32            /* register stride: lanes per warp slot (presets may use fewer) */

/* A module linked to a GPU: the parsed PTX (owned), where its symbols live, its shared-memory layout, and its
 * kernels. funcs/files alias the parsed module's so that the executor reads one structure. */
struct ws_module {
    ws_gpu *gpu;
    ws_ptx_module *ptx;
    char *origin;                /* = ptx->origin */
    ws_func *funcs;              /* = ptx->funcs */
    int nfuncs;
    char **files;                /* = ptx->files: .file names by index */
    int nfiles;
    uint64_t *sym_addr;          /* per symbol: device address (global/const) or offset in a block's shared memory */
    size_t shared_module_bytes;  /* module-level .shared variables (laid out first in every block) */
    size_t dyn_base;             /* offset of dynamic shared memory in every block of this module */
    size_t dyn_align;            /* alignment of the dynamic shared region */
    uint64_t sreg_used;          /* bit k: some instruction reads or writes special-register operand k */
    int sr_lo;                   /* the lowest special register of sreg_used: register windows start at its row */
    int cluster_barrier;         /* some instruction is a barrier.cluster (a launch without clusters makes every
                                  * block a cluster of one) */
    ws_kernel *kernels;          /* one per entry */
    int nkernels;
};

struct ws_kernel {
    ws_module *mod;
    int func;                    /* index of the entry function */
    size_t max_dyn_smem;         /* opt-in limit set by cudaFuncSetAttribute */
    int cluster_nonportable;     /* cudaFuncAttributeNonPortableClusterSizeAllowed */
};

/* SIMT reconvergence stack entry: a path (lanes running from pc until they reach rpc) or, when token is set, the
 * reconvergence point of the paths above it (pc = their rpc, mask = all their lanes). Independent thread scheduling
 * (warp.c): spins counts the backward branches a path took since it last got the top; wait marks a path stopped at
 * a __syncwarp (bar.warp.sync) until the lanes of need have arrived at one too. */
typedef struct ws_stk { int32_t pc, rpc; uint32_t mask, need; uint16_t spins; uint8_t token, wait; } ws_stk;

/* call frame */
typedef struct ws_frame {
    const ws_func *fn;       /* caller */
    size_t regs_off;         /* caller's register window (offset of its storage in the register stack: ws_warp_win) */
    uint32_t caller_local;   /* caller's local frame base */
    int stk_base;            /* index of the callee's first stack entry */
    const ws_insn *call;     /* the call instruction (for return values) */
    uint32_t ret_mask;       /* lanes that have returned */
} ws_frame;

/* warp states; WS_W_YIELD: a warp of a cooperative launch that read a flag (a synchronizing load, as a grid barrier
 * spins on) gives the other blocks a turn before it goes on (functional engine) */
enum { WS_W_RUN, WS_W_BAR, WS_W_DONE, WS_W_FAULT, WS_W_YIELD };
#define WS_COOP_WS_BYTES 16      /* a cooperative grid's workspace: the grid barrier's counter lives at offset 4 */

struct ws_block;
struct ws_run;
struct ws_rec;

/* a shuffle's lane map for lane and clamp operands b and c that are the same in every lane (warp.c): each lane's
 * source lane and the in-range bits, for the warp's lanes full */
typedef struct ws_shfl_map { uint32_t b, c, full, ok; uint8_t sub, valid; int8_t j[32]; } ws_shfl_map;
#define WS_SHFL_MAPS 8           /* lane maps a warp keeps */

#define WS_WARP_ALIGN 64         /* a host cache line: blocks' warp arrays are allocated at this alignment */
struct ws_warp {
    /* what every instruction reads or writes, in the first 64 bytes (the timing model steps thousands of warps in
     * turn, so each issue begins with this line missing from the host's caches) */
    _Alignas(WS_WARP_ALIGN) uint64_t *regs;   /* current frame's register window: regs[slot * WS_LANES + lane] */
    const ws_insn *code;     /* current function's code */
    const ws_func *fn;
    ws_stk *stk;
    struct ws_run *L;
    uint64_t ninst, nthread;
    int sp;
    int state;
    int stk_cap;
    uint32_t full;           /* lanes that exist in this warp */
    uint32_t exited;         /* lanes that have exited */
    int bar_id;              /* barrier the warp waits at */
    uint32_t local_base;     /* current frame base in local space */
    uint8_t *local;          /* WS_LANES * local_stride bytes */
    ws_frame *frames;
    int nframes, frames_cap;
    uint64_t *reg_stack;     /* all register windows */
    size_t reg_stack_slots;
    int warp_in_block;
    struct ws_block *blk;
    uint64_t gb_ninst;       /* cooperative launch: ninst when the warp last read the grid barrier's counter */
    struct ws_asyncq *async; /* cp.async copies not yet visible (timing mode; ops_async.c), or NULL */
    /* cp.async.bulk (ops_bulk.c): the global footprint of its last copy (runs: address, bytes) for the timing
     * engine, and that copy's place in its destination block's queue */
    uint64_t *bulk_runs;
    int bulk_nruns, bulk_runs_cap, bulk_write;
    /* cp.async (ops_async.c, timing mode): its last copy's global source per lane and the lanes that read global
     * memory (src-size > 0), for the timing engine's L1/L2/DRAM accounting of the data it brings in */
    uint64_t cp_src[32];
    uint32_t cp_lanes;
    struct ws_block *bulk_last_blk;
    int bulk_last_seq;
    uint32_t cl_phase;       /* barrier.cluster: the cluster barrier phase the warp arrived in */
    uint8_t cl_arrived;      /* barrier.cluster: arrived and not yet waited */
    ws_shfl_map shfl_maps[WS_SHFL_MAPS];   /* recent uniform shuffles' lane maps (warp.c) */
    uint8_t rows_ready;      /* its register file holds the launch's block-independent special registers and the
                              * constants (a warp slot reused within a launch; launch.c) */
};

#define WS_BAR_CLUSTER 16        /* bar_id of a warp waiting at barrier.cluster.wait (blocks have barriers 0-15) */
#define WS_DSMEM_SHIFT 24        /* a shared::cluster address: ((rank + 1) << WS_DSMEM_SHIFT) | offset; below
                                  * 1 << WS_DSMEM_SHIFT, the block's own shared memory (shared::cta) */

/* A thread block cluster of a launch: its blocks (by rank), resident together, and its barrier. */
typedef struct ws_cluster {
    struct ws_block *blk[WS_CLUSTER_MAX_NONPORTABLE];
    int size;                /* blocks per cluster */
    int n;                   /* blocks started so far (= size once it is whole) */
    int nretired;            /* blocks retired */
    ws_dim3 id;              /* %clusterid */
    uint64_t arrived;        /* threads arrived at the barrier in this phase */
    uint32_t phase;          /* completed barrier phases */
    int in_use;
} ws_cluster;

typedef struct ws_block {
    ws_dim3 id;
    uint8_t *smem;
    size_t smem_size;
    ws_warp *warps;
    int nwarps;
    int live_warps;          /* warps not yet done */
    int bar_count[16];       /* warps arrived at each barrier */
    int bar_expect[16];      /* warps expected (0: all live warps) */
    uint32_t bar_red[16];    /* bar.red accumulators */
    int done;
    int grid_spins;          /* cooperative launch: warps that yielded reading the grid barrier in this visit */
    int grid_wait;           /* the last visit ended with every live warp waiting on the grid barrier */
    int in_use;              /* pool entry holds a started block */
    uint64_t linear;         /* grid-linear block index */
    int sm;                  /* SM the timing engine placed it on */
    const uint64_t *clock;   /* timing: the current cycle of that SM (the engine's; NULL: the launch's) */
    void *user;              /* per-block data for engines and observers */
    ws_cluster *cl;          /* its thread block cluster, NULL outside cluster launches */
    struct ws_bulkq *bulk;   /* bulk copies on their way to its shared memory (timing mode; ops_bulk.c) */
    int cl_rank;             /* %cluster_ctarank */
    size_t smem_cap;         /* bytes smem holds (at least smem_size + 16) */
    size_t local_stride;     /* the local_stride its warps' local memory was made for */
} ws_block;

#define WS_MAX_OBSERVERS 8

typedef struct ws_run {
    ws_gpu *gpu;
    const ws_module *mod;
    const ws_func *entry;
    ws_launch_config cfg;    /* the launch configuration (grid, block, dynamic shared memory, residency) */
    ws_dim3 grid, block;     /* = cfg.grid, cfg.block */
    size_t dyn_smem;         /* = cfg.dyn_smem */
    uint8_t *params;         /* kernel parameter buffer */
    size_t local_stride;     /* bytes of local memory per thread */
    int warp_size;
    int its;                 /* independent thread scheduling (!ws_options.simt_stack) */
    uint64_t *tid_rows;      /* %tid.x/y/z of every warp of a block: rows [warp * 3 + dim][lane] (warp_init copies) */
    int warps_per_block;
    uint8_t *gstore;         /* global arena store */
    uint64_t glimit;         /* bytes of arena in use */
    uint64_t gbase;          /* first address of the arena (the device's global range) */
    int fault;               /* first fault's status code */
    char fault_msg[512];
    FILE *printf_out;
    uint64_t ninst, nthread;
    uint64_t max_inst;
    uint64_t coop_ws;                /* cooperative launch: device address of the grid barrier's workspace, else 0 */
    const struct ws_observer *obs[WS_MAX_OBSERVERS];   /* observers of this launch */
    int nobs;
    void *user;                      /* per-launch data for observers */
    int timed;                       /* a timing engine runs the launch: `cycle` is the simulated SM clock */
    /* the timing engine's say over instructions that touch global memory (WS_IF_GMEM), asked after their record is
     * filled and before they execute (NULL: they execute): WS_GATE_* */
    int (*gate)(void *ctx, ws_warp *w, struct ws_rec *r);
    void *gate_ctx;
    uint64_t cycle;
    /* block scheduling */
    uint64_t nblocks, next;          /* blocks in the grid, next to start */
    uint64_t retired;                /* blocks that finished */
    uint64_t *order;                 /* shuffled order (--block-order=random) or NULL */
    int blocks_per_sm;               /* resident blocks per SM (the launch configuration's, or the core's estimate) */
    uint64_t resident;               /* blocks the functional engine keeps resident at most */
    size_t smem_bytes;               /* shared memory per block */
    ws_block **pool;                 /* block storage, reused */
    int npool, pool_cap;
    ws_block **free_blocks;          /* pool entries not in use (a stack) */
    int nfree;
    /* thread block clusters: shape (0 0 0 outside cluster launches), blocks per cluster, the clusters started */
    ws_dim3 cluster;
    int cluster_size;
    int explicit_cluster;
    ws_cluster **clusters;           /* cluster storage, reused */
    int nclusters, clusters_cap;
    ws_cluster *cl_open;             /* the cluster whose blocks are being started */
} ws_run;

/* Row 0 of a register window whose storage starts at p with row lo (its module's sr_lo: no instruction reads or
 * writes a row below it, so a window keeps rows lo..nregs-1 only). The rows below lo lie outside the storage and
 * are never touched; the address is formed without pointer arithmetic outside it. */
static inline uint64_t *ws_rows_at(uint64_t *p, int lo)
{
    return (uint64_t *)((uintptr_t)p - (uintptr_t)lo * WS_LANES * sizeof *p);
}

/* ws_rows_at for a checker's 32-bit shadow of the rows. */
static inline uint32_t *ws_rows_at32(uint32_t *p, int lo)
{
    return (uint32_t *)((uintptr_t)p - (uintptr_t)lo * WS_LANES * sizeof *p);
}

/* The offset in w's register stack of its current window's storage (row sr_lo). */
static inline size_t ws_warp_win(const ws_warp *w)
{
    uintptr_t first = (uintptr_t)w->regs + (uintptr_t)w->L->mod->sr_lo * WS_LANES * sizeof *w->regs;   /* row sr_lo */
    return (first - (uintptr_t)w->reg_stack) / sizeof *w->regs;
}

/* Slots of a register window of function f in module m. */
static inline size_t ws_win_slots(const ws_module *m, const ws_func *f)
{
    return (size_t)(f->nregs - m->sr_lo) * WS_LANES;
}

/* The simulated cycle warp w's SM is at (timing mode: each SM keeps its own clock while it runs ahead). */
static inline uint64_t ws_warp_now(const ws_warp *w)
{
    return w->blk->clock ? *w->blk->clock : w->L->cycle;
}

/* What a gate says of an instruction: execute it now; leave it to the engine (nothing happened: ws_warp_step returns
 * WS_STEP_DEFERRED); or the engine took its effect over (it counts as executed, its handler does not run). */
enum { WS_GATE_RUN, WS_GATE_DEFER, WS_GATE_TAKEN };
#define WS_STEP_DEFERRED 2

/* An engine runs a launch's blocks (the functional scheduler, or the timing model). */
typedef void (*ws_engine_fn)(void *ctx, ws_run *L);

struct ws_observer;
struct ws_gpu {
    const ws_device *dev;
    ws_options opt;
    const struct ws_observer *obs[WS_MAX_OBSERVERS];   /* instrumentation (checkers, tracers) */
    int nobs;
    void (*engine)(void *ctx, struct ws_run *L);   /* timing engine, or NULL for the functional one */
    void *engine_ctx;
    ws_tex_lookup_fn tex_lookup;     /* texture/surface objects (ws_gpu_set_tex_lookup), or NULL */
    void *tex_ctx;
    ws_progress_fn progress;         /* progress callback of launches, or NULL */
    void *progress_ctx;
    ws_mem *mem;
    ws_module **mods;
    int nmods;
    struct ws_cdp *cdp;              /* dynamic parallelism: device-side launches (cdp.c), NULL until first used */
    struct ws_regpool *regs;         /* the warps' register files (regpool.c), NULL until first used */
    struct ws_block **spare;         /* block storage of the last launch, for the next ones (launch.c): a launch
                                      * reuses it instead of allocating and faulting in fresh pages */
    int nspare, spare_cap;
};

/* --- executor services used by handlers --- */
/* Apply atom/red in's operation with operands b, c to the value at p; returns the old value (ops_mem.c). */
uint64_t ws_atomic_apply(const ws_insn *in, uint8_t *p, uint64_t b, uint64_t c);
/* Record a fault for the launch and stop the warp. */
void ws_fault(ws_warp *w, const ws_insn *in, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Host pointer for a generic/global address, NULL when not mapped (slow path). */
void *ws_xlate_slow(ws_warp *w, uint64_t addr, unsigned size, int lane);
/* Free the block storage kept between launches (ws_gpu_destroy). */
void ws_gpu_free_spare(ws_gpu *g);
/* Remove lanes from the warp (exit / return from the entry function). */
void ws_warp_exit_lanes(ws_warp *w, uint32_t lanes);
/* Return lanes from the current function. */
void ws_warp_return(ws_warp *w, uint32_t lanes);
/* Pop the top stack entry at its reconvergence point. */
void ws_warp_pop(ws_warp *w);
/* Engine services (launch.c, engine.c): start/retire blocks, pick the next block, step one warp instruction. */
struct ws_rec;
ws_block *ws_run_block_start(ws_run *L, uint64_t lin);
/* ws_run_block_start in two parts: the placement (on the launch's own state, in order) and the block's register rows
 * and shared memory (touching the block alone: any thread, before an instruction of it runs). Only where nothing
 * observes the launch (block_begin comes from ws_run_block_start alone). */
ws_block *ws_run_block_place(ws_run *L, uint64_t lin);
void ws_run_block_rows(ws_run *L, ws_block *b);
void ws_run_block_retire(ws_run *L, ws_block *b);
int64_t ws_run_next_block(ws_run *L);
int ws_warp_step(ws_warp *w, struct ws_rec *r);
/* Whether a cooperative grid's barrier can never complete (checked every so often by the timing engine): twice
 * running, every live warp is in the grid barrier's spin loop or waits at a block barrier, and the barrier's
 * counter did not change. *armed and *last carry the previous check's state. */
int ws_run_grid_stuck(ws_run *L, int *armed, uint32_t *last);
/* Report progress to the GPU's progress callback, if any (engines call it every so often). */
void ws_run_progress(ws_run *L);
/* Fault L when its warps have executed more instructions than --max-instructions allows. */
void ws_run_watchdog(ws_run *L);
/* Thread block clusters (cluster.c): the cluster shape of a launch of k (0 0 0: none) or CUDA's error for it; set
 * up a launch's clusters and their block order (cluster_order: the clusters' order, NULL for grid order); put a
 * starting block into its cluster; whether block b's whole cluster finished (b's own state outside clusters); a
 * block was retired; release the cluster storage; a cluster special register's value; the host pointer of a
 * shared::cluster access (NULL when outside the cluster or its blocks' shared memory); re-check the barrier of
 * b's cluster (a warp finished). */
int ws_cluster_shape(const ws_gpu *g, const ws_kernel *k, const ws_launch_config *cfg, ws_dim3 *out);
int ws_cluster_setup(ws_run *L, ws_dim3 shape, const uint64_t *cluster_order);
void ws_cluster_join(ws_run *L, ws_block *b);
int ws_cluster_done(const ws_block *b);
void ws_cluster_retired(ws_block *b);
void ws_cluster_free(ws_run *L);
uint64_t ws_cluster_sreg(const ws_run *L, const ws_block *b, int sr);
uint8_t *ws_dsmem_ptr(ws_warp *w, uint64_t addr, unsigned size);
void ws_cluster_barrier_check(ws_block *b);
/* Bulk copies (ops_bulk.c): the handler; land the copies to block b that arrived by cycle now; drop them; the
 * arrival cycle of the warp's last copy (the timing engine); an mbarrier's completed transaction bytes
 * (ops_async.c). */
ws_handler ws_bulk_handler(const ws_insn *in);
/* wgmma's handlers (ops_wgmma.c). */
ws_handler ws_wgmma_handler(const ws_insn *in);
void ws_bulk_land(ws_warp *w, ws_block *b, uint64_t now);
void ws_bulk_free(ws_block *b);
void ws_bulk_set_ready(ws_warp *w, uint64_t cycle);
void ws_mbar_complete_tx(uint8_t *mbar, uint32_t bytes);
/* Handlers of the cluster instructions (mapa, barrier.cluster) and elect.sync, setmaxnreg (cluster.c). */
ws_handler ws_cluster_handler(const ws_insn *in);
/* Run launch L with the functional engine (engine.c). */
void ws_functional_engine(ws_run *L);
void ws_gpu_set_engine(ws_gpu *g, ws_engine_fn fn, void *ctx);
/* Handlers by family (ops_alu.c, ops_mem.c, warp.c). */
ws_handler ws_alu_handler(const ws_insn *in);
ws_handler ws_mem_handler(const ws_insn *in);
ws_handler ws_ctl_handler(const ws_insn *in);
/* Tensor-core and matrix-move handlers (ops_mma.c), async-copy and mbarrier handlers (ops_async.c). */
ws_handler ws_mma_handler(const ws_insn *in);
/* compare the fast float mma with its per-output reference on random operands (tests/unit/test_mma.c) */
int ws_mx_selftest(unsigned seed, int rounds, char *err, size_t errlen);
ws_handler ws_async_handler(const ws_insn *in);
/* Address and size of element i of lane l of a wmma.load/store (the checkers'); 0 past the last element. */
unsigned ws_mma_elem_addr(ws_warp *w, const ws_insn *in, int l, int i, uint64_t *addr);
/* Drop a warp's pending asynchronous copies (a fresh start) / free them (ops_async.c). */
void ws_async_reset(ws_warp *w);
void ws_async_free(ws_warp *w);
ws_handler ws_tex_handler(const ws_insn *in);
/* Fill the memory part of a texture/surface instruction's record: each lane's first texel (ops_tex.c). */
void ws_tex_rec_fill(ws_warp *w, const ws_insn *in, uint32_t mask, struct ws_rec *r);
/* Choose the handler for a decoded instruction; NULL if the combination is unsupported. */
ws_handler ws_select_handler(const ws_insn *in);
/* Print device printf output for the active lanes of a vprintf call (printf.c). */
void ws_vprintf(ws_warp *w, const ws_insn *in, uint32_t mask);
/* Offsets and sizes in the packed argument buffer of lane l's printf arguments (up to max); their number. */
int ws_printf_args(ws_warp *w, int l, uint64_t fmt_addr, uint32_t *off, uint8_t *size, int max);
/* __assertfail(message, file, line, function, charSize): print the assertion and fault the launch (printf.c). */
void ws_assert_fail(ws_warp *w, const ws_insn *in, uint32_t mask);
/* A device-runtime (CDP2) built-in called by the active lanes, in lane order (cdp.c). */
void ws_cdp_call(ws_warp *w, const ws_insn *in, uint32_t mask);
/* Free g's dynamic-parallelism state (cdp.c). */
void ws_cdp_free(ws_gpu *g);
/* Link a parsed module to GPU g (load.c): allocate and initialise its variables, lay out shared memory, resolve
 * relocations, bind handlers. Takes ownership of p (freed on failure too). NULL with a message on failure. */
ws_module *ws_module_link(ws_gpu *g, ws_ptx_module *p, char *err, size_t errlen);
/* Free a linked module (its variables stay allocated with the GPU's memory). */
void ws_module_free(ws_module *m);

/* The lane that lane l of a shfl.sync reads (b: its lane or delta operand, c: its clamp and segment mask), as
 * the PTX ISA defines it; *ok: whether that lane is in range (the instruction's predicate). Out of range, or a
 * lane the warp does not have: lane l itself. One definition for the handler and the checks. */
static inline int ws_shfl_lane(const ws_warp *w, const ws_insn *in, int l, uint32_t bval, uint32_t cval, int *ok)
{
    bval &= 31;
    uint32_t clamp = cval & 31, seg = (cval >> 8) & 31;
    uint32_t maxl = ((uint32_t)l & seg) | (clamp & ~seg), minl = (uint32_t)l & seg;
    int32_t j;
    int in_range;
    switch (in->sub) {
    case WS_SUB_UP: j = l - (int32_t)bval; in_range = j >= (int32_t)maxl; break;
    case WS_SUB_DOWN: j = l + (int32_t)bval; in_range = j <= (int32_t)maxl; break;
    case WS_SUB_BFLY: j = l ^ (int32_t)bval; in_range = j <= (int32_t)maxl; break;
    default: j = (int32_t)(minl | (bval & ~seg)); in_range = j <= (int32_t)maxl; break;
    }
    if (j >= w->L->warp_size || j < 0) in_range = 0;
    if (!in_range) j = l;
    if (!(w->full >> j & 1)) j = l;
    *ok = in_range;
    return j;
}

#endif
