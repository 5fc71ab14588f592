/* rt_device.c - device management and query: the simulated devices (`warpsim run --gpus`, one by default), each
 * described by its preset; the current device per host thread; peer access between them. */
#include "rt_internal.h"

#include <cuda_profiler_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fill a cudaDeviceProp of device `index` from its preset (CUDA 13 layout). */
static void fill_props(struct cudaDeviceProp *p, const ws_device *d, int index)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", d->full_name[0] ? d->full_name : d->name);
    for (size_t i = 0; i < sizeof p->uuid.bytes; i++) /* a stable made-up UUID derived from the preset name */
        p->uuid.bytes[i] = (char)(0x57 ^ (unsigned char)d->name[i % (strlen(d->name) ? strlen(d->name) : 1)] ^ (i * 37) ^
                                  (i == 15 ? index : 0));   /* device 0 keeps the single device's UUID */
    p->totalGlobalMem = d->global_mem;
    p->sharedMemPerBlock = d->smem_per_block;
    p->regsPerBlock = d->max_regs_per_block;
    p->warpSize = d->warp_size;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = d->max_threads_per_block;
    for (int i = 0; i < 3; i++) {
        p->maxThreadsDim[i] = d->max_block_dim[i];
        p->maxGridSize[i] = d->max_grid_dim[i];
    }
    p->totalConstMem = d->const_mem;
    p->major = d->cc_major;
    p->minor = d->cc_minor;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = d->sm_count;
    p->integrated = 0;
    p->canMapHostMemory = 1;
    p->maxTexture1D = 131072;
    p->maxTexture1DMipmap = 32768;
    p->maxTexture2D[0] = 131072, p->maxTexture2D[1] = 65536;
    p->maxTexture2DMipmap[0] = 32768, p->maxTexture2DMipmap[1] = 32768;
    p->maxTexture2DLinear[0] = 131072, p->maxTexture2DLinear[1] = 65000, p->maxTexture2DLinear[2] = 2097120;
    p->maxTexture2DGather[0] = 32768, p->maxTexture2DGather[1] = 32768;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
    p->maxTexture3DAlt[0] = p->maxTexture3DAlt[1] = 8192, p->maxTexture3DAlt[2] = 32768;
    p->maxTextureCubemap = 32768;
    p->maxTexture1DLayered[0] = 32768, p->maxTexture1DLayered[1] = 2048;
    p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768, p->maxTexture2DLayered[2] = 2048;
    p->maxTextureCubemapLayered[0] = 32768, p->maxTextureCubemapLayered[1] = 2046;
    p->maxSurface1D = 32768;
    p->maxSurface2D[0] = 131072, p->maxSurface2D[1] = 65536;
    p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = 16384;
    p->maxSurface1DLayered[0] = 32768, p->maxSurface1DLayered[1] = 2048;
    p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768, p->maxSurface2DLayered[2] = 2048;
    p->maxSurfaceCubemap = 32768;
    p->maxSurfaceCubemapLayered[0] = 32768, p->maxSurfaceCubemapLayered[1] = 2046;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1;
    p->ECCEnabled = d->teaching ? 0 : 1;
    p->pciBusID = 0x1b + index;
    p->pciDeviceID = 0;
    p->pciDomainID = 0;
    p->tccDriver = 0;
    p->asyncEngineCount = 2;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = d->mem_bus_width;
    p->l2CacheSize = (int)d->l2_size;
    p->persistingL2CacheMaxSize = (int)(d->l2_size / 4 * 3);
    p->maxThreadsPerMultiProcessor = d->max_threads_per_sm;
    p->streamPrioritiesSupported = 1;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = d->smem_per_sm;
    p->regsPerMultiprocessor = d->regs_per_sm;
    p->managedMemory = 1;
    p->isMultiGpuBoard = 0;   /* separate boards joined by the peer link */
    p->multiGpuBoardGroupID = 0;
    p->hostNativeAtomicSupported = 0;
    p->pageableMemoryAccess = 0;
    p->concurrentManagedAccess = 1;
    p->computePreemptionSupported = 1;
    p->canUseHostPointerForRegisteredMem = 1;
    p->cooperativeLaunch = 1;
    p->sharedMemPerBlockOptin = d->smem_per_block_optin;
    p->pageableMemoryAccessUsesHostPageTables = 0;
    p->directManagedMemAccessFromHost = 0;
    p->maxBlocksPerMultiProcessor = d->max_blocks_per_sm;
    p->accessPolicyMaxWindowSize = 134213632;
    p->reservedSharedMemPerBlock = d->smem_reserved_per_block;
    p->hostRegisterSupported = 1;
    p->sparseCudaArraySupported = 1;
    p->hostRegisterReadOnlySupported = 1;
    p->timelineSemaphoreInteropSupported = 1;
    p->memoryPoolsSupported = 1;
    p->gpuDirectRDMASupported = 0;
    p->memoryPoolSupportedHandleTypes = 1;
    p->deferredMappingCudaArraySupported = 1;
    p->ipcEventSupported = 1;
    p->clusterLaunch = d->cc_major >= 9;
    p->unifiedFunctionPointers = 1;
    p->deviceNumaConfig = 0;
    p->deviceNumaId = -1;
    p->mpsEnabled = 0;
    p->hostNumaId = -1;
}

/* Check a device ordinal against the simulated devices. */
static cudaError_t check_device(int device)
{
    int n = ws_hs_device_count();
    if (!n) return cudaErrorNoDevice;
    return device >= 0 && device < n ? cudaSuccess : cudaErrorInvalidDevice;
}

/* cudaGetDeviceCount: the simulated devices (0 and cudaErrorNoDevice if a preset cannot be loaded). */
WS_RT_EXPORT cudaError_t cudaGetDeviceCount(int *count)
{
    WS_RT_API();
    if (!count) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    *count = ws_hs_device_count();
    cudaError_t e = *count ? cudaSuccess : cudaErrorNoDevice;
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGetDeviceProperties: the preset's values. */
WS_RT_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    WS_RT_API();
    if (!prop) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    cudaError_t e = check_device(device);
    if (!e) fill_props(prop, ws_hs_device_at(device), device);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* Value of an attribute of device `index`; cudaErrorInvalidValue for an unknown attribute. */
static cudaError_t attribute(int index, enum cudaDeviceAttr attr, int *v)
{
    const ws_device *d = ws_hs_device_at(index);
    struct cudaDeviceProp p;
    fill_props(&p, d, index);
    switch ((int)attr) {
    case cudaDevAttrMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *v = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *v = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *v = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *v = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *v = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *v = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *v = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *v = p.warpSize; break;
    case cudaDevAttrMaxPitch: *v = (int)p.memPitch; break;
    case cudaDevAttrMaxRegistersPerBlock: *v = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *v = (int)(d->sm_clock_mhz * 1000.0); break;
    case cudaDevAttrTextureAlignment: *v = (int)p.textureAlignment; break;
    case cudaDevAttrGpuOverlap: *v = 1; break;
    case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: *v = 0; break;
    case cudaDevAttrIntegrated: *v = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: *v = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: *v = cudaComputeModeDefault; break;
    case cudaDevAttrMaxTexture1DWidth: *v = p.maxTexture1D; break;
    case cudaDevAttrMaxTexture2DWidth: *v = p.maxTexture2D[0]; break;
    case cudaDevAttrMaxTexture2DHeight: *v = p.maxTexture2D[1]; break;
    case cudaDevAttrMaxTexture3DWidth: *v = p.maxTexture3D[0]; break;
    case cudaDevAttrMaxTexture3DHeight: *v = p.maxTexture3D[1]; break;
    case cudaDevAttrMaxTexture3DDepth: *v = p.maxTexture3D[2]; break;
    case cudaDevAttrSurfaceAlignment: *v = (int)p.surfaceAlignment; break;
    case cudaDevAttrConcurrentKernels: *v = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: *v = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: *v = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *v = p.pciDeviceID; break;
    case cudaDevAttrTccDriver: *v = p.tccDriver; break;
    case cudaDevAttrMemoryClockRate: *v = (int)(d->mem_clock_mhz * 1000.0); break;
    case cudaDevAttrGlobalMemoryBusWidth: *v = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *v = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *v = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *v = p.unifiedAddressing; break;
    case cudaDevAttrPciDomainId: *v = p.pciDomainID; break;
    case cudaDevAttrTexturePitchAlignment: *v = (int)p.texturePitchAlignment; break;
    case cudaDevAttrComputeCapabilityMajor: *v = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *v = p.minor; break;
    case cudaDevAttrStreamPrioritiesSupported: *v = p.streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *v = p.globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *v = p.localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *v = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: *v = p.isMultiGpuBoard; break;
    case cudaDevAttrMultiGpuBoardGroupID: *v = p.multiGpuBoardGroupID; break;
    case cudaDevAttrHostNativeAtomicSupported: *v = p.hostNativeAtomicSupported; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio:
        *v = d->fp64_tflops > 0 ? (int)(d->fp32_tflops / d->fp64_tflops + 0.5) : 2;
        break;
    case cudaDevAttrPageableMemoryAccess: *v = p.pageableMemoryAccess; break;
    case cudaDevAttrConcurrentManagedAccess: *v = p.concurrentManagedAccess; break;
    case cudaDevAttrComputePreemptionSupported: *v = p.computePreemptionSupported; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *v = p.canUseHostPointerForRegisteredMem; break;
    case cudaDevAttrCooperativeLaunch: *v = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrCanFlushRemoteWrites: *v = 0; break;
    case cudaDevAttrHostRegisterSupported: *v = p.hostRegisterSupported; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: *v = p.pageableMemoryAccessUsesHostPageTables; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: *v = p.directManagedMemAccessFromHost; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: *v = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *v = p.accessPolicyMaxWindowSize; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *v = (int)p.reservedSharedMemPerBlock; break;
    case cudaDevAttrSparseCudaArraySupported: *v = p.sparseCudaArraySupported; break;
    case cudaDevAttrHostRegisterReadOnlySupported: *v = p.hostRegisterReadOnlySupported; break;
    case cudaDevAttrTimelineSemaphoreInteropSupported: *v = p.timelineSemaphoreInteropSupported; break;
    case cudaDevAttrMemoryPoolsSupported: *v = p.memoryPoolsSupported; break;
    case cudaDevAttrGPUDirectRDMASupported: *v = p.gpuDirectRDMASupported; break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: *v = (int)p.memoryPoolSupportedHandleTypes; break;
    case cudaDevAttrClusterLaunch: *v = p.clusterLaunch; break;
    case cudaDevAttrDeferredMappingCudaArraySupported: *v = p.deferredMappingCudaArraySupported; break;
    case cudaDevAttrIpcEventSupport: *v = p.ipcEventSupported; break;
    case cudaDevAttrNumaConfig: *v = p.deviceNumaConfig; break;
    case cudaDevAttrNumaId: *v = p.deviceNumaId; break;
    case cudaDevAttrMpsEnabled: *v = p.mpsEnabled; break;
    case cudaDevAttrHostNumaId: *v = p.hostNumaId; break;
    default:
        if ((int)attr > 0 && (int)attr < cudaDevAttrMax) {
            *v = 0; /* a texture/surface or interop limit the simulator does not model */
            break;
        }
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

/* cudaDeviceGetAttribute: one attribute of the preset. */
WS_RT_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    WS_RT_API();
    if (!value) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    cudaError_t e = check_device(device);
    if (!e) e = attribute(device, attr, value);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaSetDevice: the calling thread's device from now on (its context's sticky fault, if any, is returned). */
WS_RT_EXPORT cudaError_t cudaSetDevice(int device)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = check_device(device);
    if (!e) e = ws_rt_set_device(device);
    if (!e) e = ws_rt_check(0);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaInitDevice: as cudaSetDevice, creating the simulated device now. */
WS_RT_EXPORT cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    WS_RT_API();
    (void)deviceFlags, (void)flags;
    ws_rt_lock();
    cudaError_t e = check_device(device);
    if (!e) e = ws_rt_set_device(device);
    if (!e) ws_rt_gpu(&e);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGetDevice: the calling thread's current device. */
WS_RT_EXPORT cudaError_t cudaGetDevice(int *device)
{
    WS_RT_API();
    if (!device) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    cudaError_t e = cudaSuccess;
    if (ws_rt_device(&e)) *device = ws_hs_current();
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaChooseDevice: the device whose compute capability is closest to the requested one (the first on a tie). */
WS_RT_EXPORT cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    WS_RT_API();
    if (!device || !prop) return ws_rt_set_error(cudaErrorInvalidValue);
    int n = ws_hs_device_count(), best = 0, bestd = -1;
    if (!n) return ws_rt_set_error(cudaErrorNoDevice);
    for (int i = 0; i < n; i++) {
        const ws_device *d = ws_hs_device_at(i);
        int dist = abs((d->cc_major * 10 + d->cc_minor) - (prop->major * 10 + prop->minor));
        if (bestd < 0 || dist < bestd) best = i, bestd = dist;
    }
    *device = best;
    return cudaSuccess;
}

/* cudaSetValidDevices: accepts a list of existing devices. */
WS_RT_EXPORT cudaError_t cudaSetValidDevices(int *device_arr, int len)
{
    WS_RT_API();
    if (len < 0 || (len > 0 && !device_arr)) return ws_rt_set_error(cudaErrorInvalidValue);
    for (int i = 0; i < len; i++)
        if (check_device(device_arr[i])) return ws_rt_set_error(cudaErrorInvalidDevice);
    return cudaSuccess;
}

/* cudaSetDeviceFlags: remembered (schedule and map-host flags have no effect on a synchronous simulator). */
WS_RT_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    WS_RT_API();
    if (flags & ~(unsigned)(cudaDeviceScheduleMask | cudaDeviceMapHost | cudaDeviceLmemResizeToMax |
                            cudaDeviceSyncMemops))
        return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_g.device_flags = flags;
    ws_rt_unlock();
    return cudaSuccess;
}

/* cudaGetDeviceFlags: the flags set (map-host is always on). */
WS_RT_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    WS_RT_API();
    if (!flags) return ws_rt_set_error(cudaErrorInvalidValue);
    *flags = ws_rt_g.device_flags | cudaDeviceMapHost;
    return cudaSuccess;
}

/* cudaDeviceReset: drop the current simulated device and everything on it; clears its sticky fault. */
WS_RT_EXPORT cudaError_t cudaDeviceReset(void)
{
    WS_RT_API();
    ws_rt_lock();
    ws_hs_gpu_reset();   /* the GPU goes; the sticky fault too */
    ws_rt_modules_reset();   /* and the driver API's modules on it */
    for (ws_rt_fatbin *fb = ws_rt_g.fatbins; fb; fb = fb->next) ws_rt_unload(fb);
    for (ws_rt_func *f = ws_rt_g.funcs; f; f = f->next) {
        f->kernel = NULL;
        f->max_dyn_smem = (size_t)-1;
        f->carveout = -1;
    }
    for (ws_rt_var *v = ws_rt_g.vars; v; v = v->next) v->resolved = 0;
    for (ws_rt_managed **pm = &ws_rt_g.managed; *pm;) {
        ws_rt_managed *m = *pm;
        if (m->device != ws_hs_current()) { pm = &m->next; continue; }
        *pm = m->next;
        /* managed memory goes with its device, as every allocation on it: its pages first, then its fixed-address
         * window (ws_pinned_free releases any host window, managed ones too) */
        ws_hs_um_free(m->ptr);
        ws_pinned_free(m->ptr);
        free(m);
    }
    ws_rt_g.allocated[ws_hs_current()] = 0;
    ws_rt_g.device_flags = 0;
    ws_rt_g.cache_config = cudaFuncCachePreferNone;
    ws_rt_last_error(1);
    ws_rt_unlock();
    return cudaSuccess;
}

/* cudaRuntimeGetVersion: CUDA 13.0. */
WS_RT_EXPORT cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    WS_RT_API();
    if (!runtimeVersion) return ws_rt_set_error(cudaErrorInvalidValue);
    *runtimeVersion = CUDART_VERSION;
    return cudaSuccess;
}

/* cudaDriverGetVersion: a CUDA 13.0 driver. */
WS_RT_EXPORT cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    WS_RT_API();
    if (!driverVersion) return ws_rt_set_error(cudaErrorInvalidValue);
    *driverVersion = CUDART_VERSION;
    return cudaSuccess;
}

/* cudaDeviceSetCacheConfig: remembered only. */
WS_RT_EXPORT cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig)
{
    WS_RT_API();
    if ((unsigned)cacheConfig > cudaFuncCachePreferEqual) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_g.cache_config = cacheConfig;
    return cudaSuccess;
}

/* cudaDeviceGetCacheConfig: the remembered preference. */
WS_RT_EXPORT cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig)
{
    WS_RT_API();
    if (!pCacheConfig) return ws_rt_set_error(cudaErrorInvalidValue);
    *pCacheConfig = ws_rt_g.cache_config;
    return cudaSuccess;
}

/* cudaDeviceSetSharedMemConfig: deprecated; remembered only. */
WS_RT_EXPORT cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
    WS_RT_API();
    if ((unsigned)config > cudaSharedMemBankSizeEightByte) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_g.smem_config = config;
    return cudaSuccess;
}

/* cudaDeviceGetSharedMemConfig: the remembered bank size. */
WS_RT_EXPORT cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *pConfig)
{
    WS_RT_API();
    if (!pConfig) return ws_rt_set_error(cudaErrorInvalidValue);
    *pConfig = ws_rt_g.smem_config;
    return cudaSuccess;
}

/* cudaDeviceGetLimit: stack, printf FIFO, malloc heap and L2 limits. */
WS_RT_EXPORT cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit)
{
    WS_RT_API();
    if (!pValue) return ws_rt_set_error(cudaErrorInvalidValue);
    switch (limit) {
    case cudaLimitStackSize: *pValue = ws_rt_g.limit_stack; break;
    case cudaLimitPrintfFifoSize: *pValue = ws_rt_g.limit_printf_fifo; break;
    case cudaLimitMallocHeapSize: *pValue = ws_rt_g.limit_malloc_heap; break;
    case cudaLimitDevRuntimeSyncDepth: *pValue = ws_rt_g.limit_sync_depth; break;
    case cudaLimitDevRuntimePendingLaunchCount: *pValue = ws_rt_g.limit_pending_launches; break;
    case cudaLimitMaxL2FetchGranularity: *pValue = 32; break;
    case cudaLimitPersistingL2CacheSize: *pValue = ws_rt_g.limit_l2_persisting; break;
    default: return ws_rt_set_error(cudaErrorUnsupportedLimit);
    }
    return cudaSuccess;
}

/* cudaDeviceSetLimit: remembered (the simulator has no fixed-size stacks or FIFOs). */
WS_RT_EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    WS_RT_API();
    switch (limit) {
    case cudaLimitStackSize: ws_rt_g.limit_stack = value; break;
    case cudaLimitPrintfFifoSize: ws_rt_g.limit_printf_fifo = value; break;
    case cudaLimitMallocHeapSize: ws_rt_g.limit_malloc_heap = value; break;
    case cudaLimitDevRuntimeSyncDepth:
    case cudaLimitDevRuntimePendingLaunchCount: {
        /* the sync depth is kept for cudaDeviceGetLimit only: CDP2 has no device-side synchronisation, and grids
         * nest up to CUDA's 24 levels; pending launches beyond the limit fail (cudaErrorLaunchPendingCountExceeded) */
        if (limit == cudaLimitDevRuntimeSyncDepth) ws_rt_g.limit_sync_depth = value;
        else ws_rt_g.limit_pending_launches = value ? value : 1;
        cudaError_t e = cudaSuccess;
        ws_rt_lock();
        ws_gpu *g = ws_rt_gpu(&e);
        if (g) ws_gpu_set_cdp_limits(g, ws_rt_g.limit_pending_launches, 0);
        ws_rt_unlock();
        if (e) return ws_rt_set_error(e);
        break;
    }
    case cudaLimitMaxL2FetchGranularity: break;
    case cudaLimitPersistingL2CacheSize: ws_rt_g.limit_l2_persisting = value; break;
    default: return ws_rt_set_error(cudaErrorUnsupportedLimit);
    }
    return cudaSuccess;
}

/* cudaDeviceGetStreamPriorityRange: priorities 0 (least) to -5 (greatest). */
WS_RT_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    WS_RT_API();
    if (leastPriority) *leastPriority = 0;
    if (greatestPriority) *greatestPriority = -5;
    return cudaSuccess;
}

/* cudaDeviceCanAccessPeer: every two distinct devices reach each other over the peer link; a device is not its
 * own peer. */
WS_RT_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
    WS_RT_API();
    if (!canAccessPeer) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    cudaError_t e = check_device(device);
    if (!e) e = check_device(peerDevice);
    if (!e) *canAccessPeer = device != peerDevice;
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaDeviceEnablePeerAccess: the current device's kernels may access peerDevice's memory from now on. */
WS_RT_EXPORT cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = ws_rt_check(0);
    if (!e && flags) e = cudaErrorInvalidValue;
    if (!e) e = check_device(peerDevice);
    if (!e && peerDevice == ws_hs_current()) e = cudaErrorInvalidDevice;
    if (!e && ws_hs_peer_enabled(peerDevice)) e = cudaErrorPeerAccessAlreadyEnabled;
    if (!e) ws_rt_gpu(&e);   /* both contexts exist, as on hardware */
    if (!e) {
        int err = 0;
        if (!ws_hs_gpu_at(peerDevice, &err)) e = (cudaError_t)err;
    }
    if (!e) ws_hs_peer_set(peerDevice, 1);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaDeviceDisablePeerAccess: the current device's kernels lose access to peerDevice's memory. */
WS_RT_EXPORT cudaError_t cudaDeviceDisablePeerAccess(int peerDevice)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = ws_rt_check(0);
    if (!e) e = check_device(peerDevice);
    if (!e && peerDevice == ws_hs_current()) e = cudaErrorInvalidDevice;
    if (!e && !ws_hs_peer_enabled(peerDevice)) e = cudaErrorPeerAccessNotEnabled;
    if (!e) ws_hs_peer_set(peerDevice, 0);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaDeviceGetPCIBusId: a made-up bus id of the simulated device. */
WS_RT_EXPORT cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    WS_RT_API();
    if (!pciBusId || len <= 0) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    cudaError_t e = check_device(device);
    ws_rt_unlock();
    if (e) return ws_rt_set_error(e);
    snprintf(pciBusId, (size_t)len, "0000:%02X:00.0", 0x1b + device);
    return cudaSuccess;
}

/* cudaProfilerStart: nothing to start. */
WS_RT_EXPORT cudaError_t cudaProfilerStart(void)
{
    WS_RT_API();
    return cudaSuccess;
}

/* cudaProfilerStop: nothing to stop. */
WS_RT_EXPORT cudaError_t cudaProfilerStop(void)
{
    WS_RT_API();
    return cudaSuccess;
}
