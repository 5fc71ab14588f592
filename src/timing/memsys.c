/* memsys.c - the memory side of the timing model (memsys.h): coalescer, shared-memory banks, sectored L1 per SM,
 * sectored write-back L2, DRAM with latency and bandwidth.
 *
 * Counting rules, checked against Nsight Compute on the H200 of tests/data/h200 (tests/cli/truth_counters.sh) and
 * against 370 single-instruction shared-memory probes measured under ncu on an H200
 * (tests/unit/data/shared_probes.txt, checked by tests/unit/test_memsys.c):
 *  - global ld/st/atom: one request per warp instruction with at least one active lane; sectors = distinct 32-byte
 *    sectors the active lanes touch (an access straddling a sector boundary touches both). 128-bit accesses
 *    (ld.v4) are one request too.
 *  - shared memory, W = bytes per lane, S = banks x bank bytes (128): W <= bank bytes: the whole warp is one pass,
 *    wavefronts = max over banks of the distinct words the lanes touch (the same word broadcasts). Wider accesses
 *    split the warp into groups of S / W lanes (half-warps for 64-bit, quarter-warps for 128-bit): stores cost
 *    the sum of the groups' passes; loads go by pairs of groups, and a pair whose distinct data fit in 32 bytes
 *    and in one pass costs 1 wavefront, otherwise the sum of its groups' passes. Ideal wavefronts: 1 per pass of
 *    a 32-bit access, 1 per merged pair, ceil(distinct words / banks) per group otherwise; conflicts = wavefronts
 *    - ideal. (All 370 probes' wavefronts and 368 of their conflict counts follow this; the 2 others are
 *    every-other-lane 64/128-bit loads.)
 *  - ptxas fuses 32-bit ld.shared from one base register at offsets k..k+12 (k 16-byte aligned, base provably
 *    16-byte aligned) into one LDS.128 (matmul_tiled's sA[ty][k] loop), and two adjacent st.shared at k, k+4
 *    (8-byte aligned) into one STS.64; ws_ms_fusion finds those groups in the PTX so that wavefronts count as on
 *    the hardware: the first member carries the wide access, the others none.
 *  - L1: 128-byte lines of four 32-byte sectors, LRU; global loads allocate (a sector still being filled counts as
 *    a hit, as in ncu: copy_col's 7 of 8 warps hit); stores write through to L2 and allocate the sector in L1, where
 *    a later store hits once l1_hit_latency has passed (ncu: spmv_vector's y[] stores hit 76-79%, copy_col's
 *    near-simultaneous ones 34%); atomics go to L2 and count as L1 misses; local memory is cached like global,
 *    stores stay in L1. l1tex__t_sector_hit_rate = hits over global ld + st + atom + local sectors.
 *  - L2: sectored, write-back; a read miss fetches the missing sectors of its 64-byte pair from DRAM (ncu's
 *    dram__bytes_read of strided32 is twice its sectors); the other half of the pair counts as a miss while it is
 *    still arriving, as a hit later; writes and atomics to absent sectors allocate them without a fetch and count
 *    as hits (ncu: lts__t_sector_op_write_hit_rate ~100%). Dirty sectors reach DRAM only when evicted: ncu's
 *    dram__bytes_write is 0 for vec_add although it wrote 4 MiB. The hit rate covers L1 traffic only (ncu's also
 *    counts the lookups between the two L2 partitions: a few points higher).
 *  - timing: each SM's L1/LSU data path takes one 128-byte line (global) or one wavefront (shared) per cycle; the
 *    L1<->L2 path and DRAM have bandwidth ledgers (bytes per cycle, in windows of cycles, so that requests may
 *    arrive out of time order from different SMs); atomics queue at their L2 slice. */
#include "memsys.h"
#include "../ptx/fuse.h"
#include "../mem/huge.h"

#include <stdlib.h>
#include <string.h>

#define WS_MS_LINE 128u            /* cache line bytes */
#define WS_MS_SECTOR 32u           /* sector bytes */
#define WS_MS_L1_WAYS 16u          /* L1 associativity (sets = capacity / ways / line) */
#define WS_MS_L2_WAYS 16u
#define WS_MS_SLICE_SHIFT 8u       /* L2 slices interleave every 256 bytes */
#define WS_MS_LOCAL_TAG 0x7000000000000000ull /* local memory lives in its own address range */
#define WS_MS_MAXLINES 128         /* distinct lines one warp instruction can touch (32 lanes x 2 x 2) */

/* ---------- caches ---------- */
typedef struct ws_ms_line {  /* a line's state beside its tag and LRU rank (ws_ms_cache keeps those apart) */
    uint64_t ready[4];   /* cycle each sector's data is there (fills in flight count as present) */
    uint8_t valid, dirty;
    uint8_t pf;          /* L2: sectors fetched only as the other half of a 64-byte DRAM pair, not yet asked for */
    uint8_t spend;       /* L1: sectors allocated by a store whose write-through is not yet acknowledged */
    uint32_t epoch;      /* the cache's epoch its ready cycles belong to (ws_ms_new_launch) */
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
    uint32_t epoch;      /* a line of another epoch has its ready cycles and spend at 0 (the clock restarted) */
    ws_ms_line *lines;
    uint32_t sets, ways;
    uint64_t mod_m;      /* ws_ms_hash's multiplier for sets */
    size_t cap_lines;    /* lines allocated (the largest configuration) */
    size_t cap_sets;     /* entries of sgen */
} ws_ms_cache;

/* ---------- bandwidth ledgers ---------- */
typedef struct ws_ms_bw {
    double rate;         /* units per cycle; <= 0: unlimited */
    unsigned shift;      /* a window is 1 << shift cycles */
    uint32_t nwin;       /* windows kept (power of two) */
    uint64_t *tag;       /* window number + 1 + base: the window the entry holds */
    double *used;        /* cycle up to which the window's transfers are booked (its queue frontier) */
    uint64_t base;       /* moved past every tag stored, it empties the ledger (ws_ms_bw_clear) */
    uint64_t top;        /* the largest tag stored */
    uint64_t hint;       /* window where the last overflow landed */
    uint64_t last;       /* latest completion handed out */
} ws_ms_bw;

/* A remembered shared-memory access pattern and its wavefronts and conflicts: the lanes' addresses relative to the
 * first executing lane's (which banks a pattern hits together does not change when the whole pattern moves by
 * whole words), that lane's byte within its word, the lanes, the width and load or store. */
typedef struct ws_ms_bmemo {
    uint32_t d[32];
    uint32_t mask;
    uint16_t width;
    uint8_t store, lo, valid;
    uint16_t wf, bc;
} ws_ms_bmemo;
#define WS_MS_BMEMO 32     /* patterns remembered per SM (direct mapped) */

typedef struct ws_ms_fnfuse {
    const ws_func *fn;
    ws_fuse *tab;        /* fn->ncode entries (ws_ptx_fusion) */
} ws_ms_fnfuse;

struct ws_memsys {
    const ws_device *dev;
    ws_ms_counts c;
    int nsm, warp;
    unsigned banks, bank_bytes;
    int bank_shift;      /* log2(bank_bytes) when a power of two, else -1 */
    unsigned bank_mask;  /* banks - 1 when a power of two (and at most 64), else 0 */
    unsigned lat_l1, lat_l2, lat_dram, lat_smem, lat_const;
    double bulk_store_cpl;      /* cycles a bulk copy to global memory takes per 128-byte line (0: one) */
    int have_l2;
    size_t l1_bytes;     /* current L1 capacity per SM */
    ws_ms_cache *l1;     /* nsm caches */
    ws_ms_cache l2;
    uint64_t *pipe;      /* per SM: cycle the L1/LSU data path is free */
    ws_ms_bw l2bw, dram;
    ws_ms_bw *slice;     /* per L2 slice: atomic unit */
    int nslices;
    double atom_cycles;
    int fuse_on;
    ws_ms_access_counts acc;   /* the most recent access's counts */
    ws_ms_fnfuse *fns;
    int nfns, fns_cap;
    int last_fuse;       /* the entry of fns the last lookup found */
    ws_ms_bmemo *bmemo;  /* per SM, WS_MS_BMEMO patterns (each SM's own: its thread alone uses them) */
    ws_ms_defer **defer; /* per SM, the timing model's queue of the current window (ws_ms_attach_defer), or NULL */
    uint8_t *slab;       /* the caches' arrays (ws_huge_alloc) */
    size_t slab_bytes;
};

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
static void ws_ms_cache_shape(ws_ms_cache *c, size_t bytes, uint32_t ways)
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
static size_t ws_ms_cache_bytes(size_t cap_bytes, uint32_t ways)
{
    size_t n = cap_bytes / WS_MS_LINE, sets = n / ways + 1;
#define WS_MS_AL(x) (((x) + 63) & ~(size_t)63)
    return n ? WS_MS_AL(n * sizeof(ws_ms_line)) + WS_MS_AL(n * sizeof(uint64_t)) + WS_MS_AL(n) +
               WS_MS_AL(sets * sizeof(uint32_t)) : 0;
}

/* Set up a cache able to hold cap_bytes, configured for bytes (<= cap_bytes), its arrays taken from *slab (zeroed
 * memory of at least ws_ms_cache_bytes, which it moves past). */
static void ws_ms_cache_init(ws_ms_cache *c, size_t cap_bytes, size_t bytes, uint32_t ways, uint8_t **slab)
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
static void ws_ms_cache_clear(ws_ms_cache *c)
{
    if (!c->sgen) return;
    if (++c->gen == 0) {
        memset(c->sgen, 0, c->cap_sets * sizeof *c->sgen);
        c->gen = 1;
    }
}

/* Line l's clock-dependent state (ready cycles, store acknowledgements) restarted at cycle 0, in epoch e. */
static inline void ws_ms_line_restart(ws_ms_line *l, uint32_t e)
{
    memset(l->ready, 0, sizeof l->ready);
    l->spend = 0;
    l->epoch = e;
}

/* The line holding line number ln, or NULL (a cache of no capacity holds nothing); *base gets its set's first way
 * (for ws_ms_alloc_at). */
static ws_ms_line *ws_ms_lookup(ws_ms_cache *c, uint64_t ln, size_t *base)
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

/* Make room for line number ln in the set at base (ws_ms_lookup's, which missed): the first empty way, else the
 * least recently used one (its tag and dirty sectors are returned through ev_tag / ev_dirty); returns the emptied
 * line, or NULL for a cache of no capacity. */
static ws_ms_line *ws_ms_alloc_at(ws_ms_cache *c, size_t base, uint64_t ln, uint64_t *ev_tag, uint8_t *ev_dirty)
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
    if (!tags[c->ways - 1]) {   /* a free way: ways fill in order and only empty together, so the used ones are a prefix */
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

/* Mark line l of the set at base used now (LRU). */
static void ws_ms_touch(ws_ms_cache *c, size_t base, ws_ms_line *l)
{
    ws_ms_rank_touch(c, base, (uint32_t)((size_t)(l - c->lines) - base));
}

/* ---------- bandwidth ledgers ---------- */
/* Set up a ledger of rate units per cycle in windows of 1 << shift cycles; 0 on success. */
static int ws_ms_bw_init(ws_ms_bw *b, double rate, unsigned shift, uint32_t nwin)
{
    memset(b, 0, sizeof *b);
    b->rate = rate;
    b->shift = shift;
    b->nwin = nwin;
    if (rate <= 0) return 0;
    b->tag = calloc(nwin, sizeof *b->tag);
    b->used = calloc(nwin, sizeof *b->used);
    return b->tag && b->used ? 0 : -1;
}

/* Forget all reservations (time restarts at 0): no tag stored so far can match a window any more. */
static void ws_ms_bw_clear(ws_ms_bw *b)
{
    b->base = b->top;
    b->hint = 0;
    b->last = 0;
}

/* Free a ledger. */
static void ws_ms_bw_free(ws_ms_bw *b)
{
    free(b->tag);
    free(b->used);
}

/* Reserve amount units at cycle t or later; returns the cycle the last unit is through. Each window is a FIFO
 * served at rate units per cycle from its start (or from the arrival, if later); a full window passes the rest
 * of the request to the next one (queueing). */
static uint64_t ws_ms_bw_take(ws_ms_bw *b, uint64_t t, double amount)
{
    if (b->rate <= 0 || amount <= 0) return t;
    uint64_t w = t >> b->shift;
    double left = amount, at = (double)t;
    for (uint32_t guard = 0;; guard++) {
        uint32_t i = (uint32_t)(w & (b->nwin - 1));
        double ws = (double)(w << b->shift), we = (double)((w + 1) << b->shift);
        uint64_t key = w + 1 + b->base;
        if (b->tag[i] != key) {
            b->tag[i] = key;
            b->used[i] = ws;
            if (key > b->top) b->top = key;
        }
        double start = at > b->used[i] ? at : b->used[i];   /* used[]: the window's queue frontier */
        if (start < we) {
            double need = left / b->rate;
            if (start + need <= we || guard > b->nwin) {
                double fin = start + need;
                b->used[i] = fin;
                uint64_t f = (uint64_t)(fin + 0.999999);
                if (guard) b->hint = w;
                if (f > b->last) b->last = f;
                return f;
            }
            left -= (we - start) * b->rate;
            b->used[i] = we;
        }
        /* on to the next window (over the run of full windows the last overflow found) */
        w = (b->hint > w + 1) ? b->hint : w + 1;
        at = (double)(w << b->shift);
    }
}

/* ---------- shared-memory banks ---------- */
/* One pass of the bank array over the lanes in mask (each accessing width bytes at addr[lane]): returns the
 * largest number of distinct words in one bank (the wavefronts of the pass, 0 for no lanes); *nwords receives
 * the distinct words. Each bank keeps a chain of the distinct words seen in it (a word repeated by the previous
 * lane, a broadcast, is caught before the chain walk). */
static unsigned ws_ms_bank_pass(const ws_memsys *ms, const uint64_t *addr, uint32_t mask, unsigned width,
                                unsigned *nwords)
{
    uint64_t w[128];
    int8_t head[64], next[128];
    uint8_t cnt[64];
    unsigned bb = ms->bank_bytes, per = width > bb ? width / bb : 1;
    unsigned nb = ms->banks < 64 ? ms->banks : 64, best = 0, uniq = 0;
    const int bs = ms->bank_shift;
    const unsigned bmask = ms->bank_mask;
#define WS_MS_WORD(a) (bs >= 0 ? (a) >> bs : (a) / bb)
    if (per > 4) per = 4;
    *nwords = 0;
    if (!mask) return 0;
    if (per == 1) {
        /* the lanes read consecutive words (tid-indexed arrays): ceil(words / banks) passes, no chain needed */
        uint64_t expect = WS_MS_WORD(addr[__builtin_ctz(mask)]);
        unsigned k = 0;
        uint32_t t = mask;
        for (; t; t &= t - 1, k++, expect++)
            if (WS_MS_WORD(addr[__builtin_ctz(t)]) != expect) break;
        if (!t) { *nwords = k; return (k + nb - 1) / nb; }
    }
    if (bmask && bs >= 0) {
        /* no two distinct words in one bank (conflict-free, broadcasts allowed): one wavefront, found without
         * chains: each bank remembers the one word it holds (a bank asked for another word: the chains decide) */
        uint64_t bw[64], used = 0, prev = UINT64_MAX;
        uint32_t t = mask;
        for (; t; t &= t - 1) {
            uint64_t first = addr[__builtin_ctz(t)] >> bs;
            if (first == prev) continue;
            prev = first;
            unsigned k = 0;
            for (; k < per; k++) {
                uint64_t x = first + k;
                unsigned bk = (unsigned)(x & bmask);
                if (!(used >> bk & 1)) { used |= 1ull << bk; bw[bk] = x; }
                else if (bw[bk] != x) break;
            }
            if (k < per) break;
        }
        if (!t) { *nwords = (unsigned)__builtin_popcountll(used); return 1; }
    }
    memset(head, -1, sizeof head);
    memset(cnt, 0, sizeof cnt);
    uint64_t prev = UINT64_MAX;
    int n = 0;
    while (mask && n < 128) {
        int l = __builtin_ctz(mask);
        mask &= mask - 1;
        uint64_t first = WS_MS_WORD(addr[l]);
        if (first == prev) continue;   /* the same words as the previous lane: nothing new */
        prev = first;
        for (unsigned k = 0; k < per && n < 128; k++) {
            uint64_t x = first + k;
            unsigned bk = bmask ? (unsigned)(x & bmask) : (unsigned)(x % nb);
            int j = head[bk];
            while (j >= 0 && w[j] != x) j = next[j];
            if (j >= 0) continue;
            w[n] = x;
            next[n] = head[bk];
            head[bk] = (int8_t)n;
            n++;
            uniq++;
            if (++cnt[bk] > best) best = cnt[bk];
        }
    }
#undef WS_MS_WORD
    *nwords = uniq;
    return best;
}

/* Lanes [first, first + n) of a warp as a mask. */
static uint32_t ws_ms_lanes(unsigned first, unsigned n)
{
    if (first >= 32) return 0;
    uint64_t m = ((n >= 64 ? ~0ull : ((1ull << n) - 1)) << first);
    return (uint32_t)m;
}

/* Wavefronts and bank conflicts of one shared-memory warp access (rules in the file comment). */
void ws_ms_shared_wavefronts(const ws_memsys *ms, const uint64_t *addr, uint32_t mask, unsigned width, int is_store,
                             unsigned *wavefronts, unsigned *conflicts)
{
    unsigned wf = 0, ideal = 0, nw, bb = ms->bank_bytes, banks = ms->banks;
    unsigned pass_bytes = banks * bb;
    if (!mask) { *wavefronts = *conflicts = 0; return; }
    if (width <= bb) {
        wf = ws_ms_bank_pass(ms, addr, mask, width, &nw);
        ideal = (nw + banks - 1) / banks;
    } else {
        unsigned sub = pass_bytes / width;
        if (sub < 1) sub = 1;
        if (is_store) {
            for (unsigned s = 0; s < 32; s += sub) {
                unsigned a = ws_ms_bank_pass(ms, addr, mask & ws_ms_lanes(s, sub), width, &nw);
                wf += a;
                ideal += (nw + banks - 1) / banks;
            }
        } else {
            unsigned unit = 2 * sub;
            for (unsigned u = 0; u < 32; u += unit) {
                uint32_t um = mask & ws_ms_lanes(u, unit);
                if (!um) continue;
                unsigned a = ws_ms_bank_pass(ms, addr, um, width, &nw);
                int merge = nw * bb <= WS_MS_SECTOR;
                if (merge && a == 1) { wf += 1; ideal += 1; continue; }
                if (merge) ideal += 1;
                for (unsigned s = u; s < u + unit; s += sub) {
                    unsigned b = ws_ms_bank_pass(ms, addr, mask & ws_ms_lanes(s, sub), width, &nw);
                    wf += b;
                    if (!merge) ideal += (nw + banks - 1) / banks;
                }
            }
        }
    }
    *wavefronts = wf;
    *conflicts = wf > ideal ? wf - ideal : 0;
}

/* ws_ms_shared_wavefronts through SM sm's remembered patterns: a loop's access repeats its pattern at other
 * addresses, and a pattern's counts are found once. */
static void ws_ms_shared_memo(ws_memsys *ms, int sm, const uint64_t *addr, uint32_t mask, unsigned width,
                              int is_store, unsigned *wavefronts, unsigned *conflicts)
{
    if (!mask || !ms->bmemo) { ws_ms_shared_wavefronts(ms, addr, mask, width, is_store, wavefronts, conflicts); return; }
    uint32_t d[32];
    const uint64_t a0 = addr[__builtin_ctz(mask)];
    if (mask == 0xffffffffu) for (int l = 0; l < 32; l++) d[l] = (uint32_t)(addr[l] - a0);
    else {
        memset(d, 0, sizeof d);
        for (uint32_t m = mask; m; m &= m - 1) d[__builtin_ctz(m)] = (uint32_t)(addr[__builtin_ctz(m)] - a0);
    }
    /* a few lanes pick the slot (the whole pattern is compared) */
    uint64_t h = ((uint64_t)mask << 16) ^ ((uint64_t)width << 8) ^ ((uint64_t)is_store << 4) ^ (a0 & 3);
    h = (h ^ d[1] ^ ((uint64_t)d[7] << 13) ^ ((uint64_t)d[16] << 27) ^ ((uint64_t)d[31] << 41)) * 0x9E3779B97F4A7C15ull;
    ws_ms_bmemo *e = &ms->bmemo[(size_t)sm * WS_MS_BMEMO + (unsigned)((h >> 40) % WS_MS_BMEMO)];
    if (e->valid && e->mask == mask && e->width == width && e->store == is_store && e->lo == (a0 & 3) &&
        !memcmp(e->d, d, sizeof d)) {
        *wavefronts = e->wf;
        *conflicts = e->bc;
        return;
    }
    ws_ms_shared_wavefronts(ms, addr, mask, width, is_store, wavefronts, conflicts);
    memcpy(e->d, d, sizeof d);
    e->mask = mask;
    e->width = (uint16_t)width;
    e->store = (uint8_t)is_store;
    e->lo = (uint8_t)(a0 & 3);
    e->wf = (uint16_t)*wavefronts;
    e->bc = (uint16_t)*conflicts;
    e->valid = 1;
}

/* ---------- ptxas load fusion (LDS.64 / LDS.128 from scalar ld.shared) ---------- */
/* Fusion role of instruction in of function fn (WS_MS_FUSE_*); *width and *delta describe a leader's access. */
int ws_ms_fusion(ws_memsys *ms, const ws_func *fn, const ws_insn *in, unsigned *width, int *delta)
{
    if (!ms->fuse_on || !fn || !in || in < fn->code || in >= fn->code + fn->ncode) return WS_MS_FUSE_NONE;
    ws_ms_fnfuse *e = NULL;
    if (ms->last_fuse < ms->nfns && ms->fns[ms->last_fuse].fn == fn) e = &ms->fns[ms->last_fuse];
    else
        for (int i = 0; i < ms->nfns; i++) if (ms->fns[i].fn == fn) { e = &ms->fns[i]; ms->last_fuse = i; break; }
    if (!e) {
        if (ms->nfns == ms->fns_cap) {
            int cap = ms->fns_cap ? 2 * ms->fns_cap : 16;
            ws_ms_fnfuse *p = realloc(ms->fns, sizeof *p * (size_t)cap);
            if (!p) return WS_MS_FUSE_NONE;
            ms->fns = p;
            ms->fns_cap = cap;
        }
        e = &ms->fns[ms->nfns++];
        e->fn = fn;
        e->tab = ws_ptx_fusion(fn);
    }
    if (!e->tab) return WS_MS_FUSE_NONE;
    const ws_fuse *f = &e->tab[in - fn->code];
    if (width) *width = f->width;
    if (delta) *delta = f->delta;
    return f->role;
}

/* Turn the ptxas load fusion on or off (default on). */
void ws_ms_set_fusion(ws_memsys *ms, int on) { ms->fuse_on = on; }

/* ---------- create / configure ---------- */
/* L1 capacity left beside smem_bytes of shared memory per SM: the SRAM minus the smallest carve-out holding it. */
size_t ws_ms_l1_capacity(const ws_device *dev, size_t smem_bytes)
{
    size_t carve = smem_bytes;
    if (dev->n_carveouts > 0) {
        carve = (size_t)dev->carveouts_kb[dev->n_carveouts - 1] * 1024;
        for (int i = 0; i < dev->n_carveouts; i++)
            if ((size_t)dev->carveouts_kb[i] * 1024 >= smem_bytes) { carve = (size_t)dev->carveouts_kb[i] * 1024; break; }
    }
    return dev->l1_smem_per_sm > carve ? dev->l1_smem_per_sm - carve : 0;
}

/* Create the memory system of device dev (caches empty). */
ws_memsys *ws_ms_create(const ws_device *dev)
{
    if (!dev) return NULL;
    ws_memsys *ms = calloc(1, sizeof *ms);
    if (!ms) return NULL;
    ms->dev = dev;
    ms->nsm = dev->sm_count > 0 ? dev->sm_count : 1;
    ms->warp = dev->warp_size > 0 && dev->warp_size <= 32 ? dev->warp_size : 32;
    ms->banks = dev->smem_banks > 0 ? (unsigned)dev->smem_banks : 32;
    ms->bank_bytes = dev->smem_bank_bytes > 0 ? (unsigned)dev->smem_bank_bytes : 4;
    ms->bank_shift = !(ms->bank_bytes & (ms->bank_bytes - 1)) ? __builtin_ctz(ms->bank_bytes) : -1;
    ms->bank_mask = !(ms->banks & (ms->banks - 1)) && ms->banks <= 64 ? ms->banks - 1 : 0;
    ms->lat_l1 = dev->l1_hit_latency > 0 ? (unsigned)dev->l1_hit_latency : 35;
    ms->lat_l2 = dev->l2_hit_latency > 0 ? (unsigned)dev->l2_hit_latency : 277;
    ms->bulk_store_cpl = dev->bulk_store_bytes_per_cycle > 0 ? 4.0 * WS_MS_SECTOR / dev->bulk_store_bytes_per_cycle : 1.0;
    ms->lat_dram = dev->dram_latency > 0 ? (unsigned)dev->dram_latency : 560;
    ms->lat_smem = dev->lat_smem > 0 ? (unsigned)dev->lat_smem : 29;
    ms->lat_const = dev->lat_int > 0 ? (unsigned)dev->lat_int : 4;
    ms->have_l2 = dev->l2_size >= WS_MS_LINE * WS_MS_L2_WAYS;
    ms->fuse_on = 1;
    ms->l1_bytes = ws_ms_l1_capacity(dev, 0);
    ms->l1 = calloc((size_t)ms->nsm, sizeof *ms->l1);
    ms->pipe = calloc((size_t)ms->nsm, sizeof *ms->pipe);
    ms->bmemo = calloc((size_t)ms->nsm * WS_MS_BMEMO, sizeof *ms->bmemo);
    /* the caches' arrays in one region on huge pages (they are looked up at random) */
    ms->slab_bytes = (size_t)ms->nsm * ws_ms_cache_bytes(dev->l1_smem_per_sm, WS_MS_L1_WAYS) +
                     (ms->have_l2 ? ws_ms_cache_bytes(dev->l2_size, WS_MS_L2_WAYS) : 0);
    ms->slab = ws_huge_alloc(ms->slab_bytes);
    int bad = !ms->l1 || !ms->pipe || !ms->bmemo || !ms->slab;
    uint8_t *slab = ms->slab;
    for (int s = 0; s < ms->nsm && !bad; s++) ws_ms_cache_init(&ms->l1[s], dev->l1_smem_per_sm, ms->l1_bytes, WS_MS_L1_WAYS, &slab);
    if (!bad && ms->have_l2) ws_ms_cache_init(&ms->l2, dev->l2_size, dev->l2_size, WS_MS_L2_WAYS, &slab);
    double clk = dev->sm_clock_mhz > 0 ? dev->sm_clock_mhz * 1e6 : 1e9;
    double eff = dev->dram_efficiency > 0 ? dev->dram_efficiency : 1.0;
    double dram_bpc = dev->mem_bandwidth_gbs > 0 ? dev->mem_bandwidth_gbs * 1e9 * eff / clk : 0;
    if (!bad) bad = ws_ms_bw_init(&ms->dram, dram_bpc, 6, 1u << 14);
    if (!bad) bad = ws_ms_bw_init(&ms->l2bw, ms->have_l2 ? dev->l2_bytes_per_clk : 0, 6, 1u << 14);
    ms->nslices = dev->l2_slices > 0 ? dev->l2_slices : 1;
    ms->atom_cycles = dev->l2_atomic_cycles > 0 ? dev->l2_atomic_cycles : 0;
    if (!bad && ms->atom_cycles > 0) {
        ms->slice = calloc((size_t)ms->nslices, sizeof *ms->slice);
        bad = !ms->slice;
        for (int i = 0; i < ms->nslices && !bad; i++) bad = ws_ms_bw_init(&ms->slice[i], 1.0 / ms->atom_cycles, 10, 1u << 11);
    }
    if (bad) { ws_ms_destroy(ms); return NULL; }
    return ms;
}

/* Destroy it. */
void ws_ms_destroy(ws_memsys *ms)
{
    if (!ms) return;
    free(ms->l1);
    ws_huge_free(ms->slab, ms->slab_bytes);
    free(ms->pipe);
    free(ms->bmemo);
    free(ms->defer);
    ws_ms_bw_free(&ms->dram);
    ws_ms_bw_free(&ms->l2bw);
    if (ms->slice) for (int i = 0; i < ms->nslices; i++) ws_ms_bw_free(&ms->slice[i]);
    free(ms->slice);
    for (int i = 0; i < ms->nfns; i++) free(ms->fns[i].tab);
    free(ms->fns);
    free(ms);
}

/* Size the L1 of every SM for a launch using smem_bytes of shared memory per SM (the carve-out); a change of
 * capacity empties the L1s. */
void ws_ms_set_smem_per_sm(ws_memsys *ms, size_t smem_bytes)
{
    size_t b = ws_ms_l1_capacity(ms->dev, smem_bytes);
    if (b == ms->l1_bytes) return;
    ms->l1_bytes = b;
    for (int s = 0; s < ms->nsm; s++)
        if (ms->l1[s].cap_lines) ws_ms_cache_shape(&ms->l1[s], b, WS_MS_L1_WAYS);
}

/* Current L1 capacity per SM in bytes. */
size_t ws_ms_l1_bytes(const ws_memsys *ms) { return ms->l1_bytes; }

/* Invalidate L1s and L2 (Nsight Compute's --cache-control all) and reset bandwidth queues to time 0. */
void ws_ms_flush(ws_memsys *ms)
{
    for (int s = 0; s < ms->nsm; s++) ws_ms_cache_clear(&ms->l1[s]);
    ws_ms_cache_clear(&ms->l2);
    memset(ms->pipe, 0, sizeof *ms->pipe * (size_t)ms->nsm);
    ws_ms_bw_clear(&ms->dram);
    ws_ms_bw_clear(&ms->l2bw);
    if (ms->slice) for (int i = 0; i < ms->nslices; i++) ws_ms_bw_clear(&ms->slice[i]);
}

/* Start a launch at cycle 0 with warm caches (--cache-control none): the L1s are invalidated as at every kernel
 * boundary, L2 keeps its lines, and every clock-dependent state (queues, fills in flight) restarts at 0. */
void ws_ms_new_launch(ws_memsys *ms)
{
    for (int s = 0; s < ms->nsm; s++) ws_ms_cache_clear(&ms->l1[s]);
    /* every line's ready cycles and spend read as 0 from now on (ws_ms_lookup); after 2^32 - 1 launches, reset
     * for real so that no line's stale epoch can come round again */
    if (++ms->l2.epoch == 0 && ms->l2.lines)
        for (size_t i = 0; i < ms->l2.cap_lines; i++) ws_ms_line_restart(&ms->l2.lines[i], 0);
    memset(ms->pipe, 0, sizeof *ms->pipe * (size_t)ms->nsm);
    ws_ms_bw_clear(&ms->dram);
    ws_ms_bw_clear(&ms->l2bw);
    if (ms->slice) for (int i = 0; i < ms->nslices; i++) ws_ms_bw_clear(&ms->slice[i]);
}

/* Zero the counters (start of a launch). */
void ws_ms_reset_counts(ws_memsys *ms) { memset(&ms->c, 0, sizeof ms->c); }

/* Counters since the last reset. */
const ws_ms_counts *ws_ms_counts_get(const ws_memsys *ms) { return &ms->c; }

/* End of a launch: dirty lines stay in L2 (written back when evicted or flushed, not counted here). */
void ws_ms_end_launch(ws_memsys *ms) { (void)ms; }

/* The fewest cycles from an L1 miss, write-through or atomic leaving an SM to its result being back there. */
uint64_t ws_ms_min_latency(const ws_memsys *ms)
{
    unsigned l = ms->have_l2 && ms->lat_l2 < ms->lat_dram ? ms->lat_l2 : ms->lat_dram;
    return l;
}

/* Latest cycle at which a queued L2, DRAM or atomic transfer completes. */
uint64_t ws_ms_drain_cycle(const ws_memsys *ms)
{
    uint64_t t = ms->dram.last > ms->l2bw.last ? ms->dram.last : ms->l2bw.last;
    if (ms->slice) for (int i = 0; i < ms->nslices; i++) if (ms->slice[i].last > t) t = ms->slice[i].last;
    return t;
}

/* ---------- the global path ---------- */
/* Fetch the missing sectors of the 64-byte pairs that the sectors in need belong to, from DRAM into line l of
 * L2 at cycle t; returns the cycle the data is in L2. */
static uint64_t ws_ms_dram_fill(ws_memsys *ms, ws_ms_line *l, unsigned need, uint64_t t)
{
    unsigned fetch = 0;
    for (unsigned p = 0; p < 4; p += 2) {
        unsigned pm = 3u << p;
        if (need & pm) fetch |= pm & ~(unsigned)l->valid;
    }
    unsigned n = (unsigned)__builtin_popcount(fetch);
    if (!n) return t;
    uint64_t done = ws_ms_bw_take(&ms->dram, t, (double)n * WS_MS_SECTOR) + ms->lat_dram - ms->lat_l2;
    ms->c.dram_read_bytes += (uint64_t)n * WS_MS_SECTOR;
    for (unsigned s = 0; s < 4; s++)
        if (fetch & (1u << s)) l->ready[s] = done;
    l->valid |= (uint8_t)fetch;
    l->pf |= (uint8_t)(fetch & ~need);
    return done;
}

/* L2 line for line number ln, allocated (writing back a dirty victim) when absent; NULL without an L2. */
static ws_ms_line *ws_ms_l2_line(ws_memsys *ms, uint64_t ln, uint64_t t)
{
    size_t base = 0;
    ws_ms_line *l = ws_ms_lookup(&ms->l2, ln, &base);
    if (l) { ws_ms_touch(&ms->l2, base, l); return l; }
    uint64_t evt;
    uint8_t evd;
    l = ws_ms_alloc_at(&ms->l2, base, ln, &evt, &evd);
    if (evd) {
        unsigned n = (unsigned)__builtin_popcount(evd);
        ms->c.dram_write_bytes += (uint64_t)n * WS_MS_SECTOR;
        ws_ms_bw_take(&ms->dram, t, (double)n * WS_MS_SECTOR);
    }
    return l;
}

/* Read the sectors in mask of line ln from L2 (the L1 missed them) at cycle t: counts lookups, hits and DRAM
 * fills; returns the cycle the data is back at the SM. */
static uint64_t ws_ms_l2_read(ws_memsys *ms, uint64_t ln, unsigned mask, uint64_t t)
{
    unsigned n = (unsigned)__builtin_popcount(mask);
    ms->c.l2_sectors += n;
    ms->c.l2_read_sectors_from_l1 += n;
    uint64_t t2 = ws_ms_bw_take(&ms->l2bw, t, (double)n * WS_MS_SECTOR);
    if (!ms->have_l2) {
        ms->c.dram_read_bytes += (uint64_t)n * WS_MS_SECTOR;
        return ws_ms_bw_take(&ms->dram, t2, (double)n * WS_MS_SECTOR) + ms->lat_dram;
    }
    ws_ms_line *l = ws_ms_l2_line(ms, ln, t2);
    unsigned hit = mask & l->valid, miss = mask & ~hit, counted = hit;
    /* a sector that came only as the other half of a DRAM pair and is still on its way counts as a miss
     * (ncu: hist's neighbouring warps' sectors miss, copy_col's later blocks' sectors hit) */
    for (unsigned s = 0; s < 4; s++)
        if ((hit & l->pf & (1u << s)) && l->ready[s] > t2) counted &= ~(1u << s);
    l->pf &= (uint8_t)~mask;
    ms->c.l2_hit_sectors += (unsigned)__builtin_popcount(counted);
    uint64_t done = t2 + ms->lat_l2;
    for (unsigned s = 0; s < 4; s++)
        if ((hit & (1u << s)) && l->ready[s] + ms->lat_l2 > done) done = l->ready[s] + ms->lat_l2;
    if (miss) {
        uint64_t f = ws_ms_dram_fill(ms, l, miss, t2) + ms->lat_l2;
        if (f > done) done = f;
    }
    return done;
}

/* Write the sectors in mask of line ln into L2 at cycle t (write-back, allocate without fetch: a hit); returns the
 * cycle the SM has L2's acknowledgement. Sectors in partial (not every byte written) cost the L2 twice the
 * bandwidth (a read-modify-write of the sector: copy_col's 4-byte stores to 32 lines per request take 36k cycles on
 * the H200, twice what full sectors would). */
static uint64_t ws_ms_l2_write(ws_memsys *ms, uint64_t ln, unsigned mask, unsigned partial, uint64_t t)
{
    unsigned n = (unsigned)__builtin_popcount(mask), np = (unsigned)__builtin_popcount(partial & mask);
    ms->c.l2_sectors += n;
    ms->c.l2_hit_sectors += n;
    uint64_t t2 = ws_ms_bw_take(&ms->l2bw, t, (double)(n + np) * WS_MS_SECTOR);
    if (!ms->have_l2) {
        ms->c.dram_write_bytes += (uint64_t)n * WS_MS_SECTOR;
        return ws_ms_bw_take(&ms->dram, t2, (double)n * WS_MS_SECTOR) + ms->lat_dram;
    }
    ws_ms_line *l = ws_ms_l2_line(ms, ln, t2);
    for (unsigned s = 0; s < 4; s++)
        if ((mask & (1u << s)) && !(l->valid & (1u << s))) l->ready[s] = t2;
    l->valid |= (uint8_t)mask;
    l->dirty |= (uint8_t)mask;
    return t2 + ms->lat_l2;   /* the acknowledgement: a round trip to the slice after the data was accepted */
}

/* An atomic or reduction on the sectors in mask of line ln at cycle t; chain[s] = the most lanes that operate on
 * one word of sector s. The slice's atomic unit updates every word of a sector at once, but operations on the
 * same word follow one another: a sector costs l2_atomic_cycles (the read-modify-write of one word:
 * dot_shfl - dot_tree) per operation of its longest chain (a warp's 32 lanes on 8 words: 4). Absent sectors are
 * fetched (an atomic reads the old value). Returns when the results are back. */
static uint64_t ws_ms_l2_atomic(ws_memsys *ms, uint64_t ln, unsigned mask, const uint8_t *chain, uint64_t t)
{
    unsigned n = (unsigned)__builtin_popcount(mask);
    ms->c.l2_sectors += n;
    uint64_t t2 = ws_ms_bw_take(&ms->l2bw, t, (double)n * WS_MS_SECTOR);
    uint64_t ready = t2;
    if (ms->have_l2) {
        ws_ms_line *l = ws_ms_l2_line(ms, ln, t2);
        unsigned hit = mask & l->valid;
        ms->c.l2_hit_sectors += (unsigned)__builtin_popcount(hit);
        for (unsigned s = 0; s < 4; s++)
            if ((hit & (1u << s)) && l->ready[s] > ready) ready = l->ready[s];   /* data still arriving */
        if (mask & ~hit) {
            uint64_t f = ws_ms_dram_fill(ms, l, mask & ~hit, t2);
            if (f > ready) ready = f;
        }
        l->dirty |= (uint8_t)mask;
    } else {
        ms->c.dram_read_bytes += (uint64_t)n * WS_MS_SECTOR;
        ready = ws_ms_bw_take(&ms->dram, t2, (double)n * WS_MS_SECTOR) + ms->lat_dram - ms->lat_l2;
    }
    uint64_t done = ready;
    if (ms->slice) {
        for (unsigned s = 0; s < 4; s++) {
            if (!(mask & (1u << s))) continue;
            uint64_t addr = ln * WS_MS_LINE + s * WS_MS_SECTOR;
            int sl = (int)((addr >> WS_MS_SLICE_SHIFT) % (uint64_t)ms->nslices);
            uint64_t f = ws_ms_bw_take(&ms->slice[sl], ready, chain[s] > 1 ? (double)chain[s] : 1.0);
            if (f > done) done = f;
        }
    }
    return done + ms->lat_l2;
}

/* Lines a gather keeps in a plain list before it indexes them in a hash table (scattered accesses: one line per
 * lane would make the list search quadratic). */
#define WS_MS_GATHER_LIST 8
#define WS_MS_GATHER_HASH 256u     /* slots (a power of two above twice WS_MS_MAXLINES) */

/* Slot of line number line in a gather's hash table. */
static inline unsigned ws_ms_gather_slot(uint64_t line) { return (unsigned)((line * 0x9E3779B97F4A7C15ull) >> 56); }

/* Index of line in ln[0..nl) (nl when absent); hash: the table once nl > WS_MS_GATHER_LIST (index + 1 per slot). */
static inline int ws_ms_gather_find(const uint64_t *ln, int nl, const uint8_t *hash, uint64_t line)
{
    if (nl <= WS_MS_GATHER_LIST) {
        int k = 0;
        while (k < nl && ln[k] != line) k++;
        return k;
    }
    for (unsigned h = ws_ms_gather_slot(line);; h = (h + 1) & (WS_MS_GATHER_HASH - 1)) {
        if (!hash[h]) return nl;
        if (ln[hash[h] - 1] == line) return hash[h] - 1;
    }
}

/* Enter ln[k] in a gather's hash table. */
static inline void ws_ms_gather_put(const uint64_t *ln, uint8_t *hash, int k)
{
    unsigned h = ws_ms_gather_slot(ln[k]);
    while (hash[h]) h = (h + 1) & (WS_MS_GATHER_HASH - 1);
    hash[h] = (uint8_t)(k + 1);
}

/* A gather's lines so far: ln[0..nl) with their sector masks sm and (stores) written-byte masks bm. */
typedef struct ws_ms_lines {
    uint64_t *ln;
    uint8_t *sm;
    uint32_t *bm;
    int nl, maxn;
    uint8_t hash[WS_MS_GATHER_HASH];   /* valid once nl > WS_MS_GATHER_LIST */
} ws_ms_lines;

/* Add the bytes [lo, lo + len) (len >= 1) to a gather, a line at a time: their sectors, new lines appended in
 * address order (a line that no longer fits the list is left out). */
static inline void ws_ms_gather_range(ws_ms_lines *g, uint64_t lo, uint64_t len)
{
    const uint64_t end = lo + len;
    for (uint64_t p = lo; p < end;) {
        uint64_t line = p / WS_MS_LINE, lend = (line + 1) * WS_MS_LINE;
        if (lend > end) lend = end;
        unsigned s0 = (unsigned)(p % WS_MS_LINE) / WS_MS_SECTOR, s1 = (unsigned)((lend - 1) % WS_MS_LINE) / WS_MS_SECTOR;
        int k = g->nl - 1;
        if (k < 0 || g->ln[k] != line) k = ws_ms_gather_find(g->ln, g->nl, g->hash, line);
        if (k == g->nl) {
            if (g->nl == g->maxn) { p = lend; continue; }
            g->ln[g->nl] = line;
            g->sm[g->nl] = 0;
            if (g->bm) memset(&g->bm[4 * g->nl], 0, 4 * sizeof *g->bm);
            g->nl++;
            if (g->nl == WS_MS_GATHER_LIST + 1) {   /* from now on the lines are found through the table */
                memset(g->hash, 0, sizeof g->hash);
                for (int j = 0; j < g->nl; j++) ws_ms_gather_put(g->ln, g->hash, j);
            } else if (g->nl > WS_MS_GATHER_LIST + 1) ws_ms_gather_put(g->ln, g->hash, g->nl - 1);
        }
        g->sm[k] |= (uint8_t)(((2u << s1) - 1) & ~((1u << s0) - 1));
        if (g->bm) {
            const uint64_t lb = line * WS_MS_LINE;
            for (unsigned s = s0; s <= s1; s++) {
                uint64_t slo = lb + s * WS_MS_SECTOR, shi = slo + WS_MS_SECTOR;
                uint64_t b0 = p > slo ? p : slo, b1 = lend < shi ? lend : shi;
                uint64_t span = b1 - b0;
                uint32_t m = span >= 32 ? ~0u : ((1u << span) - 1);
                g->bm[4 * k + s] |= m << (b0 - slo);
            }
        }
        p = lend;
    }
}

/* Collect the (line, sector mask) pairs that n accesses of size bytes at a[0..n) touch, in first-touch order;
 * returns the number of lines. With bm (stores), bm[4 * line + sector] receives the bytes written (bit per byte).
 * The lanes go by runs of consecutive addresses (a[i + 1] = a[i] + size: a coalesced warp is one run): a run is
 * one range of bytes, touching the same sectors and lines in the same order as its lanes one by one; a lane at
 * the previous lane's address adds nothing; a run inside the last line listed only adds its sectors. */
static int ws_ms_gather(const uint64_t *a, int n, unsigned size, uint64_t *ln, uint8_t *sm, uint32_t *bm, int maxn)
{
    /* sectors first..last of one line, by (first << 2 | last) */
    static const uint8_t span[16] = { 1, 3, 7, 15, 0, 2, 6, 14, 0, 0, 4, 12, 0, 0, 0, 8 };
    ws_ms_lines g;
    g.ln = ln;
    g.sm = sm;
    g.bm = bm;
    g.nl = 0;
    g.maxn = maxn;
    if (!size) size = 1;
    uint64_t base = 0;           /* first byte of line ln[nl - 1] (nl > 0) */
    unsigned cm = 0;             /* sectors of ln[nl - 1] not yet in sm[nl - 1] */
    for (int i = 0; i < n;) {
        uint64_t lo = a[i], e = lo + size;
        int j = i + 1;
        while (j < n && a[j] == e) { j++; e += size; }
        uint64_t last = e - 1;
        if (!bm && g.nl && ((lo - base) | (last - base)) < WS_MS_LINE) {
            cm |= span[((lo >> 3) & 12) | ((last >> 5) & 3)];
        } else {
            if (g.nl) sm[g.nl - 1] |= (uint8_t)cm;
            cm = 0;
            ws_ms_gather_range(&g, lo, e - lo);
            base = g.nl ? ln[g.nl - 1] * WS_MS_LINE : 0;
        }
        /* lanes at the run's last address add nothing */
        const uint64_t end_lo = a[j - 1];
        while (j < n && a[j] == end_lo) j++;
        i = j;
    }
    if (g.nl) sm[g.nl - 1] |= (uint8_t)cm;
    return g.nl;
}

/* For each sector of line ln, the most of the addresses a[0..n) that are one and the same (into chain[4]). */
static void ws_ms_sector_chains(const uint64_t *a, int n, uint64_t ln, uint8_t *chain)
{
    memset(chain, 0, 4);
    for (int i = 0; i < n; i++) {
        if (a[i] / WS_MS_LINE != ln) continue;
        int same = 1, first = 1;
        for (int k = 0; k < n; k++) {
            if (k < i && a[k] == a[i]) { first = 0; break; }
            if (k > i && a[k] == a[i]) same++;
        }
        unsigned s = (unsigned)((a[i] % WS_MS_LINE) / WS_MS_SECTOR);
        if (first && same > chain[s]) chain[s] = (uint8_t)same;
    }
}

/* Where an access's accounting goes: counters, its own counts, and (parallel phase) the queue its L2 transfers wait
 * in; q == NULL: L2 at once. */
typedef struct ws_ms_ctx {
    ws_ms_counts *c;
    ws_ms_access_counts *a;
    ws_ms_defer *q;
} ws_ms_ctx;

/* Append an L2 transfer of line ln's sectors in mask (partial: not wholly written) leaving the SM at t to q; returns
 * its index (the L1's pending tag refers to it). */
static uint32_t ws_ms_defer_req(ws_ms_defer *q, int kind, uint64_t ln, unsigned mask, unsigned partial, uint64_t t)
{
    if (q->nreq == q->capreq) {
        q->capreq = q->capreq ? 2 * q->capreq : 256;
        q->req = realloc(q->req, sizeof *q->req * q->capreq);
    }
    ws_ms_req *r = &q->req[q->nreq];
    r->line = ln;
    r->t = t;
    r->done = 0;
    r->kind = (uint8_t)kind;
    r->mask = (uint8_t)mask;
    r->partial = (uint8_t)partial;
    r->owner = q->owner;
    r->l1 = NULL;
    return q->nreq++;
}

/* The access being accounted waits for request i of q too (a sector still being filled); once per request. */
static void ws_ms_defer_dep(ws_ms_defer *q, uint32_t i)
{
    if (q->ndep > q->dep0 && q->dep[q->ndep - 1] == i) return;
    for (uint32_t k = q->dep0; k < q->ndep; k++) if (q->dep[k] == i) return;
    if (q->ndep == q->capdep) {
        q->capdep = q->capdep ? 2 * q->capdep : 256;
        q->dep = realloc(q->dep, sizeof *q->dep * q->capdep);
    }
    q->dep[q->ndep++] = i;
}

/* Loads, stores or atomics (kind 0, 1, 2) of size bytes at the addresses items[0..nitems) (the active lanes'
 * global addresses, or the interleaved local words): one request; counters, caches, queues; returns the
 * completion cycle. With x->q, the L2's part waits in the queue (atomics never do): a missing sector is marked
 * pending in the L1 (ws_ms_pend tag) and the access depends on its request, as one that hits a pending sector;
 * the returned cycle is then what the L1 alone gives. */
static uint64_t ws_ms_global(ws_memsys *ms, int sm, const uint64_t *items, int nitems, unsigned size, int kind,
                             int local, uint64_t now, const ws_ms_ctx *x)
{
    uint64_t ln[WS_MS_MAXLINES];
    uint8_t smk[WS_MS_MAXLINES];
    uint32_t bm[4 * WS_MS_MAXLINES];
    int n = ws_ms_gather(items, nitems, size, ln, smk, kind == 1 ? bm : NULL, WS_MS_MAXLINES);
    unsigned sectors = 0;
    for (int i = 0; i < n; i++) sectors += (unsigned)__builtin_popcount(smk[i]);
    x->a->requests++;
    x->a->sectors += sectors;
    ws_ms_counts *c = x->c;
    ws_ms_defer *q = x->q;
    if (local) {
        if (kind == 0) { c->lld_requests++; c->lld_sectors += sectors; }
        else { c->lst_requests++; c->lst_sectors += sectors; }
    } else if (kind == 0) { c->gld_requests++; c->gld_sectors += sectors; }
    else if (kind == 1) { c->gst_requests++; c->gst_sectors += sectors; }
    else { c->gatom_requests++; c->gatom_sectors += sectors; }
    c->l1_sectors += sectors;
    /* the SM's L1 data path: one line per cycle */
    uint64_t t = now > ms->pipe[sm] ? now : ms->pipe[sm];
    ms->pipe[sm] = t + (uint64_t)(n ? n : 1);
    ws_ms_cache *l1 = &ms->l1[sm];
    uint64_t done = t + (kind == 1 ? (uint64_t)n : ms->lat_l1);
    for (int i = 0; i < n; i++) {
        unsigned m = smk[i];
        uint64_t ti = t + (uint64_t)i;
        size_t base = 0;
        ws_ms_line *l = ws_ms_lookup(l1, ln[i], &base);
        if (kind == 2) {
            /* atomics are performed at L2; drop stale L1 copies */
            if (l) { l->valid &= (uint8_t)~m; l->spend &= (uint8_t)~m; }
            uint8_t chain[4];
            ws_ms_sector_chains(items, nitems, ln[i], chain);
            if (q) {
                uint32_t r = ws_ms_defer_req(q, WS_MS_REQ_ATOMIC, ln[i], m, 0, ti);
                memcpy(q->req[r].chain, chain, sizeof chain);
                ws_ms_defer_dep(q, r);
                continue;
            }
            uint64_t f = ws_ms_l2_atomic(ms, ln[i], m, chain, ti);
            if (f > done) done = f;
            continue;
        }
        unsigned hit = l ? (m & l->valid) : 0;
        uint64_t pend[4] = { 0, 0, 0, 0 };   /* at once (the serial phase): what the queue says of pending fills */
        if (!q && kind == 0 && hit)
            for (unsigned s = 0; s < 4; s++) {
                if (!(hit & (1u << s)) || l->ready[s] < WS_MS_PEND) continue;
                const ws_ms_defer *pq = ms->defer ? ms->defer[sm] : NULL;
                uint32_t r = (uint32_t)l->ready[s];
                if (pq && r < pq->nreq && pq->req[r].done) pend[s] = pq->req[r].done;   /* done already */
                else hit &= ~(1u << s);   /* asked for later in the window: not there yet at now */
            }
        unsigned miss = m & ~hit, counted = hit;
        if (kind == 1 && l)
            for (unsigned s = 0; s < 4; s++)
                if ((hit & l->spend & (1u << s)) && l->ready[s] > ti) counted &= ~(1u << s);
        c->l1_hit_sectors += (unsigned)__builtin_popcount(counted);
        if (l) ws_ms_touch(l1, base, l);
        if (kind == 0) {
            for (unsigned s = 0; s < 4; s++)
                if ((hit & (1u << s)) && !(l->spend & (1u << s)) && l->ready[s] > done) {
                    if (q && l->ready[s] >= WS_MS_PEND) ws_ms_defer_dep(q, (uint32_t)l->ready[s]);
                    else done = pend[s] ? (pend[s] > done ? pend[s] : done) : l->ready[s];
                }
            if (miss) {
                uint64_t f;
                uint32_t r = 0;
                if (q) {
                    r = ws_ms_defer_req(q, WS_MS_REQ_READ, ln[i], miss, 0, ti);
                    ws_ms_defer_dep(q, r);
                    f = ws_ms_pend(q, r);
                } else f = ws_ms_l2_read(ms, ln[i], miss, ti);
                if (!l) { uint64_t et; uint8_t ed; l = ws_ms_alloc_at(l1, base, ln[i], &et, &ed); }
                if (q) q->req[r].l1 = l;   /* the line its arrival is for (ws_ms_defer_patch) */
                if (l) {
                    for (unsigned s = 0; s < 4; s++) if (miss & (1u << s)) l->ready[s] = f;
                    l->valid |= (uint8_t)miss;
                    l->spend &= (uint8_t)~miss;
                }
                if (!q && f > done) done = f;
            }
        } else {
            /* stores: write through (local stores stay in L1), allocate the written sectors in L1 */
            if (miss && !l) { uint64_t et; uint8_t ed; l = ws_ms_alloc_at(l1, base, ln[i], &et, &ed); }
            if (l) {
                /* a store-allocated sector counts as present for later stores once the write is acknowledged */
                for (unsigned s = 0; s < 4; s++) if ((miss & (1u << s))) l->ready[s] = ti + (local ? 0 : ms->lat_l1);
                if (!local) l->spend |= (uint8_t)miss;
                l->valid |= (uint8_t)m;
            }
            if (!local) {
                unsigned partial = 0;
                for (unsigned s = 0; s < 4; s++)
                    if ((m & (1u << s)) && bm[4 * i + s] != ~0u) partial |= 1u << s;
                if (q) ws_ms_defer_dep(q, ws_ms_defer_req(q, WS_MS_REQ_WRITE, ln[i], m, partial, ti));
                else {
                    uint64_t ack = ws_ms_l2_write(ms, ln[i], m, partial, ti);
                    if (ack > x->a->store_ack) x->a->store_ack = ack;
                }
            }
        }
    }
    return done;
}

/* Perform request i of an SM's queue q (the serial phase, in (cycle, SM) order): its L2 transfer. Returns the
 * arrival (reads) or L2's acknowledgement (writes). */
uint64_t ws_ms_req_do(ws_memsys *ms, ws_ms_defer *q, uint32_t i)
{
    ws_ms_req *r = &q->req[i];
    if (r->kind == WS_MS_REQ_WRITE) return r->done = ws_ms_l2_write(ms, r->line, r->mask, r->partial, r->t);
    if (r->kind == WS_MS_REQ_ATOMIC) return r->done = ws_ms_l2_atomic(ms, r->line, r->mask, r->chain, r->t);
    return r->done = ws_ms_l2_read(ms, r->line, r->mask, r->t);
}

/* After the serial phase: the SM's L1 sectors still waiting for q's reads get their arrival (a line evicted or
 * refilled since holds other tags and is left alone). */
void ws_ms_defer_patch(ws_ms_defer *q)
{
    for (uint32_t i = 0; i < q->nreq; i++) {
        const ws_ms_req *r = &q->req[i];
        if (r->kind != WS_MS_REQ_READ || !r->l1) continue;
        uint64_t tag = ws_ms_pend(q, i);
        for (unsigned s = 0; s < 4; s++) if (r->l1->ready[s] == tag) r->l1->ready[s] = r->done;
    }
}

/* Let the serial phase's accesses of SM sm at once see which of q's transfers are done (NULL: none). */
void ws_ms_attach_defer(ws_memsys *ms, int sm, ws_ms_defer *q)
{
    if (!ms->defer) ms->defer = calloc((size_t)ms->nsm, sizeof *ms->defer);
    if (ms->defer && sm >= 0 && sm < ms->nsm) ms->defer[sm] = q;
}

/* Start a new window of q: no requests, no dependencies; tags of the old window never match again. */
void ws_ms_defer_reset(ws_ms_defer *q)
{
    q->nreq = q->ndep = q->dep0 = 0;
    q->gen = (q->gen + 1) & 0x3fffffffu;
}

/* Free q's arrays. */
void ws_ms_defer_free(ws_ms_defer *q)
{
    free(q->req);
    free(q->dep);
    memset(q, 0, sizeof *q);
}

/* Constant / kernel-parameter loads: the constant cache serves one distinct address per cycle. */
static uint64_t ws_ms_const(ws_memsys *ms, const uint64_t *addr, uint32_t mask, uint64_t now)
{
    uint64_t seen[32];
    int n = 0;
    while (mask) {
        int l = __builtin_ctz(mask);
        mask &= mask - 1;
        int k = 0;
        while (k < n && seen[k] != addr[l]) k++;
        if (k == n) seen[n++] = addr[l];
    }
    return now + ms->lat_const + (uint64_t)(n > 1 ? n - 1 : 0);
}

/* Shared-memory access of the lanes in mask (kind: 0 load, 1 store, 2 atomic), counted into c and a; returns the
 * completion cycle. */
static uint64_t ws_ms_shared_to(ws_memsys *ms, int sm, const uint64_t *addr, uint32_t mask, unsigned size, int kind,
                                uint64_t now, ws_ms_counts *c, ws_ms_access_counts *a)
{
    unsigned wf, bc;
    ws_ms_shared_memo(ms, sm, addr, mask, size, kind == 1, &wf, &bc);
    a->wavefronts += wf;
    if (kind != 2) a->conflicts += bc;   /* as the counters: atomics count wavefronts only */
    if (kind == 0) { c->shld_requests++; c->shld_wavefronts += wf; c->shld_conflicts += bc; }
    else if (kind == 1) { c->shst_requests++; c->shst_wavefronts += wf; c->shst_conflicts += bc; }
    else { c->shatom_requests++; c->shatom_wavefronts += wf; }
    uint64_t t = now > ms->pipe[sm] ? now : ms->pipe[sm];
    ms->pipe[sm] = t + wf;
    if (kind == 1) return t + wf;
    return t + (wf ? wf - 1 : 0) + ms->lat_smem + (kind == 2 ? ms->lat_smem : 0);
}

/* The kind of a memory instruction as the accounting sees it: 0 load, 1 store, 2 atomic or reduction. */
static inline int ws_ms_kind(const ws_insn *in)
{
    return in->mem == WS_MK_STORE ? 1 : (in->mem == WS_MK_ATOMIC || in->mem == WS_MK_REDUCE) ? 2 : 0;
}

/* A shared-memory access with its fusion role given (what ws_ms_access_warp does for lanes m in shared memory). */
static uint64_t ws_ms_shared_fused(ws_memsys *ms, int sm, const ws_rec *rec, uint32_t m, int kind, int role,
                                   unsigned fw, int fd, uint64_t now, ws_ms_counts *c, ws_ms_access_counts *a)
{
    unsigned size = rec->size ? rec->size : 4;
    if (role == WS_MS_FUSE_FOLLOWER) return kind == 1 ? now : now + ms->lat_smem;
    if (role == WS_MS_FUSE_LEADER) {
        uint64_t ad[32];
        for (int l = 0; l < 32; l++) ad[l] = rec->addr[l] - (uint64_t)(int64_t)fd;
        return ws_ms_shared_to(ms, sm, ad, m, fw, kind, now, c, a);
    }
    return ws_ms_shared_to(ms, sm, rec->addr, m, size, kind, now, c, a);
}

/* A warp's access with every executing lane in shared memory, as ws_ms_access_warp accounts it (see memsys.h). */
uint64_t ws_ms_shared_access(ws_memsys *ms, int sm, const ws_rec *rec, int role, unsigned fw, int fd,
                             ws_ms_counts *c, uint64_t now)
{
    ws_ms_access_counts a;
    memset(&a, 0, sizeof a);
    if (!rec || !rec->is_mem || !rec->exec || !rec->in) return now;
    if (sm < 0 || sm >= ms->nsm) sm = ((sm % ms->nsm) + ms->nsm) % ms->nsm;
    int kind = ws_ms_kind(rec->in);
    if (kind == 2) role = WS_MS_FUSE_NONE;
    uint64_t f = ws_ms_shared_fused(ms, sm, rec, rec->exec, kind, role, fw, fd, now, c, &a);
    return f > now ? f : now;
}

/* Add counters that ws_ms_shared_access gathered to the memory system's. */
void ws_ms_counts_add(ws_memsys *ms, const ws_ms_counts *c)
{
    uint64_t *d = (uint64_t *)&ms->c;
    const uint64_t *x = (const uint64_t *)c;
    for (size_t i = 0; i < sizeof *c / sizeof *d; i++) d[i] += x[i];
}

/* Whether the 32 lanes' spaces are all one (compared eight at a time). */
static inline int ws_ms_one_space(const uint8_t *space)
{
    uint64_t v[4], all = 0x0101010101010101ull * space[0];
    memcpy(v, space, sizeof v);
    return v[0] == all && v[1] == all && v[2] == all && v[3] == all;
}

/* Account one memory warp instruction of warp warp_key (a number unique among the resident warps; it places the
 * warp's local memory) on SM sm at cycle now into x; role/fw/fd: its shared-memory fusion (role < 0: look it up);
 * returns when its data is available / the store left the SM (with x->q: as far as the L1 alone says). */
static uint64_t ws_ms_access_to(ws_memsys *ms, int sm, uint64_t warp_key, const ws_rec *rec, int role, unsigned fw,
                                int fd, uint64_t now, const ws_ms_ctx *x)
{
    if (!rec || !rec->is_mem || !rec->exec || !rec->in) return now;
    if (sm < 0 || sm >= ms->nsm) sm = ((sm % ms->nsm) + ms->nsm) % ms->nsm;
    const ws_insn *in = rec->in;
    int kind = ws_ms_kind(in);
    unsigned size = rec->size ? rec->size : 4;
    uint32_t todo = rec->exec;
    uint64_t done = now;
    int uniform = ws_ms_one_space(rec->space);
    while (todo) {
        /* lanes of one resolved space (generic pointers may mix spaces) */
        int sp = rec->space[__builtin_ctz(todo)];
        uint32_t m = 0;
        if (uniform) m = todo;   /* one space for every lane (an explicit state space) */
        else
            for (uint32_t t = todo; t;) {
                int l = __builtin_ctz(t);
                t &= t - 1;
                if (rec->space[l] == sp) m |= 1u << l;
            }
        todo &= ~m;
        uint64_t f = now;
        if (sp == WS_S_SHARED) {
            int r = kind == 2 ? WS_MS_FUSE_NONE : role >= 0 ? role : ws_ms_fusion(ms, rec->fn, in, &fw, &fd);
            f = ws_ms_shared_fused(ms, sm, rec, m, kind, r, fw, fd, now, x->c, x->a);
        } else if (sp == WS_S_GLOBAL) {
            uint64_t it[32];
            int n = 0;
            if (m == 0xffffffffu) f = ws_ms_global(ms, sm, rec->addr, 32, size, kind, 0, now, x);   /* every lane */
            else {
                for (uint32_t t = m; t; t &= t - 1) it[n++] = rec->addr[__builtin_ctz(t)];
                f = ws_ms_global(ms, sm, it, n, size, kind, 0, now, x);
            }
        } else if (sp == WS_S_LOCAL) {
            /* local memory is interleaved by 32-bit words across the warp's lanes: word k of lane l's frame is at
             * warp base + k * 128 + l * 4, so a warp reading one offset touches 128 contiguous bytes */
            uint64_t it[128];
            int n = 0;
            uint64_t base = WS_MS_LOCAL_TAG + (warp_key << 32);
            unsigned words = size > 4 ? (size + 3) / 4 : 1;
            for (uint32_t t = m; t; t &= t - 1) {
                int l = __builtin_ctz(t);
                for (unsigned k = 0; k < words && n < 128; k++) {
                    uint64_t off = rec->addr[l] + 4 * (uint64_t)k;
                    it[n++] = base + (off >> 2) * 128 + (uint64_t)l * 4 + (off & 3);
                }
            }
            f = ws_ms_global(ms, sm, it, n, size > 4 ? 4 : size, kind == 2 ? 1 : kind, 1, now, x);
        } else if (sp == WS_S_DSMEM) {
            /* another block's shared memory through the SM-to-SM network of the GPC: no cache, no sectors */
            f = now + WS_MS_LAT_DSMEM;
        } else {
            f = ws_ms_const(ms, rec->addr, m, now);
        }
        if (f > done) done = f;
    }
    return done;
}

/* Account one memory warp instruction of warp warp_key on SM sm at cycle now (see memsys.h). */
uint64_t ws_ms_access_warp(ws_memsys *ms, int sm, uint64_t warp_key, const ws_rec *rec, uint64_t now)
{
    memset(&ms->acc, 0, sizeof ms->acc);
    ws_ms_ctx x = { &ms->c, &ms->acc, NULL };
    return ws_ms_access_to(ms, sm, warp_key, rec, -1, 0, 0, now, &x);
}

/* The parallel part of an access (see memsys.h). */
uint64_t ws_ms_access_l1(ws_memsys *ms, int sm, uint64_t warp_key, const ws_rec *rec, int role, unsigned fw, int fd,
                         uint64_t now, ws_ms_counts *c, ws_ms_access_counts *a, ws_ms_defer *q)
{
    memset(a, 0, sizeof *a);
    q->dep0 = q->ndep;
    ws_ms_ctx x = { c, a, q };
    return ws_ms_access_to(ms, sm, warp_key, rec, role < 0 ? WS_MS_FUSE_NONE : role, fw, fd, now, &x);
}

/* The accesses of one matrix or asynchronous-copy warp instruction into x (see memsys.h). */
static uint64_t ws_ms_matrix_to(ws_memsys *ms, int sm, const ws_mx_access *acc, int n, int is_write, uint64_t now,
                                const ws_ms_ctx *x)
{
    if (sm < 0 || sm >= ms->nsm) sm = ((sm % ms->nsm) + ms->nsm) % ms->nsm;
    uint64_t done = now;
    for (int k = 0; k < n; k++) {
        const ws_mx_access *a = &acc[k];
        if (!a->mask) continue;
        uint64_t f;
        if (a->space == WS_S_SHARED) f = ws_ms_shared_to(ms, sm, a->addr, a->mask, a->size, is_write, now, x->c, x->a);
        else {
            uint64_t it[32];
            int m = 0;
            for (uint32_t t = a->mask; t; t &= t - 1) it[m++] = a->addr[__builtin_ctz(t)];
            f = ws_ms_global(ms, sm, it, m, a->size, is_write, 0, now, x);
        }
        if (f > done) done = f;
    }
    return done;
}

/* The accesses of one matrix or asynchronous-copy warp instruction (see memsys.h). */
uint64_t ws_ms_matrix(ws_memsys *ms, int sm, const ws_mx_access *acc, int n, int is_write, uint64_t now)
{
    memset(&ms->acc, 0, sizeof ms->acc);
    ws_ms_ctx x = { &ms->c, &ms->acc, NULL };
    return ws_ms_matrix_to(ms, sm, acc, n, is_write, now, &x);
}

/* The parallel part of a matrix load's accesses (see memsys.h). */
uint64_t ws_ms_matrix_l1(ws_memsys *ms, int sm, const ws_mx_access *acc, int n, uint64_t now, ws_ms_counts *c,
                         ws_ms_access_counts *a, ws_ms_defer *q)
{
    memset(a, 0, sizeof *a);
    q->dep0 = q->ndep;
    ws_ms_ctx x = { c, a, q };
    return ws_ms_matrix_to(ms, sm, acc, n, 0, now, &x);
}

/* A bulk copy's global footprint (runs of address, bytes): the TMA unit's traffic goes to L2 without the L1 and
 * the LSU path (Nsight Compute counts it in lts__t_sectors_srcunit_tex_op_read, not in the l1tex LSU global
 * sectors, measured on an H200), one 128-byte line per cycle from now; returns when the last sector arrives
 * (reads) or was accepted (writes, is_write). */
uint64_t ws_ms_bulk(ws_memsys *ms, int sm, const uint64_t *runs, int nruns, int is_write, uint64_t now)
{
    (void)sm;
    uint64_t done = now, t = now, line = ~0ull;
    unsigned mask = 0, full = 0;
    double tw = (double)now;   /* a copy to global memory: when its next line leaves the SM */
    for (int r = 0; r <= nruns; r++) {
        uint64_t a = r < nruns ? runs[2 * r] : 0, end = r < nruns ? a + runs[2 * r + 1] : 0;
        for (; r == nruns || a < end; a = (a / WS_MS_SECTOR + 1) * WS_MS_SECTOR) {
            uint64_t ln = r < nruns ? a / (4 * WS_MS_SECTOR) : ~1ull;
            if (ln != line && mask) {   /* the previous line is complete */
                if (is_write) {   /* done when L2 has acknowledged the last line */
                    uint64_t ack = ws_ms_l2_write(ms, line, mask, mask & ~full, (uint64_t)tw);
                    if (ack > done) done = ack;
                    tw += ms->bulk_store_cpl;
                } else { uint64_t f = ws_ms_l2_read(ms, line, mask, t); if (f > done) done = f; }
                t++;
                mask = full = 0;
            }
            if (r == nruns) break;
            line = ln;
            unsigned sct = (unsigned)((a / WS_MS_SECTOR) & 3);
            uint64_t s0 = (a / WS_MS_SECTOR) * WS_MS_SECTOR, e = end < s0 + WS_MS_SECTOR ? end : s0 + WS_MS_SECTOR;
            mask |= 1u << sct;
            if (a == s0 && e == s0 + WS_MS_SECTOR) full |= 1u << sct;   /* a whole sector written */
        }
    }
    return done;
}

/* What the most recent access added to the counters. */
const ws_ms_access_counts *ws_ms_last_access(const ws_memsys *ms) { return &ms->acc; }

/* Account one memory warp instruction issued by a warp on SM sm at cycle now (local memory of all warps of
 * the SM shares one placement: use ws_ms_access_warp when local traffic matters). */
uint64_t ws_ms_access(ws_memsys *ms, int sm, const ws_rec *rec, uint64_t now)
{
    return ws_ms_access_warp(ms, sm, (uint64_t)(sm >= 0 ? sm : 0), rec, now);
}
