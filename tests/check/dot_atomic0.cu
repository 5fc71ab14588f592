// warpsim check story (seed 003 13.5, ATOMIC 0): every block adds its sum to the result with a plain
// read-add-write, `*d_res += blockSum;`. Two blocks doing it at once lose an update. compute-sanitizer's
// racecheck looks at shared memory only; warpsim's finds this global-memory race between blocks. Expected:
// racecheck "Race reported between Write access ... and Read access" at @rmw, between different blocks.
#include <cstdio>
#include <cstdlib>
#define TPB 64
#define N 1024
#define ATOMIC 0
__global__ void dotKernel(int *d_res, const int *d_a, const int *d_b, int n) {
  __shared__ int s_prod[TPB];
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  const int s_idx = threadIdx.x;
  s_prod[s_idx] = idx < n ? d_a[idx] * d_b[idx] : 0;
  __syncthreads();
  if (s_idx == 0) {
    int blockSum = 0;
    for (int j = 0; j < blockDim.x; ++j) blockSum += s_prod[j];
#if ATOMIC
    atomicAdd(d_res, blockSum);
#else
    *d_res += blockSum;  // @rmw
#endif
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
  cudaMemcpy(d_res, &res, sizeof(int), cudaMemcpyHostToDevice);
  dotKernel<<<N / TPB, TPB>>>(d_res, d_a, d_b, N);
  cudaMemcpy(&res, d_res, sizeof(int), cudaMemcpyDeviceToHost);
  printf("gpu result = %d (cpu: %d)\n", res, N);
  cudaFree(d_a); cudaFree(d_b); cudaFree(d_res);
  free(a); free(b);
  return 0;
}
