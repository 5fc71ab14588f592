/* occupancy.h - theoretical occupancy exactly as NVIDIA's cuda_occupancy.h computes it, waves, the launch
 * advisor, and kernel resource usage (registers, static shared memory) as ptxas reports it. */
#ifndef WS_OCCUPANCY_H
#define WS_OCCUPANCY_H

#include <stddef.h>
#include "../device/device.h"

/* The resource that limits blocks per SM (the first of these, in this order, among those that tie). */
typedef enum ws_occ_limiter {
    WS_OCC_LIMIT_NONE = 0,
    WS_OCC_LIMIT_THREADS,       /* warp / thread slots per SM (Nsight Compute: launch__occupancy_limit_warps) */
    WS_OCC_LIMIT_BLOCKS,        /* block slots per SM (launch__occupancy_limit_blocks) */
    WS_OCC_LIMIT_REGISTERS,     /* register file (launch__occupancy_limit_registers) */
    WS_OCC_LIMIT_SHARED_MEMORY, /* shared memory (launch__occupancy_limit_shared_mem) */
    WS_OCC_LIMIT_BARRIERS,      /* named block barriers (sm_90 and later) */
} ws_occ_limiter;

/* Bits of ws_occ_result.limiters. */
#define WS_OCC_BIT(l) (1u << (l))

/* "No limit" value of the per-resource limits below (e.g. shared memory when a block uses none). */
#define WS_OCC_UNLIMITED 0x7fffffff

/* Extra inputs of ws_occ_compute_ex; ws_occ_default_opts() gives what ws_occ_compute uses. */
typedef struct ws_occ_opts {
    int barriers;      /* named barriers per block ("used N barriers" in ptxas -v); 0 = none */
    int carveout_pct;  /* shared-memory carve-out preference in percent of smem_per_sm (cudaFuncAttribute-
                          PreferredSharedMemoryCarveout); -1 = default (the driver may use all of it) */
    int smem_optin;    /* 1: a block may use more than smem_per_block (up to smem_per_block_optin) as a kernel
                          does after cudaFuncSetAttribute(MaxDynamicSharedMemorySize); 0: the 48 KiB default */
} ws_occ_opts;

/* Result of one occupancy computation. */
typedef struct ws_occ_result {
    int ok;                     /* 1 when at least one block fits on an SM; 0: see reason */
    char reason[256];           /* why a block cannot run at all (empty when ok) */

    int threads_per_block;
    int warps_per_block;        /* threads rounded up to whole warps */
    int blocks_per_sm;          /* resident blocks per SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor) */
    int warps_per_sm;           /* blocks_per_sm * warps_per_block */
    int max_warps_per_sm;
    double occupancy;           /* warps_per_sm / max_warps_per_sm (sm__maximum_warps_per_active_cycle_pct / 100) */

    ws_occ_limiter limiter;     /* the limiting resource */
    unsigned limiters;          /* WS_OCC_BIT() of every resource whose limit equals blocks_per_sm */
    int limit_threads;          /* blocks per SM each resource allows on its own (WS_OCC_UNLIMITED = no limit) */
    int limit_blocks;
    int limit_registers;
    int limit_shared_memory;
    int limit_barriers;

    int regs_per_thread;        /* registers a launch allocates per thread: max(regs, min_regs_per_thread)
                                   (launch__registers_per_thread) */
    int regs_per_warp;          /* allocated per warp, rounded up to reg_alloc_unit */
    int regs_per_block;         /* allocated per block */
    size_t smem_per_block;      /* allocated per block: static + dynamic + reserved, rounded up to smem_alloc_unit */
    size_t smem_config;         /* shared memory per SM the limit was computed with (carve-out), bytes */

    long long grid_blocks;      /* input grid size (0: no wave figures) */
    long long waves;            /* full or partial waves: ceil(grid / (blocks_per_sm * sm_count)) */
    double waves_per_sm;        /* grid / (blocks_per_sm * sm_count) (launch__waves_per_multiprocessor) */
    double wave_utilization;    /* grid / (waves * blocks_per_sm * sm_count): share of block slots used */
} ws_occ_result;

/* Defaults for ws_occ_compute_ex: no barriers, default carve-out, shared-memory opt-in allowed. */
ws_occ_opts ws_occ_default_opts(void);

/* Occupancy of blocks of threads_per_block threads using regs_per_thread registers and smem_per_block_bytes
 * of shared memory (static + dynamic, without the driver's reservation) on dev; grid_blocks_or_0 > 0 also fills
 * the wave figures. Returns 0 when a block fits, -1 when none can (r->reason says why) or the input is invalid. */
int ws_occ_compute(const ws_device *dev, int threads_per_block, int regs_per_thread, size_t smem_per_block_bytes,
                   long long grid_blocks_or_0, ws_occ_result *r);

/* ws_occ_compute with explicit options (opts NULL = ws_occ_default_opts()). */
int ws_occ_compute_ex(const ws_device *dev, int threads_per_block, int regs_per_thread, size_t smem_per_block_bytes,
                      long long grid_blocks_or_0, const ws_occ_opts *opts, ws_occ_result *r);

/* Waves of a grid of grid_blocks on sm_count SMs holding blocks_per_sm each: returns the number of waves and
 * stores the fractional waves per SM and the share of block slots used. 0 when nothing fits. */
long long ws_occ_waves(long long grid_blocks, int sm_count, int blocks_per_sm, double *waves_per_sm,
                       double *wave_utilization);

/* Short name of a limiter: "threads", "blocks", "registers", "shared_memory", "barriers" or "none". */
const char *ws_occ_limiter_name(ws_occ_limiter l);

/* Thread block clusters of cluster_size blocks that can be resident at once when an SM holds blocks_per_sm blocks:
 * a cluster's blocks share one GPC (the preset's gpc_sms; without it, one GPC of every SM), so each GPC holds
 * (its SMs x blocks_per_sm) / cluster_size of them. The same placement the timing engine uses. */
int ws_occ_max_clusters(const ws_device *dev, int blocks_per_sm, int cluster_size);

/* ---- launch advisor (the seed's "occupancy and launch advisor" project) ---- */

#define WS_ADVISE_NSIZES 10
/* Block sizes the advisor compares. */
extern const int ws_advise_block_sizes[WS_ADVISE_NSIZES];

/* One block size in the advice. */
typedef struct ws_advice_row {
    int block_size;
    ws_occ_result occ;          /* occupancy, limiter, waves for the grid below */
    long long blocks;           /* blocks needed for the elements: ceil(elements / block_size) */
    long long idle_threads;     /* threads launched beyond the elements: blocks * block_size - elements */
    double lane_utilization;    /* elements / (blocks * block_size): share of launched threads with an element */
    double score;               /* occupancy * wave_utilization * lane_utilization: the share of the GPU's thread
                                   slots over all waves that hold an element (0 when the block does not fit) */
} ws_advice_row;

/* The advice for one kernel description on one device. */
typedef struct ws_advice {
    ws_advice_row rows[WS_ADVISE_NSIZES];
    int n;
    int recommended;            /* index into rows of the rule's pick, -1 when no block size fits */
    int highest_occupancy;      /* index of "highest occupancy wins" (smallest block size among the ties) */
    const char *rule;           /* the rule, in words */
    char disagreement[512];     /* where the rule and "highest occupancy wins" differ, and why; empty if they agree */
} ws_advice;

/* Rule the advisor recommends with, in words. */
#define WS_ADVISE_RULE \
    "highest efficiency = occupancy x wave utilization x lane utilization (the share of the GPU's thread slots, " \
    "over all waves, that hold an element); ties: more SMs busy, then fewer idle threads, then higher occupancy, " \
    "then the smaller block"

/* Advise a block size for a kernel using regs registers per thread and smem bytes of shared memory per block,
 * one thread per element over elements elements. Returns 0, or -1 on invalid input (elements < 1). */
int ws_occ_advise(const ws_device *dev, int regs, size_t smem, long long elements, ws_advice *out);

/* ---- kernel resources from ptxas ---- */

/* What ptxas -v reports for one kernel (.entry). */
typedef struct ws_ptxas_kernel {
    char name[512];             /* mangled name */
    int regs;                   /* "Used N registers" */
    size_t static_smem;         /* "N bytes smem" (static shared memory) */
    int barriers;               /* "used N barriers" */
    size_t stack_frame;         /* "N bytes stack frame" */
    size_t spill_stores, spill_loads;
    size_t cmem0;               /* "N bytes cmem[0]" when reported */
} ws_ptxas_kernel;

/* ptxas's table for one PTX text and one architecture. */
typedef struct ws_ptxas_table {
    char arch[16];              /* e.g. "sm_90" */
    int retargeted;             /* 1 when the PTX's .target was newer than arch and was lowered to it */
    int n;
    ws_ptxas_kernel *k;
} ws_ptxas_table;

/* Run ptxas -arch=sm_XY -v (XY from dev's compute capability) on a PTX text and parse its report; the result is
 * cached by content hash and architecture for the life of the process (do not free it). ptxas is
 * $WARPSIM_PTXAS, else the first on PATH, else $CUDA_HOME/bin/ptxas, else /usr/local/cuda/bin/ptxas.
 * NULL with a message in err when ptxas is missing or fails. Thread-safe. */
const ws_ptxas_table *ws_occ_ptxas_table(const char *ptx, size_t len, const ws_device *dev, char *err, size_t errlen);

/* Find the toolkit's ptxas: $WARPSIM_PTXAS, else the first on PATH, else $CUDA_HOME/bin/ptxas, else
 * /usr/local/cuda/bin/ptxas. 0 with its path in out, -1 when none is executable. */
int ws_occ_find_ptxas(char *out, size_t cap);

/* Registers per thread and static shared memory of kernel_name as ptxas reports them for dev's architecture
 * (runs ptxas once per PTX text; cached). 0 on success, -1 when the kernel is not in the PTX, -2 when ptxas
 * cannot be run or fails. */
int ws_occ_kernel_regs(const char *ptx, size_t len, const char *kernel_name, const ws_device *dev, int *regs,
                       size_t *static_smem);

/* Like ws_occ_kernel_regs but returns the whole ptxas entry (barriers, stack, spills) or NULL. */
const ws_ptxas_kernel *ws_occ_kernel_info(const char *ptx, size_t len, const char *kernel_name, const ws_device *dev);

#endif
