/* tm_um.c - GPU page faults on managed memory in the timing model (tm_um.h). */
#include "tm_um.h"

#include <stdlib.h>
#include <string.h>
#include "../mem/hostwin.h"

/* Set up for device d. */
void tm_um_init(tm_um *u, const ws_device *d)
{
    memset(u, 0, sizeof *u);
    double mhz = d->sm_clock_mhz > 0 ? d->sm_clock_mhz : 1000;
    double gbs = d->host_link_gbs_pinned > 0 ? d->host_link_gbs_pinned : 16;
    u->bytes_per_cycle = gbs * 1e3 / mhz;   /* GB/s over MHz: bytes per cycle */
    u->lat_cycles = (uint64_t)(d->um_fault_latency_us * mhz + 0.5);
    u->remote_cycles = (uint64_t)(d->um_remote_latency_us * mhz + 0.5);
    u->page_cycles = (uint64_t)(d->um_fault_page_us * mhz + 0.5);
    u->batch_max = d->um_fault_batch > 0 ? d->um_fault_batch : 1;
}

/* Free what it holds. */
void tm_um_free(tm_um *u)
{
    free(u->b);
    u->b = NULL;
    u->nb = u->capb = 0;
}

/* A launch begins. */
void tm_um_begin(tm_um *u)
{
    u->epoch++;
    u->open = u->close = 0;
    u->n = 0;
    u->link_free = 0;
    u->remote_free = 0;
    u->nb = 0;
    if (u->um) u->at_begin = *ws_um_counts_get(u->um);
}

/* The launch ended. */
void tm_um_end(tm_um *u, ws_tm_um_result *out)
{
    memset(out, 0, sizeof *out);
    if (!u->um) return;
    const ws_um_counts *c = ws_um_counts_get(u->um);
    out->gpu_faults = c->gpu_faults - u->at_begin.gpu_faults;
    out->htod_bytes = c->htod_bytes - u->at_begin.htod_bytes;
    out->dtoh_bytes = c->dtoh_bytes - u->at_begin.dtoh_bytes;
    out->evicted_pages = c->evicted_pages - u->at_begin.evicted_pages;
    out->remote_bytes = c->remote_bytes - u->at_begin.remote_bytes;
    out->batches = u->nb;
}

/* Cycles the link needs for bytes. */
static uint64_t link_cycles(const tm_um *u, uint64_t bytes)
{
    return bytes ? (uint64_t)((double)bytes / u->bytes_per_cycle) + 1 : 0;
}

/* A fault at cycle t moving `bytes` over the link: the cycle its page is in. */
static uint64_t fault(tm_um *u, uint64_t t, uint64_t htod, uint64_t dtoh)
{
    if (!(u->n > 0 && t < u->close && u->n < u->batch_max)) {
        /* a new batch: the driver takes it once the previous one's pages are in */
        uint64_t prev_end = u->close > u->link_free ? u->close : u->link_free;
        u->open = t > prev_end ? t : prev_end;
        u->close = u->open + u->lat_cycles;
        u->n = 0;
        if (u->nb == u->capb) {
            size_t nc = u->capb ? u->capb * 2 : 64;
            ws_tm_um_batch *nb = realloc(u->b, nc * sizeof *nb);
            if (nb) { u->b = nb; u->capb = nc; }
        }
        if (u->nb < u->capb) u->b[u->nb++] = (ws_tm_um_batch){ u->open, u->close, 0, 0, 0 };
    }
    u->n++;
    uint64_t start = u->link_free > u->close ? u->link_free : u->close;
    uint64_t done = u->link_free = start + u->page_cycles + link_cycles(u, htod + dtoh);
    if (u->nb) {
        ws_tm_um_batch *b = &u->b[u->nb - 1];
        b->faults++;
        b->htod_bytes += htod;
        b->dtoh_bytes += dtoh;
        if (done > b->t1) b->t1 = done;
    }
    return done;
}

/* Access r at cycle t. */
uint64_t tm_um_access(tm_um *u, const ws_rec *r, uint64_t t)
{
    uint64_t ready = t, remote = 0;
    int64_t last = -1;
    int last_remote = 0;
    for (uint32_t m = r->exec; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = r->addr[l];
        if (r->space[l] != WS_S_GLOBAL || !ws_hostwin_in(WS_HOSTWIN_MANAGED, a)) continue;
        int64_t gp = ws_um_page_of(u->um, a);
        if (gp < 0) continue;
        if (gp == last) {
            if (last_remote) remote += r->size;
            continue;
        }
        last = gp;
        ws_um_page *x = ws_um_page_get(u->um, gp);
        if (x->epoch == u->epoch && x->ready > ready) ready = x->ready;   /* its migration is under way */
        uint64_t htod = 0, dtoh = 0;
        int need = ws_um_gpu_access(u->um, gp, r->is_write, &htod, &dtoh);
        last_remote = need == WS_UM_REMOTE;
        if (last_remote) remote += r->size;
        else if (need == WS_UM_FAULT) {
            uint64_t in = fault(u, t, htod, dtoh);
            x->epoch = u->epoch;
            x->ready = in;
            if (in > ready) ready = in;
        }
    }
    if (remote) {
        ws_um_add_remote(u->um, remote);
        /* the link carries one access after another (its bandwidth is shared), each a round trip long */
        uint64_t start = u->remote_free > t ? u->remote_free : t;
        u->remote_free = start + link_cycles(u, remote);
        uint64_t rt = u->remote_free + u->remote_cycles;
        if (rt > ready) ready = rt;
    }
    return ready;
}
