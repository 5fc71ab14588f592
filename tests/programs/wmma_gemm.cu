// warpsim test: wmma GEMM, f16 inputs and f32 accumulators (m16n16k16), one warp per 16x16 tile of C, A row-major
// NVCCFLAGS: -arch=sm_90
// and B column-major; checked bit for bit against the H200's arithmetic (mx_ref.h, measured on the device); plus
// direct fragment-element access: the accumulator elements after load_matrix_sync are where the H200 puts them, and
// scaling x[i] before the store scales the stored tile; plus bf16 and m32n8k16 variants.
// ARGS: 64
// TIMING_ARGS: 32
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "mx_ref.h"
using namespace nvcuda;

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d\n", cudaGetErrorName(err_), __FILE__, __LINE__); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

// C (MxN, row-major) = A (MxK, row-major) * B (KxN, column-major) + C, one warp per TMxTN tile
template <int TM, int TN, class T>
__global__ void gemm(const T *A, const T *B, float *C, int M, int N, int K) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int tiles_n = N / TN, tm = warp / tiles_n, tn = warp % tiles_n;
  if (tm * TM >= M) return;
  wmma::fragment<wmma::matrix_a, TM, TN, 16, T, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, TM, TN, 16, T, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, TM, TN, 16, float> c;
  wmma::load_matrix_sync(c, C + tm * TM * N + tn * TN, N, wmma::mem_row_major);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + tm * TM * K + k, K);
    wmma::load_matrix_sync(b, B + tn * TN * K + k, K);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + tm * TM * N + tn * TN, c, N, wmma::mem_row_major);
}

// fragment elements: record each lane's accumulator elements, then double them and store
__global__ void frag_access(const float *Cin, float *elems, float *Cout) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::load_matrix_sync(c, Cin, 16, wmma::mem_row_major);
  for (int i = 0; i < c.num_elements; i++) { elems[threadIdx.x * c.num_elements + i] = c.x[i]; c.x[i] *= 2.0f; }
  wmma::store_matrix_sync(Cout, c, 16, wmma::mem_row_major);
}

// a tile stored into shared memory and read back by the warp (initcheck must see wmma.store's writes)
__global__ void via_shared(const float *Cin, float *Cout) {
  __shared__ float tile[16 * 20];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::load_matrix_sync(c, Cin, 16, wmma::mem_row_major);
  wmma::store_matrix_sync(tile, c, 20, wmma::mem_row_major);
  __syncwarp();
  for (int i = threadIdx.x; i < 256; i += 32) Cout[i] = tile[(i / 16) * 20 + i % 16] + 1.0f;
}

static uint32_t rng = 2024;
static float rnd() { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return (float)((int)(rng % 2001) - 1000) / 512.0f; }
static float h2f(__half h) { return __half2float(h); }
static float h2f(__nv_bfloat16 h) { return __bfloat162float(h); }

template <int TM, int TN, class T>
static void run(const char *name, int M, int N, int K, int emin) {
  std::vector<T> A(M * K), B(K * N);
  std::vector<float> C(M * N), R(M * N);
  for (auto &x : A) x = (T)rnd();
  for (auto &x : B) x = (T)rnd();
  for (auto &x : C) x = rnd() * 8;
  // reference: per output, k-blocks of 16 in order, each block fused and rounded toward zero
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float acc = C[i * N + j], a[16], b[16];
      for (int k0 = 0; k0 < K; k0 += 16) {
        for (int k = 0; k < 16; k++) { a[k] = h2f(A[i * K + k0 + k]); b[k] = h2f(B[j * K + k0 + k]); }
        acc = mx_block(a, b, 16, acc, emin);
      }
      R[i * N + j] = acc;
    }
  T *dA, *dB; float *dC;
  CHECK(cudaMalloc(&dA, A.size() * sizeof(T))); CHECK(cudaMalloc(&dB, B.size() * sizeof(T))); CHECK(cudaMalloc(&dC, C.size() * 4));
  CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dC, C.data(), C.size() * 4, cudaMemcpyHostToDevice));
  int warps = (M / TM) * (N / TN);
  gemm<TM, TN, T><<<(warps + 3) / 4, 128>>>(dA, dB, dC, M, N, K);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  std::vector<float> D(M * N);
  CHECK(cudaMemcpy(D.data(), dC, D.size() * 4, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < M * N; i++) if (memcmp(&D[i], &R[i], 4)) { if (!bad) EXPECT(0, "%s C[%d] = %a, expected %a", name, i, D[i], R[i]); bad++; }
  if (bad) g_fail++;
  printf("%s %dx%dx%d: %d of %d elements differ from the H200 model\n", name, M, N, K, bad, M * N);
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 64;
  run<16, 16, __half>("f16 m16n16k16", n, n, n, -14);
  run<32, 8, __half>("f16 m32n8k16", n, n, n, -14);
  run<8, 32, __half>("f16 m8n32k16", n, n, n, -14);
  run<16, 16, __nv_bfloat16>("bf16 m16n16k16", n, n, n, -126);
  // fragment elements, in the layout the H200 uses for m16n16k16 accumulators (tests/data/h200/tensor)
  float Cin[256], elems[256], Cout[256];
  for (int i = 0; i < 256; i++) Cin[i] = (float)i;
  float *d1, *d2, *d3;
  CHECK(cudaMalloc(&d1, 1024)); CHECK(cudaMalloc(&d2, 1024)); CHECK(cudaMalloc(&d3, 1024));
  CHECK(cudaMemcpy(d1, Cin, 1024, cudaMemcpyHostToDevice));
  frag_access<<<1, 32>>>(d1, d2, d3);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(elems, d2, 1024, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(Cout, d3, 1024, cudaMemcpyDeviceToHost));
  for (int l = 0; l < 32; l++)
    for (int i = 0; i < 8; i++) {
      int g = l / 4, t = l % 4, r = g + 8 * ((i >> 1) & 1), c = 2 * t + (i & 1) + 8 * (i >> 2);
      EXPECT(elems[l * 8 + i] == Cin[r * 16 + c], "lane %d x[%d] = %g, expected C[%d][%d] = %g", l, i, elems[l * 8 + i], r, c, Cin[r * 16 + c]);
    }
  for (int i = 0; i < 256; i++) EXPECT(Cout[i] == 2 * Cin[i], "scaled store: C[%d] = %g, expected %g", i, Cout[i], 2 * Cin[i]);
  via_shared<<<1, 32>>>(d1, d3);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(Cout, d3, 1024, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 256; i++) EXPECT(Cout[i] == Cin[i] + 1, "via shared: C[%d] = %g, expected %g", i, Cout[i], Cin[i] + 1);
  if (g_fail) { printf("FAIL wmma_gemm (%d)\n", g_fail); return 1; }
  printf("PASS wmma_gemm\n");
  return 0;
}
