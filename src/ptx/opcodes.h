/* opcodes.h - the one table of PTX opcodes: every static property of an opcode is a column here, and nothing else
 * re-derives them. Each entry is
 *   OP(enum suffix, PTX mnemonic, class, pipe rule, latency rule, memory kind, flops per lane, alignment rule, flags)
 * - class (WS_CLS_*): the broad family (integer, FP32, FP64, SFU, memory, control, synchronisation, misc).
 * - pipe rule (WS_PR_*) and latency rule (WS_LR_*): how the issue pipeline and the dependent-issue latency class
 *   follow from the instruction's type and modifiers (resolved once per instruction by ws_insn_classify, insn.c).
 * - memory kind (WS_MK_*): none, load, store, atomic (read and write), reduction (write), or a hint.
 * - flops per lane: floating-point operations of one thread when the type is a float type (FMA = 2; x2 types double).
 * - alignment rule (WS_AL_*): how the alignment of the result follows from the operands' alignments (the ptxas
 *   shared-load fusion analysis, fuse.c).
 * - flags (WS_OF_*): branch, path end, barrier, fence, warp-synchronous, serialising, carry, visible side effects.
 * Adding an instruction family: a row here, its handlers in src/core, its tests. */
#ifndef WS_OPCODES_H
#define WS_OPCODES_H

/* instruction classes */
#define WS_CLS_INT   0x01
#define WS_CLS_FP32  0x02
#define WS_CLS_FP64  0x04
#define WS_CLS_SFU   0x08
#define WS_CLS_MEM   0x10
#define WS_CLS_CTRL  0x20
#define WS_CLS_SYNC  0x40
#define WS_CLS_MISC  0x80

/* pipe rules: which pipeline an instruction issues to */
enum ws_pipe_rule {
    WS_PR_TYPE,   /* f64 -> FP64, other float types -> FP32, integers -> INT */
    WS_PR_FMA,    /* f64 -> FP64, else FP32 (IMAD runs on the FMA pipe from Volta on) */
    WS_PR_SFU,    /* f64 -> FP64, else SFU */
    WS_PR_DIV,    /* f64 -> FP64, other float types -> SFU, integers -> INT */
    WS_PR_LSU,    /* LSU; kernel-parameter loads (constant bank operands) -> INT */
    WS_PR_CTRL,   /* branch unit */
    WS_PR_TEX,    /* texture unit (TEX/surface path through L1TEX) */
    WS_PR_TENSOR  /* tensor-core pipe (wmma.mma, mma) */
};

/* latency rules: which latency class an instruction's results have */
enum ws_lat_rule {
    WS_LR_TYPE,   /* f64 -> FP64, f32/f16/f16x2 -> FP32, else INT */
    WS_LR_SFU,    /* f64 -> SFU64, else SFU */
    WS_LR_DIV,    /* f64 -> DIV64, f32 -> SFU (.approx) or DIV32, else IDIV */
    WS_LR_IREM,   /* integer remainder sequence */
    WS_LR_SHFL,   /* shuffle network */
    WS_LR_INT,    /* integer ALU whatever the type */
    WS_LR_CVT,    /* conversion unit; FP64 when either type is f64 */
    WS_LR_MOV,    /* S2R for thread/lane/warp/SM ids and clocks, else INT */
    WS_LR_BRANCH, /* branch unit */
    WS_LR_TENSOR  /* tensor core: the preset's mma latency */
};

/* memory kinds */
enum ws_mem_kind { WS_MK_NONE, WS_MK_LOAD, WS_MK_STORE, WS_MK_ATOMIC, WS_MK_REDUCE, WS_MK_HINT };

/* alignment rules (result alignment from operand alignments a0, a1, a2) */
enum ws_align_rule {
    WS_AL_ONE,    /* unknown: 1 */
    WS_AL_COPY,   /* a0 (mov/cvt/cvta; 1 for the address of a frame variable) */
    WS_AL_MIN,    /* min(a0, a1) (add, sub, or, xor; 1 with .cc/.hi) */
    WS_AL_MAX,    /* max(a0, a1) (and) */
    WS_AL_SHL,    /* a0 << constant shift */
    WS_AL_MUL,    /* a0 * a1 (1 with .hi) */
    WS_AL_MAD     /* min(a0 * a1, a2) (1 with .hi/.cc) */
};

/* opcode flags */
#define WS_OF_BRANCH   0x0001u  /* transfers control to a label or a table (bra, brx) */
#define WS_OF_ENDS     0x0002u  /* ends the thread's path in the function (ret, exit, trap) */
#define WS_OF_BARRIER  0x0004u  /* block barrier (bar, barrier) */
#define WS_OF_FENCE    0x0008u  /* memory fence (membar, fence) */
#define WS_OF_WARPSYNC 0x0010u  /* warp-synchronous with a member mask (shfl, vote, match, redux) */
#define WS_OF_SERIAL   0x0020u  /* touches state shared by every SM (calls, traps): timing's serial phase */
#define WS_OF_CARRY    0x0040u  /* reads the carry flag (addc, subc, madc) */
#define WS_OF_VISIBLE  0x0080u  /* an effect other threads or the host can see, beyond its class (call, trap...) */
#define WS_OF_TEX      0x0100u  /* texture/surface instruction: operands name an object, addresses come from it */
#define WS_OF_REGLIST  0x0200u  /* reads or writes register lists beyond d[]/s[] (ws_mma): keeps its place */

#define WS_OPCODE_LIST(OP) \
    OP(ADD,     "add",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 1, WS_AL_MIN,  0) \
    OP(SUB,     "sub",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 1, WS_AL_MIN,  0) \
    OP(MUL,     "mul",     WS_CLS_INT,  WS_PR_FMA,  WS_LR_TYPE,  WS_MK_NONE, 1, WS_AL_MUL,  0) \
    OP(MAD,     "mad",     WS_CLS_INT,  WS_PR_FMA,  WS_LR_TYPE,  WS_MK_NONE, 2, WS_AL_MAD,  0) \
    OP(MADC,    "madc",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_CARRY) \
    OP(FMA,     "fma",     WS_CLS_FP32, WS_PR_FMA,  WS_LR_TYPE,  WS_MK_NONE, 2, WS_AL_ONE,  0) \
    OP(MUL24,   "mul24",   WS_CLS_INT,  WS_PR_FMA,  WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_MUL,  0) \
    OP(MAD24,   "mad24",   WS_CLS_INT,  WS_PR_FMA,  WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_MAD,  0) \
    OP(SAD,     "sad",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(DIV,     "div",     WS_CLS_INT,  WS_PR_DIV,  WS_LR_DIV,   WS_MK_NONE, 1, WS_AL_ONE,  0) \
    OP(REM,     "rem",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_IREM,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(ABS,     "abs",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(NEG,     "neg",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(MIN,     "min",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 1, WS_AL_ONE,  0) \
    OP(MAX,     "max",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 1, WS_AL_ONE,  0) \
    OP(ADDC,    "addc",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_CARRY) \
    OP(SUBC,    "subc",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_CARRY) \
    OP(COPYSIGN,"copysign",WS_CLS_FP32, WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(TESTP,   "testp",   WS_CLS_FP32, WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(SQRT,    "sqrt",    WS_CLS_SFU,  WS_PR_SFU,  WS_LR_SFU,   WS_MK_NONE, 1, WS_AL_ONE,  0) \
    OP(RSQRT,   "rsqrt",   WS_CLS_SFU,  WS_PR_SFU,  WS_LR_SFU,   WS_MK_NONE, 1, WS_AL_ONE,  0) \
    OP(RCP,     "rcp",     WS_CLS_SFU,  WS_PR_SFU,  WS_LR_SFU,   WS_MK_NONE, 1, WS_AL_ONE,  0) \
    OP(SIN,     "sin",     WS_CLS_SFU,  WS_PR_SFU,  WS_LR_SFU,   WS_MK_NONE, 1, WS_AL_ONE,  0) \
    OP(COS,     "cos",     WS_CLS_SFU,  WS_PR_SFU,  WS_LR_SFU,   WS_MK_NONE, 1, WS_AL_ONE,  0) \
    OP(LG2,     "lg2",     WS_CLS_SFU,  WS_PR_SFU,  WS_LR_SFU,   WS_MK_NONE, 1, WS_AL_ONE,  0) \
    OP(EX2,     "ex2",     WS_CLS_SFU,  WS_PR_SFU,  WS_LR_SFU,   WS_MK_NONE, 1, WS_AL_ONE,  0) \
    OP(TANH,    "tanh",    WS_CLS_SFU,  WS_PR_SFU,  WS_LR_SFU,   WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(AND,     "and",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_MAX,  0) \
    OP(OR,      "or",      WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_MIN,  0) \
    OP(XOR,     "xor",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_MIN,  0) \
    OP(NOT,     "not",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(CNOT,    "cnot",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(SHL,     "shl",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_SHL,  0) \
    OP(SHR,     "shr",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(SHF,     "shf",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(LOP3,    "lop3",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(POPC,    "popc",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(CLZ,     "clz",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(BFIND,   "bfind",   WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(BREV,    "brev",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(BFE,     "bfe",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(BFI,     "bfi",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(BMSK,    "bmsk",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(PRMT,    "prmt",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(DP4A,    "dp4a",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(DP2A,    "dp2a",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(SETP,    "setp",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(SET,     "set",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(SELP,    "selp",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(SLCT,    "slct",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(CVT,     "cvt",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_CVT,   WS_MK_NONE, 0, WS_AL_COPY, 0) \
    OP(CVTA,    "cvta",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_COPY, 0) \
    OP(MOV,     "mov",     WS_CLS_INT,  WS_PR_TYPE, WS_LR_MOV,   WS_MK_NONE, 0, WS_AL_COPY, 0) \
    OP(LD,      "ld",      WS_CLS_MEM,  WS_PR_LSU,  WS_LR_TYPE,  WS_MK_LOAD, 0, WS_AL_ONE,  0) \
    OP(LDU,     "ldu",     WS_CLS_MEM,  WS_PR_LSU,  WS_LR_TYPE,  WS_MK_LOAD, 0, WS_AL_ONE,  0) \
    OP(ST,      "st",      WS_CLS_MEM,  WS_PR_LSU,  WS_LR_TYPE,  WS_MK_STORE, 0, WS_AL_ONE, 0) \
    OP(ATOM,    "atom",    WS_CLS_MEM,  WS_PR_LSU,  WS_LR_TYPE,  WS_MK_ATOMIC, 0, WS_AL_ONE, 0) \
    OP(RED,     "red",     WS_CLS_MEM,  WS_PR_LSU,  WS_LR_TYPE,  WS_MK_REDUCE, 0, WS_AL_ONE, 0) \
    OP(PREFETCH,"prefetch",WS_CLS_MEM,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_HINT, 0, WS_AL_ONE,  0) \
    OP(PREFETCHU,"prefetchu",WS_CLS_MEM,WS_PR_TYPE, WS_LR_TYPE,  WS_MK_HINT, 0, WS_AL_ONE,  0) \
    OP(TEX,     "tex",     WS_CLS_MEM,  WS_PR_TEX,  WS_LR_TYPE,  WS_MK_LOAD, 0, WS_AL_ONE,  WS_OF_TEX) \
    OP(TLD4,    "tld4",    WS_CLS_MEM,  WS_PR_TEX,  WS_LR_TYPE,  WS_MK_LOAD, 0, WS_AL_ONE,  WS_OF_TEX) \
    OP(TXQ,     "txq",     WS_CLS_MEM,  WS_PR_TEX,  WS_LR_INT,   WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_TEX) \
    OP(SULD,    "suld",    WS_CLS_MEM,  WS_PR_TEX,  WS_LR_TYPE,  WS_MK_LOAD, 0, WS_AL_ONE,  WS_OF_TEX) \
    OP(SUST,    "sust",    WS_CLS_MEM,  WS_PR_TEX,  WS_LR_TYPE,  WS_MK_STORE, 0, WS_AL_ONE, WS_OF_TEX) \
    OP(ISSPACEP,"isspacep",WS_CLS_INT,  WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(BAR,     "bar",     WS_CLS_SYNC, WS_PR_CTRL, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_BARRIER) \
    OP(BARRIER, "barrier", WS_CLS_SYNC, WS_PR_CTRL, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_BARRIER) \
    OP(BAR_CLUSTER,"barrier.cluster",WS_CLS_SYNC,WS_PR_CTRL,WS_LR_TYPE,WS_MK_NONE,0, WS_AL_ONE, WS_OF_BARRIER | WS_OF_SERIAL) \
    OP(MAPA,    "mapa",    WS_CLS_INT,  WS_PR_TYPE, WS_LR_INT,   WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(ELECT,   "elect",   WS_CLS_SYNC, WS_PR_TYPE, WS_LR_INT,   WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_WARPSYNC) \
    OP(SETMAXNREG,"setmaxnreg",WS_CLS_MISC,WS_PR_TYPE,WS_LR_TYPE,WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(MEMBAR,  "membar",  WS_CLS_SYNC, WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_FENCE) \
    OP(FENCE,   "fence",   WS_CLS_SYNC, WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_FENCE) \
    OP(SHFL,    "shfl",    WS_CLS_SYNC, WS_PR_LSU,  WS_LR_SHFL,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_WARPSYNC) \
    OP(VOTE,    "vote",    WS_CLS_SYNC, WS_PR_LSU,  WS_LR_INT,   WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_WARPSYNC) \
    OP(MATCH,   "match",   WS_CLS_SYNC, WS_PR_LSU,  WS_LR_SHFL,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_WARPSYNC) \
    OP(REDUX,   "redux",   WS_CLS_SYNC, WS_PR_LSU,  WS_LR_SHFL,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_WARPSYNC) \
    OP(ACTIVEMASK,"activemask",WS_CLS_SYNC,WS_PR_TYPE,WS_LR_INT, WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(BRA,     "bra",     WS_CLS_CTRL, WS_PR_CTRL, WS_LR_BRANCH, WS_MK_NONE, 0, WS_AL_ONE, WS_OF_BRANCH) \
    OP(BRX,     "brx",     WS_CLS_CTRL, WS_PR_CTRL, WS_LR_BRANCH, WS_MK_NONE, 0, WS_AL_ONE, WS_OF_BRANCH | WS_OF_VISIBLE) \
    OP(CALL,    "call",    WS_CLS_CTRL, WS_PR_CTRL, WS_LR_BRANCH, WS_MK_NONE, 0, WS_AL_ONE, WS_OF_SERIAL | WS_OF_VISIBLE) \
    OP(RET,     "ret",     WS_CLS_CTRL, WS_PR_CTRL, WS_LR_BRANCH, WS_MK_NONE, 0, WS_AL_ONE, WS_OF_ENDS) \
    OP(EXIT,    "exit",    WS_CLS_CTRL, WS_PR_CTRL, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_ENDS) \
    OP(TRAP,    "trap",    WS_CLS_CTRL, WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_ENDS | WS_OF_SERIAL | WS_OF_VISIBLE) \
    OP(BRKPT,   "brkpt",   WS_CLS_CTRL, WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_SERIAL | WS_OF_VISIBLE) \
    OP(NANOSLEEP,"nanosleep",WS_CLS_MISC,WS_PR_TYPE,WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  0) \
    OP(PMEVENT, "pmevent", WS_CLS_MISC, WS_PR_TYPE, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE,  WS_OF_VISIBLE) \
    WS_OPCODE_LIST_TENSOR(OP)

/* Tensor-core, matrix-move and asynchronous-copy instructions (src/core/ops_mma.c, ops_async.c). Longer mnemonics
 * ("cp.async.wait_group", "wmma.load") are matched before shorter ones. wmma fragment accesses (many addresses per
 * lane) are done by the handlers without memory records (memory kind none; wmma.store writes global memory, so it
 * runs in timing's serial phase); ldmatrix/stmatrix report each lane's 16-byte row and cp.async its shared
 * destination (the global source is not recorded); cp.async.bulk (every form) moves its bytes itself and the timing
 * engine accounts them (serial: it reads or writes global memory); wgmma reads its shared-memory operands itself
 * (each warp of the warpgroup computes its 16 rows). flops: per lane per m*n*k/32 multiply-adds of float types (2 = one FMA). */
#define WS_OPCODE_LIST_TENSOR(OP) \
    OP(WMMA_LOAD, "wmma.load", WS_CLS_MEM, WS_PR_LSU,   WS_LR_TYPE,   WS_MK_NONE, 0, WS_AL_ONE, WS_OF_VISIBLE | WS_OF_REGLIST) \
    OP(WMMA_STORE,"wmma.store",WS_CLS_MEM, WS_PR_LSU,   WS_LR_TYPE,   WS_MK_NONE, 0, WS_AL_ONE, WS_OF_VISIBLE | WS_OF_SERIAL | WS_OF_REGLIST) \
    OP(WMMA_MMA,  "wmma.mma",  WS_CLS_FP32, WS_PR_TENSOR, WS_LR_TENSOR, WS_MK_NONE, 2, WS_AL_ONE, WS_OF_REGLIST) \
    OP(MMA,       "mma",       WS_CLS_FP32, WS_PR_TENSOR, WS_LR_TENSOR, WS_MK_NONE, 2, WS_AL_ONE, WS_OF_REGLIST) \
    OP(LDMATRIX,  "ldmatrix",  WS_CLS_MEM, WS_PR_LSU,   WS_LR_SHFL,   WS_MK_LOAD, 0, WS_AL_ONE, WS_OF_VISIBLE | WS_OF_REGLIST) \
    OP(STMATRIX,  "stmatrix",  WS_CLS_MEM, WS_PR_LSU,   WS_LR_SHFL,   WS_MK_STORE, 0, WS_AL_ONE, WS_OF_VISIBLE | WS_OF_REGLIST) \
    OP(MOVMATRIX, "movmatrix", WS_CLS_SYNC, WS_PR_LSU,  WS_LR_SHFL,   WS_MK_NONE, 0, WS_AL_ONE, WS_OF_REGLIST) \
    OP(CP_ASYNC,  "cp.async",  WS_CLS_MEM, WS_PR_LSU,   WS_LR_TYPE,   WS_MK_STORE, 0, WS_AL_ONE, WS_OF_VISIBLE | WS_OF_REGLIST) \
    OP(CP_COMMIT, "cp.async.commit_group", WS_CLS_SYNC, WS_PR_LSU, WS_LR_TYPE, WS_MK_NONE, 0, WS_AL_ONE, WS_OF_REGLIST) \
    OP(CP_WAIT,   "cp.async.wait_group", WS_CLS_SYNC, WS_PR_LSU, WS_LR_TYPE, WS_MK_NONE, 0, WS_AL_ONE, WS_OF_REGLIST) \
    OP(CP_WAIT_ALL, "cp.async.wait_all", WS_CLS_SYNC, WS_PR_LSU, WS_LR_TYPE, WS_MK_NONE, 0, WS_AL_ONE, WS_OF_REGLIST) \
    OP(CP_MBAR,   "cp.async.mbarrier", WS_CLS_SYNC, WS_PR_LSU, WS_LR_TYPE, WS_MK_NONE, 0, WS_AL_ONE, WS_OF_VISIBLE | WS_OF_REGLIST) \
    OP(MBARRIER,  "mbarrier",  WS_CLS_SYNC, WS_PR_LSU,  WS_LR_SHFL,   WS_MK_NONE, 0, WS_AL_ONE, WS_OF_VISIBLE | WS_OF_REGLIST) \
    OP(CP_BULK,   "cp.async.bulk", WS_CLS_MEM, WS_PR_LSU, WS_LR_TYPE,  WS_MK_NONE, 0, WS_AL_ONE, WS_OF_VISIBLE | WS_OF_SERIAL | WS_OF_REGLIST) \
    OP(WGMMA,     "wgmma",     WS_CLS_FP32, WS_PR_TENSOR, WS_LR_TENSOR, WS_MK_NONE, 2, WS_AL_ONE, WS_OF_REGLIST)

/* opcode enum: WS_OP_ADD, ... */
enum ws_opcode {
#define WS_OP_ENUM(e, s, cls, pr, lr, mk, fl, al, of) WS_OP_##e,
    WS_OPCODE_LIST(WS_OP_ENUM)
#undef WS_OP_ENUM
    WS_OP_COUNT
};

/* whether an opcode is of the tensor/matrix/async-copy block above (decoded into a ws_mma by the parser) */
#define WS_OP_IS_TENSOR(op) ((op) >= WS_OP_WMMA_LOAD && (op) <= WS_OP_WGMMA)

/* the static properties of one opcode, as the table gives them */
typedef struct ws_opinfo {
    const char *name;           /* PTX mnemonic */
    unsigned char cls;          /* WS_CLS_* */
    unsigned char pipe_rule;    /* enum ws_pipe_rule */
    unsigned char lat_rule;     /* enum ws_lat_rule */
    unsigned char mem;          /* enum ws_mem_kind */
    unsigned char flops;        /* per lane for float types */
    unsigned char align;        /* enum ws_align_rule */
    unsigned short flags;       /* WS_OF_* */
} ws_opinfo;

/* the table, indexed by opcode */
extern const ws_opinfo ws_opinfo_table[WS_OP_COUNT];

/* PTX mnemonic of an opcode */
#define ws_opcode_name(op) (ws_opinfo_table[(op)].name)

#endif
