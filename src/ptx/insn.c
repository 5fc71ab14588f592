/* insn.c - the opcode table's data, type names and sizes, and the one place where the table's rules become the
 * per-instruction properties (pipe, latency class, flops, memory kind, flags) every other part reads. */
#include <stdio.h>
#include <string.h>
#include "insn.h"

_Static_assert(sizeof(ws_insn) <= 128, "a decoded instruction fits two cache lines");

const ws_opinfo ws_opinfo_table[WS_OP_COUNT] = {
#define WS_OP_INFO(e, s, cls, pr, lr, mk, fl, al, of) { s, cls, pr, lr, mk, fl, al, of },
    WS_OPCODE_LIST(WS_OP_INFO)
#undef WS_OP_INFO
};

static const struct { const char *n; int t; } type_names[] = {
    {"b8", WS_T_B8}, {"b16", WS_T_B16}, {"b32", WS_T_B32}, {"b64", WS_T_B64}, {"b128", WS_T_B128},
    {"u8", WS_T_U8}, {"u16", WS_T_U16}, {"u32", WS_T_U32}, {"u64", WS_T_U64},
    {"s8", WS_T_S8}, {"s16", WS_T_S16}, {"s32", WS_T_S32}, {"s64", WS_T_S64},
    {"f16", WS_T_F16}, {"f16x2", WS_T_F16X2}, {"bf16", WS_T_BF16}, {"bf16x2", WS_T_BF16X2},
    {"f32", WS_T_F32}, {"f64", WS_T_F64}, {"tf32", WS_T_TF32}, {"pred", WS_T_PRED},
    {"s16x2", WS_T_S16X2}, {"u16x2", WS_T_U16X2},
    {"e4m3x2", WS_T_E4M3X2}, {"e5m2x2", WS_T_E5M2X2},
};

/* bytes of each type */
static const unsigned char type_size[WS_T_COUNT] = {
    [WS_T_B8] = 1, [WS_T_U8] = 1, [WS_T_S8] = 1, [WS_T_PRED] = 1,
    [WS_T_B16] = 2, [WS_T_U16] = 2, [WS_T_S16] = 2, [WS_T_F16] = 2, [WS_T_BF16] = 2,
    [WS_T_E4M3X2] = 2, [WS_T_E5M2X2] = 2,
    [WS_T_B32] = 4, [WS_T_U32] = 4, [WS_T_S32] = 4, [WS_T_F32] = 4, [WS_T_F16X2] = 4, [WS_T_BF16X2] = 4,
    [WS_T_TF32] = 4, [WS_T_S16X2] = 4, [WS_T_U16X2] = 4,
    [WS_T_B64] = 8, [WS_T_U64] = 8, [WS_T_S64] = 8, [WS_T_F64] = 8,
    [WS_T_B128] = 16,
};

/* Type from a name without the dot, or WS_T_NONE. */
int ws_type_from(const char *s, int len)
{
    for (size_t i = 0; i < sizeof type_names / sizeof *type_names; i++)
        if ((int)strlen(type_names[i].n) == len && !memcmp(type_names[i].n, s, (size_t)len)) return type_names[i].t;
    return WS_T_NONE;
}

/* Name of a type (for messages). */
const char *ws_type_name(int t)
{
    for (size_t i = 0; i < sizeof type_names / sizeof *type_names; i++)
        if (type_names[i].t == t) return type_names[i].n;
    return "?";
}

/* Size of a type in bytes. */
int ws_type_size(int t)
{
    return t > 0 && t < WS_T_COUNT ? type_size[t] : 0;
}

/* Whether a type is a float type. */
int ws_type_is_float(int t)
{
    return t == WS_T_F16 || t == WS_T_F16X2 || t == WS_T_BF16 || t == WS_T_BF16X2 || t == WS_T_F32 ||
           t == WS_T_F64 || t == WS_T_TF32;
}

/* Opcode from a mnemonic, -1 when unknown. */
int ws_opcode_from(const char *s, int len)
{
    for (int i = 0; i < WS_OP_COUNT; i++)
        if ((int)strlen(ws_opinfo_table[i].name) == len && !memcmp(ws_opinfo_table[i].name, s, (size_t)len)) return i;
    return -1;
}

/* The pipe an instruction issues to, by its opcode's rule. */
static int resolve_pipe(const ws_insn *in, int rule)
{
    int t = in->type;
    int f64 = t == WS_T_F64;
    int fp = t == WS_T_F32 || t == WS_T_F16 || t == WS_T_F16X2 || t == WS_T_BF16 || t == WS_T_BF16X2;
    switch (rule) {
    case WS_PR_FMA: return f64 ? WS_PIPE_FP64 : WS_PIPE_FP32;
    case WS_PR_SFU: return f64 ? WS_PIPE_FP64 : WS_PIPE_SFU;
    case WS_PR_DIV: return f64 ? WS_PIPE_FP64 : fp ? WS_PIPE_SFU : WS_PIPE_INT;
    case WS_PR_LSU: return in->space == WS_S_PARAM_K ? WS_PIPE_INT : WS_PIPE_LSU;
    case WS_PR_CTRL: return WS_PIPE_CTRL;
    case WS_PR_TEX: return WS_PIPE_TEX;
    case WS_PR_TENSOR: return WS_PIPE_TENSOR;
    default: return f64 ? WS_PIPE_FP64 : fp ? WS_PIPE_FP32 : WS_PIPE_INT;
    }
}

/* Whether a mov reads a special register through the S2R path (thread, lane, warp and SM ids, clocks). */
static int mov_is_s2r(const ws_insn *in)
{
    int s = in->s[0];
    return in->sub == WS_MOV_CLOCK || in->sub == WS_MOV_CLOCK64 || in->sub == WS_MOV_GLOBALTIMER ||
           s == WS_SR_TID_X || s == WS_SR_TID_Y || s == WS_SR_TID_Z || s == WS_SR_LANEID || s == WS_SR_WARPID ||
           s == WS_SR_SMID;
}

/* The latency class of an instruction's results, by its opcode's rule. */
static int resolve_lat(const ws_insn *in, int rule)
{
    int t = in->type;
    switch (rule) {
    case WS_LR_SFU: return t == WS_T_F64 ? WS_LAT_SFU64 : WS_LAT_SFU;
    case WS_LR_DIV:
        if (t == WS_T_F64) return WS_LAT_DIV64;
        if (t == WS_T_F32) return (in->flags & WS_F_APPROX) ? WS_LAT_SFU : WS_LAT_DIV32;
        return WS_LAT_IDIV;
    case WS_LR_IREM: return WS_LAT_IREM;
    case WS_LR_SHFL: return WS_LAT_SHFL;
    case WS_LR_INT: return WS_LAT_INT;
    case WS_LR_CVT: return t == WS_T_F64 || in->type2 == WS_T_F64 ? WS_LAT_FP64 : WS_LAT_CVT;
    case WS_LR_MOV: return mov_is_s2r(in) ? WS_LAT_S2R : WS_LAT_INT;
    case WS_LR_BRANCH: return WS_LAT_BRANCH;
    case WS_LR_TENSOR: return WS_LAT_TENSOR;
    default:
        if (t == WS_T_F64) return WS_LAT_FP64;
        if (t == WS_T_F32 || t == WS_T_F16 || t == WS_T_F16X2) return WS_LAT_FP32;
        return WS_LAT_INT;
    }
}

/* Floating-point operations per lane: the table's count for f32/f64/f16 types, twice for f16x2. */
static int resolve_flops(const ws_insn *in, int per_lane)
{
    int t = in->type;
    if (WS_OP_IS_TENSOR(in->op) && in->mma && ws_opinfo_table[in->op].pipe_rule == WS_PR_TENSOR)   /* per lane: its share of m*n*k FMAs */
        return t == WS_T_F32 || t == WS_T_F64 ? per_lane * in->mma->m * in->mma->n * in->mma->k / 32 : 0;
    if (t != WS_T_F32 && t != WS_T_F64 && t != WS_T_F16 && t != WS_T_F16X2) return 0;
    return per_lane * (t == WS_T_F16X2 ? 2 : 1);
}

/* Resolve the table's rules for a decoded instruction (after its operands, space and modifiers are known). */
void ws_insn_classify(ws_insn *in)
{
    const ws_opinfo *oi = &ws_opinfo_table[in->op];
    in->pipe = (uint8_t)resolve_pipe(in, oi->pipe_rule);
    in->lat = (uint8_t)resolve_lat(in, oi->lat_rule);
    in->flops = (uint16_t)resolve_flops(in, oi->flops);
    in->mem = oi->mem;
    unsigned f = 0, of = oi->flags;
    int access = oi->mem != WS_MK_NONE && oi->mem != WS_MK_HINT;
    int global_like = in->space == WS_S_GLOBAL || in->space == WS_S_CONST || in->space == WS_S_GENERIC;
    int clock = in->op == WS_OP_MOV && (in->sub == WS_MOV_CLOCK || in->sub == WS_MOV_CLOCK64 ||
                                        in->sub == WS_MOV_GLOBALTIMER);
    if (of & WS_OF_BRANCH) f |= WS_IF_BRANCH;
    if (of & WS_OF_ENDS) f |= WS_IF_ENDS;
    if (oi->cls & WS_CLS_CTRL) f |= WS_IF_CTRL;
    if (of & WS_OF_BARRIER) f |= WS_IF_BARRIER;
    if (of & WS_OF_FENCE) f |= WS_IF_FENCE;
    if (of & WS_OF_WARPSYNC) f |= WS_IF_WARPSYNC;
    if ((of & WS_OF_SERIAL) || (access && global_like) || (access && (in->flags & WS_F_DSMEM))) f |= WS_IF_SERIAL;
    if ((oi->cls & (WS_CLS_CTRL | WS_CLS_SYNC)) || (oi->mem != WS_MK_NONE && oi->mem != WS_MK_LOAD) ||
        (of & WS_OF_CARRY) || (of & WS_OF_REGLIST) || (in->flags & WS_F_CC) || clock)
        f |= WS_IF_ORDERED;
    if ((oi->cls & (WS_CLS_MEM | WS_CLS_SYNC)) || (of & WS_OF_VISIBLE)) f |= WS_IF_VISIBLE;
    if (access && in->space != WS_S_PARAM_K) f |= WS_IF_MEMSYS;
    if ((f & WS_IF_SERIAL) || in->op == WS_OP_WMMA_LOAD || in->op == WS_OP_CP_ASYNC) f |= WS_IF_GMEM;
    if (of & WS_OF_TEX) f |= WS_IF_TEX;
    in->iflags = (uint16_t)f;
}

/* names of the special registers, by operand number */
static const char *const sreg_name[WS_SR_COUNT] = {
    [WS_SR_TID_X] = "%tid.x", [WS_SR_TID_Y] = "%tid.y", [WS_SR_TID_Z] = "%tid.z",
    [WS_SR_NTID_X] = "%ntid.x", [WS_SR_NTID_Y] = "%ntid.y", [WS_SR_NTID_Z] = "%ntid.z",
    [WS_SR_CTAID_X] = "%ctaid.x", [WS_SR_CTAID_Y] = "%ctaid.y", [WS_SR_CTAID_Z] = "%ctaid.z",
    [WS_SR_NCTAID_X] = "%nctaid.x", [WS_SR_NCTAID_Y] = "%nctaid.y", [WS_SR_NCTAID_Z] = "%nctaid.z",
    [WS_SR_LANEID] = "%laneid", [WS_SR_WARPID] = "%warpid", [WS_SR_NWARPID] = "%nwarpid", [WS_SR_SMID] = "%smid",
    [WS_SR_NSMID] = "%nsmid", [WS_SR_GRIDID] = "%gridid", [WS_SR_LANEMASK_EQ] = "%lanemask_eq",
    [WS_SR_LANEMASK_LE] = "%lanemask_le", [WS_SR_LANEMASK_LT] = "%lanemask_lt", [WS_SR_LANEMASK_GE] = "%lanemask_ge",
    [WS_SR_LANEMASK_GT] = "%lanemask_gt", [WS_SR_DYN_SMEM] = "%dynamic_smem_size",
    [WS_SR_TOTAL_SMEM] = "%total_smem_size", [WS_SR_WARP_SZ] = "WARP_SZ", [WS_SR_ENVREG1] = "%envreg1", [WS_SR_ENVREG2] = "%envreg2",
    [WS_SR_CLUSTERID_X] = "%clusterid.x", [WS_SR_CLUSTERID_Y] = "%clusterid.y", [WS_SR_CLUSTERID_Z] = "%clusterid.z",
    [WS_SR_NCLUSTERID_X] = "%nclusterid.x", [WS_SR_NCLUSTERID_Y] = "%nclusterid.y", [WS_SR_NCLUSTERID_Z] = "%nclusterid.z",
    [WS_SR_CLUSTER_CTAID_X] = "%cluster_ctaid.x", [WS_SR_CLUSTER_CTAID_Y] = "%cluster_ctaid.y",
    [WS_SR_CLUSTER_CTAID_Z] = "%cluster_ctaid.z", [WS_SR_CLUSTER_NCTAID_X] = "%cluster_nctaid.x",
    [WS_SR_CLUSTER_NCTAID_Y] = "%cluster_nctaid.y", [WS_SR_CLUSTER_NCTAID_Z] = "%cluster_nctaid.z",
    [WS_SR_CLUSTER_CTARANK] = "%cluster_ctarank", [WS_SR_CLUSTER_NCTARANK] = "%cluster_nctarank",
    [WS_SR_IS_EXPLICIT_CLUSTER] = "%is_explicit_cluster",
    [WS_SR_SINK] = "_", [WS_SR_CARRY] = "%carry",
};

/* Name of operand r of function f. */
const char *ws_operand_name(const ws_func *f, int r, char *buf, size_t cap)
{
    if (r >= 0 && r < WS_SR_COUNT) { snprintf(buf, cap, "%s", sreg_name[r]); return buf; }
    if (f && r >= f->first_const && r < f->first_const + f->nconst) {
        snprintf(buf, cap, "#0x%llx", (unsigned long long)f->const_val[r - f->first_const]);
        return buf;
    }
    for (int i = 0; f && i < f->nregdecl; i++) {
        const ws_regdecl *d = &f->regdecl[i];
        if (r < d->first || r >= d->first + d->count) continue;
        if (d->numbered) snprintf(buf, cap, "%s%d", d->prefix, r - d->first);
        else snprintf(buf, cap, "%s", d->prefix);
        return buf;
    }
    snprintf(buf, cap, "?%d", r);
    return buf;
}
