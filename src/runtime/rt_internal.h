/* rt_internal.h - shared state of the replacement CUDA runtime (libcudart.so.13).
 * The runtime is built against NVIDIA's headers for exact types and serves every call on the host session's
 * simulated devices (src/host/session.h, src/core/sim.h): the calling thread's current device, or the device a
 * stream or a pointer belongs to. All stream work runs synchronously at enqueue time, so
 * in-order execution and event ordering hold trivially; stream capture records the work into a graph instead. */
#ifndef WS_RT_INTERNAL_H
#define WS_RT_INTERNAL_H

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/sim.h"
#include "../analysis/occupancy.h"
#include "../fatbin/fatbin.h"
#include "../host/session.h"

#define WS_RT_EXPORT __attribute__((visibility("default")))

/* Device-link the PTX units of a -rdc program (or of a driver-API image) into one module; NULL with a message. */
ws_module *ws_rt_link_units(ws_gpu *g, char **ptx, const size_t *len, const unsigned *arch, int n, char *err,
                            size_t errlen);

/* What a fatbin holds for one device (its PTX units for that device's architecture, loaded there). */
typedef struct ws_rt_fbdev {
    int state;
    cudaError_t load_error;
    int nmod, nlinked;
    ws_module **modules;
    char **ptx;
    size_t *ptx_len;
    unsigned *arch;
} ws_rt_fbdev;

/* One registered fatbin (one CUDA translation unit); its PTX is parsed on first use. A registered fatbin loads on
 * every device the program uses: the fields from state to arch are the bound device's (ws_rt_lock binds the
 * calling thread's current device; the others wait in per_dev). A driver-API module lives on one device. */
typedef struct ws_rt_fatbin {
    const void *wrapper;        /* first member: the handle given to the program points here */
    int id;                     /* registration order, for messages */
    int state;                  /* 0 not loaded yet, 1 loaded, -1 failed */
    cudaError_t load_error;     /* error returned for every use after a failed load */
    int nmod;                   /* PTX texts: one per translation unit (several for -rdc programs) */
    int nlinked;                /* entries of modules: 1 when the units were device-linked into one, else nmod */
    ws_module **modules;
    char **ptx;                 /* their PTX texts (kept while the modules live) */
    size_t *ptx_len;
    unsigned *arch;             /* arch of each chosen PTX entry */
    int registered;             /* registered by the program (__cudaRegisterFatBinary): per-device state */
    int device;                 /* a driver-API module: the device it was loaded on */
    ws_rt_fbdev per_dev[WS_HS_MAX_DEVICES];   /* registered: the other devices' state (not the bound one's) */
    struct ws_rt_fatbin *next;
} ws_rt_fatbin;

/* One kernel registered with __cudaRegisterFunction; also the cudaKernel_t handle. */
typedef struct ws_rt_func {
    uint32_t magic;             /* WS_RT_FUNC_MAGIC */
    const void *host_fun;       /* the host stub address the program launches with */
    ws_rt_fatbin *fb;
    char *name;                 /* mangled device name */
    ws_kernel *kernel;          /* resolved on first use */
    int mod;                    /* index of the PTX text (translation unit) that defines it */
    size_t max_dyn_smem;        /* cudaFuncAttributeMaxDynamicSharedMemorySize, (size_t)-1 when unset */
    int carveout;               /* cudaFuncAttributePreferredSharedMemoryCarveout, -1 when unset */
    int cache_config;           /* cudaFuncSetCacheConfig */
    ws_kernel *dev_kernel[WS_HS_MAX_DEVICES];   /* registered fatbins: kernel and mod on the devices not bound */
    int dev_mod[WS_HS_MAX_DEVICES];
    struct ws_rt_func *next, *hnext;
} ws_rt_func;
#define WS_RT_FUNC_MAGIC 0x5752464eu

/* One module variable registered with __cudaRegisterVar / __cudaRegisterManagedVar. */
typedef struct ws_rt_var {
    const void *host_var;       /* host shadow address (managed: the address of the host pointer) */
    ws_rt_fatbin *fb;
    char *name;
    size_t size;
    int constant, managed;
    int resolved;
    uint64_t addr;              /* device address once resolved (on the bound device) */
    int dev_resolved[WS_HS_MAX_DEVICES];        /* not managed: resolved and addr on the devices not bound */
    uint64_t dev_addr[WS_HS_MAX_DEVICES];
    struct ws_rt_var *next, *hnext;
} ws_rt_var;

/* Kinds of host memory the runtime hands out (for cudaFreeHost and cudaPointerGetAttributes). */
typedef struct ws_rt_hostmem {
    void *ptr;
    size_t size;
    unsigned flags;
    int registered_only;        /* cudaHostRegister: not ours to free */
    struct ws_rt_hostmem *next;
} ws_rt_hostmem;

/* A managed allocation made by cudaMallocManaged. */
typedef struct ws_rt_managed {
    void *ptr;
    size_t size;
    int device;                 /* the device it was allocated on */
    struct ws_rt_managed *next;
} ws_rt_managed;

/* What one kernel launch did, for the report: the report's own record (src/report/run_report.h). */

struct ws_rt_graph;

/* A stream created by cudaStreamCreate*; the default streams are not objects. */
typedef struct ws_rt_stream {
    uint32_t magic;
    unsigned flags;
    int priority;
    struct ws_rt_graph *capture;      /* graph being captured into, or NULL */
    int capture_origin;               /* 1 on the stream that began the capture */
    enum cudaStreamCaptureMode capture_mode;
    unsigned long long capture_id;
    ws_hs_queue q;                    /* timing mode: its queue on the session's simulated clock; q.dev: its device */
    struct ws_rt_stream *next;
} ws_rt_stream;
#define WS_RT_STREAM_MAGIC 0x57525354u

/* An event: a host timestamp taken when recorded. */
typedef struct ws_rt_event {
    uint32_t magic;
    unsigned flags;
    int recorded;
    double t;                         /* seconds, CLOCK_MONOTONIC */
    struct ws_rt_graph *capture;      /* recorded while capturing into this graph */
    int device;                       /* the device current when it was created */
    struct ws_rt_event *next;
} ws_rt_event;
#define WS_RT_EVENT_MAGIC 0x57524556u

/* Kinds of graph nodes. */
enum { WS_RT_NODE_KERNEL = 1, WS_RT_NODE_MEMCPY, WS_RT_NODE_MEMSET, WS_RT_NODE_HOST, WS_RT_NODE_CALLBACK,
       WS_RT_NODE_EVENT_RECORD, WS_RT_NODE_EMPTY, WS_RT_NODE_MEM_ALLOC, WS_RT_NODE_MEM_FREE };

/* One recorded operation. */
typedef struct ws_rt_node {
    int kind;
    int index;                        /* position in its graph (the cudaGraphNode_t handle points here) */
    struct ws_rt_graph *graph;
    /* kernel */
    ws_rt_func *func;
    ws_dim3 grid, block;
    size_t smem;
    unsigned char *argbuf;            /* copies of the argument values */
    void **args;                      /* pointers into argbuf */
    int nargs;
    size_t argbytes;
    int coop;                         /* a cooperative launch (captured cudaLaunchCooperativeKernel) */
    ws_dim3 cluster;                  /* the thread block cluster shape it was launched with (0 0 0: none) */
    /* memcpy / memset */
    void *dst;
    const void *src;
    size_t count;
    enum cudaMemcpyKind copy_kind;
    int value;
    /* host function / stream callback */
    cudaHostFn_t host_fn;
    cudaStreamCallback_t callback;
    void *user;
    cudaStream_t stream;
    /* event record */
    ws_rt_event *event;
} ws_rt_node;

/* A graph (captured or built) and an executable graph share this shape. */
typedef struct ws_rt_graph {
    uint32_t magic;
    int n, cap;
    ws_rt_node **nodes;
    int invalidated;                  /* capture broken by an illegal call */
    struct ws_rt_graph *next;
} ws_rt_graph;
#define WS_RT_GRAPH_MAGIC 0x57524752u
#define WS_RT_GEXEC_MAGIC 0x57524758u

/* The process-wide runtime state. */
typedef struct ws_rt_state {
    ws_rt_fatbin *fatbins;
    int nfatbins;
    ws_rt_func *funcs;
    ws_rt_func *func_hash[512];
    ws_rt_var *vars;
    ws_rt_var *var_hash[512];
    ws_rt_hostmem *hostmem;
    ws_rt_managed *managed;
    ws_rt_stream *streams;
    ws_rt_event *events;
    ws_rt_graph *graphs;              /* graphs and executable graphs, for handle checks */
    size_t allocated[WS_HS_MAX_DEVICES];   /* bytes of device memory in use per device (cudaMemGetInfo) */
    unsigned device_flags;
    enum cudaFuncCache cache_config;
    enum cudaSharedMemConfig smem_config;
    size_t limit_stack, limit_printf_fifo, limit_malloc_heap, limit_l2_persisting;
    size_t limit_sync_depth, limit_pending_launches;   /* the device runtime's (CDP2: launches only count) */
    unsigned long long next_capture_id;
} ws_rt_state;

extern ws_rt_state ws_rt_g;

/* ---- rt_state.c ---- */
/* Take / release the runtime lock (recursive); taking it binds the calling thread's current device's state of the
 * registered fatbins, kernels and variables. */
void ws_rt_lock(void);
void ws_rt_unlock(void);
/* Make device i the calling thread's current device (lock held) and bind its state: cudaSuccess or
 * cudaErrorInvalidDevice. */
cudaError_t ws_rt_set_device(int i);
/* Record e as the calling thread's last error when it is an error; returns e. */
cudaError_t ws_rt_set_error(cudaError_t e);
/* The same for callers without the CUDA headers (rt_stubs.c). */
int ws_rt_set_error_code(int e);
/* The calling thread's last error (peek), and reset it. */
cudaError_t ws_rt_last_error(int reset);
/* The sticky error to report at the start of a call (0 if none); sync=1 first turns a pending fault sticky. */
cudaError_t ws_rt_check(int sync);
/* Record a fault of a kernel (becomes visible at the next synchronizing call). */
void ws_rt_fault(cudaError_t e);
/* The selected device preset (loaded from WARPSIM_GPU on first use), or NULL with *e set. */
const ws_device *ws_rt_device(cudaError_t *e);
/* The simulated GPU (created on first use), or NULL with *e set. */
ws_gpu *ws_rt_gpu(cudaError_t *e);
/* Load the PTX module(s) of a fatbin if not done yet; cudaSuccess or the load error. */
cudaError_t ws_rt_load(ws_rt_fatbin *fb);
/* Drop a fatbin's modules and PTX (the GPU that held them is gone); it loads again on next use. */
void ws_rt_unload(ws_rt_fatbin *fb);
/* Enter (add=1) or remove (0) a kernel record in the host-stub hash, by its host_fun (lock held). */
void ws_rt_func_index(ws_rt_func *f, int add);
/* Registered kernel for a host stub address or a cudaKernel_t handle, or NULL. */
ws_rt_func *ws_rt_find_func(const void *p);
/* Resolve a kernel (loading its module): cudaSuccess, or an error. */
cudaError_t ws_rt_func_kernel(ws_rt_func *f, ws_kernel **k);
/* Registered variable for a host shadow address, or NULL. */
ws_rt_var *ws_rt_find_var(const void *p);
/* Resolve a variable's device address (loading its module). */
cudaError_t ws_rt_var_addr(ws_rt_var *v, uint64_t *addr);
/* Whether warpsim's own messages are silenced (WARPSIM_QUIET). */
int ws_rt_quiet(void);

/* ---- rt_module.c (the driver's bridge, rt_bridge.h) ---- */
/* Driver API calls in progress on this thread: the runtime calls they make keep the last error and are not
 * reported under --check (the driver reports its own failures). */
extern _Thread_local int ws_rt_driver_depth;
/* The device was reset: unload every module the driver API loaded (their GPU is gone). Lock held. */
void ws_rt_modules_reset(void);

/* ---- rt_errors.c ---- */
/* NVIDIA's name / description of an error code. */
const char *ws_rt_error_name(cudaError_t e);
const char *ws_rt_error_string(cudaError_t e);

/* ---- rt_launch.c ---- */
/* Attributes of a launch beyond its shape: cooperative, the thread block cluster shape (0 0 0: none). */
typedef struct ws_rt_lattr { int coop; ws_dim3 cluster; } ws_rt_lattr;
cudaError_t ws_rt_run_kernel(ws_rt_func *f, ws_dim3 grid, ws_dim3 block, void **args, size_t smem,
                             const ws_rt_lattr *la);   /* run a kernel now (no capture check) */
/* Whether code is a kernel fault (sticky) rather than a launch-configuration error. */
int ws_rt_is_fault(cudaError_t e);
/* Check one launch attribute (cudaLaunchKernelEx's or a kernel node's) into *la. */
cudaError_t ws_rt_launch_attr(const cudaLaunchAttribute *a, ws_rt_lattr *la);

/* ---- rt_mempool.c ---- */
/* Whether ptr is the memory of a graph allocation node (kept for its graph). */
int ws_rt_graph_owned(const void *ptr);
/* Forget the stream-ordered allocation at ptr (its pool's usage drops) when it is freed. */
void ws_rt_pool_forget(const void *ptr);
/* Allocate the memory of a new graph allocation node. */
cudaError_t ws_rt_graph_alloc(void **ptr, size_t size);
/* rt_graph.c: record cudaMallocAsync (kind WS_RT_NODE_MEM_ALLOC: allocates *ptr) or cudaFreeAsync (MEM_FREE of
 * *ptr) into the graph g being captured. */
cudaError_t ws_rt_capture_mem_node(ws_rt_graph *g, int kind, void **ptr, size_t size);

/* ---- rt_memory.c ---- */
/* Copy count bytes as cudaMemcpy would (kind checked); cudaSuccess or an error. */
cudaError_t ws_rt_copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
/* Set count bytes of device memory as cudaMemset would. */
cudaError_t ws_rt_fill(void *dst, int value, size_t count);
/* Register all pinned host memory with a newly created GPU (after cudaDeviceReset). */
void ws_rt_reregister_host(ws_gpu *g);

/* ---- rt_texture.c ---- */
/* The pitched-pointer form of a cudaMemcpy3D whose source or destination is a CUDA array. */
cudaError_t ws_rt_array_3d_params(const struct cudaMemcpy3DParms *in, struct cudaMemcpy3DParms *out);

/* ---- rt_stream.c ---- */
/* Validate a stream handle; *s receives the object (NULL for the default streams). */
cudaError_t ws_rt_stream_get(cudaStream_t h, ws_rt_stream **s);
/* The graph a stream is capturing into, or NULL. */
ws_rt_graph *ws_rt_capturing(cudaStream_t h);
/* Whether any stream is capturing (a legacy-stream synchronizing call is then illegal). */
int ws_rt_any_capture(void);
/* Append a new empty node of kind to g. */
ws_rt_node *ws_rt_graph_add(ws_rt_graph *g, int kind);
/* Copy a kernel's argument values into node n (sizes from the kernel's parameter list). The kernel must
 * have been resolved (f->kernel set). */
cudaError_t ws_rt_node_set_args(ws_rt_node *n, ws_rt_func *f, void **args);
/* Monotonic host time in seconds. */
double ws_rt_now(void);

/* ---- rt_clock.c (timing mode only) ---- */
int ws_rt_clock_on(void);
void ws_rt_clock_kernel(ws_rt_stream *s, double seconds, double host_cost);
void ws_rt_clock_copy(ws_rt_stream *s, size_t bytes, int kind, int pinned, int blocking);
double ws_rt_clock_event(ws_rt_stream *s);
void ws_rt_clock_wait(ws_rt_stream *s, double t);
void ws_rt_clock_sync(ws_rt_stream *s, int all);
void ws_rt_clock_sync_to(double t);
int ws_rt_clock_pinned(const void *p);
/* Set the clock context of the next kernel/copy (stream, host launch cost, synchronous copy). */
void ws_rt_clock_ctx(ws_rt_stream *s, double host_cost, int blocking);

/* The clock context set by ws_rt_clock_ctx: stream, host cost of the launch, synchronous copy. */
ws_rt_stream *ws_rt_clock_ctx_stream(void);
double ws_rt_clock_ctx_cost(void);
int ws_rt_clock_ctx_blocking(void);

/* ---- the host timeline (rt_state.c; src/host/hs_timeline.h) ---- */
/* One API call being timed: the outermost call of a thread is recorded when it returns. */
typedef struct ws_rt_api_scope {
    const char *name;                 /* NULL: not recorded (the timeline is off, or a call inside another) */
    double t0;
    int counted;                      /* the thread's call depth was raised */
} ws_rt_api_scope;
/* Start timing API call `name` (a string that lives for the whole process). */
ws_rt_api_scope ws_rt_api_begin(const char *name);
/* The call returns: record it (the cleanup of WS_RT_API). */
void ws_rt_api_end(ws_rt_api_scope *s);
/* First statement of an exported API function: times the call until it returns, under its own name. */
#define WS_RT_API() WS_RT_API_NAMED(__func__)
/* The same under another name (__cudaLaunchKernel is the program's cudaLaunchKernel). */
#define WS_RT_API_NAMED(n) \
    ws_rt_api_scope ws_rt_api_scope_ __attribute__((cleanup(ws_rt_api_end), unused)) = ws_rt_api_begin(n)
/* Record several copies or fills (the rows of a 2D/3D one) as one timeline event: begin, the operations, end. */
void ws_rt_tl_batch_begin(void);
void ws_rt_tl_batch_end(void);

/* The device of stream s (NULL: the current device's default stream). */
static inline int ws_rt_stream_device(const ws_rt_stream *s) { return s ? s->q.dev : ws_hs_current(); }

/* The timeline number of stream s (0 for the default streams). */
static inline int ws_rt_stream_id(const ws_rt_stream *s) { return s ? s->q.id : 0; }

/* Convert a CUDA dim3 to the core's. */
static inline ws_dim3 ws_rt_dim(dim3 d)
{
    ws_dim3 r = {d.x, d.y, d.z};
    return r;
}

#endif
