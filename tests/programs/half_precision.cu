// warpsim test: cuda_fp16.h half precision: __float2half/__half2float conversions (rn, rz), __hadd/__hsub/__hmul/__hfma/__hdiv, operators, __hneg/__habs, comparisons, NaN/inf/subnormal halves, __half2 packed arithmetic (__hadd2, __hmul2, __hfma2, __floats2half2_rn, __low2half/__high2half) against a bit-exact host reference (seed: 003 Module 20.1/21 FP16 inputs and mixed precision)
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cuda_fp16.h>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 10) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

#define NO 20
__global__ void hops(const unsigned short *A, const unsigned short *B, const unsigned short *C, const float *F,
                     unsigned short *o, float *of, int *oi, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  __half a = __ushort_as_half(A[t]), b = __ushort_as_half(B[t]), c = __ushort_as_half(C[t]);
  unsigned short *r = o + (size_t)t * NO;
  r[0] = __half_as_ushort(__hadd(a, b));
  r[1] = __half_as_ushort(__hsub(a, b));
  r[2] = __half_as_ushort(__hmul(a, b));
  r[3] = __half_as_ushort(__hfma(a, b, c));
  r[4] = __half_as_ushort(__hdiv(a, b));
  r[5] = __half_as_ushort(a + b * c);              // operators: mul then add (may be fused: checked loosely)
  r[6] = __half_as_ushort(__hneg(a));
  r[7] = __half_as_ushort(__habs(a));
  r[8] = __half_as_ushort(__float2half(F[t]));     // round to nearest even
  r[9] = __half_as_ushort(__float2half_rz(F[t]));
  r[10] = (unsigned short)(__hlt(a, b) | (__hgt(a, b) << 1) | (__heq(a, b) << 2) | (__hle(a, b) << 3) | (__hisnan(a) << 4) | (__hisinf(a) != 0) << 5);
  // packed half2: lanes (a, b) op (b, c)
  __half2 x = __halves2half2(a, b), y = __halves2half2(b, c);
  __half2 s = __hadd2(x, y), m = __hmul2(x, y), f = __hfma2(x, y, __halves2half2(c, a));
  r[11] = __half_as_ushort(__low2half(s));  r[12] = __half_as_ushort(__high2half(s));
  r[13] = __half_as_ushort(__low2half(m));  r[14] = __half_as_ushort(__high2half(m));
  r[15] = __half_as_ushort(__low2half(f));  r[16] = __half_as_ushort(__high2half(f));
  __half2 p = __floats2half2_rn(F[t], -F[t] * 0.5f);
  r[17] = __half_as_ushort(__low2half(p)); r[18] = __half_as_ushort(__high2half(p));
  r[19] = __half_as_ushort(__int2half_rn((int)(F[t] * 3.0f)));
  of[t * 3 + 0] = __half2float(a);
  float2 ff = __half22float2(__lowhigh2highlow(x));
  of[t * 3 + 1] = ff.x; of[t * 3 + 2] = ff.y;
  oi[t] = __hisnan(a) || __hisinf(a) ? 0 : __half2int_rn(a);
}

// ---- host reference: exact double arithmetic, then one rounding to half ----
static double h2d(uint16_t h) {
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 0) v = ldexp((double)m, -24);
  else if (e == 31) v = m ? NAN : INFINITY;
  else v = ldexp(1024.0 + m, e - 25);
  return s ? -v : v;
}
static uint16_t d2h(double x, bool rz = false) {
  if (std::isnan(x)) return 0x7fff;                 // any NaN; compared as "is NaN"
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  double ax = fabs(x);
  if (std::isinf(ax)) return sign | 0x7c00;
  double q; int e = 0;
  if (ax < ldexp(1.0, -14)) { q = ax * ldexp(1.0, 24); e = -15; }          // subnormal: units of 2^-24
  else { int ee; frexp(ax, &ee); e = ee - 1; q = ldexp(ax, 10 - e); }       // q in [1024, 2048)
  double iq = rz ? trunc(q) : nearbyint(q);
  if (e == -15) { return sign | (uint16_t)iq; }                            // 1024 becomes the smallest normal automatically
  if (iq >= 2048) { iq /= 2; e++; }
  if (e > 15) return rz ? (sign | 0x7bff) : (sign | 0x7c00);
  return sign | (uint16_t)(((e + 15) << 10) | ((int)iq - 1024));
}
static bool hsame(uint16_t g, uint16_t r) {
  bool gn = ((g & 0x7c00) == 0x7c00) && (g & 1023), rn = ((r & 0x7c00) == 0x7c00) && (r & 1023);
  if (rn) return gn;
  return g == r;
}
static bool hnear(uint16_t g, uint16_t r) {       // within one ulp (same sign), or same
  if (hsame(g, r)) return true;
  if ((g ^ r) & 0x8000) return (g & 0x7fff) == 0 && (r & 0x7fff) == 0;
  int d = (int)(g & 0x7fff) - (int)(r & 0x7fff);
  return d == 1 || d == -1;
}

int main() {
  std::vector<uint16_t> A, B, C; std::vector<float> F;
  const uint16_t special[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8001, 0x03ff, 0x0400,
                              0x3555, 0x4248, 0xc900, 0x5640, 0x1400, 0x7a00, 0x0200};
  const int ns = sizeof special / sizeof special[0];
  for (int i = 0; i < ns; i++) for (int j = 0; j < ns; j++) { A.push_back(special[i]); B.push_back(special[j]); C.push_back(special[(i * 7 + j) % ns]); }
  unsigned s = 77;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
  for (int k = 0; k < 3000; k++) {
    // moderate magnitudes (2^-6 .. 2^7): fma's exact double sum is then representable, so the reference is exact
    auto mk = [&]() { int e = 9 + (int)(rnd() % 13); return (uint16_t)(((rnd() & 1) << 15) | (e << 10) | (rnd() & 1023)); };
    A.push_back(mk()); B.push_back(mk()); C.push_back(mk());
  }
  const int n = (int)A.size();
  for (int i = 0; i < n; i++) {
    float f = (float)((int)(rnd() % 200001) - 100000) * 0.0123457f;
    if (i % 5 == 0) f = ldexpf(1.0f + (float)(rnd() % 4096) / 4096.0f, (int)(rnd() % 50) - 30);   // halfway and subnormal cases
    if (i % 11 == 0) f = 65519.0f + (float)(rnd() % 3);      // around the overflow threshold 65520
    if (i % 13 == 0) f = ldexpf(1.0f, -25) * (1.0f + (float)(rnd() % 3) * 0.5f);   // 2^-25: ties to even -> 0
    F.push_back(f);
  }
  unsigned short *dA, *dB, *dC, *dO; float *dF, *dOF; int *dOI;
  CHECK(cudaMalloc(&dA, n * 2)); CHECK(cudaMalloc(&dB, n * 2)); CHECK(cudaMalloc(&dC, n * 2)); CHECK(cudaMalloc(&dF, n * 4));
  CHECK(cudaMalloc(&dO, (size_t)n * NO * 2)); CHECK(cudaMalloc(&dOF, n * 3 * 4)); CHECK(cudaMalloc(&dOI, n * 4));
  CHECK(cudaMemcpy(dA, A.data(), n * 2, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dB, B.data(), n * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dC, C.data(), n * 2, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dF, F.data(), n * 4, cudaMemcpyHostToDevice));
  hops<<<(n + 127) / 128, 128>>>(dA, dB, dC, dF, dO, dOF, dOI, n);
  CHECK_LAUNCH();
  std::vector<uint16_t> o((size_t)n * NO); std::vector<float> of(n * 3); std::vector<int> oi(n);
  CHECK(cudaMemcpy(o.data(), dO, o.size() * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(of.data(), dOF, of.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(oi.data(), dOI, oi.size() * 4, cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    double a = h2d(A[t]), b = h2d(B[t]), c = h2d(C[t]);
    const uint16_t *r = &o[(size_t)t * NO];
    bool moderate = t >= ns * ns;
    EXPECT(hsame(r[0], d2h(a + b)), "__hadd(%04x, %04x) = %04x, expected %04x", A[t], B[t], r[0], d2h(a + b));
    EXPECT(hsame(r[1], d2h(a - b)), "__hsub(%04x, %04x) = %04x, expected %04x", A[t], B[t], r[1], d2h(a - b));
    EXPECT(hsame(r[2], d2h(a * b)), "__hmul(%04x, %04x) = %04x, expected %04x", A[t], B[t], r[2], d2h(a * b));
    if (moderate) {
      EXPECT(hsame(r[3], d2h(a * b + c)), "__hfma(%04x, %04x, %04x) = %04x, expected %04x", A[t], B[t], C[t], r[3], d2h(a * b + c));
      uint16_t unfused = d2h(a + h2d(d2h(b * c)));
      EXPECT(hsame(r[5], d2h(a + b * c)) || hsame(r[5], unfused), "a + b*c (%04x %04x %04x) = %04x, expected %04x or %04x", A[t], B[t], C[t], r[5], d2h(a + b * c), unfused);
      uint16_t lo = d2h(c + a * b);
      EXPECT(hsame(r[15], d2h(a * b + c)) && hsame(r[16], d2h(b * c + a)), "__hfma2 lanes %04x %04x, expected %04x %04x", r[15], r[16], lo, d2h(b * c + a));
    }
    EXPECT(hnear(r[4], d2h(a / b)), "__hdiv(%04x, %04x) = %04x, expected %04x (+-1 ulp)", A[t], B[t], r[4], d2h(a / b));
    EXPECT(r[6] == (uint16_t)(A[t] ^ 0x8000) || (std::isnan(a) && hsame(r[6], 0x7fff)), "__hneg(%04x) = %04x", A[t], r[6]);
    EXPECT(r[7] == (uint16_t)(A[t] & 0x7fff) || (std::isnan(a) && hsame(r[7], 0x7fff)), "__habs(%04x) = %04x", A[t], r[7]);
    EXPECT(hsame(r[8], d2h((double)F[t])), "__float2half(%.9g) = %04x, expected %04x", F[t], r[8], d2h((double)F[t]));
    EXPECT(hsame(r[9], d2h((double)F[t], true)), "__float2half_rz(%.9g) = %04x, expected %04x", F[t], r[9], d2h((double)F[t], true));
    int cmp = (a < b) | ((a > b) << 1) | ((a == b) << 2) | ((a <= b) << 3) | (std::isnan(a) << 4) | (std::isinf(a) << 5);
    EXPECT(r[10] == cmp, "comparisons of %04x, %04x = %x, expected %x", A[t], B[t], r[10], cmp);
    EXPECT(hsame(r[11], d2h(a + b)) && hsame(r[12], d2h(b + c)), "__hadd2 = (%04x, %04x), expected (%04x, %04x)", r[11], r[12], d2h(a + b), d2h(b + c));
    EXPECT(hsame(r[13], d2h(a * b)) && hsame(r[14], d2h(b * c)), "__hmul2 = (%04x, %04x), expected (%04x, %04x)", r[13], r[14], d2h(a * b), d2h(b * c));
    EXPECT(hsame(r[17], d2h((double)F[t])) && hsame(r[18], d2h((double)(-F[t] * 0.5f))), "__floats2half2_rn(%g) = (%04x, %04x)", F[t], r[17], r[18]);
    EXPECT(hsame(r[19], d2h((double)(int)(F[t] * 3.0f))), "__int2half_rn(%d) = %04x, expected %04x", (int)(F[t] * 3.0f), r[19], d2h((double)(int)(F[t] * 3.0f)));
    bool an = std::isnan(a);
    EXPECT((an && std::isnan(of[t * 3])) || (double)of[t * 3] == a, "__half2float(%04x) = %g, expected %g", A[t], of[t * 3], a);
    EXPECT((std::isnan(b) && std::isnan(of[t * 3 + 1])) || (double)of[t * 3 + 1] == b, "__lowhigh2highlow low = %g, expected %g", of[t * 3 + 1], b);
    EXPECT((an && std::isnan(of[t * 3 + 2])) || (double)of[t * 3 + 2] == a, "__lowhigh2highlow high = %g, expected %g", of[t * 3 + 2], a);
    if (!an && !std::isinf(a)) EXPECT(oi[t] == (int)nearbyint(a), "__half2int_rn(%g) = %d, expected %d", a, oi[t], (int)nearbyint(a));
  }
  printf("half precision: %d operand triples, %d conversions; 1 + 2^-11 rounds to %04x, 65520 -> %04x, 2^-25 -> %04x\n",
         n, n, d2h(1.0 + ldexp(1.0, -11)), d2h(65520.0), d2h(ldexp(1.0, -25)));
  CHECK(cudaFree(dA)); CHECK(cudaFree(dB)); CHECK(cudaFree(dC)); CHECK(cudaFree(dF)); CHECK(cudaFree(dO)); CHECK(cudaFree(dOF)); CHECK(cudaFree(dOI));
  if (g_fail) { printf("FAIL: half_precision: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS half_precision\n");
  return 0;
}
