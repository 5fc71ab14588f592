/* drv_extra.c - the less common driver calls served by the runtime: stream-ordered allocation and memory pools,
 * managed-memory hints, 3D copies (as one 2D copy per slice), capture queries and exchange of the capture mode,
 * contexts named explicitly (cuCtxGetDevice_v2, cuCtxSynchronize_v2), shared-memory and L2 settings, peers. */
#include "drv_internal.h"

#include <stdint.h>
#include <string.h>

/* A device pointer as the runtime's pointer. */
static void *dp(CUdeviceptr p) { return (void *)(uintptr_t)p; }

/* cuMemAllocAsync: stream-ordered allocation from the default pool. */
WS_DRV_EXPORT CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    if (!dptr) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    void *p = NULL;
    cudaError_t e = cudaMallocAsync(&p, bytesize, (cudaStream_t)hStream);
    *dptr = (CUdeviceptr)(uintptr_t)p;
    WS_DRV_RT(e);
}

/* cuMemFreeAsync: stream-ordered free. */
WS_DRV_EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaFreeAsync(dp(dptr), (cudaStream_t)hStream));
}

/* cuMemAllocFromPoolAsync: stream-ordered allocation from a pool. */
WS_DRV_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    if (!dptr) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    void *p = NULL;
    cudaError_t e = cudaMallocFromPoolAsync(&p, bytesize, (cudaMemPool_t)pool, (cudaStream_t)hStream);
    *dptr = (CUdeviceptr)(uintptr_t)p;
    WS_DRV_RT(e);
}

/* cuDeviceGetDefaultMemPool: the device's default pool (the runtime's). */
WS_DRV_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
    WS_DRV_ENTER();
    if (dev != 0) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    WS_DRV_RT(cudaDeviceGetDefaultMemPool((cudaMemPool_t *)pool_out, 0));
}

/* cuDeviceGetMemPool: the device's current pool. */
WS_DRV_EXPORT CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
    WS_DRV_ENTER();
    if (dev != 0) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    WS_DRV_RT(cudaDeviceGetMemPool((cudaMemPool_t *)pool, 0));
}

/* cuMemPoolSetAttribute: CUmemPool_attribute and cudaMemPoolAttr share their values. */
WS_DRV_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    WS_DRV_ENTER();
    WS_DRV_RT(cudaMemPoolSetAttribute((cudaMemPool_t)pool, (enum cudaMemPoolAttr)attr, value));
}

/* cuMemPoolGetAttribute: as the runtime answers. */
WS_DRV_EXPORT CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    WS_DRV_ENTER();
    WS_DRV_RT(cudaMemPoolGetAttribute((cudaMemPool_t)pool, (enum cudaMemPoolAttr)attr, value));
}

/* cuMemPoolTrimTo: release unused pool memory. */
WS_DRV_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
    WS_DRV_ENTER();
    WS_DRV_RT(cudaMemPoolTrimTo((cudaMemPool_t)pool, minBytesToKeep));
}

/* The runtime's location for a driver one (the structs and the type values agree). */
static struct cudaMemLocation location(CUmemLocation l)
{
    struct cudaMemLocation r;
    r.type = (enum cudaMemLocationType)l.type;
    r.id = l.id;
    return r;
}

/* cuMemPrefetchAsync_v2: a managed-memory prefetch hint (to a location). */
WS_DRV_EXPORT CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation loc, unsigned int flags,
                                             CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaMemPrefetchAsync(dp(devPtr), count, location(loc), flags, (cudaStream_t)hStream));
}

/* cuMemPrefetchAsync: the CUDA 8 form (to a device, CU_DEVICE_CPU for the host). */
WS_DRV_EXPORT CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)
{
    CUmemLocation l = { dstDevice == CU_DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE,
                        dstDevice == CU_DEVICE_CPU ? 0 : dstDevice };
    return cuMemPrefetchAsync_v2(devPtr, count, l, 0, hStream);
}

/* cuMemAdvise_v2: a managed-memory usage hint (for a location). */
WS_DRV_EXPORT CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation loc)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaMemAdvise(dp(devPtr), count, (enum cudaMemoryAdvise)advice, location(loc)));
}

/* cuMemAdvise: the CUDA 8 form (for a device). */
WS_DRV_EXPORT CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device)
{
    CUmemLocation l = { device == CU_DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE,
                        device == CU_DEVICE_CPU ? 0 : device };
    return cuMemAdvise_v2(devPtr, count, advice, l);
}

/* cuStreamAttachMemAsync: attach managed memory to a stream. */
WS_DRV_EXPORT CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaStreamAttachMemAsync((cudaStream_t)hStream, dp(dptr), length, flags));
}

/* The address of one side of a 3D copy at slice z; -1 for arrays. */
static int slice_ptr(CUmemorytype t, const void *host, CUdeviceptr dev, size_t x, size_t y, size_t z, size_t pitch,
                     size_t height, char **out)
{
    const char *base;
    if (t == CU_MEMORYTYPE_HOST) base = host;
    else if (t == CU_MEMORYTYPE_DEVICE || t == CU_MEMORYTYPE_UNIFIED) base = dp(dev);
    else return -1;
    *out = (char *)base + (z * height + y) * pitch + x;
    return 0;
}

/* A 3D copy as Depth 2D copies, synchronous or on a stream. */
static CUresult copy3d(const CUDA_MEMCPY3D *c, CUstream s, int sync)
{
    if (!c || c->reserved0 || c->reserved1) return CUDA_ERROR_INVALID_VALUE;
    size_t sp = c->srcPitch ? c->srcPitch : c->WidthInBytes, dpt = c->dstPitch ? c->dstPitch : c->WidthInBytes;
    size_t sh = c->srcHeight ? c->srcHeight : c->Height, dh = c->dstHeight ? c->dstHeight : c->Height;
    for (size_t z = 0; z < (c->Depth ? c->Depth : 1); z++) {
        char *src, *dst;
        if (slice_ptr(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY, c->srcZ + z, sp, sh, &src) ||
            slice_ptr(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY, c->dstZ + z, dpt, dh, &dst))
            return ws_drv_missing("cuMemcpy3D with CUDA arrays");
        cudaError_t e = sync ? cudaMemcpy2D(dst, dpt, src, sp, c->WidthInBytes, c->Height, cudaMemcpyDefault)
                             : cudaMemcpy2DAsync(dst, dpt, src, sp, c->WidthInBytes, c->Height, cudaMemcpyDefault,
                                                 (cudaStream_t)s);
        if (e) return ws_drv_from_rt(e);
    }
    return CUDA_SUCCESS;
}

/* cuMemcpy3D_v2: a 3D copy between host and device memory. */
WS_DRV_EXPORT CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy3d(pCopy, NULL, 1));
}

/* cuMemcpy3DAsync_v2: the same on a stream. */
WS_DRV_EXPORT CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy3d(pCopy, hStream, 0));
}

/* cuMemcpyPeerAsync: cuMemcpyPeer on a stream (the runtime's cudaMemcpyPeerAsync). */
WS_DRV_EXPORT CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                         CUcontext srcContext, size_t ByteCount, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    if (!ws_drv_ctx_valid((ws_drv_ctx *)dstContext) || !ws_drv_ctx_valid((ws_drv_ctx *)srcContext))
        WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    WS_DRV_RT(cudaMemcpyPeerAsync(dp(dstDevice), ((ws_drv_ctx *)dstContext)->device, dp(srcDevice),
                                  ((ws_drv_ctx *)srcContext)->device, ByteCount, (cudaStream_t)hStream));
}

/* cuStreamGetCaptureInfo_v3: capture status, id, graph and the dependencies (the runtime's answer). */
WS_DRV_EXPORT CUresult cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                 cuuint64_t *id_out, CUgraph *graph_out,
                                                 const CUgraphNode **dependencies_out,
                                                 const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    WS_DRV_ENTER_CTX();
    unsigned long long id = 0;
    cudaError_t e = cudaStreamGetCaptureInfo((cudaStream_t)hStream, (enum cudaStreamCaptureStatus *)captureStatus_out,
                                             &id, (cudaGraph_t *)graph_out, (const cudaGraphNode_t **)dependencies_out,
                                             (const cudaGraphEdgeData **)edgeData_out, numDependencies_out);
    if (id_out) *id_out = id;
    WS_DRV_RT(e);
}

/* cuStreamGetCaptureInfo_v2: without the edge data. */
WS_DRV_EXPORT CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                                 cuuint64_t *id_out, CUgraph *graph_out,
                                                 const CUgraphNode **dependencies_out, size_t *numDependencies_out)
{
    return cuStreamGetCaptureInfo_v3(hStream, captureStatus_out, id_out, graph_out, dependencies_out, NULL,
                                     numDependencies_out);
}

/* cuStreamGetCaptureInfo: the CUDA 11.0 form (status and id). */
WS_DRV_EXPORT CUresult cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus *captureStatus_out,
                                              cuuint64_t *id_out)
{
    return cuStreamGetCaptureInfo_v3(hStream, captureStatus_out, id_out, NULL, NULL, NULL, NULL);
}

/* cuThreadExchangeStreamCaptureMode: the thread's capture mode (the enums agree). */
WS_DRV_EXPORT CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
    WS_DRV_ENTER();
    WS_DRV_RT(cudaThreadExchangeStreamCaptureMode((enum cudaStreamCaptureMode *)mode));
}

/* cuCtxGetDevice_v2: the device of a context (the current one when NULL). */
WS_DRV_EXPORT CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    WS_DRV_ENTER();
    if (!device) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (ctx ? !ws_drv_ctx_valid((ws_drv_ctx *)ctx) : !ws_drv_current()) WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    *device = 0;
    return CUDA_SUCCESS;
}

/* cuCtxSynchronize_v2: wait for a context's work (all contexts share the device: all work). */
WS_DRV_EXPORT CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    WS_DRV_ENTER();
    if (ctx ? !ws_drv_ctx_valid((ws_drv_ctx *)ctx) : !ws_drv_current()) WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    WS_DRV_RT(cudaDeviceSynchronize());
}

/* The shared-memory bank size setting (deprecated: recorded, banks stay 4 bytes wide). */
static CUsharedconfig smem_config = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;

/* cuCtxGetSharedMemConfig: the recorded setting. */
WS_DRV_EXPORT CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig)
{
    WS_DRV_ENTER_CTX();
    if (!pConfig) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    *pConfig = smem_config;
    return CUDA_SUCCESS;
}

/* cuCtxSetSharedMemConfig: recorded. */
WS_DRV_EXPORT CUresult cuCtxSetSharedMemConfig(CUsharedconfig config)
{
    WS_DRV_ENTER_CTX();
    if ((unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    smem_config = config;
    return CUDA_SUCCESS;
}

/* cuCtxResetPersistingL2Cache: nothing persists in the simulated L2 between launches beyond the model's rules. */
WS_DRV_EXPORT CUresult cuCtxResetPersistingL2Cache(void)
{
    WS_DRV_ENTER_CTX();
    return CUDA_SUCCESS;
}


/* the per-thread default stream forms */
WS_DRV_PT_ALIAS(cuMemAllocAsync, cuMemAllocAsync_ptsz);
WS_DRV_PT_ALIAS(cuMemFreeAsync, cuMemFreeAsync_ptsz);
WS_DRV_PT_ALIAS(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync_ptsz);
WS_DRV_PT_ALIAS(cuMemPrefetchAsync, cuMemPrefetchAsync_ptsz);
WS_DRV_PT_ALIAS(cuMemPrefetchAsync_v2, cuMemPrefetchAsync_v2_ptsz);
WS_DRV_PT_ALIAS(cuStreamAttachMemAsync, cuStreamAttachMemAsync_ptsz);
WS_DRV_PT_ALIAS(cuMemcpy3D_v2, cuMemcpy3D_v2_ptds);
WS_DRV_PT_ALIAS(cuMemcpy3DAsync_v2, cuMemcpy3DAsync_v2_ptsz);
WS_DRV_PT_ALIAS(cuMemcpyPeerAsync, cuMemcpyPeerAsync_ptsz);
WS_DRV_PT_ALIAS(cuStreamGetCaptureInfo, cuStreamGetCaptureInfo_ptsz);
WS_DRV_PT_ALIAS(cuStreamGetCaptureInfo_v2, cuStreamGetCaptureInfo_v2_ptsz);
WS_DRV_PT_ALIAS(cuStreamGetCaptureInfo_v3, cuStreamGetCaptureInfo_v3_ptsz);
