// warpsim test: mma.sync GEMMs with the PTX ISA's fragment layouts, one warp per 16x8 tile of C: f16 m16n8k16 and
// bf16 m16n8k16 into f32 (bit for bit against the H200's arithmetic, mx_ref.h), tf32 m16n8k8, s8 m16n8k32 with
// and without .satfinite (exact), f64 m8n8k4 (one IEEE fma per k, in order: exact).
// NVCCFLAGS: -arch=sm_90
// ARGS: 64
// TIMING_ARGS: 32
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <climits>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "mx_ref.h"

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d\n", cudaGetErrorName(err_), __FILE__, __LINE__); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

// 16-bit inputs: A row-major MxK, B column-major (B^T row-major NxK), C/D row-major MxN f32
template <bool BF>
__global__ void mma16(const unsigned short *A, const unsigned short *B, float *C, int M, int N, int K) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  int tn = warp % (N / 8), tm = warp / (N / 8);
  if (tm * 16 >= M) return;
  int g = lane / 4, t = lane % 4, r0 = tm * 16 + g, c0 = tn * 8;
  float c[4];
  for (int i = 0; i < 4; i++) c[i] = C[(r0 + 8 * (i >> 1)) * N + c0 + 2 * t + (i & 1)];
  for (int k = 0; k < K; k += 16) {
    unsigned a[4], b[2];
    for (int q = 0; q < 4; q++) {
      int r = r0 + 8 * (q & 1), col = k + 2 * t + 8 * (q >> 1);
      a[q] = A[r * K + col] | (unsigned)A[r * K + col + 1] << 16;
    }
    for (int q = 0; q < 2; q++) {
      int kk = k + 2 * t + 8 * q, n = c0 + g;
      b[q] = B[n * K + kk] | (unsigned)B[n * K + kk + 1] << 16;
    }
    if (BF)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
  for (int i = 0; i < 4; i++) C[(r0 + 8 * (i >> 1)) * N + c0 + 2 * t + (i & 1)] = c[i];
}

// tf32 m16n8k8: inputs are f32 bit patterns (the tensor core uses the top 19 bits)
__global__ void mma_tf32(const float *A, const float *B, float *C, int M, int N, int K) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  int tn = warp % (N / 8), tm = warp / (N / 8);
  if (tm * 16 >= M) return;
  int g = lane / 4, t = lane % 4, r0 = tm * 16 + g, c0 = tn * 8;
  float c[4];
  for (int i = 0; i < 4; i++) c[i] = C[(r0 + 8 * (i >> 1)) * N + c0 + 2 * t + (i & 1)];
  for (int k = 0; k < K; k += 8) {
    unsigned a[4], b[2];
    for (int q = 0; q < 4; q++) a[q] = __float_as_uint(A[(r0 + 8 * (q & 1)) * K + k + t + 4 * (q >> 1)]);
    for (int q = 0; q < 2; q++) b[q] = __float_as_uint(B[(c0 + g) * K + k + t + 4 * q]);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
  for (int i = 0; i < 4; i++) C[(r0 + 8 * (i >> 1)) * N + c0 + 2 * t + (i & 1)] = c[i];
}

// s8 m16n8k32 (one k step), with or without .satfinite
template <bool SAT>
__global__ void mma_s8(const signed char *A, const signed char *B, int *C, int M, int N, int K) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  int tn = warp % (N / 8), tm = warp / (N / 8);
  if (tm * 16 >= M) return;
  int g = lane / 4, t = lane % 4, r0 = tm * 16 + g, c0 = tn * 8;
  int c[4];
  for (int i = 0; i < 4; i++) c[i] = C[(r0 + 8 * (i >> 1)) * N + c0 + 2 * t + (i & 1)];
  for (int k = 0; k < K; k += 32) {
    unsigned a[4], b[2];
    for (int q = 0; q < 4; q++) memcpy(&a[q], &A[(r0 + 8 * (q & 1)) * K + k + 4 * t + 16 * (q >> 1)], 4);
    for (int q = 0; q < 2; q++) memcpy(&b[q], &B[(c0 + g) * K + k + 4 * t + 16 * q], 4);
    if (SAT)
      asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    else
      asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                   : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
  for (int i = 0; i < 4; i++) C[(r0 + 8 * (i >> 1)) * N + c0 + 2 * t + (i & 1)] = c[i];
}

// f64 m8n8k4, one warp per 8x8 tile
__global__ void mma_f64(const double *A, const double *B, double *C, int M, int N, int K) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  int tn = warp % (N / 8), tm = warp / (N / 8);
  if (tm * 8 >= M) return;
  int g = lane / 4, t = lane % 4, r = tm * 8 + g, c0 = tn * 8;
  double c0v = C[r * N + c0 + 2 * t], c1v = C[r * N + c0 + 2 * t + 1];
  for (int k = 0; k < K; k += 4) {
    double a = A[r * K + k + t], b = B[(c0 + g) * K + k + t];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};" : "+d"(c0v), "+d"(c1v) : "d"(a), "d"(b));
  }
  C[r * N + c0 + 2 * t] = c0v; C[r * N + c0 + 2 * t + 1] = c1v;
}

static uint32_t rng = 77;
static uint32_t nxt() { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float rndf() { return (float)((int)(nxt() % 2001) - 1000) / 256.0f; }

template <class T> static T *dev(const std::vector<T> &h) {
  T *d; CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice)); return d;
}
template <class T> static void back(std::vector<T> &h, T *d) {
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost)); cudaFree(d);
}

static void test16(bool bf, int M, int N, int K) {
  std::vector<unsigned short> A(M * K), B(N * K);
  std::vector<float> fa(M * K), fb(N * K), C(M * N), R(M * N);
  for (int i = 0; i < M * K; i++) {
    float v = rndf();
    if (bf) { __nv_bfloat16 h = __float2bfloat16(v); memcpy(&A[i], &h, 2); fa[i] = __bfloat162float(h); }
    else { __half h = __float2half(v); memcpy(&A[i], &h, 2); fa[i] = __half2float(h); }
  }
  for (int i = 0; i < N * K; i++) {
    float v = rndf();
    if (bf) { __nv_bfloat16 h = __float2bfloat16(v); memcpy(&B[i], &h, 2); fb[i] = __bfloat162float(h); }
    else { __half h = __float2half(v); memcpy(&B[i], &h, 2); fb[i] = __half2float(h); }
  }
  for (auto &x : C) x = rndf() * 16;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float acc = C[i * N + j];
      for (int k = 0; k < K; k += 16) acc = mx_block(&fa[i * K + k], &fb[j * K + k], 16, acc, bf ? -126 : -14);
      R[i * N + j] = acc;
    }
  unsigned short *dA = dev(A), *dB = dev(B); float *dC = dev(C);
  int warps = (M / 16) * (N / 8);
  if (bf) mma16<true><<<(warps + 3) / 4, 128>>>(dA, dB, dC, M, N, K); else mma16<false><<<(warps + 3) / 4, 128>>>(dA, dB, dC, M, N, K);
  back(C, dC); cudaFree(dA); cudaFree(dB);
  int bad = 0;
  for (int i = 0; i < M * N; i++) if (memcmp(&C[i], &R[i], 4)) { if (!bad) EXPECT(0, "%s C[%d] = %a, expected %a", bf ? "bf16" : "f16", i, C[i], R[i]); bad++; }
  printf("%s m16n8k16 %dx%dx%d: %d differences\n", bf ? "bf16" : "f16", M, N, K, bad);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 64;
  test16(false, n, n, n);
  test16(true, n, n, n);
  { // tf32: full f32 inputs, the tensor core truncates them to tf32 and sums blocks of 8
    std::vector<float> A(n * n), B(n * n), C(n * n), R(n * n);
    for (auto &x : A) x = rndf() * (1.0f + (nxt() % 1000) * 1e-4f);
    for (auto &x : B) x = rndf() * (1.0f + (nxt() % 1000) * 1e-4f);
    for (auto &x : C) x = rndf();
    auto tf = [](float f) { uint32_t u; memcpy(&u, &f, 4); u &= 0xffffe000u; memcpy(&f, &u, 4); return f; };
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        float acc = C[i * n + j], a[8], b[8];
        for (int k = 0; k < n; k += 8) {
          for (int q = 0; q < 8; q++) { a[q] = tf(A[i * n + k + q]); b[q] = tf(B[j * n + k + q]); }
          acc = mx_block(a, b, 8, acc, -126);
        }
        R[i * n + j] = acc;
      }
    float *dA = dev(A), *dB = dev(B), *dC = dev(C);
    mma_tf32<<<(n / 16 * n / 8 + 3) / 4, 128>>>(dA, dB, dC, n, n, n);
    back(C, dC); cudaFree(dA); cudaFree(dB);
    int bad = 0;
    for (int i = 0; i < n * n; i++) if (memcmp(&C[i], &R[i], 4)) { if (!bad) EXPECT(0, "tf32 C[%d] = %a, expected %a", i, C[i], R[i]); bad++; }
    printf("tf32 m16n8k8 %dx%dx%d: %d differences\n", n, n, n, bad);
  }
  for (int sat = 0; sat < 2; sat++) { // s8, C near the s32 limits
    std::vector<signed char> A(n * n), B(n * n);
    std::vector<int> C(n * n), R(n * n);
    for (auto &x : A) x = (signed char)nxt();
    for (auto &x : B) x = (signed char)nxt();
    for (auto &x : C) { uint32_t r = nxt() % 3; x = r == 0 ? (int)(nxt() % 20001) - 10000 : r == 1 ? INT_MAX - (int)(nxt() % 200000) : INT_MIN + (int)(nxt() % 200000); }
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        long long acc = C[i * n + j];
        for (int k = 0; k < n; k += 32) {
          for (int q = 0; q < 32; q++) acc += (long long)A[i * n + k + q] * B[j * n + k + q];
          if (sat) acc = acc > INT_MAX ? INT_MAX : acc < INT_MIN ? INT_MIN : acc;
          else acc = (int)(unsigned)(unsigned long long)acc;
        }
        R[i * n + j] = (int)acc;
      }
    signed char *dA = dev(A), *dB = dev(B); int *dC = dev(C);
    if (sat) mma_s8<true><<<(n / 16 * n / 8 + 3) / 4, 128>>>(dA, dB, dC, n, n, n);
    else mma_s8<false><<<(n / 16 * n / 8 + 3) / 4, 128>>>(dA, dB, dC, n, n, n);
    back(C, dC); cudaFree(dA); cudaFree(dB);
    int bad = 0;
    for (int i = 0; i < n * n; i++) if (C[i] != R[i]) { if (!bad) EXPECT(0, "s8%s C[%d] = %d, expected %d", sat ? " satfinite" : "", i, C[i], R[i]); bad++; }
    printf("s8 m16n8k32%s %dx%dx%d: %d differences\n", sat ? " satfinite" : "", n, n, n, bad);
  }
  { // f64
    std::vector<double> A(n * n), B(n * n), C(n * n), R(n * n);
    for (auto &x : A) x = rndf() * (1 + nxt() * 0x1p-40);
    for (auto &x : B) x = rndf() * (1 + nxt() * 0x1p-40);
    for (auto &x : C) x = rndf();
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double acc = C[i * n + j];
        for (int k = 0; k < n; k++) acc = fma(A[i * n + k], B[j * n + k], acc);
        R[i * n + j] = acc;
      }
    double *dA = dev(A), *dB = dev(B), *dC = dev(C);
    mma_f64<<<(n / 8 * n / 8 + 3) / 4, 128>>>(dA, dB, dC, n, n, n);
    back(C, dC); cudaFree(dA); cudaFree(dB);
    int bad = 0;
    for (int i = 0; i < n * n; i++) if (memcmp(&C[i], &R[i], 8)) { if (!bad) EXPECT(0, "f64 C[%d] = %a, expected %a", i, C[i], R[i]); bad++; }
    printf("f64 m8n8k4 %dx%dx%d: %d differences\n", n, n, n, bad);
  }
  if (g_fail) { printf("FAIL mma_sync (%d)\n", g_fail); return 1; }
  printf("PASS mma_sync\n");
  return 0;
}
