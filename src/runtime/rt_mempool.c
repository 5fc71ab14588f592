/* rt_mempool.c - stream-ordered allocation: memory pools (the device's default pool and cudaMemPoolCreate's),
 * their attributes and usage counts, cudaMallocAsync / cudaMallocFromPoolAsync / cudaFreeAsync, and the graph
 * memory nodes the same calls make while a stream is captured. Allocations happen at once (a stream's work runs
 * when it is enqueued); a pool hands freed memory back at once too, so its reserved bytes are its used bytes. */
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WS_RT_POOL_MAGIC 0x57525050u

/* A memory pool: its properties, attributes and usage. */
typedef struct ws_rt_pool {
    uint32_t magic;
    struct cudaMemPoolProps props;
    unsigned long long threshold;       /* cudaMemPoolAttrReleaseThreshold */
    int reuse[3];                       /* the three cudaMemPoolReuse* flags */
    unsigned long long used, used_high, reserved_high;
    struct ws_rt_pool *next;
} ws_rt_pool;

/* A live stream-ordered allocation (from a pool, or owned by a graph's allocation node). */
typedef struct ws_rt_async {
    void *ptr;
    size_t size;
    ws_rt_pool *pool;                   /* NULL: a graph's allocation */
    struct ws_rt_async *next;
} ws_rt_async;

static ws_rt_pool default_pool = { WS_RT_POOL_MAGIC, { 0 }, 0, { 1, 1, 1 }, 0, 0, 0, NULL };
static ws_rt_pool *pools = &default_pool;     /* every live pool */
static ws_rt_pool *current_pool = &default_pool;
static ws_rt_async *asyncs;

/* Validate a pool handle. */
static ws_rt_pool *pool_get(cudaMemPool_t h)
{
    for (ws_rt_pool *p = pools; p; p = p->next)
        if ((void *)p == (void *)h && p->magic == WS_RT_POOL_MAGIC) return p;
    return NULL;
}

/* The live stream-ordered allocation that starts at ptr, with the link that points at it. */
static ws_rt_async **async_find(const void *ptr)
{
    for (ws_rt_async **a = &asyncs; *a; a = &(*a)->next)
        if ((*a)->ptr == ptr) return a;
    return NULL;
}

/* Allocate size bytes from pool p now (pool NULL: owned by a graph's allocation node). */
static cudaError_t pool_alloc(ws_rt_pool *p, void **ptr, size_t size)
{
    ws_rt_async *a = calloc(1, sizeof *a);
    if (!a) return cudaErrorMemoryAllocation;
    cudaError_t e = cudaMalloc(ptr, size);
    if (e) {
        free(a);
        return e;
    }
    a->ptr = *ptr;
    a->size = size;
    a->pool = p;
    a->next = asyncs;
    asyncs = a;
    if (p) {
        p->used += size;
        if (p->used > p->used_high) p->used_high = p->used;
        if (p->used > p->reserved_high) p->reserved_high = p->used;
    }
    return cudaSuccess;
}

/* Whether ptr is a graph allocation node's memory (reserved for the graph: its frees are the graph's). */
int ws_rt_graph_owned(const void *ptr)
{
    ws_rt_async **a = ptr ? async_find(ptr) : NULL;
    return a && !(*a)->pool;
}

/* Forget the stream-ordered allocation at ptr, if it is one, before it is freed (its pool's usage drops). */
void ws_rt_pool_forget(const void *ptr)
{
    ws_rt_async **a = ptr ? async_find(ptr) : NULL;
    if (!a) return;
    ws_rt_async *x = *a;
    if (x->pool && x->pool->used >= x->size) x->pool->used -= x->size;
    *a = x->next;
    free(x);
}

/* Memory of a new graph allocation node: allocated now and kept for the graph (the address is fixed for the
 * graph's lifetime, as CUDA's are), released only with the process, as CUDA's graph memory pool keeps it. */
cudaError_t ws_rt_graph_alloc(void **ptr, size_t size)
{
    if (!ptr || !size) return cudaErrorInvalidValue;
    return pool_alloc(NULL, ptr, size);
}

/* Stream-ordered allocation from pool p on stream: a graph allocation node while the stream is captured. */
static cudaError_t malloc_async(void **ptr, size_t size, ws_rt_pool *p, cudaStream_t stream)
{
    if (!ptr) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(stream, &s);
    if (!e && !p) e = cudaErrorInvalidValue;
    ws_rt_graph *cg = e ? NULL : ws_rt_capturing(stream);
    if (!e && size == 0) *ptr = NULL;
    else if (!e && cg) e = ws_rt_capture_mem_node(cg, WS_RT_NODE_MEM_ALLOC, ptr, size);
    else if (!e) e = pool_alloc(p, ptr, size);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaMallocAsync: an allocation from the device's current pool, ordered in stream. */
WS_RT_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    WS_RT_API();
    return malloc_async(devPtr, size, current_pool, hStream);
}

cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream);
/* cudaMallocAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
    WS_RT_API();
    return malloc_async(devPtr, size, current_pool, hStream);
}

/* cudaMallocFromPoolAsync: an allocation from memPool, ordered in stream. */
WS_RT_EXPORT cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_pool *p = pool_get(memPool);
    ws_rt_unlock();
    return malloc_async(ptr, size, p, stream);
}

/* Stream-ordered free on stream: a graph free node while the stream is captured. */
static cudaError_t free_async(void *ptr, cudaStream_t stream)
{
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(stream, &s);
    ws_rt_graph *cg = e ? NULL : ws_rt_capturing(stream);
    if (!e && !ptr) e = cudaErrorInvalidValue;
    else if (!e && cg) e = ws_rt_capture_mem_node(cg, WS_RT_NODE_MEM_FREE, &ptr, 0);
    else if (!e && !ws_rt_graph_owned(ptr)) e = cudaFree(ptr);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaFreeAsync: free an allocation, ordered in stream. */
WS_RT_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    WS_RT_API();
    return free_async(devPtr, hStream);
}

cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream);
/* cudaFreeAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{
    WS_RT_API();
    return free_async(devPtr, hStream);
}

/* cudaDeviceGetDefaultMemPool: the device's default pool. */
WS_RT_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    WS_RT_API();
    if (!memPool) return ws_rt_set_error(cudaErrorInvalidValue);
    if (device != 0) return ws_rt_set_error(cudaErrorInvalidDevice);
    *memPool = (cudaMemPool_t)(void *)&default_pool;
    return cudaSuccess;
}

/* cudaDeviceGetMemPool: the device's current pool (cudaDeviceSetMemPool's, else the default one). */
WS_RT_EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    WS_RT_API();
    if (!memPool) return ws_rt_set_error(cudaErrorInvalidValue);
    if (device != 0) return ws_rt_set_error(cudaErrorInvalidDevice);
    ws_rt_lock();
    *memPool = (cudaMemPool_t)(void *)current_pool;
    ws_rt_unlock();
    return cudaSuccess;
}

/* cudaDeviceSetMemPool: the pool cudaMallocAsync allocates from. */
WS_RT_EXPORT cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    WS_RT_API();
    if (device != 0) return ws_rt_set_error(cudaErrorInvalidDevice);
    ws_rt_lock();
    ws_rt_pool *p = pool_get(memPool);
    if (p) current_pool = p;
    ws_rt_unlock();
    return p ? cudaSuccess : ws_rt_set_error(cudaErrorInvalidValue);
}

/* cudaMemPoolCreate: a pool of pinned device memory on device 0. */
WS_RT_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
    WS_RT_API();
    if (!memPool || !poolProps || poolProps->allocType != cudaMemAllocationTypePinned)
        return ws_rt_set_error(cudaErrorInvalidValue);
    if (poolProps->location.type != cudaMemLocationTypeDevice || poolProps->location.id != 0) {
        if (!ws_rt_quiet())
            fprintf(stderr, "warpsim: cudaMemPoolCreate: only pools of device 0's memory are supported\n");
        return ws_rt_set_error(poolProps->location.type == cudaMemLocationTypeDevice ? cudaErrorInvalidDevice
                                                                                     : cudaErrorNotSupported);
    }
    if (poolProps->handleTypes != cudaMemHandleTypeNone) {
        if (!ws_rt_quiet())
            fprintf(stderr, "warpsim: cudaMemPoolCreate: shareable (IPC) pool handles are not supported\n");
        return ws_rt_set_error(cudaErrorNotSupported);
    }
    ws_rt_pool *p = calloc(1, sizeof *p);
    if (!p) return ws_rt_set_error(cudaErrorMemoryAllocation);
    p->magic = WS_RT_POOL_MAGIC;
    p->props = *poolProps;
    for (int i = 0; i < 3; i++) p->reuse[i] = 1;
    ws_rt_lock();
    p->next = pools;
    pools = p;
    ws_rt_unlock();
    *memPool = (cudaMemPool_t)(void *)p;
    return cudaSuccess;
}

/* cudaMemPoolDestroy: a created pool goes (its live allocations stay valid until freed); not the default one. */
WS_RT_EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_pool *p = pool_get(memPool);
    cudaError_t e = p && p != &default_pool ? cudaSuccess : cudaErrorInvalidValue;
    if (!e) {
        for (ws_rt_pool **pp = &pools; *pp; pp = &(*pp)->next)
            if (*pp == p) { *pp = p->next; break; }
        for (ws_rt_async *a = asyncs; a; a = a->next)
            if (a->pool == p) a->pool = NULL;
        if (current_pool == p) current_pool = &default_pool;
        p->magic = 0;
        free(p);
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaMemPoolSetAttribute: the reuse flags and the release threshold; the high-water marks reset to 0. */
WS_RT_EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    WS_RT_API();
    if (!value) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_pool *p = pool_get(memPool);
    cudaError_t e = p ? cudaSuccess : cudaErrorInvalidValue;
    unsigned long long v = 0;
    if (p && attr >= cudaMemPoolAttrReleaseThreshold) memcpy(&v, value, sizeof v);
    if (p) switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: p->reuse[0] = *(int *)value != 0; break;
    case cudaMemPoolReuseAllowOpportunistic: p->reuse[1] = *(int *)value != 0; break;
    case cudaMemPoolReuseAllowInternalDependencies: p->reuse[2] = *(int *)value != 0; break;
    case cudaMemPoolAttrReleaseThreshold: p->threshold = v; break;
    case cudaMemPoolAttrReservedMemHigh: if (v) e = cudaErrorInvalidValue; else p->reserved_high = p->used; break;
    case cudaMemPoolAttrUsedMemHigh: if (v) e = cudaErrorInvalidValue; else p->used_high = p->used; break;
    default: e = cudaErrorInvalidValue; break;   /* the current counts are read-only */
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaMemPoolGetAttribute: flags, threshold, and the bytes reserved and in use (current and high-water). */
WS_RT_EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    WS_RT_API();
    if (!value) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_pool *p = pool_get(memPool);
    cudaError_t e = p ? cudaSuccess : cudaErrorInvalidValue;
    unsigned long long v = 0;
    if (p) switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: *(int *)value = p->reuse[0]; break;
    case cudaMemPoolReuseAllowOpportunistic: *(int *)value = p->reuse[1]; break;
    case cudaMemPoolReuseAllowInternalDependencies: *(int *)value = p->reuse[2]; break;
    case cudaMemPoolAttrReleaseThreshold: v = p->threshold; break;
    case cudaMemPoolAttrReservedMemCurrent: case cudaMemPoolAttrUsedMemCurrent: v = p->used; break;
    case cudaMemPoolAttrReservedMemHigh: v = p->reserved_high; break;
    case cudaMemPoolAttrUsedMemHigh: v = p->used_high; break;
    default: e = cudaErrorInvalidValue; break;
    }
    if (!e && attr >= cudaMemPoolAttrReleaseThreshold) memcpy(value, &v, sizeof v);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaMemPoolTrimTo: freed memory is already handed back. */
WS_RT_EXPORT cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    WS_RT_API();
    (void)minBytesToKeep;
    ws_rt_lock();
    ws_rt_pool *p = pool_get(memPool);
    ws_rt_unlock();
    return p ? cudaSuccess : ws_rt_set_error(cudaErrorInvalidValue);
}

/* cudaMemPoolSetAccess: device 0 always has read-write access to its pools; other devices do not exist. */
WS_RT_EXPORT cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const struct cudaMemAccessDesc *descList,
                                              size_t count)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_pool *p = pool_get(memPool);
    ws_rt_unlock();
    if (!p || (count && !descList)) return ws_rt_set_error(cudaErrorInvalidValue);
    for (size_t i = 0; i < count; i++)
        if (descList[i].location.type != cudaMemLocationTypeDevice || descList[i].location.id != 0)
            return ws_rt_set_error(cudaErrorInvalidDevice);
    return cudaSuccess;
}

/* cudaMemPoolGetAccess: read-write for device 0. */
WS_RT_EXPORT cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t memPool,
                                              struct cudaMemLocation *location)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_pool *p = pool_get(memPool);
    ws_rt_unlock();
    if (!p || !flags || !location) return ws_rt_set_error(cudaErrorInvalidValue);
    if (location->type != cudaMemLocationTypeDevice || location->id != 0) return ws_rt_set_error(cudaErrorInvalidDevice);
    *flags = cudaMemAccessFlagsProtReadWrite;
    return cudaSuccess;
}
