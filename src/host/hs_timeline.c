/* hs_timeline.c - the host timeline (hs_timeline.h): bounded event records, streams, host threads, NVTX ranges,
 * the SMs' block placements (a timing-model listener, for the trace), and the trace and tables written at exit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hs_internal.h"
#include "../report/stats.h"

enum { SLOTS = 64 };                 /* residency slots per SM the block timeline tells apart */

static int state = -1;               /* -1: not decided yet, 0: off, 1: recording */
static int simulated;                /* timing mode: times are the simulated clock's */
static const char *trace_path;       /* WARPSIM_TRACE_FILE */
static const char *stats_dest;       /* WARPSIM_STATS: "1" (stderr), "-" (stdout) or a file */
static const char *host_json_path;   /* WARPSIM_HOST_JSON */
static size_t max_events = (size_t)1 << 20;

static ws_rep_hevent *events;        /* the timeline */
static size_t nevents, capevents;
static uint64_t dropped;

static ws_rep_hstream *streams;      /* stream 0 and every stream created while recording */
static size_t nstreams, capstreams;
static int next_stream = 1;

static char **threads;               /* host thread names (NULL: unnamed) */
static size_t nthreads;
static _Thread_local int my_thread = -1;

static double origin = -1;           /* wall clock at the first reading */

/* NVTX push/pop ranges open on this thread */
typedef struct open_range {
    const char *msg, *domain;
    double t0;
    uint64_t id;                     /* start/end ranges: their id */
    int thread;
} open_range;
static _Thread_local open_range *stack;
static _Thread_local size_t depth, capstack;
static open_range *started;          /* start/end ranges still open */
static size_t nstarted, capstarted;
static uint64_t next_range = 1;

/* interned strings (open addressing) */
static char **strs;
static size_t nstrs, capstrs;

/* the SM block timeline (timing mode, with a trace) */
static const char *devname;
static double sm_mhz;
static ws_rep_hblock *blocks;        /* t0/t1 hold cycles until their kernel is recorded */
static size_t nblocks, capblocks, pending_from;
static int pending;                  /* blocks of a launch wait for their kernel's times */
static uint64_t blocks_dropped;
static int lis_nsm;
static uint64_t *open_mask, *open_block, *open_t0;
static ws_rep_host view;

/* Whether an environment variable is set to something other than "" or "0". */
static int env_true(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* Decide from the environment whether to record (once). */
static void decide(void)
{
    if (state >= 0) return;
    ws_hs_lock();
    if (state < 0) {
        const char *t = getenv("WARPSIM_TRACE_FILE"), *s = getenv("WARPSIM_STATS"), *j = getenv("WARPSIM_HOST_JSON");
        trace_path = t && *t ? t : NULL;
        host_json_path = j && *j ? j : NULL;
        stats_dest = s && *s && strcmp(s, "0") != 0 ? s : NULL;
        const char *m = getenv("WARPSIM_TIMELINE_MAX");
        if (m && *m) {
            char *end;
            errno = 0;
            unsigned long long v = strtoull(m, &end, 0);
            if (!errno && !*end && v > 0) max_events = (size_t)v;
            else fprintf(stderr, "warpsim: WARPSIM_TIMELINE_MAX='%s': expected a positive count; keeping %zu\n", m,
                         max_events);
        }
        simulated = ws_hs_timing();
        state = (trace_path || stats_dest || host_json_path || env_true("WARPSIM_TIMELINE") || ws_hs_view_enabled()) &&
                ws_hs_root_process();
    }
    ws_hs_unlock();
}

/* Whether the timeline records. */
int ws_hs_tl_on(void)
{
    if (state < 0) decide();
    return state;
}

/* Record from now on. */
void ws_hs_tl_enable(void)
{
    decide();
    ws_hs_lock();
    simulated = ws_hs_timing();
    state = 1;
    ws_hs_unlock();
}

/* Now on the timeline's clock. */
double ws_hs_tl_now(void)
{
    if (simulated) return ws_hs_clock_host();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double t = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
    if (origin < 0) origin = t;
    return t - origin;
}

/* The calling thread's index (under the lock). */
static int thread_index(void)
{
    if (my_thread >= 0) return my_thread;
    if (nthreads >= 65535) return 65535;
    char **n = realloc(threads, (nthreads + 1) * sizeof *n);
    if (!n) return 0;
    threads = n;
    threads[nthreads] = NULL;
    my_thread = (int)nthreads++;
    return my_thread;
}

/* A new event of kind at the end of the timeline, or NULL when the timeline is full (counted). Under the lock. */
static ws_rep_hevent *add(int kind, double t0, double t1)
{
    if (nevents == capevents) {
        if (capevents >= max_events) {
            dropped++;
            return NULL;
        }
        size_t cap = capevents ? capevents * 2 : 4096;
        if (cap > max_events) cap = max_events;
        ws_rep_hevent *n = realloc(events, cap * sizeof *n);
        if (!n) {
            dropped++;
            return NULL;
        }
        events = n;
        capevents = cap;
    }
    ws_rep_hevent *e = &events[nevents++];
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    e->t0 = t0;
    e->t1 = t1 > t0 ? t1 : t0;
    e->stream = -1;
    e->launch = -1;
    e->thread = (uint16_t)thread_index();
    e->device = (uint8_t)ws_hs_current();
    return e;
}

/* Hash of a string. */
static size_t str_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)h;
}

/* A copy of s that lives as long as the process. */
const char *ws_hs_tl_intern(const char *s)
{
    if (!s) return NULL;
    ws_hs_lock();
    const char *r = NULL;
    if (nstrs * 2 >= capstrs) {
        size_t cap = capstrs ? capstrs * 2 : 256;
        char **n = calloc(cap, sizeof *n);
        if (!n) goto out;
        for (size_t i = 0; i < capstrs; i++)
            if (strs[i]) {
                size_t j = str_hash(strs[i]) & (cap - 1);
                while (n[j]) j = (j + 1) & (cap - 1);
                n[j] = strs[i];
            }
        free(strs);
        strs = n;
        capstrs = cap;
    }
    size_t j = str_hash(s) & (capstrs - 1);
    while (strs[j] && strcmp(strs[j], s) != 0) j = (j + 1) & (capstrs - 1);
    if (!strs[j]) {
        strs[j] = strdup(s);
        if (strs[j]) nstrs++;
    }
    r = strs[j];
out:
    ws_hs_unlock();
    return r;
}

/* ---- streams and threads ---- */

/* Add stream id to the list (under the lock). */
static void stream_add(int id)
{
    if (nstreams == capstreams) {
        size_t cap = capstreams ? capstreams * 2 : 16;
        ws_rep_hstream *n = realloc(streams, cap * sizeof *n);
        if (!n) return;
        streams = n;
        capstreams = cap;
    }
    streams[nstreams].id = id;
    streams[nstreams].name = NULL;
    streams[nstreams].device = id ? ws_hs_current() : 0;
    nstreams++;
}

/* A number for a new stream. */
int ws_hs_tl_stream_new(void)
{
    ws_hs_lock();
    int id = next_stream++;
    if (ws_hs_tl_on()) {
        if (!nstreams) stream_add(0);
        stream_add(id);
    }
    ws_hs_unlock();
    return id;
}

/* Name stream id. */
void ws_hs_tl_stream_name(int id, const char *name)
{
    if (!ws_hs_tl_on() || !name) return;
    const char *n = ws_hs_tl_intern(name);
    ws_hs_lock();
    if (!nstreams) stream_add(0);
    for (size_t i = 0; i < nstreams; i++)
        if (streams[i].id == id) streams[i].name = n;
    ws_hs_unlock();
}

/* Name the calling thread. */
void ws_hs_tl_thread_name(const char *name)
{
    if (!ws_hs_tl_on() || !name) return;
    ws_hs_lock();
    int i = thread_index();
    if ((size_t)i < nthreads) {
        char *copy = strdup(name);
        if (copy) {
            free(threads[i]);
            threads[i] = copy;
        }
    }
    ws_hs_unlock();
}

/* ---- events ---- */

/* One CUDA API call. */
void ws_hs_tl_api(const char *name, double t0, double t1)
{
    if (!ws_hs_tl_on()) return;
    ws_hs_lock();
    ws_rep_hevent *e = add(WS_REP_HK_API, t0, t1);
    if (e) e->name = name;
    ws_hs_unlock();
}

/* A copy. */
void ws_hs_tl_copy(int stream, int dir, uint64_t bytes, int pinned, double t0, double t1)
{
    if (!ws_hs_tl_on()) return;
    ws_hs_lock();
    ws_rep_hevent *e = add(WS_REP_HK_MEMCPY, t0, t1);
    if (e) {
        e->name = ws_rep_copy_dir_name(dir);
        e->sub = (uint8_t)dir;
        e->stream = stream;
        e->bytes = bytes;
        e->pinned = (uint8_t)(pinned != 0);
    }
    ws_hs_unlock();
}

/* A unified-memory migration. */
void ws_hs_tl_um(int stream, int dir, uint64_t bytes, uint32_t faults, double t0, double t1)
{
    if (!ws_hs_tl_on()) return;
    ws_hs_lock();
    ws_rep_hevent *e = add(WS_REP_HK_MEMCPY, t0, t1);
    if (e) {
        e->name = dir == WS_REP_DTOH ? "UM DtoH" : "UM HtoD";
        e->sub = (uint8_t)dir;
        e->stream = stream;
        e->bytes = bytes;
        e->managed = 1;
        e->faults = faults;
    }
    ws_hs_unlock();
}

/* A fill. */
void ws_hs_tl_memset(int stream, uint64_t bytes, double t0, double t1)
{
    if (!ws_hs_tl_on()) return;
    ws_hs_lock();
    ws_rep_hevent *e = add(WS_REP_HK_MEMSET, t0, t1);
    if (e) {
        e->name = "memset";
        e->stream = stream;
        e->bytes = bytes;
    }
    ws_hs_unlock();
}

/* An instant on a stream. */
void ws_hs_tl_event(int stream, const char *name, double t)
{
    if (!ws_hs_tl_on()) return;
    ws_hs_lock();
    ws_rep_hevent *e = add(WS_REP_HK_EVENT, t, t);
    if (e) {
        e->name = name;
        e->stream = stream;
    }
    ws_hs_unlock();
}

/* A host function or callback in stream order. */
void ws_hs_tl_callback(int stream, const char *name, double t0, double t1)
{
    if (!ws_hs_tl_on()) return;
    ws_hs_lock();
    ws_rep_hevent *e = add(WS_REP_HK_CALLBACK, t0, t1);
    if (e) {
        e->name = name;
        e->stream = stream;
    }
    ws_hs_unlock();
}

/* A graph launch. */
void ws_hs_tl_graph(int stream, double t0, double t1)
{
    if (!ws_hs_tl_on()) return;
    ws_hs_lock();
    ws_rep_hevent *e = add(WS_REP_HK_GRAPH, t0, t1);
    if (e) {
        e->name = "graph launch";
        e->stream = stream;
    }
    ws_hs_unlock();
}

/* The host waited. */
void ws_hs_tl_sync(const char *name, double t0, double t1)
{
    if (!ws_hs_tl_on()) return;
    ws_hs_lock();
    ws_rep_hevent *e = add(WS_REP_HK_SYNC, t0, t1);
    if (e) e->name = name;
    ws_hs_unlock();
}

/* A kernel that ran (the session's launch path); its blocks (recorded in cycles) get their times now. */
void ws_hs_tl_kernel(const char *name, ws_dim3 grid, ws_dim3 block, int stream, long launch, double t0, double t1)
{
    if (!ws_hs_tl_on()) return;
    ws_hs_lock();
    ws_rep_hevent *e = add(WS_REP_HK_KERNEL, t0, t1);
    if (e) {
        e->name = name;
        e->stream = stream;
        e->launch = launch > INT32_MAX ? -1 : (int32_t)launch;
        e->grid[0] = grid.x, e->grid[1] = grid.y, e->grid[2] = grid.z;
        e->block[0] = block.x, e->block[1] = block.y, e->block[2] = block.z;
    }
    if (pending) {
        double per_cycle = sm_mhz > 0 ? 1e-6 / sm_mhz : 0;
        for (size_t i = pending_from; i < nblocks; i++) {
            ws_rep_hblock *b = &blocks[i];
            b->t0 = t0 + b->t0 * per_cycle;
            b->t1 = t0 + b->t1 * per_cycle;
            b->event = e ? (uint32_t)(e - events) : UINT32_MAX;
        }
        pending = 0;
    }
    ws_hs_unlock();
}

/* ---- NVTX ---- */

/* nvtxRangePush. */
int ws_hs_tl_nvtx_push(const char *domain, const char *msg)
{
    if (!ws_hs_tl_on()) return -1;
    if (depth == capstack) {
        size_t cap = capstack ? capstack * 2 : 16;
        open_range *n = realloc(stack, cap * sizeof *n);
        if (!n) return -1;
        stack = n;
        capstack = cap;
    }
    open_range *r = &stack[depth];
    r->msg = ws_hs_tl_intern(msg ? msg : "");
    r->domain = ws_hs_tl_intern(domain);
    r->t0 = ws_hs_tl_now();
    return (int)depth++;
}

/* nvtxRangePop: the innermost range of that domain on this thread. */
int ws_hs_tl_nvtx_pop(const char *domain)
{
    if (!ws_hs_tl_on() || !depth) return -1;
    size_t i = depth;
    while (i-- > 0) {
        const char *d = stack[i].domain;
        if ((!d && !domain) || (d && domain && !strcmp(d, domain))) break;
        if (i == 0) return -1;
    }
    open_range r = stack[i];
    memmove(&stack[i], &stack[i + 1], (depth - i - 1) * sizeof *stack);
    depth--;
    double t1 = ws_hs_tl_now();
    ws_hs_lock();
    ws_rep_hevent *e = add(WS_REP_HK_NVTX, r.t0, t1);
    if (e) {
        e->name = r.msg;
        e->domain = r.domain;
        e->sub = WS_REP_NVTX_PUSHPOP;
        e->depth = (int16_t)(i < 32767 ? i : 32767);
    }
    ws_hs_unlock();
    return (int)i;
}

/* nvtxRangeStart. */
uint64_t ws_hs_tl_nvtx_start(const char *domain, const char *msg)
{
    if (!ws_hs_tl_on()) return 0;
    const char *m = ws_hs_tl_intern(msg ? msg : ""), *d = ws_hs_tl_intern(domain);
    double t0 = ws_hs_tl_now();
    ws_hs_lock();
    uint64_t id = next_range++;
    if (nstarted == capstarted) {
        size_t cap = capstarted ? capstarted * 2 : 16;
        open_range *n = realloc(started, cap * sizeof *n);
        if (!n) {
            ws_hs_unlock();
            return id;
        }
        started = n;
        capstarted = cap;
    }
    open_range *r = &started[nstarted++];
    r->msg = m;
    r->domain = d;
    r->t0 = t0;
    r->id = id;
    r->thread = thread_index();
    ws_hs_unlock();
    return id;
}

/* End start/end range r now (under the lock), at its stack depth of 0 (they do not nest). */
static void end_started(const open_range *r, double t1)
{
    ws_rep_hevent *e = add(WS_REP_HK_NVTX, r->t0, t1);
    if (e) {
        e->name = r->msg;
        e->domain = r->domain;
        e->sub = WS_REP_NVTX_STARTEND;
        e->thread = (uint16_t)r->thread;
    }
}

/* nvtxRangeEnd. */
void ws_hs_tl_nvtx_end(uint64_t id)
{
    if (!ws_hs_tl_on() || !id) return;
    double t1 = ws_hs_tl_now();
    ws_hs_lock();
    for (size_t i = nstarted; i-- > 0;)
        if (started[i].id == id) {
            end_started(&started[i], t1);
            started[i] = started[--nstarted];
            break;
        }
    ws_hs_unlock();
}

/* nvtxMark. */
void ws_hs_tl_nvtx_mark(const char *domain, const char *msg)
{
    if (!ws_hs_tl_on()) return;
    const char *m = ws_hs_tl_intern(msg ? msg : ""), *d = ws_hs_tl_intern(domain);
    double t = ws_hs_tl_now();
    ws_hs_lock();
    ws_rep_hevent *e = add(WS_REP_HK_NVTX, t, t);
    if (e) {
        e->name = m;
        e->domain = d;
        e->sub = WS_REP_NVTX_MARK;
        e->depth = (int16_t)(depth < 32767 ? depth : 32767);
    }
    ws_hs_unlock();
}

/* ---- the SMs' blocks (a timing-model listener) ---- */

/* A launch begins on nsm SMs: forget the blocks of a launch that never got its kernel recorded. */
static void lis_begin(void *ctx, const ws_run *L, int nsm, int nsp)
{
    (void)ctx, (void)L, (void)nsp;
    if (pending) nblocks = pending_from;
    pending_from = nblocks;
    pending = 1;
    if (nsm != lis_nsm) {
        free(open_mask);
        free(open_block);
        free(open_t0);
        open_mask = calloc((size_t)nsm, sizeof *open_mask);
        open_block = calloc((size_t)nsm * SLOTS, sizeof *open_block);
        open_t0 = calloc((size_t)nsm * SLOTS, sizeof *open_t0);
        lis_nsm = open_mask && open_block && open_t0 ? nsm : 0;
    }
    if (lis_nsm) memset(open_mask, 0, (size_t)lis_nsm * sizeof *open_mask);
}

/* Block placements and retirements: each block gets the lowest free residency slot of its SM. */
static void lis_events(void *ctx, const ws_run *L, const ws_tm_event *ev, size_t n)
{
    (void)ctx, (void)L;
    for (size_t i = 0; i < n; i++) {
        const ws_tm_event *e = &ev[i];
        if ((e->kind != WS_TE_BLOCK_PLACED && e->kind != WS_TE_BLOCK_RETIRED) || e->sm >= lis_nsm) continue;
        uint64_t *mask = &open_mask[e->sm];
        size_t base = (size_t)e->sm * SLOTS;
        if (e->kind == WS_TE_BLOCK_PLACED) {
            if (*mask == ~0ull) { blocks_dropped++; continue; }
            int slot = __builtin_ctzll(~*mask);
            *mask |= 1ull << slot;
            open_block[base + (size_t)slot] = e->block;
            open_t0[base + (size_t)slot] = e->t0;
            continue;
        }
        for (int slot = 0; slot < SLOTS; slot++) {
            if (!(*mask >> slot & 1) || open_block[base + (size_t)slot] != e->block) continue;
            *mask &= ~(1ull << slot);
            if (nblocks == capblocks) {
                size_t cap = capblocks ? capblocks * 2 : 4096;
                if (cap > max_events) cap = max_events;
                ws_rep_hblock *nb = capblocks < max_events ? realloc(blocks, cap * sizeof *nb) : NULL;
                if (!nb) { blocks_dropped++; break; }
                blocks = nb;
                capblocks = cap;
            }
            ws_rep_hblock *b = &blocks[nblocks++];
            b->t0 = (double)open_t0[base + (size_t)slot];
            b->t1 = (double)e->t0;
            b->block = e->block;
            b->event = UINT32_MAX;
            b->sm = e->sm;
            b->slot = (uint16_t)slot;
            break;
        }
    }
}

static const ws_tm_listener block_listener = { NULL, lis_begin, lis_events, NULL, 0 };

/* A new simulated GPU (and its timing model, or NULL): remember the device; with a trace, listen to the blocks. */
void ws_hs_tl_install(ws_gpu *g, ws_tm *tm)
{
    if (!ws_hs_tl_on()) return;
    const ws_device *d = ws_gpu_device(g);
    if (!devname || g == ws_hs_gpu_if(0)) {   /* the trace names device 0 */
        devname = d->full_name;
        sm_mhz = d->sm_clock_mhz;
    }
    if (tm && trace_path && ws_tm_add_listener(tm, &block_listener) != 0)
        fprintf(stderr, "warpsim: the timing model has no room for the trace's block listener\n");
}

/* ---- reading it, and the outputs at exit ---- */

/* The timeline so far. */
const ws_rep_host *ws_hs_tl_data(void)
{
    static ws_rep_hstream dflt = { 0, NULL, 0 };
    view.simulated = simulated;
    view.device = devname;
    view.ndevices = ws_hs_device_count();
    view.events = events;
    view.nevents = nevents;
    view.dropped = dropped;
    view.streams = nstreams ? streams : &dflt;
    view.nstreams = nstreams ? nstreams : 1;
    view.threads = (const char *const *)threads;
    view.nthreads = nthreads;
    view.blocks = blocks;
    view.nblocks = pending ? pending_from : nblocks;
    view.blocks_dropped = blocks_dropped;
    return &view;
}

/* Write the view data's "host" object. */
void ws_hs_host_json(ws_json *w)
{
    ws_hs_lock();
    ws_rep_host_json(w, ws_hs_tl_data());
    ws_hs_unlock();
}

/* End the ranges still open at exit (this thread's push/pop ranges and every start/end range). */
static void close_open_ranges(void)
{
    while (depth) ws_hs_tl_nvtx_pop(stack[depth - 1].domain);
    double t1 = ws_hs_tl_now();
    for (size_t i = 0; i < nstarted; i++) end_started(&started[i], t1);
    nstarted = 0;
}

/* At exit, before the report: end the ranges still open. */
void ws_hs_tl_close(void)
{
    if (!ws_hs_tl_on()) return;
    int locked = ws_hs_lock_timed(2);
    close_open_ranges();
    if (locked) ws_hs_unlock();
}

/* At exit: close open ranges, write the trace (WARPSIM_TRACE_FILE), the host object (WARPSIM_HOST_JSON) and print
 * the tables (WARPSIM_STATS). */
void ws_hs_tl_finish(void)
{
    if (!ws_hs_tl_on()) return;
    int locked = ws_hs_lock_timed(2);
    close_open_ranges();
    const ws_rep_host *h = ws_hs_tl_data();
    if (trace_path) {
        FILE *f = fopen(trace_path, "w");
        if (!f) fprintf(stderr, "warpsim: cannot write the trace %s: %s\n", trace_path, strerror(errno));
        else {
            int bad = ws_rep_trace_write(f, h);
            if (fclose(f) != 0 || bad) fprintf(stderr, "warpsim: error writing the trace %s\n", trace_path);
            else if (!ws_hs_quiet())
                fprintf(stderr, "warpsim: trace written to %s (%zu events%s; open it in https://ui.perfetto.dev or "
                        "chrome://tracing)\n", trace_path, h->nevents + h->nblocks, h->dropped ? ", truncated" : "");
        }
    }
    if (host_json_path) {
        FILE *f = fopen(host_json_path, "w");
        if (!f) fprintf(stderr, "warpsim: cannot write %s: %s\n", host_json_path, strerror(errno));
        else {
            ws_json w;
            ws_json_init_file(&w, f);
            ws_json_begin_object(&w);
            ws_json_key(&w, "host");
            ws_rep_host_json(&w, h);
            ws_json_end_object(&w);
            ws_json_break(&w, 0);
            if (ws_json_finish(&w) || fclose(f) != 0) fprintf(stderr, "warpsim: error writing %s\n", host_json_path);
        }
    }
    if (stats_dest) {
        int to_file = strcmp(stats_dest, "1") != 0 && strcmp(stats_dest, "-") != 0;
        FILE *f = !to_file ? (strcmp(stats_dest, "-") ? stderr : stdout) : fopen(stats_dest, "w");
        if (!f) fprintf(stderr, "warpsim: cannot write the statistics %s: %s\n", stats_dest, strerror(errno));
        else {
            int bad = ws_rep_stats_print(f, h, ws_hs_program_name());
            if ((to_file && fclose(f) != 0) || bad)
                fprintf(stderr, "warpsim: error writing the statistics%s%s\n", to_file ? " " : "",
                        to_file ? stats_dest : "");
        }
    }
    if (locked) ws_hs_unlock();
}
