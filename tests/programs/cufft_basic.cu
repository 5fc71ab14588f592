// warpsim test: CUDA's cuFFT as warpsim provides it (src/libs/cufft: our kernels on the simulated GPU). 1D C2C
// forward and inverse of every length 1 to 40, powers of two, 3*5*7 and 7*11*13 (mixed radix), the primes 127 and
// 1009 (Bluestein), batched; 2D and 3D C2C; R2C/C2R of even lengths (the half-length trick) and odd ones, 1D
// batched, 2D and 3D, and their round trips; double precision (Z2Z, D2Z, Z2D); in-place and out-of-place, the
// in-place real transform's padded layout; advanced layouts (istride/idist, inembed/onembed) of complex and real
// transforms; a stream; cufftCreate + cufftMakePlan* with a caller's work area; cuFFT's error codes and a stub's
// CUFFT_NOT_SUPPORTED. Power-of-two rows that fit take the shared-memory kernel, every other length the
// one-launch-per-stage path. Every element is compared with a DFT computed on the CPU in long double:
// |X_k - ref_k| <= tol * max_k |ref_k|, tol = C * eps * log2(N) with C = 1.5 for Stockham lengths and 3 for
// Bluestein's (eps of the precision, N the largest dimension). CUFFT_VERBOSE=1 prints every comparison's error.
// NVCCFLAGS: -lcufft
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cufft.h>
#include <cufftXt.h>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CF(call) do { cufftResult s_ = (call); if (s_ != CUFFT_SUCCESS) { \
    printf("FAIL: cuFFT status %d at %s:%d: %s\n", (int)s_, __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 20) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

typedef std::complex<long double> cld;
static const long double PI_L = 3.14159265358979323846264338327950288L;

// a value in [-1, 1)
static double rnd(unsigned &s) { s = s * 1103515245u + 12345u; return (double)((s >> 8) & 0xffff) / 32768.0 - 1.0; }

// the unnormalized DFT (sign -1 forward, +1 inverse) along every dimension of batch packed arrays n[0] x ... x
// n[rank-1], by its definition in long double
static void ref_dft(std::vector<cld> &a, int rank, const int *n, int batch, int sign)
{
  long long total = batch;
  for (int d = 0; d < rank; d++) total *= n[d];
  for (int d = 0; d < rank; d++) {
    long long len = n[d], inner = 1;
    for (int j = d + 1; j < rank; j++) inner *= n[j];
    std::vector<cld> w(len), in(len);
    for (long long k = 0; k < len; k++) w[k] = std::polar(1.0L, sign * 2 * PI_L * k / len);
    for (long long s = 0; s < total / len; s++) {
      long long base = (s / inner) * len * inner + s % inner;
      for (long long m = 0; m < len; m++) in[m] = a[base + m * inner];
      for (long long k = 0; k < len; k++) {
        cld acc = 0;
        for (long long m = 0; m < len; m++) acc += in[m] * w[(k * m) % len];
        a[base + k * inner] = acc;
      }
    }
  }
}

// log2 of the largest dimension (at least 1)
static double log_n(int rank, const int *n)
{
  int m = 2;
  for (int d = 0; d < rank; d++) m = n[d] > m ? n[d] : m;
  return std::log2((double)m);
}

// whether a length is transformed by Bluestein's algorithm (a prime factor above 13)
static bool bluestein(int n)
{
  for (int p : {2, 3, 5, 7, 11, 13}) while (n % p == 0) n /= p;
  return n > 1;
}

// tol = C eps log2 N for the plan's dimensions
static double tolerance(bool dbl, int rank, const int *n)
{
  bool blue = false;
  for (int d = 0; d < rank; d++) blue |= bluestein(n[d]);
  return (blue ? 3.0 : 1.5) * (dbl ? 2.220446e-16 : 1.192093e-7) * log_n(rank, n);
}

// compare count values got[i] (complex) with ref; the largest error relative to max |ref|
static double compare(const char *what, const std::vector<std::complex<double>> &got, const std::vector<cld> &ref,
                      double tol)
{
  long double scale = 0, worst = 0;
  for (const cld &r : ref) scale = std::max(scale, std::abs(r));
  int bad = 0;
  for (size_t i = 0; i < ref.size(); i++) {
    long double e = std::abs(cld(got[i].real(), got[i].imag()) - ref[i]);
    worst = std::max(worst, e);
    if (!(e <= tol * scale)) bad++;
  }
  double rel = (double)(worst / (scale > 0 ? scale : 1));
  if (getenv("CUFFT_VERBOSE")) printf("%-70s %.3g (tol %.2g)\n", what, rel, tol);
  EXPECT(bad == 0, "%s: %d of %zu elements off by more than %.2g (worst %.3g relative)", what, bad, ref.size(), tol,
         rel);
  return rel;
}

// device buffers of complex<T> or T and their host copies as complex<double>
template <typename T> static void *to_device(const std::vector<std::complex<T>> &h, size_t extra = 0)
{
  void *d;
  CHECK(cudaMalloc(&d, h.size() * sizeof(h[0]) + extra));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(h[0]), cudaMemcpyHostToDevice));
  return d;
}
template <typename T> static std::vector<std::complex<double>> from_device(const void *d, size_t n)
{
  std::vector<std::complex<T>> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(h[0]), cudaMemcpyDeviceToHost));
  return std::vector<std::complex<double>>(h.begin(), h.end());
}

// the exec of a complex plan in either precision
static cufftResult exec_c(cufftHandle p, bool dbl, void *in, void *out, int dir)
{
  return dbl ? cufftExecZ2Z(p, (cufftDoubleComplex *)in, (cufftDoubleComplex *)out, dir)
             : cufftExecC2C(p, (cufftComplex *)in, (cufftComplex *)out, dir);
}

static double g_worst_f = 0, g_worst_d = 0;
static void note(bool dbl, double rel) { double &w = dbl ? g_worst_d : g_worst_f; w = std::max(w, rel); }

// C2C (or Z2Z) of rank dimensions n, batched, forward then inverse, in place or not, on stream st
template <typename T>
static void test_c2c(int rank, const int *n, int batch, bool in_place, cudaStream_t st)
{
  const bool dbl = sizeof(T) == 8;
  long long total = batch;
  for (int d = 0; d < rank; d++) total *= n[d];
  unsigned s = 11u + (unsigned)total;
  std::vector<std::complex<T>> h(total);
  for (auto &v : h) v = std::complex<T>((T)rnd(s), (T)rnd(s));
  std::vector<cld> ref(h.begin(), h.end());
  cufftHandle p;
  int nn[3] = {n[0], rank > 1 ? n[1] : 0, rank > 2 ? n[2] : 0};
  cufftType type = dbl ? CUFFT_Z2Z : CUFFT_C2C;
  if (rank == 1) CF(cufftPlan1d(&p, n[0], type, batch));
  else if (rank == 2 && batch == 1) CF(cufftPlan2d(&p, n[0], n[1], type));
  else if (rank == 3 && batch == 1) CF(cufftPlan3d(&p, n[0], n[1], n[2], type));
  else CF(cufftPlanMany(&p, rank, nn, NULL, 1, 0, NULL, 1, 0, type, batch));
  if (st) CF(cufftSetStream(p, st));
  void *din = to_device(h), *dout = in_place ? din : to_device(h);
  char what[96];
  const double tol = tolerance(dbl, rank, n);
  snprintf(what, sizeof what, "%s rank %d %dx%dx%d batch %d %s forward", dbl ? "Z2Z" : "C2C", rank, n[0],
           rank > 1 ? n[1] : 1, rank > 2 ? n[2] : 1, batch, in_place ? "in-place" : "out-of-place");
  CF(exec_c(p, dbl, din, dout, CUFFT_FORWARD));
  if (st) CHECK(cudaStreamSynchronize(st));
  ref_dft(ref, rank, n, batch, -1);
  note(dbl, compare(what, from_device<T>(dout, total), ref, tol));
  // the inverse of the forward result: the input times the number of elements (cuFFT does not normalize)
  CF(exec_c(p, dbl, dout, din, CUFFT_INVERSE));
  if (st) CHECK(cudaStreamSynchronize(st));
  ref_dft(ref, rank, n, batch, +1);
  snprintf(what + strlen(what) - 7, 8, "inverse");
  note(dbl, compare(what, from_device<T>(din, total), ref, tol));
  CF(cufftDestroy(p));
  CHECK(cudaFree(din));
  if (!in_place) CHECK(cudaFree(dout));
}

// R2C then C2R (D2Z / Z2D) of rank dimensions n, batched: the half spectrum against the CPU's, and the round trip
// against the input times N; in_place uses cuFFT's padded real layout (last dimension 2 (n/2 + 1) reals)
template <typename T> static void test_real(int rank, const int *n, int batch, bool in_place)
{
  const bool dbl = sizeof(T) == 8;
  int last = n[rank - 1], half = last / 2 + 1, rows = batch;
  for (int d = 0; d < rank - 1; d++) rows *= n[d];
  const int rstride = in_place ? 2 * half : last;   // reals per row in the real array
  unsigned s = 5u + (unsigned)(rows * last);
  std::vector<T> h((size_t)rows * rstride, (T)0);
  std::vector<cld> ref((size_t)rows * last);
  for (int r = 0; r < rows; r++)
    for (int x = 0; x < last; x++) ref[(size_t)r * last + x] = h[(size_t)r * rstride + x] = (T)rnd(s);
  std::vector<cld> input = ref;
  int nn[3] = {n[0], rank > 1 ? n[1] : 0, rank > 2 ? n[2] : 0};
  cufftHandle fwd, inv;
  CF(cufftPlanMany(&fwd, rank, nn, NULL, 1, 0, NULL, 1, 0, dbl ? CUFFT_D2Z : CUFFT_R2C, batch));
  CF(cufftPlanMany(&inv, rank, nn, NULL, 1, 0, NULL, 1, 0, dbl ? CUFFT_Z2D : CUFFT_C2R, batch));
  size_t rbytes = h.size() * sizeof(T), cbytes = (size_t)rows * half * 2 * sizeof(T);
  void *dr, *dc;
  CHECK(cudaMalloc(&dr, rbytes > cbytes ? rbytes : cbytes));
  CHECK(cudaMemcpy(dr, h.data(), rbytes, cudaMemcpyHostToDevice));
  if (in_place) dc = dr;
  else CHECK(cudaMalloc(&dc, cbytes));
  if (dbl) CF(cufftExecD2Z(fwd, (double *)dr, (cufftDoubleComplex *)dc));
  else CF(cufftExecR2C(fwd, (float *)dr, (cufftComplex *)dc));
  ref_dft(ref, rank, n, batch, -1);
  std::vector<cld> ref_half((size_t)rows * half);
  for (int r = 0; r < rows; r++)
    for (int x = 0; x < half; x++) ref_half[(size_t)r * half + x] = ref[(size_t)r * last + x];
  const double tol = tolerance(dbl, rank, n);
  char what[96];
  snprintf(what, sizeof what, "%s rank %d %dx%dx%d batch %d %s", dbl ? "D2Z" : "R2C", rank, n[0], rank > 1 ? n[1] : 1,
           rank > 2 ? n[2] : 1, batch, in_place ? "in-place" : "out-of-place");
  note(dbl, compare(what, from_device<T>(dc, ref_half.size()), ref_half, tol));
  if (dbl) CF(cufftExecZ2D(inv, (cufftDoubleComplex *)dc, (double *)dr));
  else CF(cufftExecC2R(inv, (cufftComplex *)dc, (float *)dr));
  std::vector<T> back(h.size());
  CHECK(cudaMemcpy(back.data(), dr, rbytes, cudaMemcpyDeviceToHost));
  long long N = (long long)rows / batch * last;
  std::vector<std::complex<double>> got((size_t)rows * last);
  for (int r = 0; r < rows; r++)
    for (int x = 0; x < last; x++) {
      got[(size_t)r * last + x] = back[(size_t)r * rstride + x];
      input[(size_t)r * last + x] *= (long double)N;
    }
  char trip[112];
  snprintf(trip, sizeof trip, "%s then %s", what, dbl ? "Z2D" : "C2R");
  note(dbl, compare(trip, got, input, tol));
  CF(cufftDestroy(fwd));
  CF(cufftDestroy(inv));
  CHECK(cudaFree(dr));
  if (!in_place) CHECK(cudaFree(dc));
}

// PlanMany with advanced layouts: rank 1 length 60, batch 3, input every 2nd element 130 apart, output packed
// 64 apart; rank 2 12 x 10 inside 14 x 13 arrays (inembed) into 12 x 11 ones (onembed), stride 1, batch 2
static void test_advanced()
{
  {
    const int n = 60, batch = 3, istride = 2, idist = 130, odist = 64;
    unsigned s = 99;
    std::vector<std::complex<float>> h((size_t)batch * idist);
    for (auto &v : h) v = std::complex<float>((float)rnd(s), (float)rnd(s));
    std::vector<cld> ref((size_t)batch * n);
    for (int b = 0; b < batch; b++)
      for (int x = 0; x < n; x++) ref[(size_t)b * n + x] = h[(size_t)b * idist + x * istride];
    int nn[1] = {n}, inembed[1] = {idist}, onembed[1] = {odist};
    cufftHandle p;
    CF(cufftPlanMany(&p, 1, nn, inembed, istride, idist, onembed, 1, odist, CUFFT_C2C, batch));
    void *din = to_device(h), *dout;
    CHECK(cudaMalloc(&dout, (size_t)batch * odist * sizeof(cufftComplex)));
    CHECK(cudaMemset(dout, 0, (size_t)batch * odist * sizeof(cufftComplex)));   // the gaps stay unwritten
    CF(cufftExecC2C(p, (cufftComplex *)din, (cufftComplex *)dout, CUFFT_FORWARD));
    std::vector<std::complex<double>> all = from_device<float>(dout, (size_t)batch * odist), got;
    for (int b = 0; b < batch; b++)
      for (int x = 0; x < n; x++) got.push_back(all[(size_t)b * odist + x]);
    ref_dft(ref, 1, nn, batch, -1);
    note(false, compare("C2C advanced layout rank 1 (istride 2, idist 130, odist 64)", got, ref,
                        tolerance(false, 1, nn)));
    CF(cufftDestroy(p));
    CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  }
  {
    int nn[2] = {12, 10}, inembed[2] = {14, 13}, onembed[2] = {12, 11};
    const int batch = 2, idist = 14 * 13, odist = 12 * 11;
    unsigned s = 7;
    std::vector<std::complex<double>> h((size_t)batch * idist);
    for (auto &v : h) v = std::complex<double>(rnd(s), rnd(s));
    std::vector<cld> ref((size_t)batch * 120);
    for (int b = 0; b < batch; b++)
      for (int y = 0; y < 12; y++)
        for (int x = 0; x < 10; x++) ref[(size_t)b * 120 + y * 10 + x] = h[(size_t)b * idist + y * 13 + x];
    cufftHandle p;
    CF(cufftPlanMany(&p, 2, nn, inembed, 1, idist, onembed, 1, odist, CUFFT_Z2Z, batch));
    void *din = to_device(h), *dout;
    CHECK(cudaMalloc(&dout, (size_t)batch * odist * sizeof(cufftDoubleComplex)));
    CHECK(cudaMemset(dout, 0, (size_t)batch * odist * sizeof(cufftDoubleComplex)));
    CF(cufftExecZ2Z(p, (cufftDoubleComplex *)din, (cufftDoubleComplex *)dout, CUFFT_INVERSE));
    std::vector<std::complex<double>> all = from_device<double>(dout, (size_t)batch * odist), got;
    for (int b = 0; b < batch; b++)
      for (int y = 0; y < 12; y++)
        for (int x = 0; x < 10; x++) got.push_back(all[(size_t)b * odist + y * 11 + x]);
    ref_dft(ref, 2, nn, batch, +1);
    note(true, compare("Z2Z advanced layout rank 2 (inembed 14x13, onembed 12x11)", got, ref, tolerance(true, 2, nn)));
    CF(cufftDestroy(p));
    CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  }
}

// the offset of element x (row-major index over the dimensions n) of batch b in an advanced layout
static long long adv_offset(int rank, const int *n, long long x, int b, const int *embed, int stride, int dist)
{
  long long off = 0, rest = x;
  int idx[3];
  for (int d = rank - 1; d >= 0; d--) { idx[d] = (int)(rest % n[d]); rest /= n[d]; }
  for (int d = 0; d < rank; d++) off = off * (d ? embed[d] : 1) + idx[d];
  return (long long)b * dist + off * stride;
}

// R2C (D2Z) from a real advanced layout into a complex one, then C2R (Z2D) back with the layouts exchanged
template <typename T>
static void test_real_advanced(int rank, const int *n, int batch, const int *iemb, int istride, int idist,
                               const int *oemb, int ostride, int odist)
{
  const bool dbl = sizeof(T) == 8;
  int half[3] = {n[0], rank > 1 ? n[1] : 0, rank > 2 ? n[2] : 0};
  half[rank - 1] = n[rank - 1] / 2 + 1;
  long long N = 1, H = 1;
  for (int d = 0; d < rank; d++) { N *= n[d]; H *= half[d]; }
  std::vector<T> h((size_t)batch * idist, (T)0);
  std::vector<cld> ref((size_t)batch * N);
  unsigned s = 21u + (unsigned)N;
  for (int b = 0; b < batch; b++)
    for (long long x = 0; x < N; x++)
      ref[(size_t)b * N + x] = h[adv_offset(rank, n, x, b, iemb, istride, idist)] = (T)rnd(s);
  std::vector<cld> input = ref;
  void *dr, *dc;
  CHECK(cudaMalloc(&dr, h.size() * sizeof(T)));
  CHECK(cudaMemcpy(dr, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&dc, (size_t)batch * odist * 2 * sizeof(T)));
  CHECK(cudaMemset(dc, 0, (size_t)batch * odist * 2 * sizeof(T)));
  int nn[3] = {n[0], rank > 1 ? n[1] : 0, rank > 2 ? n[2] : 0};
  cufftHandle fwd, inv;
  CF(cufftPlanMany(&fwd, rank, nn, (int *)iemb, istride, idist, (int *)oemb, ostride, odist,
                   dbl ? CUFFT_D2Z : CUFFT_R2C, batch));
  CF(cufftPlanMany(&inv, rank, nn, (int *)oemb, ostride, odist, (int *)iemb, istride, idist,
                   dbl ? CUFFT_Z2D : CUFFT_C2R, batch));
  if (dbl) CF(cufftExecD2Z(fwd, (double *)dr, (cufftDoubleComplex *)dc));
  else CF(cufftExecR2C(fwd, (float *)dr, (cufftComplex *)dc));
  ref_dft(ref, rank, n, batch, -1);
  std::vector<std::complex<double>> all = from_device<T>(dc, (size_t)batch * odist), got;
  std::vector<cld> ref_half;
  for (int b = 0; b < batch; b++)
    for (long long x = 0; x < H; x++) {
      got.push_back(all[adv_offset(rank, half, x, b, oemb, ostride, odist)]);
      long long last = x % half[rank - 1], row = x / half[rank - 1];
      ref_half.push_back(ref[(size_t)b * N + row * n[rank - 1] + last]);
    }
  char what[112];
  snprintf(what, sizeof what, "%s rank %d advanced layout (istride %d idist %d, ostride %d odist %d)",
           dbl ? "D2Z" : "R2C", rank, istride, idist, ostride, odist);
  const double tol = tolerance(dbl, rank, n);
  note(dbl, compare(what, got, ref_half, tol));
  CHECK(cudaMemset(dr, 0, h.size() * sizeof(T)));
  if (dbl) CF(cufftExecZ2D(inv, (cufftDoubleComplex *)dc, (double *)dr));
  else CF(cufftExecC2R(inv, (cufftComplex *)dc, (float *)dr));
  std::vector<T> back(h.size());
  CHECK(cudaMemcpy(back.data(), dr, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
  got.clear();
  for (int b = 0; b < batch; b++)
    for (long long x = 0; x < N; x++) {
      got.push_back(back[adv_offset(rank, n, x, b, iemb, istride, idist)]);
      input[(size_t)b * N + x] *= (long double)N;
    }
  snprintf(what, sizeof what, "%s rank %d advanced layout, the round trip", dbl ? "Z2D" : "C2R", rank);
  note(dbl, compare(what, got, input, tol));
  CF(cufftDestroy(fwd));
  CF(cufftDestroy(inv));
  CHECK(cudaFree(dr));
  CHECK(cudaFree(dc));
}

// cufftCreate + cufftMakePlan* with the caller's work area; sizes; versions; error codes; a stub
static void test_api()
{
  size_t est = 0, got = 0, made = 0;
  CF(cufftEstimate1d(1009, CUFFT_C2C, 2, &est));
  cufftHandle p;
  CF(cufftCreate(&p));
  CF(cufftGetSize1d(p, 1009, CUFFT_C2C, 2, &got));
  CF(cufftSetAutoAllocation(p, 0));
  CF(cufftMakePlan1d(p, 1009, CUFFT_C2C, 2, &made));
  EXPECT(est > 0 && est == got && got == made, "work sizes: estimate %zu, GetSize1d %zu, MakePlan1d %zu", est, got,
         made);
  size_t plan_size = 0;
  CF(cufftGetSize(p, &plan_size));
  EXPECT(plan_size == made, "cufftGetSize %zu, MakePlan1d said %zu", plan_size, made);
  std::vector<std::complex<float>> h(2 * 1009);
  unsigned s = 3;
  for (auto &v : h) v = std::complex<float>((float)rnd(s), (float)rnd(s));
  void *d = to_device(h), *work;
  EXPECT(cufftExecC2C(p, (cufftComplex *)d, (cufftComplex *)d, CUFFT_FORWARD) == CUFFT_NO_WORKSPACE,
         "exec without a work area is not CUFFT_NO_WORKSPACE");
  CHECK(cudaMalloc(&work, made));
  CF(cufftSetWorkArea(p, work));
  CF(cufftExecC2C(p, (cufftComplex *)d, (cufftComplex *)d, CUFFT_FORWARD));
  std::vector<cld> ref(h.begin(), h.end());
  int n = 1009;
  ref_dft(ref, 1, &n, 2, -1);
  note(false, compare("C2C 1009 batch 2 in the caller's work area", from_device<float>(d, h.size()), ref,
                      tolerance(false, 1, &n)));
  EXPECT(cufftExecC2C(p, (cufftComplex *)d, (cufftComplex *)d, 0) == CUFFT_INVALID_VALUE,
         "direction 0 is not CUFFT_INVALID_VALUE");
  EXPECT(cufftExecR2C(p, (float *)d, (cufftComplex *)d) == CUFFT_INVALID_PLAN,
         "R2C on a C2C plan is not CUFFT_INVALID_PLAN");
  CF(cufftDestroy(p));
  EXPECT(cufftExecC2C(p, (cufftComplex *)d, (cufftComplex *)d, CUFFT_FORWARD) == CUFFT_INVALID_PLAN,
         "exec of a destroyed plan is not CUFFT_INVALID_PLAN");
  EXPECT(cufftDestroy(p) == CUFFT_INVALID_PLAN, "a second cufftDestroy is not CUFFT_INVALID_PLAN");
  cufftHandle q;
  EXPECT(cufftPlan1d(&q, 0, CUFFT_C2C, 1) == CUFFT_INVALID_SIZE, "length 0 is not CUFFT_INVALID_SIZE");
  EXPECT(cufftPlan1d(&q, 16, CUFFT_C2C, 0) == CUFFT_INVALID_SIZE, "batch 0 is not CUFFT_INVALID_SIZE");
  EXPECT(cufftPlan1d(&q, 16, (cufftType)0x77, 1) == CUFFT_INVALID_TYPE, "type 0x77 is not CUFFT_INVALID_TYPE");
  int dims[4] = {4, 4, 4, 4};
  EXPECT(cufftPlanMany(&q, 4, dims, NULL, 1, 0, NULL, 1, 0, CUFFT_C2C, 1) == CUFFT_INVALID_SIZE,
         "rank 4 is not CUFFT_INVALID_SIZE");
  int version = 0, major = -1;
  CF(cufftGetVersion(&version));
  CF(cufftGetProperty(MAJOR_VERSION, &major));
  EXPECT(version == CUFFT_VERSION && major == CUFFT_VER_MAJOR, "version %d major %d", version, major);
  // a function warpsim's cuFFT does not simulate says so
  CF(cufftPlan1d(&q, 16, CUFFT_C2C, 1));
  int gpus[1] = {0};
  EXPECT(cufftXtSetGPUs(q, 1, gpus) == CUFFT_NOT_SUPPORTED, "cufftXtSetGPUs is not CUFFT_NOT_SUPPORTED");
  CF(cufftDestroy(q));
  CHECK(cudaFree(d)); CHECK(cudaFree(work));
}

int main()
{
  cudaStream_t st;
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  // 1D C2C: powers of two, mixed radices, primes (Bluestein), batched, in place and not, one on a stream
  int sizes[] = {1, 2, 8, 256, 1024, 105, 1001, 96, 127, 1009};
  for (int n : sizes) test_c2c<float>(1, &n, 1, n % 2 == 0, 0);
  // every length up to 40 (every radix and its combinations, Bluestein's primes 17 to 37), complex and real
  for (int n = 1; n <= 40; n++) {
    test_c2c<float>(1, &n, 2, n % 3 == 0, 0);
    test_real<float>(1, &n, 1, n % 2 == 1);
  }
  int b1[] = {120};
  test_c2c<float>(1, b1, 5, false, st);
  int b2[] = {127}, b3[] = {1024};
  test_c2c<float>(1, b2, 3, true, 0);
  test_c2c<float>(1, b3, 3, false, 0);   // shared memory: two sequences a block, the last block one
  // double precision
  int dsizes[] = {64, 105, 127, 4096};
  for (int n : dsizes) test_c2c<double>(1, &n, n == 105 ? 2 : 1, n == 64, 0);
  // 2D and 3D
  int d2[] = {24, 40}, d2p[] = {17, 12}, d3[] = {8, 6, 10}, d3b[] = {4, 5, 3};
  test_c2c<float>(2, d2, 1, false, st);
  test_c2c<float>(2, d2p, 1, true, 0);
  int d2s[] = {64, 128};
  test_c2c<float>(2, d2s, 1, true, 0);   // rows in shared memory, columns by stages
  test_c2c<double>(2, d2s, 1, false, st);
  test_c2c<double>(2, d2, 2, false, 0);
  test_c2c<float>(3, d3, 1, true, 0);
  test_c2c<double>(3, d3b, 2, false, st);
  // real transforms
  int r1[] = {100}, r1o[] = {63}, r1p[] = {131}, r2[] = {16, 18}, r2o[] = {9, 15}, r3[] = {6, 4, 10};
  test_real<float>(1, r1, 2, false);
  test_real<float>(1, r1o, 3, true);
  test_real<float>(1, r1p, 1, false);
  test_real<float>(2, r2, 1, true);
  test_real<float>(2, r2o, 2, false);
  test_real<float>(3, r3, 1, false);
  test_real<double>(1, r1, 2, true);
  test_real<double>(2, r2o, 1, false);
  test_real<double>(3, r3, 2, true);
  test_advanced();
  int a1[] = {50}, a1i[] = {57}, a1o[] = {30};
  test_real_advanced<float>(1, a1, 3, a1i, 1, 57, a1o, 1, 30);
  int a1b[] = {45}, a1bi[] = {100}, a1bo[] = {60};
  test_real_advanced<float>(1, a1b, 2, a1bi, 2, 100, a1bo, 2, 60);
  int a2[] = {6, 12}, a2i[] = {7, 14}, a2o[] = {6, 9};
  test_real_advanced<double>(2, a2, 2, a2i, 1, 7 * 14, a2o, 1, 6 * 9);
  int a2b[] = {5, 11}, a2bi[] = {5, 13}, a2bo[] = {6, 7};
  test_real_advanced<float>(2, a2b, 1, a2bi, 1, 5 * 13, a2bo, 1, 6 * 7);
  test_api();
  CHECK(cudaStreamDestroy(st));
  printf("worst error relative to max |X|: float %.3g, double %.3g\n", g_worst_f, g_worst_d);
  if (g_fail) { printf("FAIL: cufft_basic: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS cufft_basic\n");
  return 0;
}
