/* rt_launch.c - kernel launches (the CUDA 13 <<<>>> path and the public launch API), function attributes
 * and the occupancy API. */
#include "rt_internal.h"
#include "../analysis/occupancy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One pushed <<<grid, block, smem, stream>>> configuration. */
typedef struct {
    dim3 grid, block;
    size_t smem;
    cudaStream_t stream;
} call_config;

#define CONFIG_DEPTH 32
static _Thread_local call_config config_stack[CONFIG_DEPTH];
static _Thread_local int config_depth;

/* Whether a status from ws_launch is a fault of the running kernel (sticky), not a configuration error. */
int ws_rt_is_fault(cudaError_t e) { return ws_hs_is_fault((int)e); }

/* The session's description of kernel f (for occupancy and launches). */
static ws_hs_kernel hs_kernel(const ws_rt_func *f, ws_kernel *k)
{
    ws_hs_kernel h = { k, f->name, NULL, 0, f->carveout, f->max_dyn_smem != (size_t)-1, 0, 0, -1, { 0, 0, 0 } };
    if (f->mod < f->fb->nmod) { h.ptx = f->fb->ptx[f->mod]; h.ptx_len = f->fb->ptx_len[f->mod]; }
    return h;
}

/* Run a kernel now: resolve it and launch it through the session (faults become a pending error). */
cudaError_t ws_rt_run_kernel(ws_rt_func *f, ws_dim3 grid, ws_dim3 block, void **args, size_t smem,
                             const ws_rt_lattr *la)
{
    if (!f->fb->registered && f->fb->device != ws_hs_current())
        return cudaErrorInvalidResourceHandle;   /* a driver module's kernel runs only on its own device */
    ws_kernel *k = NULL;
    cudaError_t e = ws_rt_func_kernel(f, &k);
    if (e) return e;
    ws_hs_kernel h = hs_kernel(f, k);
    h.cooperative = la->coop;
    h.cluster = la->cluster;
    return (cudaError_t)ws_hs_launch(&h, grid, block, smem, args, ws_rt_clock_ctx_stream() ? &ws_rt_clock_ctx_stream()->q : NULL,
                                     ws_rt_clock_ctx_cost(), NULL);
}

static int kernel_regs(const ws_device *d, const ws_rt_func *f, const ws_kernel_info *info);

/* Common launch path: sticky check, stream check, capture or run; la: the launch attributes (NULL: none). */
static cudaError_t launch(ws_rt_func *f, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t stream,
                          const ws_rt_lattr *la)
{
    static const ws_rt_lattr none = { 0, { 0, 0, 0 } };
    if (!la) la = &none;
    if (!f) return ws_rt_set_error(cudaErrorInvalidDeviceFunction);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_check(0);
    if (!e) e = ws_rt_stream_get(stream, &s);
    if (!e && ws_rt_stream_device(s) != ws_hs_current())
        e = cudaErrorInvalidResourceHandle;   /* a stream of another device, as on hardware */
    if (!e) {
        ws_rt_graph *cg = ws_rt_capturing(stream);
        if (cg) {
            ws_kernel *k = NULL;
            e = ws_rt_func_kernel(f, &k);
            if (!e) {
                ws_rt_node *n = ws_rt_graph_add(cg, WS_RT_NODE_KERNEL);
                if (!n) e = cudaErrorMemoryAllocation;
                else {
                    n->func = f;
                    n->grid = ws_rt_dim(grid);
                    n->block = ws_rt_dim(block);
                    n->smem = smem;
                    n->coop = la->coop;
                    n->cluster = la->cluster;
                    e = ws_rt_node_set_args(n, f, args);
                }
            }
        } else if (!ws_hs_fault_pending()) {
            cudaError_t de = cudaSuccess;
            const ws_device *d = ws_rt_device(&de);
            ws_rt_clock_ctx(s, d ? d->launch_overhead_us * 1e-6 : 0, 0);
            e = ws_rt_run_kernel(f, ws_rt_dim(grid), ws_rt_dim(block), args, smem, la);
            ws_rt_clock_ctx(NULL, 0, 1);
        }
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* __cudaPushCallConfiguration: remember <<<...>>> for the stub's __cudaPopCallConfiguration; 0 = go on. */
WS_RT_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                  struct CUstream_st *stream)
{
    if (config_depth >= CONFIG_DEPTH) return 1;
    call_config *c = &config_stack[config_depth++];
    c->grid = gridDim;
    c->block = blockDim;
    c->smem = sharedMem;
    c->stream = stream;
    return 0;
}

/* __cudaPopCallConfiguration: hand the pushed configuration to the launch stub. */
WS_RT_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, void *stream)
{
    if (config_depth <= 0) return ws_rt_set_error(cudaErrorMissingConfiguration);
    call_config *c = &config_stack[--config_depth];
    if (gridDim) *gridDim = c->grid;
    if (blockDim) *blockDim = c->block;
    if (sharedMem) *sharedMem = c->smem;
    if (stream) *(cudaStream_t *)stream = c->stream;
    return cudaSuccess;
}

/* __cudaGetKernel: the kernel handle of a host stub (our registration record). */
WS_RT_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
    if (!kernel) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_func *f = ws_rt_find_func(func);
    ws_rt_unlock();
    if (!f) return ws_rt_set_error(cudaErrorInvalidDeviceFunction);
    *kernel = (cudaKernel_t)f;
    return cudaSuccess;
}

/* cudaGetKernel: the public form of __cudaGetKernel. */
WS_RT_EXPORT cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr)
{
    WS_RT_API();
    return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

/* Registration record behind a cudaKernel_t handle or a host stub address. */
static ws_rt_func *kernel_func(const void *k)
{
    ws_rt_lock();
    ws_rt_func *f = ws_rt_find_func(k);
    ws_rt_unlock();
    return f;
}

/* __cudaLaunchKernel: the <<<>>> launch of CUDA 13 programs. */
WS_RT_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                            size_t sharedMem, cudaStream_t stream)
{
    WS_RT_API_NAMED("cudaLaunchKernel");
    return launch(kernel_func(kernel), gridDim, blockDim, args, sharedMem, stream, NULL);
}

/* __cudaLaunchKernel_ptsz: per-thread default stream variant (one device, one queue: the same). */
WS_RT_EXPORT cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                                                 size_t sharedMem, cudaStream_t stream)
{
    WS_RT_API_NAMED("cudaLaunchKernel_ptsz");
    return launch(kernel_func(kernel), gridDim, blockDim, args, sharedMem, stream, NULL);
}

/* cudaLaunchKernel: launch by host stub address. */
WS_RT_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                          size_t sharedMem, cudaStream_t stream)
{
    WS_RT_API();
    return launch(kernel_func(func), gridDim, blockDim, args, sharedMem, stream, NULL);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                  cudaStream_t stream);
/* cudaLaunchKernel_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                               size_t sharedMem, cudaStream_t stream)
{
    WS_RT_API();
    return launch(kernel_func(func), gridDim, blockDim, args, sharedMem, stream, NULL);
}

/* cudaLaunchCooperativeKernel: every block resident at once (cudaErrorCooperativeLaunchTooLarge when the grid
 * cannot be), and the grid group's workspace in %envreg1/2 for this_grid().sync(). */
WS_RT_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                     size_t sharedMem, cudaStream_t stream)
{
    WS_RT_API();
    ws_rt_lattr la = { 1, { 0, 0, 0 } };
    return launch(kernel_func(func), gridDim, blockDim, args, sharedMem, stream, &la);
}

/* Check one launch attribute (of a launch or a kernel node) into *la (cooperative, cluster shape). */
cudaError_t ws_rt_launch_attr(const cudaLaunchAttribute *a, ws_rt_lattr *la)
{
    switch (a->id) {
    case cudaLaunchAttributeCooperative: la->coop = a->val.cooperative != 0; break;
    case cudaLaunchAttributeClusterDimension:
        la->cluster = (ws_dim3){ a->val.clusterDim.x, a->val.clusterDim.y, a->val.clusterDim.z };
        break;
    case cudaLaunchAttributePreferredClusterDimension:   /* a hint: the required shape (or none) is launched */
        break;
    case cudaLaunchAttributeIgnore:
    case cudaLaunchAttributeAccessPolicyWindow:            /* cache hints: no effect on results */
    case cudaLaunchAttributeSynchronizationPolicy:
    case cudaLaunchAttributeClusterSchedulingPolicyPreference:
    case cudaLaunchAttributeProgrammaticStreamSerialization: /* launches run in stream order anyway */
    case cudaLaunchAttributePriority:                      /* one launch runs at a time */
    case cudaLaunchAttributeMemSyncDomainMap:
    case cudaLaunchAttributeMemSyncDomain:
    case cudaLaunchAttributePreferredSharedMemoryCarveout:
        break;
    default:
        if ((int)a->id > cudaLaunchAttributeNvlinkUtilCentricScheduling) return cudaErrorInvalidValue;
        if (!ws_rt_quiet())
            fprintf(stderr, "warpsim: cudaLaunchKernelEx: launch attribute %d is not supported\n", (int)a->id);
        return cudaErrorNotSupported;
    }
    return cudaSuccess;
}

/* Check the attributes of a cudaLaunchKernelEx configuration into *la. */
static cudaError_t launch_attrs(const cudaLaunchConfig_t *config, ws_rt_lattr *la)
{
    memset(la, 0, sizeof *la);
    if (config->numAttrs && !config->attrs) return cudaErrorInvalidValue;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        cudaError_t e = ws_rt_launch_attr(&config->attrs[i], la);
        if (e) return e;
    }
    return cudaSuccess;
}

/* cudaLaunchKernelExC: launch with a configuration struct and its attributes (cooperative, cluster dimension,
 * priority and the hints that change no result). */
WS_RT_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    WS_RT_API();
    if (!config) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lattr la;
    cudaError_t e = launch_attrs(config, &la);
    if (e) return ws_rt_set_error(e);
    return launch(kernel_func(func), config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                  config->stream, &la);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args);
/* cudaLaunchKernelExC_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    WS_RT_API();
    return cudaLaunchKernelExC(config, func, args);
}

/* Find and resolve a kernel for the function-attribute calls. */
static cudaError_t func_kernel(const void *func, ws_rt_func **fp, ws_kernel **kp)
{
    ws_rt_func *f = ws_rt_find_func(func);
    if (!f) return cudaErrorInvalidDeviceFunction;
    cudaError_t e = ws_rt_check(0);
    if (e) return e;
    e = ws_rt_func_kernel(f, kp);
    *fp = f;
    return e;
}

/* cudaFuncSetAttribute: dynamic shared memory limit and carve-out preference. */
WS_RT_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_func *f = NULL;
    ws_kernel *k = NULL;
    cudaError_t e = func_kernel(func, &f, &k);
    if (!e) {
        const ws_device *d = ws_gpu_device(ws_hs_current_gpu());
        ws_kernel_info info;
        ws_kernel_get_info(k, &info);
        switch (attr) {
        case cudaFuncAttributeMaxDynamicSharedMemorySize:
            if (value < 0 || (size_t)value + info.static_smem > d->smem_per_block_optin) {
                e = cudaErrorInvalidValue;
                break;
            }
            f->max_dyn_smem = (size_t)value;
            ws_kernel_set_max_dyn_smem(k, (size_t)value);
            break;
        case cudaFuncAttributePreferredSharedMemoryCarveout:
            if (value < -1 || value > 100) e = cudaErrorInvalidValue;
            else f->carveout = value;
            break;
        case cudaFuncAttributeNonPortableClusterSizeAllowed:
            if (value < 0 || value > 1) e = cudaErrorInvalidValue;
            else ws_kernel_set_cluster_nonportable(k, value);
            break;
        case cudaFuncAttributeClusterDimMustBeSet:
        case cudaFuncAttributeRequiredClusterWidth:
        case cudaFuncAttributeRequiredClusterHeight:
        case cudaFuncAttributeRequiredClusterDepth:
        case cudaFuncAttributeClusterSchedulingPolicyPreference:
            break;
        default:
            e = cudaErrorInvalidValue;
        }
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* Dynamic shared memory a kernel may currently request. */
static size_t max_dyn_smem(const ws_device *d, const ws_rt_func *f, const ws_kernel_info *info)
{
    if (f->max_dyn_smem != (size_t)-1) return f->max_dyn_smem;
    return d->smem_per_block > info->static_smem ? d->smem_per_block - info->static_smem : 0;
}

/* cudaFuncGetAttributes: static facts of a kernel; numRegs is what ptxas allocates for the device. */
WS_RT_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    WS_RT_API();
    if (!attr) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_func *f = NULL;
    ws_kernel *k = NULL;
    cudaError_t e = func_kernel(func, &f, &k);
    if (!e) {
        const ws_device *d = ws_gpu_device(ws_hs_current_gpu());
        ws_kernel_info info;
        ws_kernel_get_info(k, &info);
        memset(attr, 0, sizeof *attr);
        attr->sharedSizeBytes = info.static_smem;
        attr->constSizeBytes = 0;
        attr->localSizeBytes = info.local_bytes;
        int maxt = d->max_threads_per_block;
        if (info.max_threads > 0 && info.max_threads < maxt) maxt = info.max_threads;
        attr->maxThreadsPerBlock = maxt;
        attr->numRegs = kernel_regs(d, f, &info);
        attr->ptxVersion = (int)f->fb->arch[f->mod];
        attr->binaryVersion = d->cc_major * 10 + d->cc_minor;
        attr->cacheModeCA = 0;
        attr->maxDynamicSharedSizeBytes = (int)max_dyn_smem(d, f, &info);
        attr->preferredShmemCarveout = f->carveout;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaFuncSetCacheConfig: remembered only. */
WS_RT_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_func *f = ws_rt_find_func(func);
    cudaError_t e = f ? cudaSuccess : cudaErrorInvalidDeviceFunction;
    if (f) {
        if ((unsigned)cacheConfig > cudaFuncCachePreferEqual) e = cudaErrorInvalidValue;
        else f->cache_config = cacheConfig;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaFuncSetSharedMemConfig: deprecated; accepted. */
WS_RT_EXPORT cudaError_t cudaFuncSetSharedMemConfig(const void *func, enum cudaSharedMemConfig config)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_func *f = ws_rt_find_func(func);
    ws_rt_unlock();
    if (!f) return ws_rt_set_error(cudaErrorInvalidDeviceFunction);
    if ((unsigned)config > cudaSharedMemBankSizeEightByte) return ws_rt_set_error(cudaErrorInvalidValue);
    return cudaSuccess;
}

/* cudaGetFuncBySymbol: the function handle of a host stub. */
WS_RT_EXPORT cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr)
{
    WS_RT_API();
    if (!functionPtr) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_func *f = ws_rt_find_func(symbolPtr);
    ws_rt_unlock();
    if (!f) return ws_rt_set_error(cudaErrorInvalidDeviceFunction);
    *functionPtr = (cudaFunction_t)f;
    return cudaSuccess;
}

/* cudaFuncGetName: the mangled device name of a kernel. */
WS_RT_EXPORT cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    WS_RT_API();
    if (!name) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_func *f = ws_rt_find_func(func);
    ws_rt_unlock();
    if (!f) return ws_rt_set_error(cudaErrorInvalidDeviceFunction);
    *name = f->name;
    return cudaSuccess;
}

/* Registers per thread of a kernel as ptxas allocates them for the device (the session's count). */
static int kernel_regs(const ws_device *d, const ws_rt_func *f, const ws_kernel_info *info)
{
    (void)info;
    ws_hs_kernel h = hs_kernel(f, f->kernel);
    return ws_hs_kernel_regs(d, &h);
}

/* Resident blocks per SM for a launch of f, computed as cuda_occupancy.h does (src/analysis/occupancy.h). */
static int blocks_per_sm(const ws_device *d, const ws_rt_func *f, const ws_kernel_info *info, int block_size,
                         size_t dyn)
{
    ws_occ_opts opts = ws_occ_default_opts();
    opts.carveout_pct = f->carveout;
    opts.smem_optin = f->max_dyn_smem != (size_t)-1;
    ws_occ_result r;
    memset(&r, 0, sizeof r);
    if (ws_occ_compute_ex(d, block_size, kernel_regs(d, f, info), info->static_smem + dyn, 0, &opts, &r) != 0)
        return 0;
    return r.ok ? r.blocks_per_sm : 0;
}

/* Shared occupancy query. */
static cudaError_t occupancy(int *numBlocks, const void *func, int blockSize, size_t dyn, unsigned flags)
{
    if (!numBlocks || blockSize <= 0 || (flags & ~1u)) return cudaErrorInvalidValue;
    ws_rt_lock();
    ws_rt_func *f = NULL;
    ws_kernel *k = NULL;
    cudaError_t e = func_kernel(func, &f, &k);
    if (!e) {
        const ws_device *d = ws_gpu_device(ws_hs_current_gpu());
        ws_kernel_info info;
        ws_kernel_get_info(k, &info);
        int maxt = d->max_threads_per_block;
        if (info.max_threads > 0 && info.max_threads < maxt) maxt = info.max_threads;
        if (blockSize > maxt || dyn > max_dyn_smem(d, f, &info)) *numBlocks = 0;
        else *numBlocks = blocks_per_sm(d, f, &info, blockSize, dyn);
    }
    ws_rt_unlock();
    return e;
}

/* cudaOccupancyMaxActiveBlocksPerMultiprocessor: resident blocks per SM. */
WS_RT_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                                       int blockSize, size_t dynamicSMemSize)
{
    WS_RT_API();
    return ws_rt_set_error(occupancy(numBlocks, func, blockSize, dynamicSMemSize, 0));
}

/* cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags: the same (the caching flag changes nothing here). */
WS_RT_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func,
                                                                                int blockSize,
                                                                                size_t dynamicSMemSize,
                                                                                unsigned int flags)
{
    WS_RT_API();
    return ws_rt_set_error(occupancy(numBlocks, func, blockSize, dynamicSMemSize, flags));
}

/* cudaOccupancyAvailableDynamicSMemPerBlock: dynamic shared memory left per block with numBlocks per SM. */
WS_RT_EXPORT cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                                   int numBlocks, int blockSize)
{
    WS_RT_API();
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_func *f = NULL;
    ws_kernel *k = NULL;
    cudaError_t e = func_kernel(func, &f, &k);
    if (!e) {
        const ws_device *d = ws_gpu_device(ws_hs_current_gpu());
        ws_kernel_info info;
        ws_kernel_get_info(k, &info);
        size_t per = d->smem_per_sm / (size_t)numBlocks;
        if (d->smem_alloc_unit) per = per / d->smem_alloc_unit * d->smem_alloc_unit;
        size_t used = info.static_smem + d->smem_reserved_per_block;
        size_t avail = per > used ? per - used : 0;
        size_t cap = d->smem_per_block_optin > info.static_smem ? d->smem_per_block_optin - info.static_smem : 0;
        *dynamicSmemSize = avail < cap ? avail : cap;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaFuncGetParamInfo: offset and size of a kernel parameter in its parameter buffer. */
WS_RT_EXPORT cudaError_t cudaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                              size_t *paramSize)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_func *f = NULL;
    ws_kernel *k = NULL;
    cudaError_t e = func_kernel(func, &f, &k);
    if (!e) {
        ws_kernel_info info;
        ws_kernel_get_info(k, &info);
        if (paramIndex >= (size_t)info.nparams) e = cudaErrorInvalidValue;
        else {
            if (paramOffset) *paramOffset = info.param_offset[paramIndex];
            if (paramSize) *paramSize = info.param_size[paramIndex];
        }
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* The cluster size a launch configuration of f asks for: its cluster dimension attribute, else the kernel's
 * __cluster_dims__, else 1; 0 with *e set when the shape is one CUDA refuses. */
static int config_cluster_size(const cudaLaunchConfig_t *c, const ws_rt_func *f, ws_kernel *k, cudaError_t *e)
{
    ws_kernel_info info;
    ws_kernel_get_info(k, &info);
    (void)f;
    uint64_t n = 0;
    for (unsigned i = 0; c->attrs && i < c->numAttrs; i++)
        if (c->attrs[i].id == cudaLaunchAttributeClusterDimension)
            n = (uint64_t)c->attrs[i].val.clusterDim.x * c->attrs[i].val.clusterDim.y * c->attrs[i].val.clusterDim.z;
    if (!n) n = info.cluster_dim.x ? (uint64_t)info.cluster_dim.x * info.cluster_dim.y * info.cluster_dim.z : 1;
    uint64_t limit = ws_kernel_cluster_nonportable(k) ? WS_CLUSTER_MAX_NONPORTABLE : WS_CLUSTER_MAX_PORTABLE;
    if (n > limit) { *e = cudaErrorInvalidClusterSize; return 0; }
    return (int)n;
}

/* Resident blocks per SM for a launch configuration of func (0 when it cannot run), through the occupancy query. */
static cudaError_t config_occupancy(const cudaLaunchConfig_t *c, const void *func, int *per_sm)
{
    dim3 b = c->blockDim;
    return occupancy(per_sm, func, (int)(b.x * b.y * b.z), c->dynamicSmemBytes, 0);
}

/* cudaOccupancyMaxPotentialClusterSize: the largest cluster (8, or 16 with the non-portable opt-in) of which one
 * can be resident with the configuration's blocks. */
WS_RT_EXPORT cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, const void *func,
                                                              const cudaLaunchConfig_t *launchConfig)
{
    WS_RT_API();
    if (!clusterSize || !func || !launchConfig) return ws_rt_set_error(cudaErrorInvalidValue);
    int per_sm = 0;
    cudaError_t e = config_occupancy(launchConfig, func, &per_sm);
    if (e) return ws_rt_set_error(e);
    ws_rt_lock();
    ws_rt_func *f = NULL;
    ws_kernel *k = NULL;
    e = func_kernel(func, &f, &k);
    if (!e) {
        const ws_device *d = ws_gpu_device(ws_hs_current_gpu());
        int c = ws_kernel_cluster_nonportable(k) ? WS_CLUSTER_MAX_NONPORTABLE : WS_CLUSTER_MAX_PORTABLE;
        while (c > 0 && ws_occ_max_clusters(d, per_sm, c) < 1) c--;
        *clusterSize = c;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaOccupancyMaxActiveClusters: clusters of the configuration's size (its attribute, else the kernel's
 * __cluster_dims__, else 1) resident at once: each GPC holds its SMs' block slots' worth (ws_occ_max_clusters). */
WS_RT_EXPORT cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                                        const cudaLaunchConfig_t *launchConfig)
{
    WS_RT_API();
    if (!numClusters || !launchConfig) return ws_rt_set_error(cudaErrorInvalidValue);
    int per_sm = 0;
    cudaError_t e = config_occupancy(launchConfig, func, &per_sm);
    if (e) return ws_rt_set_error(e);
    ws_rt_lock();
    ws_rt_func *f = NULL;
    ws_kernel *k = NULL;
    e = func_kernel(func, &f, &k);
    int n = e ? 0 : config_cluster_size(launchConfig, f, k, &e);
    if (!e) *numClusters = ws_occ_max_clusters(ws_gpu_device(ws_hs_current_gpu()), per_sm, n);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}
