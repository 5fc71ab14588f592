/* rt_entry.c - cudaGetDriverEntryPoint(ByVersion): a driver function's address from warpsim's driver API
 * (libcuda.so.1 beside this library, else the one the loader finds), through its cuGetProcAddress_v2. */
#include "rt_internal.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* CUDA_ERROR_NOT_FOUND of the driver (the runtime does not include cuda.h) */
enum { WS_RT_DRV_NOT_FOUND = 500 };

/* cuGetProcAddress_v2's shape (CUresult and the query result are ints). */
typedef int (*get_proc_fn)(const char *, void **, int, unsigned long long, int *);

/* The driver's cuGetProcAddress_v2, loaded on first use; NULL when there is no driver library. */
static get_proc_fn driver_get_proc(void)
{
    static get_proc_fn fn;
    static int tried;
    if (tried) return fn;
    tried = 1;
    void *h = NULL;
    Dl_info self;
    if (dladdr((void *)driver_get_proc, &self) && self.dli_fname) {
        char path[PATH_MAX];
        const char *slash = strrchr(self.dli_fname, '/');
        if (slash && (size_t)snprintf(path, sizeof path, "%.*s/libcuda.so.1", (int)(slash - self.dli_fname),
                                      self.dli_fname) < sizeof path)
            h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    }
    if (!h) h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (h) fn = (get_proc_fn)(size_t)dlsym(h, "cuGetProcAddress_v2");
    return fn;
}

/* Look a driver symbol up for cudaVersion; the flags and query results share the driver's values. */
static cudaError_t entry_point(const char *symbol, void **funcPtr, unsigned cudaVersion, unsigned long long flags,
                               enum cudaDriverEntryPointQueryResult *driverStatus)
{
    if (!symbol || !funcPtr) return ws_rt_set_error(cudaErrorInvalidValue);
    get_proc_fn gp = driver_get_proc();
    if (!gp) {
        if (!ws_rt_quiet()) fprintf(stderr, "warpsim: cudaGetDriverEntryPoint: warpsim's libcuda.so.1 was not found\n");
        return ws_rt_set_error(cudaErrorNotSupported);
    }
    int status = 0;
    int r = gp(symbol, funcPtr, (int)cudaVersion, flags, &status);
    if (driverStatus) *driverStatus = (enum cudaDriverEntryPointQueryResult)status;
    if (r && r != WS_RT_DRV_NOT_FOUND) return ws_rt_set_error(cudaErrorInvalidValue);
    return cudaSuccess;
}

/* cudaGetDriverEntryPoint: for the runtime's own CUDA version. */
WS_RT_EXPORT cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                                 enum cudaDriverEntryPointQueryResult *driverStatus)
{
    WS_RT_API();
    return entry_point(symbol, funcPtr, CUDART_VERSION, flags, driverStatus);
}

cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr, unsigned long long flags,
                                         enum cudaDriverEntryPointQueryResult *driverStatus);
/* cudaGetDriverEntryPoint_ptsz: the per-thread default stream build's name. */
WS_RT_EXPORT cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr, unsigned long long flags,
                                                      enum cudaDriverEntryPointQueryResult *driverStatus)
{
    WS_RT_API();
    return entry_point(symbol, funcPtr, CUDART_VERSION, flags, driverStatus);
}

/* cudaGetDriverEntryPointByVersion: for a given CUDA version. */
WS_RT_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                                          unsigned long long flags,
                                                          enum cudaDriverEntryPointQueryResult *driverStatus)
{
    WS_RT_API();
    return entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus);
}

cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                                                  unsigned long long flags,
                                                  enum cudaDriverEntryPointQueryResult *driverStatus);
/* cudaGetDriverEntryPointByVersion_ptsz: the per-thread default stream build's name. */
WS_RT_EXPORT cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr,
                                                               unsigned int cudaVersion, unsigned long long flags,
                                                               enum cudaDriverEntryPointQueryResult *driverStatus)
{
    WS_RT_API();
    return entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus);
}
