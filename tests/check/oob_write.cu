// warpsim check story (seed 003, "change N and watch it break", naive fix): N = 100 points, TPB = 32, launched
// with 4 blocks = 128 threads and no guard, so threads 4..31 of block 3 write d_out[100..127], past the end of
// the 400-byte allocation. Expected: memcheck "Invalid __global__ write of size 4 bytes" at the d_out[i] line
// (@oob), by thread (4,0,0) in block (3,0,0), 28 errors at that site.
#include <cstdio>
#include <cstdlib>
#define N 100
#define TPB 32
__device__ float scale(int i, int n) { return ((float)i) / (n - 1); }
__device__ float distance(float x1, float x2) { return sqrt((x2 - x1) * (x2 - x1)); }
__global__ void distanceKernel(float *d_out, float ref, int len) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = scale(i, len);
  d_out[i] = distance(x, ref);  // @oob
}
int main() {
  const float ref = 0.5f;
  float *h_out = (float *)malloc(N * sizeof(float));
  float *d_out = 0;
  cudaMalloc(&d_out, N * sizeof(float));
  distanceKernel<<<(N + TPB - 1) / TPB, TPB>>>(d_out, ref, N);  // 4 blocks, no guard in the kernel
  cudaError_t e = cudaMemcpy(h_out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost);
  printf("cudaMemcpy after the kernel: %s\n", cudaGetErrorName(e));
  cudaFree(d_out);
  free(h_out);
  return 0;
}
