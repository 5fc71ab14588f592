// warpsim test: 1D convolution with a __constant__ mask (cudaMemcpyToSymbol), basic kernel vs tiled kernel with extern __shared__ halo tile sized by the 3rd <<<>>> argument (seed: 003 Module 14.1/14.2 conv_basic, conv_tiled)
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

#define MAXR 3
__constant__ float d_M[2 * MAXR + 1];              // mask in constant memory

template <int R>
__global__ void conv_basic(const float *N, float *P, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;                           // fine here: no __syncthreads
  float sum = 0.0f;
  for (int j = -R; j <= R; j++) {
    int k = i + j;
    if (k >= 0 && k < n) sum += d_M[j + R] * N[k];   // out-of-range inputs count as 0
  }
  P[i] = sum;
}

template <int R>
__global__ void conv_tiled(const float *N, float *P, int n) {
  extern __shared__ float s[];                      // TILE + 2R floats
  int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
  s[t + R] = (i < n) ? N[i] : 0.0f;
  if (t < R) {                                       // left and right halos
    int L = i - R, Rt = i + blockDim.x;
    s[t]                  = (L >= 0) ? N[L]  : 0.0f;
    s[t + blockDim.x + R] = (Rt < n) ? N[Rt] : 0.0f;
  }
  __syncthreads();
  if (i < n) {
    float sum = 0.0f;
    for (int j = 0; j < 2 * R + 1; j++) sum += d_M[j] * s[t + j];
    P[i] = sum;
  }
}

template <int R>
static void run(int n, int TILE, const float *mask) {
  const int MW = 2 * R + 1;
  CHECK(cudaMemcpyToSymbol(d_M, mask, MW * sizeof(float)));
  std::vector<float> in(n), ref(n), out(n);
  unsigned s = 7 + n;
  // small integers and a dyadic mask: every product and partial sum is exact, so results must match bit for bit
  for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; in[i] = (float)((int)((s >> 10) % 17) - 8); }
  for (int i = 0; i < n; i++) {
    double acc = 0;
    for (int j = -R; j <= R; j++) { int k = i + j; if (k >= 0 && k < n) acc += (double)mask[j + R] * in[k]; }
    ref[i] = (float)acc;
  }
  float *dN, *dP;
  CHECK(cudaMalloc(&dN, n * sizeof(float))); CHECK(cudaMalloc(&dP, n * sizeof(float)));
  CHECK(cudaMemcpy(dN, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  for (int v = 0; v < 2; v++) {
    CHECK(cudaMemset(dP, 0xFF, n * sizeof(float)));
    int blocks = (n + TILE - 1) / TILE;
    if (v == 0) conv_basic<R><<<blocks, TILE>>>(dN, dP, n);
    else conv_tiled<R><<<blocks, TILE, (TILE + 2 * R) * sizeof(float)>>>(dN, dP, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out.data(), dP, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) if (out[i] != ref[i]) { bad++; EXPECT(false, "%s R=%d n=%d TILE=%d: P[%d] = %.9g, expected %.9g", v ? "tiled" : "basic", R, n, TILE, i, out[i], ref[i]); }
    printf("%-5s R=%d (mask width %d) n=%7d TILE=%4d blocks=%5d%s: %s\n", v ? "tiled" : "basic", R, MW, n, TILE, blocks,
           v ? " smem=(TILE+2R)*4" : "", bad ? "MISMATCH" : "ok");
  }
  CHECK(cudaFree(dN)); CHECK(cudaFree(dP));
}

int main() {
  const float m3[3] = {0.25f, 0.5f, 0.25f};                 // heat mask [a, 1-2a, a] for a = 0.25 (003 9.2 exercise)
  const float m5[5] = {0.125f, -0.5f, 1.0f, 2.0f, -0.25f};  // mask width 5, as in the assignment; asymmetric to catch flips
  const float m7[7] = {1, 2, 3, 4, 3, 2, 1};
  run<1>(1048576, 256, m3);       // seed exercise: mask width 3, n = 1,048,576, TILE = 256 -> 4096 blocks
  run<2>(1000, 128, m5);          // partial last block
  run<2>(100003, 256, m5);
  run<3>(777, 64, m7);
  run<2>(3, 32, m5);              // n smaller than the mask
  if (g_fail) { printf("FAIL: conv1d_tiled: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS conv1d_tiled\n");
  return 0;
}
