// warpsim test: warp shuffles: __shfl_sync broadcast/rotate with width, __shfl_up_sync scan, __shfl_down_sync and __shfl_xor_sync reductions, 64-bit and double shuffles, sub-warp masks in divergent code (seed: 003 Module 15.2 "one warp per output row" shuffle reduction, 17.2 synchronization ladder)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

#define NOUT 16
__global__ void shuffles(const int *in, const double *din, int *out, long long *out64, double *outd) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[t];
  int *o = out + t * NOUT;
  const unsigned full = 0xffffffffu;
  o[0] = __shfl_sync(full, v, 7);                    // broadcast lane 7
  o[1] = __shfl_sync(full, v, (lane + 5) % 32);      // rotate
  o[2] = __shfl_sync(full, v, 3, 8);                 // width 8: lane 3 of each group of 8
  o[3] = __shfl_sync(full, v, lane + 1, 16);         // width 16: srcLane wraps modulo 16
  o[4] = __shfl_up_sync(full, v, 1);                 // lane 0 keeps its own value
  o[5] = __shfl_up_sync(full, v, 3, 8);
  o[6] = __shfl_down_sync(full, v, 4);               // lanes 28..31 keep their own value
  o[7] = __shfl_down_sync(full, v, 2, 4);
  o[8] = __shfl_xor_sync(full, v, 1);
  o[9] = __shfl_xor_sync(full, v, 16);
  // reductions: down (lane 0 gets the total) and xor (every lane gets the total)
  int s = v;
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(full, s, off);
  o[10] = s;
  int x = v;
  for (int m = 1; m < 32; m *= 2) x += __shfl_xor_sync(full, x, m);
  o[11] = x;
  // inclusive prefix sum with shfl_up
  int sc = v;
  for (int d = 1; d < 32; d *= 2) { int y = __shfl_up_sync(full, sc, d); if (lane >= d) sc += y; }
  o[12] = sc;
  // max via xor butterfly
  int mx = v;
  for (int m = 16; m >= 1; m /= 2) mx = max(mx, __shfl_xor_sync(full, mx, m));
  o[13] = mx;
  // divergent: only odd lanes shuffle among themselves
  o[14] = -1;
  if (lane & 1) o[14] = __shfl_sync(0xaaaaaaaau, v, (lane + 2) % 32);   // source lanes are odd too
  // only the upper half warp, width 16
  o[15] = -1;
  if (lane >= 16) o[15] = __shfl_down_sync(0xffff0000u, v, 1, 16);
  // 64-bit types
  long long w = ((long long)v << 32) | (unsigned)(v * 3);
  out64[t * 2 + 0] = __shfl_sync(full, w, 31 - lane);
  out64[t * 2 + 1] = __shfl_xor_sync(full, w, 5);
  double dv = din[t];
  outd[t * 2 + 0] = __shfl_down_sync(full, dv, 1);
  double ds = dv;
  for (int m = 16; m >= 1; m /= 2) ds += __shfl_xor_sync(full, ds, m);
  outd[t * 2 + 1] = ds;
}

int main() {
  const int blocks = 2, tpb = 96, n = blocks * tpb;
  std::vector<int> in(n), out(n * NOUT);
  std::vector<double> din(n), outd(n * 2);
  std::vector<long long> out64(n * 2);
  for (int i = 0; i < n; i++) { in[i] = (i * 7919) % 1000 - 300; din[i] = 0.5 * i - 17.25; }
  int *d_in, *d_out; long long *d_out64; double *d_din, *d_outd;
  CHECK(cudaMalloc(&d_in, n * sizeof(int))); CHECK(cudaMalloc(&d_out, n * NOUT * sizeof(int)));
  CHECK(cudaMalloc(&d_out64, n * 2 * sizeof(long long)));
  CHECK(cudaMalloc(&d_din, n * sizeof(double))); CHECK(cudaMalloc(&d_outd, n * 2 * sizeof(double)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_din, din.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  shuffles<<<blocks, tpb>>>(d_in, d_din, d_out, d_out64, d_outd);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), d_out, n * NOUT * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(out64.data(), d_out64, n * 2 * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(outd.data(), d_outd, n * 2 * sizeof(double), cudaMemcpyDeviceToHost));
  const char *what[NOUT] = {"shfl bcast 7", "shfl rotate", "shfl w8 src3", "shfl w16 lane+1", "up 1", "up 3 w8",
                            "down 4", "down 2 w4", "xor 1", "xor 16", "down-reduce", "xor-reduce", "up-scan",
                            "xor-max", "odd-lane mask", "upper-half w16"};
  for (int t = 0; t < n; t++) {
    int lane = t % 32, base = t - lane;
    auto V = [&](int l) { return in[base + l]; };
    int e[NOUT];
    e[0] = V(7);
    e[1] = V((lane + 5) % 32);
    e[2] = V((lane & ~7) + 3);
    e[3] = V((lane & ~15) + (lane + 1) % 16);
    e[4] = lane >= 1 ? V(lane - 1) : V(lane);
    e[5] = (lane % 8) >= 3 ? V(lane - 3) : V(lane);
    e[6] = lane + 4 < 32 ? V(lane + 4) : V(lane);
    e[7] = (lane % 4) + 2 < 4 ? V(lane + 2) : V(lane);
    e[8] = V(lane ^ 1);
    e[9] = V(lane ^ 16);
    int tot = 0, mx = -1000000, pre = 0;
    for (int l = 0; l < 32; l++) { tot += V(l); mx = V(l) > mx ? V(l) : mx; if (l <= lane) pre += V(l); }
    e[10] = lane == 0 ? tot : out[t * NOUT + 10];     // only lane 0's value is defined as the total
    e[11] = tot;
    e[12] = pre;
    e[13] = mx;
    e[14] = (lane & 1) ? V((lane + 2) % 32) : -1;
    e[15] = lane >= 16 ? ((lane % 16) + 1 < 16 ? V(lane + 1) : V(lane)) : -1;
    for (int k = 0; k < NOUT; k++)
      EXPECT(out[t * NOUT + k] == e[k], "%s: thread %d lane %d got %d, expected %d", what[k], t, lane, out[t * NOUT + k], e[k]);
    auto W = [&](int l) { int v = V(l); return (long long)(((unsigned long long)(long long)v << 32) | (unsigned)(v * 3)); };
    EXPECT(out64[t * 2] == W(31 - lane), "64-bit shfl: thread %d got %llx", t, (unsigned long long)out64[t * 2]);
    EXPECT(out64[t * 2 + 1] == W(lane ^ 5), "64-bit xor: thread %d got %llx", t, (unsigned long long)out64[t * 2 + 1]);
    double dd = lane + 1 < 32 ? din[base + lane + 1] : din[t];
    double dsum = 0; for (int l = 0; l < 32; l++) dsum += din[base + l];
    EXPECT(outd[t * 2] == dd, "double shfl_down: thread %d got %g, expected %g", t, outd[t * 2], dd);
    EXPECT(outd[t * 2 + 1] == dsum, "double xor-reduce: thread %d got %.17g, expected %.17g", t, outd[t * 2 + 1], dsum);
  }
  printf("shuffles over %d warps: broadcast, rotate, widths 4/8/16, up/down/xor, scan, reductions, 64-bit, double, partial masks\n", n / 32);
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out)); CHECK(cudaFree(d_out64)); CHECK(cudaFree(d_din)); CHECK(cudaFree(d_outd));
  if (g_fail) { printf("FAIL: warp_shuffle: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS warp_shuffle\n");
  return 0;
}
