/* rt_extra.c - less common API: pitched 3D memory (and 3D copies, CUDA arrays included through rt_texture.c),
 * stream attributes, capture-mode exchange, channel descriptors, memory pools. */
#include "rt_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* cudaMalloc3D: pitched allocation of extent (width in bytes) with rows padded to 512 bytes. */
WS_RT_EXPORT cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    WS_RT_API();
    if (!pitchedDevPtr) return ws_rt_set_error(cudaErrorInvalidValue);
    size_t pitch = (extent.width + 511) / 512 * 512;
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, pitch * extent.height * extent.depth);
    if (e) return e;
    pitchedDevPtr->ptr = p;
    pitchedDevPtr->pitch = pitch;
    pitchedDevPtr->xsize = extent.width;
    pitchedDevPtr->ysize = extent.height;
    return cudaSuccess;
}

/* Copy a 3D region between pitched pointers, row by row. */
static cudaError_t copy_3d(const struct cudaMemcpy3DParms *p)
{
    const struct cudaPitchedPtr *s = &p->srcPtr, *d = &p->dstPtr;
    size_t w = p->extent.width, h = p->extent.height, depth = p->extent.depth;
    if (w > s->pitch || w > d->pitch) return cudaErrorInvalidPitchValue;
    size_t sy = s->ysize ? s->ysize : h, dy = d->ysize ? d->ysize : h;
    cudaError_t e = cudaSuccess;
    ws_rt_tl_batch_begin();   /* one copy on the timeline */
    for (size_t z = 0; !e && z < depth; z++) {
        for (size_t y = 0; !e && y < h; y++) {
            const char *src = (const char *)s->ptr + ((p->srcPos.z + z) * sy + p->srcPos.y + y) * s->pitch + p->srcPos.x;
            char *dst = (char *)d->ptr + ((p->dstPos.z + z) * dy + p->dstPos.y + y) * d->pitch + p->dstPos.x;
            e = ws_rt_copy(dst, src, w, p->kind);
        }
    }
    ws_rt_tl_batch_end();
    return e;
}

/* cudaMemcpy3D: pitched copies, to and from CUDA arrays too. */
WS_RT_EXPORT cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    WS_RT_API();
    struct cudaMemcpy3DParms q;
    if (!p) return ws_rt_set_error(cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray) {   /* CUDA arrays: their memory as pitched pointers (rt_texture.c) */
        cudaError_t ae = ws_rt_array_3d_params(p, &q);
        if (ae) return ws_rt_set_error(ae);
        p = &q;
    }
    ws_rt_lock();
    cudaError_t e = ws_rt_check(1);
    if (!e) e = copy_3d(p);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaMemcpy3DAsync: as cudaMemcpy3D, done at once (not recorded by stream capture). */
WS_RT_EXPORT cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    WS_RT_API();
    struct cudaMemcpy3DParms q;
    if (!p) return ws_rt_set_error(cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray) {
        cudaError_t ae = ws_rt_array_3d_params(p, &q);
        if (ae) return ws_rt_set_error(ae);
        p = &q;
    }
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_check(0);
    if (!e) e = ws_rt_stream_get(stream, &s);
    if (!e && ws_rt_capturing(stream)) e = cudaErrorStreamCaptureUnsupported;
    if (!e && !ws_hs_fault_pending()) {
        ws_rt_clock_ctx(s, 0, 0);   /* asynchronous, in the stream's order */
        e = copy_3d(p);
        ws_rt_clock_ctx(NULL, 0, 1);
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* Fill a pitched 3D region. */
static cudaError_t fill_3d(struct cudaPitchedPtr p, int value, struct cudaExtent ext)
{
    if (ext.width > p.pitch) return cudaErrorInvalidValue;
    size_t ys = p.ysize ? p.ysize : ext.height;
    cudaError_t e = cudaSuccess;
    ws_rt_tl_batch_begin();   /* one fill on the timeline */
    for (size_t z = 0; !e && z < ext.depth; z++)
        for (size_t y = 0; !e && y < ext.height; y++)
            e = ws_rt_fill((char *)p.ptr + (z * ys + y) * p.pitch, value, ext.width);
    ws_rt_tl_batch_end();
    return e;
}

/* cudaMemset3D: fill a pitched 3D region. */
WS_RT_EXPORT cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = ws_rt_check(1);
    if (!e) e = fill_3d(pitchedDevPtr, value, extent);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaMemset3DAsync: as cudaMemset3D, done at once (not recorded by stream capture). */
WS_RT_EXPORT cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent,
                                           cudaStream_t stream)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_check(0);
    if (!e) e = ws_rt_stream_get(stream, &s);
    if (!e && ws_rt_capturing(stream)) e = cudaErrorStreamCaptureUnsupported;
    if (!e && !ws_hs_fault_pending()) {
        ws_rt_clock_ctx(s, 0, 0);   /* in the stream's order */
        e = fill_3d(pitchedDevPtr, value, extent);
        ws_rt_clock_ctx(NULL, 0, 1);
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaMemset2DAsync: pitched fill on a stream, done at once (not recorded by stream capture). */
WS_RT_EXPORT cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                           cudaStream_t stream)
{
    WS_RT_API();
    struct cudaPitchedPtr p = {devPtr, pitch, width, height};
    struct cudaExtent ext = {width, height, 1};
    if (width > pitch) return ws_rt_set_error(cudaErrorInvalidPitchValue);
    return cudaMemset3DAsync(p, value, ext, stream);
}

/* cudaCreateChannelDesc: a channel format descriptor (pure data). */
WS_RT_EXPORT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                                enum cudaChannelFormatKind f)
{
    WS_RT_API();
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

/* cudaThreadExchangeStreamCaptureMode: swap the calling thread's capture mode (only remembered). */
WS_RT_EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    WS_RT_API();
    static _Thread_local enum cudaStreamCaptureMode current = cudaStreamCaptureModeGlobal;
    if (!mode || (unsigned)*mode > cudaStreamCaptureModeRelaxed) return ws_rt_set_error(cudaErrorInvalidValue);
    enum cudaStreamCaptureMode old = current;
    current = *mode;
    *mode = old;
    return cudaSuccess;
}

/* cudaStreamSetAttribute: accepted (access-policy windows and the like change no functional result). */
WS_RT_EXPORT cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                                const cudaStreamAttrValue *param)
{
    WS_RT_API();
    (void)attr;
    if (!param) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(stream, &s);
    if (!e && s && attr == cudaLaunchAttributePriority) s->priority = param->priority;
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaStreamGetAttribute: the priority; other attributes read as zero. */
WS_RT_EXPORT cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
                                                cudaStreamAttrValue *value)
{
    WS_RT_API();
    if (!value) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(stream, &s);
    if (!e) {
        memset(value, 0, sizeof *value);
        if (attr == cudaLaunchAttributePriority) value->priority = s ? s->priority : 0;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaDeviceGetByPCIBusId: the device of a bus id cudaDeviceGetPCIBusId gave ("[0000:]BB:00.0", bus 0x1B + i). */
WS_RT_EXPORT cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
    WS_RT_API();
    if (!device || !pciBusId) return ws_rt_set_error(cudaErrorInvalidValue);
    const char *p = pciBusId;
    if (strlen(p) == 12 && !strncmp(p, "0000:", 5)) p += 5;
    unsigned bus = 0;
    char tail[8] = "";
    int n = ws_hs_device_count();
    if (strlen(p) != 7 || sscanf(p, "%2x:%7s", &bus, tail) != 2 || strcmp(tail, "00.0") || bus < 0x1b ||
        (int)(bus - 0x1b) >= n)
        return ws_rt_set_error(cudaErrorInvalidDevice);
    *device = (int)(bus - 0x1b);
    return cudaSuccess;
}

/* cudaDeviceGetP2PAttribute: every two distinct devices are peers; over NVLink (both presets have peer_link_gbs)
 * with native atomics and array access, ranked 0, else over PCIe without them, ranked 1. */
WS_RT_EXPORT cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice,
                                                   int dstDevice)
{
    WS_RT_API();
    if (!value) return ws_rt_set_error(cudaErrorInvalidValue);
    const ws_device *a = ws_hs_device_at(srcDevice), *b = ws_hs_device_at(dstDevice);
    if (!a || !b || srcDevice == dstDevice) return ws_rt_set_error(cudaErrorInvalidDevice);
    int nvlink = a->peer_link_gbs > 0 && b->peer_link_gbs > 0;
    switch ((int)attr) {
    case cudaDevP2PAttrPerformanceRank: *value = nvlink ? 0 : 1; break;
    case cudaDevP2PAttrAccessSupported: *value = 1; break;
    case cudaDevP2PAttrNativeAtomicSupported: *value = nvlink; break;
    case cudaDevP2PAttrCudaArrayAccessSupported: *value = nvlink; break;
    case cudaDevP2PAttrOnlyPartialNativeAtomicSupported: *value = 0; break;
    default: return ws_rt_set_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}
