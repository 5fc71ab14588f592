// warpsim check story (seed 004, convolve version 2 without its barrier): the block copies its 130-value
// support region into shared memory, then every thread reads three entries, but the __syncthreads() between
// the two phases is missing. Thread 127 reads support[128..129], written by threads 0 and 1 of another warp;
// thread 31 reads support[32..33] before warp 1 writes them. Expected: racecheck hazards between @load/@extra
// and @read.
#include <cstdio>
#include <cstdlib>
#define THREADS_PER_BLK 128
__global__ void convolve(int N, float *input, float *output) {
  __shared__ float support[THREADS_PER_BLK + 2];
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  support[threadIdx.x] = input[index];  // @load
  if (threadIdx.x < 2)
    support[THREADS_PER_BLK + threadIdx.x] = input[index + THREADS_PER_BLK];  // @extra
  // __syncthreads();  -- missing
  float result = 0.0f;
  for (int i = 0; i < 3; i++) result += support[threadIdx.x + i];  // @read
  output[index] = result / 3.f;
}
int main() {
  const int N = 8 * THREADS_PER_BLK;
  float *in = (float *)malloc((N + 2) * sizeof(float)), *out = (float *)malloc(N * sizeof(float));
  for (int i = 0; i < N + 2; i++) in[i] = (float)i;
  float *d_in, *d_out;
  cudaMalloc(&d_in, (N + 2) * sizeof(float));
  cudaMalloc(&d_out, N * sizeof(float));
  cudaMemcpy(d_in, in, (N + 2) * sizeof(float), cudaMemcpyHostToDevice);
  convolve<<<N / THREADS_PER_BLK, THREADS_PER_BLK>>>(N, d_in, d_out);
  cudaMemcpy(out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost);
  printf("output[0] = %g, output[%d] = %g\n", out[0], N - 1, out[N - 1]);
  cudaFree(d_in); cudaFree(d_out);
  free(in); free(out);
  return 0;
}
