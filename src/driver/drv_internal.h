/* drv_internal.h - shared state of warpsim's CUDA driver API (libcuda.so.1). The driver is a face over the
 * runtime face: it serves every call through libcudart.so.13 (the CUDA runtime API for devices, memory, streams,
 * events and launches, and src/runtime/rt_bridge.h for modules loaded from memory), so both APIs see one simulated
 * device, one memory and one set of streams: a CUdeviceptr is a device pointer, CUstream is cudaStream_t, CUevent
 * is cudaEvent_t, a CUfunction is the runtime's cudaKernel_t, and the primary context is the runtime's. */
#ifndef WS_DRV_INTERNAL_H
#define WS_DRV_INTERNAL_H

/* build as NVIDIA builds its driver: every versioned name (cuMemAlloc_v2 and the older cuMemAlloc, the
 * per-thread-stream _ptds/_ptsz forms) is declared under its own name */
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stddef.h>

#include "../runtime/rt_bridge.h"

#define WS_DRV_EXPORT __attribute__((visibility("default")))
#define WS_DRV_CTX_MAGIC 0x57444358u

/* A context: the primary one (shared with the runtime) or one made by cuCtxCreate. All share the one device. */
typedef struct ws_drv_ctx {
    unsigned magic;              /* WS_DRV_CTX_MAGIC while alive */
    int primary;
    unsigned flags;
    unsigned long long id;
    struct ws_drv_ctx *next;
    int device;                  /* the simulated device it stands for */
} ws_drv_ctx;

/* The per-thread-default-stream form of an implemented function (the _ptds/_ptsz symbol that code built with
 * CUDA_API_PER_THREAD_DEFAULT_STREAM calls): the same function, since one queue serves both default streams. */
#define WS_DRV_PT_ALIAS(fn, pt_name) \
    extern __typeof__(fn) pt_name __attribute__((alias(#fn), visibility("default")))

/* ---- drv_errors.c ---- */
/* The driver's code for a runtime status. */
CUresult ws_drv_from_rt(cudaError_t e);
/* Return r from an API call: a failure is reported under --check with the call's name. */
CUresult ws_drv_ret(CUresult r, const char *func);
/* An unimplemented driver function: says so once (by name) and returns CUDA_ERROR_NOT_SUPPORTED. */
CUresult ws_drv_missing(const char *func);
/* Whether warpsim's messages are silenced. */
int ws_drv_quiet(void);

/* ---- drv_context.c ---- */
/* CUDA_SUCCESS when cuInit has run, else CUDA_ERROR_NOT_INITIALIZED. */
CUresult ws_drv_inited(void);
/* CUDA_SUCCESS when cuInit has run and the calling thread has a current context. */
CUresult ws_drv_need_ctx(void);
/* The calling thread's current context (the runtime's primary context once the runtime used the device). */
ws_drv_ctx *ws_drv_current(void);
/* The primary context of the runtime's current device. */
ws_drv_ctx *ws_drv_primary(void);
/* The primary context of device dev (0 .. WS_DRV_MAX_DEVICES-1). */
ws_drv_ctx *ws_drv_primary_of(int dev);
#define WS_DRV_MAX_DEVICES 16
/* Whether c is a live context. */
int ws_drv_ctx_valid(const ws_drv_ctx *c);
/* Take / release the driver's lock (its own state: contexts; the runtime locks the device itself). */
void ws_drv_lock(void);
void ws_drv_unlock(void);

/* The scope of a driver call: the runtime calls it makes leave the runtime's last error alone, are not reported
 * under --check as the runtime's (the driver reports a failure under its own name), and the host timeline records
 * the call under the driver function's name. */
typedef struct { int on; } ws_drv_scope;
/* End of a driver call's scope (the cleanup of WS_DRV_SCOPE). */
static inline void ws_drv_scope_end(ws_drv_scope *s) { if (s->on) ws_rtx_driver_return(); }
#define WS_DRV_SCOPE() \
    ws_drv_scope ws_drv_scope_ __attribute__((cleanup(ws_drv_scope_end), unused)) = { (ws_rtx_driver_call(__func__), 1) }
/* Start an API call that needs cuInit and a current context: returns from the function with the error if not. */
#define WS_DRV_ENTER_CTX() \
    WS_DRV_SCOPE(); \
    do { CUresult r_ = ws_drv_need_ctx(); if (r_) return ws_drv_ret(r_, __func__); } while (0)
/* Start an API call that needs cuInit only. */
#define WS_DRV_ENTER() \
    WS_DRV_SCOPE(); \
    do { CUresult r_ = ws_drv_inited(); if (r_) return ws_drv_ret(r_, __func__); } while (0)
/* Return a runtime status as the driver's. */
#define WS_DRV_RT(e) return ws_drv_ret(ws_drv_from_rt(e), __func__)
/* Return a driver status. */
#define WS_DRV_RET(r) return ws_drv_ret((r), __func__)

/* ---- drv_launch.c ---- */
#define WS_DRV_MAX_PARAMS 4096   /* parameters a kernel can have (4 KiB..32 KiB of parameter space) */
/* The argument pointers of a launch of f from kernelParams or the `extra` buffer: *args_out is kernelParams, or
 * args_buf (WS_DRV_MAX_PARAMS entries) filled with pointers into the extra buffer. */
CUresult ws_drv_launch_args(CUfunction f, void **kernelParams, void **extra, void ***args_out, void **args_buf);

/* ---- drv_kept.c ---- */
/* The PTX that NVRTC compiled the cubin at image into (size bytes, 0 when unknown), or NULL (see drv_kept.c). */
const char *ws_drv_kept_ptx(const void *image, size_t size);

/* ---- drv_proc.c ---- */
/* The address of driver function `name` as exported (exact symbol), or NULL. */
void *ws_drv_symbol(const char *name);

#endif
