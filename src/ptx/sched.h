/* sched.h - ptxas-like instruction scheduling within basic blocks (load hoisting). */
#ifndef WS_SCHED_H
#define WS_SCHED_H

#include "insn.h"

/* Reorder code[0..n) inside the basic blocks that leader[] (n + 1 entries) marks, loads first. */
void ws_ptx_schedule(ws_insn *code, int n, const char *leader);

#endif
