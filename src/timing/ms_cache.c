/* ms_cache.c - the memory system's set-associative caches (ms_cache.h). */
#include "ms_cache.h"

/* Multiplicative hash of a line number into [0, n): the high half of the product modulo n, taken without a
 * division (m = ws_ms_fastmod_m(n): Lemire, Kaser and Kurz, "Faster remainder by direct computation", exact for
 * every 32-bit value and n). */
static inline uint32_t ws_ms_hash(uint64_t line, uint32_t n, uint64_t m)
{
    uint64_t h = (line ^ (line >> 29)) * 0x9E3779B97F4A7C15ull;
    uint64_t low = m * (uint32_t)(h >> 32);
    return (uint32_t)(((unsigned __int128)low * n) >> 64);
}

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

/* Bytes of the arrays of a cache of cap_bytes with `ways` ways (each array on a host cache line). */
size_t ws_ms_cache_bytes(size_t cap_bytes, uint32_t ways)
{
    size_t n = cap_bytes / WS_MS_LINE, sets = n / ways + 1;
#define WS_MS_AL(x) (((x) + 63) & ~(size_t)63)
    return n ? WS_MS_AL(n * sizeof(ws_ms_line)) + WS_MS_AL(n * sizeof(uint64_t)) + WS_MS_AL(n) +
               WS_MS_AL(sets * sizeof(uint32_t)) : 0;
}

/* Set up a cache able to hold cap_bytes, configured for bytes (<= cap_bytes), its arrays taken from *slab (zeroed
 * memory of at least ws_ms_cache_bytes, which it moves past). */
void ws_ms_cache_init(ws_ms_cache *c, size_t cap_bytes, size_t bytes, uint32_t ways, uint8_t **slab)
{
    memset(c, 0, sizeof *c);
    c->cap_lines = cap_bytes / WS_MS_LINE;
    c->cap_sets = c->cap_lines / ways + 1;
    if (!c->cap_lines) return;
    uint8_t *p = *slab;
    c->lines = (ws_ms_line *)p;
    p += WS_MS_AL(c->cap_lines * sizeof *c->lines);
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

/* The line holding line number ln, or NULL (a cache of no capacity holds nothing); *base gets its set's first way
 * (for ws_ms_alloc_at). */
ws_ms_line *ws_ms_lookup(ws_ms_cache *c, uint64_t ln, size_t *base)
{
    if (!c->sets) return NULL;
    uint32_t set = ws_ms_hash(ln, c->sets, c->mod_m);
    size_t b = (size_t)set * c->ways;
    *base = b;
    if (c->sgen[set] != c->gen) return NULL;
    const uint64_t *tags = c->tags + b;
    uint32_t w = c->ways;
    if (c->ways == WS_MS_L2_WAYS) {   /* the usual shape: all ways compared at once (a line is in one way at most) */
        uint32_t hit = 0;
        for (uint32_t k = 0; k < WS_MS_L2_WAYS; k++) hit |= (uint32_t)(tags[k] == ln + 1) << k;
        if (hit) w = (uint32_t)__builtin_ctz(hit);
    } else
        for (uint32_t k = 0; k < c->ways; k++) if (tags[k] == ln + 1) { w = k; break; }
    if (w == c->ways) return NULL;
    ws_ms_line *l = &c->lines[b + w];
    if (l->epoch != c->epoch) ws_ms_line_restart(l, c->epoch);   /* as ws_ms_new_launch would have */
    return l;
}

/* Make room for line number ln in the set at base (ws_ms_lookup's, which missed): the first empty way, else the
 * least recently used one (its tag and dirty sectors are returned through ev_tag / ev_dirty); returns the emptied
 * line, or NULL for a cache of no capacity. */
ws_ms_line *ws_ms_alloc_at(ws_ms_cache *c, size_t base, uint64_t ln, uint64_t *ev_tag, uint8_t *ev_dirty)
{
    *ev_tag = 0;
    *ev_dirty = 0;
    if (!c->sets) return NULL;
    size_t set = base / c->ways;
    uint64_t *tags = c->tags + base;
    if (c->sgen[set] != c->gen) {
        memset(tags, 0, c->ways * sizeof *tags);
        c->sgen[set] = c->gen;
    }
    uint32_t v = c->ways;
    /* ways fill in order and empty only all together: the used ones are a prefix, and a free one is found by halves */
    if (!tags[c->ways - 1]) {
        if (c->ways == WS_MS_L2_WAYS) {
            v = 0;
            for (uint32_t step = WS_MS_L2_WAYS / 2; step; step >>= 1) v += tags[v + step - 1] ? step : 0;
        } else
            for (v = 0; tags[v]; v++) {}
    } else {
        const uint8_t *r = c->rank + base;
        for (uint32_t w = 0; w < c->ways; w++) if (r[w] == c->ways - 1) { v = w; break; }
        *ev_tag = tags[v] - 1;
        *ev_dirty = c->lines[base + v].dirty;
    }
    ws_ms_line *l = &c->lines[base + v];
    memset(l, 0, sizeof *l);
    l->epoch = c->epoch;
    tags[v] = ln + 1;
    ws_ms_rank_touch(c, base, v);
    return l;
}
