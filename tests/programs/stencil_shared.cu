// warpsim test: shared-memory second-derivative stencil with halo cells, dynamic shared memory, barrier reached by every thread, only the write guarded (seed: 003 Module 13.4 ddShared)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

#define RAD 1
__global__ void ddShared(float *out, const float *in, int n, float h) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;   // global index
  int s_idx = threadIdx.x + RAD;                   // local index
  s[s_idx] = (i < n) ? in[i] : 0.0f;               // body (0 if past the end)
  if (threadIdx.x < RAD) {                         // halos
    int L = i - RAD, R = i + blockDim.x;
    s[s_idx - RAD]        = (L >= 0) ? in[L] : 0.0f;
    s[s_idx + blockDim.x] = (R < n)  ? in[R] : 0.0f;
  }
  __syncthreads();                                 // ALL threads reach this
  if (i > 0 && i < n - 1)                           // guard only the write
    out[i] = (s[s_idx - 1] - 2.f * s[s_idx] + s[s_idx + 1]) / (h * h);
}

static void run(int n, int TPB) {
  const float h = 0.125f;             // h*h = 1/64 exactly
  std::vector<float> in(n), out(n), ref(n);
  for (int i = 0; i < n; i++) in[i] = (float)((i * 37) % 101) * 0.0625f;  // exact binary fractions
  for (int i = 1; i < n - 1; i++) ref[i] = (float)(((double)in[i - 1] - 2.0 * in[i] + in[i + 1]) / (h * h));
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(float))); CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0xFF, n * sizeof(float)));
  int blocks = (n + TPB - 1) / TPB;
  ddShared<<<blocks, TPB, (TPB + 2 * RAD) * sizeof(float)>>>(d_out, d_in, n, h);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 1; i < n - 1; i++) EXPECT(out[i] == ref[i], "n=%d TPB=%d: out[%d] = %.9g, expected %.9g", n, TPB, i, out[i], ref[i]);
  unsigned b0, bn; memcpy(&b0, &out[0], 4); memcpy(&bn, &out[n - 1], 4);
  EXPECT(b0 == 0xFFFFFFFFu && bn == 0xFFFFFFFFu, "n=%d: boundary outputs were written", n);
  printf("ddShared n=%d TPB=%d blocks=%d: ok\n", n, TPB, blocks);
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
}

int main() {
  run(1000, 128);     // last block partial: 1000 - 7*128 = 104 valid threads
  run(1024, 256);
  run(33, 32);
  run(5000, 96);      // block size not a power of two
  if (g_fail) { printf("FAIL: stencil_shared: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS stencil_shared\n");
  return 0;
}
