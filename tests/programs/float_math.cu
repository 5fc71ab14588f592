// warpsim test: float and double math: IEEE-exact +,-,*,/,sqrt,fma, rounding functions, min/max with NaN, subnormals, inf/NaN; libm functions (expf, logf, sinf, cosf, powf, ...) within CUDA's documented ulp bounds; fast intrinsics (__sinf, __expf) within their bounds; conversions incl. CUDA's saturating float->int (seed: 003 Module 7.3 "Why floats differ between CPU and GPU", 11 "float vs double")
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <climits>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 100) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

#define NF 40
#define ND 16
__global__ void fops(const float *X, const float *Y, const double *DX, const double *DY, float *of, double *od, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float x = X[t], y = Y[t];
  float *o = of + (size_t)t * NF;
  o[0] = x + y;  o[1] = x - y;  o[2] = x * y;  o[3] = x / y;
  o[4] = sqrtf(fabsf(x));  o[5] = fmaf(x, y, 0.75f);  o[6] = fabsf(x);
  o[7] = floorf(x); o[8] = ceilf(x); o[9] = truncf(x); o[10] = rintf(x); o[11] = roundf(x);
  o[12] = fminf(x, y); o[13] = fmaxf(x, y); o[14] = copysignf(x, y); o[15] = fmodf(x, y);
  // libm-style functions (ulp-bounded)
  o[16] = expf(x * 0.01f); o[17] = logf(fabsf(x) + 1e-3f); o[18] = sinf(x); o[19] = cosf(x);
  o[20] = powf(fabsf(x) * 0.01f + 0.5f, y * 0.01f); o[21] = exp2f(y * 0.01f); o[22] = log2f(fabsf(y) + 0.5f);
  o[23] = tanhf(x * 0.01f); o[24] = atan2f(x, y); o[25] = rsqrtf(fabsf(x) + 0.25f); o[26] = cbrtf(x);
  o[27] = erff(x * 0.01f); o[28] = hypotf(x, y); o[29] = log1pf(fabsf(x) * 0.01f);
  // fast intrinsics, inputs reduced to their accurate ranges
  float r = fmodf(x, 3.0f);
  o[30] = __sinf(r); o[31] = __cosf(r); o[32] = __expf(r); o[33] = __fdividef(x, 3.0f + fabsf(y) * 0.001f);
  // conversions
  o[34] = (float)(int)x; o[35] = (float)__float2int_rn(x); o[36] = (float)(unsigned)__float2uint_rz(fabsf(x));
  o[37] = __int_as_float(__float_as_int(x) ^ 0x80000000);
  o[38] = (float)(double)x; o[39] = (float)((double)x / 3.0);
  double a = DX[t], b = DY[t];
  double *q = od + (size_t)t * ND;
  q[0] = a + b; q[1] = a - b; q[2] = a * b; q[3] = a / b; q[4] = sqrt(fabs(a)); q[5] = fma(a, b, -0.5);
  q[6] = floor(a); q[7] = rint(a); q[8] = fmin(a, b);
  q[9] = exp(a * 0.001); q[10] = log(fabs(a) + 1.0); q[11] = sin(a); q[12] = cos(b); q[13] = pow(fabs(a) * 0.001 + 1.0, b * 0.01);
  q[14] = (double)(long long)a; q[15] = (double)(float)a;
}

// conversions with edge inputs: CUDA's cvt saturates; NaN gives 0 for 32-bit results and LLONG_MIN for 64-bit (as measured on an H200)
__global__ void convs(const float *X, int *oi, unsigned *ou, long long *ol, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  float x = X[t];
  oi[t * 6 + 0] = (int)x;               // round toward zero, saturating
  oi[t * 6 + 1] = __float2int_rn(x);    // nearest even
  oi[t * 6 + 2] = __float2int_rd(x);
  oi[t * 6 + 3] = __float2int_ru(x);
  oi[t * 6 + 4] = (int)(long long)(x * 0.0f);   // zero of either sign
  oi[t * 6 + 5] = __float_as_int(x);
  ou[t] = (unsigned)x;
  ol[t] = (long long)x;
}

static float ulpf(double r) {
  float f = (float)fabs(r);
  if (f == 0.0f || !std::isfinite(f)) return 1.4e-45f;
  return nextafterf(f, INFINITY) - f;
}
static double ulpd(double r) {
  double f = fabs(r);
  if (f == 0.0 || !std::isfinite(f)) return 4.9e-324;
  return nextafter(f, INFINITY) - f;
}
static bool same_f(float g, double r) {          // exact: bitwise equal to the correctly rounded value (NaN == NaN)
  float rf = (float)r;
  if (std::isnan(rf)) return std::isnan(g);
  return g == rf && std::signbit(g) == std::signbit(rf);
}
static bool within_f(float g, double r, double ulps) {
  if (std::isnan(r)) return std::isnan(g);
  if (std::isinf((float)r)) return g == (float)r;      // infinite, or beyond the float range: overflow to +-inf
  return fabs((double)g - r) <= ulps * ulpf(r) + 1e-38;   // + FLT_MIN-sized floor for subnormal results
}

// setp on floats: the six ordered comparisons, some unordered ones and num/nan, plain and .ftz (subnormal operands
// compare as signed zeros), one bit each
#define SETP_BIT(op, k) { unsigned r; asm("{ .reg .pred p; setp." op ".f32 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "f"(x), "f"(y)); m |= r << (k); }
__global__ void cmps(const float *X, const float *Y, unsigned *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float x = X[t], y = Y[t];
  unsigned m = 0;
  SETP_BIT("eq", 0) SETP_BIT("ne", 1) SETP_BIT("lt", 2) SETP_BIT("le", 3) SETP_BIT("gt", 4) SETP_BIT("ge", 5)
  SETP_BIT("eq.ftz", 6) SETP_BIT("ne.ftz", 7) SETP_BIT("lt.ftz", 8) SETP_BIT("le.ftz", 9) SETP_BIT("gt.ftz", 10)
  SETP_BIT("ge.ftz", 11) SETP_BIT("ltu", 12) SETP_BIT("neu", 13) SETP_BIT("num", 14) SETP_BIT("nan", 15)
  SETP_BIT("geu.ftz", 16)
  out[t] = m;
}
// the same on the CPU
static unsigned cmp_ref(float x, float y) {
  auto flush = [](float v) { return std::fabs(v) < 1.17549435e-38f ? std::copysign(0.0f, v) : v; };
  auto bits = [](float a, float b, int base) {
    bool un = std::isnan(a) || std::isnan(b);
    return (unsigned)(!un && a == b) << base | (unsigned)(!un && a != b) << (base + 1) | (unsigned)(!un && a < b) << (base + 2) |
           (unsigned)(!un && a <= b) << (base + 3) | (unsigned)(!un && a > b) << (base + 4) | (unsigned)(!un && a >= b) << (base + 5);
  };
  bool un = std::isnan(x) || std::isnan(y);
  float fx = flush(x), fy = flush(y);
  return bits(x, y, 0) | bits(fx, fy, 6) | (unsigned)(un || x < y) << 12 | (unsigned)(un || x != y) << 13 | (unsigned)!un << 14 |
         (unsigned)un << 15 | (unsigned)(un || fx >= fy) << 16;
}

int main() {
  std::vector<float> X, Y;
  const float ex[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.5f, -2.5f, 3.5f, -3.5f, 0.49999997f, 1e-40f, -3e-39f, 1e30f, -1e30f,
                      3.14159265f, 1.5707964f, 100.0f, -100.0f, 12345.678f, 8388608.5f, 16777217.0f, 1e-7f, 7.0f, -7.0f,
                      INFINITY, -INFINITY, NAN, 0.1f, 4096.0f, -0.75f};
  const int ne = sizeof ex / sizeof ex[0];
  for (int i = 0; i < ne; i++) for (int j = 0; j < ne; j += 3) { X.push_back(ex[i]); Y.push_back(ex[(i + j + 1) % ne]); }
  unsigned s = 1;
  for (int k = 0; k < 2000; k++) {
    s = s * 1664525u + 1013904223u; float a = ((s >> 8) / 16777216.0f - 0.5f) * 400.0f;
    s = s * 1664525u + 1013904223u; float b = ((s >> 8) / 16777216.0f - 0.5f) * 300.0f;
    if (k % 7 == 0) b = (float)(k % 11) - 5.0f;
    X.push_back(a); Y.push_back(b == 0.0f ? 0.25f : b);
  }
  const int n = (int)X.size();
  std::vector<double> DX(n), DY(n);
  for (int i = 0; i < n; i++) { DX[i] = (double)X[i] * 1.0000001 + 1e-9; DY[i] = (double)Y[i] * 0.999999 - 3e-10; }
  for (int i = 0; i < n; i++) if (!std::isfinite(DX[i]) || fabs(DX[i]) > 1e6) DX[i] = 1.0 / 3.0;
  for (int i = 0; i < n; i++) if (!std::isfinite(DY[i]) || fabs(DY[i]) > 1e6 || DY[i] == 0.0) DY[i] = -7.0 / 9.0;

  float *dX, *dY, *dof; double *dDX, *dDY, *dod;
  CHECK(cudaMalloc(&dX, n * 4)); CHECK(cudaMalloc(&dY, n * 4)); CHECK(cudaMalloc(&dof, (size_t)n * NF * 4));
  CHECK(cudaMalloc(&dDX, n * 8)); CHECK(cudaMalloc(&dDY, n * 8)); CHECK(cudaMalloc(&dod, (size_t)n * ND * 8));
  CHECK(cudaMemcpy(dX, X.data(), n * 4, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dY, Y.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dDX, DX.data(), n * 8, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dDY, DY.data(), n * 8, cudaMemcpyHostToDevice));
  fops<<<(n + 127) / 128, 128>>>(dX, dY, dDX, dDY, dof, dod, n);
  CHECK_LAUNCH();
  std::vector<float> of((size_t)n * NF); std::vector<double> od((size_t)n * ND);
  CHECK(cudaMemcpy(of.data(), dof, of.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(od.data(), dod, od.size() * 8, cudaMemcpyDeviceToHost));

  int checked = 0;
  for (int t = 0; t < n; t++) {
    float x = X[t], y = Y[t];
    double dx = x, dy = y;
    const float *o = &of[(size_t)t * NF];
    auto EX = [&](int k, double ref, const char *w) {
      checked++;
      EXPECT(same_f(o[k], ref), "%s(x=%.9g, y=%.9g) = %.9g, expected %.9g", w, x, y, o[k], (float)ref);
    };
    // the documented ulp bounds are checked for finite inputs; special-value handling is covered by the exact ops above
    const bool finite_xy = std::isfinite(x) && std::isfinite(y);
    auto UL = [&](int k, double ref, double ulps, const char *w) {
      if (!finite_xy) return;
      checked++;
      EXPECT(within_f(o[k], ref, ulps), "%s(x=%.9g, y=%.9g) = %.9g, expected %.9g within %g ulp", w, x, y, o[k], ref, ulps);
    };
    auto EV = [&](int k, double ref, const char *w) {   // integer-valued conversions: compare values (int 0 has no sign)
      checked++;
      EXPECT((double)o[k] == (double)(float)ref, "%s(x=%.9g) = %.9g, expected %.9g", w, x, o[k], (float)ref);
    };
    // exact (IEEE single rounding; float ops evaluated in double are exact before the final rounding)
    EX(0, dx + dy, "add"); EX(1, dx - dy, "sub"); EX(2, dx * dy, "mul");
    EX(3, (double)(x / y), "div");
    EX(4, (double)sqrtf(fabsf(x)), "sqrtf"); EX(5, (double)fmaf(x, y, 0.75f), "fmaf"); EX(6, fabs(dx), "fabsf");
    EX(7, floor(dx), "floorf"); EX(8, ceil(dx), "ceilf"); EX(9, trunc(dx), "truncf"); EX(10, (double)rintf(x), "rintf");
    EX(11, (double)roundf(x), "roundf");
    if (x == 0.0f && y == 0.0f) {          // min/max of +0 and -0 may return either zero
      checked += 2;
      EXPECT(o[12] == 0.0f && o[13] == 0.0f, "fminf/fmaxf of zeros = %g %g", o[12], o[13]);
    } else { EX(12, (double)fminf(x, y), "fminf"); EX(13, (double)fmaxf(x, y), "fmaxf"); }
    EX(14, (double)copysignf(x, y), "copysignf");
    EX(15, (double)fmodf(x, y), "fmodf");
    // ulp-bounded (CUDA Programming Guide, maximum ulp error; 4 is at or above every bound used here)
    UL(16, exp((double)(x * 0.01f)), 4, "expf"); UL(17, log((double)(fabsf(x) + 1e-3f)), 4, "logf");
    if (fabsf(x) < 1e5f) { UL(18, sin(dx), 4, "sinf"); UL(19, cos(dx), 4, "cosf"); }
    UL(20, pow((double)fmaf(fabsf(x), 0.01f, 0.5f), (double)(y * 0.01f)), 8, "powf");   // nvcc contracts the base to an fma
    UL(21, exp2((double)(y * 0.01f)), 4, "exp2f"); UL(22, log2((double)(fabsf(y) + 0.5f)), 4, "log2f");
    UL(23, tanh((double)(x * 0.01f)), 4, "tanhf"); UL(24, atan2(dx, dy), 4, "atan2f");
    UL(25, 1.0 / sqrt((double)(fabsf(x) + 0.25f)), 4, "rsqrtf"); UL(26, cbrt(dx), 4, "cbrtf");
    UL(27, erf((double)(x * 0.01f)), 4, "erff"); UL(28, hypot(dx, dy), 4, "hypotf"); UL(29, log1p((double)(fabsf(x) * 0.01f)), 4, "log1pf");
    // intrinsics: __sinf/__cosf absolute error about 2^-21 in [-pi, pi] (checked at 1e-6); __expf 2 + floor(|1.173 x|) ulp; __fdividef 2 ulp
    float r = fmodf(x, 3.0f);
    if (std::isfinite(r)) {
      checked += 4;
      EXPECT(fabs(o[30] - sin((double)r)) <= 1e-6, "__sinf(%.9g) = %.9g, expected %.9g", r, o[30], sin((double)r));
      EXPECT(fabs(o[31] - cos((double)r)) <= 1e-6, "__cosf(%.9g) = %.9g, expected %.9g", r, o[31], cos((double)r));
      EXPECT(within_f(o[32], exp((double)r), 2 + floor(fabs(1.173 * r)) + 1), "__expf(%.9g) = %.9g, expected %.9g", r, o[32], exp((double)r));
      double den = fmaf(fabsf(y), 0.001f, 3.0f);
      if (std::isfinite(x) && std::isfinite(y) && fabs(x) < 1e30 && fabs(x) > 1e-30) EXPECT(within_f(o[33], dx / den, 3), "__fdividef(%.9g, %.9g) = %.9g, expected %.9g", x, den, o[33], dx / den);
    }
    if (std::isfinite(x) && fabsf(x) < 2e9f) {
      EV(34, trunc(dx), "(int)x");
      EV(35, (double)rintf(x), "__float2int_rn");
    }
    if (std::isfinite(x) && fabsf(x) < 4e9f) EV(36, trunc(fabs(dx)), "__float2uint_rz");
    if (!std::isnan(x)) EX(37, -dx, "sign flip via __float_as_int");
    EX(38, dx, "(float)(double)x");
    EX(39, dx / 3.0, "(float)((double)x / 3.0)");
    // double
    const double *q = &od[(size_t)t * ND];
    double a = DX[t], b = DY[t];
    auto DE = [&](int k, double ref, const char *w) { checked++; EXPECT(q[k] == ref || (std::isnan(q[k]) && std::isnan(ref)), "%s(%.17g, %.17g) = %.17g, expected %.17g", w, a, b, q[k], ref); };
    auto DU = [&](int k, double ref, double ulps, const char *w) { checked++; EXPECT(fabs(q[k] - ref) <= ulps * ulpd(ref), "%s(%.17g, %.17g) = %.17g, expected %.17g", w, a, b, q[k], ref); };
    DE(0, a + b, "dadd"); DE(1, a - b, "dsub"); DE(2, a * b, "dmul"); DE(3, a / b, "ddiv"); DE(4, sqrt(fabs(a)), "dsqrt");
    DE(5, fma(a, b, -0.5), "dfma"); DE(6, floor(a), "floor"); DE(7, rint(a), "rint"); DE(8, fmin(a, b), "fmin");
    DU(9, exp(a * 0.001), 4, "exp"); DU(10, log(fabs(a) + 1.0), 4, "log"); DU(11, sin(a), 4, "sin"); DU(12, cos(b), 4, "cos");
    DU(13, pow(fma(fabs(a), 0.001, 1.0), b * 0.01), 4, "pow");
    DE(14, (double)(long long)a, "(long long)d"); DE(15, (double)(float)a, "(float)d");
  }

  // conversions with edge values (CUDA semantics: saturate; NaN -> 0, or LLONG_MIN for long long)
  {
    const float cx[] = {2.5f, 3.5f, -2.5f, -0.5f, 0.5f, 1.5f, -1.5f, 2147483520.0f, 3e9f, -3e9f, 1e20f, -1e20f, INFINITY, -INFINITY, NAN,
                        -1.0f, 4294967040.0f, 5e9f, 9.3e18f, -9.3e18f, 0.99999994f, -0.0f};
    const int m = sizeof cx / sizeof cx[0];
    const int trunc_i[m] = {2, 3, -2, 0, 0, 1, -1, 2147483520, INT_MAX, INT_MIN, INT_MAX, INT_MIN, INT_MAX, INT_MIN, 0, -1, INT_MAX, INT_MAX, INT_MAX, INT_MIN, 0, 0};
    const int rn_i[m] = {2, 4, -2, 0, 0, 2, -2, 2147483520, INT_MAX, INT_MIN, INT_MAX, INT_MIN, INT_MAX, INT_MIN, 0, -1, INT_MAX, INT_MAX, INT_MAX, INT_MIN, 1, 0};
    const int rd_i[m] = {2, 3, -3, -1, 0, 1, -2, 2147483520, INT_MAX, INT_MIN, INT_MAX, INT_MIN, INT_MAX, INT_MIN, 0, -1, INT_MAX, INT_MAX, INT_MAX, INT_MIN, 0, 0};
    const int ru_i[m] = {3, 4, -2, 0, 1, 2, -1, 2147483520, INT_MAX, INT_MIN, INT_MAX, INT_MIN, INT_MAX, INT_MIN, 0, -1, INT_MAX, INT_MAX, INT_MAX, INT_MIN, 1, 0};
    const unsigned tr_u[m] = {2, 3, 0, 0, 0, 1, 0, 2147483520u, 3000000000u, 0, UINT_MAX, 0, UINT_MAX, 0, 0, 0, 4294967040u, UINT_MAX, UINT_MAX, 0, 0, 0};
    // (long long)NaN: measured on the H200 as LLONG_MIN (0x8000000000000000), unlike the 32-bit conversions, which give 0
    const long long tr_l[m] = {2, 3, -2, 0, 0, 1, -1, 2147483520LL, 3000000000LL, -3000000000LL, LLONG_MAX, LLONG_MIN, LLONG_MAX, LLONG_MIN, LLONG_MIN, -1,
                               4294967040LL, 5000000000LL, LLONG_MAX, LLONG_MIN, 0, 0};
    float *dcx; int *doi; unsigned *dou; long long *dol;
    CHECK(cudaMalloc(&dcx, sizeof cx)); CHECK(cudaMalloc(&doi, m * 6 * sizeof(int))); CHECK(cudaMalloc(&dou, m * sizeof(unsigned))); CHECK(cudaMalloc(&dol, m * sizeof(long long)));
    CHECK(cudaMemcpy(dcx, cx, sizeof cx, cudaMemcpyHostToDevice));
    convs<<<1, 32>>>(dcx, doi, dou, dol, m);
    CHECK_LAUNCH();
    int hi[m * 6]; unsigned hu[m]; long long hl[m];
    CHECK(cudaMemcpy(hi, doi, sizeof hi, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hu, dou, sizeof hu, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hl, dol, sizeof hl, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++) {
      EXPECT(hi[i * 6 + 0] == trunc_i[i], "(int)%g = %d, expected %d", cx[i], hi[i * 6 + 0], trunc_i[i]);
      EXPECT(hi[i * 6 + 1] == rn_i[i], "__float2int_rn(%g) = %d, expected %d", cx[i], hi[i * 6 + 1], rn_i[i]);
      EXPECT(hi[i * 6 + 2] == rd_i[i], "__float2int_rd(%g) = %d, expected %d", cx[i], hi[i * 6 + 2], rd_i[i]);
      EXPECT(hi[i * 6 + 3] == ru_i[i], "__float2int_ru(%g) = %d, expected %d", cx[i], hi[i * 6 + 3], ru_i[i]);
      int bits; memcpy(&bits, &cx[i], 4);
      EXPECT(hi[i * 6 + 5] == bits, "__float_as_int(%g) = %08x, expected %08x", cx[i], hi[i * 6 + 5], bits);
      EXPECT(hu[i] == tr_u[i], "(unsigned)%g = %u, expected %u", cx[i], hu[i], tr_u[i]);
      EXPECT(hl[i] == tr_l[i], "(long long)%g = %lld, expected %lld", cx[i], hl[i], tr_l[i]);
    }
    CHECK(cudaFree(dcx)); CHECK(cudaFree(doi)); CHECK(cudaFree(dou)); CHECK(cudaFree(dol));
  }
  {  // setp on every input pair (subnormals among them: 1e-40, -3e-39)
    unsigned *dm;
    CHECK(cudaMalloc(&dm, n * sizeof(unsigned)));
    cmps<<<(n + 127) / 128, 128>>>(dX, dY, dm, n);
    CHECK_LAUNCH();
    std::vector<unsigned> hm(n);
    CHECK(cudaMemcpy(hm.data(), dm, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
      EXPECT(hm[i] == cmp_ref(X[i], Y[i]), "setp bits for (%.9g, %.9g) = %05x, expected %05x", X[i], Y[i], hm[i], cmp_ref(X[i], Y[i]));
    CHECK(cudaFree(dm));
  }
  printf("float/double math: %d results checked over %d input pairs; 1.0f/3.0f = %.9g, 1.0/3.0 = %.17g\n", checked, n, 1.0f / 3.0f, 1.0 / 3.0);
  CHECK(cudaFree(dX)); CHECK(cudaFree(dY)); CHECK(cudaFree(dof)); CHECK(cudaFree(dDX)); CHECK(cudaFree(dDY)); CHECK(cudaFree(dod));
  if (g_fail) { printf("FAIL: float_math: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS float_math\n");
  return 0;
}
