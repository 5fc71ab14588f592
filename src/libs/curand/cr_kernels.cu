// cr_kernels.cu - the device code of warpsim's cuRAND host API (our own kernels), compiled to PTX when warpsim is
// built and launched through the driver API. Pseudo-random generators keep one state per thread in device memory
// (XORWOW 4096, MRG32k3a 81920 in the default ordering; Philox is counter-based and needs none); output position p of a call is made by
// state p % STATES, as NVIDIA's default ordering does. Sobol makes point i of dimension d directly from its Gray
// code. The transforms (uniform, Box-Muller normal, log-normal, Poisson) follow cuRAND's device API formulas.
#include "cr_kinds.h"

#define TWO_M32F 2.3283064e-10f               // 2^-32 as cuRAND's float constant
#define TWO_M32 2.3283064365386963e-10        // 2^-32
#define TWO_M53 1.1102230246251565e-16        // 2^-53
#define TWO_PI_F 6.2831855f
#define MRG_M1 4294967087ull
#define MRG_M2 4294944443ull
#define MRG_NORM 2.3283065498378288e-10       // 1 / (m1 + 1)
#define MRG_BITS_NORM 1.000000048662          // (2^32 - 1) / m1, rounded as cuRAND does

// a float in (0, 1] from 32 bits
__device__ __forceinline__ float u32_to_float(unsigned x) { return x * TWO_M32F + TWO_M32F / 2.0f; }
// a double in (0, 1] from 53 of 64 bits made of two 32-bit draws
__device__ __forceinline__ double u32x2_to_double(unsigned x, unsigned y)
{
    unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << 21);
    return z * TWO_M53 + TWO_M53 / 2.0;
}
// Box-Muller on two 32-bit draws: two normal floats
__device__ __forceinline__ float2 box_muller(unsigned x, unsigned y)
{
    float u = u32_to_float(x), v = y * (TWO_M32F * TWO_PI_F) + (TWO_M32F * TWO_PI_F) / 2.0f;
    float s = sqrtf(-2.0f * logf(u)), sn, cs;
    __sincosf(v, &sn, &cs);
    return make_float2(sn * s, cs * s);
}
// Box-Muller on four 32-bit draws: two normal doubles (the angle in half-turns, sincospi)
__device__ __forceinline__ double2 box_muller_d(unsigned x0, unsigned x1, unsigned y0, unsigned y1)
{
    double u = u32x2_to_double(x0, x1);
    unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << 21);
    double v = zy * (TWO_M53 * 2.0) + TWO_M53, sn, cs, s = sqrt(-2.0 * log(u));
    sincospi(v, &sn, &cs);
    return make_double2(sn * s, cs * s);
}

// Poisson of mean lam from a source of doubles in (0, 1]: products of uniforms below 64 (Knuth), above it
// Hoermann's transformed rejection (PTRS)
template <typename U> __device__ unsigned poisson(double lam, U uniform)
{
    if (lam < 64.0) {
        double l = exp(-lam), p = 1.0;
        unsigned k = 0;
        for (;;) {
            p *= uniform();
            if (p <= l) return k;
            k++;
        }
    }
    double slam = sqrt(lam), loglam = log(lam), b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    double inv_alpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
    for (;;) {
        double u = uniform() - 0.5, v = uniform(), us = 0.5 - fabs(u);
        double k = floor((2.0 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr) return (unsigned)k;
        if (k < 0.0 || (us < 0.013 && v > us)) continue;
        if (log(v) + log(inv_alpha) - log(a / (us * us) + b) <= -lam + k * loglam - lgamma(k + 1.0))
            return (unsigned)k;
    }
}

// ---- XORWOW ----
struct xorwow { unsigned v[5], d; };

// one XORWOW step: the next 32 bits
__device__ __forceinline__ unsigned xorwow_next(xorwow &s)
{
    unsigned t = s.v[0] ^ (s.v[0] >> 2);
    s.v[0] = s.v[1]; s.v[1] = s.v[2]; s.v[2] = s.v[3]; s.v[3] = s.v[4];
    s.v[4] = (s.v[4] ^ (s.v[4] << 4)) ^ (t ^ (t << 1));
    s.d += 362437u;
    return s.v[4] + s.d;
}

// v = M v over GF(2): the XOR of M's columns for the state's set bits
__device__ void xorwow_jump(xorwow &s, const unsigned *m)
{
    unsigned r[5] = { 0, 0, 0, 0, 0 };
    for (int w = 0; w < 5; w++)
        for (unsigned x = s.v[w]; x; x &= x - 1) {
            const unsigned *c = m + (w * 32 + __ffs(x) - 1) * 5;
            for (int i = 0; i < 5; i++) r[i] ^= c[i];
        }
    for (int i = 0; i < 5; i++) s.v[i] = r[i];
}

// state t: seeded as cuRAND seeds XORWOW, on subsequence t, at the step of its first position at or after offset;
// mats holds M^(2^k), k < WS_CR_XORWOW_MATS
extern "C" __global__ void ws_cr_xorwow_init(unsigned *states, const unsigned *mats, unsigned long long seed,
                                             unsigned long long offset, unsigned T)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T) return;
    unsigned s0 = (unsigned)seed ^ 0xaad26b49u, s1 = (unsigned)(seed >> 32) ^ 0xf7dcefddu;
    unsigned t0 = 1099087573u * s0, t1 = 2591861531u * s1;
    xorwow s = { { 123456789u + t0, 362436069u ^ t0, 521288629u + t1, 88675123u ^ t1, 5783321u + t0 },
                 6615241u + t1 + t0 };
    for (int b = 0; b < WS_CR_XORWOW_MATS - WS_CR_XORWOW_SUBSEQ_LOG2; b++)
        if (t >> b & 1) xorwow_jump(s, mats + (size_t)(WS_CR_XORWOW_SUBSEQ_LOG2 + b) * WS_CR_XORWOW_MAT_WORDS);
    unsigned long long steps = (offset + (t + T - offset % T) % T) / T;
    for (int b = 0; b < WS_CR_XORWOW_SUBSEQ_LOG2 && steps >> b; b++)
        if (steps >> b & 1) xorwow_jump(s, mats + (size_t)b * WS_CR_XORWOW_MAT_WORDS);
    s.d += 362437u * (unsigned)steps;
    unsigned *o = states + (size_t)t * WS_CR_XORWOW_WORDS;
    for (int i = 0; i < 5; i++) o[i] = s.v[i];
    o[5] = s.d;
}

// MRG32k3a's component state
struct mrg { unsigned s1[3], s2[3]; };

// the next MRG32k3a value, an integer in [1, m1]
__device__ __forceinline__ double mrg_next(mrg &s)
{
    long long p1 = (1403580ll * s.s1[1] - 810728ll * s.s1[0]) % (long long)MRG_M1;
    if (p1 < 0) p1 += MRG_M1;
    s.s1[0] = s.s1[1]; s.s1[1] = s.s1[2]; s.s1[2] = (unsigned)p1;
    long long p2 = (527612ll * s.s2[2] - 1370589ll * s.s2[0]) % (long long)MRG_M2;
    if (p2 < 0) p2 += MRG_M2;
    s.s2[0] = s.s2[1]; s.s2[1] = s.s2[2]; s.s2[2] = (unsigned)p2;
    return p1 <= p2 ? (double)(p1 - p2 + (long long)MRG_M1) : (double)(p1 - p2);
}

// v = A v mod m for one 3 x 3 matrix (row-major)
__device__ void mrg_matvec(unsigned *v, const unsigned *a, unsigned long long m)
{
    unsigned long long r[3];
    for (int i = 0; i < 3; i++) {
        unsigned long long acc = 0;
        for (int k = 0; k < 3; k++) acc = (acc + (unsigned long long)a[i * 3 + k] * v[k] % m) % m;
        r[i] = acc;
    }
    for (int i = 0; i < 3; i++) v[i] = (unsigned)r[i];
}

// MRG state t: seeded as cuRAND seeds MRG32k3a, on subsequence t, at the step of its first position at or after
// offset; mats holds both components' A^(2^k), k < WS_CR_MRG_MATS
extern "C" __global__ void ws_cr_mrg_init(unsigned *states, const unsigned *mats, unsigned long long seed,
                                          unsigned long long offset, unsigned T)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= T) return;
    mrg s = { { 12345u, 12345u, 12345u }, { 12345u, 12345u, 12345u } };
    if (seed) {
        unsigned long long x1 = (unsigned)seed ^ 0x55555555u, x2 = (unsigned)((seed >> 32) ^ 0xaaaaaaaau);
        s.s1[0] = (unsigned)(x1 * 12345u % MRG_M1); s.s1[1] = (unsigned)(x2 * 12345u % MRG_M1);
        s.s1[2] = (unsigned)(x1 * 12345u % MRG_M1);
        s.s2[0] = (unsigned)(x2 * 12345u % MRG_M2); s.s2[1] = (unsigned)(x1 * 12345u % MRG_M2);
        s.s2[2] = (unsigned)(x2 * 12345u % MRG_M2);
    }
    unsigned long long steps = (offset + (t + T - offset % T) % T) / T;
    for (int k = 0; k < WS_CR_MRG_MATS; k++) {
        int on = k >= WS_CR_MRG_SUBSEQ_LOG2 ? (t >> (k - WS_CR_MRG_SUBSEQ_LOG2)) & 1 : (int)(steps >> k & 1);
        if (!on) continue;
        const unsigned *a = mats + (size_t)k * WS_CR_MRG_MAT_WORDS;
        mrg_matvec(s.s1, a, MRG_M1);
        mrg_matvec(s.s2, a + 9, MRG_M2);
    }
    unsigned *o = states + (size_t)t * 6;
    for (int i = 0; i < 3; i++) { o[i] = s.s1[i]; o[3 + i] = s.s2[i]; }
}

// item i of a call for a generator whose draw() gives 32 bits (XORWOW): one value, or for normals one pair
template <typename G> __device__ void emit_u32(G &g, int kind, unsigned long long i, void *out, double a, double b)
{
    switch (kind) {
    case WS_CR_U32: ((unsigned *)out)[i] = g.draw(); break;
    case WS_CR_UNIFORM: ((float *)out)[i] = u32_to_float(g.draw()); break;
    case WS_CR_UNIFORM_D: { unsigned x = g.draw(); ((double *)out)[i] = u32x2_to_double(x, g.draw()); break; }
    case WS_CR_NORMAL: case WS_CR_LOGNORMAL: {
        unsigned x = g.draw();
        float2 r = box_muller(x, g.draw());
        float m = (float)a, sd = (float)b, r0 = m + sd * r.x, r1 = m + sd * r.y;
        if (kind == WS_CR_LOGNORMAL) { r0 = expf(r0); r1 = expf(r1); }
        ((float *)out)[2 * i] = r0;
        ((float *)out)[2 * i + 1] = r1;
        break;
    }
    case WS_CR_NORMAL_D: case WS_CR_LOGNORMAL_D: {
        unsigned x0 = g.draw(), x1 = g.draw(), y0 = g.draw();
        double2 r = box_muller_d(x0, x1, y0, g.draw());
        double r0 = a + b * r.x, r1 = a + b * r.y;
        if (kind == WS_CR_LOGNORMAL_D) { r0 = exp(r0); r1 = exp(r1); }
        ((double *)out)[2 * i] = r0;
        ((double *)out)[2 * i + 1] = r1;
        break;
    }
    case WS_CR_POISSON:
        ((unsigned *)out)[i] = poisson(a, [&] { return (double)g.draw() * TWO_M32 + TWO_M32; });
        break;
    }
}

// an XORWOW state as a source of 32-bit draws
struct xorwow_src { xorwow s; __device__ unsigned draw() { return xorwow_next(s); } };

// items [0, items) of a call starting at position pos: item i by state (pos + i) % T
extern "C" __global__ void ws_cr_xorwow_gen(unsigned *states, unsigned T, unsigned long long pos,
                                            unsigned long long items, int kind, void *out, double a, double b)
{
    unsigned long long j = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (j >= items || j >= T) return;
    unsigned *st = states + (size_t)((pos + j) % T) * WS_CR_XORWOW_WORDS;
    xorwow_src g;
    for (int i = 0; i < 5; i++) g.s.v[i] = st[i];
    g.s.d = st[5];
    for (unsigned long long i = j; i < items; i += T) emit_u32(g, kind, i, out, a, b);
    for (int i = 0; i < 5; i++) st[i] = g.s.v[i];
    st[5] = g.s.d;
}

// item i of an MRG32k3a call: cuRAND's MRG conversions (one draw per uniform double, Box-Muller on uniforms)
__device__ void emit_mrg(mrg &s, int kind, unsigned long long i, void *out, double a, double b)
{
    switch (kind) {
    case WS_CR_U32: ((unsigned *)out)[i] = (unsigned)(mrg_next(s) * MRG_BITS_NORM); break;
    case WS_CR_UNIFORM: ((float *)out)[i] = (float)(mrg_next(s) * MRG_NORM); break;
    case WS_CR_UNIFORM_D: ((double *)out)[i] = mrg_next(s) * MRG_NORM; break;
    case WS_CR_NORMAL: case WS_CR_LOGNORMAL: {
        float x = (float)(mrg_next(s) * MRG_NORM), y = (float)(mrg_next(s) * MRG_NORM) * TWO_PI_F, sn, cs;
        float r = sqrtf(-2.0f * logf(x));
        __sincosf(y, &sn, &cs);
        float m = (float)a, sd = (float)b, r0 = m + sd * (sn * r), r1 = m + sd * (cs * r);
        if (kind == WS_CR_LOGNORMAL) { r0 = expf(r0); r1 = expf(r1); }
        ((float *)out)[2 * i] = r0;
        ((float *)out)[2 * i + 1] = r1;
        break;
    }
    case WS_CR_NORMAL_D: case WS_CR_LOGNORMAL_D: {
        double x = mrg_next(s) * MRG_NORM, y = mrg_next(s) * MRG_NORM * 2.0, sn, cs, r = sqrt(-2.0 * log(x));
        sincospi(y, &sn, &cs);
        double r0 = a + b * (sn * r), r1 = a + b * (cs * r);
        if (kind == WS_CR_LOGNORMAL_D) { r0 = exp(r0); r1 = exp(r1); }
        ((double *)out)[2 * i] = r0;
        ((double *)out)[2 * i + 1] = r1;
        break;
    }
    case WS_CR_POISSON: ((unsigned *)out)[i] = poisson(a, [&] { return mrg_next(s) * MRG_NORM; }); break;
    }
}

// items [0, items) of an MRG32k3a call starting at position pos: item i by state (pos + i) % T
extern "C" __global__ void ws_cr_mrg_gen(unsigned *states, unsigned T, unsigned long long pos,
                                         unsigned long long items, int kind, void *out, double a, double b)
{
    unsigned long long j = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (j >= items || j >= T) return;
    unsigned *st = states + (size_t)((pos + j) % T) * 6;
    mrg s;
    for (int i = 0; i < 3; i++) { s.s1[i] = st[i]; s.s2[i] = st[3 + i]; }
    for (unsigned long long i = j; i < items; i += T) emit_mrg(s, kind, i, out, a, b);
    for (int i = 0; i < 3; i++) { st[i] = s.s1[i]; st[3 + i] = s.s2[i]; }
}

// ---- Philox4x32-10 ----
// the 4 x 32 bits of counter ctr under key
__device__ uint4 philox(uint4 c, uint2 k)
{
    for (int r = 0; r < 10; r++) {
        unsigned hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
        unsigned hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
        c = make_uint4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
        k.x += 0x9E3779B9u;
        k.y += 0xBB67AE85u;
    }
    return c;
}

// the block of 4 values of subsequence t at counter n
__device__ __forceinline__ uint4 philox_at(unsigned long long seed, unsigned long long t, unsigned long long n)
{
    return philox(make_uint4((unsigned)n, (unsigned)(n >> 32), (unsigned)t, (unsigned)(t >> 32)),
                  make_uint2((unsigned)seed, (unsigned)(seed >> 32)));
}

// positions [pos, pos + n): one thread per block q of 4 positions, made by subsequence q % 65536 at counter
// q / 65536 (two counters for doubles; Poisson draws from subsequences above 2^32 of its own)
extern "C" __global__ void ws_cr_philox_gen(unsigned long long seed, unsigned long long pos, unsigned long long n,
                                            int kind, void *out, double a, double b)
{
    const unsigned long long T = WS_CR_PHILOX_STATES;
    unsigned long long q = pos / 4 + blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (q * 4 >= pos + n) return;
    unsigned long long t = q % T, c = q / T;
    int two = kind == WS_CR_UNIFORM_D || kind == WS_CR_NORMAL_D || kind == WS_CR_LOGNORMAL_D;
    uint4 r = philox_at(seed, t, two ? 2 * c : c), r2 = two ? philox_at(seed, t, 2 * c + 1) : r;
    unsigned w[8] = { r.x, r.y, r.z, r.w, r2.x, r2.y, r2.z, r2.w };
    double v[4];
    switch (kind) {
    case WS_CR_UNIFORM_D:
        for (int e = 0; e < 4; e++) v[e] = u32x2_to_double(w[2 * e], w[2 * e + 1]);
        break;
    case WS_CR_NORMAL: case WS_CR_LOGNORMAL:
        for (int e = 0; e < 4; e += 2) {
            float2 z = box_muller(w[e], w[e + 1]);
            float m = (float)a, sd = (float)b, z0 = m + sd * z.x, z1 = m + sd * z.y;
            if (kind == WS_CR_LOGNORMAL) { z0 = expf(z0); z1 = expf(z1); }
            v[e] = z0;
            v[e + 1] = z1;
        }
        break;
    case WS_CR_NORMAL_D: case WS_CR_LOGNORMAL_D:
        for (int e = 0; e < 4; e += 2) {
            double2 z = box_muller_d(w[2 * e], w[2 * e + 1], w[2 * e + 2], w[2 * e + 3]);
            v[e] = a + b * z.x;
            v[e + 1] = a + b * z.y;
            if (kind == WS_CR_LOGNORMAL_D) { v[e] = exp(v[e]); v[e + 1] = exp(v[e + 1]); }
        }
        break;
    default: break;
    }
    for (int e = 0; e < 4; e++) {
        unsigned long long p = q * 4 + e;
        if (p < pos || p >= pos + n) continue;
        unsigned long long i = p - pos;
        switch (kind) {
        case WS_CR_U32: ((unsigned *)out)[i] = w[e]; break;
        case WS_CR_UNIFORM: ((float *)out)[i] = u32_to_float(w[e]); break;
        case WS_CR_NORMAL: case WS_CR_LOGNORMAL: ((float *)out)[i] = (float)v[e]; break;
        case WS_CR_POISSON: {
            unsigned long long k = 0;
            ((unsigned *)out)[i] = poisson(a, [&] {
                uint4 x = philox_at(seed, t | (1ull + e) << 32, c * 1024 + (k >> 2));
                unsigned y = (k & 3) == 0 ? x.x : (k & 3) == 1 ? x.y : (k & 3) == 2 ? x.z : x.w;
                k++;
                return (double)y * TWO_M32 + TWO_M32;
            });
            break;
        }
        default: ((double *)out)[i] = v[e]; break;
        }
    }
}

// ---- Sobol ----
// the normal quantile of a quasi-random word, as cuRAND takes it: the upper half mirrored into the lower (for
// precision), p = the word's midpoint in (0, 1/2], quantile = -sqrt(2) erfcinv(2p), the sign flipped when mirrored
__device__ float icdf_f(unsigned x)
{
    float s = -1.4142135f;
    if (x > 0x80000000u) { x = 0xffffffffu - x; s = -s; }
    return s * erfcinvf(2.0f * u32_to_float(x));
}
// a 64-bit word's float quantile: from its upper 32 bits
__device__ float icdf_f(unsigned long long x) { return icdf_f((unsigned)(x >> 32)); }
// the double quantile of a 32-bit word
__device__ double icdf_d(unsigned x)
{
    double s = -1.4142135623730951;
    if (x > 0x80000000u) { x = 0xffffffffu - x; s = -s; }
    return s * erfcinv(2.0 * (x * TWO_M32 + TWO_M32 / 2.0));
}
// the double quantile of a 64-bit word: from its upper 53 bits
__device__ double icdf_d(unsigned long long x)
{
    double s = -1.4142135623730951;
    x >>= 11;
    if (x > 1ull << 52) { x = (1ull << 53) - 1 - x; s = -s; }
    return s * erfcinv(2.0 * (x * TWO_M53 + TWO_M53 / 2.0));
}
// points [first, first + npoints) of dims dimensions, dimension-major (all points of dimension 0 first): point i is
// the XOR of the dimension's direction vectors for the set bits of i's Gray code, XORed with its scramble constant
template <typename W, int BITS>
__device__ void sobol(const W *dirs, const W *scramble, unsigned long long first, unsigned long long npoints,
                      int dims, int kind, void *out, double a, double b)
{
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    int d = blockIdx.y;
    if (i >= npoints || d >= dims) return;
    unsigned long long g = (first + i) ^ ((first + i) >> 1);
    W x = scramble ? scramble[d] : 0;
    for (int k = 0; g && k < BITS; k++, g >>= 1)
        if (g & 1) x ^= dirs[(size_t)d * BITS + k];
    unsigned long long o = (unsigned long long)d * npoints + i;
    double u = BITS == 32 ? (double)x * TWO_M32 + TWO_M32 : (double)((unsigned long long)x >> 11) * TWO_M53 + TWO_M53 / 2.0;
    float uf = BITS == 32 ? u32_to_float((unsigned)x) : u32_to_float((unsigned)((unsigned long long)x >> 32));
    switch (kind) {
    case WS_CR_U32: ((unsigned *)out)[o] = (unsigned)x; break;
    case WS_CR_U64: ((unsigned long long *)out)[o] = (unsigned long long)x; break;
    case WS_CR_UNIFORM: ((float *)out)[o] = uf; break;
    case WS_CR_UNIFORM_D: ((double *)out)[o] = u; break;
    case WS_CR_NORMAL: ((float *)out)[o] = (float)a + (float)b * icdf_f(x); break;
    case WS_CR_LOGNORMAL: ((float *)out)[o] = expf((float)a + (float)b * icdf_f(x)); break;
    case WS_CR_NORMAL_D: ((double *)out)[o] = a + b * icdf_d(x); break;
    case WS_CR_LOGNORMAL_D: ((double *)out)[o] = exp(a + b * icdf_d(x)); break;
    case WS_CR_POISSON: {
        // inversion of the quasi-random uniform (the normal approximation beyond 500)
        unsigned k = 0;
        if (a >= 500.0) {
            double z = floor(a + sqrt(a) * normcdfinv(u) + 0.5);
            k = z < 0.0 ? 0u : (unsigned)z;
        } else {
            double p = exp(-a), f = p;
            while (u > f && p > 0.0) { k++; p *= a / k; f += p; }
        }
        ((unsigned *)out)[o] = k;
        break;
    }
    }
}

// 32-bit Sobol (scramble: NULL, or one constant per dimension)
extern "C" __global__ void ws_cr_sobol32_gen(const unsigned *dirs, const unsigned *scramble, unsigned long long first,
                                             unsigned long long npoints, int dims, int kind, void *out, double a,
                                             double b)
{
    sobol<unsigned, 32>(dirs, scramble, first, npoints, dims, kind, out, a, b);
}

// 64-bit Sobol
extern "C" __global__ void ws_cr_sobol64_gen(const unsigned long long *dirs, const unsigned long long *scramble,
                                             unsigned long long first, unsigned long long npoints, int dims, int kind,
                                             void *out, double a, double b)
{
    sobol<unsigned long long, 64>(dirs, scramble, first, npoints, dims, kind, out, a, b);
}
