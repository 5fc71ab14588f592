// warpsim test: the PTX constant WARP_SZ (public samples read it through inline PTX) equals warpSize and the
// device's warp size, and lane arithmetic built on it indexes the right elements
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)

// WARP_SZ as the PTX program sees it
__device__ unsigned warp_sz() {
  unsigned w;
  asm("mov.u32 %0, WARP_SZ;" : "=r"(w));
  return w;
}

// out[t] = warp index of t computed from WARP_SZ, WARP_SZ itself, warpSize, and the lane from WARP_SZ
__global__ void lanes(unsigned *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  unsigned w = warp_sz();
  unsigned sum;
  asm("add.u32 %0, %1, WARP_SZ;" : "=r"(sum) : "r"((unsigned)threadIdx.x));   // WARP_SZ as an operand
  out[4 * t + 0] = threadIdx.x / w;
  out[4 * t + 1] = w;
  out[4 * t + 2] = warpSize;
  out[4 * t + 3] = sum - w == threadIdx.x ? threadIdx.x % w : 0xffffffffu;
}

int main() {
  const int n = 200, tpb = 96;
  unsigned *d;
  CHECK(cudaMalloc(&d, 4 * n * sizeof(unsigned)));
  lanes<<<(n + tpb - 1) / tpb, tpb>>>(d, n);
  CHECK(cudaGetLastError());
  std::vector<unsigned> h(4 * n);
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int bad = 0;
  for (int t = 0; t < n; t++) {
    unsigned tx = t % tpb, ws = (unsigned)prop.warpSize;
    if (h[4 * t + 0] != tx / ws || h[4 * t + 1] != ws || h[4 * t + 2] != ws || h[4 * t + 3] != tx % ws) {
      if (bad++ < 5) printf("FAIL: thread %d: warp %u WARP_SZ %u warpSize %u lane %u (want %u %u %u %u)\n", t,
                            h[4 * t], h[4 * t + 1], h[4 * t + 2], h[4 * t + 3], tx / ws, ws, ws, tx % ws);
    }
  }
  CHECK(cudaFree(d));
  if (bad) { printf("FAIL warp_size_const: %d threads wrong\n", bad); return 1; }
  printf("WARP_SZ = warpSize = %d for all %d threads\nPASS warp_size_const\n", prop.warpSize, n);
  return 0;
}
