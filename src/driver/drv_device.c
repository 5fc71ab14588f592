/* drv_device.c - device queries: the simulated devices, described by the runtime (cudaDeviceAttr and
 * CUdevice_attribute share their values). */
#include "drv_internal.h"

#include <stdio.h>
#include <string.h>

/* The runtime's properties of device dev. */
static CUresult props(CUdevice dev, struct cudaDeviceProp *p)
{
    cudaError_t e = cudaGetDeviceProperties(p, dev);
    return e == cudaErrorInvalidDevice ? CUDA_ERROR_INVALID_DEVICE : ws_drv_from_rt(e);
}

/* cuDeviceGetCount: the simulated devices. */
WS_DRV_EXPORT CUresult cuDeviceGetCount(int *count)
{
    WS_DRV_ENTER();
    if (!count) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RT(cudaGetDeviceCount(count));
}

/* cuDeviceGet: the handle of device ordinal (the ordinal itself). */
WS_DRV_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    WS_DRV_ENTER();
    if (!device) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    int n = 0;
    cudaGetDeviceCount(&n);
    if (ordinal < 0 || ordinal >= n) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    *device = ordinal;
    return CUDA_SUCCESS;
}

/* cuDeviceGetName: the preset's marketing name. */
WS_DRV_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    WS_DRV_ENTER();
    if (!name || len <= 0) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    struct cudaDeviceProp p;
    CUresult r = props(dev, &p);
    if (r) WS_DRV_RET(r);
    snprintf(name, (size_t)len, "%s", p.name);
    return CUDA_SUCCESS;
}

/* cuDeviceTotalMem_v2: global memory in bytes. */
WS_DRV_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    WS_DRV_ENTER();
    if (!bytes) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    struct cudaDeviceProp p;
    CUresult r = props(dev, &p);
    if (!r) *bytes = p.totalGlobalMem;
    WS_DRV_RET(r);
}

/* cuDeviceTotalMem: the 32-bit-era form (the size in an unsigned int, capped). */
WS_DRV_EXPORT CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev)
{
    size_t b = 0;
    CUresult r = bytes ? cuDeviceTotalMem_v2(&b, dev) : CUDA_ERROR_INVALID_VALUE;
    if (!r) *bytes = b > 0xffffffffu ? 0xffffffffu : (unsigned)b;
    return r;
}

/* cuDeviceGetAttribute: the runtime's answer for the same attribute number. */
WS_DRV_EXPORT CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    WS_DRV_ENTER();
    if (!pi) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    int n = 0;
    cudaGetDeviceCount(&n);
    if (dev < 0 || dev >= n) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    WS_DRV_RT(cudaDeviceGetAttribute(pi, (enum cudaDeviceAttr)attrib, dev));
}

/* cuDeviceGetUuid_v2: the device's UUID. */
WS_DRV_EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
    WS_DRV_ENTER();
    if (!uuid) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    struct cudaDeviceProp p;
    CUresult r = props(dev, &p);
    if (!r) memcpy(uuid->bytes, p.uuid.bytes, sizeof uuid->bytes);
    WS_DRV_RET(r);
}

/* cuDeviceGetUuid: the CUDA 9.2 name. */
WS_DRV_EXPORT CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) { return cuDeviceGetUuid_v2(uuid, dev); }

/* cuDeviceComputeCapability: major and minor (deprecated, still exported). */
WS_DRV_EXPORT CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    WS_DRV_ENTER();
    if (!major || !minor) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    struct cudaDeviceProp p;
    CUresult r = props(dev, &p);
    if (!r) {
        *major = p.major;
        *minor = p.minor;
    }
    WS_DRV_RET(r);
}

/* cuDeviceGetProperties: the deprecated CUdevprop summary. */
WS_DRV_EXPORT CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
    WS_DRV_ENTER();
    if (!prop) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    struct cudaDeviceProp p;
    CUresult r = props(dev, &p);
    if (r) WS_DRV_RET(r);
    memset(prop, 0, sizeof *prop);
    prop->maxThreadsPerBlock = p.maxThreadsPerBlock;
    for (int i = 0; i < 3; i++) {
        prop->maxThreadsDim[i] = p.maxThreadsDim[i];
        prop->maxGridSize[i] = p.maxGridSize[i];
    }
    prop->sharedMemPerBlock = (int)p.sharedMemPerBlock;
    prop->totalConstantMemory = (int)p.totalConstMem;
    prop->SIMDWidth = p.warpSize;
    prop->memPitch = (int)(p.memPitch > 0x7fffffff ? 0x7fffffff : p.memPitch);
    prop->regsPerBlock = p.regsPerBlock;
    int clk = 0;
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, dev);
    prop->clockRate = clk;
    prop->textureAlign = (int)p.textureAlignment;
    return CUDA_SUCCESS;
}

/* cuDeviceGetPCIBusId: the runtime's bus id. */
WS_DRV_EXPORT CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    WS_DRV_ENTER();
    int n = 0;
    cudaGetDeviceCount(&n);
    if (dev < 0 || dev >= n) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    WS_DRV_RT(cudaDeviceGetPCIBusId(pciBusId, len, dev));
}

/* cuDeviceCanAccessPeer: every two distinct devices (the runtime's answer). */
WS_DRV_EXPORT CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    WS_DRV_ENTER();
    if (!canAccessPeer) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    cudaError_t e = cudaDeviceCanAccessPeer(canAccessPeer, dev, peerDev);
    WS_DRV_RET(e == cudaErrorInvalidDevice ? CUDA_ERROR_INVALID_DEVICE : ws_drv_from_rt(e));
}

/* cuDeviceGetP2PAttribute: the runtime's answer (CUdevice_P2PAttribute and cudaDeviceP2PAttr share values). */
WS_DRV_EXPORT CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib, CUdevice srcDevice,
                                               CUdevice dstDevice)
{
    WS_DRV_ENTER();
    if (!value) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    cudaError_t e = cudaDeviceGetP2PAttribute(value, (enum cudaDeviceP2PAttr)attrib, srcDevice, dstDevice);
    WS_DRV_RET(e == cudaErrorInvalidDevice ? CUDA_ERROR_INVALID_DEVICE : ws_drv_from_rt(e));
}
