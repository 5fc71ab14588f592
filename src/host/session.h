/* session.h - the host session: what every API face of one process shares (the CUDA runtime libcudart.so.13 and a
 * driver API): the device preset, the simulated GPU (created on first use from the environment), the lock every
 * API call holds, the timing model, the checkers, the sticky fault state, the kernel-launch path (occupancy ->
 * launch configuration -> core -> report record -> simulated clock), the run report and timing summary written at
 * exit, the simulated clock (clock.h), and the host timeline (hs_timeline.h: trace, statistics, NVTX). Status
 * codes are the core's WS_ERR_* (the values of cudaError_t); each face turns them into its own enum. The faces see the simulator only through this header and src/core/sim.h.
 * Several simulated devices (WARPSIM_GPUS): each has its own preset, GPU, timing model and faults; the calling
 * thread's current device (ws_hs_set_current) is the one the device, GPU, launch and fault calls below mean. */
#ifndef WS_SESSION_H
#define WS_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include "clock.h"
#include "hs_timeline.h"
#include "../core/sim.h"
#include "../device/device.h"

/* status codes beyond the core's */
enum {
    WS_ERR_NO_DEVICE = 100,      /* cudaErrorNoDevice: no preset or no simulated GPU */
    WS_ERR_INVALID_DEVICE_ID = 101   /* cudaErrorInvalidDevice: no device of that ordinal */
};

/* most simulated devices of one process (`warpsim run --gpus`; one address range each, src/mem/mem.h) */
#define WS_HS_MAX_DEVICES 16

/* ---- the lock ---- */
/* Take / release the session lock (recursive): every API call holds it. */
void ws_hs_lock(void);
void ws_hs_unlock(void);
/* Take the lock, waiting at most `seconds`; 1 when taken (at exit another thread may still hold it). */
int ws_hs_lock_timed(double seconds);

/* ---- the device ---- */
/* Whether warpsim's own messages are silenced (WARPSIM_QUIET). */
int ws_hs_quiet(void);
/* The program's short name (for messages, titles and tables). */
const char *ws_hs_program_name(void);
/* Number of simulated devices: WARPSIM_GPUS = N (N devices of WARPSIM_GPU's preset) or a comma-separated list of
 * presets; unset, one device of WARPSIM_GPU (default h200). 0 when a preset cannot be loaded (said once). */
int ws_hs_device_count(void);
/* The calling thread's current device (cudaSetDevice is per host thread; 0 at first). */
int ws_hs_current(void);
/* Make device i the calling thread's current device: WS_OK or WS_ERR_INVALID_DEVICE_ID. */
int ws_hs_set_current(int i);
/* The preset of device i, or NULL when there is no such device. */
const ws_device *ws_hs_device_at(int i);
/* The current device's preset, or NULL with *err = WS_ERR_NO_DEVICE. */
const ws_device *ws_hs_device(int *err);
/* The simulated GPU, created on first use (options from WARPSIM_BLOCK_ORDER, WARPSIM_TRACE,
 * WARPSIM_MAX_INSTRUCTIONS, WARPSIM_MAX_CYCLES; the timing model with WARPSIM_TIMING; the checkers with
 * WARPSIM_CHECK), or NULL with *err set. */
ws_gpu *ws_hs_gpu(int *err);
/* Device i's simulated GPU, created on first use, or NULL with *err set. */
ws_gpu *ws_hs_gpu_at(int i, int *err);
/* The current device's simulated GPU if it exists (no creation). */
ws_gpu *ws_hs_current_gpu(void);
/* Device i's simulated GPU if it exists (no creation), else NULL. */
ws_gpu *ws_hs_gpu_if(int i);
/* The device whose address range holds addr (allocated or not; only devices whose GPU exists), or -1. */
int ws_hs_device_of(uint64_t addr);
/* Destroy the current device's GPU and clear its fault state and peer mappings (cudaDeviceReset); the next
 * ws_hs_gpu makes a new one. */
void ws_hs_gpu_reset(void);
/* Whether the current device has enabled access to device peer's memory (cudaDeviceEnablePeerAccess). */
int ws_hs_peer_enabled(int peer);
/* Enable (1) or disable (0) the current device's kernels' access to device peer's global memory. */
void ws_hs_peer_set(int peer, int enabled);
/* Call fn(g) for every GPU the session creates from now on (a face re-registers its pinned host memory). */
void ws_hs_on_gpu_created(void (*fn)(ws_gpu *g));
/* Whether the timing model runs launches (WARPSIM_TIMING). */
int ws_hs_timing(void);

/* ---- faults (each device's context has its own) ---- */
/* The sticky error to report at the start of a call (0 if none); sync=1 first turns a pending fault sticky. */
int ws_hs_fault_check(int sync);
/* A kernel fault: it becomes visible (sticky) at the next synchronizing call. */
void ws_hs_fault(int code);
/* A fault that is not yet reported, or 0. */
int ws_hs_fault_pending(void);

/* ---- checkers (--check) ---- */
/* Whether the checkers run (WARPSIM_CHECK). */
int ws_hs_checking(void);
/* An API call of a face fails with code (name and description in the face's words): report it with its host
 * call site under --check. */
void ws_hs_check_api_error(int code, const char *name, const char *description);
/* Frames in the library holding addr belong to the API (a face that serves its calls through another face's
 * library, as the driver API does through the runtime's): call sites and API names are looked for outside it. */
void ws_hs_check_api_library(const void *addr);

/* ---- launches ---- */
/* A kernel to launch and what the session needs to know about it. */
typedef struct ws_hs_kernel {
    ws_kernel *k;
    const char *name;            /* mangled name (must live as long as the process: the report keeps it) */
    const char *ptx;             /* its module's PTX text, for ptxas's register count (NULL: estimate) */
    size_t ptx_len;
    int carveout;                /* preferred shared-memory carve-out, percent, -1 when unset */
    int smem_optin;              /* the kernel opted in to more than the default dynamic shared memory */
    int cooperative;             /* launch it cooperatively: the grid must be co-resident (else
                                  * cudaErrorCooperativeLaunchTooLarge), and it may synchronise grid-wide */
    int depth;                   /* dynamic parallelism: 0 for a host launch, else a child grid's nesting depth */
    long parent;                 /* depth > 0: the report index of the grid that launched it */
    ws_dim3 cluster;             /* cudaLaunchAttributeClusterDimension, 0 0 0 when none (the kernel's own apply) */
} ws_hs_kernel;
/* Registers per thread ptxas allocates for k on device d (from its PTX; without ptxas, an estimate from the
 * PTX's virtual registers within [16, the device's limit]). */
int ws_hs_kernel_regs(const ws_device *d, const ws_hs_kernel *k);
/* Launch k now on queue q (NULL: the default queue), costing the host host_cost seconds (timing mode): the
 * occupancy calculator gives the residency, the core runs it, the report records it, the clock advances. Returns
 * WS_OK, a configuration error (nothing ran), or WS_OK after a kernel fault, which becomes pending (a message
 * names it unless quiet); the launch's counts in *st when st is not NULL. */
int ws_hs_launch(const ws_hs_kernel *k, ws_dim3 grid, ws_dim3 block, size_t smem, void **args, ws_hs_queue *q,
                 double host_cost, ws_launch_stats *st);
/* Whether a status from ws_launch is a fault of the running kernel (sticky), not a configuration error. */
int ws_hs_is_fault(int code);
/* The face's name for a status code (e.g. "cudaErrorIllegalAddress"), used in the report. */
void ws_hs_set_error_namer(const char *(*name)(int code));

/* ---- unified memory (timing mode; hs_um.c) ---- */
/* Whether managed pages are tracked (timing mode): GPU faults, CPU faults (the host copy of a page not valid on
 * the host is protected; a trapped access migrates it back), prefetches, advice. */
int ws_hs_um_on(void);
/* A managed allocation [p, p+size) in the managed window (src/mem/hostwin.h) was made / is being freed. */
void ws_hs_um_alloc(void *p, size_t size);
void ws_hs_um_free(void *p);
/* cudaMemPrefetchAsync of [p, p+n) to the device (to_device) or the host, on queue q (stream number `stream`):
 * the pages move now, the transfer takes its time on q. */
void ws_hs_um_prefetch(const void *p, size_t n, int to_device, ws_hs_queue *q, int stream);
/* advice a face gives on managed memory (cudaMemAdvise) */
enum ws_hs_um_advice {
    WS_HS_UM_READ_MOSTLY,        /* reads duplicate the page instead of migrating it */
    WS_HS_UM_PREFER_DEVICE,      /* preferred location: the device */
    WS_HS_UM_PREFER_HOST,        /* preferred location: the host (GPU faults map the page, do not migrate it) */
    WS_HS_UM_ACCESSED_BY         /* the device accesses it mapped, over the link */
};
/* cudaMemAdvise: set (set = 1) or clear advice (enum ws_hs_um_advice) on [p, p+n). */
void ws_hs_um_advise(const void *p, size_t n, int advice, int set);
/* An API call of a face begins: the CPU page faults since the previous call are priced on the host clock. */
void ws_hs_um_api(void);
/* Whether every page of [p, p+n) has the advice: 1 or 0; -1 when pages are not tracked. */
int ws_hs_um_range_has(const void *p, size_t n, int advice);

/* ---- the report ---- */
/* Whether a run report was requested (WARPSIM_REPORT) for this process. */
int ws_hs_report_enabled(void);
/* A copy of `bytes` in direction dir (enum ws_rep_copy_dir) done by device `device`, taking `seconds` of
 * simulated time (0 in functional mode): with several devices the report sums them per device and direction. */
void ws_hs_report_copy(int device, int dir, uint64_t bytes, double seconds);
/* Write the run report and the timing summary now (also done at exit). */
void ws_hs_report_flush(void);

#endif
