/* timing.c - cycle-approximate GPU timing: block scheduler, SM sub-partitions with one warp scheduler each,
 * a register scoreboard, pipeline throughputs and barriers. Execution-driven: the functional core runs a warp's
 * next instruction when the model issues it, so issue order is the simulated hardware's order. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <time.h>
#include "timing.h"
#include "../core/observe.h"
#include "tm_um.h"

const char *const ws_stall_names[WS_ST_COUNT] = {
    "barrier", "long_scoreboard", "short_scoreboard", "wait", "math_pipe_throttle", "lg_throttle",
    "not_selected", "selected",
};

#define NEVER UINT64_MAX
#define WS_TM_GROUPS 8             /* wgmma / cp.async groups a warp tracks (older ones merge) */
#define WS_TM_TEX_LANES_PER_SP 4   /* texture filtering lanes per sub-partition per cycle (one quad) */

/* warp scheduling policies */
enum { POL_GTO, POL_LRR, POL_LOWEST };


/* static timing facts of one instruction, derived once per launch from its decoded record (scoreboard slots it
 * reads and writes, those the scoreboard tracks only) */
/* fragment registers of a wmma instruction the scoreboard tracks (a, b and c lists of wmma.mma: 8 each at most) */
#define WS_TM_FRAG_SRC 24

typedef struct tsi {
    int32_t src[WS_INSN_NSRC + 2 + WS_TM_FRAG_SRC];   /* sources, base address, guard, then wmma fragments: in the
                                                       * order compute_ready weighs them */
    int32_t dst[4];
    uint8_t nsrc, ndst;
    uint8_t rare;              /* tensor pipe, bulk or asynchronous copies, wmma memory, async groups: issue looks
                                * at these kinds only when set */
    uint16_t sass;             /* SASS instructions it stands for (WS_SASS_ONE units) */
    uint16_t hold;             /* what it holds its scheduler for: sass, or WS_SASS_ONE where the preset issues PTX */
    uint8_t fuse, fwidth;      /* ptxas fusion of a shared access (ws_ms_fusion: role, fused width and offset) */
    int16_t fdelta;
    uint8_t mx_lsu;            /* wmma.load: the LSU instructions ptxas makes of it (wmma_form; 0: one) */
    uint8_t mx_generic;        /* wmma.load: through a generic address (LD, slower on a shared one than LDS) */
    uint8_t mx_step;           /* wmma.load: cycles each fragment register is ready after the one before (its
                                * loads issue one after another) */
    uint8_t mx_lat;            /* wmma.load: cycles its first register is ready after its first load's data */
} tsi;

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

/* the static facts of one function's code */
typedef struct tfn {
    const ws_func *fn;
    tsi *tab;                  /* fn->ncode entries */
} tfn;

/* a warp's asynchronous groups of one kind (wgmma, cp.async): when the work not yet committed is done, and when each
 * committed group is, oldest first */
typedef struct tgrp {
    uint64_t open;
    uint64_t g[WS_TM_GROUPS];
    int n;
} tgrp;

typedef struct tw {           /* a resident warp as the scheduler sees it */
    ws_warp *w;
    uint64_t ready;            /* earliest cycle its next instruction can issue */
    uint64_t last_issue;       /* cycle of its previous issue (or its arrival) */
    int reason;                /* why it is not ready before `ready` */
    int waiting_bar;           /* parked at a barrier */
    int npipe;                 /* pipeline of its next instruction */
    int nserial;               /* its next instruction runs in the serial phase (WS_IF_SERIAL) */
    uint64_t ready_saved;      /* `ready` when it was picked for a deferred issue (stall accounting) */
    uint64_t bar_since;        /* cycle it arrived at the barrier it waits at (events) */
    uint64_t age;              /* arrival order (greedy-then-oldest) */
    uint64_t *rr;              /* cycle each register slot is ready */
    uint8_t *rk;               /* kind of the producer of each slot (stall reason if waited on) */
    struct tsp *sp;
    struct tblk *blk;
    const ws_func *sfn;        /* function of stab (the warp's function when it last looked) */
    const tsi *stab;           /* its static facts */
    int slot;                  /* its index in sp->warps and sp->rdy while resident, else -1 */
    tgrp wg;                   /* wgmma groups: the multiply-adds */
    tgrp cp;                   /* cp.async groups: the copies' data arriving in shared memory */
    tgrp bk;                   /* bulk async-groups: cp.async.bulk copies to global memory written */
    ws_mx_access *mx;          /* the accesses of its last wmma.load/store or cp.async (for the serial phase) */
    int nmx;
    uint64_t st_ack;           /* when L2 has acknowledged its global stores (its block retires no earlier) */
} tw;

typedef struct tblk {
    ws_block *b;
    tw *warps;
    int sm;
} tblk;

typedef struct tsp {          /* SM sub-partition: one warp scheduler */
    tw **warps;
    uint64_t *rdy;             /* warps[k]->ready, dense, for the scheduler's scan (set_ready keeps it) */
    int n, cap;
    uint64_t wake;             /* nothing can issue before this cycle */
    tw *last;                  /* greedy: the warp that issued last */
    uint64_t pipe_free[WS_PIPE_COUNT];
    uint64_t issued;           /* instructions issued */
    uint64_t eligible_sum;     /* sum over examined cycles of eligible warps */
    uint64_t active_area;      /* sum over cycles of resident warps */
    uint64_t area_t;           /* time of the last area update */
    int nres;                  /* resident warps */
    int sass_bal;              /* SASS issued minus issue cycles used, in WS_SASS_ONE units (see issue()) */
    uint64_t issue_free;       /* a PTX instruction of several SASS holds the scheduler until this cycle */
    int free_slot;             /* the instruction just issued took no cycle of its own: another may issue now */
} tsp;

/* work an SM defers from the parallel phase of a cycle to the serial phase (in SM order, so results do not
 * depend on how many threads simulate the SMs) */
enum { PD_ISSUE, PD_MEMSYS, PD_RETIRE, PD_CLUSTER };
typedef struct tpend {
    int kind;
    tw *x;                     /* PD_ISSUE / PD_MEMSYS: the warp */
    tblk *tb;                  /* PD_RETIRE: the finished block; PD_CLUSTER: the block a warp of finished */
    ws_rec rec;                /* PD_MEMSYS: the shared/local access to account */
} tpend;

/* per-thread accumulators */
typedef struct tacc {
    uint64_t stall[WS_ST_COUNT];
    uint64_t flops;
    uint64_t tensor_insts, tensor_cycles;   /* tensor-pipe warp instructions and the pipe cycles they occupy */
    uint64_t sass_insts;       /* warp instructions as SASS, in WS_SASS_ONE units (ptxas's per PTX instruction, else 1) */
    uint64_t end;
    ws_ms_counts mc;           /* memory counters of the shared-memory accesses accounted in the parallel phase */
} tacc;

typedef struct tsm {
    tpend *pend;               /* deferred work of the current cycle */
    int npend, cappend;
    tsp sp[8];
    int nsp;
    int nblocks;               /* resident blocks */
    uint64_t busy_since, active_cycles;
    int warp_rr;               /* next sub-partition for an arriving warp */
    ws_tm_event *ev;           /* events of the current cycle for the listeners */
    size_t nev, capev;
    uint64_t *addrs;           /* lane addresses of this cycle's WS_TE_MEM events (32 per event) */
    size_t naddrs, capaddrs;
    uint64_t now;              /* the cycle it simulates (its blocks' clock: SMs run ahead of each other) */
    int active;                /* a block was placed on it in this launch (in ws_tm.actv) */
} tsm;

/* The engine measures which way is faster and keeps to the faster: the SMs stepping cycle by cycle with the workers
 * sharing each cycle's parallel phase, or the SMs running ahead on the main thread alone (each SM simulates its own
 * cycles up to its next deferred work, which keeps its warps' state in the processor's caches, but leaves too little
 * work between two serial phases to share). A trial is one window of WS_TM_WINDOW simulated cycles each way, by the
 * wall clock per cycle; the faster runs the next WS_TM_TRIAL_EVERY windows, then it tries again. Neither way changes
 * a result: only the speed depends on the clock. */
#define WS_TM_WINDOW 512
#define WS_TM_TRIAL_EVERY 16

/* The state of that choice. */
typedef struct tadapt {
    int ahead;         /* this window runs ahead on the main thread alone (the workers sleep) */
    int win;           /* 0: the trial's window with workers, 1: ahead, then windows since the trial + 2 */
    uint64_t t0;       /* this window's start (ns) */
    uint64_t c0;       /* and its first simulated cycle */
    double ns_par;     /* ns per cycle of the trial's window with workers */
} tadapt;

struct ws_tm {
    const ws_device *dev;
    ws_memsys *ms;
    int flush_all;
    ws_tm_result last;
    /* per launch */
    ws_run *L;
    tsm *sms;
    int nsm;
    uint64_t *smwake;          /* per SM: min wake of its sub-partitions (dense: every cycle reads them all) */
    uint8_t *smpend;           /* per SM: it deferred work to the serial phase of cycle smat - 1 */
    uint64_t *smat;            /* per SM: its parallel phase has simulated every cycle before this one */
    int *actv;                 /* the SMs a block was placed on in this launch, in order (the others have nothing
                                * to simulate: the engine's loops go over these) */
    int nactv;
    int act_dirty;             /* an SM became active since actv was made */
    uint64_t age;
    uint64_t retired;
    int nregs;                 /* register slots per warp the scoreboard tracks */
    uint64_t flops;
    uint64_t end;              /* last completion seen */
    int pipe_interval[WS_PIPE_COUNT];
    int lat_cycles[WS_LAT_COUNT];  /* dependent-issue latency of each latency class */
    int lat_kind[WS_LAT_COUNT];    /* stall reason of a warp waiting on it */
    int policy;
    int max_resident;          /* most blocks resident on one SM */
    double dispatch_free;      /* the block distributor's next free launch slot (cycle, fractional) */
    const ws_tm_listener *lis[WS_TM_MAX_LISTENERS];   /* event listeners */
    int nlis;
    int want_addresses;        /* some listener wants lane addresses */
    tfn *fns;                  /* static facts of the functions warps ran in this launch */
    int nfns, capfns;
    pthread_mutex_t fns_lock;  /* the parallel phase may meet a function first on any thread */
    tm_um um;                  /* GPU page faults on managed memory */
    struct tworker **wk;       /* simulation threads beside the main one, kept from launch to launch */
    int nwk;
    int gen;                   /* the last generation of work handed to them */
    tadapt ad;                 /* the speed choice, carried from launch to launch: a program of many short launches
                                * does not try both ways in every one */
};

static void pool_stop(ws_tm *tm);

/* Create a timing model for device dev. */
ws_tm *ws_tm_create(const ws_device *dev)
{
    ws_tm *tm = calloc(1, sizeof *tm);
    tm->dev = dev;
    tm->ms = ws_ms_create(dev);
    tm->flush_all = 1;
    pthread_mutex_init(&tm->fns_lock, NULL);
    tm_um_init(&tm->um, dev);
    return tm;
}

/* Destroy it. */
void ws_tm_destroy(ws_tm *tm)
{
    if (!tm) return;
    pool_stop(tm);
    ws_ms_destroy(tm->ms);
    free(tm->fns);
    pthread_mutex_destroy(&tm->fns_lock);
    tm_um_free(&tm->um);
    free(tm);
}

/* Price GPU accesses to um's managed pages in later launches. */
void ws_tm_set_um(ws_tm *tm, struct ws_um *um) { tm->um.um = um; }

/* The fault batches of the most recent launch. */
const ws_tm_um_batch *ws_tm_um_batches(const ws_tm *tm, size_t *n)
{
    *n = tm->um.nb;
    return tm->um.b;
}

/* Cache control for later launches. */
void ws_tm_set_cache_control(ws_tm *tm, int flush_all) { tm->flush_all = flush_all; }
/* Result of the most recent launch. */
const ws_tm_result *ws_tm_last(const ws_tm *tm) { return &tm->last; }

/* Add an event listener to later launches. */
int ws_tm_add_listener(ws_tm *tm, const ws_tm_listener *l)
{
    if (!l) return -1;
    for (int i = 0; i < tm->nlis; i++) if (tm->lis[i] == l) return 0;
    if (tm->nlis >= WS_TM_MAX_LISTENERS) return -1;
    tm->lis[tm->nlis++] = l;
    tm->want_addresses |= l->want_addresses;
    return 0;
}

/* Remove an event listener. */
void ws_tm_remove_listener(ws_tm *tm, const ws_tm_listener *l)
{
    for (int i = 0; i < tm->nlis; i++)
        if (tm->lis[i] == l) {
            memmove(&tm->lis[i], &tm->lis[i + 1], sizeof *tm->lis * (size_t)(tm->nlis - i - 1));
            tm->nlis--;
            tm->want_addresses = 0;
            for (int k = 0; k < tm->nlis; k++) tm->want_addresses |= tm->lis[k]->want_addresses;
            return;
        }
}

/* Append an event to SM s's batch (only called when someone listens). */
static ws_tm_event *emit(ws_tm *tm, int s, int kind, uint64_t block, uint64_t t0, uint64_t t1)
{
    tsm *sm = &tm->sms[s];
    if (sm->nev == sm->capev) {
        sm->capev = sm->capev ? sm->capev * 2 : 256;
        sm->ev = realloc(sm->ev, sizeof *sm->ev * sm->capev);
    }
    ws_tm_event *e = &sm->ev[sm->nev++];
    /* every field set (no memset: this runs for every issue when someone listens) */
    e->kind = (uint8_t)kind;
    e->reason = 0;
    e->sp = 0;
    e->sm = (uint16_t)s;
    e->warp = 0;
    e->block = block;
    e->t0 = t0;
    e->t1 = t1;
    e->wait_from = t0;
    e->dep = 0;
    e->in = NULL;
    e->fn = NULL;
    e->active = e->exec = 0;
    e->space = 0;
    e->requests = e->sectors = e->wavefronts = e->conflicts = 0;
    e->addr = NULL;
    e->addr_index = UINT32_MAX;
    return e;
}

/* Hand every SM's batch to the listeners, SM by SM. */
static void flush_events(ws_tm *tm)
{
    for (int s = 0; s < tm->nsm; s++) {
        tsm *sm = &tm->sms[s];
        if (!sm->nev) continue;
        for (size_t k = 0; k < sm->nev; k++)   /* the address pool is stable now */
            if (sm->ev[k].addr_index != UINT32_MAX) sm->ev[k].addr = sm->addrs + (size_t)sm->ev[k].addr_index * 32;
        for (int i = 0; i < tm->nlis; i++)
            if (tm->lis[i]->events) tm->lis[i]->events(tm->lis[i]->ctx, tm->L, sm->ev, sm->nev);
        sm->nev = 0;
        sm->naddrs = 0;
    }
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
static void latency_table(const ws_device *d, int *cycles, int *kind)
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
static const tsi *static_facts(ws_tm *tm, const ws_func *fn)
{
    pthread_mutex_lock(&tm->fns_lock);
    for (int i = 0; i < tm->nfns; i++)
        if (tm->fns[i].fn == fn) { pthread_mutex_unlock(&tm->fns_lock); return tm->fns[i].tab; }
    if (tm->nfns == tm->capfns) {
        tm->capfns = tm->capfns ? 2 * tm->capfns : 8;
        tm->fns = realloc(tm->fns, sizeof *tm->fns * (size_t)tm->capfns);
    }
    tsi *tab = calloc((size_t)(fn->ncode > 0 ? fn->ncode : 1), sizeof *tab);
    for (int pc = 0; pc < fn->ncode; pc++) {
        const ws_insn *in = &fn->code[pc];
        tsi *f = &tab[pc];
        int srcs[WS_INSN_NSRC + 2], n = 0;
        for (int i = 0; i < WS_INSN_NSRC; i++) if (in->s[i] >= WS_SR_COUNT) srcs[n++] = in->s[i];
        if (in->base >= WS_SR_COUNT) srcs[n++] = in->base;
        if (in->guard >= WS_SR_COUNT) srcs[n++] = in->guard;
        for (int i = 0; i < n; i++) if (srcs[i] < tm->nregs) f->src[f->nsrc++] = srcs[i];
        /* wmma.mma and wmma.store read fragments a wmma.load (or an earlier mma) fills: they wait for them */
        if ((in->op == WS_OP_WMMA_MMA || in->op == WS_OP_WMMA_STORE) && in->mma) {
            const ws_mma *x = in->mma;
            int st = in->op == WS_OP_WMMA_STORE;   /* wmma.store's fragment is its d list */
            const int32_t *lists[3] = { st ? x->d : x->a, x->b, x->c };
            int lens[3] = { st ? x->nd : x->na, st ? 0 : x->nb, st ? 0 : x->nc };
            for (int l = 0; l < 3; l++)
                for (int i = 0; i < lens[l] && f->nsrc < WS_INSN_NSRC + 2 + WS_TM_FRAG_SRC; i++)
                    if (lists[l][i] >= WS_SR_COUNT && lists[l][i] < tm->nregs) f->src[f->nsrc++] = lists[l][i];
        }
        for (int i = 0; i < 4; i++) if (in->d[i] >= WS_SR_COUNT && in->d[i] < tm->nregs) f->dst[f->ndst++] = in->d[i];
        f->rare = in->pipe == WS_PIPE_TENSOR || in->op == WS_OP_CP_BULK || in->op == WS_OP_CP_ASYNC ||
                  in->op == WS_OP_WMMA_LOAD || in->op == WS_OP_WMMA_STORE || in->op == WS_OP_WGMMA ||
                  in->op == WS_OP_CP_COMMIT || in->op == WS_OP_CP_WAIT || in->op == WS_OP_CP_WAIT_ALL;
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

/* Static facts of instruction in of function fn, run by warp x (which remembers fn's table). */
static inline const tsi *facts_of(ws_tm *tm, tw *x, const ws_func *fn, const ws_insn *in)
{
    if (x->sfn != fn) { x->stab = static_facts(tm, fn); x->sfn = fn; }
    return &x->stab[in - fn->code];
}

/* Set x's ready cycle (and its sub-partition's dense copy while x is resident there). */
static inline void set_ready(tw *x, uint64_t v)
{
    x->ready = v;
    if (x->slot >= 0) x->sp->rdy[x->slot] = v;
}

/* Earliest cycle the next instruction of x can issue, from the scoreboard; sets x->reason. */
static void compute_ready(ws_tm *tm, tw *x, uint64_t earliest)
{
    const ws_warp *w = x->w;
    x->reason = WS_ST_WAIT;
    if (w->state != WS_W_RUN) { set_ready(x, NEVER); return; }
    const ws_insn *in = next_insn(w);
    if (!in) { x->nserial = 0; set_ready(x, earliest); return; }
    x->npipe = in->pipe;
    x->nserial = (in->iflags & WS_IF_SERIAL) != 0;
    const tsi *f = facts_of(tm, x, w->fn, in);
    uint64_t ready = earliest;
    for (int i = 0; i < f->nsrc; i++) {
        int r = f->src[i];
        if (x->rr[r] > ready) { ready = x->rr[r]; x->reason = x->rk[r]; }
    }
    set_ready(x, ready);
}

/* Accumulate resident-warp area of a sub-partition up to time t. */
static void area_update(tsp *sp, uint64_t t)
{
    if (t > sp->area_t) { sp->active_area += (uint64_t)sp->nres * (t - sp->area_t); sp->area_t = t; }
}

/* Place block lin on SM s at cycle now, its warps issuing from cycle t (>= now: the distributor's launch). Resident
 * warps are counted from now, so that the occupancy area stays a sum over cycles already simulated. */
static void place_block(ws_tm *tm, int s, int64_t lin, uint64_t now, uint64_t t)
{
    ws_run *L = tm->L;
    ws_block *b = ws_run_block_start(L, (uint64_t)lin);
    tsm *sm = &tm->sms[s];
    tblk *tb = b->user;
    if (!tb) {
        tb = calloc(1, sizeof *tb);
        tb->warps = calloc((size_t)b->nwarps, sizeof *tb->warps);
        for (int i = 0; i < b->nwarps; i++) {
            tb->warps[i].rr = calloc((size_t)tm->nregs, sizeof(uint64_t));
            tb->warps[i].rk = calloc((size_t)tm->nregs, 1);
        }
        b->user = tb;
    }
    tb->b = b;
    tb->sm = s;
    b->sm = s;
    b->clock = &sm->now;
    if (!sm->active) { sm->active = 1; tm->act_dirty = 1; }
    if (tm->nlis) emit(tm, s, WS_TE_BLOCK_PLACED, b->linear, t, t);
    if (sm->nblocks == 0) sm->busy_since = now;
    sm->nblocks++;
    if (sm->nblocks > tm->max_resident) tm->max_resident = sm->nblocks;
    for (int i = 0; i < b->nwarps; i++) {
        tw *x = &tb->warps[i];
        x->w = &b->warps[i];
        x->blk = tb;
        memset(x->rr, 0, sizeof(uint64_t) * (size_t)tm->nregs);
        memset(x->rk, 0, (size_t)tm->nregs);
        x->last_issue = t;
        x->waiting_bar = 0;
        memset(&x->wg, 0, sizeof x->wg);
        memset(&x->cp, 0, sizeof x->cp);
        memset(&x->bk, 0, sizeof x->bk);
        x->st_ack = 0;
        x->age = tm->age++;
        tsp *sp = &sm->sp[sm->warp_rr++ % sm->nsp];
        x->sp = sp;
        area_update(sp, now);
        if (sp->n == sp->cap) {
            sp->cap = sp->cap ? sp->cap * 2 : 16;
            sp->warps = realloc(sp->warps, sizeof *sp->warps * (size_t)sp->cap);
            sp->rdy = realloc(sp->rdy, sizeof *sp->rdy * (size_t)sp->cap);
        }
        x->slot = sp->n;
        sp->rdy[sp->n] = x->ready;
        sp->warps[sp->n++] = x;
        sp->nres++;
        compute_ready(tm, x, t);
        if (x->ready < sp->wake) sp->wake = x->ready;
        if (x->ready < tm->smwake[s]) tm->smwake[s] = x->ready;
    }
}

/* Remove a finished block's warps from their sub-partitions and retire it. */
static void unplace_block(ws_tm *tm, tblk *tb, uint64_t t)
{
    ws_run *L = tm->L;
    tsm *sm = &tm->sms[tb->sm];
    for (int i = 0; i < tb->b->nwarps; i++) {
        tw *x = &tb->warps[i];
        tsp *sp = x->sp;
        area_update(sp, t);
        for (int k = 0; k < sp->n; k++)
            if (sp->warps[k] == x) {
                tw *moved = sp->warps[--sp->n];
                sp->warps[k] = moved;
                sp->rdy[k] = sp->rdy[sp->n];
                moved->slot = k;
                break;
            }
        x->slot = -1;
        sp->nres--;
        if (sp->last == x) sp->last = NULL;
    }
    if (tm->nlis) emit(tm, tb->sm, WS_TE_BLOCK_RETIRED, tb->b->linear, t, t);
    ws_run_block_retire(L, tb->b);
    tm->retired++;
    sm->nblocks--;
    if (sm->nblocks == 0) sm->active_cycles += t - sm->busy_since;
}

/* When block tb, whose last warp finished at t, frees its SM resources: once L2 has acknowledged its stores. */
static uint64_t block_freed(const tblk *tb, uint64_t t)
{
    for (int i = 0; i < tb->b->nwarps; i++) if (tb->warps[i].st_ack > t) t = tb->warps[i].st_ack;
    return t;
}

/* The cycle at which a block that may start at `ready` is launched: the block distributor launches one block per
 * block_dispatch_cycles across the GPU, in the order the blocks are handed out (the serial phase: deterministic). */
static uint64_t dispatch_at(ws_tm *tm, uint64_t ready)
{
    double at = (double)ready > tm->dispatch_free ? (double)ready : tm->dispatch_free;
    tm->dispatch_free = at + tm->dev->block_dispatch_cycles;
    return (uint64_t)(at + 0.999999);
}

/* Retire a finished block and admit the next one on its SM. A cluster's blocks stay resident until all of them
 * finished; then they retire together and the next cluster takes their places (the same SMs of one GPC). */
static void retire_block(ws_tm *tm, tblk *tb, uint64_t t)
{
    ws_run *L = tm->L;
    if (!tb->b->in_use || !tb->b->done) return;   /* retired with its cluster already */
    if (tb->b->cl) {
        ws_cluster *cl = tb->b->cl;
        if (!ws_cluster_done(tb->b)) return;
        int n = cl->n, sms[WS_CLUSTER_MAX_NONPORTABLE];
        tblk *all[WS_CLUSTER_MAX_NONPORTABLE];
        uint64_t freed = t;
        for (int i = 0; i < n; i++) {
            all[i] = cl->blk[i]->user;
            sms[i] = all[i]->sm;
            uint64_t f = block_freed(all[i], t);
            if (f > freed) freed = f;
        }
        for (int i = 0; i < n; i++) unplace_block(tm, all[i], t);
        for (int i = 0; i < n; i++) {
            int64_t lin = ws_run_next_block(L);
            if (lin < 0) break;
            place_block(tm, sms[i], lin, t, dispatch_at(tm, freed + 1 + (uint64_t)tm->dev->block_launch_cycles));
        }
        return;
    }
    uint64_t freed = block_freed(tb, t);
    unplace_block(tm, tb, t);
    int64_t lin = ws_run_next_block(L);
    if (lin >= 0) place_block(tm, tb->sm, lin, t, dispatch_at(tm, freed + 1 + (uint64_t)tm->dev->block_launch_cycles));
}

/* The first wave of a cluster launch: one cluster per GPC in turn while a GPC has block slots for a whole one, its
 * blocks on the GPC's SMs with the most free slots. 0 when not even one cluster fits. */
static int place_clusters(ws_tm *tm, int bps, uint64_t t)
{
    ws_run *L = tm->L;
    const ws_device *d = tm->dev;
    int gpc[WS_MAX_GPCS + 1], ngpc = ws_device_gpcs(d, gpc), first[WS_MAX_GPCS + 2], csz = L->cluster_size, placed = 0;
    first[0] = 0;
    for (int g = 0; g < ngpc; g++) first[g + 1] = first[g] + gpc[g];
    if (first[ngpc] > tm->nsm) first[ngpc] = tm->nsm;
    int *slots = calloc((size_t)tm->nsm, sizeof *slots);
    for (int s = 0; s < tm->nsm; s++) slots[s] = bps;
    for (int progress = 1; progress;) {
        progress = 0;
        for (int g = 0; g < ngpc; g++) {
            int have = 0;
            for (int s = first[g]; s < first[g + 1] && s < tm->nsm; s++) have += slots[s];
            if (have < csz) continue;
            for (int r = 0; r < csz; r++) {
                int best = -1;
                for (int s = first[g]; s < first[g + 1] && s < tm->nsm; s++)
                    if (slots[s] > 0 && (best < 0 || slots[s] > slots[best])) best = s;
                int64_t lin = ws_run_next_block(L);
                if (lin < 0) goto done;
                place_block(tm, best, lin, t, t);
                slots[best]--;
            }
            placed++;
            progress = 1;
        }
    }
done:
    free(slots);
    return placed > 0 || L->nblocks == 0;
}

/* Release the warps parked at a barrier in every block of tb's cluster (tb's alone outside clusters). */
static void barrier_released(ws_tm *tm, tblk *tb, uint64_t t);
static void cluster_released(ws_tm *tm, tblk *tb, uint64_t t)
{
    ws_cluster *cl = tb->b->cl;
    if (!cl) { barrier_released(tm, tb, t); return; }
    for (int i = 0; i < cl->n; i++) if (cl->blk[i] && cl->blk[i]->user) barrier_released(tm, cl->blk[i]->user, t);
}

/* A warp of tb's block finished: its cluster's barrier may complete without it (serial phase only). */
static void cluster_warp_done(ws_tm *tm, tblk *tb, uint64_t t)
{
    if (!tb->b->cl || !tb->b->in_use) return;
    ws_cluster_barrier_check(tb->b);
    cluster_released(tm, tb, t);
}

/* Release warps of block tb parked at a barrier that the core has just completed. */
static void barrier_released(ws_tm *tm, tblk *tb, uint64_t t)
{
    for (int i = 0; i < tb->b->nwarps; i++) {
        tw *x = &tb->warps[i];
        if (x->waiting_bar && x->w->state == WS_W_RUN) {
            x->waiting_bar = 0;
            if (tm->nlis) {
                ws_tm_event *e = emit(tm, tb->sm, WS_TE_BARRIER_WAIT, tb->b->linear, x->bar_since, t);
                e->warp = (uint32_t)x->w->warp_in_block;
                e->sp = (uint8_t)(x->sp - tm->sms[tb->sm].sp);
            }
            compute_ready(tm, x, t + (uint64_t)tm->dev->lat_bar);
            if (x->ready < t + (uint64_t)tm->dev->lat_bar) set_ready(x, t + (uint64_t)tm->dev->lat_bar);
            x->reason = WS_ST_BARRIER;
            if (x->ready < x->sp->wake) x->sp->wake = x->ready;
            if (x->ready < tm->smwake[tb->sm]) tm->smwake[tb->sm] = x->ready;
        }
    }
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
    compute_ready(tm, x, until);
    x->reason = op == WS_OP_WGMMA ? WS_ST_MATH_THROTTLE : WS_ST_LONG_SCOREBOARD;
    return 1;
}

/* SM index of a warp (for the memory system). */
static inline int tx_sm(const tw *x) { return x->blk->sm; }

/* Append deferred work to SM s's list for the serial phase. */
static tpend *defer(ws_tm *tm, int s, int kind, tw *x, tblk *tb)
{
    tsm *sm = &tm->sms[s];
    if (sm->npend == sm->cappend) {
        sm->cappend = sm->cappend ? sm->cappend * 2 : 16;
        sm->pend = realloc(sm->pend, sizeof *sm->pend * (size_t)sm->cappend);
    }
    tpend *p = &sm->pend[sm->npend++];
    tm->smpend[s] = 1;
    p->kind = kind;
    p->x = x;
    p->tb = tb;
    return p;
}

static void mem_event(ws_tm *tm, const tw *x, const ws_rec *r, uint64_t t, uint64_t done);

/* Account a memory access with the memory system and set its destination registers' ready cycles. */
static void mem_account(ws_tm *tm, tacc *acc, tw *x, const ws_rec *r, uint64_t t)
{
    const ws_insn *in = r->in;
    /* managed memory: the access waits for the pages it faults on (or for the link, to a mapped host page) */
    uint64_t from = tm->um.um && ws_um_any(tm->um.um) ? tm_um_access(&tm->um, r, t) : t;
    if (in->op == WS_OP_CP_ASYNC || in->op == WS_OP_WMMA_LOAD || in->op == WS_OP_WMMA_STORE) {
        /* a cp.async's data lands when its last sector arrives; a wmma.load's fragment registers are ready then */
        uint64_t done = ws_ms_matrix(tm->ms, tx_sm(x), x->mx, x->nmx, in->op == WS_OP_WMMA_STORE, from);
        if (tm->nlis) mem_event(tm, x, r, t, done);
        if (in->op == WS_OP_WMMA_LOAD && in->mma) {
            int shared = x->nmx && x->mx[0].space == WS_S_SHARED;
            int kind = shared ? WS_ST_SHORT_SCOREBOARD : WS_ST_LONG_SCOREBOARD;
            const tsi *f = facts_of(tm, x, r->fn, in);   /* the fragment is ready as the SASS makes it (wmma_form) */
            done += f->mx_lat + (uint64_t)(f->mx_generic && shared ? tm->dev->lat_generic_over_lds : 0);
            for (int i = 0; i < in->mma->na; i++) {   /* wmma.load's fragment is its a list */
                int d = in->mma->a[i];
                if (d < WS_SR_COUNT || d >= tm->nregs) continue;
                x->rr[d] = done + (uint64_t)(i * f->mx_step);   /* register i's loads issue after those before */
                x->rk[d] = (uint8_t)kind;
            }
            done += (uint64_t)((in->mma->na > 0 ? in->mma->na - 1 : 0) * f->mx_step);
        }
        if (in->op == WS_OP_CP_ASYNC && done > x->cp.open) x->cp.open = done;
        if (done > acc->end) acc->end = done;
        return;
    }
    uint64_t done = ws_ms_access_warp(tm->ms, tx_sm(x), x->blk->b->linear * 64u + (uint64_t)x->w->warp_in_block, r, from);
    if (tm->nlis) mem_event(tm, x, r, t, done);
    int kind = (r->space[__builtin_ctz(r->exec)] == WS_S_SHARED) ? WS_ST_SHORT_SCOREBOARD : WS_ST_LONG_SCOREBOARD;
    uint64_t ack = ws_ms_last_access(tm->ms)->store_ack;
    if (ack > x->st_ack) x->st_ack = ack;
    if (ack > done ? ack > acc->end : done > acc->end) acc->end = ack > done ? ack : done;
    for (int i = 0; i < 4; i++) {
        int d = in->d[i];
        if (d >= WS_SR_COUNT && d < tm->nregs) { x->rr[d] = done; x->rk[d] = (uint8_t)kind; }
    }
}

/* The WS_TE_MEM event of access r of warp x issued at t, ready at done: what it added to the counters. */
static void mem_event(ws_tm *tm, const tw *x, const ws_rec *r, uint64_t t, uint64_t done)
{
    const ws_ms_access_counts *a = ws_ms_last_access(tm->ms);
    int s = x->blk->sm;
    ws_tm_event *e = emit(tm, s, WS_TE_MEM, x->blk->b->linear, t, done);
    e->warp = (uint32_t)x->w->warp_in_block;
    e->sp = (uint8_t)(x->sp - tm->sms[s].sp);
    e->in = r->in;
    e->fn = r->fn;
    e->active = r->active;
    e->exec = r->exec;
    e->space = r->space[__builtin_ctz(r->exec)];
    e->requests = a->requests;
    e->sectors = a->sectors;
    e->wavefronts = a->wavefronts;
    e->conflicts = a->conflicts;
    if (tm->want_addresses) {
        tsm *sm = &tm->sms[s];
        if (sm->naddrs == sm->capaddrs) {
            sm->capaddrs = sm->capaddrs ? sm->capaddrs * 2 : 64;
            sm->addrs = realloc(sm->addrs, sizeof *sm->addrs * 32 * sm->capaddrs);
        }
        memcpy(sm->addrs + sm->naddrs * 32, r->addr, sizeof *sm->addrs * 32);
        e->addr_index = (uint32_t)sm->naddrs++;
    }
}

/* The event of an issue at t (r NULL: only a reconvergence pop happened) after waiting since wait_from, the
 * first dep cycles for `reason`. */
static void issue_event(ws_tm *tm, const tw *x, const ws_rec *r, uint64_t t, uint64_t wait_from, uint64_t dep,
                        int reason)
{
    int s = x->blk->sm;
    ws_tm_event *e = emit(tm, s, WS_TE_ISSUE, x->blk->b->linear, t, t + 1);
    e->warp = (uint32_t)x->w->warp_in_block;
    e->sp = (uint8_t)(x->sp - tm->sms[s].sp);
    e->wait_from = wait_from;
    e->dep = (uint32_t)dep;
    e->reason = (uint8_t)reason;
    if (r) {
        e->in = r->in;
        e->fn = r->fn;
        e->active = r->active;
        e->exec = r->exec;
    }
}

/* Whether warp x's access r (issued in the parallel phase) may be accounted at once instead of in the serial phase:
 * every executing lane in shared memory (its SM's state alone), nothing of its SM deferred before it in this cycle
 * (the serial phase would account those first), no listener (event order) and no managed memory. */
static int shared_now(const ws_tm *tm, const tw *x, const ws_rec *r)
{
    if (tm->nlis || !r->is_mem || tm->sms[x->blk->sm].npend || (tm->um.um && ws_um_any(tm->um.um))) return 0;
    uint64_t v[4], all = 0x0101010101010101ull * WS_S_SHARED;   /* the usual case: every lane's space shared */
    memcpy(v, r->space, sizeof v);
    if (v[0] == all && v[1] == all && v[2] == all && v[3] == all) return 1;
    for (uint32_t m = r->exec; m; m &= m - 1)
        if (r->space[__builtin_ctz(m)] != WS_S_SHARED) return 0;
    return 1;
}

/* Account warp x's shared access r issued at t in the parallel phase, as the serial phase would have (mem_account,
 * then the ready cycle again); returns the ready cycle x had before (the serial phase lowers its wake with both). */
static uint64_t shared_account(ws_tm *tm, tacc *acc, tw *x, const ws_rec *r, const tsi *f, uint64_t t)
{
    uint64_t pre = x->ready;
    uint64_t done = ws_ms_shared_access(tm->ms, tx_sm(x), r, f->fuse, f->fwidth, f->fdelta, &acc->mc, t);
    if (done > acc->end) acc->end = done;
    for (int i = 0; i < 4; i++) {
        int d = r->in->d[i];
        if (d >= WS_SR_COUNT && d < tm->nregs) { x->rr[d] = done; x->rk[d] = WS_ST_SHORT_SCOREBOARD; }
    }
    if (x->w->state == WS_W_RUN && !x->waiting_bar && x->ready != NEVER) compute_ready(tm, x, t + 1);
    return pre;
}

/* Issue one instruction of warp x at cycle t. In the parallel phase (serial = 0) memory accounting and block
 * retirement are deferred to the serial phase (a shared-memory access is accounted at once when shared_now says
 * so); in the serial phase everything happens at once. Returns a further cycle to wake x's sub-partition at
 * (NEVER: none). */
static uint64_t issue(ws_tm *tm, tacc *acc, tw *x, uint64_t t, int serial)
{
    ws_rec r;
    ws_warp *w = x->w;
    tsp *sp = x->sp;
    /* stall accounting for the gap since this warp's last issue */
    uint64_t dep = 0, wait_from = t;
    if (t > x->last_issue + 1) {
        uint64_t gap = t - x->last_issue - 1;
        dep = x->ready > x->last_issue + 1 ? x->ready - x->last_issue - 1 : 0;
        if (dep > gap) dep = gap;
        acc->stall[x->reason] += dep;
        acc->stall[WS_ST_NOT_SELECTED] += gap - dep;
        wait_from = x->last_issue + 1;
    }
    acc->stall[WS_ST_SELECTED]++;
    int reason = x->reason;
    int stepped = ws_warp_step(w, &r);
    if (tm->nlis) issue_event(tm, x, stepped ? &r : NULL, t, wait_from, dep, reason);
    if (!stepped) {
        /* only a reconvergence pop happened: the warp may have finished */
        x->last_issue = t;
        if (w->state == WS_W_DONE) {
            set_ready(x, NEVER);
            barrier_released(tm, x->blk, t);
            if (x->blk->b->cl) {
                if (serial) cluster_warp_done(tm, x->blk, t);
                else defer(tm, x->blk->sm, PD_CLUSTER, NULL, x->blk);
            }
            if (x->blk->b->done) {
                if (serial) retire_block(tm, x->blk, t);
                else defer(tm, x->blk->sm, PD_RETIRE, NULL, x->blk);
            }
        } else compute_ready(tm, x, t + 1);
        return NEVER;
    }
    const ws_insn *in = r.in;
    const tsi *f = facts_of(tm, x, r.fn, in);
    int sw = f->hold;
    acc->sass_insts += f->sass;
    /* a scheduler issues one SASS instruction a cycle: a PTX instruction of s SASS instructions holds it for s
     * cycles, and fractions carry over (sass_bal), so that PTX instructions ptxas folded away take none */
    uint64_t next = t + 1, extra = 0;
    sp->sass_bal += sw - WS_SASS_ONE;
    if (sp->sass_bal >= WS_SASS_ONE) {
        extra = (uint64_t)(sp->sass_bal / WS_SASS_ONE);
        sp->sass_bal -= (int)extra * WS_SASS_ONE;
        sp->issue_free = next = t + 1 + extra;
    } else if (sp->sass_bal <= -WS_SASS_ONE) {
        sp->sass_bal += WS_SASS_ONE;
        sp->free_slot = 1;
        /* the same warp may use the slot only after a register-only instruction: a memory instruction's results
         * are scheduled by the memory system, possibly later in the cycle (serial phase) */
        if (!(in->iflags & (WS_IF_MEMSYS | WS_IF_BARRIER | WS_IF_SERIAL)) && !f->rare) next = t;
    }
    int p = in->pipe;
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
    sp->issued++;
    sp->last = x;
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
    int direct = 0;   /* a shared access accounted at the end */
    if (((in->iflags & WS_IF_MEMSYS) || mx) && r.exec) {
        if (serial) mem_account(tm, acc, x, &r, t);
        else if (!f->rare && !(in->iflags & WS_IF_BARRIER) && w->state == WS_W_RUN && shared_now(tm, x, &r)) direct = 1;
        else defer(tm, x->blk->sm, PD_MEMSYS, x, NULL)->rec = r;
    } else {
        uint64_t done = t + extra + (uint64_t)tm->lat_cycles[in->lat];
        uint8_t kind = (uint8_t)tm->lat_kind[in->lat];
        for (int i = 0; i < f->ndst; i++) { x->rr[f->dst[i]] = done; x->rk[f->dst[i]] = kind; }
    }
    if (in->iflags & WS_IF_BARRIER) {
        if (w->state == WS_W_BAR) {
            x->waiting_bar = 1;
            x->bar_since = t;
            set_ready(x, NEVER);
        }
        /* the last arrival releases the others (and itself); barrier.cluster (serial) those of its cluster */
        if (in->op == WS_OP_BAR_CLUSTER) cluster_released(tm, x->blk, t);
        else barrier_released(tm, x->blk, t);
        if (w->state == WS_W_RUN) {
            compute_ready(tm, x, t + (uint64_t)tm->dev->lat_bar);
            x->reason = WS_ST_BARRIER;
        }
        return NEVER;
    } else if (w->state == WS_W_DONE) {
        /* a finished warp may complete a barrier the others wait at */
        set_ready(x, NEVER);
        barrier_released(tm, x->blk, t);
        if (x->blk->b->cl) {
            if (serial) cluster_warp_done(tm, x->blk, t);
            else defer(tm, x->blk->sm, PD_CLUSTER, NULL, x->blk);
        }
        if (x->blk->b->done) {
            if (serial) retire_block(tm, x->blk, t);
            else defer(tm, x->blk->sm, PD_RETIRE, NULL, x->blk);
        }
        return NEVER;
    } else if (w->state == WS_W_FAULT) {
        set_ready(x, NEVER);
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
    compute_ready(tm, x, next);
    return direct ? shared_account(tm, acc, x, &r, f, t) : NEVER;
}

/* Let sub-partition sp try to issue at cycle t (the parallel phase: instructions touching global state are
 * deferred to the serial phase). */
static void sp_cycle(ws_tm *tm, tacc *acc, tsp *sp, uint64_t t)
{
    if (sp->issue_free > t) { sp->wake = sp->issue_free; return; }
    sp->free_slot = 0;
    uint64_t pre_min = NEVER;   /* the issued warps' ready cycles before their shared accesses were accounted */
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
            x->reason = (p == WS_PIPE_LSU || p == WS_PIPE_TEX) ? WS_ST_LG_THROTTLE : WS_ST_MATH_THROTTLE;
            set_ready(x, sp->pipe_free[p]);
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
        uint64_t pre = NEVER;
        if (best->nserial) {   /* (compute_ready looked at its next instruction) */
            /* runs in the serial phase; reserve its pipeline and keep the warp from being picked again */
            int p = best->npipe;
            sp->pipe_free[p] = t + (uint64_t)tm->pipe_interval[p];
            best->ready_saved = best->ready;
            set_ready(best, NEVER);
            defer(tm, best->blk->sm, PD_ISSUE, best, NULL);
        } else pre = issue(tm, acc, best, t, 0);
        if (pre < pre_min) pre_min = pre;
        if (sp->free_slot) { sp->free_slot = 0; if (sp->issue_free <= t) goto again; }
        if (eligible > 1) wake = t + 1;
        if (best->ready < wake) wake = best->ready;
        if (pre_min < wake) wake = pre_min;   /* its ready cycle before a shared access was accounted */
        if (sp->issue_free > wake) wake = sp->issue_free;
    }
    /* warps released by a barrier in this cycle lowered sp->wake; keep the smaller */
    if (sp->wake > t && sp->wake < wake) wake = sp->wake;
    sp->wake = wake;
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

/* The cycle SM s runs its parallel phase at next (NEVER: it has nothing to issue until the serial phase wakes it). */
static inline uint64_t sm_next(const ws_tm *tm, int s)
{
    return tm->smwake[s] > tm->smat[s] ? tm->smwake[s] : tm->smat[s];
}

/* Run SM s ahead: the parallel phase of its cycles before h, skipping those it sleeps through, up to the first
 * that deferred work to the serial phase (which must run before its next cycle). Nothing of the other SMs is read
 * or written here, so each SM runs ahead on its own and the serial phase takes the deferred work in cycle order,
 * SM by SM in each cycle, as if every SM had stepped cycle by cycle. */
static void sm_advance(ws_tm *tm, tacc *acc, int s, uint64_t h)
{
    if (tm->smpend[s]) return;
    for (;;) {
        uint64_t c = sm_next(tm, s);
        if (c >= h) { if (tm->smat[s] < h) tm->smat[s] = h; return; }
        sm_cycle(tm, acc, s, c);
        tm->smat[s] = c + 1;
        if (tm->smpend[s]) return;
    }
}

/* The parallel phase for the active SMs actv[i0..i1): each runs ahead to h. */
static void phase_parallel(ws_tm *tm, tacc *acc, int i0, int i1, uint64_t h)
{
    for (int i = i0; i < i1; i++) sm_advance(tm, acc, tm->actv[i], h);
}

/* Lower the wake times of x's sub-partition and SM to x's ready cycle. */
static void wake_for(ws_tm *tm, tw *x)
{
    if (x->ready < x->sp->wake) x->sp->wake = x->ready;
    if (x->ready < tm->smwake[x->blk->sm]) tm->smwake[x->blk->sm] = x->ready;
}

/* The serial phase of cycle t for SM s: its deferred work, in the order it was deferred. */
static void sm_serial(ws_tm *tm, tacc *acc, int s, uint64_t t)
{
    tm->smpend[s] = 0;
    tsm *sm = &tm->sms[s];
    sm->now = t;
    for (int i = 0; i < sm->npend; i++) {
        tpend *p = &sm->pend[i];
        tw *x = p->x;
        switch (p->kind) {
        case PD_ISSUE:
            set_ready(x, x->ready_saved);
            issue(tm, acc, x, t, 1);
            wake_for(tm, x);
            break;
        case PD_MEMSYS:
            if (!x->blk->b->in_use) break;
            mem_account(tm, acc, x, &p->rec, t);
            if (x->w->state == WS_W_RUN && !x->waiting_bar && x->ready != NEVER) compute_ready(tm, x, t + 1);
            wake_for(tm, x);
            break;
        case PD_CLUSTER:
            cluster_warp_done(tm, p->tb, t);
            break;
        default:
            retire_block(tm, p->tb, t);
            break;
        }
    }
    sm->npend = 0;
}

/* The serial phase of cycle t: the deferred work of every SM that stopped at t, SM by SM. */
static void phase_serial(ws_tm *tm, tacc *acc, uint64_t t)
{
    for (int i = 0; i < tm->nactv; i++) {
        int s = tm->actv[i];
        if (tm->smpend[s] && tm->smat[s] - 1 == t) sm_serial(tm, acc, s, t);
    }
}

/* A simulation thread beside the main one: it runs the parallel phase for its share of the active SMs. */
typedef struct tworker {
    pthread_t th;
    ws_tm *tm;
    tacc acc;
    int s0, s1;                /* its share of the active SMs: ws_tm.actv[s0..s1) */
    _Atomic uint64_t t;
    _Atomic int go, done, quit;
    _Atomic int park;          /* the main thread simulates alone for a while: sleep instead of spinning */
    _Atomic int sleeping;      /* waits on `wake` for the next go */
    pthread_mutex_t mu;
    pthread_cond_t wake;
} tworker;

/* Spins before a worker waiting for work yields the processor (or sleeps, when parked). */
#define WS_TM_SPINS 4096

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

/* Worker loop: wait for a cycle, simulate its SMs' parallel phase, report. */
static void *worker_main(void *arg)
{
    tworker *wk = arg;
    int gen = atomic_load(&wk->done);   /* the generation it was started at (go may be past it already) */
    for (;;) {
        gen = wait_go(wk, gen);
        if (atomic_load(&wk->quit)) break;
        phase_parallel(wk->tm, &wk->acc, wk->s0, wk->s1, atomic_load(&wk->t));
        atomic_store_explicit(&wk->done, gen, memory_order_release);
    }
    return NULL;
}

/* Wait until worker wk reported generation gen. */
static void wait_done(tworker *wk, int gen)
{
    for (unsigned spins = 0; atomic_load_explicit(&wk->done, memory_order_acquire) != gen; spins++)
        if (spins > WS_TM_SPINS) sched_yield(); else __builtin_ia32_pause();
}

/* Monotonic wall-clock time in nanoseconds. */
static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The simulation has reached cycle t: at the end of ad's window, choose how the next one runs (parking the workers
 * when it runs ahead). */
static void adapt_step(tadapt *ad, tworker **wk, int nwk, uint64_t t)
{
    if (t < ad->c0 + WS_TM_WINDOW) return;
    uint64_t now = now_ns();
    double per = (double)(now - ad->t0) / (double)(t - ad->c0);
    int ahead;
    if (ad->win == 0) { ad->ns_par = per; ahead = 1; ad->win = 1; }
    else if (ad->win == 1) { ahead = per < ad->ns_par; ad->win = 2; }
    else if (++ad->win == WS_TM_TRIAL_EVERY + 2) { ahead = 0; ad->win = 0; }
    else ahead = ad->ahead;
    if (ahead && !ad->ahead)
        for (int i = 0; i < nwk; i++) atomic_store(&wk[i]->park, 1);
    ad->ahead = ahead;
    ad->t0 = now;
    ad->c0 = t;
}

/* At least n workers in tm's pool (started asleep), as many as could be started; returns how many to use (n at
 * most). */
static int pool_grow(ws_tm *tm, int n)
{
    if (n <= tm->nwk) return n > 0 ? n : 0;
    tworker **wk = realloc(tm->wk, sizeof *wk * (size_t)n);
    if (!wk) return tm->nwk;
    tm->wk = wk;
    while (tm->nwk < n) {
        tworker *k = calloc(1, sizeof *k);
        if (!k) break;
        k->tm = tm;
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
static void pool_stop(ws_tm *tm)
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

/* Cycles in which fewer SMs than this have work run on the main thread alone: waking the others would cost more
 * than it saves (each SM's parallel phase is independent of the others', so this changes no result). */
#define WS_TM_PAR_MIN_SMS 8

/* Cycles the SMs may run ahead of the earliest cycle with deferred work (a bound, so that the watchdog and the
 * progress line still come round when one SM computes on its own for long) */
#define WS_TM_AHEAD 1024

/* Most simulation threads: WS_TM_MAX_THREADS (more are capped). */
#define WS_TM_MAX_THREADS 256

/* Threads to simulate with: WARPSIM_THREADS (warpsim run --threads N), else the online cores; one when something
 * observes instructions; at most one per SM and one per block of the grid. */
static int threads_for(const ws_run *L, int nsm)
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

/* The share [*s0, *s1) of thread i of n in count items (the active SMs): contiguous, sizes differing by one at most. */
static void thread_range(int i, int n, int count, int *s0, int *s1)
{
    *s0 = (int)((int64_t)count * i / n);
    *s1 = (int)((int64_t)count * (i + 1) / n);
}

/* List the active SMs in tm->actv and share them among the main thread (actv[0..*split)) and the nwk workers. */
static void act_rebuild(ws_tm *tm, tworker **wk, int nwk, int *split)
{
    tm->nactv = 0;
    for (int s = 0; s < tm->nsm; s++) if (tm->sms[s].active) tm->actv[tm->nactv++] = s;
    tm->act_dirty = 0;
    int i0;
    thread_range(0, nwk + 1, tm->nactv, &i0, split);
    for (int i = 0; i < nwk; i++) thread_range(i + 1, nwk + 1, tm->nactv, &wk[i]->s0, &wk[i]->s1);
}

/* The timing engine: run the launch, the SMs running ahead of each other (skipping idle cycles) between the serial
 * phases of the cycles with deferred work. */
static void tm_engine(void *ctx, ws_run *L)
{
    ws_tm *tm = ctx;
    const ws_device *d = tm->dev;
    tm->L = L;
    tm->policy = !strcmp(d->sched_policy, "lrr") ? POL_LRR : !strcmp(d->sched_policy, "lowest") ? POL_LOWEST : POL_GTO;
    tm->nsm = d->sm_count > 0 ? d->sm_count : 1;
    tm->sms = calloc((size_t)tm->nsm, sizeof *tm->sms);
    tm->smwake = calloc((size_t)tm->nsm, sizeof *tm->smwake);   /* 0: every SM looks at cycle 0 */
    tm->smpend = calloc((size_t)tm->nsm, sizeof *tm->smpend);
    tm->smat = calloc((size_t)tm->nsm, sizeof *tm->smat);
    tm->actv = calloc((size_t)tm->nsm, sizeof *tm->actv);
    int nsp = d->subpartitions > 0 ? d->subpartitions : 4;
    if (nsp > 8) nsp = 8;
    for (int s = 0; s < tm->nsm; s++) {
        tm->sms[s].nsp = nsp;
        for (int k = 0; k < nsp; k++) tm->sms[s].sp[k].wake = NEVER;
    }
    /* pipeline issue intervals (cycles between two warp instructions of one sub-partition) */
    int ws = L->warp_size;
    int per_sp = nsp;
    tm->pipe_interval[WS_PIPE_FP32] = d->fp32_lanes_per_sm ? (ws * per_sp + d->fp32_lanes_per_sm - 1) / d->fp32_lanes_per_sm : 1;
    tm->pipe_interval[WS_PIPE_INT] = (ws * per_sp + d->lanes_int_per_sm - 1) / d->lanes_int_per_sm;
    tm->pipe_interval[WS_PIPE_FP64] = (ws * per_sp + d->lanes_fp64_per_sm - 1) / d->lanes_fp64_per_sm;
    tm->pipe_interval[WS_PIPE_SFU] = (ws * per_sp + d->lanes_sfu_per_sm - 1) / d->lanes_sfu_per_sm;
    tm->pipe_interval[WS_PIPE_LSU] = (ws * per_sp + d->lanes_lsu_per_sm - 1) / d->lanes_lsu_per_sm;
    tm->pipe_interval[WS_PIPE_CTRL] = 1;
    /* one texture unit per sub-partition filters a quad (4 lanes) per cycle */
    tm->pipe_interval[WS_PIPE_TEX] = (ws + WS_TM_TEX_LANES_PER_SP - 1) / WS_TM_TEX_LANES_PER_SP;
    tm->pipe_interval[WS_PIPE_TENSOR] = 1;   /* per instruction: tensor_cycles() */
    latency_table(d, tm->lat_cycles, tm->lat_kind);
    for (int p = 0; p < WS_PIPE_COUNT; p++) if (tm->pipe_interval[p] < 1) tm->pipe_interval[p] = 1;
    /* registers tracked by the scoreboard: the largest window of any function */
    tm->nregs = 0;
    for (int i = 0; i < L->mod->nfuncs; i++) if (L->mod->funcs[i].nregs > tm->nregs) tm->nregs = L->mod->funcs[i].nregs;
    /* residency */
    int bps = L->blocks_per_sm;   /* the launch configuration's residency */
    tm->max_resident = 0;
    tm->age = 0;
    tm->retired = 0;
    tm->flops = 0;
    tm->end = 0;
    memset(&tm->last, 0, sizeof tm->last);
    if (tm->flush_all) ws_ms_flush(tm->ms);
    else ws_ms_new_launch(tm->ms);
    ws_ms_reset_counts(tm->ms);
    tm_um_begin(&tm->um);
    /* the L1 gets what the shared-memory carve-out of this launch leaves */
    ws_ms_set_smem_per_sm(tm->ms, (size_t)bps * (L->entry->static_smem + L->dyn_smem + d->smem_reserved_per_block));
    for (int i = 0; i < tm->nlis; i++)
        if (tm->lis[i]->launch_begin) tm->lis[i]->launch_begin(tm->lis[i]->ctx, L, tm->nsm, nsp);
    /* first wave: consecutive blocks go to consecutive SMs (a cluster launch: whole clusters to GPCs) */
    uint64_t start = 0;
    if (L->cluster_size) {
        if (!place_clusters(tm, bps, start)) {
            L->fault = WS_ERR_LAUNCH_FAILURE;
            snprintf(L->fault_msg, sizeof L->fault_msg, "a cluster of %d blocks of %s does not fit in one GPC "
                     "(%d block(s) per SM)", L->cluster_size, L->entry->name, bps);
        }
        goto placed;
    }
    tm->dispatch_free = (double)start;
    for (int round = 0; round < bps; round++)
        for (int s = 0; s < tm->nsm; s++) {
            int64_t lin = ws_run_next_block(L);
            if (lin < 0) goto placed;
            place_block(tm, s, lin, start, dispatch_at(tm, start));
        }
placed:;
    uint64_t t = start, steps = 0, next_look = start + WS_TM_AHEAD * 16;
    int gb_armed = 0;          /* cooperative grids: the grid-barrier deadlock check's state */
    uint32_t gb_last = 0;
    tacc acc;
    memset(&acc, 0, sizeof acc);
    int nthreads = threads_for(L, tm->nsm), split = 0, nwk = pool_grow(tm, nthreads - 1);
    tworker **wk = tm->wk;
    for (int i = 0; i < nwk; i++) memset(&wk[i]->acc, 0, sizeof wk[i]->acc);
    act_rebuild(tm, wk, nwk, &split);
    L->timed = 1;
    /* one cycle at a time where the serial phase of one SM reaches into others (clusters) or listeners see the events
     * cycle by cycle; else each SM may run up to WS_TM_AHEAD cycles ahead of the earliest one */
    const int lockstep = tm->nlis || L->cluster_size;
    tadapt ad = tm->ad;
    if (!nwk) ad.ahead = 1;
    ad.t0 = nwk ? now_ns() : 0;   /* a window starts with the launch */
    ad.c0 = start;
    while (!L->fault) {
        /* the earliest cycle an SM has to simulate, and the earliest with deferred work */
        uint64_t nx = NEVER, ps = NEVER;
        if (tm->act_dirty) act_rebuild(tm, wk, nwk, &split);
        for (int i = 0; i < tm->nactv; i++) {
            int s = tm->actv[i];
            if (!tm->smpend[s]) { uint64_t c = sm_next(tm, s); if (c < nx) nx = c; }
            else if (tm->smat[s] - 1 < ps) ps = tm->smat[s] - 1;
        }
        if (nx == NEVER && ps == NEVER) {
            if (!L->fault) {
                L->fault = WS_ERR_LAUNCH_FAILURE;
                snprintf(L->fault_msg, sizeof L->fault_msg,
                         "deadlock: no warp of %s can make progress (resident warps all wait at barriers)", L->entry->name);
            }
            break;
        }
        int ran_ahead = 0;
        if (nx <= ps) {   /* only once every SM has passed ps can none defer work to before it any more */
            int ahead = ad.ahead && !lockstep;
            uint64_t h = nx + (ahead ? WS_TM_AHEAD : 1);
            int shared = 0;
            if (nwk && !ahead) {
                int runnable = 0;
                for (int i = 0; i < tm->nactv; i++) {
                    int s = tm->actv[i];
                    runnable += !tm->smpend[s] && sm_next(tm, s) < h;
                }
                shared = runnable >= WS_TM_PAR_MIN_SMS;
            }
            if (shared) {
                int gen = ++tm->gen;
                for (int i = 0; i < nwk; i++) {
                    atomic_store(&wk[i]->t, h);
                    send_go(wk[i], gen);
                }
                phase_parallel(tm, &acc, 0, split, h);
                for (int i = 0; i < nwk; i++) wait_done(wk[i], gen);
            } else phase_parallel(tm, &acc, 0, tm->nactv, h);
            ran_ahead = ahead;
            if (ahead) L->cycle = nx;
            ps = nx;   /* cycle by cycle: every SM has passed nx now (and the listeners get its events at once) */
        }
        if (!ran_ahead) {
            phase_serial(tm, &acc, ps);
            if (tm->nlis) flush_events(tm);
            t = L->cycle = ps;
            if (tm->retired >= L->nblocks) break;
            if (nwk) adapt_step(&ad, wk, nwk, t);
        }
        /* every 4,096 steps, and at least every WS_TM_AHEAD * 16 cycles (the SMs running ahead cover many cycles in
         * a step) */
        if ((++steps & 0xfff) && L->cycle < next_look) continue;
        next_look = L->cycle + WS_TM_AHEAD * 16;
        if (L->gpu->progress) ws_run_progress(L);
        if (L->coop_ws && ws_run_grid_stuck(L, &gb_armed, &gb_last)) {
            L->fault = WS_ERR_LAUNCH_FAILURE;
            snprintf(L->fault_msg, sizeof L->fault_msg,
                     "deadlock: the grid barrier (this_grid().sync()) of the cooperative kernel %s can never complete: "
                     "the blocks that have not finished wait at it", L->entry->name);
            break;
        }
        ws_run_watchdog(L);
    }
    ws_run_watchdog(L);   /* and at the end: whether a launch exceeded the limit does not depend on when it was looked at */
    tm->ad = ad;
    for (int i = 0; i < nwk; i++) {   /* the workers sleep until the next launch */
        tacc *a = &wk[i]->acc;
        atomic_store(&wk[i]->park, 1);
        for (int k = 0; k < WS_ST_COUNT; k++) acc.stall[k] += a->stall[k];
        acc.flops += a->flops;
        acc.tensor_insts += a->tensor_insts;
        acc.tensor_cycles += a->tensor_cycles;
        acc.sass_insts += a->sass_insts;
        if (a->end > acc.end) acc.end = a->end;
        ws_ms_counts_add(tm->ms, &a->mc);
    }
    ws_ms_counts_add(tm->ms, &acc.mc);
    for (int i = 0; i < WS_ST_COUNT; i++) tm->last.stall_cycles[i] = acc.stall[i];
    tm->flops = acc.flops;
    tm->end = acc.end;
    uint64_t end = t > tm->end ? t : tm->end;
    uint64_t drain = ws_ms_drain_cycle(tm->ms);
    if (drain > end) end = drain;
    end += (uint64_t)d->kernel_fixed_cycles;   /* launch ramp and teardown the SMs count as elapsed */
    ws_ms_end_launch(tm->ms);
    /* results */
    ws_tm_result *R = &tm->last;
    R->valid = !L->fault;
    R->cycles = end;
    R->duration_ns = (double)R->cycles / d->sm_clock_mhz * 1e3;
    double act = 0, area = 0, issued = 0, elig = 0;
    for (int s = 0; s < tm->nsm; s++) {
        tsm *sm = &tm->sms[s];
        if (sm->nblocks) sm->active_cycles += end - sm->busy_since;
        act += (double)sm->active_cycles;
        for (int k = 0; k < sm->nsp; k++) {
            tsp *sp = &sm->sp[k];
            area_update(sp, end);
            area += (double)sp->active_area;
            issued += (double)sp->issued;
            elig += (double)sp->eligible_sum;
            free(sp->warps);
            free(sp->rdy);
        }
        free(sm->pend);
    }
    R->sm_active_cycles_avg = act / tm->nsm;
    double sp_active = act * (double)nsp;   /* sub-partition active cycles */
    R->warps_active_per_cycle = sp_active > 0 ? area / sp_active : 0;
    R->achieved_occupancy_pct = sp_active > 0 ? 100.0 * area / (act * (double)d->max_warps_per_sm) : 0;
    R->warps_eligible_per_cycle = sp_active > 0 ? elig / sp_active : 0;
    R->issue_active_pct = sp_active > 0 ? 100.0 * issued / sp_active : 0;
    R->blocks_per_sm = bps;
    R->max_resident_blocks = tm->max_resident;
    R->waves = (double)L->nblocks / ((double)bps * tm->nsm);
    R->mem = *ws_ms_counts_get(tm->ms);
    R->flops = tm->flops;
    R->tensor_insts = acc.tensor_insts;
    R->sass_insts = L->entry->sass_w ? (acc.sass_insts + WS_SASS_ONE / 2) / WS_SASS_ONE : 0;
    R->tensor_active_pct = sp_active > 0 ? 100.0 * (double)acc.tensor_cycles / sp_active : 0;
    tm_um_end(&tm->um, &R->um);
    for (int i = 0; i < L->npool; i++) {
        tblk *tb = L->pool[i]->user;
        if (!tb) continue;
        for (int k = 0; k < L->pool[i]->nwarps; k++) { free(tb->warps[k].rr); free(tb->warps[k].rk); free(tb->warps[k].mx); }
        free(tb->warps);
        free(tb);
        L->pool[i]->user = NULL;
    }
    /* blocks still resident after a fault are retired by the launcher */
    for (int i = 0; i < L->npool; i++) if (L->pool[i]->in_use) ws_run_block_retire(L, L->pool[i]);
    if (tm->nlis) {
        flush_events(tm);
        for (int i = 0; i < tm->nlis; i++)
            if (tm->lis[i]->launch_end) tm->lis[i]->launch_end(tm->lis[i]->ctx, L, R);
    }
    for (int s = 0; s < tm->nsm; s++) { free(tm->sms[s].ev); free(tm->sms[s].addrs); }
    free(tm->sms);
    free(tm->smwake);
    free(tm->smpend);
    free(tm->smat);
    tm->smat = NULL;
    free(tm->actv);
    tm->actv = NULL;
    tm->smwake = NULL;
    tm->smpend = NULL;
    tm->sms = NULL;
    for (int i = 0; i < tm->nfns; i++) free(tm->fns[i].tab);
    tm->nfns = 0;
    tm->L = NULL;
}

/* Make tm the launch engine of g. */
void ws_tm_attach(ws_tm *tm, ws_gpu *g) { ws_gpu_set_engine(g, tm_engine, tm); }
