/* cfg.c - leaders, post-dominators (Cooper-Harvey-Kennedy on the reverse graph) and stack sizing. */
#include <stdlib.h>
#include <string.h>
#include "cfg.h"

/* Mark basic-block leaders: the entry, branch targets, and the successor of every instruction meeting `ends`. */
void ws_cfg_leaders(const ws_insn *code, int n, unsigned ends, char *leader)
{
    if (n <= 0) return;
    leader[0] = 1;
    for (int i = 0; i < n; i++) {
        const ws_insn *in = &code[i];
        if (in->op == WS_OP_BRA && in->target >= 0 && in->target < n) leader[in->target] = 1;
        if (in->op == WS_OP_BRX)
            for (int k = 0; k < in->ntargets; k++)
                if (in->targets[k] >= 0 && in->targets[k] < n) leader[in->targets[k]] = 1;
        if (in->iflags & ends) leader[i + 1] = 1;
    }
}

/* Compute immediate post-dominators and set the reconvergence pc of every branch. */
void ws_cfg_reconvergence(ws_insn *code, int n)
{
    if (n <= 0 || n > (1 << 26)) return;
    char *leader = calloc((size_t)n + 1, 1);
    ws_cfg_leaders(code, n, WS_IF_BRANCH | WS_IF_ENDS, leader);
    int *blk = malloc(sizeof(int) * (size_t)n);
    int nb = 0;
    for (int i = 0; i < n; i++) { if (leader[i]) nb++; blk[i] = nb - 1; }
    int *start = malloc(sizeof(int) * (size_t)(nb + 1));
    for (int i = 0; i < n; i++) if (leader[i]) start[blk[i]] = i;
    int EXIT = nb;
    /* successors (at most: fallthrough, target, or brx list) */
    int *succ_n = calloc((size_t)nb + 1, sizeof(int));
    int **succ = calloc((size_t)nb + 1, sizeof(int *));
    for (int b = 0; b < nb; b++) {
        int last = (b + 1 < nb ? start[b + 1] : n) - 1;
        ws_insn *in = &code[last];
        int cap = 2 + (in->op == WS_OP_BRX ? in->ntargets : 0);
        succ[b] = malloc(sizeof(int) * (size_t)cap);
        int fall = last + 1 < n ? blk[last + 1] : EXIT;
        int cond = in->guard >= 0;
        if (in->op == WS_OP_BRA) {
            succ[b][succ_n[b]++] = in->target >= 0 && in->target < n ? blk[in->target] : EXIT;
            if (cond) succ[b][succ_n[b]++] = fall;
        } else if (in->op == WS_OP_BRX) {
            for (int k = 0; k < in->ntargets; k++) succ[b][succ_n[b]++] = blk[in->targets[k]];
            if (cond) succ[b][succ_n[b]++] = fall;
        } else if (in->iflags & WS_IF_ENDS) {
            succ[b][succ_n[b]++] = EXIT;
            if (cond) succ[b][succ_n[b]++] = fall;
        } else succ[b][succ_n[b]++] = fall;
    }
    /* predecessors on the reverse graph = successors on the forward graph; DFS from EXIT over reverse edges */
    int *pred_n = calloc((size_t)nb + 1, sizeof(int));
    for (int b = 0; b < nb; b++) for (int k = 0; k < succ_n[b]; k++) pred_n[succ[b][k]]++;
    int **pred = calloc((size_t)nb + 1, sizeof(int *));
    for (int b = 0; b <= nb; b++) { pred[b] = malloc(sizeof(int) * (size_t)(pred_n[b] + 1)); pred_n[b] = 0; }
    for (int b = 0; b < nb; b++) for (int k = 0; k < succ_n[b]; k++) { int s = succ[b][k]; pred[s][pred_n[s]++] = b; }
    /* postorder of the reverse graph from EXIT (iterative DFS) */
    int *order = malloc(sizeof(int) * (size_t)(nb + 1));
    int *po = malloc(sizeof(int) * (size_t)(nb + 1));
    char *seen = calloc((size_t)nb + 1, 1);
    int *stack = malloc(sizeof(int) * (size_t)(nb + 1) * 2);
    int sp = 0, no = 0;
    stack[sp++] = EXIT; stack[sp++] = 0;
    seen[EXIT] = 1;
    while (sp) {
        int k = stack[sp - 1], v = stack[sp - 2];
        if (k < pred_n[v]) {
            stack[sp - 1] = k + 1;
            int u = pred[v][k];
            if (!seen[u]) { seen[u] = 1; stack[sp++] = u; stack[sp++] = 0; }
        } else {
            sp -= 2;
            po[v] = no;
            order[no++] = v;
        }
    }
    /* Cooper-Harvey-Kennedy on the reverse graph: "predecessors" there are forward successors */
    int *idom = malloc(sizeof(int) * (size_t)(nb + 1));
    for (int b = 0; b <= nb; b++) idom[b] = -1;
    idom[EXIT] = EXIT;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int i = no - 1; i >= 0; i--) {
            int b = order[i];
            if (b == EXIT) continue;
            int nd = -1;
            for (int k = 0; k < succ_n[b]; k++) {
                int s = succ[b][k];
                if (!seen[s] || idom[s] < 0) continue;
                if (nd < 0) { nd = s; continue; }
                int x = s, y = nd;
                while (x != y) {
                    while (po[x] < po[y]) x = idom[x];
                    while (po[y] < po[x]) y = idom[y];
                }
                nd = x;
            }
            if (nd >= 0 && idom[b] != nd) { idom[b] = nd; changed = 1; }
        }
    }
    for (int i = 0; i < n; i++) {
        ws_insn *in = &code[i];
        if (!(in->iflags & WS_IF_BRANCH)) continue;
        int b = blk[i];
        int pd = seen[b] ? idom[b] : -1;
        in->rpc = (pd < 0 || pd == EXIT) ? -1 : start[pd];
    }
    for (int b = 0; b <= nb; b++) { free(pred[b]); if (b < nb) free(succ[b]); }
    free(pred); free(succ); free(pred_n); free(succ_n); free(order); free(po); free(seen); free(stack);
    free(idom); free(leader); free(blk); free(start);
}

/* Whether function fi's address is taken (a constant or an initializer refers to it): a call through a pointer
 * may reach it. */
static int address_taken(const ws_ptx_module *m, int fi)
{
    for (int i = 0; i < m->nfuncs; i++) {
        const ws_func *f = &m->funcs[i];
        for (int k = 0; f->const_reloc && k < f->nconst; k++)
            if (f->const_reloc[k].kind == WS_RELOC_FUNC && f->const_reloc[k].index == fi) return 1;
    }
    for (int i = 0; i < m->nsyms; i++)
        for (int k = 0; k < m->syms[i].nrelocs; k++)
            if (m->syms[i].relocs[k].ref.kind == WS_RELOC_FUNC && m->syms[i].relocs[k].ref.index == fi) return 1;
    return 0;
}

/* Stack need of function fi at call depth `depth`; *taken marks address-taken functions (-1: not computed). */
static size_t stack_need(ws_ptx_module *m, int fi, int depth, signed char *taken)
{
    ws_func *f = &m->funcs[fi];
    if (f->stack_need) return f->stack_need;
    if (f->visiting || depth > 64) return 16384;  /* recursion: a fixed stack, as CUDA's default limit suggests */
    f->visiting = 1;
    size_t deepest = 0;
    for (int i = 0; i < f->ncode; i++) {
        ws_insn *in = &f->code[i];
        if (in->op != WS_OP_CALL || !in->call) continue;
        if (in->call->func >= 0) {
            if (m->funcs[in->call->func].builtin) continue;
            size_t s = stack_need(m, in->call->func, depth + 1, taken);
            if (s > deepest) deepest = s;
            continue;
        }
        /* through a pointer: any function whose address the module takes */
        for (int g = 0; g < m->nfuncs; g++) {
            if (taken[g] < 0) taken[g] = (signed char)address_taken(m, g);
            if (!taken[g] || !m->funcs[g].decoded || m->funcs[g].builtin) continue;
            size_t s = stack_need(m, g, depth + 1, taken);
            if (s > deepest) deepest = s;
        }
    }
    f->visiting = 0;
    f->stack_need = f->frame_size + deepest;
    return f->stack_need;
}

/* Bytes of local memory function fi needs, callees included. */
size_t ws_cfg_stack_need(ws_ptx_module *m, int fi)
{
    signed char *taken = malloc((size_t)m->nfuncs + 1);
    memset(taken, -1, (size_t)m->nfuncs + 1);
    size_t s = stack_need(m, fi, 0, taken);
    free(taken);
    return s;
}
