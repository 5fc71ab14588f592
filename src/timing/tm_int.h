/* tm_int.h - the timing model's own types and the functions its files share: timing.c (the engine, blocks and
 * events), tm_issue.c (static facts, the scoreboard, issue and the warp schedulers), tm_window.c (windows of cycles,
 * the gate, memory accounting, the serial phase and the simulation threads). Only src/timing includes it. */
#ifndef WS_TM_INT_H
#define WS_TM_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "timing.h"
#include "../core/observe.h"
#include "../core/stage.h"
#include "tm_um.h"

#define NEVER UINT64_MAX
#define WS_TM_MAX_THREADS 256      /* most simulation threads (more are capped) */
#define WS_TM_GROUPS 8             /* wgmma / cp.async groups a warp tracks (older ones merge) */
#define WS_TM_TEX_LANES_PER_SP 4   /* texture filtering lanes per sub-partition per cycle (one quad) */

/* warp scheduling policies */
enum { POL_GTO, POL_LRR, POL_LOWEST };

/* fragment registers of a wmma instruction the scoreboard tracks (a, b and c lists of wmma.mma: 8 each at most) */
#define WS_TM_FRAG_SRC 24

/* static timing facts of one instruction, derived once per launch from its decoded record (scoreboard slots it
 * reads and writes, those the scoreboard tracks only) */
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
    uint64_t *rr;              /* cycle each register slot is ready (slots below WS_SR_COUNT, the special registers,
                                * are never read or written) */
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
    int sass_bal;              /* SASS issued minus issue cycles used, in WS_SASS_ONE units (see tm_issue()) */
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
    struct ws_block **rows;    /* blocks placed whose register rows and shared memory are still to be set
                                * (ws_run_block_rows: at the SM's next tm_sm_advance, on its thread) */
    uint32_t nrows, caprows;
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
    int sms_nsp;               /* sub-partitions sms were reset for (0: not yet): a launch resets only the SMs the
                                * one before made active */
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
    ws_ms_l2tag *l2tag;        /* per item of sorted: its L2 transfer's tag stage (when a worker runs them ahead) */
    uint32_t capl2tag;
    uint32_t ntag;             /* items of the serial phase whose tag stages the worker runs */
    struct tworker *tagwk;     /* the worker that runs them (NULL: the main thread does both stages) */
    _Atomic uint32_t tag_done; /* items before this one have their tag stage done (the worker's progress) */
    _Atomic uint32_t main_done;   /* the main thread is past the items before this one (tm_window.c) */
    tblk *tb_free;             /* blocks' timing state kept from launch to launch */
    uint32_t capsorted;
    ws_tm_event *batch;        /* a window's events for the listeners, in order */
    size_t capbatch;
};

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

/* Set x's ready cycle (and its sub-partition's dense copy while x is resident there). */
static inline void tm_set_ready(tw *x, uint64_t v)
{
    x->ready = v;
    if (x->slot >= 0) x->sp->rdy[x->slot] = v;
}

/* Slot k of sub-partition sp goes to pipeline p next. */
static inline void tm_set_pipe(tsp *sp, int k, int p)
{
    int o = sp->pipe[k];
    if (o == p) return;
    if (k < 64) { sp->pmask[o] &= ~(1ull << k); sp->pmask[p] |= 1ull << k; }
    sp->pipe[k] = (uint8_t)p;
}

/* SM index of a warp (for the memory system). */
static inline int tm_tx_sm(const tw *x) { return x->blk->sm; }

/* Grow array *p of *cap elements of size sz to hold n + 1. */
static inline void tm_grow1(void **p, uint32_t *cap, uint32_t n, size_t sz)
{
    if (n < *cap) return;
    *cap = *cap ? *cap * 2 : 64;
    *p = realloc(*p, sz * *cap);
}

/* Set destination register d of x ready at v (kind: the stall reason of a waiter), unless it waits for a later
 * write than tag's (tag 0: in any case). */
static inline void tm_rr_set(tw *x, int d, uint64_t v, int kind, uint64_t tag)
{
    if (tag && x->rr[d] != tag) return;
    x->rr[d] = v;
    x->rk[d] = (uint8_t)kind;
}

/* Whether register operand r has a scoreboard slot: a declared register (not a special one) of the launch's
 * windows. */
static inline int tm_tracked(const ws_tm *tm, int r) { return r >= WS_SR_COUNT && r < tm->nregs; }

/* Set the tracked registers of list regs[0..n) of x ready at v, as tm_rr_set. */
static inline void tm_regs_ready(const ws_tm *tm, tw *x, const int32_t *regs, int n, uint64_t v, int kind,
                                 uint64_t tag)
{
    for (int i = 0; i < n; i++) if (tm_tracked(tm, regs[i])) tm_rr_set(x, regs[i], v, kind, tag);
}

/* Set the destination registers (d list) of in of x ready at v, as tm_rr_set. */
static inline void tm_dst_ready(const ws_tm *tm, tw *x, const ws_insn *in, uint64_t v, int kind, uint64_t tag)
{
    tm_regs_ready(tm, x, in->d, 4, v, kind, tag);
}

/* Mark the fragment registers a wmma.load fills (its a list) of x as waiting for pending tag `tag`. */
static inline void tm_frag_pending(const ws_tm *tm, tw *x, const ws_insn *in, uint64_t tag, int kind)
{
    tm_regs_ready(tm, x, in->mma->a, in->mma->na, tag, kind, 0);
}

/* Lower the wake times of x's sub-partition and SM to x's ready cycle. */
static inline void tm_wake_for(ws_tm *tm, tw *x)
{
    if (x->ready < x->sp->wake) x->sp->wake = x->ready;
    if (x->ready < tm->smwake[x->blk->sm]) tm->smwake[x->blk->sm] = x->ready;
}

/* ---------- shared between the timing files ---------- */
/* Append an event made at cycle `at` to SM s's batch (only called when someone listens). */
ws_tm_event *tm_emit(ws_tm *tm, int s, int kind, uint64_t block, uint64_t t0, uint64_t t1, uint64_t at);
/* Hand the window's events to the listeners in one batch: each SM's by the cycle they were made in (in the order
 * it made them), the SMs' merged by cycle, SM by SM. */
void tm_flush_events(ws_tm *tm);
/* Release warps of block tb parked at a barrier that the core has just completed. */
void tm_barrier_released(ws_tm *tm, tblk *tb, uint64_t t);
/* Release the warps parked at a barrier in every block of tb's cluster (tb's alone outside clusters). */
void tm_cluster_released(ws_tm *tm, tblk *tb, uint64_t t);
/* A warp of tb's block finished: its cluster's barrier may complete without it (serial phase only). */
void tm_cluster_warp_done(ws_tm *tm, tblk *tb, uint64_t t);
/* Retire a finished block and admit the next one on its SM. A cluster's blocks stay resident until all of them
 * finished; then they retire together and the next cluster takes their places (the same SMs of one GPC). */
void tm_retire_block(ws_tm *tm, tblk *tb, uint64_t t);
/* The WS_TE_MEM event of access r of warp x issued at t, ready at done: what it added to the counters (a). */
void tm_mem_event(ws_tm *tm, const tw *x, const ws_rec *r, const ws_ms_access_counts *a, uint64_t t, uint64_t done);
/* The event of an issue at t (r NULL: only a reconvergence pop happened) after waiting since wait_from, the
 * first dep cycles for `reason`. */
void tm_issue_event(ws_tm *tm, const tw *x, const ws_rec *r, uint64_t t, uint64_t wait_from, uint64_t dep,
                    int reason);
/* Dependent-issue latency (cycles) and waiter's stall reason of every latency class, from the device. */
void tm_latency_table(const ws_device *d, int *cycles, int *kind);
/* Static facts of function fn's code (built on first use in a launch). */
const tsi *tm_static_facts(ws_tm *tm, const ws_func *fn);
/* Earliest cycle the next instruction of x can issue, from the scoreboard; sets x->reason. */
void tm_compute_ready(ws_tm *tm, tw *x, uint64_t earliest);
/* Issue one instruction of warp x at cycle t. In the parallel phase (serial = 0) what reaches beyond the SM is left
 * to the window's serial phase: L2 transfers, captured stores and atomics, block retirement, and instructions the
 * gate keeps back whole (the warp then waits for the serial phase); in the serial phase everything happens at once.
 * Returns a further cycle to wake x's sub-partition at (NEVER: none). */
uint64_t tm_issue(ws_tm *tm, tacc *acc, tw *x, uint64_t t, int serial);
/* Simulate SM s's cycles before h (the window's end), skipping those it sleeps through. Nothing of the other SMs is
 * read or written here: what reaches beyond the SM waits in its lists for the serial phase. */
void tm_sm_advance(ws_tm *tm, tacc *acc, int s, uint64_t h);
/* Append work for the serial phase to SM s's list: issued at t. */
titem *tm_item(ws_tm *tm, int s, int kind, uint64_t t, void *p);
/* List warp x for a look after the serial phase (once a window): its ready cycle may wait on a pending tag. */
void tm_fresh(ws_tm *tm, tw *x);
/* Account a memory access at once (the serial phase) with the memory system and set its destination registers'
 * ready cycles (tag: only those still waiting for it, as tm_rr_set; an atomic whose old value nobody reads sets none). */
void tm_mem_account(ws_tm *tm, tacc *acc, tw *x, const ws_rec *r, uint64_t t, uint64_t tag);
/* Account warp x's access r issued at t in the parallel phase: what its SM does at once (ws_ms_access_l1), its L2
 * transfers left to the serial phase. Its destination registers get their ready cycle, or a pending tag until the
 * transfers it waits for are done; a store's acknowledgements reach x->st_ack there. */
void tm_mem_par(ws_tm *tm, tacc *acc, tw *x, const ws_rec *r, const tsi *f, uint64_t t);
/* Leave warp x's instruction, which the gate would not let run in the parallel phase, to the serial phase of the
 * window: its pipeline is taken at t, the warp waits for it. */
void tm_defer_exec(ws_tm *tm, tw *x, uint64_t t);
/* The serial phase that closes the window [t0, h): every SM's items in (cycle, SM, order), then the accesses that
 * waited for transfers, then the warps whose ready cycle waited for any of it. */
void tm_phase_serial(ws_tm *tm, tacc *acc, uint64_t t0, uint64_t h);
/* Run a phase over the active SMs with nwk of the workers wk beside the main thread: the parallel phase of the
 * window ending at h, or (h = 0) the finishing pass. */
void tm_run_phase(ws_tm *tm, tacc *acc, tworker **wk, int nwk, uint64_t h);
/* At least n workers in tm's pool (started asleep), as many as could be started; returns how many to use (n at
 * most). */
int tm_pool_grow(ws_tm *tm, int n);
/* End tm's workers. */
void tm_pool_stop(ws_tm *tm);
/* Threads to simulate with: WARPSIM_THREADS (warpsim run --threads N), else the online cores; one when something
 * observes instructions; at most one per SM and one per block of the grid. */
int tm_threads_for(const ws_run *L, int nsm);
/* Cycles per window: the shortest time in which anything the serial phase works out can matter to an SM (an L2 or
 * DRAM transfer's arrival, an acknowledgement, an atomic's result), so that no SM needs it within the window it
 * was asked in; cycle by cycle where the serial phase reaches into an SM at once (thread block clusters, managed
 * memory's page faults). */
uint64_t tm_window_cycles(const ws_tm *tm, const ws_run *L);
/* The gate of the parallel phase (ws_run.gate): whether the instruction of warp w in record r may run now, on this
 * thread, without touching what another SM could read in this window; plain stores and atomics are captured for
 * the serial phase instead (WS_GATE_TAKEN), anything else that touches global memory is left to it whole. */
int tm_gate(void *ctx, ws_warp *w, ws_rec *r);
/* Choose the schedulers' code for this processor (once, before a launch). */
void tm_sched_init(void);

/* Static facts of instruction in of function fn, run by warp x (which remembers fn's table). */
static inline const tsi *tm_facts_of(ws_tm *tm, tw *x, const ws_func *fn, const ws_insn *in)
{
    if (x->sfn != fn) { x->stab = tm_static_facts(tm, fn); x->sfn = fn; }
    return &x->stab[in - fn->code];
}

/* The cycle SM s simulates next (at least NEVER's neighbourhood when it waits for the serial phase). */
static inline uint64_t tm_sm_next(const ws_tm *tm, int s)
{
    return tm->smwake[s] > tm->smat[s] ? tm->smwake[s] : tm->smat[s];
}

#endif
