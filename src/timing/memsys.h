/* memsys.h - the memory side of the timing model: coalescer (requests and 32-byte sectors of 128-byte lines),
 * shared-memory banks (wavefronts, conflicts), sectored L1 per SM, L2 slices, DRAM bandwidth and latency.
 * Counter names follow Nsight Compute. The cycle model (timing.c) calls ws_ms_access for every memory warp
 * instruction at the cycle it issues and waits for the returned completion cycle. */
#ifndef WS_MEMSYS_H
#define WS_MEMSYS_H

#include <stdint.h>
#include "../device/device.h"
#include "../core/observe.h"
#include "../ptx/fuse.h"

/* Nsight Compute counters accumulated over a launch */
typedef struct ws_ms_counts {
    uint64_t gld_requests, gld_sectors;      /* l1tex__t_requests/sectors_pipe_lsu_mem_global_op_ld.sum */
    uint64_t gst_requests, gst_sectors;      /* ..._op_st.sum */
    uint64_t gatom_requests, gatom_sectors;  /* global atomics / reductions */
    uint64_t lld_requests, lld_sectors, lst_requests, lst_sectors;  /* local memory */
    uint64_t shld_requests, shst_requests;   /* shared-memory instructions */
    uint64_t shld_wavefronts, shst_wavefronts;   /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st.sum */
    uint64_t shld_conflicts, shst_conflicts;     /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st.sum */
    uint64_t l1_sectors, l1_hit_sectors;         /* l1tex__t_sector_hit_rate.pct = hit / sectors */
    uint64_t l2_sectors, l2_hit_sectors;         /* lts__t_sector_hit_rate.pct */
    uint64_t l2_read_sectors_from_l1;            /* lts__t_sectors_srcunit_tex_op_read.sum */
    uint64_t dram_read_bytes, dram_write_bytes;  /* dram__bytes_read.sum / dram__bytes_write.sum */
    uint64_t shatom_requests, shatom_wavefronts; /* shared-memory atomics (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum) */
} ws_ms_counts;

/* what the most recent access (ws_ms_access / ws_ms_access_warp) added to the counters */
typedef struct ws_ms_access_counts {
    uint32_t requests, sectors;       /* global and local requests and 32-byte sectors */
    uint32_t wavefronts, conflicts;   /* shared-memory wavefronts and bank-conflict wavefronts */
    uint64_t store_ack;               /* global stores: the cycle L2's acknowledgement of the last sector is back */
} ws_ms_access_counts;

typedef struct ws_memsys ws_memsys;

/* An L2 transfer that the parallel part of an access (ws_ms_access_l1) leaves to the serial phase: the L1 missed
 * the sectors in mask of line `line` (a read), or writes them through (a write). */
enum { WS_MS_REQ_READ, WS_MS_REQ_WRITE, WS_MS_REQ_ATOMIC };
struct ws_ms_line;
typedef struct ws_ms_req {
    uint64_t line;        /* line number (address / 128) */
    struct ws_ms_line *l1;   /* reads: the L1 line whose sectors wait for it (ws_ms_defer_patch) */
    uint64_t t;           /* cycle it leaves the SM */
    uint64_t done;        /* ws_ms_req_do: when the data is back at the SM / L2 acknowledged the write */
    uint32_t owner;       /* the caller's: ws_ms_defer.owner when it was queued */
    uint8_t kind, mask, partial;   /* WS_MS_REQ_*, sectors, sectors not wholly written */
    uint8_t chain[4];     /* atomics: per sector, the most lanes operating on one word (they follow one another) */
} ws_ms_req;

/* An SM's queue of such transfers over one window of cycles, and the requests each access waits for. An L1 sector
 * whose fill is queued holds ws_ms_pend(q, i) as its arrival until the serial phase performs request i. */
typedef struct ws_ms_defer {
    ws_ms_req *req;
    uint32_t nreq, capreq;
    uint32_t *dep;        /* request indices accesses wait for: an access's are dep[dep0..ndep) */
    uint32_t ndep, capdep, dep0;
    uint32_t owner;       /* stamped on the requests queued from now on */
    uint32_t gen;         /* the window, in the pending tags */
} ws_ms_defer;
/* Tags of pending fills are at least WS_MS_PEND (above every cycle a simulation reaches). */
#define WS_MS_PEND (1ull << 62)
/* The pending tag of request i of q. */
static inline uint64_t ws_ms_pend(const ws_ms_defer *q, uint32_t i) { return WS_MS_PEND | (uint64_t)q->gen << 32 | i; }
/* Start a new window of q (requests and dependencies dropped). */
void ws_ms_defer_reset(ws_ms_defer *q);
/* Free q's arrays. */
void ws_ms_defer_free(ws_ms_defer *q);

/* Create the memory system of device dev (caches empty). */
ws_memsys *ws_ms_create(const ws_device *dev);
/* Destroy it. */
void ws_ms_destroy(ws_memsys *ms);
/* Invalidate L1s and L2 (Nsight Compute's --cache-control all) and reset bandwidth queues to time 0. */
void ws_ms_flush(ws_memsys *ms);
/* Start a launch with warm caches: L1s invalidated (as at every kernel boundary), L2 kept, clocks restarted. */
void ws_ms_new_launch(ws_memsys *ms);
/* Zero the counters (start of a launch). */
void ws_ms_reset_counts(ws_memsys *ms);
/* Counters since the last reset. */
const ws_ms_counts *ws_ms_counts_get(const ws_memsys *ms);
/* Account one memory warp instruction (rec: lanes, per-lane space/address, size, read/write) issued by a warp
 * on SM sm at cycle now; returns the cycle at which its data is available to the warp (loads, atomics) or at
 * which the store has left the SM (stores). Updates the counters, the caches and the bandwidth queues. */
uint64_t ws_ms_access(ws_memsys *ms, int sm, const ws_rec *rec, uint64_t now);
/* End of a launch. Dirty lines stay in L2: DRAM write bytes are counted only when L2 evicts dirty sectors during
 * a launch (on the H200, Nsight Compute's dram__bytes_write.sum of vec_add is 0 although it wrote 4 MiB). */
void ws_ms_end_launch(ws_memsys *ms);

/* ws_ms_access for warp warp_key (a number unique among resident warps, e.g. SM x max warps + warp slot): it
 * places the warp's local memory (interleaved by 32-bit words across its lanes, as the hardware does), so that
 * warps do not share local lines. ws_ms_access uses the SM number as the key. Not thread-safe: the L2, DRAM and
 * atomic queues are shared by all SMs, so calls must come in a deterministic order for reproducible results. */
uint64_t ws_ms_access_warp(ws_memsys *ms, int sm, uint64_t warp_key, const ws_rec *rec, uint64_t now);
/* The part of ws_ms_access_warp that is SM sm's own, for the timing model's parallel phase (calls for different
 * SMs may run at once): coalescing, the L1 and its data path, shared-memory banks, constants; counters into *c,
 * this access's counts into *a. The L2 transfers it needs are queued in q (from q->nreq on, stamped with q->owner)
 * for ws_ms_req_do in the serial phase, and the access waits for the requests q->dep[q->dep0..q->ndep) (its own
 * misses and sectors still being filled for earlier ones; loads: its data, stores: their acknowledgements). Returns
 * the completion the L1 alone gives. role/fw/fd: its shared-memory fusion (ws_ms_fusion's). An atomic's L1 part
 * (dropping stale copies) happens here, its operation at L2 is a request. */
uint64_t ws_ms_access_l1(ws_memsys *ms, int sm, uint64_t warp_key, const ws_rec *rec, int role, unsigned fw, int fd,
                         uint64_t now, ws_ms_counts *c, ws_ms_access_counts *a, ws_ms_defer *q);
/* ws_ms_access_l1 for the accesses of a matrix load (ws_ms_matrix's, no writes). */
uint64_t ws_ms_matrix_l1(ws_memsys *ms, int sm, const ws_mx_access *acc, int n, uint64_t now, ws_ms_counts *c,
                         ws_ms_access_counts *a, ws_ms_defer *q);
/* The fewest cycles between an access's L2 transfer leaving its SM and its result (data, acknowledgement, atomic's
 * old value) being back there: what the serial phase works out is never needed sooner. */
uint64_t ws_ms_min_latency(const ws_memsys *ms);
/* Perform request i of an SM's queue q in the serial phase, in (cycle, SM) order of the accesses: its L2 part.
 * Returns (and sets q->req[i].done) when the data is back at the SM (read) or L2 acknowledged it (write). */
uint64_t ws_ms_req_do(ws_memsys *ms, ws_ms_defer *q, uint32_t i);
/* ws_ms_req_do in two stages (ms_global.c): the tag stage (the L2's tags, LRU order and sector states: what no time
 * changes) into *o, then the time stage (bandwidth, ready cycles, counters). Time stages must come in the order of
 * their tag stages and may come later, on another thread; nothing else may use the L2 in between. */
typedef struct ws_ms_l2tag {
    uint32_t slot;        /* the L2 line (its index in the L2's lines) */
    uint8_t valid, pf;    /* its valid and fetched-only sectors before the transfer */
    uint8_t fetch;        /* sectors fetched from DRAM */
    uint8_t evd;          /* dirty sectors of the line it evicted (written back) */
    uint8_t fresh;        /* allocated, or of another epoch: its ready cycles restart at 0 */
} ws_ms_l2tag;
void ws_ms_req_tag(ws_memsys *ms, const ws_ms_defer *q, uint32_t i, ws_ms_l2tag *o);
uint64_t ws_ms_req_time(ws_memsys *ms, ws_ms_defer *q, uint32_t i, const ws_ms_l2tag *o);
/* After the serial phase (SM by SM, on any thread): the SM's L1 sectors waiting for q's reads get their arrival. */
void ws_ms_defer_patch(ws_ms_defer *q);
/* Let accesses of SM sm accounted at once (the serial phase) see which of q's transfers are done already: a sector
 * whose fill q has not yet performed is not there for them (NULL: detach). */
void ws_ms_attach_defer(ws_memsys *ms, int sm, ws_ms_defer *q);
/* What the most recent access added to the counters. */
const ws_ms_access_counts *ws_ms_last_access(const ws_memsys *ms);
/* ws_ms_access_warp for an access whose executing lanes are all in shared memory, with the instruction's fusion
 * role given (role, fw, fd: as ws_ms_fusion returns them) and the counters added to *c instead of the memory
 * system's (ws_ms_counts_add adds them later; ws_ms_last_access is left alone): it touches only SM sm's state,
 * so calls for different SMs may run at once (the timing model's parallel phase). Same completion cycle. */
uint64_t ws_ms_shared_access(ws_memsys *ms, int sm, const ws_rec *rec, int role, unsigned fw, int fd,
                             ws_ms_counts *c, uint64_t now);
/* Add counters that ws_ms_shared_access gathered to the memory system's. */
void ws_ms_counts_add(ws_memsys *ms, const ws_ms_counts *c);
/* Latest cycle at which any queued L2, DRAM or atomic transfer completes (memory drained). */
/* latency of a distributed shared memory access (ld/st/atom on a cluster partner's shared memory, a bulk copy
 * between blocks of a cluster), cycles: about what published H100 microbenchmarks measure (~180-210); not measured
 * by warpsim's H200 runs */
#define WS_MS_LAT_DSMEM 200
uint64_t ws_ms_drain_cycle(const ws_memsys *ms);
/* The accesses of one matrix or asynchronous-copy warp instruction (ws_mma_accesses; a cp.async's global sources):
 * loads, or stores when is_write; counted as ld/st requests and sectors or shared-memory wavefronts (Nsight Compute
 * counts LDGSTS in the global load requests and sectors, not in the shared-memory store wavefronts); returns when
 * the last one completes (ws_ms_last_access says what they added to the counters). */
uint64_t ws_ms_matrix(ws_memsys *ms, int sm, const ws_mx_access *acc, int n, int is_write, uint64_t now);
/* A bulk copy's global footprint: runs[2i] address, runs[2i+1] bytes; counted as global loads (is_write: stores);
 * returns the cycle its last sector arrives. */
uint64_t ws_ms_bulk(ws_memsys *ms, int sm, const uint64_t *runs, int nruns, int is_write, uint64_t now);

/* L1 capacity per SM left beside smem_bytes of shared memory per SM: l1_smem_per_sm minus the smallest
 * carve-out (carveouts_kb) that holds smem_bytes. */
size_t ws_ms_l1_capacity(const ws_device *dev, size_t smem_bytes);
/* Size every SM's L1 for a launch that uses smem_bytes of shared memory per SM (resident blocks x (static +
 * dynamic + reserved) shared memory); a change of capacity empties the L1s. Default: smem_bytes = 0. */
void ws_ms_set_smem_per_sm(ws_memsys *ms, size_t smem_bytes);
/* Current L1 capacity per SM in bytes. */
size_t ws_ms_l1_bytes(const ws_memsys *ms);

/* Wavefronts and bank conflicts of one shared-memory warp access (lanes in mask, width bytes each at addr[lane]),
 * counted as Nsight Compute counts them on sm_90 (rules in memsys.c). */
void ws_ms_shared_wavefronts(const ws_memsys *ms, const uint64_t *addr, uint32_t mask, unsigned width, int is_store,
                             unsigned *wavefronts, unsigned *conflicts);

/* ptxas merges scalar 32-bit ld.shared of one base register at offsets k, k+4, k+8, k+12 (k and the base provably
 * 16-byte aligned; 8 for pairs) into one LDS.128 (LDS.64). The first member in program order is the LEADER and
 * carries the fused access (width bytes per lane starting delta bytes before its own address); the others are
 * FOLLOWERs and cost no shared-memory traffic (the timing model may also treat them as free). The analysis runs
 * once per function on first use (that call allocates). */
enum { WS_MS_FUSE_NONE = WS_FUSE_NONE, WS_MS_FUSE_LEADER = WS_FUSE_LEADER, WS_MS_FUSE_FOLLOWER = WS_FUSE_FOLLOWER };
int ws_ms_fusion(ws_memsys *ms, const ws_func *fn, const ws_insn *in, unsigned *width, int *delta);
/* Turn that fusion on (default) or off. */
void ws_ms_set_fusion(ws_memsys *ms, int on);

#endif
