/* chk_prop.c - definedness through one instruction without a memory part: moves, ALU, compares, selects,
 * conversions and warp-synchronous operations (initcheck's register shadow, chk_init.c). The rules are
 * MemorySanitizer's where they cost nothing: moves, packs and unpacks carry the bits; and/or against a defined 0/1
 * bit define it; xor/not keep the bits; shifts by a defined amount shift them; selp on a defined predicate picks one
 * operand's bits (on an undefined one, the bits where the operands differ); low-half integer add/sub/mul/mad keep
 * the bits below the lowest undefined input bit; integer conversions move the bits. Any other undefined input bit
 * makes the whole result undefined (floating point, division, bit fields, ...). */
#include <string.h>
#include "chk_int.h"

/* Registers written by a tensor, matrix or texture instruction: defined (their memory reads are checked at the
 * read, as before). */
void chk_prop_define(uint64_t *S, uint32_t *O, const ws_insn *in, uint32_t mask)
{
    for (uint32_t m = mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        for (int k = 0; k < in->nd && k < 4; k++) if (in->d[k] >= 0) chk_sput(S, O, in->d[k], l, 0, 0);
        if (WS_OP_IS_TENSOR(in->op) && in->mma)
            for (int k = 0; k < in->mma->nd && k < 8; k++) chk_sput(S, O, in->mma->d[k], l, 0, 0);
    }
}

/* The lane a shuffle reads for lane l (its own lane when out of range), as h_shfl computes it. */
static int shfl_src(const ws_warp *w, const ws_insn *in, int l)
{
    int ok;
    return ws_shfl_lane(w, in, l, (uint32_t)w->regs[(size_t)in->s[1] * WS_LANES + (size_t)l],
                        (uint32_t)w->regs[(size_t)in->s[2] * WS_LANES + (size_t)l], &ok);
}

/* Propagate definedness through an ALU, move, compare or warp-synchronous instruction for the lanes of mask;
 * lanes of gu (an undefined guard) get undefined destinations (they may or may not have written them). */
void chk_prop_alu(const ws_warp *w, const ws_insn *in, uint64_t *S, uint32_t *O, uint32_t mask)
{
    const uint64_t *V = w->regs;
#define VAL(r, l) V[(size_t)(r) * WS_LANES + (size_t)(l)]
    const int t = in->type, d = in->d[0];
    const uint64_t wm = chk_wmask(t);
    switch (in->op) {
    case WS_OP_MOV:
        if (t == WS_T_PRED) {
            uint32_t u = chk_pget(S, in->s[0]), um = u & mask;
            chk_pput(S, O, d, mask, u, um ? chk_oget(O, in->s[0], __builtin_ctz(um)) : 0);
            return;
        }
        if (in->sub == WS_MOV_PACK) {
            int n = in->ns, width = ws_type_size(t) * 8 / (n ? n : 1);
            uint64_t em = width >= 64 ? ~0ull : ((1ull << width) - 1);
            CHK_EACH_LANE(mask, {
                uint64_t sh = 0;
                uint32_t o = 0;
                for (int i = 0; i < n; i++) {
                    uint64_t x = chk_sget(S, in->s[i], l) & em;
                    if (x && !o) o = chk_oget(O, in->s[i], l);
                    sh |= x << (width * i);
                }
                chk_sput(S, O, d, l, sh, o);
            });
            return;
        }
        if (in->sub == WS_MOV_UNPACK) {
            int n = in->nd, width = ws_type_size(t) * 8 / (n ? n : 1);
            uint64_t em = width >= 64 ? ~0ull : ((1ull << width) - 1);
            CHK_EACH_LANE(mask, {
                uint64_t x = chk_sget(S, in->s[0], l);
                uint32_t o = chk_oget(O, in->s[0], l);
                for (int i = 0; i < n; i++) chk_sput(S, O, in->d[i], l, (x >> (width * i)) & em, o);
            });
            return;
        }
        if (in->sub != WS_MOV_PLAIN || (in->flags & WS_F_LOCALSYM)) {
            CHK_EACH_LANE(mask, chk_sput(S, O, d, l, 0, 0));
            return;
        }
        CHK_EACH_LANE(mask, chk_sput(S, O, d, l, chk_sget(S, in->s[0], l) & wm, chk_oget(O, in->s[0], l)));
        return;
    case WS_OP_AND: case WS_OP_OR: case WS_OP_XOR: case WS_OP_NOT:
        if (t == WS_T_PRED) {   /* lane masks: MemorySanitizer's rules, a defined 0 (and) or 1 (or) decides */
            uint32_t a = (uint32_t)VAL(in->s[0], 0), sa = chk_pget(S, in->s[0]);
            uint32_t b = in->ns > 1 ? (uint32_t)VAL(in->s[1], 0) : 0, sb = in->ns > 1 ? chk_pget(S, in->s[1]) : 0;
            if (in->flags & WS_F_NEG1) a = ~a;
            if (in->flags & WS_F_NEG2) b = ~b;
            uint32_t u = in->op == WS_OP_AND ? (sa & sb) | (sa & b) | (a & sb)
                       : in->op == WS_OP_OR ? (sa & sb) | (sa & ~b) | (~a & sb)
                       : in->op == WS_OP_XOR ? sa | sb : sa;
            uint32_t um = u & mask, o = 0;
            if (um) {
                int l = __builtin_ctz(um);
                o = (sa >> l & 1) ? chk_oget(O, in->s[0], l) : chk_oget(O, in->s[1], l);
            }
            chk_pput(S, O, d, mask, u, o);
            return;
        }
        CHK_EACH_LANE(mask, {
            uint64_t sa = chk_sget(S, in->s[0], l) & wm, va = VAL(in->s[0], l);
            uint64_t sb = in->ns > 1 ? chk_sget(S, in->s[1], l) & wm : 0, vb = in->ns > 1 ? VAL(in->s[1], l) : 0;
            uint64_t u = in->op == WS_OP_AND ? (sa & sb) | (sa & vb) | (va & sb)
                       : in->op == WS_OP_OR ? (sa & sb) | (sa & ~vb) | (~va & sb)
                       : sa | sb;
            chk_sput(S, O, d, l, u & wm, sa ? chk_oget(O, in->s[0], l) : chk_oget(O, in->s[1], l));
        });
        return;
    case WS_OP_SHL: case WS_OP_SHR: {
        int bits = ws_type_size(t) * 8;
        int sgn = t == WS_T_S16 || t == WS_T_S32 || t == WS_T_S64;
        CHK_EACH_LANE(mask, {
            uint64_t sa = chk_sget(S, in->s[0], l) & wm, sn = chk_sget(S, in->s[1], l) & 0xffffffffu, u;
            uint32_t n = (uint32_t)VAL(in->s[1], l);
            if (sn) u = wm;
            else if (in->op == WS_OP_SHL) u = n >= (uint32_t)bits ? 0 : (sa << n) & wm;
            else if (n >= (uint32_t)bits) u = sgn && (sa >> (bits - 1) & 1) ? wm : 0;
            else u = (sa >> n) | (sgn && (sa >> (bits - 1) & 1) ? wm & ~(wm >> n) : 0);   /* sign fills the top */
            chk_sput(S, O, d, l, u, sn ? chk_oget(O, in->s[1], l) : chk_oget(O, in->s[0], l));
        });
        return;
    }
    case WS_OP_SELP: {
        uint32_t p = (uint32_t)VAL(in->s[2], 0), sp = chk_pget(S, in->s[2]);
        if (in->flags & WS_F_NEG2) p = ~p;
        CHK_EACH_LANE(mask, {
            uint64_t sa = chk_sget(S, in->s[0], l) & wm, sb = chk_sget(S, in->s[1], l) & wm, u;
            uint32_t o;
            if (sp >> l & 1) {   /* an undefined choice: the bits where the two differ, or either is undefined */
                u = (sa | sb | (VAL(in->s[0], l) ^ VAL(in->s[1], l))) & wm;
                o = chk_oget(O, in->s[2], l);
            } else if (p >> l & 1) {
                u = sa;
                o = chk_oget(O, in->s[0], l);
            } else {
                u = sb;
                o = chk_oget(O, in->s[1], l);
            }
            chk_sput(S, O, d, l, u, o);
        });
        return;
    }
    case WS_OP_SETP: case WS_OP_SET: {
        int ct = in->op == WS_OP_SET ? in->type2 : t;
        uint64_t cm = chk_wmask(ct);
        uint32_t u = 0, o = 0;
        uint32_t sc = in->sub ? chk_pget(S, in->s[2]) : 0;
        if (ct == WS_T_PRED) u = (chk_pget(S, in->s[0]) | chk_pget(S, in->s[1])) & mask;
        else CHK_EACH_LANE(mask, { if ((chk_sget(S, in->s[0], l) | chk_sget(S, in->s[1], l)) & cm) u |= 1u << l; });
        u |= sc & mask;
        if (u) {
            int l = __builtin_ctz(u);
            int k = ct == WS_T_PRED ? ((chk_pget(S, in->s[0]) >> l & 1) ? 0 : (chk_pget(S, in->s[1]) >> l & 1) ? 1 : 2)
                  : (chk_sget(S, in->s[0], l) & cm) ? 0 : (chk_sget(S, in->s[1], l) & cm) ? 1 : 2;
            o = chk_oget(O, in->s[k], l);
        }
        if (in->op == WS_OP_SETP) {
            chk_pput(S, O, d, mask, u, o);
            if (in->d[1] != WS_SR_SINK) chk_pput(S, O, in->d[1], mask, u, o);
        } else {
            CHK_EACH_LANE(mask, chk_sput(S, O, d, l, (u >> l & 1) ? wm : 0, o));
        }
        return;
    }
    case WS_OP_SHFL: {
        CHK_EACH_LANE(mask, {
            uint64_t sc = (chk_sget(S, in->s[1], l) | chk_sget(S, in->s[2], l)) & 0xffffffffu;
            int j = shfl_src(w, in, l);
            uint64_t u = sc ? 0xffffffffu : chk_sget(S, in->s[0], j) & 0xffffffffu;
            const int ko = chk_sget(S, in->s[1], l) ? 1 : 2;
            chk_sput(S, O, d, l, u, sc ? chk_oget(O, in->s[ko], l) : chk_oget(O, in->s[0], j));
        });
        if (in->d[1] != WS_SR_SINK) {
            uint32_t u = 0;
            CHK_EACH_LANE(mask, {
                if ((chk_sget(S, in->s[1], l) | chk_sget(S, in->s[2], l)) & 0xffffffffu) u |= 1u << l;
            });
            chk_pput(S, O, in->d[1], mask, u, u ? chk_oget(O, in->s[1], __builtin_ctz(u)) : 0);
        }
        return;
    }
    case WS_OP_VOTE: {
        uint32_t sp = chk_pget(S, in->s[0]) & mask, o = sp ? chk_oget(O, in->s[0], __builtin_ctz(sp)) : 0;
        if (in->sub == WS_SUB_BALLOT) CHK_EACH_LANE(mask, chk_sput(S, O, d, l, sp, o));
        else chk_pput(S, O, d, mask, sp ? mask : 0, o);
        return;
    }
    case WS_OP_MATCH: case WS_OP_REDUX: {   /* every lane's value decides every lane's result */
        uint64_t sm = chk_wmask(t);
        uint32_t o = 0;
        int any = 0;
        CHK_EACH_LANE(mask, {
            if (!any && (chk_sget(S, in->s[0], l) & sm)) { any = 1; o = chk_oget(O, in->s[0], l); }
        });
        CHK_EACH_LANE(mask, chk_sput(S, O, d, l, any ? ~0ull : 0, o));
        if (in->op == WS_OP_MATCH && in->nd > 1 && in->d[1] != WS_SR_SINK)
            chk_pput(S, O, in->d[1], mask, any ? mask : 0, o);
        return;
    }
    case WS_OP_ACTIVEMASK: case WS_OP_TESTP: case WS_OP_ISSPACEP:
        if (in->op == WS_OP_ACTIVEMASK) { CHK_EACH_LANE(mask, chk_sput(S, O, d, l, 0, 0)); return; }
        {
            uint32_t u = 0, o = 0;
            CHK_EACH_LANE(mask, {
                if (chk_sget(S, in->s[0], l) & wm) { if (!u) o = chk_oget(O, in->s[0], l); u |= 1u << l; }
            });
            chk_pput(S, O, d, mask, u, o);
        }
        return;
    default: break;
    }
    const int integer = t != WS_T_PRED && !ws_type_is_float(t);
    if (in->op == WS_OP_CVT && integer && in->type2 != WS_T_PRED && !ws_type_is_float(in->type2) &&
        !(in->flags & WS_F_SAT)) {   /* integer widening and narrowing: the bits move, sign extension spreads the top */
        const uint64_t smk = chk_wmask(in->type2);
        const int sbits = ws_type_size(in->type2) * 8;
        const int ssgn = in->type2 == WS_T_S8 || in->type2 == WS_T_S16 || in->type2 == WS_T_S32;
        CHK_EACH_LANE(mask, {
            uint64_t sh = chk_sget(S, in->s[0], l) & smk;
            if (ssgn && sbits < 64 && (sh >> (sbits - 1) & 1)) sh |= ~smk;
            chk_sput(S, O, d, l, sh & wm, chk_oget(O, in->s[0], l));
        });
        return;
    }
    if ((in->op == WS_OP_ADD || in->op == WS_OP_SUB || in->op == WS_OP_MUL || in->op == WS_OP_MAD) && integer &&
        !(in->flags & (WS_F_HI | WS_F_WIDE | WS_F_CC | WS_F_SAT))) {
        /* low-half integer arithmetic: a result bit depends only on the inputs' bits at or below it (carries and
         * partial products go up), so the bits below the lowest undefined input bit stay defined */
        const int ns2 = in->ns < WS_INSN_NSRC ? in->ns : WS_INSN_NSRC;
        CHK_EACH_LANE(mask, {
            uint64_t u = 0;
            uint32_t o = 0;
            for (int k = 0; k < ns2; k++) {
                uint64_t x = chk_sget(S, in->s[k], l) & wm;
                if (x && !u) o = chk_oget(O, in->s[k], l);
                u |= x;
            }
            chk_sput(S, O, d, l, u ? wm & ~((u & (~u + 1)) - 1) : 0, o);
        });
        return;
    }
    /* arithmetic, conversions and the rest: any undefined input bit makes the whole result undefined */
    const uint64_t sm = in->op == WS_OP_CVT ? chk_wmask(in->type2) : wm;
    const uint64_t dm = (in->flags & WS_F_WIDE) ? ~0ull : wm;
    const int carry_in = in->op == WS_OP_ADDC || in->op == WS_OP_SUBC || in->op == WS_OP_MADC;
    const int ns = in->ns < WS_INSN_NSRC ? in->ns : WS_INSN_NSRC;
    CHK_EACH_LANE(mask, {
        uint32_t o = 0;
        uint64_t any = carry_in ? chk_sget(S, WS_SR_CARRY, l) : 0;
        if (any) o = chk_oget(O, WS_SR_CARRY, l);
        for (int k = 0; k < ns && !any; k++) {
            any = chk_sget(S, in->s[k], l) & sm;
            if (any) o = chk_oget(O, in->s[k], l);
        }
        for (int k = 0; k < in->nd && k < 4; k++) chk_sput(S, O, in->d[k], l, any ? dm : 0, o);
        if (in->flags & WS_F_CC) chk_sput(S, O, WS_SR_CARRY, l, any ? 1 : 0, o);
    });
#undef VAL
}
