/* rt_clock.c - simulated time of the host and the device in timing mode: kernels take the timing model's
 * duration on the compute engine, copies take bytes / host-link bandwidth (pinned faster than pageable) on a
 * copy engine per direction, streams order their own work, events read the simulated clock, and every launch
 * costs host time (less per kernel when replayed from a CUDA graph). In functional mode nothing here runs. */
#include "rt_internal.h"

#include <string.h>

enum { ENG_COMPUTE, ENG_H2D, ENG_D2H, ENG_D2D, ENG_COUNT };

static double host_t;                 /* simulated host time (s) */
static double dflt_ready;             /* the legacy default stream's completion time */
static double engine_free[ENG_COUNT]; /* when each engine is next free */

/* Completion-time slot of stream s (NULL = the default stream). */
static double *ready_of(ws_rt_stream *s) { return s ? &s->sim_ready : &dflt_ready; }

/* Latest completion over every stream. */
static double all_ready(void)
{
    double t = dflt_ready;
    for (ws_rt_stream *x = ws_rt_g.streams; x; x = x->next) if (x->sim_ready > t) t = x->sim_ready;
    return t;
}

/* Start time of an operation on stream s using engine e, enqueued now. */
static double start_time(ws_rt_stream *s, int e)
{
    double t = host_t;
    if (*ready_of(s) > t) t = *ready_of(s);
    if (!s || !(s->flags & cudaStreamNonBlocking)) {
        /* the legacy default stream orders with every blocking stream */
        double d = s ? dflt_ready : all_ready();
        if (d > t) t = d;
    }
    if (engine_free[e] > t) t = engine_free[e];
    return t;
}

/* Whether simulated time is being kept (timing mode). */
int ws_rt_clock_on(void) { return ws_rt_g.tm != NULL; }

/* A kernel of `seconds` enqueued on s, costing the host `host_cost` seconds to launch. */
void ws_rt_clock_kernel(ws_rt_stream *s, double seconds, double host_cost)
{
    host_t += host_cost;
    double t = start_time(s, ENG_COMPUTE) + seconds;
    *ready_of(s) = t;
    engine_free[ENG_COMPUTE] = t;
}

/* A copy of `bytes` of kind on s; pinned host memory uses the faster link; blocking copies stall the host. */
void ws_rt_clock_copy(ws_rt_stream *s, size_t bytes, int kind, int pinned, int blocking)
{
    const ws_device *d = ws_rt_g.dev;
    if (!d) return;
    int e = kind == cudaMemcpyHostToDevice ? ENG_H2D : kind == cudaMemcpyDeviceToHost ? ENG_D2H : ENG_D2D;
    double bw = e == ENG_D2D ? d->mem_bandwidth_gbs / 2 : pinned ? d->host_link_gbs_pinned : d->host_link_gbs_pageable;
    double secs = 2e-6 + (double)bytes / (bw * 1e9);   /* ~2 us per copy for setup and completion */
    host_t += 1e-6;
    double t = start_time(s, e) + secs;
    *ready_of(s) = t;
    engine_free[e] = t;
    if (blocking || (!pinned && e != ENG_D2D)) host_t = t;   /* pageable copies are staged synchronously */
}

/* Simulated time at which an event recorded now on s completes. */
double ws_rt_clock_event(ws_rt_stream *s)
{
    double t = *ready_of(s);
    if (!s) { double a = all_ready(); if (a > t) t = a; }
    return t > host_t ? t : host_t;
}

/* Stream s waits for an event that completes at t. */
void ws_rt_clock_wait(ws_rt_stream *s, double t)
{
    if (*ready_of(s) < t) *ready_of(s) = t;
}

/* The host waits for stream s (all streams when all is set). */
void ws_rt_clock_sync(ws_rt_stream *s, int all)
{
    double t = all ? all_ready() : *ready_of(s);
    if (t > host_t) host_t = t;
}

/* The host waits until simulated time t (an event synchronize). */
void ws_rt_clock_sync_to(double t)
{
    if (t > host_t) host_t = t;
}

/* Whether p lies in page-locked host memory the runtime handed out or registered. */
int ws_rt_clock_pinned(const void *p)
{
    for (ws_rt_hostmem *h = ws_rt_g.hostmem; h; h = h->next)
        if ((const char *)p >= (const char *)h->ptr && (const char *)p < (const char *)h->ptr + h->size) return 1;
    for (ws_rt_managed *m = ws_rt_g.managed; m; m = m->next)
        if ((const char *)p >= (const char *)m->ptr && (const char *)p < (const char *)m->ptr + m->size) return 1;
    return 0;
}

/* Set the clock context of the next kernel/copy. */
void ws_rt_clock_ctx(ws_rt_stream *s, double host_cost, int blocking)
{
    ws_rt_g.clk_stream = s;
    ws_rt_g.clk_host_cost = host_cost;
    ws_rt_g.clk_blocking = blocking;
}
