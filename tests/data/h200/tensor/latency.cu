// lat.cu - dependent-chain latencies on the device: movmatrix (MOVM), ld.shared 32-bit (LDS), generic ld of a
// shared address (LD.E), ldmatrix.x4 (LDSM), mma m16n8k16 (HMMA) chained through its accumulator.
#include <cstdio>
#include <cstdint>
#define N 1024
__global__ void k(unsigned long long *out, int seed) {
  __shared__ __align__(128) unsigned sm[1024];
  for (int i = threadIdx.x; i < 1024; i += 32) sm[i] = 0;   // chains stay at index 0: values 0
  __syncwarp();
  unsigned v = seed & 0, a = threadIdx.x * 0;
  long long t0, t1;
  // MOVM chain
  t0 = clock64();
  for (int i = 0; i < N; i++) asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %0;" : "+r"(v));
  t1 = clock64(); if (threadIdx.x == 0) out[0] = t1 - t0;
  // LDS chain: address from the loaded value
  t0 = clock64();
  for (int i = 0; i < N; i++) { unsigned x; asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"((unsigned)(size_t)__cvta_generic_to_shared(&sm[a]))); a = x; }
  t1 = clock64(); if (threadIdx.x == 0) out[1] = t1 - t0;
  // generic LD of shared memory chain
  unsigned *p = &sm[a];
  t0 = clock64();
  for (int i = 0; i < N; i++) { unsigned x; asm volatile("ld.u32 %0, [%1];" : "=r"(x) : "l"(p)); p = &sm[x]; }
  t1 = clock64(); if (threadIdx.x == 0) out[2] = t1 - t0;
  // LDSM x4 chain (row addresses from the loaded value)
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  t0 = clock64();
  for (int i = 0; i < N; i++) {
    unsigned addr = (unsigned)__cvta_generic_to_shared(&sm[(threadIdx.x % 8) * 4 + (r0 & 1)]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  }
  t1 = clock64(); if (threadIdx.x == 0) out[3] = t1 - t0;
  // HMMA chain through the accumulator
  float c0 = 0, c1 = 0, c2 = 0, c3 = 0; unsigned A0 = r0, A1 = r1, A2 = r2, A3 = r3, B0 = r0, B1 = r1;
  t0 = clock64();
  for (int i = 0; i < N; i++)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1));
  t1 = clock64(); if (threadIdx.x == 0) out[4] = t1 - t0;
  // bf16 HMMA chain
  t0 = clock64();
  for (int i = 0; i < N; i++)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1));
  t1 = clock64(); if (threadIdx.x == 0) out[5] = t1 - t0;
  if (threadIdx.x == 0) out[6] = (unsigned long long)(v + a + r3 + (unsigned)(c0 + c1 + c2 + c3) + (unsigned)(size_t)p);
}
int main() {
  unsigned long long *d, h[8];
  cudaMalloc(&d, sizeof h);
  for (int rep = 0; rep < 3; rep++) {
    k<<<1, 32>>>(d, 1); cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("per op (cycles): movm %.1f  lds %.1f  ld_generic_shared %.1f  ldsm_x4 %.1f  hmma_f16 %.1f  hmma_bf16 %.1f\n",
           h[0] / (double)N, h[1] / (double)N, h[2] / (double)N, h[3] / (double)N, h[4] / (double)N, h[5] / (double)N);
  }
  return 0;
}
