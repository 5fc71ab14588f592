// warpsim check: a misaligned 8-byte load (a double read through a pointer one int past an 8-byte boundary).
// Expected: memcheck "Invalid __global__ read of size 8 bytes" ... "is misaligned" at @load, thread (0,0,0).
#include <cstdio>
__global__ void readDouble(const int *base, double *out) {
  const double *p = (const double *)(base + 1);
  out[threadIdx.x] = p[threadIdx.x];  // @load
}
int main() {
  int *d;
  double *o;
  cudaMalloc(&d, 1024);
  cudaMalloc(&o, 32 * sizeof(double));
  cudaMemset(d, 0, 1024);
  readDouble<<<1, 32>>>(d, o);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
