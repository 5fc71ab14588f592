/* drv_pointer.c - pointer attributes (cuPointerGetAttribute/s), from the runtime's cudaPointerGetAttributes and
 * the device's allocation ranges. */
#include "drv_internal.h"

#include <stdint.h>
#include <string.h>

/* Store one attribute of ptr into data; CUDA_ERROR_INVALID_VALUE for memory CUDA does not know (strict) or an
 * attribute that does not apply. */
static CUresult attribute(void *data, CUpointer_attribute attr, CUdeviceptr ptr, int strict)
{
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    cudaError_t e = cudaPointerGetAttributes(&a, (const void *)(uintptr_t)ptr);
    if (e) return ws_drv_from_rt(e);
    int known = a.type != cudaMemoryTypeUnregistered;
    if (!known && strict) return CUDA_ERROR_INVALID_VALUE;
    unsigned long long base = ptr;
    size_t size = 0;
    if (known) ws_rtx_mem_range(ptr, &base, &size);
    switch (attr) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        *(CUcontext *)data = known ? (CUcontext)ws_drv_primary_of(a.device) : NULL;
        break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)data = !known ? 0 : a.type == cudaMemoryTypeHost ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        if (known && !a.devicePointer) return CUDA_ERROR_INVALID_VALUE;
        *(CUdeviceptr *)data = (CUdeviceptr)(uintptr_t)a.devicePointer;
        break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (known && !a.hostPointer) return CUDA_ERROR_INVALID_VALUE;
        *(void **)data = known ? a.hostPointer : NULL;
        break;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
    case CU_POINTER_ATTRIBUTE_MAPPED:
        *(int *)data = known;
        break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        *(unsigned long long *)data = known ? base : 0;
        break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        *(int *)data = a.type == cudaMemoryTypeManaged;
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = known ? a.device : -2;
        break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        *(CUdeviceptr *)data = known ? (CUdeviceptr)base : 0;
        break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        *(size_t *)data = size;
        break;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
        *(int *)data = 0;
        break;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
        *(int *)data = known ? CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE : CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE;
        break;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        *(void **)data = NULL;
        break;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* cuPointerGetAttribute: one attribute of a pointer. */
WS_DRV_EXPORT CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute_, CUdeviceptr ptr)
{
    WS_DRV_ENTER_CTX();
    if (!data) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RET(attribute(data, attribute_, ptr, 1));
}

/* cuPointerGetAttributes: several at once; memory CUDA does not know gives empty answers, not an error. */
WS_DRV_EXPORT CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes,
                                              void **data, CUdeviceptr ptr)
{
    WS_DRV_ENTER_CTX();
    if (!attributes || !data) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    for (unsigned i = 0; i < numAttributes; i++) {
        if (!data[i]) continue;
        CUresult r = attribute(data[i], attributes[i], ptr, 0);
        if (r) WS_DRV_RET(r);
    }
    return CUDA_SUCCESS;
}

/* cuPointerSetAttribute: synchronous memory operations are always on; other attributes cannot be set. */
WS_DRV_EXPORT CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attribute_, CUdeviceptr ptr)
{
    WS_DRV_ENTER_CTX();
    if (!value || attribute_ != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    unsigned long long base = 0;
    WS_DRV_RET(ws_rtx_mem_range(ptr, &base, NULL) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE);
}
