/* drv_launch.c - kernel launches (cuLaunchKernel with kernelParams or the `extra` packed buffer,
 * cuLaunchKernelEx, cuLaunchCooperativeKernel), host functions on streams, and the occupancy API. A launch is
 * the runtime's cudaLaunchKernel of the function's handle: the host session's launch path (timing, report,
 * checkers, stream capture) serves it. */
#include "drv_internal.h"

#include <stdint.h>
#include <string.h>


/* The argument pointers of a launch from kernelParams or extra: *args_out is kernelParams, or args_buf
 * (WS_DRV_MAX_PARAMS entries) filled with pointers into the extra buffer. */
CUresult ws_drv_launch_args(CUfunction f, void **kernelParams, void **extra, void ***args_out, void **args_buf)
{
    int n = 0;
    const size_t *off = NULL, *sz = NULL;
    size_t total = 0;
    if (ws_rtx_func_params(f, &n, &off, &sz, &total)) return CUDA_ERROR_INVALID_HANDLE;
    if (kernelParams && extra) return CUDA_ERROR_INVALID_VALUE;
    if (kernelParams || n == 0) {
        *args_out = kernelParams;
        return CUDA_SUCCESS;
    }
    if (!extra) return CUDA_ERROR_INVALID_VALUE;   /* a kernel with parameters needs their values */
    unsigned char *buf = NULL;
    size_t bufsize = (size_t)-1;
    for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) bufsize = extra[i + 1] ? *(size_t *)extra[i + 1] : 0;
        else return CUDA_ERROR_INVALID_VALUE;
    }
    /* as NVIDIA's driver 580 answers on an H200: the pointer and the size are both needed; a buffer larger than the
     * parameters is "too many resources requested"; a shorter one is accepted (the values are read at their
     * offsets in the caller's buffer) */
    if (!buf || bufsize == (size_t)-1 || n > WS_DRV_MAX_PARAMS) return CUDA_ERROR_INVALID_VALUE;
    if (bufsize > total) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    for (int i = 0; i < n; i++) args_buf[i] = buf + off[i];
    *args_out = args_buf;
    return CUDA_SUCCESS;
}

/* Launch f through the runtime; cluster: a thread block cluster shape (NULL: none asked for). */
static CUresult launch_cl(CUfunction f, dim3 grid, dim3 block, unsigned smem, CUstream s, void **kernelParams,
                          void **extra, const dim3 *cluster)
{
    if (!ws_rtx_func_valid(f)) return CUDA_ERROR_INVALID_HANDLE;
    if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z) return CUDA_ERROR_INVALID_VALUE;
    static _Thread_local void *args_buf[WS_DRV_MAX_PARAMS];
    void **args = NULL;
    CUresult r = ws_drv_launch_args(f, kernelParams, extra, &args, args_buf);
    if (r) return r;
    if (!cluster) return ws_drv_from_rt(cudaLaunchKernel(f, grid, block, args, smem, (cudaStream_t)s));
    cudaLaunchAttribute a;
    memset(&a, 0, sizeof a);
    a.id = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = cluster->x;
    a.val.clusterDim.y = cluster->y;
    a.val.clusterDim.z = cluster->z;
    cudaLaunchConfig_t c;
    memset(&c, 0, sizeof c);
    c.gridDim = grid;
    c.blockDim = block;
    c.dynamicSmemBytes = smem;
    c.stream = (cudaStream_t)s;
    c.attrs = &a;
    c.numAttrs = 1;
    return ws_drv_from_rt(cudaLaunchKernelExC(&c, f, args));
}

/* Launch f through the runtime. */
static CUresult launch(CUfunction f, dim3 grid, dim3 block, unsigned smem, CUstream s, void **kernelParams,
                       void **extra)
{
    return launch_cl(f, grid, block, smem, s, kernelParams, extra, NULL);
}

/* cuLaunchKernel: launch with a grid, a block, dynamic shared memory and a stream. */
WS_DRV_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                      unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                      unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra)
{
    WS_DRV_ENTER_CTX();
    dim3 g = { gridDimX, gridDimY, gridDimZ }, b = { blockDimX, blockDimY, blockDimZ };
    WS_DRV_RET(launch(f, g, b, sharedMemBytes, hStream, kernelParams, extra));
}

/* cuLaunchKernel_ptsz: per-thread default stream form (one queue: the same). */
WS_DRV_EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                           unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                           unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                           void **kernelParams, void **extra)
{
    return cuLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream,
                          kernelParams, extra);
}

/* cuLaunchKernelEx: launch from a configuration; cooperative, priority and similar attributes change nothing in
 * the simulation; a cluster dimension launches thread block clusters (the runtime's cudaLaunchKernelEx). */
WS_DRV_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f, void **kernelParams, void **extra)
{
    WS_DRV_ENTER_CTX();
    if (!config) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    dim3 cl = { 0, 0, 0 };
    int has_cl = 0;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const CUlaunchAttribute *a = &config->attrs[i];
        if (a->id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            cl = (dim3){ a->value.clusterDim.x, a->value.clusterDim.y, a->value.clusterDim.z };
            has_cl = 1;
        }
    }
    dim3 g = { config->gridDimX, config->gridDimY, config->gridDimZ };
    dim3 b = { config->blockDimX, config->blockDimY, config->blockDimZ };
    WS_DRV_RET(launch_cl(f, g, b, config->sharedMemBytes, config->hStream, kernelParams, extra, has_cl ? &cl : NULL));
}

/* cuLaunchKernelEx_ptsz: per-thread default stream form. */
WS_DRV_EXPORT CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f, void **kernelParams,
                                             void **extra)
{
    return cuLaunchKernelEx(config, f, kernelParams, extra);
}

/* cuLaunchCooperativeKernel: an ordinary launch (blocks run to completion in turn; grid-wide sync is not
 * modelled, as in the runtime's cudaLaunchCooperativeKernel). */
WS_DRV_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                 unsigned int gridDimZ, unsigned int blockDimX,
                                                 unsigned int blockDimY, unsigned int blockDimZ,
                                                 unsigned int sharedMemBytes, CUstream hStream, void **kernelParams)
{
    WS_DRV_ENTER_CTX();
    dim3 g = { gridDimX, gridDimY, gridDimZ }, b = { blockDimX, blockDimY, blockDimZ };
    WS_DRV_RET(launch(f, g, b, sharedMemBytes, hStream, kernelParams, NULL));
}

/* cuLaunchCooperativeKernel_ptsz: per-thread default stream form. */
WS_DRV_EXPORT CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                      unsigned int gridDimZ, unsigned int blockDimX,
                                                      unsigned int blockDimY, unsigned int blockDimZ,
                                                      unsigned int sharedMemBytes, CUstream hStream,
                                                      void **kernelParams)
{
    return cuLaunchCooperativeKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                                     sharedMemBytes, hStream, kernelParams);
}

/* cuLaunchHostFunc: a host function in stream order. */
WS_DRV_EXPORT CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData)
{
    WS_DRV_ENTER_CTX();
    if (!fn) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RT(cudaLaunchHostFunc((cudaStream_t)hStream, fn, userData));
}

/* cuLaunchHostFunc_ptsz: per-thread default stream form. */
WS_DRV_EXPORT CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData)
{
    return cuLaunchHostFunc(hStream, fn, userData);
}

/* ---- occupancy ---- */

/* cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags: the runtime's occupancy calculator. */
WS_DRV_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, CUfunction func,
                                                                            int blockSize, size_t dynamicSMemSize,
                                                                            unsigned int flags)
{
    WS_DRV_ENTER_CTX();
    if (!numBlocks) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!ws_rtx_func_valid(func)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    WS_DRV_RT(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                     flags));
}

/* cuOccupancyMaxActiveBlocksPerMultiprocessor: without flags. */
WS_DRV_EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                                   size_t dynamicSMemSize)
{
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}

/* cuOccupancyMaxPotentialBlockSizeWithFlags: the block size (a multiple of the warp size) with the most resident
 * threads per SM, the largest on a tie, and the grid that fills the device at that size. */
WS_DRV_EXPORT CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, CUfunction func,
                                                                 CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                                 size_t dynamicSMemSize, int blockSizeLimit,
                                                                 unsigned int flags)
{
    WS_DRV_ENTER_CTX();
    if (!minGridSize || !blockSize) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!ws_rtx_func_valid(func)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    struct cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, func);
    if (e) WS_DRV_RT(e);
    int warp = 32, sms = 1;
    cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    int limit = a.maxThreadsPerBlock;
    if (blockSizeLimit > 0 && blockSizeLimit < limit) limit = blockSizeLimit;
    int best = 0, best_bs = 0, best_blocks = 0;
    for (int bs = limit - limit % warp; bs > 0; bs -= warp) {
        size_t smem = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(bs) : dynamicSMemSize;
        int nb = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&nb, func, bs, smem, flags) != cudaSuccess)
            continue;
        if (nb * bs > best) {
            best = nb * bs;
            best_bs = bs;
            best_blocks = nb;
        }
    }
    *blockSize = best_bs;
    *minGridSize = best_blocks * sms;
    return CUDA_SUCCESS;
}

/* cuOccupancyMaxPotentialBlockSize: without flags. */
WS_DRV_EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                                        CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                        size_t dynamicSMemSize, int blockSizeLimit)
{
    return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, blockSizeToDynamicSMemSize,
                                                     dynamicSMemSize, blockSizeLimit, 0);
}

/* cuOccupancyAvailableDynamicSMemPerBlock: the runtime's answer. */
WS_DRV_EXPORT CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, CUfunction func,
                                                               int numBlocks, int blockSize)
{
    WS_DRV_ENTER_CTX();
    if (!dynamicSmemSize) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!ws_rtx_func_valid(func)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    WS_DRV_RT(cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, func, numBlocks, blockSize));
}
