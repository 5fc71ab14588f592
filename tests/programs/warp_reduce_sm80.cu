// warpsim test: sm_80 warp reduce intrinsics __reduce_add/min/max_sync (signed and unsigned) and __reduce_and/or/xor_sync, full warp, partial masks in divergent code and a partial last warp (seed: 003 Module 17.2 warp-level synchronization; 15.2 warp reductions)
// NVCCFLAGS: -arch=sm_80
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <climits>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

#define NOUT 12
__global__ void reduces(const int *in, unsigned *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  if (t >= n) return;
  unsigned *o = out + (size_t)t * NOUT;
  int v = in[t];
  unsigned u = (unsigned)v;
  unsigned m = __activemask();
  o[0] = __reduce_add_sync(m, u);
  o[1] = __reduce_min_sync(m, u);
  o[2] = __reduce_max_sync(m, u);
  o[3] = (unsigned)__reduce_add_sync(m, v);
  o[4] = (unsigned)__reduce_min_sync(m, v);
  o[5] = (unsigned)__reduce_max_sync(m, v);
  o[6] = __reduce_and_sync(m, u);
  o[7] = __reduce_or_sync(m, u);
  o[8] = __reduce_xor_sync(m, u);
  // divergent: even lanes and odd lanes reduce separately with their exact masks
  unsigned even = 0x55555555u & m, odd = 0xaaaaaaaau & m;
  if (lane & 1) { o[9] = __reduce_add_sync(odd, u); o[10] = (unsigned)__reduce_max_sync(odd, v); }
  else          { o[9] = __reduce_add_sync(even, u); o[10] = (unsigned)__reduce_min_sync(even, v); }
  // lanes 0..7 only
  o[11] = 0xdeadbeef;
  if (lane < 8) o[11] = __reduce_or_sync(0xffu & m, 1u << (lane * 4));
}

int main() {
  const int n = 32 * 3 + 13;
  std::vector<int> in(n);
  for (int i = 0; i < n; i++) in[i] = (int)((i * 2654435761u) >> 7) - (1 << 24);
  in[3] = INT_MIN; in[40] = INT_MAX; in[70] = -1; in[71] = 0;
  std::vector<unsigned> out((size_t)n * NOUT);
  int *d_in; unsigned *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(int))); CHECK(cudaMalloc(&d_out, out.size() * sizeof(unsigned)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  reduces<<<(n + 63) / 64, 64>>>(d_in, d_out, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int lane = t % 32, base = t - lane, live = n - base < 32 ? n - base : 32;
    unsigned uadd = 0, umin = UINT_MAX, umax = 0, uand = ~0u, uor = 0, uxor = 0;
    int smin = INT_MAX, smax = INT_MIN;
    unsigned padd[2] = {0, 0}; int pmin = INT_MAX, pmax = INT_MIN; unsigned low8 = 0;
    for (int l = 0; l < live; l++) {
      int v = in[base + l]; unsigned u = (unsigned)v;
      uadd += u; umin = u < umin ? u : umin; umax = u > umax ? u : umax;
      smin = v < smin ? v : smin; smax = v > smax ? v : smax;
      uand &= u; uor |= u; uxor ^= u;
      padd[l & 1] += u;
      if (l & 1) pmax = v > pmax ? v : pmax; else pmin = v < pmin ? v : pmin;
      if (l < 8) low8 |= 1u << (l * 4);
    }
    unsigned e[NOUT] = {uadd, umin, umax, uadd, (unsigned)smin, (unsigned)smax, uand, uor, uxor,
                        padd[lane & 1], (unsigned)((lane & 1) ? pmax : pmin), lane < 8 ? low8 : 0xdeadbeefu};
    const char *what[NOUT] = {"add u32", "min u32", "max u32", "add s32", "min s32", "max s32", "and", "or", "xor",
                              "add (parity mask)", "max/min (parity mask)", "or (lanes 0-7)"};
    for (int k = 0; k < NOUT; k++)
      EXPECT(out[(size_t)t * NOUT + k] == e[k], "%s: thread %d got %08x, expected %08x", what[k], t, out[(size_t)t * NOUT + k], e[k]);
  }
  printf("__reduce_*_sync over %d threads (last warp %d lanes): add/min/max signed+unsigned, and/or/xor, partial masks ok\n", n, n % 32);
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
  if (g_fail) { printf("FAIL: warp_reduce_sm80: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS warp_reduce_sm80\n");
  return 0;
}
