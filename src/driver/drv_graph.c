/* drv_graph.c - graphs built node by node (the runtime's graphs: CUgraph is cudaGraph_t, CUgraphNode is
 * cudaGraphNode_t, CUgraphExec is cudaGraphExec_t): kernel nodes (kernelParams or `extra`), 1D copy nodes, byte
 * fill nodes of one row, host and empty nodes, instantiation, upload, cloning and node queries. */
#include "drv_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* cuGraphCreate: an empty graph. */
WS_DRV_EXPORT CUresult cuGraphCreate(CUgraph *phGraph, unsigned int flags)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaGraphCreate((cudaGraph_t *)phGraph, flags));
}

/* A kernel node of f (CUDA_KERNEL_NODE_PARAMS v1 and v2 share these fields). */
static CUresult add_kernel(CUgraphNode *node, CUgraph g, const CUgraphNode *deps, size_t ndeps, CUfunction f,
                           const unsigned grid[3], const unsigned block[3], unsigned smem, void **params, void **extra)
{
    if (!ws_rtx_func_valid(f)) return CUDA_ERROR_INVALID_HANDLE;
    static _Thread_local void *args_buf[WS_DRV_MAX_PARAMS];
    void **args = NULL;
    CUresult r = ws_drv_launch_args(f, params, extra, &args, args_buf);
    if (r) return r;
    struct cudaKernelNodeParams p;
    memset(&p, 0, sizeof p);
    p.func = f;
    p.gridDim = (dim3){ grid[0], grid[1], grid[2] };
    p.blockDim = (dim3){ block[0], block[1], block[2] };
    p.sharedMemBytes = smem;
    p.kernelParams = args;   /* the runtime copies the values now */
    return ws_drv_from_rt(cudaGraphAddKernelNode((cudaGraphNode_t *)node, (cudaGraph_t)g,
                                                 (const cudaGraphNode_t *)deps, ndeps, &p));
}

/* cuGraphAddKernelNode_v2: a kernel node (func, or the CUkernel `kern`: the same handle here). */
WS_DRV_EXPORT CUresult cuGraphAddKernelNode_v2(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                               size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS *nodeParams)
{
    WS_DRV_ENTER_CTX();
    if (!nodeParams) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    const CUDA_KERNEL_NODE_PARAMS *p = nodeParams;
    unsigned grid[3] = { p->gridDimX, p->gridDimY, p->gridDimZ }, block[3] = { p->blockDimX, p->blockDimY, p->blockDimZ };
    CUfunction f = p->func ? p->func : (CUfunction)p->kern;
    WS_DRV_RET(add_kernel(phGraphNode, hGraph, dependencies, numDependencies, f, grid, block, p->sharedMemBytes,
                          p->kernelParams, p->extra));
}

/* cuGraphAddKernelNode: the CUDA 10 form (without kern and ctx). */
WS_DRV_EXPORT CUresult cuGraphAddKernelNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                            size_t numDependencies, const CUDA_KERNEL_NODE_PARAMS_v1 *nodeParams)
{
    WS_DRV_ENTER_CTX();
    if (!nodeParams) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    const CUDA_KERNEL_NODE_PARAMS_v1 *p = nodeParams;
    unsigned grid[3] = { p->gridDimX, p->gridDimY, p->gridDimZ }, block[3] = { p->blockDimX, p->blockDimY, p->blockDimZ };
    WS_DRV_RET(add_kernel(phGraphNode, hGraph, dependencies, numDependencies, p->func, grid, block, p->sharedMemBytes,
                          p->kernelParams, p->extra));
}

/* cuGraphAddMemcpyNode: a copy node; one row of one slice (a linear copy) only. */
WS_DRV_EXPORT CUresult cuGraphAddMemcpyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                            size_t numDependencies, const CUDA_MEMCPY3D *copyParams, CUcontext ctx)
{
    (void)ctx;
    WS_DRV_ENTER_CTX();
    const CUDA_MEMCPY3D *c = copyParams;
    if (!c) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (c->Height > 1 || c->Depth > 1 || c->srcMemoryType == CU_MEMORYTYPE_ARRAY ||
        c->dstMemoryType == CU_MEMORYTYPE_ARRAY)
        return ws_drv_missing("cuGraphAddMemcpyNode of 2D/3D or CUDA-array copies");
    const char *src = c->srcMemoryType == CU_MEMORYTYPE_HOST ? c->srcHost : (const char *)(uintptr_t)c->srcDevice;
    char *dst = c->dstMemoryType == CU_MEMORYTYPE_HOST ? c->dstHost : (char *)(uintptr_t)c->dstDevice;
    src += (c->srcZ * (c->srcHeight ? c->srcHeight : 1) + c->srcY) * c->srcPitch + c->srcXInBytes;
    dst += (c->dstZ * (c->dstHeight ? c->dstHeight : 1) + c->dstY) * c->dstPitch + c->dstXInBytes;
    WS_DRV_RT(cudaGraphAddMemcpyNode1D((cudaGraphNode_t *)phGraphNode, (cudaGraph_t)hGraph,
                                       (const cudaGraphNode_t *)dependencies, numDependencies, dst, src,
                                       c->WidthInBytes, cudaMemcpyDefault));
}

/* cuGraphAddMemsetNode: a fill node (the runtime's graphs hold fills of bytes, one row). */
WS_DRV_EXPORT CUresult cuGraphAddMemsetNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                            size_t numDependencies, const CUDA_MEMSET_NODE_PARAMS *memsetParams,
                                            CUcontext ctx)
{
    (void)ctx;
    WS_DRV_ENTER_CTX();
    const CUDA_MEMSET_NODE_PARAMS *m = memsetParams;
    if (!m) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (m->elementSize != 1 || m->height > 1)
        return ws_drv_missing("cuGraphAddMemsetNode of 2- or 4-byte elements or several rows");
    struct cudaMemsetParams p = { (void *)(uintptr_t)m->dst, m->pitch, m->value, m->elementSize, m->width, m->height };
    WS_DRV_RT(cudaGraphAddMemsetNode((cudaGraphNode_t *)phGraphNode, (cudaGraph_t)hGraph,
                                     (const cudaGraphNode_t *)dependencies, numDependencies, &p));
}

/* cuGraphAddHostNode: a host function node (CUDA_HOST_NODE_PARAMS has cudaHostNodeParams' shape). */
WS_DRV_EXPORT CUresult cuGraphAddHostNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                          size_t numDependencies, const CUDA_HOST_NODE_PARAMS *nodeParams)
{
    WS_DRV_ENTER_CTX();
    if (!nodeParams) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    struct cudaHostNodeParams p = { nodeParams->fn, nodeParams->userData };
    WS_DRV_RT(cudaGraphAddHostNode((cudaGraphNode_t *)phGraphNode, (cudaGraph_t)hGraph,
                                   (const cudaGraphNode_t *)dependencies, numDependencies, &p));
}

/* cuGraphAddEmptyNode: a node that only orders others. */
WS_DRV_EXPORT CUresult cuGraphAddEmptyNode(CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *dependencies,
                                           size_t numDependencies)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaGraphAddEmptyNode((cudaGraphNode_t *)phGraphNode, (cudaGraph_t)hGraph,
                                    (const cudaGraphNode_t *)dependencies, numDependencies));
}

/* cuGraphGetNodes: the graph's nodes (count only when nodes is NULL). */
WS_DRV_EXPORT CUresult cuGraphGetNodes(CUgraph hGraph, CUgraphNode *nodes, size_t *numNodes)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaGraphGetNodes((cudaGraph_t)hGraph, (cudaGraphNode_t *)nodes, numNodes));
}

/* cuGraphNodeGetType: a node's type (the enums agree). */
WS_DRV_EXPORT CUresult cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType *type)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaGraphNodeGetType((cudaGraphNode_t)hNode, (enum cudaGraphNodeType *)type));
}

/* cuGraphClone: a copy of a graph. */
WS_DRV_EXPORT CUresult cuGraphClone(CUgraph *phGraphClone, CUgraph originalGraph)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaGraphClone((cudaGraph_t *)phGraphClone, (cudaGraph_t)originalGraph));
}

/* cuGraphUpload: prepare an executable graph on a stream. */
WS_DRV_EXPORT CUresult cuGraphUpload(CUgraphExec hGraphExec, CUstream hStream)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(cudaGraphUpload((cudaGraphExec_t)hGraphExec, (cudaStream_t)hStream));
}

/* cuGraphInstantiate_v2: the CUDA 11 form (error node and log buffer; instantiation here does not fail by node). */
WS_DRV_EXPORT CUresult cuGraphInstantiate_v2(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                             char *logBuffer, size_t bufferSize)
{
    WS_DRV_ENTER_CTX();
    if (phErrorNode) *phErrorNode = NULL;
    if (logBuffer && bufferSize) logBuffer[0] = 0;
    WS_DRV_RT(cudaGraphInstantiateWithFlags((cudaGraphExec_t *)phGraphExec, (cudaGraph_t)hGraph, 0));
}

/* cuGraphInstantiate: the CUDA 10 name of the same. */
WS_DRV_EXPORT CUresult cuGraphInstantiate(CUgraphExec *phGraphExec, CUgraph hGraph, CUgraphNode *phErrorNode,
                                          char *logBuffer, size_t bufferSize)
{
    return cuGraphInstantiate_v2(phGraphExec, hGraph, phErrorNode, logBuffer, bufferSize);
}

/* the per-thread default stream forms */
WS_DRV_PT_ALIAS(cuGraphUpload, cuGraphUpload_ptsz);
