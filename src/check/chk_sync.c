/* chk_sync.c - the control side of the checkers, run after every warp instruction: synccheck (divergent
 * __syncthreads, warps of a block at different barriers, member masks of __syncwarp and the *_sync built-ins,
 * threads exiting before a barrier), fences and barrier epochs for racecheck, device-side trap/assert, and
 * deadlock detection.
 *
 * Deadlock: a barrier deadlock (every resident warp waits) is detected by the engine; spin deadlocks are found
 * by probing. Once no block has finished for PROBE_AFTER warp instructions and no further block can become
 * resident, every warp's state (stack, registers) is hashed at sampled backward branches. A warp whose state at a
 * loop head repeats while no store anywhere changed memory (the memory generation `gen` is unchanged) is in a
 * cycle it can never leave: its next iterations compute exactly the same. When every resident warp is in such a
 * cycle, waits at a barrier or has finished, no warp can make progress: the launch is stopped and described. */
#include <stdlib.h>
#include <string.h>
#include "chk_int.h"

#define PROBE_AFTER ((uint64_t)1 << 21)   /* warp instructions without a block finishing before probing */

/* Threads of warp w in lanes (block-linear ids of the lowest and highest). */
static void lane_range(const ws_warp *w, uint32_t lanes, uint64_t *lo, uint64_t *hi)
{
    *lo = chk_thr(w, __builtin_ctz(lanes));
    *hi = chk_thr(w, 31 - __builtin_clz(lanes));
}

/* "threads (a,b,c)..(d,e,f)" for a lane set of warp w. */
static void lanes_text(const ws_warp *w, uint32_t lanes, char *buf, size_t cap)
{
    uint64_t lo, hi;
    uint32_t a[3], b[3];
    lane_range(w, lanes, &lo, &hi);
    chk_thr_dims(w->L, lo, a);
    chk_thr_dims(w->L, hi, b);
    if (lo == hi) snprintf(buf, cap, "thread (%u,%u,%u)", a[0], a[1], a[2]);
    else snprintf(buf, cap, "threads (%u,%u,%u)..(%u,%u,%u)", a[0], a[1], a[2], b[0], b[1], b[2]);
}

/* ---------- which lanes are on their way out ---------- */

/* per function: leave[pc] = 1 when a thread at pc can only exit the kernel, doing nothing visible on the way
 * (no memory access, call or synchronization): such threads count as exited for barriers and member masks */
struct chk_fninfo {
    const ws_func *fn;
    uint8_t *leave;
};

/* Whether an instruction only computes in registers or branches (nothing another thread could see). */
static int quiet_op(const ws_insn *in) { return !(in->iflags & WS_IF_VISIBLE); }

/* The exit table of fn (computed once per function). */
static const uint8_t *leave_of(ws_chk *c, const ws_func *fn)
{
    for (size_t i = 0; i < c->nfninfo; i++)
        if (c->fninfo[i].fn == fn) return c->fninfo[i].leave;
    if (c->nfninfo == c->capfninfo) {
        size_t nc = c->capfninfo ? c->capfninfo * 2 : 16;
        struct chk_fninfo *n = realloc(c->fninfo, nc * sizeof *n);
        if (!n) return NULL;
        c->fninfo = n;
        c->capfninfo = nc;
    }
    int n = fn->ncode;
    uint8_t *lv = calloc((size_t)n + 1, 1);
    if (!lv) return NULL;
    c->fninfo[c->nfninfo].fn = fn;
    c->fninfo[c->nfninfo].leave = lv;
    c->nfninfo++;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int pc = n - 1; pc >= 0; pc--) {
            if (lv[pc]) continue;
            const ws_insn *in = &fn->code[pc];
            int v = 0, uncond = in->guard < 0;
            if (in->op == WS_OP_EXIT || (in->op == WS_OP_RET && fn->is_entry)) {
                v = uncond || (pc + 1 < n && lv[pc + 1]);
            } else if (in->op == WS_OP_BRA) {
                int t = in->target >= 0 && in->target < n && lv[in->target];
                v = uncond ? t : t && pc + 1 < n && lv[pc + 1];
            } else if (quiet_op(in)) {
                v = pc + 1 < n && lv[pc + 1];
            }
            if (v) { lv[pc] = 1; changed = 1; }
        }
    }
    return lv;
}

/* Free the per-function analyses. */
void chk_sync_free(ws_chk *c)
{
    for (size_t i = 0; i < c->nfninfo; i++) free(c->fninfo[i].leave);
    free(c->fninfo);
    c->fninfo = NULL;
    c->nfninfo = c->capfninfo = 0;
}

/* Of the lanes in `lanes` (alive, not executing the current instruction), those that still have work to do; the
 * others wait only to exit (e.g. after `if (i >= n) return;`) and count as exited. */
static uint32_t lanes_still_syncing(ws_chk *c, const ws_warp *w, uint32_t lanes)
{
    uint32_t out = 0;
    int f = 0;   /* frames whose call lies below stack entry i */
    for (int i = 0; i < w->sp && lanes; i++) {
        while (f < w->nframes && i >= w->frames[f].stk_base) f++;
        uint32_t m = w->stk[i].mask & lanes;
        if (!m) continue;
        /* entry i belongs to the function called by frame f-1 (or the kernel when f == 0) */
        const ws_func *fn = f < w->nframes ? w->frames[f].fn : w->fn;   /* frames[f].fn made call f */
        const uint8_t *lv = leave_of(c, fn);
        int pc = w->stk[i].pc;
        if (!lv || pc < 0 || pc >= fn->ncode || !lv[pc]) out |= m;
        lanes &= ~m;
    }
    return out | lanes;   /* lanes found nowhere: assume they still have work */
}

/* ---------- synccheck ---------- */

/* A warp arrived at bar.sync / barrier.sync (or bar.red). */
static void barrier_arrive(ws_chk *c, ws_warp *w, const ws_rec *r)
{
    const ws_insn *in = r->in;
    uint32_t ex = r->exec;
    if (!ex) return;
    chk_blk *cb = chk_blk_of(c, w->blk);
    chk_warp *cw = &cb->warps[w->warp_in_block];
    int l0 = __builtin_ctz(ex);
    int id = (int)(w->regs[(size_t)in->s[0] * WS_LANES + (size_t)l0] & 15);
    int has_count = in->ns > (in->sub == WS_SUB_RED ? 2 : 1);
    if (c->checks & WS_CHK_SYNCCHECK) {
        uint32_t alive = w->full & ~w->exited, away = alive & ~ex;
        uint32_t absent = away ? lanes_still_syncing(c, w, away) : 0, leaving = away & ~absent;
        if (leaving) {   /* lanes on their way out (e.g. `if (i >= n) return;`): exited as far as barriers go */
            uint64_t lo, hi;
            lane_range(w, leaving, &lo, &hi);
            if (!cb->exit_noted || cw->epoch < cb->exit_epoch) cb->exit_epoch = cw->epoch;
            if (!cb->exit_noted || lo < cb->exit_tmin) cb->exit_tmin = lo;
            if (!cb->exit_noted || hi > cb->exit_tmax) cb->exit_tmax = hi;
            cb->exit_noted = 1;
        }
        if (!has_count && absent) {
            int fresh;
            chk_group *g = chk_group_get(c, WS_CHK_SYNCCHECK, CK_DIVBAR, chk_line_key(in, r->fn), NULL, 0, &fresh);
            if (g && fresh) {
                char t[160];
                snprintf(g->title, sizeof g->title, "Barrier error detected. Divergent thread(s) in warp");
                chk_where(c, r->fn, in, g->where, sizeof g->where, g->file, sizeof g->file, &g->line);
                lanes_text(w, absent, t, sizeof t);
                chk_detail(g, "%s of warp %d %s alive but do not take part in this __syncthreads(): only some of the "
                           "block's live threads reach it (a barrier inside a branch such as if (tid < stride))", t,
                           w->warp_in_block, __builtin_popcount(absent) == 1 ? "is" : "are");
            }
            if (g) chk_group_hit(c, g, w, l0);
        }
        int arrived = w->blk->bar_count[id];
        if (arrived <= 1 || !cb->phase_in[id]) {
            cb->phase_in[id] = in;
        } else if (cb->phase_in[id] != in && !has_count) {
            int fresh;
            chk_group *g = chk_group_get(c, WS_CHK_SYNCCHECK, CK_BARMISMATCH, in, cb->phase_in[id], 0, &fresh);
            if (g && fresh) {
                char other[512];
                snprintf(g->title, sizeof g->title, "Barrier error detected. Divergent thread(s) in block");
                chk_where(c, r->fn, in, g->where, sizeof g->where, g->file, sizeof g->file, &g->line);
                chk_where(c, r->fn, cb->phase_in[id], other, sizeof other, NULL, 0, NULL);
                chk_detail(g, "warp %d waits at this __syncthreads() while other warps of the block wait at the one at "
                           "%s: the threads of a block must all reach the same barrier", w->warp_in_block, other);
            }
            if (g) chk_group_hit(c, g, w, l0);
        }
    }
    cw->epoch++;
    cw->last_bar = in;
    cw->last_bar_fn = r->fn;
}

/* Name of a warp-synchronous built-in for messages. */
static const char *sync_name(const ws_insn *in)
{
    switch (in->op) {
    case WS_OP_SHFL: return "__shfl_*_sync()";
    case WS_OP_VOTE: return "__ballot_sync()/__any_sync()/__all_sync()";
    case WS_OP_MATCH: return "__match_*_sync()";
    case WS_OP_REDUX: return "__reduce_*_sync()";
    default: return "__syncwarp()";
    }
}

/* Check the member mask of a warp-synchronous instruction against the lanes that execute it. */
static void mask_check(ws_chk *c, ws_warp *w, const ws_rec *r)
{
    const ws_insn *in = r->in;
    int need = in->op == WS_OP_SHFL ? 4 : in->op == WS_OP_BAR ? 1 : 2;
    uint32_t ex = r->exec;
    if (in->ns < need || !ex || !(c->checks & WS_CHK_SYNCCHECK)) return;
    int l0 = __builtin_ctz(ex);
    const uint64_t *mreg = &w->regs[(size_t)in->s[in->ns - 1] * WS_LANES];
    uint32_t mask = (uint32_t)mreg[l0];
    uint32_t alive = w->full & ~w->exited;
    uint32_t missing = 0, outside = 0;
    /* each lane's own mask: groups of a warp may call with different masks (a sub-warp per row), each naming
     * itself and only lanes that execute it */
    for (uint32_t m = ex; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint32_t ml = (uint32_t)mreg[l];
        missing |= ml & alive & ~ex;
        if (!(ml >> l & 1)) { outside |= 1u << l; mask = ml; }
    }
    if (missing) missing = lanes_still_syncing(c, w, missing);
    if (!missing && !outside) return;
    int fresh;
    chk_group *g = chk_group_get(c, WS_CHK_SYNCCHECK, CK_MASK, chk_line_key(in, r->fn), NULL, 0, &fresh);
    if (!g) return;
    if (fresh) {
        char t[160];
        snprintf(g->title, sizeof g->title, "Barrier error detected. Invalid member mask in %s", sync_name(in));
        chk_where(c, r->fn, in, g->where, sizeof g->where, g->file, sizeof g->file, &g->line);
        if (missing) {
            lanes_text(w, missing, t, sizeof t);
            chk_detail(g, "the member mask 0x%08x names %s of warp %d, which %s alive but do not execute it "
                       "(they are on another path of a branch)", mask, t, w->warp_in_block,
                       __builtin_popcount(missing) == 1 ? "is" : "are");
        }
        if (outside) {
            lanes_text(w, outside, t, sizeof t);
            chk_detail(g, "%s of warp %d execute%s it but %s not in the member mask 0x%08x", t, w->warp_in_block,
                       __builtin_popcount(outside) == 1 ? "s" : "", __builtin_popcount(outside) == 1 ? "is" : "are",
                       mask);
        }
    }
    chk_group_hit(c, g, w, l0);
}

/* trap / __assertfail: the kernel stops. */
static void device_stop(ws_chk *c, ws_warp *w, const ws_rec *r, int kind)
{
    if (!r->exec || !(c->checks & WS_CHK_MEMCHECK)) return;
    int fresh;
    chk_group *g = chk_group_get(c, WS_CHK_MEMCHECK, kind, chk_line_key(r->in, r->fn), NULL, 0, &fresh);
    if (!g) return;
    if (fresh) {
        snprintf(g->title, sizeof g->title, "%s", kind == CK_TRAP ? "Device-side trap: a trap instruction (__trap()) "
                 "stopped the kernel" : "Device-side assertion failed: assert() stopped the kernel");
        chk_where(c, r->fn, r->in, g->where, sizeof g->where, g->file, sizeof g->file, &g->line);
        chk_detail(g, "the launch fails with %s at the next synchronizing call",
                   kind == CK_TRAP ? "cudaErrorLaunchFailure" : "cudaErrorAssert");
    }
    chk_group_hit(c, g, w, __builtin_ctz(r->exec));
}

/* ---------- deadlock ---------- */

/* Hash of a warp's whole execution state: stack, frames and register window. */
static uint64_t state_hash(const ws_warp *w)
{
    uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
    MIX(w->sp);
    for (int i = 0; i < w->sp; i++) {
        MIX(w->stk[i].pc);
        MIX(w->stk[i].rpc);
        MIX(w->stk[i].mask);
    }
    MIX(w->nframes);
    MIX(w->local_base);
    MIX(ws_warp_win(w));
    MIX(w->exited);
    size_t n = (size_t)w->fn->nregs * WS_LANES;   /* rows sr_lo..nregs-1: the window's storage */
    for (size_t i = (size_t)w->L->mod->sr_lo * WS_LANES; i < n; i++) MIX(w->regs[i]);
#undef MIX
    return h;
}

/* What warp j of block cb is doing, for deadlock and watchdog reports. */
static void warp_doing(ws_chk *c, chk_blk *cb, int j, char *buf, size_t cap)
{
    ws_warp *x = &cb->b->warps[j];
    chk_warp *cw = &cb->warps[j];
    char where[512];
    if (x->state == WS_W_DONE) {
        snprintf(buf, cap, "finished");
    } else if (x->state == WS_W_BAR && x->sp > 0) {
        chk_where(c, x->fn, &x->code[x->stk[x->sp - 1].pc - 1], where, sizeof where, NULL, 0, NULL);
        snprintf(buf, cap, "waiting at the barrier at %s", where);
    } else if (cw->conf_gen == c->gen + 1 && cw->loop_in) {
        chk_where(c, cw->loop_fn, cw->loop_in, where, sizeof where, NULL, 0, NULL);
        if (cw->has_load) {
            const chk_alloc *a = chk_live_find(c, cw->last_load);
            char al[200] = "";
            const ws_run *L = x->L;
            if (L && L->coop_ws && cw->last_load - L->coop_ws < 16)
                snprintf(al, sizeof al, " (the grid barrier of this cooperative launch: this_grid().sync() waits for "
                         "every block of the grid)");
            else if (a && a->addr == cw->last_load)
                snprintf(al, sizeof al, " (the allocation at 0x%llx of size %zu bytes)", (unsigned long long)a->addr,
                         a->size);
            else if (a)
                snprintf(al, sizeof al, " (%llu bytes into the allocation at 0x%llx of size %zu bytes)",
                         (unsigned long long)(cw->last_load - a->addr), (unsigned long long)a->addr, a->size);
            snprintf(buf, cap, "spinning in the loop at %s, re-reading 0x%llx%s, which no thread that can run changes",
                     where, (unsigned long long)cw->last_load, al);
        } else {
            snprintf(buf, cap, "spinning in the loop at %s, changing nothing", where);
        }
    } else if (x->sp > 0) {
        int pc = x->stk[x->sp - 1].pc;
        chk_where(c, x->fn, &x->code[pc > 0 ? pc - 1 : 0], where, sizeof where, NULL, 0, NULL);
        if (x->L->coop_ws && cw->has_load && cw->last_load - x->L->coop_ws < WS_COOP_WS_BYTES)   /* its last read */
            snprintf(buf, cap, "spinning at %s on the grid barrier of this cooperative launch (this_grid().sync() "
                     "waits for every block of the grid)", where);
        else
            snprintf(buf, cap, "running at %s", where);
    } else {
        snprintf(buf, cap, "stopped");
    }
}

/* Describe where the warps of block cb are (runs of warps doing the same); appends a line to g. */
static void describe_block(ws_chk *c, chk_group *g, chk_blk *cb)
{
    ws_block *b = cb->b;
    char line[2048];
    int n = snprintf(line, sizeof line, "block (%u,%u,%u):", b->id.x, b->id.y, b->id.z);
    for (int i = 0; i < b->nwarps && n < (int)sizeof line - 1;) {
        char what[900], next[900];
        warp_doing(c, cb, i, what, sizeof what);
        int j = i + 1;
        for (; j < b->nwarps; j++) {
            warp_doing(c, cb, j, next, sizeof next);
            if (strcmp(what, next)) break;
        }
        if (j - i == 1) n += snprintf(line + n, sizeof line - (size_t)n, "%s warp %d %s", i ? ";" : "", i, what);
        else n += snprintf(line + n, sizeof line - (size_t)n, "%s warps %d-%d %s", i ? ";" : "", i, j - 1, what);
        i = j;
    }
    chk_detail(g, "%s", line);
}

/* Order of blocks by grid position. */
static int blk_cmp(const void *a, const void *b)
{
    const chk_blk *x = *(chk_blk *const *)a, *y = *(chk_blk *const *)b;
    return x->b->linear < y->b->linear ? -1 : x->b->linear > y->b->linear;
}

/* Describe every resident block of the launch and why the rest cannot run. */
static void describe_launch(ws_chk *c, chk_group *g, ws_run *L, int spin)
{
    size_t live = 0;
    chk_blk **v = calloc(c->btab_cap + 1, sizeof *v);
    if (!v) return;
    for (size_t i = 0; i < c->btab_cap; i++)
        if (c->btab[i] && c->btab[i]->live) v[live++] = c->btab[i];
    qsort(v, live, sizeof *v, blk_cmp);
    const ws_device *d = L->gpu->dev;
    int sms = d && d->sm_count ? d->sm_count : 1;
    if (L->resident < L->nblocks)
        chk_detail(g, "%zu of the grid's %llu blocks are resident (the device holds at most %llu blocks of this kernel "
                   "at once: %llu per SM x %d SMs)", live, (unsigned long long)L->nblocks,
                   (unsigned long long)L->resident, (unsigned long long)(L->resident / (uint64_t)sms), sms);
    else
        chk_detail(g, "%zu of the grid's %llu blocks are resident (all of them fit on the device at once)", live,
                   (unsigned long long)L->nblocks);
    for (size_t i = 0; i < live && i < 8; i++) describe_block(c, g, v[i]);
    if (live > 8) chk_detail(g, "... and %zu more resident blocks", live - 8);
    free(v);
    if (c->admitted < L->nblocks && spin) {
        uint32_t b0[3], b1[3];
        chk_blk_dims(L, c->admitted, b0);
        chk_blk_dims(L, L->nblocks - 1, b1);
        chk_detail(g, "blocks (%u,%u,%u)..(%u,%u,%u) (%llu blocks) never started: a block becomes resident only when "
                   "a resident one finishes, and every resident block waits, so a block that waits for one of them "
                   "waits forever (a block must not wait for another block that may not be running: split the "
                   "phases into two kernel launches, or use a cooperative launch with a grid that fits)",
                   b0[0], b0[1], b0[2], b1[0], b1[1], b1[2], (unsigned long long)(L->nblocks - c->admitted));
    } else if (spin) {
        chk_detail(g, "every block of the grid is resident: the values the spinning warps wait for are never written "
                   "by any thread that can still run");
    }
}

/* Record a deadlock / watchdog finding with a description of the launch. */
static chk_group *stuck_finding(ws_chk *c, ws_run *L, int kind, const char *title, int spin)
{
    int fresh;
    chk_group *g = chk_group_get(c, WS_CHK_DEADLOCK, kind, NULL, NULL, 0, &fresh);
    if (!g) return NULL;
    snprintf(g->title, sizeof g->title, "%s", title);
    /* "at": the first waiting warp's location */
    for (size_t i = 0; i < c->btab_cap && !g->where[0]; i++) {
        chk_blk *cb = c->btab[i];
        if (!cb || !cb->live) continue;
        for (int k = 0; k < cb->b->nwarps && !g->where[0]; k++) {
            ws_warp *x = &cb->b->warps[k];
            chk_warp *cw = &cb->warps[k];
            if (cw->conf_gen == c->gen + 1 && cw->loop_in)
                chk_where(c, cw->loop_fn, cw->loop_in, g->where, sizeof g->where, g->file, sizeof g->file, &g->line);
            else if ((x->state == WS_W_BAR || x->state == WS_W_RUN) && x->sp > 0 && x->stk[x->sp - 1].pc > 0)
                chk_where(c, x->fn, &x->code[x->stk[x->sp - 1].pc - 1], g->where, sizeof g->where, g->file,
                          sizeof g->file, &g->line);
        }
    }
    describe_launch(c, g, L, spin);
    chk_group_hit(c, g, NULL, 0);
    c->dl_reported = 1;
    return g;
}

/* A warp was confirmed spinning: stop the launch when no warp can make progress. */
static void check_stuck(ws_chk *c, ws_warp *w, const ws_rec *r)
{
    ws_run *L = c->L;
    if (c->dl_reported) return;
    /* another block can still start (the timing engine places blocks as soon as an SM has room: after PROBE_AFTER
     * instructions without a block finishing, the blocks still waiting have no room) */
    if (c->admitted < L->nblocks && c->live_blocks < L->resident && !L->gpu->engine) return;
    for (size_t i = 0; i < c->btab_cap; i++) {
        chk_blk *cb = c->btab[i];
        if (!cb || !cb->live) continue;
        for (int k = 0; k < cb->b->nwarps; k++) {
            int st = cb->b->warps[k].state;
            if (st == WS_W_DONE || st == WS_W_BAR || st == WS_W_FAULT) continue;
            if (cb->warps[k].conf_gen == c->gen + 1) continue;
            /* the timing engine's schedulers may never pick a warp while others spin: one that ran no instruction
             * for PROBE_AFTER of the others' (and so changed nothing) waits as surely as they do */
            if (L->gpu->engine && cb->warps[k].ran_gen != c->gen + 1 && c->since_end - c->gen_since > PROBE_AFTER)
                continue;
            return;
        }
    }
    char title[700];
    snprintf(title, sizeof title, "Deadlock: no warp of %s can make progress (resident blocks spin forever waiting "
             "for each other or for blocks that cannot become resident)", c->kname);
    stuck_finding(c, L, CK_DEADLOCK, title, 1);
    ws_fault(w, r->in, WS_ERR_LAUNCH_FAILURE, "deadlock: every resident block of %s spins or waits forever "
             "(warpsim --check found no warp that can make progress)", L->entry->name);
}

/* Deadlock probe at a backward branch. */
static void probe(ws_chk *c, ws_warp *w, const ws_rec *r)
{
    if (w->state != WS_W_RUN || w->sp <= 0) return;
    int32_t pc = w->stk[w->sp - 1].pc, bpc = (int32_t)(r->in - w->code);
    if (pc > bpc || bpc < 0 || bpc >= w->fn->ncode) return;
    chk_blk *cb = chk_blk_of(c, w->blk);
    chk_warp *cw = &cb->warps[w->warp_in_block];
    if (++cw->tick & 7) return;
    uint64_t h = state_hash(w);
    if (cw->probe_pc == pc && cw->probe_hash == h && cw->probe_gen == c->gen) {
        if (cw->conf_gen != c->gen + 1) {
            cw->conf_gen = c->gen + 1;
            cw->loop_in = r->in;
            cw->loop_fn = r->fn;
            check_stuck(c, w, r);
        }
    } else {
        cw->probe_pc = pc;
        cw->probe_hash = h;
        cw->probe_gen = c->gen;
        cw->has_load = 0;
    }
}

/* Observer: after every executed warp instruction. */
void chk_post(void *ctx, ws_warp *w, const ws_rec *r)
{
    ws_chk *c = ctx;
    ws_run *L = c->L;
    if (!L) return;
    if (c->probing && c->probe_nw && r->is_mem) {
        uint32_t m = r->exec;
        while (m) {
            int l = __builtin_ctz(m);
            m &= m - 1;
            if (c->probe_ptr[l] && memcmp(c->probe_ptr[l], c->probe_old[l], c->probe_size)) {
                c->gen++;
                c->gen_since = c->since_end;
                break;
            }
        }
        c->probe_nw = 0;
    }
    if ((c->checks & WS_CHK_DEADLOCK) && ++c->since_end > PROBE_AFTER && !c->probing &&
        (c->admitted >= L->nblocks || c->live_blocks >= L->resident || L->gpu->engine)) {
        c->probing = 1;
        c->gen++;
        c->gen_since = c->since_end;
    }
    if (c->probing) {
        chk_blk *cb = chk_blk_of(c, w->blk);
        cb->warps[w->warp_in_block].ran_gen = c->gen + 1;
        if (L->gpu->engine && !(c->since_end & 0xffff)) check_stuck(c, w, r);
    }
    const ws_insn *in = r->in;
    unsigned f = in->iflags;
    if (in->op == WS_OP_WMMA_STORE) chk_mem_wmma_store(c, w, r);
    if ((c->checks & WS_CHK_RACECHECK) && WS_OP_IS_TENSOR(in->op) && in->op != WS_OP_CP_ASYNC && in->mma &&
        (in->op == WS_OP_CP_COMMIT || in->op == WS_OP_CP_WAIT || in->op == WS_OP_CP_WAIT_ALL ||
         in->mma->kind == WS_MX_CP_MBAR_ARRIVE))
        chk_async_group(c, w, r);
    /* a completed mbarrier wait orders the arrivals' earlier accesses before this warp's later ones (racecheck) */
    if (WS_OP_IS_TENSOR(in->op) && in->mma && r->exec &&
        (in->mma->kind == WS_MX_MB_TEST_WAIT || in->mma->kind == WS_MX_MB_TRY_WAIT) &&
        ((uint32_t)w->regs[(size_t)in->d[0] * WS_LANES] & r->exec))
        chk_blk_of(c, w->blk)->warps[w->warp_in_block].epoch++;
    if (!(f & CHK_POST_IFLAGS)) return;
    if (f & WS_IF_BARRIER) {
        if (in->sub == WS_SUB_SYNC) mask_check(c, w, r);
        else if (in->sub != WS_SUB_ARRIVE) barrier_arrive(c, w, r);
    } else if (f & WS_IF_FENCE) {
        if (r->exec && c->nfence) c->fence[w->blk->linear & (c->nfence - 1)]++;
    } else if (f & WS_IF_WARPSYNC) {
        mask_check(c, w, r);
    } else if (in->op == WS_OP_BRA) {
        if (c->probing) probe(c, w, r);
    } else if (in->op == WS_OP_TRAP) {
        device_stop(c, w, r, CK_TRAP);
    } else if (in->op == WS_OP_CALL) {
        if (in->call && in->call->builtin == WS_BI_ASSERTFAIL) device_stop(c, w, r, CK_ASSERT);
    }
}

/* Launch end: describe a barrier deadlock or a watchdog stop that the engine found. */
void chk_sync_launch_end(ws_chk *c, ws_run *L, int status)
{
    if (!(c->checks & WS_CHK_DEADLOCK) || c->dl_reported) return;
    char title[700];
    if (status == WS_ERR_LAUNCH_FAILURE && !strncmp(L->fault_msg, "deadlock", 8)) {
        snprintf(title, sizeof title, "Deadlock: no warp of %s can make progress (every resident warp waits at a "
                 "barrier that cannot complete)", c->kname);
        chk_group *g = stuck_finding(c, L, CK_DEADLOCK, title, 0);
        if (g) chk_detail(g, "a barrier completes when every live warp of the block arrives at it (or its thread count "
                          "is reached); here the warps wait at barriers that the others never reach");
    } else if (status == WS_ERR_LAUNCH_TIMEOUT && !strncmp(L->fault_msg, "watchdog", 8)) {
        snprintf(title, sizeof title, "Watchdog: %s was stopped after %llu warp instructions (--max-instructions / "
                 "--max-cycles): an endless loop?", c->kname, (unsigned long long)L->max_inst);
        stuck_finding(c, L, CK_WATCHDOG, title, 0);
    }
}
