// warpsim test: ldmatrix / stmatrix / movmatrix feeding mma.sync, as a CUTLASS-style warp tile does: A (16x16,
// row-major in shared) through ldmatrix.x4, B (16x8, row-major KxN in shared) through ldmatrix.x2.trans, f16
// m16n8k16 into f32, the result rounded to f16 and written back with stmatrix.x2 (and its transpose through
// movmatrix + stmatrix), each block's tile checked element by element against the host (the H200's arithmetic,
// mx_ref.h); plus ldmatrix.x1 / .x4.trans register contents against the PTX ISA's definition.
// NVCCFLAGS: -arch=sm_90
// ARGS: 16
// TIMING_ARGS: 4
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>
#include "mx_ref.h"

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d\n", cudaGetErrorName(err_), __FILE__, __LINE__); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// block b: D_b (16x8 f16) = A_b (16x16) * B_b (16x8), and D_b^T (8x16 as two 8x8) through movmatrix
__global__ void tile(const __half *A, const __half *B, __half *D, __half *DT) {
  __shared__ __align__(16) __half sA[16 * 16], sB[16 * 8], sD[16 * 8], sT[2 * 64];
  int l = threadIdx.x, b = blockIdx.x;
  for (int i = l; i < 256; i += 32) sA[i] = A[b * 256 + i];
  for (int i = l; i < 128; i += 32) sB[i] = B[b * 128 + i];
  __syncwarp();
  unsigned a[4], bb[2];
  // x4: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15)
  int q = l / 8, r = l % 8;
  const __half *arow = &sA[(r + 8 * (q & 1)) * 16 + 8 * (q >> 1)];
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(sa(arow)));
  // x2.trans: B rows k 0-7 and 8-15 (lanes 0-15 give the row addresses)
  const __half *brow = &sB[(l % 16) * 8];
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(bb[0]), "=r"(bb[1]) : "r"(sa(brow)));
  float c[4] = {0, 0, 0, 0};
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(bb[0]), "r"(bb[1]));
  __half2 h01 = __floats2half2_rn(c[0], c[1]), h23 = __floats2half2_rn(c[2], c[3]);
  unsigned d0, d1, t0, t1;
  memcpy(&d0, &h01, 4); memcpy(&d1, &h23, 4);
  // stmatrix.x2: matrix 0 = rows 0-7, matrix 1 = rows 8-15 of D (lanes 0-15 give the row addresses)
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(sa(&sD[(l % 16) * 8])), "r"(d0), "r"(d1) : "memory");
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(t0) : "r"(d0));
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(t1) : "r"(d1));
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(sa(&sT[(l % 16) * 8])), "r"(t0), "r"(t1) : "memory");
  __syncwarp();
  for (int i = l; i < 128; i += 32) { D[b * 128 + i] = sD[i]; DT[b * 128 + i] = sT[i]; }
}

// ldmatrix.x1 and .x4.trans straight into registers (row r of matrix j at row address perm(8j + r))
__global__ void regs(unsigned *out) {
  __shared__ __align__(16) unsigned short s[32 * 8];
  int l = threadIdx.x;
  for (int i = l; i < 256; i += 32) s[i] = (unsigned short)(i * 3 + 1);
  __syncwarp();
  unsigned p = sa(&s[((l * 7 + 5) % 32) * 8]);
  unsigned x1, t[4];
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(x1) : "r"(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(t[0]), "=r"(t[1]), "=r"(t[2]), "=r"(t[3]) : "r"(p));
  out[l * 5] = x1;
  for (int j = 0; j < 4; j++) out[l * 5 + 1 + j] = t[j];
}

static uint32_t rng = 99;
static float rndf() { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return (float)((int)(rng % 2001) - 1000) / 256.0f; }

int main(int argc, char **argv) {
  int nb = argc > 1 ? atoi(argv[1]) : 16;
  std::vector<__half> A(nb * 256), B(nb * 128), D(nb * 128), DT(nb * 128);
  for (auto &x : A) x = __float2half(rndf());
  for (auto &x : B) x = __float2half(rndf());
  __half *dA, *dB, *dD, *dT;
  CHECK(cudaMalloc(&dA, A.size() * 2)); CHECK(cudaMalloc(&dB, B.size() * 2));
  CHECK(cudaMalloc(&dD, D.size() * 2)); CHECK(cudaMalloc(&dT, DT.size() * 2));
  CHECK(cudaMemcpy(dA, A.data(), A.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * 2, cudaMemcpyHostToDevice));
  tile<<<nb, 32>>>(dA, dB, dD, dT);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(D.data(), dD, D.size() * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(DT.data(), dT, DT.size() * 2, cudaMemcpyDeviceToHost));
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < 16; i++)
      for (int j = 0; j < 8; j++) {
        float a[16], bv[16];
        for (int k = 0; k < 16; k++) { a[k] = __half2float(A[b * 256 + i * 16 + k]); bv[k] = __half2float(B[b * 128 + k * 8 + j]); }
        float ref = __half2float(__float2half(mx_block(a, bv, 16, 0.0f, -14)));
        float got = __half2float(D[b * 128 + i * 8 + j]);
        // transposed: matrix i/8 holds D[i8..][j] at row j, column i%8
        float gt = __half2float(DT[b * 128 + (i / 8) * 64 + j * 8 + i % 8]);
        EXPECT(got == ref, "block %d D[%d][%d] = %g, expected %g", b, i, j, got, ref);
        EXPECT(gt == ref, "block %d movmatrix D^T[%d][%d] = %g, expected %g", b, j, i, gt, ref);
      }
  unsigned out[160], *dout;
  CHECK(cudaMalloc(&dout, sizeof out));
  regs<<<1, 32>>>(dout);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  auto val = [](int row_addr_lane, int col) { int row = (row_addr_lane * 7 + 5) % 32; return (unsigned)((row * 8 + col) * 3 + 1) & 0xffff; };
  for (int l = 0; l < 32; l++) {
    int r = l / 4, c = 2 * (l % 4);
    unsigned e1 = val(r, c) | val(r, c + 1) << 16;
    EXPECT(out[l * 5] == e1, "ldmatrix.x1 lane %d = %08x, expected %08x", l, out[l * 5], e1);
    for (int j = 0; j < 4; j++) {
      unsigned et = val(8 * j + c, r) | val(8 * j + c + 1, r) << 16;   // transposed: rows 2(l%4), +1 at column l/4
      EXPECT(out[l * 5 + 1 + j] == et, "ldmatrix.x4.trans lane %d reg %d = %08x, expected %08x", l, j, out[l * 5 + 1 + j], et);
    }
  }
  if (g_fail) { printf("FAIL ldmatrix (%d)\n", g_fail); return 1; }
  printf("PASS ldmatrix\n");
  return 0;
}
