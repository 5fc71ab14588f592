/* cfg.h - control-flow analysis of decoded functions: basic-block leaders, immediate post-dominators (the
 * reconvergence point of every branch) and the call graph's stack depth. One place that scheduling, the executor,
 * the memory system's fusion analysis and the checkers share. */
#ifndef WS_CFG_H
#define WS_CFG_H

#include "insn.h"

/* Mark basic-block leaders of code[0..n) in leader[0..n] (n + 1 entries, zeroed by the caller or not): the first
 * instruction, every branch target, and the instruction after any instruction whose iflags meet `ends`. */
void ws_cfg_leaders(const ws_insn *code, int n, unsigned ends, char *leader);
/* Set the reconvergence pc (rpc) of every branch of code[0..n) to its immediate post-dominator (-1: the function
 * exit). */
void ws_cfg_reconvergence(ws_insn *code, int n);
/* Bytes of local memory function fi of m needs: its frame plus the deepest chain of callee frames (recursion:
 * a fixed 16 KiB); sets stack_need of the functions visited. */
size_t ws_cfg_stack_need(ws_ptx_module *m, int fi);

#endif
