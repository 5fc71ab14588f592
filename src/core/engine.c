/* engine.c - executing warp instructions: the per-warp issue loop (plain, and with observers filling one record
 * per instruction), barriers, and the functional engine that runs a launch's blocks one after another. */
#include <stdlib.h>
#include <string.h>
#include "ops.h"
#include "observe.h"

#define WS_VISIT_BUDGET 200000   /* warp instructions a block may run before others get a turn */
#define WS_WARP_QUANTUM 4096     /* warp instructions a warp runs before the next warp of its block */

/* Resolve a generic address into (space, address in that space). */
int ws_resolve_generic(const ws_warp *w, uint64_t addr, uint64_t *out)
{
    (void)w;
    if (addr - WS_SHARED_WIN < WS_WIN_SPAN) {   /* beyond the shared::cta window: a cluster partner's */
        *out = addr - WS_SHARED_WIN;
        return *out >> WS_DSMEM_SHIFT ? WS_S_DSMEM : WS_S_SHARED;
    }
    if (addr - WS_LOCAL_WIN < WS_WIN_SPAN) { *out = addr - WS_LOCAL_WIN; return WS_S_LOCAL; }
    if (addr - WS_PARAM_WIN < WS_WIN_SPAN) { *out = addr - WS_PARAM_WIN; return WS_S_PARAM_K; }
    *out = addr;
    return WS_S_GLOBAL;
}

/* Fill the memory part of a record: per-lane resolved spaces and addresses. */
static void rec_fill_mem(ws_warp *w, const ws_insn *in, uint32_t m, ws_rec *r)
{
    int mk = in->mem;
    r->is_mem = 1;
    if (in->iflags & WS_IF_TEX) { ws_tex_rec_fill(w, in, m, r); return; }
    r->is_write = mk == WS_MK_STORE || mk == WS_MK_ATOMIC || mk == WS_MK_REDUCE;
    r->is_read = mk == WS_MK_LOAD || mk == WS_MK_ATOMIC;
    unsigned n = mk == WS_MK_STORE ? (in->ns ? in->ns : 1) : in->vec;
    r->size = (unsigned)ws_type_size(in->type) * n;
    int sp = in->space;
    const uint64_t imm = (uint64_t)in->imm;
    if (in->base >= 0) {
        const uint64_t *B = &w->regs[(size_t)in->base * WS_LANES];
        if (sp == WS_S_SHARED) FOR_LANES(m, r->addr[l] = (uint32_t)(B[l] + imm));   /* 32-bit, as eaddr */
        else FOR_LANES(m, r->addr[l] = B[l] + imm);
    } else {
        uint64_t a = (sp == WS_S_LOCAL ? (uint64_t)w->local_base : 0) + imm;
        FOR_LANES(m, r->addr[l] = a);
    }
    if (sp == WS_S_GENERIC) {
        FOR_LANES(m, r->space[l] = (uint8_t)ws_resolve_generic(w, r->addr[l], &r->addr[l]));
    } else {
        memset(r->space, sp, sizeof r->space);
        if (sp == WS_S_SHARED && (in->flags & WS_F_DSMEM))   /* shared::cluster: the partners' lanes */
            FOR_LANES(m, if (r->addr[l] >> WS_DSMEM_SHIFT) r->space[l] = WS_S_DSMEM);
    }
}

/* Execute the next instruction of w (after any pending reconvergence pops) and fill r for observers and the
 * timing model; returns 0 when the warp stopped without executing one. Counts the instruction. */
static int exec_one(ws_warp *w, ws_rec *r)
{
    const ws_run *L = w->L;
    for (;;) {
        if (w->state != WS_W_RUN) return 0;
        ws_stk *top = &w->stk[w->sp - 1];
        if (top->pc != top->rpc) break;
        ws_warp_pop(w);
    }
    ws_stk *top = &w->stk[w->sp - 1];
    const ws_insn *in = &w->code[top->pc++];
    uint32_t m = top->mask;
    r->in = in;
    r->fn = w->fn;
    r->active = m;
    w->nthread += (uint64_t)__builtin_popcount(m);
    if (in->guard >= 0) {
        uint32_t g = (uint32_t)w->regs[(size_t)in->guard * WS_LANES];
        if (in->pneg) g = ~g;
        m &= g;
    }
    r->exec = m;
    r->is_mem = 0;
    for (int i = 0; i < L->nobs; i++)
        if (L->obs[i]->pre) L->obs[i]->pre(L->obs[i]->ctx, w, r);
    if (in->mem != WS_MK_NONE && in->mem != WS_MK_HINT) {
        rec_fill_mem(w, in, m, r);
        for (int i = 0; i < L->nobs && m; i++)
            if (L->obs[i]->pre_mem) {
                L->obs[i]->pre_mem(L->obs[i]->ctx, w, r);
                m = r->exec;
            }
    }
    int gate = WS_GATE_RUN;
    if ((in->iflags & WS_IF_GMEM) && L->gate && m) gate = L->gate(L->gate_ctx, w, r);
    if (gate == WS_GATE_DEFER) {   /* as if it had not been reached: the engine runs it later */
        top->pc--;
        w->nthread -= (uint64_t)__builtin_popcount(r->active);
        return WS_STEP_DEFERRED;
    }
    w->ninst++;
    if (m && w->state == WS_W_RUN && gate == WS_GATE_RUN) in->fn(w, in, m);
    for (int i = 0; i < L->nobs; i++)
        if (L->obs[i]->post) L->obs[i]->post(L->obs[i]->ctx, w, r);
    return 1;
}

/* Run one warp for up to budget instructions with an observer attached. */
static uint64_t warp_run_observed(ws_warp *w, uint64_t budget)
{
    ws_rec r;
    uint64_t n = 0;
    while (n < budget && exec_one(w, &r)) n++;
    return n;
}

/* Instructions whose handlers may change the warp's stack, function or register window (branches, calls, returns,
 * exits, traps; barriers and __syncwarp, which trade turns between paths). The others leave them as they were. */
#define WS_IF_STACK (WS_IF_CTRL | WS_IF_BARRIER)

/* Run one warp for up to budget instructions; returns the number executed. Between instructions that may change
 * the stack, the path's pc, mask and reconvergence point stay in locals (a straight run). */
static uint64_t warp_run(ws_warp *w, uint64_t budget)
{
    if (w->L->nobs) return warp_run_observed(w, budget);
    uint64_t n = 0, nthr = 0;
    while (n < budget) {
        ws_stk *top = &w->stk[w->sp - 1];
        int32_t pc = top->pc;
        const int32_t rpc = top->rpc;
        if (pc == rpc) {
            ws_warp_pop(w);
            if (w->state != WS_W_RUN) break;
            continue;
        }
        const ws_insn *code = w->code;
        const uint64_t *R = w->regs;
        const uint32_t m0 = top->mask;
        /* the run ends at the reconvergence point (when it lies ahead) or where the budget does */
        const int32_t start = pc, left = (int32_t)(budget - n);
        const int32_t end = rpc > pc && rpc - pc < left ? rpc : pc + left;
        for (;;) {
            const ws_insn *in = &code[pc++];
            uint32_t m = m0;
            if (in->guard >= 0) {
                uint32_t g = (uint32_t)R[(size_t)in->guard * WS_LANES];
                if (in->pneg) g = ~g;
                m &= g;
            }
            if (in->iflags & WS_IF_STACK) {
                top->pc = pc;
                if (m) in->fn(w, in, m);
                break;
            }
            if (m) in->fn(w, in, m);
            if (w->state != WS_W_RUN || pc == end) {
                top->pc = pc;
                break;
            }
        }
        n += (uint64_t)(pc - start);
        nthr += (uint64_t)(pc - start) * (uint64_t)__builtin_popcount(m0);
        if (w->state != WS_W_RUN) break;
    }
    w->ninst += n;
    w->nthread += nthr;
    return n;
}

/* Release warps waiting at barrier id when enough have arrived. */
static void barrier_check(ws_run *L, ws_block *b, int id)
{
    int expect = b->bar_expect[id] ? b->bar_expect[id] : b->live_warps;
    if (b->bar_count[id] < expect || b->bar_count[id] == 0) return;
    uint32_t red = b->bar_red[id];
    b->bar_count[id] = 0;
    b->bar_expect[id] = 0;
    b->bar_red[id] = 0;
    for (int i = 0; i < b->nwarps; i++) {
        ws_warp *w = &b->warps[i];
        if (w->state != WS_W_BAR || w->bar_id != id) continue;
        w->state = WS_W_RUN;
        const ws_insn *in = &w->code[w->stk[w->sp - 1].pc - 1];
        if (in->sub == WS_SUB_RED) {
            uint32_t m = w->stk[w->sp - 1].mask;
            if (in->type == WS_T_PRED) PSET(in->d[0], red ? 0xffffffffu : 0, m);
            else FOR_LANES(m, { RG(in->d[0], l) = red; });
        }
    }
    (void)L;
}

/* Account a warp that just stopped: barrier arrival releases waiters, completion may finish the block. */
static void warp_stopped(ws_run *L, ws_warp *w)
{
    ws_block *b = w->blk;
    if (w->state == WS_W_BAR) { if (w->bar_id < WS_BAR_CLUSTER) barrier_check(L, b, w->bar_id); }
    else if (w->state == WS_W_DONE) {
        /* a finished warp may complete its cluster's barrier (the timing engine does it in its serial phase) */
        if (b->cl && !L->timed) ws_cluster_barrier_check(b);
        b->live_warps--;
        for (int id = 0; id < 16; id++) if (b->bar_count[id]) barrier_check(L, b, id);
        if (!b->live_warps) b->done = 1;
    }
}

/* Run a resident block until it finishes or uses its visit budget; returns instructions executed. */
static uint64_t block_visit(ws_run *L, ws_block *b)
{
    uint64_t total = 0;
    int yielded = 0, running = 0;
    b->grid_spins = 0;
    while (!b->done && total < WS_VISIT_BUDGET && !L->fault) {
        uint64_t pass = 0;
        running = 0;
        for (int i = 0; i < b->nwarps && !L->fault; i++) {
            ws_warp *w = &b->warps[i];
            if (w->state != WS_W_RUN) continue;
            pass += warp_run(w, WS_WARP_QUANTUM);
            if (w->state == WS_W_YIELD) yielded++;
            else if (w->state != WS_W_RUN) warp_stopped(L, w);
        }
        /* the warps that can go on, counted after the pass: a barrier that completed in it released the warps
         * that arrived before, and the block runs on through its barriers in this visit */
        for (int i = 0; i < b->nwarps; i++) running += b->warps[i].state == WS_W_RUN;
        total += pass;
        if (!pass || !running) break;   /* every warp waits or yielded: possibly on another block */
    }
    /* every warp that could run waits on the grid barrier (the others wait at a block barrier or finished) */
    b->grid_wait = !running && yielded && yielded == b->grid_spins;
    if (yielded)   /* the warps that gave the other blocks a turn go on at the next visit */
        for (int i = 0; i < b->nwarps; i++) if (b->warps[i].state == WS_W_YIELD) b->warps[i].state = WS_W_RUN;
    return total;
}

/* Execute one instruction of warp w for an external engine; fills r. Returns 1 when an instruction ran. */
int ws_warp_step(ws_warp *w, ws_rec *r)
{
    int ran = exec_one(w, r);
    if (ran == WS_STEP_DEFERRED) return ran;
    if (w->state == WS_W_YIELD) w->state = WS_W_RUN;   /* the timing engine interleaves blocks itself */
    if (w->state != WS_W_RUN) warp_stopped(w->L, w);
    return ran;
}

/* Rounds in which every live block of a cooperative grid waits on its grid barrier, with its counter unchanged,
 * after which the barrier can never complete (two would do); with observers attached, also this many warp
 * instructions of spinning, so that --check's own deadlock finding (it probes after 2^21 instructions without a
 * block finishing), which says what each warp waits for, comes first. */
#define WS_GRID_STUCK_ROUNDS 1000
#define WS_GRID_STUCK_INSTS_OBSERVED ((uint64_t)1 << 23)

/* The state of the grid-barrier deadlock check between rounds. */
typedef struct grid_watch { uint64_t rounds, insts; uint32_t last; } grid_watch;

/* Whether a cooperative grid can never pass its grid barrier: round after round, every live block waited on it
 * and nothing changed its counter (no block can arrive any more: the missing ones finished without it). insts:
 * warp instructions of this round. */
static int grid_barrier_stuck(ws_run *L, ws_block **res, uint64_t hi, uint64_t insts, grid_watch *gw)
{
    for (uint64_t i = 0; i < hi; i++)
        if (res[i] && !res[i]->grid_wait) { gw->rounds = 0; return 0; }
    uint32_t v;
    memcpy(&v, L->gstore + (L->coop_ws + 4 - L->gbase), sizeof v);
    if (gw->rounds && v != gw->last) gw->rounds = 0;
    if (!gw->rounds) gw->insts = 0;
    gw->last = v;
    gw->rounds++;
    gw->insts += insts;
    return gw->rounds >= WS_GRID_STUCK_ROUNDS && (!L->nobs || gw->insts >= WS_GRID_STUCK_INSTS_OBSERVED);
}

#define WS_GRID_SPIN_INSNS 8   /* a warp that read the grid barrier's counter this recently is in its spin loop */

/* Whether a cooperative grid's barrier can never complete (the timing engine's check). */
int ws_run_grid_stuck(ws_run *L, int *armed, uint32_t *last)
{
    for (int i = 0; i < L->npool; i++) {
        const ws_block *b = L->pool[i];
        if (!b->in_use || b->done) continue;
        for (int k = 0; k < b->nwarps; k++) {
            const ws_warp *w = &b->warps[k];
            if (w->state == WS_W_DONE || w->state == WS_W_BAR) continue;
            if (w->state == WS_W_RUN && w->gb_ninst && w->ninst - w->gb_ninst <= WS_GRID_SPIN_INSNS) continue;
            *armed = 0;
            return 0;
        }
    }
    uint32_t v;
    memcpy(&v, L->gstore + (L->coop_ws + 4 - L->gbase), sizeof v);
    if (*armed && v == *last) return 1;
    *armed = 1;
    *last = v;
    return 0;
}

/* The functional engine: blocks run one after another, and concurrently when they wait on each other. The
 * resident blocks sit in slots res[0..hi) (a new one takes the lowest free slot; every slot from hi on is free),
 * so a launch of many small blocks, one resident at a time, never scans the device's thousands of slots. */
void ws_functional_engine(ws_run *L)
{
    ws_block **res = calloc(L->resident, sizeof *res);
    uint64_t live = 0, hi = 0;
    int yielded = 0;
    grid_watch gw = { 0, 0, 0 };
    while (!L->fault) {
        /* admit a block when none is resident; when the resident ones all yielded without finishing (they wait on
         * each other), fill every free slot at once, as the device would hold them all */
        uint64_t unit = L->cluster_size ? (uint64_t)L->cluster_size : 1;   /* a cluster's blocks start together */
        while (L->next < L->nblocks && live + unit <= L->resident && (live == 0 || yielded || L->coop_ws)) {
            for (uint64_t u = 0; u < unit && L->next < L->nblocks; u++) {
                int64_t lin = ws_run_next_block(L);
                ws_block *b = ws_run_block_start(L, (uint64_t)lin);
                uint64_t i = 0;
                while (i < hi && res[i]) i++;
                res[i] = b;
                if (i == hi) hi++;
                live++;
            }
        }
        if (!live) break;
        uint64_t progress = 0;
        int finished = 0;
        for (uint64_t i = 0; i < hi && !L->fault; i++) {
            ws_block *b = res[i];
            if (!b) continue;
            progress += block_visit(L, b);
            if (b->done && b->cl) {   /* a cluster's blocks stay resident until all of them finished */
                if (!ws_cluster_done(b)) continue;
                ws_cluster *cl = b->cl;
                for (uint64_t j = 0; j < hi; j++)
                    if (res[j] && res[j]->cl == cl) {
                        ws_run_block_retire(L, res[j]);
                        res[j] = NULL;
                        live--;
                    }
                if (L->gpu->progress) ws_run_progress(L);
                finished = 1;
            } else if (b->done) {
                ws_run_block_retire(L, b);
                if (L->gpu->progress) ws_run_progress(L);
                res[i] = NULL;
                live--;
                finished = 1;
            }
        }
        while (hi && !res[hi - 1]) hi--;
        yielded = !finished;
        if (finished) gw.rounds = 0;   /* a block finished: progress */
        else if (L->coop_ws && !L->fault && grid_barrier_stuck(L, res, hi, progress, &gw)) {
            L->fault = WS_ERR_LAUNCH_FAILURE;
            snprintf(L->fault_msg, sizeof L->fault_msg,
                     "deadlock: the grid barrier (this_grid().sync()) of the cooperative kernel %s can never complete: "
                     "%llu of the grid's %llu blocks wait at it, the others finished without arriving",
                     L->entry->name, (unsigned long long)live, (unsigned long long)L->nblocks);
        }
        ws_run_watchdog(L);
        if (!progress && !finished && live && (live >= L->resident || L->next >= L->nblocks) && !L->fault) {
            L->fault = WS_ERR_LAUNCH_FAILURE;
            snprintf(L->fault_msg, sizeof L->fault_msg,
                     "deadlock: no warp of the %llu resident block(s) of %s can make progress (all wait at barriers)",
                     (unsigned long long)live, L->entry->name);
        }
    }
    for (uint64_t i = 0; i < hi; i++) if (res[i]) ws_run_block_retire(L, res[i]);
    free(res);
}

