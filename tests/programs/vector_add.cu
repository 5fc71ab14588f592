// warpsim test: 1D vector add, global index = blockIdx.x*blockDim.x+threadIdx.x, ceiling-division grids and the i<n guard (seed: 000 "One thread per element" N=70 in 2 blocks of 64; 003 Module 6.3/6.4; 001 Experiment 2)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

// The seed's kernel (000): one thread per element, guard keeps surplus threads out.
// who[] records which (block, thread) wrote each element.
__global__ void add_arrays(const float *a, const float *b, float *c, int n, int *who) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] + b[i];
    who[i] = blockIdx.x * 1000 + threadIdx.x;
  }
}

// 001 Experiment 2 / 003 6.3: counts how often each element is touched, and how many threads are idle.
__global__ void vecAdd(const float *a, const float *b, float *c, int n, int *touched, int *idle) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) { atomicAdd(idle, 1); return; }   // guard: the last block may have spare threads
  c[i] = a[i] + b[i];
  atomicAdd(&touched[i], 1);
}

int main() {
  // ---- Part 1: N = 70, 2 blocks x 64 threads (seed 000) ----
  {
    const int n = 70, tpb = 64, pad = 64;
    const int blocks = (n + tpb - 1) / tpb;
    EXPECT(blocks == 2, "N=70 TPB=64 should give 2 blocks, got %d", blocks);
    std::vector<float> a(n), b(n), c(n + pad);
    for (int i = 0; i < n; i++) { a[i] = 0.5f * i + 0.1f; b[i] = 1.0f / (i + 1); }
    float *d_a, *d_b, *d_c; int *d_who;
    CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    CHECK(cudaMalloc(&d_b, n * sizeof(float)));
    CHECK(cudaMalloc(&d_c, (n + pad) * sizeof(float)));      // padded so an unguarded write would be visible
    CHECK(cudaMalloc(&d_who, (n + pad) * sizeof(int)));
    CHECK(cudaMemcpy(d_a, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_c, 0xFF, (n + pad) * sizeof(float)));
    CHECK(cudaMemset(d_who, 0xFF, (n + pad) * sizeof(int)));
    add_arrays<<<blocks, tpb>>>(d_a, d_b, d_c, n, d_who);
    CHECK_LAUNCH();
    std::vector<int> who(n + pad);
    CHECK(cudaMemcpy(c.data(), d_c, (n + pad) * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(who.data(), d_who, (n + pad) * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      float ref = a[i] + b[i];                 // one IEEE add: must match exactly (seed 003 7.3)
      EXPECT(c[i] == ref, "N=70: c[%d] = %.9g, expected %.9g", i, c[i], ref);
      EXPECT(who[i] == (i / 64) * 1000 + (i % 64), "N=70: element %d written by %d", i, who[i]);
    }
    // "Thread 5 of block 1 computes 1 x 64 + 5 = 69 and does the addition."
    EXPECT(who[69] == 1 * 1000 + 5, "index 69 should be written by block 1 thread 5, got %d", who[69]);
    // "Thread 6 computes 70 and fails the guard."  Nothing at or past index 70 may be written.
    for (int i = n; i < n + pad; i++) {
      unsigned bits; memcpy(&bits, &c[i], 4);
      EXPECT(bits == 0xFFFFFFFFu && who[i] == -1, "N=70: element %d past the end was written", i);
    }
    printf("N=70: 2 blocks x 64, index 69 by block 1 thread 5, indices >= 70 untouched\n");
    CHECK(cudaFree(d_a)); CHECK(cudaFree(d_b)); CHECK(cudaFree(d_c)); CHECK(cudaFree(d_who));
  }

  // ---- Part 2: n = 1000, 256 threads: 4 blocks correct; 3 blocks leave 232 untouched from 768 (001 Exp. 2) ----
  // ---- Part 3: n = 263,149, TPB = 256: 1028 blocks, 263,168 threads, 19 idle (003 Module 6 exercise) ----
  const int sizes[2] = {1000, 263149};
  for (int s = 0; s < 2; s++) {
    const int n = sizes[s], tpb = 256;
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; i++) { a[i] = (float)(i % 1013) * 0.75f - 3.0f; b[i] = 1.0f / (float)(1 + i % 77); }
    float *d_a, *d_b, *d_c; int *d_touched, *d_idle;
    CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    CHECK(cudaMalloc(&d_b, n * sizeof(float)));
    CHECK(cudaMalloc(&d_c, n * sizeof(float)));
    CHECK(cudaMalloc(&d_touched, n * sizeof(int)));
    CHECK(cudaMalloc(&d_idle, sizeof(int)));
    CHECK(cudaMemcpy(d_a, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    int blocks = (n + tpb - 1) / tpb;      // ceiling division
    if (n == 1000) EXPECT(blocks == 4, "(1000+255)/256 should be 4, got %d", blocks);
    if (n == 263149) EXPECT(blocks == 1028, "ceil(263149/256) should be 1028, got %d", blocks);
    for (int variant = 0; variant < 2; variant++) {
      int g = variant == 0 ? blocks : blocks - 1;     // variant 1: the classic off-by-one grid
      if (variant == 1 && n != 1000) continue;
      CHECK(cudaMemset(d_c, 0, n * sizeof(float)));
      CHECK(cudaMemset(d_touched, 0, n * sizeof(int)));
      CHECK(cudaMemset(d_idle, 0, sizeof(int)));
      vecAdd<<<g, tpb>>>(d_a, d_b, d_c, n, d_touched, d_idle);
      CHECK_LAUNCH();
      std::vector<int> touched(n); int idle = -1;
      CHECK(cudaMemcpy(c.data(), d_c, n * sizeof(float), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(touched.data(), d_touched, n * sizeof(int), cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(&idle, d_idle, sizeof(int), cudaMemcpyDeviceToHost));
      int never = 0, first = -1;
      for (int i = 0; i < n; i++) {
        if (touched[i] == 0) { never++; if (first < 0) first = i; continue; }
        EXPECT(touched[i] == 1, "n=%d: element %d touched %d times", n, i, touched[i]);
        EXPECT(c[i] == a[i] + b[i], "n=%d: c[%d] = %.9g, expected %.9g", n, i, c[i], a[i] + b[i]);
      }
      if (variant == 0) {
        EXPECT(never == 0, "n=%d: %d elements never computed", n, never);
        EXPECT(idle == g * tpb - n, "n=%d: %d idle threads, expected %d", n, idle, g * tpb - n);
        if (n == 1000) EXPECT(idle == 24, "1000 elements / 4 blocks of 256 should leave 24 surplus threads, got %d", idle);
        if (n == 263149) EXPECT(g * tpb == 263168 && idle == 19, "263149: %d threads, %d idle (expected 263168, 19)", g * tpb, idle);
        printf("n=%d: %d blocks x %d, %d surplus threads, every element touched once\n", n, g, tpb, idle);
      } else {
        // seed 001: "grid of 3 blocks: 232 elements never computed, first at index 768"
        EXPECT(never == 232 && first == 768, "grid of 3 blocks: %d never computed, first at %d (expected 232, 768)", never, first);
        EXPECT(idle == 0, "grid of 3 blocks: %d idle threads, expected 0", idle);
        printf("grid of %d blocks: %d elements never computed, first at index %d\n", g, never, first);
      }
    }
    CHECK(cudaFree(d_a)); CHECK(cudaFree(d_b)); CHECK(cudaFree(d_c)); CHECK(cudaFree(d_touched)); CHECK(cudaFree(d_idle));
  }
  if (g_fail) { printf("FAIL: vector_add: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS vector_add\n");
  return 0;
}
