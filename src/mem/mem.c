/* mem.c - device address space: a reserved global range backed by a private store, a sorted allocation table. */
#include "mem.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct ws_mem {
    uint8_t *store;       /* backing bytes for [WS_GLOBAL_BASE, WS_GLOBAL_BASE + capacity) */
    size_t capacity;      /* bytes the store can hold */
    uint64_t top;         /* offset past the highest allocation */
    size_t used;          /* bytes currently allocated */
    ws_alloc *a;          /* device allocations sorted by address */
    int n, cap;
    ws_alloc *h;          /* host-visible ranges (unsorted, few) */
    int nh, caph;
    void *resv[3];        /* PROT_NONE reservations of the three ranges */
    size_t guard;         /* bytes left free after every allocation (a guard zone, under --check) */
    uint64_t base;        /* first address of the global range */
    ws_mem *peer[WS_MEM_MAX_DEVICES];            /* the other devices' address spaces */
    unsigned char peer_ok[WS_MEM_MAX_DEVICES];   /* peer access to their global memory is enabled */
};

/* Reserve [addr, addr+len) with no access; returns the mapping or NULL. */
static void *reserve(uint64_t addr, size_t len)
{
#if defined(__SANITIZE_THREAD__)
    /* ThreadSanitizer keeps its shadow where the device ranges lie and aborts on a fixed mapping there; the
     * reservations are best effort (device pointers never alias the store), so a TSan build goes without */
    (void)addr; (void)len;
    return NULL;
#endif
    void *p = mmap((void *)(uintptr_t)addr, len, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED) return NULL;
    return p;
}

/* Create the address space. */
ws_mem *ws_mem_create(size_t capacity, int index)
{
    if (index < 0 || index >= WS_MEM_MAX_DEVICES) return NULL;
    ws_mem *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->base = WS_GLOBAL_BASE + (uint64_t)index * WS_GLOBAL_SPAN;
    if (capacity > WS_GLOBAL_SPAN) capacity = WS_GLOBAL_SPAN;
    for (;;) {
        void *p = mmap(NULL, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) { m->store = p; break; }
        capacity /= 2;
        if (capacity < (64u << 20)) { free(m); return NULL; }
    }
    m->capacity = capacity;
    /* The reservations are best effort: if a range is taken, device pointers still never alias the store. */
    m->resv[0] = reserve(m->base, WS_GLOBAL_SPAN);
    m->resv[1] = reserve(WS_SHARED_WIN, WS_WIN_SPAN);
    m->resv[2] = reserve(WS_LOCAL_WIN, WS_WIN_SPAN);
    return m;
}

/* First address of the global range. */
uint64_t ws_mem_base(const ws_mem *m) { return m->base; }

/* Whether addr lies in the global range. */
int ws_mem_in_range(const ws_mem *m, uint64_t addr) { return addr - m->base < WS_GLOBAL_SPAN; }

/* Set (or forget) peer `index`. */
void ws_mem_set_peer(ws_mem *m, int index, ws_mem *peer, int enabled)
{
    if (index < 0 || index >= WS_MEM_MAX_DEVICES) return;
    m->peer[index] = peer;
    m->peer_ok[index] = peer && enabled;
}

/* Release everything. */
void ws_mem_destroy(ws_mem *m)
{
    if (!m) return;
    munmap(m->store, m->capacity);
    if (m->resv[0]) munmap(m->resv[0], WS_GLOBAL_SPAN);
    if (m->resv[1]) munmap(m->resv[1], WS_WIN_SPAN);
    if (m->resv[2]) munmap(m->resv[2], WS_WIN_SPAN);
    free(m->a);
    free(m->h);
    free(m);
}

/* Insert allocation r at index i of the sorted table. */
static int insert_at(ws_mem *m, int i, ws_alloc r)
{
    if (m->n == m->cap) {
        int nc = m->cap ? m->cap * 2 : 64;
        ws_alloc *na = realloc(m->a, (size_t)nc * sizeof *na);
        if (!na) return -1;
        m->a = na;
        m->cap = nc;
    }
    memmove(&m->a[i + 1], &m->a[i], (size_t)(m->n - i) * sizeof *m->a);
    m->a[i] = r;
    m->n++;
    return 0;
}

/* Leave guard bytes (rounded up to 256) free after every later allocation. */
void ws_mem_set_guard(ws_mem *m, size_t guard)
{
    m->guard = (guard + 255) & ~(size_t)255;
}

/* Allocate size bytes aligned to 256 (first fit in the gaps, else at the top), the guard zone after them. */
int ws_mem_alloc(ws_mem *m, size_t size, int kind, uint64_t *addr)
{
    size_t span = ((size + 255) & ~(size_t)255) + m->guard;
    if (span == 0) span = 256;
    uint64_t prev_end = 0;
    int i;
    for (i = 0; i < m->n; i++) {
        uint64_t off = m->a[i].addr - m->base;
        if (off - prev_end >= span) break;
        prev_end = off + m->a[i].span;
    }
    if (prev_end + span > m->capacity) return -1;
    ws_alloc r = { m->base + prev_end, size, span, kind, NULL };
    if (insert_at(m, i, r)) return -1;
    if (prev_end + span > m->top) m->top = prev_end + span;
    m->used += span;
    *addr = r.addr;
    return 0;
}

/* Index of the allocation containing addr in the sorted table, or -1. */
static int find_index(const ws_mem *m, uint64_t addr)
{
    int lo = 0, hi = m->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        const ws_alloc *r = &m->a[mid];
        if (addr < r->addr) hi = mid - 1;
        else if (addr >= r->addr + r->span) lo = mid + 1;
        else return mid;
    }
    return -1;
}

/* Free the allocation starting exactly at addr. */
int ws_mem_free(ws_mem *m, uint64_t addr)
{
    int i = find_index(m, addr);
    if (i < 0 || m->a[i].addr != addr || m->a[i].kind != WS_ALLOC_DEVICE) return -1;
    m->used -= m->a[i].span;
    memmove(&m->a[i], &m->a[i + 1], (size_t)(m->n - i - 1) * sizeof *m->a);
    m->n--;
    m->top = m->n ? m->a[m->n - 1].addr - m->base + m->a[m->n - 1].span : 0;
    return 0;
}

/* Record a host-visible range. */
void ws_mem_add_host(ws_mem *m, void *p, size_t size, int kind)
{
    if (m->nh == m->caph) {
        int nc = m->caph ? m->caph * 2 : 16;
        ws_alloc *nh = realloc(m->h, (size_t)nc * sizeof *nh);
        if (!nh) return;
        m->h = nh;
        m->caph = nc;
    }
    m->h[m->nh++] = (ws_alloc){ (uint64_t)(uintptr_t)p, size, size, kind, p };
}

/* Forget a host-visible range. */
int ws_mem_remove_host(ws_mem *m, void *p)
{
    for (int i = 0; i < m->nh; i++)
        if (m->h[i].host == p) {
            m->h[i] = m->h[--m->nh];
            return 0;
        }
    return -1;
}

/* Allocation containing addr, or NULL. */
const ws_alloc *ws_mem_find(const ws_mem *m, uint64_t addr)
{
    int i = find_index(m, addr);
    if (i >= 0) return &m->a[i];
    for (int j = 0; j < m->nh; j++)
        if (addr >= m->h[j].addr && addr < m->h[j].addr + m->h[j].size) return &m->h[j];
    return NULL;
}

/* Device allocation nearest to addr (by distance to its requested bytes), or NULL. */
const ws_alloc *ws_mem_nearest(const ws_mem *m, uint64_t addr)
{
    if (!m->n) return NULL;
    int lo = 0, hi = m->n - 1;   /* last allocation starting at or below addr */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (m->a[mid].addr <= addr) lo = mid;
        else hi = mid - 1;
    }
    const ws_alloc *below = m->a[lo].addr <= addr ? &m->a[lo] : NULL;
    const ws_alloc *above = below ? (lo + 1 < m->n ? &m->a[lo + 1] : NULL) : &m->a[0];
    if (!below) return above;
    if (!above || addr < below->addr + below->size) return below;
    return addr - (below->addr + below->size) < above->addr - addr ? below : above;
}

/* Host pointer for a range in m's own host-visible ranges, or NULL. */
static void *view_host(const ws_mem *m, uint64_t addr, size_t len)
{
    for (int j = 0; j < m->nh; j++)
        if (addr >= m->h[j].addr && addr + len <= m->h[j].addr + m->h[j].size) return (void *)(uintptr_t)addr;
    return NULL;
}

/* Host pointer for a range outside the arena: host-visible memory (any device's), or a peer's global memory when
 * peer access to it is enabled. */
void *ws_mem_view_slow(ws_mem *m, uint64_t addr, size_t len)
{
    void *p = view_host(m, addr, len);
    if (p) return p;
    for (int i = 0; i < WS_MEM_MAX_DEVICES; i++) {
        ws_mem *q = m->peer[i];
        if (!q) continue;
        if (ws_mem_in_range(q, addr)) {
            if (!m->peer_ok[i]) return NULL;
            int k = find_index(q, addr);
            if (k < 0 || addr + len > q->a[k].addr + q->a[k].span) return NULL;
            return q->store + (addr - q->base);
        }
        if ((p = view_host(q, addr, len))) return p;
    }
    return NULL;
}

/* Host pointer for [addr, addr+len) inside one allocation. */
void *ws_mem_view(ws_mem *m, uint64_t addr, size_t len)
{
    int i = find_index(m, addr);
    if (i >= 0) {
        const ws_alloc *r = &m->a[i];
        if (addr + len > r->addr + r->span) return NULL;
        return m->store + (addr - m->base);
    }
    return ws_mem_view_slow(m, addr, len);
}

/* Backing store base. */
uint8_t *ws_mem_store(const ws_mem *m) { return m->store; }

/* Offset past the highest allocation. */
uint64_t ws_mem_limit(const ws_mem *m) { return m->top; }

/* Free and total bytes. */
void ws_mem_info(const ws_mem *m, size_t *free_bytes, size_t *total)
{
    if (total) *total = m->capacity;
    if (free_bytes) *free_bytes = m->capacity - m->used;
}
