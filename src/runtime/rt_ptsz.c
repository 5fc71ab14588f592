/* rt_ptsz.c - per-thread default stream entry points (_ptsz / _ptds) that programs built with
 * nvcc --default-stream per-thread call. The simulator runs every operation at enqueue time, so the
 * per-thread default stream behaves as the legacy one and each variant forwards to its plain function.
 * (Variants of the most common calls sit next to their plain functions.) */
#include "rt_internal.h"

#define PT_PROTO(name, ret, params) ret name params;

PT_PROTO(cudaGraphUpload_ptsz, cudaError_t, (cudaGraphExec_t graphExec, cudaStream_t stream))
/* cudaGraphUpload_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    WS_RT_API();
    return cudaGraphUpload(graphExec, stream);
}

PT_PROTO(cudaLaunchCooperativeKernel_ptsz, cudaError_t,
         (const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem, cudaStream_t stream))
/* cudaLaunchCooperativeKernel_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                                          size_t sharedMem, cudaStream_t stream)
{
    WS_RT_API();
    return cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

PT_PROTO(cudaMemcpy2D_ptds, cudaError_t, (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                          size_t height, enum cudaMemcpyKind kind))
/* cudaMemcpy2D_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                           size_t height, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

PT_PROTO(cudaMemcpy2DAsync_ptsz, cudaError_t, (void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                               size_t height, enum cudaMemcpyKind kind, cudaStream_t stream))
/* cudaMemcpy2DAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                                size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream);
}

PT_PROTO(cudaMemcpy2DFromArray_ptds, cudaError_t, (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                   size_t hOffset, size_t width, size_t height,
                                                   enum cudaMemcpyKind kind))
/* cudaMemcpy2DFromArray_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                    size_t hOffset, size_t width, size_t height,
                                                    enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

PT_PROTO(cudaMemcpy2DToArray_ptds, cudaError_t, (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                 size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind))
/* cudaMemcpy2DToArray_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                  size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

PT_PROTO(cudaMemcpy3D_ptds, cudaError_t, (const struct cudaMemcpy3DParms *p))
/* cudaMemcpy3D_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
    WS_RT_API();
    return cudaMemcpy3D(p);
}

PT_PROTO(cudaMemcpy3DAsync_ptsz, cudaError_t, (const struct cudaMemcpy3DParms *p, cudaStream_t stream))
/* cudaMemcpy3DAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    WS_RT_API();
    return cudaMemcpy3DAsync(p, stream);
}

PT_PROTO(cudaMemset2D_ptds, cudaError_t, (void *devPtr, size_t pitch, int value, size_t width, size_t height))
/* cudaMemset2D_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    WS_RT_API();
    return cudaMemset2D(devPtr, pitch, value, width, height);
}

PT_PROTO(cudaMemset2DAsync_ptsz, cudaError_t, (void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                               cudaStream_t stream))
/* cudaMemset2DAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                                cudaStream_t stream)
{
    WS_RT_API();
    return cudaMemset2DAsync(devPtr, pitch, value, width, height, stream);
}

PT_PROTO(cudaMemset3D_ptds, cudaError_t, (struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent))
/* cudaMemset3D_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    WS_RT_API();
    return cudaMemset3D(pitchedDevPtr, value, extent);
}

PT_PROTO(cudaMemset3DAsync_ptsz, cudaError_t, (struct cudaPitchedPtr pitchedDevPtr, int value,
                                               struct cudaExtent extent, cudaStream_t stream))
/* cudaMemset3DAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                                struct cudaExtent extent, cudaStream_t stream)
{
    WS_RT_API();
    return cudaMemset3DAsync(pitchedDevPtr, value, extent, stream);
}

PT_PROTO(cudaStreamAttachMemAsync_ptsz, cudaError_t, (cudaStream_t stream, void *devPtr, size_t length,
                                                      unsigned int flags))
/* cudaStreamAttachMemAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr, size_t length,
                                                       unsigned int flags)
{
    WS_RT_API();
    return cudaStreamAttachMemAsync(stream, devPtr, length, flags);
}

PT_PROTO(cudaStreamGetAttribute_ptsz, cudaError_t, (cudaStream_t stream, cudaStreamAttrID attr,
                                                    cudaStreamAttrValue *value))
/* cudaStreamGetAttribute_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
                                                     cudaStreamAttrValue *value)
{
    WS_RT_API();
    return cudaStreamGetAttribute(stream, attr, value);
}

PT_PROTO(cudaStreamSetAttribute_ptsz, cudaError_t, (cudaStream_t stream, cudaStreamAttrID attr,
                                                    const cudaStreamAttrValue *param))
/* cudaStreamSetAttribute_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t stream, cudaStreamAttrID attr,
                                                     const cudaStreamAttrValue *param)
{
    WS_RT_API();
    return cudaStreamSetAttribute(stream, attr, param);
}

PT_PROTO(cudaStreamGetDevice_ptsz, cudaError_t, (cudaStream_t hStream, int *device))
/* cudaStreamGetDevice_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device)
{
    WS_RT_API();
    return cudaStreamGetDevice(hStream, device);
}

PT_PROTO(cudaStreamGetFlags_ptsz, cudaError_t, (cudaStream_t hStream, unsigned int *flags))
/* cudaStreamGetFlags_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags)
{
    WS_RT_API();
    return cudaStreamGetFlags(hStream, flags);
}

PT_PROTO(cudaStreamGetId_ptsz, cudaError_t, (cudaStream_t hStream, unsigned long long *streamId))
/* cudaStreamGetId_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId)
{
    WS_RT_API();
    return cudaStreamGetId(hStream, streamId);
}

PT_PROTO(cudaStreamGetPriority_ptsz, cudaError_t, (cudaStream_t hStream, int *priority))
/* cudaStreamGetPriority_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
    WS_RT_API();
    return cudaStreamGetPriority(hStream, priority);
}

PT_PROTO(cudaMallocFromPoolAsync_ptsz, cudaError_t, (void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream))
/* cudaMallocFromPoolAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    WS_RT_API();
    return cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}

PT_PROTO(cudaMemcpy2DArrayToArray_ptds, cudaError_t,
         (cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src, size_t wOffsetSrc,
          size_t hOffsetSrc, size_t width, size_t height, enum cudaMemcpyKind kind))
/* cudaMemcpy2DArrayToArray_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                       cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                       size_t width, size_t height, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind);
}

PT_PROTO(cudaMemcpy2DFromArrayAsync_ptsz, cudaError_t,
         (void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height,
          enum cudaMemcpyKind kind, cudaStream_t stream))
/* cudaMemcpy2DFromArrayAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                         size_t hOffset, size_t width, size_t height,
                                                         enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream);
}

PT_PROTO(cudaMemcpy2DToArrayAsync_ptsz, cudaError_t,
         (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch, size_t width, size_t height,
          enum cudaMemcpyKind kind, cudaStream_t stream))
/* cudaMemcpy2DToArrayAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                       size_t spitch, size_t width, size_t height,
                                                       enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind, stream);
}

/* the 1D array copies below are deprecated in CUDA's headers; their variants still forward to them */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

PT_PROTO(cudaMemcpyArrayToArray_ptds, cudaError_t,
         (cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src, size_t wOffsetSrc,
          size_t hOffsetSrc, size_t count, enum cudaMemcpyKind kind))
/* cudaMemcpyArrayToArray_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                     cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                     size_t count, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return cudaMemcpyArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count, kind);
}

PT_PROTO(cudaMemcpyFromArrayAsync_ptsz, cudaError_t,
         (void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, enum cudaMemcpyKind kind,
          cudaStream_t stream))
/* cudaMemcpyFromArrayAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                                       size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    return cudaMemcpyFromArrayAsync(dst, src, wOffset, hOffset, count, kind, stream);
}

PT_PROTO(cudaMemcpyFromArray_ptds, cudaError_t,
         (void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, enum cudaMemcpyKind kind))
/* cudaMemcpyFromArray_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                                  size_t count, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}

PT_PROTO(cudaMemcpyToArrayAsync_ptsz, cudaError_t,
         (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, enum cudaMemcpyKind kind,
          cudaStream_t stream))
/* cudaMemcpyToArrayAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                     size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    return cudaMemcpyToArrayAsync(dst, wOffset, hOffset, src, count, kind, stream);
}

PT_PROTO(cudaMemcpyToArray_ptds, cudaError_t,
         (cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count, enum cudaMemcpyKind kind))
/* cudaMemcpyToArray_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                size_t count, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}

#pragma GCC diagnostic pop
