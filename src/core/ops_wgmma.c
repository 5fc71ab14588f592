/* ops_wgmma.c - wgmma (sm_90a): the warpgroup-level multiply-add D = A*B + D of m64nNk{8,16,32} with A and B in
 * shared memory through 64-bit matrix descriptors (or A in registers), f16/bf16/tf32/e4m3/e5m2/s8/u8 inputs and
 * f16/f32/s32 accumulators; wgmma.fence, commit_group and wait_group.
 *
 * Each of the warpgroup's four warps computes its own 16 rows of D (warp w % 4: rows 16w..16w+15), from its rows of
 * A and all of B, so the warps need not meet. The fragments are the PTX ISA's: accumulator register j of lane l
 * (g = l / 4, t = l % 4) holds, per 8 columns, rows g and g + 8, columns 2t and 2t + 1 (f16: two per register); A
 * in registers as mma.sync's m16 A fragment of the same k. A shared-memory operand is in one of the PTX ISA's
 * canonical layouts. K-major: row r (of M or N), K byte kb at
 *   no swizzle:  start + (r / 8) * SBO + (kb / 16) * LBO + (r % 8) * 16 + kb % 16
 *   swizzle S:   start + (r / 8) * SBO + (kb / S) * LBO + (r % 8) * S + kb % S
 * MN-major (imm-trans 1: 16-bit types only), MN byte mb = r * element size, K index k at
 *   no swizzle:  start + (mb / 16) * SBO + (k / 8) * LBO + (k % 8) * 16 + mb % 16
 *   swizzle S:   start + (mb / S) * LBO + (k / 8) * SBO + (k % 8) * S + mb % S
 * then, swizzled, the S-byte swizzle of the address (the 16-byte chunk bits 4.. XOR bits 7..), as the tensor copies
 * lay tiles out.
 * Functionally the product is complete when the instruction issues; in timing mode the tensor pipe is busy for
 * the warp's share and wgmma.wait_group waits until the warp's multiply-adds are done (timing.c). */
#include <stdlib.h>
#include "ops.h"
#include "tmap.h"

#define WG_ROWS 16   /* rows of D per warp */

/* bits of one element of a wgmma input type */
static int elem_bytes(int t)
{
    return t == WS_MT_F16 || t == WS_MT_BF16 ? 2 : t == WS_MT_TF32 ? 4 : 1;
}

/* element (row r of M or N, K index k) of a shared-memory matrix described by desc, K-major or (mn) MN-major; 0
 * with a fault when outside */
static uint64_t desc_elem(ws_warp *w, const ws_insn *in, uint64_t desc, int mn, int r, int k, int es, int *bad)
{
    uint32_t start = (uint32_t)(desc & 0x3fff) << 4, lbo = (uint32_t)((desc >> 16) & 0x3fff) << 4;
    uint32_t sbo = (uint32_t)((desc >> 32) & 0x3fff) << 4, kb = (uint32_t)(k * es), mb = (uint32_t)(r * es);
    uint32_t ur = (uint32_t)r, uk = (uint32_t)k;
    int mode = (int)(desc >> 62);   /* 0 none, 1 128B, 2 64B, 3 32B */
    static const int sw[4] = { WS_TMAP_SWIZZLE_NONE, WS_TMAP_SWIZZLE_128B, WS_TMAP_SWIZZLE_64B, WS_TMAP_SWIZZLE_32B };
    uint32_t a;
    if (!mode) {
        a = mn ? start + (mb / 16) * sbo + (uk / 8) * lbo + (uk % 8) * 16 + mb % 16
               : start + (ur / 8) * sbo + (kb / 16) * lbo + (ur % 8) * 16 + kb % 16;
    } else {
        uint32_t span = ws_tmap_swizzle_span(sw[mode]);
        a = mn ? start + (mb / span) * lbo + (uk / 8) * sbo + (uk % 8) * span + mb % span
               : start + (ur / 8) * sbo + (kb / span) * lbo + (ur % 8) * span + kb % span;
        a = ws_tmap_swizzle(a, sw[mode]);
    }
    if ((size_t)a + (size_t)es > w->blk->smem_size) {
        if (!*bad)
            ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "wgmma: the matrix descriptor 0x%016llx reaches shared address 0x%x, "
                     "past the block's %zu bytes", (unsigned long long)desc, a, w->blk->smem_size);
        *bad = 1;
        return 0;
    }
    uint64_t v = 0;
    memcpy(&v, w->blk->smem + a, (size_t)es);
    return v;
}

/* an element's bits negated (imm-scale -1) */
static uint64_t negated(uint64_t v, int t)
{
    return v ^ (t == WS_MT_F16 || t == WS_MT_BF16 ? 0x8000u : t == WS_MT_TF32 ? 0x80000000u : 0x80u);
}

/* sign-extended integer element */
static int64_t int_elem(uint64_t v, int t) { return t == WS_MT_S8 ? (int8_t)(uint8_t)v : (int64_t)(uint8_t)v; }

/* wgmma.mma_async: the warp's 16 rows of D = A * B (+ D when scale-d) */
static void h_wgmma_mma(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const ws_mma *x = in->mma;
    if (mask != w->full || w->full != 0xffffffffu) {
        ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "wgmma.mma_async executed by lanes 0x%08x: every lane of the "
                 "warpgroup's warps must execute it (.sync.aligned)", mask);
        return;
    }
    const int N = x->n, K = x->k, at = x->atype, bt = x->btype, ea = elem_bytes(at), eb = elem_bytes(bt);
    const int m0 = WG_ROWS * (w->warp_in_block & 3);
    static _Thread_local uint64_t A[WG_ROWS][32], B[256][32];   /* A[row][k], B[n][k] (K-major) */
    int bad = 0;
    uint64_t bdesc = RG(x->b[0], 0);
    for (int j = 0; j < N && !bad; j++)
        for (int k = 0; k < K; k++) {
            uint64_t v = desc_elem(w, in, bdesc, x->mn_b, j, k, eb, &bad);
            B[j][k] = x->scale_b < 0 ? negated(v, bt) : v;
        }
    if (x->areg) {   /* mma.sync's m16 A fragment: register q, element p of lane (g, t) */
        int per = 4 / ea;
        for (int l = 0; l < 32; l++) {
            int g = l >> 2, t = l & 3;
            for (int q = 0; q < 4; q++) {
                uint32_t reg = (uint32_t)RG(x->a[q], l);
                for (int p = 0; p < per; p++) {
                    int r = g + 8 * (q % 2), c = per * t + p + (q / 2) * 4 * per;
                    uint64_t v = ea == 4 ? reg : (reg >> (8 * ea * p)) & ((1u << (8 * ea)) - 1);
                    A[r][c] = v;
                }
            }
        }
    } else {
        uint64_t adesc = RG(x->a[0], 0);
        for (int r = 0; r < WG_ROWS && !bad; r++)
            for (int k = 0; k < K; k++) A[r][k] = desc_elem(w, in, adesc, x->mn_a, m0 + r, k, ea, &bad);
    }
    if (bad) return;
    if (x->scale_a < 0) for (int r = 0; r < WG_ROWS; r++) for (int k = 0; k < K; k++) A[r][k] = negated(A[r][k], at);
    int sd_const = x->extra >= w->fn->first_const;
    uint32_t scale_d = sd_const ? (RG(x->extra, 0) ? 0xffffffffu : 0) : (uint32_t)PM(x->extra);
    int f16acc = x->dtype == WS_MT_F16, integer = x->dtype == WS_MT_S32;
    static _Thread_local float Cf[WG_ROWS][256];   /* the float accumulators, by tiles of 32 columns */
    if (!integer) {
        for (int l = 0; l < 32; l++) {
            int g = l >> 2, t = l & 3, keep = (scale_d >> l) & 1;
            for (int e = 0; e < (f16acc ? 2 : 1) * x->nd; e++) {
                int r = g + 8 * ((e % 4) / 2), c = (e / 4) * 8 + 2 * t + e % 2;
                uint64_t old = f16acc ? (RG(x->d[e / 2], l) >> (16 * (e % 2))) & 0xffffu : RG(x->d[e], l) & 0xffffffffu;
                Cf[r][c] = keep ? (f16acc ? ws_half_to_float((uint16_t)old) : f32_of(old)) : 0.0f;
            }
        }
        for (int c0 = 0; c0 < N; c0 += 32)
            ws_mx_tile(at, bt, &A[0][0], 32, &B[c0][0], 32, &Cf[0][c0], 256, WG_ROWS, N - c0 < 32 ? N - c0 : 32, K, K);
    }
    for (int l = 0; l < 32; l++) {
        int g = l >> 2, t = l & 3, keep = (scale_d >> l) & 1;
        for (int i = 0; i < x->nd; i++) {
            int parts = f16acc ? 2 : 1;
            uint64_t out = 0;
            for (int h = 0; h < parts; h++) {
                int e = f16acc ? 2 * i + h : i;      /* accumulator element: 4 per 8 columns */
                int r = g + 8 * ((e % 4) / 2), c = (e / 4) * 8 + 2 * t + e % 2;
                uint64_t old = f16acc ? (RG(x->d[i], l) >> (16 * h)) & 0xffffu : RG(x->d[i], l) & 0xffffffffu;
                if (integer) {
                    int64_t s = keep ? (int32_t)(uint32_t)old : 0;
                    for (int k = 0; k < K; k++) s += int_elem(A[r][k], at) * int_elem(B[c][k], bt);
                    if (x->satf) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                    out = (uint32_t)(int32_t)s;
                } else {
                    float acc = Cf[r][c];
                    out |= f16acc ? (uint64_t)ws_float_to_half(acc, WS_R_RN) << (16 * h) : bits_f32(acc);
                }
            }
            RG(x->d[i], l) = out;
        }
    }
}

/* wgmma.fence / commit_group / wait_group: ordering only here (the timing engine makes wait_group wait) */
static void h_wgmma_sync(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    (void)w; (void)in; (void)mask;
}

/* The handler of a wgmma instruction; NULL for others. */
ws_handler ws_wgmma_handler(const ws_insn *in)
{
    if (in->op != WS_OP_WGMMA || !in->mma) return NULL;
    return in->mma->kind == WS_MX_WGMMA ? h_wgmma_mma : h_wgmma_sync;
}
