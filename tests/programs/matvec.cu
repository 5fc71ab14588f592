// warpsim test: dense matrix-vector product, one thread per row (uncoalesced) vs one warp per row with __shfl_down_sync; d = n = 4096 and odd sizes (seed: 003 Module 15.2 matvec_row / matvec_warp and the "three matvec designs" lab)
// usage: matvec [D N]   (the first case's size; default 4096 4096: the lab's; any size is checked against the CPU)
// TIMING_ARGS: 1024 1024
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

__global__ void matvec_row(const float *W, const float *x, float *y, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;          // output row
  if (i >= d) return;
  float s = 0.0f;
  for (int j = 0; j < n; j++) s += W[(size_t)i * n + j] * x[j];
  y[i] = s;
}

__global__ void matvec_warp(const float *W, const float *x, float *y, int n, int d) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= d) return;                                  // whole warp exits together
  float s = 0.0f;
  for (int j = lane; j < n; j += 32)                      // lanes read consecutive W entries
    s += W[(size_t)warp * n + j] * x[j];
  for (int off = 16; off > 0; off /= 2)                   // warp reduction in registers
    s += __shfl_down_sync(0xffffffff, s, off);
  if (lane == 0) y[warp] = s;
}

static void run(int d, int n) {
  std::vector<float> W((size_t)d * n), x(n), y(d);
  unsigned s = d * 31 + n;
  for (auto &w : W) { s = s * 1664525u + 1013904223u; w = (float)((s >> 8) & 0xffff) / 65536.0f - 0.5f; }
  for (auto &v : x) { s = s * 1664525u + 1013904223u; v = (float)((s >> 8) & 0xffff) / 65536.0f - 0.5f; }
  std::vector<double> ref(d), absum(d);
  for (int i = 0; i < d; i++) {
    double a = 0, b = 0;
    for (int j = 0; j < n; j++) { double p = (double)W[(size_t)i * n + j] * x[j]; a += p; b += fabs(p); }
    ref[i] = a; absum[i] = b;
  }
  float *dW, *dx, *dy;
  CHECK(cudaMalloc(&dW, W.size() * sizeof(float))); CHECK(cudaMalloc(&dx, n * sizeof(float))); CHECK(cudaMalloc(&dy, d * sizeof(float)));
  CHECK(cudaMemcpy(dW, W.data(), W.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  for (int v = 0; v < 2; v++) {
    CHECK(cudaMemset(dy, 0xFF, d * sizeof(float)));
    if (v == 0) matvec_row<<<(d + 255) / 256, 256>>>(dW, dx, dy, n, d);
    else matvec_warp<<<(d * 32 + 255) / 256, 256>>>(dW, dx, dy, n, d);   // d warps, 256 threads per block
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(y.data(), dy, d * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < d; i++) {
      // float sums of n terms: error bounded by ~n*eps*sum|terms|; the seed's 1e-4 relative tolerance plus that floor
      double tol = 1e-4 * fabs(ref[i]) + 8e-7 * absum[i];
      EXPECT(fabs(y[i] - ref[i]) <= tol, "%dx%d %s: y[%d] = %.9g, expected %.9g", d, n, v ? "warp" : "row", i, y[i], ref[i]);
    }
  }
  printf("matvec d=%d n=%d: matvec_row and matvec_warp match the CPU\n", d, n);
  CHECK(cudaFree(dW)); CHECK(cudaFree(dx)); CHECK(cudaFree(dy));
}

int main(int argc, char **argv) {
  const int d = argc > 2 ? atoi(argv[1]) : 4096, n = argc > 2 ? atoi(argv[2]) : 4096;
  if (argc == 2 || d < 1 || n < 1) { printf("FAIL: usage: matvec [D N], both >= 1\n"); return 2; }
  run(d, n);           // the lab's size by default
  run(1000, 777);
  run(33, 31);         // n < 32: some lanes never enter the loop
  run(1, 100);
  if (g_fail) { printf("FAIL: matvec: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS matvec\n");
  return 0;
}
