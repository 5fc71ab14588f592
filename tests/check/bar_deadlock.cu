// warpsim check: a barrier that cannot complete: warp 0 waits at named barrier 1 and warp 1 at named barrier 2,
// each for all 64 threads of the block, so neither ever fills. On a GPU the kernel hangs. Expected: deadlock,
// "waiting at the barrier" at @bar1 and @bar2.
#include <cstdio>
__global__ void twoBarriers(int *out) {
  if (threadIdx.x < 32) asm volatile("bar.sync 1, 64;");  // @bar1
  else asm volatile("bar.sync 2, 64;");                   // @bar2
  out[threadIdx.x] = threadIdx.x;
}
int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  twoBarriers<<<1, 64>>>(d);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
