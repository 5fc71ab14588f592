/* listing.c - the decoded listing of a parsed module (listing.h): every field a decoded instruction carries,
 * in a stable text form that golden tests compare. */
#include <stdio.h>
#include <string.h>
#include "listing.h"
#include "regalloc.h"

static const char *const space_name[] = { "generic", "global", "shared", "local", "const", "param", "param.func" };
static const char *const rnd_name[] = { "", "rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi" };
static const char *const cmp_name[] = { "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                                        "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan" };
static const char *const sub_name[] = { "", "and", "or", "xor", "add", "min", "max", "inc", "dec", "cas", "exch",
                                        "up", "down", "bfly", "idx", "all", "any", "uni", "ballot", "popc",
                                        "arrive", "sync", "red" };
static const char *const mov_name[] = { "", "unpack", "pack", "%clock", "%clock64", "%globaltimer" };
static const char *const testp_name[] = { "", "finite", "infinite", "number", "notanumber", "normal", "subnormal" };
static const char *const prmt_name[] = { "", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16" };
static const char *const geom_name[] = { "", "1d", "2d", "3d", "a1d", "a2d", "cube", "acube" };
static const char *const tld4_name[] = { "r", "g", "b", "a" };
static const char *const surf_clamp_name[] = { "trap", "clamp", "zero" };
static const char *const txq_name[] = { "width", "height", "depth", "channel_data_type", "channel_order",
                                        "normalized_coords", "filter_mode", "addr_mode_0", "addr_mode_1",
                                        "addr_mode_2", "array_size", "num_mipmap_levels", "num_samples" };
static const char *const pipe_name[WS_PIPE_COUNT] = { "INT", "FP32", "FP64", "SFU", "LSU", "CTRL", "TEX", "TENSOR" };
static const char *const lat_name[WS_LAT_COUNT] = { "int", "fp32", "fp64", "sfu", "sfu64", "div32", "div64", "idiv",
                                                    "irem", "shfl", "cvt", "s2r", "branch", "tensor" };
static const char *const mem_name[] = { "-", "load", "store", "atomic", "reduce", "hint" };
static const struct { unsigned bit; const char *n; } iflag_names[] = {
    { WS_IF_BRANCH, "branch" }, { WS_IF_ENDS, "ends" }, { WS_IF_CTRL, "ctrl" }, { WS_IF_BARRIER, "barrier" },
    { WS_IF_FENCE, "fence" }, { WS_IF_WARPSYNC, "warpsync" }, { WS_IF_SERIAL, "serial" },
    { WS_IF_ORDERED, "ordered" }, { WS_IF_VISIBLE, "visible" }, { WS_IF_MEMSYS, "memsys" },
};
static const struct { unsigned bit; const char *n; } flag_names[] = {
    { WS_F_FTZ, "ftz" }, { WS_F_SAT, "sat" }, { WS_F_APPROX, "approx" }, { WS_F_HI, "hi" }, { WS_F_LO, "lo" },
    { WS_F_WIDE, "wide" }, { WS_F_CC, "cc" }, { WS_F_UNI, "uni" }, { WS_F_TO, "to" }, { WS_F_CLAMP, "clamp" },
    { WS_F_LEFT, "l" }, { WS_F_NEG1, "neg1" }, { WS_F_NEG2, "neg2" }, { WS_F_SHIFTAMT, "shiftamt" },
    { WS_F_RELU, "relu" }, { WS_F_FULL, "full" }, { WS_F_LOCALSYM, "localsym" }, { WS_F_SYNCMEM, "syncmem" },
    { WS_F_RELEASE, "release" },
};

#define NAME(tab, i) ((unsigned)(i) < sizeof tab / sizeof *tab ? tab[i] : "?")

/* The sub-operation of in as text (its meaning depends on the opcode). */
static const char *sub_text(const ws_insn *in)
{
    if (in->op == WS_OP_MOV) return NAME(mov_name, in->sub);
    if (in->op == WS_OP_TESTP) return NAME(testp_name, in->sub);
    if (in->op == WS_OP_PRMT) return NAME(prmt_name, in->sub);
    if (in->op == WS_OP_TXQ) return NAME(txq_name, in->cmp);
    if (ws_opinfo_table[in->op].flags & WS_OF_TEX) return NAME(geom_name, in->sub);
    return NAME(sub_name, in->sub);
}

/* The cmp field of in as text: a comparison, or a texture instruction's tld4 component / boundary mode. */
static const char *cmp_text(const ws_insn *in)
{
    if (in->op == WS_OP_TLD4) return NAME(tld4_name, in->cmp);
    if (in->op == WS_OP_SULD || in->op == WS_OP_SUST) return NAME(surf_clamp_name, in->cmp);
    if (ws_opinfo_table[in->op].flags & WS_OF_TEX) return "";
    return in->cmp ? NAME(cmp_name, in->cmp) : "";
}

/* Print a list of operands ("{a, b}") of function f. */
static void operands(FILE *out, const ws_func *f, const char *label, const int32_t *r, int n)
{
    char buf[96];
    fprintf(out, " %s={", label);
    for (int i = 0; i < n; i++) fprintf(out, "%s%s", i ? "," : "", ws_operand_name(f, r[i], buf, sizeof buf));
    fputc('}', out);
}

/* Print decoded instruction pc of f: the operation and operands, then (details) its table properties. */
static void insn_body(FILE *out, const ws_ptx_module *m, const ws_func *f, int pc, int details)
{
    /* the operands as the PTX declared them, even where the registers were compacted (regalloc.c) */
    ws_insn ib;
    ws_func fb;
    const ws_insn *in = ws_ptx_orig_insn(f, pc, &ib);
    f = ws_ptx_orig_names(f, &fb);
    char buf[96];
    if (in->guard >= 0) fprintf(out, "@%s%s ", in->pneg ? "!" : "", ws_operand_name(f, in->guard, buf, sizeof buf));
    fputs(ws_opcode_name(in->op), out);
    const char *sub = sub_text(in);
    if (*sub) fprintf(out, ".%s", sub);
    if (in->op == WS_OP_BAR && in->sub == WS_SUB_RED) fprintf(out, ".%s", NAME(sub_name, in->type2));
    const char *cmp = cmp_text(in);
    if (*cmp) fprintf(out, ".%s", cmp);
    if (in->rnd) fprintf(out, ".%s", NAME(rnd_name, in->rnd));
    for (size_t i = 0; i < sizeof flag_names / sizeof *flag_names; i++)
        if (in->flags & flag_names[i].bit) fprintf(out, ".%s", flag_names[i].n);
    if (in->mem != WS_MK_NONE || in->op == WS_OP_CVTA || in->op == WS_OP_ISSPACEP) fprintf(out, ".%s", NAME(space_name, in->space));
    if (in->vec > 1) fprintf(out, ".v%u", in->vec);
    if (in->type) fprintf(out, ".%s", ws_type_name(in->type));
    if (in->type2 && !(in->op == WS_OP_BAR && in->sub == WS_SUB_RED)) fprintf(out, ".%s", ws_type_name(in->type2));
    if (in->nd) operands(out, f, "d", in->d, in->nd);
    if (in->d[1] != WS_SR_SINK && in->nd < 2) operands(out, f, "p", &in->d[1], 1);
    if (in->ns) operands(out, f, "s", in->s, in->ns > WS_INSN_NSRC ? WS_INSN_NSRC : in->ns);
    if (in->base >= 0 || in->sym >= 0 || in->mem != WS_MK_NONE) {
        fputs(" addr=[", out);
        if (in->base >= 0) fprintf(out, "%s+", ws_operand_name(f, in->base, buf, sizeof buf));
        if (in->sym >= 0) fprintf(out, "%s+", m->syms[in->sym].name);
        int extra = in->op == WS_OP_SUST && in->imm;   /* sust's operands past s[] live in imm */
        fprintf(out, "%lld]", extra ? 0LL : (long long)in->imm);
        if (extra) {
            int32_t x[2] = { (int32_t)(uint32_t)(uint64_t)in->imm, (int32_t)(uint32_t)((uint64_t)in->imm >> 32) };
            operands(out, f, "s+", x, x[1] ? 2 : 1);
        }
    } else if (in->imm) fprintf(out, " imm=%lld", (long long)in->imm);
    if (in->op == WS_OP_BRA) fprintf(out, " ->%d", in->target);
    if (in->op == WS_OP_BRX) {
        fputs(" ->{", out);
        for (int i = 0; i < in->ntargets; i++) fprintf(out, "%s%d", i ? "," : "", in->targets[i]);
        fputc('}', out);
    }
    if (in->iflags & WS_IF_BRANCH) {
        if (in->rpc < 0) fputs(" rpc=exit", out);
        else fprintf(out, " rpc=%d", in->rpc);
    }
    if (in->call) {
        const ws_call *c = in->call;
        fprintf(out, " call=%s args=%d%s", c->func >= 0 ? m->funcs[c->func].name : "(indirect)", c->nargs,
                c->has_ret ? " ret" : "");
    }
    if (!details) return;
    fprintf(out, " | %s %s %s", NAME(pipe_name, in->pipe), NAME(lat_name, in->lat), NAME(mem_name, in->mem));
    if (in->flops) fprintf(out, " flops=%u", in->flops);
    for (size_t i = 0; i < sizeof iflag_names / sizeof *iflag_names; i++)
        if (in->iflags & iflag_names[i].bit) fprintf(out, " %s", iflag_names[i].n);
    if (in->line) fprintf(out, " @%u:%u", in->file, in->line);
}

/* Print one line of the listing: pc, PTX line, the instruction with its properties. */
static void insn_line(FILE *out, const ws_ptx_module *m, const ws_func *f, int pc)
{
    fprintf(out, "  %4d L%-5u ", pc, f->code[pc].ptx_line);
    insn_body(out, m, f, pc, 1);
    fputc('\n', out);
}

/* Text of decoded instruction pc of f (operation and operands) into buf; returns buf. */
const char *ws_ptx_insn_text(const ws_ptx_module *m, const ws_func *f, int pc, char *buf, size_t cap)
{
    if (!cap) return buf;
    buf[0] = 0;
    FILE *mem = fmemopen(buf, cap, "w");
    if (!mem) return buf;
    insn_body(mem, m, f, pc, 0);
    fclose(mem);
    buf[cap - 1] = 0;
    return buf;
}

/* Name of a pipe (INT, FP32, ...). */
const char *ws_ptx_pipe_name(int pipe) { return NAME(pipe_name, pipe); }

/* Print the decoded listing of a parsed module. */
void ws_ptx_listing(FILE *out, const ws_ptx_module *m)
{
    fprintf(out, "module %s: %d functions, %d symbols\n", m->origin, m->nfuncs, m->nsyms);
    for (int i = 0; i < m->nsyms; i++) {
        const ws_symbol *s = &m->syms[i];
        fprintf(out, "symbol %s .%s size=%zu align=%d", s->name, NAME(space_name, s->space), s->size, s->align);
        if (s->is_extern_shared) fputs(" dynamic", out);
        if (s->managed) fputs(" managed", out);
        if (s->linkage == WS_LINK_EXTERN) fputs(" extern", out);   /* defined by another unit (-rdc) */
        if (s->scope >= 0) fprintf(out, " scope=%s", m->funcs[s->scope].name);
        if (s->init) {
            fputs(" init=", out);
            for (size_t k = 0; k < s->size && k < 32; k++) fprintf(out, "%02x", s->init[k]);
            if (s->size > 32) fputs("...", out);
        }
        for (int k = 0; k < s->nrelocs; k++) {
            const ws_data_reloc *r = &s->relocs[k];
            fprintf(out, " reloc@%zu=%s+%lld", r->offset,
                    r->ref.kind == WS_RELOC_SYM ? m->syms[r->ref.index].name : m->funcs[r->ref.index].name,
                    (long long)r->addend);
        }
        fputc('\n', out);
    }
    for (int i = 0; i < m->nfuncs; i++) {
        const ws_func *f = &m->funcs[i];
        fprintf(out, "%s %s", f->is_entry ? ".entry" : ".func", f->name);
        if (!f->decoded) { fputs(f->builtin ? " (built-in)\n" : " (declared)\n", out); continue; }
        fprintf(out, " params=%d", f->nparams);
        for (int k = 0; k < f->nparams; k++) fprintf(out, "%s%zu:%zu", k ? "," : " ", f->param_off[k], f->param_size[k]);
        if (f->has_ret) fprintf(out, " ret=%zu:%zu", f->ret_off, f->ret_size);
        fprintf(out, " frame=%zu stack=%zu regs=%d consts=%d", f->frame_size, f->stack_need,
                (f->orig_ops ? f->orig_first_const : f->first_const) - WS_SR_COUNT, f->nconst);
        if (f->maxntid) fprintf(out, " maxntid=%d", f->maxntid);
        fputc('\n', out);
        for (int k = 0; k < f->nconst; k++) {
            if (!f->const_reloc || f->const_reloc[k].kind == WS_RELOC_NONE) continue;
            const ws_reloc *r = &f->const_reloc[k];
            fprintf(out, "  const #%d = %s+%llu\n", k,
                    r->kind == WS_RELOC_SYM ? m->syms[r->index].name : m->funcs[r->index].name,
                    (unsigned long long)f->const_val[k]);
        }
        for (int pc = 0; pc < f->ncode; pc++) insn_line(out, m, f, pc);
    }
}
