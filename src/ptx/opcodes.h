/* opcodes.h - the one list of PTX opcodes. Each entry: OP(enum suffix, PTX mnemonic, class flags).
 * It generates the opcode enum, the name table and the class table (used by the timing model later).
 * Handlers are chosen by the decoder from (opcode, type, modifiers). */
#ifndef WS_OPCODES_H
#define WS_OPCODES_H

/* instruction classes (pipelines) */
#define WS_CLS_INT   0x01
#define WS_CLS_FP32  0x02
#define WS_CLS_FP64  0x04
#define WS_CLS_SFU   0x08
#define WS_CLS_MEM   0x10
#define WS_CLS_CTRL  0x20
#define WS_CLS_SYNC  0x40
#define WS_CLS_MISC  0x80

#define WS_OPCODE_LIST(OP) \
    OP(ADD,     "add",     WS_CLS_INT)  \
    OP(SUB,     "sub",     WS_CLS_INT)  \
    OP(MUL,     "mul",     WS_CLS_INT)  \
    OP(MAD,     "mad",     WS_CLS_INT)  \
    OP(MADC,    "madc",    WS_CLS_INT)  \
    OP(FMA,     "fma",     WS_CLS_FP32) \
    OP(MUL24,   "mul24",   WS_CLS_INT)  \
    OP(MAD24,   "mad24",   WS_CLS_INT)  \
    OP(SAD,     "sad",     WS_CLS_INT)  \
    OP(DIV,     "div",     WS_CLS_INT)  \
    OP(REM,     "rem",     WS_CLS_INT)  \
    OP(ABS,     "abs",     WS_CLS_INT)  \
    OP(NEG,     "neg",     WS_CLS_INT)  \
    OP(MIN,     "min",     WS_CLS_INT)  \
    OP(MAX,     "max",     WS_CLS_INT)  \
    OP(ADDC,    "addc",    WS_CLS_INT)  \
    OP(SUBC,    "subc",    WS_CLS_INT)  \
    OP(COPYSIGN,"copysign",WS_CLS_FP32) \
    OP(TESTP,   "testp",   WS_CLS_FP32) \
    OP(SQRT,    "sqrt",    WS_CLS_SFU)  \
    OP(RSQRT,   "rsqrt",   WS_CLS_SFU)  \
    OP(RCP,     "rcp",     WS_CLS_SFU)  \
    OP(SIN,     "sin",     WS_CLS_SFU)  \
    OP(COS,     "cos",     WS_CLS_SFU)  \
    OP(LG2,     "lg2",     WS_CLS_SFU)  \
    OP(EX2,     "ex2",     WS_CLS_SFU)  \
    OP(TANH,    "tanh",    WS_CLS_SFU)  \
    OP(AND,     "and",     WS_CLS_INT)  \
    OP(OR,      "or",      WS_CLS_INT)  \
    OP(XOR,     "xor",     WS_CLS_INT)  \
    OP(NOT,     "not",     WS_CLS_INT)  \
    OP(CNOT,    "cnot",    WS_CLS_INT)  \
    OP(SHL,     "shl",     WS_CLS_INT)  \
    OP(SHR,     "shr",     WS_CLS_INT)  \
    OP(SHF,     "shf",     WS_CLS_INT)  \
    OP(LOP3,    "lop3",    WS_CLS_INT)  \
    OP(POPC,    "popc",    WS_CLS_INT)  \
    OP(CLZ,     "clz",     WS_CLS_INT)  \
    OP(BFIND,   "bfind",   WS_CLS_INT)  \
    OP(BREV,    "brev",    WS_CLS_INT)  \
    OP(BFE,     "bfe",     WS_CLS_INT)  \
    OP(BFI,     "bfi",     WS_CLS_INT)  \
    OP(BMSK,    "bmsk",    WS_CLS_INT)  \
    OP(PRMT,    "prmt",    WS_CLS_INT)  \
    OP(DP4A,    "dp4a",    WS_CLS_INT)  \
    OP(DP2A,    "dp2a",    WS_CLS_INT)  \
    OP(SETP,    "setp",    WS_CLS_INT)  \
    OP(SET,     "set",     WS_CLS_INT)  \
    OP(SELP,    "selp",    WS_CLS_INT)  \
    OP(SLCT,    "slct",    WS_CLS_INT)  \
    OP(CVT,     "cvt",     WS_CLS_INT)  \
    OP(CVTA,    "cvta",    WS_CLS_INT)  \
    OP(MOV,     "mov",     WS_CLS_INT)  \
    OP(LD,      "ld",      WS_CLS_MEM)  \
    OP(LDU,     "ldu",     WS_CLS_MEM)  \
    OP(ST,      "st",      WS_CLS_MEM)  \
    OP(ATOM,    "atom",    WS_CLS_MEM)  \
    OP(RED,     "red",     WS_CLS_MEM)  \
    OP(PREFETCH,"prefetch",WS_CLS_MEM)  \
    OP(PREFETCHU,"prefetchu",WS_CLS_MEM)\
    OP(ISSPACEP,"isspacep",WS_CLS_INT)  \
    OP(BAR,     "bar",     WS_CLS_SYNC) \
    OP(BARRIER, "barrier", WS_CLS_SYNC) \
    OP(MEMBAR,  "membar",  WS_CLS_SYNC) \
    OP(FENCE,   "fence",   WS_CLS_SYNC) \
    OP(SHFL,    "shfl",    WS_CLS_SYNC) \
    OP(VOTE,    "vote",    WS_CLS_SYNC) \
    OP(MATCH,   "match",   WS_CLS_SYNC) \
    OP(REDUX,   "redux",   WS_CLS_SYNC) \
    OP(ACTIVEMASK,"activemask",WS_CLS_SYNC) \
    OP(BRA,     "bra",     WS_CLS_CTRL) \
    OP(BRX,     "brx",     WS_CLS_CTRL) \
    OP(CALL,    "call",    WS_CLS_CTRL) \
    OP(RET,     "ret",     WS_CLS_CTRL) \
    OP(EXIT,    "exit",    WS_CLS_CTRL) \
    OP(TRAP,    "trap",    WS_CLS_CTRL) \
    OP(BRKPT,   "brkpt",   WS_CLS_CTRL) \
    OP(NANOSLEEP,"nanosleep",WS_CLS_MISC) \
    OP(PMEVENT, "pmevent", WS_CLS_MISC)

/* opcode enum: WS_OP_ADD, ... */
enum ws_opcode {
#define WS_OP_ENUM(e, s, f) WS_OP_##e,
    WS_OPCODE_LIST(WS_OP_ENUM)
#undef WS_OP_ENUM
    WS_OP_COUNT
};

/* PTX mnemonic of an opcode */
extern const char *const ws_opcode_name[WS_OP_COUNT];
/* class flags of an opcode */
extern const unsigned char ws_opcode_class[WS_OP_COUNT];

#endif
