/* rt_memory.c - memory API: device, pinned host, managed and symbol memory; copies and fills. */
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WANT_HOST, WANT_DEVICE, WANT_ANY };

/* The GPU whose memory holds address p: the device whose address range holds it, else (host memory) g. */
static ws_gpu *owner_of(ws_gpu *g, const void *p)
{
    int d = ws_hs_device_of((uint64_t)(uintptr_t)p);
    ws_gpu *o = d >= 0 ? ws_hs_gpu_if(d) : NULL;
    return o ? o : g;
}

/* Host-usable pointer for p[0, n): the simulator's view of device memory (of whichever device holds it), or p
 * itself for host memory. NULL when p must be device memory and is not, or lies partly outside an allocation. */
static void *resolve(ws_gpu *g, const void *p, size_t n, int want)
{
    if (!p) return NULL;
    g = owner_of(g, p);
    uint64_t a = (uint64_t)(uintptr_t)p;
    uint64_t base = 0;
    size_t size = 0;
    if (ws_is_device_addr(g, a, &base, &size)) {
        /* past the bytes the program allocated is invalid, even inside the allocator's rounding (as on an H200) */
        if (a - base > size || n > size - (a - base)) return NULL;
        return ws_host_view(g, a, n);
    }
    if (want == WANT_DEVICE) return NULL;
    return (void *)p;
}

/* ---- copies and fills on the host timeline ---- */

/* operations gathered into one timeline event (the rows of a 2D/3D copy or fill) */
static _Thread_local struct {
    int depth, any, kind, stream, dir, pinned;
    uint64_t bytes;
    double t0, t1;
} batch;

/* Record a copy or fill (kind WS_REP_HK_MEMCPY / WS_REP_HK_MEMSET) on the timeline, or add it to the batch. */
static void tl_op(int kind, int stream, int dir, int pinned, uint64_t bytes, double t0, double t1)
{
    if (batch.depth) {
        if (!batch.any) {
            batch.any = 1, batch.kind = kind, batch.stream = stream, batch.dir = dir, batch.pinned = pinned;
            batch.bytes = 0;
            batch.t0 = t0;
        }
        batch.bytes += bytes;
        batch.t1 = t1;
        return;
    }
    if (kind == WS_REP_HK_MEMCPY) ws_hs_tl_copy(stream, dir, bytes, pinned, t0, t1);
    else ws_hs_tl_memset(stream, bytes, t0, t1);
}

/* Start gathering operations into one timeline event. */
void ws_rt_tl_batch_begin(void)
{
    if (ws_hs_tl_on() && batch.depth++ == 0) batch.any = 0;
}

/* Record the gathered operations as one event. */
void ws_rt_tl_batch_end(void)
{
    if (!ws_hs_tl_on() || batch.depth == 0 || --batch.depth) return;
    if (batch.any) tl_op(batch.kind, batch.stream, batch.dir, batch.pinned, batch.bytes, batch.t0, batch.t1);
}

/* The timeline's direction of a (resolved) copy kind. */
static int tl_dir(int k)
{
    return k == cudaMemcpyHostToDevice ? WS_REP_HTOD : k == cudaMemcpyDeviceToHost ? WS_REP_DTOH
         : k == cudaMemcpyDeviceToDevice ? WS_REP_DTOD : WS_REP_HTOH;
}

/* Copy count bytes as cudaMemcpy does. */
cudaError_t ws_rt_copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    if ((unsigned)kind > cudaMemcpyDefault) return cudaErrorInvalidMemcpyDirection;
    if (count == 0) return cudaSuccess;
    cudaError_t e = cudaSuccess;
    ws_gpu *g = ws_rt_gpu(&e);
    if (!g) return e;
    int wd = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice ? WANT_DEVICE
             : kind == cudaMemcpyDefault ? WANT_ANY : WANT_HOST;
    int ws = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice ? WANT_DEVICE
             : kind == cudaMemcpyDefault ? WANT_ANY : WANT_HOST;
    void *d = resolve(g, dst, count, wd);
    const void *s = resolve(g, src, count, ws);
    if (!d || !s) return cudaErrorInvalidValue;
    int tl = ws_hs_tl_on(), clk = ws_rt_clock_on();
    double t0 = tl ? ws_hs_tl_now() : 0;
    ws_gpu *gs = owner_of(g, src), *gd = owner_of(g, dst);
    ws_gpu_host_access(gs, (uint64_t)(uintptr_t)src, count, 0);   /* --check: initcheck sees host-side copies */
    memmove(d, s, count);
    ws_gpu_host_access(gd, (uint64_t)(uintptr_t)dst, count, 1);
    int sdev = ws_hs_device_of((uint64_t)(uintptr_t)src), ddev = ws_hs_device_of((uint64_t)(uintptr_t)dst);
    if (sdev >= 0 && ddev >= 0 && sdev != ddev) {
        /* between two devices' memories (cudaMemcpyPeer, or UVA's cudaMemcpy): over the peer link */
        ws_rt_stream *cs = ws_rt_clock_ctx_stream();
        if (clk) ws_hs_clock_peer(cs ? &cs->q : NULL, count, sdev, ddev, ws_rt_clock_ctx_blocking());
        double c0 = 0, c1 = 0;
        if (clk) ws_hs_clock_last(&c0, &c1);
        ws_hs_report_copy(ws_rt_stream_device(cs), WS_REP_PTOP, count, c1 - c0);
        if (tl) {
            double t1 = ws_hs_tl_now();
            if (clk) t0 = c0, t1 = c1;
            tl_op(WS_REP_HK_MEMCPY, ws_rt_stream_id(cs), WS_REP_PTOP, 0, count, t0, t1);
        }
        return cudaSuccess;
    }
    if (clk || tl || ws_hs_device_count() > 1) {
        int k = kind;
        if (k == cudaMemcpyDefault) {
            int dd = ws_is_device_addr(gd, (uint64_t)(uintptr_t)dst, NULL, NULL) && !ws_rt_clock_pinned(dst);
            int sd = ws_is_device_addr(gs, (uint64_t)(uintptr_t)src, NULL, NULL) && !ws_rt_clock_pinned(src);
            k = dd && sd ? cudaMemcpyDeviceToDevice : dd ? cudaMemcpyHostToDevice : sd ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost;
        }
        const void *host = k == cudaMemcpyHostToDevice ? src : dst;
        int pinned = ws_rt_clock_pinned(host);
        if (clk && k != cudaMemcpyHostToHost)
            ws_rt_clock_copy(ws_rt_clock_ctx_stream(), count, k, pinned, ws_rt_clock_ctx_blocking());
        double c0 = 0, c1 = 0;
        if (clk && k != cudaMemcpyHostToHost) ws_hs_clock_last(&c0, &c1);
        ws_hs_report_copy(ws_rt_stream_device(ws_rt_clock_ctx_stream()), tl_dir(k), count, c1 - c0);
        if (tl) {
            /* the simulated interval in timing mode, else the wall time of the copy */
            double t1 = ws_hs_tl_now();
            if (clk && k != cudaMemcpyHostToHost) ws_hs_clock_last(&t0, &t1);
            int host_side = k == cudaMemcpyHostToDevice || k == cudaMemcpyDeviceToHost;
            tl_op(WS_REP_HK_MEMCPY, ws_rt_stream_id(ws_rt_clock_ctx_stream()), tl_dir(k), host_side && pinned, count,
                  t0, t1);
        }
    }
    return cudaSuccess;
}

/* Fill count bytes of device (or mapped host) memory as cudaMemset does. */
cudaError_t ws_rt_fill(void *dst, int value, size_t count)
{
    if (count == 0) return cudaSuccess;
    cudaError_t e = cudaSuccess;
    ws_gpu *g = ws_rt_gpu(&e);
    if (!g) return e;
    g = owner_of(g, dst);
    uint64_t a = (uint64_t)(uintptr_t)dst, base = 0;
    size_t size = 0;
    if (!ws_is_device_addr(g, a, &base, &size) || a - base > size || count > size - (a - base))
        return cudaErrorInvalidValue;   /* only the bytes the program allocated */
    void *d = ws_host_view(g, a, count);
    if (!d) return cudaErrorInvalidValue;
    int tl = ws_hs_tl_on();
    double t0 = tl ? ws_hs_tl_now() : 0;
    memset(d, value, count);
    ws_gpu_host_access(g, (uint64_t)(uintptr_t)dst, count, 1);   /* --check: initcheck sees fills */
    if (tl) {
        /* the simulated clock does not time fills: an instant where the stream is, in timing mode */
        double t1 = ws_hs_tl_now();
        if (ws_rt_clock_on()) t0 = t1 = ws_rt_clock_event(ws_rt_clock_ctx_stream());
        tl_op(WS_REP_HK_MEMSET, ws_rt_stream_id(ws_rt_clock_ctx_stream()), 0, 0, count, t0, t1);
    }
    return cudaSuccess;
}

/* Start of a call that touches device state: lock, sticky check; the GPU in *g. */
static cudaError_t enter(int sync, ws_gpu **g)
{
    ws_rt_lock();
    cudaError_t e = ws_rt_check(sync);
    if (!e && g) *g = ws_rt_gpu(&e);
    return e;
}

/* End of such a call: unlock and record the error. */
static cudaError_t leave(cudaError_t e)
{
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaMalloc: device memory in the simulator's own address range. */
WS_RT_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    WS_RT_API();
    if (!devPtr) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_gpu *g = NULL;
    cudaError_t e = enter(1, &g);
    if (!e) {
        uint64_t addr = 0;
        if (size == 0) *devPtr = NULL;
        else if (ws_malloc(g, size, &addr) != WS_OK) e = cudaErrorMemoryAllocation;
        else {
            *devPtr = (void *)(uintptr_t)addr;
            ws_rt_g.allocated[ws_hs_current()] += size;
        }
    }
    return leave(e);
}

/* cudaMallocPitch: rows padded to 512 bytes. */
WS_RT_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    WS_RT_API();
    if (!devPtr || !pitch) return ws_rt_set_error(cudaErrorInvalidValue);
    size_t p = (width + 511) / 512 * 512;
    *pitch = p;
    return cudaMalloc(devPtr, p * height);
}

static struct ws_rt_managed *find_managed(const void *p, size_t n);

/* Forget a managed allocation record; 1 if it was one. */
static int drop_managed(void *p)
{
    for (ws_rt_managed **m = &ws_rt_g.managed; *m; m = &(*m)->next) {
        if ((*m)->ptr == p) {
            ws_rt_managed *x = *m;
            *m = x->next;
            free(x);
            return 1;
        }
    }
    return 0;
}

/* cudaFree: release device or managed memory (NULL is fine). */
WS_RT_EXPORT cudaError_t cudaFree(void *devPtr)
{
    WS_RT_API();
    ws_gpu *g = NULL;
    cudaError_t e = enter(1, &g);
    if (!e && devPtr && ws_rt_graph_owned(devPtr)) return leave(e);   /* a graph's memory: kept for the graph */
    if (!e && devPtr) {
        uint64_t a = (uint64_t)(uintptr_t)devPtr, base = 0;
        size_t size = 0;
        /* any device's memory (CUDA frees it in its own context); managed memory on the device it was made on */
        int dv = ws_hs_device_of(a);
        ws_rt_managed *mg = ws_rt_g.managed;
        while (mg && mg->ptr != devPtr) mg = mg->next;
        if (mg) dv = mg->device;
        if (dv >= 0 && ws_hs_gpu_if(dv)) g = ws_hs_gpu_if(dv);
        else dv = ws_hs_current();
        int known = ws_is_device_addr(g, a, &base, &size) && base == a;
        const ws_rt_managed *mm = find_managed(devPtr, 1);
        if (mm && mm->ptr == devPtr) ws_hs_um_free(devPtr);   /* its pages are forgotten (and readable again) */
        if (ws_free(g, a) != WS_OK) e = cudaErrorInvalidValue;
        else {
            if (known && ws_rt_g.allocated[dv] >= size) ws_rt_g.allocated[dv] -= size;
            drop_managed(devPtr);
            ws_rt_pool_forget(devPtr);
        }
    }
    return leave(e);
}

/* cudaMemGetInfo: the preset's memory minus what the program allocated. */
WS_RT_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    WS_RT_API();
    if (!free_bytes || !total) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_gpu *g = NULL;
    cudaError_t e = enter(1, &g);
    if (!e) {
        const ws_device *d = ws_gpu_device(g);
        *total = d->global_mem;
        size_t used = ws_rt_g.allocated[ws_hs_current()];
        *free_bytes = d->global_mem > used ? d->global_mem - used : 0;
    }
    return leave(e);
}

/* Host allocation record holding p, or NULL. */
static ws_rt_hostmem *find_host(const void *p)
{
    for (ws_rt_hostmem *h = ws_rt_g.hostmem; h; h = h->next)
        if ((const char *)p >= (const char *)h->ptr && (const char *)p < (const char *)h->ptr + h->size) return h;
    return NULL;
}

/* Register host memory with the device and remember it. */
static cudaError_t add_host(ws_gpu *g, void *p, size_t size, unsigned flags, int registered_only)
{
    ws_rt_hostmem *h = calloc(1, sizeof *h);
    if (!h) return cudaErrorMemoryAllocation;
    h->ptr = p;
    h->size = size;
    h->flags = flags;
    h->registered_only = registered_only;
    h->next = ws_rt_g.hostmem;
    ws_rt_g.hostmem = h;
    ws_register_host(g, p, size);
    for (int i = 0; i < ws_hs_device_count(); i++) {
        ws_gpu *o = ws_hs_gpu_if(i);   /* pinned memory is portable: every device's kernels reach it */
        if (o && o != g) ws_register_host(o, p, size);
    }
    return cudaSuccess;
}

/* Forget registered host memory on every device. */
static void unregister_all(ws_gpu *g, void *p)
{
    ws_unregister_host(g, p);
    for (int i = 0; i < ws_hs_device_count(); i++) {
        ws_gpu *o = ws_hs_gpu_if(i);
        if (o && o != g) ws_unregister_host(o, p);
    }
}

/* Re-register all pinned host memory with a newly created GPU (after cudaDeviceReset). */
void ws_rt_reregister_host(ws_gpu *g)
{
    for (ws_rt_hostmem *h = ws_rt_g.hostmem; h; h = h->next) ws_register_host(g, h->ptr, h->size);
}

/* cudaHostAlloc: page-locked host memory, also addressable by kernels at the same address. */
WS_RT_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    WS_RT_API();
    if (!pHost) return ws_rt_set_error(cudaErrorInvalidValue);
    if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
        return ws_rt_set_error(cudaErrorInvalidValue);
    ws_gpu *g = NULL;
    cudaError_t e = enter(1, &g);
    if (!e) {
        *pHost = NULL;
        if (size) {
            void *p = NULL;
            /* at a fixed address (src/mem/hostwin.h), so that timing runs repeat bit for bit */
            if (!(p = ws_pinned_alloc(size))) e = cudaErrorMemoryAllocation;
            else if ((e = add_host(g, p, size, flags, 0)) != cudaSuccess) ws_pinned_free(p);
            else *pHost = p;
        }
    }
    return leave(e);
}

/* cudaMallocHost: cudaHostAlloc with default flags. */
WS_RT_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    WS_RT_API();
    return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

/* cudaFreeHost: release memory from cudaMallocHost / cudaHostAlloc. */
WS_RT_EXPORT cudaError_t cudaFreeHost(void *ptr)
{
    WS_RT_API();
    ws_gpu *g = NULL;
    cudaError_t e = enter(1, &g);
    if (!e && ptr) {
        ws_rt_hostmem **pp = &ws_rt_g.hostmem;
        while (*pp && !((*pp)->ptr == ptr && !(*pp)->registered_only)) pp = &(*pp)->next;
        if (!*pp) e = cudaErrorInvalidValue;
        else {
            ws_rt_hostmem *h = *pp;
            *pp = h->next;
            unregister_all(g, h->ptr);
            ws_pinned_free(h->ptr);
            free(h);
        }
    }
    return leave(e);
}

/* cudaHostRegister: make existing host memory visible to kernels. */
WS_RT_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    WS_RT_API();
    if (!ptr || !size) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_gpu *g = NULL;
    cudaError_t e = enter(1, &g);
    if (!e) {
        if (find_host(ptr) || find_host((char *)ptr + size - 1)) e = cudaErrorHostMemoryAlreadyRegistered;
        else e = add_host(g, ptr, size, flags, 1);
    }
    return leave(e);
}

/* cudaHostUnregister: undo cudaHostRegister. */
WS_RT_EXPORT cudaError_t cudaHostUnregister(void *ptr)
{
    WS_RT_API();
    ws_gpu *g = NULL;
    cudaError_t e = enter(1, &g);
    if (!e) {
        ws_rt_hostmem **pp = &ws_rt_g.hostmem;
        while (*pp && !((*pp)->ptr == ptr && (*pp)->registered_only)) pp = &(*pp)->next;
        if (!*pp) e = cudaErrorHostMemoryNotRegistered;
        else {
            ws_rt_hostmem *h = *pp;
            *pp = h->next;
            unregister_all(g, h->ptr);
            free(h);
        }
    }
    return leave(e);
}

/* cudaHostGetDevicePointer: pinned memory has the same address on the device. */
WS_RT_EXPORT cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    WS_RT_API();
    if (!pDevice || flags) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_gpu *g = NULL;
    cudaError_t e = enter(0, &g);
    if (!e) {
        if (find_host(pHost)) *pDevice = pHost;
        else e = cudaErrorInvalidValue;
    }
    return leave(e);
}

/* cudaHostGetFlags: flags of a pinned allocation. */
WS_RT_EXPORT cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    WS_RT_API();
    if (!pFlags) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_hostmem *h = find_host(pHost);
    if (h) *pFlags = h->flags;
    ws_rt_unlock();
    return h ? cudaSuccess : ws_rt_set_error(cudaErrorInvalidValue);
}

/* cudaMallocManaged: memory with the same address and bytes on host and device. */
WS_RT_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    WS_RT_API();
    if (!devPtr || size == 0 || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        return ws_rt_set_error(cudaErrorInvalidValue);
    ws_gpu *g = NULL;
    cudaError_t e = enter(1, &g);
    if (!e) {
        void *p = NULL;
        ws_rt_managed *m = calloc(1, sizeof *m);
        if (!m || ws_malloc_managed(g, size, &p) != WS_OK || !p) {
            free(m);
            e = cudaErrorMemoryAllocation;
        } else {
            m->ptr = p;
            m->size = size;
            m->device = ws_hs_current();
            m->next = ws_rt_g.managed;
            ws_rt_g.managed = m;
            ws_rt_g.allocated[m->device] += size;
            ws_hs_um_alloc(p, size);   /* its pages (timing mode: migrations) */
            *devPtr = p;
        }
    }
    return leave(e);
}

/* Managed allocation holding p[0, n), or NULL. */
static struct ws_rt_managed *find_managed(const void *p, size_t n)
{
    for (ws_rt_managed *m = ws_rt_g.managed; m; m = m->next) {
        const char *b = m->ptr, *c = p;
        if (c >= b && c < b + m->size && n <= (size_t)(b + m->size - c)) return m;
    }
    return NULL;
}

/* cudaPointerGetAttributes: what kind of memory a pointer points to. */
WS_RT_EXPORT cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    WS_RT_API();
    if (!attributes) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_gpu *g = NULL;
    cudaError_t e = enter(0, &g);
    if (!e) {
        memset(attributes, 0, sizeof *attributes);
        uint64_t base = 0;
        size_t size = 0;
        attributes->device = ws_hs_current();
        ws_rt_managed *mg = ptr ? find_managed(ptr, 1) : NULL;
        int dv = ptr ? ws_hs_device_of((uint64_t)(uintptr_t)ptr) : -1;
        if (dv >= 0 && ws_hs_gpu_if(dv)) g = ws_hs_gpu_if(dv);
        if (mg) {
            attributes->device = mg->device;
            attributes->type = cudaMemoryTypeManaged;
            attributes->devicePointer = attributes->hostPointer = (void *)ptr;
        } else if (ptr && find_host(ptr)) {
            attributes->type = cudaMemoryTypeHost;
            attributes->devicePointer = attributes->hostPointer = (void *)ptr;
        } else if (ptr && ws_is_device_addr(g, (uint64_t)(uintptr_t)ptr, &base, &size)) {
            attributes->device = dv >= 0 ? dv : ws_hs_current();
            attributes->type = cudaMemoryTypeDevice;
            attributes->devicePointer = (void *)ptr;
        } else {
            attributes->type = cudaMemoryTypeUnregistered;
            attributes->device = cudaInvalidDeviceId;
            attributes->hostPointer = (void *)ptr;
        }
    }
    return leave(e);
}

/* ---- copies and fills ---- */

/* Synchronous copy. */
static cudaError_t copy_sync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    cudaError_t e = enter(1, NULL);
    ws_rt_clock_ctx(NULL, 0, 1);
    if (!e) e = ws_rt_copy(dst, src, count, kind);
    return leave(e);
}

/* Copy or fill enqueued on a stream: recorded when the stream is capturing, else done now. */
static cudaError_t stream_op(int kind, void *dst, const void *src, int value, size_t count,
                             enum cudaMemcpyKind ck, cudaStream_t stream)
{
    if (kind == WS_RT_NODE_MEMCPY && (unsigned)ck > cudaMemcpyDefault)
        return ws_rt_set_error(cudaErrorInvalidMemcpyDirection);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_check(0);
    if (!e) e = ws_rt_stream_get(stream, &s);
    if (!e) {
        ws_rt_graph *cg = ws_rt_capturing(stream);
        if (cg) {
            ws_rt_node *n = ws_rt_graph_add(cg, kind);
            if (!n) e = cudaErrorMemoryAllocation;
            else {
                n->dst = dst;
                n->src = src;
                n->value = value;
                n->count = count;
                n->copy_kind = ck;
            }
        } else if (!ws_hs_fault_pending()) {
            ws_rt_clock_ctx(s, 0, 0);
            e = kind == WS_RT_NODE_MEMCPY ? ws_rt_copy(dst, src, count, ck) : ws_rt_fill(dst, value, count);
            ws_rt_clock_ctx(NULL, 0, 1);
        }
    }
    return leave(e);
}

/* cudaMemcpy: synchronous copy in any direction. */
WS_RT_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return copy_sync(dst, src, count, kind);
}

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
/* cudaMemcpy_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return copy_sync(dst, src, count, kind);
}

/* cudaMemcpyAsync: a copy enqueued on a stream. */
WS_RT_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                         cudaStream_t stream)
{
    WS_RT_API();
    return stream_op(WS_RT_NODE_MEMCPY, dst, src, 0, count, kind, stream);
}

cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                 cudaStream_t stream);
/* cudaMemcpyAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                              cudaStream_t stream)
{
    WS_RT_API();
    return stream_op(WS_RT_NODE_MEMCPY, dst, src, 0, count, kind, stream);
}

/* Check cudaMemcpyPeer's devices and that each pointer is that device's memory (both GPUs then exist). */
static cudaError_t peer_args(void *dst, int dstDevice, const void *src, int srcDevice)
{
    int n = ws_hs_device_count();
    if (!n) return cudaErrorNoDevice;
    if (dstDevice < 0 || dstDevice >= n || srcDevice < 0 || srcDevice >= n) return cudaErrorInvalidDevice;
    ws_rt_lock();
    int err = 0;
    cudaError_t e = cudaSuccess;
    if (!ws_hs_gpu_at(dstDevice, &err) || !ws_hs_gpu_at(srcDevice, &err)) e = (cudaError_t)err;
    else if (ws_hs_device_of((uint64_t)(uintptr_t)dst) != dstDevice ||
             ws_hs_device_of((uint64_t)(uintptr_t)src) != srcDevice)
        e = cudaErrorInvalidValue;   /* a pointer that is not memory of the device named */
    ws_rt_unlock();
    return e;
}

/* cudaMemcpyPeer: copy from srcDevice's memory to dstDevice's (over the peer link; needs no peer access). */
WS_RT_EXPORT cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    WS_RT_API();
    if (!count) return cudaSuccess;
    cudaError_t e = peer_args(dst, dstDevice, src, srcDevice);
    if (e) return ws_rt_set_error(e);
    return copy_sync(dst, src, count, cudaMemcpyDeviceToDevice);
}

/* cudaMemcpyPeerAsync: cudaMemcpyPeer enqueued on a stream. */
WS_RT_EXPORT cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                             cudaStream_t stream)
{
    WS_RT_API();
    if (!count) return cudaSuccess;
    cudaError_t e = peer_args(dst, dstDevice, src, srcDevice);
    if (e) return ws_rt_set_error(e);
    return stream_op(WS_RT_NODE_MEMCPY, dst, src, 0, count, cudaMemcpyDeviceToDevice, stream);
}

/* Copy a 2D region row by row. */
static cudaError_t copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                           enum cudaMemcpyKind kind)
{
    if (width > dpitch || width > spitch) return cudaErrorInvalidPitchValue;
    cudaError_t e = cudaSuccess;
    ws_rt_tl_batch_begin();   /* one copy on the timeline */
    for (size_t r = 0; !e && r < height; r++)
        e = ws_rt_copy((char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind);
    ws_rt_tl_batch_end();
    return e;
}

/* cudaMemcpy2D: synchronous pitched copy. */
WS_RT_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                      size_t height, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    cudaError_t e = enter(1, NULL);
    if (!e) e = copy_2d(dst, dpitch, src, spitch, width, height, kind);
    return leave(e);
}

/* cudaMemcpy2DAsync: pitched copy on a stream (done at once, in its order; not recorded by stream capture). */
WS_RT_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                           size_t height, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_check(0);
    if (!e) e = ws_rt_stream_get(stream, &s);
    if (!e && ws_rt_capturing(stream)) e = cudaErrorStreamCaptureUnsupported;
    if (!e && !ws_hs_fault_pending()) {
        ws_rt_clock_ctx(s, 0, 0);   /* asynchronous, in the stream's order */
        e = copy_2d(dst, dpitch, src, spitch, width, height, kind);
        ws_rt_clock_ctx(NULL, 0, 1);
    }
    return leave(e);
}

/* cudaMemset: synchronous fill of device memory. */
WS_RT_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    WS_RT_API();
    cudaError_t e = enter(1, NULL);
    if (!e) e = ws_rt_fill(devPtr, value, count);
    return leave(e);
}

cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
/* cudaMemset_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
    WS_RT_API();
    return cudaMemset(devPtr, value, count);
}

/* cudaMemsetAsync: a fill enqueued on a stream. */
WS_RT_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    WS_RT_API();
    return stream_op(WS_RT_NODE_MEMSET, devPtr, NULL, value, count, cudaMemcpyDefault, stream);
}

cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream);
/* cudaMemsetAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    WS_RT_API();
    return stream_op(WS_RT_NODE_MEMSET, devPtr, NULL, value, count, cudaMemcpyDefault, stream);
}

/* cudaMemset2D: pitched fill. */
WS_RT_EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    WS_RT_API();
    if (width > pitch) return ws_rt_set_error(cudaErrorInvalidPitchValue);
    cudaError_t e = enter(1, NULL);
    ws_rt_tl_batch_begin();   /* one fill on the timeline */
    for (size_t r = 0; !e && r < height; r++) e = ws_rt_fill((char *)devPtr + r * pitch, value, width);
    ws_rt_tl_batch_end();
    return leave(e);
}

/* ---- symbols ---- */

/* Device address of symbol + offset for count bytes. */
static cudaError_t symbol_range(const void *symbol, size_t count, size_t offset, void **addr)
{
    ws_rt_var *v = ws_rt_find_var(symbol);
    if (!v) return cudaErrorInvalidSymbol;
    uint64_t a = 0;
    cudaError_t e = ws_rt_var_addr(v, &a);
    if (e) return e;
    if (offset > v->size || count > v->size - offset) return cudaErrorInvalidValue;
    *addr = (void *)(uintptr_t)(a + offset);
    return cudaSuccess;
}

/* Shared body of the four symbol copies. */
static cudaError_t symbol_copy(int to, const void *symbol, void *hostside, size_t count, size_t offset,
                               enum cudaMemcpyKind kind, int async, cudaStream_t stream)
{
    int ok = to ? (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault)
                : (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault);
    if (!ok) return ws_rt_set_error(cudaErrorInvalidMemcpyDirection);
    ws_rt_lock();
    cudaError_t e = ws_rt_check(!async);
    void *addr = NULL;
    if (!e) e = symbol_range(symbol, count, offset, &addr);
    ws_rt_unlock();
    if (e) return ws_rt_set_error(e);
    if (async)
        return to ? stream_op(WS_RT_NODE_MEMCPY, addr, hostside, 0, count, kind, stream)
                  : stream_op(WS_RT_NODE_MEMCPY, hostside, addr, 0, count, kind, stream);
    return to ? copy_sync(addr, hostside, count, kind) : copy_sync(hostside, addr, count, kind);
}

/* cudaMemcpyToSymbol: copy into a __device__ / __constant__ variable. */
WS_RT_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                                            enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return symbol_copy(1, symbol, (void *)src, count, offset, kind, 0, NULL);
}

cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset,
                                    enum cudaMemcpyKind kind);
/* cudaMemcpyToSymbol_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count, size_t offset,
                                                 enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return symbol_copy(1, symbol, (void *)src, count, offset, kind, 0, NULL);
}

/* cudaMemcpyFromSymbol: copy out of a __device__ / __constant__ variable. */
WS_RT_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                              enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return symbol_copy(0, symbol, dst, count, offset, kind, 0, NULL);
}

cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum cudaMemcpyKind kind);
/* cudaMemcpyFromSymbol_ptds: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count, size_t offset,
                                                   enum cudaMemcpyKind kind)
{
    WS_RT_API();
    return symbol_copy(0, symbol, dst, count, offset, kind, 0, NULL);
}

/* cudaMemcpyToSymbolAsync: stream-ordered copy into a variable. */
WS_RT_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    return symbol_copy(1, symbol, (void *)src, count, offset, kind, 1, stream);
}

cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count, size_t offset,
                                         enum cudaMemcpyKind kind, cudaStream_t stream);
/* cudaMemcpyToSymbolAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src, size_t count,
                                                      size_t offset, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    return symbol_copy(1, symbol, (void *)src, count, offset, kind, 1, stream);
}

/* cudaMemcpyFromSymbolAsync: stream-ordered copy out of a variable. */
WS_RT_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                                   enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    return symbol_copy(0, symbol, dst, count, offset, kind, 1, stream);
}

cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset,
                                           enum cudaMemcpyKind kind, cudaStream_t stream);
/* cudaMemcpyFromSymbolAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count, size_t offset,
                                                        enum cudaMemcpyKind kind, cudaStream_t stream)
{
    WS_RT_API();
    return symbol_copy(0, symbol, dst, count, offset, kind, 1, stream);
}

/* cudaGetSymbolAddress: device address of a variable. */
WS_RT_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    WS_RT_API();
    if (!devPtr) return ws_rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = enter(0, NULL);
    if (!e) e = symbol_range(symbol, 0, 0, devPtr);
    return leave(e);
}

/* cudaGetSymbolSize: size of a variable. */
WS_RT_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    WS_RT_API();
    if (!size) return ws_rt_set_error(cudaErrorInvalidValue);
    cudaError_t e = enter(0, NULL);
    void *addr = NULL;
    if (!e) e = symbol_range(symbol, 0, 0, &addr);
    if (!e) *size = ws_rt_find_var(symbol)->size;
    return leave(e);
}

/* ---- unified memory hints ---- */

/* Check a memory location argument (device 0 or the host). */
static cudaError_t check_location(struct cudaMemLocation loc)
{
    switch (loc.type) {
    case cudaMemLocationTypeDevice: return loc.id == 0 ? cudaSuccess : cudaErrorInvalidDevice;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma:
    case cudaMemLocationTypeHostNumaCurrent: return cudaSuccess;
    default: return cudaErrorInvalidValue;
    }
}

/* cudaMemPrefetchAsync: the pages move to the device or the host now; in timing mode the transfer takes its time
 * on the stream (src/host/hs_um.c). */
WS_RT_EXPORT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                              unsigned int flags, cudaStream_t stream)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_check(0);
    if (!e) e = ws_rt_stream_get(stream, &s);
    if (!e && flags) e = cudaErrorInvalidValue;
    if (!e && (!devPtr || !count || !find_managed(devPtr, count))) e = cudaErrorInvalidValue;
    if (!e) e = check_location(location);
    if (!e) ws_hs_um_prefetch(devPtr, count, location.type == cudaMemLocationTypeDevice, s ? &s->q : NULL,
                              ws_rt_stream_id(s));
    return leave(e);
}

cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                      unsigned int flags, cudaStream_t stream);
/* cudaMemPrefetchAsync_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                                   unsigned int flags, cudaStream_t stream)
{
    WS_RT_API();
    return cudaMemPrefetchAsync(devPtr, count, location, flags, stream);
}

/* cudaMemAdvise: the advice goes on the pages (src/mem/um.h): read-mostly duplicates on reads, a preferred
 * location (the host: GPU faults map instead of migrating), accessed-by (GPU accesses cross the link). */
WS_RT_EXPORT cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                       struct cudaMemLocation location)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = ws_rt_check(0);
    if (!e && (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy)) e = cudaErrorInvalidValue;
    if (!e && (!devPtr || !count || !find_managed(devPtr, count))) e = cudaErrorInvalidValue;
    if (!e && advice != cudaMemAdviseSetReadMostly && advice != cudaMemAdviseUnsetReadMostly)
        e = check_location(location);
    if (!e) {
        int dev = location.type == cudaMemLocationTypeDevice;
        switch (advice) {
        case cudaMemAdviseSetReadMostly: ws_hs_um_advise(devPtr, count, WS_HS_UM_READ_MOSTLY, 1); break;
        case cudaMemAdviseUnsetReadMostly: ws_hs_um_advise(devPtr, count, WS_HS_UM_READ_MOSTLY, 0); break;
        case cudaMemAdviseSetPreferredLocation:
            ws_hs_um_advise(devPtr, count, dev ? WS_HS_UM_PREFER_HOST : WS_HS_UM_PREFER_DEVICE, 0);
            ws_hs_um_advise(devPtr, count, dev ? WS_HS_UM_PREFER_DEVICE : WS_HS_UM_PREFER_HOST, 1);
            break;
        case cudaMemAdviseUnsetPreferredLocation:
            ws_hs_um_advise(devPtr, count, WS_HS_UM_PREFER_DEVICE, 0);
            ws_hs_um_advise(devPtr, count, WS_HS_UM_PREFER_HOST, 0);
            break;
        case cudaMemAdviseSetAccessedBy: if (dev) ws_hs_um_advise(devPtr, count, WS_HS_UM_ACCESSED_BY, 1); break;
        case cudaMemAdviseUnsetAccessedBy: if (dev) ws_hs_um_advise(devPtr, count, WS_HS_UM_ACCESSED_BY, 0); break;
        default: break;
        }
    }
    return leave(e);
}

/* One attribute of a managed range from its pages' advice; cudaErrorNotSupported for the prefetch locations. */
static cudaError_t range_attribute(void *data, size_t size, enum cudaMemRangeAttribute attr, const void *p, size_t n)
{
    if (!data || !size) return cudaErrorInvalidValue;
    switch (attr) {
    case cudaMemRangeAttributeReadMostly:
        if (size < sizeof(int)) return cudaErrorInvalidValue;
        *(int *)data = ws_hs_um_range_has(p, n, WS_HS_UM_READ_MOSTLY) == 1;
        return cudaSuccess;
    case cudaMemRangeAttributePreferredLocation:
        if (size < sizeof(int)) return cudaErrorInvalidValue;
        *(int *)data = ws_hs_um_range_has(p, n, WS_HS_UM_PREFER_DEVICE) == 1 ? 0
                     : ws_hs_um_range_has(p, n, WS_HS_UM_PREFER_HOST) == 1 ? cudaCpuDeviceId : cudaInvalidDeviceId;
        return cudaSuccess;
    case cudaMemRangeAttributeAccessedBy: {
        if (size % sizeof(int)) return cudaErrorInvalidValue;
        int *d = data;
        size_t k = 0;
        if (ws_hs_um_range_has(p, n, WS_HS_UM_ACCESSED_BY) == 1) d[k++] = 0;
        while (k < size / sizeof(int)) d[k++] = cudaInvalidDeviceId;
        return cudaSuccess;
    }
    default:
        fprintf(stderr, "warpsim: cudaMemRangeGetAttribute: attribute %d (a prefetch location or a location type) is "
                        "not supported by the simulator\n", (int)attr);
        return cudaErrorNotSupported;
    }
}

/* cudaMemRangeGetAttribute: read-mostly, preferred location and accessed-by of a managed range. */
WS_RT_EXPORT cudaError_t cudaMemRangeGetAttribute(void *data, size_t dataSize, enum cudaMemRangeAttribute attribute,
                                                  const void *devPtr, size_t count)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = ws_rt_check(0);
    if (!e && (!devPtr || !count || !find_managed(devPtr, count))) e = cudaErrorInvalidValue;
    if (!e) e = range_attribute(data, dataSize, attribute, devPtr, count);
    return leave(e);
}

/* cudaMemRangeGetAttributes: several attributes of a managed range. */
WS_RT_EXPORT cudaError_t cudaMemRangeGetAttributes(void **data, size_t *dataSizes, enum cudaMemRangeAttribute *attributes,
                                                   size_t numAttributes, const void *devPtr, size_t count)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = ws_rt_check(0);
    if (!e && (!data || !dataSizes || !attributes || !numAttributes)) e = cudaErrorInvalidValue;
    if (!e && (!devPtr || !count || !find_managed(devPtr, count))) e = cudaErrorInvalidValue;
    for (size_t i = 0; !e && i < numAttributes; i++) e = range_attribute(data[i], dataSizes[i], attributes[i], devPtr, count);
    return leave(e);
}

/* cudaStreamAttachMemAsync: validated no-op. */
WS_RT_EXPORT cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                                  unsigned int flags)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_check(0);
    if (!e) e = ws_rt_stream_get(stream, &s);
    if (!e && (!devPtr || !find_managed(devPtr, length ? length : 1))) e = cudaErrorInvalidValue;
    if (!e && flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle)
        e = cudaErrorInvalidValue;
    return leave(e);
}
