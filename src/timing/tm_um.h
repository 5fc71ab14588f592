/* tm_um.h - the timing model's GPU page faults on managed memory (inside src/timing; the page table is
 * src/mem/um.h). A warp that touches a page with no device copy faults; the fault joins the batch the driver is
 * collecting (Linux UVM fetches up to um_fault_batch faults from the GPU's fault buffer and services them
 * together), a batch takes um_fault_latency_us to service, then its pages are handled one after another, each
 * um_fault_page_us of driver work plus its transfer over the host link at host_link_gbs_pinned (a first touch
 * moves nothing), and the next batch starts when they are in: faults of one batch overlap, batches do
 * not. A warp waits until every page its access needs has arrived; a mapped host page (accessed-by) is read over
 * the link at um_remote_latency_us without migrating. Accesses come in the serial phase's deterministic order. */
#ifndef WS_TM_UM_H
#define WS_TM_UM_H

#include <stddef.h>
#include <stdint.h>
#include "../core/observe.h"
#include "../device/device.h"
#include "../mem/um.h"
#include "timing.h"

typedef struct tm_um {
    ws_um *um;                  /* the page table (NULL: no managed memory is tracked) */
    uint32_t epoch;             /* launches so far (pages' ready cycles belong to one) */
    double bytes_per_cycle;     /* host link */
    uint64_t lat_cycles;        /* servicing one batch */
    uint64_t page_cycles;       /* the driver's work per faulted page */
    uint64_t remote_cycles;     /* one access to a mapped host page */
    int batch_max;
    /* the batch being collected: faults arriving in [open, close) join it (up to batch_max) */
    uint64_t open, close;
    int n;
    uint64_t link_free;         /* when the link has moved every page queued so far */
    uint64_t remote_free;       /* when the link has carried every remote access so far */
    ws_um_counts at_begin;      /* the table's counts when the launch began */
    ws_tm_um_batch *b;          /* this launch's batches */
    size_t nb, capb;
} tm_um;

/* Set up for device d. */
void tm_um_init(tm_um *u, const ws_device *d);
/* Free what it holds. */
void tm_um_free(tm_um *u);
/* A launch begins: cycles restart at 0, no batch is open. */
void tm_um_begin(tm_um *u);
/* The launch ended: what it faulted and moved into *out. */
void tm_um_end(tm_um *u, ws_tm_um_result *out);
/* Access r issued at cycle t: the cycle from which the memory system may serve it (t, or later when it faults
 * or crosses the link). Call only when u->um tracks something. */
uint64_t tm_um_access(tm_um *u, const ws_rec *r, uint64_t t);

#endif
