/* ops_async.c - handlers of the asynchronous copies (cp.async and its groups) and of mbarrier objects. Functionally
 * a copy completes when it issues (its group's wait has nothing left to wait for). In timing mode the data (read
 * from global memory at issue) lands in shared memory only when a cp.async.wait_group / wait_all or a
 * cp.async.mbarrier.arrive of the warp retires its group, so a read before the wait sees the old contents, as on
 * the hardware. Groups are counted per warp. An mbarrier is the 64-bit word
 * in shared memory: pending arrivals (bits 0-19), the expected arrivals of a phase (20-39), pending transaction
 * bytes (40-61, signed), the current phase's parity (bit 63). A state token is the word before the arrival. */
#include <stdlib.h>
#include "ops.h"
#include "observe.h"

#define MB_CNT_MASK 0xfffffull
#define MB_TX_SHIFT 40
#define MB_TX_MASK 0x3fffffull
#define MB_PHASE (1ull << 63)

/* shared-memory pointer of an mbarrier or copy destination for lane l (shared window offsets or generic
 * addresses into it); faults when out of range or misaligned */
static uint8_t *shared_ptr(ws_warp *w, const ws_insn *in, uint64_t a, unsigned size, int l)
{
    uint64_t off = a;
    if (in->space != WS_S_SHARED) {
        uint64_t o;
        if (ws_resolve_generic(w, a, &o) != WS_S_SHARED) off = ~0ull; else off = o;
    }
    if (off == ~0ull || off + size > w->blk->smem_size || (off & (size - 1))) {
        ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "%s: invalid or misaligned shared address 0x%llx (size %u) by thread %d of block (%u,%u,%u)",
                 ws_opcode_name(in->op), (unsigned long long)a, size, l, w->blk->id.x, w->blk->id.y, w->blk->id.z);
        return NULL;
    }
    return w->blk->smem + off;
}

/* a copy waiting for its group */
typedef struct async_copy { uint32_t off, group; uint8_t size, data[16]; } async_copy;
struct ws_asyncq { async_copy *e; int n, cap; uint32_t committed; };

/* Drop a warp's pending copies (the warp starts afresh). */
void ws_async_reset(ws_warp *w)
{
    if (w->async) { w->async->n = 0; w->async->committed = 0; }
}

/* Free a warp's queue of pending copies. */
void ws_async_free(ws_warp *w)
{
    if (w->async) { free(w->async->e); free(w->async); w->async = NULL; }
}

/* queue a copy of size bytes to shared offset off (timing mode) */
static int async_push(ws_warp *w, uint32_t off, const uint8_t *data, unsigned size)
{
    struct ws_asyncq *q = w->async;
    if (!q && !(q = w->async = calloc(1, sizeof *q))) return -1;
    if (q->n == q->cap) {
        int cap = q->cap ? q->cap * 2 : 64;
        async_copy *e = realloc(q->e, sizeof *e * (size_t)cap);
        if (!e) return -1;
        q->e = e;
        q->cap = cap;
    }
    async_copy *c = &q->e[q->n++];
    c->off = off;
    c->group = q->committed;
    c->size = (uint8_t)size;
    memcpy(c->data, data, size);
    return 0;
}

/* land the copies of groups older than `before` (all of them when before is UINT32_MAX), in issue order */
static void async_land(ws_warp *w, uint32_t before)
{
    struct ws_asyncq *q = w->async;
    if (!q || !q->n) return;
    int k = 0;
    for (int i = 0; i < q->n; i++) {
        async_copy *c = &q->e[i];
        if (c->group < before) {
            if ((size_t)c->off + c->size <= w->blk->smem_size) memcpy(w->blk->smem + c->off, c->data, c->size);
        } else q->e[k++] = *c;
    }
    q->n = k;
}

/* cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size}: copy, zero-filling past src-size */
static void h_cp_async(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const ws_mma *x = in->mma;
    w->cp_lanes = 0;
    FOR_LANES(mask, {
        unsigned cp = (unsigned)RG(x->b[0], l);
        if (cp != 4 && cp != 8 && cp != 16) { ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "cp.async with cp-size %u", cp); return; }
        unsigned ss = x->extra >= 0 ? (unsigned)RG(x->extra, l) : cp;
        if (ss > cp) ss = cp;
        uint64_t da = (in->base >= 0 ? RG(in->base, l) : 0) + (uint64_t)in->imm;
        uint64_t sa = (x->a[0] >= 0 ? RG(x->a[0], l) : 0) + (uint64_t)(int64_t)x->stride;
        uint8_t *d = shared_ptr(w, in, da, cp, l);
        if (!d) return;
        uint8_t buf[16] = {0};
        if (ss) {
            uint64_t off = sa - w->L->gbase;
            uint8_t *s = off < w->L->glimit && off + ss <= w->L->glimit ? w->L->gstore + off : ws_xlate_slow(w, sa, ss, l);
            if (!s || (sa & (cp - 1))) {
                ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "cp.async: invalid or misaligned global source 0x%llx (size %u) by thread %d of block (%u,%u,%u)",
                         (unsigned long long)sa, ss, l, w->blk->id.x, w->blk->id.y, w->blk->id.z);
                return;
            }
            memcpy(buf, s, ss);
            w->cp_src[l] = sa;
            w->cp_lanes |= 1u << l;
        }
        if (w->L->timed) {
            if (async_push(w, (uint32_t)(d - w->blk->smem), buf, cp)) memcpy(d, buf, cp);
        } else memcpy(d, buf, cp);
    });
}

/* cp.async.commit_group / wait_group N / wait_all: close the open group; land all but the N most recent groups */
static void h_cp_group(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    (void)mask;
    struct ws_asyncq *q = w->async;
    if (!q) return;
    switch (in->mma->kind) {
    case WS_MX_CP_COMMIT: q->committed++; break;
    case WS_MX_CP_WAIT: {
        uint32_t n = (uint32_t)RG(in->mma->extra, __builtin_ctz(mask));
        async_land(w, n >= q->committed ? 0 : q->committed - n);
        break;
    }
    default: async_land(w, UINT32_MAX); break;
    }
}

/* count of an mbarrier word's field */
static inline uint32_t mb_pending(uint64_t v) { return (uint32_t)(v & MB_CNT_MASK); }
static inline uint32_t mb_expected(uint64_t v) { return (uint32_t)((v >> 20) & MB_CNT_MASK); }
static inline int32_t mb_tx(uint64_t v)
{
    uint32_t t = (uint32_t)((v >> MB_TX_SHIFT) & MB_TX_MASK);
    return (t & 0x200000u) ? (int32_t)t - 0x400000 : (int32_t)t;
}
/* an mbarrier word from its fields */
static inline uint64_t mb_make(uint32_t pending, uint32_t expected, int32_t tx, uint64_t phase)
{
    return (pending & MB_CNT_MASK) | ((uint64_t)(expected & MB_CNT_MASK) << 20) |
           ((uint64_t)((uint32_t)tx & MB_TX_MASK) << MB_TX_SHIFT) | (phase & MB_PHASE);
}
/* the word after count arrivals and tx transaction bytes: the phase completes when both reach zero */
static uint64_t mb_step(uint64_t v, uint32_t arrivals, int32_t tx)
{
    uint32_t p = mb_pending(v), e = mb_expected(v);
    int32_t t = mb_tx(v) + tx;
    p = arrivals > p ? 0 : p - arrivals;
    uint64_t ph = v & MB_PHASE;
    if (p == 0 && t == 0) { p = e; ph ^= MB_PHASE; }
    return mb_make(p, e, t, ph);
}

/* Complete bytes transaction bytes of the mbarrier at mbar (a bulk copy's data arrived). */
void ws_mbar_complete_tx(uint8_t *mbar, uint32_t bytes)
{
    uint64_t v;
    memcpy(&v, mbar, 8);
    v = mb_step(v, 0, -(int32_t)bytes);
    memcpy(mbar, &v, 8);
}

/* mbarrier.* and cp.async.mbarrier.arrive, lane by lane (lanes of a warp act in lane order) */
static void h_mbarrier(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const ws_mma *x = in->mma;
    if (w->blk->bulk) ws_bulk_land(w, w->blk, ws_warp_now(w));   /* the bulk copies whose data arrived complete first */
    FOR_LANES(mask, {
        if (x->kind == WS_MX_MB_PENDING) {
            RG(in->d[0], l) = mb_pending(RG(in->s[0], l));
            continue;
        }
        uint64_t a = (in->base >= 0 ? RG(in->base, l) : 0) + (uint64_t)in->imm;
        uint8_t *p = shared_ptr(w, in, a, 8, l);
        if (!p) return;
        uint64_t v, arg = x->extra >= 0 ? RG(x->extra, l) : 1;
        memcpy(&v, p, 8);
        uint64_t nv = v, res = v;
        switch (x->kind) {
        case WS_MX_MB_INIT: nv = mb_make((uint32_t)arg, (uint32_t)arg, 0, 0); break;
        case WS_MX_MB_INVAL: nv = 0; break;
        case WS_MX_MB_ARRIVE:
            if (x->bop) nv = mb_step(mb_make(mb_pending(v), mb_expected(v), mb_tx(v) + (int32_t)arg, v), 1, 0);
            else nv = mb_step(v, (uint32_t)arg, 0);
            break;
        case WS_MX_MB_ARRIVE_DROP: {
            uint32_t c = (uint32_t)arg, e = mb_expected(v);
            nv = mb_step(mb_make(mb_pending(v), e > c ? e - c : 0, mb_tx(v), v), c, 0);
            break;
        }
        case WS_MX_MB_EXPECT_TX: nv = mb_make(mb_pending(v), mb_expected(v), mb_tx(v) + (int32_t)arg, v); break;
        case WS_MX_MB_COMPLETE_TX: nv = mb_step(v, 0, -(int32_t)arg); break;
        case WS_MX_CP_MBAR_ARRIVE:   /* the warp's copies so far land, then (.noinc) one arrival */
            async_land(w, UINT32_MAX);
            memcpy(&v, p, 8);
            nv = res = v;
            if (x->parity) nv = mb_step(v, 1, 0);
            break;
        case WS_MX_MB_TEST_WAIT: case WS_MX_MB_TRY_WAIT: {
            /* state token: done once the current phase differs from the token's; .parity p: once the phase of
             * parity p completed, i.e. the current parity is not p */
            uint64_t cur = v & MB_PHASE;
            int done = x->parity ? (cur != ((arg & 1) ? MB_PHASE : 0)) : (cur != (arg & MB_PHASE));
            PSET(in->d[0], done ? 1u << l : 0u, 1u << l);
            continue;
        }
        default: break;
        }
        memcpy(p, &nv, 8);
        if (x->kind == WS_MX_MB_ARRIVE || x->kind == WS_MX_MB_ARRIVE_DROP)
            if (in->d[0] >= WS_SR_COUNT) RG(in->d[0], l) = res;
    });
}

/* the handler of an async-copy or mbarrier instruction; NULL for other instructions */
ws_handler ws_async_handler(const ws_insn *in)
{
    if (!WS_OP_IS_TENSOR(in->op) || !in->mma) return NULL;
    switch (in->mma->kind) {
    case WS_MX_CP_ASYNC: return h_cp_async;
    case WS_MX_CP_COMMIT: case WS_MX_CP_WAIT: case WS_MX_CP_WAIT_ALL: return h_cp_group;
    case WS_MX_CP_MBAR_ARRIVE: case WS_MX_MB_INIT: case WS_MX_MB_ARRIVE: case WS_MX_MB_ARRIVE_DROP:
    case WS_MX_MB_EXPECT_TX: case WS_MX_MB_COMPLETE_TX: case WS_MX_MB_TEST_WAIT: case WS_MX_MB_TRY_WAIT:
    case WS_MX_MB_PENDING: case WS_MX_MB_INVAL: return h_mbarrier;
    default: return NULL;
    }
}
