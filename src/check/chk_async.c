/* chk_async.c - racecheck of asynchronous copies: a cp.async writes its shared-memory destination when its group
 * is waited for (cp.async.wait_group / wait_all, or cp.async.mbarrier.arrive), not when it issues. Until then a
 * read or plain write of those bytes by any thread of the block is a hazard (in timing mode the read returns the
 * old contents, as on the hardware), even after a __syncthreads(). Pending copies are kept per block, with the
 * issuing warp's group number (groups are counted per warp, as the executor does). */
#include <stdlib.h>
#include <string.h>
#include "chk_int.h"

/* a copy issued and not yet waited for */
struct chk_async {
    uint32_t off;              /* shared-memory offset of the destination */
    uint32_t group;            /* the issuing warp's open group when it issued */
    uint32_t site;             /* the cp.async instruction (chk_site) */
    uint16_t warp, lane;
    uint8_t size;
};

/* The cp.async of record r: remember each lane's destination until its group is waited for. */
void chk_async_issue(ws_chk *c, chk_blk *cb, ws_warp *w, const ws_rec *r, uint32_t site)
{
    const ws_insn *in = r->in;
    uint32_t m = r->exec;
    while (m) {
        int l = __builtin_ctz(m);
        m &= m - 1;
        if (r->space[l] != WS_S_SHARED) continue;
        unsigned cp = in->mma ? (unsigned)w->regs[(size_t)in->mma->b[0] * WS_LANES + (size_t)l] : 16;
        if (cp > 16) cp = 16;
        if (cb->npend == cb->cap_pend) {
            int nc = cb->cap_pend ? cb->cap_pend * 2 : 64;
            struct chk_async *np = realloc(cb->pend, sizeof *np * (size_t)nc);
            if (!np) return;
            cb->pend = np;
            cb->cap_pend = nc;
        }
        cb->pend[cb->npend++] = (struct chk_async){ (uint32_t)r->addr[l], cb->warps[w->warp_in_block].cp_groups, site,
                                                    (uint16_t)w->warp_in_block, (uint16_t)l, (uint8_t)cp };
    }
    (void)c;
}

/* Report lane l's access [a, a+size) of shared memory that a pending copy e will still write. */
static void hazard(ws_chk *c, ws_warp *w, const ws_rec *r, int l, uint64_t a, const struct chk_async *e)
{
    const ws_insn *pin = c->site_in && e->site <= c->nsites ? c->site_in[e->site] : NULL;
    const ws_func *pfn = pin ? c->site_fn[e->site] : NULL;
    int write = r->is_write;
    int fresh;
    chk_group *g = chk_group_get(c, WS_CHK_RACECHECK, CK_RACE, chk_line_key(pin, pfn), chk_line_key(r->in, r->fn),
                                 (uint64_t)write << 1 | 1u << 8, &fresh);
    if (!g) return;
    if (fresh) {
        char wp[512], wn[512];
        chk_where(c, pfn, pin, wp, sizeof wp, NULL, 0, NULL);
        chk_where(c, r->fn, r->in, wn, sizeof wn, g->file, sizeof g->file, &g->line);
        snprintf(g->title, sizeof g->title, "Error: Race reported between cp.async Write access at %s", wp);
        memcpy(g->where, wp, sizeof g->where);
        snprintf(g->where2, sizeof g->where2, "%s access at %.512s", write ? "Write" : "Read", wn);
        uint32_t t0[3], t1[3];
        const ws_block *b = w->blk;
        chk_thr_dims(w->L, (uint64_t)e->warp * (uint64_t)w->L->warp_size + e->lane, t0);
        chk_thr_dims(w->L, chk_thr(w, l), t1);
        chk_detail(g, "__shared__ memory at 0x%llx: thread (%u,%u,%u) in block (%u,%u,%u) started an asynchronous copy "
                   "of %u bytes into it, then thread (%u,%u,%u) %s it before the copy's group was waited for",
                   (unsigned long long)a, t0[0], t0[1], t0[2], b->id.x, b->id.y, b->id.z, e->size, t1[0], t1[1],
                   t1[2], write ? "wrote" : "read");
        chk_detail(g, "the copy lands when its group completes: wait for it first (cp.async.wait_group / "
                   "__pipeline_wait_prior / pipeline.consumer_wait, then __syncthreads() if other threads read it)");
        g->errors = 1;
        c->errors++;
    }
    chk_group_hit(c, g, w, l);
}

/* Lane l of r reads or writes [a, a+size) of shared memory: a hazard if a pending copy overlaps it. */
void chk_async_access(ws_chk *c, chk_blk *cb, ws_warp *w, const ws_rec *r, int l, uint64_t a, unsigned size)
{
    for (int i = 0; i < cb->npend; i++) {
        const struct chk_async *e = &cb->pend[i];
        if (a < (uint64_t)e->off + e->size && e->off < a + size) {
            hazard(c, w, r, l, a, e);
            return;
        }
    }
}

/* After cp.async.commit_group / wait_group N / wait_all / cp.async.mbarrier.arrive by warp w: count the group, or
 * forget the copies that have landed (all but the N most recent groups; all of them). */
void chk_async_group(ws_chk *c, ws_warp *w, const ws_rec *r)
{
    const ws_insn *in = r->in;
    if (!r->exec || !in->mma) return;
    chk_blk *cb = chk_blk_of(c, w->blk);
    chk_warp *cw = &cb->warps[w->warp_in_block];
    uint32_t before = UINT32_MAX;
    switch (in->op) {
    case WS_OP_CP_COMMIT: cw->cp_groups++; return;
    case WS_OP_CP_WAIT: {
        uint32_t n = (uint32_t)w->regs[(size_t)in->mma->extra * WS_LANES + (size_t)__builtin_ctz(r->exec)];
        before = n >= cw->cp_groups ? 0 : cw->cp_groups - n;
        break;
    }
    case WS_OP_CP_WAIT_ALL: break;
    default:
        if (in->mma->kind != WS_MX_CP_MBAR_ARRIVE) return;
        break;
    }
    int k = 0;
    for (int i = 0; i < cb->npend; i++) {
        struct chk_async *e = &cb->pend[i];
        if (!(e->warp == w->warp_in_block && e->group < before)) cb->pend[k++] = *e;
    }
    cb->npend = k;
}
