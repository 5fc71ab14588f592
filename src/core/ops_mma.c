/* ops_mma.c - handlers of the tensor-core and matrix-move instructions: wmma.load/store/mma, mma.sync, ldmatrix,
 * stmatrix and movmatrix. Fragments live in the lanes' registers in the H200's layout: the wmma layouts were
 * measured on the device (mma_layout.h), the mma.sync ones are the PTX ISA's. Arithmetic as the H200 does it
 * (checked bit for bit against its results, tests/data/h200/tensor): f16/bf16/tf32 products exact, aligned to the
 * largest exponent of the block (products' exponent = sum of the inputs' exponents) and c, truncated toward zero
 * 25 bits below it, summed exactly, the sum rounded toward zero; f64 one IEEE fma per k in order; integers exact,
 * wrapping or saturating (.satfinite). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include "ops.h"
#include "mma_layout.h"
#include "observe.h"

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

/* matrix operands gathered from the lanes */
typedef struct mx_mats {
    uint64_t a[MX_MAXE][MX_K], b[MX_K][MX_MAXE], c[MX_MAXE][MX_MAXE];
} mx_mats;

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

/* D = A*B + C for float inputs; kb is the hardware block (16 for f16/bf16, 4 for wmma tf32, else the k) */
static void mma_float(const ws_mma *x, mx_mats *M, int kb)
{
    static _Thread_local mx_in sa[MX_MAXE][MX_K], sb[MX_MAXE][MX_K];   /* sb: B transposed (columns) */
    static _Thread_local float fa[MX_MAXE][MX_K], fb[MX_MAXE][MX_K];
    static _Thread_local uint8_t spa[MX_MAXE][MX_K], spb[MX_MAXE][MX_K];   /* a special input in the block at k0 */
    for (int i = 0; i < x->m; i++)
        for (int k = 0; k < x->k; k++) {
            fa[i][k] = in_float(M->a[i][k], x->atype);
            sa[i][k] = mx_split_bits(M->a[i][k], x->atype);
            if (k % kb == 0) spa[i][k] = 0;
            spa[i][k - k % kb] |= sa[i][k].special;
        }
    for (int k = 0; k < x->k; k++)
        for (int j = 0; j < x->n; j++) {
            fb[j][k] = in_float(M->b[k][j], x->btype);
            sb[j][k] = mx_split_bits(M->b[k][j], x->btype);
            if (k % kb == 0) spb[j][k] = 0;
            spb[j][k - k % kb] |= sb[j][k].special;
        }
    for (int j = 0; j < x->n; j++)
        for (int i = 0; i < x->m; i++) {
            float acc = x->ctype == WS_MT_F16 ? ws_half_to_float((uint16_t)M->c[i][j]) : f32_of(M->c[i][j]);
            for (int k0 = 0; k0 < x->k; k0 += kb)
                acc = fused_block(&sa[i][k0], &sb[j][k0], kb, acc, &fa[i][k0], &fb[j][k0], spa[i][k0] | spb[j][k0]);
            M->c[i][j] = x->dtype == WS_MT_F16 ? ws_float_to_half(acc, WS_R_RN) : bits_f32(acc);
        }
}

/* D = A*B + C in f64: one fma per k, in order */
static void mma_f64(const ws_mma *x, mx_mats *M)
{
    for (int i = 0; i < x->m; i++)
        for (int j = 0; j < x->n; j++) {
            double acc = f64_of(M->c[i][j]);
            for (int k = 0; k < x->k; k++) acc = fma(f64_of(M->a[i][k]), f64_of(M->b[k][j]), acc);
            M->c[i][j] = bits_f64(acc);
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
            int64_t s = (int32_t)(uint32_t)M->c[i][j];
            for (int k = 0; k < x->k; k++) {
                if (x->atype == WS_MT_B1) s += x->bop ? (M->a[i][k] & M->b[k][j] & 1) : ((M->a[i][k] ^ M->b[k][j]) & 1);
                else s += in_int(M->a[i][k], x->atype) * in_int(M->b[k][j], x->btype);
            }
            if (x->satf) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
            M->c[i][j] = (uint32_t)(int32_t)(uint32_t)(uint64_t)s;
        }
}

/* c + sum a[k] * b[k] over n elements (bits of types at, bt: f16, bf16, tf32, fp8) in hardware blocks of kb, as
 * mma.sync forms its sums (fused_block); for wgmma (ops_wgmma.c). */
float ws_mx_dot(const uint64_t *a, int at, const uint64_t *b, int bt, int n, int kb, float c)
{
    mx_in sa[MX_K], sb[MX_K];
    float fa[MX_K], fbv[MX_K];
    if (n > MX_K) n = MX_K;
    for (int k = 0; k < n; k++) {
        sa[k] = mx_split_bits(a[k], at); fa[k] = in_float(a[k], at);
        sb[k] = mx_split_bits(b[k], bt); fbv[k] = in_float(b[k], bt);
    }
    for (int k0 = 0; k0 < n; k0 += kb)
        c = fused_block(&sa[k0], &sb[k0], kb < n - k0 ? kb : n - k0, c, &fa[k0], &fbv[k0], -1);
    return c;
}

/* compute D from the gathered A, B, C by the types */
static void mma_compute(const ws_mma *x, mx_mats *M, int kb)
{
    if (x->atype == WS_MT_F64) mma_f64(x, M);
    else if (x->ctype == WS_MT_S32) mma_int(x, M);
    else mma_float(x, M, kb);
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

/* gather A, B, C of wmma.mma (kind WMMA) or mma.sync (MMA) from the lanes' registers */
static int gather(ws_warp *w, const ws_insn *in, mx_mats *M)
{
    const ws_mma *x = in->mma;
    int wm = x->kind == WS_MX_WMMA, sub = wm && mt_bits(x->atype) < 8;
    for (int use = 0; use < 3; use++) {
        int t = use == 0 ? x->atype : use == 1 ? x->btype : x->ctype, eb = mt_bits(t);
        const int32_t *regs = use == 0 ? x->a : use == 1 ? x->b : x->c;
        int nregs = use == 0 ? x->na : use == 1 ? x->nb : x->nc;
        const ws_mx_layout *L = NULL;
        const uint8_t *rc = NULL;
        int nel = nregs * (eb == 64 ? 1 : 32 / eb);
        if (wm && !sub) {
            L = wmma_layout(use, x, t);
            if (!L) { ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "wmma.mma: no fragment layout for this shape and type"); return -1; }
            nel = L->nel;
            rc = layout_rc(L);
        }
        /* backwards, so that an element held twice (f16 a/b of the k16 wmma shapes) takes its first copy */
        for (int l = 31; l >= 0; l--)
            for (int i = nel - 1; i >= 0; i--) {
                int r, c;
                if (L) { r = rc[2 * (l * nel + i)]; c = rc[2 * (l * nel + i) + 1]; }
                else if (sub) {
                    if (use == 2) { r = l >> 2; c = 2 * (l & 3) + i; } else sub_rc(eb, use, l, i, &r, &c);
                } else mma_rc(x, use, t, l, i, &r, &c);
                uint64_t v = frag_get(w, regs, eb, i, l);
                if (use == 0) M->a[r][c] = v;
                else if (use == 1) M->b[r][c] = v;
                else M->c[r][c] = v;
            }
    }
    return 0;
}

/* scatter D to the lanes' registers */
static void scatter(ws_warp *w, const ws_insn *in, mx_mats *M)
{
    const ws_mma *x = in->mma;
    int wm = x->kind == WS_MX_WMMA, sub = wm && mt_bits(x->atype) < 8, eb = mt_bits(x->dtype);
    const ws_mx_layout *L = wm && !sub ? wmma_layout(2, x, x->dtype) : NULL;
    const uint8_t *rc = L ? layout_rc(L) : NULL;
    int nel = L ? L->nel : x->nd * (eb == 64 ? 1 : 32 / eb);
    for (int l = 0; l < 32; l++)
        for (int i = 0; i < nel; i++) {
            int r, c;
            if (L) { r = rc[2 * (l * nel + i)]; c = rc[2 * (l * nel + i) + 1]; }
            else if (sub) { r = l >> 2; c = 2 * (l & 3) + i; }
            else mma_rc(x, 2, x->dtype, l, i, &r, &c);
            frag_set(w, x->d, eb, i, l, M->c[r][c]);
        }
}

/* wmma.mma and mma.sync */
static void h_mma(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    if (!need_full(w, in, mask)) return;
    static _Thread_local mx_mats mats;
    mx_mats *M = &mats;
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
