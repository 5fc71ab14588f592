/* hostwin.c - fixed-address host memory windows (hostwin.h): a sorted table of the mappings of each window. */
#include "hostwin.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct hw_map { uint64_t addr; size_t span; } hw_map;

static pthread_mutex_t hw_lock = PTHREAD_MUTEX_INITIALIZER;
static hw_map *maps[2];     /* per kind, sorted by address */
static int nmaps[2], capmaps[2];

/* Base address of the window of kind. */
static uint64_t window_base(int kind) { return kind == WS_HOSTWIN_MANAGED ? WS_MANAGED_WIN : WS_PINNED_WIN; }

/* Insert mapping m at index i of kind's table; -1 when out of memory. */
static int insert_map(int kind, int i, hw_map m)
{
    if (nmaps[kind] == capmaps[kind]) {
        int nc = capmaps[kind] ? capmaps[kind] * 2 : 16;
        hw_map *n = realloc(maps[kind], (size_t)nc * sizeof *n);
        if (!n) return -1;
        maps[kind] = n;
        capmaps[kind] = nc;
    }
    memmove(&maps[kind][i + 1], &maps[kind][i], (size_t)(nmaps[kind] - i) * sizeof *maps[kind]);
    maps[kind][i] = m;
    nmaps[kind]++;
    return 0;
}

/* Zero-filled memory at the first gap of kind's window that holds size bytes. */
void *ws_hostwin_alloc(int kind, size_t size)
{
    if (kind != WS_HOSTWIN_MANAGED && kind != WS_HOSTWIN_PINNED) return NULL;
    if (size == 0) size = 1;
    if (size > WS_HOSTWIN_SPAN) return NULL;
    size_t span = (size + WS_HOSTWIN_ALIGN - 1) & ~(WS_HOSTWIN_ALIGN - 1);
    void *out = NULL;
    pthread_mutex_lock(&hw_lock);
    uint64_t base = window_base(kind), at = base;
    int i = 0;
    /* first fit; a gap whose address is taken by a foreign mapping is skipped */
    for (;; i++) {
        uint64_t end = i < nmaps[kind] ? maps[kind][i].addr : base + WS_HOSTWIN_SPAN;
        while (end - at >= span) {
            void *p = mmap((void *)(uintptr_t)at, span, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
            if (p != MAP_FAILED && (uint64_t)(uintptr_t)p == at) { out = p; break; }
            if (p != MAP_FAILED) munmap(p, span);   /* an old kernel ignored the fixed address */
            at += span;
        }
        if (out || i >= nmaps[kind]) break;
        at = maps[kind][i].addr + maps[kind][i].span;
    }
    if (out && insert_map(kind, i, (hw_map){ (uint64_t)(uintptr_t)out, span })) {
        munmap(out, span);
        out = NULL;
    }
    pthread_mutex_unlock(&hw_lock);
    return out;
}

/* Index of the mapping starting at p in kind's table, or -1. */
static int find_map(int kind, uint64_t p)
{
    int lo = 0, hi = nmaps[kind] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (maps[kind][mid].addr == p) return mid;
        if (maps[kind][mid].addr < p) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* Release an allocation. */
int ws_hostwin_free(void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    int kind = ws_hostwin_in(WS_HOSTWIN_MANAGED, a) ? WS_HOSTWIN_MANAGED : WS_HOSTWIN_PINNED;
    pthread_mutex_lock(&hw_lock);
    int i = find_map(kind, a);
    if (i >= 0) {
        munmap(p, maps[kind][i].span);
        memmove(&maps[kind][i], &maps[kind][i + 1], (size_t)(nmaps[kind] - i - 1) * sizeof *maps[kind]);
        nmaps[kind]--;
    }
    pthread_mutex_unlock(&hw_lock);
    return i >= 0 ? 0 : -1;
}

/* Span of the allocation at p. */
size_t ws_hostwin_span(const void *p)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    int kind = ws_hostwin_in(WS_HOSTWIN_MANAGED, a) ? WS_HOSTWIN_MANAGED : WS_HOSTWIN_PINNED;
    pthread_mutex_lock(&hw_lock);
    int i = find_map(kind, a);
    size_t s = i >= 0 ? maps[kind][i].span : 0;
    pthread_mutex_unlock(&hw_lock);
    return s;
}
