// warpsim check story (seed 000, "order dependent phases"): a block must not wait for another block that may not
// be running. Here block 0 waits until every block has checked in, then raises a flag; blocks 1.. check in and
// spin until block 0's flag is up (a hand-made grid barrier). Launched with more blocks than fit on the device,
// the resident blocks spin forever and the rest can never start. On a GPU the program hangs; warpsim --check
// stops it and says why. Expected: deadlock, warps spinning at @spin0 / @spin, blocks that never started.
// ARGS: --gpu two-core
#include <cstdio>
__global__ void gridBarrier(int *count, volatile int *flag, int *out) {
  if (threadIdx.x == 0) atomicAdd(count, 1);
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      while (atomicAdd(count, 0) < gridDim.x) { }  // @spin0
      __threadfence();
      *flag = 1;
    }
  } else {
    while (*flag == 0) { }  // @spin
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x;
}
int main() {
  const int blocks = 8, threads = 256;  // two-core: 384 threads per SM, so one block per SM: 2 resident
  int *count, *flag, *out;
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, blocks * threads * sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  gridBarrier<<<blocks, threads>>>(count, flag, out);
  cudaError_t e = cudaDeviceSynchronize();
  printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(e));
  return 0;
}
