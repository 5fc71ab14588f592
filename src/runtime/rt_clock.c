/* rt_clock.c - the runtime's view of the session's simulated clock (src/host/clock.h) in timing mode: CUDA streams
 * are the clock's queues, cudaMemcpyKind its copy directions, and the operation being run carries a context (its
 * stream, the host cost of its launch, whether the copy is synchronous) from the API call to the copy or kernel. In
 * functional mode nothing here runs. */
#include "rt_internal.h"

static ws_rt_stream *ctx_stream;      /* stream of the operation being run (NULL: the default stream) */
static double ctx_host_cost;          /* host seconds its launch costs */
static int ctx_blocking = 1;          /* a synchronous copy */

/* The clock queue of stream s. */
static ws_hs_queue *queue_of(ws_rt_stream *s) { return s ? &s->q : NULL; }

/* Whether simulated time is being kept (timing mode). */
int ws_rt_clock_on(void) { return ws_hs_clock_on(); }

/* A kernel of `seconds` enqueued on s, costing the host `host_cost` seconds to launch. */
void ws_rt_clock_kernel(ws_rt_stream *s, double seconds, double host_cost)
{
    ws_hs_clock_kernel(queue_of(s), seconds, host_cost);
}

/* A copy of `bytes` of kind on s; pinned host memory uses the faster link; blocking copies stall the host. */
void ws_rt_clock_copy(ws_rt_stream *s, size_t bytes, int kind, int pinned, int blocking)
{
    int dir = kind == cudaMemcpyHostToDevice ? WS_HS_H2D : kind == cudaMemcpyDeviceToHost ? WS_HS_D2H : WS_HS_D2D;
    ws_hs_clock_copy(queue_of(s), bytes, dir, pinned, blocking);
}

/* Simulated time at which an event recorded now on s completes. */
double ws_rt_clock_event(ws_rt_stream *s) { return ws_hs_clock_event(queue_of(s)); }

/* Stream s waits for an event that completes at t. */
void ws_rt_clock_wait(ws_rt_stream *s, double t) { ws_hs_clock_wait(queue_of(s), t); }

/* The host waits for stream s (all streams when all is set). */
void ws_rt_clock_sync(ws_rt_stream *s, int all) { ws_hs_clock_sync(queue_of(s), all); }

/* The host waits until simulated time t (an event synchronize). */
void ws_rt_clock_sync_to(double t) { ws_hs_clock_sync_to(t); }

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
    ctx_stream = s;
    ctx_host_cost = host_cost;
    ctx_blocking = blocking;
}

/* The clock context set by ws_rt_clock_ctx. */
ws_rt_stream *ws_rt_clock_ctx_stream(void) { return ctx_stream; }
double ws_rt_clock_ctx_cost(void) { return ctx_host_cost; }
int ws_rt_clock_ctx_blocking(void) { return ctx_blocking; }
