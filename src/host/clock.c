/* clock.c - the simulated host/device clock (clock.h). */
#include "clock.h"

enum { ENG_COMPUTE, ENG_H2D, ENG_D2H, ENG_D2D, ENG_COUNT };

static const ws_device *clk_dev;      /* NULL: functional mode, no simulated time */
static double host_t;                 /* simulated host time (s) */
static double dflt_ready;             /* the default queue's completion time */
static double engine_free[ENG_COUNT]; /* when each engine is next free */
static ws_hs_queue *queues;           /* live queues */
static double last_t0, last_t1;       /* interval of the last kernel or copy */

/* Start keeping simulated time. */
void ws_hs_clock_start(const ws_device *d) { clk_dev = d; }

/* Whether simulated time is kept. */
int ws_hs_clock_on(void) { return clk_dev != NULL; }

/* Register a queue. */
void ws_hs_queue_add(ws_hs_queue *q)
{
    q->next = queues;
    queues = q;
}

/* Forget a queue. */
void ws_hs_queue_remove(ws_hs_queue *q)
{
    for (ws_hs_queue **p = &queues; *p; p = &(*p)->next)
        if (*p == q) { *p = q->next; return; }
}

/* Completion-time slot of queue q (NULL = the default queue). */
static double *ready_of(ws_hs_queue *q) { return q ? &q->ready : &dflt_ready; }

/* Latest completion over every queue. */
static double all_ready(void)
{
    double t = dflt_ready;
    for (ws_hs_queue *x = queues; x; x = x->next) if (x->ready > t) t = x->ready;
    return t;
}

/* Start time of an operation on q using engine e, enqueued now. */
static double start_time(ws_hs_queue *q, int e)
{
    double t = host_t;
    if (*ready_of(q) > t) t = *ready_of(q);
    if (!q || !q->nonblocking) {
        /* the default queue orders with every blocking queue */
        double d = q ? dflt_ready : all_ready();
        if (d > t) t = d;
    }
    if (engine_free[e] > t) t = engine_free[e];
    return t;
}

/* A kernel of `seconds` enqueued on q. */
void ws_hs_clock_kernel(ws_hs_queue *q, double seconds, double host_cost)
{
    if (!clk_dev) return;
    host_t += host_cost;
    last_t0 = start_time(q, ENG_COMPUTE);
    double t = last_t1 = last_t0 + seconds;
    *ready_of(q) = t;
    engine_free[ENG_COMPUTE] = t;
}

/* A copy of `bytes` in direction dir on q. */
void ws_hs_clock_copy(ws_hs_queue *q, size_t bytes, int dir, int pinned, int blocking)
{
    const ws_device *d = clk_dev;
    if (!d) return;
    int e = dir == WS_HS_H2D ? ENG_H2D : dir == WS_HS_D2H ? ENG_D2H : ENG_D2D;
    double bw = e == ENG_D2D ? d->mem_bandwidth_gbs / 2 : pinned ? d->host_link_gbs_pinned : d->host_link_gbs_pageable;
    double secs = 2e-6 + (double)bytes / (bw * 1e9);   /* ~2 us per copy for setup and completion */
    host_t += 1e-6;
    last_t0 = start_time(q, e);
    double t = last_t1 = last_t0 + secs;
    *ready_of(q) = t;
    engine_free[e] = t;
    if (blocking || (!pinned && e != ENG_D2D)) host_t = t;   /* pageable copies are staged synchronously */
}

/* Simulated time at which an event recorded now on q completes. */
double ws_hs_clock_event(ws_hs_queue *q)
{
    double t = *ready_of(q);
    if (!q) { double a = all_ready(); if (a > t) t = a; }
    return t > host_t ? t : host_t;
}

/* Queue q waits for an event that completes at t. */
void ws_hs_clock_wait(ws_hs_queue *q, double t)
{
    if (*ready_of(q) < t) *ready_of(q) = t;
}

/* The host waits for queue q (all queues when all is set). */
void ws_hs_clock_sync(ws_hs_queue *q, int all)
{
    double t = all ? all_ready() : *ready_of(q);
    if (t > host_t) host_t = t;
}

/* The host waits until simulated time t. */
void ws_hs_clock_sync_to(double t)
{
    if (t > host_t) host_t = t;
}

/* The host is busy for a while. */
void ws_hs_clock_host_busy(double seconds)
{
    if (clk_dev && seconds > 0) host_t += seconds;
}

/* The simulated host time now. */
double ws_hs_clock_host(void) { return host_t; }

/* Interval of the last kernel or copy. */
void ws_hs_clock_last(double *t0, double *t1)
{
    *t0 = last_t0;
    *t1 = last_t1;
}
