/* drv_memory.c - device, pinned and managed memory, copies and fills (with their stream forms), address
 * ranges and pointer attributes, all through the runtime: a CUdeviceptr is the runtime's device pointer. */
#include "drv_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A device pointer as the runtime's pointer. */
static void *dp(CUdeviceptr p) { return (void *)(uintptr_t)p; }

/* cuMemAlloc_v2: device memory (zero bytes is an invalid value for the driver). */
WS_DRV_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    WS_DRV_ENTER_CTX();
    if (!dptr || bytesize == 0) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, bytesize);
    *dptr = (CUdeviceptr)(uintptr_t)p;
    WS_DRV_RT(e);
}

/* cuMemFree_v2: free device or managed memory. */
WS_DRV_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaFree(dp(dptr)));
}

/* cuMemAllocHost_v2: page-locked host memory. */
WS_DRV_EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
    WS_DRV_ENTER_CTX();
    if (!pp || bytesize == 0) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RT(cudaMallocHost(pp, bytesize));
}

/* cuMemHostAlloc: page-locked host memory with flags (CU_MEMHOSTALLOC_* equal cudaHostAlloc*). */
WS_DRV_EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    WS_DRV_ENTER_CTX();
    if (!pp || bytesize == 0) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RT(cudaHostAlloc(pp, bytesize, Flags));
}

/* cuMemFreeHost: free page-locked host memory. */
WS_DRV_EXPORT CUresult cuMemFreeHost(void *p)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaFreeHost(p));
}

/* cuMemHostGetDevicePointer_v2: the device address of mapped host memory. */
WS_DRV_EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    WS_DRV_ENTER_CTX();
    if (!pdptr || Flags != 0) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    void *d = NULL;
    cudaError_t e = cudaHostGetDevicePointer(&d, p, 0);
    *pdptr = (CUdeviceptr)(uintptr_t)d;
    WS_DRV_RT(e);
}

/* cuMemHostGetFlags: the flags page-locked memory was allocated with. */
WS_DRV_EXPORT CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaHostGetFlags(pFlags, p));
}

/* cuMemHostRegister_v2: page-lock existing host memory. */
WS_DRV_EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags)
{
    WS_DRV_ENTER_CTX();
    cudaError_t e = cudaHostRegister(p, bytesize, Flags);
    WS_DRV_RET(e == cudaErrorHostMemoryAlreadyRegistered ? CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED
                                                         : ws_drv_from_rt(e));
}

/* cuMemHostUnregister: undo cuMemHostRegister. */
WS_DRV_EXPORT CUresult cuMemHostUnregister(void *p)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaHostUnregister(p));
}

/* cuMemAllocManaged: memory shared by host and device. */
WS_DRV_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    WS_DRV_ENTER_CTX();
    if (!dptr || bytesize == 0) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    void *p = NULL;
    cudaError_t e = cudaMallocManaged(&p, bytesize, flags);
    *dptr = (CUdeviceptr)(uintptr_t)p;
    WS_DRV_RT(e);
}

/* cuMemAllocPitch_v2: 2D device memory with rows padded to the runtime's pitch. */
WS_DRV_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                                          unsigned int ElementSizeBytes)
{
    WS_DRV_ENTER_CTX();
    if (!dptr || !pPitch || (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16))
        WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    void *p = NULL;
    cudaError_t e = cudaMallocPitch(&p, pPitch, WidthInBytes, Height);
    *dptr = (CUdeviceptr)(uintptr_t)p;
    WS_DRV_RT(e);
}

/* cuMemGetInfo_v2: free and total device memory. */
WS_DRV_EXPORT CUresult cuMemGetInfo_v2(size_t *free, size_t *total)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaMemGetInfo(free, total));
}

/* cuMemGetAddressRange_v2: the allocation holding dptr. */
WS_DRV_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    WS_DRV_ENTER_CTX();
    unsigned long long base = 0;
    size_t size = 0;
    if (!ws_rtx_mem_range(dptr, &base, &size)) WS_DRV_RET(CUDA_ERROR_NOT_FOUND);
    if (pbase) *pbase = (CUdeviceptr)base;
    if (psize) *psize = size;
    return CUDA_SUCCESS;
}

/* ---- copies ---- */

/* A copy of kind on stream s (sync: the synchronous call). */
static CUresult copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, CUstream s, int sync)
{
    if (n == 0) return CUDA_SUCCESS;
    return ws_drv_from_rt(sync ? cudaMemcpy(dst, src, n, kind) : cudaMemcpyAsync(dst, src, n, kind, (cudaStream_t)s));
}

/* cuMemcpy: a copy between any two addresses (unified addressing). */
WS_DRV_EXPORT CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy(dp(dst), dp(src), ByteCount, cudaMemcpyDefault, NULL, 1));
}

/* cuMemcpyAsync: the same on a stream. */
WS_DRV_EXPORT CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy(dp(dst), dp(src), ByteCount, cudaMemcpyDefault, hStream, 0));
}

/* cuMemcpyHtoD_v2: host to device. */
WS_DRV_EXPORT CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy(dp(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, NULL, 1));
}

/* cuMemcpyDtoH_v2: device to host. */
WS_DRV_EXPORT CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy(dstHost, dp(srcDevice), ByteCount, cudaMemcpyDeviceToHost, NULL, 1));
}

/* cuMemcpyDtoD_v2: device to device. */
WS_DRV_EXPORT CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy(dp(dstDevice), dp(srcDevice), ByteCount, cudaMemcpyDeviceToDevice, NULL, 1));
}

/* cuMemcpyHtoDAsync_v2: host to device on a stream. */
WS_DRV_EXPORT CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                                            CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy(dp(dstDevice), srcHost, ByteCount, cudaMemcpyHostToDevice, hStream, 0));
}

/* cuMemcpyDtoHAsync_v2: device to host on a stream. */
WS_DRV_EXPORT CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy(dstHost, dp(srcDevice), ByteCount, cudaMemcpyDeviceToHost, hStream, 0));
}

/* cuMemcpyDtoDAsync_v2: device to device on a stream. */
WS_DRV_EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                            CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy(dp(dstDevice), dp(srcDevice), ByteCount, cudaMemcpyDeviceToDevice, hStream, 0));
}

/* cuMemcpyPeer: a copy between two contexts' memories (the runtime's cudaMemcpyPeer). */
WS_DRV_EXPORT CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                    CUcontext srcContext, size_t ByteCount)
{
    WS_DRV_ENTER_CTX();
    if (!ws_drv_ctx_valid((ws_drv_ctx *)dstContext) || !ws_drv_ctx_valid((ws_drv_ctx *)srcContext))
        WS_DRV_RET(CUDA_ERROR_INVALID_CONTEXT);
    WS_DRV_RT(cudaMemcpyPeer(dp(dstDevice), ((ws_drv_ctx *)dstContext)->device, dp(srcDevice),
                             ((ws_drv_ctx *)srcContext)->device, ByteCount));
}

/* One side of a 2D copy: its address (with the X/Y offsets applied); 0, or -1 for arrays. */
static int side_ptr(CUmemorytype t, const void *host, CUdeviceptr dev, size_t x, size_t y, size_t pitch, void **out)
{
    const char *base;
    if (t == CU_MEMORYTYPE_HOST) base = host;
    else if (t == CU_MEMORYTYPE_DEVICE || t == CU_MEMORYTYPE_UNIFIED) base = dp(dev);
    else return -1;
    *out = (void *)(base + y * pitch + x);
    return 0;
}

/* A 2D copy described by CUDA_MEMCPY2D. */
static CUresult copy2d(const CUDA_MEMCPY2D *c, CUstream s, int sync)
{
    if (!c) return CUDA_ERROR_INVALID_VALUE;
    void *src = NULL, *dst = NULL;
    if (side_ptr(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY, c->srcPitch, &src) ||
        side_ptr(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY, c->dstPitch, &dst))
        return ws_drv_missing("cuMemcpy2D with CUDA arrays");
    size_t sp = c->srcPitch ? c->srcPitch : c->WidthInBytes, dpitch = c->dstPitch ? c->dstPitch : c->WidthInBytes;
    cudaError_t e = sync ? cudaMemcpy2D(dst, dpitch, src, sp, c->WidthInBytes, c->Height, cudaMemcpyDefault)
                         : cudaMemcpy2DAsync(dst, dpitch, src, sp, c->WidthInBytes, c->Height, cudaMemcpyDefault,
                                             (cudaStream_t)s);
    return ws_drv_from_rt(e);
}

/* cuMemcpy2D_v2: a 2D copy between host and device memory. */
WS_DRV_EXPORT CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy2d(pCopy, NULL, 1));
}

/* cuMemcpy2DUnaligned_v2: the same without pitch alignment rules. */
WS_DRV_EXPORT CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy2d(pCopy, NULL, 1));
}

/* cuMemcpy2DAsync_v2: a 2D copy on a stream. */
WS_DRV_EXPORT CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(copy2d(pCopy, hStream, 0));
}

/* ---- fills ---- */

/* Fill n elements of elem bytes (1, 2 or 4) with value, rows of width elements height times at pitch bytes. A
 * value whose bytes are all equal is the runtime's byte fill; another pattern is copied from the host (not
 * possible while the stream captures a graph). */
static CUresult fill(CUdeviceptr dst, size_t pitch, unsigned value, unsigned elem, size_t width, size_t height,
                     CUstream s, int sync)
{
    if (width == 0 || height == 0) return CUDA_SUCCESS;
    unsigned char b[4];
    for (unsigned i = 0; i < 4; i++) b[i] = (unsigned char)(value >> (8 * (i % elem)));
    int uniform = 1;
    for (unsigned i = 1; i < elem; i++) uniform &= b[i] == b[0];
    size_t row = width * elem;
    if (!pitch) pitch = row;
    if (uniform) {
        cudaError_t e = height == 1 ? (sync ? cudaMemset(dp(dst), b[0], row)
                                            : cudaMemsetAsync(dp(dst), b[0], row, (cudaStream_t)s))
                                    : (sync ? cudaMemset2D(dp(dst), pitch, b[0], row, height)
                                            : cudaMemset2DAsync(dp(dst), pitch, b[0], row, height, (cudaStream_t)s));
        return ws_drv_from_rt(e);
    }
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    if (!sync && cudaStreamIsCapturing((cudaStream_t)s, &cs) == cudaSuccess && cs != cudaStreamCaptureStatusNone)
        return ws_drv_missing("cuMemsetD16/D32 of a multi-byte pattern while capturing a graph");
    if (height > SIZE_MAX / row) return CUDA_ERROR_INVALID_VALUE;
    unsigned char *buf = malloc(row * height);
    if (!buf) return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < row * height; i++) buf[i] = b[i % elem];
    cudaError_t e = sync ? cudaMemcpy2D(dp(dst), pitch, buf, row, row, height, cudaMemcpyHostToDevice)
                         : cudaMemcpy2DAsync(dp(dst), pitch, buf, row, row, height, cudaMemcpyHostToDevice,
                                             (cudaStream_t)s);
    free(buf);   /* the runtime has done the copy at enqueue time */
    return ws_drv_from_rt(e);
}

/* The fill functions: D8/D16/D32, 1D and 2D, synchronous and on a stream. */
WS_DRV_EXPORT CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(fill(dstDevice, 0, uc, 1, N, 1, NULL, 1));
}

/* cuMemsetD16_v2: 16-bit values. */
WS_DRV_EXPORT CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    WS_DRV_ENTER_CTX();
    if (dstDevice & 1) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RET(fill(dstDevice, 0, us, 2, N, 1, NULL, 1));
}

/* cuMemsetD32_v2: 32-bit values. */
WS_DRV_EXPORT CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    WS_DRV_ENTER_CTX();
    if (dstDevice & 3) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RET(fill(dstDevice, 0, ui, 4, N, 1, NULL, 1));
}

/* cuMemsetD8Async: on a stream. */
WS_DRV_EXPORT CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(fill(dstDevice, 0, uc, 1, N, 1, hStream, 0));
}

/* cuMemsetD16Async: on a stream. */
WS_DRV_EXPORT CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    if (dstDevice & 1) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RET(fill(dstDevice, 0, us, 2, N, 1, hStream, 0));
}

/* cuMemsetD32Async: on a stream. */
WS_DRV_EXPORT CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    if (dstDevice & 3) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RET(fill(dstDevice, 0, ui, 4, N, 1, hStream, 0));
}

/* cuMemsetD2D8_v2: a 2D fill of bytes. */
WS_DRV_EXPORT CUresult cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                       size_t Height)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(fill(dstDevice, dstPitch, uc, 1, Width, Height, NULL, 1));
}

/* cuMemsetD2D16_v2: a 2D fill of 16-bit values. */
WS_DRV_EXPORT CUresult cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                        size_t Height)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(fill(dstDevice, dstPitch, us, 2, Width, Height, NULL, 1));
}

/* cuMemsetD2D32_v2: a 2D fill of 32-bit values. */
WS_DRV_EXPORT CUresult cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                        size_t Height)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(fill(dstDevice, dstPitch, ui, 4, Width, Height, NULL, 1));
}

/* cuMemsetD2D8Async: on a stream. */
WS_DRV_EXPORT CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width,
                                         size_t Height, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(fill(dstDevice, dstPitch, uc, 1, Width, Height, hStream, 0));
}

/* cuMemsetD2D16Async: on a stream. */
WS_DRV_EXPORT CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width,
                                          size_t Height, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(fill(dstDevice, dstPitch, us, 2, Width, Height, hStream, 0));
}

/* cuMemsetD2D32Async: on a stream. */
WS_DRV_EXPORT CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width,
                                          size_t Height, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(fill(dstDevice, dstPitch, ui, 4, Width, Height, hStream, 0));
}

/* the per-thread default stream forms */
WS_DRV_PT_ALIAS(cuMemcpy, cuMemcpy_ptds);
WS_DRV_PT_ALIAS(cuMemcpyAsync, cuMemcpyAsync_ptsz);
WS_DRV_PT_ALIAS(cuMemcpyHtoD_v2, cuMemcpyHtoD_v2_ptds);
WS_DRV_PT_ALIAS(cuMemcpyDtoH_v2, cuMemcpyDtoH_v2_ptds);
WS_DRV_PT_ALIAS(cuMemcpyDtoD_v2, cuMemcpyDtoD_v2_ptds);
WS_DRV_PT_ALIAS(cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync_v2_ptsz);
WS_DRV_PT_ALIAS(cuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync_v2_ptsz);
WS_DRV_PT_ALIAS(cuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync_v2_ptsz);
WS_DRV_PT_ALIAS(cuMemcpyPeer, cuMemcpyPeer_ptds);
WS_DRV_PT_ALIAS(cuMemcpy2D_v2, cuMemcpy2D_v2_ptds);
WS_DRV_PT_ALIAS(cuMemcpy2DUnaligned_v2, cuMemcpy2DUnaligned_v2_ptds);
WS_DRV_PT_ALIAS(cuMemcpy2DAsync_v2, cuMemcpy2DAsync_v2_ptsz);
WS_DRV_PT_ALIAS(cuMemsetD8_v2, cuMemsetD8_v2_ptds);
WS_DRV_PT_ALIAS(cuMemsetD16_v2, cuMemsetD16_v2_ptds);
WS_DRV_PT_ALIAS(cuMemsetD32_v2, cuMemsetD32_v2_ptds);
WS_DRV_PT_ALIAS(cuMemsetD8Async, cuMemsetD8Async_ptsz);
WS_DRV_PT_ALIAS(cuMemsetD16Async, cuMemsetD16Async_ptsz);
WS_DRV_PT_ALIAS(cuMemsetD32Async, cuMemsetD32Async_ptsz);
WS_DRV_PT_ALIAS(cuMemsetD2D8_v2, cuMemsetD2D8_v2_ptds);
WS_DRV_PT_ALIAS(cuMemsetD2D16_v2, cuMemsetD2D16_v2_ptds);
WS_DRV_PT_ALIAS(cuMemsetD2D32_v2, cuMemsetD2D32_v2_ptds);
WS_DRV_PT_ALIAS(cuMemsetD2D8Async, cuMemsetD2D8Async_ptsz);
WS_DRV_PT_ALIAS(cuMemsetD2D16Async, cuMemsetD2D16Async_ptsz);
WS_DRV_PT_ALIAS(cuMemsetD2D32Async, cuMemsetD2D32Async_ptsz);
