/* rt_graph.c - CUDA graphs: stream capture, explicit construction of simple graphs, instantiation and launch.
 * A graph is a list of nodes in the order they were added; since every dependency must exist before a node
 * that depends on it, that order is a valid topological order and nodes run one after another. */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

/* Register a new empty graph (or executable graph) object. */
static ws_rt_graph *graph_new(uint32_t magic)
{
    ws_rt_graph *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->magic = magic;
    g->next = ws_rt_g.graphs;
    ws_rt_g.graphs = g;
    return g;
}

/* Validate a graph handle of the given kind. */
static ws_rt_graph *graph_get(const void *h, uint32_t magic)
{
    for (ws_rt_graph *g = ws_rt_g.graphs; g; g = g->next)
        if ((const void *)g == h && g->magic == magic) return g;
    return NULL;
}

/* Free a node and its argument copies. */
static void node_free(ws_rt_node *n)
{
    if (!n) return;
    free(n->argbuf);
    free(n->args);
    free(n);
}

/* Unregister and free a graph with its nodes. */
static void graph_free(ws_rt_graph *g)
{
    for (ws_rt_graph **pp = &ws_rt_g.graphs; *pp; pp = &(*pp)->next) {
        if (*pp == g) {
            *pp = g->next;
            break;
        }
    }
    for (int i = 0; i < g->n; i++) node_free(g->nodes[i]);
    free(g->nodes);
    g->magic = 0;
    free(g);
}

/* Append a new node of a kind. */
ws_rt_node *ws_rt_graph_add(ws_rt_graph *g, int kind)
{
    if (g->n == g->cap) {
        int cap = g->cap ? g->cap * 2 : 16;
        ws_rt_node **nn = realloc(g->nodes, (size_t)cap * sizeof *nn);
        if (!nn) return NULL;
        g->nodes = nn;
        g->cap = cap;
    }
    ws_rt_node *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    n->kind = kind;
    n->index = g->n;
    n->graph = g;
    g->nodes[g->n++] = n;
    return n;
}

/* Copy a kernel's argument values into a node. */
cudaError_t ws_rt_node_set_args(ws_rt_node *n, ws_rt_func *f, void **args)
{
    ws_kernel_info info;
    ws_kernel_get_info(f->kernel, &info);
    if (info.nparams > 0 && !args) return cudaErrorInvalidValue;
    size_t total = 0;
    for (int i = 0; i < info.nparams; i++) total += (info.param_size[i] + 7) & ~(size_t)7;
    unsigned char *buf = malloc(total ? total : 1);
    void **ptrs = malloc((size_t)(info.nparams ? info.nparams : 1) * sizeof *ptrs);
    if (!buf || !ptrs) {
        free(buf);
        free(ptrs);
        return cudaErrorMemoryAllocation;
    }
    size_t off = 0;
    for (int i = 0; i < info.nparams; i++) {
        memcpy(buf + off, args[i], info.param_size[i]);
        ptrs[i] = buf + off;
        off += (info.param_size[i] + 7) & ~(size_t)7;
    }
    free(n->argbuf);
    free(n->args);
    n->argbuf = buf;
    n->args = ptrs;
    n->nargs = info.nparams;
    n->argbytes = total;
    n->func = f;
    return cudaSuccess;
}

/* Append a deep copy of node src to graph g. */
static ws_rt_node *node_clone(ws_rt_graph *g, const ws_rt_node *src)
{
    ws_rt_node *n = ws_rt_graph_add(g, src->kind);
    if (!n) return NULL;
    int index = n->index;
    *n = *src;
    n->index = index;
    n->graph = g;
    n->argbuf = NULL;
    n->args = NULL;
    if (src->kind == WS_RT_NODE_KERNEL && src->args) {
        n->argbuf = malloc(src->argbytes ? src->argbytes : 1);
        n->args = malloc((size_t)(src->nargs ? src->nargs : 1) * sizeof *n->args);
        if (!n->argbuf || !n->args) return NULL; /* freed with the graph */
        memcpy(n->argbuf, src->argbuf, src->argbytes);
        for (int i = 0; i < src->nargs; i++)
            n->args[i] = n->argbuf + ((unsigned char *)src->args[i] - src->argbuf);
    }
    return n;
}

/* Where host work of a node on s starts on the timeline (where the stream is, in timing mode). */
static double host_node_time(ws_rt_stream *s)
{
    if (!ws_hs_tl_on()) return 0;
    return ws_rt_clock_on() ? ws_rt_clock_event(s) : ws_hs_tl_now();
}

/* A host node (static name) on s that started at t0 is done: record it on the timeline. */
static void host_node_done(ws_rt_stream *s, const char *name, double t0)
{
    if (ws_hs_tl_on()) ws_hs_tl_callback(ws_rt_stream_id(s), name, t0, ws_rt_clock_on() ? t0 : ws_hs_tl_now());
}

/* Run one node now, in the order of stream (s: its object, NULL for a default stream). */
static cudaError_t node_run(ws_rt_node *n, cudaStream_t stream, ws_rt_stream *s)
{
    cudaError_t e = cudaSuccess;
    double t0;
    switch (n->kind) {
    case WS_RT_NODE_KERNEL:
        if (ws_hs_fault_pending()) return cudaSuccess;
        /* on the graph's stream, at a graph's cheaper launch cost */
        ws_rt_clock_ctx(s, ws_gpu_device(ws_hs_current_gpu())->graph_launch_us * 1e-6, 0);
        ws_rt_lattr la = { n->coop, n->cluster };
        e = ws_rt_run_kernel(n->func, n->grid, n->block, n->args, n->smem, &la);
        ws_rt_clock_ctx(NULL, 0, 1);
        return e;
    case WS_RT_NODE_MEMCPY:
    case WS_RT_NODE_MEMSET:
        if (ws_hs_fault_pending()) return cudaSuccess;
        ws_rt_clock_ctx(s, 0, 0);   /* asynchronous, in the graph's stream */
        e = n->kind == WS_RT_NODE_MEMCPY ? ws_rt_copy(n->dst, n->src, n->count, n->copy_kind)
                                         : ws_rt_fill(n->dst, n->value, n->count);
        ws_rt_clock_ctx(NULL, 0, 1);
        return e;
    case WS_RT_NODE_HOST:
        if (ws_hs_fault_pending()) return cudaSuccess;
        t0 = host_node_time(s);
        n->host_fn(n->user);
        host_node_done(s, "host function", t0);
        return cudaSuccess;
    case WS_RT_NODE_CALLBACK:
        t0 = host_node_time(s);
        n->callback(stream, (cudaError_t)ws_hs_fault_pending(), n->user);
        host_node_done(s, "stream callback", t0);
        return cudaSuccess;
    case WS_RT_NODE_MEM_ALLOC:   /* the memory was allocated with the node and is kept for the graph */
        return cudaSuccess;
    case WS_RT_NODE_MEM_FREE:    /* a graph's own allocation stays reserved for it; others are freed now */
        return ws_rt_graph_owned(n->dst) ? cudaSuccess : cudaFree(n->dst);
    case WS_RT_NODE_EVENT_RECORD:
        for (ws_rt_event *ev = ws_rt_g.events; ev; ev = ev->next) /* the event may be gone by now */
            if (ev == n->event) {
                ev->recorded = 1;
                ev->capture = NULL;
                ev->t = ws_rt_clock_on() ? ws_rt_clock_event(s) : ws_rt_now();   /* the clock of cudaEventRecord */
                if (ws_hs_tl_on())
                    ws_hs_tl_event(ws_rt_stream_id(s), "event record", ws_rt_clock_on() ? ev->t : ws_hs_tl_now());
            }
        return cudaSuccess;
    default:
        return cudaSuccess;
    }
}

/* ---- stream capture ---- */

/* Begin capturing a stream's work into a new graph. */
static cudaError_t begin_capture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    if ((unsigned)mode > cudaStreamCaptureModeRelaxed) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_check(0);
    if (!e) e = ws_rt_stream_get(stream, &s);
    if (!e && !s) e = cudaErrorStreamCaptureUnsupported; /* the legacy stream cannot be captured */
    if (!e && s->capture) e = cudaErrorIllegalState;
    if (!e) {
        ws_rt_graph *g = graph_new(WS_RT_GRAPH_MAGIC);
        if (!g) e = cudaErrorMemoryAllocation;
        else {
            s->capture = g;
            s->capture_origin = 1;
            s->capture_mode = mode;
            s->capture_id = ++ws_rt_g.next_capture_id;
        }
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaStreamBeginCapture: start recording a stream's work. */
WS_RT_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    WS_RT_API();
    return begin_capture(stream, mode);
}

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode);
/* cudaStreamBeginCapture_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    WS_RT_API();
    return begin_capture(stream, mode);
}

/* End a capture: every stream that joined it stops capturing; the graph goes to *pGraph. */
static cudaError_t end_capture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    if (!pGraph) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(stream, &s);
    if (!e && (!s || !s->capture)) e = cudaErrorIllegalState;
    if (!e && !s->capture_origin) e = cudaErrorStreamCaptureUnmatched;
    if (!e) {
        ws_rt_graph *g = s->capture;
        for (ws_rt_stream *x = ws_rt_g.streams; x; x = x->next)
            if (x->capture == g) {
                x->capture = NULL;
                x->capture_origin = 0;
            }
        for (ws_rt_event *ev = ws_rt_g.events; ev; ev = ev->next)
            if (ev->capture == g) ev->capture = NULL;
        if (g->invalidated) {
            graph_free(g);
            *pGraph = NULL;
            e = cudaErrorStreamCaptureInvalidated;
        } else {
            *pGraph = (cudaGraph_t)g;
        }
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaStreamEndCapture: stop recording and return the graph. */
WS_RT_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    WS_RT_API();
    return end_capture(stream, pGraph);
}

cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph);
/* cudaStreamEndCapture_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
    WS_RT_API();
    return end_capture(stream, pGraph);
}

/* Capture status of a stream. */
static cudaError_t capture_status(cudaStream_t stream, enum cudaStreamCaptureStatus *st, ws_rt_stream **sp)
{
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(stream, &s);
    if (e) return e;
    *sp = s;
    if (!s || !s->capture) *st = cudaStreamCaptureStatusNone;
    else *st = s->capture->invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
    return cudaSuccess;
}

/* cudaStreamIsCapturing: whether a stream is recording. */
WS_RT_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    WS_RT_API();
    if (!pCaptureStatus) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = capture_status(stream, pCaptureStatus, &s);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
/* cudaStreamIsCapturing_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    WS_RT_API();
    return cudaStreamIsCapturing(stream, pCaptureStatus);
}

/* cudaStreamGetCaptureInfo: status, id, graph and the last captured node as the dependency set. */
WS_RT_EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                                  unsigned long long *id_out, cudaGraph_t *graph_out,
                                                  const cudaGraphNode_t **dependencies_out,
                                                  const cudaGraphEdgeData **edgeData_out,
                                                  size_t *numDependencies_out)
{
    WS_RT_API();
    if (!captureStatus_out) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = capture_status(stream, captureStatus_out, &s);
    if (!e) {
        int active = s && s->capture;
        if (id_out) *id_out = active ? s->capture_id : 0;
        if (graph_out) *graph_out = active ? (cudaGraph_t)s->capture : NULL;
        if (dependencies_out)
            *dependencies_out = active && s->capture->n ? (const cudaGraphNode_t *)&s->capture->nodes[s->capture->n - 1]
                                                        : NULL;
        if (edgeData_out) *edgeData_out = NULL;
        if (numDependencies_out) *numDependencies_out = active && s->capture->n ? 1 : 0;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                          unsigned long long *id_out, cudaGraph_t *graph_out,
                                          const cudaGraphNode_t **dependencies_out,
                                          const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out);
/* cudaStreamGetCaptureInfo_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                                       enum cudaStreamCaptureStatus *captureStatus_out,
                                                       unsigned long long *id_out, cudaGraph_t *graph_out,
                                                       const cudaGraphNode_t **dependencies_out,
                                                       const cudaGraphEdgeData **edgeData_out,
                                                       size_t *numDependencies_out)
{
    WS_RT_API();
    return cudaStreamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out,
                                    numDependencies_out);
}

/* ---- graphs ---- */

/* cudaGraphCreate: an empty graph for explicit construction. */
WS_RT_EXPORT cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    WS_RT_API();
    if (!pGraph || flags) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_graph *g = graph_new(WS_RT_GRAPH_MAGIC);
    ws_rt_unlock();
    if (!g) return ws_rt_set_error(cudaErrorMemoryAllocation);
    *pGraph = (cudaGraph_t)g;
    return cudaSuccess;
}

/* Check the dependency list of a node being added to g. */
static cudaError_t check_deps(ws_rt_graph *g, const cudaGraphNode_t *deps, size_t n)
{
    if (n && !deps) return cudaErrorInvalidValue;
    for (size_t i = 0; i < n; i++) {
        const ws_rt_node *d = (const ws_rt_node *)deps[i];
        if (!d || d->graph != g) return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

/* Start adding a node: lock, validate graph and dependencies, append. */
static cudaError_t add_node(cudaGraphNode_t *pNode, cudaGraph_t graph, const cudaGraphNode_t *deps, size_t ndeps,
                            int kind, ws_rt_node **out)
{
    if (!pNode) return cudaErrorInvalidValue;
    ws_rt_graph *g = graph_get(graph, WS_RT_GRAPH_MAGIC);
    if (!g) return cudaErrorInvalidValue;
    cudaError_t e = check_deps(g, deps, ndeps);
    if (e) return e;
    ws_rt_node *n = ws_rt_graph_add(g, kind);
    if (!n) return cudaErrorMemoryAllocation;
    *pNode = (cudaGraphNode_t)n;
    *out = n;
    return cudaSuccess;
}

/* Fill a kernel node from cudaKernelNodeParams. */
static cudaError_t kernel_params_set(ws_rt_node *n, const struct cudaKernelNodeParams *p)
{
    if (!p || p->extra) return cudaErrorInvalidValue;
    ws_rt_func *f = ws_rt_find_func(p->func);
    if (!f) return cudaErrorInvalidDeviceFunction;
    ws_kernel *k = NULL;
    cudaError_t e = ws_rt_func_kernel(f, &k);
    if (e) return e;
    e = ws_rt_node_set_args(n, f, p->kernelParams);
    if (e) return e;
    n->grid = ws_rt_dim(p->gridDim);
    n->block = ws_rt_dim(p->blockDim);
    n->smem = p->sharedMemBytes;
    return cudaSuccess;
}

/* cudaGraphAddKernelNode: a kernel launch node (argument values are copied). */
WS_RT_EXPORT cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                const struct cudaKernelNodeParams *pNodeParams)
{
    WS_RT_API();
    if (!pNodeParams) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_node *n = NULL;
    cudaError_t e = add_node(pGraphNode, graph, pDependencies, numDependencies, WS_RT_NODE_KERNEL, &n);
    if (!e) {
        e = kernel_params_set(n, pNodeParams);
        if (e) n->kind = WS_RT_NODE_EMPTY;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphAddMemcpyNode1D: a linear copy node. */
WS_RT_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                  void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    WS_RT_API();
    if ((unsigned)kind > cudaMemcpyDefault) return ws_rt_set_error(cudaErrorInvalidMemcpyDirection);
    ws_rt_lock();
    ws_rt_node *n = NULL;
    cudaError_t e = add_node(pGraphNode, graph, pDependencies, numDependencies, WS_RT_NODE_MEMCPY, &n);
    if (!e) {
        n->dst = dst;
        n->src = src;
        n->count = count;
        n->copy_kind = kind;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphAddMemsetNode: a 1-byte-element, one-row fill node (other shapes are not supported). */
WS_RT_EXPORT cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                const struct cudaMemsetParams *pMemsetParams)
{
    WS_RT_API();
    if (!pMemsetParams) return ws_rt_set_error(cudaErrorInvalidValue);
    if (pMemsetParams->elementSize != 1 || pMemsetParams->height > 1) return ws_rt_set_error(cudaErrorNotSupported);
    ws_rt_lock();
    ws_rt_node *n = NULL;
    cudaError_t e = add_node(pGraphNode, graph, pDependencies, numDependencies, WS_RT_NODE_MEMSET, &n);
    if (!e) {
        n->dst = pMemsetParams->dst;
        n->value = (int)pMemsetParams->value;
        n->count = pMemsetParams->width;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphAddHostNode: a host function node. */
WS_RT_EXPORT cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                              const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                              const struct cudaHostNodeParams *pNodeParams)
{
    WS_RT_API();
    if (!pNodeParams || !pNodeParams->fn) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_node *n = NULL;
    cudaError_t e = add_node(pGraphNode, graph, pDependencies, numDependencies, WS_RT_NODE_HOST, &n);
    if (!e) {
        n->host_fn = pNodeParams->fn;
        n->user = pNodeParams->userData;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphAddEmptyNode: a node that only orders others. */
WS_RT_EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                               const cudaGraphNode_t *pDependencies, size_t numDependencies)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_node *n = NULL;
    cudaError_t e = add_node(pGraphNode, graph, pDependencies, numDependencies, WS_RT_NODE_EMPTY, &n);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphGetNodes: the nodes of a graph in order. */
WS_RT_EXPORT cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes)
{
    WS_RT_API();
    if (!numNodes) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_graph *g = graph_get(graph, WS_RT_GRAPH_MAGIC);
    cudaError_t e = g ? cudaSuccess : cudaErrorInvalidValue;
    if (g) {
        if (nodes) {
            size_t n = *numNodes < (size_t)g->n ? *numNodes : (size_t)g->n;
            for (size_t i = 0; i < n; i++) nodes[i] = (cudaGraphNode_t)g->nodes[i];
            for (size_t i = n; i < *numNodes; i++) nodes[i] = NULL;
        }
        if (!nodes || *numNodes > (size_t)g->n) *numNodes = (size_t)g->n;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphNodeGetType: the kind of a node. */
WS_RT_EXPORT cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType *pType)
{
    WS_RT_API();
    if (!node || !pType) return ws_rt_set_error(cudaErrorInvalidValue);
    const ws_rt_node *n = (const ws_rt_node *)node;
    switch (n->kind) {
    case WS_RT_NODE_KERNEL: *pType = cudaGraphNodeTypeKernel; break;
    case WS_RT_NODE_MEMCPY: *pType = cudaGraphNodeTypeMemcpy; break;
    case WS_RT_NODE_MEMSET: *pType = cudaGraphNodeTypeMemset; break;
    case WS_RT_NODE_HOST:
    case WS_RT_NODE_CALLBACK: *pType = cudaGraphNodeTypeHost; break;
    case WS_RT_NODE_EVENT_RECORD: *pType = cudaGraphNodeTypeEventRecord; break;
    case WS_RT_NODE_MEM_ALLOC: *pType = cudaGraphNodeTypeMemAlloc; break;
    case WS_RT_NODE_MEM_FREE: *pType = cudaGraphNodeTypeMemFree; break;
    default: *pType = cudaGraphNodeTypeEmpty; break;
    }
    return cudaSuccess;
}

/* cudaGraphKernelNodeGetParams: a kernel node's launch parameters. */
WS_RT_EXPORT cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams *pNodeParams)
{
    WS_RT_API();
    const ws_rt_node *n = (const ws_rt_node *)node;
    if (!n || !pNodeParams || n->kind != WS_RT_NODE_KERNEL) return ws_rt_set_error(cudaErrorInvalidValue);
    memset(pNodeParams, 0, sizeof *pNodeParams);
    pNodeParams->func = (void *)n->func->host_fun;
    pNodeParams->gridDim.x = n->grid.x, pNodeParams->gridDim.y = n->grid.y, pNodeParams->gridDim.z = n->grid.z;
    pNodeParams->blockDim.x = n->block.x, pNodeParams->blockDim.y = n->block.y, pNodeParams->blockDim.z = n->block.z;
    pNodeParams->sharedMemBytes = (unsigned)n->smem;
    pNodeParams->kernelParams = n->args;
    pNodeParams->extra = NULL;
    return cudaSuccess;
}

/* cudaGraphKernelNodeSetParams: change a kernel node of a graph. */
WS_RT_EXPORT cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                                      const struct cudaKernelNodeParams *pNodeParams)
{
    WS_RT_API();
    ws_rt_node *n = (ws_rt_node *)node;
    if (!n || n->kind != WS_RT_NODE_KERNEL) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    cudaError_t e = kernel_params_set(n, pNodeParams);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* Instantiate: an executable graph holding copies of the graph's nodes. */
static cudaError_t instantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph)
{
    if (!pGraphExec) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    cudaError_t e = cudaSuccess;
    ws_rt_graph *g = graph_get(graph, WS_RT_GRAPH_MAGIC);
    if (!g) e = cudaErrorInvalidValue;
    ws_rt_graph *x = NULL;
    if (!e && !(x = graph_new(WS_RT_GEXEC_MAGIC))) e = cudaErrorMemoryAllocation;
    for (int i = 0; !e && i < g->n; i++)
        if (!node_clone(x, g->nodes[i])) e = cudaErrorMemoryAllocation;
    if (e && x) graph_free(x);
    if (!e) *pGraphExec = (cudaGraphExec_t)x;
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphInstantiate: CUDA 12+ signature (flags). */
WS_RT_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                              unsigned long long flags)
{
    WS_RT_API();
    (void)flags;
    return instantiate(pGraphExec, graph);
}

/* cudaGraphInstantiateWithFlags: the same. */
WS_RT_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                       unsigned long long flags)
{
    WS_RT_API();
    (void)flags;
    return instantiate(pGraphExec, graph);
}

/* cudaGraphExecKernelNodeSetParams: change the kernel node of an executable graph that came from node. */
WS_RT_EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                          const struct cudaKernelNodeParams *pNodeParams)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_graph *x = graph_get(hGraphExec, WS_RT_GEXEC_MAGIC);
    const ws_rt_node *src = (const ws_rt_node *)node;
    cudaError_t e = cudaSuccess;
    if (!x || !src || src->index >= x->n || x->nodes[src->index]->kind != WS_RT_NODE_KERNEL ||
        src->kind != WS_RT_NODE_KERNEL)
        e = cudaErrorInvalidValue;
    if (!e) e = kernel_params_set(x->nodes[src->index], pNodeParams);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* Launch an executable graph: its nodes run in order (or are appended to a capture). */
static cudaError_t graph_launch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_check(0);
    ws_rt_graph *x = NULL;
    if (!e) e = ws_rt_stream_get(stream, &s);
    if (!e && !(x = graph_get(graphExec, WS_RT_GEXEC_MAGIC))) e = cudaErrorInvalidValue;
    if (!e && s && s->capture) {
        for (int i = 0; !e && i < x->n; i++)
            if (!node_clone(s->capture, x->nodes[i])) e = cudaErrorMemoryAllocation;
    } else if (!e) {
        double t0 = host_node_time(s);
        for (int i = 0; !e && i < x->n; i++) e = node_run(x->nodes[i], stream, s);
        if (ws_hs_tl_on()) ws_hs_tl_graph(ws_rt_stream_id(s), t0, host_node_time(s));
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphLaunch: run an executable graph on a stream. */
WS_RT_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    WS_RT_API();
    return graph_launch(graphExec, stream);
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
/* cudaGraphLaunch_ptsz: per-thread default stream variant. */
WS_RT_EXPORT cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    WS_RT_API();
    return graph_launch(graphExec, stream);
}

/* cudaGraphUpload: nothing to upload. */
WS_RT_EXPORT cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_stream *s = NULL;
    cudaError_t e = ws_rt_stream_get(stream, &s);
    if (!e && !graph_get(graphExec, WS_RT_GEXEC_MAGIC)) e = cudaErrorInvalidValue;
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphExecDestroy: free an executable graph. */
WS_RT_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_graph *x = graph_get(graphExec, WS_RT_GEXEC_MAGIC);
    if (x) graph_free(x);
    ws_rt_unlock();
    return x ? cudaSuccess : ws_rt_set_error(cudaErrorInvalidValue);
}

/* cudaGraphDestroy: free a graph (executable graphs made from it stay valid). */
WS_RT_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_graph *g = graph_get(graph, WS_RT_GRAPH_MAGIC);
    int capturing = 0;
    for (ws_rt_stream *s = ws_rt_g.streams; g && s; s = s->next)
        if (s->capture == g) capturing = 1;
    if (g && !capturing) graph_free(g);
    ws_rt_unlock();
    return g && !capturing ? cudaSuccess : ws_rt_set_error(cudaErrorInvalidValue);
}

/* cudaGraphClone: a copy of a graph (node i of the clone corresponds to node i of the original). */
WS_RT_EXPORT cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    WS_RT_API();
    if (!pGraphClone) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    cudaError_t e = cudaSuccess;
    ws_rt_graph *g = graph_get(originalGraph, WS_RT_GRAPH_MAGIC), *c = NULL;
    if (!g) e = cudaErrorInvalidValue;
    if (!e && !(c = graph_new(WS_RT_GRAPH_MAGIC))) e = cudaErrorMemoryAllocation;
    for (int i = 0; !e && i < g->n; i++)
        if (!node_clone(c, g->nodes[i])) e = cudaErrorMemoryAllocation;
    if (e && c) graph_free(c);
    if (!e) *pGraphClone = (cudaGraph_t)c;
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphExecUpdate: take over the parameters of a graph with the same nodes (kinds, in order). */
WS_RT_EXPORT cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                             cudaGraphExecUpdateResultInfo *resultInfo)
{
    WS_RT_API();
    ws_rt_lock();
    ws_rt_graph *x = graph_get(hGraphExec, WS_RT_GEXEC_MAGIC), *g = graph_get(hGraph, WS_RT_GRAPH_MAGIC);
    cudaError_t e = x && g ? cudaSuccess : cudaErrorInvalidValue;
    enum cudaGraphExecUpdateResult res = cudaGraphExecUpdateSuccess;
    if (!e && x->n != g->n) res = cudaGraphExecUpdateErrorTopologyChanged;
    for (int i = 0; !e && res == cudaGraphExecUpdateSuccess && i < g->n; i++) {
        if (x->nodes[i]->kind != g->nodes[i]->kind) res = cudaGraphExecUpdateErrorNodeTypeChanged;
        else if (g->nodes[i]->kind == WS_RT_NODE_KERNEL && x->nodes[i]->func != g->nodes[i]->func)
            res = cudaGraphExecUpdateErrorFunctionChanged;
    }
    if (!e && res == cudaGraphExecUpdateSuccess) {
        /* rebuild the executable graph's nodes from the graph */
        ws_rt_graph *tmp = graph_new(WS_RT_GEXEC_MAGIC);
        if (!tmp) e = cudaErrorMemoryAllocation;
        for (int i = 0; !e && i < g->n; i++)
            if (!node_clone(tmp, g->nodes[i])) e = cudaErrorMemoryAllocation;
        if (!e) {
            ws_rt_node **old = x->nodes;
            int oldn = x->n;
            x->nodes = tmp->nodes, x->n = tmp->n, x->cap = tmp->cap;
            for (int i = 0; i < x->n; i++) x->nodes[i]->graph = x;
            tmp->nodes = old, tmp->n = oldn;
        }
        if (tmp) graph_free(tmp);
    }
    if (!e && res != cudaGraphExecUpdateSuccess) e = cudaErrorGraphExecUpdateFailure;
    if (resultInfo) {
        memset(resultInfo, 0, sizeof *resultInfo);
        resultInfo->result = res;
    }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphHostNodeGetParams: a host node's function and argument. */
WS_RT_EXPORT cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams *pNodeParams)
{
    WS_RT_API();
    const ws_rt_node *n = (const ws_rt_node *)node;
    if (!n || !pNodeParams || n->kind != WS_RT_NODE_HOST) return ws_rt_set_error(cudaErrorInvalidValue);
    pNodeParams->fn = n->host_fn;
    pNodeParams->userData = n->user;
    return cudaSuccess;
}

/* cudaGraphHostNodeSetParams: change a host node of a graph. */
WS_RT_EXPORT cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams *pNodeParams)
{
    WS_RT_API();
    ws_rt_node *n = (ws_rt_node *)node;
    if (!n || !pNodeParams || !pNodeParams->fn || n->kind != WS_RT_NODE_HOST)
        return ws_rt_set_error(cudaErrorInvalidValue);
    n->host_fn = pNodeParams->fn;
    n->user = pNodeParams->userData;
    return cudaSuccess;
}

/* The node of executable graph hGraphExec instantiated from graph node node, if it has kind. */
static ws_rt_node *exec_node(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, int kind)
{
    ws_rt_graph *x = graph_get(hGraphExec, WS_RT_GEXEC_MAGIC);
    const ws_rt_node *src = (const ws_rt_node *)node;
    if (!x || !src || src->kind != kind || src->index >= x->n || x->nodes[src->index]->kind != kind) return NULL;
    return x->nodes[src->index];
}

/* cudaGraphExecHostNodeSetParams: change a host node of an executable graph. */
WS_RT_EXPORT cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                        const struct cudaHostNodeParams *pNodeParams)
{
    WS_RT_API();
    if (!pNodeParams || !pNodeParams->fn) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_node *n = exec_node(hGraphExec, node, WS_RT_NODE_HOST);
    if (n) {
        n->host_fn = pNodeParams->fn;
        n->user = pNodeParams->userData;
    }
    ws_rt_unlock();
    return n ? cudaSuccess : ws_rt_set_error(cudaErrorInvalidValue);
}

/* cudaGraphExecMemcpyNodeSetParams1D: change a linear copy node of an executable graph. */
WS_RT_EXPORT cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                            void *dst, const void *src, size_t count,
                                                            enum cudaMemcpyKind kind)
{
    WS_RT_API();
    if ((unsigned)kind > cudaMemcpyDefault) return ws_rt_set_error(cudaErrorInvalidMemcpyDirection);
    ws_rt_lock();
    ws_rt_node *n = exec_node(hGraphExec, node, WS_RT_NODE_MEMCPY);
    if (n) {
        n->dst = dst;
        n->src = src;
        n->count = count;
        n->copy_kind = kind;
    }
    ws_rt_unlock();
    return n ? cudaSuccess : ws_rt_set_error(cudaErrorInvalidValue);
}

/* ---- memory nodes ---- */

/* Fill a new allocation (kind WS_RT_NODE_MEM_ALLOC: allocates *ptr of size bytes) or free node (of *ptr). */
static cudaError_t mem_node_set(ws_rt_node *n, int kind, void **ptr, size_t size)
{
    if (kind == WS_RT_NODE_MEM_ALLOC) {
        cudaError_t e = ws_rt_graph_alloc(ptr, size);
        if (e) return e;
        n->count = size;
    }
    n->dst = *ptr;
    return cudaSuccess;
}

/* Record cudaMallocAsync / cudaFreeAsync into the graph being captured. */
cudaError_t ws_rt_capture_mem_node(ws_rt_graph *g, int kind, void **ptr, size_t size)
{
    ws_rt_node *n = ws_rt_graph_add(g, kind);
    if (!n) return cudaErrorMemoryAllocation;
    cudaError_t e = mem_node_set(n, kind, ptr, size);
    if (e) n->kind = WS_RT_NODE_EMPTY;
    return e;
}

/* cudaGraphAddMemAllocNode: an allocation of device 0 memory; nodeParams->dptr receives its fixed address. */
WS_RT_EXPORT cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                  const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                  struct cudaMemAllocNodeParams *nodeParams)
{
    WS_RT_API();
    if (!nodeParams || !nodeParams->bytesize || nodeParams->poolProps.allocType != cudaMemAllocationTypePinned)
        return ws_rt_set_error(cudaErrorInvalidValue);
    if (nodeParams->poolProps.location.type != cudaMemLocationTypeDevice || nodeParams->poolProps.location.id != 0)
        return ws_rt_set_error(cudaErrorInvalidDevice);
    ws_rt_lock();
    ws_rt_node *n = NULL;
    cudaError_t e = add_node(pGraphNode, graph, pDependencies, numDependencies, WS_RT_NODE_MEM_ALLOC, &n);
    if (!e) e = mem_node_set(n, WS_RT_NODE_MEM_ALLOC, &nodeParams->dptr, nodeParams->bytesize);
    if (e && n) n->kind = WS_RT_NODE_EMPTY;
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphAddMemFreeNode: free dptr (a graph allocation, or one made outside the graph). */
WS_RT_EXPORT cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                 const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                                 void *dptr)
{
    WS_RT_API();
    if (!dptr) return ws_rt_set_error(cudaErrorInvalidValue);
    ws_rt_lock();
    ws_rt_node *n = NULL;
    cudaError_t e = add_node(pGraphNode, graph, pDependencies, numDependencies, WS_RT_NODE_MEM_FREE, &n);
    if (!e) e = mem_node_set(n, WS_RT_NODE_MEM_FREE, &dptr, 0);
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphMemAllocNodeGetParams: an allocation node's size and address (device 0, pinned). */
WS_RT_EXPORT cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams *params_out)
{
    WS_RT_API();
    const ws_rt_node *n = (const ws_rt_node *)node;
    if (!n || !params_out || n->kind != WS_RT_NODE_MEM_ALLOC) return ws_rt_set_error(cudaErrorInvalidValue);
    memset(params_out, 0, sizeof *params_out);
    params_out->poolProps.allocType = cudaMemAllocationTypePinned;
    params_out->poolProps.location.type = cudaMemLocationTypeDevice;
    params_out->poolProps.location.id = 0;
    params_out->bytesize = n->count;
    params_out->dptr = n->dst;
    return cudaSuccess;
}

/* cudaGraphMemFreeNodeGetParams: the address a free node frees. */
WS_RT_EXPORT cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out)
{
    WS_RT_API();
    const ws_rt_node *n = (const ws_rt_node *)node;
    if (!n || !dptr_out || n->kind != WS_RT_NODE_MEM_FREE) return ws_rt_set_error(cudaErrorInvalidValue);
    *(void **)dptr_out = n->dst;
    return cudaSuccess;
}

/* cudaDeviceGraphMemTrim: graph memory stays reserved for the graphs that use it. */
WS_RT_EXPORT cudaError_t cudaDeviceGraphMemTrim(int device)
{
    WS_RT_API();
    return device == 0 ? cudaSuccess : ws_rt_set_error(cudaErrorInvalidDevice);
}

/* cudaGraphKernelNodeSetAttribute: the cooperative attribute of a kernel node, and those cudaLaunchKernelEx
 * accepts. */
WS_RT_EXPORT cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                         const cudaKernelNodeAttrValue *value)
{
    WS_RT_API();
    ws_rt_node *n = (ws_rt_node *)hNode;
    if (!n || !value || n->kind != WS_RT_NODE_KERNEL) return ws_rt_set_error(cudaErrorInvalidValue);
    cudaLaunchAttribute a;
    memset(&a, 0, sizeof a);
    a.id = attr;
    a.val = *value;
    ws_rt_lock();
    ws_rt_lattr la = { n->coop, n->cluster };
    cudaError_t e = ws_rt_launch_attr(&a, &la);
    if (!e) { n->coop = la.coop; n->cluster = la.cluster; }
    ws_rt_unlock();
    return ws_rt_set_error(e);
}

/* cudaGraphKernelNodeGetAttribute: the cooperative attribute as set; the others at their defaults. */
WS_RT_EXPORT cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                                         cudaKernelNodeAttrValue *value_out)
{
    WS_RT_API();
    const ws_rt_node *n = (const ws_rt_node *)hNode;
    if (!n || !value_out || n->kind != WS_RT_NODE_KERNEL || (int)attr > cudaLaunchAttributeNvlinkUtilCentricScheduling)
        return ws_rt_set_error(cudaErrorInvalidValue);
    memset(value_out, 0, sizeof *value_out);
    if (attr == cudaLaunchAttributeCooperative) value_out->cooperative = n->coop;
    if (attr == cudaLaunchAttributeClusterDimension) {
        value_out->clusterDim.x = 1;
        value_out->clusterDim.y = 1;
        value_out->clusterDim.z = 1;
    }
    return cudaSuccess;
}

/* cudaGraphKernelNodeCopyAttributes: hDst gets hSrc's attributes. */
WS_RT_EXPORT cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc)
{
    WS_RT_API();
    ws_rt_node *d = (ws_rt_node *)hDst;
    const ws_rt_node *s = (const ws_rt_node *)hSrc;
    if (!d || !s || d->kind != WS_RT_NODE_KERNEL || s->kind != WS_RT_NODE_KERNEL)
        return ws_rt_set_error(cudaErrorInvalidValue);
    d->coop = s->coop;
    d->cluster = s->cluster;
    return cudaSuccess;
}
