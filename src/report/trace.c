/* trace.c - the host side of a run as the view data's "host" object and as a Chrome trace-event file (trace.h). */
#include "trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../check/check.h"

/* The kind's name as docs/view-format.md spells it. */
const char *ws_rep_hkind_name(int kind)
{
    static const char *const names[WS_REP_HK_COUNT] = {
        [WS_REP_HK_KERNEL] = "kernel", [WS_REP_HK_MEMCPY] = "memcpy", [WS_REP_HK_MEMSET] = "memset",
        [WS_REP_HK_EVENT] = "event", [WS_REP_HK_CALLBACK] = "callback", [WS_REP_HK_GRAPH] = "graph",
        [WS_REP_HK_SYNC] = "sync", [WS_REP_HK_API] = "api", [WS_REP_HK_NVTX] = "nvtx",
    };
    return kind >= 0 && kind < WS_REP_HK_COUNT ? names[kind] : "unknown";
}

/* A copy direction's short name. */
const char *ws_rep_copy_dir_name(int dir)
{
    switch (dir) {
    case WS_REP_HTOD: return "HtoD";
    case WS_REP_DTOH: return "DtoH";
    case WS_REP_DTOD: return "DtoD";
    case WS_REP_PTOP: return "PtoP";
    default: return "HtoH";
    }
}

/* Demangled name of a kernel without its parameter list and a leading "void " (templates carry a return type). */
void ws_rep_kernel_short_name(const char *mangled, char *buf, size_t cap)
{
    char full[1024];
    ws_chk_demangle(mangled, full, sizeof full);
    size_t n = strlen(full);
    if (n && full[n - 1] == ')') {
        /* the parameter list: the parenthesised group that ends the name */
        int depth = 0;
        for (size_t i = n; i-- > 0;) {
            if (full[i] == ')') depth++;
            else if (full[i] == '(' && --depth == 0) {
                if (i > 0) full[i] = 0;
                break;
            }
        }
    }
    const char *s = strncmp(full, "void ", 5) == 0 && full[5] ? full + 5 : full;
    snprintf(buf, cap, "%s", s);
}

/* qsort_r comparison of two event indices: start, then longer first, then recording order. */
static int order_cmp(const void *a, const void *b, void *ctx)
{
    const ws_rep_hevent *ev = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (ev[i].t0 != ev[j].t0) return ev[i].t0 < ev[j].t0 ? -1 : 1;
    if (ev[i].t1 != ev[j].t1) return ev[i].t1 > ev[j].t1 ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* The order the writers list events in. */
int ws_rep_host_order(const ws_rep_hevent *events, size_t n, size_t *idx)
{
    for (size_t i = 0; i < n; i++) idx[i] = i;
    if (n > 1) qsort_r(idx, n, sizeof *idx, order_cmp, (void *)events);
    return 0;
}

/* ---- kernel names, demangled once per name ---- */

typedef struct kname {
    const char *mangled;
    char *short_name, *full;
} kname;

typedef struct kcache {
    kname *slot;
    size_t cap;
} kcache;

/* Hash of a pointer. */
static size_t ptr_hash(const void *p)
{
    uint64_t v = (uint64_t)(uintptr_t)p;
    v ^= v >> 29;
    v *= 0x9E3779B97F4A7C15ull;
    return (size_t)(v >> 17);
}

/* The cached names of kernel `mangled` (computed on first use); NULL only when out of memory. */
static const kname *kcache_get(kcache *c, const char *mangled)
{
    if (!c->slot) {
        c->cap = 1024;
        c->slot = calloc(c->cap, sizeof *c->slot);
        if (!c->slot) return NULL;
    }
    size_t i = ptr_hash(mangled) & (c->cap - 1);
    for (size_t probes = 0; probes < c->cap; probes++, i = (i + 1) & (c->cap - 1)) {
        kname *k = &c->slot[i];
        if (k->mangled == mangled) return k;
        if (k->mangled) continue;
        char buf[1024];
        ws_chk_demangle(mangled, buf, sizeof buf);
        k->full = strdup(buf);
        ws_rep_kernel_short_name(mangled, buf, sizeof buf);
        k->short_name = strdup(buf);
        if (!k->full || !k->short_name) {
            free(k->full);
            free(k->short_name);
            k->full = k->short_name = NULL;
            return NULL;
        }
        k->mangled = mangled;
        return k;
    }
    return NULL;   /* more distinct kernels than slots: the caller falls back to the mangled name */
}

/* Free the cache. */
static void kcache_free(kcache *c)
{
    for (size_t i = 0; c->slot && i < c->cap; i++) {
        free(c->slot[i].full);
        free(c->slot[i].short_name);
    }
    free(c->slot);
    c->slot = NULL;
}

/* Short display name of an event's kernel. */
static const char *kernel_label(kcache *c, const char *mangled, int full)
{
    if (!mangled) return "kernel";
    const kname *k = kcache_get(c, mangled);
    return k ? (full ? k->full : k->short_name) : mangled;
}

/* ---- the view data's "host" object ---- */

/* Write h as the view data's "host" object. */
void ws_rep_host_json(ws_json *w, const ws_rep_host *h)
{
    ws_json_begin_object(w);
    ws_json_member_string(w, "clock", h->simulated ? "simulated" : "wall");
    ws_json_key(w, "streams");
    ws_json_begin_array(w);
    for (size_t i = 0; i < h->nstreams; i++) {
        ws_json_begin_object(w);
        ws_json_member_int(w, "id", h->streams[i].id);
        char auto_name[32] = "default";
        if (h->streams[i].id) snprintf(auto_name, sizeof auto_name, "stream %d", h->streams[i].id);
        ws_json_member_string(w, "name", h->streams[i].name ? h->streams[i].name : auto_name);
        if (h->ndevices > 1) ws_json_member_int(w, "device", h->streams[i].device);
        ws_json_end_object(w);
    }
    ws_json_end_array(w);
    ws_json_key(w, "events");
    ws_json_begin_array(w);
    size_t *idx = h->nevents ? malloc(h->nevents * sizeof *idx) : NULL;
    kcache kc = { 0 };
    if (idx || !h->nevents) ws_rep_host_order(h->events, h->nevents, idx);
    for (size_t k = 0; idx && k < h->nevents; k++) {
        const ws_rep_hevent *e = &h->events[idx[k]];
        ws_json_break(w, 2);
        ws_json_begin_object(w);
        ws_json_member_string(w, "kind", ws_rep_hkind_name(e->kind));
        if (e->kind == WS_REP_HK_KERNEL) ws_json_member_string(w, "name", kernel_label(&kc, e->name, 0));
        else ws_json_member_string(w, "name", e->name ? e->name : "");
        if (e->stream >= 0) ws_json_member_int(w, "stream", e->stream);
        if (h->ndevices > 1 && e->stream >= 0) ws_json_member_int(w, "device", e->device);
        ws_json_member_double_g(w, "t0", e->t0, 12);
        ws_json_member_double_g(w, "t1", e->t1, 12);
        if (e->kind == WS_REP_HK_MEMCPY || e->kind == WS_REP_HK_MEMSET) ws_json_member_uint(w, "bytes", e->bytes);
        if (e->kind == WS_REP_HK_MEMCPY && e->managed) {
            ws_json_member_bool(w, "managed", 1);
            ws_json_member_uint(w, "faults", e->faults);
        }
        if (e->kind == WS_REP_HK_KERNEL && e->launch >= 0) ws_json_member_int(w, "launch", e->launch);
        if (e->kind == WS_REP_HK_NVTX) ws_json_member_int(w, "depth", e->depth);
        ws_json_end_object(w);
    }
    kcache_free(&kc);
    free(idx);
    ws_json_end_array(w);
    if (h->dropped) ws_json_member_bool(w, "truncated", 1);
    ws_json_end_object(w);
}

/* ---- the Chrome trace ---- */

enum { PID_HOST = 1, PID_STREAMS = 2, PID_SMS = 3, SLOTS = 64 };

/* Nanoseconds of t seconds, rounded: every timestamp goes through here, so rounding keeps nesting. */
static long long nsec(double t) { return llround(t * 1e9); }

/* Write "ts" (and "dur" when dur is set) in microseconds with nanosecond digits. */
static void put_time(ws_json *w, double t0, double t1, int dur)
{
    long long a = nsec(t0), b = nsec(t1);
    ws_json_member_double(w, "ts", (double)a / 1000.0, 3);
    if (dur) ws_json_member_double(w, "dur", (double)(b > a ? b - a : 0) / 1000.0, 3);
}

/* Begin one trace event: name, ph, pid, tid (ts comes from put_time). */
static void ev_begin(ws_json *w, const char *name, const char *ph, int pid, long long tid)
{
    ws_json_break(w, 0);
    ws_json_begin_object(w);
    ws_json_member_string(w, "name", name);
    ws_json_member_string(w, "ph", ph);
    ws_json_member_int(w, "pid", pid);
    ws_json_member_int(w, "tid", tid);
}

/* A metadata event (process_name, thread_name, *_sort_index). */
static void meta(ws_json *w, const char *what, int pid, long long tid, const char *name, long long sort)
{
    ev_begin(w, what, "M", pid, tid);
    ws_json_member_int(w, "ts", 0);
    ws_json_key(w, "args");
    ws_json_begin_object(w);
    if (name) ws_json_member_string(w, "name", name);
    else ws_json_member_int(w, "sort_index", sort);
    ws_json_end_object(w);
    ws_json_end_object(w);
}

/* Track (tid) of a stream. */
static long long stream_tid(int stream) { return (long long)stream + 1; }

/* The track of an event's stream: device d's default stream has a track of its own (d > 0). */
static long long ev_tid(const ws_rep_hevent *e)
{
    return e->stream == 0 && e->device ? 1000000LL * e->device + 1 : stream_tid(e->stream);
}

/* Write a three-element dimension array member. */
static void dims(ws_json *w, const char *key, const uint32_t d[3])
{
    ws_json_key(w, key);
    ws_json_begin_array(w);
    for (int i = 0; i < 3; i++) ws_json_uint(w, d[i]);
    ws_json_end_array(w);
}

/* Write one host event as its trace event(s); with several devices (ndevices > 1) kernels and copies name theirs. */
static void trace_event(ws_json *w, const ws_rep_hevent *e, size_t index, kcache *kc, int ndevices)
{
    char name[512];
    long long host_tid = (long long)e->thread + 1;
    switch (e->kind) {
    case WS_REP_HK_KERNEL:
        ev_begin(w, kernel_label(kc, e->name, 0), "X", PID_STREAMS, ev_tid(e));
        ws_json_member_string(w, "cat", "kernel");
        put_time(w, e->t0, e->t1, 1);
        ws_json_key(w, "args");
        ws_json_begin_object(w);
        ws_json_member_string(w, "kernel", kernel_label(kc, e->name, 1));
        ws_json_member_string(w, "mangled", e->name);
        if (ndevices > 1) ws_json_member_int(w, "device", e->device);
        dims(w, "grid", e->grid);
        dims(w, "block", e->block);
        if (e->launch >= 0) ws_json_member_int(w, "launch", e->launch);
        ws_json_end_object(w);
        break;
    case WS_REP_HK_MEMCPY:
        if (e->managed)   /* nsys's row: a unified-memory migration (page faults or a prefetch) */
            snprintf(name, sizeof name, "Unified Memory memcpy %s", ws_rep_copy_dir_name(e->sub));
        else
            snprintf(name, sizeof name, "Memcpy %s%s", ws_rep_copy_dir_name(e->sub),
                     e->sub == WS_REP_HTOD || e->sub == WS_REP_DTOH ? (e->pinned ? " (pinned)" : " (pageable)") : "");
        ev_begin(w, name, "X", PID_STREAMS, ev_tid(e));
        ws_json_member_string(w, "cat", "memcpy");
        put_time(w, e->t0, e->t1, 1);
        ws_json_key(w, "args");
        ws_json_begin_object(w);
        ws_json_member_uint(w, "bytes", e->bytes);
        ws_json_member_string(w, "direction", ws_rep_copy_dir_name(e->sub));
        if (ndevices > 1) ws_json_member_int(w, "device", e->device);
        ws_json_member_bool(w, "pinned", e->pinned);
        if (e->managed) ws_json_member_uint(w, "page_faults", e->faults);
        ws_json_end_object(w);
        break;
    case WS_REP_HK_MEMSET:
        ev_begin(w, "Memset", "X", PID_STREAMS, ev_tid(e));
        ws_json_member_string(w, "cat", "memset");
        put_time(w, e->t0, e->t1, 1);
        ws_json_key(w, "args");
        ws_json_begin_object(w);
        ws_json_member_uint(w, "bytes", e->bytes);
        ws_json_end_object(w);
        break;
    case WS_REP_HK_EVENT:
        ev_begin(w, e->name ? e->name : "event", "i", PID_STREAMS, ev_tid(e));
        ws_json_member_string(w, "cat", "event");
        ws_json_member_string(w, "s", "t");
        put_time(w, e->t0, e->t0, 0);
        break;
    case WS_REP_HK_CALLBACK:
    case WS_REP_HK_GRAPH:
        ev_begin(w, e->name ? e->name : ws_rep_hkind_name(e->kind), "X", PID_STREAMS, ev_tid(e));
        ws_json_member_string(w, "cat", ws_rep_hkind_name(e->kind));
        put_time(w, e->t0, e->t1, 1);
        break;
    case WS_REP_HK_SYNC:
    case WS_REP_HK_API:
        ev_begin(w, e->name ? e->name : ws_rep_hkind_name(e->kind), "X", PID_HOST, host_tid);
        ws_json_member_string(w, "cat", e->kind == WS_REP_HK_API ? "cuda_api" : "sync");
        put_time(w, e->t0, e->t1, 1);
        break;
    case WS_REP_HK_NVTX: {
        const char *msg = e->name ? e->name : "";
        if (e->sub == WS_REP_NVTX_STARTEND) {
            /* start/end ranges may overlap anything: a pair of nestable async events, matched by id */
            ev_begin(w, msg, "b", PID_HOST, host_tid);
            ws_json_member_string(w, "cat", "nvtx");
            ws_json_member_uint(w, "id", (unsigned long long)index + 1);
            put_time(w, e->t0, e->t0, 0);
            if (e->domain) {
                ws_json_key(w, "args");
                ws_json_begin_object(w);
                ws_json_member_string(w, "domain", e->domain);
                ws_json_end_object(w);
            }
            ws_json_end_object(w);
            ev_begin(w, msg, "e", PID_HOST, host_tid);
            ws_json_member_string(w, "cat", "nvtx");
            ws_json_member_uint(w, "id", (unsigned long long)index + 1);
            put_time(w, e->t1, e->t1, 0);
            break;
        }
        int mark = e->sub == WS_REP_NVTX_MARK;
        ev_begin(w, msg, mark ? "i" : "X", PID_HOST, host_tid);
        ws_json_member_string(w, "cat", "nvtx");
        if (mark) ws_json_member_string(w, "s", "t");
        put_time(w, e->t0, e->t1, !mark);
        ws_json_key(w, "args");
        ws_json_begin_object(w);
        if (e->domain) ws_json_member_string(w, "domain", e->domain);
        if (!mark) ws_json_member_int(w, "depth", e->depth);
        ws_json_end_object(w);
        break;
    }
    default:
        return;
    }
    ws_json_end_object(w);
}

/* Declare the tracks (process and thread names, in a stable order). */
static void trace_tracks(ws_json *w, const ws_rep_host *h, const unsigned char *slots_used, int nsm)
{
    char name[256];
    meta(w, "process_name", PID_HOST, 0, "Host (CUDA API, NVTX)", 0);
    meta(w, "process_sort_index", PID_HOST, 0, NULL, 1);
    size_t nthreads = h->nthreads ? h->nthreads : 1;
    for (size_t i = 0; i < nthreads; i++) {
        const char *tn = i < h->nthreads && h->threads && h->threads[i] ? h->threads[i] : NULL;
        if (tn) snprintf(name, sizeof name, "%s", tn);
        else snprintf(name, sizeof name, i ? "host thread %zu" : "host thread %zu (main)", i);
        meta(w, "thread_name", PID_HOST, (long long)i + 1, name, 0);
        meta(w, "thread_sort_index", PID_HOST, (long long)i + 1, NULL, (long long)i);
    }
    snprintf(name, sizeof name, "GPU streams%s%s%s", h->device ? " (" : "", h->device ? h->device : "",
             h->device ? ", simulated)" : "");
    meta(w, "process_name", PID_STREAMS, 0, name, 0);
    meta(w, "process_sort_index", PID_STREAMS, 0, NULL, 2);
    for (size_t i = 0; i < h->nstreams; i++) {
        const ws_rep_hstream *st = &h->streams[i];
        const char *label = st->name ? st->name : st->id ? NULL : "default";
        char dev[32] = "";
        if (h->ndevices > 1) snprintf(dev, sizeof dev, " [device %d]", st->device);
        snprintf(name, sizeof name, "stream %d%s%s%s%s", st->id, label ? " (" : "", label ? label : "", label ? ")" : "",
                 dev);
        meta(w, "thread_name", PID_STREAMS, stream_tid(st->id), name, 0);
        meta(w, "thread_sort_index", PID_STREAMS, stream_tid(st->id), NULL, st->id);
    }
    for (int d = 1; d < h->ndevices; d++) {   /* the other devices' default streams */
        snprintf(name, sizeof name, "stream 0 (default) [device %d]", d);
        meta(w, "thread_name", PID_STREAMS, 1000000LL * d + 1, name, 0);
        meta(w, "thread_sort_index", PID_STREAMS, 1000000LL * d + 1, NULL, 1000000LL * d);
    }
    if (!nsm) return;
    meta(w, "process_name", PID_SMS, 0, "SMs (simulated blocks)", 0);
    meta(w, "process_sort_index", PID_SMS, 0, NULL, 3);
    for (int s = 0; s < nsm; s++)
        for (int k = 0; k < SLOTS; k++) {
            if (!slots_used[(size_t)s * SLOTS + (size_t)k]) continue;
            long long tid = 1 + (long long)s * SLOTS + k;
            if (k) snprintf(name, sizeof name, "SM %d (slot %d)", s, k);
            else snprintf(name, sizeof name, "SM %d", s);
            meta(w, "thread_name", PID_SMS, tid, name, 0);
            meta(w, "thread_sort_index", PID_SMS, tid, NULL, tid);
        }
}

/* qsort comparison of blocks: by SM, slot, then start (each track in time order). */
static int block_cmp(const void *a, const void *b)
{
    const ws_rep_hblock *x = a, *y = b;
    if (x->sm != y->sm) return x->sm < y->sm ? -1 : 1;
    if (x->slot != y->slot) return x->slot < y->slot ? -1 : 1;
    if (x->t0 != y->t0) return x->t0 < y->t0 ? -1 : 1;
    return x->block < y->block ? -1 : x->block > y->block;
}

/* Write h as a Chrome trace-event file. */
int ws_rep_trace_write(FILE *out, const ws_rep_host *h)
{
    ws_json w;
    ws_json_init_file(&w, out);
    ws_json_begin_object(&w);
    ws_json_key(&w, "traceEvents");
    ws_json_begin_array(&w);
    int nsm = 0;
    for (size_t i = 0; i < h->nblocks; i++) if (h->blocks[i].sm + 1 > nsm) nsm = h->blocks[i].sm + 1;
    unsigned char *used = nsm ? calloc((size_t)nsm * SLOTS, 1) : NULL;
    ws_rep_hblock *blocks = h->nblocks ? malloc(h->nblocks * sizeof *blocks) : NULL;
    size_t *idx = h->nevents ? malloc(h->nevents * sizeof *idx) : NULL;
    int oom = (nsm && !used) || (h->nblocks && !blocks) || (h->nevents && !idx);
    if (!oom) {
        for (size_t i = 0; i < h->nblocks; i++)
            if (h->blocks[i].slot < SLOTS) used[(size_t)h->blocks[i].sm * SLOTS + h->blocks[i].slot] = 1;
        trace_tracks(&w, h, used, nsm);
        kcache kc = { 0 };
        ws_rep_host_order(h->events, h->nevents, idx);
        for (size_t k = 0; k < h->nevents; k++) trace_event(&w, &h->events[idx[k]], idx[k], &kc, h->ndevices);
        if (h->nblocks) {
            memcpy(blocks, h->blocks, h->nblocks * sizeof *blocks);
            qsort(blocks, h->nblocks, sizeof *blocks, block_cmp);
        }
        for (size_t i = 0; i < h->nblocks; i++) {
            const ws_rep_hblock *b = &blocks[i];
            if (b->slot >= SLOTS) continue;
            const ws_rep_hevent *k = b->event < h->nevents ? &h->events[b->event] : NULL;
            char name[600];
            snprintf(name, sizeof name, "%s block %llu", kernel_label(&kc, k ? k->name : NULL, 0),
                     (unsigned long long)b->block);
            ev_begin(&w, name, "X", PID_SMS, 1 + (long long)b->sm * SLOTS + b->slot);
            ws_json_member_string(&w, "cat", "block");
            put_time(&w, b->t0, b->t1, 1);
            ws_json_key(&w, "args");
            ws_json_begin_object(&w);
            ws_json_member_uint(&w, "block", b->block);
            if (k && k->launch >= 0) ws_json_member_int(&w, "launch", k->launch);
            ws_json_end_object(&w);
            ws_json_end_object(&w);
        }
        kcache_free(&kc);
    }
    free(used);
    free(blocks);
    free(idx);
    ws_json_break(&w, 0);
    ws_json_end_array(&w);
    ws_json_member_string(&w, "displayTimeUnit", "ns");
    ws_json_key(&w, "otherData");
    ws_json_begin_object(&w);
    ws_json_member_string(&w, "producer", "warpsim");
    ws_json_member_string(&w, "clock", h->simulated ? "simulated" : "wall");
    if (h->device) ws_json_member_string(&w, "device", h->device);
    ws_json_member_uint(&w, "dropped_events", h->dropped);
    ws_json_member_uint(&w, "dropped_blocks", h->blocks_dropped);
    ws_json_end_object(&w);
    ws_json_end_object(&w);
    ws_json_break(&w, 0);
    return ws_json_finish(&w) || oom ? -1 : 0;
}
