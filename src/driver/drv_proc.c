/* drv_proc.c - cuGetProcAddress (v1 and _v2), through which CUDA 12+ code finds driver functions: an API name
 * maps to the symbol cuda.h would call (drv_names.h), held back to an older symbol when the caller asks for a
 * CUDA version before the newer one appeared; (cuGetExportTable is in drv_export.c). */
#include "drv_internal.h"

#include <stdio.h>
#include <string.h>

/* How a name's per-thread-stream form is spelled. */
enum { WS_DRV_PTNONE, WS_DRV_PTDS, WS_DRV_PTSZ };

/* One API name and its current symbol. */
typedef struct { const char *api, *symbol; int pt; } alias_row;

static const alias_row alias_tab[] = {
#define WS_DRV_ALIAS(api, sym, mode) { #api, #sym, mode },
#include "drv_names.h"
#undef WS_DRV_ALIAS
};

/* Symbols newer than their API name's first version, with the CUDA version that introduced them and the symbol
 * an older caller gets instead. */
typedef struct { const char *symbol; int since; const char *older; } newer_row;

static const newer_row newer_tab[] = {
    { "cuCtxCreate_v4", 12050, "cuCtxCreate_v2" },
    { "cuEventElapsedTime_v2", 12080, "cuEventElapsedTime" },
    { "cuGetProcAddress_v2", 12000, "cuGetProcAddress" },
    { "cuMemAdvise_v2", 12020, "cuMemAdvise" },
    { "cuMemPrefetchAsync_v2", 12020, "cuMemPrefetchAsync" },
    { "cuGraphExecUpdate_v2", 12000, "cuGraphExecUpdate" },
    { "cuGraphAddKernelNode_v2", 12000, "cuGraphAddKernelNode" },
    { "cuGraphKernelNodeGetParams_v2", 12000, "cuGraphKernelNodeGetParams" },
    { "cuGraphKernelNodeSetParams_v2", 12000, "cuGraphKernelNodeSetParams" },
    { "cuGraphExecKernelNodeSetParams_v2", 12000, "cuGraphExecKernelNodeSetParams" },
    { "cuStreamGetCaptureInfo_v3", 12030, "cuStreamGetCaptureInfo_v2" },
    { "cuGraphGetEdges_v2", 12030, "cuGraphGetEdges" },
    { "cuGraphNodeGetDependencies_v2", 12030, "cuGraphNodeGetDependencies" },
    { "cuGraphNodeGetDependentNodes_v2", 12030, "cuGraphNodeGetDependentNodes" },
    { "cuGraphAddDependencies_v2", 12030, "cuGraphAddDependencies" },
    { "cuGraphRemoveDependencies_v2", 12030, "cuGraphRemoveDependencies" },
    { "cuGraphAddNode_v2", 12030, "cuGraphAddNode" },
    { "cuGraphInstantiateWithFlags", 12000, "cuGraphInstantiate_v2" },
};

/* Resolve an API name for a caller of cudaVersion into *fn; the query result in *status. */
static CUresult proc_address(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status)
{
    if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
    (void)flags;   /* one queue serves the legacy and the per-thread default streams: the plain symbol */
    const char *sym = symbol;
    for (size_t i = 0; i < sizeof alias_tab / sizeof alias_tab[0]; i++)
        if (strcmp(alias_tab[i].api, symbol) == 0) { sym = alias_tab[i].symbol; break; }
    for (size_t i = 0; sym != symbol && i < sizeof newer_tab / sizeof newer_tab[0]; i++)   /* an API name only */
        if (strcmp(newer_tab[i].symbol, sym) == 0 && cudaVersion < newer_tab[i].since) sym = newer_tab[i].older;
    void *fn = ws_drv_symbol(sym);
    if (!fn && sym != symbol) fn = ws_drv_symbol(symbol);
    *pfn = fn;
    if (status) *status = fn ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    /* as NVIDIA's driver 580 answers: with a query result, an unknown name is a success that says so */
    return fn || status ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

/* cuGetProcAddress_v2: the address of a driver function for a CUDA version. */
WS_DRV_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                                           CUdriverProcAddressQueryResult *symbolStatus)
{
    return proc_address(symbol, pfn, cudaVersion, flags, symbolStatus);
}

/* cuGetProcAddress: the CUDA 11.3 form, without the query result. */
WS_DRV_EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
    return proc_address(symbol, pfn, cudaVersion, flags, NULL);
}
