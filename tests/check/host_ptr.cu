// warpsim check story (seed 003: "Passing a host pointer to a kernel gives an illegal memory access error"): the
// kernel is given the malloc'd host array instead of a device copy. Expected: memcheck "Invalid __global__ write
// of size 4 bytes" at @deref by thread (0,0,0) in block (0,0,0), naming the host pointer in parameter 0.
#include <cstdio>
#include <cstdlib>
__global__ void scaleKernel(float *data, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * s;  // @deref
}
int main() {
  const int n = 64;
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = (float)i;
  scaleKernel<<<2, 32>>>(h, 2.0f, n);  // bug: h is host memory
  cudaError_t e = cudaDeviceSynchronize();
  printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(e));
  free(h);
  return 0;
}
