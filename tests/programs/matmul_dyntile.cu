// warpsim test: tiled matmul with runtime tile sizes (tileX x tileY blocks, shared-dimension tile TK): one extern __shared__ buffer split into the A and B tiles, size passed as the 3rd launch argument, zero padding for odd sizes (seed: 003 Module 14.3 "Runtime tile sizes" and 13.2 "Several dynamic arrays share one extern buffer")
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

__global__ void tiled_gemm(const float *A, const float *B, float *C, int M, int N, int P, int TK) {
  extern __shared__ float buf[];
  const int TX = blockDim.x, TY = blockDim.y;
  float *sA = buf;                 // TY x TK
  float *sB = buf + TY * TK;       // TK x TX
  int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx, nthr = TX * TY;
  int row = blockIdx.y * TY + ty, col = blockIdx.x * TX + tx;
  float sum = 0.0f;
  for (int p = 0; p < (N + TK - 1) / TK; p++) {
    for (int i = tid; i < TY * TK; i += nthr) {
      int r = i / TK, k = i % TK, gr = blockIdx.y * TY + r, gk = p * TK + k;
      sA[i] = (gr < M && gk < N) ? A[gr * N + gk] : 0.0f;
    }
    for (int i = tid; i < TK * TX; i += nthr) {
      int k = i / TX, c = i % TX, gk = p * TK + k, gc = blockIdx.x * TX + c;
      sB[i] = (gk < N && gc < P) ? B[gk * P + gc] : 0.0f;
    }
    __syncthreads();
    for (int k = 0; k < TK; k++) sum += sA[ty * TK + k] * sB[k * TX + tx];
    __syncthreads();
  }
  if (row < M && col < P) C[row * P + col] = sum;
}

static void run(int M, int N, int P, int TX, int TY, int TK) {
  std::vector<float> A((size_t)M * N), B((size_t)N * P), C((size_t)M * P);
  unsigned s = M * 7 + N * 13 + P;
  for (auto &v : A) { s = s * 1664525u + 1013904223u; v = (float)((int)((s >> 9) % 11) - 5); }
  for (auto &v : B) { s = s * 1664525u + 1013904223u; v = (float)((int)((s >> 9) % 9) - 4) * 0.5f; }
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, A.size() * 4)); CHECK(cudaMalloc(&dB, B.size() * 4)); CHECK(cudaMalloc(&dC, C.size() * 4));
  CHECK(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dC, 0xFF, C.size() * 4));
  dim3 block(TX, TY), grid((P + TX - 1) / TX, (M + TY - 1) / TY);
  size_t smem = (size_t)(TY * TK + TK * TX) * sizeof(float);
  tiled_gemm<<<grid, block, smem>>>(dA, dB, dC, M, N, P, TK);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost));
  for (int r = 0; r < M; r++) for (int c = 0; c < P; c++) {
    double acc = 0; for (int k = 0; k < N; k++) acc += (double)A[(size_t)r * N + k] * B[(size_t)k * P + c];
    EXPECT(C[(size_t)r * P + c] == (float)acc, "%dx%dx%d tile %dx%d TK=%d: C[%d][%d] = %g, expected %g", M, N, P, TX, TY, TK, r, c, C[(size_t)r * P + c], acc);
  }
  printf("%4d x %4d x %4d  tileX=%2d tileY=%2d TK=%2d  smem=%5zu B  grid (%u,%u): ok\n", M, N, P, TX, TY, TK, smem, grid.x, grid.y);
  CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC));
}

int main() {
  run(64, 64, 64, 16, 16, 16);
  run(65, 130, 33, 32, 8, 16);     // odd sizes in every dimension
  run(100, 50, 70, 8, 32, 8);
  run(51, 83, 127, 32, 32, 32);    // 1024-thread blocks, 8 KiB of shared memory
  run(7, 300, 5, 4, 4, 64);        // TK larger than the block: strided tile loads
  if (g_fail) { printf("FAIL: matmul_dyntile: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS matmul_dyntile\n");
  return 0;
}
