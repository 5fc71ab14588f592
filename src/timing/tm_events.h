/* tm_events.h - what the timing model tells its listeners: blocks placed on and retired from SMs, every issued
 * warp instruction with its sub-partition and lanes, the intervals a warp stalled and why, barrier waits. Traces
 * and pictures (src/report) are built on it. Events reach the listeners in batches, in an order that does not
 * depend on how many threads simulate the SMs: by the cycle the model made them in, SM by SM, in the order each SM
 * produced them (a block's placement is made when its predecessor retires, a barrier wait when it ends, a memory
 * event at its instruction's issue). */
#ifndef WS_TM_EVENTS_H
#define WS_TM_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include "../core/exec.h"

/* kinds of events */
enum ws_tm_event_kind {
    WS_TE_BLOCK_PLACED,     /* block `block` became resident on SM `sm` at t0 */
    WS_TE_BLOCK_RETIRED,    /* block `block` finished on SM `sm` at t0 */
    WS_TE_ISSUE,            /* warp `warp` of block `block` issued `in` at t0 on sub-partition `sp`; before that
                             * it could not issue during [wait_from, t0): the first `dep` cycles because of
                             * `reason` (WS_ST_*), the rest eligible but not selected */
    WS_TE_BARRIER_WAIT,     /* the warp waited at a block barrier during [t0, t1) */
    WS_TE_MEM               /* the memory system served `in` issued at t0: counts below, data ready at t1 */
};

/* one event */
typedef struct ws_tm_event {
    uint8_t kind;           /* enum ws_tm_event_kind */
    uint8_t reason;         /* WS_TE_ISSUE: why it waited its first `dep` cycles (WS_ST_*) */
    uint8_t sp;             /* sub-partition (warp events) */
    uint16_t sm;
    uint32_t warp;          /* warp index within its block (warp events) */
    uint64_t block;         /* grid-linear block index */
    uint64_t t0, t1;        /* cycles: the event's time, or the interval [t0, t1) */
    uint64_t wait_from;     /* WS_TE_ISSUE: the cycle after its previous issue (or its arrival) */
    uint32_t dep;           /* WS_TE_ISSUE: cycles of [wait_from, t0) spent waiting for `reason` */
    const ws_insn *in;      /* ISSUE, MEM: the instruction (ISSUE: NULL for a reconvergence-only step) */
    const ws_func *fn;      /* its function */
    uint32_t active, exec;  /* ISSUE, MEM: lanes active, lanes that executed (after the guard) */
    /* WS_TE_MEM */
    uint8_t space;          /* WS_S_* of the first executing lane */
    uint32_t requests;      /* global/local requests (l1tex__t_requests) */
    uint32_t sectors;       /* global/local 32-byte sectors */
    uint32_t wavefronts;    /* shared-memory wavefronts */
    uint32_t conflicts;     /* shared-memory bank-conflict wavefronts */
    const uint64_t *addr;   /* per-lane addresses (32; valid in exec) when the listener asked for them, else NULL */
    uint32_t addr_index;    /* (internal: where addr lives until the batch is handed out) */
    uint64_t at;            /* (internal: the cycle the model made it in, which orders the batch) */
} ws_tm_event;

struct ws_tm_result;

/* a listener; any callback may be NULL */
typedef struct ws_tm_listener {
    void *ctx;
    /* a launch starts on nsm SMs of nsp sub-partitions each */
    void (*launch_begin)(void *ctx, const ws_run *L, int nsm, int nsp);
    /* a batch of events */
    void (*events)(void *ctx, const ws_run *L, const ws_tm_event *ev, size_t n);
    /* the launch ended with result r */
    void (*launch_end)(void *ctx, const ws_run *L, const struct ws_tm_result *r);
    /* nonzero: WS_TE_MEM events carry the lanes' addresses (costs a copy per memory instruction) */
    int want_addresses;
} ws_tm_listener;

#endif
