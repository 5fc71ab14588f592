/* hs_timeline.h - the host timeline (part of the host session): what the program asked of the GPU, in order, with
 * simulated times in timing mode and wall times otherwise (seconds from the first CUDA call). The faces report
 * their operations here (kernels are recorded by the session's launch path itself); the session keeps at most
 * WARPSIM_TIMELINE_MAX events (default 1,048,576) and counts the rest. At exit it writes the Chrome trace
 * (WARPSIM_TRACE_FILE=FILE, `warpsim run --trace FILE`) and prints the nsys-style tables (WARPSIM_STATS=1 on
 * stderr, or =FILE, `warpsim run --stats[=FILE]`); the view data's "host" object comes from ws_hs_host_json.
 *
 * WARPSIM_HOST_JSON=FILE writes {"host": ...} alone at exit (for tests, and to develop the page without a view).
 *
 * Recording is off (every call below returns at once) unless one of WARPSIM_TRACE_FILE, WARPSIM_STATS,
 * WARPSIM_HOST_JSON or WARPSIM_TIMELINE=1 is set in the environment of the program (`warpsim run --view` is meant
 * to set WARPSIM_TIMELINE=1), or ws_hs_tl_enable was called; only the process
 * `warpsim run` started records (not children that inherit the environment). NVTX reaches the timeline through
 * the runtime's InitializeInjectionNvtx2 (NVTX_INJECTION64_PATH, set by `warpsim run`). */
#ifndef WS_HS_TIMELINE_H
#define WS_HS_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "../report/json.h"
#include "../report/trace.h"

/* ---- switching it on ---- */
/* Whether the timeline records (decided from the environment on first use). */
int ws_hs_tl_on(void);
/* Record from now on, whatever the environment says (a collector that needs the timeline calls it before the
 * program's first CUDA call). */
void ws_hs_tl_enable(void);

/* ---- the clock ---- */
/* Now on the timeline's clock: the simulated host time in timing mode, else wall seconds since the first CUDA
 * call. */
double ws_hs_tl_now(void);

/* ---- streams and threads ---- */
/* A number for a new stream (1, 2, ... in creation order; 0 is the default stream). */
int ws_hs_tl_stream_new(void);
/* Name stream `id` on the timeline (nvtxNameCudaStream); the name is copied. */
void ws_hs_tl_stream_name(int id, const char *name);
/* Name the calling host thread (nvtxNameOsThread); the name is copied. */
void ws_hs_tl_thread_name(const char *name);

/* ---- what the faces report (stream: 0 = the default stream; times from ws_hs_tl_now or the clock) ---- */
/* One CUDA API call (static name) from t0 to t1. */
void ws_hs_tl_api(const char *name, double t0, double t1);
/* A copy of `bytes` in direction dir (enum ws_rep_copy_dir), pinned when the host side is page-locked. */
void ws_hs_tl_copy(int stream, int dir, uint64_t bytes, int pinned, double t0, double t1);
/* A unified-memory migration of `bytes` in direction dir: a batch of `faults` GPU page faults (HtoD), the CPU
 * page faults priced at a launch (DtoH), or a prefetch (faults 0); nsys's "Unified Memory memcpy" rows. */
void ws_hs_tl_um(int stream, int dir, uint64_t bytes, uint32_t faults, double t0, double t1);
/* A fill of `bytes` of device memory. */
void ws_hs_tl_memset(int stream, uint64_t bytes, double t0, double t1);
/* An instant on a stream (static name: "event record", "event wait"). */
void ws_hs_tl_event(int stream, const char *name, double t);
/* A host function or stream callback (static name) that ran in stream order. */
void ws_hs_tl_callback(int stream, const char *name, double t0, double t1);
/* A CUDA graph launch on a stream (its nodes are recorded as they run). */
void ws_hs_tl_graph(int stream, double t0, double t1);
/* The host waited (static name: "wait for stream", "wait for event", "wait for device"). */
void ws_hs_tl_sync(const char *name, double t0, double t1);

/* ---- NVTX (domain NULL: the default domain; messages are copied) ---- */
/* nvtxRangePush: returns the depth of the new range on this thread (0 = outermost). */
int ws_hs_tl_nvtx_push(const char *domain, const char *msg);
/* nvtxRangePop: ends the innermost range of this thread; returns its depth, or -1 when none was open. */
int ws_hs_tl_nvtx_pop(const char *domain);
/* nvtxRangeStart: returns the range's id (never 0). */
uint64_t ws_hs_tl_nvtx_start(const char *domain, const char *msg);
/* nvtxRangeEnd of id. */
void ws_hs_tl_nvtx_end(uint64_t id);
/* nvtxMark. */
void ws_hs_tl_nvtx_mark(const char *domain, const char *msg);
/* A copy of s that lives as long as the process (the same pointer for equal strings); NULL when out of memory. */
const char *ws_hs_tl_intern(const char *s);

/* ---- reading it ---- */
/* The timeline so far (valid until the next recording call; hold the session lock while using it). Ranges still
 * open are not in it. */
const ws_rep_host *ws_hs_tl_data(void);
/* Write the view data's "host" object (docs/view-format.md, HOST) of the timeline so far. */
void ws_hs_host_json(ws_json *w);

#endif
