// warpsim test: divergence and reconvergence: the seed's even/odd branch cases, nested if/else, switch, loops with per-lane trip counts (break/continue), early return, a barrier after reconvergence (seed: 001 Experiment 1 "A warp runs both sides of a branch"; 000 8-lane branch example; 003 Module 2.6)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

// 001 Experiment 1: pred even -> v*3, else v+100
__host__ __device__ int exp1(int v) { return (v % 2 == 0) ? v * 3 : v + 100; }
// 000: lane value = lane+1; true path +10, x2; false path -1, x3, +5 (condition: value is odd)
__host__ __device__ int eight_lane(int lane) {
  int v = lane + 1;
  if (v & 1) { v += 10; v *= 2; }
  else { v -= 1; v *= 3; v += 5; }
  return v;
}

__host__ __device__ int nested(int x) {
  int r;
  if (x % 3 == 0) {
    if (x % 2 == 0) r = x / 6;
    else { r = -x; if (x > 50) r -= 1000; }
  } else if (x % 3 == 1) {
    switch (x % 5) {
      case 0: r = 7; break;
      case 1: r = x * x; break;
      case 2: r = x - 13; // fallthrough
      case 3: r = (x % 5 == 3 ? 0 : r) + 99; break;
      default: r = -1;
    }
  } else {
    r = 0;
    for (int k = 0; k < (x & 7); k++) r += k * x;
  }
  return r;
}

// per-lane trip counts with break and continue: Collatz steps, capped
__host__ __device__ int collatz(unsigned x, int cap) {
  int steps = 0;
  while (x != 1) {
    if (steps >= cap) break;
    steps++;
    if (x & 1) { x = 3 * x + 1; continue; }
    x >>= 1;
  }
  return steps;
}

// data-dependent nested loops
__host__ __device__ int nested_loops(int x) {
  int acc = 0;
  for (int i = 0; i < (x % 9); i++) {
    if (i == 5 && (x & 1)) break;
    for (int j = i; j < (x % 7); j++) {
      if ((i + j) % 3 == 0) continue;
      acc += i * 10 + j;
    }
  }
  return acc;
}

__global__ void diverge(const int *in, int *out, int n) {
  __shared__ int s[256];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int x = t < n ? in[t] : 0;
  int lane = threadIdx.x % 32;
  int r0 = exp1(x);
  int r1 = eight_lane(lane);
  int r2 = nested(x);
  int r3 = collatz((unsigned)(x > 0 ? x : -x) + 1, 200);
  int r4 = nested_loops(x < 0 ? -x : x);
  // shared store in divergent code, then a barrier that every thread reaches after reconvergence
  if (x & 1) s[threadIdx.x] = r2 + r3; else s[threadIdx.x] = r4 - r0;
  __syncthreads();
  int neighbour = s[(threadIdx.x + 1) % blockDim.x];
  if (t >= n) return;                                    // early return after the barrier
  if (r3 > 100) { out[t * 6 + 5] = neighbour; out[t * 6 + 0] = r0; out[t * 6 + 1] = r1; out[t * 6 + 2] = r2; out[t * 6 + 3] = r3; out[t * 6 + 4] = r4; return; }
  out[t * 6 + 0] = r0; out[t * 6 + 1] = r1; out[t * 6 + 2] = r2;
  out[t * 6 + 3] = r3; out[t * 6 + 4] = r4; out[t * 6 + 5] = neighbour;
}

// early return before any barrier, different lanes exit at different points of a loop
__global__ void early_exit(const int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int x = in[t];
  int acc = 0;
  for (int i = 0; i < 64; i++) {
    acc += (x >> (i % 16)) & 3;
    if (acc > (x & 127)) { out[t] = -i; return; }       // lanes leave at lane-specific iterations
  }
  out[t] = acc;
}

int main() {
  // 001 Experiment 1's three 32-lane cases
  {
    int cases[3][32];
    for (int l = 0; l < 32; l++) { cases[0][l] = l * 2; cases[1][l] = l; cases[2][l] = (l == 5) ? 1 : l * 2; }
    for (int c = 0; c < 3; c++) {
      int *d_in, *d_out; std::vector<int> out(32 * 6);
      CHECK(cudaMalloc(&d_in, 32 * sizeof(int))); CHECK(cudaMalloc(&d_out, 32 * 6 * sizeof(int)));
      CHECK(cudaMemcpy(d_in, cases[c], 32 * sizeof(int), cudaMemcpyHostToDevice));
      diverge<<<1, 32>>>(d_in, d_out, 32);
      CHECK_LAUNCH();
      CHECK(cudaMemcpy(out.data(), d_out, 32 * 6 * sizeof(int), cudaMemcpyDeviceToHost));
      for (int l = 0; l < 32; l++) {
        EXPECT(out[l * 6] == exp1(cases[c][l]), "exp1 case %d lane %d: %d, expected %d", c, l, out[l * 6], exp1(cases[c][l]));
        EXPECT(out[l * 6 + 1] == eight_lane(l), "8-lane example lane %d: %d, expected %d", l, out[l * 6 + 1], eight_lane(l));
      }
      CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
    }
    printf("Experiment 1 cases (all even, 16/16 split, one lane disagrees): same answers as scalar code\n");
    printf("8-lane example: lanes 0..7 -> %d %d %d %d %d %d %d %d\n", eight_lane(0), eight_lane(1), eight_lane(2), eight_lane(3),
           eight_lane(4), eight_lane(5), eight_lane(6), eight_lane(7));
  }
  // random inputs, several blocks, partial last block
  {
    const int n = 1000, tpb = 256, blocks = (n + tpb - 1) / tpb;
    std::vector<int> in(n), out(n * 6), out2(n);
    unsigned s = 5;
    for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; in[i] = (int)(s >> 16) % 2000 - 1000; }
    int *d_in, *d_out, *d_out2;
    CHECK(cudaMalloc(&d_in, n * sizeof(int))); CHECK(cudaMalloc(&d_out, n * 6 * sizeof(int))); CHECK(cudaMalloc(&d_out2, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    diverge<<<blocks, tpb>>>(d_in, d_out, n);
    CHECK_LAUNCH();
    early_exit<<<blocks, tpb>>>(d_in, d_out2, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out.data(), d_out, n * 6 * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(out2.data(), d_out2, n * sizeof(int), cudaMemcpyDeviceToHost));
    auto sval = [&](int t) {          // what thread t stored in shared memory
      int x = t < n ? in[t] : 0;
      int r0 = exp1(x), r2 = nested(x), r3 = collatz((unsigned)(x > 0 ? x : -x) + 1, 200), r4 = nested_loops(x < 0 ? -x : x);
      return (x & 1) ? r2 + r3 : r4 - r0;
    };
    for (int t = 0; t < n; t++) {
      int x = in[t], lane = t % 32, b = t / tpb, tib = t % tpb;
      int e[6] = {exp1(x), eight_lane(lane), nested(x), collatz((unsigned)(x > 0 ? x : -x) + 1, 200),
                  nested_loops(x < 0 ? -x : x), sval(b * tpb + (tib + 1) % tpb)};
      for (int k = 0; k < 6; k++) EXPECT(out[t * 6 + k] == e[k], "diverge: thread %d (x=%d) output %d = %d, expected %d", t, x, k, out[t * 6 + k], e[k]);
      int acc = 0, want = 0; bool left = false;
      for (int i = 0; i < 64; i++) { acc += (x >> (i % 16)) & 3; if (acc > (x & 127)) { want = -i; left = true; break; } }
      if (!left) want = acc;
      EXPECT(out2[t] == want, "early_exit: thread %d (x=%d) = %d, expected %d", t, x, out2[t], want);
    }
    printf("nested if/else/switch, per-lane loops (Collatz, nested break/continue), early exits over %d threads: ok\n", n);
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); CHECK(cudaFree(d_out2));
  }
  if (g_fail) { printf("FAIL: divergence: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS divergence\n");
  return 0;
}
