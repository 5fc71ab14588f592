/* fuse.c - which scalar 32-bit shared-memory loads ptxas merges into LDS.64/LDS.128, and which adjacent store
 * pairs into STS.64 (fuse.h). The analysis reads
 * constant values, so it runs on a linked function (symbol offsets resolved). */
#include <stdlib.h>
#include "cfg.h"
#include "fuse.h"
#include "regalloc.h"

#define BIG_ALIGN (1u << 20) /* "aligned to anything" */

/* Known power-of-two alignment of a value (its lowest set bit; 0 aligns to anything). */
static uint32_t lowbit(uint64_t v)
{
    if (!v) return BIG_ALIGN;
    uint64_t b = v & (~v + 1);
    return b > BIG_ALIGN ? BIG_ALIGN : (uint32_t)b;
}

/* Alignment of register r under the current estimate al[] (constants by value). */
static uint32_t ralign(const ws_func *fn, const uint32_t *al, int r)
{
    if (r < 0 || r >= fn->nregs) return 1;
    if (r >= fn->first_const && r < fn->first_const + fn->nconst) return lowbit(fn->const_val[r - fn->first_const]);
    return al[r];
}

/* Product of two alignments, capped. */
static uint32_t amul(uint32_t a, uint32_t b)
{
    uint64_t p = (uint64_t)a * b;
    return p > BIG_ALIGN ? BIG_ALIGN : (uint32_t)p;
}

/* Alignment of what instruction in writes to its first destination, given register alignments al[]. */
static uint32_t def_align(const ws_func *fn, const ws_insn *in, const uint32_t *al)
{
    uint32_t a0 = in->ns > 0 ? ralign(fn, al, in->s[0]) : 1;
    uint32_t a1 = in->ns > 1 ? ralign(fn, al, in->s[1]) : 1;
    uint32_t a2 = in->ns > 2 ? ralign(fn, al, in->s[2]) : 1;
    switch (ws_opinfo_table[in->op].align) {
    case WS_AL_COPY:
        return in->flags & WS_F_LOCALSYM ? 1 : a0;
    case WS_AL_MIN:
        if (in->flags & (WS_F_CC | WS_F_HI)) return 1;
        return a0 < a1 ? a0 : a1;
    case WS_AL_MAX:
        return a0 > a1 ? a0 : a1;
    case WS_AL_SHL: {
        int r = in->s[1];
        if (r < fn->first_const || r >= fn->first_const + fn->nconst) return 1;
        uint64_t k = fn->const_val[r - fn->first_const];
        return k >= 20 ? BIG_ALIGN : amul(a0, 1u << k);
    }
    case WS_AL_MUL:
        return in->flags & WS_F_HI ? 1 : amul(a0, a1);
    case WS_AL_MAD: {
        if (in->flags & (WS_F_HI | WS_F_CC)) return 1;
        uint32_t p = amul(a0, a1);
        return p < a2 ? p : a2;
    }
    default:
        return 1;
    }
}

/* Whether instruction in ends a fusion window (control flow, barriers, shared-memory writes). */
static int fuse_break(const ws_insn *in)
{
    if (in->iflags & (WS_IF_CTRL | WS_IF_BARRIER | WS_IF_FENCE)) return 1;
    return in->mem != WS_MK_NONE && in->mem != WS_MK_LOAD && in->mem != WS_MK_HINT &&
           (in->space == WS_S_SHARED || in->space == WS_S_GENERIC);
}

/* Whether instruction in is a scalar 32-bit shared load that ptxas may fuse. */
static int fuse_cand(const ws_insn *in)
{
    return in->op == WS_OP_LD && in->space == WS_S_SHARED && in->vec <= 1 && in->nd == 1 &&
           (in->type == WS_T_B32 || in->type == WS_T_U32 || in->type == WS_T_S32 || in->type == WS_T_F32);
}

/* Whether instruction in is a plain scalar 32-bit shared store that ptxas may pair into an STS.64. */
static int fuse_store_cand(const ws_insn *in)
{
    return in->op == WS_OP_ST && in->space == WS_S_SHARED && in->vec <= 1 && in->base >= 0 &&
           !(in->flags & WS_F_SYNCMEM) &&
           (in->type == WS_T_B32 || in->type == WS_T_U32 || in->type == WS_T_S32 || in->type == WS_T_F32);
}

/* Pair adjacent 32-bit shared stores of one base register and guard at offsets k, k + 4 (k and the base 8-byte
 * aligned, the second not a branch target): ptxas emits one STS.64 (bitonic_block's s[lo], s[lo + 1] of its
 * j = 1 steps: the H200 counts no bank conflicts there). */
static void fuse_store_pairs(const ws_func *fn, const uint32_t *al, const char *target, ws_fuse *tab)
{
    const ws_insn *c = fn->code;
    for (int i = 0; i + 1 < fn->ncode; i++) {
        const ws_insn *x = &c[i], *y = &c[i + 1];
        if (tab[i].role || tab[i + 1].role || target[i + 1] || !fuse_store_cand(x) || !fuse_store_cand(y)) continue;
        if (x->base != y->base || x->guard != y->guard || x->pneg != y->pneg || x->imm % 8 || y->imm != x->imm + 4)
            continue;
        if (ralign(fn, al, x->base) < 8) continue;
        tab[i].role = WS_FUSE_LEADER;
        tab[i].width = 8;
        tab[i].delta = 0;
        tab[i + 1].role = WS_FUSE_FOLLOWER;
        i++;
    }
}

/* Fuse the candidates idx[0..n) (same base register and guard, one window) into 128- and 64-bit accesses. */
static void fuse_group(const ws_func *fn, const uint32_t *al, ws_fuse *tab, const int *idx, int n)
{
    if (n < 2) return;
    const ws_insn *c = fn->code;
    int base = c[idx[0]].base;
    uint32_t a = base < 0 ? BIG_ALIGN : ralign(fn, al, base);
    static const unsigned widths[2] = { 16, 8 };
    for (int wi = 0; wi < 2; wi++) {
        unsigned wd = widths[wi], parts = wd / 4;
        if (a < wd) continue;
        for (int i = 0; i < n; i++) {
            int64_t k = c[idx[i]].imm;
            if (tab[idx[i]].role || k % (int64_t)wd) continue;
            int mem[4] = { idx[i], -1, -1, -1 };
            unsigned got = 1;
            for (unsigned p = 1; p < parts; p++)
                for (int j = 0; j < n; j++)
                    if (!tab[idx[j]].role && c[idx[j]].imm == k + 4 * (int64_t)p && c[idx[j]].d[0] != c[idx[i]].d[0]) {
                        int dup = 0;
                        for (unsigned q = 0; q < p; q++) if (mem[q] == idx[j]) dup = 1;
                        if (!dup) { mem[p] = idx[j]; got++; break; }
                    }
            if (got != parts) continue;
            int lead = mem[0];
            for (unsigned p = 1; p < parts; p++) if (mem[p] < lead) lead = mem[p];
            for (unsigned p = 0; p < parts; p++) tab[mem[p]].role = WS_FUSE_FOLLOWER;
            tab[lead].role = WS_FUSE_LEADER;
            tab[lead].width = (uint8_t)wd;
            tab[lead].delta = (int16_t)(c[lead].imm - k);
        }
    }
}

/* The fusion table of fn as declared. */
static ws_fuse *fusion_of(const ws_func *fn)
{
    int n = fn->ncode;
    ws_fuse *tab = calloc((size_t)(n > 0 ? n : 1), sizeof *tab);
    uint32_t *al = malloc(sizeof *al * (size_t)(fn->nregs > 0 ? fn->nregs : 1));
    char *lead = calloc((size_t)(n > 0 ? n : 1) + 1, 1);
    int *cand = malloc(sizeof *cand * (size_t)(n > 0 ? n : 1));
    if (!tab || !al || !lead || !cand) { free(al); free(lead); free(cand); return tab; }
    /* 1. alignment of every register: the weakest over all its definitions (flow-insensitive fixed point) */
    for (int r = 0; r < fn->nregs; r++) al[r] = r < WS_SR_COUNT ? 1 : BIG_ALIGN;
    for (int iter = 0, changed = 1; changed && iter < 32; iter++) {
        changed = 0;
        for (int i = 0; i < n; i++) {
            const ws_insn *in = &fn->code[i];
            if (in->nd < 1) continue;
            uint32_t a = in->mem == WS_MK_LOAD && in->space == WS_S_PARAM_K ? 1 : def_align(fn, in, al);
            for (int d = 0; d < in->nd && d < 4; d++) {
                int r = in->d[d];
                if (r < WS_SR_COUNT || r >= fn->nregs) continue;
                uint32_t v = d == 0 ? a : 1;
                if (v < al[r]) { al[r] = v; changed = 1; }
            }
        }
    }
    /* 2. windows: straight-line code between branch targets, branches, barriers and shared writes; first the
     * store pairs, which need only the block starts */
    ws_cfg_leaders(fn->code, n, WS_IF_CTRL | WS_IF_BARRIER | WS_IF_FENCE, lead);
    fuse_store_pairs(fn, al, lead, tab);
    for (int i = 0; i < n; i++) if (fuse_break(&fn->code[i])) lead[i + 1] = 1;
    /* 3. in each window, group candidates by (base, guard); a redefinition of either closes the group */
    int ncand = 0;
    for (int i = 0; i <= n; i++) {
        int close_all = i == n || lead[i];
        const ws_insn *in = i < n ? &fn->code[i] : NULL;
        if (close_all || (in && in->nd > 0)) {
            /* finalize the groups whose base this instruction redefines (all groups at a window end) */
            int keep = 0;
            for (int a = 0; a < ncand; a++) {
                if (cand[a] < 0) continue;   /* already gathered into a group */
                const ws_insn *ca = &fn->code[cand[a]];
                int hit = close_all;
                for (int d = 0; !hit && d < in->nd && d < 4; d++)
                    hit = (ca->base >= 0 && in->d[d] == ca->base) || (ca->guard >= 0 && in->d[d] == ca->guard);
                if (!hit) { cand[keep++] = cand[a]; continue; }
                /* gather the whole group of this base/guard */
                int grp[64], g = 0;
                for (int b = a; b < ncand && g < 64; b++) {
                    if (cand[b] < 0) continue;
                    const ws_insn *cb = &fn->code[cand[b]];
                    if (cb->base == ca->base && cb->guard == ca->guard && cb->pneg == ca->pneg) {
                        grp[g++] = cand[b];
                        if (b != a) cand[b] = -1;
                    }
                }
                fuse_group(fn, al, tab, grp, g);
            }
            ncand = keep;
            int k2 = 0;
            for (int a = 0; a < ncand; a++) if (cand[a] >= 0) cand[k2++] = cand[a];
            ncand = k2;
        }
        if (in && fuse_cand(in) && !(in->guard >= 0 && in->guard == in->base)) {
            int clobbers = in->base >= 0 && in->d[0] == in->base;
            if (!clobbers) cand[ncand++] = i;
        }
    }
    free(al);
    free(lead);
    free(cand);
    return tab;
}


/* Build the fusion table of a function: which scalar shared loads ptxas would merge. The analysis keeps one
 * alignment per register, so it reads the registers as the PTX declared them, not as compacted (regalloc.c). */
ws_fuse *ws_ptx_fusion(const ws_func *fn)
{
    ws_func vb;
    ws_insn *code;
    const ws_func *v = ws_ptx_orig_view(fn, &vb, &code);
    ws_fuse *tab = fusion_of(v ? v : fn);
    free(code);
    return tab;
}
