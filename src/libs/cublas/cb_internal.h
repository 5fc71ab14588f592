/* cb_internal.h - warpsim's cuBLAS (libcublas.so.13): a subset of NVIDIA's cuBLAS API whose operations are our own
 * kernels (cb_kernels.cu, built into PTX with warpsim) run on the simulated GPU through the driver API, so their
 * launches, counters, checks and times are the simulator's like the program's own. Every other cublas* function
 * NVIDIA exports is a stub that says so and returns CUBLAS_STATUS_NOT_SUPPORTED (cb_stubs.c). */
#ifndef WS_CB_INTERNAL_H
#define WS_CB_INTERNAL_H

#include <cublas_v2.h>
#include <cuda.h>

#include "../common/lib_module.h"
#include "../common/lib_msg.h"

/* What a handle holds. */
struct cublasContext {
    int device;                    /* the device current when it was made */
    cudaStream_t stream;           /* the stream its kernels go to (0: the default stream) */
    cublasPointerMode_t pointer_mode;
    cublasMath_t math_mode;
    cublasAtomicsMode_t atomics_mode;
    void *workspace;               /* cublasSetWorkspace's (kept, never needed) */
    size_t workspace_bytes;
};

/* The kernels of cb_kernels.cu. */
typedef enum cb_kernel {
    CB_SGEMM, CB_SGEMV, CB_SREDUCE, CB_ISAMAX, CB_SELEMENTWISE,
    CB_DGEMM, CB_DGEMV, CB_DREDUCE, CB_IDAMAX, CB_DELEMENTWISE,
    CB_KERNEL_COUNT
} cb_kernel;
/* cb_kernels.cu's reduction and element-wise operation codes. */
enum { CB_RED_DOT, CB_RED_NRM2, CB_RED_ASUM };
enum { CB_EW_AXPY, CB_EW_SCAL, CB_EW_COPY, CB_EW_SWAP };

/* Launch kernel k on the handle's stream with the given grid and block (x, y, z) and argument pointers. */
cublasStatus_t ws_cb_launch(cublasHandle_t h, cb_kernel k, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                            unsigned by, void **args);
/* Read a scalar argument (alpha, beta) of size bytes in the handle's pointer mode into out. */
cublasStatus_t ws_cb_scalar(cublasHandle_t h, const void *p, void *out, size_t size);
/* Deliver a result of size bytes the kernel wrote to device scratch memory to result (host or device pointer, as
 * the pointer mode says); frees the scratch. */
cublasStatus_t ws_cb_deliver(cublasHandle_t h, void *scratch, void *result, size_t size);

#endif
