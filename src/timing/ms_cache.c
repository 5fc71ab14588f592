/* ms_cache.c - the memory system's set-associative caches (ms_cache.h). */
#include "ms_cache.h"

/* The multiplier of ws_ms_hash for n (>= 1) sets. */
static inline uint64_t ws_ms_fastmod_m(uint32_t n) { return UINT64_C(0xFFFFFFFFFFFFFFFF) / n + 1; }

/* Give a cache the geometry of bytes of capacity (at most what it was allocated for) and empty it: every set's
 * ranks start as the permutation 0..ways-1. */
void ws_ms_cache_shape(ws_ms_cache *c, size_t bytes, uint32_t ways)
{
    size_t n = bytes / WS_MS_LINE;
    if (n > c->cap_lines) n = c->cap_lines;
    c->ways = ways;
    c->sets = (uint32_t)(n / ways);
    if (n && !c->sets) { c->sets = 1; c->ways = (uint32_t)n; }
    c->mod_m = c->sets ? ws_ms_fastmod_m(c->sets) : 0;
    for (uint32_t w = 0; w < c->ways && c->sets; w++) c->rank[w] = (uint8_t)w;
    for (size_t i = 1; i < c->sets; i++) memcpy(c->rank + i * c->ways, c->rank, c->ways);
    memset(c->sgen, 0, c->cap_sets * sizeof *c->sgen);
    c->gen = 1;
}

/* Bytes of the arrays of a cache of cap_bytes with `ways` ways and lines of lsize bytes (each array on a host cache
 * line). */
size_t ws_ms_cache_bytes(size_t cap_bytes, uint32_t ways, size_t lsize)
{
    size_t n = cap_bytes / WS_MS_LINE, sets = n / ways + 1;
#define WS_MS_AL(x) (((x) + 63) & ~(size_t)63)
    return n ? WS_MS_AL(n * lsize) + WS_MS_AL(n * sizeof(uint64_t)) + WS_MS_AL(n) +
               WS_MS_AL(sets * sizeof(uint32_t)) : 0;
}

/* Set up a cache able to hold cap_bytes, configured for bytes (<= cap_bytes), with lines of lsize bytes, its arrays
 * taken from *slab (zeroed memory of at least ws_ms_cache_bytes, which it moves past). */
void ws_ms_cache_init(ws_ms_cache *c, size_t cap_bytes, size_t bytes, uint32_t ways, size_t lsize, uint8_t **slab)
{
    memset(c, 0, sizeof *c);
    c->cap_lines = cap_bytes / WS_MS_LINE;
    c->cap_sets = c->cap_lines / ways + 1;
    if (!c->cap_lines) return;
    uint8_t *p = *slab;
    c->lines = p;
    c->lsize = (uint32_t)lsize;
    p += WS_MS_AL(c->cap_lines * lsize);
    c->tags = (uint64_t *)p;
    p += WS_MS_AL(c->cap_lines * sizeof *c->tags);
    c->rank = p;
    p += WS_MS_AL(c->cap_lines);
    c->sgen = (uint32_t *)p;
    p += WS_MS_AL(c->cap_sets * sizeof *c->sgen);
#undef WS_MS_AL
    *slab = p;
    ws_ms_cache_shape(c, bytes, ways);
}

/* Drop every line of a cache: a new generation (an empty way's state and rank are never read: ws_ms_alloc resets
 * them); after 2^32 - 1 generations every set is cleared for real. */
void ws_ms_cache_clear(ws_ms_cache *c)
{
    if (!c->sgen) return;
    if (++c->gen == 0) {
        memset(c->sgen, 0, c->cap_sets * sizeof *c->sgen);
        c->gen = 1;
    }
}

