/* trace.h - the host side of a run as data, and two ways of writing it.
 *
 * The host session (src/host/hs_timeline.h) records a timeline of what the program asked of the GPU: kernel
 * launches, copies, fills, events, host functions, graph launches, synchronizations, every CUDA API call and the
 * program's NVTX ranges and marks; in timing mode also where the timing model placed each block (SM, residency
 * slot, simulated start and end). Times are seconds from the first CUDA call: simulated time in timing mode, wall
 * time otherwise. This header holds that data (ws_rep_host) and its writers:
 *   - ws_rep_host_json: the "host" object of the view data (docs/view-format.md, section HOST);
 *   - ws_rep_trace_write: a Chrome trace-event file (`warpsim run --trace FILE.json`; Perfetto and
 *     chrome://tracing open it): one process for the host (a track per host thread: API calls, NVTX push/pop
 *     ranges as complete events, marks as instant events, start/end ranges as async events), one for the GPU's
 *     streams (a track per stream: kernels, copies, fills, graph launches, host functions; event records as
 *     instants) and, in timing mode, one for the SMs (a track per SM and residency slot: the blocks it ran).
 * src/report/stats.h prints the nsys-style tables of the same data. */
#ifndef WS_TRACE_H
#define WS_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"

/* kinds of host events (the "kind" strings of docs/view-format.md) */
enum ws_rep_hkind {
    WS_REP_HK_KERNEL,    /* a kernel ran on a stream */
    WS_REP_HK_MEMCPY,    /* a copy (sub: enum ws_rep_copy_dir) */
    WS_REP_HK_MEMSET,    /* a fill of device memory */
    WS_REP_HK_EVENT,     /* an event was recorded on a stream, or a stream waited for one (an instant) */
    WS_REP_HK_CALLBACK,  /* a host function or stream callback ran in stream order */
    WS_REP_HK_GRAPH,     /* a CUDA graph ran on a stream (its nodes are events of their own) */
    WS_REP_HK_SYNC,      /* the host waited: for a stream, an event or the device */
    WS_REP_HK_API,       /* one CUDA API call of the program (the outermost; calls made inside it are not) */
    WS_REP_HK_NVTX,      /* an NVTX range or mark (sub: enum ws_rep_nvtx_style) */
    WS_REP_HK_COUNT
};

/* copy directions (WS_REP_HK_MEMCPY's sub) */
enum ws_rep_copy_dir { WS_REP_HTOD, WS_REP_DTOH, WS_REP_DTOD, WS_REP_HTOH, WS_REP_PTOP /* device to another device */,
                       WS_REP_COPY_DIR_COUNT };

/* NVTX styles (WS_REP_HK_NVTX's sub) */
enum ws_rep_nvtx_style {
    WS_REP_NVTX_PUSHPOP,   /* nvtxRangePush / nvtxRangePop: nested per thread, depth = nesting level */
    WS_REP_NVTX_STARTEND,  /* nvtxRangeStart / nvtxRangeEnd: may overlap anything, even across threads */
    WS_REP_NVTX_MARK       /* nvtxMark: an instant */
};

/* One host event. */
typedef struct ws_rep_hevent {
    double t0, t1;            /* seconds from the first CUDA call (t0 == t1 for instants) */
    const char *name;         /* kernel: mangled name; api: the function; nvtx: the message; else what it was */
    const char *domain;       /* nvtx: the domain's name, NULL for the default domain */
    uint64_t bytes;           /* memcpy, memset */
    uint32_t grid[3], block[3];   /* kernel */
    int32_t stream;           /* stream number (0 = the default stream), -1 for host-side events */
    int32_t launch;           /* kernel: its index in the run report's "launches", -1 when not known */
    uint16_t thread;          /* host thread that made the call (0 = the first one) */
    uint8_t kind;             /* enum ws_rep_hkind */
    uint8_t sub;              /* memcpy: enum ws_rep_copy_dir; nvtx: enum ws_rep_nvtx_style */
    int16_t depth;            /* nvtx: nesting depth of a push/pop range (0 = outermost) */
    uint8_t pinned;           /* memcpy: the host side is page-locked memory */
    uint8_t device;           /* the device (`warpsim run --gpus`) current when it was recorded */
    uint8_t managed;          /* memcpy: a unified-memory migration (page faults or a prefetch) */
    uint32_t faults;          /* managed memcpy: the page faults that caused it (0 for a prefetch) */
} ws_rep_hevent;

/* One block of a kernel on an SM (timing mode). */
typedef struct ws_rep_hblock {
    double t0, t1;            /* seconds, on the events' clock */
    uint64_t block;           /* grid-linear block index */
    uint32_t event;           /* index of its kernel in ws_rep_host.events */
    uint16_t sm, slot;        /* SM, and its residency slot there (blocks resident at once get different slots) */
} ws_rep_hblock;

/* One stream of the program. */
typedef struct ws_rep_hstream {
    int id;                   /* 0 = the default stream, then 1, 2, ... in creation order */
    const char *name;         /* the program's name for it (nvtxNameCudaStream), NULL: "default" / "stream N" */
    int device;               /* its device (a default stream is listed once per device when there are several) */
} ws_rep_hstream;

/* The host side of a run. */
typedef struct ws_rep_host {
    int simulated;                    /* 1: simulated time (timing mode); 0: wall time */
    const char *device;               /* the simulated device's full name (trace metadata), or NULL */
    int ndevices;                     /* simulated devices; above 1 every stream event names its "device" */
    const ws_rep_hevent *events;      /* in the order they were recorded */
    size_t nevents;
    uint64_t dropped;                 /* events past the timeline's limit, counted but not kept */
    const ws_rep_hstream *streams;
    size_t nstreams;
    const char *const *threads;       /* host thread names (nvtxNameOsThread), NULL entries unnamed */
    size_t nthreads;
    const ws_rep_hblock *blocks;      /* timing mode, when block placements were recorded */
    size_t nblocks;
    uint64_t blocks_dropped;
} ws_rep_host;

/* The kind's name as docs/view-format.md spells it ("kernel", "memcpy", ...). */
const char *ws_rep_hkind_name(int kind);
/* A copy direction's short name: "HtoD", "DtoH", "DtoD", "HtoH", "PtoP" (as nsys names them). */
const char *ws_rep_copy_dir_name(int dir);
/* The display name of a kernel: demangled, without its parameter list and return type ("vecAdd"). */
void ws_rep_kernel_short_name(const char *mangled, char *buf, size_t cap);
/* The order the writers list events in: by start, longer first when two start together, then as recorded.
 * Fills idx[0..n) with the indices of events[0..n); 0, or -1 when out of memory. */
int ws_rep_host_order(const ws_rep_hevent *events, size_t n, size_t *idx);

/* Write h as the "host" object of the view data: {"clock", "streams", "events"} (docs/view-format.md, HOST),
 * events in ws_rep_host_order, plus "truncated": true when events were dropped. */
void ws_rep_host_json(ws_json *w, const ws_rep_host *h);
/* Write h as a Chrome trace-event file to out: {"traceEvents": [...], "displayTimeUnit": "ns", ...}, timestamps
 * in microseconds with nanosecond digits. Every event has name, ph, ts, pid and tid; complete events ("X") nest
 * on their track. 0, or -1 when writing failed (out of memory, I/O). */
int ws_rep_trace_write(FILE *out, const ws_rep_host *h);

#endif
