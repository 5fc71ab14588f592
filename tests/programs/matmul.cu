// warpsim test: naive and shared-memory tiled matmul (two __syncthreads per phase, zero padding), incl. the 2x4 by 4x2 example [[50,60],[114,140]] and odd sizes (seed: 000 "Why matrix multiplication rewards reuse"; 003 Module 9.4 matmul and 14.3 matmul_tiled)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

// C (M x P) = A (M x N) * B (N x P), one thread per output (003 9.4)
__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int P) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= M || c >= P) return;
  float sum = 0.0f;
  for (int k = 0; k < N; k++)
    sum += A[r * N + k] * B[k * P + c];
  C[r * P + c] = sum;
}

// 003 14.3, with the tile width as a template parameter
template <int T>
__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int P) {
  __shared__ float sA[T][T], sB[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * T + tx, row = blockIdx.y * T + ty;
  float sum = 0.0f;
  for (int p = 0; p < (N + T - 1) / T; p++) {       // phases along the shared dimension
    int aCol = p * T + tx, bRow = p * T + ty;
    sA[ty][tx] = (row < M && aCol < N) ? A[row * N + aCol] : 0.0f;   // 0-padding at edges
    sB[ty][tx] = (bRow < N && col < P) ? B[bRow * P + col] : 0.0f;
    __syncthreads();                                // tiles fully loaded
    for (int k = 0; k < T; k++) sum += sA[ty][k] * sB[k][tx];
    __syncthreads();                                // everyone done before overwrite
  }
  if (row < M && col < P) C[row * P + col] = sum;
}

enum Kind { NAIVE, TILED2, TILED8, TILED16 };
static const char *kname[] = {"naive16x16", "tiled T=2", "tiled T=8", "tiled T=16"};

static std::vector<float> gpu_matmul(Kind kind, const std::vector<float> &A, const std::vector<float> &B, int M, int N, int P) {
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, (size_t)M * N * 4)); CHECK(cudaMalloc(&dB, (size_t)N * P * 4)); CHECK(cudaMalloc(&dC, (size_t)M * P * 4));
  CHECK(cudaMemcpy(dA, A.data(), (size_t)M * N * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), (size_t)N * P * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dC, 0xFF, (size_t)M * P * 4));
  switch (kind) {
    case NAIVE:  { dim3 b(16, 16), g((P + 15) / 16, (M + 15) / 16); matmul<<<g, b>>>(dA, dB, dC, M, N, P); break; }
    case TILED2: { dim3 b(2, 2), g((P + 1) / 2, (M + 1) / 2); matmul_tiled<2><<<g, b>>>(dA, dB, dC, M, N, P); break; }
    case TILED8: { dim3 b(8, 8), g((P + 7) / 8, (M + 7) / 8); matmul_tiled<8><<<g, b>>>(dA, dB, dC, M, N, P); break; }
    case TILED16:{ dim3 b(16, 16), g((P + 15) / 16, (M + 15) / 16); matmul_tiled<16><<<g, b>>>(dA, dB, dC, M, N, P); break; }
  }
  CHECK_LAUNCH();
  std::vector<float> C((size_t)M * P);
  CHECK(cudaMemcpy(C.data(), dC, (size_t)M * P * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC));
  return C;
}

// exact == true: small-integer inputs, every partial sum is exactly representable, so any summation order must agree bit for bit
static void check(int M, int N, int P, bool exact, unsigned seed) {
  std::vector<float> A((size_t)M * N), B((size_t)N * P);
  unsigned s = seed;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
  for (auto &v : A) v = exact ? (float)((int)(rnd() % 9) - 4) : (float)(rnd() % 65536) / 65536.0f - 0.5f;
  for (auto &v : B) v = exact ? (float)((int)(rnd() % 7) - 3) : (float)(rnd() % 65536) / 65536.0f - 0.5f;
  std::vector<double> ref((size_t)M * P);
  for (int r = 0; r < M; r++)
    for (int c = 0; c < P; c++) {
      double acc = 0; for (int k = 0; k < N; k++) acc += (double)A[(size_t)r * N + k] * B[(size_t)k * P + c];
      ref[(size_t)r * P + c] = acc;
    }
  for (int kind = NAIVE; kind <= TILED16; kind++) {
    if (kind == TILED2 && (size_t)M * P > 5000) continue;
    std::vector<float> C = gpu_matmul((Kind)kind, A, B, M, N, P);
    double maxrel = 0;
    for (size_t i = 0; i < C.size(); i++) {
      double r = ref[i], g = C[i], e = fabs(g - r);
      if (exact) EXPECT(g == r, "%dx%dx%d %s: C[%zu][%zu] = %.9g, expected %.9g", M, N, P, kname[kind], i / P, i % P, g, r);
      else {
        // seed lab: fabs(gpu-ref) <= 1e-4 * fabs(ref) (plus a small absolute floor for sums near zero)
        EXPECT(e <= 1e-4 * fabs(r) + 1e-5 * sqrt((double)N), "%dx%dx%d %s: C[%zu][%zu] = %.9g, expected %.9g", M, N, P, kname[kind], i / P, i % P, g, r);
        if (fabs(r) > 1e-3 && e / fabs(r) > maxrel) maxrel = e / fabs(r);
      }
    }
    printf("%4d x %4d x %4d %-11s %s ok%s\n", M, N, P, kname[kind], exact ? "exact" : "1e-4", "");
  }
}

int main() {
  // ---- the 2 x 2 tile example: A 2x4, B 4x2 ----
  {
    const int M = 2, N = 4, P = 2;
    std::vector<float> A = {1, 2, 3, 4, 5, 6, 7, 8};      // A[0,1] = 2, as in the seed
    std::vector<float> B = {1, 2, 3, 4, 5, 6, 7, 8};      // B[0,1] = 2, B[1,1] = 4
    const float want[4] = {50, 60, 114, 140};
    for (int kind = NAIVE; kind <= TILED16; kind++) {
      std::vector<float> C = gpu_matmul((Kind)kind, A, B, M, N, P);
      for (int i = 0; i < 4; i++) EXPECT(C[i] == want[i], "2x4*4x2 %s: C[%d][%d] = %g, expected %g", kname[kind], i / 2, i % 2, C[i], want[i]);
    }
    // after the first tile (k = 0, 1) the partial sums are [[7, 10], [23, 34]]
    std::vector<float> A1 = {1, 2, 5, 6}, B1 = {1, 2, 3, 4};
    const float part[4] = {7, 10, 23, 34};
    std::vector<float> C1 = gpu_matmul(TILED2, A1, B1, 2, 2, 2);
    for (int i = 0; i < 4; i++) EXPECT(C1[i] == part[i], "first-tile partial sum C[%d][%d] = %g, expected %g", i / 2, i % 2, C1[i], part[i]);
    std::vector<float> C = gpu_matmul(TILED2, A, B, M, N, P);
    printf("2x4 * 4x2 with T=2: [[%g, %g], [%g, %g]] (first tile [[%g, %g], [%g, %g]])\n",
           C[0], C[1], C[2], C[3], C1[0], C1[1], C1[2], C1[3]);
  }
  check(64, 64, 64, true, 1);
  check(64, 64, 64, false, 2);
  check(100, 50, 70, true, 3);      // seed: T=16, 4 phases, grid (5,7) = 35 blocks
  check(100, 50, 70, false, 4);
  check(33, 17, 31, true, 5);       // nothing is a multiple of any tile
  check(5, 3, 1, true, 6);
  check(1, 40, 19, false, 7);
  if (g_fail) { printf("FAIL: matmul: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS matmul\n");
  return 0;
}
