/* sim.h - public interface of the simulator core: device memory, PTX modules, kernel launches.
 * The CUDA runtime replacement (src/runtime) and the CLI are built on this interface only. */
#ifndef WS_SIM_H
#define WS_SIM_H

#include <stddef.h>
#include <stdint.h>
#include "../device/device.h"

/* Status codes use cudaError_t's numeric values so the runtime can return them as they are. */
enum {
    WS_OK = 0,
    WS_ERR_INVALID_VALUE = 1,            /* cudaErrorInvalidValue */
    WS_ERR_MEMORY_ALLOCATION = 2,        /* cudaErrorMemoryAllocation */
    WS_ERR_INVALID_CONFIGURATION = 9,    /* cudaErrorInvalidConfiguration */
    WS_ERR_INVALID_DEVICE_POINTER = 17,  /* cudaErrorInvalidDevicePointer */
    WS_ERR_INVALID_SYMBOL = 13,          /* cudaErrorInvalidSymbol */
    WS_ERR_INVALID_PTX = 218,            /* cudaErrorInvalidPtx */
    WS_ERR_INVALID_SOURCE = 300,         /* cudaErrorInvalidSource */
    WS_ERR_NOT_FOUND = 500,              /* cudaErrorNotFound */
    WS_ERR_ILLEGAL_ADDRESS = 700,        /* cudaErrorIllegalAddress */
    WS_ERR_LAUNCH_OUT_OF_RESOURCES = 701,/* cudaErrorLaunchOutOfResources */
    WS_ERR_LAUNCH_TIMEOUT = 702,         /* cudaErrorLaunchTimeout */
    WS_ERR_ASSERT = 710,                 /* cudaErrorAssert */
    WS_ERR_MISALIGNED_ADDRESS = 716,     /* cudaErrorMisalignedAddress */
    WS_ERR_ILLEGAL_INSTRUCTION = 715,    /* cudaErrorIllegalInstruction */
    WS_ERR_LAUNCH_FAILURE = 719,         /* cudaErrorLaunchFailure */
    WS_ERR_COOPERATIVE_TOO_LARGE = 720,  /* cudaErrorCooperativeLaunchTooLarge */
    WS_ERR_NOT_SUPPORTED = 801,          /* cudaErrorNotSupported */
    WS_ERR_INVALID_CLUSTER_SIZE = 912,   /* cudaErrorInvalidClusterSize */
};

typedef struct { unsigned x, y, z; } ws_dim3;

typedef struct ws_gpu ws_gpu;       /* one simulated device: memory, loaded modules, options */
typedef struct ws_module ws_module; /* one loaded PTX translation unit */
typedef struct ws_kernel ws_kernel; /* one .entry of a module */

/* Options that change how kernels run (set once, before launches). */
typedef struct ws_options {
    int block_order_random;   /* 1: blocks run in a shuffled order */
    uint64_t block_order_seed;
    int trace;                /* 1: print every executed warp instruction to stderr (debugging) */
    uint64_t max_instructions;/* watchdog: stop a launch after this many warp instructions (0 = none) */
    int simt_stack;           /* 1: the pre-Volta model (--simt=stack): a warp's divergent paths run one after the
                               * other to their reconvergence point, never interleaved; 0: independent thread
                               * scheduling (sm_70+): a path that spins gives the others a turn, __syncwarp waits */
    int device_index;         /* which device of the process (0..15): its global addresses start at
                               * WS_GLOBAL_BASE + index * WS_GLOBAL_SPAN (src/mem/mem.h), unique in the process */
} ws_options;

/* Create a simulated GPU for device model dev. */
ws_gpu *ws_gpu_create(const ws_device *dev, const ws_options *opt);
/* Destroy a simulated GPU and everything it owns. */
void ws_gpu_destroy(ws_gpu *g);
/* The device model the GPU was created with. */
const ws_device *ws_gpu_device(const ws_gpu *g);

/* ---- memory ---- */
/* Allocate size bytes of global memory; *addr receives the device address (never a valid host address). */
int ws_malloc(ws_gpu *g, size_t size, uint64_t *addr);
/* Allocate managed memory: the returned address is the same on host and device. */
int ws_malloc_managed(ws_gpu *g, size_t size, void **ptr);
/* Page-locked host memory (cudaMallocHost) of size bytes, zero-filled, at an address that is the same in every
 * run (src/mem/hostwin.h); NULL when out of memory. ws_pinned_free releases it (-1 when p is not one). */
void *ws_pinned_alloc(size_t size);
int ws_pinned_free(void *p);
/* Free an allocation made by ws_malloc or ws_malloc_managed (WS_ERR_INVALID_VALUE if not one). */
int ws_free(ws_gpu *g, uint64_t addr);
/* Make host memory [p, p+size) visible to kernels at address (uint64_t)p (pinned / mapped host memory). */
void ws_register_host(ws_gpu *g, void *p, size_t size);
/* Forget a range registered with ws_register_host. */
void ws_unregister_host(ws_gpu *g, void *p);
/* Host view of device range [addr, addr+len), or NULL when any part of it is not allocated memory. */
void *ws_host_view(ws_gpu *g, uint64_t addr, size_t len);
/* Make peer's memory reachable from g's kernels as peer `index` (0..15; NULL forgets it): its global memory only
 * when enabled (peer access; else an access there is an illegal address), its host-visible memory always. */
void ws_gpu_set_peer(ws_gpu *g, int index, ws_gpu *peer, int enabled);
/* Whether addr lies in g's global address range, allocated or not (which device a pointer belongs to). */
int ws_gpu_owns_range(const ws_gpu *g, uint64_t addr);
/* Whether addr lies in device memory (an allocation or a module variable); fills base/size of the allocation. */
int ws_is_device_addr(ws_gpu *g, uint64_t addr, uint64_t *base, size_t *size);
/* Free and total bytes of the device arena (device allocations and module variables use it). */
void ws_gpu_mem_info(const ws_gpu *g, size_t *free_bytes, size_t *total);
/* Tell instrumentation (the checkers) that the host side wrote (write=1: cudaMemcpy, cudaMemset) or read
 * device range [addr, addr+len). */
void ws_gpu_host_access(ws_gpu *g, uint64_t addr, size_t len, int write);
/* ---- textures and surfaces ---- */
/* channel kinds (cudaChannelFormatKind's order) and address modes (cudaTextureAddressMode's) */
enum ws_tex_kind { WS_TEXK_SIGNED, WS_TEXK_UNSIGNED, WS_TEXK_FLOAT };
enum ws_tex_addr { WS_TEXA_WRAP, WS_TEXA_CLAMP, WS_TEXA_MIRROR, WS_TEXA_BORDER };

/* What a texture or surface object names: where its texels are and how to sample them. Texels lie row by row
 * (pitch bytes a row), then slice by slice (slice bytes each): the depth of a 3D array, the layers of a layered
 * one, the faces (then layers) of a cubemap. */
typedef struct ws_texres {
    uint64_t addr;            /* device address of texel (0, 0, 0) */
    uint32_t width, height, depth;  /* texels; 1 for dimensions the resource lacks */
    uint32_t layers;          /* layered: layers; cubemap: 6 x layers; else 1 */
    size_t pitch, slice;      /* bytes of a row, of a slice */
    uint8_t nch, chbytes;     /* channels (1, 2 or 4) and bytes of each (1, 2 or 4; all alike) */
    uint8_t kind;             /* enum ws_tex_kind */
    uint8_t dims;             /* 1, 2 or 3 */
    uint8_t layered, cubemap;
    uint8_t linear;           /* linear memory (integer fetches return zeros out of range) */
    uint8_t surface;          /* a surface object (suld/sust) rather than a texture object */
    uint8_t addr_mode[3];     /* enum ws_tex_addr per dimension */
    uint8_t filter_linear;    /* linear filtering (else point) */
    uint8_t norm_float;       /* cudaReadModeNormalizedFloat: 8/16-bit integers read as [0,1] or [-1,1] */
    uint8_t norm_coords;      /* normalised coordinates */
    float border[4];          /* border colour */
} ws_texres;
/* Texture/surface object handle -> resource, or NULL when the handle names none (the runtime owns the table). */
typedef const ws_texres *(*ws_tex_lookup_fn)(void *ctx, uint64_t handle);
/* Install the lookup kernels' texture and surface instructions use on g. */
void ws_gpu_set_tex_lookup(ws_gpu *g, ws_tex_lookup_fn fn, void *ctx);
/* Leave a guard zone of guard bytes after every later allocation (under --check). */
void ws_gpu_set_alloc_guard(ws_gpu *g, size_t guard);

/* ---- modules ---- */
/* Parse and decode a PTX text. NULL on failure with a message (file, line, opcode) in err. */
ws_module *ws_module_load(ws_gpu *g, const char *ptx, size_t len, const char *origin, char *err, size_t errlen);
/* Device-link n PTX units (nvcc -rdc=true: every translation unit of a program, device libraries) into one
 * module: .extern functions and variables of a unit resolve to another unit's definitions (function pointers and
 * variables are shared), names without .visible stay private to their unit. NULL with a message naming the symbol
 * when one is unresolved or defined twice, or a unit does not parse. */
ws_module *ws_module_load_units(ws_gpu *g, const char *const *ptx, const size_t *len, const char *const *unit_origin,
                                int n, const char *origin, char *err, size_t errlen);
/* The unit (index given to ws_module_load_units, else 0) whose PTX defines kernel k. */
int ws_kernel_unit(const ws_kernel *k);
/* Kernel (.entry) by mangled name, or NULL. */
ws_kernel *ws_module_kernel(ws_module *m, const char *name);
/* Module-scope .global/.const variable by name: device address and size. WS_ERR_INVALID_SYMBOL if absent. */
int ws_module_global(ws_module *m, const char *name, uint64_t *addr, size_t *size);

/* Where a module variable lives once linked. */
typedef struct ws_symbol_info {
    const char *name;
    int space;                /* 1 global, 2 shared, 4 const (enum ws_space of src/ptx/insn.h) */
    uint64_t addr;            /* device address (global/const) or offset in every block's shared memory */
    size_t size;              /* bytes (0 for dynamic shared memory) */
    int dynamic;              /* extern dynamic shared memory */
    const char *kernel;       /* shared memory of one kernel only: its name, else NULL */
} ws_symbol_info;
/* Symbols of a linked module: fills up to cap entries of out; returns how many there are. */
int ws_module_symbols(const ws_module *m, ws_symbol_info *out, int cap);
/* Kernels of a linked module: returns how many there are; *k receives the i-th (i < count) when non-NULL. */
int ws_module_kernels(ws_module *m, int i, ws_kernel **k);

/* Static facts about a kernel. */
typedef struct ws_kernel_info {
    const char *name;         /* mangled name */
    int nparams;
    size_t param_bytes;       /* total size of the parameter buffer */
    const size_t *param_offset; /* nparams entries */
    const size_t *param_size;   /* nparams entries */
    size_t static_smem;       /* bytes of statically declared shared memory */
    size_t dyn_smem_base;     /* offset of dynamic shared memory in a block */
    size_t local_bytes;       /* bytes of .local per thread (depot) */
    int max_threads;          /* .maxntid product, 0 if none */
    int ptx_regs;             /* virtual registers declared (not a hardware register count) */
    ws_dim3 cluster_dim;      /* __cluster_dims__ (.reqnctapercluster), 0 0 0 when none */
    int explicit_cluster;     /* .explicitcluster: compiled for cluster launches */
} ws_kernel_info;
/* Fill info for kernel k. */
void ws_kernel_get_info(const ws_kernel *k, ws_kernel_info *info);

/* A function's SASS instructions in address order, as src/analysis/sass_lines.h reads them from a cubin: n of them,
 * each with its PTX line, its SASS basic block, whether it runs whenever its block does (anchor) and its block's
 * loop depth in the SASS. */
typedef struct ws_sass_order {
    int n;
    const uint32_t *line, *block;
    const uint8_t *anchor, *depth;
} ws_sass_order;

/* Give function fname of k's module (its entry or a function it calls) the SASS instructions ptxas made of each of
 * its instructions for architecture arch ("sm_90"): n (PTX line, SASS count) pairs in increasing line order, as
 * src/analysis/sass_lines.h reads them from a cubin; with order (NULL or n 0: not known), each SASS instruction
 * counts where its SASS block runs, not where its line does (gpu.c). Timing mode counts and issues these. 0, or -1
 * (no such function, out of memory). Nothing is done when the function has them for arch already. */
int ws_kernel_set_sass(ws_kernel *k, const char *arch, const char *fname, const uint32_t *line, const uint32_t *count,
                       int n, const ws_sass_order *order);

/* What one launch did. */
typedef struct ws_launch_stats {
    uint64_t warp_insts;      /* warp instructions executed (smsp__inst_executed.sum) */
    uint64_t thread_insts;    /* thread instructions executed (smsp__thread_inst_executed.sum) */
    double host_seconds;      /* wall time the simulator spent on the launch */
    char error[512];          /* human-readable description of a fault, empty when none */
} ws_launch_stats;

/* One launch's configuration, as the host side decided it. */
typedef struct ws_launch_config {
    ws_dim3 grid, block;      /* grid and block shape */
    size_t dyn_smem;          /* bytes of dynamic shared memory per block */
    int blocks_per_sm;        /* blocks an SM keeps resident (the occupancy calculator's answer, src/analysis);
                               * 0: the core estimates it from threads and shared memory (registers unknown) */
    int cooperative;          /* 1: a cooperative launch (the caller checked that the grid is co-resident): every
                               * block is resident at once and %envreg1/2 give the grid barrier's workspace */
    int depth;                /* dynamic parallelism: 0 for a host launch, d+1 for a grid a depth-d grid launched */
    ws_dim3 cluster;          /* thread block cluster shape the launch asks for (cudaLaunchAttributeClusterDimension);
                               * 0 0 0: none (the kernel's __cluster_dims__, if it has them, apply) */
} ws_launch_config;

/* Run a kernel to completion. args[i] points at the value of parameter i (as cudaLaunchKernel takes them).
 * Returns WS_OK, a launch-configuration error (nothing ran), or a fault such as WS_ERR_ILLEGAL_ADDRESS. */
int ws_launch(ws_gpu *g, const ws_kernel *k, const ws_launch_config *cfg, void **args, ws_launch_stats *stats);

/* Progress of a running launch, for a progress line: called by the engines from time to time (the callback
 * decides how often to print), with the kernel's name, blocks finished of the grid's, the simulated cycle (timing
 * mode, else 0) and the warp instructions executed so far by finished blocks. */
typedef void (*ws_progress_fn)(void *ctx, const char *kernel, uint64_t blocks_done, uint64_t blocks_total,
                               uint64_t cycle, uint64_t warp_insts);
/* Install (fn NULL: remove) the progress callback of later launches on g. */
void ws_gpu_set_progress(ws_gpu *g, ws_progress_fn fn, void *ctx);

/* ---- dynamic parallelism (CDP2) ----
 * A kernel's device-side launches (cudaGetParameterBuffer + cudaLaunchDevice, as nvcc lowers <<<>>> in device
 * code) are queued while its grid runs; the caller takes them when ws_launch returns and launches each one as a
 * launch of its own (the host session: non-tail children in launch order, each with its own children, then the
 * tail launches), so every child starts after its parent's grid finished and completes before the host launch
 * does, which CDP2 allows (a parent cannot wait for its children). */
/* One device-side launch. */
typedef struct ws_child_launch {
    const ws_kernel *k;
    ws_launch_config cfg;     /* grid, block, dynamic shared memory, depth */
    uint8_t *params;          /* the parameter buffer's bytes when the launch was made (malloc'd) */
    int tail;                 /* into cudaStreamTailLaunch: runs after the parent and all its other work */
    unsigned stream;          /* the stream handle it was launched into (0 NULL, 2 per-thread, 4 fire-and-forget...) */
    uint64_t block, thread;   /* the launching thread: linear block and thread index in its grid */
    uint32_t seq;             /* order of launch in its grid */
} ws_child_launch;
/* The launches the last grid made, in a deterministic order (launching block, thread, then the order of its
 * launches; tail launches keep theirs too): a malloc'd array the caller frees after ws_gpu_child_done on each;
 * returns how many. */
int ws_gpu_children(ws_gpu *g, ws_child_launch **out);
/* A child grid and all its descendants completed, or it will not run: it no longer counts against the pending-
 * launch limit (an H200 counts a device-launched grid until it completes), and its parameter copy is freed. */
void ws_gpu_child_done(ws_gpu *g, ws_child_launch *c);
/* cudaLimitDevRuntimePendingLaunchCount (2048 by default) and the nesting bound (max_depth <= 0: warpsim's 128). */
void ws_gpu_set_cdp_limits(ws_gpu *g, size_t pending, int max_depth);

/* Largest dynamic shared memory a launch of k may request (set by cudaFuncAttributeMaxDynamicSharedMemorySize). */
void ws_kernel_set_max_dyn_smem(ws_kernel *k, size_t bytes);
size_t ws_kernel_max_dyn_smem(const ws_kernel *k);
/* cudaFuncAttributeNonPortableClusterSizeAllowed: clusters of up to WS_CLUSTER_MAX_NONPORTABLE blocks. */
void ws_kernel_set_cluster_nonportable(ws_kernel *k, int allowed);
int ws_kernel_cluster_nonportable(const ws_kernel *k);
/* cuTensorMapEncodeTiled's work (tmap.c): check a tiled tensor map (the CUDA driver's requirements; CUtensorMap*
 * enum values) and write it into out (128 bytes, 64-byte aligned) for cp.async.bulk.tensor. WS_OK, or
 * WS_ERR_INVALID_VALUE / WS_ERR_NOT_SUPPORTED with the reason in why. */
int ws_tmap_encode(void *out, int dtype, unsigned rank, uint64_t addr, const uint64_t *dims, const uint64_t *strides,
                   const uint32_t *box, const uint32_t *estrides, int interleave, int swizzle, int l2promo, int oobfill,
                   char *why, size_t whylen);
#define WS_CLUSTER_MAX_PORTABLE 8        /* blocks per cluster every sm_90 device launches */
#define WS_CLUSTER_MAX_NONPORTABLE 16    /* with the non-portable opt-in (an H200 launches 16, refuses 32) */

#endif
