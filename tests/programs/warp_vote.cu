// warpsim test: warp votes and masks: __ballot_sync, __all_sync, __any_sync (full and partial masks, divergent branches), __activemask, __match_any_sync / __match_all_sync, partial last warp, __popc of ballots (seed: 000 "active mask" of a warp instruction; 001 warp divergence)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

#define NOUT 12
__global__ void votes(const int *in, unsigned *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  unsigned *o = out + (size_t)t * NOUT;
  if (t >= n) return;                                  // the last warp of the grid is partial
  int v = in[t];
  unsigned warpmask = __activemask();                  // all live lanes of this warp (no divergence yet)
  o[0] = warpmask;
  o[1] = __ballot_sync(warpmask, v > 0);
  o[2] = __all_sync(warpmask, v > -1000) != 0;              // true for every input
  o[3] = __all_sync(warpmask, v > 0) != 0;
  o[4] = __any_sync(warpmask, v == 42) != 0;
  o[5] = __popc(__ballot_sync(warpmask, v & 1));
  o[6] = __match_any_sync(warpmask, v % 4);            // lanes with the same value mod 4
  int pred = -1;
  o[7] = __match_all_sync(warpmask, v / 1000, &pred);  // all inputs are in [0, 1000) for warp 0 of block 0 only
  o[8] = pred != 0;
  // divergent branch: lanes with v even vote among themselves with the exact mask of that branch
  unsigned evenmask = __ballot_sync(warpmask, (v & 1) == 0);
  o[9] = 0xdeadbeef; o[10] = 0xdeadbeef;
  if ((v & 1) == 0) {
    o[9] = __ballot_sync(evenmask, v > 100);
    o[10] = (__any_sync(evenmask, v > 900) != 0) | ((__all_sync(evenmask, v >= 0) != 0) << 1);
  }
  // __activemask inside the branch: must contain this lane and only lanes that took the branch
  unsigned am = 0;
  if (lane % 3 == 0) am = __activemask();
  o[11] = am;
}

int main() {
  const int n = 32 * 5 + 9;                 // 2 blocks of 96: 5 full warps + a warp with 9 live lanes
  const int tpb = 96, blocks = (n + tpb - 1) / tpb;
  std::vector<int> in(n);
  for (int i = 0; i < n; i++) in[i] = (i < 32) ? (i * 37) % 1000 : ((i * 7919) % 1500) - 300;
  in[40] = 42;                              // warp 1 has a 42
  for (int i = 64; i < 96; i++) in[i] = 5 + i;   // warp 2: all positive
  std::vector<unsigned> out((size_t)blocks * tpb * NOUT, 0);
  int *d_in; unsigned *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, out.size() * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, out.size() * sizeof(unsigned)));
  votes<<<blocks, tpb>>>(d_in, d_out, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int lane = t % 32, base = t - lane;
    int live = (n - base) < 32 ? (n - base) : 32;
    unsigned wm = live == 32 ? 0xffffffffu : ((1u << live) - 1);
    unsigned ball = 0, odd = 0, even = 0, big = 0, mod = 0; bool allpos = true, any42 = false, anyBig = false, allNonNeg = true, allSame = true;
    for (int l = 0; l < live; l++) {
      int v = in[base + l];
      if (v > 0) ball |= 1u << l; else allpos = false;
      if (v == 42) any42 = true;
      if (v & 1) odd |= 1u << l; else even |= 1u << l;
      if (v % 4 == in[t] % 4) mod |= 1u << l;
      if (v / 1000 != in[base] / 1000) allSame = false;
    }
    for (int l = 0; l < live; l++) {
      int v = in[base + l];
      if ((v & 1) == 0) { if (v > 100) big |= 1u << l; if (v > 900) anyBig = true; if (v < 0) allNonNeg = false; }
    }
    const unsigned *o = &out[(size_t)t * NOUT];
    EXPECT(o[0] == wm, "thread %d: __activemask = %08x, expected %08x", t, o[0], wm);
    EXPECT(o[1] == ball, "thread %d: ballot(v>0) = %08x, expected %08x", t, o[1], ball);
    EXPECT(o[2] == 1, "thread %d: all(v>-1000) = %u", t, o[2]);
    EXPECT(o[3] == (allpos ? 1u : 0u), "thread %d: all(v>0) = %u, expected %d", t, o[3], allpos);
    EXPECT(o[4] == (any42 ? 1u : 0u), "thread %d: any(v==42) = %u, expected %d", t, o[4], any42);
    EXPECT(o[5] == (unsigned)__builtin_popcount(odd), "thread %d: popc(ballot odd) = %u, expected %d", t, o[5], __builtin_popcount(odd));
    EXPECT(o[6] == mod, "thread %d: match_any(v%%4) = %08x, expected %08x", t, o[6], mod);
    EXPECT(o[7] == (allSame ? wm : 0u) && o[8] == (allSame ? 1u : 0u), "thread %d: match_all = %08x pred %d, expected %08x %d", t, o[7], (int)o[8], allSame ? wm : 0u, allSame);
    if ((in[t] & 1) == 0) {
      EXPECT(o[9] == big, "thread %d: ballot in even branch = %08x, expected %08x", t, o[9], big);
      EXPECT(o[10] == (unsigned)(anyBig | (allNonNeg << 1)), "thread %d: any/all in even branch = %u, expected %u", t, o[10], (unsigned)(anyBig | (allNonNeg << 1)));
    } else {
      EXPECT(o[9] == 0xdeadbeef && o[10] == 0xdeadbeef, "thread %d: odd lane wrote branch outputs", t);
    }
    unsigned branch = 0; for (int l = 0; l < live; l++) if (l % 3 == 0) branch |= 1u << l;
    if (lane % 3 == 0) EXPECT((o[11] & (1u << lane)) && (o[11] & ~branch) == 0, "thread %d: __activemask in branch = %08x, not within %08x", t, o[11], branch);
    else EXPECT(o[11] == 0, "thread %d: lane outside branch got mask %08x", t, o[11]);
  }
  printf("votes over %d threads (last warp has %d live lanes): ballot/all/any/activemask/match_any/match_all ok\n", n, n % 32);
  printf("warp 0 ballot(v>0) = %08x, warp 2 all(v>0) = %u, warp 1 any(v==42) = %u\n", out[1], out[(size_t)64 * NOUT + 3], out[(size_t)32 * NOUT + 4]);
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
  if (g_fail) { printf("FAIL: warp_vote: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS warp_vote\n");
  return 0;
}
