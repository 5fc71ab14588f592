// warpsim check: an endless loop: the kernel waits for a flag that nothing sets and counts its tries, so its
// state never repeats (no deadlock proof); the watchdog (--max-instructions) ends it.
// Expected: "Watchdog: forever(int volatile*, int*) was stopped after 2000000 warp instructions", at @loop.
#include <cstdio>
__global__ void forever(volatile int *flag, int *out) {
  int tries = 0;
  while (*flag == 0) tries++;  // @loop
  out[threadIdx.x] = tries;
}
int main() {
  int *flag, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  forever<<<1, 32>>>(flag, out);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
