// warpsim check story (seed 003, N = 100 with <<<N/TPB, TPB>>> = 3 blocks): the distance kernel writes only
// elements 0..95 of a 100-float buffer (cudaMalloc does not clear memory); a second kernel sums all 100, and
// the host copies all 100 back. Expected: initcheck "Uninitialized __global__ memory read of size 4 bytes" at
// the @use (the undefined sum stored by thread (0,0,0)), naming the @read by thread (96,0,0) in block (0,0,0) as
// where the undefined floats came from, and the host copy of the 16 never-written bytes.
#include <cstdio>
#include <cstdlib>
#define N 100
#define TPB 32
__global__ void distanceKernel(float *d_out, float ref, int len) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  const float x = (float)i / (len - 1);
  d_out[i] = fabsf(x - ref);
}
__global__ void sumKernel(float *d_sum, const float *d_in, int n) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  s[tid] = tid < n ? d_in[tid] : 0.0f;  // @read
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) *d_sum = s[0];  // @use
}
int main() {
  float *d_out, *d_sum, h_out[N], sum = 0;
  cudaMalloc(&d_out, N * sizeof(float));
  cudaMalloc(&d_sum, sizeof(float));
  distanceKernel<<<N / TPB, TPB>>>(d_out, 0.5f, N);  // 3 blocks = 96 threads: 96..99 never written
  sumKernel<<<1, 128>>>(d_sum, d_out, N);
  cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost);  // @copy
  printf("sum = %g, h_out[99] = %g\n", sum, h_out[99]);
  cudaFree(d_out); cudaFree(d_sum);
  return 0;
}
