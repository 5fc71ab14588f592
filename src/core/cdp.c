/* cdp.c - dynamic parallelism (CDP2, CUDA 12+): the device runtime's functions as built-ins. A device-side
 * <<<g, b, sh, s>>> is __cudaCDP2GetParameterBufferV2 (a buffer in simulated global memory, which the thread fills
 * with the child's arguments) and __cudaCDP2LaunchDeviceV2 (the buffer's bytes are copied and the launch queued as
 * a child grid of the running grid). The caller of ws_launch takes the queue when the grid is done
 * (ws_gpu_children, sim.h) and runs the children. Each thread has its own last error (cudaGetLastError /
 * cudaPeekAtLastError on the device). */
#include <stdlib.h>
#include <string.h>
#include "ops.h"

#define CDP_DEFAULT_PENDING 2048     /* cudaLimitDevRuntimePendingLaunchCount's default */
#define CDP_MAX_DEPTH 128            /* warpsim's nesting bound (the host session recurses per level): CUDA documents
                                      * 24, but an H200 nests deeper under CDP2 (a chain of grids reached depth 32,
                                      * where the pending-launch limit of 32 stopped it) */
#define CDP_STREAM_TAIL 3u           /* cudaStreamTailLaunch */
#define CDP_STREAM_BASE 0x1000u      /* first handle of a device-created stream */

/* CUDA error codes the device runtime returns. */
enum { CDP_OK = 0, CDP_INVALID_VALUE = 1, CDP_INVALID_CONFIGURATION = 9, CDP_INVALID_DEVICE_FUNCTION = 98,
       CDP_MAX_DEPTH_EXCEEDED = 65, CDP_PENDING_EXCEEDED = 69, CDP_NOT_SUPPORTED = 801,
       CDP_INVALID_RESOURCE_HANDLE = 400 };

/* cudaDeviceAttr values the device runtime answers. */
enum { ATTR_MAX_THREADS_PER_BLOCK = 1, ATTR_MAX_BLOCK_X = 2, ATTR_MAX_BLOCK_Y, ATTR_MAX_BLOCK_Z, ATTR_MAX_GRID_X,
       ATTR_MAX_GRID_Y, ATTR_MAX_GRID_Z, ATTR_MAX_SMEM_PER_BLOCK = 8, ATTR_WARP_SIZE = 10, ATTR_SM_COUNT = 16,
       ATTR_CLOCK_RATE = 13, ATTR_L2_SIZE = 38, ATTR_MAX_THREADS_PER_SM = 39, ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76,
       ATTR_SMEM_PER_SM = 81, ATTR_REGS_PER_SM = 82, ATTR_SMEM_PER_BLOCK_OPTIN = 97 };

/* One thread's last device-runtime error (0 once cudaGetLastError read it). */
typedef struct cdp_err { uint64_t key; int code; } cdp_err;   /* key: linear thread index + 1, 0 for a free slot */

/* A parameter buffer handed out and not launched yet. */
typedef struct cdp_buffer {
    uint64_t addr;
    const ws_kernel *k;
    ws_launch_config cfg;
    size_t bytes;
} cdp_buffer;

/* Dynamic-parallelism state of a GPU. */
typedef struct ws_cdp {
    ws_child_launch *q;              /* launches of the running grid */
    int n, cap;
    cdp_buffer *bufs;                /* parameter buffers of the running grid not yet launched */
    int nbufs, bufs_cap;
    size_t pending, limit_pending;   /* device-launched grids not complete yet (not started, or their grid or
                                      * descendants still running), and their limit */
    int max_depth;
    uint32_t nseq;
    const ws_run *L;                 /* the grid the per-thread errors belong to */
    struct cdp_err *err;             /* threads of L with a last error: open addressing on the thread's index */
    size_t nerr, cap_err;
    unsigned next_stream;
} ws_cdp;

/* g's state, made on first use. */
static ws_cdp *cdp_of(ws_gpu *g)
{
    if (!g->cdp) {
        g->cdp = calloc(1, sizeof *g->cdp);
        if (!g->cdp) return NULL;
        g->cdp->limit_pending = CDP_DEFAULT_PENDING;
        g->cdp->max_depth = CDP_MAX_DEPTH;
        g->cdp->next_stream = CDP_STREAM_BASE;
    }
    return g->cdp;
}

/* Limits of later device-side launches. */
void ws_gpu_set_cdp_limits(ws_gpu *g, size_t pending, int max_depth)
{
    ws_cdp *c = cdp_of(g);
    if (!c) return;
    c->limit_pending = pending;
    c->max_depth = max_depth > 0 && max_depth < CDP_MAX_DEPTH ? max_depth : CDP_MAX_DEPTH;
}

/* Free the state. */
void ws_cdp_free(ws_gpu *g)
{
    ws_cdp *c = g->cdp;
    if (!c) return;
    for (int i = 0; i < c->n; i++) free(c->q[i].params);
    free(c->q), free(c->bufs), free(c->err);
    free(c);
    g->cdp = NULL;
}

/* Linear index of lane l's thread in its grid, and of its block. */
static uint64_t thread_index(const ws_warp *w, int l, uint64_t *block)
{
    const ws_run *L = w->L;
    ws_dim3 id = w->blk->id;
    *block = id.x + (uint64_t)L->grid.x * (id.y + (uint64_t)L->grid.y * id.z);
    return (uint64_t)w->warp_in_block * (uint64_t)L->warp_size + (uint64_t)l;
}

/* The last-error slot of lane l's thread; with create, made when missing (NULL when out of memory or absent). */
static int *err_slot(ws_cdp *c, const ws_warp *w, int l, int create)
{
    const ws_run *L = w->L;
    if (c->L != L) { free(c->err); c->err = NULL; c->nerr = c->cap_err = 0; c->L = L; }
    uint64_t per_block = (uint64_t)L->block.x * L->block.y * L->block.z, b;
    uint64_t t = thread_index(w, l, &b);
    uint64_t key = b * per_block + t + 1;
    if (create && (c->nerr + 1) * 2 > c->cap_err) {
        size_t nc = c->cap_err ? c->cap_err * 2 : 64;
        cdp_err *ne = calloc(nc, sizeof *ne);
        if (!ne) return NULL;
        for (size_t i = 0; i < c->cap_err; i++) {
            if (!c->err[i].key) continue;
            size_t h = (size_t)(c->err[i].key * 0x9e3779b97f4a7c15ull) & (nc - 1);
            while (ne[h].key) h = (h + 1) & (nc - 1);
            ne[h] = c->err[i];
        }
        free(c->err);
        c->err = ne, c->cap_err = nc;
    }
    if (!c->cap_err) return NULL;
    size_t h = (size_t)(key * 0x9e3779b97f4a7c15ull) & (c->cap_err - 1);
    while (c->err[h].key && c->err[h].key != key) h = (h + 1) & (c->cap_err - 1);
    if (!c->err[h].key) {
        if (!create) return NULL;
        c->err[h].key = key;
        c->nerr++;
    }
    return &c->err[h].code;
}

/* Record a device-runtime call's status as lane l's last error (success keeps an earlier error). */
static int set_err(ws_cdp *c, const ws_warp *w, int l, int code)
{
    if (code == CDP_OK) return code;
    int *e = err_slot(c, w, l, 1);
    if (e) *e = code;
    return code;
}

/* The caller's bytes of argument i of a call, for lane l. */
static const uint8_t *arg_at(const ws_warp *w, const ws_call *call, int i, int l)
{
    return w->local + (size_t)l * w->L->local_stride + w->local_base + call->args[i].src_off;
}

/* Store a call's return value for lane l. */
static void put_ret(ws_warp *w, const ws_call *call, int l, const void *v, size_t size)
{
    if (call->has_ret) memcpy(w->local + (size_t)l * w->L->local_stride + w->local_base + call->ret.dst_off, v, size);
}

/* Kernel at a function address of the running module, or NULL. */
static const ws_kernel *kernel_at(const ws_warp *w, uint64_t fa)
{
    const ws_module *m = w->L->mod;
    if (fa < WS_FUNC_BASE || (fa - WS_FUNC_BASE) % 16) return NULL;
    uint64_t fi = (fa - WS_FUNC_BASE) / 16;
    for (int i = 0; i < m->nkernels; i++)
        if ((uint64_t)m->kernels[i].func == fi) return &m->kernels[i];
    return NULL;
}

/* __cudaCDP2GetParameterBufferV2(func, gridDim, blockDim, sharedMem) for lane l: the buffer, or 0. */
static uint64_t param_buffer(ws_warp *w, ws_cdp *c, const ws_call *call, int l)
{
    uint64_t fa = 0;
    uint32_t grid[3] = { 0, 0, 0 }, block[3] = { 0, 0, 0 }, smem = 0;
    memcpy(&fa, arg_at(w, call, 0, l), 8);
    memcpy(grid, arg_at(w, call, 1, l), 12);
    memcpy(block, arg_at(w, call, 2, l), 12);
    memcpy(&smem, arg_at(w, call, 3, l), 4);
    const ws_kernel *k = kernel_at(w, fa);
    if (!k) { set_err(c, w, l, CDP_INVALID_DEVICE_FUNCTION); return 0; }
    if (w->L->cfg.depth + 1 > c->max_depth) { set_err(c, w, l, CDP_MAX_DEPTH_EXCEEDED); return 0; }
    if (c->pending + (size_t)c->nbufs >= c->limit_pending) { set_err(c, w, l, CDP_PENDING_EXCEEDED); return 0; }
    const ws_func *f = &k->mod->funcs[k->func];
    size_t bytes = f->param_bytes ? f->param_bytes : 8;
    uint64_t addr = 0;
    if (ws_malloc(w->L->gpu, bytes, &addr)) { set_err(c, w, l, 2); return 0; }   /* cudaErrorMemoryAllocation */
    w->L->glimit = ws_mem_limit(w->L->gpu->mem);   /* the running grid's fast path reaches the new buffer */
    if (c->nbufs == c->bufs_cap) {
        int nc = c->bufs_cap ? c->bufs_cap * 2 : 16;
        cdp_buffer *nb = realloc(c->bufs, sizeof *nb * (size_t)nc);
        if (!nb) { ws_free(w->L->gpu, addr); set_err(c, w, l, 2); return 0; }
        c->bufs = nb, c->bufs_cap = nc;
    }
    ws_launch_config cfg = { { grid[0], grid[1], grid[2] }, { block[0], block[1], block[2] }, smem, 0, 0,
                             w->L->cfg.depth + 1, { 0, 0, 0 } };
    c->bufs[c->nbufs++] = (cdp_buffer){ addr, k, cfg, bytes };
    return addr;
}

/* Whether a launch configuration of kernel k is one a GPU accepts (shape, and shared memory as check_config of
 * launch.c allows it: the default limit, or up to what the kernel opted in to). */
static int config_ok(const ws_device *d, const ws_kernel *k, const ws_launch_config *cfg)
{
    uint64_t threads = (uint64_t)cfg->block.x * cfg->block.y * cfg->block.z;
    if (!threads || !cfg->grid.x || !cfg->grid.y || !cfg->grid.z) return 0;
    if (!d) return 1;
    const ws_func *f = &k->mod->funcs[k->func];
    size_t limit = d->smem_per_block;
    if (k->max_dyn_smem && f->static_smem + k->max_dyn_smem > limit) limit = f->static_smem + k->max_dyn_smem;
    if (limit > d->smem_per_block_optin) limit = d->smem_per_block_optin;
    if (f->static_smem + cfg->dyn_smem > limit) return 0;
    if (f->maxntid && threads > (uint64_t)f->maxntid) return 0;
    return threads <= (uint64_t)d->max_threads_per_block && cfg->block.x <= (unsigned)d->max_block_dim[0] &&
           cfg->block.y <= (unsigned)d->max_block_dim[1] && cfg->block.z <= (unsigned)d->max_block_dim[2] &&
           cfg->grid.x <= (unsigned)d->max_grid_dim[0] && cfg->grid.y <= (unsigned)d->max_grid_dim[1] &&
           cfg->grid.z <= (unsigned)d->max_grid_dim[2];
}

/* __cudaCDP2LaunchDeviceV2(buffer, stream) for lane l: queue the child grid; its status. */
static int launch_device(ws_warp *w, ws_cdp *c, const ws_call *call, int l)
{
    uint64_t addr = 0, stream = 0;
    memcpy(&addr, arg_at(w, call, 0, l), 8);
    memcpy(&stream, arg_at(w, call, 1, l), 8);
    int bi = 0;
    while (bi < c->nbufs && c->bufs[bi].addr != addr) bi++;
    if (bi == c->nbufs) return set_err(c, w, l, CDP_INVALID_VALUE);
    cdp_buffer b = c->bufs[bi];
    c->bufs[bi] = c->bufs[--c->nbufs];
    ws_mem *mem = w->L->gpu->mem;
    int code = CDP_OK;
    if (!config_ok(w->L->gpu->dev, b.k, &b.cfg)) code = CDP_INVALID_CONFIGURATION;
    else if (stream > 4 && (stream < CDP_STREAM_BASE || stream >= c->next_stream)) code = CDP_INVALID_RESOURCE_HANDLE;
    uint8_t *params = code ? NULL : malloc(b.bytes);
    const void *src = ws_mem_view(mem, b.addr, b.bytes);
    if (params && src) memcpy(params, src, b.bytes);
    ws_free(w->L->gpu, b.addr);
    if (code) return set_err(c, w, l, code);
    if (!params || !src) { free(params); return set_err(c, w, l, 2); }
    if (c->n == c->cap) {
        int nc = c->cap ? c->cap * 2 : 16;
        ws_child_launch *nq = realloc(c->q, sizeof *nq * (size_t)nc);
        if (!nq) { free(params); return set_err(c, w, l, 2); }
        c->q = nq, c->cap = nc;
    }
    ws_child_launch *q = &c->q[c->n];
    memset(q, 0, sizeof *q);
    q->k = b.k;
    q->cfg = b.cfg;
    q->params = params;
    q->tail = stream == CDP_STREAM_TAIL;
    q->stream = (unsigned)stream;
    q->thread = thread_index(w, l, &q->block);
    q->seq = c->nseq++;
    c->n++;
    c->pending++;
    return CDP_OK;
}

/* cudaDeviceGetAttribute on the device: the value, or -1 for an attribute warpsim does not answer there. */
static long long device_attr(const ws_device *d, int attr)
{
    if (!d) return -1;
    switch (attr) {
    case ATTR_MAX_THREADS_PER_BLOCK: return d->max_threads_per_block;
    case ATTR_MAX_BLOCK_X: case ATTR_MAX_BLOCK_Y: case ATTR_MAX_BLOCK_Z: return d->max_block_dim[attr - ATTR_MAX_BLOCK_X];
    case ATTR_MAX_GRID_X: case ATTR_MAX_GRID_Y: case ATTR_MAX_GRID_Z: return d->max_grid_dim[attr - ATTR_MAX_GRID_X];
    case ATTR_MAX_SMEM_PER_BLOCK: return (long long)d->smem_per_block;
    case ATTR_WARP_SIZE: return d->warp_size;
    case ATTR_SM_COUNT: return d->sm_count;
    case ATTR_MAX_THREADS_PER_SM: return d->max_threads_per_sm;
    case ATTR_CC_MAJOR: return d->cc_major;
    case ATTR_CC_MINOR: return d->cc_minor;
    case ATTR_CLOCK_RATE: return (long long)(d->sm_clock_mhz * 1000.0);   /* kHz */
    case ATTR_L2_SIZE: return (long long)d->l2_size;
    case ATTR_SMEM_PER_SM: return (long long)d->smem_per_sm;
    case ATTR_REGS_PER_SM: return d->regs_per_sm;
    case ATTR_SMEM_PER_BLOCK_OPTIN: return (long long)d->smem_per_block_optin;
    default: return -1;
    }
}

/* Write an int through a generic pointer of lane l; 0 when it is not mapped. */
static int put_int(ws_warp *w, int l, uint64_t addr, uint64_t v, unsigned size)
{
    void *p = ws_xlate_slow(w, addr, size, l);
    if (!p) return 0;
    memcpy(p, &v, size);
    return 1;
}

/* A device-runtime built-in for the active lanes. */
void ws_cdp_call(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const ws_call *call = in->call;
    ws_cdp *c = cdp_of(w->L->gpu);
    if (!c) { ws_fault(w, in, WS_ERR_LAUNCH_OUT_OF_RESOURCES, "out of memory for the device runtime"); return; }
    FOR_LANES(mask, {
        int32_t r = CDP_OK;
        uint64_t p = 0;
        switch (call->builtin) {
        case WS_BI_CDP_PARAM_BUFFER:
            p = param_buffer(w, c, call, l);
            put_ret(w, call, l, &p, 8);
            continue;
        case WS_BI_CDP_LAUNCH: r = launch_device(w, c, call, l); break;
        case WS_BI_CDP_GET_LAST_ERROR:
        case WS_BI_CDP_PEEK_LAST_ERROR: {
            int *e = err_slot(c, w, l, 0);
            r = e ? *e : CDP_OK;
            if (e && call->builtin == WS_BI_CDP_GET_LAST_ERROR) *e = CDP_OK;
            break;
        }
        case WS_BI_CDP_GET_DEVICE:
            memcpy(&p, arg_at(w, call, 0, l), 8);
            r = put_int(w, l, p, 0, 4) ? CDP_OK : set_err(c, w, l, CDP_INVALID_VALUE);
            break;
        case WS_BI_CDP_DEVICE_ATTR: {
            int32_t attr = 0, dev = 0;
            memcpy(&p, arg_at(w, call, 0, l), 8);
            memcpy(&attr, arg_at(w, call, 1, l), 4);
            memcpy(&dev, arg_at(w, call, 2, l), 4);
            long long v = device_attr(w->L->gpu->dev, attr);
            if (dev != 0) r = set_err(c, w, l, 101);   /* cudaErrorInvalidDevice */
            else if (v < 0) r = set_err(c, w, l, CDP_NOT_SUPPORTED);
            else if (!put_int(w, l, p, (uint64_t)v, 4)) r = set_err(c, w, l, CDP_INVALID_VALUE);
            break;
        }
        case WS_BI_CDP_STREAM_CREATE:
            memcpy(&p, arg_at(w, call, 0, l), 8);
            r = put_int(w, l, p, c->next_stream++, 8) ? CDP_OK : set_err(c, w, l, CDP_INVALID_VALUE);
            break;
        case WS_BI_CDP_STREAM_DESTROY: break;
        default: r = set_err(c, w, l, CDP_NOT_SUPPORTED); break;
        }
        put_ret(w, call, l, &r, 4);
    });
}

/* qsort order of launches: launching block, thread, then order of launch. */
static int child_cmp(const void *pa, const void *pb)
{
    const ws_child_launch *x = pa, *y = pb;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The last grid's launches, ordered. */
int ws_gpu_children(ws_gpu *g, ws_child_launch **out)
{
    *out = NULL;
    ws_cdp *c = g->cdp;
    if (!c) return 0;
    for (int i = 0; i < c->nbufs; i++) ws_free(g, c->bufs[i].addr);   /* buffers never launched */
    c->nbufs = 0;
    free(c->err);
    c->err = NULL, c->nerr = c->cap_err = 0, c->L = NULL;
    int n = c->n;
    if (!n) return 0;
    qsort(c->q, (size_t)n, sizeof *c->q, child_cmp);
    *out = c->q;
    c->q = NULL, c->n = 0, c->cap = 0, c->nseq = 0;
    return n;
}

/* A child grid and all its descendants completed (or it never ran). */
void ws_gpu_child_done(ws_gpu *g, ws_child_launch *c)
{
    free(c->params);
    c->params = NULL;
    if (g->cdp && g->cdp->pending) g->cdp->pending--;
}
