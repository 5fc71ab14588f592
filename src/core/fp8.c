/* fp8.c - the OCP 8-bit floating-point formats of sm_89+ (E4M3: bias 7, no infinities, one NaN per sign
 * S.1111.111, largest 448; E5M2: bias 15, IEEE-like, infinities S.11111.00, largest 57344): conversions to and
 * from them as cvt does them (round to nearest even; .satfinite clamps to the largest finite value, infinities
 * too; a NaN becomes 0x7f; .relu makes negatives +0), bit-exact with an H200 over every f16 input. */
#include <math.h>
#include "ops.h"

/* mantissa bits, bias, largest finite code, the code of an overflow without .satfinite, NaN of each format */
static const struct { int mbits, bias; uint8_t maxcode, infcode, nancode; } fmts[WS_FP8_COUNT] = {
    [WS_FP8_E4M3] = { 3, 7, 0x7e, 0x7f, 0x7f },   /* no infinity: an overflow without .satfinite is NaN */
    [WS_FP8_E5M2] = { 2, 15, 0x7b, 0x7c, 0x7f },
};

/* x as an fp8 code of format fmt, rounded to nearest even; sat: .satfinite; relu: negatives (and -0) to +0. */
uint8_t ws_fp8_from_double(double x, int fmt, int sat, int relu)
{
    const int mb = fmts[fmt].mbits, bias = fmts[fmt].bias;
    if (isnan(x)) return fmts[fmt].nancode;
    unsigned sign = signbit(x) ? 0x80u : 0;
    if (relu && sign) return 0;
    double a = fabs(x);
    if (isinf(a)) return (uint8_t)(sign | (sat ? fmts[fmt].maxcode : fmts[fmt].infcode));
    if (a == 0) return (uint8_t)sign;
    int e;
    frexp(a, &e);
    e -= 1;                                   /* a = 1.f x 2^e */
    const int emin = 1 - bias;
    unsigned code;
    if (e < emin) {                           /* subnormal: units of 2^(emin - mb); 2^mb rounds up to the smallest normal */
        code = (unsigned)nearbyint(ldexp(a, mb - emin));
    } else {
        unsigned q = (unsigned)nearbyint(ldexp(a, mb - e));   /* in [2^mb, 2^(mb+1)] */
        if (q == 2u << mb) { q = 1u << mb; e++; }
        unsigned biased = (unsigned)(e + bias);
        code = biased >= 1u << (7 - mb) ? 0x100u : (biased << mb) | (q - (1u << mb));   /* 0x100: overflow */
    }
    if (code > fmts[fmt].maxcode) code = sat ? fmts[fmt].maxcode : fmts[fmt].infcode;
    return (uint8_t)(sign | code);
}

/* The value of fp8 code c of format fmt (exact in double; NaN for NaN codes). */
double ws_fp8_to_double(uint8_t c, int fmt)
{
    const int mb = fmts[fmt].mbits, bias = fmts[fmt].bias;
    unsigned mag = c & 0x7fu, ex = mag >> mb, man = mag & ((1u << mb) - 1);
    double s = (c & 0x80u) ? -1.0 : 1.0;
    if (fmt == WS_FP8_E4M3 && mag == 0x7fu) return NAN;
    if (fmt == WS_FP8_E5M2 && ex == 0x1fu) return man ? NAN : s * INFINITY;
    if (!ex) return s * ldexp((double)man, 1 - bias - mb);
    return s * ldexp((double)((1u << mb) | man), (int)ex - bias - mb);
}

/* cvt between fp8 pairs and f32 / f16x2: cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b (a to the upper
 * byte), .f16x2 d, a (upper half to the upper byte), and cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a (exact; a NaN
 * becomes 0x7fff, as on an H200). */
static void h_cvt_fp8(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int dt = in->type, st = in->type2, relu = (in->flags & WS_F_RELU) != 0, sat = (in->flags & WS_F_SAT) != 0;
    const int d = in->d[0], a = in->s[0], b = in->s[1];
    if (st == WS_T_E4M3X2 || st == WS_T_E5M2X2) {
        const int fmt = st == WS_T_E5M2X2 ? WS_FP8_E5M2 : WS_FP8_E4M3;
        FOR_LANES(mask, {
            uint32_t v = (uint32_t)RG(a, l), r = 0;
            for (int k = 1; k >= 0; k--) {
                double x = ws_fp8_to_double((uint8_t)(v >> (8 * k)), fmt);
                if (relu && !isnan(x) && (x < 0 || signbit(x))) x = 0;
                uint16_t h = isnan(x) ? 0x7fff : ws_float_to_half((float)x, WS_R_RN);
                r = (r << 16) | h;
            }
            RG(d, l) = r;
        });
        return;
    }
    const int fmt = dt == WS_T_E5M2X2 ? WS_FP8_E5M2 : WS_FP8_E4M3;
    FOR_LANES(mask, {
        double hi, lo;
        if (st == WS_T_F32) { hi = f32_of(RG(a, l)); lo = f32_of(RG(b, l)); }
        else { uint32_t v = (uint32_t)RG(a, l); hi = ws_half_to_float((uint16_t)(v >> 16)); lo = ws_half_to_float((uint16_t)v); }
        RG(d, l) = (uint32_t)ws_fp8_from_double(hi, fmt, sat, relu) << 8 | ws_fp8_from_double(lo, fmt, sat, relu);
    });
}

/* The handler of an fp8 cvt form; NULL for a cvt that has no fp8 type, or an fp8 form PTX does not define. */
ws_handler ws_fp8_cvt_handler(const ws_insn *in, int *is_fp8)
{
    int dt = in->type, st = in->type2;
    int d8 = dt == WS_T_E4M3X2 || dt == WS_T_E5M2X2, s8 = st == WS_T_E4M3X2 || st == WS_T_E5M2X2;
    *is_fp8 = d8 || s8;
    if (in->op != WS_OP_CVT || !*is_fp8 || in->rnd != WS_R_RN) return NULL;
    if (d8 && (st == WS_T_F32 || st == WS_T_F16X2) && (in->flags & WS_F_SAT)) return h_cvt_fp8;
    if (s8 && dt == WS_T_F16X2 && !(in->flags & WS_F_SAT)) return h_cvt_fp8;
    return NULL;
}
