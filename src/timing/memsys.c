/* memsys.c - the memory side of the timing model (memsys.h): creation and configuration, and each memory warp
 * instruction sent to its parts: ms_shared.c (shared-memory banks), ms_global.c (coalescer, sectored L1 per SM,
 * sectored write-back L2, DRAM with latency and bandwidth), ms_cache.c (the caches), ms_bw.c (bandwidth ledgers).
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
#include "ms_int.h"
#include "../mem/huge.h"

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
    ms->slab_bytes = (size_t)ms->nsm * ws_ms_cache_bytes(dev->l1_smem_per_sm, WS_MS_L1_WAYS, sizeof(ws_ms_line)) +
                     (ms->have_l2 ? ws_ms_cache_bytes(dev->l2_size, WS_MS_L2_WAYS, sizeof(ws_ms_lstate)) : 0);
    ms->slab = ws_huge_alloc(ms->slab_bytes);
    int bad = !ms->l1 || !ms->pipe || !ms->bmemo || !ms->slab;
    uint8_t *slab = ms->slab;
    for (int s = 0; s < ms->nsm && !bad; s++) ws_ms_cache_init(&ms->l1[s], dev->l1_smem_per_sm, ms->l1_bytes, WS_MS_L1_WAYS,
                                                                        sizeof(ws_ms_line), &slab);
    if (!bad && ms->have_l2) ws_ms_cache_init(&ms->l2, dev->l2_size, dev->l2_size, WS_MS_L2_WAYS, sizeof(ws_ms_lstate), &slab);
    if (!bad && ms->have_l2) {
        ms->l2ready = ws_huge_alloc(ms->l2.cap_lines * 4 * sizeof *ms->l2ready);
        bad = !ms->l2ready;
    }
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
    if (ms->l2ready) ws_huge_free(ms->l2ready, ms->l2.cap_lines * 4 * sizeof *ms->l2ready);
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
    /* every L2 line's ready cycles read as 0 from now on (the tag stage restarts a line of another epoch); after
     * 2^32 - 1 launches, reset for real so that no line's stale epoch can come round again */
    if (++ms->l2.epoch == 0 && ms->l2.lines) {
        for (size_t i = 0; i < ms->l2.cap_lines; i++) ws_ms_state(&ms->l2, i)->epoch = 0;
        memset(ms->l2ready, 0, ms->l2.cap_lines * 4 * sizeof *ms->l2ready);
    }
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

/* What the most recent access added to the counters. */
const ws_ms_access_counts *ws_ms_last_access(const ws_memsys *ms) { return &ms->acc; }

/* Account one memory warp instruction issued by a warp on SM sm at cycle now (local memory of all warps of
 * the SM shares one placement: use ws_ms_access_warp when local traffic matters). */
uint64_t ws_ms_access(ws_memsys *ms, int sm, const ws_rec *rec, uint64_t now)
{
    return ws_ms_access_warp(ms, sm, (uint64_t)(sm >= 0 ? sm : 0), rec, now);
}
