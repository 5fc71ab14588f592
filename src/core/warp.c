/* warp.c - SIMT control flow: the reconvergence stack, branches, calls and returns, exits, barriers, and the
 * warp-synchronous built-ins (shfl, vote, match, redux, activemask).
 *
 * Independent thread scheduling (sm_70 and later; off with --simt=stack): the stack still decides which path of a
 * warp runs, so ordinary divergent code runs and reconverges exactly as in the stack model, but a path may give the
 * others a turn: after WS_ITS_SPINS backward branches with another path able to run (a lane spinning on a lock or
 * a flag that a lane of its own warp must set), and at a __syncwarp (bar.warp.sync) whose lanes have not all
 * arrived. The path that gets the turn is the nearest one below the top: a pending path, or lanes that have
 * reached a reconvergence point and now run on past it (independent progress) to the next one out. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "ops.h"
#include "regpool.h"

/* backward branches a path takes, while another path of its warp could run, before it gives that one a turn */
#define WS_ITS_SPINS 256

/* Push an entry on the warp's reconvergence stack. */
static void stk_push(ws_warp *w, int32_t pc, int32_t rpc, uint32_t mask)
{
    if (w->sp == w->stk_cap) {
        w->stk_cap = w->stk_cap ? w->stk_cap * 2 : 16;
        w->stk = realloc(w->stk, (size_t)w->stk_cap * sizeof *w->stk);
    }
    w->stk[w->sp++] = (ws_stk){ .pc = pc, .rpc = rpc, .mask = mask };
}

/* First stack entry of the current call frame (paths trade turns only inside it). */
static int frame_base(const ws_warp *w)
{
    return w->nframes ? w->frames[w->nframes - 1].stk_base : 0;
}

/* Remove stack entry j. */
static void stk_remove(ws_warp *w, int j)
{
    memmove(&w->stk[j], &w->stk[j + 1], (size_t)(w->sp - 1 - j) * sizeof *w->stk);
    w->sp--;
}

/* Independent thread scheduling: give the top of w's stack to the nearest other path below it (inside the call
 * frame) whose lanes meet want: a pending path moves up; lanes that reached a reconvergence point (a path parked
 * at its rpc, or a token's lanes that no entry above still runs) leave it and run on to the next point out.
 * Waiting paths (at a __syncwarp) are passed over. Returns 1 when another path got the top. */
static int its_switch(ws_warp *w, uint32_t want)
{
    int base = frame_base(w);
    uint32_t busy = w->stk[w->sp - 1].mask;          /* lanes of the entries above j */
    for (int j = w->sp - 2; j >= base; busy |= w->stk[j--].mask) {
        ws_stk e = w->stk[j];
        if (!e.mask || e.wait) continue;
        uint32_t parked = e.token ? e.mask & ~busy : e.pc == e.rpc ? e.mask : 0;
        if ((!e.token && e.pc != e.rpc) || (e.token && parked == e.mask)) {
            if (!(e.mask & want)) continue;          /* a pending path (or a token whose lanes all arrived) */
            stk_remove(w, j);
            w->stk[w->sp - 1].spins = 0;
            e.spins = 0;
            e.token = 0;
            stk_push(w, e.pc, e.rpc, e.mask);
            return 1;
        }
        if (!(parked & want)) continue;
        int32_t at = e.token ? e.pc : e.rpc, out = -1;
        int k = e.token ? j : -1;                    /* the token whose point the lanes leave */
        for (int i = j - 1; k < 0 && i >= base; i--)
            if (w->stk[i].token && w->stk[i].pc == at) k = i;
        if (k < 0) continue;
        out = w->stk[k].rpc;
        w->stk[k].mask &= ~parked;
        if (!e.token) stk_remove(w, j);
        if (!w->stk[k].mask) stk_remove(w, k);
        w->stk[w->sp - 1].spins = 0;
        stk_push(w, at, out, parked);
        return 1;
    }
    return 0;
}

/* A backward branch of the top path: after WS_ITS_SPINS of them it gives another path its turn. */
static void its_spin(ws_warp *w)
{
    ws_stk *top = &w->stk[w->sp - 1];
    if (++top->spins < WS_ITS_SPINS) return;
    top->spins = 0;
    its_switch(w, ~0u);
}

/* bra: uniform jump, or divergence with reconvergence at the immediate post-dominator */
static void h_bra(ws_warp *w, const ws_insn *in, uint32_t taken)
{
    ws_stk *top = &w->stk[w->sp - 1];
    uint32_t cur = top->mask;
    int32_t fall = top->pc, rpc = in->rpc;
    int back = in->target < fall && w->L->its && w->sp > 1;
    if (taken == cur) {
        top->pc = in->target;
        if (back) its_spin(w);
        return;
    }
    uint32_t nt = cur & ~taken;
    if (rpc == top->rpc) {
        top->pc = fall;
        top->mask = nt;
    } else {
        top->pc = rpc;
        top->token = 1;
        if (fall != rpc) stk_push(w, fall, rpc, nt);
    }
    if (in->target != rpc) {
        stk_push(w, in->target, rpc, taken);
        if (back) its_spin(w);
    }
}

/* brx.idx: indirect branch through a target list; lanes with different targets diverge */
static void h_brx(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int a = in->s[0];
    uint32_t left = mask;
    ws_stk *top = &w->stk[w->sp - 1];
    uint32_t cur = top->mask;
    int32_t fall = top->pc, rpc = in->rpc;
    int first = 1;
    while (left) {
        int l0 = __builtin_ctz(left);
        uint32_t idx = (uint32_t)RG(a, l0);
        if (idx >= (uint32_t)in->ntargets) { ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "brx.idx index %u out of range", idx); return; }
        uint32_t group = 0;
        FOR_LANES(left, { if ((uint32_t)RG(a, l) == idx) group |= 1u << l; });
        left &= ~group;
        if (first && group == cur) { w->stk[w->sp - 1].pc = in->targets[idx]; return; }
        if (first) {
            ws_stk *t = &w->stk[w->sp - 1];
            uint32_t rest = cur & ~mask;
            if (rpc == t->rpc) { t->pc = fall; t->mask = rest; if (!rest) w->sp--; }
            else { t->pc = rpc; t->token = 1; if (rest) stk_push(w, fall, rpc, rest); }
            first = 0;
        }
        stk_push(w, in->targets[idx], rpc, group);
    }
}

/* Pop empty entries off the stack top, completing function returns at frame boundaries. */
static void stk_cleanup(ws_warp *w);

/* Finish a call frame: copy return values and restore the caller's state. */
static void frame_return(ws_warp *w)
{
    ws_frame *fr = &w->frames[--w->nframes];
    const ws_call *c = fr->call->call;
    const ws_func *callee = w->fn;
    if (c && c->has_ret && callee->has_ret) {
        size_t stride = w->L->local_stride;
        uint32_t m = fr->ret_mask;
        while (m) {
            int l = __builtin_ctz(m);
            m &= m - 1;
            uint8_t *base = w->local + (size_t)l * stride;
            memcpy(base + fr->caller_local + c->ret.dst_off, base + w->local_base + callee->ret_off, callee->ret_size);
        }
    }
    w->fn = fr->fn;
    w->code = fr->fn->code;
    w->regs = ws_rows_at(w->reg_stack + fr->regs_off, w->L->mod->sr_lo);
    w->local_base = fr->caller_local;
}

/* Lanes that arrived at a __syncwarp: the top path's and those of the waiting paths of the frame. */
static uint32_t its_arrived(const ws_warp *w)
{
    uint32_t a = w->stk[w->sp - 1].mask;
    for (int i = frame_base(w); i < w->sp - 1; i++)
        if (w->stk[i].wait) a |= w->stk[i].mask;
    return a;
}

/* A waiting path got the top back: it goes on when the lanes it waits for arrived (or exited), else another path
 * that holds some of them gets a turn; when none can come, it goes on. */
static void its_resume(ws_warp *w)
{
    while (w->sp > 0 && w->stk[w->sp - 1].wait) {
        ws_stk *top = &w->stk[w->sp - 1];
        uint32_t missing = top->need & (w->full & ~w->exited) & ~its_arrived(w);
        if (missing && its_switch(w, missing)) continue;
        top->wait = 0;
    }
}

/* Pop empty entries off the stack top, completing function returns at frame boundaries. */
static void stk_cleanup(ws_warp *w)
{
    while (w->sp > 0 && w->stk[w->sp - 1].mask == 0) {
        w->sp--;
        if (w->nframes && w->sp == w->frames[w->nframes - 1].stk_base) frame_return(w);
    }
    if (w->sp == 0) w->state = WS_W_DONE;
    else if (w->stk[w->sp - 1].wait) its_resume(w);
}

/* Pop the top entry at its reconvergence point (and any emptied entries below it). */
void ws_warp_pop(ws_warp *w)
{
    w->sp--;
    if (w->nframes && w->sp == w->frames[w->nframes - 1].stk_base) frame_return(w);
    stk_cleanup(w);
}

/* Remove lanes from the warp (exit / return from the entry function). */
void ws_warp_exit_lanes(ws_warp *w, uint32_t lanes)
{
    w->exited |= lanes;
    for (int i = 0; i < w->sp; i++) w->stk[i].mask &= ~lanes;
    for (int f = 0; f < w->nframes; f++) w->frames[f].ret_mask &= ~lanes;
    stk_cleanup(w);
}

/* Return lanes from the current function. */
void ws_warp_return(ws_warp *w, uint32_t lanes)
{
    if (!w->nframes) { ws_warp_exit_lanes(w, lanes); return; }
    ws_frame *fr = &w->frames[w->nframes - 1];
    fr->ret_mask |= lanes;
    for (int i = fr->stk_base; i < w->sp; i++) w->stk[i].mask &= ~lanes;
    stk_cleanup(w);
}

/* ret */
static void h_ret(ws_warp *w, const ws_insn *in, uint32_t mask) { (void)in; ws_warp_return(w, mask); }
/* exit */
static void h_exit(ws_warp *w, const ws_insn *in, uint32_t mask) { (void)in; ws_warp_exit_lanes(w, mask); }
/* trap: aborts the kernel */
static void h_trap(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    int l = __builtin_ctz(mask);
    /* a grid group outside a cooperative launch: cooperative_groups traps when its workspace (%envreg1/2) is 0 */
    int grid_group = !w->L->coop_ws && (w->L->mod->sreg_used & (1ull << WS_SR_ENVREG1));
    ws_fault(w, in, WS_ERR_LAUNCH_FAILURE, "trap instruction executed by thread (%u,%u,%u) in block (%u,%u,%u)%s",
             (unsigned)RG(WS_SR_TID_X, l), (unsigned)RG(WS_SR_TID_Y, l), (unsigned)RG(WS_SR_TID_Z, l),
             w->blk->id.x, w->blk->id.y, w->blk->id.z,
             grid_group ? " (the kernel uses a grid group: this_grid().sync() needs cudaLaunchCooperativeKernel)" : "");
}
/* bar.warp.sync membermask (__syncwarp): with independent thread scheduling the path waits until every
 * non-exited lane of the mask has arrived at a bar.warp.sync, while a path holding the missing lanes runs; lanes
 * that cannot come (they wait at a reconvergence point outside this call) let it go on. The stack model: a no-op. */
static void h_warpsync(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    if (!w->L->its) return;
    uint32_t live = w->full & ~w->exited;
    uint32_t want = (uint32_t)RG(in->s[0], __builtin_ctz(mask)) & live, arrived = its_arrived(w);
    if (want & ~arrived) {
        ws_stk *top = &w->stk[w->sp - 1];
        top->wait = 1;
        top->need = want;
        if (its_switch(w, want & ~arrived)) return;
        top->wait = 0;
    }
    for (int i = frame_base(w); i < w->sp - 1; i++)
        if (w->stk[i].wait && !(w->stk[i].need & live & ~arrived)) w->stk[i].wait = 0;
}

/* no-op instructions: fences, memory barriers, sleeps, profiler events */
static void h_nop(ws_warp *w, const ws_insn *in, uint32_t mask) { (void)w; (void)in; (void)mask; }

/* call: push a frame, pass parameters through local memory, jump to the callee */
static void h_call(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const ws_call *c = in->call;
    if (c->builtin == WS_BI_VPRINTF) { ws_vprintf(w, in, mask); return; }
    if (c->builtin == WS_BI_ASSERTFAIL) { ws_assert_fail(w, in, mask); return; }
    if (c->builtin >= WS_BI_CDP_PARAM_BUFFER) { ws_cdp_call(w, in, mask); return; }
    int fi = c->func;
    if (fi < 0) {
        /* indirect call: lanes calling the same function go together; the rest call again afterwards */
        int l0 = __builtin_ctz(mask);
        uint64_t target = RG(in->s[0], l0);
        uint32_t group = 0;
        FOR_LANES(mask, { if (RG(in->s[0], l) == target) group |= 1u << l; });
        uint64_t idx = (target - WS_FUNC_BASE) / 16;
        if (target < WS_FUNC_BASE || (target - WS_FUNC_BASE) % 16 || idx >= (uint64_t)w->L->mod->nfuncs) {
            ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "indirect call through invalid function pointer 0x%llx",
                     (unsigned long long)target);
            return;
        }
        fi = (int)idx;
        if (group != mask) {
            int32_t next = w->stk[w->sp - 1].pc;
            w->stk[w->sp - 1].token = 1;             /* the lanes meet again after the call */
            stk_push(w, next - 1, next, mask & ~group);
            stk_push(w, next, next, group);
            mask = group;
        }
    }
    const ws_func *f = &w->L->mod->funcs[fi];
    if (f->builtin || !f->decoded) {
        ws_fault(w, in, WS_ERR_INVALID_PTX, "call of function '%s', which has no body in the module", f->name);
        return;
    }
    size_t stride = w->L->local_stride;
    uint32_t new_local = w->local_base + (uint32_t)w->fn->frame_size;
    if (new_local + f->frame_size > stride) {
        ws_fault(w, in, WS_ERR_LAUNCH_OUT_OF_RESOURCES, "call stack overflow calling '%s' (%zu bytes of local memory per thread)",
                 f->name, stride);
        return;
    }
    /* register window for the callee (windows hold rows sr_lo..nregs-1: ws_rows_at) */
    const int lo = w->L->mod->sr_lo;
    size_t cur_off = ws_warp_win(w);
    size_t new_off = cur_off + ws_win_slots(w->L->mod, w->fn);
    size_t need = new_off + ws_win_slots(w->L->mod, f);
    if (need > w->reg_stack_slots) {
        size_t ns = need * 2;
        uint64_t *nr = ws_regpool_get(w->L->gpu, ns);
        if (!nr) { ws_fault(w, in, WS_ERR_LAUNCH_OUT_OF_RESOURCES, "out of memory for registers"); return; }
        memcpy(nr, w->reg_stack, w->reg_stack_slots * sizeof(uint64_t));
        ws_regpool_put(w->L->gpu, w->reg_stack, w->reg_stack_slots);
        w->reg_stack = nr;
        w->reg_stack_slots = ns;
        w->regs = ws_rows_at(nr + cur_off, lo);
    }
    /* arguments */
    uint32_t m = mask;
    while (m) {
        int l = __builtin_ctz(m);
        m &= m - 1;
        uint8_t *base = w->local + (size_t)l * stride;
        for (int i = 0; i < c->nargs && i < f->nparams; i++)
            memcpy(base + new_local + f->param_off[i], base + w->local_base + c->args[i].src_off, f->param_size[i]);
    }
    uint64_t *nr = ws_rows_at(w->reg_stack + new_off, lo);   /* the callee's row 0 */
    memcpy(nr + (size_t)lo * WS_LANES, w->reg_stack + cur_off, sizeof(uint64_t) * (size_t)(WS_SR_COUNT - lo) * WS_LANES);
    for (int k = 0; k < f->nconst; k++) {
        uint64_t v = f->const_val[k], *slot = nr + (size_t)(f->first_const + k) * WS_LANES;
        for (int l = 0; l < WS_LANES; l++) slot[l] = v;
    }
    if (w->nframes == w->frames_cap) {
        w->frames_cap = w->frames_cap ? w->frames_cap * 2 : 8;
        w->frames = realloc(w->frames, (size_t)w->frames_cap * sizeof *w->frames);
    }
    w->frames[w->nframes++] = (ws_frame){ w->fn, cur_off, w->local_base, w->sp, in, 0 };
    stk_push(w, 0, -1, mask);
    w->fn = f;
    w->code = f->code;
    w->regs = nr;
    w->local_base = new_local;
}

/* bar.sync / barrier.sync / bar.arrive / bar.red */
static void h_bar(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    int l0 = __builtin_ctz(mask);
    int id = (int)(RG(in->s[0], l0) & 15);
    int count = in->ns > (in->sub == WS_SUB_RED ? 2 : 1) ? (int)RG(in->s[1], l0) : 0;
    ws_block *b = w->blk;
    int ws = w->L->warp_size;
    b->bar_expect[id] = count ? (count + ws - 1) / ws : 0;
    if (in->sub == WS_SUB_RED) {
        int pi = in->s[in->ns - 1];
        uint32_t p = PM(pi);
        if (in->flags & WS_F_NEG2) p = ~p;
        p &= mask;
        if (b->bar_count[id] == 0) b->bar_red[id] = in->type2 == WS_SUB_AND ? 1 : 0;
        if (in->type2 == WS_SUB_POPC) b->bar_red[id] += (uint32_t)__builtin_popcount(p);
        else if (in->type2 == WS_SUB_AND) b->bar_red[id] &= (p == mask);
        else b->bar_red[id] |= (p != 0);
    }
    b->bar_count[id]++;
    if (in->sub == WS_SUB_ARRIVE) return;
    w->bar_id = id;
    w->state = WS_W_BAR;
}

/* The lane map of a shuffle whose lane and clamp operands (bval, cval) are the same in all lanes: each lane's
 * source lane (ws_shfl_lane's rule) and the in-range bits, kept in the warp's small cache (a loop or an unrolled
 * sequence shuffles with the same few operand pairs again and again). */
static const ws_shfl_map *shfl_map_uniform(ws_warp *w, const ws_insn *in, uint32_t bval, uint32_t cval)
{
    ws_shfl_map *e = &w->shfl_maps[((bval * 0x9e3779b1u) ^ cval ^ in->sub) % WS_SHFL_MAPS];
    if (e->valid && e->b == bval && e->c == cval && e->sub == in->sub && e->full == w->full) return e;
    e->ok = 0;
    for (int l = 0; l < 32; l++) {
        int ok;
        e->j[l] = (int8_t)ws_shfl_lane(w, in, l, bval, cval, &ok);
        e->ok |= (uint32_t)ok << l;
    }
    e->b = bval;
    e->c = cval;
    e->sub = (uint8_t)in->sub;
    e->full = w->full;
    e->valid = 1;
    return e;
}

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
static void h_shfl(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    uint32_t copy[32], pbits = 0;
    const uint64_t *A = &RG(a, 0);
    if (d == a)   /* the destination overwrites the sources: read a copy */
        for (int l = 0; l < 32; l++) copy[l] = (uint32_t)A[l];
#define SRC(j) (d == a ? copy[j] : (uint32_t)A[j])
    /* lane and clamp operands the same in every active lane (immediates, or uniform values): one lane map */
    const int l0 = __builtin_ctz(mask);
    const uint32_t bv = (uint32_t)RG(b, l0), cv = (uint32_t)RG(c, l0);
    const int fc = w->fn->first_const;   /* operands from here on are constants: the same in every lane */
    uint32_t differ = 0;
    if (b < fc && c < fc) FOR_LANES(mask, { differ |= ((uint32_t)RG(b, l) ^ bv) | ((uint32_t)RG(c, l) ^ cv); });
    else if (b < fc) FOR_LANES(mask, { differ |= (uint32_t)RG(b, l) ^ bv; });
    else if (c < fc) FOR_LANES(mask, { differ |= (uint32_t)RG(c, l) ^ cv; });
    if (!differ) {
        const ws_shfl_map *e = shfl_map_uniform(w, in, bv, cv);
        FOR_LANES(mask, { RG(d, l) = SRC(e->j[l]); });
        if (in->d[1] != WS_SR_SINK) PSET(in->d[1], e->ok, mask);
        return;
    }
    FOR_LANES(mask, {
        int ok;
        int j = ws_shfl_lane(w, in, l, (uint32_t)RG(b, l), (uint32_t)RG(c, l), &ok);
        RG(d, l) = SRC(j);
        pbits |= (uint32_t)ok << l;
    });
#undef SRC
    if (in->d[1] != WS_SR_SINK) PSET(in->d[1], pbits, mask);
}

/* vote.sync.{all,any,uni,ballot} */
static void h_vote(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    uint32_t p = PM(in->s[0]);
    if (in->flags & WS_F_NEG1) p = ~p;
    p &= mask;
    if (in->sub == WS_SUB_BALLOT) {
        const int d = in->d[0];
        FOR_LANES(mask, { RG(d, l) = p; });
        return;
    }
    int r;
    switch (in->sub) {
    case WS_SUB_ALL: r = p == mask; break;
    case WS_SUB_ANY: r = p != 0; break;
    default: r = p == 0 || p == mask; break;
    }
    PSET(in->d[0], r ? 0xffffffffu : 0, mask);
}

/* match.{any,all}.sync.b32/b64 d[|p], a, membermask */
static void h_match(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0];
    int is64 = ws_type_size(in->type) == 8;
    uint64_t v[32];
    for (int l = 0; l < 32; l++) v[l] = is64 ? RG(a, l) : (uint32_t)RG(a, l);
    if (in->sub == WS_SUB_ALL) {
        int l0 = __builtin_ctz(mask), same = 1;
        FOR_LANES(mask, { if (v[l] != v[l0]) same = 0; });
        FOR_LANES(mask, { RG(d, l) = same ? mask : 0; });
        if (in->d[1] != WS_SR_SINK) PSET(in->d[1], same ? 0xffffffffu : 0, mask);
        return;
    }
    uint32_t res[32];
    FOR_LANES(mask, {
        uint32_t g = 0;
        uint32_t m2 = mask;
        while (m2) { int k = __builtin_ctz(m2); m2 &= m2 - 1; if (v[k] == v[l]) g |= 1u << k; }
        res[l] = g;
    });
    FOR_LANES(mask, { RG(d, l) = res[l]; });
}

/* redux.sync.op.type d, a, membermask */
static void h_redux(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0];
    int sgn = in->type == WS_T_S32;
    uint32_t acc = in->sub == WS_SUB_AND ? 0xffffffffu : in->sub == WS_SUB_MIN ? (sgn ? 0x7fffffffu : 0xffffffffu) : in->sub == WS_SUB_MAX ? (sgn ? 0x80000000u : 0) : 0;
    FOR_LANES(mask, {
        uint32_t x = (uint32_t)RG(a, l);
        switch (in->sub) {
        case WS_SUB_ADD: acc += x; break;
        case WS_SUB_AND: acc &= x; break;
        case WS_SUB_OR: acc |= x; break;
        case WS_SUB_XOR: acc ^= x; break;
        case WS_SUB_MIN: acc = sgn ? ((int32_t)x < (int32_t)acc ? x : acc) : (x < acc ? x : acc); break;
        default: acc = sgn ? ((int32_t)x > (int32_t)acc ? x : acc) : (x > acc ? x : acc); break;
        }
    });
    FOR_LANES(mask, { RG(d, l) = acc; });
}

/* activemask.b32 d */
static void h_activemask(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0];
    uint32_t act = w->stk[w->sp - 1].mask;
    FOR_LANES(mask, { RG(d, l) = act; });
}

/* Handler for a control-flow or warp-level instruction. */
ws_handler ws_ctl_handler(const ws_insn *in)
{
    switch (in->op) {
    case WS_OP_BRA: return h_bra;
    case WS_OP_BRX: return in->ntargets > 0 ? h_brx : NULL;
    case WS_OP_CALL: return h_call;
    case WS_OP_RET: return h_ret;
    case WS_OP_EXIT: return h_exit;
    case WS_OP_TRAP: case WS_OP_BRKPT: return in->op == WS_OP_TRAP ? h_trap : h_nop;
    case WS_OP_BAR: case WS_OP_BARRIER:
        if (in->sub == WS_SUB_RED && !(in->type2 == WS_SUB_POPC || in->type2 == WS_SUB_AND || in->type2 == WS_SUB_OR)) return NULL;
        if (in->sub == WS_SUB_SYNC) return h_warpsync;
        return h_bar;
    case WS_OP_MEMBAR: case WS_OP_FENCE: case WS_OP_NANOSLEEP: case WS_OP_PMEVENT: return h_nop;
    case WS_OP_SHFL: return in->sub >= WS_SUB_UP && in->sub <= WS_SUB_IDX ? h_shfl : NULL;
    case WS_OP_VOTE: return h_vote;
    case WS_OP_MATCH: return h_match;
    case WS_OP_REDUX: return h_redux;
    case WS_OP_ACTIVEMASK: return h_activemask;
    default: return NULL;
    }
}
