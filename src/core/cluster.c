/* cluster.c - thread block clusters (sm_90): a launch's cluster shape and its cluster-by-cluster block order, the
 * blocks of a cluster (resident together) and their distributed shared memory, barrier.cluster and mapa; also
 * elect.sync and setmaxnreg, the other warp-level sm_90 instructions.
 *
 * A shared::cluster address is ((rank + 1) << WS_DSMEM_SHIFT) | offset, a plain shared::cta offset below it (the
 * shared::cta window lies inside the shared::cluster window, as in PTX); a generic one is WS_SHARED_WIN plus that. */
#include <stdlib.h>
#include <string.h>
#include "ops.h"

/* The cluster shape of a launch of k: the launch attribute, else the kernel's __cluster_dims__, else none (0 0 0).
 * Checks it as CUDA 13 does on an H200 (each refusal measured there: cudaErrorInvalidClusterSize). */
int ws_cluster_shape(const ws_gpu *g, const ws_kernel *k, const ws_launch_config *cfg, ws_dim3 *out)
{
    const ws_func *f = &k->mod->funcs[k->func];
    ws_dim3 c = cfg->cluster, fixed = { f->cluster_dim[0], f->cluster_dim[1], f->cluster_dim[2] };
    int has_fixed = fixed.x && fixed.y && fixed.z;
    int has_attr = c.x || c.y || c.z;
    *out = (ws_dim3){ 0, 0, 0 };
    if (!has_attr && !has_fixed) return WS_OK;
    if (has_attr && (!c.x || !c.y || !c.z)) return WS_ERR_INVALID_VALUE;
    if (has_attr && has_fixed && (c.x != fixed.x || c.y != fixed.y || c.z != fixed.z))
        return WS_ERR_INVALID_CLUSTER_SIZE;   /* a compiled-in cluster shape cannot be changed at launch */
    if (!has_attr) c = fixed;
    if (g->dev && g->dev->cc_major < 9) return WS_ERR_NOT_SUPPORTED;
    uint64_t n = (uint64_t)c.x * c.y * c.z;
    uint64_t limit = k->cluster_nonportable ? WS_CLUSTER_MAX_NONPORTABLE : WS_CLUSTER_MAX_PORTABLE;
    if (f->maxclusterrank && (uint64_t)f->maxclusterrank < limit) limit = (uint64_t)f->maxclusterrank;
    if (n > limit) return WS_ERR_INVALID_CLUSTER_SIZE;
    if (cfg->grid.x % c.x || cfg->grid.y % c.y || cfg->grid.z % c.z) return WS_ERR_INVALID_CLUSTER_SIZE;
    if (n == 1 && !has_fixed && !f->explicit_cluster) return WS_OK;   /* 1x1x1: an ordinary launch */
    *out = c;
    return WS_OK;
}

/* Set up the launch's clusters (shape from ws_cluster_shape) and, for cluster launches, a block order that starts
 * each cluster's blocks one after another (clusters shuffled under --block-order=random, their blocks by rank). */
int ws_cluster_setup(ws_run *L, ws_dim3 shape, const uint64_t *cluster_order)
{
    L->explicit_cluster = shape.x != 0;
    if (!shape.x && L->mod->cluster_barrier) shape = (ws_dim3){ 1, 1, 1 };   /* implicit clusters of one block */
    L->cluster = shape;
    L->cluster_size = (int)(shape.x * shape.y * shape.z);
    if (!L->cluster_size) return WS_OK;
    uint64_t ncl = L->nblocks / (uint64_t)L->cluster_size;
    uint64_t *order = malloc(sizeof *order * (L->nblocks ? L->nblocks : 1));
    if (!order) return WS_ERR_MEMORY_ALLOCATION;
    ws_dim3 cg = { L->grid.x / shape.x, L->grid.y / shape.y, L->grid.z / shape.z };
    uint64_t i = 0;
    for (uint64_t c = 0; c < ncl; c++) {
        uint64_t cl = cluster_order ? cluster_order[c] : c;
        unsigned cx = (unsigned)(cl % cg.x), cy = (unsigned)((cl / cg.x) % cg.y), cz = (unsigned)(cl / ((uint64_t)cg.x * cg.y));
        for (int r = 0; r < L->cluster_size; r++) {
            unsigned bx = cx * shape.x + (unsigned)r % shape.x, by = cy * shape.y + ((unsigned)r / shape.x) % shape.y;
            unsigned bz = cz * shape.z + (unsigned)r / (shape.x * shape.y);
            order[i++] = bx + (uint64_t)by * L->grid.x + (uint64_t)bz * L->grid.x * L->grid.y;
        }
    }
    L->order = order;
    return WS_OK;
}

/* Put a starting block into its cluster: the open one, or a fresh one when that is whole. */
void ws_cluster_join(ws_run *L, ws_block *b)
{
    b->cl = NULL;
    b->cl_rank = 0;
    if (!L->cluster_size) return;
    ws_cluster *cl = L->cl_open;
    if (!cl || cl->n == L->cluster_size) {
        cl = NULL;
        for (int i = 0; i < L->nclusters && !cl; i++) if (!L->clusters[i]->in_use) cl = L->clusters[i];
        if (!cl) {
            if (L->nclusters == L->clusters_cap) {
                L->clusters_cap = L->clusters_cap ? L->clusters_cap * 2 : 16;
                L->clusters = realloc(L->clusters, sizeof *L->clusters * (size_t)L->clusters_cap);
            }
            cl = calloc(1, sizeof *cl);
            L->clusters[L->nclusters++] = cl;
        }
        memset(cl, 0, sizeof *cl);
        cl->in_use = 1;
        cl->size = L->cluster_size;
        cl->id = (ws_dim3){ b->id.x / L->cluster.x, b->id.y / L->cluster.y, b->id.z / L->cluster.z };
        L->cl_open = cl;
    }
    ws_dim3 c = L->cluster;
    int rank = (int)(b->id.x % c.x + (b->id.y % c.y) * c.x + (b->id.z % c.z) * c.x * c.y);
    cl->blk[rank] = b;
    cl->n++;
    b->cl = cl;
    b->cl_rank = rank;
}

/* Whether block b's whole cluster has finished (b itself outside clusters). */
int ws_cluster_done(const ws_block *b)
{
    const ws_cluster *cl = b->cl;
    if (!cl) return b->done;
    if (cl->n < cl->size) return 0;
    for (int i = 0; i < cl->n; i++) if (!cl->blk[i] || !cl->blk[i]->done) return 0;
    return 1;
}

/* A block of a cluster was retired: the cluster's storage is free once all of them were. */
void ws_cluster_retired(ws_block *b)
{
    ws_cluster *cl = b->cl;
    b->cl = NULL;
    if (cl && ++cl->nretired == cl->n) cl->in_use = 0;
}

/* Free the launch's cluster storage. */
void ws_cluster_free(ws_run *L)
{
    for (int i = 0; i < L->nclusters; i++) free(L->clusters[i]);
    free(L->clusters);
    L->clusters = NULL;
    L->nclusters = 0;
}

/* Value of a cluster special register for block b (outside clusters every block is a cluster of its own). */
uint64_t ws_cluster_sreg(const ws_run *L, const ws_block *b, int sr)
{
    ws_dim3 c = L->cluster_size ? L->cluster : (ws_dim3){ 1, 1, 1 };
    switch (sr) {
    case WS_SR_CLUSTERID_X: return b->id.x / c.x;
    case WS_SR_CLUSTERID_Y: return b->id.y / c.y;
    case WS_SR_CLUSTERID_Z: return b->id.z / c.z;
    case WS_SR_NCLUSTERID_X: return L->grid.x / c.x;
    case WS_SR_NCLUSTERID_Y: return L->grid.y / c.y;
    case WS_SR_NCLUSTERID_Z: return L->grid.z / c.z;
    case WS_SR_CLUSTER_CTAID_X: return b->id.x % c.x;
    case WS_SR_CLUSTER_CTAID_Y: return b->id.y % c.y;
    case WS_SR_CLUSTER_CTAID_Z: return b->id.z % c.z;
    case WS_SR_CLUSTER_NCTAID_X: return c.x;
    case WS_SR_CLUSTER_NCTAID_Y: return c.y;
    case WS_SR_CLUSTER_NCTAID_Z: return c.z;
    case WS_SR_CLUSTER_CTARANK: return (uint64_t)b->cl_rank;
    case WS_SR_CLUSTER_NCTARANK: return (uint64_t)c.x * c.y * c.z;
    case WS_SR_IS_EXPLICIT_CLUSTER: return L->explicit_cluster ? 0xffffffffu : 0;   /* a predicate: a lane mask */
    default: return 0;
    }
}

/* Host pointer of a shared::cluster access of size bytes at addr by w: its own block's shared memory below
 * 1 << WS_DSMEM_SHIFT, else the block of rank (addr >> WS_DSMEM_SHIFT) - 1 of its cluster; NULL outside. */
uint8_t *ws_dsmem_ptr(ws_warp *w, uint64_t addr, unsigned size)
{
    uint64_t rank1 = addr >> WS_DSMEM_SHIFT, off = addr & ((1ull << WS_DSMEM_SHIFT) - 1);
    ws_block *b = w->blk;
    if (rank1) {
        const ws_cluster *cl = b->cl;
        if (!cl) { if (rank1 != 1) return NULL; }   /* a block outside clusters is rank 0 of its own */
        else if (rank1 > (uint64_t)cl->n || !(b = cl->blk[rank1 - 1])) return NULL;
    }
    if (off + size > b->smem_size) return NULL;
    return b->smem + off;
}

/* Threads of block b's cluster that have not exited. */
static uint64_t cluster_live_threads(const ws_cluster *cl)
{
    uint64_t n = 0;
    for (int i = 0; i < cl->n; i++)
        for (int k = 0; k < cl->blk[i]->nwarps; k++) {
            const ws_warp *x = &cl->blk[i]->warps[k];
            if (x->state != WS_W_DONE) n += (uint64_t)__builtin_popcount(x->full & ~x->exited);
        }
    return n;
}

/* Complete the cluster barrier's phase when every live thread arrived: release the warps waiting for it. */
void ws_cluster_barrier_check(ws_block *b)
{
    ws_cluster *cl = b->cl;
    if (!cl || !cl->arrived || cl->arrived < cluster_live_threads(cl)) return;
    cl->arrived = 0;
    cl->phase++;
    for (int i = 0; i < cl->n; i++)
        for (int k = 0; k < cl->blk[i]->nwarps; k++) {
            ws_warp *x = &cl->blk[i]->warps[k];
            if (x->state == WS_W_BAR && x->bar_id == WS_BAR_CLUSTER) { x->state = WS_W_RUN; x->cl_arrived = 0; }
        }
}

/* barrier.cluster.arrive / .wait (.relaxed, .aligned): the lanes arrive; a wait blocks the warp until the phase
 * it arrived in completes. A block outside clusters is a cluster of one. */
static void h_barrier_cluster(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    ws_cluster *cl = w->blk->cl;
    if (!cl) {
        ws_fault(w, in, WS_ERR_LAUNCH_FAILURE, "barrier.cluster outside a cluster launch (internal: no cluster)");
        return;
    }
    if (in->sub == WS_SUB_ARRIVE) {
        if (!w->cl_arrived) { w->cl_arrived = 1; w->cl_phase = cl->phase; }
        else if (w->cl_phase != cl->phase) {
            ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "barrier.cluster.arrive again before barrier.cluster.wait");
            return;
        }
        cl->arrived += (uint64_t)__builtin_popcount(mask);
        ws_cluster_barrier_check(w->blk);
        return;
    }
    if (!w->cl_arrived) {
        ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "barrier.cluster.wait without a barrier.cluster.arrive before it");
        return;
    }
    if (w->cl_phase != cl->phase) { w->cl_arrived = 0; return; }   /* its phase completed already */
    w->bar_id = WS_BAR_CLUSTER;
    w->state = WS_W_BAR;
}

/* mapa: the address in the block of rank r of the cluster that corresponds to a (shared::cluster or generic). */
static void h_mapa(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    int n = w->blk->cl ? w->L->cluster_size : 1;
    const uint64_t low = (1ull << WS_DSMEM_SHIFT) - 1;
    FOR_LANES(mask, {
        uint64_t a = RG(in->s[0], l), r = RG(in->s[1], l) & 0xffffffffu;
        if (r >= (uint64_t)n) {
            ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "mapa: rank %llu outside the cluster of %d block(s)",
                     (unsigned long long)r, n);
            return;
        }
        if (in->space == WS_S_SHARED) RG(in->d[0], l) = (uint32_t)(((r + 1) << WS_DSMEM_SHIFT) | (a & low));
        else if (a - WS_SHARED_WIN < WS_WIN_SPAN)
            RG(in->d[0], l) = WS_SHARED_WIN + (((r + 1) << WS_DSMEM_SHIFT) | ((a - WS_SHARED_WIN) & low));
        else {
            ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "mapa of generic address 0x%llx, which is not shared memory",
                     (unsigned long long)a);
            return;
        }
    });
}

/* elect.sync d|p, membermask: the lowest active lane of the mask is elected (p true there), d its lane id. */
static void h_elect(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    uint32_t member = (uint32_t)RG(in->s[0], __builtin_ctz(mask));
    if ((mask & member) != mask) {
        ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "elect.sync executed by lanes 0x%08x outside its member mask 0x%08x",
                 mask, member);
        return;
    }
    uint32_t leader = mask & member;
    uint32_t lane = (uint32_t)__builtin_ctz(leader);
    if (in->d[0] != WS_SR_SINK) FOR_LANES(mask, { RG(in->d[0], l) = lane; });
    if (in->d[1] != WS_SR_SINK) PSET(in->d[1], 1u << lane, mask);
}

/* setmaxnreg.inc/.dec.sync.aligned.u32 n: checked (24..256, a multiple of 8, as PTX requires); the register file
 * is not modelled per warp, so it changes neither results nor timing. */
static void h_setmaxnreg(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    uint64_t n = RG(in->s[0], __builtin_ctz(mask));
    if (n < 24 || n > 256 || n % 8)
        ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "setmaxnreg with %llu registers (must be 24 to 256, a multiple of 8)",
                 (unsigned long long)n);
}

/* Handlers of the cluster instructions, elect.sync and setmaxnreg. */
ws_handler ws_cluster_handler(const ws_insn *in)
{
    switch (in->op) {
    case WS_OP_BAR_CLUSTER: return h_barrier_cluster;
    case WS_OP_MAPA: return h_mapa;
    case WS_OP_ELECT: return h_elect;
    case WS_OP_SETMAXNREG: return h_setmaxnreg;
    default: return NULL;
    }
}
