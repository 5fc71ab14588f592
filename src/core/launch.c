/* launch.c - a kernel launch: configuration checks, residency, block order, block storage and warp setup, and
 * the faults handlers raise. The engines (engine.c, src/timing) run the blocks. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ops.h"
#include "regpool.h"
#include "observe.h"

/* Record a fault for the launch and stop the warp. */
void ws_fault(ws_warp *w, const ws_insn *in, int code, const char *fmt, ...)
{
    ws_run *L = w->L;
    w->state = WS_W_FAULT;
    if (L->fault) return;
    L->fault = code;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *file = NULL;
    if (in && in->line && in->file < (unsigned)L->mod->nfiles) file = L->mod->files[in->file];
    if (file)
        snprintf(L->fault_msg, sizeof L->fault_msg, "%s in %s at %s:%u", msg, w->fn->name, file, in->line);
    else
        snprintf(L->fault_msg, sizeof L->fault_msg, "%s in %s (PTX line %u)", msg, w->fn->name, in ? in->ptx_line : 0);
}

/* Host pointer for a generic/global address outside the arena fast path, NULL when not mapped. */
void *ws_xlate_slow(ws_warp *w, uint64_t addr, unsigned size, int lane)
{
    ws_run *L = w->L;
    uint64_t off = addr - L->gbase;
    if (off < L->glimit && off + size <= L->glimit) return L->gstore + off;
    off = addr - WS_SHARED_WIN;
    if (off < WS_WIN_SPAN) return ws_dsmem_ptr(w, off, size);   /* its block's, or a cluster partner's */
    off = addr - WS_LOCAL_WIN;
    if (off < WS_WIN_SPAN) return off + size <= L->local_stride ? w->local + (size_t)lane * L->local_stride + off : NULL;
    off = addr - WS_PARAM_WIN;   /* a kernel parameter's generic address (read-only: stores reach it too) */
    if (off < WS_WIN_SPAN) return off + size <= L->entry->param_bytes ? L->params + off : NULL;
    return ws_mem_view_slow(L->gpu->mem, addr, size);
}

/* Decompose a linear block index into grid coordinates. */
static ws_dim3 block_coords(ws_dim3 grid, uint64_t i)
{
    ws_dim3 b;
    b.x = (unsigned)(i % grid.x);
    b.y = (unsigned)((i / grid.x) % grid.y);
    b.z = (unsigned)(i / ((uint64_t)grid.x * grid.y));
    return b;
}

/* The %tid.x/y/z rows of every warp of a block, computed once per launch (the same in every block). */
static uint64_t *tid_rows_make(const ws_run *L)
{
    uint64_t *t = malloc(sizeof *t * (size_t)L->warps_per_block * 3 * WS_LANES);
    if (!t) return NULL;
    for (int wi = 0; wi < L->warps_per_block; wi++)
        for (int l = 0; l < WS_LANES; l++) {
            unsigned i = (unsigned)(wi * L->warp_size + l);
            uint64_t *r = t + (size_t)wi * 3 * WS_LANES + (size_t)l;
            r[0] = i % L->block.x;
            r[WS_LANES] = (i / L->block.x) % L->block.y;
            r[2 * WS_LANES] = i / (L->block.x * L->block.y);
        }
    return t;
}

/* The special registers whose values differ from block to block of a launch (or that the program writes: the sink
 * and the carry), set at every block start; the others are set once per warp slot of the launch. */
#define WS_SR_BIT(k) (1ull << (k))
#define WS_SR_PER_BLOCK (WS_SR_BIT(WS_SR_CTAID_X) | WS_SR_BIT(WS_SR_CTAID_Y) | WS_SR_BIT(WS_SR_CTAID_Z) | \
    WS_SR_BIT(WS_SR_SMID) | WS_SR_BIT(WS_SR_SINK) | WS_SR_BIT(WS_SR_CARRY) | \
    (((WS_SR_BIT(WS_SR_IS_EXPLICIT_CLUSTER) << 1) - 1) & ~(WS_SR_BIT(WS_SR_CLUSTERID_X) - 1)))

/* Prepare warp wi of block b for a fresh start: its control state (its register rows are warp_rows'). */
static void warp_init(ws_run *L, ws_block *b, int wi)
{
    ws_warp *w = &b->warps[wi];
    const ws_func *f = L->entry;
    unsigned threads = L->block.x * L->block.y * L->block.z;
    int ws = L->warp_size;
    unsigned first = (unsigned)wi * (unsigned)ws;
    unsigned lanes = threads - first < (unsigned)ws ? threads - first : (unsigned)ws;
    w->full = lanes >= 32 ? 0xffffffffu : ((1u << lanes) - 1);
    w->exited = 0;
    w->gb_ninst = 0;
    w->cl_arrived = 0;
    w->cl_phase = 0;
    w->bulk_nruns = 0;
    w->bulk_last_blk = NULL;
    w->bulk_last_seq = -1;
    w->state = WS_W_RUN;
    ws_async_reset(w);
    w->sp = 0;
    w->nframes = 0;
    w->fn = f;
    w->code = f->code;
    w->regs = ws_rows_at(w->reg_stack, L->mod->sr_lo);
    w->local_base = 0;
    w->warp_in_block = wi;
    w->blk = b;
    w->L = L;
    if (!w->stk_cap) { w->stk_cap = 16; w->stk = malloc(sizeof *w->stk * 16); }
    w->stk[w->sp++] = (ws_stk){ .pc = 0, .rpc = -1, .mask = w->full };
}

/* Set warp wi of block b's special-register rows (b is block number linear_block) and constant rows. */
static void warp_rows(ws_run *L, ws_block *b, int wi, uint64_t linear_block)
{
    ws_warp *w = &b->warps[wi];
    const ws_func *f = L->entry;
    uint64_t *R = w->regs;
    const ws_device *dev = L->gpu->dev;
    /* only the special registers some function of the module reads (thread and block ids always: reports use them);
     * a warp slot that ran a block of this launch before keeps the rows that are the same in every block (nothing
     * writes special registers but the sink and the carry, nor constants), so only the block's own rows are set */
    uint64_t used = L->mod->sreg_used;
    if (w->rows_ready) used &= WS_SR_PER_BLOCK;
    for (; used; used &= used - 1) {
        int k = __builtin_ctzll(used);
        uint64_t *row = R + (size_t)k * WS_LANES, v;
        switch (k) {
        case WS_SR_TID_X: case WS_SR_TID_Y: case WS_SR_TID_Z:
            memcpy(row, L->tid_rows + ((size_t)wi * 3 + (size_t)(k - WS_SR_TID_X)) * WS_LANES, sizeof *row * WS_LANES);
            continue;
        case WS_SR_LANEID: for (int l = 0; l < WS_LANES; l++) row[l] = (unsigned)l; continue;
        case WS_SR_LANEMASK_EQ: for (int l = 0; l < WS_LANES; l++) row[l] = 1u << l; continue;
        case WS_SR_LANEMASK_LT: for (int l = 0; l < WS_LANES; l++) row[l] = (1u << l) - 1; continue;
        case WS_SR_LANEMASK_LE: for (int l = 0; l < WS_LANES; l++) row[l] = l == 31 ? 0xffffffffu : (2u << l) - 1; continue;
        case WS_SR_LANEMASK_GE: for (int l = 0; l < WS_LANES; l++) row[l] = (uint32_t)~((1u << l) - 1); continue;
        case WS_SR_LANEMASK_GT: for (int l = 0; l < WS_LANES; l++) row[l] = l == 31 ? 0 : (uint32_t)~((2u << l) - 1); continue;
        case WS_SR_NTID_X: v = L->block.x; break;
        case WS_SR_NTID_Y: v = L->block.y; break;
        case WS_SR_NTID_Z: v = L->block.z; break;
        case WS_SR_CTAID_X: v = b->id.x; break;
        case WS_SR_CTAID_Y: v = b->id.y; break;
        case WS_SR_CTAID_Z: v = b->id.z; break;
        case WS_SR_NCTAID_X: v = L->grid.x; break;
        case WS_SR_NCTAID_Y: v = L->grid.y; break;
        case WS_SR_NCTAID_Z: v = L->grid.z; break;
        case WS_SR_WARPID: v = (unsigned)wi; break;
        case WS_SR_NWARPID: v = dev ? (unsigned)dev->max_warps_per_sm : 64; break;
        case WS_SR_SMID: v = dev && dev->sm_count ? linear_block % (unsigned)dev->sm_count : 0; break;
        case WS_SR_NSMID: v = dev ? (unsigned)dev->sm_count : 1; break;
        case WS_SR_GRIDID: v = 1; break;
        case WS_SR_DYN_SMEM: v = L->dyn_smem; break;
        case WS_SR_TOTAL_SMEM: v = b->smem_size; break;
        case WS_SR_WARP_SZ: v = (unsigned)L->warp_size; break;
        case WS_SR_ENVREG1: v = L->coop_ws >> 32; break;          /* 0 outside cooperative launches */
        case WS_SR_ENVREG2: v = L->coop_ws & 0xffffffffu; break;
        case WS_SR_CLUSTERID_X: case WS_SR_CLUSTERID_Y: case WS_SR_CLUSTERID_Z: case WS_SR_NCLUSTERID_X:
        case WS_SR_NCLUSTERID_Y: case WS_SR_NCLUSTERID_Z: case WS_SR_CLUSTER_CTAID_X: case WS_SR_CLUSTER_CTAID_Y:
        case WS_SR_CLUSTER_CTAID_Z: case WS_SR_CLUSTER_NCTAID_X: case WS_SR_CLUSTER_NCTAID_Y:
        case WS_SR_CLUSTER_NCTAID_Z: case WS_SR_CLUSTER_CTARANK: case WS_SR_CLUSTER_NCTARANK:
        case WS_SR_IS_EXPLICIT_CLUSTER:
            v = ws_cluster_sreg(L, b, k);
            break;
        default: v = 0; break;   /* SINK, CARRY */
        }
        for (int l = 0; l < WS_LANES; l++) row[l] = v;
    }
    if (w->rows_ready) return;
    for (int k = 0; k < f->nconst; k++) {
        uint64_t v = f->const_val[k], *s = R + (size_t)(f->first_const + k) * WS_LANES;
        for (int l = 0; l < WS_LANES; l++) s[l] = v;
    }
    w->rows_ready = 1;
}

/* Free block b's storage (its register files back to g's pool). */
static void block_free(ws_gpu *g, ws_block *b)
{
    for (int wi = 0; wi < b->nwarps; wi++) {
        ws_warp *w = &b->warps[wi];
        ws_regpool_put(g, w->reg_stack, w->reg_stack_slots);
        free(w->local);
        free(w->stk);
        free(w->frames);
        free(w->bulk_runs);
        ws_async_free(w);
    }
    ws_bulk_free(b);
    free(b->warps);
    free(b->smem);
    free(b);
}

/* Free the block storage kept between launches (ws_gpu_destroy). */
void ws_gpu_free_spare(ws_gpu *g)
{
    for (int i = 0; i < g->nspare; i++) block_free(g, g->spare[i]);
    free(g->spare);
    g->spare = NULL;
    g->nspare = g->spare_cap = 0;
}

/* Keep a finished launch's block b for later launches (of blocks of b's warp count only: others are freed). */
static void block_keep(ws_gpu *g, ws_block *b)
{
    if (g->nspare && g->spare[0]->nwarps != b->nwarps) {
        for (int i = 0; i < g->nspare; i++) block_free(g, g->spare[i]);
        g->nspare = 0;
    }
    if (g->nspare == g->spare_cap) {
        int cap = g->spare_cap ? 2 * g->spare_cap : 64;
        ws_block **p = realloc(g->spare, sizeof *p * (size_t)cap);
        if (!p) { block_free(g, b); return; }
        g->spare = p;
        g->spare_cap = cap;
    }
    for (int wi = 0; wi < b->nwarps; wi++) {
        ws_warp *w = &b->warps[wi];
        ws_async_free(w);
        w->ninst = w->nthread = 0;
        w->rows_ready = 0;   /* the next launch's constants and special registers */
    }
    ws_bulk_free(b);
    b->user = NULL;
    b->clock = NULL;
    b->cl = NULL;
    b->in_use = b->done = 0;
    g->spare[g->nspare++] = b;
}

/* Storage for a block of launch L: a kept one of an earlier launch, or a new empty one, fitted to L (registers, local
 * and shared memory hold what L's blocks use, as a block reused within a launch does); NULL when out of memory. */
static ws_block *block_new(ws_run *L)
{
    ws_gpu *g = L->gpu;
    size_t reg_cap = ws_win_slots(L->mod, L->entry);   /* calls grow it on demand */
    ws_block *b;
    if (g->nspare && g->spare[g->nspare - 1]->nwarps == L->warps_per_block) b = g->spare[--g->nspare];
    else {
        b = calloc(1, sizeof *b);
        if (!b) return NULL;
        b->nwarps = L->warps_per_block;
        /* each warp's first 64 bytes in one host cache line (struct ws_warp) */
        void *p = NULL;
        if (posix_memalign(&p, WS_WARP_ALIGN, sizeof *b->warps * (size_t)b->nwarps)) p = NULL;
        if (!p) { free(b); return NULL; }
        memset(p, 0, sizeof *b->warps * (size_t)b->nwarps);
        b->warps = p;
    }
    if (b->smem_cap < L->smem_bytes + 16) {   /* zeroed by ws_run_block_rows */
        free(b->smem);
        b->smem = malloc(L->smem_bytes + 16);
        b->smem_cap = L->smem_bytes + 16;
    }
    for (int i = 0; i < b->nwarps; i++) {
        ws_warp *w = &b->warps[i];
        if (w->reg_stack_slots < reg_cap) {
            ws_regpool_put(g, w->reg_stack, w->reg_stack_slots);
            w->reg_stack = ws_regpool_get(g, reg_cap);
            w->reg_stack_slots = reg_cap;
        }
        if (b->local_stride != L->local_stride) {   /* a new block: 0, and no local memory yet */
            free(w->local);
            w->local = L->local_stride ? calloc(WS_LANES, L->local_stride) : NULL;
        }
    }
    b->local_stride = L->local_stride;
    return b;
}

/* Place block number `lin` (grid-linear) of the launch in a free pool entry, all but its register rows and shared
 * memory (ws_run_block_rows, before any instruction of it runs); returns it. */
ws_block *ws_run_block_place(ws_run *L, uint64_t lin)
{
    ws_block *b = L->nfree ? L->free_blocks[--L->nfree] : NULL;
    if (!b) {
        if (L->npool == L->pool_cap) {
            L->pool_cap = L->pool_cap ? L->pool_cap * 2 : 16;
            L->pool = realloc(L->pool, sizeof *L->pool * (size_t)L->pool_cap);
        }
        b = block_new(L);
        L->pool[L->npool++] = b;
        L->free_blocks = realloc(L->free_blocks, sizeof *L->free_blocks * (size_t)L->pool_cap);
    }
    b->in_use = 1;
    b->smem_size = L->smem_bytes;
    b->id = block_coords(L->grid, lin);
    b->linear = lin;
    b->live_warps = b->nwarps;
    b->done = 0;
    memset(b->bar_count, 0, sizeof b->bar_count);
    memset(b->bar_expect, 0, sizeof b->bar_expect);
    ws_cluster_join(L, b);
    ws_bulk_free(b);
    for (int i = 0; i < b->nwarps; i++) warp_init(L, b, i);
    return b;
}

/* The rest of placing block b (ws_run_block_place): its warps' special-register and constant rows, its shared
 * memory zeroed. Touches b alone. */
void ws_run_block_rows(ws_run *L, ws_block *b)
{
    memset(b->smem, 0, L->smem_bytes + 16);
    for (int i = 0; i < b->nwarps; i++) warp_rows(L, b, i, b->linear);
}

/* Start block number `lin` (grid-linear) of the launch in a free pool entry; returns it. */
ws_block *ws_run_block_start(ws_run *L, uint64_t lin)
{
    ws_block *b = ws_run_block_place(L, lin);
    ws_run_block_rows(L, b);
    for (int i = 0; i < L->nobs; i++)
        if (L->obs[i]->block_begin) L->obs[i]->block_begin(L->obs[i]->ctx, L, b);
    return b;
}

/* Retire a finished (or abandoned) block: count its instructions and make its storage reusable. */
void ws_run_block_retire(ws_run *L, ws_block *b)
{
    if (b->done) {
        L->retired++;
        for (int i = 0; i < L->nobs; i++)
            if (L->obs[i]->block_end) L->obs[i]->block_end(L->obs[i]->ctx, L, b);
    }
    for (int wi = 0; wi < b->nwarps; wi++) {
        L->ninst += b->warps[wi].ninst;
        L->nthread += b->warps[wi].nthread;
        b->warps[wi].ninst = b->warps[wi].nthread = 0;
    }
    if (b->in_use) L->free_blocks[L->nfree++] = b;
    b->in_use = 0;
    ws_cluster_retired(b);
}

/* Report progress to the GPU's progress callback. */
void ws_run_progress(ws_run *L)
{
    ws_gpu *g = L->gpu;
    if (g->progress)
        g->progress(g->progress_ctx, L->entry->name, L->retired, L->nblocks, L->timed ? L->cycle : 0, L->ninst);
}

/* The watchdog (--max-instructions): fault launch L once its warps, retired and resident, have executed more
 * instructions than allowed. */
void ws_run_watchdog(ws_run *L)
{
    if (!L->max_inst || L->fault) return;
    uint64_t sum = L->ninst;
    for (int i = 0; i < L->npool; i++)
        if (L->pool[i]->in_use) for (int wi = 0; wi < L->pool[i]->nwarps; wi++) sum += L->pool[i]->warps[wi].ninst;
    if (sum > L->max_inst) {
        L->fault = WS_ERR_LAUNCH_TIMEOUT;
        snprintf(L->fault_msg, sizeof L->fault_msg, "watchdog: kernel %s exceeded %llu warp instructions",
                 L->entry->name, (unsigned long long)L->max_inst);
    }
}

/* Next block (grid-linear index) to start, honouring --block-order; -1 when all have started. */
int64_t ws_run_next_block(ws_run *L)
{
    if (L->next >= L->nblocks) return -1;
    uint64_t i = L->next++;
    return (int64_t)(L->order ? L->order[i] : i);
}

/* Monotonic seconds. */
static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* splitmix64 step (deterministic shuffles). */
static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Check a launch configuration the way the CUDA runtime does. */
static int check_config(const ws_gpu *g, const ws_kernel *k, ws_dim3 grid, ws_dim3 block, size_t dyn)
{
    const ws_device *d = g->dev;
    const ws_func *f = &k->mod->funcs[k->func];
    int maxb = d ? d->max_threads_per_block : 1024;
    int bx = d ? d->max_block_dim[0] : 1024, by = d ? d->max_block_dim[1] : 1024, bz = d ? d->max_block_dim[2] : 64;
    /* CUDA 13 reports every bad launch shape as cudaErrorInvalidValue (measured on an H200) */
    if (!block.x || !block.y || !block.z || !grid.x || !grid.y || !grid.z) return WS_ERR_INVALID_VALUE;
    if (block.x > (unsigned)bx || block.y > (unsigned)by || block.z > (unsigned)bz) return WS_ERR_INVALID_VALUE;
    if ((uint64_t)block.x * block.y * block.z > (uint64_t)maxb) return WS_ERR_INVALID_VALUE;
    if (grid.x > 2147483647u || grid.y > 65535u || grid.z > 65535u) return WS_ERR_INVALID_VALUE;
    if (f->maxntid && (int)(block.x * block.y * block.z) > f->maxntid) return WS_ERR_INVALID_VALUE;
    size_t limit = d ? d->smem_per_block : 48 * 1024;
    if (k->max_dyn_smem && f->static_smem + k->max_dyn_smem > limit) limit = f->static_smem + k->max_dyn_smem;
    if (d && limit > d->smem_per_block_optin) limit = d->smem_per_block_optin;
    if (f->static_smem + dyn > limit) return WS_ERR_INVALID_VALUE;
    if (dyn > (d ? d->smem_per_block : 48 * 1024) && dyn > k->max_dyn_smem) return WS_ERR_INVALID_VALUE;
    return WS_OK;
}

/* Blocks per SM a launch may keep resident when the host side did not say: threads and block slots, shared memory
 * (registers unknown here). */
static int estimate_blocks_per_sm(const ws_device *d, unsigned threads, size_t smem)
{
    uint64_t per_sm = d ? (uint64_t)d->max_blocks_per_sm : 16;
    if (d && d->max_threads_per_sm && per_sm > (uint64_t)d->max_threads_per_sm / threads) per_sm = (uint64_t)d->max_threads_per_sm / threads;
    if (d && d->smem_per_sm && smem && per_sm > d->smem_per_sm / smem) per_sm = d->smem_per_sm / smem;
    return per_sm < 1 ? 1 : (int)per_sm;
}

/* Run a kernel to completion. */
int ws_launch(ws_gpu *g, const ws_kernel *k, const ws_launch_config *cfg, void **args, ws_launch_stats *stats)
{
    double t0 = now_sec();
    if (stats) memset(stats, 0, sizeof *stats);
    ws_dim3 grid = cfg->grid, block = cfg->block;
    size_t dyn_smem = cfg->dyn_smem;
    int rc = check_config(g, k, grid, block, dyn_smem);
    if (rc) return rc;
    ws_dim3 cshape;
    rc = ws_cluster_shape(g, k, cfg, &cshape);
    if (rc) return rc;
    const ws_module *mod = k->mod;
    const ws_func *f = &mod->funcs[k->func];
    ws_run L;
    memset(&L, 0, sizeof L);
    L.gpu = g;
    L.mod = mod;
    L.entry = f;
    L.cfg = *cfg;
    L.grid = grid;
    L.block = block;
    L.dyn_smem = dyn_smem;
    L.warp_size = g->dev && g->dev->warp_size ? g->dev->warp_size : 32;
    if (L.warp_size > 32) L.warp_size = 32;
    L.its = !g->opt.simt_stack;
    /* a cooperative grid: the zeroed workspace its grid barrier counts in (before the arena is mapped: it may grow) */
    if (cfg->cooperative) {
        if (ws_malloc(g, WS_COOP_WS_BYTES, &L.coop_ws) != WS_OK) return WS_ERR_MEMORY_ALLOCATION;
        memset(ws_host_view(g, L.coop_ws, WS_COOP_WS_BYTES), 0, WS_COOP_WS_BYTES);
        ws_gpu_host_access(g, L.coop_ws, WS_COOP_WS_BYTES, 1);
    }
    L.gstore = ws_mem_store(g->mem);
    L.glimit = ws_mem_limit(g->mem);
    L.gbase = ws_mem_base(g->mem);
    L.local_stride = (f->stack_need + 15) & ~(size_t)15;
    L.max_inst = g->opt.max_instructions;
    L.nobs = g->nobs;
    memcpy(L.obs, g->obs, sizeof L.obs);
    L.params = calloc(1, f->param_bytes + 16);
    for (int i = 0; i < f->nparams; i++)
        if (args && args[i]) memcpy(L.params + f->param_off[i], args[i], f->param_size[i]);
    unsigned threads = block.x * block.y * block.z;
    int nwarps = (int)((threads + (unsigned)L.warp_size - 1) / (unsigned)L.warp_size);
    L.warps_per_block = nwarps;
    L.tid_rows = tid_rows_make(&L);
    if (!L.tid_rows) { free(L.params); return WS_ERR_MEMORY_ALLOCATION; }
    uint64_t nblocks = (uint64_t)grid.x * grid.y * grid.z;
    size_t smem = f->static_smem;
    if (dyn_smem && mod->dyn_base + dyn_smem > smem) smem = mod->dyn_base + dyn_smem;

    /* residency: the occupancy calculator's blocks per SM (host side), else the core's estimate */
    const ws_device *d = g->dev;
    L.blocks_per_sm = cfg->blocks_per_sm > 0 ? cfg->blocks_per_sm : estimate_blocks_per_sm(d, threads, smem);
    uint64_t resident = (uint64_t)L.blocks_per_sm * (uint64_t)(d && d->sm_count ? d->sm_count : 1);
    if (resident > nblocks) resident = nblocks;
    if (resident > 4096) resident = 4096;

    /* block order (of whole clusters in a cluster launch: ws_cluster_setup orders their blocks) */
    uint64_t *order = NULL;
    uint64_t units = cshape.x ? nblocks / ((uint64_t)cshape.x * cshape.y * cshape.z) : nblocks;
    if (g->opt.block_order_random && units > 1) {
        order = malloc(sizeof(uint64_t) * units);
        for (uint64_t i = 0; i < units; i++) order[i] = i;
        uint64_t s = g->opt.block_order_seed;
        for (uint64_t i = units - 1; i > 0; i--) {
            uint64_t j = splitmix(&s) % (i + 1);
            uint64_t t = order[i]; order[i] = order[j]; order[j] = t;
        }
    }

    if (cfg->cooperative) resident = nblocks;   /* a cooperative grid: all blocks resident at once */
    L.order = order;
    L.nblocks = nblocks;
    if (cshape.x || mod->cluster_barrier) {   /* a cluster launch: blocks start cluster by cluster */
        L.order = NULL;
        rc = ws_cluster_setup(&L, cshape, order);
        free(order);
        if (rc) { free(L.params); free(L.tid_rows); return rc; }
        if (resident < (uint64_t)L.cluster_size) resident = (uint64_t)L.cluster_size;
    }
    L.resident = resident;
    L.smem_bytes = smem;
    for (int i = 0; i < L.nobs; i++)
        if (L.obs[i]->launch_begin) L.obs[i]->launch_begin(L.obs[i]->ctx, &L);
    if (g->engine) g->engine(g->engine_ctx, &L);
    else ws_functional_engine(&L);
    for (int i = 0; i < L.nobs; i++)
        if (L.obs[i]->launch_end) L.obs[i]->launch_end(L.obs[i]->ctx, &L, L.fault);
    for (int i = 0; i < L.npool; i++) {
        ws_block *b = L.pool[i];
        for (int wi = 0; wi < b->nwarps; wi++) {
            L.ninst += b->warps[wi].ninst;
            L.nthread += b->warps[wi].nthread;
        }
        block_keep(g, b);
    }
    free(L.pool);
    free(L.free_blocks);
    free(L.order);
    ws_cluster_free(&L);
    free(L.params);
    free(L.tid_rows);
    if (L.coop_ws) ws_free(g, L.coop_ws);
    fflush(stdout);
    if (stats) {
        stats->warp_insts = L.ninst;
        stats->thread_insts = L.nthread;
        stats->host_seconds = now_sec() - t0;
        if (L.fault) snprintf(stats->error, sizeof stats->error, "%s", L.fault_msg);
    }
    return L.fault;
}
