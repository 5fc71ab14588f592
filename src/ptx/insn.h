/* insn.h - the decoded-program format the PTX front end produces: types, state spaces, modifiers, flags, decoded
 * instructions (ws_insn), functions (ws_func), symbols and parsed modules (ws_ptx_module).
 *
 * Operands are numbers in one space per function: [0, WS_SR_COUNT) are the special registers (%tid.x, ...), then
 * the registers the function declares, then one number per distinct immediate (its value in ws_func.const_val).
 * So every handler reads its operands the same way. Addresses of module symbols and functions are not known to
 * the front end: they are relocations (ws_reloc) that linking to a device (src/core/load.c) resolves.
 * Nothing here depends on the executor; ws_handler names the executor's warp only as an opaque type. */
#ifndef WS_INSN_H
#define WS_INSN_H

#include <stddef.h>
#include <stdint.h>
#include "opcodes.h"

/* data types */
enum ws_type {
    WS_T_NONE, WS_T_B8, WS_T_B16, WS_T_B32, WS_T_B64, WS_T_B128,
    WS_T_U8, WS_T_U16, WS_T_U32, WS_T_U64,
    WS_T_S8, WS_T_S16, WS_T_S32, WS_T_S64,
    WS_T_F16, WS_T_F16X2, WS_T_BF16, WS_T_BF16X2, WS_T_F32, WS_T_F64, WS_T_TF32,
    WS_T_S16X2, WS_T_U16X2,   /* packed pairs of 16-bit integers (min/max, sm_90) */
    WS_T_E4M3X2, WS_T_E5M2X2,   /* two OCP fp8 values in 16 bits (cvt), the first operand's in the upper byte */
    WS_T_PRED,
    WS_T_COUNT
};

/* state spaces */
enum ws_space { WS_S_GENERIC, WS_S_GLOBAL, WS_S_SHARED, WS_S_LOCAL, WS_S_CONST, WS_S_PARAM_K, WS_S_PARAM_F,
                WS_S_DSMEM   /* resolved only (memory records): another block's shared memory through its cluster */
};

/* rounding modes */
enum ws_rnd { WS_R_NONE, WS_R_RN, WS_R_RZ, WS_R_RM, WS_R_RP, WS_R_RNA, WS_R_RNI, WS_R_RZI, WS_R_RMI, WS_R_RPI };

/* comparison operators */
enum ws_cmp {
    WS_C_NONE, WS_C_EQ, WS_C_NE, WS_C_LT, WS_C_LE, WS_C_GT, WS_C_GE,
    WS_C_LO, WS_C_LS, WS_C_HI, WS_C_HS,
    WS_C_EQU, WS_C_NEU, WS_C_LTU, WS_C_LEU, WS_C_GTU, WS_C_GEU, WS_C_NUM, WS_C_NAN
};

/* sub-operations (ws_insn.sub): setp combine, atomics, shuffle and vote modes, barrier forms. bar.red keeps its
 * reduction (AND/OR/POPC) in type2. mov, testp and prmt use their own enums below in the same field. */
enum ws_sub {
    WS_SUB_NONE, WS_SUB_AND, WS_SUB_OR, WS_SUB_XOR, WS_SUB_ADD, WS_SUB_MIN, WS_SUB_MAX, WS_SUB_INC,
    WS_SUB_DEC, WS_SUB_CAS, WS_SUB_EXCH, WS_SUB_UP, WS_SUB_DOWN, WS_SUB_BFLY, WS_SUB_IDX,
    WS_SUB_ALL, WS_SUB_ANY, WS_SUB_UNI, WS_SUB_BALLOT, WS_SUB_POPC, WS_SUB_ARRIVE, WS_SUB_SYNC,
    WS_SUB_RED
};

/* forms of mov (ws_insn.sub) */
enum ws_mov_form {
    WS_MOV_PLAIN,         /* d = a */
    WS_MOV_UNPACK,        /* {d0, d1, ...} = a */
    WS_MOV_PACK,          /* d = {a0, a1, ...} */
    WS_MOV_CLOCK,         /* d = %clock */
    WS_MOV_CLOCK64,       /* d = %clock64 */
    WS_MOV_GLOBALTIMER    /* d = %globaltimer (also %globaltimer_lo) */
};

/* testp classes (ws_insn.sub) */
enum ws_testp_class {
    WS_TESTP_NONE, WS_TESTP_FINITE, WS_TESTP_INFINITE, WS_TESTP_NUMBER, WS_TESTP_NOTANUMBER, WS_TESTP_NORMAL,
    WS_TESTP_SUBNORMAL
};

/* texture and surface instructions: the object is the base register, coordinates s[0..], sust's values after
 * them (its vec of them; the two past s[4] in imm's halves); sub is the geometry, cmp the tld4 component, surface boundary mode or txq query */
enum ws_tex_geom { WS_TG_NONE, WS_TG_1D, WS_TG_2D, WS_TG_3D, WS_TG_A1D, WS_TG_A2D, WS_TG_CUBE, WS_TG_ACUBE };
enum ws_surf_clamp { WS_SB_TRAP, WS_SB_CLAMP, WS_SB_ZERO };
enum ws_txq_query {
    WS_TXQ_WIDTH, WS_TXQ_HEIGHT, WS_TXQ_DEPTH, WS_TXQ_CHANNEL_DATA_TYPE, WS_TXQ_CHANNEL_ORDER,
    WS_TXQ_NORMALIZED_COORDS, WS_TXQ_FILTER_MODE, WS_TXQ_ADDR_MODE_0, WS_TXQ_ADDR_MODE_1, WS_TXQ_ADDR_MODE_2,
    WS_TXQ_ARRAY_SIZE, WS_TXQ_NUM_MIPMAP_LEVELS, WS_TXQ_NUM_SAMPLES
};

/* prmt modes (ws_insn.sub) */
enum ws_prmt_mode { WS_PRMT_INDEX, WS_PRMT_F4E, WS_PRMT_B4E, WS_PRMT_RC8, WS_PRMT_ECL, WS_PRMT_ECR, WS_PRMT_RC16 };

#define WS_INSN_NSRC 5   /* source operand slots of an instruction (sust keeps two more in imm) */

/* instruction flags (modifiers) */
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
#define WS_F_LOCALSYM 0x40000u /* mov of a frame variable's address: local_base + imm */
#define WS_F_SYNCMEM 0x80000u  /* ld/st .volatile/.relaxed/.acquire/.release: a memory-model access (racecheck) */
#define WS_F_RELEASE 0x100000u /* atom/red .release/.acq_rel: orders the thread's earlier accesses, as a fence before it */
#define WS_F_DSMEM   0x200000u /* ld/st/atom/red .shared::cluster: the address may name a cluster partner's memory */
#define WS_F_DEADD   0x400000u /* atom: no path reads its destination afterwards (regalloc's liveness) */

/* pipelines (resolved per instruction from the table's pipe rule) */
enum ws_pipe { WS_PIPE_INT, WS_PIPE_FP32, WS_PIPE_FP64, WS_PIPE_SFU, WS_PIPE_LSU, WS_PIPE_CTRL, WS_PIPE_TEX, WS_PIPE_TENSOR,
               WS_PIPE_COUNT };

/* latency classes (resolved per instruction from the table's latency rule; the timing model maps each to cycles
 * with the device's parameters) */
enum ws_lat {
    WS_LAT_INT, WS_LAT_FP32, WS_LAT_FP64,
    WS_LAT_SFU,      /* lat_sfu, short scoreboard */
    WS_LAT_SFU64,    /* f64 transcendental: 4 x lat_fp64, short scoreboard */
    WS_LAT_DIV32,    /* f32 division: 2 x lat_sfu, short scoreboard */
    WS_LAT_DIV64,    /* f64 division: 8 x lat_fp64, short scoreboard */
    WS_LAT_IDIV,     /* integer division sequence: 10 x lat_int, short scoreboard */
    WS_LAT_IREM,     /* integer remainder sequence: 10 x lat_int */
    WS_LAT_SHFL,     /* shuffle network, short scoreboard */
    WS_LAT_CVT,      /* conversion */
    WS_LAT_S2R,      /* special-register read: lat_sfu, short scoreboard */
    WS_LAT_BRANCH,
    WS_LAT_TENSOR,   /* tensor core (mma): lat_tensor */
    WS_LAT_COUNT
};

/* resolved per-instruction flags (ws_insn.iflags) */
#define WS_IF_BRANCH   0x0001u  /* bra/brx */
#define WS_IF_ENDS     0x0002u  /* ret/exit/trap */
#define WS_IF_CTRL     0x0004u  /* any control transfer (class CTRL): ends a scheduling block */
#define WS_IF_BARRIER  0x0008u  /* bar/barrier */
#define WS_IF_FENCE    0x0010u  /* membar/fence */
#define WS_IF_WARPSYNC 0x0020u  /* shfl/vote/match/redux */
#define WS_IF_SERIAL   0x0040u  /* timing: touches state shared by all SMs (global/const/generic memory, calls, traps) */
#define WS_IF_ORDERED  0x0080u  /* keeps its place when the block is scheduled (sync, stores, carries, clocks...) */
#define WS_IF_VISIBLE  0x0100u  /* effects beyond the thread's registers (memory, synchronisation, calls...) */
#define WS_IF_MEMSYS   0x0200u  /* a memory access the memory system times (not kernel-parameter loads) */
#define WS_IF_TEX      0x0400u  /* texture/surface access: its addresses come from the object (src/core/ops_tex.c) */
#define WS_IF_GMEM     0x0800u  /* its handler may read or write global memory (WS_IF_SERIAL's, wmma.load): a timing
                                 * engine's gate sees it first (ws_run.gate) */

/* built-in functions a call may reach: the C library's and the device runtime's (CDP2, libcudadevrt) */
enum { WS_BI_NONE, WS_BI_VPRINTF, WS_BI_ASSERTFAIL, WS_BI_MALLOC, WS_BI_FREE,
       WS_BI_CDP_PARAM_BUFFER,      /* __cudaCDP2GetParameterBufferV2(func, grid, block, smem) */
       WS_BI_CDP_LAUNCH,            /* __cudaCDP2LaunchDeviceV2(buffer, stream) */
       WS_BI_CDP_GET_LAST_ERROR, WS_BI_CDP_PEEK_LAST_ERROR, WS_BI_CDP_GET_DEVICE, WS_BI_CDP_DEVICE_ATTR,
       WS_BI_CDP_STREAM_CREATE,     /* __cudaCDP2StreamCreateWithFlags(stream*, flags) */
       WS_BI_CDP_STREAM_DESTROY,
       WS_BI_CDP_UNSUPPORTED,       /* another device-runtime function: a load error names it */
       WS_BI_COUNT };

/* linkage of a module-level function or variable, as its PTX declares it */
enum ws_linkage { WS_LINK_LOCAL, WS_LINK_VISIBLE, WS_LINK_WEAK, WS_LINK_EXTERN };

/* special registers: operand numbers [0, WS_SR_COUNT) of every function. The rarely used come first and those every
 * module uses last (the sink, the carry, thread and block ids): a warp's register window starts at the lowest one its
 * module uses (ws_module.sr_lo), so the rows below it take no memory. */
enum ws_sreg {
    /* thread block clusters (sm_90): the cluster's id in the grid, the block's id and rank in its cluster */
    WS_SR_CLUSTERID_X, WS_SR_CLUSTERID_Y, WS_SR_CLUSTERID_Z, WS_SR_NCLUSTERID_X, WS_SR_NCLUSTERID_Y, WS_SR_NCLUSTERID_Z,
    WS_SR_CLUSTER_CTAID_X, WS_SR_CLUSTER_CTAID_Y, WS_SR_CLUSTER_CTAID_Z,
    WS_SR_CLUSTER_NCTAID_X, WS_SR_CLUSTER_NCTAID_Y, WS_SR_CLUSTER_NCTAID_Z,
    WS_SR_CLUSTER_CTARANK, WS_SR_CLUSTER_NCTARANK, WS_SR_IS_EXPLICIT_CLUSTER,
    WS_SR_ENVREG1, WS_SR_ENVREG2,   /* %envreg1/2: high/low halves of a cooperative grid's workspace address */
    WS_SR_GRIDID, WS_SR_NSMID, WS_SR_SMID, WS_SR_DYN_SMEM, WS_SR_TOTAL_SMEM, WS_SR_NWARPID, WS_SR_WARPID,
    WS_SR_LANEMASK_EQ, WS_SR_LANEMASK_LE, WS_SR_LANEMASK_LT, WS_SR_LANEMASK_GE, WS_SR_LANEMASK_GT,
    WS_SR_WARP_SZ,        /* the PTX constant WARP_SZ: threads per warp of the device */
    WS_SR_LANEID,
    WS_SR_NCTAID_X, WS_SR_NCTAID_Y, WS_SR_NCTAID_Z, WS_SR_NTID_X, WS_SR_NTID_Y, WS_SR_NTID_Z,
    WS_SR_CTAID_X, WS_SR_CTAID_Y, WS_SR_CTAID_Z, WS_SR_TID_X, WS_SR_TID_Y, WS_SR_TID_Z,
    WS_SR_SINK, WS_SR_CARRY,
    WS_SR_COUNT
};

/* what a relocation refers to */
enum ws_reloc_kind { WS_RELOC_NONE, WS_RELOC_SYM, WS_RELOC_FUNC };

/* a value that is an address known only at link time: the address of symbol or function `index` (plus the
 * addend the relocated value already holds) */
typedef struct ws_reloc { uint8_t kind; int32_t index; } ws_reloc;

/* an address stored in a variable's initializer */
typedef struct ws_data_reloc {
    size_t offset;          /* byte offset in the initializer */
    uint8_t size;           /* bytes written (the element size) */
    ws_reloc ref;
    int64_t addend;
} ws_data_reloc;

typedef struct ws_warp ws_warp;   /* the executor's warp (src/core), opaque here */
typedef struct ws_insn ws_insn;

/* every instruction handler has this signature: the warp, the decoded instruction, the lanes that execute. The
 * executor binds one to every instruction when the module is linked. */
typedef void (*ws_handler)(ws_warp *w, const ws_insn *in, uint32_t mask);

/* one argument of a call: where the caller keeps it, where the callee wants it */
typedef struct ws_callarg { uint32_t src_off, dst_off, size; } ws_callarg;

typedef struct ws_call {
    int func;              /* index into the module's functions, -1 for a call through a register */
    int builtin;           /* WS_BI_* for built-ins (vprintf, ...) */
    int nargs;
    ws_callarg *args;      /* caller param buffers -> callee params */
    int has_ret;
    ws_callarg ret;        /* callee retval -> caller buffer */
} ws_call;

/* one decoded instruction */
struct ws_insn {
    ws_handler fn;         /* bound by the executor at link time */
    uint16_t op;           /* enum ws_opcode */
    uint8_t type, type2;   /* operation type; source type of cvt (or the second type of a pair) */
    uint8_t rnd, cmp, sub; /* rounding, comparison, sub-operation */
    uint8_t space;         /* enum ws_space for memory operations */
    uint8_t vec : 4;       /* vector elements (1, 2, 4) */
    uint8_t pneg : 4;      /* guard predicate negated */
    uint8_t nd, ns;        /* destination / source operand counts */
    uint8_t pipe;          /* enum ws_pipe */
    uint16_t flops;        /* floating-point operations per active lane */
    uint8_t lat;           /* enum ws_lat */
    uint8_t mem;           /* enum ws_mem_kind */
    uint32_t flags;        /* WS_F_* */
    uint16_t iflags;       /* WS_IF_* */
    uint16_t at_file;      /* inlined code: .loc's inlined_at file (the call site), else 0 */
    int32_t guard;         /* guard predicate register, -1 when none */
    int32_t d[4];          /* destination registers (d[1] is the predicate of setp p|q, shfl's p) */
    int32_t s[WS_INSN_NSRC]; /* source operands (immediates are operand numbers too) */
    int32_t base;          /* address base register, -1 when absolute */
    int32_t sym;           /* module symbol the absolute address imm is relative to (linking adds it), -1 none */
    int64_t imm;           /* address offset or misc immediate */
    int32_t target;        /* branch target pc */
    int32_t rpc;           /* reconvergence pc of a branch (immediate post-dominator), -1 at function exit */
    union {
        int32_t *targets;  /* brx.idx target table (ntargets entries) */
        struct ws_mma *mma;  /* tensor, matrix and async-copy instructions (WS_OP_IS_TENSOR): their decoded form */
    };
    ws_call *call;         /* call description */
    uint16_t ntargets;
    uint16_t file;         /* source file index from .loc */
    uint32_t line;         /* source line from .loc (0 when unknown) */
    uint32_t at_line;      /* inlined code: .loc's inlined_at line */
    uint32_t ptx_line;     /* line in the PTX text */
};

/* element types of matrix instructions (ws_mma) */
enum ws_mtype { WS_MT_NONE, WS_MT_F16, WS_MT_BF16, WS_MT_TF32, WS_MT_F32, WS_MT_F64, WS_MT_S8, WS_MT_U8, WS_MT_S4,
                WS_MT_U4, WS_MT_B1, WS_MT_S32, WS_MT_B16, WS_MT_E4M3, WS_MT_E5M2, WS_MT_COUNT };
/* what a matrix instruction does (ws_mma.kind) */
enum ws_mkind {
    WS_MX_LOAD_A, WS_MX_LOAD_B, WS_MX_LOAD_C, WS_MX_STORE_D, WS_MX_WMMA, WS_MX_MMA,
    WS_MX_LDMATRIX, WS_MX_STMATRIX, WS_MX_MOVMATRIX,
    WS_MX_CP_ASYNC, WS_MX_CP_COMMIT, WS_MX_CP_WAIT, WS_MX_CP_WAIT_ALL, WS_MX_CP_MBAR_ARRIVE,
    WS_MX_MB_INIT, WS_MX_MB_ARRIVE, WS_MX_MB_ARRIVE_DROP, WS_MX_MB_EXPECT_TX, WS_MX_MB_COMPLETE_TX,
    WS_MX_MB_TEST_WAIT, WS_MX_MB_TRY_WAIT, WS_MX_MB_PENDING, WS_MX_MB_INVAL,
    /* cp.async.bulk (sm_90): global -> shared (mbarrier complete_tx), shared -> global (bulk groups), shared::cta ->
     * shared::cluster; their .tensor forms through a tensor map; commit/wait of bulk groups; L2 prefetches */
    WS_MX_BULK_G2S, WS_MX_BULK_S2G, WS_MX_BULK_S2S, WS_MX_BULK_TENSOR_G2S, WS_MX_BULK_TENSOR_S2G,
    WS_MX_BULK_COMMIT, WS_MX_BULK_WAIT, WS_MX_BULK_PREFETCH, WS_MX_BULK_TENSOR_PREFETCH,
    /* wgmma (sm_90a): the warpgroup's asynchronous multiply-add, its fence, commit and wait */
    WS_MX_WGMMA, WS_MX_WG_FENCE, WS_MX_WG_COMMIT, WS_MX_WG_WAIT
};
#define WS_MMA_MAXD 128          /* the longest register list (wgmma m64n256 f32/s32: 128 accumulators) */
/* the decoded form of a tensor/matrix/async instruction: shape, element types, layouts, register lists. The
 * instruction's d[]/s[] hold the first registers too, for the timing model's scoreboard. */
typedef struct ws_mma {
    uint8_t kind;            /* enum ws_mkind */
    uint8_t m;               /* shape (ldmatrix/stmatrix: the number of 8x8 matrices in n) */
    uint16_t n;
    uint16_t k;
    uint8_t atype, btype, ctype, dtype;   /* enum ws_mtype */
    uint8_t alayout, blayout;             /* 0 row, 1 col (wmma.load/store: the memory layout in alayout) */
    uint8_t satf;            /* .satfinite */
    uint8_t bop;             /* b1: 0 xor, 1 and */
    uint8_t trans;           /* ldmatrix/stmatrix .trans */
    uint8_t parity;          /* mbarrier .parity; cp.async: .noinc */
    uint8_t space;           /* enum ws_space of the memory operand */
    uint8_t cpsize;          /* cp.async: bytes copied */
    uint8_t na, nb, nc, nd;  /* register list lengths */
    int32_t a[8], b[8], c[8], d[WS_MMA_MAXD];   /* operand numbers */
    int32_t stride;          /* wmma.load/store: stride operand (-1: the shape's default) */
    int32_t extra;           /* cp.async: src-size operand (-1: none); mbarrier: count/tx/phase operand;
                              * cp.async.bulk: the size operand; wait_group: the count */
    int32_t mb_base;         /* cp.async.bulk: the mbarrier's address register (-1: none) and offset */
    int64_t mb_off;
    uint8_t dims;            /* cp.async.bulk.tensor: dimensions (the coordinates are c[0..dims)) */
    uint8_t areg;            /* wgmma: A from registers a[0..na) (else a[0] is its shared-memory descriptor) */
    int8_t scale_a, scale_b; /* wgmma: imm-scale-a/b, 1 or -1 */
    uint8_t mn_a, mn_b;      /* wgmma: imm-trans-a/b, the shared-memory operand is MN-major (transposed) */
} ws_mma;

/* ws_func.sass_w's unit: one SASS instruction */
#define WS_SASS_ONE 8

/* declared registers: "%r<4>" is prefix "%r", first operand number, count 4 and numbered (names %r0..%r3) */
typedef struct ws_regdecl { char *prefix; int first, count, numbered, kind; } ws_regdecl;
/* what a declaration's registers hold (ws_regdecl.kind) */
enum ws_regkind { WS_RK_VALUE, WS_RK_PRED, WS_RK_VECTOR };

typedef struct ws_func {
    char *name;
    int is_entry;
    int is_extern;          /* declared only (e.g. vprintf) */
    int builtin;            /* WS_BI_* for known externs */
    int linkage;            /* enum ws_linkage (.extern: declared only) */
    int unit;               /* translation unit it came from (0 unless several units were linked) */
    ws_insn *code;
    int ncode;
    int nregs;              /* operand numbers: specials + declared + constants */
    int first_const;
    int nconst;
    uint64_t *const_val;    /* values of the constant operands (relocated ones hold the addend until linking) */
    ws_reloc *const_reloc;  /* per constant: what its value is relative to (NULL when none is) */
    /* parameters: entry -> offsets in the kernel parameter buffer; func -> offsets in the local frame */
    int nparams;
    size_t *param_off, *param_size;
    size_t param_bytes;
    int has_ret;
    size_t ret_off, ret_size;  /* func: return value in the local frame */
    size_t frame_size;      /* bytes of local frame: params, retval, depots, call-site buffers */
    size_t stack_need;      /* frame_size plus the deepest callee chain (entry: per-thread local bytes) */
    size_t static_smem;     /* entry: bytes of shared memory the kernel declares (set when linked) */
    int maxntid;
    unsigned cluster_dim[3]; /* entry: .reqnctapercluster (0 0 0 when it has none) */
    int explicit_cluster;   /* entry: .explicitcluster (must be launched as a cluster) */
    int maxclusterrank;     /* entry: .maxclusterrank, 0 when none */
    int decoded;            /* body seen */
    int visiting;           /* recursion detection while sizing stacks */
    char **files;           /* shared with the module */
    ws_regdecl *regdecl;    /* register names, for listings and messages */
    int nregdecl;
    uint16_t *sass_w;       /* per instruction: the SASS instructions one execution of it stands for, in eighths
                             * (WS_SASS_ONE; NULL: unknown); set by the host for the device's architecture sass_arch
                             * from ptxas's line table (ws_kernel_set_sass); timing mode counts these */
    char sass_arch[16];
    /* register compaction (regalloc.c): per instruction its operands as declared (d[4], s[WS_INSN_NSRC], base,
     * guard), and first_const and nregs before it; NULL when the function was not compacted */
    int32_t *orig_ops;
    int orig_first_const, orig_nregs;
} ws_func;
/* int32 operands of one instruction kept in ws_func.orig_ops */
#define WS_ORIG_OPS (4 + WS_INSN_NSRC + 2)

typedef struct ws_symbol {
    char *name;
    int space;              /* WS_S_GLOBAL / WS_S_CONST / WS_S_SHARED */
    size_t size;
    int align;
    int is_extern_shared;   /* dynamic shared memory (extern .shared with no size) */
    int managed;            /* .attribute(.managed): one address on the host and the device */
    int linkage;            /* enum ws_linkage (.extern: declared only, defined by another unit) */
    int scope;              /* shared: index of the entry function that declares it, -1 at module level */
    uint8_t *init;          /* global/const initializer (size bytes), NULL for zeros */
    ws_data_reloc *relocs;  /* addresses inside the initializer */
    int nrelocs;
} ws_symbol;

/* a parsed PTX translation unit */
typedef struct ws_ptx_module {
    char *origin;
    ws_func *funcs;
    int nfuncs;
    ws_symbol *syms;
    int nsyms;
    char **files;                /* .file names by index */
    int nfiles;
} ws_ptx_module;

/* Name of a type (for messages). */
const char *ws_type_name(int t);
/* Size of a type in bytes. */
int ws_type_size(int t);
/* Type from its PTX name without the dot ("f32"), or WS_T_NONE. */
int ws_type_from(const char *s, int len);
/* Whether a type is a float type (f16, f16x2, bf16, bf16x2, f32, f64, tf32). */
int ws_type_is_float(int t);
/* Opcode from a mnemonic (without modifiers), -1 when unknown. */
int ws_opcode_from(const char *s, int len);
/* Resolve the table's rules for a decoded instruction: pipe, latency class, flops, memory kind and iflags. */
void ws_insn_classify(ws_insn *in);
/* Name of operand r of function f into buf ("%tid.x", "%r3", "#0x10" for a constant); returns buf. */
const char *ws_operand_name(const ws_func *f, int r, char *buf, size_t cap);

#endif
