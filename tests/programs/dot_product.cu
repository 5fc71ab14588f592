// warpsim test: integer dot product, per-block tree reduction in shared memory (barrier outside the if) and one atomicAdd per block; TPB=64, N=1000 and N=2^20 (seed: 003 Module 13.5/13.6 and the "races and reductions" lab)
// usage: dot_product [BIG_N]   (default 2^20: the seed's size; a smaller BIG_N is checked against the CPU alike)
// TIMING_ARGS: 65536
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

#define TPB 64
// the lab solution (tree reduction)
__global__ void dotKernel(int *d_res, const int *d_a, const int *d_b, int n) {
  __shared__ int s[TPB];
  int idx = blockIdx.x * blockDim.x + threadIdx.x, tid = threadIdx.x;
  s[tid] = (idx < n) ? d_a[idx] * d_b[idx] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(d_res, s[0]);
}
// kernel.cu's serial block sum, fixed: no early return, zero for threads past n
__global__ void dotSerial(int *d_res, const int *d_a, const int *d_b, int n, int *blockSums) {
  __shared__ int s_prod[TPB];
  int idx = blockIdx.x * blockDim.x + threadIdx.x, s_idx = threadIdx.x;
  s_prod[s_idx] = (idx < n) ? d_a[idx] * d_b[idx] : 0;
  __syncthreads();
  if (s_idx == 0) {
    int blockSum = 0;
    for (int j = 0; j < blockDim.x; j++) blockSum += s_prod[j];
    blockSums[blockIdx.x] = blockSum;
    atomicAdd(d_res, blockSum);
  }
}

static void run(int n, bool ones) {
  std::vector<int> a(n), b(n);
  long long ref = 0;
  for (int i = 0; i < n; i++) {
    a[i] = ones ? 1 : (i % 7) - 3;
    b[i] = ones ? 1 : ((i * 13) % 11) - 5;
    ref += (long long)a[i] * b[i];
  }
  int *d_a, *d_b, *d_res, *d_bs;
  int blocks = (n + TPB - 1) / TPB;
  CHECK(cudaMalloc(&d_a, n * sizeof(int))); CHECK(cudaMalloc(&d_b, n * sizeof(int)));
  CHECK(cudaMalloc(&d_res, sizeof(int))); CHECK(cudaMalloc(&d_bs, blocks * sizeof(int)));
  CHECK(cudaMemcpy(d_a, a.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int res = 0;
  for (int rep = 0; rep < (n > 100000 ? 1 : 3); rep++) {   // a race would show up as run-to-run variation
    CHECK(cudaMemset(d_res, 0, sizeof(int)));
    dotKernel<<<blocks, TPB>>>(d_res, d_a, d_b, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(&res, d_res, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(res == ref, "tree N=%d (%s) rep %d: gpu result = %d, cpu = %lld", n, ones ? "ones" : "mixed", rep, res, ref);
  }
  CHECK(cudaMemset(d_res, 0, sizeof(int)));
  dotSerial<<<blocks, TPB>>>(d_res, d_a, d_b, n, d_bs);
  CHECK_LAUNCH();
  int res2 = 0;
  std::vector<int> bs(blocks);
  CHECK(cudaMemcpy(&res2, d_res, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bs.data(), d_bs, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(res2 == ref, "serial N=%d (%s): gpu result = %d, cpu = %lld", n, ones ? "ones" : "mixed", res2, ref);
  for (int k = 0; k < blocks; k++) {
    long long r = 0;
    for (int i = k * TPB; i < n && i < (k + 1) * TPB; i++) r += (long long)a[i] * b[i];
    EXPECT(bs[k] == r, "serial N=%d: blockSum[%d] = %d, expected %lld", n, k, bs[k], r);
  }
  if (ones && n == 1024) for (int k = 0; k < blocks; k++) EXPECT(bs[k] == 64, "N=1024: blockSum %d = %d, seed says 64", k, bs[k]);
  if (ones && n == 1000) EXPECT(bs[15] == 40, "N=1000: last block sum %d, expected 40 valid threads", bs[15]);
  printf("N=%7d %-5s blocks=%5d: gpu result = %d (cpu %lld)\n", n, ones ? "ones" : "mixed", blocks, res, ref);
  CHECK(cudaFree(d_a)); CHECK(cudaFree(d_b)); CHECK(cudaFree(d_res)); CHECK(cudaFree(d_bs));
}

int main(int argc, char **argv) {
  const int big = argc > 1 ? atoi(argv[1]) : 1 << 20;
  if (big < 1) { printf("FAIL: usage: dot_product [BIG_N >= 1]\n"); return 2; }
  run(1024, true);        // seed: 16 blocks, each blockSum = 64, result 1024
  run(1000, true);        // seed: last block has 1000 - 960 = 40 valid threads
  run(big, true);         // seed (2^20): 16,384 blocks, result 1,048,576
  run(1000, false);
  run(big, false);
  run(1, false);
  if (g_fail) { printf("FAIL: dot_product: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS dot_product\n");
  return 0;
}
