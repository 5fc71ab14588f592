/* um.c - unified-memory page table (um.h): allocations sorted by address over one array of pages, an LRU list of
 * the pages with a device copy, and the transitions of GPU and CPU accesses, prefetches and advice. */
#include "um.h"

#include <stdlib.h>
#include <string.h>

typedef struct um_range { uint64_t base; size_t size; int64_t first, npages; } um_range;

struct ws_um {
    size_t pb;              /* page bytes */
    unsigned shift;         /* log2(pb) */
    uint64_t capacity;      /* device bytes the pages may use */
    uint64_t dev_used;      /* bytes of device copies */
    um_range *r;            /* sorted by base */
    int nr, capr;
    ws_um_page *p;          /* every allocation's pages (a freed allocation's stay, unused, unless last) */
    int64_t np, capp;
    int32_t lru_head, lru_tail;
    ws_um_counts c;
};

/* An empty table. */
ws_um *ws_um_create(size_t page_bytes)
{
    ws_um *u = calloc(1, sizeof *u);
    if (!u) return NULL;
    if (page_bytes < 4096) page_bytes = 4096;
    while ((page_bytes & (page_bytes - 1)) != 0) page_bytes &= page_bytes - 1;
    u->pb = page_bytes;
    while (((size_t)1 << u->shift) < page_bytes) u->shift++;
    u->capacity = UINT64_MAX;
    u->lru_head = u->lru_tail = -1;
    return u;
}

/* Free the table. */
void ws_um_destroy(ws_um *u)
{
    if (!u) return;
    free(u->r);
    free(u->p);
    free(u);
}

/* Bytes of a page. */
size_t ws_um_page_bytes(const ws_um *u) { return u->pb; }

/* Device bytes the pages may use. */
void ws_um_set_capacity(ws_um *u, uint64_t bytes) { u->capacity = bytes < u->pb ? u->pb : bytes; }

/* Whether any allocation is tracked. */
int ws_um_any(const ws_um *u) { return u && u->nr > 0; }

/* Take page gp out of the LRU list. */
static void lru_unlink(ws_um *u, int32_t gp)
{
    ws_um_page *x = &u->p[gp];
    if (x->prev >= 0) u->p[x->prev].next = x->next; else u->lru_head = x->next;
    if (x->next >= 0) u->p[x->next].prev = x->prev; else u->lru_tail = x->prev;
    x->prev = x->next = -1;
}

/* Put page gp at the head of the LRU list (it must not be in it). */
static void lru_push(ws_um *u, int32_t gp)
{
    ws_um_page *x = &u->p[gp];
    x->prev = -1;
    x->next = u->lru_head;
    if (u->lru_head >= 0) u->p[u->lru_head].prev = gp; else u->lru_tail = gp;
    u->lru_head = gp;
}

/* Page gp was used on the device: most recently used. */
static void lru_touch(ws_um *u, int32_t gp)
{
    if (u->lru_head == gp) return;
    lru_unlink(u, gp);
    lru_push(u, gp);
}

/* Whether a page's state holds a device copy. */
static int has_dev(int loc) { return loc == WS_UM_DEV || loc == WS_UM_BOTH; }

/* Drop the device copy of page gp (to the host): returns the bytes that move (0 for a duplicate). */
static uint64_t drop_dev(ws_um *u, int32_t gp)
{
    ws_um_page *x = &u->p[gp];
    uint64_t moved = x->loc == WS_UM_DEV ? u->pb : 0;
    lru_unlink(u, gp);
    x->loc = WS_UM_HOST;
    u->dev_used -= u->pb;
    return moved;
}

/* Make room for one more device copy, evicting least recently used pages other than keep; returns the bytes
 * moved to the host. */
static uint64_t make_room(ws_um *u, int32_t keep)
{
    uint64_t moved = 0;
    while (u->dev_used + u->pb > u->capacity && u->lru_tail >= 0) {
        int32_t v = u->lru_tail;
        if (v == keep) break;
        moved += drop_dev(u, v);
        u->c.evicted_pages++;
    }
    u->c.dtoh_bytes += moved;
    return moved;
}

/* Give page gp a device copy in state loc (it has none). */
static void add_dev(ws_um *u, int32_t gp, int loc)
{
    u->p[gp].loc = (uint8_t)loc;
    lru_push(u, gp);
    u->dev_used += u->pb;
}

/* Track an allocation. */
int ws_um_add(ws_um *u, uint64_t base, size_t size)
{
    int64_t n = (int64_t)((size + u->pb - 1) >> u->shift);
    if (n < 1) n = 1;
    if (u->np + n > INT32_MAX) return -1;
    if (u->np + n > u->capp) {
        int64_t nc = u->capp ? u->capp : 1024;
        while (nc < u->np + n) nc *= 2;
        ws_um_page *np = realloc(u->p, (size_t)nc * sizeof *np);
        if (!np) return -1;
        u->p = np;
        u->capp = nc;
    }
    if (u->nr == u->capr) {
        int nc = u->capr ? u->capr * 2 : 16;
        um_range *nr = realloc(u->r, (size_t)nc * sizeof *nr);
        if (!nr) return -1;
        u->r = nr;
        u->capr = nc;
    }
    for (int64_t i = 0; i < n; i++) u->p[u->np + i] = (ws_um_page){ WS_UM_NONE, 0, -1, -1, 0, 0 };
    int i = u->nr;
    while (i > 0 && u->r[i - 1].base > base) i--;
    memmove(&u->r[i + 1], &u->r[i], (size_t)(u->nr - i) * sizeof *u->r);
    u->r[i] = (um_range){ base, size, u->np, n };
    u->nr++;
    u->np += n;
    return 0;
}

/* Index of the allocation holding addr, or -1. */
static int range_of(const ws_um *u, uint64_t addr)
{
    int lo = 0, hi = u->nr - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const um_range *r = &u->r[mid];
        if (addr < r->base) hi = mid - 1;
        else if (addr - r->base >= (uint64_t)r->npages << u->shift) lo = mid + 1;
        else return mid;
    }
    return -1;
}

/* Forget an allocation. */
void ws_um_remove(ws_um *u, uint64_t base)
{
    int i = range_of(u, base);
    if (i < 0 || u->r[i].base != base) return;
    um_range r = u->r[i];
    for (int64_t k = 0; k < r.npages; k++)
        if (has_dev(u->p[r.first + k].loc)) drop_dev(u, (int32_t)(r.first + k));
    if (r.first + r.npages == u->np) u->np = r.first;   /* the last pages: reuse them */
    memmove(&u->r[i], &u->r[i + 1], (size_t)(u->nr - i - 1) * sizeof *u->r);
    u->nr--;
}

/* Page number of addr, or -1. */
int64_t ws_um_page_of(const ws_um *u, uint64_t addr)
{
    int i = range_of(u, addr);
    return i < 0 ? -1 : u->r[i].first + (int64_t)((addr - u->r[i].base) >> u->shift);
}

/* Page gp. */
ws_um_page *ws_um_page_get(ws_um *u, int64_t gp) { return &u->p[gp]; }

/* Allocation i. */
int ws_um_range(const ws_um *u, int i, uint64_t *base, size_t *size, int64_t *first, int64_t *npages)
{
    if (i >= 0 && i < u->nr) {
        if (base) *base = u->r[i].base;
        if (size) *size = u->r[i].size;
        if (first) *first = u->r[i].first;
        if (npages) *npages = u->r[i].npages;
    }
    return u->nr;
}

/* A GPU access to page gp. */
int ws_um_gpu_access(ws_um *u, int64_t gp, int write, uint64_t *htod, uint64_t *dtoh)
{
    ws_um_page *x = &u->p[gp];
    int32_t g = (int32_t)gp;
    *htod = *dtoh = 0;
    switch (x->loc) {
    case WS_UM_DEV:
        lru_touch(u, g);
        return WS_UM_RESIDENT;
    case WS_UM_BOTH:
        lru_touch(u, g);
        if (!write) return WS_UM_RESIDENT;
        x->loc = WS_UM_DEV;   /* a write invalidates the host's duplicate */
        u->c.gpu_faults++;
        return WS_UM_FAULT;
    case WS_UM_HOST:
        if (x->adv & (WS_UM_ADV_ACCESSED_BY | WS_UM_MAPPED)) return WS_UM_REMOTE;
        u->c.gpu_faults++;
        if (x->adv & WS_UM_ADV_PREF_HOST) {   /* the preferred location is the host: map the page, keep it there */
            x->adv |= WS_UM_MAPPED;
            return WS_UM_FAULT;
        }
        *dtoh = make_room(u, -1);
        add_dev(u, g, (x->adv & WS_UM_ADV_READ_MOSTLY) && !write ? WS_UM_BOTH : WS_UM_DEV);
        *htod = u->pb;
        u->c.htod_bytes += u->pb;
        return WS_UM_FAULT;
    default:   /* first touch: populated in device memory */
        u->c.gpu_faults++;
        *dtoh = make_room(u, -1);
        add_dev(u, g, WS_UM_DEV);
        return WS_UM_FAULT;
    }
}

/* A trapped CPU access to page gp. */
uint64_t ws_um_cpu_access(ws_um *u, int64_t gp, int write)
{
    ws_um_page *x = &u->p[gp];
    int32_t g = (int32_t)gp;
    uint64_t moved = 0;
    switch (x->loc) {
    case WS_UM_NONE:
        x->loc = WS_UM_HOST;   /* first touch: populated in host memory */
        break;
    case WS_UM_DEV:
        if (!write && (x->adv & WS_UM_ADV_READ_MOSTLY)) {
            x->loc = WS_UM_BOTH;   /* a read of read-mostly data duplicates it */
            moved = u->pb;
        } else moved = drop_dev(u, g);
        break;
    case WS_UM_BOTH:
        if (write) drop_dev(u, g);   /* a write invalidates the device's duplicate */
        else return 0;
        break;
    default:
        return 0;   /* already valid on the host */
    }
    u->c.cpu_faults++;
    u->c.dtoh_bytes += moved;
    return moved;
}

/* Protection the host copy of page gp needs. */
int ws_um_host_prot(const ws_um *u, int64_t gp)
{
    switch (u->p[gp].loc) {
    case WS_UM_HOST: return 3;
    case WS_UM_BOTH: return 1;
    default: return 0;
    }
}

/* Pages [*a, *b) of the tracked memory overlapping [addr, addr+len) in allocation i. */
static void pages_in(const ws_um *u, int i, uint64_t addr, size_t len, int64_t *a, int64_t *b)
{
    const um_range *r = &u->r[i];
    uint64_t lo = addr > r->base ? addr - r->base : 0;
    uint64_t hi = addr + len - r->base;
    uint64_t lim = (uint64_t)r->npages << u->shift;
    if (hi > lim) hi = lim;
    *a = r->first + (int64_t)(lo >> u->shift);
    *b = r->first + (int64_t)((hi + u->pb - 1) >> u->shift);
}

/* Call fn on every page of [addr, addr+len) (inside tracked allocations). */
#define FOR_PAGES(u, addr, len, gp)                                                                 \
    for (int ri_ = 0; ri_ < (u)->nr; ri_++)                                                         \
        if ((u)->r[ri_].base < (addr) + (len) &&                                                    \
            (addr) < (u)->r[ri_].base + ((uint64_t)(u)->r[ri_].npages << (u)->shift))               \
            for (int64_t a_ = 0, b_ = 0, gp = (pages_in((u), ri_, (addr), (len), &a_, &b_), a_); gp < b_; gp++)

/* A prefetch. */
uint64_t ws_um_prefetch(ws_um *u, uint64_t addr, size_t len, int to_device, uint64_t *evicted_bytes)
{
    uint64_t moved = 0, ev = 0;
    if (!len) { *evicted_bytes = 0; return 0; }
    FOR_PAGES(u, addr, len, gp) {
        ws_um_page *x = &u->p[gp];
        if (to_device) {
            if (has_dev(x->loc)) { lru_touch(u, (int32_t)gp); continue; }
            ev += make_room(u, -1);
            if (x->loc == WS_UM_HOST) moved += u->pb;
            add_dev(u, (int32_t)gp, x->loc == WS_UM_HOST && (x->adv & WS_UM_ADV_READ_MOSTLY) ? WS_UM_BOTH : WS_UM_DEV);
        } else {
            if (x->loc == WS_UM_DEV) moved += drop_dev(u, (int32_t)gp);
            else if (x->loc == WS_UM_NONE) x->loc = WS_UM_HOST;
        }
    }
    if (to_device) u->c.prefetch_htod_bytes += moved;
    else u->c.prefetch_dtoh_bytes += moved;
    *evicted_bytes = ev;
    return moved;
}

/* Advice on a range. */
void ws_um_advise(ws_um *u, uint64_t addr, size_t len, int bit, int set)
{
    if (!len) return;
    FOR_PAGES(u, addr, len, gp) {
        ws_um_page *x = &u->p[gp];
        if (set) x->adv |= (uint8_t)bit;
        else x->adv &= (uint8_t)~bit;
        if (bit == WS_UM_ADV_PREF_HOST && !set) x->adv &= (uint8_t)~WS_UM_MAPPED;
        /* unsetting read-mostly collapses the duplicates onto the device copy */
        if (bit == WS_UM_ADV_READ_MOSTLY && !set && x->loc == WS_UM_BOTH) x->loc = WS_UM_DEV;
    }
}

/* Whether every page of a range has an advice bit. */
int ws_um_range_has(const ws_um *u, uint64_t addr, size_t len, int bit)
{
    int any = 0;
    if (!len) return 0;
    FOR_PAGES(u, addr, len, gp) {
        if (!(u->p[gp].adv & bit)) return 0;
        any = 1;
    }
    return any;
}

/* The counts. */
const ws_um_counts *ws_um_counts_get(const ws_um *u) { return &u->c; }

/* Bytes over the link without migration. */
void ws_um_add_remote(ws_um *u, uint64_t bytes) { u->c.remote_bytes += bytes; }
