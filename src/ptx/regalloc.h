/* regalloc.h - register slot compaction: declared registers whose live ranges never overlap share a slot, so that
 * a warp's register window holds what can be live at once instead of every virtual register nvcc numbered. */
#ifndef WS_REGALLOC_H
#define WS_REGALLOC_H

#include "insn.h"

/* Give the declared registers of decoded function f slots by liveness (f->code's operands, first_const, nregs
 * change; the operands as declared stay in f->orig_ops for listings and analyses of the PTX as written). Leaves f
 * as it is where the analysis cannot vouch for the result: calls, indirect branches, tensor, texture and surface
 * instructions, vector registers. Returns 1 when f was compacted, 0 when not, -1 when out of memory. */
int ws_ptx_regalloc(ws_func *f);

/* Point ops at the operand fields of in that may name a register, in ws_func.orig_ops order. */
void ws_ptx_insn_regs(ws_insn *in, int32_t *ops[WS_ORIG_OPS]);

/* f with first_const and nregs as declared, for naming operands of ws_ptx_orig_insn (a copy in buf; f itself when
 * f was not compacted). */
const ws_func *ws_ptx_orig_names(const ws_func *f, ws_func *buf);

/* The instruction at pc of f with its operands as the PTX declared them (itself when f was not compacted). */
const ws_insn *ws_ptx_orig_insn(const ws_func *f, int pc, ws_insn *buf);

/* A view of f as declared (first_const and nregs before compaction) for operand names and per-register analyses;
 * *code_out is f's code with the declared operands, which the caller frees (NULL, and f itself, when f was not
 * compacted). */
const ws_func *ws_ptx_orig_view(const ws_func *f, ws_func *buf, ws_insn **code_out);

#endif
