// warpsim test: 256-bin histogram with global atomicAdd(&counts[A[i]], 1) and a shared-memory privatised version; counts must not depend on block order (seed: 004 "Blocks: any order, but not necessarily independent"; 003 Module 13.5)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

#define BINS 256
__global__ void hist_global(const unsigned char *A, int n, unsigned int *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[A[i]], 1);
}

// privatised: block-local bins in shared memory, grid-stride loop, one global atomic per bin per block
__global__ void hist_shared(const unsigned char *A, int n, unsigned int *counts) {
  __shared__ unsigned int s[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) s[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&s[A[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (s[b]) atomicAdd(&counts[b], s[b]);
}

static void run(int n, int mode) {
  std::vector<unsigned char> A(n);
  unsigned s = 2024 + mode;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    if (mode == 0) A[i] = (unsigned char)(s >> 24);                     // uniform
    else if (mode == 1) A[i] = ((s >> 20) % 10 == 0) ? (unsigned char)(s >> 24) : 7;   // 90% in one bin: heavy contention
    else A[i] = (unsigned char)(i % 3 == 0 ? 255 : (i & 0x3f));
  }
  std::vector<unsigned> ref(BINS, 0), h(BINS);
  for (int i = 0; i < n; i++) ref[A[i]]++;
  unsigned char *dA; unsigned *dC;
  CHECK(cudaMalloc(&dA, n)); CHECK(cudaMalloc(&dC, BINS * sizeof(unsigned)));
  CHECK(cudaMemcpy(dA, A.data(), n, cudaMemcpyHostToDevice));
  const char *names[3] = {"uniform", "skewed", "pattern"};
  for (int v = 0; v < 3; v++) {
    CHECK(cudaMemset(dC, 0, BINS * sizeof(unsigned)));
    if (v == 0) hist_global<<<(n + 255) / 256, 256>>>(dA, n, dC);
    else if (v == 1) hist_shared<<<64, 256>>>(dA, n, dC);
    else hist_shared<<<7, 96>>>(dA, n, dC);     // fewer threads than bins: the init/flush loops iterate
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(h.data(), dC, BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned long long total = 0;
    for (int b = 0; b < BINS; b++) {
      total += h[b];
      EXPECT(h[b] == ref[b], "%s n=%d %s: bin %d = %u, expected %u", names[mode], n, v == 0 ? "global" : "shared", b, h[b], ref[b]);
    }
    EXPECT(total == (unsigned long long)n, "%s n=%d: total %llu != n", names[mode], n, total);
  }
  printf("histogram %-7s n=%7d: global, shared<<<64,256>>>, shared<<<7,96>>> all match (bin 7 = %u)\n", names[mode], n, ref[7]);
  CHECK(cudaFree(dA)); CHECK(cudaFree(dC));
}

int main() {
  run(1 << 20, 0);
  run(300001, 1);
  run(4099, 2);
  if (g_fail) { printf("FAIL: histogram: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS histogram\n");
  return 0;
}
