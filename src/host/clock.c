/* clock.c - the simulated host/device clock (clock.h). */
#include "clock.h"
#include "session.h"

enum { ENG_COMPUTE, ENG_H2D, ENG_D2H, ENG_D2D, ENG_PEER, ENG_COUNT };

/* one device's side of the clock: its engines and its default queue */
typedef struct clk_device {
    const ws_device *dev;             /* NULL: not started */
    double dflt_ready;                /* its default queue's completion time */
    double engine_free[ENG_COUNT];    /* when each of its engines is next free */
} clk_device;

static clk_device clk[WS_HS_MAX_DEVICES];
static int clk_on;                    /* 0: functional mode, no simulated time */
static double host_t;                 /* simulated host time (s) */
static ws_hs_queue *queues;           /* live queues */
static double last_t0, last_t1;       /* interval of the last kernel or copy */

/* Start keeping simulated time for device i. */
void ws_hs_clock_start(int i, const ws_device *d)
{
    if (i < 0 || i >= WS_HS_MAX_DEVICES) return;
    clk[i].dev = d;
    clk_on = 1;
}

/* Whether simulated time is kept. */
int ws_hs_clock_on(void) { return clk_on; }

/* Register a queue (of the calling thread's current device). */
void ws_hs_queue_add(ws_hs_queue *q)
{
    q->dev = ws_hs_current();
    q->next = queues;
    queues = q;
}

/* Forget a queue. */
void ws_hs_queue_remove(ws_hs_queue *q)
{
    for (ws_hs_queue **p = &queues; *p; p = &(*p)->next)
        if (*p == q) { *p = q->next; return; }
}

/* The device of queue q (NULL: the current device's default queue). */
static int dev_of(const ws_hs_queue *q) { return q ? q->dev : ws_hs_current(); }

/* Completion-time slot of queue q (NULL = the current device's default queue). */
static double *ready_of(ws_hs_queue *q) { return q ? &q->ready : &clk[ws_hs_current()].dflt_ready; }

/* Latest completion over every queue of device dev (every device when dev < 0). */
static double all_ready(int dev)
{
    double t = 0;
    for (int i = 0; i < WS_HS_MAX_DEVICES; i++)
        if ((dev < 0 || i == dev) && clk[i].dflt_ready > t) t = clk[i].dflt_ready;
    for (ws_hs_queue *x = queues; x; x = x->next)
        if ((dev < 0 || x->dev == dev) && x->ready > t) t = x->ready;
    return t;
}

/* Start time of an operation on q using engine e of q's device, enqueued now. */
static double start_time(ws_hs_queue *q, int e)
{
    int dv = dev_of(q);
    double t = host_t;
    if (*ready_of(q) > t) t = *ready_of(q);
    if (!q || !q->nonblocking) {
        /* a device's default queue orders with every blocking queue of that device */
        double d = q ? clk[dv].dflt_ready : all_ready(dv);
        if (d > t) t = d;
    }
    if (clk[dv].engine_free[e] > t) t = clk[dv].engine_free[e];
    return t;
}

/* A kernel of `seconds` enqueued on q. */
void ws_hs_clock_kernel(ws_hs_queue *q, double seconds, double host_cost)
{
    if (!clk_on) return;
    host_t += host_cost;
    last_t0 = start_time(q, ENG_COMPUTE);
    double t = last_t1 = last_t0 + seconds;
    *ready_of(q) = t;
    clk[dev_of(q)].engine_free[ENG_COMPUTE] = t;
}

/* A copy of `bytes` in direction dir on q. */
void ws_hs_clock_copy(ws_hs_queue *q, size_t bytes, int dir, int pinned, int blocking)
{
    int dv = dev_of(q);
    const ws_device *d = clk[dv].dev;
    if (!clk_on || !d) return;
    int e = dir == WS_HS_H2D ? ENG_H2D : dir == WS_HS_D2H ? ENG_D2H : ENG_D2D;
    double bw = e == ENG_D2D ? d->mem_bandwidth_gbs / 2 : pinned ? d->host_link_gbs_pinned : d->host_link_gbs_pageable;
    double secs = 2e-6 + (double)bytes / (bw * 1e9);   /* ~2 us per copy for setup and completion */
    host_t += 1e-6;
    last_t0 = start_time(q, e);
    double t = last_t1 = last_t0 + secs;
    *ready_of(q) = t;
    clk[dv].engine_free[e] = t;
    if (blocking || (!pinned && e != ENG_D2D)) host_t = t;   /* pageable copies are staged synchronously */
}

/* Peer-link figures of device d: GB/s one way and the latency of a copy, s (PCIe host-link figures without them). */
static void peer_link(const ws_device *d, double *gbs, double *lat)
{
    *gbs = d->peer_link_gbs > 0 ? d->peer_link_gbs : d->host_link_gbs_pinned;
    *lat = (d->peer_link_latency_us > 0 ? d->peer_link_latency_us : 2.0) * 1e-6;
}

/* A copy of `bytes` from device src to device dst on q (a device-to-device copy when they are the same). */
void ws_hs_clock_peer(ws_hs_queue *q, size_t bytes, int src, int dst, int blocking)
{
    if (!clk_on) return;
    if (src == dst || src < 0 || dst < 0 || src >= WS_HS_MAX_DEVICES || dst >= WS_HS_MAX_DEVICES || !clk[src].dev ||
        !clk[dst].dev) {
        ws_hs_clock_copy(q, bytes, WS_HS_D2D, 1, blocking);
        return;
    }
    /* the slower end's link sets the rate; the copy holds the peer engines of both devices */
    double g1, l1, g2, l2;
    peer_link(clk[src].dev, &g1, &l1);
    peer_link(clk[dst].dev, &g2, &l2);
    double secs = (l1 > l2 ? l1 : l2) + (double)bytes / ((g1 < g2 ? g1 : g2) * 1e9);
    host_t += 1e-6;
    double t0 = start_time(q, ENG_PEER);
    int other = dev_of(q) == src ? dst : src;
    if (clk[other].engine_free[ENG_PEER] > t0) t0 = clk[other].engine_free[ENG_PEER];
    /* on a default queue (cudaMemcpyPeer) it also waits for the other device's blocking work */
    if (!q && all_ready(other) > t0) t0 = all_ready(other);
    last_t0 = t0;
    double t = last_t1 = t0 + secs;
    *ready_of(q) = t;
    clk[src].engine_free[ENG_PEER] = clk[dst].engine_free[ENG_PEER] = t;
    if (blocking) host_t = t;
}

/* Simulated time at which an event recorded now on q completes. */
double ws_hs_clock_event(ws_hs_queue *q)
{
    double t = *ready_of(q);
    if (!q) { double a = all_ready(ws_hs_current()); if (a > t) t = a; }
    return t > host_t ? t : host_t;
}

/* Queue q waits for an event that completes at t. */
void ws_hs_clock_wait(ws_hs_queue *q, double t)
{
    if (*ready_of(q) < t) *ready_of(q) = t;
}

/* The host waits for queue q (all queues of the current device when all is set). */
void ws_hs_clock_sync(ws_hs_queue *q, int all)
{
    double t = all ? all_ready(ws_hs_current()) : *ready_of(q);
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
    if (clk_on && seconds > 0) host_t += seconds;
}

/* The simulated host time now. */
double ws_hs_clock_host(void) { return host_t; }

/* Interval of the last kernel or copy. */
void ws_hs_clock_last(double *t0, double *t1)
{
    *t0 = last_t0;
    *t1 = last_t1;
}
