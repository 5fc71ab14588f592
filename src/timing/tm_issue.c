/* tm_issue.c - issuing warp instructions in the timing model: the static facts of each instruction, the scoreboard
 * (when a warp's next instruction can issue), issue itself (the functional core runs the instruction; its pipeline,
 * SASS weight and results' ready cycles), and the sub-partitions' warp schedulers. */
#include <stdlib.h>
#include "tm_int.h"

/* How ptxas (sm_80 and later) compiles a wmma.load of an A or B fragment: an ldmatrix of the fragment (LDSM: a
 * .shared load of 16-bit elements, or of 8-bit ones in the layout the mma reads), one load per fragment register
 * (any other: LD through a generic address, LDS from .shared), those followed by a movmatrix per register (MOVM: a
 * generic load of 16-bit elements in the transposed layout, B row-major or A column-major), or one load per element
 * merged by byte permutes (8-bit elements in the transposed layout); seen in tests/data/h200/tensor.cu's SASS
 * (tensor_sass.csv, tensor/README.md). WMMA_AS_IS: accumulator and sub-byte fragments, timed as one access. */
enum wmma_form { WMMA_AS_IS, WMMA_LDSM, WMMA_PER_REG, WMMA_PER_REG_MOVM, WMMA_PER_BYTE };
/* Bytes of one fragment register. */
#define WMMA_REG_BYTES 4

/* The form of wmma.load in and the LSU instructions it takes (*nlsu). */
static int wmma_form(const ws_insn *in, int *nlsu)
{
    *nlsu = 1;
    const ws_mma *x = in->mma;
    if (in->op != WS_OP_WMMA_LOAD || !x || (x->kind != WS_MX_LOAD_A && x->kind != WS_MX_LOAD_B)) return WMMA_AS_IS;
    int bytes;
    switch (x->kind == WS_MX_LOAD_A ? x->atype : x->btype) {
    case WS_MT_F16: case WS_MT_BF16: bytes = 2; break;
    case WS_MT_S8: case WS_MT_U8: bytes = 1; break;
    case WS_MT_TF32: bytes = 4; break;
    case WS_MT_F64: bytes = 8; break;
    default: return WMMA_AS_IS;
    }
    int trans = x->kind == WS_MX_LOAD_A ? x->alayout == 1 : x->alayout == 0;
    int shared = x->space == WS_S_SHARED;
    if (bytes == 1 && trans) { *nlsu = x->na * WMMA_REG_BYTES; return WMMA_PER_BYTE; }
    if (shared && bytes <= 2) return WMMA_LDSM;
    *nlsu = x->na;
    return bytes == 2 && trans ? WMMA_PER_REG_MOVM : WMMA_PER_REG;
}

/* Cycles an mma occupies its sub-partition's tensor pipe: m*n*k multiply-adds at the preset's rate for its input
 * type, shared by the SM's sub-partitions. */
static int tensor_cycles(const ws_tm *tm, const ws_insn *in)
{
    const ws_device *d = tm->dev;
    if (!WS_OP_IS_TENSOR(in->op) || !in->mma) return 1;
    int t = in->mma->atype, rate = d->tensor_fma_f16_per_sm;
    if (t == WS_MT_TF32) rate = d->tensor_fma_tf32_per_sm;
    else if (t == WS_MT_F64) rate = d->tensor_fma_f64_per_sm;
    else if (t == WS_MT_S8 || t == WS_MT_U8 || t == WS_MT_S4 || t == WS_MT_U4 || t == WS_MT_B1) rate = d->tensor_fma_int8_per_sm;
    int nsp = d->subpartitions > 0 ? d->subpartitions : 4, per_sp = rate / nsp;
    if (per_sp < 1) per_sp = 1;
    int rows = in->op == WS_OP_WGMMA ? in->mma->m / 4 : in->mma->m;   /* wgmma: each warp its quarter's rows */
    int c = (rows * in->mma->n * in->mma->k + per_sp - 1) / per_sp;
    return c < 1 ? 1 : c;
}

/* Dependent-issue latency (cycles) and waiter's stall reason of every latency class, from the device. */
void tm_latency_table(const ws_device *d, int *cycles, int *kind)
{
    static const unsigned char waits[WS_LAT_COUNT] = {
        [WS_LAT_INT] = WS_ST_WAIT, [WS_LAT_FP32] = WS_ST_WAIT, [WS_LAT_FP64] = WS_ST_WAIT,
        [WS_LAT_SFU] = WS_ST_SHORT_SCOREBOARD, [WS_LAT_SFU64] = WS_ST_SHORT_SCOREBOARD,
        [WS_LAT_DIV32] = WS_ST_SHORT_SCOREBOARD, [WS_LAT_DIV64] = WS_ST_SHORT_SCOREBOARD,
        [WS_LAT_IDIV] = WS_ST_SHORT_SCOREBOARD, [WS_LAT_IREM] = WS_ST_WAIT,
        [WS_LAT_SHFL] = WS_ST_SHORT_SCOREBOARD, [WS_LAT_CVT] = WS_ST_WAIT,
        [WS_LAT_S2R] = WS_ST_SHORT_SCOREBOARD, [WS_LAT_BRANCH] = WS_ST_WAIT, [WS_LAT_TENSOR] = WS_ST_WAIT,
    };
    cycles[WS_LAT_INT] = d->lat_int;
    cycles[WS_LAT_FP32] = d->lat_fp32;
    cycles[WS_LAT_FP64] = d->lat_fp64;
    cycles[WS_LAT_SFU] = d->lat_sfu;
    cycles[WS_LAT_SFU64] = d->lat_fp64 * 4;
    cycles[WS_LAT_DIV32] = d->lat_sfu * 2;
    cycles[WS_LAT_DIV64] = d->lat_fp64 * 8;
    cycles[WS_LAT_IDIV] = d->lat_int * 10;   /* integer division is a ~20-instruction sequence in SASS */
    cycles[WS_LAT_IREM] = d->lat_int * 10;
    cycles[WS_LAT_SHFL] = d->lat_shfl;
    cycles[WS_LAT_CVT] = d->lat_cvt;
    cycles[WS_LAT_S2R] = d->lat_sfu;         /* S2R goes through a variable-latency unit */
    cycles[WS_LAT_BRANCH] = d->lat_branch;
    cycles[WS_LAT_TENSOR] = d->lat_tensor;
    for (int i = 0; i < WS_LAT_COUNT; i++) kind[i] = waits[i];
}

/* The instruction warp w will issue next (peeking through a pending reconvergence pop). */
static const ws_insn *next_insn(const ws_warp *w)
{
    int sp = w->sp - 1;
    while (sp > 0 && w->stk[sp].pc == w->stk[sp].rpc) sp--;
    int32_t pc = w->stk[sp].pc;
    if (pc < 0 || pc >= w->fn->ncode) return NULL;
    return &w->code[pc];
}

/* Static facts of function fn's code (built on first use in a launch). */
const tsi *tm_static_facts(ws_tm *tm, const ws_func *fn)
{
    pthread_mutex_lock(&tm->fns_lock);
    for (int i = 0; i < tm->nfns; i++)
        if (tm->fns[i].fn == fn) {   /* read under the lock: another thread may grow fns once it is released */
            const tsi *tab = tm->fns[i].tab;
            pthread_mutex_unlock(&tm->fns_lock);
            return tab;
        }
    if (tm->nfns == tm->capfns) {
        tm->capfns = tm->capfns ? 2 * tm->capfns : 8;
        tm->fns = realloc(tm->fns, sizeof *tm->fns * (size_t)tm->capfns);
    }
    tsi *tab = calloc((size_t)(fn->ncode > 0 ? fn->ncode : 1), sizeof *tab);
    for (int pc = 0; pc < fn->ncode; pc++) {
        const ws_insn *in = &fn->code[pc];
        tsi *f = &tab[pc];
        for (int i = 0; i < WS_INSN_NSRC; i++) if (tm_tracked(tm, in->s[i])) f->src[f->nsrc++] = in->s[i];
        if (tm_tracked(tm, in->base)) f->src[f->nsrc++] = in->base;
        if (tm_tracked(tm, in->guard)) f->src[f->nsrc++] = in->guard;
        /* wmma.mma and wmma.store read fragments a wmma.load (or an earlier mma) fills: they wait for them */
        if ((in->op == WS_OP_WMMA_MMA || in->op == WS_OP_WMMA_STORE) && in->mma) {
            const ws_mma *x = in->mma;
            int st = in->op == WS_OP_WMMA_STORE;   /* wmma.store's fragment is its d list */
            const int32_t *lists[3] = { st ? x->d : x->a, x->b, x->c };
            int lens[3] = { st ? x->nd : x->na, st ? 0 : x->nb, st ? 0 : x->nc };
            for (int l = 0; l < 3; l++)
                for (int i = 0; i < lens[l] && f->nsrc < WS_INSN_NSRC + 2 + WS_TM_FRAG_SRC; i++)
                    if (tm_tracked(tm, lists[l][i])) f->src[f->nsrc++] = lists[l][i];
        }
        for (int i = 0; i < 4; i++) if (tm_tracked(tm, in->d[i])) f->dst[f->ndst++] = in->d[i];
        f->rare = in->pipe == WS_PIPE_TENSOR || in->op == WS_OP_CP_BULK || in->op == WS_OP_CP_ASYNC ||
                  in->op == WS_OP_WMMA_LOAD || in->op == WS_OP_WMMA_STORE || in->op == WS_OP_WGMMA ||
                  in->op == WS_OP_CP_COMMIT || in->op == WS_OP_CP_WAIT || in->op == WS_OP_CP_WAIT_ALL;
        f->fast = !f->rare && in->mem == WS_MK_NONE && !WS_OP_IS_TENSOR(in->op) &&
                  !(in->iflags & (WS_IF_CTRL | WS_IF_BARRIER | WS_IF_MEMSYS | WS_IF_SERIAL | WS_IF_GMEM | WS_IF_WARPSYNC |
                                  WS_IF_TEX | WS_IF_FENCE));
        f->sass = fn->sass_w ? fn->sass_w[pc] : WS_SASS_ONE;
        f->hold = tm->dev->issue_sass ? f->sass : WS_SASS_ONE;
        if (in->op == WS_OP_WMMA_LOAD) {   /* timed as the SASS ptxas makes of it */
            int nlsu, form = wmma_form(in, &nlsu);
            const ws_device *d = tm->dev;
            int per_reg = form == WMMA_PER_BYTE ? nlsu / (in->mma->na ? in->mma->na : 1) : 1;   /* its loads */
            int lat = (per_reg - 1) * tm->pipe_interval[WS_PIPE_LSU];   /* a register's last load issues later */
            if (form == WMMA_LDSM) lat += d->lat_ldsm_over_lds;
            else if (form == WMMA_PER_REG_MOVM) lat += d->lat_movm;
            else if (form == WMMA_PER_BYTE) lat += d->lat_int;     /* the byte permutes */
            int step = form == WMMA_PER_REG || form == WMMA_PER_REG_MOVM || form == WMMA_PER_BYTE
                       ? per_reg * tm->pipe_interval[WS_PIPE_LSU] : 0;
            f->mx_lsu = (uint8_t)(nlsu > UINT8_MAX ? UINT8_MAX : nlsu);
            f->mx_generic = form != WMMA_AS_IS && in->mma->space == WS_S_GENERIC;
            f->mx_step = (uint8_t)(step > UINT8_MAX ? UINT8_MAX : step);
            f->mx_lat = (uint8_t)(lat < 0 ? 0 : lat > UINT8_MAX ? UINT8_MAX : lat);
        }
        unsigned fw = 0;
        int fd = 0;
        f->fuse = (uint8_t)ws_ms_fusion(tm->ms, fn, in, &fw, &fd);
        f->fwidth = (uint8_t)fw;
        f->fdelta = (int16_t)fd;
    }
    tm->fns[tm->nfns].fn = fn;
    tm->fns[tm->nfns].tab = tab;
    tm->nfns++;
    pthread_mutex_unlock(&tm->fns_lock);
    return tab;
}




/* compute_ready for a running warp whose next instruction is in (its facts f). */
static inline void ready_of(ws_tm *tm, tw *x, uint64_t earliest, const ws_insn *in, const tsi *f)
{
    x->reason = WS_ST_WAIT;
    x->nin = in;
    x->npipe = in->pipe;
    if (x->slot >= 0) tm_set_pipe(x->sp, x->slot, in->pipe);
    x->nf = f;
    uint64_t ready = earliest;
    for (int i = 0; i < f->nsrc; i++) {
        int r = f->src[i];
        if (x->rr[r] > ready) { ready = x->rr[r]; x->reason = x->rk[r]; }
    }
    if (__builtin_expect(x->nwb > 0, 0)) {
        /* an atomic's old value is still to be written to a register: a later write of it waits (its value would
         * be overwritten), as does a call or return (another register window) */
        for (int i = 0; i < f->ndst; i++)
            if (IS_PEND(x->rr[f->dst[i]]) && x->rr[f->dst[i]] > ready) { ready = x->rr[f->dst[i]]; x->reason = x->rk[f->dst[i]]; }
        if ((in->op == WS_OP_CALL || in->op == WS_OP_RET) && ready < TAG_WAIT) { ready = TAG_WAIT; x->reason = WS_ST_LONG_SCOREBOARD; tm_fresh(tm, x); }
    }
    tm_set_ready(x, ready);
}

/* Earliest cycle the next instruction of x can issue, from the scoreboard; sets x->reason. */
void tm_compute_ready(ws_tm *tm, tw *x, uint64_t earliest)
{
    const ws_warp *w = x->w;
    x->reason = WS_ST_WAIT;
    if (w->state != WS_W_RUN) { x->nin = NULL; tm_set_ready(x, NEVER); return; }
    const ws_insn *in = next_insn(w);
    x->nin = in;
    if (!in) { tm_set_ready(x, earliest); return; }
    ready_of(tm, x, earliest, in, tm_facts_of(tm, x, w->fn, in));
}

/* value of register slot r of lane l of warp w */
#define RG_VALUE(w, r, l) ((w)->regs[(size_t)(r) * WS_LANES + (size_t)(l)])

/* Close a warp's open group of g (commit_group). */
static void grp_commit(tgrp *g)
{
    if (g->n == WS_TM_GROUPS) {   /* merge the two oldest: waiting for either waits for both */
        if (g->g[1] < g->g[0]) g->g[1] = g->g[0];
        memmove(g->g, g->g + 1, sizeof *g->g * (WS_TM_GROUPS - 1));
        g->n--;
    }
    g->g[g->n++] = g->open;
    g->open = 0;
}

/* wait_group n: drop all but the n most recent committed groups of g; returns when the dropped ones are done. */
static uint64_t grp_wait(tgrp *g, uint64_t n)
{
    uint64_t until = 0;
    int done = (uint64_t)g->n > n ? g->n - (int)n : 0;
    for (int i = 0; i < done; i++) if (g->g[i] > until) until = g->g[i];
    memmove(g->g, g->g + done, sizeof *g->g * (size_t)(g->n - done));
    g->n -= done;
    return until;
}

/* A group instruction of warp x issued at t: wgmma.commit_group / wait_group (kind), cp.async.commit_group /
 * wait_group / wait_all (op) or cp.async.bulk.commit_group / wait_group; n is wait_group's operand. A wait whose
 * groups are not done keeps the warp until they are: returns 1 then (its ready time is set). */
static int async_group(ws_tm *tm, tw *x, int op, int kind, uint64_t n, uint64_t t)
{
    tgrp *g = op == WS_OP_WGMMA ? &x->wg : op == WS_OP_CP_BULK ? &x->bk : &x->cp;
    int wait = op == WS_OP_WGMMA ? kind == WS_MX_WG_WAIT : op == WS_OP_CP_BULK ? kind == WS_MX_BULK_WAIT
                                                                                : op == WS_OP_CP_WAIT || op == WS_OP_CP_WAIT_ALL;
    if ((op == WS_OP_WGMMA && kind == WS_MX_WG_COMMIT) || (op == WS_OP_CP_BULK && kind == WS_MX_BULK_COMMIT) ||
        op == WS_OP_CP_COMMIT)
        grp_commit(g);
    if (!wait) return 0;
    uint64_t until = grp_wait(g, op == WS_OP_CP_WAIT_ALL ? 0 : n);
    if (until <= t + 1) return 0;
    tm_compute_ready(tm, x, until);
    x->reason = op == WS_OP_WGMMA ? WS_ST_MATH_THROTTLE : WS_ST_LONG_SCOREBOARD;
    return 1;
}


/* A scheduler issues one SASS instruction a cycle: issuing a PTX instruction of SASS weight sw at t holds sub-partition
 * sp for its SASS (fractions carry over in sp->sass_bal, so that PTX instructions ptxas folded away take none).
 * Returns the earliest cycle the same warp may issue again (*extra: the cycles beyond t + 1 the scheduler is held);
 * a slot left over this cycle is taken when `slot` (sp->free_slot), by this warp too when `reuse`. */
static inline uint64_t sass_issue(tsp *sp, int sw, uint64_t t, int slot, int reuse, uint64_t *extra)
{
    uint64_t next = t + 1;
    *extra = 0;
    sp->sass_bal += sw - WS_SASS_ONE;
    if (sp->sass_bal >= WS_SASS_ONE) {
        *extra = (uint64_t)(sp->sass_bal / WS_SASS_ONE);
        sp->sass_bal -= (int)*extra * WS_SASS_ONE;
        sp->issue_free = next = t + 1 + *extra;
    } else if (sp->sass_bal <= -WS_SASS_ONE) {
        sp->sass_bal += WS_SASS_ONE;
        sp->free_slot = slot;
        if (reuse) next = t;
    }
    return next;
}

/* Stall accounting for the gap since warp x's last issue, issuing at t: the cycles it waited for x->reason (dep,
 * returned) and those it was ready but not picked; *wait_from: the first cycle of the gap (t when none). */
static inline uint64_t stall_gap(tacc *acc, const tw *x, uint64_t t, uint64_t *wait_from)
{
    uint64_t dep = 0;
    *wait_from = t;
    if (t > x->last_issue + 1) {
        uint64_t gap = t - x->last_issue - 1;
        dep = x->ready > x->last_issue + 1 ? x->ready - x->last_issue - 1 : 0;
        if (dep > gap) dep = gap;
        acc->stall[x->reason] += dep;
        acc->stall[WS_ST_NOT_SELECTED] += gap - dep;
        *wait_from = x->last_issue + 1;
    }
    acc->stall[WS_ST_SELECTED]++;
    return dep;
}

/* The results of a register-only instruction in (facts f) of x issued at t, held `extra` cycles more: ready after
 * its latency class's cycles. */
static inline void alu_results(const ws_tm *tm, tw *x, const tsi *f, const ws_insn *in, uint64_t t, uint64_t extra)
{
    uint64_t done = t + extra + (uint64_t)tm->lat_cycles[in->lat];
    uint8_t kind = (uint8_t)tm->lat_kind[in->lat];
    for (int i = 0; i < f->ndst; i++) { x->rr[f->dst[i]] = done; x->rk[f->dst[i]] = kind; }
}

/* Issue warp x's next instruction at t when it is one of registers only (tsi.fast) that compute_ready found, it is
 * at the top of the warp's stack, and nothing observes instructions: executed here without a record, timed as
 * tm_issue() would. Returns 0 (nothing done) when not. */
static int issue_fast(ws_tm *tm, tacc *acc, tw *x, uint64_t t)
{
    ws_warp *w = x->w;
    ws_stk *top = &w->stk[w->sp - 1];
    const ws_insn *in = x->nin;
    if (top->pc == top->rpc || &w->code[top->pc] != in || w->L->nobs) return 0;
    top->pc++;
    uint32_t m = top->mask;
    w->nthread += (uint64_t)__builtin_popcount(m);
    if (in->guard >= 0) {
        uint32_t g = (uint32_t)w->regs[(size_t)in->guard * WS_LANES];
        if (in->pneg) g = ~g;
        m &= g;
    }
    w->ninst++;
    if (m) in->fn(w, in, m);   /* (a fault stops the warp; nothing else here can) */
    uint64_t wait_from;
    stall_gap(acc, x, t, &wait_from);
    const tsi *f = x->nf;
    tsp *sp = x->sp;
    int sw = f->hold;
    acc->sass_insts += f->sass;
    uint64_t extra;
    uint64_t next = sass_issue(sp, sw, t, 1, 1, &extra);
    int p = in->pipe;
    if (sw != 0) sp->pipe_free[p] = t + (uint64_t)tm->pipe_interval[p];
    sp->issued++;
    sp->last = x;
    x->last_issue = t;
    acc->flops += (uint64_t)in->flops * (uint64_t)__builtin_popcount(m);
    alu_results(tm, x, f, in, t, extra);
    if (w->state == WS_W_FAULT) { tm_set_ready(x, NEVER); return 1; }
    int32_t pc = top->pc;   /* the next instruction, where no reconvergence pop comes first */
    if (pc != top->rpc && pc < w->fn->ncode && x->sfn == w->fn) ready_of(tm, x, next, &w->code[pc], &x->stab[pc]);
    else tm_compute_ready(tm, x, next);
    return 1;
}

/* A warp of block tb finished at t: its cluster's barrier and the block's retirement, at once in the serial phase,
 * else left to it. */
static void warp_finished(ws_tm *tm, tblk *tb, uint64_t t, int serial)
{
    if (tb->b->cl) {
        if (serial) tm_cluster_warp_done(tm, tb, t);
        else tm_item(tm, tb->sm, IT_CLUSTER, t, tb);
    }
    if (tb->b->done) {
        if (serial) tm_retire_block(tm, tb, t);
        else tm_item(tm, tb->sm, IT_RETIRE, t, tb);
    }
}

/* Issue one instruction of warp x at cycle t. In the parallel phase (serial = 0) what reaches beyond the SM is left
 * to the window's serial phase: L2 transfers, captured stores and atomics, block retirement, and instructions the
 * gate keeps back whole (the warp then waits for the serial phase); in the serial phase everything happens at once.
 * Returns a further cycle to wake x's sub-partition at (NEVER: none). */
uint64_t tm_issue(ws_tm *tm, tacc *acc, tw *x, uint64_t t, int serial)
{
    ws_rec r;
    ws_warp *w = x->w;
    tsp *sp = x->sp;
    if (x->nin && x->nf->fast && !serial && !tm->nlis && issue_fast(tm, acc, x, t)) return NEVER;
    tsm *sm = &tm->sms[x->blk->sm];
    sm->gk = GK_NONE;
    int stepped = ws_warp_step(w, &r);
    if (stepped == WS_STEP_DEFERRED) { tm_defer_exec(tm, x, t); return NEVER; }
    int reason = x->reason;
    uint64_t wait_from, dep = stall_gap(acc, x, t, &wait_from);
    if (tm->nlis) tm_issue_event(tm, x, stepped ? &r : NULL, t, wait_from, dep, reason);
    if (!stepped) {
        /* only a reconvergence pop happened: the warp may have finished */
        x->last_issue = t;
        if (w->state == WS_W_DONE) {
            tm_set_ready(x, NEVER);
            tm_barrier_released(tm, x->blk, t);
            warp_finished(tm, x->blk, t, serial);
        } else tm_compute_ready(tm, x, t + 1);
        return NEVER;
    }
    const ws_insn *in = r.in;
    const tsi *f = tm_facts_of(tm, x, r.fn, in);
    int sw = f->hold;
    acc->sass_insts += f->sass;
    /* an instruction that reaches beyond the SM gives a free slot up (it was the serial phase's alone); the same
     * warp may use one only after a register-only instruction (a memory instruction's results are scheduled by the
     * memory system) */
    uint64_t extra;
    uint64_t next = sass_issue(sp, sw, t, !(in->iflags & WS_IF_SERIAL),
                               !(in->iflags & (WS_IF_MEMSYS | WS_IF_BARRIER | WS_IF_SERIAL)) && !f->rare, &extra);
    int p = in->pipe;
    /* a pipeline's next free cycle: an instruction run late by the serial phase does not move it back */
    uint64_t pf = sp->pipe_free[p];
    if (sw == 0 && p != WS_PIPE_TENSOR) {
        /* folded away: no pipeline */
    } else if (f->rare && p == WS_PIPE_TENSOR) {
        int tc = tensor_cycles(tm, in);
        sp->pipe_free[p] = t + (uint64_t)tc;
        if (in->op == WS_OP_WGMMA && in->mma->kind == WS_MX_WGMMA) {   /* asynchronous: the warp goes on */
            uint64_t done = t + (uint64_t)tc + (uint64_t)tm->lat_cycles[WS_LAT_TENSOR];
            if (done > x->wg.open) x->wg.open = done;
        }
        if (in->op != WS_OP_WGMMA || in->mma->kind == WS_MX_WGMMA) acc->tensor_insts++;   /* not fence/commit/wait */
        acc->tensor_cycles += (uint64_t)tc;
    } else sp->pipe_free[p] = t + (uint64_t)tm->pipe_interval[p] * (f->mx_lsu > 1 ? f->mx_lsu : 1);
    if (serial && tm->win > 1 && pf > sp->pipe_free[p]) sp->pipe_free[p] = pf;
    sp->issued++;
    if (!serial || tm->win == 1) sp->last = x;
    x->last_issue = t;
    acc->flops += (uint64_t)in->flops * (uint64_t)__builtin_popcount(r.exec);
    if (f->rare && in->op == WS_OP_CP_BULK) {   /* serial: a bulk copy's sectors; its data lands when they arrive */
        uint64_t done = w->bulk_nruns ? ws_ms_bulk(tm->ms, x->blk->sm, w->bulk_runs, w->bulk_nruns, w->bulk_write, t)
                                      : t + WS_MS_LAT_DSMEM;   /* within the cluster, or nothing in bounds */
        ws_bulk_set_ready(w, done);
        w->bulk_nruns = 0;
        /* a copy to global memory completes its bulk async-group when its writes are done */
        if (in->mma && (in->mma->kind == WS_MX_BULK_S2G || in->mma->kind == WS_MX_BULK_TENSOR_S2G) && done > x->bk.open)
            x->bk.open = done;
    }
    int mx = f->rare && (in->op == WS_OP_CP_ASYNC || in->op == WS_OP_WMMA_LOAD || in->op == WS_OP_WMMA_STORE);
    if (mx && r.exec) {   /* their accesses, for the memory system: a cp.async's global sources, a fragment's */
        if (!x->mx) x->mx = malloc(sizeof *x->mx * WS_MX_MAX_ACCESSES);
        if (in->op == WS_OP_CP_ASYNC) {
            memcpy(x->mx->addr, w->cp_src, sizeof x->mx->addr);
            x->mx->mask = w->cp_lanes;
            x->mx->space = WS_S_GLOBAL;
            x->mx->size = (uint8_t)r.size;
            x->nmx = 1;
        } else x->nmx = ws_mma_accesses(w, in, x->mx);
    }
    int memop = ((in->iflags & WS_IF_MEMSYS) || mx) && r.exec;
    if (memop) {
        if (!serial && sm->gk == GK_ATOM) {   /* captured: applied in the serial phase; a result read later waits */
            tm_item(tm, x->blk->sm, IT_ATOM, t, x)->a = sm->ga;
            if (sm->st.atoms[sm->ga].wb) x->nwb++;
        }
        if (serial) tm_mem_account(tm, acc, x, &r, t, 0);
        else if (tm->um_live || in->op == WS_OP_WMMA_STORE) {
            /* timed whole in the serial phase (managed memory's page faults are the GPU's): its registers wait */
            tm_grow1((void **)&sm->recs, &sm->caprecs, sm->nrecs, sizeof *sm->recs);
            sm->recs[sm->nrecs] = r;
            titem *it = tm_item(tm, x->blk->sm, IT_MEMSYS, t, x);
            it->b = sm->nrecs++;
            uint64_t tag = TAG_MEM | it->b;
            tm_dst_ready(tm, x, in, tag, WS_ST_LONG_SCOREBOARD, 0);
            if (in->op == WS_OP_WMMA_LOAD && in->mma) tm_frag_pending(tm, x, in, tag, WS_ST_LONG_SCOREBOARD);
            tm_fresh(tm, x);
        } else tm_mem_par(tm, acc, x, &r, f, t);
        if (sm->gk == GK_STORE) { titem *it = tm_item(tm, x->blk->sm, IT_STORE, t, x); it->a = sm->ga; it->b = sm->gb; }
    } else alu_results(tm, x, f, in, t, extra);
    if (in->iflags & WS_IF_BARRIER) {
        if (w->state == WS_W_BAR) {
            x->waiting_bar = 1;
            x->bar_since = t;
            tm_set_ready(x, NEVER);
        }
        /* the last arrival releases the others (and itself); barrier.cluster (serial) those of its cluster */
        if (in->op == WS_OP_BAR_CLUSTER) tm_cluster_released(tm, x->blk, t);
        else tm_barrier_released(tm, x->blk, t);
        if (w->state == WS_W_RUN) {
            tm_compute_ready(tm, x, t + (uint64_t)tm->dev->lat_bar);
            x->reason = WS_ST_BARRIER;
        }
        return NEVER;
    } else if (w->state == WS_W_DONE) {
        /* a finished warp may complete a barrier the others wait at */
        tm_set_ready(x, NEVER);
        tm_barrier_released(tm, x->blk, t);
        warp_finished(tm, x->blk, t, serial);
        return NEVER;
    } else if (w->state == WS_W_FAULT) {
        tm_set_ready(x, NEVER);
        return NEVER;
    }
    int bulk_grp = f->rare && in->op == WS_OP_CP_BULK && in->mma &&
                   (in->mma->kind == WS_MX_BULK_COMMIT || in->mma->kind == WS_MX_BULK_WAIT);
    if (f->rare &&
        (in->op == WS_OP_WGMMA || in->op == WS_OP_CP_COMMIT || in->op == WS_OP_CP_WAIT || in->op == WS_OP_CP_WAIT_ALL ||
         bulk_grp) &&
        in->mma && r.exec &&
        async_group(tm, x, in->op, in->mma->kind,
                    in->mma->extra >= 0 && (in->op == WS_OP_CP_WAIT || in->mma->kind == WS_MX_WG_WAIT ||
                                            (bulk_grp && in->mma->kind == WS_MX_BULK_WAIT))
                        ? RG_VALUE(w, in->mma->extra, __builtin_ctz(r.exec)) : 0, t))
        return NEVER;
    /* an access of the SM's own memories: the warp goes on from the next cycle (its results come from the memory
     * system) */
    tm_compute_ready(tm, x, memop && !serial && !(in->iflags & WS_IF_SERIAL) ? t + 1 : next);
    return NEVER;
}

/* The warps of a sub-partition whose ready cycle rdy[k] is at most t (bit k; n <= 64, rdy padded with NEVER to a
 * multiple of 4) and the earliest ready cycle after t (*wake). */
static inline uint64_t ready_scan(const uint64_t *rdy, int n, uint64_t t, uint64_t *wake)
{
    uint64_t r = 0, w = NEVER;
    for (int k = 0; k < n; k++) {
        uint64_t v = rdy[k];
        if (v <= t) r |= 1ull << k;
        else if (v < w) w = v;
    }
    *wake = w;
    return r;
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
/* ready_scan four slots at a time (AVX2: unsigned order by flipping the sign bit). */
__attribute__((target("avx2"), always_inline)) static inline uint64_t ready_scan_avx2(const uint64_t *rdy, int n, uint64_t t,
                                                                                   uint64_t *wake)
{
    const __m256i bias = _mm256_set1_epi64x((long long)0x8000000000000000ull);
    const __m256i tb = _mm256_xor_si256(_mm256_set1_epi64x((long long)t), bias);
    __m256i wmin = _mm256_set1_epi64x(-1);   /* NEVER, biased: the largest signed value is 0x7fff... */
    wmin = _mm256_xor_si256(wmin, bias);
    uint64_t r = 0;
    for (int k = 0; k < n; k += 4) {
        __m256i v = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(rdy + k)), bias);
        __m256i gt = _mm256_cmpgt_epi64(v, tb);   /* later than t */
        r |= (uint64_t)(~_mm256_movemask_pd(_mm256_castsi256_pd(gt)) & 15) << k;
        __m256i cand = _mm256_blendv_epi8(_mm256_xor_si256(_mm256_set1_epi64x(-1), bias), v, gt);
        __m256i lt = _mm256_cmpgt_epi64(wmin, cand);
        wmin = _mm256_blendv_epi8(wmin, cand, lt);
    }
    uint64_t lanes[4];
    _mm256_storeu_si256((__m256i *)lanes, _mm256_xor_si256(wmin, bias));
    uint64_t w = lanes[0];
    for (int i = 1; i < 4; i++) if (lanes[i] < w) w = lanes[i];
    *wake = w;
    if (n & 3) r &= (1ull << n) - 1;
    return r;
}
#endif

/* A ready warp x of sp whose pipeline p is busy at t waits for it (a throttle stall). */
static inline void pipe_wait(tsp *sp, tw *x, int p)
{
    x->reason = (p == WS_PIPE_LSU || p == WS_PIPE_TEX) ? WS_ST_LG_THROTTLE : WS_ST_MATH_THROTTLE;
    tm_set_ready(x, sp->pipe_free[p]);
}

/* After sp issued warp best at t with `eligible` warps eligible: 1 when a slot left free lets it issue again in this
 * cycle, else 0 with *wake lowered to when it can next. */
static inline int issued_next(tsp *sp, const tw *best, int eligible, uint64_t t, uint64_t *wake)
{
    if (sp->free_slot) { sp->free_slot = 0; if (sp->issue_free <= t) return 1; }
    if (eligible > 1) *wake = t + 1;
    if (best->ready < *wake) *wake = best->ready;
    if (sp->issue_free > *wake) *wake = sp->issue_free;
    return 0;
}

/* Set sp's wake cycle after its cycle t (warps released by a barrier in this cycle lowered sp->wake: the smaller). */
static inline void sp_set_wake(tsp *sp, uint64_t t, uint64_t wake)
{
    if (sp->wake > t && sp->wake < wake) wake = sp->wake;
    sp->wake = wake;
}

/* Whether the processor runs ready_scan_avx2 (set once at the first launch). */
static int g_scan_avx2 = -1;

/* Sub-partition sp at cycle t with greedy-then-oldest scheduling (the presets' policy): the last warp to issue if
 * it can, else the oldest that can; SCAN is the ready_scan to use (the body is compiled once per processor kind). */
#define SP_CYCLE_GTO(SCAN) do { \
again:; \
    uint64_t wake; \
    uint64_t R = SCAN(sp->rdy, sp->n, t, &wake); \
    uint64_t busy = 0;   /* the slots whose pipeline is busy */ \
    for (int p = 0; p < WS_PIPE_COUNT; p++) if (sp->pipe_free[p] > t) busy |= sp->pmask[p]; \
    uint64_t E = R & ~busy; \
    for (uint64_t m = R & busy; m; m &= m - 1) {   /* ready, but their pipeline is busy: they wait for it */ \
        int k = __builtin_ctzll(m), p = sp->pipe[k]; \
        if (sp->pipe_free[p] < wake) wake = sp->pipe_free[p]; \
        pipe_wait(sp, sp->warps[k], p); \
    } \
    int eligible = __builtin_popcountll(E); \
    sp->eligible_sum += (uint64_t)eligible; \
    if (E) { \
        int kb = -1; \
        if (sp->last && sp->last->slot >= 0 && (E >> sp->last->slot & 1)) kb = sp->last->slot; \
        else { \
            uint32_t bk = UINT32_MAX; \
            for (uint64_t m = E; m; m &= m - 1) { \
                int k = __builtin_ctzll(m); \
                if (sp->key[k] < bk) { bk = sp->key[k]; kb = k; } \
            } \
        } \
        tw *best = sp->warps[kb]; \
        tm_issue(tm, acc, best, t, 0); \
        if (issued_next(sp, best, eligible, t, &wake)) goto again; \
    } \
    sp_set_wake(sp, t, wake); \
} while (0)

/* SP_CYCLE_GTO with the portable scan. */
static void sp_cycle_gto(ws_tm *tm, tacc *acc, tsp *sp, uint64_t t) { SP_CYCLE_GTO(ready_scan); }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* SP_CYCLE_GTO with the AVX2 scan in line. */
__attribute__((target("avx2"))) static void sp_cycle_gto_avx2(ws_tm *tm, tacc *acc, tsp *sp, uint64_t t)
{
    SP_CYCLE_GTO(ready_scan_avx2);
}
#endif

/* Let sub-partition sp try to issue at cycle t. */
static void sp_cycle(ws_tm *tm, tacc *acc, tsp *sp, uint64_t t)
{
    if (sp->issue_free > t) { sp->wake = sp->issue_free; return; }
    sp->free_slot = 0;
    if (tm->policy == POL_GTO && sp->n <= 64) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        if (g_scan_avx2) { sp_cycle_gto_avx2(tm, acc, sp, t); return; }
#endif
        sp_cycle_gto(tm, acc, sp, t);
        return;
    }
again:;
    tw *best = NULL;
    uint64_t wake = NEVER;
    int eligible = 0;
    const int pol = tm->policy;
    int last_k = -1;
    if (pol == POL_LRR) for (int k = 0; k < sp->n; k++) if (sp->warps[k] == sp->last) { last_k = k; break; }
    int best_key = 1 << 30;
    const uint64_t *rdy = sp->rdy;
    for (int k = 0; k < sp->n; k++) {
        uint64_t rk = rdy[k];
        if (rk > t) { if (rk < wake) wake = rk; continue; }   /* parked warps: NEVER */
        tw *x = sp->warps[k];
        int p = x->npipe;
        if (sp->pipe_free[p] > t) {
            if (sp->pipe_free[p] < wake) wake = sp->pipe_free[p];
            pipe_wait(sp, x, p);
            continue;
        }
        eligible++;
        int key;
        if (pol == POL_GTO) key = x == sp->last ? -1 : (int)(x->age & 0x3fffffff);
        else if (pol == POL_LRR) key = (k - last_k - 1 + sp->n) % sp->n;
        else key = x->w->warp_in_block + (int)(x->blk->b->linear % 1024) * 64;  /* lowest-numbered warp */
        if (key < best_key) { best_key = key; best = x; }
    }
    sp->eligible_sum += (uint64_t)eligible;
    if (best) {
        tm_issue(tm, acc, best, t, 0);
        if (issued_next(sp, best, eligible, t, &wake)) goto again;
    }
    sp_set_wake(sp, t, wake);
}

/* The parallel phase of cycle t for SM s. */
static void sm_cycle(ws_tm *tm, tacc *acc, int s, uint64_t t)
{
    tsm *sm = &tm->sms[s];
    sm->now = t;
    for (int k = 0; k < sm->nsp; k++) {
        tsp *sp = &sm->sp[k];
        if (sp->wake <= t) sp_cycle(tm, acc, sp, t);
    }
    /* after all of them: a barrier released by a later sub-partition may have woken an earlier one */
    uint64_t w = NEVER;
    for (int k = 0; k < sm->nsp; k++) if (sm->sp[k].wake < w) w = sm->sp[k].wake;
    tm->smwake[s] = w;
}


/* Simulate SM s's cycles before h (the window's end), skipping those it sleeps through. Nothing of the other SMs is
 * read or written here: what reaches beyond the SM waits in its lists for the serial phase. */
void tm_sm_advance(ws_tm *tm, tacc *acc, int s, uint64_t h)
{
    tsm *sm = &tm->sms[s];
    for (uint32_t i = 0; i < sm->nrows; i++) ws_run_block_rows(tm->L, sm->rows[i]);
    sm->nrows = 0;
    for (;;) {
        uint64_t c = tm_sm_next(tm, s);
        if (c >= h) { if (tm->smat[s] < h) tm->smat[s] = h; return; }
        sm_cycle(tm, acc, s, c);
        tm->smat[s] = c + 1;
    }
}


/* Choose the schedulers' code for this processor (once). */
void tm_sched_init(void)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (g_scan_avx2 < 0) g_scan_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
#endif
}
