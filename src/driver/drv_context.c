/* drv_context.c - cuInit, the primary contexts (one per simulated device: the runtime's context of that device)
 * and the per-thread context stack. A context made by cuCtxCreate is a separate handle over its device's memory
 * and streams. Making a context current makes its device the runtime's current device on the thread. */
#include "drv_internal.h"

#include <pthread.h>
#include <stdlib.h>

#define WS_DRV_STACK_DEPTH 64

/* The driver's process-wide state. */
static struct {
    int inited;
    ws_drv_ctx primary[WS_DRV_MAX_DEVICES];
    int primary_refs[WS_DRV_MAX_DEVICES];   /* cuDevicePrimaryCtxRetain minus Release */
    int ctx_used;                /* the program has made a context current itself */
    ws_drv_ctx *created;         /* contexts from cuCtxCreate */
    unsigned long long next_id;
} drv = { .primary = { { WS_DRV_CTX_MAGIC, 1, 0, 1, NULL, 0 } }, .next_id = 2 };

static pthread_mutex_t drv_mutex = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static _Thread_local ws_drv_ctx *stack[WS_DRV_STACK_DEPTH];
static _Thread_local int depth;

/* Take the driver's lock. */
void ws_drv_lock(void) { pthread_mutex_lock(&drv_mutex); }

/* Release the driver's lock. */
void ws_drv_unlock(void) { pthread_mutex_unlock(&drv_mutex); }

/* Whether cuInit has run. */
CUresult ws_drv_inited(void) { return drv.inited ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED; }

/* The primary context of device dev (made on first use; device 0's has id 1, as with one device). */
ws_drv_ctx *ws_drv_primary_of(int dev)
{
    if (dev < 0 || dev >= WS_DRV_MAX_DEVICES) dev = 0;
    ws_drv_ctx *c = &drv.primary[dev];
    if (!c->magic) {
        ws_drv_lock();
        if (!c->magic) *c = (ws_drv_ctx){ WS_DRV_CTX_MAGIC, 1, 0, 1000ull + (unsigned long long)dev, NULL, dev };
        ws_drv_unlock();
    }
    return c;
}

/* The primary context of the runtime's current device. */
ws_drv_ctx *ws_drv_primary(void)
{
    int d = 0;
    cudaGetDevice(&d);
    return ws_drv_primary_of(d);
}

/* Whether c is one of the primary contexts. */
static int is_primary(const ws_drv_ctx *c)
{
    return c >= &drv.primary[0] && c < &drv.primary[WS_DRV_MAX_DEVICES] && c->magic == WS_DRV_CTX_MAGIC;
}

/* The thread's context c became current: its device becomes the runtime's current device. */
static void bind(const ws_drv_ctx *c)
{
    if (c) cudaSetDevice(c->device);
}

/* Whether c is a live context. */
int ws_drv_ctx_valid(const ws_drv_ctx *c)
{
    if (!c) return 0;
    if (is_primary(c)) return 1;
    ws_drv_lock();
    int ok = 0;
    for (ws_drv_ctx *p = drv.created; p; p = p->next)
        if (p == c && p->magic == WS_DRV_CTX_MAGIC) ok = 1;
    ws_drv_unlock();
    return ok;
}

/* The current context: the top of the thread's stack; with an empty stack, the primary context once the runtime
 * has brought the device up (the runtime makes it current on every thread it serves). */
ws_drv_ctx *ws_drv_current(void)
{
    if (depth > 0) return stack[depth - 1];
    if (!drv.ctx_used && ws_rtx_gpu_exists()) return ws_drv_primary();
    return NULL;
}

/* Whether the thread may call a function that needs a context. */
CUresult ws_drv_need_ctx(void)
{
    if (!drv.inited) return CUDA_ERROR_NOT_INITIALIZED;
    return ws_drv_current() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

/* cuInit: the simulated device must exist (a device preset). */
WS_DRV_EXPORT CUresult cuInit(unsigned int Flags)
{
    if (Flags != 0) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) WS_DRV_RET(CUDA_ERROR_NO_DEVICE);
    drv.inited = 1;
    return CUDA_SUCCESS;
}

/* cuDriverGetVersion: a CUDA 13.0 driver (needs no cuInit). */
WS_DRV_EXPORT CUresult cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    *driverVersion = CUDA_VERSION;
    return CUDA_SUCCESS;
}

/* Check a device ordinal. */
static CUresult check_dev(CUdevice dev)
{
    int n = 0;
    cudaGetDeviceCount(&n);
    return dev >= 0 && dev < n && dev < WS_DRV_MAX_DEVICES ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

/* cuDevicePrimaryCtxRetain: the primary context, activated. */
WS_DRV_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    WS_DRV_ENTER();
    if (!pctx) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (check_dev(dev)) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    ws_drv_lock();
    drv.primary_refs[dev]++;
    ws_drv_unlock();
    *pctx = (CUcontext)ws_drv_primary_of(dev);
    return CUDA_SUCCESS;
}

/* cuDevicePrimaryCtxRelease_v2: drop one reference. */
WS_DRV_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    WS_DRV_ENTER();
    if (check_dev(dev)) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    ws_drv_lock();
    CUresult r = drv.primary_refs[dev] > 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
    if (!r) drv.primary_refs[dev]--;
    ws_drv_unlock();
    WS_DRV_RET(r);
}

/* cuDevicePrimaryCtxRelease: the CUDA 10 name. */
WS_DRV_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }

/* cuDevicePrimaryCtxGetState: its flags and whether it is active (retained, or in use by the runtime). */
WS_DRV_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    WS_DRV_ENTER();
    if (!flags || !active) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (check_dev(dev)) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    *flags = ws_drv_primary_of(dev)->flags;
    *active = drv.primary_refs[dev] > 0 || ws_rtx_gpu_exists();
    return CUDA_SUCCESS;
}

/* cuDevicePrimaryCtxSetFlags_v2: scheduling flags (recorded; the runtime's device flags too). */
WS_DRV_EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
    WS_DRV_ENTER();
    if (check_dev(dev)) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    if (flags & ~(unsigned)(CU_CTX_SCHED_MASK | CU_CTX_LMEM_RESIZE_TO_MAX | CU_CTX_COREDUMP_ENABLE |
                            CU_CTX_USER_COREDUMP_ENABLE | CU_CTX_SYNC_MEMOPS))
        WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    ws_drv_primary_of(dev)->flags = flags;
    return CUDA_SUCCESS;
}

/* cuDevicePrimaryCtxSetFlags: the CUDA 10 name. */
WS_DRV_EXPORT CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
    return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

/* cuDevicePrimaryCtxReset_v2: destroy everything on the device (the runtime's cudaDeviceReset). */
WS_DRV_EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
    WS_DRV_ENTER();
    if (check_dev(dev)) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    drv.primary_refs[dev] = 0;
    int cur = 0;
    cudaGetDevice(&cur);
    cudaSetDevice(dev);   /* the runtime resets its current device */
    cudaError_t e = cudaDeviceReset();
    cudaSetDevice(cur);
    WS_DRV_RT(e);
}

/* cuDevicePrimaryCtxReset: the CUDA 10 name. */
WS_DRV_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }

/* Make a new context current on the thread (pushed). */
static CUresult create_ctx(CUcontext *pctx, unsigned flags, CUdevice dev)
{
    WS_DRV_ENTER();
    if (!pctx) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (check_dev(dev)) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    if (depth >= WS_DRV_STACK_DEPTH) WS_DRV_RET(CUDA_ERROR_OUT_OF_MEMORY);
    ws_drv_ctx *c = calloc(1, sizeof *c);
    if (!c) WS_DRV_RET(CUDA_ERROR_OUT_OF_MEMORY);
    ws_drv_lock();
    c->magic = WS_DRV_CTX_MAGIC;
    c->flags = flags;
    c->device = dev;
    c->id = drv.next_id++;
    c->next = drv.created;
    drv.created = c;
    drv.ctx_used = 1;
    ws_drv_unlock();
    stack[depth++] = c;
    bind(c);
    *pctx = (CUcontext)c;
    return CUDA_SUCCESS;
}

/* cuCtxCreate_v2: a new context on dev, current on the calling thread. */
WS_DRV_EXPORT CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return create_ctx(pctx, flags, dev);
}

/* cuCtxCreate: the oldest name, same arguments. */
WS_DRV_EXPORT CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    return create_ctx(pctx, flags, dev);
}

/* cuCtxCreate_v3: with execution-affinity parameters (none supported: the whole device). */
WS_DRV_EXPORT CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray, int numParams,
                                      unsigned int flags, CUdevice dev)
{
    if (numParams > 0 && paramsArray) WS_DRV_RET(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY);
    return create_ctx(pctx, flags, dev);
}

/* cuCtxCreate_v4: with creation parameters (execution affinity and CIG are not supported). */
WS_DRV_EXPORT CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams, unsigned int flags,
                                      CUdevice dev)
{
    if (ctxCreateParams && (ctxCreateParams->numExecAffinityParams > 0 || ctxCreateParams->cigParams))
        WS_DRV_RET(CUDA_ERROR_NOT_SUPPORTED);
    return create_ctx(pctx, flags, dev);
}

/* cuCtxDestroy_v2: destroy a context made by cuCtxCreate (popped from this thread's stack if current). */
WS_DRV_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx)
{
    WS_DRV_ENTER();
    ws_drv_ctx *c = (ws_drv_ctx *)ctx;
    if (!c || is_primary(c) || !ws_drv_ctx_valid(c)) WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    cudaDeviceSynchronize();
    ws_drv_lock();
    for (ws_drv_ctx **p = &drv.created; *p; p = &(*p)->next)
        if (*p == c) { *p = c->next; break; }
    c->magic = 0;
    ws_drv_unlock();
    /* remove it from this thread's stack (other threads' stacks keep a dead handle: calls there fail) */
    int j = 0;
    for (int i = 0; i < depth; i++)
        if (stack[i] != c) stack[j++] = stack[i];
    depth = j;
    free(c);
    return CUDA_SUCCESS;
}

/* cuCtxDestroy: the oldest name. */
WS_DRV_EXPORT CUresult cuCtxDestroy(CUcontext ctx) { return cuCtxDestroy_v2(ctx); }

/* cuCtxPushCurrent_v2: make ctx current on top of the thread's stack. */
WS_DRV_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
    WS_DRV_ENTER();
    if (!ws_drv_ctx_valid((ws_drv_ctx *)ctx)) WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    if (depth >= WS_DRV_STACK_DEPTH) WS_DRV_RET(CUDA_ERROR_OUT_OF_MEMORY);
    drv.ctx_used = 1;
    stack[depth++] = (ws_drv_ctx *)ctx;
    bind((ws_drv_ctx *)ctx);
    return CUDA_SUCCESS;
}

/* cuCtxPushCurrent: the oldest name. */
WS_DRV_EXPORT CUresult cuCtxPushCurrent(CUcontext ctx) { return cuCtxPushCurrent_v2(ctx); }

/* cuCtxPopCurrent_v2: pop the thread's current context. */
WS_DRV_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
    WS_DRV_ENTER();
    if (depth == 0) WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    ws_drv_ctx *c = stack[--depth];
    if (pctx) *pctx = (CUcontext)c;
    if (depth > 0) bind(stack[depth - 1]);
    return CUDA_SUCCESS;
}

/* cuCtxPopCurrent: the oldest name. */
WS_DRV_EXPORT CUresult cuCtxPopCurrent(CUcontext *pctx) { return cuCtxPopCurrent_v2(pctx); }

/* cuCtxSetCurrent: replace the top of the stack (NULL: pop it). */
WS_DRV_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
    WS_DRV_ENTER();
    if (!ctx) {
        if (depth > 0) depth--;
        drv.ctx_used = 1;
        if (depth > 0) bind(stack[depth - 1]);
        return CUDA_SUCCESS;
    }
    if (!ws_drv_ctx_valid((ws_drv_ctx *)ctx)) WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    drv.ctx_used = 1;
    if (depth == 0) depth = 1;
    stack[depth - 1] = (ws_drv_ctx *)ctx;
    bind((ws_drv_ctx *)ctx);
    return CUDA_SUCCESS;
}

/* cuCtxGetCurrent: the thread's current context, NULL when none. */
WS_DRV_EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    WS_DRV_ENTER();
    if (!pctx) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    *pctx = (CUcontext)ws_drv_current();
    return CUDA_SUCCESS;
}

/* cuCtxGetDevice: the current context's device. */
WS_DRV_EXPORT CUresult cuCtxGetDevice(CUdevice *device)
{
    WS_DRV_ENTER_CTX();
    if (!device) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    *device = ws_drv_current()->device;
    return CUDA_SUCCESS;
}

/* cuCtxEnablePeerAccess: the current context's kernels may access peerContext's device memory. */
WS_DRV_EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
    WS_DRV_ENTER_CTX();
    if (!ws_drv_ctx_valid((ws_drv_ctx *)peerContext)) WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    WS_DRV_RT(cudaDeviceEnablePeerAccess(((ws_drv_ctx *)peerContext)->device, Flags));
}

/* cuCtxDisablePeerAccess: undo cuCtxEnablePeerAccess. */
WS_DRV_EXPORT CUresult cuCtxDisablePeerAccess(CUcontext peerContext)
{
    WS_DRV_ENTER_CTX();
    if (!ws_drv_ctx_valid((ws_drv_ctx *)peerContext)) WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    WS_DRV_RT(cudaDeviceDisablePeerAccess(((ws_drv_ctx *)peerContext)->device));
}

/* cuCtxGetFlags: the current context's flags. */
WS_DRV_EXPORT CUresult cuCtxGetFlags(unsigned int *flags)
{
    WS_DRV_ENTER_CTX();
    if (!flags) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    *flags = ws_drv_current()->flags;
    return CUDA_SUCCESS;
}

/* cuCtxGetId: a unique number of a context (the current one when ctx is NULL). */
WS_DRV_EXPORT CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
    WS_DRV_ENTER();
    ws_drv_ctx *c = ctx ? (ws_drv_ctx *)ctx : ws_drv_current();
    if (!ctxId) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!c || !ws_drv_ctx_valid(c)) WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    *ctxId = c->id;
    return CUDA_SUCCESS;
}

/* cuCtxGetApiVersion: the API version contexts are created with. */
WS_DRV_EXPORT CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    WS_DRV_ENTER();
    if (!version) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (ctx && !ws_drv_ctx_valid((ws_drv_ctx *)ctx)) WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    if (!ctx && !ws_drv_current()) WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    *version = 3020;   /* the API version every context since CUDA 3.2 reports */
    return CUDA_SUCCESS;
}

/* cuCtxSynchronize: wait for all work of the device. */
WS_DRV_EXPORT CUresult cuCtxSynchronize(void)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaDeviceSynchronize());
}

/* cuCtxGetLimit: CUlimit and cudaLimit share their values. */
WS_DRV_EXPORT CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
    WS_DRV_ENTER_CTX();
    if (!pvalue) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    cudaError_t e = cudaDeviceGetLimit(pvalue, (enum cudaLimit)limit);
    WS_DRV_RET(e == cudaErrorUnsupportedLimit ? CUDA_ERROR_UNSUPPORTED_LIMIT : ws_drv_from_rt(e));
}

/* cuCtxSetLimit: through the runtime. */
WS_DRV_EXPORT CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
    WS_DRV_ENTER_CTX();
    cudaError_t e = cudaDeviceSetLimit((enum cudaLimit)limit, value);
    WS_DRV_RET(e == cudaErrorUnsupportedLimit ? CUDA_ERROR_UNSUPPORTED_LIMIT : ws_drv_from_rt(e));
}

/* cuCtxGetStreamPriorityRange: the runtime's range. */
WS_DRV_EXPORT CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaDeviceGetStreamPriorityRange(leastPriority, greatestPriority));
}

/* cuCtxGetCacheConfig: the device's preference. */
WS_DRV_EXPORT CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig)
{
    WS_DRV_ENTER_CTX();
    if (!pconfig) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    enum cudaFuncCache c = cudaFuncCachePreferNone;
    cudaError_t e = cudaDeviceGetCacheConfig(&c);
    *pconfig = (CUfunc_cache)c;
    WS_DRV_RT(e);
}

/* cuCtxSetCacheConfig: recorded by the runtime. */
WS_DRV_EXPORT CUresult cuCtxSetCacheConfig(CUfunc_cache config)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaDeviceSetCacheConfig((enum cudaFuncCache)config));
}
