/* ops_mem.c - handlers for loads, stores, atomics and address conversion in every state space. */
#include <math.h>
#include "ops.h"

/* Host pointer for a global (or constant) address; inline fast path, slow path for everything else. */
static inline uint8_t *xlate_global(ws_warp *w, uint64_t addr, unsigned size, int lane)
{
    uint64_t off = addr - w->L->gbase;
    if (off < w->L->glimit && off + size <= w->L->glimit) return w->L->gstore + off;
    return ws_xlate_slow(w, addr, size, lane);
}

/* Host pointer for a shared-memory offset, NULL when out of the block's shared memory. */
static inline uint8_t *xlate_shared(ws_warp *w, uint64_t addr, unsigned size)
{
    if (addr + size <= w->blk->smem_size && addr + size >= addr) return w->blk->smem + addr;
    return NULL;
}

/* Host pointer for a local-memory address of lane l, NULL when out of its stack. */
static inline uint8_t *xlate_local(ws_warp *w, uint64_t addr, unsigned size, int l)
{
    size_t stride = w->L->local_stride;
    if (addr + size <= stride && addr + size >= addr) return w->local + (size_t)l * stride + addr;
    return NULL;
}

/* Host pointer for lane l's access in the instruction's state space; faults the warp when invalid. */
static uint8_t *lane_ptr(ws_warp *w, const ws_insn *in, int l, unsigned size)
{
    uint64_t a = eaddr(w, in, l);
    uint8_t *p = NULL;
    const char *sp = "global";
    switch (in->space) {
    case WS_S_GLOBAL: case WS_S_CONST: p = xlate_global(w, a, size, l); sp = in->space == WS_S_CONST ? "constant" : "global"; break;
    case WS_S_SHARED:   /* shared::cluster: its block's or a cluster partner's */
        p = (in->flags & WS_F_DSMEM) ? ws_dsmem_ptr(w, a, size) : xlate_shared(w, a, size);
        sp = (in->flags & WS_F_DSMEM) ? "shared::cluster" : "shared";
        break;
    case WS_S_LOCAL: p = xlate_local(w, a, size, l); sp = "local"; break;
    case WS_S_PARAM_K:
        if (a + size <= w->L->entry->param_bytes) p = w->L->params + a;
        sp = "param";
        break;
    default: p = xlate_global(w, a, size, l); sp = "generic"; break;
    }
    if (!p && w->state != WS_W_FAULT) {
        ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "invalid %s %s of size %u at address 0x%llx by thread (%u,%u,%u) in block (%u,%u,%u)",
                 sp, (in->op == WS_OP_ST || in->op == WS_OP_RED) ? "write" : in->op == WS_OP_ATOM ? "atomic" : "read", size,
                 (unsigned long long)a, (unsigned)RG(WS_SR_TID_X, l), (unsigned)RG(WS_SR_TID_Y, l), (unsigned)RG(WS_SR_TID_Z, l),
                 w->blk->id.x, w->blk->id.y, w->blk->id.z);
    }
    if (p && size > 1 && (a & (size - 1)) && in->space != WS_S_PARAM_K && w->state != WS_W_FAULT) {
        ws_fault(w, in, WS_ERR_MISALIGNED_ADDRESS, "misaligned %s access of size %u at address 0x%llx by thread (%u,%u,%u) in block (%u,%u,%u)",
                 sp, size, (unsigned long long)a, (unsigned)RG(WS_SR_TID_X, l), (unsigned)RG(WS_SR_TID_Y, l),
                 (unsigned)RG(WS_SR_TID_Z, l), w->blk->id.x, w->blk->id.y, w->blk->id.z);
        return NULL;
    }
    return p;
}

/* Read size bytes at p as a register value, sign-extending signed types. */
static inline uint64_t load_val(const uint8_t *p, unsigned size, int sgn)
{
    switch (size) {
    case 1: return sgn ? (uint64_t)(int64_t)*(const int8_t *)p : *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return sgn ? (uint64_t)(int64_t)(int16_t)v : v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return sgn ? (uint64_t)(int64_t)(int32_t)v : v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* Whether a type is a signed integer. */
static inline int is_signed(int t) { return t == WS_T_S8 || t == WS_T_S16 || t == WS_T_S32 || t == WS_T_S64; }

/* ld (any space, any size, vectors) */
static void h_ld(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    unsigned es = (unsigned)ws_type_size(in->type), n = in->vec;
    int sgn = is_signed(in->type);
    if (in->space == WS_S_PARAM_K && in->base < 0) {
        /* kernel parameters: one value for the whole warp */
        if ((uint64_t)in->imm + es * n > w->L->entry->param_bytes) { lane_ptr(w, in, __builtin_ctz(mask), es * n); return; }
        const uint8_t *p = w->L->params + in->imm;
        for (unsigned k = 0; k < n; k++) {
            uint64_t v = load_val(p + k * es, es, sgn);
            const int d = in->d[k];
            FOR_LANES(mask, { RG(d, l) = v; });
        }
        return;
    }
    if (es == 16) {  /* .b128 */
        FOR_LANES(mask, {
            uint8_t *p = lane_ptr(w, in, l, 16);
            if (!p) return;
            memcpy(&RG(in->d[0], l), p, 8);
            memcpy(&RG(in->d[1], l), p + 8, 8);
        });
        return;
    }
    FOR_LANES(mask, {
        uint8_t *p = lane_ptr(w, in, l, es * n);
        if (!p) return;
        for (unsigned k = 0; k < n; k++) RG(in->d[k], l) = load_val(p + k * es, es, sgn);
    });
}

/* ld.param of one 4- or 8-byte kernel parameter (no base register): one value for every lane; sx: sign-extend a
 * 4-byte .s32 (a constant in each handler below) */
static inline __attribute__((always_inline)) void ld_param_1(ws_warp *w, const ws_insn *in, uint32_t mask,
                                                           const unsigned es, const int sx)
{
    if ((uint64_t)in->imm + es > w->L->entry->param_bytes) { h_ld(w, in, mask); return; }
    const uint8_t *p = w->L->params + in->imm;
    const uint64_t v = load_val(p, es, sx);
    const int d = in->d[0];
    FOR_LANES(mask, { RG(d, l) = v; });
}
WS_AVX2_PAIR(h_ld_param_4, ld_param_1(w, in, mask, 4, 0))
WS_AVX2_PAIR(h_ld_param_s4, ld_param_1(w, in, mask, 4, 1))
WS_AVX2_PAIR(h_ld_param_8, ld_param_1(w, in, mask, 8, 0))

/* cvta of a global address (the global window starts at 0: a copy, truncated for a 32-bit result) */
WS_AVX2_PAIR(h_cvta_global, const int d = in->d[0], a = in->s[0]; FOR_LANES(mask, { RG(d, l) = RG(a, l); }))
WS_AVX2_PAIR(h_cvta_global32, const int d = in->d[0], a = in->s[0]; FOR_LANES(mask, { RG(d, l) = (uint32_t)RG(a, l); }))

/* A full warp's offsets rb[l] + k (wrapped to 32 bits for shared memory) of S-byte accesses (S = 4 or 8): 1 when
 * every offset is in [0, lim - S] and aligned, 0 otherwise (for the lane-by-lane path with its errors); *seq: the
 * offsets are consecutive elements from lane 0's. The compiler turns the pass into vector code: an offset o is in
 * range when neither o nor (lim - S) - o has bit 63 set, lim being far below 2^63. */
static inline __attribute__((always_inline)) int offsets_warp(const uint64_t *rb, uint64_t k, const int wrap32,
                                                              uint64_t lim, const unsigned S, int *seq)
{
    uint64_t range = 0, low = 0;
    const uint64_t last = lim - S;
    for (int l = 0; l < WS_LANES; l++) {
        uint64_t o = wrap32 ? (uint32_t)(rb[l] + k) : rb[l] + k;
        range |= o | (last - o);
        low |= o;
    }
    /* consecutive: the registers step by S (the offsets then do too: in range, none of them wraps) */
    *seq = 0;
    if (rb[WS_LANES - 1] - rb[0] == (uint64_t)S * (WS_LANES - 1)) {
        uint64_t diff = 0;
        for (int l = 1; l < WS_LANES; l++) diff |= rb[l] - rb[l - 1] - S;
        *seq = !diff;
    }
    return !((range >> 63) | (low & (S - 1)) | (last >> 62));
}

/* Read an S-byte element (S = 4 or 8) at p as a register value; sx: sign-extend a 4-byte one. */
static inline __attribute__((always_inline)) uint64_t elem_load(const uint8_t *p, const unsigned S, const int sx)
{
    if (S == 8) { uint64_t v; memcpy(&v, p, 8); return v; }
    uint32_t v;
    memcpy(&v, p, 4);
    return sx ? (uint64_t)(int64_t)(int32_t)v : v;
}

/* Write the low S bytes of register value v at p. */
static inline __attribute__((always_inline)) void elem_store(uint8_t *p, uint64_t v, const unsigned S)
{
    if (S == 8) memcpy(p, &v, 8);
    else { uint32_t u = (uint32_t)v; memcpy(p, &u, 4); }
}

/* Consecutive S-byte elements from src into a full warp's rd, and a full warp's rs into consecutive elements at
 * dst (a register file and simulated memory never overlap: vector loads and stores without a copy). */
static inline __attribute__((always_inline)) void seq_load(uint64_t *restrict rd, const uint8_t *restrict src,
                                                         const unsigned S, const int sx)
{
    for (int l = 0; l < WS_LANES; l++) rd[l] = elem_load(src + (size_t)l * S, S, sx);
}
static inline __attribute__((always_inline)) void seq_store(uint8_t *restrict dst, const uint64_t *restrict rs,
                                                          const unsigned S)
{
    for (int l = 0; l < WS_LANES; l++) elem_store(dst + (size_t)l * S, rs[l], S);
}

/* Half a warp's S-byte loads (lanes h..h+15 of rb and rd) from base + (rb[l] + k), their offsets checked: 16
 * consecutive elements are one copy, one address for all 16 (a row of a 16 x 16 block reading its tile, say) one
 * load, anything else a load per lane. */
static inline __attribute__((always_inline)) void load_half(const uint64_t *rb, uint64_t k, const int wrap32,
                                                          const uint8_t *base, uint64_t *rd, const unsigned S,
                                                          const int sx)
{
    const uint8_t *p0 = base + (wrap32 ? (uint32_t)(rb[0] + k) : rb[0] + k);
    if (rb[15] - rb[0] == (uint64_t)S * 15) {
        uint64_t diff = 0;
        for (int l = 1; l < 16; l++) diff |= rb[l] - rb[l - 1] - S;
        if (!diff) {
            for (int l = 0; l < 16; l++) rd[l] = elem_load(p0 + (size_t)l * S, S, sx);
            return;
        }
    } else if (rb[15] == rb[0]) {
        uint64_t diff = 0;
        for (int l = 1; l < 16; l++) diff |= rb[l] ^ rb[0];
        if (!diff) {
            const uint64_t v = elem_load(p0, S, sx);
            for (int l = 0; l < 16; l++) rd[l] = v;
            return;
        }
    }
#pragma GCC unroll 8
    for (int l = 0; l < 16; l++) rd[l] = elem_load(base + (wrap32 ? (uint32_t)(rb[l] + k) : rb[l] + k), S, sx);
}

/* A full warp's S-byte loads from base + (rb[l] + k) into rd (which may be rb), as offsets_warp allows; 0 with
 * nothing loaded when it does not. sx: sign-extend, as h_ld does. Consecutive elements are one block copy; else
 * each half warp by itself (load_half). */
static inline __attribute__((always_inline)) int load_warp(const uint64_t *rb, uint64_t k, const int wrap32,
                                                          uint64_t lim, const uint8_t *base, uint64_t *rd,
                                                          const unsigned S, const int sx)
{
    int seq;
    if (!offsets_warp(rb, k, wrap32, lim, S, &seq)) return 0;
    if (seq) {
        seq_load(rd, base + (wrap32 ? (uint32_t)(rb[0] + k) : rb[0] + k), S, sx);
        return 1;
    }
    load_half(rb, k, wrap32, base, rd, S, sx);            /* lanes 0-15 (rd may be rb: the halves are apart) */
    load_half(rb + 16, k, wrap32, base, rd + 16, S, sx);  /* lanes 16-31 */
    return 1;
}

/* A full warp's S-byte stores of rs's low bytes to base + (rb[l] + k), lane 0 first (the last lane writing an
 * address wins), as offsets_warp allows; 0 with nothing stored when it does not. Consecutive elements are one
 * block copy. */
static inline __attribute__((always_inline)) int store_warp(const uint64_t *rb, uint64_t k, const int wrap32,
                                                           uint64_t lim, uint8_t *base, const uint64_t *rs,
                                                           const unsigned S)
{
    int seq;
    if (!offsets_warp(rb, k, wrap32, lim, S, &seq)) return 0;
    if (seq) {
        seq_store(base + (wrap32 ? (uint32_t)(rb[0] + k) : rb[0] + k), rs, S);
        return 1;
    }
#pragma GCC unroll 8
    for (int l = 0; l < WS_LANES; l++) elem_store(base + (wrap32 ? (uint32_t)(rb[l] + k) : rb[l] + k), rs[l], S);
    return 1;
}

/* ld.global of one S-byte scalar (S = 4 or 8), the common case; sx: .s32, which sign-extends into a 64-bit
 * destination as h_ld does (constants in each handler below, so the lane loop has no decision in it) */
static inline __attribute__((always_inline)) void ld_global_1(ws_warp *w, const ws_insn *in, uint32_t mask,
                                                            const unsigned S, const int sx)
{
    const int d = in->d[0], b = in->base;
    const uint64_t imm = (uint64_t)in->imm, lim = w->L->glimit, gb = w->L->gbase;
    uint8_t *store = w->L->gstore;
    if (mask == 0xffffffffu && lim >= S && load_warp(&RG(b, 0), imm - gb, 0, lim, store, &RG(d, 0), S, sx)) return;
    FOR_LANES(mask, {
        uint64_t off = RG(b, l) + imm - gb;
        if (off + S > lim || (off & (S - 1))) { h_ld(w, in, 1u << l); if (w->state == WS_W_FAULT) return; continue; }
        RG(d, l) = elem_load(store + off, S, sx);
    });
}

/* ld.global .b32/.u32/.f32, .s32 and 64-bit scalars */
WS_AVX2_PAIR(h_ld_global_b32, ld_global_1(w, in, mask, 4, 0))
WS_AVX2_PAIR(h_ld_global_s32, ld_global_1(w, in, mask, 4, 1))
WS_AVX2_PAIR(h_ld_global_b64, ld_global_1(w, in, mask, 8, 0))

/* ld.shared of one S-byte scalar; sx as ld_global_1 */
static inline __attribute__((always_inline)) void ld_shared_1(ws_warp *w, const ws_insn *in, uint32_t mask,
                                                            const unsigned S, const int sx)
{
    const int d = in->d[0], b = in->base;
    const uint64_t imm = (uint64_t)in->imm, lim = w->blk->smem_size;
    uint8_t *sm = w->blk->smem;
    if (mask == 0xffffffffu && b >= 0 && lim >= S && load_warp(&RG(b, 0), imm, 1, lim, sm, &RG(d, 0), S, sx)) return;
    FOR_LANES(mask, {
        uint64_t a = (uint32_t)((b >= 0 ? RG(b, l) : 0) + imm);   /* 32-bit shared addresses wrap */
        if (a + S > lim || (a & (S - 1))) { h_ld(w, in, 1u << l); return; }
        RG(d, l) = elem_load(sm + a, S, sx);
    });
}

/* ld.shared .b32/.u32/.f32, .s32 and 64-bit scalars */
WS_AVX2_PAIR(h_ld_shared_b32, ld_shared_1(w, in, mask, 4, 0))
WS_AVX2_PAIR(h_ld_shared_s32, ld_shared_1(w, in, mask, 4, 1))
WS_AVX2_PAIR(h_ld_shared_b64, ld_shared_1(w, in, mask, 8, 0))

/* ld/st.global and .shared .v2/.v4 of S-byte elements (uint4 copies and the like; st: a store) by a full warp
 * whose vectors all lie in the space, aligned to their size: lane by lane, lane 0 first (the last lane writing an
 * address wins), the elements straight between memory and the registers (a load's destination may be its base
 * register: each lane reads its address before it writes); otherwise h_ld/h_st and their errors. */
static void h_st(ws_warp *w, const ws_insn *in, uint32_t mask);
static inline __attribute__((always_inline)) void vec_1(ws_warp *w, const ws_insn *in, uint32_t mask, const int sh,
                                                      const unsigned S, const unsigned n, const int st)
{
    const int b = in->base;
    uint8_t *base = sh ? w->blk->smem : w->L->gstore;
    const uint64_t k = sh ? (uint64_t)in->imm : (uint64_t)in->imm - w->L->gbase;
    const uint64_t lim = sh ? w->blk->smem_size : w->L->glimit;
    int seq;
    if (mask != 0xffffffffu || lim < S * n || !offsets_warp(&RG(b, 0), k, sh, lim, S * n, &seq)) {
        if (st) h_st(w, in, mask); else h_ld(w, in, mask);
        return;
    }
    int r[4];
    for (unsigned e = 0; e < n; e++) r[e] = st ? in->s[e] : in->d[e];
    for (int l = 0; l < WS_LANES; l++) {
        uint8_t *p = base + (sh ? (uint32_t)(RG(b, l) + k) : RG(b, l) + k);
        for (unsigned e = 0; e < n; e++) {
            if (st) elem_store(p + e * S, RG(r[e], l), S);
            else RG(r[e], l) = elem_load(p + e * S, S, 0);
        }
    }
}

/* the vector loads and stores: global and shared, .v2/.v4 of 32-bit and .v2 of 64-bit elements */
WS_AVX2_PAIR(h_ld_global_v2b32, vec_1(w, in, mask, 0, 4, 2, 0))
WS_AVX2_PAIR(h_ld_global_v4b32, vec_1(w, in, mask, 0, 4, 4, 0))
WS_AVX2_PAIR(h_ld_global_v2b64, vec_1(w, in, mask, 0, 8, 2, 0))
WS_AVX2_PAIR(h_ld_shared_v2b32, vec_1(w, in, mask, 1, 4, 2, 0))
WS_AVX2_PAIR(h_ld_shared_v4b32, vec_1(w, in, mask, 1, 4, 4, 0))
WS_AVX2_PAIR(h_ld_shared_v2b64, vec_1(w, in, mask, 1, 8, 2, 0))
WS_AVX2_PAIR(h_st_global_v2b32, vec_1(w, in, mask, 0, 4, 2, 1))
WS_AVX2_PAIR(h_st_global_v4b32, vec_1(w, in, mask, 0, 4, 4, 1))
WS_AVX2_PAIR(h_st_global_v2b64, vec_1(w, in, mask, 0, 8, 2, 1))
WS_AVX2_PAIR(h_st_shared_v2b32, vec_1(w, in, mask, 1, 4, 2, 1))
WS_AVX2_PAIR(h_st_shared_v4b32, vec_1(w, in, mask, 1, 4, 4, 1))
WS_AVX2_PAIR(h_st_shared_v2b64, vec_1(w, in, mask, 1, 8, 2, 1))

/* st (any space, any size, vectors) */
static void h_st(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    unsigned es = (unsigned)ws_type_size(in->type), n = in->ns ? in->ns : 1;
    if (es == 16) {
        FOR_LANES(mask, {
            uint8_t *p = lane_ptr(w, in, l, 16);
            if (!p) return;
            memcpy(p, &RG(in->s[0], l), 8);
            memcpy(p + 8, &RG(in->s[1], l), 8);
        });
        return;
    }
    FOR_LANES(mask, {
        uint8_t *p = lane_ptr(w, in, l, es * n);
        if (!p) return;
        for (unsigned k = 0; k < n; k++) memcpy(p + k * es, &RG(in->s[k], l), es);
    });
}

/* st.global of one S-byte scalar */
static inline __attribute__((always_inline)) void st_global_1(ws_warp *w, const ws_insn *in, uint32_t mask,
                                                            const unsigned S)
{
    const int s = in->s[0], b = in->base;
    const uint64_t imm = (uint64_t)in->imm, lim = w->L->glimit, gb = w->L->gbase;
    uint8_t *store = w->L->gstore;
    if (mask == 0xffffffffu && lim >= S && store_warp(&RG(b, 0), imm - gb, 0, lim, store, &RG(s, 0), S)) return;
    FOR_LANES(mask, {
        uint64_t off = RG(b, l) + imm - gb;
        if (off + S > lim || (off & (S - 1))) { h_st(w, in, 1u << l); if (w->state == WS_W_FAULT) return; continue; }
        elem_store(store + off, RG(s, l), S);
    });
}

/* st.global 32- and 64-bit scalars */
WS_AVX2_PAIR(h_st_global_b32, st_global_1(w, in, mask, 4))
WS_AVX2_PAIR(h_st_global_b64, st_global_1(w, in, mask, 8))

/* st.shared of one S-byte scalar */
static inline __attribute__((always_inline)) void st_shared_1(ws_warp *w, const ws_insn *in, uint32_t mask,
                                                            const unsigned S)
{
    const int s = in->s[0], b = in->base;
    const uint64_t imm = (uint64_t)in->imm, lim = w->blk->smem_size;
    uint8_t *sm = w->blk->smem;
    if (mask == 0xffffffffu && b >= 0 && lim >= S && store_warp(&RG(b, 0), imm, 1, lim, sm, &RG(s, 0), S)) return;
    FOR_LANES(mask, {
        uint64_t a = (uint32_t)((b >= 0 ? RG(b, l) : 0) + imm);   /* 32-bit shared addresses wrap */
        if (a + S > lim || (a & (S - 1))) { h_st(w, in, 1u << l); return; }
        elem_store(sm + a, RG(s, l), S);
    });
}

/* st.shared 32- and 64-bit scalars */
WS_AVX2_PAIR(h_st_shared_b32, st_shared_1(w, in, mask, 4))
WS_AVX2_PAIR(h_st_shared_b64, st_shared_1(w, in, mask, 8))

/* Apply an atomic operation to the value at p; returns the old value. */
uint64_t ws_atomic_apply(const ws_insn *in, uint8_t *p, uint64_t b, uint64_t c)
{
    int t = in->type;
    unsigned sz = (unsigned)ws_type_size(t);
    uint64_t old = load_val(p, sz, 0), nv = old;
    switch (in->sub) {
    case WS_SUB_ADD:
        if (t == WS_T_F32) nv = bits_f32(f32_of(old) + f32_of(b));
        else if (t == WS_T_F64) nv = bits_f64(f64_of(old) + f64_of(b));
        else if (t == WS_T_F16X2 || t == WS_T_BF16X2 || t == WS_T_F16 || t == WS_T_BF16) {
            int bf = t == WS_T_BF16X2 || t == WS_T_BF16, pairs = (t == WS_T_F16X2 || t == WS_T_BF16X2) ? 2 : 1;
            nv = 0;
            for (int h = 0; h < pairs; h++) {
                uint16_t x = (uint16_t)(old >> (16 * h)), y = (uint16_t)(b >> (16 * h));
                float r = bf ? ws_bf16_to_float(x) + ws_bf16_to_float(y) : ws_half_to_float(x) + ws_half_to_float(y);
                nv |= (uint64_t)(bf ? ws_float_to_bf16(r, WS_R_RN) : ws_float_to_half(r, WS_R_RN)) << (16 * h);
            }
        } else nv = old + b;
        break;
    case WS_SUB_MIN: case WS_SUB_MAX: {
        int mx = in->sub == WS_SUB_MAX, lt;
        if (t == WS_T_S32) lt = (int32_t)b < (int32_t)old;
        else if (t == WS_T_S64) lt = (int64_t)b < (int64_t)old;
        else if (t == WS_T_F32) lt = f32_of(b) < f32_of(old);
        else if (t == WS_T_F64) lt = f64_of(b) < f64_of(old);
        else if (sz == 4) lt = (uint32_t)b < (uint32_t)old;
        else lt = b < old;
        int gt;
        if (t == WS_T_S32) gt = (int32_t)b > (int32_t)old;
        else if (t == WS_T_S64) gt = (int64_t)b > (int64_t)old;
        else if (t == WS_T_F32) gt = f32_of(b) > f32_of(old);
        else if (t == WS_T_F64) gt = f64_of(b) > f64_of(old);
        else if (sz == 4) gt = (uint32_t)b > (uint32_t)old;
        else gt = b > old;
        if ((mx && gt) || (!mx && lt)) nv = b;
        break;
    }
    case WS_SUB_INC: nv = (uint32_t)old >= (uint32_t)b ? 0 : (uint32_t)old + 1; break;
    case WS_SUB_DEC: nv = ((uint32_t)old == 0 || (uint32_t)old > (uint32_t)b) ? (uint32_t)b : (uint32_t)old - 1; break;
    case WS_SUB_CAS: {
        uint64_t m = sz == 8 ? ~0ull : sz == 4 ? 0xffffffffull : 0xffffull;
        if ((old & m) == (b & m)) nv = c;
        break;
    }
    case WS_SUB_EXCH: nv = b; break;
    case WS_SUB_AND: nv = old & b; break;
    case WS_SUB_OR: nv = old | b; break;
    case WS_SUB_XOR: nv = old ^ b; break;
    default: break;
    }
    memcpy(p, &nv, sz);
    return old;
}

/* atom / red: lanes apply their operation one after another, in lane order */
static void h_atom(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    unsigned sz = (unsigned)ws_type_size(in->type);
    int is_red = in->op == WS_OP_RED;
    const int d = in->d[0], b = in->s[0], c = in->s[1];
    FOR_LANES(mask, {
        uint8_t *p = lane_ptr(w, in, l, sz);
        if (!p) return;
        uint64_t old = ws_atomic_apply(in, p, RG(b, l), RG(c, l));
        if (!is_red) RG(d, l) = old;
    });
}

/* cvta / cvta.to: generic <-> state-space addresses */
static void h_cvta(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int d = in->d[0], a = in->s[0];
    uint64_t base = in->space == WS_S_SHARED ? WS_SHARED_WIN : in->space == WS_S_LOCAL ? WS_LOCAL_WIN
                  : in->space == WS_S_PARAM_F || in->space == WS_S_PARAM_K ? WS_PARAM_WIN : 0;
    int to = (in->flags & WS_F_TO) != 0;
    int narrow = ws_type_size(in->type) == 4;
    FOR_LANES(mask, {
        uint64_t v = RG(a, l);
        uint64_t r = to ? v - base : v + base;
        RG(d, l) = narrow ? (uint32_t)r : r;
    });
}

/* isspacep.space p, a */
static void h_isspacep(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    const int a = in->s[0];
    uint32_t bits = 0;
    FOR_LANES(mask, {
        uint64_t v = RG(a, l);
        int r;
        switch (in->space) {
        case WS_S_SHARED: r = v - WS_SHARED_WIN < WS_WIN_SPAN; break;
        case WS_S_LOCAL: r = v - WS_LOCAL_WIN < WS_WIN_SPAN; break;
        case WS_S_PARAM_F: case WS_S_PARAM_K: r = v - WS_PARAM_WIN < WS_WIN_SPAN; break;
        default: r = !(v - WS_SHARED_WIN < WS_WIN_SPAN) && !(v - WS_LOCAL_WIN < WS_WIN_SPAN) &&
                     !(v - WS_PARAM_WIN < WS_WIN_SPAN); break;
        }
        bits |= (uint32_t)r << l;
    });
    PSET(in->d[0], bits, mask);
}

/* prefetch and other memory hints: nothing to do functionally */
static void h_nop(ws_warp *w, const ws_insn *in, uint32_t mask) { (void)w; (void)in; (void)mask; }

/* A synchronizing load (.acquire/.relaxed/.volatile) of global memory: a warp of a cooperative launch that reads a
 * flag, as the grid barrier spins, yields to the other blocks in the functional engine (they all are resident). */
static void h_ld_sync(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    h_ld(w, in, mask);
    const ws_run *L = w->L;
    if (!L->coop_ws || w->state != WS_W_RUN) return;
    int grid = mask && eaddr(w, in, __builtin_ctz(mask)) - L->coop_ws < WS_COOP_WS_BYTES;
    if (grid) w->gb_ninst = w->ninst;
    if (L->timed) return;
    w->state = WS_W_YIELD;
    w->blk->grid_spins += grid;
}

/* The full-warp vector handler (vec_1) of a load or store (st) of n elements of es bytes with a base register in
 * global or shared memory, or NULL: .v2/.v4 of 32-bit and .v2 of 64-bit elements. */
static ws_handler vec_handler(const ws_insn *in, unsigned es, int n, int st)
{
    if (!((n == 2 || n == 4) && (es == 4 || (es == 8 && n == 2)) && in->base >= 0 &&
          (in->space == WS_S_GLOBAL || (in->space == WS_S_SHARED && !(in->flags & WS_F_DSMEM)))))
        return NULL;
    const ws_handler tab[2][2][3] = {   /* [st][shared][.v2.b32, .v4.b32, .v2.b64] */
        { { WS_PICK_AVX2(h_ld_global_v2b32), WS_PICK_AVX2(h_ld_global_v4b32), WS_PICK_AVX2(h_ld_global_v2b64) },
          { WS_PICK_AVX2(h_ld_shared_v2b32), WS_PICK_AVX2(h_ld_shared_v4b32), WS_PICK_AVX2(h_ld_shared_v2b64) } },
        { { WS_PICK_AVX2(h_st_global_v2b32), WS_PICK_AVX2(h_st_global_v4b32), WS_PICK_AVX2(h_st_global_v2b64) },
          { WS_PICK_AVX2(h_st_shared_v2b32), WS_PICK_AVX2(h_st_shared_v4b32), WS_PICK_AVX2(h_st_shared_v2b64) } },
    };
    return tab[st][in->space == WS_S_SHARED][es == 8 ? 2 : n == 4 ? 1 : 0];
}

/* Handler for a memory instruction. */
ws_handler ws_mem_handler(const ws_insn *in)
{
    unsigned es = (unsigned)ws_type_size(in->type);
    ws_handler h;
    switch (in->op) {
    case WS_OP_LD: case WS_OP_LDU:
        if (!es) return NULL;
        if ((in->flags & WS_F_SYNCMEM) && (in->space == WS_S_GLOBAL || in->space == WS_S_GENERIC)) return h_ld_sync;
        if (in->space == WS_S_PARAM_K && in->base < 0 && in->vec == 1 && (es == 4 || es == 8))
            return es == 8 ? WS_PICK_AVX2(h_ld_param_8) : is_signed(in->type) ? WS_PICK_AVX2(h_ld_param_s4)
                                                                                : WS_PICK_AVX2(h_ld_param_4);
        if (in->vec == 1 && es == 4 && in->base >= 0 && (in->space == WS_S_GLOBAL))
            return in->type == WS_T_S32 ? WS_PICK_AVX2(h_ld_global_s32) : WS_PICK_AVX2(h_ld_global_b32);
        if (in->vec == 1 && es == 8 && in->base >= 0 && (in->space == WS_S_GLOBAL)) return WS_PICK_AVX2(h_ld_global_b64);
        if (in->vec == 1 && es == 4 && in->space == WS_S_SHARED && !(in->flags & WS_F_DSMEM))
            return in->type == WS_T_S32 ? WS_PICK_AVX2(h_ld_shared_s32) : WS_PICK_AVX2(h_ld_shared_b32);
        if (in->vec == 1 && es == 8 && in->space == WS_S_SHARED && !(in->flags & WS_F_DSMEM))
            return WS_PICK_AVX2(h_ld_shared_b64);
        if (!is_signed(in->type) && (h = vec_handler(in, es, in->vec, 0)) != NULL) return h;
        return h_ld;
    case WS_OP_ST:
        if (!es) return NULL;
        if (in->ns == 1 && (es == 4 || es == 8) && in->base >= 0 && in->space == WS_S_GLOBAL)
            return es == 4 ? WS_PICK_AVX2(h_st_global_b32) : WS_PICK_AVX2(h_st_global_b64);
        if (in->ns == 1 && (es == 4 || es == 8) && in->space == WS_S_SHARED && !(in->flags & WS_F_DSMEM))
            return es == 4 ? WS_PICK_AVX2(h_st_shared_b32) : WS_PICK_AVX2(h_st_shared_b64);
        if ((h = vec_handler(in, es, in->ns, 1)) != NULL) return h;
        return h_st;
    case WS_OP_ATOM: case WS_OP_RED:
        if (!es || !in->sub) return NULL;
        return h_atom;
    case WS_OP_CVTA:
        if (in->space == WS_S_GLOBAL) return es == 4 ? WS_PICK_AVX2(h_cvta_global32) : WS_PICK_AVX2(h_cvta_global);
        return h_cvta;
    case WS_OP_ISSPACEP: return h_isspacep;
    case WS_OP_PREFETCH: case WS_OP_PREFETCHU: return h_nop;
    default: return NULL;
    }
}
