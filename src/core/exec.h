/* exec.h - internal structures shared by the PTX decoder and the SIMT executor:
 * decoded instructions, functions, modules, warps, blocks and launches. */
#ifndef WS_EXEC_H
#define WS_EXEC_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "sim.h"
#include "../ptx/opcodes.h"
#include "../mem/mem.h"

#define WS_LANES 32            /* register stride: lanes per warp slot (presets may use fewer) */

/* data types */
enum ws_type {
    WS_T_NONE, WS_T_B8, WS_T_B16, WS_T_B32, WS_T_B64, WS_T_B128,
    WS_T_U8, WS_T_U16, WS_T_U32, WS_T_U64,
    WS_T_S8, WS_T_S16, WS_T_S32, WS_T_S64,
    WS_T_F16, WS_T_F16X2, WS_T_BF16, WS_T_BF16X2, WS_T_F32, WS_T_F64, WS_T_TF32,
    WS_T_PRED,
    WS_T_COUNT
};

/* state spaces */
enum ws_space { WS_S_GENERIC, WS_S_GLOBAL, WS_S_SHARED, WS_S_LOCAL, WS_S_CONST, WS_S_PARAM_K, WS_S_PARAM_F };

/* rounding modes */
enum ws_rnd { WS_R_NONE, WS_R_RN, WS_R_RZ, WS_R_RM, WS_R_RP, WS_R_RNA, WS_R_RNI, WS_R_RZI, WS_R_RMI, WS_R_RPI };

/* comparison operators */
enum ws_cmp {
    WS_C_NONE, WS_C_EQ, WS_C_NE, WS_C_LT, WS_C_LE, WS_C_GT, WS_C_GE,
    WS_C_LO, WS_C_LS, WS_C_HI, WS_C_HS,
    WS_C_EQU, WS_C_NEU, WS_C_LTU, WS_C_LEU, WS_C_GTU, WS_C_GEU, WS_C_NUM, WS_C_NAN
};

/* sub-operations: setp combine, atomics, shuffle and vote modes */
enum ws_sub {
    WS_SUB_NONE, WS_SUB_AND, WS_SUB_OR, WS_SUB_XOR, WS_SUB_ADD, WS_SUB_MIN, WS_SUB_MAX, WS_SUB_INC,
    WS_SUB_DEC, WS_SUB_CAS, WS_SUB_EXCH, WS_SUB_UP, WS_SUB_DOWN, WS_SUB_BFLY, WS_SUB_IDX,
    WS_SUB_ALL, WS_SUB_ANY, WS_SUB_UNI, WS_SUB_BALLOT, WS_SUB_POPC, WS_SUB_ARRIVE, WS_SUB_SYNC,
    WS_SUB_RED
};

/* instruction flags */
#define WS_F_FTZ     0x0001u
#define WS_F_SAT     0x0002u
#define WS_F_APPROX  0x0004u
#define WS_F_HI      0x0008u
#define WS_F_LO      0x0010u
#define WS_F_WIDE    0x0020u
#define WS_F_CC      0x0040u   /* .cc: writes the carry flag */
#define WS_F_UNI     0x0080u
#define WS_F_TO      0x0100u   /* cvta.to */
#define WS_F_CLAMP   0x0200u   /* shf.clamp */
#define WS_F_LEFT    0x0400u   /* shf.l */
#define WS_F_NEG1    0x0800u   /* first source operand negated (setp ... !%p) */
#define WS_F_NEG2    0x1000u   /* combine predicate negated */
#define WS_F_SHIFTAMT 0x2000u  /* bfind.shiftamt */
#define WS_F_RELU    0x4000u
#define WS_F_FULL    0x8000u
#define WS_F_SYMOPND 0x20000u  /* address relative to the dynamic shared base (patched at module end) */
#define WS_F_LOCALSYM 0x40000u /* mov of a frame variable's address: local_base + imm */
#define WS_F_SYNCMEM 0x80000u  /* ld/st .volatile/.relaxed/.acquire/.release: a memory-model access (racecheck) */

typedef struct ws_warp ws_warp;
typedef struct ws_insn ws_insn;

/* every instruction handler has this signature: the warp, the decoded instruction, the lanes that execute */
typedef void (*ws_handler)(ws_warp *w, const ws_insn *in, uint32_t mask);

/* one argument of a call: where the caller keeps it, where the callee wants it */
typedef struct ws_callarg { uint32_t src_off, dst_off, size; } ws_callarg;

typedef struct ws_call {
    int func;              /* index into the module's functions, -1 for a built-in */
    int builtin;           /* WS_BI_* for built-ins (vprintf, ...) */
    int nargs;
    ws_callarg *args;      /* caller param buffers -> callee params */
    int has_ret;
    ws_callarg ret;        /* callee retval -> caller buffer */
    int ntargets;          /* call through a register (prototype): candidate functions, unused for now */
} ws_call;

enum { WS_BI_NONE, WS_BI_VPRINTF, WS_BI_ASSERTFAIL, WS_BI_MALLOC, WS_BI_FREE };

/* one decoded instruction */
struct ws_insn {
    ws_handler fn;
    uint16_t op;           /* enum ws_opcode */
    uint8_t type, type2;   /* operation type; source type of cvt (or the second type of a pair) */
    uint8_t rnd, cmp, sub; /* rounding, comparison, sub-operation */
    uint8_t space;         /* enum ws_space for memory operations */
    uint8_t vec;           /* vector elements (1, 2, 4) */
    uint8_t nd, ns;        /* destination / source operand counts */
    uint8_t pneg;          /* guard predicate negated */
    uint32_t flags;        /* WS_F_* */
    int32_t guard;         /* guard predicate register, -1 when none */
    int32_t d[4];          /* destination registers (d[1] is the predicate of setp p|q, shfl's p) */
    int32_t s[5];          /* source registers (immediates live in constant registers) */
    int32_t base;          /* address base register, -1 when absolute */
    int64_t imm;           /* address offset (symbol already added) or misc immediate */
    int32_t target;        /* branch target pc */
    int32_t rpc;           /* reconvergence pc of a branch (immediate post-dominator), -1 at function exit */
    int32_t *targets;      /* brx.idx target table */
    int ntargets;
    ws_call *call;         /* call description */
    uint32_t line;         /* source line from .loc (0 when unknown) */
    uint16_t file;         /* source file index from .loc */
    uint16_t at_file;      /* inlined code: .loc's inlined_at file and line (the call site), else 0 */
    uint32_t at_line;
    uint32_t ptx_line;     /* line in the PTX text */
};

/* special registers: fixed register slots at the start of every function's register window */
enum ws_sreg {
    WS_SR_TID_X, WS_SR_TID_Y, WS_SR_TID_Z, WS_SR_NTID_X, WS_SR_NTID_Y, WS_SR_NTID_Z,
    WS_SR_CTAID_X, WS_SR_CTAID_Y, WS_SR_CTAID_Z, WS_SR_NCTAID_X, WS_SR_NCTAID_Y, WS_SR_NCTAID_Z,
    WS_SR_LANEID, WS_SR_WARPID, WS_SR_NWARPID, WS_SR_SMID, WS_SR_NSMID, WS_SR_GRIDID,
    WS_SR_LANEMASK_EQ, WS_SR_LANEMASK_LE, WS_SR_LANEMASK_LT, WS_SR_LANEMASK_GE, WS_SR_LANEMASK_GT,
    WS_SR_DYN_SMEM, WS_SR_TOTAL_SMEM, WS_SR_SINK, WS_SR_CARRY,
    WS_SR_COUNT
};

typedef struct ws_func {
    char *name;
    int is_entry;
    int is_extern;          /* declared only (e.g. vprintf) */
    int builtin;            /* WS_BI_* for known externs */
    ws_insn *code;
    int ncode;
    int nregs;              /* register slots in a window: specials + declared + constants */
    int first_const;
    int nconst;
    uint64_t *const_val;    /* values of the constant registers */
    /* parameters: entry -> offsets in the kernel parameter buffer; func -> offsets in the local frame */
    int nparams;
    size_t *param_off, *param_size;
    size_t param_bytes;
    int has_ret;
    size_t ret_off, ret_size;  /* func: return value in the local frame */
    size_t frame_size;      /* bytes of local frame: params, retval, depots, call-site buffers */
    size_t stack_need;      /* frame_size plus the deepest callee chain (entry: per-thread local bytes) */
    size_t static_smem;     /* entry: bytes of shared memory the kernel declares (module-level included) */
    int maxntid;
    int decoded;            /* body seen */
    int visiting;           /* recursion detection while sizing stacks */
    char **files;           /* shared with the module */
} ws_func;

typedef struct ws_symbol {
    char *name;
    int space;              /* WS_S_GLOBAL / WS_S_CONST / WS_S_SHARED */
    uint64_t addr;          /* device address (global/const) or shared offset */
    size_t size;
    int align;
    int is_extern_shared;   /* dynamic shared memory */
} ws_symbol;

struct ws_module {
    ws_gpu *gpu;
    char *origin;
    ws_func *funcs;
    int nfuncs;
    ws_symbol *syms;
    int nsyms;
    size_t shared_module_bytes;  /* module-level .shared variables (laid out first in every block) */
    size_t dyn_base;             /* offset of dynamic shared memory in every block of this module */
    uint32_t sreg_used;          /* bit k: some instruction reads or writes special-register slot k */
    int shared_module_align;
    char **files;                /* .file names by index */
    int nfiles;
    ws_kernel *kernels;          /* one per entry */
    int nkernels;
};

struct ws_kernel {
    ws_module *mod;
    int func;                    /* index of the entry function */
    size_t max_dyn_smem;         /* opt-in limit set by cudaFuncSetAttribute */
    size_t dyn_align;            /* alignment of the dynamic shared region */
};

/* SIMT reconvergence stack entry */
typedef struct ws_stk { int32_t pc, rpc; uint32_t mask; } ws_stk;

/* call frame */
typedef struct ws_frame {
    const ws_func *fn;       /* caller */
    size_t regs_off;         /* caller's register window (offset in the register stack) */
    uint32_t caller_local;   /* caller's local frame base */
    int stk_base;            /* index of the callee's first stack entry */
    const ws_insn *call;     /* the call instruction (for return values) */
    uint32_t ret_mask;       /* lanes that have returned */
} ws_frame;

enum { WS_W_RUN, WS_W_BAR, WS_W_DONE, WS_W_FAULT };

struct ws_block;
struct ws_run;

struct ws_warp {
    uint64_t *regs;          /* current frame's register window: regs[slot * WS_LANES + lane] */
    const ws_insn *code;     /* current function's code */
    const ws_func *fn;
    ws_stk *stk;
    int sp, stk_cap;
    uint32_t full;           /* lanes that exist in this warp */
    uint32_t exited;         /* lanes that have exited */
    int state;
    int bar_id;              /* barrier the warp waits at */
    uint32_t local_base;     /* current frame base in local space */
    uint8_t *local;          /* WS_LANES * local_stride bytes */
    ws_frame *frames;
    int nframes, frames_cap;
    uint64_t *reg_stack;     /* all register windows */
    size_t reg_stack_slots;
    int warp_in_block;
    struct ws_block *blk;
    struct ws_run *L;
    uint64_t ninst, nthread;
};

typedef struct ws_block {
    ws_dim3 id;
    uint8_t *smem;
    size_t smem_size;
    ws_warp *warps;
    int nwarps;
    int live_warps;          /* warps not yet done */
    int bar_count[16];       /* warps arrived at each barrier */
    int bar_expect[16];      /* warps expected (0: all live warps) */
    uint32_t bar_red[16];    /* bar.red accumulators */
    int done;
    int in_use;              /* pool entry holds a started block */
    uint64_t linear;         /* grid-linear block index */
    int sm;                  /* SM the timing engine placed it on */
    void *user;              /* per-block data for engines and observers */
} ws_block;

typedef struct ws_run {
    ws_gpu *gpu;
    const ws_module *mod;
    const ws_func *entry;
    ws_dim3 grid, block;
    size_t dyn_smem;
    uint8_t *params;         /* kernel parameter buffer */
    size_t local_stride;     /* bytes of local memory per thread */
    int warp_size;
    int warps_per_block;
    uint8_t *gstore;         /* global arena store */
    uint64_t glimit;         /* bytes of arena in use */
    int fault;               /* first fault's status code */
    char fault_msg[512];
    FILE *printf_out;
    uint64_t ninst, nthread;
    uint64_t max_inst;
    const struct ws_observer *obs;   /* observer of this launch, or NULL */
    void *user;                      /* per-launch data for observers */
    int timed;                       /* a timing engine runs the launch: `cycle` is the simulated SM clock */
    uint64_t cycle;
    /* block scheduling */
    uint64_t nblocks, next;          /* blocks in the grid, next to start */
    uint64_t *order;                 /* shuffled order (--block-order=random) or NULL */
    uint64_t resident;               /* blocks the functional engine keeps resident at most */
    size_t smem_bytes;               /* shared memory per block */
    ws_block **pool;                 /* block storage, reused */
    int npool, pool_cap;
    ws_block **free_blocks;          /* pool entries not in use (a stack) */
    int nfree;
} ws_run;

/* An engine runs a launch's blocks (the functional scheduler, or the timing model). */
typedef void (*ws_engine_fn)(void *ctx, ws_run *L);

struct ws_observer;
struct ws_gpu {
    const ws_device *dev;
    ws_options opt;
    const struct ws_observer *obs;   /* instrumentation (checkers, tracers), or NULL */
    void (*engine)(void *ctx, struct ws_run *L);   /* timing engine, or NULL for the functional one */
    void *engine_ctx;
    int next_blocks_per_sm;          /* residency of the next launch from the occupancy calculator (0: estimate) */
    ws_mem *mem;
    ws_module **mods;
    int nmods;
};

/* --- executor services used by handlers --- */
/* Record a fault for the launch and stop the warp. */
void ws_fault(ws_warp *w, const ws_insn *in, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Host pointer for a generic/global address, NULL when not mapped (slow path). */
void *ws_xlate_slow(ws_warp *w, uint64_t addr, unsigned size, int lane);
/* Remove lanes from the warp (exit / return from the entry function). */
void ws_warp_exit_lanes(ws_warp *w, uint32_t lanes);
/* Return lanes from the current function. */
void ws_warp_return(ws_warp *w, uint32_t lanes);
/* Engine services (exec.c): start/retire blocks, pick the next block, step one warp instruction. */
struct ws_rec;
ws_block *ws_run_block_start(ws_run *L, uint64_t lin);
void ws_run_block_retire(ws_run *L, ws_block *b);
int64_t ws_run_next_block(ws_run *L);
int ws_warp_step(ws_warp *w, struct ws_rec *r);
void ws_gpu_set_engine(ws_gpu *g, ws_engine_fn fn, void *ctx);
/* Pop the top stack entry at its reconvergence point. */
void ws_warp_pop(ws_warp *w);
/* Handlers by family (ops_alu.c, ops_mem.c, warp.c). */
ws_handler ws_alu_handler(const ws_insn *in);
ws_handler ws_mem_handler(const ws_insn *in);
ws_handler ws_ctl_handler(const ws_insn *in);
/* Parse PTX into a module (parse.c); free it. */
ws_module *ws_ptx_parse(ws_gpu *g, const char *ptx, size_t len, const char *origin, char *err, size_t errlen);
void ws_ptx_free(ws_module *m);
/* Print device printf output for the active lanes of a vprintf call. */
void ws_vprintf(ws_warp *w, const ws_insn *in, uint32_t mask);

/* Choose the handler for a decoded instruction; NULL if the combination is unsupported. */
ws_handler ws_select_handler(const ws_insn *in);

/* Name of a type (for messages). */
const char *ws_type_name(int t);
/* Size of a type in bytes. */
int ws_type_size(int t);

#endif
