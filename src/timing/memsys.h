/* memsys.h - the memory side of the timing model: coalescer (requests and 32-byte sectors of 128-byte lines),
 * shared-memory banks (wavefronts, conflicts), sectored L1 per SM, L2 slices, DRAM bandwidth and latency.
 * Counter names follow Nsight Compute. The cycle model (timing.c) calls ws_ms_access for every memory warp
 * instruction at the cycle it issues and waits for the returned completion cycle. */
#ifndef WS_MEMSYS_H
#define WS_MEMSYS_H

#include <stdint.h>
#include "../device/device.h"
#include "../core/observe.h"

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
} ws_ms_counts;

typedef struct ws_memsys ws_memsys;

/* Create the memory system of device dev (caches empty). */
ws_memsys *ws_ms_create(const ws_device *dev);
/* Destroy it. */
void ws_ms_destroy(ws_memsys *ms);
/* Invalidate L1s and L2 (Nsight Compute's --cache-control all) and reset bandwidth queues to time 0. */
void ws_ms_flush(ws_memsys *ms);
/* Zero the counters (start of a launch). */
void ws_ms_reset_counts(ws_memsys *ms);
/* Counters since the last reset. */
const ws_ms_counts *ws_ms_counts_get(const ws_memsys *ms);
/* Account one memory warp instruction (rec: lanes, per-lane space/address, size, read/write) issued by a warp
 * on SM sm at cycle now; returns the cycle at which its data is available to the warp (loads, atomics) or at
 * which the store has left the SM (stores). Updates the counters, the caches and the bandwidth queues. */
uint64_t ws_ms_access(ws_memsys *ms, int sm, const ws_rec *rec, uint64_t now);
/* Write back dirty lines at the end of a launch (DRAM write bytes are counted then, as the hardware does when
 * L2 evicts them later; Nsight Compute's dram__bytes_write counts the flush at kernel end). */
void ws_ms_end_launch(ws_memsys *ms);

#endif
