/* ops_bulk.c - the bulk asynchronous copies of sm_90 (cp.async.bulk and cp.async.bulk.tensor, the TMA unit's):
 * global -> shared completing an mbarrier's transaction bytes, shared::cta -> shared::cluster, shared -> global in
 * bulk groups, and L2 prefetches; the tensor forms walk a box of a tensor map (tmap.h: 1-5 dimensions, element
 * strides, out-of-bounds elements read as zeros and not written, the 32/64/128-byte swizzles in shared memory;
 * the innermost coordinate must be 16-byte aligned in its row, as an H200 requires in practice).
 *
 * A copy reads its source when it issues. Functionally it completes at once: the bytes land and the mbarrier's
 * transaction count drops. In timing mode a global -> shared copy lands when its data arrives: the timing engine
 * times its sectors through the memory system (ws_bulk_account) and the copy waits on its destination block until
 * that cycle; the block's next mbarrier operation lands what has arrived (an mbarrier wait loop sees the phase
 * complete then, not before). Shared -> global copies write at issue (a bulk group's wait has nothing to wait for;
 * a program that waits before reusing the source sees the same memory). */
#include <stdlib.h>
#include "ops.h"
#include "observe.h"
#include "tmap.h"

/* a copy on its way to a block's shared memory (timing mode) */
typedef struct bulk_copy {
    uint8_t *data;           /* the bytes (malloc'd) */
    uint32_t *offs;          /* tensor copies: the shared offset of every element (NULL: one contiguous run) */
    uint32_t dst, size;      /* contiguous: shared offset and bytes; tensor: elements and element size in dst */
    uint32_t mbar;           /* shared offset of the mbarrier to complete */
    uint32_t tx;             /* transaction bytes it completes */
    uint64_t ready;          /* cycle its data arrives (UINT64_MAX until the timing engine says) */
} bulk_copy;
struct ws_bulkq { bulk_copy *e; int n, cap; };

/* Drop a block's copies in flight (a fresh start, or the launch's end). */
void ws_bulk_free(ws_block *b)
{
    struct ws_bulkq *q = b->bulk;
    if (!q) return;
    for (int i = 0; i < q->n; i++) { free(q->e[i].data); free(q->e[i].offs); }
    free(q->e);
    free(q);
    b->bulk = NULL;
}

/* Tell the observers that an asynchronous copy wrote [addr, addr+len) of space (block b's shared memory). */
static void notify(ws_warp *w, ws_block *b, int space, uint64_t addr, uint64_t len)
{
    const ws_run *L = w->L;
    for (int i = 0; i < L->nobs; i++)
        if (L->obs[i]->async_write) L->obs[i]->async_write(L->obs[i]->ctx, w, b, space, addr, len);
}

/* Write a copy's bytes into block b's shared memory and complete its transaction bytes on the mbarrier (w: the
 * warp whose instruction lands it). */
static void bulk_land(ws_warp *w, ws_block *b, const bulk_copy *c)
{
    if (c->offs) {
        unsigned es = c->size;
        for (uint32_t i = 0; i < c->dst; i++)
            if ((size_t)c->offs[i] + es <= b->smem_size) {
                memcpy(b->smem + c->offs[i], c->data + (size_t)i * es, es);
                if (w->L->nobs) notify(w, b, WS_S_SHARED, c->offs[i], es);
            }
    } else if ((size_t)c->dst + c->size <= b->smem_size) {
        memcpy(b->smem + c->dst, c->data, c->size);
        if (w->L->nobs) notify(w, b, WS_S_SHARED, c->dst, c->size);
    }
    if ((size_t)c->mbar + 8 <= b->smem_size) ws_mbar_complete_tx(b->smem + c->mbar, c->tx);
}

/* Land block b's copies whose data has arrived by cycle now, in issue order (w: the warp that looks). */
void ws_bulk_land(ws_warp *w, ws_block *b, uint64_t now)
{
    struct ws_bulkq *q = b->bulk;
    if (!q || !q->n) return;
    int k = 0;
    for (int i = 0; i < q->n; i++) {
        bulk_copy *c = &q->e[i];
        if (c->ready <= now) { bulk_land(w, b, c); free(c->data); free(c->offs); }
        else q->e[k++] = *c;
    }
    q->n = k;
}

/* Deliver a copy to block b: at once (functional mode), or queued until its data arrives (timing mode; the warp
 * remembers it for ws_bulk_account). Takes ownership of c's buffers. */
static void bulk_deliver(ws_warp *w, ws_block *b, bulk_copy c)
{
    if (!w->L->timed) { bulk_land(w, b, &c); free(c.data); free(c.offs); return; }
    struct ws_bulkq *q = b->bulk;
    if (!q && !(q = b->bulk = calloc(1, sizeof *q))) { bulk_land(w, b, &c); free(c.data); free(c.offs); return; }
    if (q->n == q->cap) {
        int cap = q->cap ? q->cap * 2 : 16;
        bulk_copy *e = realloc(q->e, sizeof *e * (size_t)cap);
        if (!e) { bulk_land(w, b, &c); free(c.data); free(c.offs); return; }
        q->e = e;
        q->cap = cap;
    }
    c.ready = UINT64_MAX;
    q->e[q->n++] = c;
    w->bulk_last_blk = b;
    w->bulk_last_seq = q->n - 1;
}

/* The shared memory of a shared::cluster (or shared::cta) address for n bytes: its block and offset; faults. */
static ws_block *cluster_target(ws_warp *w, const ws_insn *in, uint64_t a, uint64_t n, uint32_t *off, const char *what)
{
    uint64_t o = a & ((1ull << WS_DSMEM_SHIFT) - 1), rank1 = a >> WS_DSMEM_SHIFT;
    ws_block *b = w->blk;
    if (rank1) {
        const ws_cluster *cl = b->cl;
        b = cl && rank1 <= (uint64_t)cl->n ? cl->blk[rank1 - 1] : rank1 == 1 && !cl ? b : NULL;
    }
    if (!b || o + n > b->smem_size) {
        ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "cp.async.bulk: %s at shared address 0x%llx (%llu bytes) is outside "
                 "the shared memory of the block%s", what, (unsigned long long)a, (unsigned long long)n,
                 rank1 ? "'s cluster" : "");
        return NULL;
    }
    *off = (uint32_t)o;
    return b;
}

/* Host pointer of n bytes of global memory at a (generic addresses into global memory too); faults. */
static uint8_t *global_span(ws_warp *w, const ws_insn *in, uint64_t a, uint64_t n, const char *what)
{
    uint8_t *p = n <= 0xffffffffu ? ws_xlate_slow(w, a, (unsigned)n, 0) : NULL;
    if (!p || a - WS_SHARED_WIN < WS_WIN_SPAN || a - WS_LOCAL_WIN < WS_WIN_SPAN) {
        ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "cp.async.bulk: invalid global %s 0x%llx (%llu bytes)", what,
                 (unsigned long long)a, (unsigned long long)n);
        return NULL;
    }
    return p;
}

/* Remember a global footprint for the timing engine (runs of bytes). */
static void acct_reset(ws_warp *w, int is_write) { w->bulk_nruns = 0; w->bulk_write = is_write; }
static void acct_run(ws_warp *w, uint64_t a, uint32_t n)
{
    if (w->bulk_nruns && w->bulk_runs[2 * w->bulk_nruns - 2] + w->bulk_runs[2 * w->bulk_nruns - 1] == a) {
        w->bulk_runs[2 * w->bulk_nruns - 1] += n;   /* continues the last run */
        return;
    }
    if (w->bulk_nruns == w->bulk_runs_cap) {
        int cap = w->bulk_runs_cap ? w->bulk_runs_cap * 2 : 64;
        uint64_t *r = realloc(w->bulk_runs, sizeof *r * 2 * (size_t)cap);
        if (!r) return;
        w->bulk_runs = r;
        w->bulk_runs_cap = cap;
    }
    w->bulk_runs[2 * w->bulk_nruns] = a;
    w->bulk_runs[2 * w->bulk_nruns + 1] = n;
    w->bulk_nruns++;
}

/* The 128-byte tensor map at address a (a kernel parameter, global or constant memory); faults. */
static const ws_tmap *tmap_at(ws_warp *w, const ws_insn *in, uint64_t a)
{
    const ws_run *L = w->L;
    const uint8_t *p = a + 128 <= L->entry->param_bytes ? L->params + a : ws_xlate_slow(w, a, 128, 0);
    const ws_tmap *t = (const ws_tmap *)p;
    if (!p || (a & 63) || t->magic != WS_TMAP_MAGIC || t->rank < 1 || t->rank > WS_TMAP_MAX_RANK) {
        ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "cp.async.bulk.tensor: 0x%llx is not a 64-byte aligned tensor map that "
                 "cuTensorMapEncodeTiled filled", (unsigned long long)a);
        return NULL;
    }
    return t;
}

/* Walk the box of tensor map t at coordinates c: for every element, its global address (or none when it is out
 * of bounds) and its byte offset in the box's shared-memory image (before swizzling); returns the elements. */
typedef void (*box_fn)(void *ctx, uint64_t gaddr, int inb, uint32_t boff);
static uint64_t box_walk(const ws_tmap *t, const int32_t *c, box_fn fn, void *ctx)
{
    uint32_t n[WS_TMAP_MAX_RANK] = { 1, 1, 1, 1, 1 };
    for (int i = 0; i < t->rank; i++) n[i] = ((uint32_t)t->box[i] + 1 + t->estride[i] - 1) / t->estride[i];
    uint64_t count = 0;
    uint32_t j[WS_TMAP_MAX_RANK];
    for (j[4] = 0; j[4] < n[4]; j[4]++)
        for (j[3] = 0; j[3] < n[3]; j[3]++)
            for (j[2] = 0; j[2] < n[2]; j[2]++)
                for (j[1] = 0; j[1] < n[1]; j[1]++)
                    for (j[0] = 0; j[0] < n[0]; j[0]++) {
                        int inb = 1;
                        uint64_t g = t->addr;
                        for (int i = 0; i < t->rank; i++) {
                            int64_t x = (int64_t)c[i] + (int64_t)j[i] * t->estride[i];
                                        if (x < 0 || x > (int64_t)t->dim[i]) inb = 0;   /* dim[] holds the size minus 1 */
                            else g += (uint64_t)x * t->stride[i];
                        }
                        uint64_t lin = (((((uint64_t)j[4] * n[3] + j[3]) * n[2] + j[2]) * n[1] + j[1]) * n[0] + j[0]);
                        fn(ctx, inb ? g : 0, inb, (uint32_t)(lin * t->elem_size));
                        count++;
                    }
    return count;
}

/* state of a tensor copy's walk */
typedef struct tcopy {
    ws_warp *w;
    const ws_tmap *t;
    uint8_t *smem;           /* the shared memory of the copy's block (S2G: the source) */
    uint32_t base;           /* shared offset of the box */
    uint8_t *data;           /* G2S: the bytes, element by element */
    uint32_t *offs;          /* G2S: each element's shared offset (swizzled) */
    uint64_t i;
    int bad;
} tcopy;

/* one element of a global -> shared tensor copy: read it (zeros out of bounds) */
static void tcopy_g2s(void *ctx, uint64_t g, int inb, uint32_t boff)
{
    tcopy *k = ctx;
    unsigned es = k->t->elem_size;
    uint8_t *dst = k->data + k->i * es;
    k->offs[k->i] = ws_tmap_swizzle(k->base + boff, k->t->swizzle);
    if (inb) {
        uint8_t *p = ws_xlate_slow(k->w, g, es, 0);
        if (p) { memcpy(dst, p, es); acct_run(k->w, g, es); }
        else k->bad = 1;
    } else memset(dst, 0, es);
    k->i++;
}

/* one element of a shared -> global tensor copy: write it when in bounds */
static void tcopy_s2g(void *ctx, uint64_t g, int inb, uint32_t boff)
{
    tcopy *k = ctx;
    if (!inb) return;
    unsigned es = k->t->elem_size;
    uint8_t *p = ws_xlate_slow(k->w, g, es, 0);
    if (!p) { k->bad = 1; return; }
    memcpy(p, k->smem + ws_tmap_swizzle(k->base + boff, k->t->swizzle), es);
    acct_run(k->w, g, es);
    if (k->w->L->nobs) notify(k->w, NULL, WS_S_GLOBAL, g, es);
}

/* the shared footprint of a tensor box: its bytes (checks that the box fits the block's shared memory) */
static uint64_t box_bytes(const ws_tmap *t)
{
    uint64_t n = t->elem_size;
    for (int i = 0; i < t->rank; i++) n *= ((uint32_t)t->box[i] + 1 + t->estride[i] - 1) / t->estride[i];
    return n;
}

/* cp.async.bulk{.tensor}: one copy per active lane (a program usually lets one thread issue it). */
static void h_cp_bulk(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const ws_mma *x = in->mma;
    int kind = x->kind;
    if (kind == WS_MX_BULK_COMMIT || kind == WS_MX_BULK_WAIT || kind == WS_MX_BULK_PREFETCH ||
        kind == WS_MX_BULK_TENSOR_PREFETCH) {
        /* bulk groups complete at issue (see the file comment); a prefetch changes no result */
        acct_reset(w, 0);
        return;
    }
    FOR_LANES(mask, {
        uint64_t dst = (in->base >= 0 ? RG(in->base, l) : 0) + (uint64_t)in->imm;
        uint64_t src = (x->a[0] >= 0 ? RG(x->a[0], l) : 0) + (uint64_t)(int64_t)x->stride;
        uint64_t mb = x->mb_base >= 0 ? RG(x->mb_base, l) + (uint64_t)x->mb_off : 0;
        if (in->space == WS_S_SHARED) dst = (uint32_t)dst;
        acct_reset(w, kind == WS_MX_BULK_S2G || kind == WS_MX_BULK_TENSOR_S2G);
        if (kind == WS_MX_BULK_G2S || kind == WS_MX_BULK_S2G || kind == WS_MX_BULK_S2S) {
            uint64_t n = RG(x->extra, l) & 0xffffffffu;
            if (n % 16 || (dst & 15) || (src & 15)) {
                ws_fault(w, in, WS_ERR_MISALIGNED_ADDRESS, "cp.async.bulk: size %llu and addresses (0x%llx, 0x%llx) must "
                         "be multiples of 16", (unsigned long long)n, (unsigned long long)dst, (unsigned long long)src);
                return;
            }
            if (kind == WS_MX_BULK_S2G) {
                uint32_t so;
                ws_block *sb = cluster_target(w, in, (uint32_t)src, n, &so, "the source");
                uint8_t *g = sb ? global_span(w, in, dst, n, "destination") : NULL;
                if (!g) return;
                memcpy(g, sb->smem + so, n);
                acct_run(w, dst, (uint32_t)n);
                if (w->L->nobs) notify(w, NULL, WS_S_GLOBAL, dst, n);
                continue;
            }
            uint32_t doff, moff;
            ws_block *db = cluster_target(w, in, dst, n, &doff, "the destination");
            if (!db) return;
            const uint8_t *s;
            if (kind == WS_MX_BULK_S2S) {
                uint32_t so;
                ws_block *sb = cluster_target(w, in, (uint32_t)src & ((1u << WS_DSMEM_SHIFT) - 1), n, &so, "the source");
                if (!sb) return;
                s = sb->smem + so;
            } else if (!(s = global_span(w, in, src, n, "source"))) return;
            /* the mbarrier is in the destination's block (its rank's bits, if any, name the same block) */
            if (!cluster_target(w, in, (uint32_t)mb, 8, &moff, "the mbarrier")) return;
            bulk_copy c = { malloc(n ? n : 1), NULL, doff, (uint32_t)n, moff, (uint32_t)n, 0 };
            if (!c.data) { ws_fault(w, in, WS_ERR_MEMORY_ALLOCATION, "cp.async.bulk: out of host memory"); return; }
            memcpy(c.data, s, n);
            if (kind == WS_MX_BULK_G2S) acct_run(w, src, (uint32_t)n);
            bulk_deliver(w, db, c);
            continue;
        }
        /* the tensor forms */
        const ws_tmap *t = tmap_at(w, in, src);
        if (!t) return;
        int32_t co[WS_TMAP_MAX_RANK] = { 0, 0, 0, 0, 0 };
        if (x->dims != t->rank) {
            ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "cp.async.bulk.tensor.%dd with a tensor map of rank %d", x->dims, t->rank);
            return;
        }
        for (int i = 0; i < t->rank; i++) co[i] = (int32_t)RG(x->c[i], l);
        if (((int64_t)co[0] * t->elem_size) % 16) {
            /* an H200 (driver 580) raises an illegal instruction, or moves other bytes, for these */
            ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "cp.async.bulk.tensor: the innermost coordinate %d is %lld bytes "
                     "into its row, not a multiple of 16", co[0], (long long)co[0] * t->elem_size);
            return;
        }
        uint64_t bytes = box_bytes(t);
        unsigned align = t->swizzle == WS_TMAP_SWIZZLE_NONE ? 128 : 1024;
        if (dst & (align - 1)) {
            ws_fault(w, in, WS_ERR_MISALIGNED_ADDRESS, "cp.async.bulk.tensor: shared address 0x%llx is not %u-byte aligned",
                     (unsigned long long)dst, align);
            return;
        }
        uint32_t doff, moff;
        ws_block *db = cluster_target(w, in, dst, bytes, &doff, kind == WS_MX_BULK_TENSOR_G2S ? "the destination" : "the source");
        if (!db) return;
        tcopy k = { w, t, db->smem, doff, NULL, NULL, 0, 0 };
        if (kind == WS_MX_BULK_TENSOR_S2G) {
            box_walk(t, co, tcopy_s2g, &k);
        } else {
            if (!cluster_target(w, in, (uint32_t)mb, 8, &moff, "the mbarrier")) return;
            uint64_t ne = bytes / t->elem_size;
            k.data = malloc(bytes);
            k.offs = malloc(sizeof *k.offs * ne);
            if (!k.data || !k.offs) { free(k.data); free(k.offs); ws_fault(w, in, WS_ERR_MEMORY_ALLOCATION, "out of host memory"); return; }
            box_walk(t, co, tcopy_g2s, &k);
            if (!k.bad) {
                /* the transaction bytes of a box are all of it, out-of-bounds fill included */
                bulk_copy c = { k.data, k.offs, (uint32_t)ne, t->elem_size, moff, (uint32_t)bytes, 0 };
                bulk_deliver(w, db, c);
            } else { free(k.data); free(k.offs); }
        }
        if (k.bad) {
            ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "cp.async.bulk.tensor: the tensor map's global memory at 0x%llx is not "
                     "allocated", (unsigned long long)t->addr);
            return;
        }
    });
}

/* Set the arrival cycle of the copy the warp issued last (the timing engine, after timing its sectors). */
void ws_bulk_set_ready(ws_warp *w, uint64_t cycle)
{
    ws_block *b = w->bulk_last_blk;
    if (!b || !b->bulk || w->bulk_last_seq < 0 || w->bulk_last_seq >= b->bulk->n) return;
    b->bulk->e[w->bulk_last_seq].ready = cycle;
    w->bulk_last_blk = NULL;
    w->bulk_last_seq = -1;
}

/* The handler of a bulk copy; NULL for other instructions. */
ws_handler ws_bulk_handler(const ws_insn *in)
{
    return in->op == WS_OP_CP_BULK && in->mma ? h_cp_bulk : NULL;
}
