// warpsim check story (seed 003 13.5, "find every bug in the dot product", N = 1000): kernel.cu's dot product
// with `if (idx >= n) return;` before __syncthreads(). Block 15 has 40 valid threads; threads 40..63 return
// before the barrier. Since Volta that is legal (exited threads no longer take part), but thread 0 then sums
// s_prod[40..63], which nobody wrote. Expected: synccheck reports the read at @sum by thread (0,0,0) in block
// (15,0,0), naming threads (40,0,0)..(63,0,0) and the barrier at @bar.
#include <cstdio>
#include <cstdlib>
#define TPB 64
#define N 1000
__global__ void dotKernel(int *d_res, const int *d_a, const int *d_b, int n) {
  __shared__ int s_prod[TPB];
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  const int s_idx = threadIdx.x;
  if (idx >= n) return;  // @return
  s_prod[s_idx] = d_a[idx] * d_b[idx];
  __syncthreads();  // @bar
  if (s_idx == 0) {
    int blockSum = 0;
    for (int j = 0; j < blockDim.x; ++j) blockSum += s_prod[j];  // @sum
    atomicAdd(d_res, blockSum);
  }
}
int main() {
  int *a = (int *)malloc(N * sizeof(int)), *b = (int *)malloc(N * sizeof(int)), res = 0;
  for (int i = 0; i < N; i++) a[i] = b[i] = 1;
  int *d_a, *d_b, *d_res;
  cudaMalloc(&d_a, N * sizeof(int));
  cudaMalloc(&d_b, N * sizeof(int));
  cudaMalloc(&d_res, sizeof(int));
  cudaMemcpy(d_a, a, N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b, N * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_res, 0, sizeof(int));
  dotKernel<<<(N + TPB - 1) / TPB, TPB>>>(d_res, d_a, d_b, N);
  cudaMemcpy(&res, d_res, sizeof(int), cudaMemcpyDeviceToHost);
  printf("gpu result = %d (cpu: %d)\n", res, N);
  cudaFree(d_a); cudaFree(d_b); cudaFree(d_res);
  free(a); free(b);
  return 0;
}
