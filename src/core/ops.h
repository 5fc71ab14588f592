/* ops.h - helpers shared by the instruction handlers: register access, lane loops, float bit casts. */
#ifndef WS_OPS_H
#define WS_OPS_H

#include <string.h>
#include "exec.h"

/* register slot r of lane l in the warp's current window */
#define RG(r, l) (w->regs[(size_t)(r) * WS_LANES + (l)])
/* predicate register r as a lane mask */
#define PM(r) ((uint32_t)w->regs[(size_t)(r) * WS_LANES])

/* Run body for every lane set in mask, in lane order (full warps take an unconditional loop the compiler can
 * vectorize; lanes 0..n-1, as a block's last warp or a tid < n branch has them, and any other single run of lanes,
 * as tid >= n has, counted loops). */
#define FOR_LANES(mask, ...) do { \
    uint32_t m_ = (mask); \
    if (m_ == 0xffffffffu) { for (int l = 0; l < 32; l++) { __VA_ARGS__; } } \
    else if (!(m_ & (m_ + 1))) { const int n_ = __builtin_popcount(m_); for (int l = 0; l < n_; l++) { __VA_ARGS__; } } \
    else if (!(((m_ >> __builtin_ctz(m_)) + 1) & (m_ >> __builtin_ctz(m_)))) { \
        const int lo_ = __builtin_ctz(m_), hi_ = lo_ + __builtin_popcount(m_); \
        for (int l = lo_; l < hi_; l++) { __VA_ARGS__; } \
    } else { while (m_) { int l = __builtin_ctz(m_); m_ &= m_ - 1; __VA_ARGS__; } } \
} while (0)

/* Write predicate bits under mask. */
#define PSET(r, bits, mask) do { \
    uint64_t *p_ = &w->regs[(size_t)(r) * WS_LANES]; \
    *p_ = (uint32_t)((((uint32_t)*p_) & ~(mask)) | ((bits) & (mask))); \
} while (0)

/* x86-64: the hottest lane loops have a second version compiled for AVX2 (four 64-bit lanes per instruction),
 * chosen at decode time where the processor has it; integer lanes and comparisons only, so the results are the
 * same bits. WS_AVX2_PAIR(name, body...) defines handler name and name_avx2 with one body; WS_PICK_AVX2(name)
 * chooses between them. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WS_AVX2_PAIR(name, ...) \
    static void name(ws_warp *w, const ws_insn *in, uint32_t mask) { __VA_ARGS__; } \
    __attribute__((target("avx2"))) static void name##_avx2(ws_warp *w, const ws_insn *in, uint32_t mask) \
    { __VA_ARGS__; }
#define WS_PICK_AVX2(name) (__builtin_cpu_supports("avx2") ? name##_avx2 : name)
#else
#define WS_AVX2_PAIR(name, ...) static void name(ws_warp *w, const ws_insn *in, uint32_t mask) { __VA_ARGS__; }
#define WS_PICK_AVX2(name) (name)
#endif

/* float <-> bits */
static inline float f32_of(uint64_t v) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
static inline uint64_t bits_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double f64_of(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t bits_f64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* Effective address of lane l (register base plus offset, or frame base plus offset for local symbols). */
static inline uint64_t eaddr(ws_warp *w, const ws_insn *in, int l)
{
    /* the shared space is 32-bit: a 32-bit base register plus the offset wraps (nvcc folds negative offsets) */
    if (in->base >= 0) return in->space == WS_S_SHARED ? (uint32_t)(RG(in->base, l) + (uint64_t)in->imm)
                                                       : RG(in->base, l) + (uint64_t)in->imm;
    if (in->space == WS_S_LOCAL) return (uint64_t)w->local_base + (uint64_t)in->imm;
    return (uint64_t)in->imm;
}

/* half precision conversions (round to nearest even) */
float ws_half_to_float(uint16_t h);
uint16_t ws_float_to_half(float f, int rnd);
float ws_bf16_to_float(uint16_t h);
uint16_t ws_float_to_bf16(float f, int rnd);

/* C += A * B for float element bits (types at, bt; B by columns) as the tensor cores sum, in blocks of kb terms;
 * m, n, k at most 32 (ops_mma.c) */
void ws_mx_tile(int at, int bt, const uint64_t *A, int lda, const uint64_t *B, int ldb, float *C, int ldc, int m,
                int n, int k, int kb);

/* fp8 formats (fp8.c): OCP E4M3 and E5M2 */
enum { WS_FP8_E4M3, WS_FP8_E5M2, WS_FP8_COUNT };
/* x as an fp8 code, rounded to nearest even; sat: .satfinite; relu: negatives to +0. */
uint8_t ws_fp8_from_double(double x, int fmt, int sat, int relu);
/* The value of an fp8 code (exact; NaN for NaN codes). */
double ws_fp8_to_double(uint8_t c, int fmt);
/* The handler of an fp8 cvt (*is_fp8: the cvt names an fp8 type); NULL when not one PTX defines. */
ws_handler ws_fp8_cvt_handler(const ws_insn *in, int *is_fp8);

#endif
