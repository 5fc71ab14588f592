/* rt_texture.c - CUDA arrays, texture objects and surface objects: cudaMallocArray/cudaMalloc3DArray (1D, 2D, 3D,
 * layered, cubemap), the copies to and from arrays, and the object table the core's texture instructions read
 * through the lookup installed on the GPU (ws_gpu_set_tex_lookup, src/core/sim.h).
 *
 * An array is a device allocation whose texels lie row by row without padding (pitch = width x texel bytes),
 * then slice by slice (depth, layers, cubemap faces). Object handles are small integers (1, 2, ...) as CUDA's;
 * the table grows in fixed chunks that never move, so kernels running on other threads may read it. */
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WS_RT_ARRAY_MAGIC 0x57524152u
#define WS_RT_TEX_CHUNK 256          /* objects per table chunk */
#define WS_RT_TEX_CHUNKS 256         /* chunks at most (65,536 live objects) */

/* One CUDA array (the cudaArray_t handle points here). */
typedef struct ws_rt_array {
    uint32_t magic;
    struct cudaChannelFormatDesc desc;
    struct cudaExtent ext;           /* as allocated (0 for dimensions it lacks) */
    unsigned flags;
    size_t esize, pitch, slice;      /* bytes of a texel, a row, a slice */
    uint32_t w, h, d, slices;        /* texels (1 for absent dimensions); slices stored */
    uint64_t addr;                   /* device memory */
    struct ws_rt_array *next;
} ws_rt_array;

/* One texture or surface object. */
typedef struct ws_rt_texobj {
    int used;
    ws_texres res;                   /* what the core reads */
    struct cudaResourceDesc rd;
    struct cudaTextureDesc td;
} ws_rt_texobj;

static ws_rt_array *arrays;
static ws_rt_texobj *chunks[WS_RT_TEX_CHUNKS];
static uint64_t next_handle = 1;
static uint64_t free_handle;         /* a destroyed handle to reuse first (0 when none) */

/* The object of handle h, or NULL. */
static ws_rt_texobj *obj_of(uint64_t h)
{
    if (h == 0 || h > (uint64_t)WS_RT_TEX_CHUNK * WS_RT_TEX_CHUNKS) return NULL;
    ws_rt_texobj *c = chunks[(h - 1) / WS_RT_TEX_CHUNK];
    if (!c) return NULL;
    ws_rt_texobj *o = &c[(h - 1) % WS_RT_TEX_CHUNK];
    return o->used ? o : NULL;
}

/* The core's lookup: handle -> resource. */
static const ws_texres *tex_lookup(void *ctx, uint64_t h)
{
    (void)ctx;
    ws_rt_texobj *o = obj_of(h);
    return o ? &o->res : NULL;
}

/* A new object slot and its handle (0 when the table is full). */
static uint64_t obj_new(ws_rt_texobj **out)
{
    uint64_t h = free_handle;
    if (h) free_handle = 0;
    else {
        if (next_handle > (uint64_t)WS_RT_TEX_CHUNK * WS_RT_TEX_CHUNKS) return 0;
        h = next_handle++;
        size_t ci = (h - 1) / WS_RT_TEX_CHUNK;
        if (!chunks[ci]) chunks[ci] = calloc(WS_RT_TEX_CHUNK, sizeof(ws_rt_texobj));
        if (!chunks[ci]) return 0;
    }
    ws_rt_texobj *o = &chunks[(h - 1) / WS_RT_TEX_CHUNK][(h - 1) % WS_RT_TEX_CHUNK];
    memset(o, 0, sizeof *o);
    *out = o;
    return h;
}

/* The array a handle names, or NULL. */
static ws_rt_array *array_of(const void *a)
{
    for (ws_rt_array *p = arrays; p; p = p->next)
        if ((const void *)p == a && p->magic == WS_RT_ARRAY_MAGIC) return p;
    return NULL;
}

/* Texel format of a channel descriptor: channels, bytes per channel; cudaErrorInvalidChannelDescriptor when the
 * simulator cannot hold it (channels of different sizes, 3 channels, kinds other than signed/unsigned/float). */
static cudaError_t format_of(const struct cudaChannelFormatDesc *d, int *nch, int *cb)
{
    int bits[4] = { d->x, d->y, d->z, d->w }, n = 0;
    while (n < 4 && bits[n] > 0) n++;
    for (int i = n; i < 4; i++) if (bits[i] != 0) return cudaErrorInvalidChannelDescriptor;
    if (n == 0 || n == 3) return cudaErrorInvalidChannelDescriptor;
    for (int i = 1; i < n; i++) if (bits[i] != bits[0]) return cudaErrorInvalidChannelDescriptor;
    if (bits[0] != 8 && bits[0] != 16 && bits[0] != 32) return cudaErrorInvalidChannelDescriptor;
    if (d->f != cudaChannelFormatKindSigned && d->f != cudaChannelFormatKindUnsigned && d->f != cudaChannelFormatKindFloat)
        return cudaErrorInvalidChannelDescriptor;
    if (d->f == cudaChannelFormatKindFloat && bits[0] == 8) return cudaErrorInvalidChannelDescriptor;
    *nch = n;
    *cb = bits[0] / 8;
    return cudaSuccess;
}

/* Allocate an array of extent ext (0 for absent dimensions) with cudaArray* flags. */
static cudaError_t array_alloc(cudaArray_t *out, const struct cudaChannelFormatDesc *desc, struct cudaExtent ext,
                               unsigned flags)
{
    if (!out || !desc || ext.width == 0) return cudaErrorInvalidValue;
    if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayTextureGather))
        return cudaErrorInvalidValue;
    int nch, cb;
    cudaError_t e = format_of(desc, &nch, &cb);
    if (e) return e;
    int layered = (flags & cudaArrayLayered) != 0, cube = (flags & cudaArrayCubemap) != 0;
    if (cube && (ext.width != ext.height || ext.depth == 0 || ext.depth % 6 || (!layered && ext.depth != 6)))
        return cudaErrorInvalidValue;
    if (layered && ext.depth == 0) return cudaErrorInvalidValue;
    if (ext.height == 0 && ext.depth && !layered) return cudaErrorInvalidValue;
    ws_rt_array *a = calloc(1, sizeof *a);
    if (!a) return cudaErrorMemoryAllocation;
    a->magic = WS_RT_ARRAY_MAGIC;
    a->desc = *desc;
    a->ext = ext;
    a->flags = flags;
    a->esize = (size_t)nch * (size_t)cb;
    a->w = (uint32_t)ext.width;
    a->h = ext.height ? (uint32_t)ext.height : 1;
    a->d = ext.depth && !layered && !cube ? (uint32_t)ext.depth : 1;
    a->slices = ext.depth ? (uint32_t)ext.depth : 1;
    a->pitch = a->esize * a->w;
    a->slice = a->pitch * a->h;
    void *p = NULL;
    e = cudaMalloc(&p, a->slice * a->slices);
    if (e) { free(a); return e; }
    a->addr = (uint64_t)(uintptr_t)p;
    ws_rt_lock();
    a->next = arrays;
    arrays = a;
    ws_rt_unlock();
    *out = (cudaArray_t)(void *)a;
    return cudaSuccess;
}

/* cudaMallocArray: a 1D (height 0) or 2D array. */
WS_RT_EXPORT cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                         size_t height, unsigned int flags)
{
    WS_RT_API();
    struct cudaExtent ext = { width, height, 0 };
    if (flags & (cudaArrayLayered | cudaArrayCubemap)) return ws_rt_set_error(cudaErrorInvalidValue);
    return ws_rt_set_error(array_alloc(array, desc, ext, flags));
}

/* cudaMalloc3DArray: 1D, 2D, 3D, layered and cubemap arrays. */
WS_RT_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                           struct cudaExtent extent, unsigned int flags)
{
    WS_RT_API();
    return ws_rt_set_error(array_alloc(array, desc, extent, flags));
}

/* cudaFreeArray: free an array (NULL is accepted). */
WS_RT_EXPORT cudaError_t cudaFreeArray(cudaArray_t array)
{
    WS_RT_API();
    if (!array) return cudaSuccess;
    ws_rt_lock();
    ws_rt_array **pp = &arrays;
    while (*pp && (void *)*pp != (void *)array) pp = &(*pp)->next;
    ws_rt_array *a = *pp;
    if (a) *pp = a->next;
    ws_rt_unlock();
    if (!a) return ws_rt_set_error(cudaErrorInvalidResourceHandle);
    cudaError_t e = cudaFree((void *)(uintptr_t)a->addr);
    a->magic = 0;
    free(a);
    return ws_rt_set_error(e);
}

/* cudaArrayGetInfo: format, extent and flags of an array. */
WS_RT_EXPORT cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                          unsigned int *flags, cudaArray_t array)
{
    WS_RT_API();
    ws_rt_array *a = array_of(array);
    if (!a) return ws_rt_set_error(cudaErrorInvalidResourceHandle);
    if (desc) *desc = a->desc;
    if (extent) *extent = a->ext;
    if (flags) *flags = a->flags;
    return cudaSuccess;
}

/* cudaGetChannelDesc: the format of an array. */
WS_RT_EXPORT cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_const_t array)
{
    WS_RT_API();
    ws_rt_array *a = array_of(array);
    if (!a) return ws_rt_set_error(cudaErrorInvalidResourceHandle);
    if (!desc) return ws_rt_set_error(cudaErrorInvalidValue);
    *desc = a->desc;
    return cudaSuccess;
}

/* Say once that mipmapped arrays are not supported and return cudaErrorNotSupported. */
static cudaError_t no_mipmaps(const char *fn)
{
    static int said;
    if (!said && !ws_rt_quiet()) fprintf(stderr, "warpsim: %s: mipmapped arrays are not supported by the simulator\n", fn);
    said = 1;
    return ws_rt_set_error(cudaErrorNotSupported);
}

/* cudaFreeMipmappedArray: no mipmapped array can exist (NULL is accepted). */
WS_RT_EXPORT cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray)
{
    WS_RT_API();
    return mipmappedArray ? ws_rt_set_error(cudaErrorInvalidValue) : cudaSuccess;
}

/* cudaGetMipmappedArrayLevel: not supported. */
WS_RT_EXPORT cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray, cudaMipmappedArray_const_t mipmappedArray,
                                                    unsigned int level)
{
    WS_RT_API();
    (void)levelArray, (void)mipmappedArray, (void)level;
    return no_mipmaps("cudaGetMipmappedArrayLevel");
}

/* cudaArrayGetPlane: multi-planar (NV12) arrays are not supported; a plain array has no planes. */
WS_RT_EXPORT cudaError_t cudaArrayGetPlane(cudaArray_t *pPlaneArray, cudaArray_t hArray, unsigned int planeIdx)
{
    WS_RT_API();
    (void)pPlaneArray, (void)planeIdx;
    return ws_rt_set_error(array_of(hArray) ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
}

/* cudaMallocMipmappedArray: not supported (only level-0 arrays are modelled). */
WS_RT_EXPORT cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                                  const struct cudaChannelFormatDesc *desc, struct cudaExtent extent,
                                                  unsigned int numLevels, unsigned int flags)
{
    WS_RT_API();
    (void)mipmappedArray, (void)desc, (void)extent, (void)numLevels, (void)flags;
    return no_mipmaps("cudaMallocMipmappedArray");
}

/* A pointer to byte (x, row y, slice z) of array a, or NULL when [x, x+w) x rows [y, y+h) lies outside it. */
static char *array_at(ws_rt_array *a, size_t x, size_t y, size_t z, size_t w, size_t h)
{
    if (x + w > a->pitch || y + h > a->h || z >= a->slices || x + w < x || y + h < y) return NULL;
    return (char *)(uintptr_t)(a->addr + z * a->slice + y * a->pitch + x);
}

/* Copy height rows of width bytes between two pitched places (ws_rt_copy per row, one timeline event). */
static cudaError_t rows_copy(char *dst, size_t dpitch, const char *src, size_t spitch, size_t width, size_t height,
                             enum cudaMemcpyKind kind)
{
    if (width > dpitch || width > spitch) return cudaErrorInvalidPitchValue;
    cudaError_t e = cudaSuccess;
    ws_rt_tl_batch_begin();
    for (size_t r = 0; !e && r < height; r++) e = ws_rt_copy(dst + r * dpitch, src + r * spitch, width, kind);
    ws_rt_tl_batch_end();
    return e;
}

/* The kinds of a copy into an array (its destination is device memory). */
static int to_device_kind(enum cudaMemcpyKind k)
{
    return k == cudaMemcpyHostToDevice || k == cudaMemcpyDeviceToDevice || k == cudaMemcpyDefault;
}

/* The kinds of a copy out of an array. */
static int from_device_kind(enum cudaMemcpyKind k)
{
    return k == cudaMemcpyDeviceToHost || k == cudaMemcpyDeviceToDevice || k == cudaMemcpyDefault;
}

/* Copy into an array (offsets: bytes across, rows down), under the runtime lock. */
static cudaError_t to_array(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t spitch, size_t width,
                            size_t height, enum cudaMemcpyKind kind)
{
    ws_rt_array *a = array_of(dst);
    if (!a) return cudaErrorInvalidResourceHandle;
    if (!to_device_kind(kind)) return cudaErrorInvalidMemcpyDirection;
    char *d = array_at(a, wo, ho, 0, width, height);
    if (!d || !src) return cudaErrorInvalidValue;
    return rows_copy(d, a->pitch, src, spitch, width, height, kind);
}

/* Copy out of an array, under the runtime lock. */
static cudaError_t from_array(void *dst, size_t dpitch, cudaArray_const_t src, size_t wo, size_t ho, size_t width,
                              size_t height, enum cudaMemcpyKind kind)
{
    ws_rt_array *a = array_of(src);
    if (!a) return cudaErrorInvalidResourceHandle;
    if (!from_device_kind(kind)) return cudaErrorInvalidMemcpyDirection;
    char *s = array_at(a, wo, ho, 0, width, height);
    if (!s || !dst) return cudaErrorInvalidValue;
    return rows_copy(dst, dpitch, s, a->pitch, width, height, kind);
}

/* Run a copy synchronously: lock, sticky error check, the copy, unlock. */
#define SYNC_COPY(call) do { \
    ws_rt_lock(); \
    cudaError_t e_ = ws_rt_check(1); \
    if (!e_) e_ = (call); \
    ws_rt_unlock(); \
    return ws_rt_set_error(e_); \
} while (0)

/* Run a copy on a stream: done at once in the stream's order (not recorded by stream capture). */
#define STREAM_COPY(stream, call) do { \
    ws_rt_lock(); \
    ws_rt_stream *s_ = NULL; \
    cudaError_t e_ = ws_rt_check(0); \
    if (!e_) e_ = ws_rt_stream_get(stream, &s_); \
    if (!e_ && ws_rt_capturing(stream)) e_ = cudaErrorStreamCaptureUnsupported; \
    if (!e_ && !ws_hs_fault_pending()) { \
        ws_rt_clock_ctx(s_, 0, 0); \
        e_ = (call); \
        ws_rt_clock_ctx(NULL, 0, 1); \
    } \
    ws_rt_unlock(); \
    return ws_rt_set_error(e_); \
} while (0)

/* cudaMemcpy2DToArray: pitched rows into an array. */
WS_RT_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                             size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    SYNC_COPY(to_array(dst, wOffset, hOffset, src, spitch, width, height, kind));
}

/* cudaMemcpy2DFromArray: rows of an array into pitched memory. */
WS_RT_EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                               size_t hOffset, size_t width, size_t height, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    SYNC_COPY(from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind));
}

/* cudaMemcpy2DToArrayAsync: as cudaMemcpy2DToArray, on a stream. */
WS_RT_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                  size_t spitch, size_t width, size_t height, enum cudaMemcpyKind kind,
                                                  cudaStream_t stream)
{
    WS_RT_API();
    STREAM_COPY(stream, to_array(dst, wOffset, hOffset, src, spitch, width, height, kind));
}

/* cudaMemcpy2DFromArrayAsync: as cudaMemcpy2DFromArray, on a stream. */
WS_RT_EXPORT cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                                    size_t hOffset, size_t width, size_t height,
                                                    enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    STREAM_COPY(stream, from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind));
}

/* Copy a region between two arrays (bytes across, rows down). */
static cudaError_t array_to_array(cudaArray_t dst, size_t wd, size_t hd, cudaArray_const_t src, size_t ws, size_t hs,
                                  size_t width, size_t height, enum cudaMemcpyKind kind)
{
    ws_rt_array *d = array_of(dst), *s = array_of(src);
    if (!d || !s) return cudaErrorInvalidResourceHandle;
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
    char *dp = array_at(d, wd, hd, 0, width, height), *sp = array_at(s, ws, hs, 0, width, height);
    if (!dp || !sp) return cudaErrorInvalidValue;
    return rows_copy(dp, d->pitch, sp, s->pitch, width, height, kind);
}

/* cudaMemcpy2DArrayToArray: a region of one array into another. */
WS_RT_EXPORT cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                  cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                  size_t width, size_t height, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    SYNC_COPY(array_to_array(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind));
}

/* Linear copy of count bytes into an array from (wo, ho) on, row after row. */
static cudaError_t to_array_linear(cudaArray_t dst, size_t wo, size_t ho, const void *src, size_t count,
                                   enum cudaMemcpyKind kind)
{
    ws_rt_array *a = array_of(dst);
    if (!a) return cudaErrorInvalidResourceHandle;
    if (!to_device_kind(kind)) return cudaErrorInvalidMemcpyDirection;
    size_t off = ho * a->pitch + wo;
    if (wo >= a->pitch || off + count > a->slice * a->slices || !src) return cudaErrorInvalidValue;
    return ws_rt_copy((char *)(uintptr_t)(a->addr + off), src, count, kind);
}

/* Linear copy of count bytes out of an array from (wo, ho) on. */
static cudaError_t from_array_linear(void *dst, cudaArray_const_t src, size_t wo, size_t ho, size_t count,
                                     enum cudaMemcpyKind kind)
{
    ws_rt_array *a = array_of(src);
    if (!a) return cudaErrorInvalidResourceHandle;
    if (!from_device_kind(kind)) return cudaErrorInvalidMemcpyDirection;
    size_t off = ho * a->pitch + wo;
    if (wo >= a->pitch || off + count > a->slice * a->slices || !dst) return cudaErrorInvalidValue;
    return ws_rt_copy(dst, (const char *)(uintptr_t)(a->addr + off), count, kind);
}

/* cudaMemcpyToArray (deprecated, still exported): count bytes into an array. */
WS_RT_EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                           size_t count, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    SYNC_COPY(to_array_linear(dst, wOffset, hOffset, src, count, kind));
}

/* cudaMemcpyFromArray (deprecated, still exported): count bytes out of an array. */
WS_RT_EXPORT cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                             size_t count, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    SYNC_COPY(from_array_linear(dst, src, wOffset, hOffset, count, kind));
}

/* cudaMemcpyToArrayAsync (deprecated): as cudaMemcpyToArray, on a stream. */
WS_RT_EXPORT cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                                size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    STREAM_COPY(stream, to_array_linear(dst, wOffset, hOffset, src, count, kind));
}

/* cudaMemcpyFromArrayAsync (deprecated): as cudaMemcpyFromArray, on a stream. */
WS_RT_EXPORT cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                                  size_t count, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    STREAM_COPY(stream, from_array_linear(dst, src, wOffset, hOffset, count, kind));
}

/* cudaMemcpyArrayToArray (deprecated): count bytes between arrays (within their first rows' span). */
WS_RT_EXPORT cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                                cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                                size_t count, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    ws_rt_array *d = array_of(dst), *s = array_of(src);
    if (!d || !s) return ws_rt_set_error(cudaErrorInvalidResourceHandle);
    size_t doff = hOffsetDst * d->pitch + wOffsetDst, soff = hOffsetSrc * s->pitch + wOffsetSrc;
    if (doff + count > d->slice * d->slices || soff + count > s->slice * s->slices)
        return ws_rt_set_error(cudaErrorInvalidValue);
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return ws_rt_set_error(cudaErrorInvalidMemcpyDirection);
    SYNC_COPY(ws_rt_copy((char *)(uintptr_t)(d->addr + doff), (const char *)(uintptr_t)(s->addr + soff), count, kind));
}

/* The pitched-pointer form of a cudaMemcpy3D whose source or destination is an array: array positions and the
 * extent's width are in texels, so they become bytes; an array becomes its memory, pitch and rows. */
cudaError_t ws_rt_array_3d_params(const struct cudaMemcpy3DParms *in, struct cudaMemcpy3DParms *out)
{
    *out = *in;
    ws_rt_array *s = in->srcArray ? array_of(in->srcArray) : NULL, *d = in->dstArray ? array_of(in->dstArray) : NULL;
    if ((in->srcArray && !s) || (in->dstArray && !d)) return cudaErrorInvalidResourceHandle;
    if ((s && in->srcPtr.ptr) || (d && in->dstPtr.ptr)) return cudaErrorInvalidValue;
    size_t es = s ? s->esize : d->esize;
    out->srcArray = NULL;
    out->dstArray = NULL;
    out->extent.width = in->extent.width * es;
    size_t h = in->extent.height ? in->extent.height : 1, depth = in->extent.depth ? in->extent.depth : 1;
    out->extent.height = h;
    out->extent.depth = depth;
    if (s) {
        if (in->srcPos.x + in->extent.width > s->w || in->srcPos.y + h > s->h || in->srcPos.z + depth > s->slices)
            return cudaErrorInvalidValue;
        out->srcPtr = (struct cudaPitchedPtr){ (void *)(uintptr_t)s->addr, s->pitch, s->pitch, s->h };
        out->srcPos.x = in->srcPos.x * s->esize;
    }
    if (d) {
        if (in->dstPos.x + in->extent.width > d->w || in->dstPos.y + h > d->h || in->dstPos.z + depth > d->slices)
            return cudaErrorInvalidValue;
        out->dstPtr = (struct cudaPitchedPtr){ (void *)(uintptr_t)d->addr, d->pitch, d->pitch, d->h };
        out->dstPos.x = in->dstPos.x * d->esize;
    }
    if (s && (in->kind == cudaMemcpyHostToDevice || in->kind == cudaMemcpyHostToHost)) return cudaErrorInvalidMemcpyDirection;
    if (d && (in->kind == cudaMemcpyDeviceToHost || in->kind == cudaMemcpyHostToHost)) return cudaErrorInvalidMemcpyDirection;
    return cudaSuccess;
}

/* ---- texture and surface objects ---- */

/* Fill the core's resource from a resource descriptor (array, linear or pitch-2D memory). */
static cudaError_t res_from_desc(const struct cudaResourceDesc *rd, ws_texres *r, int surface)
{
    int nch, cb;
    cudaError_t e;
    memset(r, 0, sizeof *r);
    r->height = r->depth = r->layers = 1;
    switch (rd->resType) {
    case cudaResourceTypeArray: {
        ws_rt_array *a = array_of(rd->res.array.array);
        if (!a) return cudaErrorInvalidResourceHandle;
        if (surface && !(a->flags & cudaArraySurfaceLoadStore)) return cudaErrorInvalidValue;
        e = format_of(&a->desc, &nch, &cb);
        if (e) return e;
        r->addr = a->addr;
        r->width = a->w;
        r->height = a->h;
        r->depth = a->d;
        r->pitch = a->pitch;
        r->slice = a->slice;
        r->layered = (a->flags & cudaArrayLayered) != 0;
        r->cubemap = (a->flags & cudaArrayCubemap) != 0;
        r->layers = r->layered || r->cubemap ? a->slices : 1;
        r->dims = a->ext.depth && !r->layered && !r->cubemap ? 3 : a->ext.height ? 2 : 1;
        break;
    }
    case cudaResourceTypeLinear:
        if (surface) return cudaErrorInvalidValue;
        e = format_of(&rd->res.linear.desc, &nch, &cb);
        if (e) return e;
        if (!rd->res.linear.devPtr || rd->res.linear.sizeInBytes < (size_t)nch * (size_t)cb) return cudaErrorInvalidValue;
        r->addr = (uint64_t)(uintptr_t)rd->res.linear.devPtr;
        r->width = (uint32_t)(rd->res.linear.sizeInBytes / ((size_t)nch * (size_t)cb));
        r->pitch = rd->res.linear.sizeInBytes;
        r->slice = r->pitch;
        r->dims = 1;
        r->linear = 1;
        break;
    case cudaResourceTypePitch2D:
        if (surface) return cudaErrorInvalidValue;
        e = format_of(&rd->res.pitch2D.desc, &nch, &cb);
        if (e) return e;
        if (!rd->res.pitch2D.devPtr || !rd->res.pitch2D.width || !rd->res.pitch2D.height ||
            rd->res.pitch2D.pitchInBytes < rd->res.pitch2D.width * (size_t)nch * (size_t)cb)
            return cudaErrorInvalidValue;
        r->addr = (uint64_t)(uintptr_t)rd->res.pitch2D.devPtr;
        r->width = (uint32_t)rd->res.pitch2D.width;
        r->height = (uint32_t)rd->res.pitch2D.height;
        r->pitch = rd->res.pitch2D.pitchInBytes;
        r->slice = r->pitch * r->height;
        r->dims = 2;
        break;
    default:
        if (!ws_rt_quiet())
            fprintf(stderr, "warpsim: %s: resource type %d (mipmapped arrays) is not supported by the simulator\n",
                    surface ? "cudaCreateSurfaceObject" : "cudaCreateTextureObject", (int)rd->resType);
        return cudaErrorNotSupported;
    }
    r->nch = (uint8_t)nch;
    r->chbytes = (uint8_t)cb;
    const struct cudaChannelFormatDesc *cd = rd->resType == cudaResourceTypeArray ? &array_of(rd->res.array.array)->desc
                                             : rd->resType == cudaResourceTypeLinear ? &rd->res.linear.desc
                                             : &rd->res.pitch2D.desc;
    r->kind = (uint8_t)cd->f;
    r->surface = (uint8_t)surface;
    return cudaSuccess;
}

/* Install the lookup on the current GPU (each GPU cudaDeviceReset creates needs it). */
static cudaError_t install_lookup(void)
{
    cudaError_t e = cudaSuccess;
    ws_gpu *g = ws_rt_gpu(&e);
    if (g) ws_gpu_set_tex_lookup(g, tex_lookup, NULL);
    return e;
}

/* cudaCreateTextureObject: a texture object over an array, linear or pitched memory. */
WS_RT_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const struct cudaResourceDesc *pResDesc,
                                                 const struct cudaTextureDesc *pTexDesc,
                                                 const struct cudaResourceViewDesc *pResViewDesc)
{
    WS_RT_API();
    if (!pTexObject || !pResDesc || !pTexDesc) return ws_rt_set_error(cudaErrorInvalidValue);
    if (pResViewDesc && !ws_rt_quiet())
        fprintf(stderr, "warpsim: cudaCreateTextureObject: resource views are not supported by the simulator\n");
    if (pResViewDesc) return ws_rt_set_error(cudaErrorNotSupported);
    ws_rt_lock();
    ws_texres r;
    cudaError_t e = install_lookup();
    if (!e) e = res_from_desc(pResDesc, &r, 0);
    const struct cudaTextureDesc *td = pTexDesc;
    for (int i = 0; !e && i < 3; i++) if ((unsigned)td->addressMode[i] > cudaAddressModeBorder) e = cudaErrorInvalidValue;
    if (!e && (unsigned)td->filterMode > cudaFilterModeLinear) e = cudaErrorInvalidValue;
    if (!e && (unsigned)td->readMode > cudaReadModeNormalizedFloat) e = cudaErrorInvalidValue;
    /* linear filtering needs float results: float texels, or 8/16-bit integers read as normalised floats */
    if (!e && td->filterMode == cudaFilterModeLinear && r.kind != WS_TEXK_FLOAT &&
        !(td->readMode == cudaReadModeNormalizedFloat && r.chbytes < 4))
        e = cudaErrorInvalidValue;
    if (!e && td->sRGB) {
        if (!ws_rt_quiet()) fprintf(stderr, "warpsim: cudaCreateTextureObject: sRGB textures are not supported by the simulator\n");
        e = cudaErrorNotSupported;
    }
    ws_rt_texobj *o = NULL;
    uint64_t h = 0;
    if (!e && !(h = obj_new(&o))) e = cudaErrorMemoryAllocation;
    if (!e) {
        for (int i = 0; i < 3; i++) r.addr_mode[i] = (uint8_t)td->addressMode[i];
        r.filter_linear = td->filterMode == cudaFilterModeLinear;
        r.norm_float = td->readMode == cudaReadModeNormalizedFloat && r.kind != WS_TEXK_FLOAT && r.chbytes < 4;
        r.norm_coords = td->normalizedCoords != 0;
        for (int i = 0; i < 4; i++) r.border[i] = td->borderColor[i];
        o->res = r;
        o->rd = *pResDesc;
        o->td = *pTexDesc;
        o->used = 1;
        *pTexObject = h;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* Destroy a texture (surface = 0) or surface object. */
static cudaError_t obj_destroy(uint64_t h, int surface)
{
    if (!h) return cudaSuccess;
    ws_rt_lock();
    ws_rt_texobj *o = obj_of(h);
    cudaError_t e = !o || o->res.surface != surface ? cudaErrorInvalidValue : cudaSuccess;
    if (!e) { o->used = 0; if (!free_handle) free_handle = h; }
    ws_rt_unlock();
    return e;
}

/* cudaDestroyTextureObject: destroy a texture object (0 is accepted). */
WS_RT_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    WS_RT_API();
    return ws_rt_set_error(obj_destroy(texObject, 0));
}

/* The object of handle h when it is of the right kind, else NULL. */
static ws_rt_texobj *obj_kind(uint64_t h, int surface)
{
    ws_rt_texobj *o = obj_of(h);
    return o && o->res.surface == surface ? o : NULL;
}

/* cudaGetTextureObjectResourceDesc: the resource a texture object was made from. */
WS_RT_EXPORT cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                          cudaTextureObject_t texObject)
{
    WS_RT_API();
    ws_rt_texobj *o = obj_kind(texObject, 0);
    if (!o || !pResDesc) return ws_rt_set_error(cudaErrorInvalidValue);
    *pResDesc = o->rd;
    return cudaSuccess;
}

/* cudaGetTextureObjectTextureDesc: the sampling description of a texture object. */
WS_RT_EXPORT cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject)
{
    WS_RT_API();
    ws_rt_texobj *o = obj_kind(texObject, 0);
    if (!o || !pTexDesc) return ws_rt_set_error(cudaErrorInvalidValue);
    *pTexDesc = o->td;
    return cudaSuccess;
}

/* cudaGetTextureObjectResourceViewDesc: no texture object has a resource view. */
WS_RT_EXPORT cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *pResViewDesc,
                                                              cudaTextureObject_t texObject)
{
    WS_RT_API();
    if (!obj_kind(texObject, 0) || !pResViewDesc) return ws_rt_set_error(cudaErrorInvalidValue);
    memset(pResViewDesc, 0, sizeof *pResViewDesc);
    return cudaSuccess;
}

/* cudaCreateSurfaceObject: a surface object over an array made with cudaArraySurfaceLoadStore. */
WS_RT_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const struct cudaResourceDesc *pResDesc)
{
    WS_RT_API();
    if (!pSurfObject || !pResDesc) return ws_rt_set_error(cudaErrorInvalidValue);
    if (pResDesc->resType != cudaResourceTypeArray) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_texres r;
    cudaError_t e = install_lookup();
    if (!e) e = res_from_desc(pResDesc, &r, 1);
    ws_rt_texobj *o = NULL;
    uint64_t h = 0;
    if (!e && !(h = obj_new(&o))) e = cudaErrorMemoryAllocation;
    if (!e) {
        o->res = r;
        o->rd = *pResDesc;
        o->used = 1;
        *pSurfObject = h;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaDestroySurfaceObject: destroy a surface object (0 is accepted). */
WS_RT_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    WS_RT_API();
    return ws_rt_set_error(obj_destroy(surfObject, 1));
}

/* cudaGetSurfaceObjectResourceDesc: the resource a surface object was made from. */
WS_RT_EXPORT cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                          cudaSurfaceObject_t surfObject)
{
    WS_RT_API();
    ws_rt_texobj *o = obj_kind(surfObject, 1);
    if (!o || !pResDesc) return ws_rt_set_error(cudaErrorInvalidValue);
    *pResDesc = o->rd;
    return cudaSuccess;
}
