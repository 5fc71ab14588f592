/* cr_generate.c - the curandGenerate* calls: their argument checks (cuRAND's statuses), the states made on first use
 * (skip-ahead on the simulated GPU), one generate kernel per call, and host generators' copy to host memory. */
#include "cr_internal.h"

#include <stdlib.h>

/* Threads per block of every kernel. */
#define CR_BLOCK 256

/* Blocks of CR_BLOCK threads for n threads. */
static unsigned blocks(unsigned long long n) { return (unsigned)((n + CR_BLOCK - 1) / CR_BLOCK); }

/* Copy a host table of bytes to new device memory at *d. */
static curandStatus_t upload(void **d, const void *h, size_t bytes)
{
    if (cudaMalloc(d, bytes) != cudaSuccess) return CURAND_STATUS_ALLOCATION_FAILED;
    if (cudaMemcpy(*d, h, bytes, cudaMemcpyHostToDevice) != cudaSuccess) return CURAND_STATUS_INTERNAL_ERROR;
    return CURAND_STATUS_SUCCESS;
}

/* The states of a stateful generator (XORWOW, MRG32k3a): each seeded, moved to its subsequence and offset by the
 * init kernel with the jump matrices. */
static curandStatus_t make_states(curandGenerator_t g, cr_kernel init, unsigned states, size_t state_bytes,
                                  const unsigned *mats, size_t mat_bytes)
{
    curandStatus_t s = CURAND_STATUS_SUCCESS;
    if (!g->states && cudaMalloc(&g->states, (size_t)states * state_bytes) != cudaSuccess)
        return CURAND_STATUS_ALLOCATION_FAILED;
    void *dm = NULL;
    s = upload(&dm, mats, mat_bytes);
    if (!s) {
        void *args[] = { &g->states, &dm, &g->seed, &g->pos, &states };
        s = ws_cr_launch(g, init, blocks(states), 1, CR_BLOCK, args);
        if (cudaStreamSynchronize(g->stream) != cudaSuccess && !s) s = CURAND_STATUS_LAUNCH_FAILURE;
    }
    if (dm) cudaFree(dm);
    return s;
}

/* Make the generator's states (or upload Sobol's direction vectors) if stale. */
curandStatus_t ws_cr_prepare(curandGenerator_t g)
{
    if (g->ready) return CURAND_STATUS_SUCCESS;
    curandStatus_t s = CURAND_STATUS_SUCCESS;
    switch (g->type) {
    case CURAND_RNG_PSEUDO_XORWOW:
        s = make_states(g, CR_XORWOW_INIT, ws_cr_states(g), WS_CR_XORWOW_WORDS * 4, ws_cr_xorwow_mats(),
                        sizeof(unsigned) * WS_CR_XORWOW_MATS * WS_CR_XORWOW_MAT_WORDS);
        break;
    case CURAND_RNG_PSEUDO_MRG32K3A:
        s = make_states(g, CR_MRG_INIT, ws_cr_states(g), 6 * 4, ws_cr_mrg_mats(),
                        sizeof(unsigned) * WS_CR_MRG_MATS * WS_CR_MRG_MAT_WORDS);
        break;
    case CURAND_RNG_QUASI_SOBOL32: case CURAND_RNG_QUASI_SOBOL64: {
        int w = g->type == CURAND_RNG_QUASI_SOBOL64 ? 64 : 32;
        size_t bytes = (size_t)g->dims * w * (w / 8);
        void *h = malloc(bytes);
        if (!h) return CURAND_STATUS_ALLOCATION_FAILED;
        for (unsigned d = 0; d < g->dims; d++) {
            if (w == 64) ws_cr_sobol_dirs64(d, (unsigned long long *)h + (size_t)d * 64);
            else ws_cr_sobol_dirs32(d, (unsigned *)h + (size_t)d * 32);
        }
        if (g->dirs) cudaFree(g->dirs);
        g->dirs = NULL;
        s = upload(&g->dirs, h, bytes);
        free(h);
        break;
    }
    default: /* Philox: counter-based, no state */
        break;
    }
    if (!s) g->ready = 1;
    return s;
}

/* Whether kind makes normal pairs. */
static int is_normal(int kind)
{
    return kind == WS_CR_NORMAL || kind == WS_CR_NORMAL_D || kind == WS_CR_LOGNORMAL || kind == WS_CR_LOGNORMAL_D;
}

/* Bytes of one output of kind. */
static size_t out_size(int kind)
{
    return kind == WS_CR_U64 || kind == WS_CR_UNIFORM_D || kind == WS_CR_NORMAL_D || kind == WS_CR_LOGNORMAL_D ? 8 : 4;
}

/* cuRAND's status for a call of kind with n outputs (a: Poisson's lambda). */
static curandStatus_t check(curandGenerator_t g, int kind, size_t n, double a)
{
    int quasi = g->type == CURAND_RNG_QUASI_SOBOL32 || g->type == CURAND_RNG_QUASI_SOBOL64;
    if (kind == WS_CR_U64 && g->type != CURAND_RNG_QUASI_SOBOL64) return CURAND_STATUS_TYPE_ERROR;
    if (kind == WS_CR_U32 && g->type == CURAND_RNG_QUASI_SOBOL64) return CURAND_STATUS_TYPE_ERROR;
    if (kind == WS_CR_POISSON && !(a > 0.0)) return CURAND_STATUS_OUT_OF_RANGE;
    if (quasi && n % g->dims) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    if (!quasi && g->type != CURAND_RNG_PSEUDO_PHILOX4_32_10 && is_normal(kind) && n % 2)
        return CURAND_STATUS_LENGTH_NOT_MULTIPLE; /* Philox makes them by fours and takes any n */
    return CURAND_STATUS_SUCCESS;
}

/* Run the generate kernel of g's algorithm for n outputs of kind into device memory out; advance the position. */
static curandStatus_t run(curandGenerator_t g, int kind, void *out, size_t n, double a, double b)
{
    unsigned long long pos = g->pos, cnt = n;
    int k = kind;
    switch (g->type) {
    case CURAND_RNG_PSEUDO_XORWOW: case CURAND_RNG_PSEUDO_MRG32K3A: {
        unsigned long long items = is_normal(kind) ? cnt / 2 : cnt;
        int xw = g->type == CURAND_RNG_PSEUDO_XORWOW;
        unsigned T = ws_cr_states(g);
        void *args[] = { &g->states, &T, &pos, &items, &k, &out, &a, &b };
        g->pos += items;
        return ws_cr_launch(g, xw ? CR_XORWOW_GEN : CR_MRG_GEN, blocks(items < T ? items : T), 1, CR_BLOCK, args);
    }
    case CURAND_RNG_PSEUDO_PHILOX4_32_10: {
        void *args[] = { &g->seed, &pos, &cnt, &k, &out, &a, &b };
        unsigned long long quads = (pos + cnt - 1) / 4 - pos / 4 + 1;
        g->pos += cnt;
        return ws_cr_launch(g, CR_PHILOX_GEN, blocks(quads), 1, CR_BLOCK, args);
    }
    default: {
        unsigned long long npoints = cnt / g->dims;
        int dims = (int)g->dims;
        void *scramble = NULL;
        void *args[] = { &g->dirs, &scramble, &pos, &npoints, &dims, &k, &out, &a, &b };
        g->pos += npoints;
        return ws_cr_launch(g, g->type == CURAND_RNG_QUASI_SOBOL64 ? CR_SOBOL64_GEN : CR_SOBOL32_GEN,
                            blocks(npoints), g->dims, CR_BLOCK, args);
    }
    }
}

/* One generate call: checks, states, the kernel; a host generator's results are made in device memory and copied. */
static curandStatus_t generate(curandGenerator_t g, int kind, void *out, size_t n, double a, double b)
{
    if (!g) return CURAND_STATUS_NOT_INITIALIZED;
    curandStatus_t s = check(g, kind, n, a);
    if (s || !n) return s;
    if ((s = ws_cr_prepare(g))) return s;
    if (!g->host) return run(g, kind, out, n, a, b);
    void *d = NULL;
    if (cudaMalloc(&d, n * out_size(kind)) != cudaSuccess) return CURAND_STATUS_ALLOCATION_FAILED;
    s = run(g, kind, d, n, a, b);
    if (!s && cudaMemcpyAsync(out, d, n * out_size(kind), cudaMemcpyDeviceToHost, g->stream) != cudaSuccess)
        s = CURAND_STATUS_LAUNCH_FAILURE;
    if (cudaStreamSynchronize(g->stream) != cudaSuccess && !s) s = CURAND_STATUS_LAUNCH_FAILURE;
    cudaFree(d);
    return s;
}

/* curandGenerate: 32-bit integers (not from 64-bit Sobol). */
curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *outputPtr, size_t num)
{
    return generate(generator, WS_CR_U32, outputPtr, num, 0, 0);
}

/* curandGenerateLongLong: 64-bit integers (64-bit Sobol only). */
curandStatus_t curandGenerateLongLong(curandGenerator_t generator, unsigned long long *outputPtr, size_t num)
{
    return generate(generator, WS_CR_U64, outputPtr, num, 0, 0);
}

/* curandGenerateUniform: floats in (0, 1]. */
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num)
{
    return generate(generator, WS_CR_UNIFORM, outputPtr, num, 0, 0);
}

/* curandGenerateUniformDouble: doubles in (0, 1]. */
curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double *outputPtr, size_t num)
{
    return generate(generator, WS_CR_UNIFORM_D, outputPtr, num, 0, 0);
}

/* curandGenerateNormal: normal floats (pseudo-random: Box-Muller pairs, n even). */
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *outputPtr, size_t n, float mean, float stddev)
{
    return generate(generator, WS_CR_NORMAL, outputPtr, n, mean, stddev);
}

/* curandGenerateNormalDouble: normal doubles. */
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n, double mean,
                                          double stddev)
{
    return generate(generator, WS_CR_NORMAL_D, outputPtr, n, mean, stddev);
}

/* curandGenerateLogNormal: exp of normal floats. */
curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float *outputPtr, size_t n, float mean,
                                       float stddev)
{
    return generate(generator, WS_CR_LOGNORMAL, outputPtr, n, mean, stddev);
}

/* curandGenerateLogNormalDouble: exp of normal doubles. */
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n, double mean,
                                             double stddev)
{
    return generate(generator, WS_CR_LOGNORMAL_D, outputPtr, n, mean, stddev);
}

/* curandGeneratePoisson: Poisson integers of mean lambda (our own method: not NVIDIA's numbers). */
curandStatus_t curandGeneratePoisson(curandGenerator_t generator, unsigned int *outputPtr, size_t n, double lambda)
{
    return generate(generator, WS_CR_POISSON, outputPtr, n, lambda, 0);
}
