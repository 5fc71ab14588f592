/* ops_tex.c - handlers for the texture and surface instructions: tex (1d, 2d, 3d, a1d, a2d, cube, acube), tld4
 * (gather), txq, suld.b and sust.b. The instruction's base register holds a 64-bit object handle; the GPU's
 * lookup (ws_gpu_set_tex_lookup, installed by the runtime) turns it into a ws_texres.
 *
 * Sampling follows the CUDA programming guide's texture-fetching appendix: a normalised coordinate u becomes
 * x = u * N; nearest-point takes texel floor(x); linear filtering takes xB = x - 0.5, i = floor(xB) and the
 * fraction frac(xB) in 1.8 fixed point (rounded to the nearest 1/256, so 1.0 is representable). Address modes
 * apply to each texel index (wrap, clamp, mirror; border gives the border colour). Several dimensions weight
 * each texel by the product of its per-dimension weights, itself rounded to 1/256 (measured on an H200: the
 * guide's unrounded product differs from the hardware in most bilinear fetches; in 3D the z and x weights'
 * product is rounded first, then its product with the y weight); the weighted sum is rounded
 * once to f32, to nearest with ties away from zero (as measured). */
#include <math.h>
#include "ops.h"
#include "observe.h"

/* the resource lane l's object names, or NULL (and a fault) when the handle names none of the right kind */
static const ws_texres *tex_res(ws_warp *w, const ws_insn *in, int l, int surface)
{
    uint64_t h = RG(in->base, l);
    const ws_gpu *g = w->L->gpu;
    const ws_texres *t = g->tex_lookup ? g->tex_lookup(g->tex_ctx, h) : NULL;
    if ((!t || t->surface != surface) && w->state != WS_W_FAULT)
        ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "%s: 0x%llx is not a %s object (thread (%u,%u,%u) in block (%u,%u,%u))",
                 ws_opcode_name(in->op), (unsigned long long)h, surface ? "surface" : "texture",
                 (unsigned)RG(WS_SR_TID_X, l), (unsigned)RG(WS_SR_TID_Y, l), (unsigned)RG(WS_SR_TID_Z, l),
                 w->blk->id.x, w->blk->id.y, w->blk->id.z);
    return t && t->surface == surface ? t : NULL;
}

/* host pointer of n bytes at device address a (NULL and a fault when unmapped) */
static uint8_t *tex_ptr(ws_warp *w, const ws_insn *in, uint64_t a, unsigned n, int l)
{
    uint8_t *p = ws_xlate_slow(w, a, n, l);
    if (!p && w->state != WS_W_FAULT)
        ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "%s: texel at 0x%llx is not in device memory",
                 ws_opcode_name(in->op), (unsigned long long)a);
    return p;
}

/* one texel's channels as floats (read mode applied) or as raw integers (ival) */
typedef struct { float f[4]; uint32_t i[4]; } texel;

/* Read texel (x, y, slice) of t, converted by the read mode; zeros when the memory is unmapped. */
static texel texel_read(ws_warp *w, const ws_insn *in, const ws_texres *t, int64_t x, int64_t y, int64_t s, int l)
{
    texel v = { {0, 0, 0, 1}, {0, 0, 0, 1} };
    unsigned cb = t->chbytes, n = t->nch;
    uint64_t a = t->addr + (uint64_t)s * t->slice + (uint64_t)y * t->pitch + (uint64_t)x * cb * n;
    const uint8_t *p = tex_ptr(w, in, a, cb * n, l);
    if (!p) return v;
    for (unsigned c = 0; c < n; c++) {
        uint32_t raw = 0;
        memcpy(&raw, p + c * cb, cb);
        float f;
        if (t->kind == WS_TEXK_FLOAT) {
            f = cb == 2 ? ws_half_to_float((uint16_t)raw) : f32_of(raw);
            if (cb == 2) raw = (uint32_t)bits_f32(f);
        } else if (t->kind == WS_TEXK_SIGNED) {
            int32_t sv = cb == 1 ? (int8_t)raw : cb == 2 ? (int16_t)raw : (int32_t)raw;
            raw = (uint32_t)sv;
            f = t->norm_float && cb < 4 ? fmaxf((float)sv / (cb == 1 ? 127.0f : 32767.0f), -1.0f) : (float)sv;
        } else {
            f = t->norm_float && cb < 4 ? (float)raw / (cb == 1 ? 255.0f : 65535.0f) : (float)raw;
        }
        v.f[c] = f;
        v.i[c] = raw;
    }
    for (unsigned c = n; c < 3; c++) v.f[c] = 0, v.i[c] = 0;
    return v;
}

/* Texel index i of a dimension of n texels under address mode m; -1 when it falls on the border. */
static int64_t tex_index(int64_t i, int64_t n, int m)
{
    switch (m) {
    case WS_TEXA_WRAP: { int64_t r = i % n; return r < 0 ? r + n : r; }
    case WS_TEXA_MIRROR: {
        int64_t r = i % (2 * n);
        if (r < 0) r += 2 * n;
        return r >= n ? 2 * n - 1 - r : r;
    }
    case WS_TEXA_BORDER: return i < 0 || i >= n ? -1 : i;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

/* a sampling position: up to three dimensions, each with its two texel indices and 1.8 weights */
typedef struct { int nd; int64_t i[3][2]; int wt[3][2]; int64_t slice; int border_row; } tex_pos;

/* Place coordinate u of dimension d (of n texels) into pos: point (one texel) or linear (two, weighted). */
static void tex_place(const ws_texres *t, tex_pos *ps, int d, float u, int64_t n)
{
    int mode = t->addr_mode[d];
    if (!t->norm_coords && (mode == WS_TEXA_WRAP || mode == WS_TEXA_MIRROR)) mode = WS_TEXA_CLAMP;
    float x = t->norm_coords ? u * (float)n : u;
    if (!isfinite(x)) x = 0;   /* NaN/inf coordinates read texel 0 (or the border) */
    if (!t->filter_linear) {
        double fl = floor((double)x);
        ps->i[d][0] = ps->i[d][1] = tex_index((int64_t)fl, n, mode);
        ps->wt[d][0] = 256, ps->wt[d][1] = 0;
        return;
    }
    float xb = x - 0.5f;
    double fl = floor((double)xb);
    int a = (int)floor(((double)xb - fl) * 256.0 + 0.5);   /* frac in 1.8 fixed point */
    ps->i[d][0] = tex_index((int64_t)fl, n, mode);
    ps->i[d][1] = tex_index((int64_t)fl + 1, n, mode);
    ps->wt[d][0] = 256 - a, ps->wt[d][1] = a;
}

/* Round v/2^k to the nearest integer, ties to even (the product weights' rounding). */
static int64_t round_shift(int64_t v, int k)
{
    int64_t q = v >> k, r = v - (q << k), h = (int64_t)1 << (k - 1);
    return r > h || (r == h && (q & 1)) ? q + 1 : q;
}

/* v rounded to f32 to nearest, ties away from zero (an H200's filtered results round so). */
static float round_away(double v)
{
    float f = (float)v;
    if ((double)f == v || !isfinite(f)) return f;
    float g = (double)f < v ? nextafterf(f, INFINITY) : nextafterf(f, -INFINITY);
    double df = fabs((double)f - v), dg = fabs((double)g - v);
    if (df == dg) return fabsf(f) > fabsf(g) ? f : g;
    return df < dg ? f : g;
}

/* Filter at pos: the weighted sum of its texels (border texels take the border colour); out[4]. */
static void tex_filter(ws_warp *w, const ws_insn *in, const ws_texres *t, const tex_pos *ps, int l, float out[4])
{
    double acc[4] = {0, 0, 0, 0};
    int n1 = ps->nd > 1, n2 = ps->nd > 2;
    tex_pos q;
    if (ps->border_row) {
        /* An H200 filters a (non-layered) 1D texture as a 2D one of height 1 sampled at y = 0: rows -1 and 0 weigh half each;
         * with a border y mode row -1 is the border colour and row 0's weights are 128 - w and w, w the fraction's
         * half rounded up (measured: 4,096 of 4,096 fetches match) */
        q = *ps;
        q.wt[0][1] = (ps->wt[0][1] * 128 + 128) >> 8;
        q.wt[0][0] = 128 - q.wt[0][1];
        ps = &q;
        for (int c = 0; c < 4; c++) acc[c] = 128.0 * t->border[c];
    }
    for (int c2 = 0; c2 <= n2; c2++)
        for (int c1 = 0; c1 <= n1; c1++)
            for (int c0 = 0; c0 < 2; c0++) {
                /* 2D: the product rounded once; 3D: z times x rounded, then times y rounded (an H200's order) */
                int64_t wgt = ps->wt[0][c0];
                if (n2) wgt = round_shift(ps->wt[2][c2] * wgt, 8);
                if (n1) wgt = round_shift(wgt * ps->wt[1][c1], 8);
                if (!wgt) continue;
                int64_t x = ps->i[0][c0], y = n1 ? ps->i[1][c1] : 0, z = n2 ? ps->i[2][c2] : 0;
                if (x < 0 || y < 0 || z < 0) {
                    for (int c = 0; c < 4; c++) acc[c] += (double)wgt * t->border[c];
                    continue;
                }
                texel v = texel_read(w, in, t, x, y, ps->slice + z, l);
                for (int c = 0; c < 4; c++) acc[c] += (double)wgt * v.f[c];
            }
    for (int c = 0; c < 4; c++) out[c] = round_away(acc[c] / 256.0);
}

/* Map a cubemap direction to (face, s, t) with s, t normalised in [0, 1] (the guide's cubemap table). */
static int cube_face(float x, float y, float z, float *s, float *t)
{
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), sc, tc, ma;
    int face;
    if (ax >= ay && ax >= az) { ma = ax; face = x >= 0 ? 0 : 1; sc = x >= 0 ? -z : z; tc = -y; }
    else if (ay >= az) { ma = ay; face = y >= 0 ? 2 : 3; sc = x; tc = y >= 0 ? z : -z; }
    else { ma = az; face = z >= 0 ? 4 : 5; sc = z >= 0 ? x : -x; tc = -y; }
    if (ma == 0) ma = 1;
    *s = (sc / ma + 1.0f) * 0.5f;
    *t = (tc / ma + 1.0f) * 0.5f;
    return face;
}

/* Layer index of a layered fetch: compared as unsigned and clamped to the last layer (so -1 reads the last
 * layer, as an H200 does). */
static int64_t tex_layer(const ws_texres *t, int32_t layer, int per)
{
    uint32_t n = t->layers / (uint32_t)per;
    if (n < 1) n = 1;
    return (uint32_t)layer >= n ? n - 1 : (uint32_t)layer;
}

/* Write a float or integer result vector to the destinations (integer types receive the raw or converted
 * channel values). */
static void tex_write(ws_warp *w, const ws_insn *in, int l, const float f[4], const uint32_t *iv)
{
    for (int c = 0; c < 4 && c < in->nd; c++) {
        uint64_t v;
        if (in->type == WS_T_F32) v = bits_f32(f[c]);
        else v = iv ? iv[c] : in->type == WS_T_S32 ? (uint32_t)(int32_t)f[c] : (uint32_t)f[c];
        RG(in->d[c], l) = v;
    }
}

/* Sampling position of lane l: dimensions, slice (layer or face) and per-dimension texel choices. */
static int tex_position(ws_warp *w, const ws_insn *in, const ws_texres *t, int l, tex_pos *ps)
{
    float c[3] = {0, 0, 0};
    int k = 0;
    int32_t layer = 0;
    if (in->sub == WS_TG_A1D || in->sub == WS_TG_A2D || in->sub == WS_TG_ACUBE) layer = (int32_t)RG(in->s[k++], l);
    int nd = in->sub == WS_TG_1D || in->sub == WS_TG_A1D ? 1 : in->sub == WS_TG_2D || in->sub == WS_TG_A2D ? 2 : 3;
    for (int d = 0; d < nd; d++) c[d] = f32_of(RG(in->s[k + d], l));
    ps->slice = 0;
    ps->border_row = 0;
    if (in->sub == WS_TG_CUBE || in->sub == WS_TG_ACUBE) {
        if (!t->cubemap) return -1;
        float s, tt;
        int face = cube_face(c[0], c[1], c[2], &s, &tt);
        ps->slice = (in->sub == WS_TG_ACUBE ? tex_layer(t, layer, 6) * 6 : 0) + face;
        ws_texres u = *t;
        u.norm_coords = 1;
        ps->nd = 2;
        tex_place(&u, ps, 0, s, t->width);
        tex_place(&u, ps, 1, tt, t->height);
        return 0;
    }
    if (in->sub == WS_TG_A1D || in->sub == WS_TG_A2D) ps->slice = tex_layer(t, layer, 1);
    ps->nd = nd;
    ps->border_row = in->sub == WS_TG_1D && t->filter_linear && t->addr_mode[1] == WS_TEXA_BORDER;
    int64_t n[3] = { t->width, t->height, t->depth };
    for (int d = 0; d < nd; d++) tex_place(t, ps, d, c[d], n[d]);
    return 0;
}

/* tex with integer coordinates (tex1Dfetch and the like): texel fetch, no filtering */
static void tex_int_fetch(ws_warp *w, const ws_insn *in, const ws_texres *t, int l)
{
    int k = 0;
    int64_t slice = 0;
    if (in->sub == WS_TG_A1D || in->sub == WS_TG_A2D) slice = tex_layer(t, (int32_t)RG(in->s[k++], l), 1);
    int nd = in->sub == WS_TG_1D || in->sub == WS_TG_A1D ? 1 : in->sub == WS_TG_2D || in->sub == WS_TG_A2D ? 2 : 3;
    int64_t n[3] = { t->width, t->height, t->depth }, ix[3] = {0, 0, 0};
    int border = 0;
    for (int d = 0; d < nd; d++) {
        int64_t i = (int32_t)RG(in->s[k + d], l);
        int mode = t->linear ? WS_TEXA_BORDER : t->addr_mode[d];
        if (mode == WS_TEXA_WRAP || mode == WS_TEXA_MIRROR) mode = WS_TEXA_CLAMP;
        ix[d] = tex_index(i, n[d], mode);
        if (ix[d] < 0) border = 1;
    }
    if (border) {
        float f[4];
        uint32_t iv[4];
        for (int c = 0; c < 4; c++) f[c] = t->linear ? 0.0f : t->border[c], iv[c] = t->linear ? 0 : (uint32_t)(int32_t)f[c];
        tex_write(w, in, l, f, iv);
        return;
    }
    texel v = texel_read(w, in, t, ix[0], ix[1], slice + ix[2], l);
    tex_write(w, in, l, v.f, (t->kind == WS_TEXK_FLOAT || t->norm_float) ? NULL : v.i);
}

/* tex.{1d,2d,3d,a1d,a2d,cube,acube}.v4.{f32,s32,u32}.{f32,s32} */
static void h_tex(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    FOR_LANES(mask, {
        const ws_texres *t = tex_res(w, in, l, 0);
        if (!t) return;
        if (in->type2 != WS_T_F32) { tex_int_fetch(w, in, t, l); if (w->state == WS_W_FAULT) return; continue; }
        tex_pos ps;
        if (tex_position(w, in, t, l, &ps)) {
            ws_fault(w, in, WS_ERR_ILLEGAL_INSTRUCTION, "tex.cube on a texture that is not a cubemap");
            return;
        }
        int filt = t->kind == WS_TEXK_FLOAT || t->norm_float;
        if (filt || !t->filter_linear) {
            if (!filt) {   /* element-type integers: the nearest texel's raw channels */
                int64_t x = ps.i[0][0], y = ps.nd > 1 ? ps.i[1][0] : 0, z = ps.nd > 2 ? ps.i[2][0] : 0;
                if (x < 0 || y < 0 || z < 0) {
                    uint32_t iv[4];
                    for (int c = 0; c < 4; c++) iv[c] = (uint32_t)(int32_t)t->border[c];
                    tex_write(w, in, l, t->border, iv);
                } else {
                    texel v = texel_read(w, in, t, x, y, ps.slice + z, l);
                    tex_write(w, in, l, v.f, v.i);
                }
            } else {
                float f[4];
                tex_filter(w, in, t, &ps, l, f);
                tex_write(w, in, l, f, NULL);
            }
        }
        if (w->state == WS_W_FAULT) return;
    });
}

/* tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32: the component of the four texels bilinear filtering would use, in the
 * order (i, j+1), (i+1, j+1), (i+1, j), (i, j) */
static void h_tld4(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    FOR_LANES(mask, {
        const ws_texres *t = tex_res(w, in, l, 0);
        if (!t) return;
        ws_texres u = *t;
        u.filter_linear = 1;
        tex_pos ps;
        tex_position(w, in, &u, l, &ps);
        static const int ox[4] = {0, 1, 1, 0}, oy[4] = {1, 1, 0, 0};
        float f[4];
        uint32_t iv[4];
        for (int k = 0; k < 4; k++) {
            int64_t x = ps.i[0][ox[k]], y = ps.i[1][oy[k]];
            if (x < 0 || y < 0) { f[k] = t->border[in->cmp]; iv[k] = (uint32_t)(int32_t)f[k]; continue; }
            texel v = texel_read(w, in, t, x, y, ps.slice, l);
            f[k] = v.f[in->cmp];
            iv[k] = v.i[in->cmp];
        }
        tex_write(w, in, l, f, (t->kind == WS_TEXK_FLOAT || t->norm_float) ? NULL : iv);
        if (w->state == WS_W_FAULT) return;
    });
}

/* txq.{width,height,depth,...}.b32: a property of the texture */
static void h_txq(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    FOR_LANES(mask, {
        uint64_t h = RG(in->base, l);
        const ws_gpu *g = w->L->gpu;
        const ws_texres *t = g->tex_lookup ? g->tex_lookup(g->tex_ctx, h) : NULL;
        if (!t) { tex_res(w, in, l, 0); return; }
        uint32_t v = 0;
        switch (in->cmp) {
        case WS_TXQ_WIDTH: v = t->width; break;
        case WS_TXQ_HEIGHT: v = t->height; break;
        case WS_TXQ_DEPTH: v = t->depth; break;
        case WS_TXQ_CHANNEL_DATA_TYPE: v = t->kind; break;
        case WS_TXQ_CHANNEL_ORDER: v = t->nch; break;
        case WS_TXQ_NORMALIZED_COORDS: v = t->norm_coords; break;
        case WS_TXQ_FILTER_MODE: v = t->filter_linear; break;
        case WS_TXQ_ADDR_MODE_0: case WS_TXQ_ADDR_MODE_1: case WS_TXQ_ADDR_MODE_2:
            v = t->addr_mode[in->cmp - WS_TXQ_ADDR_MODE_0]; break;
        case WS_TXQ_ARRAY_SIZE: v = t->layered ? t->layers / (t->cubemap ? 6u : 1u) : 0; break;
        case WS_TXQ_NUM_MIPMAP_LEVELS: v = 1; break;
        default: v = 0; break;
        }
        RG(in->d[0], l) = v;
    });
}

/* operand k of sust's coordinates-then-values list (the two past s[] live in imm) */
static inline int sust_src(const ws_insn *in, int k)
{
    return k < WS_INSN_NSRC ? in->s[k] : (int32_t)(uint32_t)((uint64_t)in->imm >> (32 * (k - WS_INSN_NSRC)));
}

/* Coordinates of a surface access: number of coordinate operands, the layer operand first for a1d/a2d */
static int surf_ncoords(const ws_insn *in) { return in->sub == WS_TG_1D ? 1 : in->sub == WS_TG_2D || in->sub == WS_TG_A1D ? 2 : 3; }

/* Coordinates of lane l's surface access of n bytes: c[0] the byte offset across, c[1] the row, c[2] the slice
 * (depth or layer), lim[] their largest valid values. */
static void surf_coords(ws_warp *w, const ws_insn *in, const ws_texres *t, int l, unsigned n, int64_t c[3],
                        int64_t lim[3])
{
    int layered = in->sub == WS_TG_A1D || in->sub == WS_TG_A2D, k = layered;
    int nd = surf_ncoords(in) - layered;
    c[0] = c[1] = c[2] = 0;
    for (int d = 0; d < nd; d++) c[d] = (int32_t)RG(sust_src(in, k + d), l);
    if (layered) c[2] = (int32_t)RG(sust_src(in, 0), l);
    lim[0] = (int64_t)t->width * t->nch * t->chbytes - n;   /* x is in bytes */
    lim[1] = (int64_t)t->height - 1;
    lim[2] = (int64_t)(layered ? t->layers : t->depth) - 1;
}

/* Device address of lane l's surface access of n bytes, applying the boundary mode; 0 for a zeroed access,
 * 1 with a fault for a trapped one. */
static uint64_t surf_addr(ws_warp *w, const ws_insn *in, const ws_texres *t, int l, unsigned n)
{
    int64_t c[3], lim[3];
    surf_coords(w, in, t, l, n, c, lim);
    int out = 0;
    for (int d = 0; d < 3; d++)
        if (c[d] < 0 || c[d] > lim[d]) {
            out = 1;
            if (in->cmp == WS_SB_CLAMP) c[d] = c[d] < 0 ? 0 : lim[d];
        }
    if (c[0] % n) {
        ws_fault(w, in, WS_ERR_MISALIGNED_ADDRESS, "%s: byte coordinate %lld is not a multiple of the access size %u",
                 ws_opcode_name(in->op), (long long)c[0], n);
        return 1;
    }
    if (out && in->cmp == WS_SB_ZERO) return 0;
    if (out && in->cmp == WS_SB_TRAP) {
        ws_fault(w, in, WS_ERR_ILLEGAL_ADDRESS, "%s: surface coordinate out of range (boundary mode trap) by thread "
                 "(%u,%u,%u) in block (%u,%u,%u)", ws_opcode_name(in->op), (unsigned)RG(WS_SR_TID_X, l),
                 (unsigned)RG(WS_SR_TID_Y, l), (unsigned)RG(WS_SR_TID_Z, l), w->blk->id.x, w->blk->id.y, w->blk->id.z);
        return 1;
    }
    return t->addr + (uint64_t)c[2] * t->slice + (uint64_t)c[1] * t->pitch + (uint64_t)c[0];
}

/* suld.b.{1d,2d,3d,a1d,a2d}[.v2,.v4].{b8,b16,b32,b64}.{trap,clamp,zero} */
static void h_suld(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    unsigned es = (unsigned)ws_type_size(in->type), n = in->vec;
    FOR_LANES(mask, {
        const ws_texres *t = tex_res(w, in, l, 1);
        if (!t) return;
        uint64_t a = surf_addr(w, in, t, l, es * n);
        if (w->state == WS_W_FAULT) return;
        const uint8_t *p = a ? tex_ptr(w, in, a, es * n, l) : NULL;
        if (a && !p) return;
        for (unsigned k = 0; k < n; k++) {
            uint64_t v = 0;
            if (p) memcpy(&v, p + k * es, es);
            RG(in->d[k], l) = v;
        }
    });
}

/* sust.b.{1d,2d,3d,a1d,a2d}[.v2,.v4].{b8,b16,b32,b64}.{trap,clamp,zero} */
static void h_sust(ws_warp *w, const ws_insn *in, uint32_t mask)
{
    unsigned es = (unsigned)ws_type_size(in->type), n = in->vec;
    int nc = surf_ncoords(in);
    FOR_LANES(mask, {
        const ws_texres *t = tex_res(w, in, l, 1);
        if (!t) return;
        uint64_t a = surf_addr(w, in, t, l, es * n);
        if (w->state == WS_W_FAULT) return;
        if (!a) continue;
        uint8_t *p = tex_ptr(w, in, a, es * n, l);
        if (!p) return;
        for (unsigned k = 0; k < n; k++) {
            uint64_t v = RG(sust_src(in, nc + (int)k), l);
            memcpy(p + k * es, &v, es);
        }
    });
}

/* Memory part of a texture/surface record: each lane's first texel (clamped into the resource) as a global
 * access, so that the memory system and the checkers see texture traffic at the texture's addresses. */
void ws_tex_rec_fill(ws_warp *w, const ws_insn *in, uint32_t mask, ws_rec *r)
{
    int surf = in->op == WS_OP_SULD || in->op == WS_OP_SUST;
    r->is_write = in->op == WS_OP_SUST;
    r->is_read = !r->is_write;
    memset(r->space, WS_S_GLOBAL, sizeof r->space);
    const ws_gpu *g = w->L->gpu;
    unsigned size = 4;
    FOR_LANES(mask, {
        const ws_texres *t = g->tex_lookup ? g->tex_lookup(g->tex_ctx, RG(in->base, l)) : NULL;
        uint64_t a = 0;
        if (t) {
            size = surf ? (unsigned)ws_type_size(in->type) * in->vec : (unsigned)t->nch * t->chbytes;
            if (surf) {
                int64_t c[3], lim[3];
                surf_coords(w, in, t, l, size, c, lim);
                for (int d = 0; d < 3; d++) c[d] = c[d] < 0 ? 0 : c[d] > lim[d] ? lim[d] : c[d];
                a = t->addr + (uint64_t)c[2] * t->slice + (uint64_t)c[1] * t->pitch + (uint64_t)c[0];
            } else if (in->type2 == WS_T_F32 && (t->cubemap || (in->sub != WS_TG_CUBE && in->sub != WS_TG_ACUBE))) {
                tex_pos ps;
                ws_texres u = *t;
                for (int d = 0; d < 3; d++) if (u.addr_mode[d] == WS_TEXA_BORDER) u.addr_mode[d] = WS_TEXA_CLAMP;
                tex_position(w, in, &u, l, &ps);
                int64_t y = ps.nd > 1 ? ps.i[1][0] : 0, z = ps.nd > 2 ? ps.i[2][0] : 0;
                a = t->addr + (uint64_t)(ps.slice + z) * t->slice + (uint64_t)y * t->pitch + (uint64_t)ps.i[0][0] * size;
            } else {
                int64_t x = (int32_t)RG(in->s[in->sub == WS_TG_A1D || in->sub == WS_TG_A2D], l);
                x = x < 0 ? 0 : x >= (int64_t)t->width ? (int64_t)t->width - 1 : x;
                a = t->addr + (uint64_t)x * size;
            }
        }
        r->addr[l] = a;
    });
    r->size = size;
}

/* Handler of a texture/surface instruction, or NULL for other opcodes (and unsupported type combinations). */
ws_handler ws_tex_handler(const ws_insn *in)
{
    int dt = in->type;
    switch (in->op) {
    case WS_OP_TEX:
        if (dt != WS_T_F32 && dt != WS_T_S32 && dt != WS_T_U32) return NULL;
        if (in->type2 != WS_T_F32 && in->type2 != WS_T_S32) return NULL;
        if (in->type2 == WS_T_S32 && (in->sub == WS_TG_CUBE || in->sub == WS_TG_ACUBE)) return NULL;
        return h_tex;
    case WS_OP_TLD4:
        if ((dt != WS_T_F32 && dt != WS_T_S32 && dt != WS_T_U32) || in->type2 != WS_T_F32 || in->sub != WS_TG_2D) return NULL;
        return h_tld4;
    case WS_OP_TXQ: return h_txq;
    case WS_OP_SULD: return ws_type_size(dt) <= 8 ? h_suld : NULL;
    case WS_OP_SUST: return ws_type_size(dt) <= 8 ? h_sust : NULL;
    default: return NULL;
    }
}
