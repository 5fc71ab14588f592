// warpsim check: invalid runtime calls return NVIDIA's error codes and, under --check, are reported with the host
// call site; a double free is named as one; with --leak-check, memory never freed is listed at exit.
// Expected: "Program hit cudaErrorInvalidValue ... cudaMemcpy" (size past the allocation),
// cudaErrorInvalidMemcpyDirection, cudaErrorInvalidSymbol on cudaMemcpyToSymbol, a double free on cudaFree, and
// "Leaked 256 bytes".
#include <cstdio>
__device__ int devVar;
int notASymbol;
int main() {
  int h[64] = {0};
  int *d, *leak;
  cudaMalloc(&d, 16 * sizeof(int));
  cudaMalloc(&leak, 256);                                                          // never freed
  cudaError_t e1 = cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);           // 256 bytes into 64
  cudaError_t e2 = cudaMemcpy(d, h, 16, (cudaMemcpyKind)7);                       // no such direction
  cudaError_t e3 = cudaMemcpyToSymbol(notASymbol, h, sizeof(int));                // not a __device__ symbol
  cudaError_t e4 = cudaMemcpyToSymbol(devVar, h, sizeof(int));                    // fine
  cudaFree(d);
  cudaError_t e5 = cudaFree(d);                                                   // double free
  printf("%s %s %s %s %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2), cudaGetErrorName(e3), cudaGetErrorName(e4),
         cudaGetErrorName(e5));
  return 0;
}
