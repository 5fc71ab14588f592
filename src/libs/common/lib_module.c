/* lib_module.c - a library's kernels loaded once per device from the PTX built into it, and their launch. */
#include "lib_module.h"
#include "lib_msg.h"

#include <stdio.h>

/* The module's functions on device, loading them there on first use. */
const CUfunction *ws_lib_kernels(ws_lib_module *m, int device)
{
    if (device < 0 || device >= WS_LIB_MAX_DEVICES || m->count > WS_LIB_MAX_KERNELS) return NULL;
    pthread_mutex_lock(&m->lock);
    struct ws_lib_loaded *k = &m->dev[device];
    if (!k->loaded) {
        k->loaded = 1;
        k->err = cuInit(0);
        if (!k->err) k->err = cuModuleLoadData(&k->mod, m->ptx);
        for (int i = 0; !k->err && i < m->count; i++) k->err = cuModuleGetFunction(&k->fn[i], k->mod, m->names[i]);
        if (k->err && !ws_lib_quiet()) {
            const char *name = NULL;
            cuGetErrorName(k->err, &name);
            fprintf(stderr, "warpsim: %s could not load its kernels on device %d (%s)\n", m->lib, device,
                    name ? name : "error");
        }
    }
    const CUfunction *r = k->err ? NULL : k->fn;
    pthread_mutex_unlock(&m->lock);
    return r;
}

/* Launch one of the module's kernels. */
CUresult ws_lib_launch(ws_lib_module *m, int device, int k, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                       unsigned by, unsigned bz, unsigned shmem, CUstream stream, void **args)
{
    const CUfunction *fn = ws_lib_kernels(m, device);
    if (!fn) return CUDA_ERROR_NOT_INITIALIZED;
    if (k < 0 || k >= m->count) return CUDA_ERROR_INVALID_VALUE;
    if (!gx || !gy || !gz) return CUDA_SUCCESS;
    return cuLaunchKernel(fn[k], gx, gy, gz, bx, by, bz, shmem, stream, args, NULL);
}
