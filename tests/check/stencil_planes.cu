// warpsim check story: a stencil that marches along z keeping its planes in registers (behind, current), fed from
// a double-buffered shared plane. In the first iteration the "previous plane" buffer was never written: that
// uninitialised shared value is shifted into the register planes and, in mode 0, shifted out again unused (clean:
// copying an undefined value is not an error). Mode 1 starts the output one plane too early and stores it (an
// initcheck report at the @store, naming the @read as the origin); mode 2 branches on it (reported at the @branch);
// mode 3 prints it (reported at the @print); mode 4 passes it through a device function call and stores the result
// (reported at the @call_store: definedness follows arguments and return values); mode 5 branches only on defined
// bits of it (an `and` with a zero mask known at run time, the low half of (u << 16) + tx): clean, as in
// MemorySanitizer. Every mode checks its defined outputs against the CPU.
#include <cstdio>
#include <cstdlib>
#define TPB 64
#define NZ 8
__device__ __noinline__ float twice(float v) { return v * 2.0f; }
__global__ void planes(const float *in, float *out, int *hits, int mode) {
  __shared__ float plane[2][TPB];
  const int tx = threadIdx.x;
  float behind = 0.0f, cur = 0.0f;
  for (int z = 0; z < NZ; z++) {
    plane[z & 1][tx] = in[z * TPB + tx];
    __syncthreads();
    float prev = plane[(z + 1) & 1][tx];  // @read (z = 0: the buffer was never written)
    behind = cur;
    cur = prev;
    const int first = mode == 1 ? 1 : 2;  // mode 1 starts while `behind` still holds the unwritten value
    if (z >= first) out[z * TPB + tx] = behind + cur + plane[z & 1][tx];  // @store
    if (mode == 2 && z == 1 && behind > 0.5f) atomicAdd(hits, 1);  // @branch
    if (mode == 3 && z == 1 && tx == 0) printf("behind = %f\n", behind);  // @print
    if (mode == 4 && z == 1) out[tx] = twice(behind);  // @call_store
    if (mode >= 5 && z == 1) {
      const unsigned u = __float_as_uint(behind), zero = (unsigned)(mode - 5), sh = (unsigned)mode + 11;
      if ((u & zero) != 0) atomicAdd(hits, 1);                       // a defined 0 decides the and
      if ((((u << sh) + (unsigned)tx) & 0xffffu) == 63u) atomicAdd(hits, 2);   // only tx's bits reach the test
    }
    __syncthreads();
  }
}
int main(int argc, char **argv) {
  const int mode = argc > 1 ? atoi(argv[1]) : 0;
  const int n = NZ * TPB;
  float *h_in = (float *)malloc(n * sizeof(float)), *h_out = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h_in[i] = (float)(i % 7) * 0.25f;
  float *d_in, *d_out;
  int *d_hits;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMalloc(&d_hits, sizeof(int));
  cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, n * sizeof(float));
  cudaMemset(d_hits, 0, sizeof(int));
  planes<<<1, TPB>>>(d_in, d_out, d_hits, mode);
  cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int z = 2; z < NZ; z++)
    for (int t = 0; t < TPB; t++) {
      float ref = h_in[(z - 2) * TPB + t] + h_in[(z - 1) * TPB + t] + h_in[z * TPB + t];
      if (h_out[z * TPB + t] != ref) bad++;
    }
  printf("mode %d: %s\n", mode, bad ? "WRONG" : "planes z >= 2 correct");
  cudaFree(d_in); cudaFree(d_out); cudaFree(d_hits);
  free(h_in); free(h_out);
  return bad ? 1 : 0;
}
