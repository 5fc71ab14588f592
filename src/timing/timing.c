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
#include "../core/stage.h"

const char *const ws_stall_names[WS_ST_COUNT] = {
    "barrier", "long_scoreboard", "short_scoreboard", "wait", "math_pipe_throttle", "lg_throttle",
    "not_selected", "selected",
};

#define NEVER UINT64_MAX
#define WS_TM_MAX_THREADS 256      /* most simulation threads (more are capped) */
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
    uint8_t fast;              /* registers only, no control transfer, no memory: issue_fast may run it */
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
    uint64_t ready_saved;      /* `ready` when it was picked for a deferred issue (stall accounting) */
    uint64_t bar_since;        /* cycle it arrived at the barrier it waits at (events) */
    uint64_t age;              /* arrival order (greedy-then-oldest) */
    uint64_t *rr;              /* cycle each register slot is ready */
    uint8_t *rk;               /* kind of the producer of each slot (stall reason if waited on) */
    struct tsp *sp;
    struct tblk *blk;
    const ws_func *sfn;        /* function of stab (the warp's function when it last looked) */
    const tsi *stab;           /* its static facts */
    const ws_insn *nin;        /* its next instruction as compute_ready saw it (NULL: none), and its facts */
    const tsi *nf;
    int slot;                  /* its index in sp->warps and sp->rdy while resident, else -1 */
    tgrp wg;                   /* wgmma groups: the multiply-adds */
    tgrp cp;                   /* cp.async groups: the copies' data arriving in shared memory */
    tgrp bk;                   /* bulk async-groups: cp.async.bulk copies to global memory written */
    ws_mx_access *mx;          /* the accesses of its last wmma.load/store or cp.async (for the serial phase) */
    int nmx;
    uint64_t st_ack;           /* when L2 has acknowledged its global stores (its block retires no earlier) */
    uint32_t gen;              /* its block's placement (a record of an earlier occupant of this slot is stale) */
    int nwb;                   /* atomics whose old values the serial phase has yet to write to its registers */
    uint64_t fresh;            /* the window it was last listed in its SM's fresh list */
} tw;

typedef struct tblk {
    ws_block *b;
    tw *warps;
    int sm;
    int capwarps, capregs;     /* warps and register slots per warp its arrays hold */
    struct tblk *next;         /* in ws_tm.tb_free between launches */
} tblk;

typedef struct tsp {          /* SM sub-partition: one warp scheduler */
    tw **warps;
    uint64_t *rdy;             /* warps[k]->ready, dense, for the scheduler's scan (set_ready keeps it); NEVER past
                                * n up to a multiple of 4 */
    uint8_t *pipe;             /* warps[k]->npipe, dense */
    uint64_t pmask[WS_PIPE_COUNT];   /* the slots below 64 whose next instruction goes to each pipeline */
    uint32_t *key;             /* greedy-then-oldest: warps[k]'s age (the scan picks the lowest) */
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

/* Work an SM leaves to the serial phase that closes a window, in the order it issued it; the serial phase takes all
 * SMs' in (cycle, SM, order), so results do not depend on how many threads simulate the SMs. */
enum {
    IT_REQ,       /* an L2 transfer of an access's parallel part (a: its request in the SM's queue) */
    IT_STORE,     /* a captured store's bytes to global memory (a, b: its segments in the SM's stage) */
    IT_ATOM,      /* a captured atomic (a: the capture in the SM's stage): applied to global memory */
    IT_EXEC,      /* an instruction left whole to the serial phase (its warp waits: x) */
    IT_MEMSYS,    /* an access timed whole in the serial phase (b: its record in recs) */
    IT_RETIRE,    /* a finished block (tb) */
    IT_CLUSTER    /* a warp of tb's block finished (its cluster's barrier may complete) */
};
typedef struct titem {
    uint64_t t;                /* the cycle it was issued at */
    void *p;                   /* IT_ATOM, IT_EXEC: the warp; IT_RETIRE, IT_CLUSTER: the block */
    uint32_t a, b;
    int kind;
} titem;

/* An access whose completion waits for L2 transfers of the serial phase (ws_ms_access_l1's requests). */
enum { ACS_LOAD, ACS_STORE, ACS_WMMA, ACS_CP };
typedef struct tacs {
    tw *x;
    uint32_t gen;              /* x->gen when it was made */
    uint32_t dep0, ndep;       /* the requests it waits for: the SM's q.dep[dep0..dep0 + ndep) */
    uint64_t known;            /* its completion as far as the L1 goes */
    const ws_insn *in;
    uint8_t kind;              /* ACS_*: loads and wmma.load: their registers; stores: x->st_ack; cp.async: its
                                * group's completion (x->cp.open) */
    uint8_t shared;            /* its first access is in shared memory */
    const ws_func *fn;
    /* for listeners: the event's */
    uint32_t rec;              /* its record: the SM's recs[rec] */
    ws_ms_access_counts cnt;   /* what it counted */
    uint64_t t;                /* the cycle it issued at */
} tacs;

/* What the gate did with the instruction being stepped: nothing, captured a store, captured an atomic. */
enum { GK_NONE, GK_STORE, GK_ATOM };

/* Pending tags in a register's ready cycle (x->rr): at least WS_MS_PEND, so that nothing waiting on one issues
 * before the serial phase sets the real cycle; TAG_ACS for an access's data (a load's, an atomic's old value),
 * TAG_MEM for one timed whole in the serial phase; TAG_WAIT for a warp that waits for the serial phase itself. */
#define TAG_ACS (WS_MS_PEND | (1ull << 60))
#define TAG_MEM (WS_MS_PEND | (1ull << 58))
#define TAG_WAIT (WS_MS_PEND | (1ull << 57))
#define IS_PEND(v) ((v) >= WS_MS_PEND && (v) != NEVER)

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
    titem *it;                 /* work left to this window's serial phase, in issue order */
    uint32_t nit, capit;
    ws_ms_defer q;             /* the L2 transfers of this window's accesses */
    ws_stage st;               /* this window's captured global writes */
    tacs *acs;                 /* accesses waiting for transfers */
    uint32_t nacs, capacs;
    ws_rec *recs;              /* records of accesses timed whole in the serial phase (IT_MEMSYS) */
    uint32_t nrecs, caprecs;
    tw **fresh;                /* warps whose ready cycle may hold a pending tag: looked at after the serial phase */
    uint32_t nfresh, capfresh;
    int gk;                    /* what the gate did with the instruction being stepped (GK_*) */
    uint32_t ga, gb;           /* and where it put it */
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
    /* a phase's active SMs shared among nparts threads: part j is actv[part_cur[j]..part_end[j]) (its thread takes
     * from the front; a thread done with its own part takes from the others'), so that an SM stays with one thread
     * from window to window and its state in that processor's caches */
    int nparts;
    _Atomic int part_cur[WS_TM_MAX_THREADS];
    int part_end[WS_TM_MAX_THREADS];
    uint64_t win;              /* cycles per window (1: cycle by cycle) */
    uint64_t win_end;          /* the end of the current window (its first cycle not simulated) */
    uint64_t nwin;             /* windows so far (the fresh lists' stamp) */
    uint64_t last_retire;      /* the cycle the launch's last block retired at */
    int um_live;               /* managed memory is in use: accesses are timed in the serial phase (page faults) */
    uint32_t *cnt;             /* the serial phase's ordering: items per cycle of the window, then their places */
    uint32_t capord;
    uint64_t *sorted;          /* items in (cycle, SM, order): SM << 32 | index */
    tblk *tb_free;             /* blocks' timing state kept from launch to launch */
    uint32_t capsorted;
    ws_tm_event *batch;        /* a window's events for the listeners, in order */
    size_t capbatch;
};

static void pool_stop(ws_tm *tm);
static void tblk_free_all(ws_tm *tm);
static void sm_free(struct tsm *sm);

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
    free(tm->cnt);
    free(tm->sorted);
    tblk_free_all(tm);
    if (tm->sms) {
        for (int s = 0; s < tm->nsm; s++) sm_free(&tm->sms[s]);
        free(tm->sms);
        free(tm->smwake);
        free(tm->smat);
        free(tm->actv);
    }
    free(tm->batch);
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

/* Append an event made at cycle `at` to SM s's batch (only called when someone listens). */
static ws_tm_event *emit(ws_tm *tm, int s, int kind, uint64_t block, uint64_t t0, uint64_t t1, uint64_t at)
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
    e->at = at;
    return e;
}

/* Hand the window's events to the listeners in one batch: each SM's by the cycle they were made in (in the order
 * it made them), the SMs' merged by cycle, SM by SM. */
static void flush_events(ws_tm *tm)
{
    size_t total = 0;
    for (int s = 0; s < tm->nsm; s++) {
        tsm *sm = &tm->sms[s];
        for (size_t k = 0; k < sm->nev; k++) {   /* the address pool is stable now */
            if (sm->ev[k].addr_index != UINT32_MAX) sm->ev[k].addr = sm->addrs + (size_t)sm->ev[k].addr_index * 32;
            /* insertion into the sorted prefix: nearly in order already (only the serial phase's come late) */
            ws_tm_event e = sm->ev[k];
            size_t j = k;
            while (j > 0 && sm->ev[j - 1].at > e.at) { sm->ev[j] = sm->ev[j - 1]; j--; }
            sm->ev[j] = e;
        }
        total += sm->nev;
    }
    if (!total) return;
    if (total > tm->capbatch) {
        tm->capbatch = total;
        tm->batch = realloc(tm->batch, sizeof *tm->batch * total);
    }
    size_t n = 0, *pos = calloc((size_t)tm->nsm, sizeof *pos);
    while (n < total) {   /* the SM whose next event is earliest (the lowest SM on a tie) */
        int best = -1;
        for (int s = 0; s < tm->nsm; s++)
            if (pos[s] < tm->sms[s].nev && (best < 0 || tm->sms[s].ev[pos[s]].at < tm->sms[best].ev[pos[best]].at))
                best = s;
        uint64_t at = tm->sms[best].ev[pos[best]].at;
        while (pos[best] < tm->sms[best].nev && tm->sms[best].ev[pos[best]].at == at)
            tm->batch[n++] = tm->sms[best].ev[pos[best]++];
    }
    free(pos);
    for (int i = 0; i < tm->nlis; i++)
        if (tm->lis[i]->events) tm->lis[i]->events(tm->lis[i]->ctx, tm->L, tm->batch, total);
    for (int s = 0; s < tm->nsm; s++) { tm->sms[s].nev = 0; tm->sms[s].naddrs = 0; }
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

static void fresh(ws_tm *tm, tw *x);

/* Earliest cycle the next instruction of x can issue, from the scoreboard; sets x->reason. */
/* Slot k of sub-partition sp goes to pipeline p next. */
static inline void set_pipe(tsp *sp, int k, int p)
{
    int o = sp->pipe[k];
    if (o == p) return;
    if (k < 64) { sp->pmask[o] &= ~(1ull << k); sp->pmask[p] |= 1ull << k; }
    sp->pipe[k] = (uint8_t)p;
}

/* compute_ready for a running warp whose next instruction is in (its facts f). */
static inline void ready_of(ws_tm *tm, tw *x, uint64_t earliest, const ws_insn *in, const tsi *f)
{
    x->reason = WS_ST_WAIT;
    x->nin = in;
    x->npipe = in->pipe;
    if (x->slot >= 0) set_pipe(x->sp, x->slot, in->pipe);
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
        if ((in->op == WS_OP_CALL || in->op == WS_OP_RET) && ready < TAG_WAIT) { ready = TAG_WAIT; x->reason = WS_ST_LONG_SCOREBOARD; fresh(tm, x); }
    }
    set_ready(x, ready);
}

/* Earliest cycle the next instruction of x can issue, from the scoreboard; sets x->reason. */
static void compute_ready(ws_tm *tm, tw *x, uint64_t earliest)
{
    const ws_warp *w = x->w;
    x->reason = WS_ST_WAIT;
    if (w->state != WS_W_RUN) { x->nin = NULL; set_ready(x, NEVER); return; }
    const ws_insn *in = next_insn(w);
    x->nin = in;
    if (!in) { set_ready(x, earliest); return; }
    ready_of(tm, x, earliest, in, facts_of(tm, x, w->fn, in));
}

/* Accumulate resident-warp area of a sub-partition up to time t. */
static void area_update(tsp *sp, uint64_t t)
{
    if (t > sp->area_t) { sp->active_area += (uint64_t)sp->nres * (t - sp->area_t); sp->area_t = t; }
}

static tblk *tblk_get(ws_tm *tm, int nwarps);

/* Place block lin on SM s at cycle now, its warps issuing from cycle t (>= now: the distributor's launch). Resident
 * warps are counted from now, so that the occupancy area stays a sum over cycles already simulated. */
static void place_block(ws_tm *tm, int s, int64_t lin, uint64_t now, uint64_t t)
{
    ws_run *L = tm->L;
    ws_block *b = ws_run_block_start(L, (uint64_t)lin);
    tsm *sm = &tm->sms[s];
    tblk *tb = b->user;
    if (!tb) b->user = tb = tblk_get(tm, b->nwarps);
    tb->b = b;
    tb->sm = s;
    b->sm = s;
    b->clock = &sm->now;
    if (!sm->active) { sm->active = 1; tm->act_dirty = 1; }
    if (tm->nlis) emit(tm, s, WS_TE_BLOCK_PLACED, b->linear, t, t, now);
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
        x->gen++;
        x->nwb = 0;
        x->fresh = 0;
        x->sfn = NULL;   /* (static facts are made afresh in every launch) */
        x->nin = NULL;
        x->age = tm->age++;
        tsp *sp = &sm->sp[sm->warp_rr++ % sm->nsp];
        x->sp = sp;
        area_update(sp, now);
        if (sp->n + 4 > sp->cap) {
            sp->cap = sp->cap ? sp->cap * 2 : 16;
            sp->warps = realloc(sp->warps, sizeof *sp->warps * (size_t)sp->cap);
            sp->rdy = realloc(sp->rdy, sizeof *sp->rdy * (size_t)sp->cap);
            sp->pipe = realloc(sp->pipe, (size_t)sp->cap);
            sp->key = realloc(sp->key, sizeof *sp->key * (size_t)sp->cap);
        }
        x->slot = sp->n;
        sp->rdy[sp->n] = x->ready;
        sp->pipe[sp->n] = (uint8_t)x->npipe;
        if (sp->n < 64) sp->pmask[x->npipe] |= 1ull << sp->n;
        sp->key[sp->n] = (uint32_t)(x->age & 0x3fffffff);
        sp->warps[sp->n++] = x;
        for (int k = sp->n; k % 4; k++) sp->rdy[k] = NEVER;
        sp->nres++;
        compute_ready(tm, x, t);
        if (x->ready < sp->wake) sp->wake = x->ready;
        if (x->ready < tm->smwake[s]) tm->smwake[s] = x->ready;
    }
}

/* Timing state for a block of nwarps warps: one kept from an earlier launch that holds it, else a new one. */
static tblk *tblk_get(ws_tm *tm, int nwarps)
{
    for (tblk **pp = &tm->tb_free; *pp; pp = &(*pp)->next) {
        tblk *tb = *pp;
        if (tb->capwarps < nwarps || tb->capregs < tm->nregs) continue;
        *pp = tb->next;
        return tb;
    }
    tblk *tb = calloc(1, sizeof *tb);
    tb->warps = calloc((size_t)nwarps, sizeof *tb->warps);
    tb->capwarps = nwarps;
    tb->capregs = tm->nregs;
    for (int i = 0; i < nwarps; i++) {
        tb->warps[i].rr = calloc((size_t)tm->nregs, sizeof(uint64_t));
        tb->warps[i].rk = calloc((size_t)tm->nregs, 1);
    }
    return tb;
}

/* Free the blocks' timing state kept between launches. */
static void tblk_free_all(ws_tm *tm)
{
    while (tm->tb_free) {
        tblk *tb = tm->tb_free;
        tm->tb_free = tb->next;
        for (int k = 0; k < tb->capwarps; k++) { free(tb->warps[k].rr); free(tb->warps[k].rk); free(tb->warps[k].mx); }
        free(tb->warps);
        free(tb);
    }
}

/* Empty SM state sm for a launch on nsp sub-partitions, keeping its arrays (and their capacities). */
static void sm_reset(tsm *sm, int nsp)
{
    tsm keep = *sm;
    memset(sm, 0, sizeof *sm);
    sm->it = keep.it; sm->capit = keep.capit;
    sm->q = keep.q;
    ws_ms_defer_reset(&sm->q);
    sm->st = keep.st;
    ws_stage_clear(&sm->st);
    sm->acs = keep.acs; sm->capacs = keep.capacs;
    sm->recs = keep.recs; sm->caprecs = keep.caprecs;
    sm->fresh = keep.fresh; sm->capfresh = keep.capfresh;
    sm->ev = keep.ev; sm->capev = keep.capev;
    sm->addrs = keep.addrs; sm->capaddrs = keep.capaddrs;
    sm->nsp = nsp;
    for (int k = 0; k < 8; k++) {
        tsp *sp = &sm->sp[k];
        sp->warps = keep.sp[k].warps;
        sp->rdy = keep.sp[k].rdy;
        sp->pipe = keep.sp[k].pipe;
        sp->key = keep.sp[k].key;
        sp->cap = keep.sp[k].cap;
        sp->wake = NEVER;
    }
}

/* Free SM state sm's arrays. */
static void sm_free(tsm *sm)
{
    free(sm->it);
    ws_ms_defer_free(&sm->q);
    ws_stage_free(&sm->st);
    free(sm->acs);
    free(sm->recs);
    free(sm->fresh);
    free(sm->ev);
    free(sm->addrs);
    for (int k = 0; k < 8; k++) {
        free(sm->sp[k].warps);
        free(sm->sp[k].rdy);
        free(sm->sp[k].pipe);
        free(sm->sp[k].key);
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
                if (k < 64) sp->pmask[sp->pipe[k]] &= ~(1ull << k);
                if (sp->n < 64) sp->pmask[sp->pipe[sp->n]] &= ~(1ull << sp->n);
                if (k < 64 && k != sp->n) sp->pmask[sp->pipe[sp->n]] |= 1ull << k;
                sp->warps[k] = moved;
                sp->rdy[k] = sp->rdy[sp->n];
                sp->pipe[k] = sp->pipe[sp->n];
                sp->key[k] = sp->key[sp->n];
                sp->rdy[sp->n] = NEVER;
                moved->slot = k;
                break;
            }
        x->slot = -1;
        sp->nres--;
        if (sp->last == x) sp->last = NULL;
    }
    if (tm->nlis) emit(tm, tb->sm, WS_TE_BLOCK_RETIRED, tb->b->linear, t, t, t);
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
 * block_dispatch_cycles across the GPU, in the order the blocks are handed out (the serial phase: deterministic).
 * A successor placed by a window's serial phase starts after that window (its SM has simulated it already). */
static uint64_t dispatch_at(ws_tm *tm, uint64_t ready)
{
    if (ready < tm->win_end) ready = tm->win_end;
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
                ws_tm_event *e = emit(tm, tb->sm, WS_TE_BARRIER_WAIT, tb->b->linear, x->bar_since, t, t);
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

/* Grow array *p of *cap elements of size sz to hold n + 1. */
static void grow1(void **p, uint32_t *cap, uint32_t n, size_t sz)
{
    if (n < *cap) return;
    *cap = *cap ? *cap * 2 : 64;
    *p = realloc(*p, sz * *cap);
}

/* Append work for the serial phase to SM s's list: issued at t. */
static titem *item(ws_tm *tm, int s, int kind, uint64_t t, void *p)
{
    tsm *sm = &tm->sms[s];
    grow1((void **)&sm->it, &sm->capit, sm->nit, sizeof *sm->it);
    titem *it = &sm->it[sm->nit++];
    it->t = t;
    it->p = p;
    it->a = it->b = 0;
    it->kind = kind;
    return it;
}

/* List warp x for a look after the serial phase (once a window): its ready cycle may wait on a pending tag. */
static void fresh(ws_tm *tm, tw *x)
{
    if (x->fresh == tm->nwin) return;
    x->fresh = tm->nwin;
    tsm *sm = &tm->sms[x->blk->sm];
    grow1((void **)&sm->fresh, &sm->capfresh, sm->nfresh, sizeof *sm->fresh);
    sm->fresh[sm->nfresh++] = x;
}

static void mem_event(ws_tm *tm, const tw *x, const ws_rec *r, const ws_ms_access_counts *a, uint64_t t,
                      uint64_t done);

/* Set destination register d of x ready at v (kind: the stall reason of a waiter), unless it waits for a later
 * write than tag's (tag 0: in any case). */
static inline void rr_set(tw *x, int d, uint64_t v, int kind, uint64_t tag)
{
    if (tag && x->rr[d] != tag) return;
    x->rr[d] = v;
    x->rk[d] = (uint8_t)kind;
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
        if (d < WS_SR_COUNT || d >= tm->nregs) continue;
        rr_set(x, d, done + (uint64_t)(i * f->mx_step), kind, tag);   /* register i's loads issue after those before */
    }
    return done + (uint64_t)((in->mma->na > 0 ? in->mma->na - 1 : 0) * f->mx_step);
}

/* Account a memory access at once (the serial phase) with the memory system and set its destination registers'
 * ready cycles (tag: only those still waiting for it, as rr_set; an atomic whose old value nobody reads sets none). */
static void mem_account(ws_tm *tm, tacc *acc, tw *x, const ws_rec *r, uint64_t t, uint64_t tag)
{
    const ws_insn *in = r->in;
    /* managed memory: the access waits for the pages it faults on (or for the link, to a mapped host page) */
    uint64_t from = tm->um.um && ws_um_any(tm->um.um) ? tm_um_access(&tm->um, r, t) : t;
    if (in->op == WS_OP_CP_ASYNC || in->op == WS_OP_WMMA_LOAD || in->op == WS_OP_WMMA_STORE) {
        /* a cp.async's data lands when its last sector arrives; a wmma.load's fragment registers are ready then */
        uint64_t done = ws_ms_matrix(tm->ms, tx_sm(x), x->mx, x->nmx, in->op == WS_OP_WMMA_STORE, from);
        if (tm->nlis) mem_event(tm, x, r, ws_ms_last_access(tm->ms), t, done);
        if (in->op == WS_OP_WMMA_LOAD && in->mma)
            done = wmma_ready(tm, x, facts_of(tm, x, r->fn, in), in, x->nmx && x->mx[0].space == WS_S_SHARED, done, tag);
        if (in->op == WS_OP_CP_ASYNC && done > x->cp.open) x->cp.open = done;
        if (done > acc->end) acc->end = done;
        return;
    }
    uint64_t done = ws_ms_access_warp(tm->ms, tx_sm(x), x->blk->b->linear * 64u + (uint64_t)x->w->warp_in_block, r, from);
    if (tm->nlis) mem_event(tm, x, r, ws_ms_last_access(tm->ms), t, done);
    int kind = (r->space[__builtin_ctz(r->exec)] == WS_S_SHARED) ? WS_ST_SHORT_SCOREBOARD : WS_ST_LONG_SCOREBOARD;
    uint64_t ack = ws_ms_last_access(tm->ms)->store_ack;
    if (ack > x->st_ack) x->st_ack = ack;
    if (ack > done ? ack > acc->end : done > acc->end) acc->end = ack > done ? ack : done;
    for (int i = 0; i < 4; i++) {
        int d = in->d[i];
        if (d >= WS_SR_COUNT && d < tm->nregs) rr_set(x, d, done, kind, tag);
    }
}

/* The WS_TE_MEM event of access r of warp x issued at t, ready at done: what it added to the counters (a). */
static void mem_event(ws_tm *tm, const tw *x, const ws_rec *r, const ws_ms_access_counts *a, uint64_t t, uint64_t done)
{
    int s = x->blk->sm;
    ws_tm_event *e = emit(tm, s, WS_TE_MEM, x->blk->b->linear, t, done, t);
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
    ws_tm_event *e = emit(tm, s, WS_TE_ISSUE, x->blk->b->linear, t, t + 1, t);
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

/* Account warp x's access r issued at t in the parallel phase: what its SM does at once (ws_ms_access_l1), its L2
 * transfers left to the serial phase. Its destination registers get their ready cycle, or a pending tag until the
 * transfers it waits for are done; a store's acknowledgements reach x->st_ack there. */
static void mem_par(ws_tm *tm, tacc *acc, tw *x, const ws_rec *r, const tsi *f, uint64_t t)
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
    for (uint32_t i = r0; i < q->nreq; i++) item(tm, s, IT_REQ, t, NULL)->a = i;
    int store = in->mem == WS_MK_STORE || in->mem == WS_MK_REDUCE ||
                (in->mem == WS_MK_ATOMIC && tm->sms[s].gk == GK_ATOM && !tm->sms[s].st.atoms[tm->sms[s].ga].wb);
    int kind = shared ? WS_ST_SHORT_SCOREBOARD : WS_ST_LONG_SCOREBOARD;
    int pending = q->ndep > q->dep0;
    if (!pending) {   /* all known now */
        if (known > acc->end) acc->end = known;
        if (cp) { if (known > x->cp.open) x->cp.open = known; }
        else if (wmma) { uint64_t e = wmma_ready(tm, x, f, in, shared, known, 0); if (e > acc->end) acc->end = e; }
        else if (!store) for (int i = 0; i < 4; i++) if (in->d[i] >= WS_SR_COUNT && in->d[i] < tm->nregs) rr_set(x, in->d[i], known, kind, 0);
        if (!tm->nlis) return;   /* (listeners: a record all the same, for its event in the serial phase) */
    }
    grow1((void **)&sm->acs, &sm->capacs, sm->nacs, sizeof *sm->acs);
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
        grow1((void **)&sm->recs, &sm->caprecs, sm->nrecs, sizeof *sm->recs);
        sm->recs[sm->nrecs] = *r;
        c->rec = sm->nrecs++;
        c->cnt = a;
        c->t = t;
    }
    if (store || cp || !pending) return;
    uint64_t tag = TAG_ACS | ai;
    if (wmma) {
        for (int i = 0; i < in->mma->na; i++)
            if (in->mma->a[i] >= WS_SR_COUNT && in->mma->a[i] < tm->nregs) rr_set(x, in->mma->a[i], tag, kind, 0);
    } else
        for (int i = 0; i < 4; i++) if (in->d[i] >= WS_SR_COUNT && in->d[i] < tm->nregs) rr_set(x, in->d[i], tag, kind, 0);
    fresh(tm, x);
}

/* Leave warp x's instruction, which the gate would not let run in the parallel phase, to the serial phase of the
 * window: its pipeline is taken at t, the warp waits for it. */
static void defer_exec(ws_tm *tm, tw *x, uint64_t t)
{
    tsp *sp = x->sp;
    int p = x->npipe;
    sp->pipe_free[p] = t + (uint64_t)tm->pipe_interval[p];
    x->ready_saved = x->ready;
    set_ready(x, NEVER);
    item(tm, x->blk->sm, IT_EXEC, t, x);
}

/* The gate of the parallel phase (ws_run.gate): whether the instruction of warp w in record r may run now, on this
 * thread, without touching what another SM could read in this window; plain stores and atomics are captured for
 * the serial phase instead (WS_GATE_TAKEN), anything else that touches global memory is left to it whole. */
static int tm_gate(void *ctx, ws_warp *w, ws_rec *r)
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
        return sm->st.wn || sm->st.unknown ? WS_GATE_DEFER : WS_GATE_RUN;
    case WS_OP_TEX: case WS_OP_TLD4: case WS_OP_TXQ:
        return WS_GATE_RUN;   /* read-only data (the texture path is not coherent with a kernel's own writes) */
    case WS_OP_CP_ASYNC:   /* it reads global memory at once (its data lands later); only in launches stepped
                            * cycle by cycle (needs_lockstep), where its own SM's stores of the cycle come after it */
        return WS_GATE_RUN;
    case WS_OP_SULD:
        return sm->st.wn || sm->st.unknown ? WS_GATE_DEFER : WS_GATE_RUN;
    case WS_OP_CALL:
        if (in->call && in->call->builtin == WS_BI_NONE) return WS_GATE_RUN;   /* the warp's own frames */
        break;
    default:
        break;
    }
    ws_stage_mark(&sm->st, NULL);
    return WS_GATE_DEFER;
}

static void compute_ready(ws_tm *tm, tw *x, uint64_t earliest);

/* Issue warp x's next instruction at t when it is one of registers only (tsi.fast) that compute_ready found, it is
 * at the top of the warp's stack, and nothing observes instructions: executed here without a record, timed as
 * issue() would. Returns 0 (nothing done) when not. */
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
    /* stall accounting for the gap since this warp's last issue */
    if (t > x->last_issue + 1) {
        uint64_t gap = t - x->last_issue - 1;
        uint64_t dep = x->ready > x->last_issue + 1 ? x->ready - x->last_issue - 1 : 0;
        if (dep > gap) dep = gap;
        acc->stall[x->reason] += dep;
        acc->stall[WS_ST_NOT_SELECTED] += gap - dep;
    }
    acc->stall[WS_ST_SELECTED]++;
    const tsi *f = x->nf;
    tsp *sp = x->sp;
    int sw = f->hold;
    acc->sass_insts += f->sass;
    uint64_t next = t + 1, extra = 0;
    sp->sass_bal += sw - WS_SASS_ONE;
    if (sp->sass_bal >= WS_SASS_ONE) {
        extra = (uint64_t)(sp->sass_bal / WS_SASS_ONE);
        sp->sass_bal -= (int)extra * WS_SASS_ONE;
        sp->issue_free = next = t + 1 + extra;
    } else if (sp->sass_bal <= -WS_SASS_ONE) {
        sp->sass_bal += WS_SASS_ONE;
        sp->free_slot = 1;
        next = t;
    }
    int p = in->pipe;
    if (sw != 0) sp->pipe_free[p] = t + (uint64_t)tm->pipe_interval[p];
    sp->issued++;
    sp->last = x;
    x->last_issue = t;
    acc->flops += (uint64_t)in->flops * (uint64_t)__builtin_popcount(m);
    uint64_t done = t + extra + (uint64_t)tm->lat_cycles[in->lat];
    uint8_t kind = (uint8_t)tm->lat_kind[in->lat];
    for (int i = 0; i < f->ndst; i++) { x->rr[f->dst[i]] = done; x->rk[f->dst[i]] = kind; }
    if (w->state == WS_W_FAULT) { set_ready(x, NEVER); return 1; }
    int32_t pc = top->pc;   /* the next instruction, where no reconvergence pop comes first */
    if (pc != top->rpc && pc < w->fn->ncode && x->sfn == w->fn) ready_of(tm, x, next, &w->code[pc], &x->stab[pc]);
    else compute_ready(tm, x, next);
    return 1;
}

/* A warp of block tb finished at t: its cluster's barrier and the block's retirement, at once in the serial phase,
 * else left to it. */
static void warp_finished(ws_tm *tm, tblk *tb, uint64_t t, int serial)
{
    if (tb->b->cl) {
        if (serial) cluster_warp_done(tm, tb, t);
        else item(tm, tb->sm, IT_CLUSTER, t, tb);
    }
    if (tb->b->done) {
        if (serial) retire_block(tm, tb, t);
        else item(tm, tb->sm, IT_RETIRE, t, tb);
    }
}

/* Issue one instruction of warp x at cycle t. In the parallel phase (serial = 0) what reaches beyond the SM is left
 * to the window's serial phase: L2 transfers, captured stores and atomics, block retirement, and instructions the
 * gate keeps back whole (the warp then waits for the serial phase); in the serial phase everything happens at once.
 * Returns a further cycle to wake x's sub-partition at (NEVER: none). */
static uint64_t issue(ws_tm *tm, tacc *acc, tw *x, uint64_t t, int serial)
{
    ws_rec r;
    ws_warp *w = x->w;
    tsp *sp = x->sp;
    if (x->nin && x->nf->fast && !serial && !tm->nlis && issue_fast(tm, acc, x, t)) return NEVER;
    tsm *sm = &tm->sms[x->blk->sm];
    sm->gk = GK_NONE;
    int stepped = ws_warp_step(w, &r);
    if (stepped == WS_STEP_DEFERRED) { defer_exec(tm, x, t); return NEVER; }
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
    if (tm->nlis) issue_event(tm, x, stepped ? &r : NULL, t, wait_from, dep, reason);
    if (!stepped) {
        /* only a reconvergence pop happened: the warp may have finished */
        x->last_issue = t;
        if (w->state == WS_W_DONE) {
            set_ready(x, NEVER);
            barrier_released(tm, x->blk, t);
            warp_finished(tm, x->blk, t, serial);
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
        /* (an instruction that reaches beyond the SM gives its slot up: it was the serial phase's alone) */
        sp->free_slot = !(in->iflags & WS_IF_SERIAL);
        /* the same warp may use the slot only after a register-only instruction: a memory instruction's results
         * are scheduled by the memory system */
        if (!(in->iflags & (WS_IF_MEMSYS | WS_IF_BARRIER | WS_IF_SERIAL)) && !f->rare) next = t;
    }
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
            item(tm, x->blk->sm, IT_ATOM, t, x)->a = sm->ga;
            if (sm->st.atoms[sm->ga].wb) x->nwb++;
        }
        if (serial) mem_account(tm, acc, x, &r, t, 0);
        else if (tm->um_live || in->op == WS_OP_WMMA_STORE) {
            /* timed whole in the serial phase (managed memory's page faults are the GPU's): its registers wait */
            grow1((void **)&sm->recs, &sm->caprecs, sm->nrecs, sizeof *sm->recs);
            sm->recs[sm->nrecs] = r;
            titem *it = item(tm, x->blk->sm, IT_MEMSYS, t, x);
            it->b = sm->nrecs++;
            uint64_t tag = TAG_MEM | it->b;
            for (int i = 0; i < 4; i++) if (in->d[i] >= WS_SR_COUNT && in->d[i] < tm->nregs) rr_set(x, in->d[i], tag, WS_ST_LONG_SCOREBOARD, 0);
            if (in->op == WS_OP_WMMA_LOAD && in->mma)
                for (int i = 0; i < in->mma->na; i++)
                    if (in->mma->a[i] >= WS_SR_COUNT && in->mma->a[i] < tm->nregs) rr_set(x, in->mma->a[i], tag, WS_ST_LONG_SCOREBOARD, 0);
            fresh(tm, x);
        } else mem_par(tm, acc, x, &r, f, t);
        if (sm->gk == GK_STORE) { titem *it = item(tm, x->blk->sm, IT_STORE, t, x); it->a = sm->ga; it->b = sm->gb; }
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
        warp_finished(tm, x->blk, t, serial);
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
    /* an access of the SM's own memories: the warp goes on from the next cycle (its results come from the memory
     * system) */
    compute_ready(tm, x, memop && !serial && !(in->iflags & WS_IF_SERIAL) ? t + 1 : next);
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
        tw *x = sp->warps[k]; \
        if (sp->pipe_free[p] < wake) wake = sp->pipe_free[p]; \
        x->reason = (p == WS_PIPE_LSU || p == WS_PIPE_TEX) ? WS_ST_LG_THROTTLE : WS_ST_MATH_THROTTLE; \
        set_ready(x, sp->pipe_free[p]); \
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
        issue(tm, acc, best, t, 0); \
        if (sp->free_slot) { sp->free_slot = 0; if (sp->issue_free <= t) goto again; } \
        if (eligible > 1) wake = t + 1; \
        if (best->ready < wake) wake = best->ready; \
        if (sp->issue_free > wake) wake = sp->issue_free; \
    } \
    /* warps released by a barrier in this cycle lowered sp->wake; keep the smaller */ \
    if (sp->wake > t && sp->wake < wake) wake = sp->wake; \
    sp->wake = wake; \
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
        issue(tm, acc, best, t, 0);
        if (sp->free_slot) { sp->free_slot = 0; if (sp->issue_free <= t) goto again; }
        if (eligible > 1) wake = t + 1;
        if (best->ready < wake) wake = best->ready;
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

/* The cycle SM s simulates next (at least NEVER's neighbourhood when it waits for the serial phase). */
static inline uint64_t sm_next(const ws_tm *tm, int s)
{
    return tm->smwake[s] > tm->smat[s] ? tm->smwake[s] : tm->smat[s];
}

/* Simulate SM s's cycles before h (the window's end), skipping those it sleeps through. Nothing of the other SMs is
 * read or written here: what reaches beyond the SM waits in its lists for the serial phase. */
static void sm_advance(ws_tm *tm, tacc *acc, int s, uint64_t h)
{
    for (;;) {
        uint64_t c = sm_next(tm, s);
        if (c >= h) { if (tm->smat[s] < h) tm->smat[s] = h; return; }
        sm_cycle(tm, acc, s, c);
        tm->smat[s] = c + 1;
    }
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
    for (int s; (s = part_take(tm, self)) >= 0;) sm_advance(tm, acc, s, h);
}

/* Lower the wake times of x's sub-partition and SM to x's ready cycle. */
static void wake_for(ws_tm *tm, tw *x)
{
    if (x->ready < x->sp->wake) x->sp->wake = x->ready;
    if (x->ready < tm->smwake[x->blk->sm]) tm->smwake[x->blk->sm] = x->ready;
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
            mem_event(tm, x, &sm->recs[c->rec], &c->cnt, c->t, c->kind == ACS_STORE ? c->known : done);
        if (x->gen != c->gen || c->kind == ACS_STORE) continue;
        if (c->kind == ACS_CP) { if (done > x->cp.open) x->cp.open = done; continue; }
        uint64_t tag = TAG_ACS | i;
        int kind = c->shared ? WS_ST_SHORT_SCOREBOARD : WS_ST_LONG_SCOREBOARD;
        if (c->kind == ACS_WMMA) {
            uint64_t e = wmma_ready(tm, x, facts_of(tm, x, c->fn, c->in), c->in, c->shared, done, tag);
            if (e > acc->end) acc->end = e;
        } else
            for (int k = 0; k < 4; k++)
                if (c->in->d[k] >= WS_SR_COUNT && c->in->d[k] < tm->nregs) rr_set(x, c->in->d[k], done, kind, tag);
    }
}

/* One item of SM s's serial work, issued at it->t. */
static void item_do(ws_tm *tm, tacc *acc, int s, const titem *it)
{
    tsm *sm = &tm->sms[s];
    tw *x = it->p;
    uint64_t t = it->t;
    sm->now = t;
    switch (it->kind) {
    case IT_REQ: {
        uint64_t f = ws_ms_req_do(tm->ms, s, &sm->q, it->a);
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
        mem_account(tm, acc, x, &sm->recs[it->b], t, TAG_MEM | it->b);
        break;
    case IT_EXEC:
        set_ready(x, x->ready_saved);
        issue(tm, acc, x, t, 1);
        wake_for(tm, x);
        break;
    case IT_CLUSTER:
        cluster_warp_done(tm, it->p, t);
        break;
    default:
        retire_block(tm, it->p, t);
        if (tm->retired >= tm->L->nblocks && tm->last_retire == NEVER) tm->last_retire = t;
        break;
    }
}

/* The serial phase that closes the window [t0, h): every SM's items in (cycle, SM, order), then the accesses that
 * waited for transfers, then the warps whose ready cycle waited for any of it. */
static void phase_serial(ws_tm *tm, tacc *acc, uint64_t t0, uint64_t h)
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
    for (int i = 0; i < tm->nactv; i++) {
        tsm *sm = &tm->sms[tm->actv[i]];
        for (uint32_t k = 0; k < sm->nit; k++) tm->cnt[sm->it[k].t - t0 + 1]++;
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
        for (uint32_t k = 0; k < total; k++) {
            int s = (int)(tm->sorted[k] >> 32);
            item_do(tm, acc, s, &tm->sms[s].it[(uint32_t)tm->sorted[k]]);
        }
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
            compute_ready(tm, x, x->last_issue + 1);
            wake_for(tm, x);
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

/* A simulation thread beside the main one: it takes SMs of each window's parallel phase (phase_parallel). */
typedef struct tworker {
    pthread_t th;
    ws_tm *tm;
    int idx;                   /* its part of the active SMs (the main thread's is 0) */
    tacc acc;
    _Atomic uint64_t h;        /* the window's end (0: the finishing pass instead) */
    _Atomic int go, done, quit;
    _Atomic int park;          /* between launches: sleep instead of spinning */
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

/* Worker loop: wait for a window, take SMs of its parallel phase, report. */
static void *worker_main(void *arg)
{
    tworker *wk = arg;
    int gen = atomic_load(&wk->done);   /* the generation it was started at (go may be past it already) */
    for (;;) {
        gen = wait_go(wk, gen);
        if (atomic_load(&wk->quit)) break;
        uint64_t h = atomic_load(&wk->h);
        if (h) phase_parallel(wk->tm, &wk->acc, h, wk->idx);
        else phase_finish(wk->tm, &wk->acc, wk->idx);
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

/* Simulated cycles between two looks at the watchdog, the progress line and a cooperative grid's barrier. */
#define WS_TM_LOOK_CYCLES 16384

/* Run a phase over the active SMs with nwk of the workers wk beside the main thread: the parallel phase of the
 * window ending at h, or (h = 0) the finishing pass. */
static void run_phase(ws_tm *tm, tacc *acc, tworker **wk, int nwk, uint64_t h)
{
    parts_setup(tm, nwk + 1);
    if (nwk) {
        int gen = ++tm->gen;
        for (int i = 0; i < nwk; i++) {
            atomic_store(&wk[i]->h, h);
            send_go(wk[i], gen);
        }
        if (h) phase_parallel(tm, acc, h, 0); else phase_finish(tm, acc, 0);
        for (int i = 0; i < nwk; i++) wait_done(wk[i], gen);
    } else if (h) phase_parallel(tm, acc, h, 0);
    else phase_finish(tm, acc, 0);
}

/* Windows in which fewer SMs than this have work run on the main thread alone: waking the others would cost more
 * than it saves (which thread simulates an SM changes no result). */
#define WS_TM_PAR_MIN_SMS 2

/* The longest window (cycles): the serial phase comes at least this often. */
#define WS_TM_WINDOW_MAX 256


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

/* List the SMs a block was placed on in tm->actv. */
static void act_rebuild(ws_tm *tm)
{
    tm->nactv = 0;
    for (int s = 0; s < tm->nsm; s++) if (tm->sms[s].active) tm->actv[tm->nactv++] = s;
    tm->act_dirty = 0;
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
static uint64_t window_cycles(const ws_tm *tm, const ws_run *L)
{
    if (L->cluster_size || (tm->um.um && ws_um_any(tm->um.um)) || needs_lockstep(L)) return 1;
    uint64_t w = ws_ms_min_latency(tm->ms);
    if (w > WS_TM_WINDOW_MAX) w = WS_TM_WINDOW_MAX;
    return w < 1 ? 1 : w;
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
    if (!tm->sms) {   /* kept from launch to launch with their arrays (sms_reset empties them) */
        tm->sms = calloc((size_t)tm->nsm, sizeof *tm->sms);
        tm->smwake = calloc((size_t)tm->nsm, sizeof *tm->smwake);
        tm->smat = calloc((size_t)tm->nsm, sizeof *tm->smat);
        tm->actv = calloc((size_t)tm->nsm, sizeof *tm->actv);
        for (int s = 0; s < tm->nsm; s++) ws_ms_attach_defer(tm->ms, s, &tm->sms[s].q);
    }
    int nsp = d->subpartitions > 0 ? d->subpartitions : 4;
    if (nsp > 8) nsp = 8;
    for (int s = 0; s < tm->nsm; s++) sm_reset(&tm->sms[s], nsp);
    memset(tm->smwake, 0, sizeof *tm->smwake * (size_t)tm->nsm);   /* 0: every SM looks at cycle 0 */
    memset(tm->smat, 0, sizeof *tm->smat * (size_t)tm->nsm);
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
    tm->win_end = 0;
    for (int round = 0; round < bps; round++)
        for (int s = 0; s < tm->nsm; s++) {
            int64_t lin = ws_run_next_block(L);
            if (lin < 0) goto placed;
            place_block(tm, s, lin, start, dispatch_at(tm, start));
        }
placed:;
    uint64_t t = start, next_look = start + WS_TM_LOOK_CYCLES;
    int gb_armed = 0;          /* cooperative grids: the grid-barrier deadlock check's state */
    uint32_t gb_last = 0;
    tacc acc;
    memset(&acc, 0, sizeof acc);
    int nthreads = threads_for(L, tm->nsm), nwk = pool_grow(tm, nthreads - 1);
    tworker **wk = tm->wk;
    for (int i = 0; i < nwk; i++) memset(&wk[i]->acc, 0, sizeof wk[i]->acc);
    act_rebuild(tm);
    L->timed = 1;
    tm->um_live = tm->um.um && ws_um_any(tm->um.um);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (g_scan_avx2 < 0) g_scan_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
#endif
    tm->win = window_cycles(tm, L);
    tm->last_retire = NEVER;
    L->gate = tm_gate;
    L->gate_ctx = tm;
    uint64_t nwin = 0;
    while (!L->fault) {
        /* the next window starts at the earliest cycle an SM has something to do */
        if (tm->act_dirty) act_rebuild(tm);
        uint64_t t0 = NEVER;
        int runnable = 0;
        for (int i = 0; i < tm->nactv; i++) {
            uint64_t c = sm_next(tm, tm->actv[i]);
            if (c < t0) t0 = c;
            runnable += c != NEVER;
        }
        if (t0 >= WS_MS_PEND) {
            if (!L->fault) {
                L->fault = WS_ERR_LAUNCH_FAILURE;
                snprintf(L->fault_msg, sizeof L->fault_msg,
                         "deadlock: no warp of %s can make progress (resident warps all wait at barriers)", L->entry->name);
            }
            break;
        }
        uint64_t h = t0 + tm->win;
        tm->win_end = h;
        tm->nwin = ++nwin;
        L->cycle = t0;
        int par = nwk && runnable >= WS_TM_PAR_MIN_SMS;
        run_phase(tm, &acc, wk, par ? nwk : 0, h);
        phase_serial(tm, &acc, t0, h);
        run_phase(tm, &acc, wk, par ? nwk : 0, 0);
        if (tm->nlis) flush_events(tm);
        t = h - 1;
        if (tm->retired >= L->nblocks) { t = tm->last_retire; break; }
        if (L->cycle < next_look) continue;
        next_look = L->cycle + WS_TM_LOOK_CYCLES;
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
    L->gate = NULL;
    ws_run_watchdog(L);   /* and at the end: whether a launch exceeded the limit does not depend on when it was looked at */
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
        }
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
    for (int i = 0; i < L->npool; i++) {   /* the blocks' timing state goes back to the pool for the next launches */
        tblk *tb = L->pool[i]->user;
        if (!tb) continue;
        tb->next = tm->tb_free;
        tm->tb_free = tb;
        L->pool[i]->user = NULL;
    }
    /* blocks still resident after a fault are retired by the launcher */
    for (int i = 0; i < L->npool; i++) if (L->pool[i]->in_use) ws_run_block_retire(L, L->pool[i]);
    if (tm->nlis) {
        flush_events(tm);
        for (int i = 0; i < tm->nlis; i++)
            if (tm->lis[i]->launch_end) tm->lis[i]->launch_end(tm->lis[i]->ctx, L, R);
    }
    for (int i = 0; i < tm->nfns; i++) free(tm->fns[i].tab);
    tm->nfns = 0;
    tm->L = NULL;
}

/* Make tm the launch engine of g. */
void ws_tm_attach(ws_tm *tm, ws_gpu *g) { ws_gpu_set_engine(g, tm_engine, tm); }
