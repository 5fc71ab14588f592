/* lib_module.h - a library's own kernels (PTX text built into it from a .cu file as warpsim is built) loaded
 * through warpsim's driver API on each device that uses them, once, on first use. */
#ifndef WS_LIB_MODULE_H
#define WS_LIB_MODULE_H

#include <cuda.h>
#include <pthread.h>

/* Devices a library's kernels can be loaded on (warpsim run --gpus allows 16). */
#define WS_LIB_MAX_DEVICES 16
/* Kernels one library module may hold. */
#define WS_LIB_MAX_KERNELS 64

/* One library's kernel module: its PTX and entry names, and what was loaded on each device. */
typedef struct ws_lib_module {
    const char *lib;                 /* the library's name for messages ("cuBLAS") */
    const char *ptx;                 /* the PTX text */
    const char *const *names;        /* entry names, index = the library's kernel enum */
    int count;
    pthread_mutex_t lock;
    struct ws_lib_loaded {
        int loaded;
        CUresult err;
        CUmodule mod;
        CUfunction fn[WS_LIB_MAX_KERNELS];
    } dev[WS_LIB_MAX_DEVICES];
} ws_lib_module;

/* A module's static initializer: library name, PTX, entry names and their count. */
#define WS_LIB_MODULE_INIT(lib, ptx, names, count) { lib, ptx, names, count, PTHREAD_MUTEX_INITIALIZER, { { 0 } } }

/* The module's functions on device (which must be the current one), loaded there on first use; NULL when they
 * cannot be (said once). */
const CUfunction *ws_lib_kernels(ws_lib_module *m, int device);
/* Launch kernel k of m on device's stream with grid (gx, gy, gz), block (bx, by, bz), dynamic shared memory shmem
 * and argument pointers; CUDA_ERROR_NOT_INITIALIZED when the module cannot be loaded. */
CUresult ws_lib_launch(ws_lib_module *m, int device, int k, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                       unsigned by, unsigned bz, unsigned shmem, CUstream stream, void **args);

#endif
