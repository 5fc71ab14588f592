/* sched.h - ptxas-like instruction scheduling within basic blocks (load hoisting). */
#ifndef WS_SCHED_H
#define WS_SCHED_H

#include "../core/exec.h"

/* Hoist loads above independent instructions within each basic block; leader[i] marks block starts. */
void ws_ptx_schedule(ws_insn *code, int n, const char *leader);

#endif
