/* ms_int.h - what the memory system's files share (memsys.c, ms_shared.c, ms_global.c): the memory system's
 * state and the internal entry points between them. */
#ifndef WS_MS_INT_H
#define WS_MS_INT_H

#include "memsys.h"
#include "ms_bw.h"
#include "ms_cache.h"
#include "../ptx/fuse.h"

#include <stdlib.h>
#include <string.h>

#define WS_MS_SLICE_SHIFT 8u       /* L2 slices interleave every 256 bytes */
#define WS_MS_LOCAL_TAG 0x7000000000000000ull /* local memory lives in its own address range */
#define WS_MS_MAXLINES 128         /* distinct lines one warp instruction can touch (32 lanes x 2 x 2) */

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
    uint64_t *l2ready;   /* per L2 line, its sectors' ready cycles: the time stage's alone, apart from the lines'
                          * states that the tag stage changes (ms_global.c), so that two threads share no host line */
    uint8_t *slab;       /* the caches' arrays (ws_huge_alloc) */
    size_t slab_bytes;
};

/* Where an access's accounting goes: counters, its own counts, and (parallel phase) the queue its L2 transfers wait
 * in; q == NULL: L2 at once. */
typedef struct ws_ms_ctx {
    ws_ms_counts *c;
    ws_ms_access_counts *a;
    ws_ms_defer *q;
} ws_ms_ctx;

/* The kind of a memory instruction as the accounting sees it: 0 load, 1 store, 2 atomic or reduction. */
static inline int ws_ms_kind(const ws_insn *in)
{
    return in->mem == WS_MK_STORE ? 1 : (in->mem == WS_MK_ATOMIC || in->mem == WS_MK_REDUCE) ? 2 : 0;
}

/* Shared-memory access of the lanes in mask (kind: 0 load, 1 store, 2 atomic), counted into c and a; returns the
 * completion cycle. */
uint64_t ws_ms_shared_to(ws_memsys *ms, int sm, const uint64_t *addr, uint32_t mask, unsigned size, int kind,
                         uint64_t now, ws_ms_counts *c, ws_ms_access_counts *a);
/* A shared-memory access with its fusion role given (what ws_ms_access_warp does for lanes m in shared memory). */
static inline uint64_t ws_ms_shared_fused(ws_memsys *ms, int sm, const ws_rec *rec, uint32_t m, int kind, int role,
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

/* Loads, stores or atomics (kind 0, 1, 2) of size bytes at the addresses items[0..nitems) (the active lanes'
 * global addresses, or the interleaved local words): one request; counters, caches, queues; returns the
 * completion cycle. With x->q, the L2's part waits in the queue (atomics never do): a missing sector is marked
 * pending in the L1 (ws_ms_pend tag) and the access depends on its request, as one that hits a pending sector;
 * the returned cycle is then what the L1 alone gives. */
uint64_t ws_ms_global(ws_memsys *ms, int sm, const uint64_t *items, int nitems, unsigned size, int kind,
                      int local, uint64_t now, const ws_ms_ctx *x);

#endif
