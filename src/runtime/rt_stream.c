/* rt_stream.c - streams, events, host callbacks and synchronization. Every operation runs when it is
 * enqueued, so a stream's work is in order and an event's timestamp is taken after all earlier work. */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Monotonic host time in seconds. */
double ws_rt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether h names one of the default streams. */
static int is_default(cudaStream_t h)
{
    return h == NULL || h == cudaStreamLegacy || h == cudaStreamPerThread;
}

/* Validate a stream handle. */
cudaError_t ws_rt_stream_get(cudaStream_t h, ws_rt_stream **s)
{
    *s = NULL;
    if (is_default(h)) return cudaSuccess;
    for (ws_rt_stream *x = ws_rt_g.streams; x; x = x->next) {
        if ((cudaStream_t)x == h) {
            *s = x;
            return cudaSuccess;
        }
    }
    return cudaErrorInvalidResourceHandle;
}

/* The graph a stream captures into, or NULL. */
ws_rt_graph *ws_rt_capturing(cudaStream_t h)
{
    if (is_default(h)) return NULL;
    ws_rt_stream *s = NULL;
    if (ws_rt_stream_get(h, &s) || !s) return NULL;
    return s->capture;
}

/* Whether any stream is capturing in a mode that forbids legacy synchronizing calls. */
int ws_rt_any_capture(void)
{
    for (ws_rt_stream *x = ws_rt_g.streams; x; x = x->next)
        if (x->capture && x->capture_mode != cudaStreamCaptureModeRelaxed) return 1;
    return 0;
}

/* Mark every active capture invalidated (an illegal synchronizing call happened during capture). */
static void invalidate_captures(void)
{
    for (ws_rt_stream *x = ws_rt_g.streams; x; x = x->next)
        if (x->capture && x->capture_mode != cudaStreamCaptureModeRelaxed) x->capture->invalidated = 1;
}

/* Lock and check the sticky error; used by calls that only validate. */
static cudaError_t enter(int sync)
{
    ws_rt_lock();
    return ws_rt_check(sync);
}

/* Unlock and record the error. */
static cudaError_t leave(cudaError_t e)
{
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* ---- streams ---- */

/* Create a stream object. */
static cudaError_t stream_create(cudaStream_t *pStream, unsigned flags, int priority)
{
    if (!pStream || (flags & ~(unsigned)cudaStreamNonBlocking)) return ws_rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = enter(0);
    if (!e) {
        ws_rt_stream *s = calloc(1, sizeof *s);
        if (!s) e = cudaErrorMemoryAllocation;
        else {
            s->magic = WS_RT_STREAM_MAGIC;
            s->flags = flags;
            s->priority = priority > 0 ? 0 : priority < -5 ? -5 : priority;
            /* its queue on the simulated clock: a blocking stream orders with the default stream */
            s->q.nonblocking = (flags & cudaStreamNonBlocking) != 0;
            s->q.id = ws_hs_tl_stream_new();
            ws_hs_queue_add(&s->q);
            s->next = ws_rt_g.streams;
            ws_rt_g.streams = s;
            *pStream = (cudaStream_t)s;
        }
    }
    return leave(e);
}

/* cudaStreamCreate: a blocking stream of default priority. */
WS_RT_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    WS_RT_API();
    return stream_create(pStream, cudaStreamDefault, 0);
}

/* cudaStreamCreateWithFlags: cudaStreamDefault or cudaStreamNonBlocking. */
WS_RT_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    WS_RT_API();
    return stream_create(pStream, flags, 0);
}

/* cudaStreamCreateWithPriority: priority clamped to [-5, 0]. */
WS_RT_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    WS_RT_API();
    return stream_create(pStream, flags, priority);
}

/* cudaStreamDestroy: free a stream (its work is already done). */
WS_RT_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = cudaErrorInvalidResourceHandle;
    if (!is_default(stream)) {
        for (ws_rt_stream **pp = &ws_rt_g.streams; *pp; pp = &(*pp)->next) {
            if ((cudaStream_t)*pp == stream) {
                ws_rt_stream *s = *pp;
                *pp = s->next;
                s->magic = 0;
                ws_hs_queue_remove(&s->q);
                free(s);
                e = cudaSuccess;
                break;
            }
        }
    }
    if (!e) e = ws_rt_check(0);
    return leave(e);
}

/* cudaStreamSynchronize: all work is done at enqueue time; reports a kernel fault. */
WS_RT_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(stream, &s);
    if (!e && s && s->capture) {
        s->capture->invalidated = 1;
        e = cudaErrorStreamCaptureUnsupported;
    }
    if (!e && is_default(stream) && ws_rt_any_capture()) {
        invalidate_captures();
        e = cudaErrorStreamCaptureImplicit;
    }
    if (!e) e = ws_rt_check(1);
    double t0 = ws_hs_tl_on() ? ws_hs_tl_now() : 0;
    if (!e && ws_rt_clock_on()) ws_rt_clock_sync(s, is_default(stream));
    if (!e && ws_hs_tl_on()) {
        char name[48];
        snprintf(name, sizeof name, "wait for stream %d", ws_rt_stream_id(s));
        ws_hs_tl_sync(ws_hs_tl_intern(name), t0, ws_hs_tl_now());
    }
    return leave(e);
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream);
/* cudaStreamSynchronize_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
    WS_RT_API();
    return cudaStreamSynchronize(stream);
}

/* cudaStreamQuery: always complete. */
WS_RT_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(stream, &s);
    if (!e && s && s->capture) e = cudaErrorStreamCaptureUnsupported;
    if (!e) e = ws_rt_check(1);
    return leave(e);
}

cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream);
/* cudaStreamQuery_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
    WS_RT_API();
    return cudaStreamQuery(stream);
}

/* cudaStreamGetPriority: the stream's priority (0 for the default streams). */
WS_RT_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    WS_RT_API();
    if (!priority) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(hStream, &s);
    if (!e) *priority = s ? s->priority : 0;
    return leave(e);
}

/* cudaStreamGetFlags: the stream's creation flags. */
WS_RT_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    WS_RT_API();
    if (!flags) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(hStream, &s);
    if (!e) *flags = s ? s->flags : 0;
    return leave(e);
}

/* cudaStreamGetId: a unique id (the default streams get 0 and 1). */
WS_RT_EXPORT cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    WS_RT_API();
    if (!streamId) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(hStream, &s);
    if (!e) *streamId = s ? (unsigned long long)(uintptr_t)s : hStream == cudaStreamPerThread ? 1 : 0;
    return leave(e);
}

/* cudaStreamGetDevice: the device the stream was created on (a default stream: the current device). */
WS_RT_EXPORT cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    WS_RT_API();
    if (!device) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(hStream, &s);
    if (!e) *device = ws_rt_stream_device(s);
    return leave(e);
}

/* ---- events ---- */

/* Validate an event handle. */
static cudaError_t event_get(cudaEvent_t h, ws_rt_event **ev)
{
    for (ws_rt_event *x = ws_rt_g.events; x; x = x->next) {
        if ((cudaEvent_t)x == h) {
            *ev = x;
            return cudaSuccess;
        }
    }
    return cudaErrorInvalidResourceHandle;
}

/* cudaEventCreateWithFlags: default, blocking-sync, disable-timing, interprocess (with disable-timing). */
WS_RT_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    WS_RT_API();
    if (!event || (flags & ~(unsigned)(cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess)) ||
        ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)))
        return ws_rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = enter(0);
    if (!e) {
        ws_rt_event *ev = calloc(1, sizeof *ev);
        if (!ev) e = cudaErrorMemoryAllocation;
        else {
            ev->magic = WS_RT_EVENT_MAGIC;
            ev->flags = flags;
            ev->device = ws_hs_current();
            ev->next = ws_rt_g.events;
            ws_rt_g.events = ev;
            *event = (cudaEvent_t)ev;
        }
    }
    return leave(e);
}

/* cudaEventCreate: an event with timing. */
WS_RT_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    WS_RT_API();
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

/* cudaEventDestroy: free an event. */
WS_RT_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = cudaErrorInvalidResourceHandle;
    for (ws_rt_event **pp = &ws_rt_g.events; *pp; pp = &(*pp)->next) {
        if ((cudaEvent_t)*pp == event) {
            ws_rt_event *ev = *pp;
            *pp = ev->next;
            ev->magic = 0;
            free(ev);
            e = cudaSuccess;
            break;
        }
    }
    if (!e) e = ws_rt_check(0);
    return leave(e);
}

/* Record an event now, or as a node of the capture the stream belongs to. */
static cudaError_t event_record(cudaEvent_t event, cudaStream_t stream, unsigned flags)
{
    if (flags & ~(unsigned)cudaEventRecordExternal) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_event *ev = NULL;
    ws_rt_stream *s = NULL;
    cudaError_t e = event_get(event, &ev);
    if (!e) e = ws_rt_stream_get(stream, &s);
    if (!e && ev->device != ws_rt_stream_device(s)) e = cudaErrorInvalidResourceHandle;   /* must share a device */
    if (!e) e = ws_rt_check(0);
    if (!e) {
        if (s && s->capture) {
            ws_rt_node *n = ws_rt_graph_add(s->capture, WS_RT_NODE_EVENT_RECORD);
            if (!n) e = cudaErrorMemoryAllocation;
            else {
                n->event = ev;
                ev->capture = s->capture;
            }
        } else {
            ev->recorded = 1;
            ev->capture = NULL;
            ev->t = ws_rt_clock_on() ? ws_rt_clock_event(s) : ws_rt_now();
            if (ws_hs_tl_on())
                ws_hs_tl_event(ws_rt_stream_id(s), "event record", ws_rt_clock_on() ? ev->t : ws_hs_tl_now());
        }
    }
    return leave(e);
}

/* cudaEventRecord: timestamp after all work enqueued so far. */
WS_RT_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    WS_RT_API();
    return event_record(event, stream, 0);
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);
/* cudaEventRecord_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
    WS_RT_API();
    return event_record(event, stream, 0);
}

/* cudaEventRecordWithFlags: as cudaEventRecord. */
WS_RT_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    WS_RT_API();
    return event_record(event, stream, flags);
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags);
/* cudaEventRecordWithFlags_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    WS_RT_API();
    return event_record(event, stream, flags);
}

/* cudaEventSynchronize: the event's work is done; reports a kernel fault. */
WS_RT_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_event *ev = NULL;
    cudaError_t e = event_get(event, &ev);
    if (!e) e = ws_rt_check(1);
    double t0 = ws_hs_tl_on() ? ws_hs_tl_now() : 0;
    if (!e && ws_rt_clock_on()) ws_rt_clock_sync_to(ev->t);
    if (!e && ws_hs_tl_on()) ws_hs_tl_sync("wait for event", t0, ws_hs_tl_now());
    return leave(e);
}

/* cudaEventQuery: always complete. */
WS_RT_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_event *ev = NULL;
    cudaError_t e = event_get(event, &ev);
    if (!e) e = ws_rt_check(1);
    return leave(e);
}

/* cudaEventElapsedTime: milliseconds of host time between two recorded events. */
WS_RT_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    WS_RT_API();
    if (!ms) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_event *a = NULL, *b = NULL;
    cudaError_t e = event_get(start, &a);
    if (!e) e = event_get(end, &b);
    if (!e) e = ws_rt_check(1);
    if (!e && ((a->flags | b->flags) & cudaEventDisableTiming)) e = cudaErrorInvalidResourceHandle;
    if (!e && (!a->recorded || !b->recorded)) e = cudaErrorInvalidResourceHandle;
    if (!e && a->device != b->device) e = cudaErrorInvalidResourceHandle;   /* two devices' clocks do not compare */
    if (!e) *ms = (float)((b->t - a->t) * 1000.0);
    return leave(e);
}

/* cudaStreamWaitEvent: ordering is already satisfied; a wait on an event recorded during capture makes the
 * waiting stream join that capture. */
WS_RT_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    WS_RT_API();
    if (flags & ~(unsigned)cudaEventWaitExternal) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_event *ev = NULL;
    ws_rt_stream *s = NULL;
    cudaError_t e = event_get(event, &ev);
    if (!e) e = ws_rt_stream_get(stream, &s);
    if (!e) e = ws_rt_check(0);
    if (!e && !ev->capture && ws_rt_clock_on()) ws_rt_clock_wait(s, ev->t);
    if (!e && !ev->capture && ev->recorded && ws_hs_tl_on())
        ws_hs_tl_event(ws_rt_stream_id(s), "event wait", ws_rt_clock_on() ? ev->t : ws_hs_tl_now());
    if (!e && ev->capture && s && !s->capture) {
        s->capture = ev->capture;
        s->capture_origin = 0;
        s->capture_mode = cudaStreamCaptureModeGlobal;
        for (ws_rt_stream *x = ws_rt_g.streams; x; x = x->next)
            if (x->capture == ev->capture && x->capture_origin) {
                s->capture_mode = x->capture_mode;
                s->capture_id = x->capture_id;
            }
    } else if (!e && ev->capture && !s) {
        e = cudaErrorStreamCaptureIsolation;
    }
    return leave(e);
}

cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
/* cudaStreamWaitEvent_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    WS_RT_API();
    return cudaStreamWaitEvent(stream, event, flags);
}

/* ---- host work in streams ---- */

/* When host work enqueued on s now starts on the timeline (where the stream is, in timing mode). */
static double host_work_time(ws_rt_stream *s)
{
    if (!ws_hs_tl_on()) return 0;
    return ws_rt_clock_on() ? ws_rt_clock_event(s) : ws_hs_tl_now();
}

/* Host work (static name) on s that started at t0 is done: record it (an instant in timing mode, which does not
 * time the host's work). */
static void host_work_done(ws_rt_stream *s, const char *name, double t0)
{
    if (ws_hs_tl_on()) ws_hs_tl_callback(ws_rt_stream_id(s), name, t0, ws_rt_clock_on() ? t0 : ws_hs_tl_now());
}

/* cudaStreamAddCallback: run the callback now (after all earlier work), or record it during capture. */
WS_RT_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                               unsigned int flags)
{
    WS_RT_API();
    if (!callback || flags) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(stream, &s);
    if (!e && s && s->capture) {
        ws_rt_node *n = ws_rt_graph_add(s->capture, WS_RT_NODE_CALLBACK);
        if (!n) e = cudaErrorMemoryAllocation;
        else {
            n->callback = callback;
            n->user = userData;
            n->stream = stream;
        }
        return leave(e);
    }
    if (!e) {
        cudaError_t status = ws_rt_check(1);
        double t0 = host_work_time(s);
        callback(stream, status, userData);
        host_work_done(s, "stream callback", t0);
        e = status;
    }
    return leave(e);
}

cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                       unsigned int flags);
/* cudaStreamAddCallback_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
                                                    void *userData, unsigned int flags)
{
    WS_RT_API();
    return cudaStreamAddCallback(stream, callback, userData, flags);
}

/* cudaLaunchHostFunc: run fn now (after all earlier work), or record it during capture. */
WS_RT_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    WS_RT_API();
    if (!fn) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(stream, &s);
    if (!e) e = ws_rt_check(0);
    if (!e && s && s->capture) {
        ws_rt_node *n = ws_rt_graph_add(s->capture, WS_RT_NODE_HOST);
        if (!n) e = cudaErrorMemoryAllocation;
        else {
            n->host_fn = fn;
            n->user = userData;
        }
    } else if (!e && !ws_hs_fault_pending()) {
        double t0 = host_work_time(s);
        fn(userData);
        host_work_done(s, "host function", t0);
    }
    return leave(e);
}

cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData);
/* cudaLaunchHostFunc_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    WS_RT_API();
    return cudaLaunchHostFunc(stream, fn, userData);
}

/* ---- device-wide synchronization ---- */

/* cudaDeviceSynchronize: all work is done; reports a kernel fault (sticky from then on). */
WS_RT_EXPORT cudaError_t cudaDeviceSynchronize(void)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = cudaSuccess;
    if (ws_rt_any_capture()) {
        invalidate_captures();
        e = cudaErrorStreamCaptureUnsupported;
    }
    if (!e) e = ws_rt_check(1);
    double t0 = ws_hs_tl_on() ? ws_hs_tl_now() : 0;
    if (!e && ws_rt_clock_on()) ws_rt_clock_sync(NULL, 1);
    if (!e && ws_hs_tl_on()) ws_hs_tl_sync("wait for device", t0, ws_hs_tl_now());
    return leave(e);
}
