/* test_memsys.c - the memory system (src/timing/memsys.c) against hand-computed expectations: coalescing into
 * requests and 32-byte sectors, shared-memory wavefronts / bank conflicts / broadcast (including the 64- and
 * 128-bit rules measured on the H200), L1/L2 hits and latencies, LRU eviction, write-back, flush, DRAM and atomic
 * queueing, and ptxas's LDS.128 fusion. Prints one line per check; exits nonzero on any failure. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/exec.h"
#include "core/observe.h"
#include "core/sim.h"
#include "device/device.h"
#include "timing/memsys.h"

static int g_fail, g_checks;

static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record one check: print PASS/FAIL with a description. */
static void check(int ok, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    g_checks++;
    if (!ok) g_fail++;
    printf("%s  %s\n", ok ? "PASS" : "FAIL", msg);
}

/* Load a preset or abort. */
static const ws_device *dev(const char *name)
{
    char err[1024];
    const ws_device *d = ws_device_get(name, err, sizeof err);
    if (!d) { printf("FAIL  load preset %s: %s\n", name, err); exit(1); }
    return d;
}

static ws_insn g_insn;

/* A memory record: op (WS_OP_LD/ST/ATOM), space, bytes per lane, lanes, address of lane l = base + l * stride. */
static ws_rec rec(int op, int space, unsigned size, uint32_t mask, uint64_t base, int64_t stride)
{
    ws_rec r;
    memset(&r, 0, sizeof r);
    memset(&g_insn, 0, sizeof g_insn);
    g_insn.op = (uint16_t)op;
    g_insn.space = (uint8_t)space;
    g_insn.type = WS_T_B32;
    g_insn.vec = 1;
    g_insn.guard = -1;
    g_insn.base = -1;
    g_insn.sym = -1;
    ws_insn_classify(&g_insn);
    r.in = &g_insn;
    r.active = r.exec = mask;
    r.is_mem = 1;
    r.is_write = op != WS_OP_LD;
    r.is_read = op != WS_OP_ST;
    r.size = size;
    for (int l = 0; l < 32; l++) {
        r.space[l] = (uint8_t)space;
        r.addr[l] = (uint64_t)((int64_t)base + (int64_t)l * stride);
    }
    return r;
}

/* Counters of one access on a fresh memory system of device d. */
static ws_ms_counts one(const ws_device *d, const ws_rec *r)
{
    ws_memsys *ms = ws_ms_create(d);
    ws_ms_access(ms, 0, r, 0);
    ws_ms_counts c = *ws_ms_counts_get(ms);
    ws_ms_destroy(ms);
    return c;
}

/* Global-load coalescing check: requests and sectors of one warp load. */
static void coal(const ws_device *d, const char *what, unsigned size, uint32_t mask, uint64_t base, int64_t stride,
                 unsigned want_req, unsigned want_sec)
{
    ws_rec r = rec(WS_OP_LD, WS_S_GLOBAL, size, mask, base, stride);
    ws_ms_counts c = one(d, &r);
    check(c.gld_requests == want_req && c.gld_sectors == want_sec, "coalescer %-44s -> %llu request(s), %llu sectors (want %u, %u)",
          what, (unsigned long long)c.gld_requests, (unsigned long long)c.gld_sectors, want_req, want_sec);
}

/* Shared-memory check: wavefronts and conflicts of one access with per-lane addresses a[]. */
static void shm(const ws_device *d, const char *what, unsigned width, int store, uint32_t mask, const uint64_t *a,
                unsigned want_wf, unsigned want_bc)
{
    ws_memsys *ms = ws_ms_create(d);
    unsigned wf, bc;
    ws_ms_shared_wavefronts(ms, a, mask, width, store, &wf, &bc);
    ws_ms_destroy(ms);
    check(wf == want_wf && bc == want_bc, "shared %-50s -> %u wavefronts, %u conflicts (want %u, %u)", what, wf, bc,
          want_wf, want_bc);
}

/* Fill a[l] = base + l * stride for 32 lanes. */
static void lanes(uint64_t *a, uint64_t base, uint64_t stride)
{
    for (int l = 0; l < 32; l++) a[l] = base + (uint64_t)l * stride;
}

/* ---- coalescer ---- */
static void t_coalescer(void)
{
    const ws_device *d = dev("h200");
    uint64_t g = 0x300000001000ull;   /* 128-byte aligned global address */
    coal(d, "32 x 4 B consecutive, aligned", 4, ~0u, g, 4, 1, 4);
    coal(d, "32 x 4 B consecutive, 4 B off a sector", 4, ~0u, g + 4, 4, 1, 5);
    coal(d, "32 x 4 B, stride 32 B", 4, ~0u, g, 32, 1, 32);
    coal(d, "32 x 4 B, stride 128 B (32 lines)", 4, ~0u, g, 128, 1, 32);
    coal(d, "32 x 4 B, stride 8 B (two per sector)", 4, ~0u, g, 8, 1, 8);
    coal(d, "32 lanes, one address", 4, ~0u, g + 64, 0, 1, 1);
    coal(d, "32 x 8 B consecutive (ld.v2)", 8, ~0u, g, 8, 1, 8);
    coal(d, "32 x 16 B consecutive (ld.v4: one request)", 16, ~0u, g, 16, 1, 16);
    coal(d, "1 lane, 8 B at sector offset 28 (straddles)", 8, 1u, g + 28, 0, 1, 2);
    coal(d, "1 lane, 16 B at line offset 120 (two lines)", 16, 1u, g + 120, 0, 1, 2);
    coal(d, "lane 7 alone", 4, 1u << 7, g, 4, 1, 1);
    coal(d, "32 x 1 B consecutive (u8)", 1, ~0u, g, 1, 1, 1);
    coal(d, "odd lanes, 4 B consecutive", 4, 0xAAAAAAAAu, g, 4, 1, 4);
    coal(d, "no active lane", 4, 0u, g, 4, 0, 0);

    ws_rec r = rec(WS_OP_ST, WS_S_GLOBAL, 4, ~0u, g, 4);
    ws_ms_counts c = one(d, &r);
    check(c.gst_requests == 1 && c.gst_sectors == 4 && c.gld_requests == 0,
          "coalescer store 32 x 4 B -> %llu st request, %llu sectors, %llu ld requests (want 1, 4, 0)",
          (unsigned long long)c.gst_requests, (unsigned long long)c.gst_sectors, (unsigned long long)c.gld_requests);
    r = rec(WS_OP_ATOM, WS_S_GLOBAL, 4, ~0u, g, 0);
    c = one(d, &r);
    check(c.gatom_requests == 1 && c.gatom_sectors == 1 && c.gld_requests == 0 && c.gst_requests == 0,
          "coalescer atomic, 32 lanes one address -> %llu atomic request, %llu sector, not ld/st (want 1, 1)",
          (unsigned long long)c.gatom_requests, (unsigned long long)c.gatom_sectors);
    r = rec(WS_OP_ATOM, WS_S_GLOBAL, 4, ~0u, g, 32);
    c = one(d, &r);
    check(c.gatom_requests == 1 && c.gatom_sectors == 32, "coalescer atomic, 32 lanes 32 B apart -> %llu request, %llu sectors (want 1, 32)",
          (unsigned long long)c.gatom_requests, (unsigned long long)c.gatom_sectors);
    /* local memory: interleaved by 32-bit words across the warp */
    r = rec(WS_OP_LD, WS_S_LOCAL, 4, ~0u, 16, 0);
    c = one(d, &r);
    check(c.lld_requests == 1 && c.lld_sectors == 4 && c.gld_requests == 0,
          "local load, every lane offset 16 -> %llu request, %llu sectors, no global (want 1, 4: interleaved)",
          (unsigned long long)c.lld_requests, (unsigned long long)c.lld_sectors);
    r = rec(WS_OP_ST, WS_S_LOCAL, 8, ~0u, 8, 0);
    c = one(d, &r);
    check(c.lst_requests == 1 && c.lst_sectors == 8, "local store 8 B, every lane offset 8 -> %llu request, %llu sectors (want 1, 8)",
          (unsigned long long)c.lst_requests, (unsigned long long)c.lst_sectors);
    r = rec(WS_OP_LD, WS_S_LOCAL, 4, ~0u, 0, 4);
    c = one(d, &r);
    check(c.lld_sectors == 32, "local load, lane l at offset 4 l -> %llu sectors (want 32: one word of each lane's row)",
          (unsigned long long)c.lld_sectors);
}

/* ---- shared memory ---- */
static void t_shared(void)
{
    const ws_device *d = dev("h200");
    uint64_t a[32];
    lanes(a, 0, 4);
    shm(d, "32-bit, consecutive words", 4, 0, ~0u, a, 1, 0);
    lanes(a, 0, 8);
    shm(d, "32-bit, stride 2 words (2-way)", 4, 0, ~0u, a, 2, 1);
    lanes(a, 0, 128);
    shm(d, "32-bit, stride 32 words (column of float[32][32])", 4, 0, ~0u, a, 32, 31);
    lanes(a, 0, 132);
    shm(d, "32-bit, stride 33 words (column of float[32][33])", 4, 0, ~0u, a, 1, 0);
    lanes(a, 12, 0);
    shm(d, "32-bit, one word (broadcast)", 4, 0, ~0u, a, 1, 0);
    for (int l = 0; l < 32; l++) a[l] = l < 16 ? 0 : 128;
    shm(d, "32-bit, two words of one bank", 4, 0, ~0u, a, 2, 1);
    lanes(a, 0, 4);
    a[5] = a[9] = 40;
    shm(d, "32-bit, two lanes share a word (multicast)", 4, 0, ~0u, a, 1, 0);
    lanes(a, 0, 128);
    shm(d, "32-bit store, stride 32 words", 4, 1, ~0u, a, 32, 31);
    lanes(a, 0, 1);
    shm(d, "8-bit, consecutive bytes", 1, 0, ~0u, a, 1, 0);
    lanes(a, 0, 128);
    shm(d, "32-bit, stride 32 words, lanes 0-3 only", 4, 0, 0xFu, a, 4, 3);
    lanes(a, 0, 8);
    shm(d, "64-bit load, consecutive (256 B)", 8, 0, ~0u, a, 2, 0);
    for (int l = 0; l < 32; l++) a[l] = l < 16 ? 0 : 128;
    shm(d, "64-bit load, half-warps on 2 addresses of one bank", 8, 0, ~0u, a, 2, 1);
    lanes(a, 0, 0);
    shm(d, "64-bit load, broadcast", 8, 0, ~0u, a, 1, 0);
    shm(d, "64-bit store, broadcast (per half-warp)", 8, 1, ~0u, a, 2, 0);
    lanes(a, 0, 16);
    shm(d, "64-bit load, stride 16 B", 8, 0, ~0u, a, 4, 2);
    lanes(a, 0, 16);
    shm(d, "128-bit load, consecutive (512 B)", 16, 0, ~0u, a, 4, 0);
    lanes(a, 0, 0);
    shm(d, "128-bit load, broadcast (per half-warp)", 16, 0, ~0u, a, 2, 0);
    shm(d, "128-bit store, broadcast (per quarter-warp)", 16, 1, ~0u, a, 4, 0);
    for (int l = 0; l < 32; l++) a[l] = l < 16 ? 0 : 64;
    shm(d, "128-bit load, half-warps uniform (matmul_t16 sA)", 16, 0, ~0u, a, 2, 0);
    lanes(a, 0, 32);
    shm(d, "128-bit load, stride 32 B", 16, 0, ~0u, a, 8, 4);
    lanes(a, 0, 128);
    shm(d, "128-bit load, stride 128 B (one bank group)", 16, 0, ~0u, a, 32, 28);
    lanes(a, 0, 16);
    shm(d, "128-bit load, lanes 0-7 only", 16, 0, 0xFFu, a, 1, 0);
    /* the 8-bank, 8-lane teaching machine */
    const ws_device *t = dev("teaching-8lane");
    lanes(a, 0, 32);
    shm(t, "teaching-8lane: 8 lanes, stride 8 words (8 banks)", 4, 0, 0xFFu, a, 8, 7);
    lanes(a, 0, 4);
    shm(t, "teaching-8lane: 8 lanes, consecutive words", 4, 0, 0xFFu, a, 1, 0);

    /* counters and latency through ws_ms_access */
    ws_memsys *ms = ws_ms_create(d);
    ws_rec r = rec(WS_OP_LD, WS_S_SHARED, 4, ~0u, 0, 128);
    uint64_t done = ws_ms_access(ms, 3, &r, 1000);
    r = rec(WS_OP_ST, WS_S_SHARED, 4, ~0u, 0, 8);
    ws_ms_access(ms, 3, &r, 2000);
    const ws_ms_counts *c = ws_ms_counts_get(ms);
    check(c->shld_requests == 1 && c->shld_wavefronts == 32 && c->shld_conflicts == 31 && c->shst_requests == 1 &&
          c->shst_wavefronts == 2 && c->shst_conflicts == 1,
          "shared counters: ld 32-way -> %llu req %llu wf %llu conf; st 2-way -> %llu req %llu wf %llu conf",
          (unsigned long long)c->shld_requests, (unsigned long long)c->shld_wavefronts, (unsigned long long)c->shld_conflicts,
          (unsigned long long)c->shst_requests, (unsigned long long)c->shst_wavefronts, (unsigned long long)c->shst_conflicts);
    check(done == 1000 + 31 + (uint64_t)d->lat_smem, "shared load latency: 32 wavefronts issued at 1000 -> data at %llu (want %llu = 1000 + 31 + lat_smem)",
          (unsigned long long)done, (unsigned long long)(1000 + 31 + (uint64_t)d->lat_smem));
    ws_ms_destroy(ms);
}

#ifndef WS_BUILD_DIR
#define WS_BUILD_DIR "build"
#endif

/* Every single-instruction probe measured on the H200 (data/shared_probes.txt): wavefronts must all agree; bank
 * conflicts agree except for two every-other-lane 64/128-bit loads where the hardware's ideal is one wavefront per
 * 128 bytes of active lanes (listed, not failed). */
static void t_probes(void)
{
    const char *paths[] = { WS_BUILD_DIR "/../tests/unit/data/shared_probes.txt", "tests/unit/data/shared_probes.txt" };
    FILE *f = NULL;
    for (int i = 0; i < 2 && !f; i++) f = fopen(paths[i], "r");
    if (!f) { check(0, "H200 probes: tests/unit/data/shared_probes.txt not found"); return; }
    ws_memsys *ms = ws_ms_create(dev("h200"));
    char line[1024], op[8];
    int n = 0, wf_ok = 0, bc_ok = 0, bc_known = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned w, mask, wf, bc;
        int pos = 0, k = 0, bad = 0;
        if (line[0] == '#' || sscanf(line, "%7s %u %x %u %u%n", op, &w, &mask, &wf, &bc, &pos) != 5) continue;
        uint64_t a[32];
        for (int l = 0; l < 32 && !bad; l++) {
            long v;
            if (sscanf(line + pos, "%ld%n", &v, &k) != 1) bad = 1;
            a[l] = (uint64_t)v;
            pos += k;
        }
        if (bad) continue;
        unsigned mwf, mbc;
        ws_ms_shared_wavefronts(ms, a, mask, w, !strcmp(op, "st"), &mwf, &mbc);
        n++;
        wf_ok += mwf == wf;
        if (mbc == bc) bc_ok++;
        else if (mask == 0x55555555u && !strcmp(op, "ld") && w >= 8) bc_known++;
        else printf("      probe %s %u-byte mask %08x: %u wavefronts %u conflicts, H200 %u %u\n", op, w, mask, mwf, mbc, wf, bc);
    }
    fclose(f);
    ws_ms_destroy(ms);
    check(n >= 370 && wf_ok == n, "H200 probes: wavefronts of %d/%d single shared-memory instructions agree", wf_ok, n);
    check(n >= 370 && bc_ok + bc_known == n, "H200 probes: bank conflicts of %d/%d agree (+%d known: every-other-lane wide loads)",
          bc_ok, n, bc_known);
}

/* Load one warp instruction (32 x 4 B from base) on SM sm at cycle t; returns the completion cycle. */
static uint64_t ld(ws_memsys *ms, int sm, uint64_t base, int64_t stride, unsigned size, uint32_t mask, uint64_t t)
{
    ws_rec r = rec(WS_OP_LD, WS_S_GLOBAL, size, mask, base, stride);
    return ws_ms_access(ms, sm, &r, t);
}

/* ---- caches ---- */
static void t_caches(void)
{
    const ws_device *d = dev("h200");
    ws_memsys *ms = ws_ms_create(d);
    const ws_ms_counts *c = ws_ms_counts_get(ms);
    uint64_t g = 0x300000010000ull;
    uint64_t t0 = ld(ms, 0, g, 4, 4, ~0u, 0);
    check(c->l1_hit_sectors == 0 && c->l2_hit_sectors == 0 && c->dram_read_bytes == 128 && c->l2_read_sectors_from_l1 == 4,
          "cold line: L1 0/4 hits, L2 0/4 hits, DRAM %llu bytes, %llu sectors L1->L2 (want 128, 4)",
          (unsigned long long)c->dram_read_bytes, (unsigned long long)c->l2_read_sectors_from_l1);
    check(t0 >= (uint64_t)d->dram_latency && t0 < (uint64_t)d->dram_latency + 16, "cold line latency %llu (want dram_latency %d + transfer)",
          (unsigned long long)t0, d->dram_latency);
    uint64_t t1 = ld(ms, 0, g, 4, 4, ~0u, 1000);
    check(c->l1_hit_sectors == 4 && t1 == 1000 + (uint64_t)d->l1_hit_latency, "same line again, same SM: 4 L1 hits, data at %llu (want 1000 + %d)",
          (unsigned long long)t1, d->l1_hit_latency);
    uint64_t t2 = ld(ms, 1, g, 4, 4, ~0u, 2000);
    check(c->l1_hit_sectors == 4 && c->l2_hit_sectors == 4 && t2 >= 2000 + (uint64_t)d->l2_hit_latency && t2 < 2000 + (uint64_t)d->l2_hit_latency + 4,
          "same line from SM 1: L1 miss, 4 L2 hits, data at %llu (want 2000 + %d)", (unsigned long long)t2, d->l2_hit_latency);
    /* a fill in flight: the second request counts as a hit (as Nsight Compute counts) and waits for the data */
    uint64_t h = 0x300000020000ull;
    uint64_t f1 = ld(ms, 2, h, 4, 4, ~0u, 5000);
    uint64_t f2 = ld(ms, 2, h, 4, 4, ~0u, 5010);
    check(c->l1_hit_sectors == 8 && f2 >= f1, "line still being filled: counted as 4 L1 hits, data at %llu >= first request's %llu",
          (unsigned long long)f2, (unsigned long long)f1);
    /* flush */
    ws_ms_flush(ms);
    ws_ms_reset_counts(ms);
    ld(ms, 0, g, 4, 4, ~0u, 0);
    check(c->l1_hit_sectors == 0 && c->l2_hit_sectors == 0 && c->dram_read_bytes == 128, "after ws_ms_flush: the line misses in L1 and L2 again");
    /* DRAM is read in 64-byte pairs; the other half of a pair hits once it has arrived */
    ws_ms_flush(ms);
    ws_ms_reset_counts(ms);
    ld(ms, 0, g, 0, 4, 1u, 0);                 /* sector 0 only */
    check(c->dram_read_bytes == 64, "one sector missing in L2 -> DRAM reads its 64-byte pair: %llu bytes (want 64)",
          (unsigned long long)c->dram_read_bytes);
    ld(ms, 1, g + 32, 0, 4, 1u, 2);            /* sector 1, while the pair is still coming */
    check(c->l2_hit_sectors == 0 && c->dram_read_bytes == 64, "other half of the pair while in flight: L2 miss, no new DRAM read");
    ld(ms, 2, g + 32, 0, 4, 1u, 5000);         /* sector 1 later, from a third SM */
    check(c->l2_hit_sectors == 1 && c->dram_read_bytes == 64, "other half of the pair after it arrived: L2 hit (%llu)",
          (unsigned long long)c->l2_hit_sectors);
    /* stores: write through, allocate; L2 write-back */
    ws_ms_flush(ms);
    ws_ms_reset_counts(ms);
    ws_rec r = rec(WS_OP_ST, WS_S_GLOBAL, 4, ~0u, h, 4);
    ws_ms_access(ms, 0, &r, 0);
    check(c->l2_sectors == 4 && c->l2_hit_sectors == 4 && c->dram_read_bytes == 0 && c->dram_write_bytes == 0,
          "store of a cold line: 4 L2 write hits (allocated without a fetch), no DRAM traffic");
    ld(ms, 0, h, 4, 4, ~0u, 10000);
    check(c->l1_hit_sectors == 4, "load after a store on the same SM: 4 L1 hits (stores allocate in L1)");
    ws_ms_end_launch(ms);
    check(c->dram_write_bytes == 0, "end of launch: dirty lines stay in L2 (dram__bytes_write 0, as ncu shows for vec_add)");
    ws_ms_destroy(ms);

    /* L1 capacity from the carve-out */
    size_t k = 1024;
    check(ws_ms_l1_capacity(d, 0) == 256 * k && ws_ms_l1_capacity(d, 100 * k) == 156 * k &&
          ws_ms_l1_capacity(d, 101 * k) == 124 * k && ws_ms_l1_capacity(d, 228 * k) == 28 * k,
          "h200 L1 beside 0 / 100 / 101 / 228 KiB of shared memory: %zu / %zu / %zu / %zu KiB (want 256 / 156 / 124 / 28)",
          ws_ms_l1_capacity(d, 0) / k, ws_ms_l1_capacity(d, 100 * k) / k, ws_ms_l1_capacity(d, 101 * k) / k,
          ws_ms_l1_capacity(d, 228 * k) / k);

    /* LRU: a 2 KiB fully associative L1 (16 lines) */
    ws_device small = *d;
    small.n_carveouts = 0;
    small.l1_smem_per_sm = 2048;
    ms = ws_ms_create(&small);
    c = ws_ms_counts_get(ms);
    check(ws_ms_l1_bytes(ms) == 2048, "small device: L1 of %zu bytes", ws_ms_l1_bytes(ms));
    uint64_t b = 0x300000100000ull;
    for (int i = 0; i < 16; i++) ld(ms, 0, b + (uint64_t)i * 128, 4, 4, ~0u, (uint64_t)i);
    ld(ms, 0, b, 4, 4, ~0u, 100);                       /* line 0 becomes the most recent */
    ld(ms, 0, b + 16 * 128, 4, 4, ~0u, 200);            /* line 16 evicts the least recent: line 1 */
    ws_ms_reset_counts(ms);
    ld(ms, 0, b, 4, 4, ~0u, 3000);
    check(c->l1_hit_sectors == 4, "LRU: line 0 (used again) survives the 17th line: %llu/4 hits", (unsigned long long)c->l1_hit_sectors);
    ld(ms, 0, b + 128, 4, 4, ~0u, 4000);
    check(c->l1_hit_sectors == 4, "LRU: line 1 (least recently used) was evicted: %llu/8 hits after it", (unsigned long long)c->l1_hit_sectors);
    ws_ms_reset_counts(ms);
    ld(ms, 0, b + 15 * 128, 4, 4, ~0u, 5000);
    check(c->l1_hit_sectors == 4, "LRU: line 15 still there");
    ws_ms_set_smem_per_sm(ms, 1024);
    check(ws_ms_l1_bytes(ms) == 1024, "carve-out of 1 KiB on the small device leaves %zu bytes of L1", ws_ms_l1_bytes(ms));
    ws_ms_destroy(ms);

    /* L2 write-back: a 2 KiB L2 (16 lines, one set) evicts a dirty line to DRAM */
    ws_device tiny = *d;
    tiny.l2_size = 2048;
    ms = ws_ms_create(&tiny);
    c = ws_ms_counts_get(ms);
    for (int i = 0; i < 17; i++) {
        ws_rec s = rec(WS_OP_ST, WS_S_GLOBAL, 4, ~0u, b + (uint64_t)i * 128, 4);
        ws_ms_access(ms, i % 4, &s, (uint64_t)i * 10);
    }
    check(c->dram_write_bytes == 128, "L2 of 16 lines, 17 lines stored: the first (4 dirty sectors) written back: %llu bytes (want 128)",
          (unsigned long long)c->dram_write_bytes);
    ws_ms_destroy(ms);

    /* no L2 (teaching machine): every miss goes to DRAM with its latency */
    const ws_device *t = dev("teaching-sm");
    ms = ws_ms_create(t);
    c = ws_ms_counts_get(ms);
    uint64_t tt = ld(ms, 0, g, 4, 4, ~0u, 0);
    check(c->dram_read_bytes == 128 && c->l2_hit_sectors == 0 && tt >= (uint64_t)t->dram_latency,
          "teaching-sm (no L1/L2): 128 bytes from DRAM, data at %llu (dram_latency %d + transfer)", (unsigned long long)tt, t->dram_latency);
    ws_ms_destroy(ms);
}

/* ---- bandwidth and atomics ---- */
static void t_queues(void)
{
    const ws_device *d = dev("h200");
    ws_memsys *ms = ws_ms_create(d);
    double bpc = d->mem_bandwidth_gbs * 1e9 * d->dram_efficiency / (d->sm_clock_mhz * 1e6);
    uint64_t g = 0x300001000000ull, last = 0;
    /* 128 SMs each load one sector of 32 distinct lines at cycle 0: DRAM reads 128 x 32 64-byte pairs (256 KiB) */
    for (int s = 0; s < 128; s++) {
        uint64_t f = ld(ms, s, g + (uint64_t)s * 4096, 128, 4, ~0u, 0);
        if (f > last) last = f;
    }
    double xfer = 128.0 * 32 * 64 / bpc;
    check(last >= (uint64_t)(d->dram_latency + xfer * 0.95) && last <= (uint64_t)(d->dram_latency + xfer + 200),
          "256 KiB of DRAM reads at once: last data at %llu (want dram_latency %d + %.0f cycles at %.0f B/cycle)",
          (unsigned long long)last, d->dram_latency, xfer, bpc);
    check(ws_ms_drain_cycle(ms) >= (uint64_t)(xfer * 0.95), "drain cycle %llu covers the transfer", (unsigned long long)ws_ms_drain_cycle(ms));
    ws_ms_flush(ms);
    /* atomics to one address serialise at its L2 slice */
    uint64_t a0 = 0, an = 0;
    for (int i = 0; i < 100; i++) {
        ws_rec r = rec(WS_OP_RED, WS_S_GLOBAL, 4, 1u, g, 0);
        uint64_t f = ws_ms_access(ms, i % 64, &r, 0);
        if (i == 0) a0 = f;
        if (f > an) an = f;
    }
    check(an - a0 >= (uint64_t)(99 * d->l2_atomic_cycles) - 64 && an - a0 <= (uint64_t)(99 * d->l2_atomic_cycles) + 300,
          "100 reductions to one address at once: the last completes %llu cycles after the first (want ~99 x %.1f)",
          (unsigned long long)(an - a0), d->l2_atomic_cycles);
    /* a warp's operations on one word follow one another at the slice, different words of a sector go together:
     * 32 lanes on 8 words (4 per word) cost 4 operations per sector, 8 lanes on 8 words one */
    for (int chain = 1; chain <= 4; chain += 3) {
        ws_ms_flush(ms);
        uint64_t b0 = 0, bn = 0;
        for (int i = 0; i < 100; i++) {
            ws_rec r = rec(WS_OP_RED, WS_S_GLOBAL, 4, chain == 4 ? ~0u : 0xffu, g + 4096, 4);
            for (int l = 0; l < 32; l++) r.addr[l] = g + 4096 + 4 * (uint64_t)(l & 7);
            uint64_t f = ws_ms_access(ms, i % 64, &r, 0);
            if (i == 0) b0 = f;
            if (f > bn) bn = f;
        }
        double want = 99.0 * chain * d->l2_atomic_cycles;
        check(bn - b0 >= (uint64_t)want - 64 && bn - b0 <= (uint64_t)want + 300,
              "100 warp reductions, %d lane(s) on each of 8 words of one sector: the last completes %llu cycles after "
              "the first (want ~99 x %d x %.1f)", chain, (unsigned long long)(bn - b0), chain, d->l2_atomic_cycles);
    }
    /* constant loads: one distinct address per cycle */
    ws_rec r = rec(WS_OP_LD, WS_S_CONST, 4, ~0u, 0x300000000100ull, 0);
    uint64_t c1 = ws_ms_access(ms, 0, &r, 50);
    r = rec(WS_OP_LD, WS_S_CONST, 4, ~0u, 0x300000000100ull, 4);
    uint64_t c32 = ws_ms_access(ms, 0, &r, 50);
    check(c32 - c1 == 31, "constant cache: 32 distinct addresses take 31 cycles more than one (%llu vs %llu)",
          (unsigned long long)c32, (unsigned long long)c1);
    ws_ms_destroy(ms);
}

/* ---- ptxas LDS.128 fusion ---- */
static const char *FUSE_PTX =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    "  .reg .b32 %r<20>;\n  .reg .f32 %f<20>;\n  .reg .b64 %rd<4>;\n"
    "  .shared .align 4 .b8 sA[1024];\n"
    "  mov.u32 %r1, %tid.y;\n  shl.b32 %r2, %r1, 6;\n  mov.u32 %r3, sA;\n  add.s32 %r4, %r3, %r2;\n"
    "  mov.u32 %r5, %tid.x;\n  shl.b32 %r6, %r5, 2;\n  add.s32 %r7, %r3, %r6;\n"
    "  ld.shared.f32 %f1, [%r4];\n  ld.shared.f32 %f5, [%r7];\n  ld.shared.f32 %f2, [%r4+4];\n"
    "  ld.shared.f32 %f6, [%r7+4];\n  ld.shared.f32 %f3, [%r4+8];\n  ld.shared.f32 %f4, [%r4+12];\n"
    "  add.f32 %f7, %f1, %f2;\n  add.f32 %f8, %f3, %f4;\n  add.f32 %f9, %f5, %f6;\n"
    "  add.f32 %f10, %f7, %f8;\n  add.f32 %f11, %f10, %f9;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n  st.global.f32 [%rd2], %f11;\n"
    "  ret;\n}\n";

/* adjacent st.shared pairs: [r4], [r4+4] with r4 8-byte aligned (one STS.64), the same at 4-byte alignment and a
 * pair split by a shared load (both stay scalar) */
static const char *FUSE_ST_PTX =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry ks()\n{\n"
    "  .reg .b32 %r<10>;\n  .shared .align 8 .b8 sS[1024];\n"
    "  mov.u32 %r1, %tid.x;\n  shl.b32 %r2, %r1, 3;\n  mov.u32 %r3, sS;\n  add.s32 %r4, %r3, %r2;\n"
    "  shl.b32 %r5, %r1, 2;\n  add.s32 %r6, %r3, %r5;\n"
    "  st.shared.u32 [%r4], %r1;\n  st.shared.u32 [%r4+4], %r1;\n"
    "  st.shared.u32 [%r6+512], %r1;\n  st.shared.u32 [%r6+516], %r1;\n"
    "  st.shared.u32 [%r4+8], %r1;\n  ld.shared.u32 %r8, [%r6+768];\n  st.shared.u32 [%r4+12], %r8;\n"
    "  ret;\n}\n";

typedef struct fctx { ws_memsys *ms; } fctx;

/* Observer: every memory record of the launch goes to the memory system (SM 0). */
static void fuse_post(void *ctx, ws_warp *w, const ws_rec *r)
{
    (void)w;
    fctx *f = ctx;
    if (r->is_mem && r->exec && r->in->space != WS_S_PARAM_K) ws_ms_access(f->ms, 0, r, 0);
}

/* Shared-load wavefronts and requests of one launch of the fusion kernel (one warp: 16 x 2 threads). */
static void fuse_run(ws_gpu *g, ws_kernel *k, int on, uint64_t *wf, uint64_t *req)
{
    fctx f = { ws_ms_create(ws_gpu_device(g)) };
    ws_ms_set_fusion(f.ms, on);
    ws_observer o;
    memset(&o, 0, sizeof o);
    o.ctx = &f;
    o.post = fuse_post;
    ws_gpu_add_observer(g, &o);
    uint64_t out;
    ws_malloc(g, 64, &out);
    void *args[] = { &out };
    ws_dim3 grid = { 1, 1, 1 }, block = { 16, 2, 1 };
    ws_launch_stats st;
    ws_launch_config cfg = { grid, block, 0, 0, 0, 0, { 0, 0, 0 } };
    int rc = ws_launch(g, k, &cfg, args, &st);
    if (rc) printf("FAIL  fusion kernel launch: %d %s\n", rc, st.error);
    ws_gpu_remove_observer(g, &o);
    *wf = ws_ms_counts_get(f.ms)->shld_wavefronts;
    *req = ws_ms_counts_get(f.ms)->shld_requests;
    ws_ms_destroy(f.ms);
}

/* ptxas's LDS.128 fusion: roles in a small kernel, and the wavefronts of a launch with and without it. */
static void t_fusion(void)
{
    const ws_device *d = dev("h200");
    ws_options opt;
    memset(&opt, 0, sizeof opt);
    ws_gpu *g = ws_gpu_create(d, &opt);
    char err[512];
    ws_module *m = ws_module_load(g, FUSE_PTX, strlen(FUSE_PTX), "fuse.ptx", err, sizeof err);
    if (!m) { check(0, "fusion PTX loads: %s", err); ws_gpu_destroy(g); return; }
    ws_kernel *k = ws_module_kernel(m, "k");
    const ws_func *fn = &k->mod->funcs[k->func];
    ws_memsys *ms = ws_ms_create(d);
    int roles[16], nl = 0;
    unsigned width[16];
    int delta[16];
    for (int i = 0; i < fn->ncode && nl < 16; i++)
        if (fn->code[i].op == WS_OP_LD && fn->code[i].space == WS_S_SHARED) {
            roles[nl] = ws_ms_fusion(ms, fn, &fn->code[i], &width[nl], &delta[nl]);
            nl++;
        }
    /* program order: [r4] [r7] [r4+4] [r7+4] [r4+8] [r4+12] */
    check(nl == 6 && roles[0] == WS_MS_FUSE_LEADER && width[0] == 16 && delta[0] == 0 && roles[2] == WS_MS_FUSE_FOLLOWER &&
          roles[4] == WS_MS_FUSE_FOLLOWER && roles[5] == WS_MS_FUSE_FOLLOWER,
          "ptxas fusion: sA + (tid.y << 6) + 0/4/8/12 -> one LDS.128 (leader width %u) and 3 followers", nl ? width[0] : 0);
    check(nl == 6 && roles[1] == WS_MS_FUSE_NONE && roles[3] == WS_MS_FUSE_NONE,
          "ptxas fusion: sA + (tid.x << 2) + 0/4 (only 4-byte aligned) stays scalar");
    ws_ms_destroy(ms);
    uint64_t wf_on, req_on, wf_off, req_off;
    fuse_run(g, k, 1, &wf_on, &req_on);
    fuse_run(g, k, 0, &wf_off, &req_off);
    /* fused: LDS.128 with uniform half-warps = 2 wavefronts, + 2 scalar loads of 16 distinct words = 1 each */
    check(wf_on == 4 && req_on == 3, "fused launch: %llu shared-load wavefronts in %llu requests (want 4 in 3)",
          (unsigned long long)wf_on, (unsigned long long)req_on);
    check(wf_off == 6 && req_off == 6, "unfused launch: %llu wavefronts in %llu requests (want 6 in 6)",
          (unsigned long long)wf_off, (unsigned long long)req_off);
    ws_gpu_destroy(g);
}

/* ptxas's STS.64 pairing: roles, and the bank conflicts of a one-warp launch with and without it. */
static void t_store_pairs(void)
{
    const ws_device *d = dev("h200");
    ws_options opt;
    memset(&opt, 0, sizeof opt);
    ws_gpu *g = ws_gpu_create(d, &opt);
    char err[512];
    ws_module *m = ws_module_load(g, FUSE_ST_PTX, strlen(FUSE_ST_PTX), "fuse_st.ptx", err, sizeof err);
    if (!m) { check(0, "store-pair PTX loads: %s", err); ws_gpu_destroy(g); return; }
    ws_kernel *k = ws_module_kernel(m, "ks");
    const ws_func *fn = &k->mod->funcs[k->func];
    uint64_t conf[2] = { 0, 0 };
    for (int on = 0; on < 2; on++) {
        fctx f = { ws_ms_create(d) };
        ws_ms_set_fusion(f.ms, on);
        if (on) {
            int roles[8], ns = 0;
            unsigned w[8];
            int dl[8];
            for (int i = 0; i < fn->ncode && ns < 8; i++)
                if (fn->code[i].op == WS_OP_ST && fn->code[i].space == WS_S_SHARED) {
                    roles[ns] = ws_ms_fusion(f.ms, fn, &fn->code[i], &w[ns], &dl[ns]);
                    ns++;
                }
            check(ns == 6 && roles[0] == WS_MS_FUSE_LEADER && w[0] == 8 && roles[1] == WS_MS_FUSE_FOLLOWER &&
                  roles[2] == WS_MS_FUSE_NONE && roles[3] == WS_MS_FUSE_NONE && roles[4] == WS_MS_FUSE_NONE &&
                  roles[5] == WS_MS_FUSE_NONE,
                  "store pairs: 8-byte aligned adjacent pair -> STS.64 (leader width %u); 4-byte aligned or split stays scalar",
                  ns ? w[0] : 0);
        }
        ws_observer o;
        memset(&o, 0, sizeof o);
        o.ctx = &f;
        o.post = fuse_post;
        ws_gpu_add_observer(g, &o);
        ws_dim3 grid = { 1, 1, 1 }, block = { 32, 1, 1 };
        ws_launch_stats st;
        ws_launch_config cfg = { grid, block, 0, 0, 0, 0, { 0, 0, 0 } };
        int rc = ws_launch(g, k, &cfg, NULL, &st);
        if (rc) printf("FAIL  store-pair kernel launch: %d %s\n", rc, st.error);
        ws_gpu_remove_observer(g, &o);
        conf[on] = ws_ms_counts_get(f.ms)->shst_conflicts;
        ws_ms_destroy(f.ms);
    }
    /* words 2t and 2t+1 as two scalar stores: 2 wavefronts, 1 conflict each; as one STS.64: none */
    check(conf[1] == 2 && conf[0] == 4, "store pairs: shared-store bank conflicts %llu fused, %llu unfused (want 2, 4)",
          (unsigned long long)conf[1], (unsigned long long)conf[0]);
    ws_gpu_destroy(g);
}

/* Run every group of checks; exit status 1 on any failure. */
int main(void)
{
    t_coalescer();
    t_shared();
    t_probes();
    t_caches();
    t_queues();
    t_fusion();
    t_store_pairs();
    printf("%d checks, %d failed\n", g_checks, g_fail);
    return g_fail ? 1 : 0;
}
