/* run_report.h - the run report (`warpsim run --report FILE`, WARPSIM_REPORT=FILE), written at exit:
 *   {"device": "h200", "launches": [
 *     {"kernel": ..., "grid": [..], "block": [..], "dynamic_smem": N, "smsp__inst_executed.sum": N, ...},
 *     ...
 *   ], "checks": {...}}
 * one launch per line. Metrics carry Nsight Compute's names; occupancy metrics appear when the launch had an
 * occupancy result, timing metrics in timing mode, "error" when the launch failed, "checks" under --check. */
#ifndef WS_RUN_REPORT_H
#define WS_RUN_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "json.h"
#include "../core/sim.h"
#include "../analysis/occupancy.h"
#include "../timing/timing.h"
#include "../check/check.h"

/* What one kernel launch did. Add a field here and one line in ws_rep_launch_json. */
typedef struct ws_rep_launch {
    const char *kernel;         /* mangled name (must outlive the record) */
    ws_dim3 grid, block;
    size_t dyn_smem;            /* dynamic shared memory, bytes */
    const char *error;          /* name of the error the launch returned (e.g. "cudaErrorIllegalAddress"), NULL
                                   when it succeeded */
    ws_launch_stats stats;      /* the functional core's counts */
    int has_occ;                /* occ is valid */
    ws_occ_result occ;          /* theoretical occupancy at this launch configuration */
    int has_tm;                 /* tm is valid (timing mode) */
    ws_tm_result tm;
    int depth;                  /* dynamic parallelism: 0 for a host launch, else the grid's nesting depth */
    long parent;                /* depth > 0: index (in "launches") of the grid that launched it */
    int device;                 /* the device it ran on (`warpsim run --gpus`) */
    int ndevices;               /* devices of the run; "device" is written only when there are several */
    int has_um;                 /* managed memory was tracked (timing mode): the "unified_memory" member */
    uint64_t um_cpu_faults;     /* CPU page faults on managed memory since the previous launch */
    uint64_t um_cpu_dtoh_bytes; /* bytes they moved to the host */
} ws_rep_launch;

/* Write one launch record as a JSON object: the one place that lists the per-launch metrics. */
void ws_rep_launch_json(ws_json *w, const ws_rep_launch *r);
/* Write the whole run report to out for device (its preset name) and n launches; checks (NULL: none) adds the
 * "checks" member. Ends with a newline. 0, or -1 when writing failed. */
int ws_rep_run_write(FILE *out, const char *device, const ws_rep_launch *launches, size_t n, const ws_chk *checks);
/* ws_rep_run_write, with extra(w, ctx) writing more members (key and value) at the end of the top-level object. */
int ws_rep_run_write_ex(FILE *out, const char *device, const ws_rep_launch *launches, size_t n, const ws_chk *checks,
                        void (*extra)(ws_json *w, void *ctx), void *ctx);

#endif
