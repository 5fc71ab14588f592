// warpsim test: CUDA Graph of 100 heat steps via stream capture (cudaStreamBeginCapture/EndCapture, cudaGraphInstantiate, cudaGraphLaunch) with pointer swaps baked into the captured arguments; compared with CPU steps (seed: 003 Module 17.4 and the "graph the heat equation" lab)
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
  if (i == 0 || i == n - 1) { u_new[i] = u[i]; return; }
  u_new[i] = u[i] + alpha * (u[i-1] - 2.0f * u[i] + u[i+1]);
}

static void cpu_steps(std::vector<float> &u, int steps, float r) {
  int n = (int)u.size();
  std::vector<float> v(u);
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) v[i] = (i == 0 || i == n - 1) ? u[i] : u[i] + r * (u[i-1] - 2.0f * u[i] + u[i+1]);
    std::swap(u, v);
  }
}

static float maxdiff(const std::vector<float> &a, const std::vector<float> &b) {
  float m = 0; for (size_t i = 0; i < a.size(); i++) m = fmaxf(m, fabsf(a[i] - b[i])); return m;
}

int main() {
  const int N = 2001, threads = 256, blocks = (N + threads - 1) / threads;
  const float r = 0.25f;
  std::vector<float> h(N, 0.0f);
  for (int i = 0; i < N; i++) h[i] = (i > N / 3 && i < N / 2) ? 1.0f : 0.0f;
  h[0] = 0.75f; h[N - 1] = 0.25f;                   // fixed, non-zero boundaries
  std::vector<float> init(h);
  float *d_u, *d_unew;
  CHECK(cudaMalloc(&d_u, N * sizeof(float))); CHECK(cudaMalloc(&d_unew, N * sizeof(float)));
  CHECK(cudaMemcpy(d_u, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_unew, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  float *orig_u = d_u;

  cudaStream_t s; CHECK(cudaStreamCreate(&s));
  cudaGraph_t graph; cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus cs;
  CHECK(cudaStreamIsCapturing(s, &cs));
  EXPECT(cs == cudaStreamCaptureStatusActive, "stream is not capturing (status %d)", (int)cs);
  for (int k = 0; k < 100; k++) {                     // record 100 steps (an even number,
    heatStep<<<blocks, threads, 0, s>>>(d_u, d_unew, N, r);   // so the swaps end where they began)
    std::swap(d_u, d_unew);                           // host-side swap is baked into the captured args
  }
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaStreamIsCapturing(s, &cs));
  EXPECT(cs == cudaStreamCaptureStatusNone, "stream still capturing after EndCapture");
  EXPECT(d_u == orig_u, "after 100 swaps d_u should point at the original buffer");
  size_t numNodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &numNodes));
  EXPECT(numNodes == 100, "graph has %zu nodes, expected 100 kernel nodes", numNodes);
  CHECK(cudaGraphInstantiate(&exec, graph, 0));       // CUDA 12+ signature

  // captured work is only recorded, never executed during capture
  CHECK(cudaMemcpy(h.data(), d_u, N * sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT(maxdiff(h, init) == 0.0f, "capture executed kernels: buffer changed before the first cudaGraphLaunch");

  std::vector<float> ref(init);
  int done = 0;
  const int launches[3] = {1, 2, 4};                   // 100, then 300, then 700 steps in total
  for (int L : launches) {
    for (int rep = 0; rep < L; rep++) CHECK(cudaGraphLaunch(exec, s));   // one launch = 100 kernels
    CHECK(cudaStreamSynchronize(s));
    cpu_steps(ref, 100 * L, r);
    done += 100 * L;
    CHECK(cudaMemcpy(h.data(), d_u, N * sizeof(float), cudaMemcpyDeviceToHost));
    float e = maxdiff(h, ref);
    double sum = 0; for (float v : h) sum += v;
    EXPECT(e <= 5e-5f, "after %d graph steps GPU differs from CPU by %g", done, e);
    EXPECT(h[0] == 0.75f && h[N - 1] == 0.25f, "boundaries changed");
    printf("after %3d steps (%d graph launches of 100 kernels): max |gpu-cpu| = %.3g, sum %.4f\n", done, done / 100, e, sum);
  }
  // mixing ordinary launches after graph launches in the same stream keeps the order
  heatStep<<<blocks, threads, 0, s>>>(d_u, d_unew, N, r);
  CHECK(cudaGetLastError());
  CHECK(cudaGraphLaunch(exec, s));                     // must run after the ordinary launch (same stream)
  CHECK(cudaStreamSynchronize(s));
  // the ordinary step wrote only d_unew; the graph's first kernel overwrites d_unew from d_u, so d_u ends 100 steps later
  cpu_steps(ref, 100, r);
  CHECK(cudaMemcpy(h.data(), d_u, N * sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT(maxdiff(h, ref) <= 5e-5f, "graph after an ordinary launch: differs by %g", maxdiff(h, ref));

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_u)); CHECK(cudaFree(d_unew));
  if (g_fail) { printf("FAIL: cuda_graph_heat: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS cuda_graph_heat\n");
  return 0;
}
