/* clock.h - simulated time of the host and the device in timing mode (part of the host session): kernels take the
 * timing model's duration on the compute engine, copies take bytes / host-link bandwidth (pinned faster than
 * pageable) on a copy engine per direction, queues (CUDA streams) order their own work, the default queue orders
 * with every blocking queue, events read the simulated clock, and every launch costs host time. */
#ifndef WS_HS_CLOCK_H
#define WS_HS_CLOCK_H

#include <stddef.h>
#include "../device/device.h"

/* a work queue (a CUDA stream); the default queue is NULL */
typedef struct ws_hs_queue {
    double ready;                /* simulated completion time of its last operation */
    int nonblocking;             /* does not order with the default queue */
    int id;                      /* its number on the host timeline (hs_timeline.h; the default queue is 0) */
    int dev;                     /* its device (set by ws_hs_queue_add: the current device) */
    struct ws_hs_queue *next;    /* every live queue (ws_hs_queue_add) */
} ws_hs_queue;

/* copy directions */
enum ws_hs_copy_dir { WS_HS_H2D, WS_HS_D2H, WS_HS_D2D };

/* Start keeping simulated time for device i of preset d (timing mode); until one is started every call below
 * does nothing. Each device has its own engines and default queue (NULL: the calling thread's current device's). */
void ws_hs_clock_start(int i, const ws_device *d);
/* Whether simulated time is kept. */
int ws_hs_clock_on(void);
/* Register a queue of the current device / forget a queue. */
void ws_hs_queue_add(ws_hs_queue *q);
void ws_hs_queue_remove(ws_hs_queue *q);
/* A kernel of `seconds` enqueued on q, costing the host `host_cost` seconds to launch. */
void ws_hs_clock_kernel(ws_hs_queue *q, double seconds, double host_cost);
/* A copy of `bytes` in direction dir on q; pinned host memory uses the faster link; blocking copies stall the
 * host (pageable host copies always do). */
void ws_hs_clock_copy(ws_hs_queue *q, size_t bytes, int dir, int pinned, int blocking);
/* A copy of `bytes` from device src's memory to device dst's on q over the peer link (the slower end's
 * peer_link_gbs and peer_link_latency_us; PCIe host-link figures for a preset without them); it holds both
 * devices' peer engines. src == dst: a device-to-device copy. */
void ws_hs_clock_peer(ws_hs_queue *q, size_t bytes, int src, int dst, int blocking);
/* Simulated time at which an event recorded now on q completes. */
double ws_hs_clock_event(ws_hs_queue *q);
/* Queue q waits for an event that completes at t. */
void ws_hs_clock_wait(ws_hs_queue *q, double t);
/* The host waits for queue q (for every queue of the current device when all is set). */
void ws_hs_clock_sync(ws_hs_queue *q, int all);
/* The host waits until simulated time t. */
void ws_hs_clock_sync_to(double t);
/* The host is busy for `seconds` (a CPU page fault on managed memory). */
void ws_hs_clock_host_busy(double seconds);
/* The simulated host time now (0 until the clock starts). */
double ws_hs_clock_host(void);
/* Simulated start and end of the last kernel or copy enqueued (for the host timeline). */
void ws_hs_clock_last(double *t0, double *t1);

#endif
