// warpsim check story (seed 003 13.6 exercise): a tree reduction with __syncthreads() inside
// `if (tid < stride)`. Threads with tid >= stride never reach the barrier. Expected: synccheck "Barrier error
// detected. Divergent thread(s) in warp" at @bar, by thread (0,0,0) in block (0,0,0).
#include <cstdio>
#define TPB 64
__global__ void reduce(int *d_res, const int *d_in, int n) {
  __shared__ int s[TPB];
  int tid = threadIdx.x, idx = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = idx < n ? d_in[idx] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) {
      s[tid] += s[tid + stride];
      __syncthreads();  // @bar
    }
  }
  if (tid == 0) atomicAdd(d_res, s[0]);
}
int main() {
  const int n = 256;
  int h[n], res = 0, *d_in, *d_res;
  for (int i = 0; i < n; i++) h[i] = 1;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_res, sizeof(int));
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(d_res, 0, sizeof(int));
  reduce<<<n / TPB, TPB>>>(d_res, d_in, n);
  cudaMemcpy(&res, d_res, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum = %d (expected %d)\n", res, n);
  cudaFree(d_in); cudaFree(d_res);
  return 0;
}
