/* timing.h - the cycle-approximate timing model. It replaces the functional block scheduler as the launch
 * engine: blocks are placed on SMs as the occupancy rules allow, each SM's sub-partitions pick an eligible warp
 * per cycle (scoreboard, pipelines, barriers), the functional core executes the chosen warp's next instruction,
 * and the memory system (memsys.h) says when its data arrives. Metrics use Nsight Compute's names. */
#ifndef WS_TIMING_H
#define WS_TIMING_H

#include <stdint.h>
#include "../core/exec.h"
#include "memsys.h"
#include "tm_events.h"

#define WS_TM_MAX_LISTENERS 8

/* warp stall reasons (Nsight Compute smsp__pcsamp_warps_issue_stalled_* families) */
enum {
    WS_ST_BARRIER,          /* waiting at __syncthreads */
    WS_ST_LONG_SCOREBOARD,  /* waiting on a global/local memory result */
    WS_ST_SHORT_SCOREBOARD, /* waiting on shared memory / SFU / shuffle results */
    WS_ST_WAIT,             /* fixed-latency execution dependency */
    WS_ST_MATH_THROTTLE,    /* the instruction's pipeline is busy */
    WS_ST_LG_THROTTLE,      /* the load/store pipeline is busy */
    WS_ST_NOT_SELECTED,     /* eligible, another warp issued */
    WS_ST_SELECTED,         /* issued */
    WS_ST_COUNT
};
extern const char *const ws_stall_names[WS_ST_COUNT];

/* one batch of GPU page faults on managed memory (tm_um.h), in cycles of its launch */
typedef struct ws_tm_um_batch {
    uint64_t t0, t1;            /* the driver took the batch / its last page was in */
    uint32_t faults;            /* pages that faulted in it */
    uint64_t htod_bytes, dtoh_bytes;   /* migrated in (and evicted out to make room) */
} ws_tm_um_batch;

/* what one launch did with managed memory */
typedef struct ws_tm_um_result {
    uint64_t gpu_faults;        /* pages the GPU faulted on */
    uint64_t htod_bytes;        /* migrated to the device by those faults */
    uint64_t dtoh_bytes;        /* evicted to the host to make room (oversubscription) */
    uint64_t evicted_pages;
    uint64_t remote_bytes;      /* read or written over the link in mapped host pages */
    uint64_t batches;           /* fault batches the driver serviced */
} ws_tm_um_result;

/* what one launch did, in timing terms */
typedef struct ws_tm_result {
    int valid;
    uint64_t cycles;                 /* sm__cycles_elapsed.max */
    double duration_ns;              /* gpu__time_duration.sum */
    double sm_active_cycles_avg;     /* sm__cycles_active.avg */
    double achieved_occupancy_pct;   /* sm__warps_active.avg.pct_of_peak_sustained_active */
    double warps_active_per_cycle;   /* smsp__warps_active.avg.per_cycle_active */
    double warps_eligible_per_cycle; /* smsp__warps_eligible.avg.per_cycle_active */
    double issue_active_pct;         /* smsp__issue_active.avg.pct_of_peak_sustained_active */
    int blocks_per_sm;               /* residency the block scheduler used */
    int max_resident_blocks;         /* most blocks that were resident on one SM at once */
    double waves;                    /* grid blocks / (SMs x blocks per SM) */
    uint64_t stall_cycles[WS_ST_COUNT]; /* warp-cycles by reason */
    ws_ms_counts mem;                /* memory counters */
    uint64_t flops;                  /* floating-point operations (FMA = 2), for the roofline */
    uint64_t tensor_insts;           /* sm__inst_executed_pipe_tensor.sum (wmma.mma, mma) */
    uint64_t sass_insts;             /* warp instructions counted as SASS (ptxas's per PTX instruction); 0: unknown */
    double tensor_active_pct;        /* sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active */
    ws_tm_um_result um;              /* unified memory: faults and migrations (zero without managed memory) */
} ws_tm_result;

typedef struct ws_tm ws_tm;

/* Create a timing model for device dev. */
ws_tm *ws_tm_create(const ws_device *dev);
/* Destroy it. */
void ws_tm_destroy(ws_tm *tm);
/* Make tm the launch engine of g. */
void ws_tm_attach(ws_tm *tm, ws_gpu *g);
/* 1: flush L1 and L2 before every launch (Nsight Compute --cache-control all), 0: keep them warm. */
void ws_tm_set_cache_control(ws_tm *tm, int flush_all);
/* Result of the most recent launch. */
const ws_tm_result *ws_tm_last(const ws_tm *tm);
/* Add an event listener (tm_events.h) to later launches (up to WS_TM_MAX_LISTENERS); 0, or -1 when full. */
int ws_tm_add_listener(ws_tm *tm, const ws_tm_listener *l);
/* Remove an event listener. */
void ws_tm_remove_listener(ws_tm *tm, const ws_tm_listener *l);
struct ws_um;
/* Price GPU accesses to the managed pages of um (src/mem/um.h) in later launches (NULL: none). */
void ws_tm_set_um(ws_tm *tm, struct ws_um *um);
/* The fault batches of the most recent launch; *n gets how many. */
const ws_tm_um_batch *ws_tm_um_batches(const ws_tm *tm, size_t *n);

#endif
