/* cb_blas.c - warpsim's cuBLAS: the BLAS operations it simulates, single and double precision (levels 1, 2 and 3),
 * each a launch of one of our kernels on the handle's stream after the checks cuBLAS makes of its arguments. */
#include "cb_internal.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Threads per block of the element-wise and gemv kernels; the reductions' one block (cb_kernels.cu). */
#define CB_THREADS 256

/* 0 for CUBLAS_OP_N, 1 for T or C (the same for real matrices), -1 for anything else. */
static int op_code(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? 0 : op == CUBLAS_OP_T || op == CUBLAS_OP_C ? 1 : -1;
}

/* Blocks of CB_THREADS threads for n elements. */
static unsigned blocks_for(long long n) { return (unsigned)((n + CB_THREADS - 1) / CB_THREADS); }

/* C = alpha op(A) op(B) + beta C for batch matrices strides apart; T is float (dbl 0) or double (dbl 1). */
static cublasStatus_t gemm_any(cublasHandle_t h, int dbl, cublasOperation_t transa, cublasOperation_t transb, int m,
                               int n, int k, const void *alpha, const void *A, int lda, long long sa, const void *B,
                               int ldb, long long sb, const void *beta, void *C, int ldc, long long sc, int batch)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    int ta = op_code(transa), tb = op_code(transb);
    if (ta < 0 || tb < 0 || m < 0 || n < 0 || k < 0 || batch < 0 || lda < (ta ? (k > 1 ? k : 1) : (m > 1 ? m : 1)) ||
        ldb < (tb ? (n > 1 ? n : 1) : (k > 1 ? k : 1)) || ldc < (m > 1 ? m : 1))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!m || !n || !batch) return CUBLAS_STATUS_SUCCESS;
    size_t es = dbl ? sizeof(double) : sizeof(float);
    union { float f; double d; } al, be;
    cublasStatus_t st = ws_cb_scalar(h, alpha, &al, es);
    if (!st) st = ws_cb_scalar(h, beta, &be, es);
    if (st) return st;
    void *args[] = { &ta, &tb, &m, &n, &k, &al, (void *)&A, &lda, &sa, (void *)&B, &ldb, &sb, &be, &C, &ldc, &sc };
    return ws_cb_launch(h, dbl ? CB_DGEMM : CB_SGEMM, (unsigned)(m + 15) / 16, (unsigned)(n + 15) / 16,
                        (unsigned)batch, 16, 16, args);
}

/* The same for arrays of matrix pointers (cublas?gemmBatched): one launch per matrix. */
static cublasStatus_t gemm_ptrs(cublasHandle_t h, int dbl, cublasOperation_t transa, cublasOperation_t transb, int m,
                                int n, int k, const void *alpha, const void *const Aarray[], int lda,
                                const void *const Barray[], int ldb, const void *beta, void *const Carray[], int ldc,
                                int batch)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (batch < 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (!batch) return CUBLAS_STATUS_SUCCESS;
    void **p = malloc(3 * (size_t)batch * sizeof *p);
    if (!p) return CUBLAS_STATUS_ALLOC_FAILED;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    /* the pointer arrays live in device memory */
    if (cudaStreamSynchronize(h->stream) != cudaSuccess ||
        cudaMemcpy(p, Aarray, (size_t)batch * sizeof *p, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(p + batch, Barray, (size_t)batch * sizeof *p, cudaMemcpyDeviceToHost) != cudaSuccess ||
        cudaMemcpy(p + 2 * batch, Carray, (size_t)batch * sizeof *p, cudaMemcpyDeviceToHost) != cudaSuccess)
        st = CUBLAS_STATUS_EXECUTION_FAILED;
    for (int i = 0; !st && i < batch; i++)
        st = gemm_any(h, dbl, transa, transb, m, n, k, alpha, p[i], lda, 0, p[batch + i], ldb, 0, beta,
                      p[2 * batch + i], ldc, 0, 1);
    free(p);
    return st;
}

/* y = alpha op(A) x + beta y. */
static cublasStatus_t gemv_any(cublasHandle_t h, int dbl, cublasOperation_t trans, int m, int n, const void *alpha,
                               const void *A, int lda, const void *x, int incx, const void *beta, void *y, int incy)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    int ta = op_code(trans);
    if (ta < 0 || m < 0 || n < 0 || lda < (m > 1 ? m : 1) || !incx || !incy) return CUBLAS_STATUS_INVALID_VALUE;
    if (!m || !n) return CUBLAS_STATUS_SUCCESS;
    size_t es = dbl ? sizeof(double) : sizeof(float);
    union { float f; double d; } al, be;
    cublasStatus_t st = ws_cb_scalar(h, alpha, &al, es);
    if (!st) st = ws_cb_scalar(h, beta, &be, es);
    if (st) return st;
    void *args[] = { &ta, &m, &n, &al, (void *)&A, &lda, (void *)&x, &incx, &be, &y, &incy };
    return ws_cb_launch(h, dbl ? CB_DGEMV : CB_SGEMV, blocks_for(ta ? n : m), 1, 1, CB_THREADS, 1, args);
}

/* dot, nrm2 or asum of n elements into result (host or device, as the pointer mode says). */
static cublasStatus_t reduce_any(cublasHandle_t h, int dbl, int what, int n, const void *x, int incx, const void *y,
                                 int incy, void *result)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!result) return CUBLAS_STATUS_INVALID_VALUE;
    size_t es = dbl ? sizeof(double) : sizeof(float);
    if (n < 0) n = 0;
    void *scratch = NULL;
    if (cudaMalloc(&scratch, es) != cudaSuccess) return CUBLAS_STATUS_ALLOC_FAILED;
    void *args[] = { &what, &n, (void *)&x, &incx, (void *)&y, &incy, &scratch };
    cublasStatus_t st = ws_cb_launch(h, dbl ? CB_DREDUCE : CB_SREDUCE, 1, 1, 1, CB_THREADS, 1, args);
    if (st) {
        cudaFree(scratch);
        return st;
    }
    return ws_cb_deliver(h, scratch, result, es);
}

/* The 1-based index of the largest (amin 0) or smallest (amin 1) absolute value. */
static cublasStatus_t iamax_any(cublasHandle_t h, int dbl, int amin, int n, const void *x, int incx, int *result)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!result) return CUBLAS_STATUS_INVALID_VALUE;
    if (n < 0 || incx <= 0) n = 0;   /* BLAS: 0 for n <= 0 or incx <= 0 */
    void *scratch = NULL;
    if (cudaMalloc(&scratch, sizeof(int)) != cudaSuccess) return CUBLAS_STATUS_ALLOC_FAILED;
    void *args[] = { &amin, &n, (void *)&x, &incx, &scratch };
    cublasStatus_t st = ws_cb_launch(h, dbl ? CB_IDAMAX : CB_ISAMAX, 1, 1, 1, CB_THREADS, 1, args);
    if (st) {
        cudaFree(scratch);
        return st;
    }
    return ws_cb_deliver(h, scratch, result, sizeof(int));
}

/* axpy, scal, copy or swap over n elements. */
static cublasStatus_t elementwise_any(cublasHandle_t h, int dbl, int what, int n, const void *alpha, void *x,
                                      int incx, void *y, int incy)
{
    if (!h) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    union { float f; double d; } al = { 0 };
    if (alpha) {
        cublasStatus_t st = ws_cb_scalar(h, alpha, &al, dbl ? sizeof(double) : sizeof(float));
        if (st) return st;
    }
    void *args[] = { &what, &n, &al, &x, &incx, &y, &incy };
    return ws_cb_launch(h, dbl ? CB_DELEMENTWISE : CB_SELEMENTWISE, blocks_for(n), 1, 1, CB_THREADS, 1, args);
}

/* Whether 64-bit sizes fit the 32-bit kernels. */
static int fits(int64_t a, int64_t b, int64_t c, int64_t d, int64_t e, int64_t f)
{
    return a <= INT_MAX && b <= INT_MAX && c <= INT_MAX && d <= INT_MAX && e <= INT_MAX && f <= INT_MAX &&
           a >= INT_MIN && b >= INT_MIN && c >= INT_MIN && d >= INT_MIN && e >= INT_MIN && f >= INT_MIN;
}

/* Say once that a form of a supported function is not simulated; CUBLAS_STATUS_NOT_SUPPORTED. */
static cublasStatus_t unsupported(const char *what)
{
    static int said;
    if (!said && !ws_lib_quiet())
        fprintf(stderr, "warpsim: cuBLAS: %s is not simulated (CUBLAS_STATUS_NOT_SUPPORTED)\n", what);
    said = 1;
    return CUBLAS_STATUS_NOT_SUPPORTED;
}

/* The S and D forms of every simulated function. */
#define WS_CB_REAL(T, P, p, DBL)                                                                                       \
    /* cublas?gemm_v2: C = alpha op(A) op(B) + beta C. */                                                         \
    cublasStatus_t cublas##P##gemm_v2(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, \
                                      int k, const T *alpha, const T *A, int lda, const T *B, int ldb,           \
                                      const T *beta, T *C, int ldc)                                               \
    { return gemm_any(h, DBL, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1); }               \
    /* cublas?gemm_v2_64: the same with 64-bit sizes (those that fit 32 bits). */                                 \
    cublasStatus_t cublas##P##gemm_v2_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, \
                                         int64_t n, int64_t k, const T *alpha, const T *A, int64_t lda,         \
                                         const T *B, int64_t ldb, const T *beta, T *C, int64_t ldc)              \
    {                                                                                                              \
        if (!fits(m, n, k, lda, ldb, ldc)) return unsupported("a matrix dimension of 2^31 or more");             \
        return gemm_any(h, DBL, ta, tb, (int)m, (int)n, (int)k, alpha, A, (int)lda, 0, B, (int)ldb, 0, beta, C,  \
                        (int)ldc, 0, 1);                                                                          \
    }                                                                                                              \
    /* cublas?gemmStridedBatched: batchCount products, matrices strides apart. */                                 \
    cublasStatus_t cublas##P##gemmStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,    \
                                                 int m, int n, int k, const T *alpha, const T *A, int lda,       \
                                                 long long sa, const T *B, int ldb, long long sb, const T *beta,  \
                                                 T *C, int ldc, long long sc, int batch)                          \
    { return gemm_any(h, DBL, ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, batch); }        \
    /* cublas?gemmBatched: batchCount products through arrays of device pointers. */                              \
    cublasStatus_t cublas##P##gemmBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,    \
                                          int n, int k, const T *alpha, const T *const A[], int lda,             \
                                          const T *const B[], int ldb, const T *beta, T *const C[], int ldc,     \
                                          int batch)                                                              \
    {                                                                                                              \
        return gemm_ptrs(h, DBL, ta, tb, m, n, k, alpha, (const void *const *)A, lda, (const void *const *)B, ldb, \
                         beta, (void *const *)C, ldc, batch);                                                     \
    }                                                                                                              \
    /* cublas?gemv_v2: y = alpha op(A) x + beta y. */                                                             \
    cublasStatus_t cublas##P##gemv_v2(cublasHandle_t h, cublasOperation_t t, int m, int n, const T *alpha,        \
                                      const T *A, int lda, const T *x, int incx, const T *beta, T *y, int incy)  \
    { return gemv_any(h, DBL, t, m, n, alpha, A, lda, x, incx, beta, y, incy); }                                 \
    /* cublas?dot_v2: x . y. */                                                                                   \
    cublasStatus_t cublas##P##dot_v2(cublasHandle_t h, int n, const T *x, int incx, const T *y, int incy,        \
                                     T *result)                                                                   \
    { return reduce_any(h, DBL, CB_RED_DOT, n, x, incx, y, incy, result); }                                      \
    /* cublas?nrm2_v2: the Euclidean norm of x. */                                                                \
    cublasStatus_t cublas##P##nrm2_v2(cublasHandle_t h, int n, const T *x, int incx, T *result)                  \
    { return reduce_any(h, DBL, CB_RED_NRM2, incx > 0 ? n : 0, x, incx, x, incx, result); }                     \
    /* cublas?asum_v2: the sum of absolute values of x. */                                                        \
    cublasStatus_t cublas##P##asum_v2(cublasHandle_t h, int n, const T *x, int incx, T *result)                  \
    { return reduce_any(h, DBL, CB_RED_ASUM, incx > 0 ? n : 0, x, incx, x, incx, result); }                     \
    /* cublasI?amax_v2: the 1-based index of the first largest |x[i]|. */                                         \
    cublasStatus_t cublasI##p##amax_v2(cublasHandle_t h, int n, const T *x, int incx, int *result)               \
    { return iamax_any(h, DBL, 0, n, x, incx, result); }                                                          \
    /* cublasI?amin_v2: the 1-based index of the first smallest |x[i]|. */                                        \
    cublasStatus_t cublasI##p##amin_v2(cublasHandle_t h, int n, const T *x, int incx, int *result)               \
    { return iamax_any(h, DBL, 1, n, x, incx, result); }                                                          \
    /* cublas?axpy_v2: y = alpha x + y. */                                                                        \
    cublasStatus_t cublas##P##axpy_v2(cublasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y,       \
                                      int incy)                                                                   \
    { return elementwise_any(h, DBL, CB_EW_AXPY, n, alpha, (void *)x, incx, y, incy); }                          \
    /* cublas?scal_v2: x = alpha x. */                                                                            \
    cublasStatus_t cublas##P##scal_v2(cublasHandle_t h, int n, const T *alpha, T *x, int incx)                   \
    { return incx <= 0 ? CUBLAS_STATUS_SUCCESS : elementwise_any(h, DBL, CB_EW_SCAL, n, alpha, x, incx, x, incx); } \
    /* cublas?copy_v2: y = x. */                                                                                  \
    cublasStatus_t cublas##P##copy_v2(cublasHandle_t h, int n, const T *x, int incx, T *y, int incy)             \
    { return elementwise_any(h, DBL, CB_EW_COPY, n, NULL, (void *)x, incx, y, incy); }                           \
    /* cublas?swap_v2: exchange x and y. */                                                                       \
    cublasStatus_t cublas##P##swap_v2(cublasHandle_t h, int n, T *x, int incx, T *y, int incy)                   \
    { return elementwise_any(h, DBL, CB_EW_SWAP, n, NULL, x, incx, y, incy); }

WS_CB_REAL(float, S, s, 0)
WS_CB_REAL(double, D, d, 1)

/* The element type of a cudaDataType operand we simulate: 0 float, 1 double, -1 another. */
static int real_type(cudaDataType t) { return t == CUDA_R_32F ? 0 : t == CUDA_R_64F ? 1 : -1; }

/* cublasGemmEx: the float and double forms (every operand of one type, computed in it); others are refused. */
cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const void *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                            cudaDataType Btype, int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    (void)algo;
    int t = real_type(Atype);
    int compute_ok = t == 0 ? (computeType == CUBLAS_COMPUTE_32F || computeType == CUBLAS_COMPUTE_32F_PEDANTIC ||
                               computeType == CUBLAS_COMPUTE_32F_FAST_TF32 || computeType == CUBLAS_COMPUTE_32F_FAST_16F ||
                               computeType == CUBLAS_COMPUTE_32F_FAST_16BF)
                            : t == 1 && (computeType == CUBLAS_COMPUTE_64F || computeType == CUBLAS_COMPUTE_64F_PEDANTIC);
    if (t < 0 || Btype != Atype || Ctype != Atype || !compute_ok)
        return unsupported("cublasGemmEx with other than all-float or all-double operands");
    return gemm_any(h, t, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1);
}

/* cublasSgemmEx: float operands only. */
cublasStatus_t cublasSgemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                             const float *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                             cudaDataType Btype, int ldb, const float *beta, void *C, cudaDataType Ctype, int ldc)
{
    if (Atype != CUDA_R_32F || Btype != CUDA_R_32F || Ctype != CUDA_R_32F)
        return unsupported("cublasSgemmEx with other than float operands");
    return gemm_any(h, 0, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1);
}

/* cublasGemmStridedBatchedEx: the float and double forms. */
cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                          int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
                                          long long sa, const void *B, cudaDataType Btype, int ldb, long long sb,
                                          const void *beta, void *C, cudaDataType Ctype, int ldc, long long sc,
                                          int batch, cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    (void)algo;
    int t = real_type(Atype);
    if (t < 0 || Btype != Atype || Ctype != Atype ||
        (t == 1 && computeType != CUBLAS_COMPUTE_64F && computeType != CUBLAS_COMPUTE_64F_PEDANTIC) ||
        (t == 0 && (computeType == CUBLAS_COMPUTE_64F || computeType == CUBLAS_COMPUTE_64F_PEDANTIC ||
                    computeType == CUBLAS_COMPUTE_16F || computeType == CUBLAS_COMPUTE_16F_PEDANTIC ||
                    computeType == CUBLAS_COMPUTE_32I || computeType == CUBLAS_COMPUTE_32I_PEDANTIC)))
        return unsupported("cublasGemmStridedBatchedEx with other than all-float or all-double operands");
    return gemm_any(h, t, ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc, batch);
}
