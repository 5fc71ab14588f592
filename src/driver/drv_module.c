/* drv_module.c - modules and libraries from PTX text, fatbins and ELF images (loaded by the runtime,
 * rt_bridge.h), their functions and globals, and function attributes. A CUmodule and a CUlibrary are the same
 * loaded module; a CUfunction and a CUkernel are the runtime's kernel handle. */
#include "drv_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first option value of kind opt among JIT options, or NULL. */
static void *jit_option(unsigned n, const CUjit_option *opts, void **vals, CUjit_option opt)
{
    for (unsigned i = 0; opts && vals && i < n; i++)
        if (opts[i] == opt) return vals[i];
    return NULL;
}

/* Load image as a module; a failure's message goes to the JIT error log when the caller gave one. */
static CUresult load(void **mod, const void *image, size_t size, const char *origin, unsigned nopt,
                     const CUjit_option *opts, void **vals)
{
    char msg[1200] = "";
    const char *kept = ws_drv_kept_ptx(image, size);   /* a cubin from NVRTC: the PTX it came from */
    cudaError_t e = kept ? ws_rtx_module_load(kept, 0, origin, mod, msg, sizeof msg)
                         : ws_rtx_module_load(image, size, origin, mod, msg, sizeof msg);
    char *log = jit_option(nopt, opts, vals, CU_JIT_ERROR_LOG_BUFFER);
    size_t logsize = (size_t)(uintptr_t)jit_option(nopt, opts, vals, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
    if (log && logsize) snprintf(log, logsize, "%s", e ? msg : "");
    char *info = jit_option(nopt, opts, vals, CU_JIT_INFO_LOG_BUFFER);
    size_t infosize = (size_t)(uintptr_t)jit_option(nopt, opts, vals, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES);
    if (info && infosize) info[0] = 0;
    if (e == cudaErrorInvalidKernelImage) return CUDA_ERROR_INVALID_IMAGE;
    if (e == cudaErrorNoKernelImageForDevice) return CUDA_ERROR_NO_BINARY_FOR_GPU;
    return ws_drv_from_rt(e);
}

/* Read a whole file (NUL-terminated); NULL when it cannot be read. */
static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4097 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); return NULL; }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    buf[n] = 0;
    *size = n;
    return buf;
}

/* Load a module from a file; CUDA_ERROR_FILE_NOT_FOUND when it cannot be read. */
static CUresult load_file(void **mod, const char *fname)
{
    if (!mod || !fname) return CUDA_ERROR_INVALID_VALUE;
    size_t size = 0;
    char *img = slurp(fname, &size);
    if (!img) return CUDA_ERROR_FILE_NOT_FOUND;
    CUresult r = load(mod, img, size, fname, 0, NULL, NULL);
    free(img);   /* the runtime keeps its own copy of the PTX */
    return r;
}

/* cuModuleLoad: a module from a file (PTX, fatbin, or an ELF carrying PTX). */
WS_DRV_EXPORT CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(load_file((void **)module, fname));
}

/* cuModuleLoadData: a module from memory. */
WS_DRV_EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    WS_DRV_ENTER_CTX();
    if (!module || !image) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RET(load((void **)module, image, 0, "the cuModuleLoadData image", 0, NULL, NULL));
}

/* cuModuleLoadDataEx: the same with JIT options (logs are filled; optimisation options do not apply). */
WS_DRV_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                          CUjit_option *options, void **optionValues)
{
    WS_DRV_ENTER_CTX();
    if (!module || !image) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RET(load((void **)module, image, 0, "the cuModuleLoadDataEx image", numOptions, options, optionValues));
}

/* cuModuleLoadFatBinary: a module from a fatbin. */
WS_DRV_EXPORT CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin)
{
    WS_DRV_ENTER_CTX();
    if (!module || !fatCubin) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RET(load((void **)module, fatCubin, 0, "the cuModuleLoadFatBinary image", 0, NULL, NULL));
}

/* cuModuleUnload: its functions become invalid handles. */
WS_DRV_EXPORT CUresult cuModuleUnload(CUmodule hmod)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RT(ws_rtx_module_unload(hmod));
}

/* A kernel of a module by name. */
static CUresult get_function(CUfunction *hfunc, void *mod, const char *name)
{
    if (!hfunc || !name) return CUDA_ERROR_INVALID_VALUE;
    if (!ws_rtx_module_valid(mod)) return CUDA_ERROR_INVALID_HANDLE;
    cudaError_t e = ws_rtx_module_function(mod, name, (void **)hfunc);
    return e == cudaErrorInvalidDeviceFunction ? CUDA_ERROR_NOT_FOUND : ws_drv_from_rt(e);
}

/* cuModuleGetFunction: a kernel by its (mangled) name. */
WS_DRV_EXPORT CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(get_function(hfunc, hmod, name));
}

/* A module variable by name. */
static CUresult get_global(CUdeviceptr *dptr, size_t *bytes, void *mod, const char *name)
{
    if (!name || (!dptr && !bytes)) return CUDA_ERROR_INVALID_VALUE;
    if (!ws_rtx_module_valid(mod)) return CUDA_ERROR_INVALID_HANDLE;
    unsigned long long a = 0;
    size_t s = 0;
    cudaError_t e = ws_rtx_module_global(mod, name, &a, &s);
    if (e) return e == cudaErrorInvalidSymbol ? CUDA_ERROR_NOT_FOUND : ws_drv_from_rt(e);
    if (dptr) *dptr = (CUdeviceptr)a;
    if (bytes) *bytes = s;
    return CUDA_SUCCESS;
}

/* cuModuleGetGlobal_v2: a __device__ / __constant__ variable's address and size. */
WS_DRV_EXPORT CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name)
{
    WS_DRV_ENTER_CTX();
    WS_DRV_RET(get_global(dptr, bytes, hmod, name));
}

/* cuModuleGetFunctionCount: how many kernels a module has. */
WS_DRV_EXPORT CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod)
{
    WS_DRV_ENTER_CTX();
    if (!count) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!ws_rtx_module_valid(mod)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    *count = (unsigned)ws_rtx_module_functions(mod, 0, NULL);
    return CUDA_SUCCESS;
}

/* cuModuleEnumerateFunctions: the first numFunctions kernels. */
WS_DRV_EXPORT CUresult cuModuleEnumerateFunctions(CUfunction *functions, unsigned int numFunctions, CUmodule mod)
{
    WS_DRV_ENTER_CTX();
    if (!functions) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!ws_rtx_module_valid(mod)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    int n = ws_rtx_module_functions(mod, 0, NULL);
    for (int i = 0; i < n && (unsigned)i < numFunctions; i++) ws_rtx_module_functions(mod, i, (void **)&functions[i]);
    return CUDA_SUCCESS;
}

/* cuModuleGetLoadingMode: modules load eagerly. */
WS_DRV_EXPORT CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode)
{
    WS_DRV_ENTER();
    if (!mode) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    *mode = CU_MODULE_EAGER_LOADING;
    return CUDA_SUCCESS;
}

/* ---- libraries: context-independent modules (here: modules) ---- */

/* cuLibraryLoadData: a library from memory. */
WS_DRV_EXPORT CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                         void **jitOptionsValues, unsigned int numJitOptions,
                                         CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                         unsigned int numLibraryOptions)
{
    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    WS_DRV_ENTER();
    if (!library || !code) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    WS_DRV_RET(load((void **)library, code, 0, "the cuLibraryLoadData image", numJitOptions, jitOptions,
                    jitOptionsValues));
}

/* cuLibraryLoadFromFile: a library from a file. */
WS_DRV_EXPORT CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName, CUjit_option *jitOptions,
                                             void **jitOptionsValues, unsigned int numJitOptions,
                                             CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                             unsigned int numLibraryOptions)
{
    (void)jitOptions, (void)jitOptionsValues, (void)numJitOptions;
    (void)libraryOptions, (void)libraryOptionValues, (void)numLibraryOptions;
    WS_DRV_ENTER();
    WS_DRV_RET(load_file((void **)library, fileName));
}

/* cuLibraryUnload: as cuModuleUnload. */
WS_DRV_EXPORT CUresult cuLibraryUnload(CUlibrary library)
{
    WS_DRV_ENTER();
    WS_DRV_RT(ws_rtx_module_unload(library));
}

/* cuLibraryGetKernel: a kernel by name (the same handle as the module's function). */
WS_DRV_EXPORT CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
    WS_DRV_ENTER();
    WS_DRV_RET(get_function((CUfunction *)pKernel, library, name));
}

/* cuLibraryGetModule: the library's module (itself). */
WS_DRV_EXPORT CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
    WS_DRV_ENTER();
    if (!pMod) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!ws_rtx_module_valid(library)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    *pMod = (CUmodule)library;
    return CUDA_SUCCESS;
}

/* cuLibraryGetGlobal: a library variable. */
WS_DRV_EXPORT CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library, const char *name)
{
    WS_DRV_ENTER();
    WS_DRV_RET(get_global(dptr, bytes, library, name));
}

/* cuLibraryGetKernelCount: kernels of a library. */
WS_DRV_EXPORT CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
    WS_DRV_ENTER();
    if (!count) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!ws_rtx_module_valid(lib)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    *count = (unsigned)ws_rtx_module_functions(lib, 0, NULL);
    return CUDA_SUCCESS;
}

/* cuKernelGetFunction: the function of a kernel in the current context (the same handle). */
WS_DRV_EXPORT CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    WS_DRV_ENTER_CTX();
    if (!pFunc) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!ws_rtx_func_valid(kernel)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    *pFunc = (CUfunction)kernel;
    return CUDA_SUCCESS;
}

/* cuKernelGetName: a kernel's mangled name. */
WS_DRV_EXPORT CUresult cuKernelGetName(const char **name, CUkernel hfunc)
{
    WS_DRV_ENTER();
    if (!name) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    *name = ws_rtx_func_name(hfunc);
    WS_DRV_RET(*name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE);
}

/* ---- function attributes ---- */

/* cuFuncGetAttribute: from the runtime's cudaFuncGetAttributes. */
WS_DRV_EXPORT CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    WS_DRV_ENTER_CTX();
    if (!pi) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!ws_rtx_func_valid(hfunc)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    struct cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, hfunc);
    if (e) WS_DRV_RT(e);
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = a.maxThreadsPerBlock; break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = (int)a.sharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = (int)a.constSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = (int)a.localSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = a.numRegs; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = a.ptxVersion; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = a.binaryVersion; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = a.cacheModeCA; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = a.maxDynamicSharedSizeBytes; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = a.preferredShmemCarveout; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        *pi = 0;
        break;
    default: WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    }
    return CUDA_SUCCESS;
}

/* cuFuncSetAttribute: the dynamic shared memory limit and the carve-out (through the runtime). */
WS_DRV_EXPORT CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    WS_DRV_ENTER_CTX();
    if (!ws_rtx_func_valid(hfunc)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        WS_DRV_RT(cudaFuncSetAttribute(hfunc, cudaFuncAttributeMaxDynamicSharedMemorySize, value));
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        WS_DRV_RT(cudaFuncSetAttribute(hfunc, cudaFuncAttributePreferredSharedMemoryCarveout, value));
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
        WS_DRV_RT(cudaFuncSetAttribute(hfunc, cudaFuncAttributeNonPortableClusterSizeAllowed, value));
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        return ws_drv_missing("cuFuncSetAttribute (cluster attributes)");
    default: WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    }
}

/* cuFuncSetCacheConfig: recorded by the runtime. */
WS_DRV_EXPORT CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    WS_DRV_ENTER_CTX();
    if (!ws_rtx_func_valid(hfunc)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    WS_DRV_RT(cudaFuncSetCacheConfig(hfunc, (enum cudaFuncCache)config));
}

/* cuFuncSetSharedMemConfig: deprecated; accepted. */
WS_DRV_EXPORT CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config)
{
    WS_DRV_ENTER_CTX();
    if (!ws_rtx_func_valid(hfunc)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    if ((unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    return CUDA_SUCCESS;
}

/* cuFuncGetName: a function's mangled name. */
WS_DRV_EXPORT CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
    WS_DRV_ENTER();
    if (!name) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    *name = ws_rtx_func_name(hfunc);
    WS_DRV_RET(*name ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE);
}

/* cuFuncGetModule: the module a function came from. */
WS_DRV_EXPORT CUresult cuFuncGetModule(CUmodule *hmod, CUfunction hfunc)
{
    WS_DRV_ENTER();
    if (!hmod) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!ws_rtx_func_valid(hfunc)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    *hmod = (CUmodule)ws_rtx_func_module(hfunc);
    WS_DRV_RET(*hmod ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND);
}

/* cuFuncGetParamInfo: offset and size of one parameter. */
WS_DRV_EXPORT CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    WS_DRV_ENTER();
    int n = 0;
    const size_t *off = NULL, *sz = NULL;
    cudaError_t e = ws_rtx_func_params(func, &n, &off, &sz, NULL);
    if (e) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    if (paramIndex >= (size_t)n) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (paramOffset) *paramOffset = off[paramIndex];
    if (paramSize) *paramSize = sz[paramIndex];
    return CUDA_SUCCESS;
}

/* cuFuncIsLoaded: every function is loaded. */
WS_DRV_EXPORT CUresult cuFuncIsLoaded(CUfunctionLoadingState *state, CUfunction function)
{
    WS_DRV_ENTER();
    if (!state) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    if (!ws_rtx_func_valid(function)) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    *state = CU_FUNCTION_LOADING_STATE_LOADED;
    return CUDA_SUCCESS;
}

/* cuFuncLoad: nothing to do (loaded with its module). */
WS_DRV_EXPORT CUresult cuFuncLoad(CUfunction function)
{
    WS_DRV_ENTER();
    WS_DRV_RET(ws_rtx_func_valid(function) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE);
}

/* cuKernelGetAttribute: as cuFuncGetAttribute (one device). */
WS_DRV_EXPORT CUresult cuKernelGetAttribute(int *pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)
{
    if (dev != 0) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    return cuFuncGetAttribute(pi, attrib, (CUfunction)kernel);
}

/* cuKernelSetAttribute: as cuFuncSetAttribute. */
WS_DRV_EXPORT CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)
{
    if (dev != 0) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    return cuFuncSetAttribute((CUfunction)kernel, attrib, val);
}

/* cuKernelSetCacheConfig: as cuFuncSetCacheConfig. */
WS_DRV_EXPORT CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)
{
    if (dev != 0) WS_DRV_RET(CUDA_ERROR_INVALID_DEVICE);
    return cuFuncSetCacheConfig((CUfunction)kernel, config);
}
