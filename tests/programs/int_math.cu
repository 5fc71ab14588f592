// warpsim test: integer arithmetic: 32/64-bit multiply (incl. __mulhi/__umulhi/__mul64hi/__umul64hi), division and remainder with negatives (C truncation) by constants and runtime divisors, shifts, min/max/abs, __popc/__popcll, __clz/__clzll, __ffs/__ffsll, __brev/__brevll, __byte_perm, __funnelshift_l/r, __sad, rotates, packed 16-bit min/max (__vmins2/__vmaxs2/__vminu2/__vmaxu2 and the .relu forms: min/max.{s16x2,u16x2} at sm_90) (seed: 003 Module 6 index arithmetic; general ALU coverage for the simulator)
// NVCCFLAGS: -arch=sm_90
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <climits>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 10) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

#define NR 43
__global__ void intops(const int *A, const int *B, const long long *L, const long long *M, unsigned long long *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int a = A[t], b = B[t];
  unsigned ua = (unsigned)a, ub = (unsigned)b;
  long long la = L[t], lb = M[t];
  unsigned long long ula = (unsigned long long)la, ulb = (unsigned long long)lb;
  unsigned long long *o = out + (size_t)t * NR;
  o[0] = (unsigned)(a * b);
  o[1] = (unsigned)__mulhi(a, b);
  o[2] = __umulhi(ua, ub);
  o[3] = (unsigned long long)((long long)a * b);
  o[4] = (unsigned long long)(la * lb);
  o[5] = (unsigned long long)__mul64hi(la, lb);
  o[6] = __umul64hi(ula, ulb);
  o[7] = (b != 0 && !(a == INT_MIN && b == -1)) ? (unsigned)(a / b) : 0;   // runtime divisor, signed
  o[8] = (b != 0 && !(a == INT_MIN && b == -1)) ? (unsigned)(a % b) : 0;
  o[9] = ub ? ua / ub : 0;
  o[10] = ub ? ua % ub : 0;
  o[11] = (lb != 0 && !(la == LLONG_MIN && lb == -1)) ? (unsigned long long)(la / lb) : 0;
  o[12] = (lb != 0 && !(la == LLONG_MIN && lb == -1)) ? (unsigned long long)(la % lb) : 0;
  o[13] = ulb ? ula / ulb : 0;
  o[14] = ulb ? ula % ulb : 0;
  o[15] = (unsigned)(a / 7) ^ ((unsigned)(a % 7) << 8) ^ ((unsigned)(a / -3) << 16);  // constant divisors
  o[16] = (unsigned)(ua / 10u) + (ua % 1000u);
  o[17] = (unsigned long long)(la / 1000000007LL) ^ (unsigned long long)(la % 1000000007LL);
  o[18] = (unsigned)(a >> (b & 31)) ;                // arithmetic shift
  o[19] = ua >> (ub & 31);                            // logical shift
  o[20] = (unsigned)(ua << (ub & 31));
  o[21] = (unsigned long long)(la >> (lb & 63));
  o[22] = ula << (ulb & 63);
  o[23] = (unsigned)min(a, b) ^ ((unsigned long long)(unsigned)max(a, b) << 32);
  o[24] = min(ua, ub) ^ ((unsigned long long)max(ua, ub) << 32);
  o[25] = (unsigned long long)min(la, lb) ^ (unsigned long long)max(la, lb);
  o[26] = (unsigned)abs(a == INT_MIN ? 0 : a) + ((unsigned long long)(unsigned long long)llabs(la == LLONG_MIN ? 0 : la) << 1);
  o[27] = __popc(ua) | ((unsigned long long)__popcll(ula) << 32);
  o[28] = __clz(a) | ((unsigned long long)__clzll(la) << 32);
  o[29] = __ffs(a) | ((unsigned long long)__ffsll(la) << 32);
  o[30] = __brev(ua);
  o[31] = __brevll(ula);
  o[32] = __byte_perm(ua, ub, 0x3210) ^ ((unsigned long long)__byte_perm(ua, ub, 0x7531) << 32);
  o[33] = __byte_perm(ua, ub, ub & 0x7777) | ((unsigned long long)__byte_perm(ua, ub, 0x0123) << 32);
  o[34] = __funnelshift_l(ua, ub, ub) | ((unsigned long long)__funnelshift_r(ua, ub, ua) << 32);
  o[35] = __funnelshift_lc(ua, ub, ub) | ((unsigned long long)__funnelshift_rc(ua, ub, ua) << 32);
  o[36] = __sad(a, b, 17u);
  o[37] = (ua << (ub & 31)) | (ua >> ((32 - (ub & 31)) & 31));   // rotate left
  o[38] = (unsigned)(short)a + (unsigned)(signed char)b + (unsigned)(unsigned short)b;  // sign/zero extension
  o[39] = (unsigned long long)(long long)(int)la + (unsigned long long)(unsigned)lb;   // truncation and extension
  o[40] = __vmins2(ua, ub) | ((unsigned long long)__vmaxs2(ua, ub) << 32);             // min/max.s16x2
  o[41] = __vminu2(ua, ub) | ((unsigned long long)__vmaxu2(ua, ub) << 32);             // min/max.u16x2
  o[42] = __vimin_s16x2_relu(ua, ub) | ((unsigned long long)__vimax_s16x2_relu(ua, ub) << 32);   // .relu
}

// ---- host reference implementations of the intrinsics ----
static unsigned h_popc(unsigned long long x) { return (unsigned)__builtin_popcountll(x); }
static unsigned h_clz32(unsigned x) { return x ? __builtin_clz(x) : 32; }
static unsigned h_clz64(unsigned long long x) { return x ? __builtin_clzll(x) : 64; }
static unsigned h_ffs32(unsigned x) { return x ? __builtin_ctz(x) + 1 : 0; }
static unsigned h_ffs64(unsigned long long x) { return x ? __builtin_ctzll(x) + 1 : 0; }
static unsigned h_brev32(unsigned x) { unsigned r = 0; for (int i = 0; i < 32; i++) if (x & (1u << i)) r |= 1u << (31 - i); return r; }
static unsigned long long h_brev64(unsigned long long x) { unsigned long long r = 0; for (int i = 0; i < 64; i++) if (x & (1ULL << i)) r |= 1ULL << (63 - i); return r; }
static unsigned h_byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;   // bytes 0-3 from x, 4-7 from y
  unsigned r = 0;
  for (int k = 0; k < 4; k++) { unsigned sel = (s >> (4 * k)) & 7; r |= (unsigned)((v >> (8 * sel)) & 0xff) << (8 * k); }
  return r;
}
static unsigned h_fsl(unsigned lo, unsigned hi, unsigned sh, bool clamp) {
  unsigned n = clamp ? (sh > 32 ? 32 : sh) : (sh & 31);
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned)((v << n) >> 32);
}
static unsigned h_fsr(unsigned lo, unsigned hi, unsigned sh, bool clamp) {
  unsigned n = clamp ? (sh > 32 ? 32 : sh) : (sh & 31);
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned)(v >> n);
}
// packed 16-bit min (mx = 0) or max (mx = 1), signed or not, .relu clamping at 0
static unsigned h_mm16x2(unsigned x, unsigned y, bool mx, bool sgn, bool relu) {
  unsigned r = 0;
  for (int h = 0; h < 32; h += 16) {
    int p = sgn ? (int)(short)(x >> h) : (int)(unsigned short)(x >> h), q = sgn ? (int)(short)(y >> h) : (int)(unsigned short)(y >> h);
    int v = mx ? (p > q ? p : q) : (p < q ? p : q);
    if (relu && v < 0) v = 0;
    r |= ((unsigned)v & 0xffffu) << h;
  }
  return r;
}
static long long h_mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
static unsigned long long h_umul64hi(unsigned long long a, unsigned long long b) { return (unsigned long long)(((unsigned __int128)a * b) >> 64); }

int main() {
  std::vector<int> A, B; std::vector<long long> L, M;
  const int edge[] = {0, 1, -1, 2, -2, 7, -7, 10, -10, 31, 32, 33, 63, 64, 100, -100, 255, 256, 65535, 65536,
                      INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1, 0x40000000, 0x55555555, (int)0xAAAAAAAA, 12345678, -87654321};
  const long long ledge[] = {0LL, 1LL, -1LL, 3LL, -3LL, 1000000007LL, -1000000007LL, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1,
                             0x100000000LL, -0x100000000LL, 0x7FFFFFFF80000000LL, 123456789012345LL, -98765432109876LL, 64, 65};
  const int ne = sizeof edge / sizeof edge[0], nl = sizeof ledge / sizeof ledge[0];
  for (int i = 0; i < ne; i++) for (int j = 0; j < ne; j++) {
    A.push_back(edge[i]); B.push_back(edge[j]);
    L.push_back(ledge[(i + j) % nl]); M.push_back(ledge[(i * 3 + j) % nl]);
  }
  unsigned long long s = 88172645463325252ULL;
  for (int k = 0; k < 1500; k++) {
    auto nx = [&]() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; };
    unsigned long long r1 = nx(), r2 = nx();
    A.push_back((int)(r1 >> 5) >> (int)(r1 & 15)); B.push_back((int)(r2 >> 3) >> (int)(r2 & 15));
    L.push_back((long long)nx() >> (nx() & 31)); M.push_back((long long)nx() >> (nx() & 47));
  }
  const int n = (int)A.size();
  int *dA, *dB; long long *dL, *dM; unsigned long long *dO;
  CHECK(cudaMalloc(&dA, n * sizeof(int))); CHECK(cudaMalloc(&dB, n * sizeof(int)));
  CHECK(cudaMalloc(&dL, n * sizeof(long long))); CHECK(cudaMalloc(&dM, n * sizeof(long long)));
  CHECK(cudaMalloc(&dO, (size_t)n * NR * sizeof(unsigned long long)));
  CHECK(cudaMemcpy(dA, A.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dL, L.data(), n * sizeof(long long), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dM, M.data(), n * sizeof(long long), cudaMemcpyHostToDevice));
  intops<<<(n + 127) / 128, 128>>>(dA, dB, dL, dM, dO, n);
  CHECK_LAUNCH();
  std::vector<unsigned long long> out((size_t)n * NR);
  CHECK(cudaMemcpy(out.data(), dO, out.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  const char *names[NR] = {"mul32", "__mulhi", "__umulhi", "mul32x32->64", "mul64", "__mul64hi", "__umul64hi", "sdiv32", "srem32",
    "udiv32", "urem32", "sdiv64", "srem64", "udiv64", "urem64", "const sdiv/srem", "const udiv/urem", "const div64", "sar32", "shr32",
    "shl32", "sar64", "shl64", "min/max s32", "min/max u32", "min/max s64", "abs/llabs", "popc", "clz", "ffs", "brev", "brevll",
    "byte_perm 1", "byte_perm 2", "funnelshift", "funnelshift clamp", "sad", "rotate", "extend", "trunc/extend 64",
    "min/max.s16x2", "min/max.u16x2", "min/max.relu.s16x2"};
  for (int t = 0; t < n; t++) {
    int a = A[t], b = B[t]; unsigned ua = a, ub = b; long long la = L[t], lb = M[t];
    unsigned long long ula = la, ulb = lb;
    unsigned long long e[NR];
    e[0] = (unsigned)(ua * ub);
    e[1] = (unsigned)(int)(((long long)a * b) >> 32);
    e[2] = (unsigned)(((unsigned long long)ua * ub) >> 32);
    e[3] = (unsigned long long)((long long)a * b);
    e[4] = ula * ulb;
    e[5] = (unsigned long long)h_mul64hi(la, lb);
    e[6] = h_umul64hi(ula, ulb);
    e[7] = (b != 0 && !(a == INT_MIN && b == -1)) ? (unsigned)(a / b) : 0;
    e[8] = (b != 0 && !(a == INT_MIN && b == -1)) ? (unsigned)(a % b) : 0;
    e[9] = ub ? ua / ub : 0;
    e[10] = ub ? ua % ub : 0;
    e[11] = (lb != 0 && !(la == LLONG_MIN && lb == -1)) ? (unsigned long long)(la / lb) : 0;
    e[12] = (lb != 0 && !(la == LLONG_MIN && lb == -1)) ? (unsigned long long)(la % lb) : 0;
    e[13] = ulb ? ula / ulb : 0;
    e[14] = ulb ? ula % ulb : 0;
    e[15] = (unsigned)(a / 7) ^ ((unsigned)(a % 7) << 8) ^ ((unsigned)(a / -3) << 16);
    e[16] = (unsigned)(ua / 10u) + (ua % 1000u);
    e[17] = (unsigned long long)(la / 1000000007LL) ^ (unsigned long long)(la % 1000000007LL);
    e[18] = (unsigned)(a >> (b & 31));
    e[19] = ua >> (ub & 31);
    e[20] = (unsigned)(ua << (ub & 31));
    e[21] = (unsigned long long)(la >> (lb & 63));
    e[22] = ula << (ulb & 63);
    e[23] = (unsigned)(a < b ? a : b) ^ ((unsigned long long)(unsigned)(a > b ? a : b) << 32);
    e[24] = (ua < ub ? ua : ub) ^ ((unsigned long long)(ua > ub ? ua : ub) << 32);
    e[25] = (unsigned long long)(la < lb ? la : lb) ^ (unsigned long long)(la > lb ? la : lb);
    e[26] = (unsigned)(a == INT_MIN ? 0 : (a < 0 ? -a : a)) + ((unsigned long long)(la == LLONG_MIN ? 0 : (la < 0 ? -la : la)) << 1);
    e[27] = h_popc(ua) | ((unsigned long long)h_popc(ula) << 32);
    e[28] = h_clz32(ua) | ((unsigned long long)h_clz64(ula) << 32);
    e[29] = h_ffs32(ua) | ((unsigned long long)h_ffs64(ula) << 32);
    e[30] = h_brev32(ua);
    e[31] = h_brev64(ula);
    e[32] = h_byte_perm(ua, ub, 0x3210) ^ ((unsigned long long)h_byte_perm(ua, ub, 0x7531) << 32);
    e[33] = h_byte_perm(ua, ub, ub & 0x7777) | ((unsigned long long)h_byte_perm(ua, ub, 0x0123) << 32);
    e[34] = h_fsl(ua, ub, ub, false) | ((unsigned long long)h_fsr(ua, ub, ua, false) << 32);
    e[35] = h_fsl(ua, ub, ub, true) | ((unsigned long long)h_fsr(ua, ub, ua, true) << 32);
    e[36] = (unsigned)((a > b ? (long long)a - b : (long long)b - a) + 17);
    e[37] = (ua << (ub & 31)) | (ua >> ((32 - (ub & 31)) & 31));
    e[38] = (unsigned)(short)a + (unsigned)(signed char)b + (unsigned)(unsigned short)b;
    e[39] = (unsigned long long)(long long)(int)la + (unsigned long long)(unsigned)lb;
    e[40] = h_mm16x2(ua, ub, false, true, false) | ((unsigned long long)h_mm16x2(ua, ub, true, true, false) << 32);
    e[41] = h_mm16x2(ua, ub, false, false, false) | ((unsigned long long)h_mm16x2(ua, ub, true, false, false) << 32);
    e[42] = h_mm16x2(ua, ub, false, true, true) | ((unsigned long long)h_mm16x2(ua, ub, true, true, true) << 32);
    for (int k = 0; k < NR; k++)
      EXPECT(out[(size_t)t * NR + k] == e[k], "%s: a=%d b=%d la=%lld lb=%lld: got 0x%llx, expected 0x%llx", names[k], a, b, la, lb,
             out[(size_t)t * NR + k], e[k]);
  }
  printf("integer ops: %d input pairs x %d operations (edge values incl. INT_MIN, -1, 0, shifts >= 32): ok\n", n, NR);
  printf("examples: -7 / 2 = %d, -7 %% 2 = %d, 7 / -2 = %d, 7 %% -2 = %d (C truncation)\n", -7 / 2, -7 % 2, 7 / -2, 7 % -2);
  CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dL)); CHECK(cudaFree(dM)); CHECK(cudaFree(dO));
  if (g_fail) { printf("FAIL: int_math: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS int_math\n");
  return 0;
}
