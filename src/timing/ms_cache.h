/* ms_cache.h - the memory system's set-associative caches (L1 per SM, L2): tags, LRU ranks and sector state of
 * 128-byte lines of four 32-byte sectors, looked up by a division-free hash of the line number (ms_cache.c). */
#ifndef WS_MS_CACHE_H
#define WS_MS_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WS_MS_LINE 128u            /* cache line bytes */
#define WS_MS_SECTOR 32u           /* sector bytes */
#define WS_MS_L1_WAYS 16u          /* L1 associativity (sets = capacity / ways / line) */
#define WS_MS_L2_WAYS 16u

typedef struct ws_ms_lstate {  /* a line's sectors beside its tag and LRU rank (ws_ms_cache keeps those apart) */
    uint8_t valid, dirty;
    uint8_t pf;          /* L2: sectors fetched only as the other half of a 64-byte DRAM pair, not yet asked for */
    uint8_t spend;       /* L1: sectors allocated by a store whose write-through is not yet acknowledged */
    uint32_t epoch;      /* L2: the cache's epoch its ready cycles belong to (ws_ms_new_launch; the L1s are emptied at
                          * every launch, so their lines never outlive one) */
} ws_ms_lstate;

typedef struct ws_ms_line {  /* an L1 line: its state and its sectors' ready cycles (the L2 keeps only the state: its
                              * ready cycles are the time stage's, ms->l2ready) */
    ws_ms_lstate s;
    uint64_t ready[4];   /* cycle each sector's data is there (fills in flight count as present) */
} ws_ms_line;

typedef struct ws_ms_cache {
    /* per way, set after set: tags (line number + 1; 0 = empty) and LRU ranks in arrays of their own so that a
     * lookup reads one or two host cache lines per set. The ranks of a set are a permutation of 0..ways-1 (0: used
     * last), so the least recently used way of a full set is the one of rank ways-1: exact LRU in a byte per way. A
     * set whose generation is not the cache's is empty (a flush only moves the generation on). */
    uint64_t *tags;
    uint8_t *rank;
    uint32_t *sgen;      /* per set: the generation its tags belong to */
    uint32_t gen;        /* the current generation (>= 1; calloc'd sets, at 0, are empty) */
    uint32_t epoch;      /* L2: a line of another epoch has its ready cycles at 0 (the clock restarted) */
    uint8_t *lines;      /* per way, set after set: a ws_ms_lstate at the start of lsize bytes (L1: a ws_ms_line) */
    uint32_t lsize;
    uint32_t sets, ways;
    uint64_t mod_m;      /* ws_ms_hash's multiplier for sets */
    size_t cap_lines;    /* lines allocated (the largest configuration) */
    size_t cap_sets;     /* entries of sgen */
} ws_ms_cache;

/* The state of slot i (way i % ways of set i / ways) of cache c. */
static inline ws_ms_lstate *ws_ms_state(const ws_ms_cache *c, size_t i)
{
    return (ws_ms_lstate *)(void *)(c->lines + i * c->lsize);
}

/* Make way w of the set at base the most recently used. */
static inline void ws_ms_rank_touch(ws_ms_cache *c, size_t base, uint32_t w)
{
    uint8_t *r = c->rank + base;
    uint8_t old = r[w];
    if (c->ways == WS_MS_L2_WAYS)   /* the usual shape, a fixed count: one 16-byte compare-and-add */
        for (uint32_t i = 0; i < WS_MS_L2_WAYS; i++) r[i] = (uint8_t)(r[i] + (r[i] < old));
    else
        for (uint32_t i = 0; i < c->ways; i++) r[i] = (uint8_t)(r[i] + (r[i] < old));
    r[w] = 0;
}

/* Multiplicative hash of a line number into [0, n): the high half of the product modulo n, taken without a
 * division (m = ws_ms_fastmod_m(n): Lemire, Kaser and Kurz, "Faster remainder by direct computation", exact for
 * every 32-bit value and n). */
static inline uint32_t ws_ms_hash(uint64_t line, uint32_t n, uint64_t m)
{
    uint64_t h = (line ^ (line >> 29)) * 0x9E3779B97F4A7C15ull;
    uint64_t low = m * (uint32_t)(h >> 32);
    return (uint32_t)(((unsigned __int128)low * n) >> 64);
}

/* The way of the set at *base (its first way's slot, set here) that holds line number ln, or -1 (also for a cache
 * of no capacity). A line of another epoch is left as it is (the caller sees its epoch differ from the cache's). */
static inline int ws_ms_find(ws_ms_cache *c, uint64_t ln, size_t *base)
{
    *base = 0;
    if (!c->sets) return -1;
    uint32_t set = ws_ms_hash(ln, c->sets, c->mod_m);
    size_t b = (size_t)set * c->ways;
    *base = b;
    if (c->sgen[set] != c->gen) return -1;
    const uint64_t *tags = c->tags + b;
    if (c->ways == WS_MS_L2_WAYS) {   /* the usual shape: all ways compared at once (a line is in one way at most) */
        uint32_t hit = 0;
        for (uint32_t k = 0; k < WS_MS_L2_WAYS; k++) hit |= (uint32_t)(tags[k] == ln + 1) << k;
        return hit ? __builtin_ctz(hit) : -1;
    }
    for (uint32_t k = 0; k < c->ways; k++) if (tags[k] == ln + 1) return (int)k;
    return -1;
}

/* Make room for line number ln in the set at base (ws_ms_find's, which missed): the first empty way, else the least
 * recently used one (its tag and dirty sectors are returned through ev_tag / ev_dirty); returns the way, its state
 * cleared and of the current epoch, made the most recently used, or -1 for a cache of no capacity. Ready cycles,
 * where the line has them, are the caller's. */
static inline int ws_ms_alloc(ws_ms_cache *c, size_t base, uint64_t ln, uint64_t *ev_tag, uint8_t *ev_dirty)
{
    *ev_tag = 0;
    *ev_dirty = 0;
    if (!c->sets) return -1;
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
        *ev_dirty = ws_ms_state(c, base + v)->dirty;
    }
    ws_ms_lstate *l = ws_ms_state(c, base + v);
    l->valid = l->dirty = l->pf = l->spend = 0;
    l->epoch = c->epoch;
    tags[v] = ln + 1;
    ws_ms_rank_touch(c, base, v);
    return (int)v;
}

/* An L1 (a cache of ws_ms_line): the line holding line number ln, or NULL. *base and *way: as ws_ms_find gives
 * them. */
static inline ws_ms_line *ws_ms_l1_lookup(ws_ms_cache *c, uint64_t ln, size_t *base, int *way)
{
    int w = *way = ws_ms_find(c, ln, base);
    return w < 0 ? NULL : (ws_ms_line *)(void *)ws_ms_state(c, *base + (size_t)w);
}

/* An L1: ws_ms_alloc with the line's ready cycles at 0 (the victim is dropped: an L1 writes through). */
static inline ws_ms_line *ws_ms_l1_alloc(ws_ms_cache *c, size_t base, uint64_t ln)
{
    uint64_t et;
    uint8_t ed;
    int w = ws_ms_alloc(c, base, ln, &et, &ed);
    if (w < 0) return NULL;
    ws_ms_line *l = (ws_ms_line *)(void *)ws_ms_state(c, base + (size_t)w);
    memset(l->ready, 0, sizeof l->ready);
    return l;
}

/* Bytes of the arrays of a cache of cap_bytes with `ways` ways and lines of lsize bytes (each array on a host cache
 * line). */
size_t ws_ms_cache_bytes(size_t cap_bytes, uint32_t ways, size_t lsize);
/* Set up a cache able to hold cap_bytes, configured for bytes (<= cap_bytes), with lines of lsize bytes (a
 * ws_ms_lstate first), its arrays taken from *slab (zeroed memory of at least ws_ms_cache_bytes, which it moves
 * past). */
void ws_ms_cache_init(ws_ms_cache *c, size_t cap_bytes, size_t bytes, uint32_t ways, size_t lsize, uint8_t **slab);
/* Give a cache the geometry of bytes of capacity (at most what it was allocated for) and empty it: every set's
 * ranks start as the permutation 0..ways-1. */
void ws_ms_cache_shape(ws_ms_cache *c, size_t bytes, uint32_t ways);
/* Drop every line of a cache: a new generation (an empty way's state and rank are never read: ws_ms_alloc resets
 * them); after 2^32 - 1 generations every set is cleared for real. */
void ws_ms_cache_clear(ws_ms_cache *c);

#endif
