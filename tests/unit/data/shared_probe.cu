// shared_probe.cu - the probe behind shared_probes.txt: one launch of one warp per line of that file, each doing
// one shared-memory load or store of the line's width at the line's per-lane byte offsets (lanes outside the mask
// idle). Run on a GPU under Nsight Compute:
//   nvcc -O3 -arch=sm_90 -o shared_probe shared_probe.cu
//   ncu --clock-control none --csv --page raw --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
//       l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
//       l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum ./shared_probe shared_probes.txt
// (the measured columns of the file are ignored on input). tests/unit/test_memsys.c checks the model against them.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e_), __LINE__); exit(2);} } while (0)

template <int W, int ST>
__global__ void shk(const int* offs, unsigned mask, float* out) {
  __shared__ __align__(16) unsigned char s[8192];
  int lane = threadIdx.x;
  unsigned a = (unsigned)__cvta_generic_to_shared(s) + offs[lane];
  unsigned x = 0, y = 0, z = 0, w = 0;
  if ((mask >> lane) & 1u) {
    if (ST) {
      x = lane; y = lane * 3; z = lane * 5; w = lane * 7;
      if (W == 1) asm volatile("st.shared.u8 [%0], %1;" :: "r"(a), "r"(x) : "memory");
      if (W == 2) asm volatile("st.shared.u16 [%0], %1;" :: "r"(a), "h"((unsigned short)x) : "memory");
      if (W == 4) asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(x) : "memory");
      if (W == 8) asm volatile("st.shared.v2.u32 [%0], {%1,%2};" :: "r"(a), "r"(x), "r"(y) : "memory");
      if (W == 16) asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" :: "r"(a), "r"(x), "r"(y), "r"(z), "r"(w) : "memory");
    } else {
      if (W == 1) asm volatile("ld.shared.u8 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
      if (W == 2) { unsigned short h; asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(a) : "memory"); x = h; }
      if (W == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(a) : "memory");
      if (W == 8) asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "r"(a) : "memory");
      if (W == 16) asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a) : "memory");
    }
  }
  out[lane] = (float)(x + y + z + w);
}

int main(int argc, char** argv) {
  FILE* f = fopen(argc > 1 ? argv[1] : "shared_probes.txt", "r");
  if (!f) { printf("no patterns\n"); return 1; }
  int* d_offs; float* d_out; CK(cudaMalloc(&d_offs, 32 * 4)); CK(cudaMalloc(&d_out, 32 * 4));
  char kind[8], line[1024]; int w, n = 0; unsigned mask, wf, bc;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    int offs[32], pos = 0, k = 0;
    if (sscanf(line, "%7s %d %x %u %u%n", kind, &w, &mask, &wf, &bc, &pos) != 5) continue;
    for (int i = 0; i < 32; i++) { if (sscanf(line + pos, "%d%n", &offs[i], &k) != 1) return 1; pos += k; }
    CK(cudaMemcpy(d_offs, offs, sizeof offs, cudaMemcpyHostToDevice));
    int st = strcmp(kind, "st") == 0;
#define L(WW) if (w == WW) { if (st) shk<WW, 1><<<1, 32>>>(d_offs, mask, d_out); else shk<WW, 0><<<1, 32>>>(d_offs, mask, d_out); }
    L(1) L(2) L(4) L(8) L(16)
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); n++;
  }
  printf("launched %d\n", n);
  return 0;
}
