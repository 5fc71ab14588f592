/* ms_global.c - the global path of the memory system: the coalescer (a warp's lines and sectors), the L1's part
 * of an access, the L2 and DRAM (fills, write-back, atomics), the queues of L2 transfers that the timing model's
 * parallel phase leaves to its serial phase, and bulk copies. */
#include "ms_int.h"

/* ---------- L2 and DRAM: each transfer in two stages ----------
 * The tag stage (ws_ms_l2_tag) does what no time changes: the L2's tags and LRU order, allocations, evictions and
 * the sectors' valid, dirty and fetched-only bits. The time stage (ws_ms_l2_time) does the rest from what the tag
 * stage left in a ws_ms_l2tag: the bandwidth ledgers, the sectors' ready cycles and the counters. The time stages
 * must come in the order of the tag stages, but may come later: a line's ready cycles belong to the time stage
 * alone (ms->l2ready, apart from the lines; an allocation or another epoch leaves them to it), so the serial phase
 * can run the tag stages of its transfers on another thread ahead of their time stages. */

/* Tag stage of a DRAM fill of the missing sectors in need of line l: the 64-byte pairs they belong to become valid
 * (the halves not asked for marked fetched-only); records them in o->fetch. */
static void ws_ms_fill_tag(ws_ms_lstate *l, unsigned need, ws_ms_l2tag *o)
{
    unsigned fetch = 0;
    for (unsigned p = 0; p < 4; p += 2) {
        unsigned pm = 3u << p;
        if (need & pm) fetch |= pm & ~(unsigned)l->valid;
    }
    l->valid |= (uint8_t)fetch;
    l->pf |= (uint8_t)(fetch & ~need);
    o->fetch = (uint8_t)fetch;
}

/* Time stage of that fill at cycle t into the ready cycles rd of its line; returns the cycle the data is in L2. */
static uint64_t ws_ms_fill_time(ws_memsys *ms, uint64_t *rd, unsigned fetch, uint64_t t)
{
    unsigned n = (unsigned)__builtin_popcount(fetch);
    if (!n) return t;
    uint64_t done = ws_ms_bw_take(&ms->dram, t, (double)n * WS_MS_SECTOR) + ms->lat_dram - ms->lat_l2;
    ms->c.dram_read_bytes += (uint64_t)n * WS_MS_SECTOR;
    for (unsigned s = 0; s < 4; s++)
        if (fetch & (1u << s)) rd[s] = done;
    return done;
}

/* Tag stage of an L2 transfer (WS_MS_REQ_*) of the sectors in mask of line ln (see above). */
static void ws_ms_l2_tag(ws_memsys *ms, int kind, uint64_t ln, unsigned mask, ws_ms_l2tag *o)
{
    memset(o, 0, sizeof *o);
    if (!ms->have_l2) return;
    ws_ms_cache *c = &ms->l2;
    size_t base = 0;
    int w = ws_ms_find(c, ln, &base);
    ws_ms_lstate *l;
    if (w >= 0) {
        l = ws_ms_state(c, base + (size_t)w);
        ws_ms_rank_touch(c, base, (uint32_t)w);
        if (l->epoch != c->epoch) {   /* as ws_ms_new_launch would have: its ready cycles restart (time stage) */
            l->epoch = c->epoch;
            o->fresh = 1;
        }
    } else {   /* allocated, a dirty victim written back (time stage) */
        uint64_t evt;
        uint8_t evd;
        w = ws_ms_alloc(c, base, ln, &evt, &evd);
        l = ws_ms_state(c, base + (size_t)w);
        o->evd = evd;
        o->fresh = 1;
    }
    o->slot = (uint32_t)(base + (size_t)w);
    o->valid = l->valid;
    o->pf = l->pf;
    unsigned miss = mask & ~(unsigned)l->valid;
    if (kind == WS_MS_REQ_WRITE) {   /* write-back, allocate without fetch */
        l->valid |= (uint8_t)mask;
        l->dirty |= (uint8_t)mask;
    } else if (kind == WS_MS_REQ_ATOMIC) {   /* an atomic reads the old value: absent sectors are fetched */
        if (miss) ws_ms_fill_tag(l, miss, o);
        l->dirty |= (uint8_t)mask;
    } else {
        l->pf &= (uint8_t)~mask;
        if (miss) ws_ms_fill_tag(l, miss, o);
    }
}

/* Time stage of an L2 transfer (WS_MS_REQ_*) of the sectors in mask of line ln (partial: not wholly written;
 * chain: an atomic's longest chains per sector, see ws_ms_l2_now) leaving its SM at cycle t, after its tag stage
 * o: returns when the data is back at the SM (reads, atomics) or L2's acknowledgement is (writes). */
static uint64_t ws_ms_l2_time(ws_memsys *ms, int kind, uint64_t ln, unsigned mask, unsigned partial,
                              const uint8_t *chain, uint64_t t, const ws_ms_l2tag *o)
{
    unsigned n = (unsigned)__builtin_popcount(mask);
    unsigned np = kind == WS_MS_REQ_WRITE ? (unsigned)__builtin_popcount(partial & mask) : 0;
    ms->c.l2_sectors += n;
    if (kind == WS_MS_REQ_READ) ms->c.l2_read_sectors_from_l1 += n;
    if (kind == WS_MS_REQ_WRITE) ms->c.l2_hit_sectors += n;
    /* written sectors not wholly written cost the L2 twice the bandwidth (see ws_ms_l2_now) */
    uint64_t t2 = ws_ms_bw_take(&ms->l2bw, t, (double)(n + np) * WS_MS_SECTOR);
    uint64_t ready = t2;
    if (!ms->have_l2) {
        if (kind == WS_MS_REQ_WRITE) {
            ms->c.dram_write_bytes += (uint64_t)n * WS_MS_SECTOR;
            return ws_ms_bw_take(&ms->dram, t2, (double)n * WS_MS_SECTOR) + ms->lat_dram;
        }
        ms->c.dram_read_bytes += (uint64_t)n * WS_MS_SECTOR;
        if (kind == WS_MS_REQ_READ) return ws_ms_bw_take(&ms->dram, t2, (double)n * WS_MS_SECTOR) + ms->lat_dram;
        ready = ws_ms_bw_take(&ms->dram, t2, (double)n * WS_MS_SECTOR) + ms->lat_dram - ms->lat_l2;
    } else {
        uint64_t *rd = ms->l2ready + (size_t)o->slot * 4;
        if (o->fresh) memset(rd, 0, 4 * sizeof *rd);
        if (o->evd) {
            unsigned ne = (unsigned)__builtin_popcount(o->evd);
            ms->c.dram_write_bytes += (uint64_t)ne * WS_MS_SECTOR;
            ws_ms_bw_take(&ms->dram, t2, (double)ne * WS_MS_SECTOR);
        }
        unsigned hit = mask & o->valid;
        if (kind == WS_MS_REQ_WRITE) {
            for (unsigned s = 0; s < 4; s++)
                if ((mask & (1u << s)) && !(o->valid & (1u << s))) rd[s] = t2;
            return t2 + ms->lat_l2;   /* the acknowledgement: a round trip to the slice after the data was accepted */
        }
        if (kind == WS_MS_REQ_READ) {
            /* a sector that came only as the other half of a DRAM pair and is still on its way counts as a miss
             * (ncu: hist's neighbouring warps' sectors miss, copy_col's later blocks' sectors hit) */
            unsigned counted = hit;
            for (unsigned s = 0; s < 4; s++)
                if ((hit & o->pf & (1u << s)) && rd[s] > t2) counted &= ~(1u << s);
            ms->c.l2_hit_sectors += (unsigned)__builtin_popcount(counted);
            uint64_t done = t2 + ms->lat_l2;
            for (unsigned s = 0; s < 4; s++)
                if ((hit & (1u << s)) && rd[s] + ms->lat_l2 > done) done = rd[s] + ms->lat_l2;
            if (mask & ~hit) {
                uint64_t f = ws_ms_fill_time(ms, rd, o->fetch, t2) + ms->lat_l2;
                if (f > done) done = f;
            }
            return done;
        }
        ms->c.l2_hit_sectors += (unsigned)__builtin_popcount(hit);
        for (unsigned s = 0; s < 4; s++)
            if ((hit & (1u << s)) && rd[s] > ready) ready = rd[s];   /* data still arriving */
        if (mask & ~hit) {
            uint64_t f = ws_ms_fill_time(ms, rd, o->fetch, t2);
            if (f > ready) ready = f;
        }
    }
    /* an atomic: the slice's atomic unit updates every word of a sector at once, but operations on the same word
     * follow one another */
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

/* An L2 transfer (WS_MS_REQ_*) of the sectors in mask of line ln leaving its SM at cycle t, both stages at once:
 * - a read (the L1 missed them) counts lookups, hits and DRAM fills; returns when the data is back at the SM;
 * - a write (write-back, allocate without fetch: a hit) returns when the SM has L2's acknowledgement; sectors in
 *   partial (not every byte written) cost the L2 twice the bandwidth (a read-modify-write of the sector: copy_col's
 *   4-byte stores to 32 lines per request take 36k cycles on the H200, twice what full sectors would);
 * - an atomic or reduction (chain[s]: the most lanes that operate on one word of sector s) fetches absent sectors
 *   (it reads the old value); the slice's atomic unit updates every word of a sector at once, but operations on the
 *   same word follow one another: a sector costs l2_atomic_cycles (the read-modify-write of one word: dot_shfl -
 *   dot_tree) per operation of its longest chain (a warp's 32 lanes on 8 words: 4). Returns when the results are
 *   back. */
static uint64_t ws_ms_l2_now(ws_memsys *ms, int kind, uint64_t ln, unsigned mask, unsigned partial,
                             const uint8_t *chain, uint64_t t)
{
    ws_ms_l2tag o;
    ws_ms_l2_tag(ms, kind, ln, mask, &o);
    return ws_ms_l2_time(ms, kind, ln, mask, partial, chain, t, &o);
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
        unsigned s0 = (unsigned)(p % WS_MS_LINE) / WS_MS_SECTOR;
        unsigned s1 = (unsigned)((lend - 1) % WS_MS_LINE) / WS_MS_SECTOR;
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
uint64_t ws_ms_global(ws_memsys *ms, int sm, const uint64_t *items, int nitems, unsigned size, int kind,
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
        int way;
        ws_ms_line *l = ws_ms_l1_lookup(l1, ln[i], &base, &way);
        if (kind == 2) {
            /* atomics are performed at L2; drop stale L1 copies */
            if (l) { l->s.valid &= (uint8_t)~m; l->s.spend &= (uint8_t)~m; }
            uint8_t chain[4];
            ws_ms_sector_chains(items, nitems, ln[i], chain);
            if (q) {
                uint32_t r = ws_ms_defer_req(q, WS_MS_REQ_ATOMIC, ln[i], m, 0, ti);
                memcpy(q->req[r].chain, chain, sizeof chain);
                ws_ms_defer_dep(q, r);
                continue;
            }
            uint64_t f = ws_ms_l2_now(ms, WS_MS_REQ_ATOMIC, ln[i], m, 0, chain, ti);
            if (f > done) done = f;
            continue;
        }
        unsigned hit = l ? (m & l->s.valid) : 0;
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
                if ((hit & l->s.spend & (1u << s)) && l->ready[s] > ti) counted &= ~(1u << s);
        c->l1_hit_sectors += (unsigned)__builtin_popcount(counted);
        if (l) ws_ms_rank_touch(l1, base, (uint32_t)way);
        if (kind == 0) {
            for (unsigned s = 0; s < 4; s++)
                if ((hit & (1u << s)) && !(l->s.spend & (1u << s)) && l->ready[s] > done) {
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
                } else f = ws_ms_l2_now(ms, WS_MS_REQ_READ, ln[i], miss, 0, NULL, ti);
                if (!l) l = ws_ms_l1_alloc(l1, base, ln[i]);
                if (q) q->req[r].l1 = l;   /* the line its arrival is for (ws_ms_defer_patch) */
                if (l) {
                    for (unsigned s = 0; s < 4; s++) if (miss & (1u << s)) l->ready[s] = f;
                    l->s.valid |= (uint8_t)miss;
                    l->s.spend &= (uint8_t)~miss;
                }
                if (!q && f > done) done = f;
            }
        } else {
            /* stores: write through (local stores stay in L1), allocate the written sectors in L1 */
            if (miss && !l) l = ws_ms_l1_alloc(l1, base, ln[i]);
            if (l) {
                /* a store-allocated sector counts as present for later stores once the write is acknowledged */
                for (unsigned s = 0; s < 4; s++) if ((miss & (1u << s))) l->ready[s] = ti + (local ? 0 : ms->lat_l1);
                if (!local) l->s.spend |= (uint8_t)miss;
                l->s.valid |= (uint8_t)m;
            }
            if (!local) {
                unsigned partial = 0;
                for (unsigned s = 0; s < 4; s++)
                    if ((m & (1u << s)) && bm[4 * i + s] != ~0u) partial |= 1u << s;
                if (q) ws_ms_defer_dep(q, ws_ms_defer_req(q, WS_MS_REQ_WRITE, ln[i], m, partial, ti));
                else {
                    uint64_t ack = ws_ms_l2_now(ms, WS_MS_REQ_WRITE, ln[i], m, partial, NULL, ti);
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
    return r->done = ws_ms_l2_now(ms, r->kind, r->line, r->mask, r->partial, r->chain, r->t);
}

/* The tag stage of request i of q (see memsys.h). */
void ws_ms_req_tag(ws_memsys *ms, const ws_ms_defer *q, uint32_t i, ws_ms_l2tag *o)
{
    const ws_ms_req *r = &q->req[i];
    ws_ms_l2_tag(ms, r->kind, r->line, r->mask, o);
}

/* The time stage of request i of q after its tag stage o (see memsys.h). */
uint64_t ws_ms_req_time(ws_memsys *ms, ws_ms_defer *q, uint32_t i, const ws_ms_l2tag *o)
{
    ws_ms_req *r = &q->req[i];
    return r->done = ws_ms_l2_time(ms, r->kind, r->line, r->mask, r->partial, r->chain, r->t, o);
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
                    uint64_t ack = ws_ms_l2_now(ms, WS_MS_REQ_WRITE, line, mask, mask & ~full, NULL, (uint64_t)tw);
                    if (ack > done) done = ack;
                    tw += ms->bulk_store_cpl;
                } else {
                    uint64_t f = ws_ms_l2_now(ms, WS_MS_REQ_READ, line, mask, 0, NULL, t);
                    if (f > done) done = f;
                }
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
