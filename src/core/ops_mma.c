/* ops_mma.c - handlers of the tensor-core and matrix-move instructions: wmma.load/store/mma, mma.sync, ldmatrix,
 * stmatrix and movmatrix. Fragments live in the lanes' registers in the H200's layout: the wmma layouts were
 * measured on the device (mma_layout.h), the mma.sync ones are the PTX ISA's. Arithmetic as the H200 does it
 * (checked bit for bit against its results, tests/data/h200/tensor): f16/bf16/tf32 products exact, aligned to the
 * largest exponent of the block (products' exponent = sum of the inputs' exponents) and c, truncated toward zero
 * 25 bits below it, summed exactly, the sum rounded toward zero; f64 one IEEE fma per k in order; integers exact,
 * wrapping or saturating (.satfinite). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "ops.h"
#include "mma_layout.h"
#include "observe.h"
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WS_MX_AVX2 1   /* mma_float's rows of single-precision sums with AVX2 intrinsics (row_single_avx2) */
#else
#define WS_MX_AVX2 0
#endif

#define MX_MAXE 32   /* largest matrix edge (m32n8k16) */
#define MX_K 256     /* largest k (b1 m16n8k256) */

/* bits of one element of a matrix type */
static int mt_bits(int t)
{
    switch (t) {
    case WS_MT_F64: return 64;
    case WS_MT_F16: case WS_MT_BF16: case WS_MT_B16: return 16;
    case WS_MT_S8: case WS_MT_U8: case WS_MT_E4M3: case WS_MT_E5M2: return 8;
    case WS_MT_S4: case WS_MT_U4: return 4;
    case WS_MT_B1: return 1;
    default: return 32;
    }
}

/* element i (of width eb bits) of a register list */
static inline uint64_t frag_get(ws_warp *w, const int32_t *regs, int eb, int i, int l)
{
    if (eb == 64) return RG(regs[i], l);
    int per = 32 / eb;
    uint32_t v = (uint32_t)RG(regs[i / per], l);
    return eb == 32 ? v : (v >> (eb * (i % per))) & ((1u << eb) - 1u);
}

/* set element i of a register list */
static inline void frag_set(ws_warp *w, const int32_t *regs, int eb, int i, int l, uint64_t v)
{
    if (regs[0] < WS_SR_COUNT && regs[0] == WS_SR_SINK) return;
    if (eb == 64) { RG(regs[i], l) = v; return; }
    if (eb == 32) { RG(regs[i], l) = (uint32_t)v; return; }
    int per = 32 / eb, sh = eb * (i % per);
    uint32_t m = ((1u << eb) - 1u) << sh, old = (uint32_t)RG(regs[i / per], l);
    RG(regs[i / per], l) = (old & ~m) | (((uint32_t)v << sh) & m);
}

/* a base-32 digit of the layout tables */
static inline int dig(char ch) { return ch <= '9' ? ch - '0' : ch - 'A' + 10; }

#define MX_NLAYOUTS (sizeof ws_mx_layouts / sizeof *ws_mx_layouts)
static uint8_t *g_layout_rc[MX_NLAYOUTS];   /* each layout's (row, col) digits decoded, lane by lane */
static pthread_once_t g_layout_once = PTHREAD_ONCE_INIT;

/* Decode every layout's digits once (the handlers read them per element). */
static void layouts_decode(void)
{
    for (size_t i = 0; i < MX_NLAYOUTS; i++) {
        size_t n = 2 * 32 * (size_t)ws_mx_layouts[i].nel;
        g_layout_rc[i] = malloc(n);
        if (!g_layout_rc[i]) abort();
        for (size_t j = 0; j < n; j++) g_layout_rc[i][j] = (uint8_t)dig(ws_mx_layouts[i].rc[j]);
    }
}

/* The decoded (row, col) pairs of layout L: entry 2 * (lane * nel + i) is element i's row, the next its column. */
static inline const uint8_t *layout_rc(const ws_mx_layout *L)
{
    pthread_once(&g_layout_once, layouts_decode);
    return g_layout_rc[L - ws_mx_layouts];
}

/* the measured wmma layout of a fragment (use 0 a, 1 b, 2 c/d); NULL when the H200 has none */
static const ws_mx_layout *wmma_layout(int use, const ws_mma *x, int type)
{
    if (type == WS_MT_S32 && use < 2) return NULL;
    for (size_t i = 0; i < sizeof ws_mx_layouts / sizeof *ws_mx_layouts; i++) {
        const ws_mx_layout *L = &ws_mx_layouts[i];
        if (L->use == use && L->m == x->m && L->n == x->n && L->k == x->k && L->type == type) return L;
    }
    return NULL;
}

/* (row, col) of element i of lane l in an mma.sync fragment (use 0 a, 1 b, 2 c/d), by the PTX ISA's figures: with
 * g = lane/4, t = lane%4 and per elements per 32-bit register, register q of a holds row g (+8 for odd q in the
 * m16 shapes) and columns per*t.. (+4*per for the second k half); register q of b holds rows per*t + 4*per*q..
 * of column g; c/d hold rows g and g+8, columns 2t and 2t+1 */
static void mma_rc(const ws_mma *x, int use, int type, int l, int i, int *r, int *c)
{
    int g = l >> 2, t = l & 3, eb = mt_bits(type);
    if (use == 2) {
        if (x->m == 8) { *r = g; *c = 2 * t + i; return; }            /* m8n8k4 f64 */
        *r = g + 8 * (i >> 1); *c = 2 * t + (i & 1); return;
    }
    if (eb == 64) { if (use == 0) { *r = g; *c = t; } else { *r = t; *c = g; } return; }
    int per = 32 / eb, q = i / per, p = i % per;
    if (use == 0) {
        int rows2 = x->m == 16 ? 2 : 1;
        *r = g + 8 * (q % rows2);
        *c = per * t + p + (q / rows2) * 4 * per;
    } else {
        *r = per * t + p + q * 4 * per;
        *c = g;
    }
}

/* matrix operands gathered from the lanes, row-major with rows of their own length: a is m x k, b k x n, c m x n
 * (MA, MB and MC index them, for the instruction x in scope) */
typedef struct mx_mats {
    uint64_t a[MX_MAXE * MX_K], b[MX_K * MX_MAXE], c[MX_MAXE * MX_MAXE];
} mx_mats;
#define MA(M, i, kk) ((M)->a[(i) * x->k + (kk)])
#define MB(M, kk, j) ((M)->b[(kk) * x->n + (j)])
#define MC(M, i, j) ((M)->c[(i) * x->n + (j)])

/* decode a 16/32-bit input element to float */
static inline float in_float(uint64_t v, int t)
{
    switch (t) {
    case WS_MT_F16: return ws_half_to_float((uint16_t)v);
    case WS_MT_BF16: return ws_bf16_to_float((uint16_t)v);
    case WS_MT_TF32: return f32_of(v & 0xffffe000u);   /* the H200 ignores the low 13 bits */
    case WS_MT_E4M3: return (float)ws_fp8_to_double((uint8_t)v, WS_FP8_E4M3);
    case WS_MT_E5M2: return (float)ws_fp8_to_double((uint8_t)v, WS_FP8_E5M2);
    default: return f32_of(v);
    }
}

/* sum * 2^u (|sum| < 2^53, so exact as a double) rounded toward zero to float: as a double rounded toward zero would
 * give, from the integer directly */
static float fixed_rz_f32(int64_t sum, int u)
{
    if (!sum) return 0.0f;
    uint32_t sign = sum < 0 ? 0x80000000u : 0;
    uint64_t m = sum < 0 ? (uint64_t)-sum : (uint64_t)sum;
    int top = 63 - __builtin_clzll(m), e = top + u;   /* |x| in [2^e, 2^(e+1)) */
    if (e >= 128) return sign ? -INFINITY : INFINITY;
    uint32_t bits;
    if (e >= -126) {
        uint64_t mant = top >= 23 ? m >> (top - 23) : m << (23 - top);   /* 24 bits, truncated */
        bits = ((uint32_t)(e + 127) << 23) | ((uint32_t)mant & 0x7fffffu);
    } else {
        int sh = u + 149;                            /* in units of 2^-149 */
        bits = (uint32_t)(sh >= 0 ? m << sh : (-sh >= 64 ? 0 : m >> -sh));
    }
    return f32_of(sign | bits);
}

/* an input element split for the block sum: x = sig * 2^(e - 23), sig an integer below 2^24 (0 for zero), e its
 * exponent clamped at the format's smallest normal one; special: infinity or NaN */
typedef struct mx_in { int64_t sig; int e; uint8_t special; } mx_in;

/* split an input element from its bits (t: f16, bf16, tf32 or f32) */
static inline mx_in mx_split_bits(uint64_t v, int t)
{
    mx_in r = { 0, 0, 0 };
    uint32_t sign, ef, mant;
    if (t == WS_MT_E4M3 || t == WS_MT_E5M2) {   /* exact in f32: split that */
        double x = ws_fp8_to_double((uint8_t)v, t == WS_MT_E5M2 ? WS_FP8_E5M2 : WS_FP8_E4M3);
        if (!isfinite(x)) { r.special = 1; return r; }
        return mx_split_bits(bits_f32((float)x), WS_MT_F32);
    }
    if (t == WS_MT_F16) {
        sign = (uint32_t)(v >> 15) & 1; ef = (uint32_t)(v >> 10) & 31; mant = (uint32_t)v & 1023;
        if (ef == 31) { r.special = 1; return r; }
        r.e = ef ? (int)ef - 15 : -14;
        r.sig = (int64_t)((ef ? 1024u | mant : mant) << 13);
    } else {
        uint32_t u = t == WS_MT_BF16 ? (uint32_t)v << 16 : t == WS_MT_TF32 ? (uint32_t)v & 0xffffe000u : (uint32_t)v;
        sign = u >> 31; ef = (u >> 23) & 255; mant = u & 0x7fffffu;
        if (ef == 255) { r.special = 1; return r; }
        r.e = ef ? (int)ef - 127 : -126;
        r.sig = (int64_t)(ef ? 0x800000u | mant : mant);
    }
    if (sign) r.sig = -r.sig;
    return r;
}

/* c + sum a[k]*b[k] over one block, the way the H200's tensor core forms it (see the file comment); a and b are
 * n split inputs, af/bf the same as floats for the special-value path (special: an input of a or b is infinite or
 * NaN, or unknown when -1) */
static float fused_block(const mx_in *a, const mx_in *b, int n, float c, const float *af, const float *bf, int special)
{
    int any = c != 0, emax = -100000, ek[MX_K];
    int64_t pk[MX_K];
    if (special < 0) {
        special = 0;
        for (int k = 0; k < n; k++) special |= a[k].special | b[k].special;
    }
    special |= !isfinite(c);
    for (int k = 0; k < n; k++) {
        int64_t p = a[k].sig * b[k].sig;     /* exact: below 2^48 */
        int e = a[k].e + b[k].e;
        pk[k] = p;
        ek[k] = e;
        if (p) { any = 1; if (e > emax) emax = e; }
    }
    if (special || !any) {
        float s = c;
        for (int k = 0; k < n; k++) s += af[k] * bf[k];
        return s;
    }
    mx_in cc = mx_split_bits(bits_f32(c), WS_MT_F32);
    if (cc.sig && cc.e > emax) emax = cc.e;
    int u = emax - 25;                       /* weight of the last bit kept */
    int64_t sum = 0;
    if (cc.sig) {
        int sh = cc.e - emax + 2;            /* c in units of 2^u: sig * 2^(e - 23 - u) */
        int64_t m = cc.sig < 0 ? -cc.sig : cc.sig;
        m = sh >= 0 ? m << sh : (-sh >= 63 ? 0 : m >> -sh);
        sum += cc.sig < 0 ? -m : m;
    }
    for (int k = 0; k < n; k++) {
        int64_t p = pk[k];
        if (!p) continue;
        int sh = 21 + emax - ek[k];          /* p * 2^(ea+eb-46) in units of 2^u, truncated toward zero */
        int64_t m = p < 0 ? -p : p;
        m = sh >= 63 ? 0 : m >> sh;
        sum += p < 0 ? -m : m;
    }
    return fixed_rz_f32(sum, u);
}

/* D = A*B + C for float inputs (reference: per output); kb is the hardware block (16 for f16/bf16, 4 for wmma tf32, else the k) */
static void mma_float_ref(const ws_mma *x, mx_mats *M, int kb)
{
    static _Thread_local mx_in sa[MX_MAXE][MX_K], sb[MX_MAXE][MX_K];   /* sb: B transposed (columns) */
    static _Thread_local float fa[MX_MAXE][MX_K], fb[MX_MAXE][MX_K];
    static _Thread_local uint8_t spa[MX_MAXE][MX_K], spb[MX_MAXE][MX_K];   /* a special input in the block at k0 */
    for (int i = 0; i < x->m; i++)
        for (int k = 0; k < x->k; k++) {
            fa[i][k] = in_float(MA(M, i, k), x->atype);
            sa[i][k] = mx_split_bits(MA(M, i, k), x->atype);
            if (k % kb == 0) spa[i][k] = 0;
            spa[i][k - k % kb] |= sa[i][k].special;
        }
    for (int k = 0; k < x->k; k++)
        for (int j = 0; j < x->n; j++) {
            fb[j][k] = in_float(MB(M, k, j), x->btype);
            sb[j][k] = mx_split_bits(MB(M, k, j), x->btype);
            if (k % kb == 0) spb[j][k] = 0;
            spb[j][k - k % kb] |= sb[j][k].special;
        }
    for (int j = 0; j < x->n; j++)
        for (int i = 0; i < x->m; i++) {
            float acc = x->ctype == WS_MT_F16 ? ws_half_to_float((uint16_t)MC(M, i, j)) : f32_of(MC(M, i, j));
            for (int k0 = 0; k0 < x->k; k0 += kb)
                acc = fused_block(&sa[i][k0], &sb[j][k0], kb, acc, &fa[i][k0], &fb[j][k0], spa[i][k0] | spb[j][k0]);
            MC(M, i, j) = x->dtype == WS_MT_F16 ? ws_float_to_half(acc, WS_R_RN) : bits_f32(acc);
        }
}

/* 2^e as a double (e within the normal range) */
static inline double f64_pow2(int e)
{
    uint64_t b = (uint64_t)(1023 + e) << 52;
    double d;
    memcpy(&d, &b, 8);
    return d;
}

/* d (exactly the sum, a multiple of a power of two) rounded toward zero to a float, as fixed_rz_f32 rounds: at and
 * above 2^128 infinite */
static inline float rz_f32(double d)
{
    float f = (float)d;
    uint32_t b = (uint32_t)bits_f32(f) - (uint32_t)(fabs((double)f) > fabs(d));
    if (fabs(d) >= 0x1p128) b = ((uint32_t)bits_f32(f) & 0x80000000u) | 0x7f800000u;
    return f32_of(b);
}

#define MX_ENONE (-16000)   /* the exponent of a zero or special input: sums of two stay below MX_EVALID */
#define MX_EVALID (-1000)
#define MX_FK 32            /* the largest k of the float shapes */

/* one output of one block the slow way (fused_block): special inputs, or no product and c zero */
static float block_slow(const ws_mma *x, const mx_mats *M, int i, int j, int k0, int kn, float c)
{
    mx_in sa[MX_FK], sb[MX_FK];
    float fa[MX_FK], fb[MX_FK];
    for (int k = 0; k < kn; k++) {
        sa[k] = mx_split_bits(MA(M, i, k0 + k), x->atype); fa[k] = in_float(MA(M, i, k0 + k), x->atype);
        sb[k] = mx_split_bits(MB(M, k0 + k, j), x->btype); fb[k] = in_float(MB(M, k0 + k, j), x->btype);
    }
    return fused_block(sa, sb, kn, c, fa, fb, -1);
}

#if WS_MX_AVX2
/* Whether the processor has AVX2 (for the intrinsics paths below). */
static inline int mx_avx2(void) { return __builtin_cpu_supports("avx2"); }
static int split_run16_avx2(const uint64_t *restrict v, int n, int t, float *restrict g, int16_t *restrict e,
                            uint8_t *restrict s);
#endif

/* n input elements (bits v[0..n), type t) split for mma_float: g the values as floats (exact; 0 for a special), e
 * the exponents (MX_ENONE for zero or special), s whether each is special (infinite or NaN); returns the largest
 * exponent (f16/bf16 runs of a multiple of 8 with AVX2 where the processor has it) */
static int split_run(const uint64_t *restrict v, int n, int t, float *restrict g, int16_t *restrict e,
                     uint8_t *restrict s)
{
#if WS_MX_AVX2
    if (n % 8 == 0 && (t == WS_MT_F16 || t == WS_MT_BF16) && mx_avx2()) return split_run16_avx2(v, n, t, g, e, s);
#endif
    int emax = MX_ENONE;
    uint32_t w[MX_MAXE];
    for (int k = 0; k < n; k++) w[k] = (uint32_t)v[k];
    if (t == WS_MT_F16)
        for (int k = 0; k < n; k++) {   /* branch-free: vectorised */
            uint32_t h = w[k], ef = (h >> 10) & 31, mant = h & 1023, nz = ef != 0;
            int32_t sig = (int32_t)((nz << 10) | mant), ex = (int32_t)ef - 15 + (int32_t)!nz;
            uint32_t sc = (uint32_t)(127 + ex - 10) << 23, sp = ef == 31, none = sp | (sig == 0);
            uint32_t fb = ((uint32_t)bits_f32(f32_of(sc) * (float)sig) | (h & 0x8000) << 16) & (sp - 1u);
            s[k] = (uint8_t)sp;
            g[k] = f32_of(fb);
            e[k] = (int16_t)(none ? MX_ENONE : ex);
        }
    else if (t == WS_MT_BF16 || t == WS_MT_TF32 || t == WS_MT_F32)
        for (int k = 0; k < n; k++) {
            uint32_t u = t == WS_MT_BF16 ? w[k] << 16 : t == WS_MT_TF32 ? w[k] & 0xffffe000u : w[k];
            uint32_t ef = (u >> 23) & 255, sp = ef == 255, none = sp | ((u & 0x7fffffffu) == 0);
            int32_t ex = (int32_t)ef - 127 + (int32_t)(ef == 0);
            s[k] = (uint8_t)sp;
            g[k] = f32_of(u & (sp - 1u));
            e[k] = (int16_t)(none ? MX_ENONE : ex);
        }
    else
        for (int k = 0; k < n; k++) {
            mx_in r = mx_split_bits(v[k], t);
            s[k] = r.special;
            g[k] = r.special ? 0.0f : in_float(v[k], t);
            e[k] = (int16_t)(r.special || !r.sig ? MX_ENONE : r.e);
        }
    for (int k = 0; k < n; k++) emax = e[k] > emax ? e[k] : emax;
    return emax;
}

#if WS_MX_AVX2
/* One row of one block of mma_float's sums in single precision (products below 2^127, at most 16 of them), 8
 * outputs at a time (n a multiple of 8): the same steps and the same bits as mma_float's scalar loops. ea/ga: the
 * row's input exponents and values; eb/gb: B's; spai/spb: special inputs in the row's and the columns' block; acc:
 * the row's accumulators. Writes each output (out) and whether it needs block_slow (slow); returns how many do. */
__attribute__((target("avx2"))) static int row_single_avx2(int n, int k0, int kn, const int16_t *ea, const float *ga,
                                                           const int16_t (*eb)[MX_MAXE], const float (*gb)[MX_MAXE],
                                                           uint8_t spai, const uint8_t *spb, const float *acc,
                                                           float *out, uint8_t *slow)
{
    int nslow = 0;
    const __m256i one = _mm256_set1_epi32(1), none2 = _mm256_set1_epi32(2 * MX_ENONE);
    for (int j0 = 0; j0 < n; j0 += 8) {
        /* each output's largest product exponent (sums of the inputs' exponents, int16 as the scalar loop) */
        __m128i E = _mm_set1_epi16(2 * MX_ENONE);
        for (int k = k0; k < k0 + kn; k++)
            E = _mm_max_epi16(E, _mm_add_epi16(_mm_set1_epi16(ea[k]), _mm_loadu_si128((const __m128i *)&eb[k][j0])));
        __m256i Ev = _mm256_cvtepi16_epi32(E);
        __m256 c = _mm256_loadu_ps(&acc[j0]);
        __m256i cb = _mm256_castps_si256(c), cf = _mm256_and_si256(_mm256_srli_epi32(cb, 23), _mm256_set1_epi32(255));
        __m256i ev = _mm256_blendv_epi8(none2, Ev, _mm256_cmpgt_epi32(Ev, _mm256_set1_epi32(MX_EVALID)));
        __m256i cnz = _mm256_cmpeq_epi32(_mm256_and_si256(cb, _mm256_set1_epi32(0x7fffffff)), _mm256_setzero_si256());
        __m256i ecn = _mm256_blendv_epi8(_mm256_sub_epi32(cf, _mm256_set1_epi32(127)), _mm256_set1_epi32(-126),
                                         _mm256_cmpeq_epi32(cf, _mm256_setzero_si256()));
        __m256i ec = _mm256_blendv_epi8(ecn, none2, cnz);
        __m256i e = _mm256_max_epi32(ev, ec);
        /* slow: a special input, an infinite or NaN c, or e below -100 (no product and c zero included) */
        __m256i sp = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)&spb[j0]));
        __m256i sl = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_and_si256(sp, one), _mm256_setzero_si256()),
                                     _mm256_cmpeq_epi32(cf, _mm256_set1_epi32(255)));
        sl = _mm256_or_si256(sl, _mm256_cmpgt_epi32(_mm256_set1_epi32(-100), e));
        if (spai) sl = _mm256_set1_epi32(-1);
        __m256i u = _mm256_andnot_si256(sl, _mm256_sub_epi32(e, _mm256_set1_epi32(25)));
        __m256 sc1 = _mm256_castsi256_ps(_mm256_andnot_si256(sl, _mm256_slli_epi32(_mm256_sub_epi32(
                                                                   _mm256_set1_epi32(127), u), 23)));
        __m256i tc = _mm256_cvttps_epi32(_mm256_mul_ps(_mm256_andnot_ps(_mm256_castsi256_ps(sl), c), sc1));
        __m256i T = _mm256_setzero_si256();
        for (int k = k0; k < k0 + kn; k++)
            T = _mm256_add_epi32(T, _mm256_cvttps_epi32(_mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(ga[k]),
                                                                                    _mm256_loadu_ps(&gb[k][j0])), sc1)));
        /* the sum (below 2^32 units of 2^u) as a double, rounded toward zero to a float (rz_f32), 4 at a time */
        for (int h = 0; h < 2; h++) {
            __m128i tch = h ? _mm256_extracti128_si256(tc, 1) : _mm256_castsi256_si128(tc);
            __m128i Th = h ? _mm256_extracti128_si256(T, 1) : _mm256_castsi256_si128(T);
            __m128i uh = h ? _mm256_extracti128_si256(u, 1) : _mm256_castsi256_si128(u);
            __m256d p2 = _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(uh),
                                                                                _mm256_set1_epi64x(1023)), 52));
            __m256d d = _mm256_mul_pd(_mm256_add_pd(_mm256_cvtepi32_pd(tch), _mm256_cvtepi32_pd(Th)), p2);
            __m128 f = _mm256_cvtpd_ps(d);
            __m256d absm = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffll));
            __m256d ad = _mm256_and_pd(d, absm);
            __m256d up = _mm256_cmp_pd(_mm256_and_pd(_mm256_cvtps_pd(f), absm), ad, _CMP_GT_OQ);
            __m256d big = _mm256_cmp_pd(ad, _mm256_set1_pd(0x1p128), _CMP_GE_OQ);
            const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0);
            __m128i up32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(up), even));
            __m128i big32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(big), even));
            __m128i fb = _mm_add_epi32(_mm_castps_si128(f), up32);   /* one ulp toward zero where rounded up */
            __m128i inf = _mm_or_si128(_mm_and_si128(_mm_castps_si128(f), _mm_set1_epi32((int)0x80000000u)),
                                       _mm_set1_epi32(0x7f800000));
            _mm_storeu_si128((__m128i *)&out[j0 + 4 * h], _mm_blendv_epi8(fb, inf, big32));
        }
        int slm = _mm256_movemask_ps(_mm256_castsi256_ps(sl));
        if (slm) {
            for (int j = 0; j < 8; j++) slow[j0 + j] = (uint8_t)((slm >> j) & 1);
            nslow += __builtin_popcount((unsigned)slm);
        } else memset(&slow[j0], 0, 8);
    }
    return nslow;
}
#endif

#if WS_MX_AVX2
/* split_run for f16 and bf16 with AVX2, n a multiple of 8: the same values, exponents and flags. */
__attribute__((target("avx2"))) static int split_run16_avx2(const uint64_t *restrict v, int n, int t,
                                                             float *restrict g, int16_t *restrict e,
                                                             uint8_t *restrict s)
{
    const __m256i lo = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7), zero = _mm256_setzero_si256();
    __m256i emax = _mm256_set1_epi32(MX_ENONE);
    for (int k = 0; k < n; k += 8) {
        __m256i v0 = _mm256_loadu_si256((const __m256i *)&v[k]), v1 = _mm256_loadu_si256((const __m256i *)&v[k + 4]);
        __m256i w = _mm256_permute2x128_si256(_mm256_permutevar8x32_epi32(v0, lo),
                                              _mm256_permutevar8x32_epi32(v1, lo), 0x20);   /* low words, in order */
        __m256i h = _mm256_and_si256(w, _mm256_set1_epi32(0xffff)), ex, gb, sp, none;
        if (t == WS_MT_F16) {
            __m256i ef = _mm256_and_si256(_mm256_srli_epi32(h, 10), _mm256_set1_epi32(31));
            __m256i mant = _mm256_and_si256(h, _mm256_set1_epi32(1023));
            __m256i z = _mm256_cmpeq_epi32(ef, zero);                       /* -1 where subnormal or zero */
            __m256i sig = _mm256_or_si256(mant, _mm256_andnot_si256(z, _mm256_set1_epi32(1024)));
            ex = _mm256_sub_epi32(_mm256_sub_epi32(ef, _mm256_set1_epi32(15)), z);
            __m256 sc = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(ex, _mm256_set1_epi32(117)), 23));
            gb = _mm256_or_si256(_mm256_castps_si256(_mm256_mul_ps(sc, _mm256_cvtepi32_ps(sig))),
                                 _mm256_slli_epi32(_mm256_and_si256(h, _mm256_set1_epi32(0x8000)), 16));
            sp = _mm256_cmpeq_epi32(ef, _mm256_set1_epi32(31));
            none = _mm256_or_si256(sp, _mm256_cmpeq_epi32(sig, zero));
        } else {   /* bf16 */
            __m256i u = _mm256_slli_epi32(h, 16), ef = _mm256_and_si256(_mm256_srli_epi32(u, 23), _mm256_set1_epi32(255));
            sp = _mm256_cmpeq_epi32(ef, _mm256_set1_epi32(255));
            none = _mm256_or_si256(sp, _mm256_cmpeq_epi32(_mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff)), zero));
            ex = _mm256_sub_epi32(_mm256_sub_epi32(ef, _mm256_set1_epi32(127)), _mm256_cmpeq_epi32(ef, zero));
            gb = u;
        }
        gb = _mm256_andnot_si256(sp, gb);
        ex = _mm256_blendv_epi8(ex, _mm256_set1_epi32(MX_ENONE), none);
        emax = _mm256_max_epi32(emax, ex);
        _mm256_storeu_ps(&g[k], _mm256_castsi256_ps(gb));
        __m128i e16 = _mm_packs_epi32(_mm256_castsi256_si128(ex), _mm256_extracti128_si256(ex, 1));
        _mm_storeu_si128((__m128i *)&e[k], e16);
        __m128i s16 = _mm_packs_epi32(_mm256_castsi256_si128(sp), _mm256_extracti128_si256(sp, 1));
        _mm_storel_epi64((__m128i *)&s[k], _mm_and_si128(_mm_packs_epi16(s16, s16), _mm_set1_epi8(1)));
    }
    int32_t m[8];
    _mm256_storeu_si256((__m256i *)m, emax);
    int r = MX_ENONE;
    for (int i = 0; i < 8; i++) r = m[i] > r ? m[i] : r;
    return r;
}
#endif

/* D = A*B + C for float inputs, every output at once with the sums fused_block forms: per output and block the
 * largest product exponent emax (and c's), then each product (exact as a double) and c scaled by 2^-(emax-25) and
 * truncated toward zero (exact: below 2^27), summed exactly as doubles; outputs with special inputs, or with
 * neither a product nor c, go to fused_block. Same bits as mma_float_ref, checked by the H200 tests. */
static void mma_float(const ws_mma *x, mx_mats *M, int kb)
{
    int m = x->m, n = x->n, K = x->k, nb = (K + kb - 1) / kb;
    float ga[MX_MAXE][MX_FK], gb[MX_FK][MX_MAXE];        /* the inputs' values (exact as floats) */
    int16_t ea[MX_MAXE][MX_FK], eb[MX_FK][MX_MAXE];
    uint8_t spa[MX_MAXE][MX_FK], spb[MX_FK][MX_MAXE];   /* a special input in block kb of a row / column */
    float acc[MX_MAXE][MX_MAXE];
    int emaxa = MX_ENONE, emaxb = MX_ENONE;
    uint8_t xa[MX_MAXE][MX_FK], xb[MX_FK][MX_MAXE];    /* each input special */
    memset(spa, 0, sizeof spa);
    memset(spb, 0, sizeof spb);
    for (int i = 0; i < m; i++) {
        int e = split_run(&MA(M, i, 0), K, x->atype, ga[i], ea[i], xa[i]);
        if (e > emaxa) emaxa = e;
        for (int b = 0; b * kb < K; b++) {   /* in a register: not a chain through memory */
            uint8_t any = 0;
            for (int k = b * kb; k < K && k < (b + 1) * kb; k++) any |= xa[i][k];
            spa[i][b] = any;
        }
    }
    for (int k = 0; k < K; k++) {
        int e = split_run(&MB(M, k, 0), n, x->btype, gb[k], eb[k], xb[k]);
        if (e > emaxb) emaxb = e;
        for (int j = 0; j < n; j++) spb[k / kb][j] |= xb[k][j];
    }
    /* single precision when every product is below 2^127 (so exact as a float: at most 22 significant bits) and a
     * block's 16 truncated products (each below 2^27) cannot overflow an int32 */
    int single = emaxa + emaxb <= 125 && kb <= 16;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            acc[i][j] = x->ctype == WS_MT_F16 ? ws_half_to_float((uint16_t)MC(M, i, j)) : f32_of(MC(M, i, j));
    for (int b = 0; b < nb; b++) {
        int k0 = b * kb, kn = kb < K - k0 ? kb : K - k0;
        for (int i = 0; i < m; i++) {
            float out[MX_MAXE];
            uint8_t slow[MX_MAXE];
            int nslow = 0;
#if WS_MX_AVX2
            if (single && n % 8 == 0 && mx_avx2())
                nslow = row_single_avx2(n, k0, kn, ea[i], ga[i], eb, gb, spa[i][b], spb[b], acc[i], out, slow);
            else
#endif
            {
                int16_t E[MX_MAXE];
                double sc[MX_MAXE], T[MX_MAXE];
                float sc1[MX_MAXE];
                int32_t T1[MX_MAXE];
                int32_t tc[MX_MAXE], u[MX_MAXE];
                for (int j = 0; j < n; j++) E[j] = 2 * MX_ENONE;
                for (int k = k0; k < k0 + kn; k++) {
                    int16_t a = ea[i][k];
                    const int16_t *restrict e = eb[k];
                    for (int j = 0; j < n; j++) {
                        int16_t s = (int16_t)(a + e[j]);
                        E[j] = s > E[j] ? s : E[j];
                    }
                }
                for (int j = 0; j < n; j++) {   /* branch-free: vectorised */
                    uint32_t cb = (uint32_t)bits_f32(acc[i][j]), cf = (cb >> 23) & 255;
                    int32_t ev = E[j] > MX_EVALID ? E[j] : 2 * MX_ENONE;
                    int32_t ec = (cb & 0x7fffffffu) ? (cf ? (int32_t)cf - 127 : -126) : 2 * MX_ENONE;
                    int32_t e = ev > ec ? ev : ec;
                    /* the float path also needs 2^(emax-25) above the largest subnormal product */
                    uint8_t sl = (uint8_t)(spa[i][b] | spb[b][j] | (cf == 255) | (e <= MX_EVALID) | (single & (e < -100)));
                    slow[j] = sl;
                    nslow += sl;
                    u[j] = sl ? 0 : e - 25;
                    sc[j] = sl ? 0.0 : f64_pow2(-u[j]);             /* -u within [-229, 277] */
                    sc1[j] = single && !sl ? f32_of((uint32_t)(127 - u[j]) << 23) : 0.0f;   /* -u below 126 when single */
                    tc[j] = (int32_t)((sl ? 0.0 : (double)acc[i][j]) * sc[j]);   /* c below 2^26 units of 2^u (an infinite
                                                                                 * c's output is slow: not converted) */
                    T[j] = 0.0;
                    T1[j] = 0;
                }
                if (single)
                    for (int k = k0; k < k0 + kn; k++) {
                        float a = ga[i][k];
                        const float *restrict g = gb[k];
                        for (int j = 0; j < n; j++) T1[j] += (int32_t)(a * g[j] * sc1[j]);
                    }
                else
                    for (int k = k0; k < k0 + kn; k++) {
                        double a = ga[i][k];
                        const float *restrict g = gb[k];
                        for (int j = 0; j < n; j++) T[j] += (double)(int32_t)(a * (double)g[j] * sc[j]);
                    }
                for (int j = 0; j < n; j++)   /* the sum (below 2^32 units) rounded toward zero */
                    out[j] = rz_f32(((double)tc[j] + (single ? (double)T1[j] : T[j])) * f64_pow2(u[j]));
            }
            for (int j = 0; j < n; j++)
                acc[i][j] = nslow && slow[j] ? block_slow(x, M, i, j, k0, kn, acc[i][j]) : out[j];
        }
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            MC(M, i, j) = x->dtype == WS_MT_F16 ? ws_float_to_half(acc[i][j], WS_R_RN) : bits_f32(acc[i][j]);
}

/* D = A*B + C in f64: one fma per k, in order */
static void mma_f64(const ws_mma *x, mx_mats *M)
{
    for (int i = 0; i < x->m; i++)
        for (int j = 0; j < x->n; j++) {
            double acc = f64_of(MC(M, i, j));
            for (int k = 0; k < x->k; k++) acc = fma(f64_of(MA(M, i, k)), f64_of(MB(M, k, j)), acc);
            MC(M, i, j) = bits_f64(acc);
        }
}

/* sign-extend an integer input element */
static inline int64_t in_int(uint64_t v, int t)
{
    switch (t) {
    case WS_MT_S8: return (int8_t)(uint8_t)v;
    case WS_MT_S4: return (int64_t)((v & 8) ? (int64_t)(v & 15) - 16 : (int64_t)(v & 15));
    default: return (int64_t)v;
    }
}

/* D = A*B + C for integers (exact, then wrapped or saturated to s32); b1: popc of xor/and */
static void mma_int(const ws_mma *x, mx_mats *M)
{
    for (int i = 0; i < x->m; i++)
        for (int j = 0; j < x->n; j++) {
            int64_t s = (int32_t)(uint32_t)MC(M, i, j);
            for (int k = 0; k < x->k; k++) {
                if (x->atype == WS_MT_B1) s += x->bop ? (MA(M, i, k) & MB(M, k, j) & 1) : ((MA(M, i, k) ^ MB(M, k, j)) & 1);
                else s += in_int(MA(M, i, k), x->atype) * in_int(MB(M, k, j), x->btype);
            }
            if (x->satf) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
            MC(M, i, j) = (uint32_t)(int32_t)(uint32_t)(uint64_t)s;
        }
}

/* compute D from the gathered A, B, C by the types */
static void mma_compute(const ws_mma *x, mx_mats *M, int kb)
{
    if (x->atype == WS_MT_F64) mma_f64(x, M);
    else if (x->ctype == WS_MT_S32) mma_int(x, M);
    else if (x->k > MX_FK) mma_float_ref(x, M, kb);
    else mma_float(x, M, kb);
}

/* C (floats, m x n, row stride ldc) += A (bits of type at, m x k, row stride lda) times B (bits of type bt, given by
 * columns: element (k, c) at B[c * ldb + k]), each output's sum formed as the H200's tensor cores form it in blocks
 * of kb (mma_float); m, n and k at most 32. For wgmma (ops_wgmma.c), by tiles. */
void ws_mx_tile(int at, int bt, const uint64_t *A, int lda, const uint64_t *B, int ldb, float *C, int ldc, int m,
                int n, int k, int kb)
{
    static _Thread_local mx_mats mats;
    mx_mats *M = &mats;
    __asm__("" : "+r"(M));   /* see h_mma */
    ws_mma xx = { 0 };
    const ws_mma *x = &xx;
    xx.kind = WS_MX_MMA; xx.m = (uint8_t)m; xx.n = (uint16_t)n; xx.k = (uint16_t)k;
    xx.atype = (uint8_t)at; xx.btype = (uint8_t)bt; xx.ctype = xx.dtype = WS_MT_F32;
    for (int i = 0; i < m; i++)
        for (int kk = 0; kk < k; kk++) MA(M, i, kk) = A[i * lda + kk];
    for (int kk = 0; kk < k; kk++)
        for (int j = 0; j < n; j++) MB(M, kk, j) = B[j * ldb + kk];
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) MC(M, i, j) = bits_f32(C[i * ldc + j]);
    mma_compute(x, M, kb);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) C[i * ldc + j] = f32_of(MC(M, i, j));
}


/* a random element of type t: random bits (specials and subnormals included) for style 0, else a value whose
 * exponent lies within 3 (style 1) or 40 (style 2) of zero, or between -130 and -100 (style 3: products in
 * single precision's subnormal range) */
static uint64_t st_elem(uint64_t *rng, int t, int style)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t r = (uint32_t)(*rng >> 33);
    int eb = mt_bits(t);
    if (style == 0) return eb >= 32 ? r : r & ((1u << eb) - 1u);
    float f = (float)(int32_t)(r & 0xfffff) / (float)(1 << 19) - 1.0f;       /* in [-1, 1) */
    static const int span[4] = { 1, 4, 41, 31 }, low[4] = { 0, 0, -20, -130 };
    f = ldexpf(f, (int)(r >> 20) % span[style] + low[style]);
    switch (t) {
    case WS_MT_F16: return ws_float_to_half(f, WS_R_RN);
    case WS_MT_BF16: return (uint32_t)bits_f32(f) >> 16;
    case WS_MT_E4M3: case WS_MT_E5M2: return r & 0xff;
    default: return (uint32_t)bits_f32(f);
    }
}

/* Compare mma_float with the per-output reference mma_float_ref on rounds random operand sets of every float
 * shape (the reference is the one checked bit for bit against the H200); 0 when they agree, else -1 with the
 * first difference in err. */
int ws_mx_selftest(unsigned seed, int rounds, char *err, size_t errlen)
{
    static const struct { uint8_t kind, m, n, k, at, ct, dt, kb; } cfg[] = {
        { WS_MX_WMMA, 16, 16, 16, WS_MT_F16, WS_MT_F32, WS_MT_F32, 16 },
        { WS_MX_WMMA, 16, 16, 16, WS_MT_F16, WS_MT_F16, WS_MT_F16, 16 },
        { WS_MX_WMMA, 32, 8, 16, WS_MT_BF16, WS_MT_F32, WS_MT_F32, 16 },
        { WS_MX_WMMA, 8, 32, 16, WS_MT_F16, WS_MT_F16, WS_MT_F32, 16 },
        { WS_MX_WMMA, 16, 16, 8, WS_MT_TF32, WS_MT_F32, WS_MT_F32, 4 },
        { WS_MX_MMA, 16, 8, 16, WS_MT_BF16, WS_MT_F32, WS_MT_F32, 16 },
        { WS_MX_MMA, 16, 8, 8, WS_MT_TF32, WS_MT_F32, WS_MT_F32, 8 },
        { WS_MX_MMA, 16, 8, 32, WS_MT_E4M3, WS_MT_F32, WS_MT_F32, 32 },
        { WS_MX_MMA, 16, 8, 32, WS_MT_E5M2, WS_MT_F32, WS_MT_F32, 32 },
    };
    mx_mats *M = malloc(sizeof *M), *R = malloc(sizeof *R);
    if (!M || !R) abort();
    uint64_t rng = seed;
    int bad = 0;
    for (int round = 0; round < rounds && !bad; round++)
        for (size_t c = 0; c < sizeof cfg / sizeof *cfg && !bad; c++) {
            ws_mma xx = { 0 };
            const ws_mma *x = &xx;
            xx.kind = cfg[c].kind; xx.m = cfg[c].m; xx.n = cfg[c].n; xx.k = cfg[c].k;
            xx.atype = xx.btype = cfg[c].at; xx.ctype = cfg[c].ct; xx.dtype = cfg[c].dt;
            int sa = round % 4, sb = (round / 4) % 4, sc = (round / 16) % 3;
            for (int i = 0; i < x->m * x->k; i++) M->a[i] = st_elem(&rng, x->atype, sa);
            for (int i = 0; i < x->k * x->n; i++) M->b[i] = st_elem(&rng, x->btype, sb);
            for (int i = 0; i < x->m * x->n; i++) M->c[i] = st_elem(&rng, x->ctype, sc);
            if (round % 5 == 4)   /* c cancelling most of the sum */
                for (int i = 0; i < x->m; i++) for (int j = 0; j < x->n; j++) {
                    double sum = 0;
                    for (int k = 0; k < x->k; k++)
                        sum += (double)in_float(MA(M, i, k), x->atype) * (double)in_float(MB(M, k, j), x->btype);
                    float cf = (float)-sum;
                    MC(M, i, j) = x->ctype == WS_MT_F16 ? ws_float_to_half(cf, WS_R_RN) : bits_f32(cf);
                }
            *R = *M;
            mma_float_ref(x, R, cfg[c].kb);
            mma_float(x, M, cfg[c].kb);
            for (int i = 0; i < x->m * x->n && !bad; i++)
                if (R->c[i] != M->c[i]) {
                    snprintf(err, errlen, "config %zu (m%dn%dk%d, types %d/%d/%d) round %d, output (%d, %d): reference "
                             "0x%llx, fast 0x%llx", c, x->m, x->n, x->k, x->atype, x->ctype, x->dtype, round,
                             i / x->n, i % x->n, (unsigned long long)R->c[i], (unsigned long long)M->c[i]);
                    bad = 1;
                }
        }
    free(M);
    free(R);
    return bad ? -1 : 0;
}

/* the lanes' whole-warp view: wmma and mma need every lane */
static int need_full(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    if (mask == w->full) return 1;
    ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "%s executed by a partial warp (mask 0x%08x): it needs all lanes",
             ws_opcode_name(in->op), mask);
    return 0;
}

/* sub-byte wmma fragments (u4/s4 m8n8k32, b1 m8n8k128): one word per lane, row (a) or column (b) l/4, elements
 * (l%4) * (32/bits) onwards, as the H200 loads them */
static inline void sub_rc(int eb, int use, int l, int i, int *r, int *c)
{
    int per = 32 / eb;
    int kk = (l & 3) * per + i;
    if (use == 0) { *r = l >> 2; *c = kk; } else { *r = kk; *c = l >> 2; }
}

/* ---- operand maps: where each fragment element lives ---- */

/* how a map's elements are placed: mma.sync's ISA figures, wmma.mma's operands (sub-byte shapes by their own rule)
 * or wmma.load/store's measured layouts */
enum mx_form { MX_FORM_MMA, MX_FORM_WMMA, MX_FORM_LDST };

/* one element of a fragment, in lane-major order (lane l's element i at l * nel + i): its register in the list
 * (q), its bit offset in that register (sh) and its matrix position (r, c) */
typedef struct mx_elem { uint8_t q, sh, r, c, l; } mx_elem;

/* the elements of one operand of a shape, built once and kept (mx_map_of) */
typedef struct mx_map {
    uint8_t form, use, m, type;   /* the key: enum mx_form, operand (0 a, 1 b, 2 c, 3 d), shape and type */
    uint16_t n, k;
    uint16_t nel;                 /* elements per lane */
    uint8_t eb;                   /* bits per element */
    uint16_t nu;                  /* distinct matrix positions */
    uint8_t words[2];             /* each register's elements lie side by side along a row [0] / a column [1] */
    uint16_t *gd, *gs;            /* nu: each position's first copy as a gather moves it: index in the operand's
                                   * matrix (row length k for a, n for b and c) and q * WS_LANES + l */
    mx_elem *u;                   /* nu: each position's first copy (with its lane l), for gathers */
    mx_elem e[];                  /* 32 * nel */
} mx_map;

#define MX_MAXMAPS 512   /* above every (form, operand, shape, type) there is: about 41 layouts x 4 operands x 2 forms */
static mx_map *g_maps[MX_MAXMAPS];
static _Atomic int g_nmaps;
static pthread_mutex_t g_maps_lock = PTHREAD_MUTEX_INITIALIZER;

/* the elements per lane of operand use (0 a, 1 b, 2 c, 3 d; type t) of x and, for the measured wmma layouts, the layout's decoded
 * (row, col) pairs; -1 when the H200 has no layout for it */
static int elem_count(const ws_mma *x, int form, int use, int t, const uint8_t **rc)
{
    int wm = form != MX_FORM_MMA, sub = form == MX_FORM_WMMA && mt_bits(x->atype) < 8, eb = mt_bits(t);
    *rc = NULL;
    if (wm && !sub) {
        const ws_mx_layout *L = wmma_layout(use < 2 ? use : 2, x, t);
        if (!L) return -1;
        *rc = layout_rc(L);
        return L->nel;
    }
    int n = use == 0 ? x->na : use == 1 ? x->nb : use == 2 ? x->nc : x->nd;
    return n * (eb == 64 ? 1 : 32 / eb);
}

/* (row, col) of element i of lane l of operand use (type t; 3: d, laid out as c) */
static void elem_rc(const ws_mma *x, int form, int use, int t, const uint8_t *rc, int nel, int l, int i, int *r,
                    int *c)
{
    int sub = form == MX_FORM_WMMA && mt_bits(x->atype) < 8;
    if (use == 3) use = 2;
    if (rc) { *r = rc[2 * (l * nel + i)]; *c = rc[2 * (l * nel + i) + 1]; }
    else if (sub) {
        if (use == 2) { *r = l >> 2; *c = 2 * (l & 3) + i; } else sub_rc(mt_bits(t), use, l, i, r, c);
    } else mma_rc(x, use, t, l, i, r, c);
}

/* build the map of operand use (0 a, 1 b, 2 c, 3 d) of x; NULL when there is no layout */
static mx_map *map_build(const ws_mma *x, int form, int use, int t)
{
    const uint8_t *rc;
    int nel = elem_count(x, form, use, t, &rc), eb = mt_bits(t);
    if (nel <= 0) return NULL;
    mx_map *M = calloc(1, sizeof *M + sizeof(mx_elem) * 64 * (size_t)nel);
    uint8_t *seen = calloc(256 * 256, 1);
    if (!M || !seen) abort();
    M->u = M->e + 32 * nel;
    M->form = (uint8_t)form; M->use = (uint8_t)use; M->m = x->m; M->n = x->n; M->k = x->k; M->type = (uint8_t)t;
    M->nel = (uint16_t)nel; M->eb = (uint8_t)eb;
    int per = eb == 64 ? 1 : 32 / eb;
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < nel; i++) {
            int r, c;
            elem_rc(x, form, use, t, rc, nel, l, i, &r, &c);
            mx_elem *e = &M->e[l * nel + i];
            e->q = (uint8_t)(i / per); e->sh = (uint8_t)(eb >= 32 ? 0 : eb * (i % per));
            e->r = (uint8_t)r; e->c = (uint8_t)c; e->l = (uint8_t)l;
            if (!seen[r * 256 + c]) { seen[r * 256 + c] = 1; M->u[M->nu++] = *e; }
        }
    free(seen);
    M->gd = malloc(sizeof *M->gd * 2 * (size_t)M->nu);
    if (!M->gd) abort();
    M->gs = M->gd + M->nu;
    for (int i = 0; i < M->nu; i++) {
        const mx_elem *e = &M->u[i];
        M->gd[i] = (uint16_t)(e->r * (use == 0 ? x->k : x->n) + e->c);
        M->gs[i] = (uint16_t)(e->q * WS_LANES + e->l);
    }
    M->words[0] = M->words[1] = eb < 32 && nel % per == 0;
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < nel; i++) {
            const mx_elem *e = &M->e[l * nel + i], *f = &M->e[l * nel + i - i % per];   /* f: the register's first */
            int k = i % per;
            if (e->r != f->r || e->c != f->c + k) M->words[0] = 0;
            if (e->c != f->c || e->r != f->r + k) M->words[1] = 0;
        }
    return M;
}

/* the kept map among the first n that matches x's operand use of type t, or NULL */
static const mx_map *map_find(const ws_mma *x, int form, int use, int t, int n)
{
    for (int i = 0; i < n; i++) {
        const mx_map *M = g_maps[i];
        if (M->form == form && M->use == use && M->m == x->m && M->n == x->n && M->k == x->k && M->type == t)
            return M;
    }
    return NULL;
}

/* the kept map of operand use of x (type t), built on first use; NULL when there is no layout */
static const mx_map *map_of(const ws_mma *x, int form, int use, int t)
{
    const mx_map *M = map_find(x, form, use, t, atomic_load_explicit(&g_nmaps, memory_order_acquire));
    if (M) return M;
    pthread_mutex_lock(&g_maps_lock);
    int n = atomic_load_explicit(&g_nmaps, memory_order_relaxed);
    if (!(M = map_find(x, form, use, t, n)) && n == MX_MAXMAPS) {
        fprintf(stderr, "warpsim: internal limit: more than %d tensor operand maps\n", MX_MAXMAPS);
        abort();
    }
    if (!M && (g_maps[n] = map_build(x, form, use, t)) != NULL) {
        M = g_maps[n];
        atomic_store_explicit(&g_nmaps, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&g_maps_lock);
    return M;
}

/* gather operand P into dst (row stride rs) from the register list regs: an element held twice (f16 a/b of the k16
 * wmma shapes) from its first copy */
static void gather_map(ws_warp *w, const int32_t *regs, const mx_map *P, uint64_t *dst)
{
    uint64_t flat[8 * WS_LANES];   /* the operand's registers side by side */
    int nq = P->e[P->nel - 1].q + 1;
    for (int q = 0; q < nq; q++) memcpy(&flat[q * WS_LANES], &RG(regs[q], 0), sizeof(uint64_t) * WS_LANES);
    const uint16_t *gd = P->gd, *gs = P->gs;
    int nu = P->nu;
    if (P->eb >= 64)
        for (int i = 0; i < nu; i++) dst[gd[i]] = flat[gs[i]];
    else {
        uint64_t m = (1ull << P->eb) - 1;
        const mx_elem *u = P->u;
        for (int i = 0; i < nu; i++) dst[gd[i]] = (flat[gs[i]] >> u[i].sh) & m;
    }
}

/* scatter D (row stride rs) to the register list regs by its map P */
static void scatter_map(ws_warp *w, const int32_t *regs, const mx_map *P, const uint64_t *src, int rs)
{
    if (regs[0] < WS_SR_COUNT && regs[0] == WS_SR_SINK) return;
    int nel = P->nel, eb = P->eb;
    uint64_t *rp[8];
    int nq = P->e[nel - 1].q + 1;
    for (int q = 0; q < nq; q++) rp[q] = &RG(regs[q], 0);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < nel; i++) {
            const mx_elem *e = &P->e[l * nel + i];
            uint64_t v = src[e->r * rs + e->c];
            if (eb == 64) rp[e->q][l] = v;
            else if (eb == 32) rp[e->q][l] = (uint32_t)v;
            else {
                uint32_t m = ((1u << eb) - 1u) << e->sh, old = (uint32_t)rp[e->q][l];
                rp[e->q][l] = (old & ~m) | (((uint32_t)v << e->sh) & m);
            }
        }
}

/* gather A, B, C of wmma.mma (kind WMMA) or mma.sync (MMA) from the lanes' registers */
static int gather(ws_warp *w, const ws_insn *in, mx_mats *M)
{
    const ws_mma *x = in->mma;
    int form = x->kind == WS_MX_WMMA ? MX_FORM_WMMA : MX_FORM_MMA;
    const mx_map *Pa = map_of(x, form, 0, x->atype), *Pb = map_of(x, form, 1, x->btype), *Pc = map_of(x, form, 2, x->ctype);
    if (Pa && Pb && Pc) {
        gather_map(w, x->a, Pa, M->a);   /* rows of k */
        gather_map(w, x->b, Pb, M->b);   /* rows of n */
        gather_map(w, x->c, Pc, M->c);
        return 0;
    }
    ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "%s: no fragment layout for this shape and type", ws_opcode_name(in->op));
    return -1;
}

/* scatter D to the lanes' registers */
static void scatter(ws_warp *w, const ws_insn *in, mx_mats *M)
{
    const ws_mma *x = in->mma;
    const mx_map *Pd = map_of(x, x->kind == WS_MX_WMMA ? MX_FORM_WMMA : MX_FORM_MMA, 3, x->dtype);
    if (Pd) scatter_map(w, x->d, Pd, M->c, x->n);   /* (gather found the layouts) */
}

/* wmma.mma and mma.sync */
static void h_mma(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    if (!need_full(w, in, mask)) return;
    static _Thread_local mx_mats mats;
    mx_mats *M = &mats;
    __asm__("" : "+r"(M));   /* an opaque pointer: else the compiler fetches the thread-local address per element */
    if (gather(w, in, M) == 0) {
        const ws_mma *x = in->mma;
        int kb = x->k;
        if (x->kind == WS_MX_WMMA && x->k == 16 && mt_bits(x->atype) == 16) kb = 16;
        if (x->atype == WS_MT_TF32) kb = x->kind == WS_MX_WMMA ? 4 : x->k;   /* wmma m16n16k8: blocks of 4 */
        mma_compute(x, M, kb);
        scatter(w, in, M);
    }
}

/* ---- memory access of the matrix loads and stores ---- */

/* host pointer for an address of lane l in space sp; faults the warp when invalid or misaligned */
static uint8_t *mx_ptr(ws_warp *w, const ws_insn *in, int sp, uint64_t a, unsigned size, int l)
{
    uint8_t *p = NULL;
    if (sp == WS_S_SHARED) {
        if (a + size <= w->blk->smem_size && a + size >= a) p = w->blk->smem + a;
    } else {
        uint64_t off = a - w->L->gbase;
        if (off < w->L->glimit && off + size <= w->L->glimit) p = w->L->gstore + off;
        else p = ws_xlate_slow(w, a, size, l);
    }
    if (!p) {
        ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "invalid %s access of size %u at address 0x%llx by %s in block (%u,%u,%u)",
                 sp == WS_S_SHARED ? "shared" : "global", size, (unsigned long long)a, ws_opcode_name(in->op),
                 w->blk->id.x, w->blk->id.y, w->blk->id.z);
        return NULL;
    }
    if (size > 1 && (a & (size - 1))) {
        ws_fault(w, in, WS_ERR_MISALIGNED_ADDRESS, "misaligned %s access of size %u at address 0x%llx by %s",
                 sp == WS_S_SHARED ? "shared" : "global", size, (unsigned long long)a, ws_opcode_name(in->op));
        return NULL;
    }
    return p;
}

/* rows and columns of the matrix a wmma.load/store moves */
static void wmma_dims(const ws_mma *x, int use, int *rows, int *cols)
{
    *rows = use == 1 ? x->k : x->m;
    *cols = use == 0 ? x->k : x->n;
}

/* wmma.load/store of a matrix that lies whole in shared memory or in the global window (the usual case), by the
 * operand's map; 0 (nothing done) otherwise, for h_wmma_ldst's element by element path and its faults */
static int ldst_fast(ws_warp *w, const ws_insn *in, const mx_map *P, uint64_t base, uint64_t ld, int col, int rows,
                     int cols, const int32_t *regs)
{
    const ws_mma *x = in->mma;
    if (!P || (regs[0] < WS_SR_COUNT && regs[0] == WS_SR_SINK) || ld > (1u << 24)) return 0;
    unsigned es = P->eb / 8u;
    uint64_t last = col ? (uint64_t)(cols - 1) * ld + (uint64_t)(rows - 1) : (uint64_t)(rows - 1) * ld + (uint64_t)(cols - 1);
    uint64_t bytes = (last + 1) * es;
    uint8_t *p;
    if (base & (es - 1)) return 0;
    if (x->space == WS_S_SHARED) {
        if (base >= w->blk->smem_size || bytes > w->blk->smem_size - base) return 0;
        p = w->blk->smem + base;
    } else {
        uint64_t off = base - w->L->gbase;
        if (off >= w->L->glimit || bytes > w->L->glimit - off) return 0;
        p = w->L->gstore + off;
    }
    uint64_t *rp[8];
    int nel = P->nel, nq = P->e[nel - 1].q + 1, store = x->kind == WS_MX_STORE_D;
    if (P->eb < 32 && nel * P->eb != nq * 32) return 0;   /* a register part filled: keep its other bits */
    uint64_t rs = col ? 1 : ld, cs = col ? ld : 1;   /* element strides of a row and of a column step */
    for (int q = 0; q < nq; q++) rp[q] = &RG(regs[q], 0);
    const mx_elem *e = P->e;
    if (es < 4 && P->words[col]) {   /* whole registers: one 32-bit word each */
        int per = 32 / P->eb;
        for (int l = 0; l < 32; l++, e += nel)
            for (int q = 0; q < nq; q++) {
                uint8_t *ep = p + (e[q * per].r * rs + e[q * per].c * cs) * es;
                uint32_t v;
                if (store) { v = (uint32_t)rp[q][l]; memcpy(ep, &v, 4); }
                else { memcpy(&v, ep, 4); rp[q][l] = v; }
            }
        return 1;
    }
    for (int l = 0; l < 32; l++, e += nel) {
        if (es >= 4)
            for (int i = 0; i < nel; i++) {
                uint8_t *ep = p + (e[i].r * rs + e[i].c * cs) * es;
                uint64_t *r = &rp[e[i].q][l];
                if (es == 8) { if (store) memcpy(ep, r, 8); else memcpy(r, ep, 8); }
                else if (store) { uint32_t v = (uint32_t)*r; memcpy(ep, &v, 4); }
                else { uint32_t v; memcpy(&v, ep, 4); *r = v; }
            }
        else if (store)
            for (int i = 0; i < nel; i++) {
                uint32_t v = (uint32_t)rp[e[i].q][l] >> e[i].sh;
                uint8_t *ep = p + (e[i].r * rs + e[i].c * cs) * es;
                if (es == 2) { uint16_t h = (uint16_t)v; memcpy(ep, &h, 2); } else *ep = (uint8_t)v;
            }
        else {
            /* every element of a register is loaded: assemble the words, then write them */
            uint32_t word[8] = { 0 };
            for (int i = 0; i < nel; i++) {
                const uint8_t *ep = p + (e[i].r * rs + e[i].c * cs) * es;
                uint32_t v;
                if (es == 2) { uint16_t h; memcpy(&h, ep, 2); v = h; } else v = *ep;
                word[e[i].q] |= v << e[i].sh;
            }
            for (int q = 0; q < nq; q++) rp[q][l] = word[q];
        }
    }
    return 1;
}

/* wmma.load.{a,b,c} and wmma.store.d */
static void h_wmma_ldst(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    if (!need_full(w, in, mask)) return;
    const ws_mma *x = in->mma;
    int store = x->kind == WS_MX_STORE_D;
    int use = x->kind == WS_MX_LOAD_A ? 0 : x->kind == WS_MX_LOAD_B ? 1 : 2;
    int t = store ? x->dtype : use == 0 ? x->atype : use == 1 ? x->btype : x->ctype, eb = mt_bits(t);
    int rows, cols;
    wmma_dims(x, use, &rows, &cols);
    int col = x->alayout;
    const int32_t *regs = store ? x->d : x->a;
    int l0 = __builtin_ctz(mask);
    uint64_t base = in->base >= 0 ? RG(in->base, l0) + (uint64_t)in->imm : (uint64_t)in->imm;
    uint64_t ld = x->stride >= 0 ? (uint32_t)RG(x->stride, l0) : (uint64_t)(col ? rows : cols);
    if (eb < 8) {
        /* sub-byte a/b: one 32-bit word per lane */
        for (int l = 0; l < 32; l++) {
            int r, c;
            sub_rc(eb, use, l, 0, &r, &c);
            uint64_t bit = ((uint64_t)(use == 0 ? r : c) * ld + (uint64_t)(use == 0 ? c : r)) * (uint64_t)eb;
            uint8_t *p = mx_ptr(w, in, x->space, base + bit / 8, 4, l);
            if (!p) return;
            uint32_t v;
            memcpy(&v, p, 4);
            RG(regs[0], l) = v;
        }
        return;
    }
    const ws_mx_layout *L = wmma_layout(use, x, t);
    if (!L) { ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "%s: no fragment layout for this shape and type", ws_opcode_name(in->op)); return; }
    unsigned es = (unsigned)eb / 8;
    if (ldst_fast(w, in, map_of(x, MX_FORM_LDST, use, t), base, ld, col, rows, cols, regs)) return;
    const uint8_t *rc = layout_rc(L);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < L->nel; i++) {
            int r = rc[2 * (l * L->nel + i)], c = rc[2 * (l * L->nel + i) + 1];
            uint64_t idx = col ? (uint64_t)c * ld + (uint64_t)r : (uint64_t)r * ld + (uint64_t)c;
            uint8_t *p = mx_ptr(w, in, x->space, base + idx * es, es, l);
            if (!p) return;
            if (store) {
                uint64_t v = frag_get(w, regs, eb, i, l);
                memcpy(p, &v, es);
            } else {
                uint64_t v = 0;
                memcpy(&v, p, es);
                frag_set(w, regs, eb, i, l, v);
            }
        }
}

/* Address and size of element i of lane l of a wmma.load/store (for the checkers); 0 past the last element. */
unsigned ws_mma_elem_addr(ws_warp *w, const ws_insn *in, int l, int i, uint64_t *addr)
{
    if (!WS_OP_IS_TENSOR(in->op) || !in->mma) return 0;
    const ws_mma *x = in->mma;
    if (x->kind != WS_MX_LOAD_A && x->kind != WS_MX_LOAD_B && x->kind != WS_MX_LOAD_C && x->kind != WS_MX_STORE_D) return 0;
    int store = x->kind == WS_MX_STORE_D;
    int use = x->kind == WS_MX_LOAD_A ? 0 : x->kind == WS_MX_LOAD_B ? 1 : 2;
    int t = store ? x->dtype : use == 0 ? x->atype : use == 1 ? x->btype : x->ctype, eb = mt_bits(t);
    int rows, cols, col = x->alayout, l0 = 0;
    wmma_dims(x, use, &rows, &cols);
    uint64_t base = in->base >= 0 ? RG(in->base, l0) + (uint64_t)in->imm : (uint64_t)in->imm;
    uint64_t ld = x->stride >= 0 ? (uint32_t)RG(x->stride, l0) : (uint64_t)(col ? rows : cols);
    int r, c;
    if (eb < 8) {
        if (i > 0) return 0;
        sub_rc(eb, use, l, 0, &r, &c);
        *addr = base + ((uint64_t)(use == 0 ? r : c) * ld + (uint64_t)(use == 0 ? c : r)) * (uint64_t)eb / 8;
        return 4;
    }
    const ws_mx_layout *L = wmma_layout(use, x, t);
    if (!L || i >= L->nel) return 0;
    r = layout_rc(L)[2 * (l * L->nel + i)];
    c = layout_rc(L)[2 * (l * L->nel + i) + 1];
    *addr = base + (col ? (uint64_t)c * ld + (uint64_t)r : (uint64_t)r * ld + (uint64_t)c) * (uint64_t)(eb / 8);
    return (unsigned)eb / 8;
}

/* The space of a wmma operand address a of warp w (explicit, or a generic address resolved), *a made an offset
 * into it. */
static int mx_space(ws_warp *w, int space, uint64_t *a)
{
    if (space == WS_S_SHARED || space == WS_S_GLOBAL) return space;
    uint64_t o;
    int sp = ws_resolve_generic(w, *a, &o);
    *a = o;
    return sp;
}

/* Append an ldmatrix-style access of the n 16-byte rows at rows[] to out[*k] (room permitting). */
static void mx_row_access(ws_mx_access *out, int *k, const uint64_t *rows, int n, int space)
{
    if (!n || *k == WS_MX_MAX_ACCESSES) return;
    ws_mx_access *m = &out[(*k)++];
    memcpy(m->addr, rows, sizeof *rows * (size_t)n);
    m->mask = n == 32 ? 0xffffffffu : (1u << n) - 1;
    m->space = (uint8_t)space;
    m->size = 16;
}

/* ldmatrix-style accesses of the distinct 16-byte rows the lanes' elements fall in (a[l][i], n per lane), eight
 * rows an access, rows taken in element order; returns the number of accesses written to out. */
static int mx_rows(const uint64_t a[32][32], int n, int space, ws_mx_access *out)
{
    static _Thread_local uint64_t seen[32 * 32];
    uint64_t pend[8];
    int nseen = 0, npend = 0, k = 0;
    for (int i = 0; i < n; i++)
        for (int l = 0; l < 32; l++) {
            uint64_t row = a[l][i] & ~15ull;
            int j = 0;
            while (j < nseen && seen[j] != row) j++;
            if (j < nseen) continue;
            seen[nseen++] = row;
            pend[npend++] = row;
            if (npend == 8) { mx_row_access(out, &k, pend, npend, space); npend = 0; }
        }
    mx_row_access(out, &k, pend, npend, space);
    return k;
}

/* The accesses of a wmma.load / wmma.store (see observe.h). */
int ws_mma_accesses(ws_warp *w, const ws_insn *in, ws_mx_access *out)
{
    if ((in->op != WS_OP_WMMA_LOAD && in->op != WS_OP_WMMA_STORE) || !in->mma) return 0;
    static _Thread_local uint64_t a[32][32];
    int n = 0, space = WS_S_GLOBAL;
    unsigned es = 0;
    for (int l = 0; l < 32; l++) {
        int m = 0;
        uint64_t e;
        unsigned sz;
        for (int i = 0; i < 32 && (sz = ws_mma_elem_addr(w, in, l, i, &e)) != 0; i++) {
            space = mx_space(w, in->mma->space, &e);
            int dup = 0;
            for (int j = 0; j < m && !dup; j++) dup = a[l][j] == e;   /* sm_70's f16 fragments hold each twice */
            if (!dup) a[l][m++] = e;
            es = sz;
        }
        n = m;
    }
    if (!n || (space != WS_S_SHARED && space != WS_S_GLOBAL)) return 0;
    int contiguous4 = es == 1 && n % 4 == 0;   /* bytes of a register next to each other in memory */
    for (int i = 0; contiguous4 && i < n; i++) contiguous4 = a[0][i] == a[0][i - i % 4] + (uint64_t)(i % 4);
    if (space == WS_S_SHARED && in->op == WS_OP_WMMA_LOAD && (es == 2 || contiguous4)) return mx_rows(a, n, space, out);
    /* chunks of lane 0's elements contiguous in memory, aligned to their size (the same for every lane) */
    int k = 0;
    for (int i = 0; i < n && k < WS_MX_MAX_ACCESSES;) {
        unsigned size = es;
        int j = i + 1;
        while (j < n && a[0][j] == a[0][i] + size && size + es <= 16 && a[0][i] % (size + es) == 0) size += es, j++;
        ws_mx_access *m = &out[k++];
        for (int l = 0; l < 32; l++) m->addr[l] = a[l][i];
        m->mask = 0xffffffffu;
        m->space = (uint8_t)space;
        m->size = (uint8_t)size;
        i = j;
    }
    return k;
}

/* ldmatrix / stmatrix: 8x8 b16 matrices whose rows' addresses lanes 8j..8j+7 give */
static void h_ldstmatrix(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    if (!need_full(w, in, mask)) return;
    const ws_mma *x = in->mma;
    int st = x->kind == WS_MX_STMATRIX, nm = x->n;
    const int32_t *regs = st ? x->a : x->d;
    uint32_t out[4][32];
    uint8_t *rowp[32];
    for (int q = 0; q < nm * 8; q++) {
        uint64_t a = (in->base >= 0 ? RG(in->base, q) : 0) + (uint64_t)in->imm;
        if (!(rowp[q] = mx_ptr(w, in, x->space, a, 16, q))) return;
    }
    for (int j = 0; j < nm; j++)
        for (int l = 0; l < 32; l++) {
            int r = l >> 2, c = 2 * (l & 3);
            uint16_t h[2];
            for (int e = 0; e < 2; e++) {
                int rr = x->trans ? c + e : r, cc = x->trans ? r : c + e;
                uint8_t *p = rowp[j * 8 + rr] + 2 * cc;
                if (st) {
                    uint16_t v = (uint16_t)((uint32_t)RG(regs[j], l) >> (16 * e));
                    memcpy(p, &v, 2);
                } else memcpy(&h[e], p, 2);
            }
            if (!st) out[j][l] = h[0] | (uint32_t)h[1] << 16;
        }
    if (!st)
        for (int j = 0; j < nm; j++)
            for (int l = 0; l < 32; l++) RG(regs[j], l) = out[j][l];
}

/* movmatrix.sync.aligned.m8n8.trans.b16: transpose an 8x8 b16 matrix held one row per four lanes */
static void h_movmatrix(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    if (!need_full(w, in, mask)) return;
    const ws_mma *x = in->mma;
    uint16_t m[8][8];
    for (int l = 0; l < 32; l++) {
        uint32_t v = (uint32_t)RG(x->a[0], l);
        m[l >> 2][2 * (l & 3)] = (uint16_t)v;
        m[l >> 2][2 * (l & 3) + 1] = (uint16_t)(v >> 16);
    }
    for (int l = 0; l < 32; l++) {
        int r = l >> 2, c = 2 * (l & 3);
        RG(x->d[0], l) = m[c][r] | (uint32_t)m[c + 1][r] << 16;
    }
}

/* registers a fragment of nel elements of type t per lane takes */
static int frag_regs(int nel, int t)
{
    int eb = mt_bits(t);
    return eb == 64 ? nel : (nel * eb + 31) / 32;
}

/* whether the register lists of a wmma or mma instruction have the lengths its fragments need */
static int regs_ok(const ws_mma *x)
{
    int wm = x->kind != WS_MX_MMA;
    if (x->kind == WS_MX_LOAD_A || x->kind == WS_MX_LOAD_B || x->kind == WS_MX_LOAD_C || x->kind == WS_MX_STORE_D) {
        int use = x->kind == WS_MX_LOAD_A ? 0 : x->kind == WS_MX_LOAD_B ? 1 : 2;
        int t = x->kind == WS_MX_STORE_D ? x->dtype : use == 0 ? x->atype : use == 1 ? x->btype : x->ctype;
        int n = x->kind == WS_MX_STORE_D ? x->nd : x->na, eb = mt_bits(t);
        if (eb < 8) return n == 1;
        if (use == 2 && x->m == 8 && x->n == 8 && x->k != 4) return n == 2;   /* sub-byte shapes' s32 accumulators */
        const ws_mx_layout *L = wmma_layout(use, x, t);
        return L && n == frag_regs(L->nel, t);
    }
    int ea, eb, ec;
    if (wm && mt_bits(x->atype) < 8) { ea = eb = 1; ec = 2; }
    else if (wm) {
        const ws_mx_layout *La = wmma_layout(0, x, x->atype), *Lb = wmma_layout(1, x, x->btype), *Lc = wmma_layout(2, x, x->ctype);
        if (!La || !Lb || !Lc) return 0;
        ea = frag_regs(La->nel, x->atype); eb = frag_regs(Lb->nel, x->btype); ec = frag_regs(Lc->nel, x->ctype);
    } else {
        ea = frag_regs(x->m * x->k / 32, x->atype); eb = frag_regs(x->k * x->n / 32, x->btype);
        ec = frag_regs(x->m * x->n / 32, x->ctype);
    }
    int ed = wm && mt_bits(x->atype) < 8 ? 2 : (ec * mt_bits(x->dtype) + mt_bits(x->ctype) - 1) / mt_bits(x->ctype);
    if (mt_bits(x->dtype) == 64) ed = ec;
    return x->na == ea && x->nb == eb && x->nc == ec && x->nd == ed;
}

/* the handler of a tensor-core or matrix-move instruction; NULL for other instructions and for register lists
 * of the wrong length (a load error names the instruction) */
ws_handler ws_mma_handler(const ws_insn *in)
{
    if (!WS_OP_IS_TENSOR(in->op) || !in->mma) return NULL;
    if (in->mma->kind <= WS_MX_MMA && !regs_ok(in->mma)) return NULL;
    switch (in->mma->kind) {
    case WS_MX_LOAD_A: case WS_MX_LOAD_B: case WS_MX_LOAD_C: case WS_MX_STORE_D: return h_wmma_ldst;
    case WS_MX_WMMA: case WS_MX_MMA: return h_mma;
    case WS_MX_LDMATRIX: case WS_MX_STMATRIX: return h_ldstmatrix;
    case WS_MX_MOVMATRIX: return h_movmatrix;
    default: return NULL;
    }
}
