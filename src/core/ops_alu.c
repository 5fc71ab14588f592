/* ops_alu.c - handlers for arithmetic, logic, comparison, conversion and move instructions.
 * Each handler runs one warp instruction as a loop over lanes on structure-of-arrays registers. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include "ops.h"
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

/* ---------- half precision ---------- */
/* Convert IEEE binary16 bits to float. */
float ws_half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
    if (e == 0) {
        if (m == 0) u = s;
        else {
            e = 127 - 15 + 1;
            while (!(m & 0x400)) { m <<= 1; e--; }
            m &= 0x3ff;
            u = s | (e << 23) | (m << 13);
        }
    } else if (e == 31) u = s | 0x7f800000u | (m << 13);
    else u = s | ((e + 127 - 15) << 23) | (m << 13);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Convert float to IEEE binary16 bits with rounding rnd (nearest even unless RZ/RM/RP). */
uint16_t ws_float_to_half(float f, int rnd)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t s = (u >> 16) & 0x8000, e = (u >> 23) & 0xff, m = u & 0x7fffff;
    if (e == 0xff) return (uint16_t)(s | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
    int neg = s != 0;
    int32_t exp = (int32_t)e - 127 + 15;
    uint32_t mant = m | (e ? 0x800000u : 0);
    int shift;
    if (exp >= 31) {
        if (rnd == WS_R_RZ || (rnd == WS_R_RM && !neg) || (rnd == WS_R_RP && neg)) return (uint16_t)(s | 0x7bff);
        return (uint16_t)(s | 0x7c00);
    }
    if (exp <= 0) { shift = 14 - exp; exp = 0; } else shift = 13;
    if (shift > 31) { mant = mant ? 1 : 0; shift = 1; mant = 0; }
    uint32_t q = shift < 32 ? mant >> shift : 0;
    uint32_t rem = shift < 32 ? mant & ((1u << shift) - 1) : mant;
    uint32_t half = shift < 32 ? 1u << (shift - 1) : 0;
    int up;
    switch (rnd) {
    case WS_R_RZ: up = 0; break;
    case WS_R_RM: up = neg && rem; break;
    case WS_R_RP: up = !neg && rem; break;
    default: up = rem > half || (rem == half && (q & 1)); break;
    }
    q += (uint32_t)up;
    uint32_t r;
    if (exp == 0) r = q;  /* subnormal (may round up into the smallest normal) */
    else {
        if (q & 0x800) { q >>= 1; exp++; }
        if (exp >= 31) return (uint16_t)(s | 0x7c00);
        r = ((uint32_t)exp << 10) | (q & 0x3ff);
    }
    return (uint16_t)(s | r);
}

/* Convert bfloat16 bits to float. */
float ws_bf16_to_float(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Convert float to bfloat16 bits with rounding. */
uint16_t ws_float_to_bf16(float f, int rnd)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);
    uint32_t rem = u & 0xffff, neg = u >> 31;
    uint32_t q = u >> 16;
    int up;
    switch (rnd) {
    case WS_R_RZ: up = 0; break;
    case WS_R_RM: up = neg && rem; break;
    case WS_R_RP: up = !neg && rem; break;
    default: up = rem > 0x8000 || (rem == 0x8000 && (q & 1)); break;
    }
    return (uint16_t)(q + (uint32_t)up);
}

/* ---------- type classes ---------- */
enum { K_S, K_U, K_F, K_H, K_H2, K_B, K_B2, K_P };
/* Class of a type for handler selection. */
static int kind_of(int t)
{
    switch (t) {
    case WS_T_S8: case WS_T_S16: case WS_T_S32: case WS_T_S64: return K_S;
    case WS_T_F32: case WS_T_F64: return K_F;
    case WS_T_F16: return K_H;
    case WS_T_F16X2: return K_H2;
    case WS_T_BF16: return K_B;
    case WS_T_BF16X2: return K_B2;
    case WS_T_PRED: return K_P;
    default: return K_U;
    }
}

/* flush a subnormal float to a signed zero */
static inline float ftz32(float x) { return fabsf(x) < 1.17549435e-38f ? copysignf(0.0f, x) : x; }

/* ---------- integer binary operations, generated per width ---------- */
#define H_BIN(name, T, UT, expr) \
    WS_AVX2_PAIR(name, const int d = in->d[0], a = in->s[0], b = in->s[1]; \
        FOR_LANES(mask, { T x = (T)RG(a, l); T y = (T)RG(b, l); (void)y; RG(d, l) = (uint64_t)(UT)(expr); }))
#define H_UN(name, T, UT, expr) \
    WS_AVX2_PAIR(name, const int d = in->d[0], a = in->s[0]; \
        FOR_LANES(mask, { T x = (T)RG(a, l); RG(d, l) = (uint64_t)(UT)(expr); }))
#define H_TER(name, T, UT, expr) \
    WS_AVX2_PAIR(name, const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2]; \
        FOR_LANES(mask, { T x = (T)RG(a, l); T y = (T)RG(b, l); T z = (T)RG(c, l); (void)z; \
                          RG(d, l) = (uint64_t)(UT)(expr); }))

/* integer ops for one type T (unsigned twin UT, signed twin ST, width W, signedness SGN) */
#define INT_OPS(sfx, T, UT, ST, W, SGN) \
    H_BIN(h_add_##sfx, T, UT, (UT)x + (UT)y) \
    H_BIN(h_sub_##sfx, T, UT, (UT)x - (UT)y) \
    H_BIN(h_mul_##sfx, T, UT, (UT)((uint64_t)(UT)x * (uint64_t)(UT)y)) \
    H_BIN(h_min_##sfx, T, UT, x < y ? x : y) \
    H_BIN(h_max_##sfx, T, UT, x > y ? x : y) \
    H_BIN(h_and_##sfx, T, UT, x & y) \
    H_BIN(h_or_##sfx, T, UT, x | y) \
    H_BIN(h_xor_##sfx, T, UT, x ^ y) \
    H_UN(h_not_##sfx, T, UT, ~x) \
    H_UN(h_cnot_##sfx, T, UT, x == 0) \
    H_UN(h_neg_##sfx, T, UT, (UT)0 - (UT)x) \
    H_UN(h_abs_##sfx, T, UT, (SGN && (ST)x < 0) ? (UT)0 - (UT)x : (UT)x) \
    H_TER(h_mad_##sfx, T, UT, (UT)((uint64_t)(UT)x * (uint64_t)(UT)y + (uint64_t)(UT)z)) \
    H_BIN(h_div_##sfx, T, UT, y == 0 ? (UT)~(UT)0 : (SGN && (ST)y == -1) ? (UT)0 - (UT)x : (UT)(x / y)) \
    H_BIN(h_rem_##sfx, T, UT, y == 0 ? (UT)x : (SGN && (ST)y == -1) ? (UT)0 : (UT)(x % y)) \
    H_BIN(h_shl_##sfx, T, UT, (uint32_t)RG(b, l) >= W ? (UT)0 : (UT)((uint64_t)(UT)x << (uint32_t)RG(b, l))) \
    H_BIN(h_shr_##sfx, T, UT, (uint32_t)RG(b, l) >= W ? ((SGN && (ST)x < 0) ? (UT)~(UT)0 : (UT)0) : (UT)(x >> (uint32_t)RG(b, l)))

INT_OPS(s16, int16_t, uint16_t, int16_t, 16, 1)
INT_OPS(u16, uint16_t, uint16_t, int16_t, 16, 0)
INT_OPS(s32, int32_t, uint32_t, int32_t, 32, 1)
INT_OPS(u32, uint32_t, uint32_t, int32_t, 32, 0)
INT_OPS(s64, int64_t, uint64_t, int64_t, 64, 1)
INT_OPS(u64, uint64_t, uint64_t, int64_t, 64, 0)

H_UN(h_popc_u32, uint32_t, uint32_t, __builtin_popcount(x))
H_UN(h_popc_u64, uint64_t, uint64_t, __builtin_popcountll(x))

/* saturating 32-bit signed add/sub */
H_BIN(h_add_sat_s32, int32_t, uint32_t, (int32_t)((int64_t)x + y > INT32_MAX ? INT32_MAX : (int64_t)x + y < INT32_MIN ? INT32_MIN : (int64_t)x + y))
H_BIN(h_sub_sat_s32, int32_t, uint32_t, (int32_t)((int64_t)x - y > INT32_MAX ? INT32_MAX : (int64_t)x - y < INT32_MIN ? INT32_MIN : (int64_t)x - y))

/* mul.hi / mul.wide / mad.hi / mad.wide */
H_BIN(h_mulhi_s16, int16_t, uint16_t, (int16_t)(((int32_t)x * y) >> 16))
H_BIN(h_mulhi_u16, uint16_t, uint16_t, (uint16_t)(((uint32_t)x * y) >> 16))
H_BIN(h_mulhi_s32, int32_t, uint32_t, (int32_t)(((int64_t)x * y) >> 32))
H_BIN(h_mulhi_u32, uint32_t, uint32_t, (uint32_t)(((uint64_t)x * y) >> 32))
H_BIN(h_mulhi_s64, int64_t, uint64_t, (int64_t)(((__int128)x * y) >> 64))
H_BIN(h_mulhi_u64, uint64_t, uint64_t, (uint64_t)(((unsigned __int128)x * y) >> 64))
H_BIN(h_mulwide_s16, int16_t, uint32_t, (int32_t)x * (int32_t)y)
H_BIN(h_mulwide_u16, uint16_t, uint32_t, (uint32_t)x * (uint32_t)y)
H_BIN(h_mulwide_s32, int32_t, uint64_t, (int64_t)x * (int64_t)y)
H_BIN(h_mulwide_u32, uint32_t, uint64_t, (uint64_t)x * (uint64_t)y)
H_TER(h_madhi_s32, int32_t, uint32_t, (uint32_t)(int32_t)(((int64_t)x * y) >> 32) + (uint32_t)z)
H_TER(h_madhi_u32, uint32_t, uint32_t, (uint32_t)(((uint64_t)x * y) >> 32) + z)
H_TER(h_madhi_s64, int64_t, uint64_t, (uint64_t)(int64_t)(((__int128)x * y) >> 64) + (uint64_t)z)
H_TER(h_madhi_u64, uint64_t, uint64_t, (uint64_t)(((unsigned __int128)x * y) >> 64) + z)
H_TER(h_mul24_s32, int32_t, uint32_t, (uint32_t)((int64_t)((int32_t)((uint32_t)x << 8) >> 8) * ((int32_t)((uint32_t)y << 8) >> 8)) + 0 * (uint32_t)z)
H_TER(h_mul24_u32, uint32_t, uint32_t, (x & 0xffffff) * (y & 0xffffff) + 0 * z)
H_TER(h_mad24_s32, int32_t, uint32_t, (uint32_t)((int64_t)((int32_t)((uint32_t)x << 8) >> 8) * ((int32_t)((uint32_t)y << 8) >> 8)) + (uint32_t)z)
H_TER(h_mad24_u32, uint32_t, uint32_t, (x & 0xffffff) * (y & 0xffffff) + z)
H_TER(h_sad_s32, int32_t, uint32_t, (uint32_t)z + (x > y ? (uint32_t)x - (uint32_t)y : (uint32_t)y - (uint32_t)x))
H_TER(h_sad_u32, uint32_t, uint32_t, z + (x > y ? x - y : y - x))

/* mad.wide: d (2W) = a*b + c (2W) */
static void h_madwide_s32(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    FOR_LANES(mask, { RG(d, l) = (uint64_t)((int64_t)(int32_t)RG(a, l) * (int32_t)RG(b, l) + (int64_t)RG(c, l)); });
}
/* mad.wide.u32 */
static void h_madwide_u32(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    FOR_LANES(mask, { RG(d, l) = (uint64_t)(uint32_t)RG(a, l) * (uint32_t)RG(b, l) + RG(c, l); });
}

/* add/sub/mad with carry (.cc in, addc/subc): carry kept per lane in the CARRY slot */
static void h_carry(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1];
    int is64 = ws_type_size(in->type) == 8;
    int use_in = in->op == WS_OP_ADDC || in->op == WS_OP_SUBC;
    int sub = in->op == WS_OP_SUB || in->op == WS_OP_SUBC;
    int wcc = (in->flags & WS_F_CC) != 0;
    FOR_LANES(mask, {
        uint64_t cin = use_in ? RG(WS_SR_CARRY, l) : (uint64_t)sub;
        uint64_t x = RG(a, l), y = RG(b, l);
        if (in->op == WS_OP_MAD || in->op == WS_OP_MADC) {
            /* mad{c}.{lo,hi}[.cc]: (x*y).part + z + carry-in */
            uint64_t z = RG(in->s[2], l);
            uint64_t cin2 = in->op == WS_OP_MADC ? RG(WS_SR_CARRY, l) : 0;
            int hi = (in->flags & WS_F_HI) != 0;
            if (is64) {
                unsigned __int128 prod = (unsigned __int128)x * y;
                uint64_t part = hi ? (uint64_t)(prod >> 64) : (uint64_t)prod;
                unsigned __int128 r = (unsigned __int128)part + z + cin2;
                RG(d, l) = (uint64_t)r;
                if (wcc) RG(WS_SR_CARRY, l) = (uint64_t)(r >> 64);
            } else {
                uint64_t prod = (uint64_t)(uint32_t)x * (uint32_t)y;
                uint32_t part = hi ? (uint32_t)(prod >> 32) : (uint32_t)prod;
                uint64_t r = (uint64_t)part + (uint32_t)z + cin2;
                RG(d, l) = (uint32_t)r;
                if (wcc) RG(WS_SR_CARRY, l) = r >> 32;
            }
            continue;
        }
        if (sub) y = ~y;
        if (is64) {
            unsigned __int128 r = (unsigned __int128)x + y + cin;
            RG(d, l) = (uint64_t)r;
            if (wcc) RG(WS_SR_CARRY, l) = (uint64_t)(r >> 64);
        } else {
            uint64_t r = (uint64_t)(uint32_t)x + (uint32_t)y + cin;
            RG(d, l) = (uint32_t)r;
            if (wcc) RG(WS_SR_CARRY, l) = r >> 32;
        }
    });
}

/* ---------- float ops ---------- */
#define F32_BIN(name, expr) \
    static void name(ws_warp *w, const ws_insn *in, uint32_t mask) { \
        const int d = in->d[0], a = in->s[0], b = in->s[1]; \
        const int ftz = (in->flags & WS_F_FTZ) != 0, sat = (in->flags & WS_F_SAT) != 0; \
        FOR_LANES(mask, { float x = f32_of(RG(a, l)), y = f32_of(RG(b, l)); \
            if (ftz) { x = ftz32(x); y = ftz32(y); } \
            float r = (expr); \
            if (ftz) r = ftz32(r); \
            if (sat) r = r > 1.0f ? 1.0f : (r > 0.0f ? r : 0.0f); \
            RG(d, l) = bits_f32(r); }); \
    }
#define F32_UN(name, expr) \
    static void name(ws_warp *w, const ws_insn *in, uint32_t mask) { \
        const int d = in->d[0], a = in->s[0]; \
        const int ftz = (in->flags & WS_F_FTZ) != 0, sat = (in->flags & WS_F_SAT) != 0; \
        FOR_LANES(mask, { float x = f32_of(RG(a, l)); \
            if (ftz) x = ftz32(x); \
            float r = (expr); \
            if (ftz) r = ftz32(r); \
            if (sat) r = r > 1.0f ? 1.0f : (r > 0.0f ? r : 0.0f); \
            RG(d, l) = bits_f32(r); }); \
    }
#define F64_BIN(name, expr) \
    static void name(ws_warp *w, const ws_insn *in, uint32_t mask) { \
        const int d = in->d[0], a = in->s[0], b = in->s[1]; \
        FOR_LANES(mask, { double x = f64_of(RG(a, l)), y = f64_of(RG(b, l)); RG(d, l) = bits_f64(expr); }); \
    }
#define F64_UN(name, expr) \
    static void name(ws_warp *w, const ws_insn *in, uint32_t mask) { \
        const int d = in->d[0], a = in->s[0]; \
        FOR_LANES(mask, { double x = f64_of(RG(a, l)); RG(d, l) = bits_f64(expr); }); \
    }

/* PTX min/max: NaN only if both are NaN; -0 < +0 */
static inline float fmin_ptx(float x, float y)
{
    if (x != x) return y;
    if (y != y) return x;
    if (x == y) return signbit(x) ? x : y;
    return x < y ? x : y;
}
static inline float fmax_ptx(float x, float y)
{
    if (x != x) return y;
    if (y != y) return x;
    if (x == y) return signbit(x) ? y : x;
    return x > y ? x : y;
}
static inline double dmin_ptx(double x, double y) { if (x != x) return y; if (y != y) return x; return x < y ? x : y; }
static inline double dmax_ptx(double x, double y) { if (x != x) return y; if (y != y) return x; return x > y ? x : y; }

F32_BIN(h_add_f32, x + y)
F32_BIN(h_sub_f32, x - y)
F32_BIN(h_mul_f32, x * y)
F32_BIN(h_div_f32, x / y)
F32_BIN(h_min_f32, fmin_ptx(x, y))
F32_BIN(h_max_f32, fmax_ptx(x, y))
F32_BIN(h_copysign_f32, copysignf(y, x))
F32_UN(h_abs_f32, fabsf(x))
F32_UN(h_neg_f32, -x)
F32_UN(h_sqrt_f32, sqrtf(x))
F32_UN(h_rsqrt_f32, 1.0f / sqrtf(x))
F32_UN(h_rcp_f32, 1.0f / x)
F32_UN(h_sin_f32, sinf(x))
F32_UN(h_cos_f32, cosf(x))
F32_UN(h_lg2_f32, log2f(x))
F32_UN(h_ex2_f32, exp2f(x))
F32_UN(h_tanh_f32, tanhf(x))
F64_BIN(h_add_f64, x + y)
F64_BIN(h_sub_f64, x - y)
F64_BIN(h_mul_f64, x * y)
F64_BIN(h_div_f64, x / y)
F64_BIN(h_min_f64, dmin_ptx(x, y))
F64_BIN(h_max_f64, dmax_ptx(x, y))
F64_BIN(h_copysign_f64, copysign(y, x))
F64_UN(h_abs_f64, fabs(x))
F64_UN(h_neg_f64, -x)
F64_UN(h_sqrt_f64, sqrt(x))
F64_UN(h_rsqrt_f64, 1.0 / sqrt(x))
F64_UN(h_rcp_f64, 1.0 / x)
F64_UN(h_sin_f64, sin(x))
F64_UN(h_cos_f64, cos(x))
F64_UN(h_lg2_f64, log2(x))
F64_UN(h_ex2_f64, exp2(x))

/* fma.f32 (also mad.f32 with rounding) */
static void h_fma_f32(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    const int ftz = (in->flags & WS_F_FTZ) != 0, sat = (in->flags & WS_F_SAT) != 0;
    FOR_LANES(mask, {
        float x = f32_of(RG(a, l)), y = f32_of(RG(b, l)), z = f32_of(RG(c, l));
        if (ftz) { x = ftz32(x); y = ftz32(y); z = ftz32(z); }
        float r = fmaf(x, y, z);
        if (ftz) r = ftz32(r);
        if (sat) r = r > 1.0f ? 1.0f : (r > 0.0f ? r : 0.0f);
        RG(d, l) = bits_f32(r);
    });
}
/* fma.rn.f32 without .ftz or .sat, the common form: libm's fmaf (a call per lane on a generic x86-64 build) */
static void h_fma_f32_plain(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    FOR_LANES(mask, { RG(d, l) = bits_f32(fmaf(f32_of(RG(a, l)), f32_of(RG(b, l)), f32_of(RG(c, l)))); });
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* The same with the processor's fused multiply-add instruction (chosen at decode time where the CPU has FMA3;
 * both round once, as IEEE 754 fma does, so the results are the same bits) */
__attribute__((target("fma"))) static void h_fma_f32_hw(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    FOR_LANES(mask, { RG(d, l) = bits_f32(__builtin_fmaf(f32_of(RG(a, l)), f32_of(RG(b, l)), f32_of(RG(c, l)))); });
}
/* h_fma_f32_hw with AVX2: a whole warp four lanes at a time (the low halves of four 64-bit slots gathered into four
 * floats, one fused multiply-add, zero-extended back: the same instruction as the scalar form, the same bits). */
__attribute__((target("avx2,fma"))) static void h_fma_f32_avx2(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    const uint64_t *ra = &RG(a, 0), *rb = &RG(b, 0), *rc = &RG(c, 0);
    uint64_t *rd = &RG(d, 0);
    const __m256i lo = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);   /* the low half of each 64-bit slot */
    const __m256i bit = _mm256_setr_epi64x(1, 2, 4, 8);
    for (int l = 0; l < 32; l += 4) {
        unsigned m4 = (mask >> l) & 15u;
        if (!m4) continue;   /* (lanes that do not execute are computed but never written) */
        __m128 x = _mm_castsi128_ps(_mm256_castsi256_si128(
            _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(ra + l)), lo)));
        __m128 y = _mm_castsi128_ps(_mm256_castsi256_si128(
            _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(rb + l)), lo)));
        __m128 z = _mm_castsi128_ps(_mm256_castsi256_si128(
            _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(rc + l)), lo)));
        __m256i r = _mm256_cvtepu32_epi64(_mm_castps_si128(_mm_fmadd_ps(x, y, z)));
        if (m4 == 15u) _mm256_storeu_si256((__m256i *)(rd + l), r);
        else {
            __m256i sel = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x((long long)m4), bit), bit);
            _mm256_maskstore_epi64((long long *)(rd + l), sel, r);
        }
    }
}
/* The fma.f32 handler for the common form: the processor's instruction where it has one. */
static ws_handler select_fma_f32_plain(void)
{
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return h_fma_f32_avx2;
    return __builtin_cpu_supports("fma") ? h_fma_f32_hw : h_fma_f32_plain;
}
#else
/* The fma.f32 handler for the common form. */
static ws_handler select_fma_f32_plain(void) { return h_fma_f32_plain; }
#endif
/* fma.f64 */
static void h_fma_f64(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    FOR_LANES(mask, { RG(d, l) = bits_f64(fma(f64_of(RG(a, l)), f64_of(RG(b, l)), f64_of(RG(c, l)))); });
}

/* Run the RN handler of a float instruction under the instruction's directed rounding mode. */
static ws_handler select_rn(const ws_insn *in);
static void h_round_wrap(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    int old = fegetround();
    fesetround(in->rnd == WS_R_RZ ? FE_TOWARDZERO : in->rnd == WS_R_RM ? FE_DOWNWARD : FE_UPWARD);
    select_rn(in)(w, in, mask);
    fesetround(old);
}

/* testp.op.f32/f64 p, a */
static void h_testp(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int a = in->s[0];
    uint32_t bits = 0;
    int is64 = in->type == WS_T_F64;
    FOR_LANES(mask, {
        double x = is64 ? f64_of(RG(a, l)) : (double)f32_of(RG(a, l));
        int c = is64 ? fpclassify(x) : fpclassify(f32_of(RG(a, l)));
        int r;
        switch (in->sub) {
        case WS_TESTP_FINITE: r = isfinite(x); break;
        case WS_TESTP_INFINITE: r = isinf(x); break;
        case WS_TESTP_NUMBER: r = !isnan(x); break;
        case WS_TESTP_NOTANUMBER: r = isnan(x); break;
        case WS_TESTP_NORMAL: r = c == FP_NORMAL; break;
        default: r = c == FP_SUBNORMAL; break;
        }
        bits |= (uint32_t)r << l;
    });
    PSET(in->d[0], bits, mask);
}

/* ---------- half precision arithmetic (scalar and x2), computed in float ---------- */
/* Apply op to half values: k selects the operation. */
static float half_op(int op, float x, float y, float z)
{
    switch (op) {
    case WS_OP_ADD: return x + y;
    case WS_OP_SUB: return x - y;
    case WS_OP_MUL: return x * y;
    case WS_OP_FMA: case WS_OP_MAD: return fmaf(x, y, z);
    case WS_OP_MIN: return fmin_ptx(x, y);
    case WS_OP_MAX: return fmax_ptx(x, y);
    case WS_OP_NEG: return -x;
    case WS_OP_ABS: return fabsf(x);
    case WS_OP_EX2: return exp2f(x);
    case WS_OP_LG2: return log2f(x);
    case WS_OP_SQRT: return sqrtf(x);
    case WS_OP_RSQRT: return 1.0f / sqrtf(x);
    case WS_OP_RCP: return 1.0f / x;
    case WS_OP_SIN: return sinf(x);
    case WS_OP_COS: return cosf(x);
    case WS_OP_TANH: return tanhf(x);
    case WS_OP_DIV: return x / y;
    default: return x;
    }
}

/* f16/bf16 scalar or x2 arithmetic */
static void h_half(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    int k = kind_of(in->type);
    int pairs = (k == K_H2 || k == K_B2) ? 2 : 1;
    int bf = (k == K_B || k == K_B2);
    int sat = (in->flags & WS_F_SAT) != 0, relu = (in->flags & WS_F_RELU) != 0;
    FOR_LANES(mask, {
        uint32_t xa = (uint32_t)RG(a, l), xb = (uint32_t)RG(b, l), xc = (uint32_t)RG(c, l), r = 0;
        for (int h = 0; h < pairs; h++) {
            uint16_t ha = (uint16_t)(xa >> (16 * h)), hb = (uint16_t)(xb >> (16 * h)), hc = (uint16_t)(xc >> (16 * h));
            float x = bf ? ws_bf16_to_float(ha) : ws_half_to_float(ha);
            float y = bf ? ws_bf16_to_float(hb) : ws_half_to_float(hb);
            float z = bf ? ws_bf16_to_float(hc) : ws_half_to_float(hc);
            float v = half_op(in->op, x, y, z);
            if (sat) v = v > 1.0f ? 1.0f : (v > 0.0f ? v : 0.0f);
            if (relu && !(v > 0.0f)) v = v != v ? v : 0.0f;
            uint16_t hv = bf ? ws_float_to_bf16(v, in->rnd) : ws_float_to_half(v, in->rnd);
            if (in->op == WS_OP_NEG) hv = (uint16_t)(ha ^ 0x8000);
            if (in->op == WS_OP_ABS) hv = (uint16_t)(ha & 0x7fff);
            r |= (uint32_t)hv << (16 * h);
        }
        RG(d, l) = r;
    });
}

/* ---------- bit manipulation ---------- */
/* clz */
static void h_clz(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0];
    if (ws_type_size(in->type) == 8) FOR_LANES(mask, { uint64_t x = RG(a, l); RG(d, l) = x ? (uint64_t)__builtin_clzll(x) : 64; });
    else FOR_LANES(mask, { uint32_t x = (uint32_t)RG(a, l); RG(d, l) = x ? (uint64_t)__builtin_clz(x) : 32; });
}
/* bfind: position of the most significant non-sign bit */
static void h_bfind(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0];
    int W = ws_type_size(in->type) * 8, sgn = kind_of(in->type) == K_S, sa = (in->flags & WS_F_SHIFTAMT) != 0;
    FOR_LANES(mask, {
        uint64_t x = W == 64 ? RG(a, l) : (uint32_t)RG(a, l);
        if (sgn && (W == 64 ? (int64_t)x < 0 : (int32_t)x < 0)) x = W == 64 ? ~x : (uint32_t)~x;
        uint32_t r;
        if (!x) r = 0xffffffffu;
        else { r = (uint32_t)(63 - __builtin_clzll(x)); if (sa) r = (uint32_t)(W - 1) - r; }
        RG(d, l) = r;
    });
}
/* brev */
static void h_brev(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0];
    int W = ws_type_size(in->type) * 8;
    FOR_LANES(mask, {
        uint64_t x = RG(a, l), r = 0;
        for (int i = 0; i < W; i++) r |= ((x >> i) & 1) << (W - 1 - i);
        RG(d, l) = r;
    });
}
/* bfe: extract len bits at pos, sign-extending for signed types */
static void h_bfe(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    int W = ws_type_size(in->type) * 8, sgn = kind_of(in->type) == K_S;
    FOR_LANES(mask, {
        uint64_t x = W == 64 ? RG(a, l) : (uint32_t)RG(a, l);
        uint32_t pos = (uint32_t)RG(b, l) & 0xff, len = (uint32_t)RG(c, l) & 0xff;
        uint64_t r;
        int sbit;
        if (len == 0) r = 0, sbit = 0;
        else {
            uint32_t top = pos + len - 1 < (uint32_t)W - 1 ? pos + len - 1 : (uint32_t)W - 1;
            sbit = sgn ? (int)((x >> top) & 1) : 0;
            r = pos >= (uint32_t)W ? 0 : x >> pos;
            if (len < 64) r &= (1ull << len) - 1;
            if (sbit && len < 64) r |= ~((1ull << len) - 1);
        }
        if (pos >= (uint32_t)W && sgn) r = (W == 64 ? (int64_t)x < 0 : (int32_t)x < 0) ? ~0ull : 0;
        RG(d, l) = W == 64 ? r : (uint32_t)r;
    });
}
/* bfi: insert len bits of a into b at pos */
static void h_bfi(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2], e = in->s[3];
    int W = ws_type_size(in->type) * 8;
    FOR_LANES(mask, {
        uint64_t x = RG(a, l), y = RG(b, l);
        uint32_t pos = (uint32_t)RG(c, l) & 0xff, len = (uint32_t)RG(e, l) & 0xff;
        uint64_t r = y;
        if (len && pos < (uint32_t)W) {
            uint64_t m = len >= 64 ? ~0ull : ((1ull << len) - 1);
            m <<= pos;
            r = (y & ~m) | ((x << pos) & m);
        }
        RG(d, l) = W == 64 ? r : (uint32_t)r;
    });
}
/* bmsk.{clamp,wrap}.b32 d, a, b: a mask of b ones starting at bit a */
static void h_bmsk(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1];
    int clamp = (in->flags & WS_F_CLAMP) != 0;
    FOR_LANES(mask, {
        uint32_t pos = (uint32_t)RG(a, l), len = (uint32_t)RG(b, l);
        if (clamp) { pos = pos > 32 ? 32 : pos; len = len > 32 ? 32 : len; }
        else { pos &= 31; len &= 31; }
        uint64_t m = ((len >= 32 ? 0xffffffffull : ((1ull << len) - 1)) << pos) & 0xffffffffull;
        RG(d, l) = (uint32_t)m;
    });
}

/* prmt: byte permute */
static void h_prmt(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    int mode = in->sub;
    FOR_LANES(mask, {
        uint64_t src = ((uint64_t)(uint32_t)RG(b, l) << 32) | (uint32_t)RG(a, l);
        uint32_t sel = (uint32_t)RG(c, l), r = 0;
        if (mode == WS_PRMT_INDEX) {
            for (int i = 0; i < 4; i++) {
                uint32_t s = (sel >> (4 * i)) & 0xf;
                uint32_t byte = (uint32_t)(src >> (8 * (s & 7))) & 0xff;
                if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
                r |= byte << (8 * i);
            }
        } else {
            static const uint8_t tab[6][4][4] = {
                {{0,1,2,3},{1,2,3,4},{2,3,4,5},{3,4,5,6}},   /* f4e */
                {{0,7,6,5},{1,0,7,6},{2,1,0,7},{3,2,1,0}},   /* b4e */
                {{0,0,0,0},{1,1,1,1},{2,2,2,2},{3,3,3,3}},   /* rc8 */
                {{0,1,2,3},{0,0,2,3},{0,0,0,3},{0,0,0,0}},   /* ecl */
                {{0,1,2,3},{1,1,2,3},{2,2,2,3},{3,3,3,3}},   /* ecr */
                {{0,1,0,1},{2,3,2,3},{0,1,0,1},{2,3,2,3}},   /* rc16 */
            };
            uint32_t s = sel & 3;
            for (int i = 0; i < 4; i++) r |= (uint32_t)((src >> (8 * tab[mode - WS_PRMT_F4E][s][i])) & 0xff) << (8 * i);
        }
        RG(d, l) = r;
    });
}
/* shf.l / shf.r (funnel shift) */
static void h_shf(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    int left = (in->flags & WS_F_LEFT) != 0, clamp = (in->flags & WS_F_CLAMP) != 0;
    FOR_LANES(mask, {
        uint64_t v = ((uint64_t)(uint32_t)RG(b, l) << 32) | (uint32_t)RG(a, l);
        uint32_t n = (uint32_t)RG(c, l);
        n = clamp ? (n > 32 ? 32 : n) : (n & 31);
        RG(d, l) = left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n);
    });
}
/* lop3: arbitrary three-input logic from an 8-bit truth table */
static void h_lop3(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2], t = in->s[3];
    FOR_LANES(mask, {
        uint32_t x = (uint32_t)RG(a, l), y = (uint32_t)RG(b, l), z = (uint32_t)RG(c, l), lut = (uint32_t)RG(t, l), r = 0;
        for (int i = 0; i < 8; i++)
            if (lut >> i & 1) r |= ((i & 4) ? x : ~x) & ((i & 2) ? y : ~y) & ((i & 1) ? z : ~z);
        RG(d, l) = r;
    });
}
/* dp4a / dp2a */
static void h_dp(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    int sa = kind_of(in->type) == K_S, sb = kind_of(in->type2) == K_S, four = in->op == WS_OP_DP4A;
    int hi = (in->flags & WS_F_HI) != 0;
    FOR_LANES(mask, {
        uint32_t x = (uint32_t)RG(a, l), y = (uint32_t)RG(b, l);
        int64_t acc = sa || sb ? (int64_t)(int32_t)RG(c, l) : (int64_t)(uint32_t)RG(c, l);
        if (four) {
            for (int i = 0; i < 4; i++) {
                int32_t p = sa ? (int8_t)(x >> (8 * i)) : (uint8_t)(x >> (8 * i));
                int32_t q = sb ? (int8_t)(y >> (8 * i)) : (uint8_t)(y >> (8 * i));
                acc += (int64_t)p * q;
            }
        } else {
            for (int i = 0; i < 2; i++) {
                int32_t p = sa ? (int16_t)(x >> (16 * i)) : (uint16_t)(x >> (16 * i));
                int32_t q = sb ? (int8_t)(y >> (8 * (i + (hi ? 2 : 0)))) : (uint8_t)(y >> (8 * (i + (hi ? 2 : 0))));
                acc += (int64_t)p * q;
            }
        }
        RG(d, l) = (uint32_t)acc;
    });
}

/* ---------- predicates ---------- */
/* and/or/xor/not on predicate masks */
static void h_pred_logic(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    uint32_t a = PM(in->s[0]), b = in->ns > 1 ? PM(in->s[1]) : 0, r;
    if (in->flags & WS_F_NEG1) a = ~a;
    if (in->flags & WS_F_NEG2) b = ~b;
    switch (in->op) {
    case WS_OP_AND: r = a & b; break;
    case WS_OP_OR: r = a | b; break;
    case WS_OP_XOR: r = a ^ b; break;
    case WS_OP_NOT: r = ~a; break;
    default: r = a; break;  /* mov.pred */
    }
    PSET(in->d[0], r, mask);
}

/* Evaluate comparison cmp on doubles (float compares; unordered variants). */
static inline int fcmp(int cmp, double x, double y)
{
    int un = x != x || y != y;
    switch (cmp) {
    case WS_C_EQ: return !un && x == y;
    case WS_C_NE: return !un && x != y;
    case WS_C_LT: return !un && x < y;
    case WS_C_LE: return !un && x <= y;
    case WS_C_GT: return !un && x > y;
    case WS_C_GE: return !un && x >= y;
    case WS_C_EQU: return un || x == y;
    case WS_C_NEU: return un || x != y;
    case WS_C_LTU: return un || x < y;
    case WS_C_LEU: return un || x <= y;
    case WS_C_GTU: return un || x > y;
    case WS_C_GEU: return un || x >= y;
    case WS_C_NUM: return !un;
    case WS_C_NAN: return un;
    default: return 0;
    }
}

/* comparison expression for integer compares: signed uses x/y, unsigned ux/uy */
#define ICMP(cmp, x, y) ( \
    (cmp) == WS_C_EQ ? (x) == (y) : (cmp) == WS_C_NE ? (x) != (y) : \
    (cmp) == WS_C_LT || (cmp) == WS_C_LO ? (x) < (y) : (cmp) == WS_C_LE || (cmp) == WS_C_LS ? (x) <= (y) : \
    (cmp) == WS_C_GT || (cmp) == WS_C_HI ? (x) > (y) : (x) >= (y))

/* Compute compare bits for the active lanes of a setp/set. */
static uint32_t compare_bits(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int a = in->s[0], b = in->s[1], cmp = in->cmp;
    uint32_t bits = 0;
    switch (in->type) {
    case WS_T_S32: FOR_LANES(mask, { int32_t x = (int32_t)RG(a, l), y = (int32_t)RG(b, l); bits |= (uint32_t)ICMP(cmp, x, y) << l; }); break;
    case WS_T_U32: case WS_T_B32: FOR_LANES(mask, { uint32_t x = (uint32_t)RG(a, l), y = (uint32_t)RG(b, l); bits |= (uint32_t)ICMP(cmp, x, y) << l; }); break;
    case WS_T_S64: FOR_LANES(mask, { int64_t x = (int64_t)RG(a, l), y = (int64_t)RG(b, l); bits |= (uint32_t)ICMP(cmp, x, y) << l; }); break;
    case WS_T_U64: case WS_T_B64: FOR_LANES(mask, { uint64_t x = RG(a, l), y = RG(b, l); bits |= (uint32_t)ICMP(cmp, x, y) << l; }); break;
    case WS_T_S16: FOR_LANES(mask, { int16_t x = (int16_t)RG(a, l), y = (int16_t)RG(b, l); bits |= (uint32_t)ICMP(cmp, x, y) << l; }); break;
    case WS_T_U16: case WS_T_B16: FOR_LANES(mask, { uint16_t x = (uint16_t)RG(a, l), y = (uint16_t)RG(b, l); bits |= (uint32_t)ICMP(cmp, x, y) << l; }); break;
    case WS_T_S8: FOR_LANES(mask, { int8_t x = (int8_t)RG(a, l), y = (int8_t)RG(b, l); bits |= (uint32_t)ICMP(cmp, x, y) << l; }); break;
    case WS_T_U8: case WS_T_B8: FOR_LANES(mask, { uint8_t x = (uint8_t)RG(a, l), y = (uint8_t)RG(b, l); bits |= (uint32_t)ICMP(cmp, x, y) << l; }); break;
    case WS_T_F32:
        if (in->flags & WS_F_FTZ)   /* .ftz: subnormal operands compare as signed zeros */
            FOR_LANES(mask, { bits |= (uint32_t)fcmp(cmp, ftz32(f32_of(RG(a, l))), ftz32(f32_of(RG(b, l)))) << l; });
        else
            FOR_LANES(mask, { bits |= (uint32_t)fcmp(cmp, f32_of(RG(a, l)), f32_of(RG(b, l))) << l; });
        break;
    case WS_T_F64: FOR_LANES(mask, { bits |= (uint32_t)fcmp(cmp, f64_of(RG(a, l)), f64_of(RG(b, l))) << l; }); break;
    case WS_T_F16: FOR_LANES(mask, { bits |= (uint32_t)fcmp(cmp, ws_half_to_float((uint16_t)RG(a, l)), ws_half_to_float((uint16_t)RG(b, l))) << l; }); break;
    case WS_T_BF16: FOR_LANES(mask, { bits |= (uint32_t)fcmp(cmp, ws_bf16_to_float((uint16_t)RG(a, l)), ws_bf16_to_float((uint16_t)RG(b, l))) << l; }); break;
    case WS_T_PRED: { uint32_t x = PM(a), y = PM(b); bits = cmp == WS_C_EQ ? ~(x ^ y) : (x ^ y); break; }
    default: break;
    }
    return bits;
}

/* setp.cmp[.bop].type p[|q], a, b[, {!}c] */
static void h_setp(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    uint32_t bits = compare_bits(w, in, mask);
    uint32_t nbits = ~bits;
    if (in->sub) {
        uint32_t c = PM(in->s[2]);
        if (in->flags & WS_F_NEG2) c = ~c;
        switch (in->sub) {
        case WS_SUB_AND: bits &= c; nbits &= c; break;
        case WS_SUB_OR: bits |= c; nbits |= c; break;
        default: bits ^= c; nbits ^= c; break;
        }
    }
    PSET(in->d[0], bits, mask);
    if (in->d[1] != WS_SR_SINK) PSET(in->d[1], nbits, mask);
}

/* setp without a boolean operation for one type and comparison, chosen at decode time: the lane loop holds no
 * decision (the common integer and ordered float comparisons) */
#define SETP_FAST(name, T, conv, expr) \
    WS_AVX2_PAIR(name, const int a = in->s[0], b = in->s[1]; \
        uint32_t bits = 0; \
        FOR_LANES(mask, { T x = conv(RG(a, l)), y = conv(RG(b, l)); bits |= (uint32_t)(expr) << l; }); \
        PSET(in->d[0], bits, mask); \
        if (in->d[1] != WS_SR_SINK) PSET(in->d[1], ~bits, mask))
#define SETP_CONV_S32(v) ((int32_t)(v))
#define SETP_CONV_U32(v) ((uint32_t)(v))
#define SETP_CONV_S64(v) ((int64_t)(v))
#define SETP_CONV_U64(v) ((uint64_t)(v))
#define SETP_CONV_F32(v) f32_of(v)
#define SETP_SIX(sfx, T, conv) \
    SETP_FAST(h_setp_eq_##sfx, T, conv, x == y) SETP_FAST(h_setp_ne_##sfx, T, conv, x != y) \
    SETP_FAST(h_setp_lt_##sfx, T, conv, x < y) SETP_FAST(h_setp_le_##sfx, T, conv, x <= y) \
    SETP_FAST(h_setp_gt_##sfx, T, conv, x > y) SETP_FAST(h_setp_ge_##sfx, T, conv, x >= y)
SETP_SIX(s32, int32_t, SETP_CONV_S32)
SETP_SIX(u32, uint32_t, SETP_CONV_U32)
SETP_SIX(s64, int64_t, SETP_CONV_S64)
SETP_SIX(u64, uint64_t, SETP_CONV_U64)
/* ordered float comparisons are false when either operand is NaN, as C's are, except ne */
SETP_FAST(h_setp_eq_f32, float, SETP_CONV_F32, x == y)
SETP_FAST(h_setp_ne_f32, float, SETP_CONV_F32, x < y || x > y)
SETP_FAST(h_setp_lt_f32, float, SETP_CONV_F32, x < y)
SETP_FAST(h_setp_le_f32, float, SETP_CONV_F32, x <= y)
SETP_FAST(h_setp_gt_f32, float, SETP_CONV_F32, x > y)
SETP_FAST(h_setp_ge_f32, float, SETP_CONV_F32, x >= y)

/* The setp handler for an instruction: a specialised one where it exists, else the general h_setp. */
static ws_handler select_setp(const ws_insn *in)
{
#define SETP_ROW(sfx) { WS_PICK_AVX2(h_setp_eq_##sfx), WS_PICK_AVX2(h_setp_ne_##sfx), WS_PICK_AVX2(h_setp_lt_##sfx), \
                       WS_PICK_AVX2(h_setp_le_##sfx), WS_PICK_AVX2(h_setp_gt_##sfx), WS_PICK_AVX2(h_setp_ge_##sfx) }
    const ws_handler fast[5][6] = { SETP_ROW(s32), SETP_ROW(u32), SETP_ROW(s64), SETP_ROW(u64), SETP_ROW(f32) };
#undef SETP_ROW
    int t;
    switch (in->type) {
    case WS_T_S32: t = 0; break;
    case WS_T_U32: case WS_T_B32: t = 1; break;
    case WS_T_S64: t = 2; break;
    case WS_T_U64: case WS_T_B64: t = 3; break;
    case WS_T_F32: t = in->flags & WS_F_FTZ ? -1 : 4; break;
    default: t = -1; break;
    }
    int c;
    switch (in->cmp) {
    case WS_C_EQ: c = 0; break;
    case WS_C_NE: c = 1; break;
    case WS_C_LT: case WS_C_LO: c = 2; break;
    case WS_C_LE: case WS_C_LS: c = 3; break;
    case WS_C_GT: case WS_C_HI: c = 4; break;
    case WS_C_GE: case WS_C_HS: c = 5; break;
    default: c = -1; break;
    }
    /* lo/ls/hi/hs are unsigned names: on a float they are not comparisons ICMP would make either */
    if (t == 4 && (in->cmp == WS_C_LO || in->cmp == WS_C_LS || in->cmp == WS_C_HI || in->cmp == WS_C_HS)) c = -1;
    return in->sub || t < 0 || c < 0 ? h_setp : fast[t][c];
}

/* set.cmp.dtype.stype d, a, b: all ones / 1.0f when true */
static void h_set(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    ws_insn t = *in;
    t.type = in->type2;   /* compare type */
    uint32_t bits = compare_bits(w, &t, mask);
    if (in->sub) {
        uint32_t c = PM(in->s[2]);
        if (in->flags & WS_F_NEG2) c = ~c;
        bits = in->sub == WS_SUB_AND ? bits & c : in->sub == WS_SUB_OR ? bits | c : bits ^ c;
    }
    const int d = in->d[0];
    int fl = in->type == WS_T_F32;
    FOR_LANES(mask, { int v = bits >> l & 1; RG(d, l) = fl ? (v ? 0x3f800000u : 0) : (v ? 0xffffffffu : 0); });
}

/* selp d, a, b, p */
WS_AVX2_PAIR(h_selp, const int d = in->d[0], a = in->s[0], b = in->s[1];
             const uint32_t p = in->flags & WS_F_NEG2 ? ~PM(in->s[2]) : PM(in->s[2]);
             FOR_LANES(mask, { RG(d, l) = (p >> l & 1) ? RG(a, l) : RG(b, l); }))
/* slct d, a, b, c: c >= 0 ? a : b */
static void h_slct(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1], c = in->s[2];
    int f = in->type2 == WS_T_F32;
    FOR_LANES(mask, { int ge = f ? f32_of(RG(c, l)) >= 0.0f : (int32_t)RG(c, l) >= 0; RG(d, l) = ge ? RG(a, l) : RG(b, l); });
}

/* ---------- moves ---------- */
/* mov d, a (register or constant) */
WS_AVX2_PAIR(h_mov, const int d = in->d[0], a = in->s[0]; FOR_LANES(mask, { RG(d, l) = RG(a, l); }))
/* mov.b32 d, a with 32-bit truncation (keeps slots zero-extended) */
WS_AVX2_PAIR(h_mov32, const int d = in->d[0], a = in->s[0]; FOR_LANES(mask, { RG(d, l) = (uint32_t)RG(a, l); }))
/* mov d, address of a frame variable */
static void h_mov_localsym(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0];
    uint64_t v = (uint64_t)w->local_base + (uint64_t)in->imm;
    FOR_LANES(mask, { RG(d, l) = v; });
}
/* mov d, %clock / %clock64 / %globaltimer */
static void h_mov_clock(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0];
    /* the simulated SM clock under the timing model; otherwise warp instructions executed stand in for cycles */
    uint64_t v = w->L->timed ? ws_warp_now(w) : w->L->ninst + w->ninst;
    if (in->sub == WS_MOV_GLOBALTIMER) v = w->L->timed ? (uint64_t)((double)v * 1e3 / w->L->gpu->dev->sm_clock_mhz) : v * 1000;  /* ns */
    if (in->sub == WS_MOV_CLOCK) v = (uint32_t)v;
    FOR_LANES(mask, { RG(d, l) = v; });
}
/* mov pack: d = {a, b[, c, d]} */
static void h_mov_pack(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], n = in->ns;
    int width = ws_type_size(in->type) * 8 / n;
    uint64_t emask = width >= 64 ? ~0ull : ((1ull << width) - 1);
    FOR_LANES(mask, {
        uint64_t v = 0;
        for (int i = 0; i < n; i++) v |= (RG(in->s[i], l) & emask) << (width * i);
        RG(d, l) = v;
    });
}
/* mov unpack: {a, b[, c, d]} = s */
static void h_mov_unpack(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int a = in->s[0], n = in->nd;
    int width = ws_type_size(in->type) * 8 / n;
    uint64_t emask = width >= 64 ? ~0ull : ((1ull << width) - 1);
    FOR_LANES(mask, {
        uint64_t v = RG(a, l);
        for (int i = 0; i < n; i++) if (in->d[i] != WS_SR_SINK) RG(in->d[i], l) = (v >> (width * i)) & emask;
    });
}

/* mov.b64 d, {a, b}: two 32-bit halves, the common pack (chosen at decode time) */
static void h_mov_pack_2x32(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1];
    FOR_LANES(mask, { RG(d, l) = (RG(a, l) & 0xffffffffu) | RG(b, l) << 32; });
}
/* mov.b64 {a, b}, s: into two 32-bit halves, neither of them a sink (chosen at decode time) */
static void h_mov_unpack_2x32(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int a = in->s[0], d0 = in->d[0], d1 = in->d[1];
    FOR_LANES(mask, { uint64_t v = RG(a, l); RG(d0, l) = v & 0xffffffffu; RG(d1, l) = v >> 32; });
}

/* ---------- cvt ---------- */
/* Read a source value as double (float types) or as a 64-bit integer (integer types). */
static inline int is_float_t(int t) { return t == WS_T_F32 || t == WS_T_F64 || t == WS_T_F16 || t == WS_T_BF16 || t == WS_T_TF32; }

/* Round a double to an integer-valued double by mode. */
static double round_int(double x, int rnd)
{
    switch (rnd) {
    case WS_R_RZI: return trunc(x);
    case WS_R_RMI: return floor(x);
    case WS_R_RPI: return ceil(x);
    default: return nearbyint(x);  /* rni: nearest even under the default environment */
    }
}

/* Saturating conversion of a double to integer type t. */
static uint64_t dbl_to_int(double x, int t)
{
    int sz = ws_type_size(t) * 8;
    if (x != x) return (sz == 64 && kind_of(t) == K_S) ? 0x8000000000000000ull : 0;  /* as measured on an H200 */
    if (kind_of(t) == K_S) {
        double lo = -ldexp(1.0, sz - 1), hi = ldexp(1.0, sz - 1) - 1;
        if (x <= lo) return (uint64_t)(int64_t)lo & (sz == 64 ? ~0ull : ((1ull << sz) - 1));
        if (x >= hi) return sz == 64 ? (uint64_t)INT64_MAX : (uint64_t)((1ull << (sz - 1)) - 1);
        int64_t v = (int64_t)x;
        return sz == 64 ? (uint64_t)v : ((uint64_t)v & ((1ull << sz) - 1));
    }
    if (x <= 0) return 0;
    double hi = ldexp(1.0, sz);
    if (x >= hi) return sz == 64 ? ~0ull : ((1ull << sz) - 1);
    return (uint64_t)x;
}

/* An f32 rounded to tf32 (10 mantissa bits, the low 13 bits of the f32 cleared) by mode: rna (ties away from zero,
   cvt.rna's), rz (truncation), otherwise nearest even; NaN and infinity pass unchanged. */
static uint32_t f32_to_tf32(uint32_t b, int rnd)
{
    if ((b & 0x7f800000u) == 0x7f800000u) return b;
    if (rnd == WS_R_RZ) return b & ~0x1fffu;
    if (rnd == WS_R_RNA) return (b + 0x1000u) & ~0x1fffu;
    return (b + 0xfffu + ((b >> 13) & 1u)) & ~0x1fffu;
}

/* Generic cvt: every type pair, rounding and saturation. */
static void h_cvt(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], dt = in->type, st = in->type2, rnd = in->rnd;
    const int sat = (in->flags & WS_F_SAT) != 0, ftz = (in->flags & WS_F_FTZ) != 0;
    int dsz = ws_type_size(dt) * 8, ssz = ws_type_size(st) * 8;
    int df = is_float_t(dt), sf = is_float_t(st), ssgn = kind_of(st) == K_S;
    if (dt == WS_T_F16X2 || dt == WS_T_BF16X2) {
        /* cvt.rn.f16x2.f32 d, a, b: a -> upper half, b -> lower half */
        int b = in->s[1], bf = dt == WS_T_BF16X2;
        FOR_LANES(mask, {
            float x = f32_of(RG(a, l)), y = f32_of(RG(b, l));
            if (in->flags & WS_F_RELU) { x = x > 0 ? x : 0; y = y > 0 ? y : 0; }
            uint16_t hx = bf ? ws_float_to_bf16(x, rnd) : ws_float_to_half(x, rnd);
            uint16_t hy = bf ? ws_float_to_bf16(y, rnd) : ws_float_to_half(y, rnd);
            RG(d, l) = ((uint32_t)hx << 16) | hy;
        });
        return;
    }
    int old = -1;
    if (df && (rnd == WS_R_RZ || rnd == WS_R_RM || rnd == WS_R_RP) && dt != WS_T_F16 && dt != WS_T_BF16) {
        old = fegetround();
        fesetround(rnd == WS_R_RZ ? FE_TOWARDZERO : rnd == WS_R_RM ? FE_DOWNWARD : FE_UPWARD);
    }
    FOR_LANES(mask, {
        uint64_t raw = RG(a, l), out;
        if (sf) {
            double x;
            if (st == WS_T_F32) { float f = f32_of(raw); if (ftz) f = ftz32(f); x = f; }
            else if (st == WS_T_F64) x = f64_of(raw);
            else if (st == WS_T_F16) x = ws_half_to_float((uint16_t)raw);
            else x = ws_bf16_to_float((uint16_t)raw);
            if (df) {
                if (rnd >= WS_R_RNI) x = round_int(x, rnd);
                if (dt == WS_T_F32) {
                    float f = (float)x;
                    if (ftz) f = ftz32(f);
                    if (sat) f = f > 1.0f ? 1.0f : (f > 0.0f ? f : 0.0f);
                    out = bits_f32(f);
                } else if (dt == WS_T_F64) {
                    if (sat) x = x > 1.0 ? 1.0 : (x > 0.0 ? x : 0.0);
                    out = bits_f64(x);
                } else if (dt == WS_T_TF32) {
                    out = f32_to_tf32(bits_f32((float)x), rnd);
                } else {
                    float f = (float)x;
                    if (sat) f = f > 1.0f ? 1.0f : (f > 0.0f ? f : 0.0f);
                    out = dt == WS_T_F16 ? ws_float_to_half(f, rnd) : ws_float_to_bf16(f, rnd);
                }
            } else {
                x = round_int(x, rnd ? rnd : WS_R_RZI);
                out = dbl_to_int(x, dt);
            }
        } else {
            /* integer source: normalize to 64 bits */
            int64_t sv;
            uint64_t uv;
            if (ssz == 64) { uv = raw; sv = (int64_t)raw; }
            else {
                uv = raw & ((1ull << ssz) - 1);
                sv = ssgn ? ((int64_t)(uv << (64 - ssz)) >> (64 - ssz)) : (int64_t)uv;
                if (!ssgn) sv = (int64_t)uv;
            }
            if (df) {
                double x = ssgn ? (double)sv : (double)uv;
                if (dt == WS_T_F32) out = bits_f32(ssgn ? (float)sv : (float)uv);
                else if (dt == WS_T_F64) out = bits_f64(x);
                else out = dt == WS_T_F16 ? ws_float_to_half((float)x, rnd) : ws_float_to_bf16((float)x, rnd);
            } else if (sat) {
                /* clamp into the destination range */
                int dsg = kind_of(dt) == K_S;
                if (dsg) {
                    int64_t lo = dsz == 64 ? INT64_MIN : -(int64_t)(1ull << (dsz - 1)), hi = dsz == 64 ? INT64_MAX : (int64_t)((1ull << (dsz - 1)) - 1);
                    if (!ssgn && uv > (uint64_t)hi) out = (uint64_t)hi;
                    else if (ssgn && sv < lo) out = (uint64_t)lo;
                    else if (ssgn && sv > hi) out = (uint64_t)hi;
                    else out = (uint64_t)sv;
                } else {
                    uint64_t hi = dsz == 64 ? ~0ull : ((1ull << dsz) - 1);
                    if (ssgn && sv < 0) out = 0;
                    else out = uv > hi ? hi : uv;
                }
                if (dsz < 64) out &= (1ull << dsz) - 1;
            } else {
                out = ssgn ? (uint64_t)sv : uv;
                if (dsz < 64) out &= (1ull << dsz) - 1;
                /* sign-extend into the destination width for signed destinations */
            }
        }
        RG(d, l) = out;
    });
    if (old >= 0) fesetround(old);
}
/* cvt.u64.u32 */
WS_AVX2_PAIR(h_cvt_u64_u32, const int d = in->d[0], a = in->s[0]; FOR_LANES(mask, { RG(d, l) = (uint32_t)RG(a, l); }))
/* cvt.s64.s32 */
WS_AVX2_PAIR(h_cvt_s64_s32, const int d = in->d[0], a = in->s[0];
             FOR_LANES(mask, { RG(d, l) = (uint64_t)(int64_t)(int32_t)RG(a, l); }))
/* cvt.rn.f32.s32 */
static void h_cvt_f32_s32(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0];
    FOR_LANES(mask, { RG(d, l) = bits_f32((float)(int32_t)RG(a, l)); });
}
/* cvt.rn.f32.u32 */
static void h_cvt_f32_u32(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0];
    FOR_LANES(mask, { RG(d, l) = bits_f32((float)(uint32_t)RG(a, l)); });
}
/* cvt.f64.f32 */
static void h_cvt_f64_f32(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0];
    FOR_LANES(mask, { RG(d, l) = bits_f64((double)f32_of(RG(a, l))); });
}

/* min/max{.relu}.{s16x2,u16x2}: each 16-bit half on its own (.relu clamps signed results at 0) */
static void h_minmax_16x2(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0], b = in->s[1];
    const int mx = in->op == WS_OP_MAX, sgn = in->type == WS_T_S16X2, relu = (in->flags & WS_F_RELU) != 0;
    FOR_LANES(mask, {
        uint32_t x = (uint32_t)RG(a, l), y = (uint32_t)RG(b, l), r = 0;
        for (int h = 0; h < 32; h += 16) {
            int32_t p = sgn ? (int16_t)(x >> h) : (int32_t)(uint16_t)(x >> h);
            int32_t q = sgn ? (int16_t)(y >> h) : (int32_t)(uint16_t)(y >> h);
            int32_t v = mx ? (p > q ? p : q) : (p < q ? p : q);
            if (relu && v < 0) v = 0;
            r |= ((uint32_t)v & 0xFFFFu) << h;
        }
        RG(d, l) = r;
    });
}

/* ---------- handler selection ---------- */
#define PICK6(base) (sgn ? (W == 16 ? WS_PICK_AVX2(base##_s16) : W == 32 ? WS_PICK_AVX2(base##_s32) : WS_PICK_AVX2(base##_s64)) \
                         : (W == 16 ? WS_PICK_AVX2(base##_u16) : W == 32 ? WS_PICK_AVX2(base##_u32) : WS_PICK_AVX2(base##_u64)))

/* Handler for a float/int/half instruction with round-to-nearest semantics. */
static ws_handler select_rn(const ws_insn *in)
{
    int t = in->type, k = kind_of(t), W = ws_type_size(t) * 8, sgn = k == K_S;
    int f32 = t == WS_T_F32, f64 = t == WS_T_F64;
    if (W == 8) W = 16;
    if (t == WS_T_S16X2 || t == WS_T_U16X2)   /* PTX has only min and max on packed 16-bit integers */
        return in->op == WS_OP_MIN || in->op == WS_OP_MAX ? h_minmax_16x2 : NULL;
    switch (in->op) {
    case WS_OP_ADD:
        if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half;
        if (f32) return h_add_f32;
        if (f64) return h_add_f64;
        if (in->flags & WS_F_CC) return h_carry;
        if ((in->flags & WS_F_SAT) && t == WS_T_S32) return WS_PICK_AVX2(h_add_sat_s32);
        return PICK6(h_add);
    case WS_OP_SUB:
        if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half;
        if (f32) return h_sub_f32;
        if (f64) return h_sub_f64;
        if (in->flags & WS_F_CC) return h_carry;
        if ((in->flags & WS_F_SAT) && t == WS_T_S32) return WS_PICK_AVX2(h_sub_sat_s32);
        return PICK6(h_sub);
    case WS_OP_ADDC: case WS_OP_SUBC: case WS_OP_MADC: return h_carry;
    case WS_OP_MUL:
        if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half;
        if (f32) return h_mul_f32;
        if (f64) return h_mul_f64;
        if (in->flags & WS_F_WIDE) {
            if (W == 16) return sgn ? WS_PICK_AVX2(h_mulwide_s16) : WS_PICK_AVX2(h_mulwide_u16);
            if (W == 32) return sgn ? WS_PICK_AVX2(h_mulwide_s32) : WS_PICK_AVX2(h_mulwide_u32);
            return NULL;
        }
        if (in->flags & WS_F_HI) return PICK6(h_mulhi);
        return PICK6(h_mul);
    case WS_OP_MAD:
        if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half;
        if (f32) return in->flags & (WS_F_FTZ | WS_F_SAT) ? h_fma_f32 : select_fma_f32_plain();
        if (f64) return h_fma_f64;
        if (in->flags & WS_F_CC) return h_carry;
        if (in->flags & WS_F_WIDE) return W == 32 ? (sgn ? h_madwide_s32 : h_madwide_u32) : NULL;
        if (in->flags & WS_F_HI) return W == 32 ? (sgn ? WS_PICK_AVX2(h_madhi_s32) : WS_PICK_AVX2(h_madhi_u32)) : W == 64 ? (sgn ? WS_PICK_AVX2(h_madhi_s64) : WS_PICK_AVX2(h_madhi_u64)) : NULL;
        return PICK6(h_mad);
    case WS_OP_FMA:
        if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half;
        if (f32) return in->flags & (WS_F_FTZ | WS_F_SAT) ? h_fma_f32 : select_fma_f32_plain();
        return f64 ? h_fma_f64 : NULL;
    case WS_OP_MUL24: return W == 32 ? (sgn ? WS_PICK_AVX2(h_mul24_s32) : WS_PICK_AVX2(h_mul24_u32)) : NULL;
    case WS_OP_MAD24: return W == 32 ? (sgn ? WS_PICK_AVX2(h_mad24_s32) : WS_PICK_AVX2(h_mad24_u32)) : NULL;
    case WS_OP_SAD: return W == 32 ? (sgn ? WS_PICK_AVX2(h_sad_s32) : WS_PICK_AVX2(h_sad_u32)) : NULL;
    case WS_OP_DIV:
        if (k == K_H || k == K_B) return h_half;
        if (f32) return h_div_f32;
        if (f64) return h_div_f64;
        return PICK6(h_div);
    case WS_OP_REM: return k == K_F ? NULL : PICK6(h_rem);
    case WS_OP_ABS:
        if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half;
        if (f32) return h_abs_f32;
        if (f64) return h_abs_f64;
        return PICK6(h_abs);
    case WS_OP_NEG:
        if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half;
        if (f32) return h_neg_f32;
        if (f64) return h_neg_f64;
        return PICK6(h_neg);
    case WS_OP_MIN:
        if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half;
        if (f32) return h_min_f32;
        if (f64) return h_min_f64;
        return PICK6(h_min);
    case WS_OP_MAX:
        if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half;
        if (f32) return h_max_f32;
        if (f64) return h_max_f64;
        return PICK6(h_max);
    case WS_OP_COPYSIGN: return f32 ? h_copysign_f32 : f64 ? h_copysign_f64 : NULL;
    case WS_OP_TESTP: return (f32 || f64) ? h_testp : NULL;
    case WS_OP_SQRT: if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half; return f32 ? h_sqrt_f32 : f64 ? h_sqrt_f64 : NULL;
    case WS_OP_RSQRT: if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half; return f32 ? h_rsqrt_f32 : f64 ? h_rsqrt_f64 : NULL;
    case WS_OP_RCP: if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half; return f32 ? h_rcp_f32 : f64 ? h_rcp_f64 : NULL;
    case WS_OP_SIN: if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half; return f32 ? h_sin_f32 : f64 ? h_sin_f64 : NULL;
    case WS_OP_COS: if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half; return f32 ? h_cos_f32 : f64 ? h_cos_f64 : NULL;
    case WS_OP_LG2: if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half; return f32 ? h_lg2_f32 : f64 ? h_lg2_f64 : NULL;
    case WS_OP_EX2: if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half; return f32 ? h_ex2_f32 : f64 ? h_ex2_f64 : NULL;
    case WS_OP_TANH: if (k == K_H || k == K_H2 || k == K_B || k == K_B2) return h_half; return f32 ? h_tanh_f32 : NULL;
    case WS_OP_AND: case WS_OP_OR: case WS_OP_XOR: case WS_OP_NOT:
        if (k == K_P) return h_pred_logic;
        if (in->op == WS_OP_AND) return PICK6(h_and);
        if (in->op == WS_OP_OR) return PICK6(h_or);
        if (in->op == WS_OP_XOR) return PICK6(h_xor);
        return PICK6(h_not);
    case WS_OP_CNOT: return PICK6(h_cnot);
    case WS_OP_SHL: return PICK6(h_shl);
    case WS_OP_SHR: return PICK6(h_shr);
    case WS_OP_SHF: return h_shf;
    case WS_OP_LOP3: return h_lop3;
    case WS_OP_POPC: return W == 64 ? WS_PICK_AVX2(h_popc_u64) : WS_PICK_AVX2(h_popc_u32);
    case WS_OP_CLZ: return h_clz;
    case WS_OP_BFIND: return h_bfind;
    case WS_OP_BREV: return h_brev;
    case WS_OP_BFE: return h_bfe;
    case WS_OP_BFI: return h_bfi;
    case WS_OP_BMSK: return h_bmsk;
    case WS_OP_PRMT: return h_prmt;
    case WS_OP_DP4A: case WS_OP_DP2A: return h_dp;
    case WS_OP_SETP: return select_setp(in);
    case WS_OP_SET: return h_set;
    case WS_OP_SELP: return k == K_P ? NULL : WS_PICK_AVX2(h_selp);
    case WS_OP_SLCT: return h_slct;
    case WS_OP_MOV:
        if (in->flags & WS_F_LOCALSYM) return h_mov_localsym;
        if (in->sub == WS_MOV_CLOCK || in->sub == WS_MOV_CLOCK64 || in->sub == WS_MOV_GLOBALTIMER) return h_mov_clock;
        if (in->sub == WS_MOV_UNPACK)
            return W == 64 && in->nd == 2 && in->d[0] != WS_SR_SINK && in->d[1] != WS_SR_SINK ? h_mov_unpack_2x32
                                                                                             : h_mov_unpack;
        if (in->sub == WS_MOV_PACK) return W == 64 && in->ns == 2 ? h_mov_pack_2x32 : h_mov_pack;
        if (k == K_P) return h_pred_logic;
        return W <= 32 ? WS_PICK_AVX2(h_mov32) : WS_PICK_AVX2(h_mov);
    case WS_OP_CVT: {
        int fp8 = 0;
        ws_handler h8 = ws_fp8_cvt_handler(in, &fp8);
        if (fp8) return h8;   /* NULL: an fp8 form PTX does not define (a load error names it) */
    }
        if (in->type == WS_T_U64 && (in->type2 == WS_T_U32 || in->type2 == WS_T_B32)) return WS_PICK_AVX2(h_cvt_u64_u32);
        if (in->type == WS_T_S64 && in->type2 == WS_T_S32) return WS_PICK_AVX2(h_cvt_s64_s32);
        if (in->type == WS_T_F32 && in->type2 == WS_T_S32 && (in->rnd == WS_R_RN || !in->rnd)) return h_cvt_f32_s32;
        if (in->type == WS_T_F32 && in->type2 == WS_T_U32 && (in->rnd == WS_R_RN || !in->rnd)) return h_cvt_f32_u32;
        if (in->type == WS_T_F64 && in->type2 == WS_T_F32 && !(in->flags & (WS_F_FTZ | WS_F_SAT)) && !in->rnd) return h_cvt_f64_f32;
        return h_cvt;
    default: return NULL;
    }
}

/* Handler for an arithmetic/logic/move instruction (directed rounding goes through a wrapper). */
ws_handler ws_alu_handler(const ws_insn *in)
{
    ws_handler h = select_rn(in);
    if (!h) return NULL;
    int k = kind_of(in->type);
    if ((k == K_F) && in->op != WS_OP_CVT && (in->rnd == WS_R_RZ || in->rnd == WS_R_RM || in->rnd == WS_R_RP)) return h_round_wrap;
    return h;
}
