/* regalloc.c - register slot compaction (regalloc.h). nvcc's PTX gives nearly every value a register of its own (an
 * unrolled chain of 100 fma has 100 %f registers), and every register is a row of 32 lanes in every warp's window,
 * so the windows of the resident warps overflow the host's caches. Liveness on the control-flow graph, then a
 * greedy colouring of the interference graph, lets registers that are never live at once share a row.
 *
 * Why the result is exact: a lane executes instructions along a path of the control-flow graph (divergence only
 * makes the other lanes wait), and an instruction writes only the lanes that execute it, so a lane's value of a
 * register is read only after the lane itself wrote it on that path, unless the register is live where the
 * function starts. Those registers (read before any write on some path, in nvcc's PTX the odd uninitialised value)
 * keep a row of their own, so even their stale contents and --check's initcheck are as before; a guarded write
 * does not end a live range. An instruction's destinations never share a row with its sources (lanes may read
 * other lanes' sources, as shfl does), predicates share only with predicates (a predicate row holds its lanes'
 * bits in one word). Functions with calls, indirect branches, tensor, texture or surface instructions or vector
 * registers keep their registers as declared: their operands are not all in d[], s[], base and guard. */
#include <stdlib.h>
#include <string.h>
#include "regalloc.h"

/* Largest function analysed: instructions x declared registers (bits of each liveness table). */
#define WS_RA_MAX_BITS ((size_t)1 << 30)
/* Most declared registers analysed (the interference matrix is their square in bits). */
#define WS_RA_MAX_REGS 16384

/* Bit sets of nw 64-bit words. */
static inline void bs_set(uint64_t *b, int i) { b[i >> 6] |= 1ull << (i & 63); }
static inline int bs_has(const uint64_t *b, int i) { return (int)(b[i >> 6] >> (i & 63)) & 1; }

/* Whether the registers of f's instructions are all in d[], s[], base and guard. */
static int ra_supported(const ws_func *f)
{
    for (int i = 0; i < f->nregdecl; i++) if (f->regdecl[i].kind == WS_RK_VECTOR) return 0;
    for (int pc = 0; pc < f->ncode; pc++) {
        const ws_insn *in = &f->code[pc];
        if (WS_OP_IS_TENSOR(in->op) || in->op == WS_OP_BRX || in->op == WS_OP_CALL || in->call) return 0;
        if ((ws_opinfo_table[in->op].flags & (WS_OF_TEX | WS_OF_REGLIST)) || in->op == WS_OP_SULD || in->op == WS_OP_SUST)
            return 0;
        if (in->ns > WS_INSN_NSRC || in->nd > 4) return 0;
    }
    return 1;
}

/* The declared registers instruction in reads (uses) and writes (defs, *nkill of them first: unguarded writes,
 * which end a live range), as indices from 0; d is the declared-register base (WS_SR_COUNT), nd their count. */
static void ra_operands(const ws_insn *in, int nd, int *use, int *nuse, int *def, int *ndef, int *nkill)
{
    *nuse = *ndef = *nkill = 0;
#define RA_DECL(r) ((r) >= WS_SR_COUNT && (r) < WS_SR_COUNT + nd)
    for (int k = 0; k < WS_INSN_NSRC; k++) if (RA_DECL(in->s[k])) use[(*nuse)++] = in->s[k] - WS_SR_COUNT;
    if (RA_DECL(in->base)) use[(*nuse)++] = in->base - WS_SR_COUNT;
    if (RA_DECL(in->guard)) use[(*nuse)++] = in->guard - WS_SR_COUNT;
    int guarded = in->guard >= 0;
    for (int k = 0; k < 4; k++) {
        if (!RA_DECL(in->d[k])) continue;
        int r = in->d[k] - WS_SR_COUNT, real = k < in->nd || k == 1;   /* d[1]: setp's q, shfl's p */
        if (real && !guarded) {   /* kills first */
            memmove(def + 1, def, sizeof *def * (size_t)*ndef);
            def[0] = r;
            (*ndef)++;
            (*nkill)++;
        } else {
            def[(*ndef)++] = r;
            use[(*nuse)++] = r;   /* a partial write: the other lanes' (or the unwritten) value lives on */
        }
    }
#undef RA_DECL
}

/* Successors of instruction pc of f (at most two); returns how many. */
static int ra_succ(const ws_func *f, int pc, int *s)
{
    const ws_insn *in = &f->code[pc];
    int n = 0, cond = in->guard >= 0;
    if (in->op == WS_OP_BRA) {
        if (in->target >= 0 && in->target < f->ncode) s[n++] = in->target;
        if (cond && pc + 1 < f->ncode) s[n++] = pc + 1;
    } else if (in->iflags & WS_IF_ENDS) {
        if (cond && pc + 1 < f->ncode) s[n++] = pc + 1;
    } else if (pc + 1 < f->ncode) s[n++] = pc + 1;
    return n;
}

/* out = what is live after instruction pc of f: the union of its successors' live-in sets (nw words each). */
static void ra_live_out(const ws_func *f, const uint64_t *live, size_t nw, int pc, uint64_t *out)
{
    int sc[2], ns = ra_succ(f, pc, sc);
    memset(out, 0, nw * sizeof *out);
    for (int k = 0; k < ns; k++) {
        const uint64_t *li = live + (size_t)sc[k] * nw;
        for (size_t w = 0; w < nw; w++) out[w] |= li[w];
    }
}

/* qsort order of keys (first appearance, then register number). */
static int ra_cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Compact the registers of f (see regalloc.h). */
int ws_ptx_regalloc(ws_func *f)
{
    int n = f->ncode, nd = f->first_const - WS_SR_COUNT;
    if (n <= 0 || nd < 2 || nd > WS_RA_MAX_REGS || f->orig_ops || !ra_supported(f)) return 0;
    size_t nw = ((size_t)nd + 63) / 64;
    if ((size_t)n * nw * 64 > WS_RA_MAX_BITS) return 0;
    uint64_t *live = calloc((size_t)n * nw, sizeof *live);      /* live-in of every instruction */
    uint64_t *out = calloc(nw, sizeof *out);
    uint64_t *adj = calloc((size_t)nd * nw, sizeof *adj);       /* interference */
    int *first = malloc(sizeof *first * (size_t)nd);
    int *color = malloc(sizeof *color * (size_t)nd), *ckind = malloc(sizeof *ckind * (size_t)nd);
    char *busy = calloc((size_t)nd, 1), *pred = calloc((size_t)nd, 1);
    int32_t *orig = malloc(sizeof *orig * (size_t)n * WS_ORIG_OPS);
    uint64_t *key = malloc(sizeof *key * (size_t)nd);
    int rc = -1;
    if (!live || !out || !adj || !first || !color || !ckind || !busy || !pred || !orig || !key) goto done;
    for (int i = 0; i < f->nregdecl; i++)
        if (f->regdecl[i].kind == WS_RK_PRED)
            for (int k = 0; k < f->regdecl[i].count; k++) {
                int r = f->regdecl[i].first - WS_SR_COUNT + k;
                if (r >= 0 && r < nd) pred[r] = 1;
            }
    int use[WS_INSN_NSRC + 6], def[4], nuse, ndef, nkill;
    /* 1. liveness: live-in = uses | (live-out minus kills), to a fixed point (backwards, so loops take few passes) */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int pc = n - 1; pc >= 0; pc--) {
            ra_live_out(f, live, nw, pc, out);
            ra_operands(&f->code[pc], nd, use, &nuse, def, &ndef, &nkill);
            for (int k = 0; k < nkill; k++) out[def[k] >> 6] &= ~(1ull << (def[k] & 63));
            for (int k = 0; k < nuse; k++) bs_set(out, use[k]);
            uint64_t *li = live + (size_t)pc * nw;
            if (memcmp(li, out, nw * sizeof *out)) { memcpy(li, out, nw * sizeof *out); changed = 1; }
        }
    }
    /* 2. interference: every write with what is live after it, and an instruction's writes with its reads */
    for (int r = 0; r < nd; r++) first[r] = -1;
    for (int pc = 0; pc < n; pc++) {
        ra_live_out(f, live, nw, pc, out);
        ra_operands(&f->code[pc], nd, use, &nuse, def, &ndef, &nkill);
        ws_insn *cur = &f->code[pc];   /* an atom whose old value nothing reads (the timing engine may drop it) */
        if (cur->op == WS_OP_ATOM && cur->d[0] >= WS_SR_COUNT && cur->d[0] < WS_SR_COUNT + nd &&
            !bs_has(out, cur->d[0] - WS_SR_COUNT))
            cur->flags |= WS_F_DEADD;
        for (int k = 0; k < nuse; k++) if (first[use[k]] < 0) first[use[k]] = pc;
        for (int k = 0; k < ndef; k++) {
            int d = def[k];
            if (first[d] < 0) first[d] = pc;
            uint64_t *a = adj + (size_t)d * nw;
            for (size_t w = 0; w < nw; w++) {
                a[w] |= out[w];
                for (uint64_t bits = out[w]; bits; bits &= bits - 1)
                    bs_set(adj + ((size_t)w * 64 + (size_t)__builtin_ctzll(bits)) * nw, d);
            }
            for (int j = 0; j < nuse; j++) { bs_set(a, use[j]); bs_set(adj + (size_t)use[j] * nw, d); }
            for (int j = 0; j < ndef; j++) bs_set(a, def[j]);
        }
    }
    /* 3. colours in order of first appearance; registers live at the start keep rows of their own */
    int nord = 0;
    for (int r = 0; r < nd; r++) if (first[r] >= 0) key[nord++] = (uint64_t)first[r] << 16 | (uint64_t)r;
    qsort(key, (size_t)nord, sizeof *key, ra_cmp_key);
    int ncol = 0;
    const uint64_t *entry = live;
    for (int i = 0; i < nd; i++) color[i] = -1;
    for (int i = 0; i < nord; i++) {
        int r = (int)(key[i] & 0xffff), kind = pred[r];
        int c = -1;
        if (!bs_has(entry, r)) {
            const uint64_t *a = adj + (size_t)r * nw;
            for (int pass = 0; pass < 2; pass++) {   /* mark the neighbours' colours, pick, unmark */
                for (size_t w = 0; w < nw; w++)
                    for (uint64_t bits = a[w]; bits; bits &= bits - 1) {
                        int j = (int)(w * 64) + __builtin_ctzll(bits);
                        if (j != r && color[j] >= 0) busy[color[j]] = (char)!pass;
                    }
                for (int k = 0; !pass && k < ncol && c < 0; k++) if (!busy[k] && ckind[k] == kind + 1) c = k;
            }
        }
        if (c < 0) {
            c = ncol++;
            ckind[c] = bs_has(entry, r) ? 0 : kind + 1;   /* 0: private, never shared */
        }
        color[r] = c;
    }
    if (ncol >= nd) { rc = 0; goto done; }   /* nothing to gain */
    /* 4. renumber: declared registers to their colours, constants after them */
    int nfirst = WS_SR_COUNT + ncol, shift = f->first_const - nfirst;
    for (int pc = 0; pc < n; pc++) {
        ws_insn *in = &f->code[pc];
        int32_t *o = orig + (size_t)pc * WS_ORIG_OPS, *ops[WS_ORIG_OPS];
        ws_ptx_insn_regs(in, ops);
        for (int k = 0; k < WS_ORIG_OPS; k++) {
            int32_t r = *ops[k];
            o[k] = r;
            if (r >= WS_SR_COUNT && r < f->first_const) *ops[k] = WS_SR_COUNT + color[r - WS_SR_COUNT];
            else if (r >= f->first_const && r < f->first_const + f->nconst) *ops[k] = r - shift;
        }
    }
    f->orig_ops = orig;
    orig = NULL;
    f->orig_first_const = f->first_const;
    f->orig_nregs = f->nregs;
    f->first_const = nfirst;
    f->nregs = nfirst + f->nconst;
    rc = 1;
done:
    free(live); free(out); free(adj); free(first); free(color); free(ckind); free(busy); free(pred);
    free(orig); free(key);
    return rc;
}

/* The operand fields of in that may name a register, in ws_func.orig_ops order: d[4], s[WS_INSN_NSRC], base,
 * guard. */
void ws_ptx_insn_regs(ws_insn *in, int32_t *ops[WS_ORIG_OPS])
{
    for (int k = 0; k < 4; k++) ops[k] = &in->d[k];
    for (int k = 0; k < WS_INSN_NSRC; k++) ops[4 + k] = &in->s[k];
    ops[4 + WS_INSN_NSRC] = &in->base;
    ops[5 + WS_INSN_NSRC] = &in->guard;
}

/* Instruction pc of f with its declared operands. */
const ws_insn *ws_ptx_orig_insn(const ws_func *f, int pc, ws_insn *buf)
{
    if (!f->orig_ops) return &f->code[pc];
    *buf = f->code[pc];
    const int32_t *o = f->orig_ops + (size_t)pc * WS_ORIG_OPS;
    int32_t *ops[WS_ORIG_OPS];
    ws_ptx_insn_regs(buf, ops);
    for (int k = 0; k < WS_ORIG_OPS; k++) *ops[k] = o[k];
    return buf;
}

/* f with the numbering as declared (see regalloc.h). */
const ws_func *ws_ptx_orig_names(const ws_func *f, ws_func *buf)
{
    if (!f->orig_ops) return f;
    *buf = *f;
    buf->first_const = f->orig_first_const;
    buf->nregs = f->orig_nregs;
    buf->orig_ops = NULL;
    return buf;
}

/* f as declared (see regalloc.h). */
const ws_func *ws_ptx_orig_view(const ws_func *f, ws_func *buf, ws_insn **code_out)
{
    *code_out = NULL;
    if (!f->orig_ops) return f;
    ws_insn *code = malloc(sizeof *code * (size_t)(f->ncode > 0 ? f->ncode : 1));
    if (!code) return NULL;
    for (int pc = 0; pc < f->ncode; pc++) code[pc] = *ws_ptx_orig_insn(f, pc, &code[pc]);
    ws_ptx_orig_names(f, buf);
    buf->code = code;
    *code_out = code;
    return buf;
}
