// warpsim test: CUDA's cuBLAS as warpsim provides it (src/libs/cublas: our kernels on the simulated GPU): handle,
// stream and pointer modes; Sgemm/Dgemm with every transpose pair and odd sizes and leading dimensions, beta = 0
// over a NaN-filled C, strided-batched and pointer-array batched products, GemmEx; Sgemv/Dgemv both ways; the
// level-1 axpy, scal, copy, swap, dot, nrm2, asum and i?amax/i?amin with negative increments; Set/GetMatrix and
// Set/GetVector; results in device pointer mode; a stub's CUBLAS_STATUS_NOT_SUPPORTED. Inputs are small
// integers, so every float result is exact and compared bit for bit with a CPU reference.
// NVCCFLAGS: -lcublas
// TIMING_ARGS: 12
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CB(call) do { cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) { \
    printf("FAIL: cuBLAS %s at %s:%d: %s\n", cublasGetStatusName(s_), __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 10) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

// a small integer in [-4, 4], so that sums of products stay exact in float
static double small(unsigned &s) { s = s * 1103515245u + 12345u; return (double)((s >> 16) % 9) - 4.0; }

// C = alpha op(A) op(B) + beta C, column-major, on the CPU
template <typename T>
static void ref_gemm(int ta, int tb, int m, int n, int k, T alpha, const T *A, int lda, const T *B, int ldb, T beta,
                     T *C, int ldc)
{
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      T acc = 0;
      for (int p = 0; p < k; p++) acc += (ta ? A[p + i * lda] : A[i + p * lda]) * (tb ? B[j + p * ldb] : B[p + j * ldb]);
      C[i + j * ldc] = beta == 0 ? alpha * acc : alpha * acc + beta * C[i + j * ldc];
    }
}

template <typename T> static T *dev_copy(const std::vector<T> &h)
{
  T *d;
  CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T> static std::vector<T> host_copy(const T *d, size_t n)
{
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

// every transpose pair of one precision at sizes m x n x k with padded leading dimensions
template <typename T>
static void test_gemm(cublasHandle_t h, const char *name, int m, int n, int k, bool nan_c,
                      cublasStatus_t (*fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const T *,
                                           const T *, int, const T *, int, const T *, T *, int))
{
  unsigned s = 7u + m;
  for (int ta = 0; ta < 2; ta++)
    for (int tb = 0; tb < 2; tb++) {
      int lda = (ta ? k : m) + 3, ldb = (tb ? n : k) + 1, ldc = m + 2;
      std::vector<T> A((size_t)lda * (ta ? m : k)), B((size_t)ldb * (tb ? k : n)), C((size_t)ldc * n);
      for (auto &x : A) x = (T)small(s);
      for (auto &x : B) x = (T)small(s);
      for (auto &x : C) x = nan_c ? (T)NAN : (T)small(s);
      T alpha = (T)2, beta = nan_c ? (T)0 : (T)-1;
      T *dA = dev_copy(A), *dB = dev_copy(B), *dC = dev_copy(C);
      CB(fn(h, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_C : CUBLAS_OP_N, m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc));
      std::vector<T> got = host_copy(dC, C.size());
      ref_gemm<T>(ta, tb, m, n, k, alpha, A.data(), lda, B.data(), ldb, beta, C.data(), ldc);
      int bad = 0;
      for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) bad += got[i + j * ldc] != C[i + j * ldc];
      EXPECT(bad == 0, "%s %c%c %dx%dx%d%s: %d of %d elements differ", name, ta ? 'T' : 'N', tb ? 'C' : 'N', m, n, k,
             nan_c ? " (beta 0, C NaN)" : "", bad, m * n);
      CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC));
    }
}

int main(int argc, char **argv)
{
  const int N = argc > 1 ? atoi(argv[1]) : 37;   // the odd size of the products and vectors
  cublasHandle_t h;
  CB(cublasCreate(&h));
  int version = 0;
  CB(cublasGetVersion(h, &version));
  EXPECT(version == CUBLAS_VERSION, "cublasGetVersion %d, the header says %d", version, CUBLAS_VERSION);
  cudaStream_t st;
  CHECK(cudaStreamCreate(&st));
  CB(cublasSetStream(h, st));
  cudaStream_t got_st = 0;
  CB(cublasGetStream(h, &got_st));
  EXPECT(got_st == st, "cublasGetStream");

  test_gemm<float>(h, "Sgemm", N, N - 5, N + 4, false, cublasSgemm);
  test_gemm<float>(h, "Sgemm", 17, 33, 16, true, cublasSgemm);
  test_gemm<double>(h, "Dgemm", N - 3, N + 2, N, false, cublasDgemm);

  // strided batched and pointer-array batched (3 products of 20 x 12 x 9)
  {
    const int m = 20, n = 12, k = 9, batch = 3;
    unsigned s = 99;
    std::vector<float> A((size_t)m * k * batch), B((size_t)k * n * batch), C((size_t)m * n * batch, 0.f);
    for (auto &x : A) x = (float)small(s);
    for (auto &x : B) x = (float)small(s);
    float *dA = dev_copy(A), *dB = dev_copy(B), *dC = dev_copy(C), *dC2 = dev_copy(C);
    float one = 1, zero = 0;
    CB(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, m, (long long)m * k, dB, k,
                                 (long long)k * n, &zero, dC, m, (long long)m * n, batch));
    std::vector<float *> pa(batch), pb(batch), pc(batch);
    for (int b = 0; b < batch; b++) { pa[b] = dA + (size_t)b * m * k; pb[b] = dB + (size_t)b * k * n; pc[b] = dC2 + (size_t)b * m * n; }
    float **dpa = dev_copy(pa), **dpb = dev_copy(pb), **dpc = dev_copy(pc);
    CB(cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, (const float **)dpa, m, (const float **)dpb, k,
                          &zero, dpc, m, batch));
    std::vector<float> g1 = host_copy(dC, C.size()), g2 = host_copy(dC2, C.size());
    for (int b = 0; b < batch; b++)
      ref_gemm<float>(0, 0, m, n, k, 1.f, A.data() + (size_t)b * m * k, m, B.data() + (size_t)b * k * n, k, 0.f,
                      C.data() + (size_t)b * m * n, m);
    EXPECT(g1 == C, "SgemmStridedBatched differs from the CPU");
    EXPECT(g2 == C, "SgemmBatched differs from the CPU");
    // GemmEx with float operands is Sgemm; half operands are refused with CUBLAS_STATUS_NOT_SUPPORTED
    CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, CUDA_R_32F, m, dB, CUDA_R_32F, k, &zero, dC,
                    CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    g1 = host_copy(dC, (size_t)m * n);
    EXPECT(std::vector<float>(C.begin(), C.begin() + (size_t)m * n) == g1, "GemmEx (float) differs from the CPU");
    EXPECT(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, CUDA_R_16F, m, dB, CUDA_R_16F, k, &zero, dC,
                        CUDA_R_16F, m, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_NOT_SUPPORTED,
           "GemmEx with half operands is not CUBLAS_STATUS_NOT_SUPPORTED");
    CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC)); CHECK(cudaFree(dC2));
    CHECK(cudaFree(dpa)); CHECK(cudaFree(dpb)); CHECK(cudaFree(dpc));
  }

  // gemv both ways, through Set/GetMatrix and Set/GetVector
  {
    const int m = N, n = N - 8, lda = m + 1;
    unsigned s = 5;
    std::vector<double> A((size_t)lda * n), x(m + n), y(m + n);
    for (auto &v : A) v = small(s);
    for (auto &v : x) v = small(s);
    for (auto &v : y) v = small(s);
    double *dA, *dx, *dy;
    CHECK(cudaMalloc(&dA, A.size() * sizeof(double))); CHECK(cudaMalloc(&dx, 2 * x.size() * sizeof(double)));
    CHECK(cudaMalloc(&dy, y.size() * sizeof(double)));
    CB(cublasSetMatrix(m, n, sizeof(double), A.data(), lda, dA, lda));
    CB(cublasSetVector((int)x.size(), sizeof(double), x.data(), 1, dx, 2));   // every other element
    for (int t = 0; t < 2; t++) {
      int rows = t ? n : m, cols = t ? m : n;
      CB(cublasSetVector(rows, sizeof(double), y.data(), 1, dy, 1));
      double alpha = 3, beta = -2;
      CB(cublasDgemv(h, t ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, &alpha, dA, lda, dx, 2, &beta, dy, 1));
      std::vector<double> got(rows);
      CB(cublasGetVector(rows, sizeof(double), dy, 1, got.data(), 1));
      int bad = 0;
      for (int r = 0; r < rows; r++) {
        double acc = 0;
        for (int c = 0; c < cols; c++) acc += (t ? A[c + (size_t)r * lda] : A[r + (size_t)c * lda]) * x[c];
        bad += got[r] != alpha * acc + beta * y[r];
      }
      EXPECT(bad == 0, "Dgemv %c: %d of %d elements differ", t ? 'T' : 'N', bad, rows);
    }
    std::vector<double> back((size_t)lda * n, 0);
    CB(cublasGetMatrix(m, n, sizeof(double), dA, lda, back.data(), lda));
    int bad = 0;
    for (int j = 0; j < n; j++) for (int i = 0; i < m; i++) bad += back[i + (size_t)j * lda] != A[i + (size_t)j * lda];
    EXPECT(bad == 0, "Set/GetMatrix round trip: %d elements differ", bad);
    CHECK(cudaFree(dA)); CHECK(cudaFree(dx)); CHECK(cudaFree(dy));
  }

  // level 1 on float vectors with increments 2 and -1
  {
    const int n = 4 * N + 3;
    unsigned s = 11;
    std::vector<float> x(2 * n), y(n);
    for (auto &v : x) v = (float)small(s);
    for (auto &v : y) v = (float)small(s);
    x[2 * 17] = 9;   // the first largest |x|: element 17
    x[2 * 40] = -9;
    float *dx = dev_copy(x), *dy = dev_copy(y);
    auto xi = [&](int i) { return x[2 * i]; };
    auto yi = [&](int i) { return y[n - 1 - i]; };   // incy = -1 walks y backwards
    float dot = 0, nrm = 0, asum = 0, ref_dot = 0, ref_sq = 0, ref_asum = 0;
    for (int i = 0; i < n; i++) { ref_dot += xi(i) * yi(i); ref_sq += xi(i) * xi(i); ref_asum += fabsf(xi(i)); }
    CB(cublasSdot(h, n, dx, 2, dy, -1, &dot));
    CB(cublasSnrm2(h, n, dx, 2, &nrm));
    CB(cublasSasum(h, n, dx, 2, &asum));
    int imax = 0, imin = 0;
    CB(cublasIsamax(h, n, dx, 2, &imax));
    CB(cublasIsamin(h, n, dx, 2, &imin));
    int ref_imin = 1;
    for (int i = 0; i < n; i++) if (fabsf(xi(i)) < fabsf(xi(ref_imin - 1))) ref_imin = i + 1;
    EXPECT(dot == ref_dot, "Sdot %g, CPU %g", dot, ref_dot);
    EXPECT(nrm == sqrtf(ref_sq), "Snrm2 %g, CPU %g", nrm, sqrtf(ref_sq));
    EXPECT(asum == ref_asum, "Sasum %g, CPU %g", asum, ref_asum);
    EXPECT(imax == 18 && imin == ref_imin, "Isamax %d (want 18), Isamin %d (want %d)", imax, imin, ref_imin);
    float alpha = -3, two = 2;
    CB(cublasSaxpy(h, n, &alpha, dx, 2, dy, -1));
    std::vector<float> gy = host_copy(dy, n);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += gy[n - 1 - i] != alpha * xi(i) + yi(i);
    EXPECT(bad == 0, "Saxpy: %d of %d elements differ", bad, n);
    CB(cublasSscal(h, n, &two, dy, 1));
    CB(cublasSswap(h, n, dx, 2, dy, 1));      // x's elements now hold 2 (alpha x + y), y's the old x
    std::vector<float> gx2 = host_copy(dx, 2 * n), gy2 = host_copy(dy, n);
    bad = 0;
    for (int i = 0; i < n; i++) bad += gx2[2 * i] != 2 * gy[i] || gy2[i] != xi(i);
    EXPECT(bad == 0, "Sscal + Sswap: %d of %d element pairs differ", bad, n);
    CB(cublasScopy(h, n, dy, 1, dx, 2));
    std::vector<float> gx3 = host_copy(dx, 2 * n);
    bad = 0;
    for (int i = 0; i < n; i++) bad += gx3[2 * i] != xi(i);
    EXPECT(bad == 0, "Scopy: %d elements differ", bad);
    // device pointer mode: the result stays on the device, alpha is read from it
    float *dres, *dalpha;
    CHECK(cudaMalloc(&dres, sizeof(float))); CHECK(cudaMalloc(&dalpha, sizeof(float)));
    CHECK(cudaMemcpy(dalpha, &two, sizeof(float), cudaMemcpyHostToDevice));
    CB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CB(cublasSscal(h, n, dalpha, dx, 2));
    CB(cublasSdot(h, n, dx, 2, dx, 2, dres));
    CB(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    float dres_h = 0;
    CHECK(cudaMemcpy(&dres_h, dres, sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(dres_h == 4 * ref_sq, "device pointer mode: Sscal by 2 then Sdot %g, CPU %g", dres_h, 4 * ref_sq);
    CHECK(cudaFree(dx)); CHECK(cudaFree(dy)); CHECK(cudaFree(dres)); CHECK(cudaFree(dalpha));
    printf("level 1: dot %g, nrm2 %g, asum %g, amax %d, amin %d over %d elements\n", dot, nrm, asum, imax, imin, n);
  }

  // a function warpsim's cuBLAS does not simulate says so
  {
    float *d;
    CHECK(cudaMalloc(&d, 16 * sizeof(float)));
    float one = 1;
    EXPECT(cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 4, 4, &one, d, 4, d, 4) ==
               CUBLAS_STATUS_NOT_SUPPORTED, "cublasStrsm is not CUBLAS_STATUS_NOT_SUPPORTED");
    CHECK(cudaFree(d));
  }
  CHECK(cudaStreamSynchronize(st));
  CB(cublasDestroy(h));
  CHECK(cudaStreamDestroy(st));
  if (g_fail) { printf("FAIL: cublas_basic: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS cublas_basic\n");
  return 0;
}
