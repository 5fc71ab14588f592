/* drv_tmap.c - tensor maps for cp.async.bulk.tensor: cuTensorMapEncodeTiled (a host function: it checks the
 * description and fills the 128-byte CUtensorMap in warpsim's layout, which the simulated TMA copies decode).
 * Runtime programs reach it through cudaGetDriverEntryPoint. */
#include "drv_internal.h"

#include <stdio.h>

/* cuTensorMapEncodeTiled: a tiled map of a 1-5 dimensional array (no interleave, zero out-of-bounds fill). */
WS_DRV_EXPORT CUresult cuTensorMapEncodeTiled(CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType,
                                              cuuint32_t tensorRank, void *globalAddress, const cuuint64_t *globalDim,
                                              const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
                                              const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
                                              CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
                                              CUtensorMapFloatOOBfill oobFill)
{
    char why[256] = "";
    cudaError_t e = ws_rtx_tmap_encode(tensorMap, (int)tensorDataType, tensorRank, globalAddress, globalDim,
                                       globalStrides, boxDim, elementStrides, (int)interleave, (int)swizzle,
                                       (int)l2Promotion, (int)oobFill, why, sizeof why);
    if (e == cudaErrorNotSupported) {
        fprintf(stderr, "warpsim: cuTensorMapEncodeTiled: %s\n", why);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    return e ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}
