/* sched.c - instruction scheduling within basic blocks, as ptxas does before the hardware sees the code: loads
 * (with their address arithmetic) are hoisted above independent instructions so that their latencies overlap (e.g. the four A and B loads of an
 * unrolled matmul step issue back to back instead of each waiting behind the previous FMA; a tile loop's
 * ld.global A / st.shared / ld.global B / st.shared issues both loads before the first store). Only register
 * dependencies and accesses that cannot alias are relaxed: loads keep their order among themselves; a plain
 * st (not volatile, relaxed or release) lets register-only instructions pass it, and loads of another explicit
 * state space (global, shared, local: disjoint memories; const and kernel parameters, which no st writes);
 * nothing crosses an atomic, barrier, fence, call, branch or generic store, so the program computes exactly
 * what the PTX says. */
#include <string.h>
#include "sched.h"

/* Whether an instruction is a plain load that may move. */
static int is_load(const ws_insn *in) { return in->mem == WS_MK_LOAD; }

/* Whether an instruction must keep its place relative to memory operations and control flow. */
static int is_fence(const ws_insn *in) { return (in->iflags & WS_IF_ORDERED) != 0; }

/* Registers an instruction writes (into w); returns how many. */
static int writes(const ws_insn *in, int *w)
{
    int n = 0;
    for (int i = 0; i < 4; i++) if (in->d[i] >= WS_SR_COUNT) w[n++] = in->d[i];
    return n;
}

/* Registers an instruction reads (into r); returns how many. */
static int reads(const ws_insn *in, int *r)
{
    int n = 0;
    for (int i = 0; i < WS_INSN_NSRC; i++) if (in->s[i] >= WS_SR_COUNT) r[n++] = in->s[i];
    if (in->base >= WS_SR_COUNT) r[n++] = in->base;
    if (in->guard >= WS_SR_COUNT) r[n++] = in->guard;
    return n;
}

/* Whether an instruction is a plain st to an explicit global, shared or local address. */
static int is_plain_store(const ws_insn *in)
{
    return in->op == WS_OP_ST && !(in->flags & WS_F_SYNCMEM) &&
           (in->space == WS_S_GLOBAL || in->space == WS_S_SHARED || in->space == WS_S_LOCAL);
}

/* Whether instruction l (not ordered itself) may pass the plain store x: a register-only instruction, or a plain
 * ld of a state space x cannot write. */
static int passes_store(const ws_insn *x, const ws_insn *l)
{
    if (l->mem == WS_MK_NONE) return (l->iflags & WS_IF_VISIBLE) == 0;
    if ((l->op != WS_OP_LD && l->op != WS_OP_LDU) || (l->flags & WS_F_SYNCMEM)) return 0;
    if (l->space == WS_S_CONST || l->space == WS_S_PARAM_K) return 1;
    return (l->space == WS_S_GLOBAL || l->space == WS_S_SHARED || l->space == WS_S_LOCAL) && l->space != x->space;
}

/* Whether two register lists share a register. */
static int overlap(const int *a, int na, const int *b, int nb)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) if (a[i] == b[j]) return 1;
    return 0;
}

/* Whether instruction l may move above instruction x. */
static int can_pass(const ws_insn *x, const ws_insn *l)
{
    if (is_load(x) && is_load(l)) return 0;   /* loads keep their relative order */
    if (is_fence(x) && !(is_plain_store(x) && passes_store(x, l))) return 0;
    int xr[WS_INSN_NSRC + 2], xw[4], lr[WS_INSN_NSRC + 2], lw[4];
    int nxr = reads(x, xr), nxw = writes(x, xw), nlr = reads(l, lr), nlw = writes(l, lw);
    return !overlap(xw, nxw, lr, nlr) && !overlap(xr, nxr, lw, nlw) && !overlap(xw, nxw, lw, nlw);
}

/* Schedule each basic block of code[0..n) as soon as possible (leader[i] marks block starts): every instruction
 * that is not a fence moves above the independent instructions before it, so loads and their address arithmetic
 * rise to the top of the block and the arithmetic that consumes them sinks below. */
void ws_ptx_schedule(ws_insn *code, int n, const char *leader)
{
    for (int i = 1; i < n; i++) {
        if (leader[i] || is_fence(&code[i])) continue;
        int j = i;
        while (j > 0 && !leader[j] && can_pass(&code[j - 1], &code[i])) j--;
        /* never move above the block's first instruction slot when it is a leader: j stops at the leader */
        if (j == i) continue;
        ws_insn tmp = code[i];
        memmove(&code[j + 1], &code[j], sizeof *code * (size_t)(i - j));
        code[j] = tmp;
    }
}
