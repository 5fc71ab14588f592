// Host-side reference of the H200's tensor-core arithmetic, as measured (tests/data/h200/tensor): for one block of
// products (k = 16 for f16/bf16, 4 for tf32 wmma, the instruction's k for mma.sync) c + sum a*b is formed with the
// products exact, every term aligned to the largest exponent (a product's exponent is the sum of its inputs'),
// truncated toward zero 25 bits below it, summed exactly, and the sum rounded toward zero to f32.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

static inline int mx_exp(double x, int emin) { int e; frexp(x, &e); return e - 1 < emin ? emin : e - 1; }
static inline float mx_rz(double x) {
  double a = fabs(x);
  if (a == 0 || std::isnan(x)) return (float)x;
  if (a >= 0x1p128) return x < 0 ? -INFINITY : INFINITY;
  int e; frexp(a, &e);
  int q = e - 1 < -126 ? -149 : e - 24;
  double t = ldexp(floor(ldexp(a, -q)), q);
  return (float)(x < 0 ? -t : t);
}
// one block: a, b hold the inputs' values (f16/bf16/tf32 as floats), emin the input format's smallest exponent
static inline float mx_block(const float *a, const float *b, int n, float c, int emin) {
  int any = c != 0, emax = c != 0 ? mx_exp(c, -126) : -100000;
  for (int k = 0; k < n; k++)
    if (a[k] != 0 && b[k] != 0) { any = 1; int e = mx_exp(a[k], emin) + mx_exp(b[k], emin); if (e > emax) emax = e; }
  if (!any) { float s = c; for (int k = 0; k < n; k++) s += a[k] * b[k]; return s; }
  int u = emax - 25;
  int64_t s = 0;
  if (c != 0) { int64_t m = (int64_t)ldexp(fabs((double)c), -u); s += c < 0 ? -m : m; }
  for (int k = 0; k < n; k++) {
    if (a[k] == 0 || b[k] == 0) continue;
    double p = (double)a[k] * (double)b[k];
    int64_t m = (int64_t)ldexp(fabs(p), -u);
    s += p < 0 ? -m : m;
  }
  return mx_rz(ldexp((double)s, u));
}
