// warpsim test: 1D heat equation stencil, one launch per step with pointer swaps; N=1024, alpha=0.25, 1000 steps, max/sum every 250 steps (seed: 003 Module 9.2 heatStep and the "simulate heat diffusion" lab)
// usage: heat1d [STEPS]   (default 1000: the lab's; a multiple of 250, checked at every 250th step as the default)
// TIMING_ARGS: 250
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <utility>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

__global__ void heatStep(const float *u, float *u_new, int n, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i == 0 || i == n - 1) { u_new[i] = u[i]; return; }    // fixed boundary values
  u_new[i] = u[i] + alpha * (u[i-1] - 2.0f * u[i] + u[i+1]);
}

int main(int argc, char **argv) {
  int n = 1024, steps = argc > 1 ? atoi(argv[1]) : 1000, TPB = 256, blocks = (n + TPB - 1) / TPB;
  if (steps < 250 || steps > 1000 || steps % 250) { printf("FAIL: usage: heat1d [STEPS: 250, 500, 750 or 1000]\n"); return 2; }
  std::vector<float> h(n, 0.0f);
  for (int i = n / 2 - 5; i < n / 2 + 5; i++) h[i] = 1.0f;      // i = 507..516
  std::vector<float> ref(h), ref_new(n);
  float *d_u, *d_unew;
  CHECK(cudaMalloc(&d_u, n * 4)); CHECK(cudaMalloc(&d_unew, n * 4));
  CHECK(cudaMemcpy(d_u, h.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_unew, h.data(), n * 4, cudaMemcpyHostToDevice));   // boundaries too
  // seed: "the max falls quickly: roughly 0.36 at step 250, 0.25 at 500, 0.21 at 750 and 0.18 at 1000 ... The sum stays at 10.00"
  const float seedMax[4] = {0.36f, 0.25f, 0.21f, 0.18f};
  float prevMax = 1.0f;
  for (int t = 1; t <= steps; t++) {
    heatStep<<<blocks, TPB>>>(d_u, d_unew, n, 0.25f);
    CHECK(cudaGetLastError());
    std::swap(d_u, d_unew);
    for (int i = 0; i < n; i++)      // CPU reference, same formula
      ref_new[i] = (i == 0 || i == n - 1) ? ref[i] : ref[i] + 0.25f * (ref[i-1] - 2.0f * ref[i] + ref[i+1]);
    std::swap(ref, ref_new);
    if (t % 250 == 0) {
      CHECK(cudaMemcpy(h.data(), d_u, n * 4, cudaMemcpyDeviceToHost));
      float mx = 0, s = 0; for (float v : h) { mx = fmaxf(mx, v); s += v; }
      printf("step %4d  max %.4f  sum %.2f\n", t, mx, s);
      float maxerr = 0; int at = -1;
      for (int i = 0; i < n; i++) { float e = fabsf(h[i] - ref[i]); if (e > maxerr) { maxerr = e; at = i; } }
      EXPECT(maxerr <= 5e-5f, "step %d: GPU differs from CPU by %g at %d (gpu %.9g cpu %.9g)", t, maxerr, at, h[at], ref[at]);
      char buf[32]; snprintf(buf, sizeof buf, "%.2f", s);
      EXPECT(fabsf(s - 10.0f) < 1e-3f, "step %d: sum %s, expected 10.00 (heat is conserved)", t, buf);
      EXPECT(fabsf(mx - seedMax[t / 250 - 1]) <= 0.02f, "step %d: max %.4f, seed says roughly %.2f", t, mx, seedMax[t / 250 - 1]);
      EXPECT(mx < prevMax, "step %d: max %.4f did not fall", t, mx);
      EXPECT(h[0] == 0.0f && h[n - 1] == 0.0f, "step %d: boundaries changed", t);
      prevMax = mx;
    }
  }
  // symmetry: the initial condition is symmetric about 511.5
  CHECK(cudaMemcpy(h.data(), d_u, n * 4, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) EXPECT(fabsf(h[i] - h[n - 1 - i]) <= 1e-6f, "asymmetry at %d: %g vs %g", i, h[i], h[n - 1 - i]);
  CHECK(cudaFree(d_u)); CHECK(cudaFree(d_unew));
  if (g_fail) { printf("FAIL: heat1d: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS heat1d\n");
  return 0;
}
