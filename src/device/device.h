/* device.h - device models (presets) loaded from plain-text files in devices/. */
#ifndef WS_DEVICE_H
#define WS_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#define WS_MAX_CARVEOUTS 16
#define WS_MAX_GPCS 16
struct ws_device;
/* The GPCs of d as clusters see them, in SMs each, into gpc[WS_MAX_GPCS + 1]: the preset's gpc_sms cut at sm_count
 * (a last group holds the SMs beyond the list); one GPC of every SM without the list. Returns how many. */
int ws_device_gpcs(const struct ws_device *d, int *gpc);

/* One simulated GPU model. Every field is read from a preset file (devices/NAME.preset). */
typedef struct ws_device {
    char name[64];              /* preset id, e.g. "h200" */
    char full_name[128];        /* marketing name, e.g. "NVIDIA H200" (cudaDeviceProp.name) */
    int cc_major, cc_minor;     /* compute capability */
    int sm_count;               /* multiprocessors */
    int subpartitions;          /* SM sub-partitions (warp schedulers) per SM */
    int warp_size;              /* lanes per warp (32 on NVIDIA GPUs, 8 on teaching-8lane) */

    /* per block limits */
    int max_threads_per_block;
    int max_block_dim[3];
    int max_grid_dim[3];
    int max_regs_per_thread;    /* 255 on real GPUs */
    int max_regs_per_block;     /* 65536 */
    size_t smem_per_block;      /* default static+dynamic limit (48 KiB) */
    size_t smem_per_block_optin;/* with cudaFuncAttributeMaxDynamicSharedMemorySize */
    size_t smem_reserved_per_block; /* driver-reserved shared memory per block (1 KiB from sm_80) */

    /* per SM limits */
    int max_threads_per_sm;
    int max_warps_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;            /* 32-bit registers */
    int reg_alloc_unit;         /* registers allocated per warp in units of this (256); 0 = no granularity */
    int warp_alloc_granularity; /* warps per block are rounded up to this for register allocation */
                                /* (the hardware's per-block register check; = sub-partitions on real GPUs) */
    int min_regs_per_thread;    /* a launch allocates at least this many registers per thread (16; 0 = none) */
    int barriers_per_sm;        /* named block barriers per SM (blocks/SM limit from sm_90); 0 = not a limit */
    size_t smem_per_sm;         /* max shared memory per SM (bytes) */
    size_t smem_alloc_unit;     /* shared memory allocation granularity (bytes); 0 = none */
    int n_carveouts;            /* available shared-memory carve-outs, KiB, ascending */
    int carveouts_kb[WS_MAX_CARVEOUTS];
    size_t l1_smem_per_sm;      /* combined L1 + shared SRAM per SM (bytes) */
    int n_gpcs;                 /* GPCs as thread block clusters see them (0: one holding every SM) */
    int gpc_sms[WS_MAX_GPCS];   /* SMs a cluster's blocks can be spread over in each GPC (ws_device_gpcs: the list
                                 * cut or extended to sm_count, when a derived preset changed that) */
    int smem_banks;             /* shared-memory banks (32) */
    int smem_bank_bytes;        /* bytes per bank word (4) */

    /* memory system */
    size_t global_mem;          /* bytes of device memory */
    size_t const_mem;           /* bytes of constant memory (65536) */
    size_t l2_size;             /* bytes */
    int mem_bus_width;          /* bits */
    double mem_clock_mhz;       /* memory clock */
    double mem_bandwidth_gbs;   /* peak DRAM bandwidth, GB/s */

    /* clocks and rates */
    double sm_clock_mhz;        /* boost SM clock */
    int fp32_lanes_per_sm;      /* FP32 units ("CUDA cores") per SM */
    double fp32_tflops;         /* peak FP32 */
    double fp64_tflops;         /* peak FP64 */
    double tensor_tflops;       /* peak dense FP16/BF16 tensor */
    double host_link_gbs_pinned;   /* host<->device copies from pinned memory, GB/s */
    double host_link_gbs_pageable; /* from pageable memory, GB/s */
    double peer_link_gbs;       /* GPU-to-GPU copies (NVLink), GB/s one way; 0: over PCIe at host_link_gbs_pinned */
    double peer_link_latency_us;/* fixed cost of one GPU-to-GPU copy, microseconds; 0: 2 us as other copies */
    int teaching;               /* 1 for the seed's invented machines */

    /* timing model: dependent-issue latencies (cycles) and pipeline widths (lanes per SM) */
    int lat_int, lat_fp32, lat_fp64, lat_sfu, lat_shfl, lat_smem, lat_bar, lat_branch, lat_cvt;
    int lanes_int_per_sm, lanes_fp64_per_sm, lanes_sfu_per_sm, lanes_lsu_per_sm;
    /* tensor cores: dependent-issue latency of an mma (cycles) and dense multiply-adds per SM per cycle by input
     * type (f16/bf16, tf32, f64, 8-bit and smaller integers); an mma occupies its sub-partition's tensor pipe for
     * m*n*k / (rate / sub-partitions) cycles */
    int lat_tensor;
    /* a wmma.load as ptxas compiles it (src/timing/timing.c wmma_form): what an ldmatrix (LDSM), and a generic load
     * of a shared address (LD), take beyond a shared load (LDS, lat_smem), and a movmatrix (MOVM) that transposes a
     * register of a 16-bit fragment (cycles) */
    int lat_ldsm_over_lds, lat_generic_over_lds, lat_movm;
    int tensor_fma_f16_per_sm, tensor_fma_tf32_per_sm, tensor_fma_f64_per_sm, tensor_fma_int8_per_sm;
    double launch_overhead_us;  /* host-side cost of one kernel launch */
    int kernel_fixed_cycles;    /* SM cycles every kernel spends beyond its blocks' work (ramp-up, teardown) */
    int block_launch_cycles;    /* from a block's retirement to the first issue of the block that takes its place */
    double block_dispatch_cycles; /* the block distributor's throughput: cycles between two block launches, GPU-wide */
    double graph_launch_us;     /* host-side cost per kernel node of a replayed CUDA graph */
    char sched_policy[16];      /* warp scheduler: gto (greedy-then-oldest), lrr (loose round-robin), lowest */
    double bulk_store_bytes_per_cycle; /* an SM's bulk copies (TMA) to global memory, bytes per cycle (0: a line) */
    int issue_sass;             /* 1: a scheduler issues one SASS instruction a cycle (ptxas's count per PTX
                                 * instruction); 0: one PTX instruction a cycle (the teaching machines) */

    /* memory timing (src/timing/memsys.c): load-to-use latencies in SM cycles, unloaded */
    int l1_hit_latency;         /* global/local load that hits in L1 */
    int l2_hit_latency;         /* L1 miss that hits in L2 */
    int dram_latency;           /* L2 miss served by DRAM */
    int l2_slices;              /* L2 slices; addresses interleave over them every 256 bytes (atomic units) */
    double l2_bytes_per_clk;    /* L1 <-> L2 bandwidth of the whole chip, bytes per SM cycle */
    double dram_efficiency;     /* fraction of mem_bandwidth_gbs that streaming kernels sustain */
    double l2_atomic_cycles;    /* cycles an L2 slice spends on one atomic/reduction sector operation */

    /* unified memory (src/mem/um.h, src/timing/tm_um.c, src/host/hs_um.c): managed pages migrate on demand over
     * the host link at host_link_gbs_pinned */
    size_t um_page_bytes;       /* migration unit: a fault moves one page of this size */
    double um_fault_latency_us; /* one batch of GPU faults: fault-buffer fetch, servicing, page tables, replay */
    double um_fault_page_us;    /* the driver's work per faulted page (besides its transfer), one page after another */
    int um_fault_batch;         /* most faults the driver services in one batch */
    double um_cpu_fault_us;     /* one CPU fault on a managed page, besides its transfer */
    double um_remote_latency_us;/* a GPU access to a mapped host page (accessed-by), over the link */
} ws_device;

/* The preset used when no --gpu is given. */
#define WS_DEVICE_DEFAULT "h200"

/* Load a preset by name (searching the devices directory) or by path (anything with a '/' or ending in
 * ".preset"); NULL or "" means WS_DEVICE_DEFAULT. Loaded presets are cached: the pointer stays valid for the
 * life of the process. NULL and a message in err on failure. Thread-safe. */
const ws_device *ws_device_get(const char *name_or_path, char *err, size_t errlen);

/* Check one preset override "key = val" against the preset schema: key is a field of the format and val a valid
 * value for it (type and range); 0, or -1 with "unknown preset field 'x'" or "field 'x': invalid value ..." in err. */
int ws_device_check_value(const char *key, const char *val, char *err, size_t errlen);

/* The preset file a name (looked up in ws_device_dir()) or path resolves to; NULL or "" means WS_DEVICE_DEFAULT. */
void ws_device_resolve(const char *name_or_path, char *out, size_t cap);

/* Parse one preset file into *out; 0 on success, -1 with "file:line: field: problem" in err. */
int ws_device_load_file(const char *path, ws_device *out, char *err, size_t errlen);

/* Directory holding the preset files: $WARPSIM_DEVICES, else PREFIX/share/warpsim/devices found relative to the
 * executable or library holding this code (an installed warpsim), else the build tree's devices/ (compiled in). */
const char *ws_device_dir(void);

/* Write every field of d as preset text ("key = value" lines) into buf (cap bytes, NUL-terminated); returns the
 * length the whole text needs, like snprintf. (src/report/device_report.h writes a preset as JSON.) */
int ws_device_format(const ws_device *d, char *buf, size_t cap);

/* Kinds of preset values (ws_device_value.type). */
typedef enum ws_device_vtype {
    WS_DEVICE_INT,              /* value.i */
    WS_DEVICE_SIZE,             /* value.z */
    WS_DEVICE_DOUBLE,           /* value.d */
    WS_DEVICE_STRING,           /* value.s */
    WS_DEVICE_INTS              /* value.ints[0 .. nints) (a fixed triple or a list, which may be empty) */
} ws_device_vtype;

/* One field of a preset and its value in a device. */
typedef struct ws_device_value {
    const char *key;            /* the preset key, e.g. "sm_count" */
    ws_device_vtype type;
    int i;
    size_t z;
    double d;
    const char *s;              /* points into the device, or into text below (do not copy the struct then) */
    const int *ints;
    int nints;
    char text[32];              /* a value made for the field, e.g. compute_capability "9.0" */
} ws_device_value;

/* Number of preset fields (the keys of the preset format, in its order). */
int ws_device_nfields(void);
/* Field i (0 <= i < ws_device_nfields()) of d into *v; 0, or -1 when i is out of range. */
int ws_device_field(const ws_device *d, int i, ws_device_value *v);

/* Fill names[] with the preset ids found in the devices directory (sorted); returns how many. */
int ws_device_list(char names[][64], int max);

#endif
