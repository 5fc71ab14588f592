// warpsim test: atomics on global and shared memory: atomicAdd (int, unsigned, unsigned long long, float, double) with unique return values, atomicSub, atomicMin/Max (signed, unsigned, 64-bit), atomicCAS loops (float max, 64-bit custom op), atomicExch conservation, atomicInc/atomicDec wrap-around, atomicAnd/Or/Xor (seed: 003 Module 13.5 race conditions and atomics; 004 histogram with atomicAdd)
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 10) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

struct Acc {
  int iadd; unsigned uadd; unsigned long long ulladd; float fadd; double dadd;
  int isub; int imin, imax; unsigned umin, umax; long long llmin, llmax; unsigned long long ullmax;
  float fmaxcas; unsigned long long mulmod;
  int exch; unsigned inc, dec; unsigned andv, orv, xorv;
  int sh_ok;
};

__device__ float atomicMaxFloat(float *addr, float v) {      // CAS loop on the bit pattern
  int *ia = (int *)addr;
  int old = *ia, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(ia, assumed, __float_as_int(v));
  } while (old != assumed);
  return __int_as_float(old);
}
__device__ unsigned long long atomicMulMod(unsigned long long *addr, unsigned long long f, unsigned long long mod) {
  unsigned long long old = *addr, assumed;
  do { assumed = old; old = atomicCAS(addr, assumed, (assumed * f) % mod); } while (old != assumed);
  return old;
}

__global__ void hammer(Acc *acc, int *ticket, int *exchOut, const int *vals, int n, unsigned incLimit, unsigned decLimit) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ int sh_count;
  __shared__ unsigned sh_bits;
  if (threadIdx.x == 0) { sh_count = 0; sh_bits = 0; }
  __syncthreads();
  if (t < n) {
    int v = vals[t];
    ticket[t] = atomicAdd(&acc->iadd, 1);                 // every old value 0..n-1 exactly once
    atomicAdd(&acc->uadd, (unsigned)(t & 7));
    atomicAdd(&acc->ulladd, 0x100000001ULL * (unsigned)(t % 3));
    atomicAdd(&acc->fadd, 0.5f);                         // exact in any order
    atomicAdd(&acc->dadd, 0.25 * (t % 4));
    atomicSub(&acc->isub, t % 5);
    atomicMin(&acc->imin, v); atomicMax(&acc->imax, v);
    atomicMin(&acc->umin, (unsigned)v); atomicMax(&acc->umax, (unsigned)v);
    atomicMin(&acc->llmin, (long long)v * 1000003LL); atomicMax(&acc->llmax, (long long)v * 1000003LL);
    atomicMax(&acc->ullmax, (unsigned long long)(unsigned)v << 20);
    atomicMaxFloat(&acc->fmaxcas, (float)v * 0.25f);
    if (t % 97 == 0) atomicMulMod(&acc->mulmod, (unsigned long long)(t + 2), 1000000007ULL);
    exchOut[t] = atomicExch(&acc->exch, t + 1);          // conservation: returned values + final = initial + all written
    atomicInc(&acc->inc, incLimit);                      // ((old >= limit) ? 0 : old + 1)
    atomicDec(&acc->dec, decLimit);                      // ((old == 0) || (old > limit)) ? limit : old - 1
    atomicAnd(&acc->andv, ~(1u << (t % 32)) | (t % 64 < 32 ? 0u : 0xffffffffu));
    atomicOr(&acc->orv, 1u << (v & 31));
    atomicXor(&acc->xorv, (unsigned)t * 2654435761u);
    atomicAdd(&sh_count, 1);                             // shared-memory atomics
    atomicOr(&sh_bits, 1u << (threadIdx.x % 32));
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int live = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x));
    unsigned want = live >= 32 ? 0xffffffffu : ((1u << live) - 1);
    if (sh_count == live && sh_bits == want) atomicAdd(&acc->sh_ok, 1);
  }
}

int main() {
  const int n = 20000, tpb = 256, blocks = (n + tpb - 1) / tpb;
  const unsigned incLimit = 999, decLimit = 777;
  std::vector<int> vals(n);
  unsigned s = 3;
  for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; vals[i] = (int)(s >> 1) - (1 << 30); }
  vals[1234] = INT_MIN; vals[4321] = INT_MAX; vals[7] = -1; vals[8] = 0;
  Acc init = {};
  init.imin = INT_MAX; init.imax = INT_MIN; init.umin = UINT_MAX; init.umax = 0; init.llmin = LLONG_MAX; init.llmax = LLONG_MIN;
  init.fmaxcas = -1e30f; init.mulmod = 1; init.exch = -12345; init.inc = 0; init.dec = 0; init.andv = 0xffffffffu;
  init.isub = 1000000;
  Acc *dacc; int *dticket, *dexch, *dvals;
  CHECK(cudaMalloc(&dacc, sizeof(Acc))); CHECK(cudaMalloc(&dticket, n * sizeof(int))); CHECK(cudaMalloc(&dexch, n * sizeof(int)));
  CHECK(cudaMalloc(&dvals, n * sizeof(int)));
  CHECK(cudaMemcpy(dacc, &init, sizeof(Acc), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dvals, vals.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  hammer<<<blocks, tpb>>>(dacc, dticket, dexch, dvals, n, incLimit, decLimit);
  CHECK_LAUNCH();
  Acc r; std::vector<int> ticket(n), exch(n);
  CHECK(cudaMemcpy(&r, dacc, sizeof(Acc), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ticket.data(), dticket, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(exch.data(), dexch, n * sizeof(int), cudaMemcpyDeviceToHost));

  // host reference
  unsigned uadd = 0; unsigned long long ulladd = 0; double dadd = 0; int isub = init.isub;
  int imin = INT_MAX, imax = INT_MIN; unsigned umin = UINT_MAX, umax = 0; long long llmin = LLONG_MAX, llmax = LLONG_MIN;
  unsigned long long ullmax = 0, mulmod = 1; float fmax = -1e30f; unsigned andv = 0xffffffffu, orv = 0, xorv = 0;
  long long exchSum = init.exch;
  for (int t = 0; t < n; t++) {
    int v = vals[t];
    uadd += t & 7; ulladd += 0x100000001ULL * (unsigned)(t % 3); dadd += 0.25 * (t % 4); isub -= t % 5;
    imin = v < imin ? v : imin; imax = v > imax ? v : imax;
    umin = (unsigned)v < umin ? (unsigned)v : umin; umax = (unsigned)v > umax ? (unsigned)v : umax;
    long long lv = (long long)v * 1000003LL; llmin = lv < llmin ? lv : llmin; llmax = lv > llmax ? lv : llmax;
    unsigned long long uv = (unsigned long long)(unsigned)v << 20; ullmax = uv > ullmax ? uv : ullmax;
    fmax = (float)v * 0.25f > fmax ? (float)v * 0.25f : fmax;
    if (t % 97 == 0) mulmod = (mulmod * (unsigned long long)(t + 2)) % 1000000007ULL;
    andv &= ~(1u << (t % 32)) | (t % 64 < 32 ? 0u : 0xffffffffu);
    orv |= 1u << (v & 31); xorv ^= (unsigned)t * 2654435761u;
    exchSum += t + 1;
  }
  EXPECT(r.iadd == n, "atomicAdd int: %d, expected %d", r.iadd, n);
  std::vector<int> seen(n, 0);
  for (int t = 0; t < n; t++) { if (ticket[t] >= 0 && ticket[t] < n) seen[ticket[t]]++; else EXPECT(false, "ticket %d out of range", ticket[t]); }
  for (int i = 0; i < n; i++) EXPECT(seen[i] == 1, "atomicAdd returned old value %d %d times", i, seen[i]);
  EXPECT(r.uadd == uadd, "atomicAdd unsigned: %u, expected %u", r.uadd, uadd);
  EXPECT(r.ulladd == ulladd, "atomicAdd u64: %llx, expected %llx", r.ulladd, ulladd);
  EXPECT(r.fadd == 0.5f * n, "atomicAdd float: %g, expected %g", r.fadd, 0.5f * n);
  EXPECT(r.dadd == dadd, "atomicAdd double: %.17g, expected %.17g", r.dadd, dadd);
  EXPECT(r.isub == isub, "atomicSub: %d, expected %d", r.isub, isub);
  EXPECT(r.imin == INT_MIN && r.imin == imin && r.imax == imax, "atomicMin/Max int: %d %d, expected %d %d", r.imin, r.imax, imin, imax);
  EXPECT(r.umin == umin && r.umax == umax, "atomicMin/Max unsigned: %u %u, expected %u %u", r.umin, r.umax, umin, umax);
  EXPECT(r.llmin == llmin && r.llmax == llmax, "atomicMin/Max long long: %lld %lld, expected %lld %lld", r.llmin, r.llmax, llmin, llmax);
  EXPECT(r.ullmax == ullmax, "atomicMax u64: %llx, expected %llx", r.ullmax, ullmax);
  EXPECT(r.fmaxcas == fmax, "atomicCAS float max: %g, expected %g", r.fmaxcas, fmax);
  EXPECT(r.mulmod == mulmod, "atomicCAS 64-bit mulmod: %llu, expected %llu", r.mulmod, mulmod);
  long long got = r.exch; for (int t = 0; t < n; t++) got += exch[t];
  EXPECT(got == exchSum, "atomicExch conservation: %lld, expected %lld", got, exchSum);
  EXPECT(r.exch >= 1 && r.exch <= n, "atomicExch final value %d", r.exch);
  EXPECT(r.inc == (unsigned)(n % (incLimit + 1)), "atomicInc: %u, expected %u", r.inc, (unsigned)(n % (incLimit + 1)));
  unsigned decWant = (unsigned)(((-(long long)n) % (long long)(decLimit + 1) + (decLimit + 1)) % (decLimit + 1));
  EXPECT(r.dec == decWant, "atomicDec: %u, expected %u", r.dec, decWant);
  EXPECT(r.andv == andv && r.orv == orv && r.xorv == xorv, "atomicAnd/Or/Xor: %08x %08x %08x, expected %08x %08x %08x", r.andv, r.orv, r.xorv, andv, orv, xorv);
  EXPECT(r.sh_ok == blocks, "shared-memory atomics correct in %d of %d blocks", r.sh_ok, blocks);
  printf("atomics over %d threads: add (unique tickets), sub, min/max, CAS loops, exch, inc (%u) / dec (%u) wrap, and/or/xor, shared: ok\n", n, r.inc, r.dec);
  CHECK(cudaFree(dacc)); CHECK(cudaFree(dticket)); CHECK(cudaFree(dexch)); CHECK(cudaFree(dvals));
  if (g_fail) { printf("FAIL: atomics: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS atomics\n");
  return 0;
}
