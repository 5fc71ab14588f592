/* cr_internal.h - warpsim's cuRAND (libcurand.so.10): NVIDIA's host API whose generators are our own kernels
 * (cr_kernels.cu, built into PTX with warpsim) run on the simulated GPU through the driver API, in the order NVIDIA's
 * default orderings give (measured on an H200: tests/data/h200/curand). Host generators run the same kernels and
 * copy the result to host memory. Every other curand* function NVIDIA exports is a stub (cr_stubs.c). */
#ifndef WS_CR_INTERNAL_H
#define WS_CR_INTERNAL_H

#include <cuda.h>
#include <cuda_runtime.h>
#include <curand.h>

#include "../common/lib_module.h"
#include "../common/lib_msg.h"
#include "cr_kinds.h"

/* Dimensions of Sobol direction vectors NVIDIA's tables have (curandGetDirectionVectors*). */
#define WS_CR_SOBOL_MAX_DIMS 20000

/* What a generator holds. */
struct curandGenerator_st {
    curandRngType_t type;
    int host;                       /* made by curandCreateGeneratorHost: results go to host memory */
    int device;                     /* the device current when it was made */
    cudaStream_t stream;
    unsigned long long seed;
    unsigned long long pos;         /* position of the next output (pseudo: in the generator's items; Sobol: point) */
    curandOrdering_t ordering;
    unsigned dims;                  /* Sobol dimensions */
    int ready;                      /* states made for the current seed and offset */
    void *states;                   /* device: XORWOW / MRG32k3a states */
    void *dirs;                     /* device: Sobol direction vectors, dims x 32 (or 64) */
};

/* The kernels of cr_kernels.cu. */
typedef enum cr_kernel {
    CR_XORWOW_INIT, CR_XORWOW_GEN, CR_MRG_INIT, CR_MRG_GEN, CR_PHILOX_GEN, CR_SOBOL32_GEN, CR_SOBOL64_GEN,
    CR_KERNEL_COUNT
} cr_kernel;

/* Launch kernel k on the generator's stream over gx x gy blocks of bx threads with argument pointers. */
curandStatus_t ws_cr_launch(curandGenerator_t g, cr_kernel k, unsigned gx, unsigned gy, unsigned bx, void **args);
/* The number of states (threads) of g's algorithm and ordering. */
unsigned ws_cr_states(curandGenerator_t g);
/* Make the generator's states (skip-ahead to each state's subsequence and the offset) if seed or offset changed. */
curandStatus_t ws_cr_prepare(curandGenerator_t g);
/* Free the generator's device memory and mark its states stale. */
void ws_cr_release(curandGenerator_t g);
/* XORWOW's jump matrices M^(2^k), k < WS_CR_XORWOW_MATS, WS_CR_XORWOW_MAT_WORDS words each (made once). */
const unsigned *ws_cr_xorwow_mats(void);
/* MRG32k3a's jump matrices of both components, WS_CR_MRG_MATS of WS_CR_MRG_MAT_WORDS words (made once). */
const unsigned *ws_cr_mrg_mats(void);
/* Joe and Kuo's 32-bit direction vectors of dimension d (32 words), 0 when d is beyond the built-in table. */
int ws_cr_sobol_dirs32(unsigned d, unsigned *v);
/* The same with 64 bits. */
int ws_cr_sobol_dirs64(unsigned d, unsigned long long *v);
/* Dimensions whose direction numbers warpsim has. */
unsigned ws_cr_sobol_dims(void);

#endif
