/* pl_nvrtc.c - NVRTC's cubins under warpsim: a program linked with the toolkit's libnvrtc that compiles for a real
 * architecture (-arch=sm_XX) and loads the cubin would hand warpsim SASS only. nvrtcGetCUBIN here (found before
 * NVRTC's, the program's calls bind to it) returns NVRTC's cubin and gives warpsim's driver the program's PTX
 * with it (ws_drv_keep_ptx, src/driver/drv_kept.c), which the driver loads when that cubin is loaded. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WS_PL_EXPORT __attribute__((visibility("default")))

/* NVRTC's functions used here (nvrtc.h's types, as opaque handles and int results; 0 is NVRTC_SUCCESS). */
typedef int (*nvrtc_get_fn)(void *prog, char *out);
typedef int (*nvrtc_size_fn)(void *prog, size_t *size);
typedef void (*keep_fn)(const void *cubin, size_t size, const char *ptx);

/* Warpsim's ws_drv_keep_ptx: from the loaded libcuda.so.1, else from the one beside this library. */
static keep_fn pl_keep(void)
{
    keep_fn k = (keep_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "ws_drv_keep_ptx");
    if (k) return k;
    Dl_info di;
    if (!dladdr((void *)(uintptr_t)pl_keep, &di) || !di.dli_fname) return NULL;
    const char *slash = strrchr(di.dli_fname, '/');
    if (!slash) return NULL;
    size_t n = (size_t)(slash - di.dli_fname);
    char *path = malloc(n + sizeof "/libcuda.so.1");
    if (!path) return NULL;
    memcpy(path, di.dli_fname, n);
    memcpy(path + n, "/libcuda.so.1", sizeof "/libcuda.so.1");
    void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    free(path);
    return h ? (keep_fn)(uintptr_t)dlsym(h, "ws_drv_keep_ptx") : NULL;
}

/* nvrtcGetCUBIN: NVRTC's, and the program's PTX kept by warpsim's driver for when the cubin is loaded. */
WS_PL_EXPORT int nvrtcGetCUBIN(void *prog, char *cubin)
{
    nvrtc_get_fn real = (nvrtc_get_fn)(uintptr_t)dlsym(RTLD_NEXT, "nvrtcGetCUBIN");
    if (!real) return 7;   /* NVRTC_ERROR_INTERNAL_ERROR: no NVRTC behind this one */
    int r = real(prog, cubin);
    if (r != 0 || !cubin) return r;
    nvrtc_size_fn cubin_size = (nvrtc_size_fn)(uintptr_t)dlsym(RTLD_NEXT, "nvrtcGetCUBINSize");
    nvrtc_size_fn ptx_size = (nvrtc_size_fn)(uintptr_t)dlsym(RTLD_NEXT, "nvrtcGetPTXSize");
    nvrtc_get_fn get_ptx = (nvrtc_get_fn)(uintptr_t)dlsym(RTLD_NEXT, "nvrtcGetPTX");
    size_t cs = 0, ps = 0;
    if (!cubin_size || !ptx_size || !get_ptx || cubin_size(prog, &cs) != 0 || ptx_size(prog, &ps) != 0 || !ps)
        return r;
    char *ptx = malloc(ps);
    keep_fn keep = ptx ? pl_keep() : NULL;
    if (keep && get_ptx(prog, ptx) == 0) keep(cubin, cs, ptx);
    free(ptx);
    return r;
}
