/* tm_window.c - the timing model's windows of cycles: the gate that keeps what reaches beyond an SM out of the
 * parallel phase, memory accounting (an access's L1 part at issue, its L2 part in the serial phase), the serial phase
 * that closes a window in (cycle, SM, order), the finishing pass, and the simulation threads. */
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "tm_int.h"

/* Append work for the serial phase to SM s's list: issued at t. */
titem *tm_item(ws_tm *tm, int s, int kind, uint64_t t, void *p)
{
    tsm *sm = &tm->sms[s];
    tm_grow1((void **)&sm->it, &sm->capit, sm->nit, sizeof *sm->it);
    titem *it = &sm->it[sm->nit++];
    it->t = t;
    it->p = p;
    it->a = it->b = 0;
    it->kind = kind;
    return it;
}

/* List warp x for a look after the serial phase (once a window): its ready cycle may wait on a pending tag. */
void tm_fresh(ws_tm *tm, tw *x)
{
    if (x->fresh == tm->nwin) return;
    x->fresh = tm->nwin;
    tsm *sm = &tm->sms[x->blk->sm];
    tm_grow1((void **)&sm->fresh, &sm->capfresh, sm->nfresh, sizeof *sm->fresh);
    sm->fresh[sm->nfresh++] = x;
}


/* The ready cycles of a wmma.load's fragment registers, its accesses done at `done` (shared: the first in shared
 * memory; tag as rr_set); returns when the last one is ready. */
static uint64_t wmma_ready(ws_tm *tm, tw *x, const tsi *f, const ws_insn *in, int shared, uint64_t done, uint64_t tag)
{
    int kind = shared ? WS_ST_SHORT_SCOREBOARD : WS_ST_LONG_SCOREBOARD;
    /* the fragment is ready as the SASS makes it (wmma_form) */
    done += f->mx_lat + (uint64_t)(f->mx_generic && shared ? tm->dev->lat_generic_over_lds : 0);
    for (int i = 0; i < in->mma->na; i++) {   /* wmma.load's fragment is its a list */
        int d = in->mma->a[i];
        if (!tm_tracked(tm, d)) continue;
        tm_rr_set(x, d, done + (uint64_t)(i * f->mx_step), kind, tag);   /* register i's loads issue after those before */
    }
    return done + (uint64_t)((in->mma->na > 0 ? in->mma->na - 1 : 0) * f->mx_step);
}

/* Account a memory access at once (the serial phase) with the memory system and set its destination registers'
 * ready cycles (tag: only those still waiting for it, as rr_set; an atomic whose old value nobody reads sets none). */
void tm_mem_account(ws_tm *tm, tacc *acc, tw *x, const ws_rec *r, uint64_t t, uint64_t tag)
{
    const ws_insn *in = r->in;
    /* managed memory: the access waits for the pages it faults on (or for the link, to a mapped host page) */
    uint64_t from = tm->um.um && ws_um_any(tm->um.um) ? tm_um_access(&tm->um, r, t) : t;
    if (in->op == WS_OP_CP_ASYNC || in->op == WS_OP_WMMA_LOAD || in->op == WS_OP_WMMA_STORE) {
        /* a cp.async's data lands when its last sector arrives; a wmma.load's fragment registers are ready then */
        uint64_t done = ws_ms_matrix(tm->ms, tm_tx_sm(x), x->mx, x->nmx, in->op == WS_OP_WMMA_STORE, from);
        if (tm->nlis) tm_mem_event(tm, x, r, ws_ms_last_access(tm->ms), t, done);
        if (in->op == WS_OP_WMMA_LOAD && in->mma)
            done = wmma_ready(tm, x, tm_facts_of(tm, x, r->fn, in), in, x->nmx && x->mx[0].space == WS_S_SHARED, done, tag);
        if (in->op == WS_OP_CP_ASYNC && done > x->cp.open) x->cp.open = done;
        if (done > acc->end) acc->end = done;
        return;
    }
    uint64_t done = ws_ms_access_warp(tm->ms, tm_tx_sm(x), x->blk->b->linear * 64u + (uint64_t)x->w->warp_in_block, r, from);
    if (tm->nlis) tm_mem_event(tm, x, r, ws_ms_last_access(tm->ms), t, done);
    int kind = (r->space[__builtin_ctz(r->exec)] == WS_S_SHARED) ? WS_ST_SHORT_SCOREBOARD : WS_ST_LONG_SCOREBOARD;
    uint64_t ack = ws_ms_last_access(tm->ms)->store_ack, end = ack > done ? ack : done;
    if (ack > x->st_ack) x->st_ack = ack;
    if (end > acc->end) acc->end = end;
    tm_dst_ready(tm, x, in, done, kind, tag);
}

/* Account warp x's access r issued at t in the parallel phase: what its SM does at once (ws_ms_access_l1), its L2
 * transfers left to the serial phase. Its destination registers get their ready cycle, or a pending tag until the
 * transfers it waits for are done; a store's acknowledgements reach x->st_ack there. */
void tm_mem_par(ws_tm *tm, tacc *acc, tw *x, const ws_rec *r, const tsi *f, uint64_t t)
{
    int s = x->blk->sm;
    tsm *sm = &tm->sms[s];
    ws_ms_defer *q = &sm->q;
    const ws_insn *in = r->in;
    uint32_t r0 = q->nreq, ai = sm->nacs;
    q->owner = ai;
    ws_ms_access_counts a;
    int wmma = in->op == WS_OP_WMMA_LOAD, cp = in->op == WS_OP_CP_ASYNC;
    uint64_t known;
    int shared;
    if (wmma || cp) {
        known = ws_ms_matrix_l1(tm->ms, s, x->mx, x->nmx, t, &acc->mc, &a, q);
        shared = x->nmx && x->mx[0].space == WS_S_SHARED;
    } else {
        known = ws_ms_access_l1(tm->ms, s, x->blk->b->linear * 64u + (uint64_t)x->w->warp_in_block, r, f->fuse,
                                f->fwidth, f->fdelta, t, &acc->mc, &a, q);
        shared = r->space[__builtin_ctz(r->exec)] == WS_S_SHARED;
    }
    for (uint32_t i = r0; i < q->nreq; i++) tm_item(tm, s, IT_REQ, t, NULL)->a = i;
    int store = in->mem == WS_MK_STORE || in->mem == WS_MK_REDUCE ||
                (in->mem == WS_MK_ATOMIC && sm->gk == GK_ATOM && !sm->st.atoms[sm->ga].wb);
    int kind = shared ? WS_ST_SHORT_SCOREBOARD : WS_ST_LONG_SCOREBOARD;
    int pending = q->ndep > q->dep0;
    if (!pending) {   /* all known now */
        if (known > acc->end) acc->end = known;
        if (cp) { if (known > x->cp.open) x->cp.open = known; }
        else if (wmma) { uint64_t e = wmma_ready(tm, x, f, in, shared, known, 0); if (e > acc->end) acc->end = e; }
        else if (!store) tm_dst_ready(tm, x, in, known, kind, 0);
        if (!tm->nlis) return;   /* (listeners: a record all the same, for its event in the serial phase) */
    }
    tm_grow1((void **)&sm->acs, &sm->capacs, sm->nacs, sizeof *sm->acs);
    tacs *c = &sm->acs[sm->nacs++];
    c->x = x;
    c->gen = x->gen;
    c->dep0 = q->dep0;
    c->ndep = q->ndep - q->dep0;
    c->known = known;
    c->in = in;
    /* (ACS_STORE: no registers to set; an access whose completion is known sets none either) */
    c->kind = cp ? ACS_CP : wmma ? ACS_WMMA : store || !pending ? ACS_STORE : ACS_LOAD;
    c->shared = (uint8_t)shared;
    c->fn = r->fn;
    if (tm->nlis) {
        tm_grow1((void **)&sm->recs, &sm->caprecs, sm->nrecs, sizeof *sm->recs);
        sm->recs[sm->nrecs] = *r;
        c->rec = sm->nrecs++;
        c->cnt = a;
        c->t = t;
    }
    if (store || cp || !pending) return;
    uint64_t tag = TAG_ACS | ai;
    if (wmma) tm_frag_pending(tm, x, in, tag, kind);
    else tm_dst_ready(tm, x, in, tag, kind, 0);
    tm_fresh(tm, x);
}

/* Leave warp x's instruction, which the gate would not let run in the parallel phase, to the serial phase of the
 * window: its pipeline is taken at t, the warp waits for it. */
void tm_defer_exec(ws_tm *tm, tw *x, uint64_t t)
{
    tsp *sp = x->sp;
    int p = x->npipe;
    sp->pipe_free[p] = t + (uint64_t)tm->pipe_interval[p];
    x->ready_saved = x->ready;
    tm_set_ready(x, NEVER);
    tm_item(tm, x->blk->sm, IT_EXEC, t, x);
}

/* The gate of the parallel phase (ws_run.gate): whether the instruction of warp w in record r may run now, on this
 * thread, without touching what another SM could read in this window; plain stores and atomics are captured for
 * the serial phase instead (WS_GATE_TAKEN), anything else that touches global memory is left to it whole. */
int tm_gate(void *ctx, ws_warp *w, ws_rec *r)
{
    ws_tm *tm = ctx;
    tsm *sm = &tm->sms[w->blk->sm];
    const ws_insn *in = r->in;
    sm->gk = GK_NONE;
    int ok;
    switch (in->op) {
    case WS_OP_LD: case WS_OP_LDU:
        ok = ws_stage_lanes(w->L, r);
        if (ok < 0) return WS_GATE_DEFER;
        return (ok & WS_STAGE_GLOBAL) && ws_stage_overlaps(&sm->st, r) ? WS_GATE_DEFER : WS_GATE_RUN;
    case WS_OP_ST: case WS_OP_ATOM: case WS_OP_RED:
        ok = ws_stage_lanes(w->L, r);
        if (ok == WS_STAGE_OTHER) return WS_GATE_RUN;   /* shared or local memory: the SM's own */
        if (ok == WS_STAGE_GLOBAL) {
            if (in->op == WS_OP_ST && ws_stage_store(&sm->st, w, r, &sm->ga, &sm->gb)) { sm->gk = GK_STORE; return WS_GATE_TAKEN; }
            if (in->op != WS_OP_ST && ws_stage_atom(&sm->st, w, r, in->op == WS_OP_ATOM && !(in->flags & WS_F_DEADD), &sm->ga)) {
                sm->gk = GK_ATOM;
                return WS_GATE_TAKEN;
            }
        }
        ws_stage_mark(&sm->st, r);
        return WS_GATE_DEFER;
    case WS_OP_WMMA_LOAD:
        if (in->mma && in->mma->space == WS_S_SHARED) return WS_GATE_RUN;
        return ws_stage_written(&sm->st) ? WS_GATE_DEFER : WS_GATE_RUN;
    case WS_OP_TEX: case WS_OP_TLD4: case WS_OP_TXQ:
        return WS_GATE_RUN;   /* read-only data (the texture path is not coherent with a kernel's own writes) */
    case WS_OP_CP_ASYNC:   /* it reads global memory at once (its data lands later); only in launches stepped
                            * cycle by cycle (needs_lockstep), where its own SM's stores of the cycle come after it */
        return WS_GATE_RUN;
    case WS_OP_SULD:
        return ws_stage_written(&sm->st) ? WS_GATE_DEFER : WS_GATE_RUN;
    case WS_OP_CALL:
        if (in->call && in->call->builtin == WS_BI_NONE) return WS_GATE_RUN;   /* the warp's own frames */
        break;
    default:
        break;
    }
    ws_stage_mark(&sm->st, NULL);
    return WS_GATE_DEFER;
}


/* Share the active SMs among n threads for the next phase (parts of contiguous SMs). */
static void parts_setup(ws_tm *tm, int n)
{
    tm->nparts = n;
    for (int j = 0; j < n; j++) {
        atomic_store_explicit(&tm->part_cur[j], (int)((int64_t)tm->nactv * j / n), memory_order_relaxed);
        tm->part_end[j] = (int)((int64_t)tm->nactv * (j + 1) / n);
    }
}

/* The next active SM for thread `self` (its own part first, then the others'); -1 when none is left. */
static int part_take(ws_tm *tm, int self)
{
    for (int k = 0; k < tm->nparts; k++) {
        int j = (self + k) % tm->nparts;
        if (atomic_load_explicit(&tm->part_cur[j], memory_order_relaxed) >= tm->part_end[j]) continue;
        int i = atomic_fetch_add_explicit(&tm->part_cur[j], 1, memory_order_relaxed);
        if (i < tm->part_end[j]) return tm->actv[i];
    }
    return -1;
}

/* The parallel phase of the window ending at h for thread `self`: it takes active SMs until none is left (which
 * thread simulates an SM changes no result). */
static void phase_parallel(ws_tm *tm, tacc *acc, uint64_t h, int self)
{
    for (int s; (s = part_take(tm, self)) >= 0;) tm_sm_advance(tm, acc, s, h);
}

/* Resolve SM s's accesses that waited for L2 transfers: their registers get the cycle the data is there, a store's
 * acknowledgements went to its warp when its requests were done. */
static void acs_resolve(ws_tm *tm, tacc *acc, int s)
{
    tsm *sm = &tm->sms[s];
    for (uint32_t i = 0; i < sm->nacs; i++) {
        tacs *c = &sm->acs[i];
        uint64_t done = c->known;
        for (uint32_t k = 0; k < c->ndep; k++) {
            uint64_t f = sm->q.req[sm->q.dep[c->dep0 + k]].done;
            if (f > done) done = f;
        }
        if (done > acc->end) acc->end = done;
        tw *x = c->x;
        if (tm->nlis)   /* a store's event: when it left the SM */
            tm_mem_event(tm, x, &sm->recs[c->rec], &c->cnt, c->t, c->kind == ACS_STORE ? c->known : done);
        if (x->gen != c->gen || c->kind == ACS_STORE) continue;
        if (c->kind == ACS_CP) { if (done > x->cp.open) x->cp.open = done; continue; }
        uint64_t tag = TAG_ACS | i;
        int kind = c->shared ? WS_ST_SHORT_SCOREBOARD : WS_ST_LONG_SCOREBOARD;
        if (c->kind == ACS_WMMA) {
            uint64_t e = wmma_ready(tm, x, tm_facts_of(tm, x, c->fn, c->in), c->in, c->shared, done, tag);
            if (e > acc->end) acc->end = e;
        } else tm_dst_ready(tm, x, c->in, done, kind, tag);
    }
}

/* One item of SM s's serial work, issued at it->t; tag: an IT_REQ's tag stage when the worker ran it (NULL: both
 * stages here). */
static void item_do(ws_tm *tm, tacc *acc, int s, const titem *it, const ws_ms_l2tag *tag)
{
    tsm *sm = &tm->sms[s];
    tw *x = it->p;
    uint64_t t = it->t;
    sm->now = t;
    switch (it->kind) {
    case IT_REQ: {
        uint64_t f = tag ? ws_ms_req_time(tm->ms, &sm->q, it->a, tag) : ws_ms_req_do(tm->ms, &sm->q, it->a);
        const ws_ms_req *r = &sm->q.req[it->a];
        if (r->kind == WS_MS_REQ_WRITE) {   /* a store's acknowledgement: its block retires no earlier */
            if (f > acc->end) acc->end = f;
            const tacs *c = r->owner < sm->nacs ? &sm->acs[r->owner] : NULL;
            if (c && c->x->gen == c->gen && f > c->x->st_ack) c->x->st_ack = f;
        }
        break;
    }
    case IT_STORE:
        ws_stage_apply_store(&sm->st, tm->L, it->a, it->b);
        break;
    case IT_ATOM:
        ws_stage_apply_atom(&sm->st, x->w, it->a);
        if (sm->st.atoms[it->a].wb) x->nwb--;
        break;
    case IT_MEMSYS:
        tm_mem_account(tm, acc, x, &sm->recs[it->b], t, TAG_MEM | it->b);
        break;
    case IT_EXEC:
        tm_set_ready(x, x->ready_saved);
        tm_issue(tm, acc, x, t, 1);
        tm_wake_for(tm, x);
        break;
    case IT_CLUSTER:
        tm_cluster_warp_done(tm, it->p, t);
        break;
    default:
        tm_retire_block(tm, it->p, t);
        if (tm->retired >= tm->L->nblocks && tm->last_retire == NEVER) tm->last_retire = t;
        break;
    }
}

/* Spins before a thread waiting for another yields the processor (or sleeps, when parked). */
#define WS_TM_SPINS 4096

/* L2 transfers of a serial phase from which their tag stages run on a worker ahead of the main thread (fewer are
 * not worth the worker's start and the handshakes). */
#define SERIAL_SPLIT_MIN 256
/* The worker's tag stages are published to the main thread every this many items (a power of two). */
#define SERIAL_TAG_PUBLISH 16
/* The phase (tworker.h) of a worker running the tag stages (tm_phase_tag). */
#define TM_PHASE_TAG UINT64_MAX

static void worker_start(tworker *wk, uint64_t h, int gen);
static void wait_done(tworker *wk, int gen);

/* One step of a wait for another thread: a pause, then (after WS_TM_SPINS of them) yielding the processor. */
static inline void spin_step(unsigned spins)
{
    if (spins > WS_TM_SPINS) sched_yield(); else __builtin_ia32_pause();
}

/* The serial phase's items in (cycle, SM, order), both stages of their L2 transfers here. */
static void items_in_order(ws_tm *tm, tacc *acc, uint32_t total)
{
    for (uint32_t k = 0; k < total; k++) {
        int s = (int)(tm->sorted[k] >> 32);
        item_do(tm, acc, s, &tm->sms[s].it[(uint32_t)tm->sorted[k]], NULL);
    }
}

/* Whether an item of the serial phase uses the L2 in ways known only when it runs (an instruction run whole, an
 * access timed whole): the worker's tag stages wait for the main thread to be past it. */
static inline int item_uses_l2(int kind) { return kind == IT_EXEC || kind == IT_MEMSYS; }

/* The worker's part of a split serial phase (serial_split): the tag stages of the IT_REQ items of tm->sorted in
 * order, published through tm->tag_done; at an item that uses the L2 itself it waits for the main thread. */
static void tm_phase_tag(ws_tm *tm)
{
    const uint32_t total = tm->ntag;
    for (uint32_t k = 0; k < total; k++) {
        int s = (int)(tm->sorted[k] >> 32);
        const titem *it = &tm->sms[s].it[(uint32_t)tm->sorted[k]];
        if (it->kind == IT_REQ) ws_ms_req_tag(tm->ms, &tm->sms[s].q, it->a, &tm->l2tag[k]);
        else if (item_uses_l2(it->kind)) {
            atomic_store_explicit(&tm->tag_done, k, memory_order_release);
            for (unsigned spins = 0; atomic_load_explicit(&tm->main_done, memory_order_acquire) <= k; spins++)
                spin_step(spins);
        }
        if (!((k + 1) & (SERIAL_TAG_PUBLISH - 1))) atomic_store_explicit(&tm->tag_done, k + 1, memory_order_release);
    }
    atomic_store_explicit(&tm->tag_done, total, memory_order_release);
}

/* Wait until the worker's tag stages reach item k (all items before it done). */
static inline void tag_wait(ws_tm *tm, uint32_t k)
{
    for (unsigned spins = 0; atomic_load_explicit(&tm->tag_done, memory_order_acquire) < k; spins++) spin_step(spins);
}

/* The serial phase's items in order with the tag stages of their L2 transfers on tm->tagwk ahead of the main
 * thread, which does their time stages and everything else: the same results as one thread doing both (the time
 * stages come in the tag stages' order, and nothing else touches the L2 meanwhile). */
static void serial_split(ws_tm *tm, tacc *acc, uint32_t total)
{
    if (total > tm->capl2tag) {
        free(tm->l2tag);
        tm->l2tag = malloc(sizeof *tm->l2tag * total);
        tm->capl2tag = tm->l2tag ? total : 0;
    }
    if (!tm->l2tag) { items_in_order(tm, acc, total); return; }   /* no room: both stages here */
    tm->ntag = total;
    atomic_store(&tm->tag_done, 0);
    atomic_store(&tm->main_done, 0);
    int gen = ++tm->gen;
    worker_start(tm->tagwk, TM_PHASE_TAG, gen);
    for (uint32_t k = 0; k < total; k++) {
        int s = (int)(tm->sorted[k] >> 32);
        const titem *it = &tm->sms[s].it[(uint32_t)tm->sorted[k]];
        if (it->kind == IT_REQ) {
            tag_wait(tm, k + 1);
            item_do(tm, acc, s, it, &tm->l2tag[k]);
        } else if (item_uses_l2(it->kind)) {
            tag_wait(tm, k);   /* the worker waits here for this item */
            item_do(tm, acc, s, it, NULL);
            atomic_store_explicit(&tm->main_done, k + 1, memory_order_release);
        } else item_do(tm, acc, s, it, NULL);
    }
    wait_done(tm->tagwk, gen);
}

/* The serial phase that closes the window [t0, h): every SM's items in (cycle, SM, order), then the accesses that
 * waited for transfers, then the warps whose ready cycle waited for any of it. */
void tm_phase_serial(ws_tm *tm, tacc *acc, uint64_t t0, uint64_t h)
{
    ws_run *L = tm->L;
    int (*gate)(void *, ws_warp *, ws_rec *) = L->gate;
    L->gate = NULL;   /* instructions run whole here */
    uint32_t span = (uint32_t)(h - t0), total = 0;
    if (span > tm->capord) {
        tm->capord = span;
        tm->cnt = realloc(tm->cnt, sizeof *tm->cnt * (span + 1));
    }
    memset(tm->cnt, 0, sizeof *tm->cnt * (span + 1));
    uint32_t nreq = 0;   /* L2 transfers among the items */
    for (int i = 0; i < tm->nactv; i++) {
        tsm *sm = &tm->sms[tm->actv[i]];
        for (uint32_t k = 0; k < sm->nit; k++) { tm->cnt[sm->it[k].t - t0 + 1]++; nreq += sm->it[k].kind == IT_REQ; }
        total += sm->nit;
    }
    if (total) {
        for (uint32_t c = 1; c <= span; c++) tm->cnt[c] += tm->cnt[c - 1];
        if (total > tm->capsorted) {
            tm->capsorted = total;
            tm->sorted = realloc(tm->sorted, sizeof *tm->sorted * total);
        }
        for (int i = 0; i < tm->nactv; i++) {
            int s = tm->actv[i];
            tsm *sm = &tm->sms[s];
            for (uint32_t k = 0; k < sm->nit; k++) tm->sorted[tm->cnt[sm->it[k].t - t0]++] = (uint64_t)s << 32 | k;
        }
        if (tm->tagwk && tm->win > 1 && nreq >= SERIAL_SPLIT_MIN) serial_split(tm, acc, total);
        else items_in_order(tm, acc, total);
    }
    L->gate = gate;
}

/* SM s after the serial phase: its L1 fills and the accesses that waited for transfers get their cycles, the
 * warps whose ready cycle waited for any of it look again, and its lists of the window are emptied. Touches SM s
 * alone (any thread). */
static void sm_finish(ws_tm *tm, tacc *acc, int s)
{
    tsm *sm = &tm->sms[s];
    ws_ms_defer_patch(&sm->q);
    if (sm->nacs) acs_resolve(tm, acc, s);
    for (uint32_t k = 0; k < sm->nfresh; k++) {
        tw *x = sm->fresh[k];
        if (x->blk->b->in_use && x->w->state == WS_W_RUN && !x->waiting_bar && IS_PEND(x->ready)) {
            tm_compute_ready(tm, x, x->last_issue + 1);
            tm_wake_for(tm, x);
        }
    }
    sm->nit = sm->nacs = sm->nrecs = sm->nfresh = 0;
    ws_ms_defer_reset(&sm->q);
    ws_stage_clear(&sm->st);
}

/* The finishing pass of a window (sm_finish of every active SM) for thread `self`: it takes SMs until none is left. */
static void phase_finish(ws_tm *tm, tacc *acc, int self)
{
    for (int s; (s = part_take(tm, self)) >= 0;) sm_finish(tm, acc, s);
}


/* Wait until worker wk's go differs from v (spinning, then yielding; sleeping while parked); returns it. */
static int wait_go(tworker *wk, int v)
{
    int g;
    for (unsigned spins = 0; (g = atomic_load_explicit(&wk->go, memory_order_acquire)) == v; spins++) {
        if (spins < WS_TM_SPINS) { __builtin_ia32_pause(); continue; }
        if (!atomic_load(&wk->park)) { sched_yield(); continue; }
        pthread_mutex_lock(&wk->mu);
        atomic_store(&wk->sleeping, 1);
        while ((g = atomic_load(&wk->go)) == v && atomic_load(&wk->park)) pthread_cond_wait(&wk->wake, &wk->mu);
        atomic_store(&wk->sleeping, 0);
        pthread_mutex_unlock(&wk->mu);
    }
    return g;
}

/* Hand worker wk generation gen (unparking it, waking it if it sleeps). */
static void send_go(tworker *wk, int gen)
{
    atomic_store(&wk->park, 0);
    atomic_store(&wk->go, gen);
    if (atomic_load(&wk->sleeping)) {
        pthread_mutex_lock(&wk->mu);
        pthread_cond_signal(&wk->wake);
        pthread_mutex_unlock(&wk->mu);
    }
}

/* Worker loop: wait for a window, take SMs of its parallel phase, report. */
static void *worker_main(void *arg)
{
    tworker *wk = arg;
    int gen = atomic_load(&wk->done);   /* the generation it was started at (go may be past it already) */
    for (;;) {
        gen = wait_go(wk, gen);
        if (atomic_load(&wk->quit)) break;
        uint64_t h = atomic_load(&wk->h);
        if (h == TM_PHASE_TAG) tm_phase_tag(wk->tm);
        else if (h) phase_parallel(wk->tm, &wk->acc, h, wk->idx);
        else phase_finish(wk->tm, &wk->acc, wk->idx);
        atomic_store_explicit(&wk->done, gen, memory_order_release);
    }
    return NULL;
}

/* Wait until worker wk reported generation gen. */
static void wait_done(tworker *wk, int gen)
{
    for (unsigned spins = 0; atomic_load_explicit(&wk->done, memory_order_acquire) != gen; spins++) spin_step(spins);
}

/* Start worker wk on phase h (TM_PHASE_TAG, a window's end, or 0) as generation gen (wait_done waits for it). */
static void worker_start(tworker *wk, uint64_t h, int gen)
{
    atomic_store(&wk->h, h);
    send_go(wk, gen);
}

/* At least n workers in tm's pool (started asleep), as many as could be started; returns how many to use (n at
 * most). */
int tm_pool_grow(ws_tm *tm, int n)
{
    if (n <= tm->nwk) return n > 0 ? n : 0;
    tworker **wk = realloc(tm->wk, sizeof *wk * (size_t)n);
    if (!wk) return tm->nwk;
    tm->wk = wk;
    while (tm->nwk < n) {
        tworker *k = calloc(1, sizeof *k);
        if (!k) break;
        k->tm = tm;
        k->idx = tm->nwk + 1;
        atomic_store(&k->go, tm->gen);
        atomic_store(&k->done, tm->gen);
        atomic_store(&k->park, 1);
        pthread_mutex_init(&k->mu, NULL);
        pthread_cond_init(&k->wake, NULL);
        if (pthread_create(&k->th, NULL, worker_main, k) != 0) {
            pthread_mutex_destroy(&k->mu);
            pthread_cond_destroy(&k->wake);
            free(k);
            break;
        }
        wk[tm->nwk++] = k;
    }
    return tm->nwk < n ? tm->nwk : n;
}

/* End tm's workers. */
void tm_pool_stop(ws_tm *tm)
{
    int gen = ++tm->gen;
    for (int i = 0; i < tm->nwk; i++) {
        atomic_store(&tm->wk[i]->quit, 1);
        send_go(tm->wk[i], gen);
    }
    for (int i = 0; i < tm->nwk; i++) {
        pthread_join(tm->wk[i]->th, NULL);
        pthread_mutex_destroy(&tm->wk[i]->mu);
        pthread_cond_destroy(&tm->wk[i]->wake);
        free(tm->wk[i]);
    }
    free(tm->wk);
    tm->wk = NULL;
    tm->nwk = 0;
}

/* Run a phase over the active SMs with nwk of the workers wk beside the main thread: the parallel phase of the
 * window ending at h, or (h = 0) the finishing pass. */
void tm_run_phase(ws_tm *tm, tacc *acc, tworker **wk, int nwk, uint64_t h)
{
    parts_setup(tm, nwk + 1);
    if (nwk) {
        int gen = ++tm->gen;
        for (int i = 0; i < nwk; i++) worker_start(wk[i], h, gen);
        if (h) phase_parallel(tm, acc, h, 0); else phase_finish(tm, acc, 0);
        for (int i = 0; i < nwk; i++) wait_done(wk[i], gen);
    } else if (h) phase_parallel(tm, acc, h, 0);
    else phase_finish(tm, acc, 0);
}

/* The longest window (cycles): the serial phase comes at least this often. */
#define WS_TM_WINDOW_MAX 256


/* Threads to simulate with: WARPSIM_THREADS (warpsim run --threads N), else the online cores; one when something
 * observes instructions; at most one per SM and one per block of the grid. */
int tm_threads_for(const ws_run *L, int nsm)
{
    const char *e = getenv("WARPSIM_THREADS");
    long n = e && *e ? atol(e) : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    if (L->nobs) n = 1;
    if (n > nsm) n = nsm;
    if ((uint64_t)n > L->nblocks) n = L->nblocks > 0 ? (long)L->nblocks : 1;   /* SMs without blocks idle anyway */
    if (n > WS_TM_MAX_THREADS) n = WS_TM_MAX_THREADS;
    return (int)n;
}
/* Whether launch L's module has instructions whose effects come long after they issue and reach beyond their SM
 * in ways the windows do not model (asynchronous copies and their groups, tensor-memory stores, surface stores): its
 * serial phase then comes every cycle, so that it stays exact. */
static int needs_lockstep(const ws_run *L)
{
    for (int i = 0; i < L->mod->nfuncs; i++) {
        const ws_func *fn = &L->mod->funcs[i];
        for (int pc = 0; pc < fn->ncode; pc++) {
            int op = fn->code[pc].op;
            if (op == WS_OP_CP_ASYNC || op == WS_OP_CP_BULK || op == WS_OP_WMMA_STORE || op == WS_OP_SUST) return 1;
        }
    }
    return 0;
}

/* Cycles per window: the shortest time in which anything the serial phase works out can matter to an SM (an L2 or
 * DRAM transfer's arrival, an acknowledgement, an atomic's result), so that no SM needs it within the window it
 * was asked in; cycle by cycle where the serial phase reaches into an SM at once (thread block clusters, managed
 * memory's page faults). */
uint64_t tm_window_cycles(const ws_tm *tm, const ws_run *L)
{
    if (L->cluster_size || (tm->um.um && ws_um_any(tm->um.um)) || needs_lockstep(L)) return 1;
    uint64_t w = ws_ms_min_latency(tm->ms);
    if (w > WS_TM_WINDOW_MAX) w = WS_TM_WINDOW_MAX;
    return w < 1 ? 1 : w;
}
