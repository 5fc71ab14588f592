/* parse.c - PTX front end: parses a PTX module and decodes every instruction once into ws_insn records.
 * Registers, immediates and special registers all become operand numbers, so handlers read operands uniformly.
 * Addresses of module symbols and functions become relocations; nothing here allocates device memory or knows
 * the executor (linking a parsed module to a device is src/core/load.c). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parse.h"
#include "cfg.h"
#include "hmap.h"
#include "lex.h"
#include "sched.h"
#include "regalloc.h"
#include "devrt.h"

typedef ws_hmap hmap;
#define hmap_get ws_hmap_get
#define hmap_put ws_hmap_put
#define hmap_free ws_hmap_free
#define hmap_slot ws_hmap_slot
typedef ws_hent hent;

/* ---------- parser state ---------- */
/* name kinds in a function's scope: value encodes kind in the top bits */
#define NK_REG     (1 << 24)   /* register slot */
#define NK_LOCAL   (2 << 24)   /* local-frame symbol (depot, call param, func param): value = frame offset */
#define NK_KPARAM  (3 << 24)   /* kernel parameter: index */
#define NK_MASK    0x00ffffff
#define NK_KIND(v) ((v) & ~NK_MASK)

typedef struct shadow { char *name; int prev; } shadow;

typedef struct fixup { int pc; char *label; int is_table; int line; } fixup;

typedef struct parser {
    ws_lex lx;
    ws_ptx_module *mod;
    char *err;
    size_t errlen;
    int failed;
    const char *origin;
    hmap gsyms;            /* module symbols: index into mod->syms */
    hmap funcs;            /* function name -> index */
    /* current function */
    ws_func *fn;
    int fn_index;          /* its index in mod->funcs */
    hmap names;            /* scoped names of the current function */
    shadow *shadows;
    int nshadows, capshadows;
    int *scope_marks;
    int nscopes, capscopes;
    hmap labels;           /* label -> pc */
    fixup *fix;
    int nfix, capfix;
    ws_insn *code;
    int ncode, capcode;
    int nregs;             /* declared registers (after specials) */
    uint64_t *consts;      /* constant values (index = const number) */
    ws_reloc *const_rel;   /* what each constant is relative to */
    int nconst, capconst;
    size_t frame;          /* local frame bytes so far */
    int cur_file, cur_line;
    int cur_at_file, cur_at_line;   /* .loc ... inlined_at FILE LINE COL */
    hmap tables;           /* .branchtargets label -> index into tables_v */
    int **tables_v;
    int *tables_n;
    int ntables;
} parser;

/* Record a parse error (the first one wins). */
static void perr(parser *P, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void perr(parser *P, int line, const char *fmt, ...)
{
    if (P->failed) return;
    P->failed = 1;
    int n = snprintf(P->err, P->errlen, "%s:%d: ", P->origin ? P->origin : "ptx", line);
    if (n < 0 || (size_t)n >= P->errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P->err + n, P->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

#define TOK (&P->lx.tok)
#define NEXT() ws_lex_next(&P->lx)
#define IS(c) ws_lex_is(&P->lx, (c))
#define ISW(w) ws_lex_word(&P->lx, (w))

/* Consume punctuation c or fail. */
static int expect(parser *P, char c)
{
    if (!IS(c)) {
        perr(P, TOK->line, "expected '%c' but found '%.*s'", c, TOK->len, TOK->p);
        return -1;
    }
    NEXT();
    return 0;
}

/* Copy of the current token's text. */
static char *tokdup(parser *P) { return strndup(TOK->p, (size_t)TOK->len); }

/* ---------- types ---------- */
#define type_from ws_type_from

/* ---------- scopes ---------- */
/* Declare name in the innermost scope of the current function. */
static void declare(parser *P, const char *name, int len, int val)
{
    int prev = hmap_put(&P->names, name, len, val);
    if (P->nshadows == P->capshadows) {
        P->capshadows = P->capshadows ? P->capshadows * 2 : 64;
        P->shadows = realloc(P->shadows, (size_t)P->capshadows * sizeof *P->shadows);
    }
    P->shadows[P->nshadows++] = (shadow){ strndup(name, (size_t)len), prev };
}

/* Open a { } scope. */
static void scope_push(parser *P)
{
    if (P->nscopes == P->capscopes) {
        P->capscopes = P->capscopes ? P->capscopes * 2 : 16;
        P->scope_marks = realloc(P->scope_marks, (size_t)P->capscopes * sizeof(int));
    }
    P->scope_marks[P->nscopes++] = P->nshadows;
}

/* Close a scope, restoring shadowed names. */
static void scope_pop(parser *P)
{
    int mark = P->nscopes ? P->scope_marks[--P->nscopes] : 0;
    while (P->nshadows > mark) {
        shadow *s = &P->shadows[--P->nshadows];
        hent *e = hmap_slot(&P->names, s->name, (int)strlen(s->name));
        if (e->key) e->val = s->prev;  /* -1 marks "not declared" */
        free(s->name);
    }
}

/* Value of a name in the current function, -1 when unknown. */
static int lookup(parser *P, const char *s, int len)
{
    return hmap_get(&P->names, s, len);
}

/* ---------- constants ---------- */
static const ws_reloc NO_RELOC = { WS_RELOC_NONE, 0 };

/* Operand holding constant value v relative to rel (deduplicated per function). */
static int const_reg_rel(parser *P, uint64_t v, ws_reloc rel)
{
    for (int i = 0; i < P->nconst; i++)
        if (P->consts[i] == v && P->const_rel[i].kind == rel.kind && P->const_rel[i].index == rel.index) return -2 - i;
    if (P->nconst == P->capconst) {
        P->capconst = P->capconst ? P->capconst * 2 : 64;
        P->consts = realloc(P->consts, (size_t)P->capconst * sizeof(uint64_t));
        P->const_rel = realloc(P->const_rel, (size_t)P->capconst * sizeof(ws_reloc));
    }
    P->consts[P->nconst] = v;
    P->const_rel[P->nconst] = rel;
    return -2 - P->nconst++;
}

/* Operand holding the plain constant value v. */
static int const_reg(parser *P, uint64_t v) { return const_reg_rel(P, v, NO_RELOC); }

/* Constant operands are encoded as -2 - k until the function ends, then become operand numbers. */
#define IS_CONST_ENC(r) ((r) <= -2)
#define WS_PTX_MAX_REGS (1 << 17)   /* declared registers per function (a register window is 256 bytes each) */
#define WS_PTX_MAX_VAR_BYTES (1ull << 36)   /* bytes of one variable (64 GiB) */
#define WS_PTX_MAX_INIT_BYTES (1ull << 28)  /* bytes of one initialized variable */
#define WS_PTX_MAX_ALIGN 4096
#define WS_PTX_MAX_FRAME ((size_t)NK_MASK)  /* bytes of a function's local frame (offsets are 24-bit names) */

/* ---------- numbers ---------- */
/* Parse a numeric literal (with optional leading '-') as bits for type t. */
static int parse_number(parser *P, int t, uint64_t *out)
{
    int neg = 0;
    if (IS('-')) { neg = 1; NEXT(); }
    if (TOK->kind != WS_TK_NUM) {
        perr(P, TOK->line, "expected a number but found '%.*s'", TOK->len, TOK->p);
        return -1;
    }
    char buf[80];
    int n = TOK->len < 79 ? TOK->len : 79;
    memcpy(buf, TOK->p, (size_t)n);
    buf[n] = 0;
    NEXT();
    int isf = t == WS_T_F32 || t == WS_T_F64 || t == WS_T_F16 || t == WS_T_BF16;
    if ((buf[0] == '0') && (buf[1] == 'f' || buf[1] == 'F') && n == 10) {
        uint32_t bits = (uint32_t)strtoul(buf + 2, NULL, 16);
        if (neg) bits ^= 0x80000000u;
        if (t == WS_T_F64) {
            float f;
            memcpy(&f, &bits, 4);
            double d = f;
            memcpy(out, &d, 8);
        } else *out = bits;
        return 0;
    }
    if ((buf[0] == '0') && (buf[1] == 'd' || buf[1] == 'D') && n == 18) {
        uint64_t bits = strtoull(buf + 2, NULL, 16);
        if (neg) bits ^= 0x8000000000000000ull;
        if (t == WS_T_F32) {
            double d;
            memcpy(&d, &bits, 8);
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            *out = b;
        } else *out = bits;
        return 0;
    }
    if (strchr(buf, '.') || (isf && (strchr(buf, 'e') || strchr(buf, 'E')) && !(buf[1] == 'x' || buf[1] == 'X'))) {
        double d = strtod(buf, NULL);
        if (neg) d = -d;
        if (t == WS_T_F32) {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            *out = b;
        } else memcpy(out, &d, 8);
        return 0;
    }
    size_t L = strlen(buf);
    if (L && (buf[L - 1] == 'U' || buf[L - 1] == 'u')) buf[--L] = 0;
    uint64_t v;
    errno = 0;
    if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) v = strtoull(buf + 2, NULL, 16);
    else if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B')) v = strtoull(buf + 2, NULL, 2);
    else if (buf[0] == '0' && L > 1) v = strtoull(buf + 1, NULL, 8);
    else v = strtoull(buf, NULL, 10);
    if (neg) v = 0 - v;   /* two's complement, without signed overflow at 2^63 */
    if (isf) {
        /* integer literal used with a float type: PTX allows it, meaning the value */
        double d = neg ? -(double)(0 - v) : (double)v;
        if (t == WS_T_F32) {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            *out = b;
        } else memcpy(out, &d, 8);
        return 0;
    }
    *out = v;
    return 0;
}

/* ---------- module symbols ---------- */
/* Add a module symbol; returns its index. */
static int add_symbol(parser *P, const char *name, int space, size_t size, int align, int ext)
{
    ws_ptx_module *m = P->mod;
    m->syms = realloc(m->syms, (size_t)(m->nsyms + 1) * sizeof *m->syms);
    ws_symbol *s = &m->syms[m->nsyms];
    memset(s, 0, sizeof *s);
    s->name = strdup(name);
    s->space = space;
    s->size = size;
    s->align = align;
    s->is_extern_shared = ext;
    s->scope = -1;
    hmap_put(&P->gsyms, name, (int)strlen(name), m->nsyms);
    return m->nsyms++;
}

/* Record that bytes [off, off+size) of symbol sym's initializer hold the address of ref plus addend. */
static void add_data_reloc(ws_symbol *sym, size_t off, int size, ws_reloc ref, int64_t addend)
{
    sym->relocs = realloc(sym->relocs, sizeof *sym->relocs * (size_t)(sym->nrelocs + 1));
    sym->relocs[sym->nrelocs++] = (ws_data_reloc){ off, (uint8_t)size, ref, addend };
}

/* Parse "{ v, v, ... }" or a single value initializer of element type t into the initializer of symbol si. */
static int parse_init(parser *P, int t, int si_target)
{
    int es = ws_type_size(t);
    size_t off = 0;
    int braces = 0;
    if (IS('{')) { braces = 1; NEXT(); }
    for (;;) {
        if (braces && IS('}')) { NEXT(); break; }
        if (IS('{')) {   /* nested aggregate: flatten */
            NEXT();
            continue;
        }
        ws_symbol *target = &P->mod->syms[si_target];
        uint64_t v = 0;
        if (TOK->kind == WS_TK_WORD) {
            /* generic(sym) or sym: address of a module variable or function */
            int gen = ISW("generic");
            if (gen) { NEXT(); if (expect(P, '(')) return -1; }
            int si = hmap_get(&P->gsyms, TOK->p, TOK->len);
            int fi = hmap_get(&P->funcs, TOK->p, TOK->len);
            if (si < 0 && fi < 0) {
                perr(P, TOK->line, "unknown symbol '%.*s' in initializer", TOK->len, TOK->p);
                return -1;
            }
            ws_reloc ref = si >= 0 ? (ws_reloc){ WS_RELOC_SYM, si } : (ws_reloc){ WS_RELOC_FUNC, fi };
            NEXT();
            int64_t add = 0;
            if (IS('+')) { NEXT(); uint64_t o; if (parse_number(P, WS_T_U64, &o)) return -1; add = (int64_t)o; }
            if (gen && expect(P, ')')) return -1;
            if (off + (size_t)es <= target->size && es > 0) add_data_reloc(target, off, es, ref, add);
        } else if (parse_number(P, t, &v)) return -1;
        if (off + (size_t)es <= target->size) memcpy(target->init + off, &v, (size_t)es);
        off += (size_t)es;
        if (IS(',')) { NEXT(); continue; }
        if (braces && IS('}')) { NEXT(); if (IS(',')) { NEXT(); continue; } if (IS('}')) continue; break; }
        if (!braces) break;
    }
    return 0;
}

/* Parse a variable declaration after its state-space word: [.align N] [.v2/.v4] .type name[dims] [= init] ; */
typedef struct vdecl { char *name; int type; size_t size; int align; int vec; int unsized; int nameline; int managed; } vdecl;

/* Parse the attributes, name and dimensions of a declaration. */
static int parse_vdecl(parser *P, vdecl *d)
{
    memset(d, 0, sizeof *d);
    d->vec = 1;
    for (;;) {
        if (ISW(".align")) {
            NEXT();
            uint64_t a;
            int line = TOK->line;
            if (parse_number(P, WS_T_U64, &a)) return -1;
            if (a > WS_PTX_MAX_ALIGN) {
                perr(P, line, "alignment %llu is larger than %d", (unsigned long long)a, WS_PTX_MAX_ALIGN);
                return -1;
            }
            d->align = (int)a;
        } else if (ISW(".v2")) { d->vec = 2; NEXT(); }
        else if (ISW(".v4")) { d->vec = 4; NEXT(); }
        else if (ISW(".v8")) { d->vec = 8; NEXT(); }
        else if (ISW(".ptr") || ISW(".global") || ISW(".const") || ISW(".shared") || ISW(".local")) NEXT();
        else if (ISW(".attribute")) {   /* .attribute(.managed) and friends */
            NEXT();
            if (expect(P, '(')) return -1;
            while (!IS(')') && TOK->kind != WS_TK_EOF) { if (ISW(".managed")) d->managed = 1; NEXT(); }
            NEXT();
        }
        else if (TOK->kind == WS_TK_WORD && TOK->p[0] == '.') {
            int t = type_from(TOK->p + 1, TOK->len - 1);
            if (t == WS_T_NONE) {
                perr(P, TOK->line, "unsupported declaration attribute '%.*s'", TOK->len, TOK->p);
                return -1;
            }
            d->type = t;
            NEXT();
        } else break;
    }
    if (TOK->kind != WS_TK_WORD) {
        perr(P, TOK->line, "expected a name in declaration, found '%.*s'", TOK->len, TOK->p);
        return -1;
    }
    d->name = tokdup(P);
    d->nameline = TOK->line;
    NEXT();
    uint64_t count = 1;
    while (IS('[')) {
        NEXT();
        if (IS(']')) { d->unsized = 1; NEXT(); continue; }
        uint64_t n;
        if (parse_number(P, WS_T_U64, &n) || expect(P, ']')) goto fail;
        if (n && count > WS_PTX_MAX_VAR_BYTES / n) {
            perr(P, d->nameline, "variable '%s' is too large", d->name);
            goto fail;
        }
        count *= n;
    }
    int es = ws_type_size(d->type);
    if (!es) es = 1;
    if (count > WS_PTX_MAX_VAR_BYTES / ((uint64_t)es * (uint64_t)d->vec)) {
        perr(P, d->nameline, "variable '%s' is too large", d->name);
        goto fail;
    }
    d->size = (size_t)count * (size_t)es * (size_t)d->vec;
    if (!d->align) d->align = es * d->vec;
    if (d->align < 0 || d->align > WS_PTX_MAX_ALIGN || (d->align & (d->align - 1))) {
        perr(P, d->nameline, "alignment %d of '%s' is not a power of two up to %d", d->align, d->name, WS_PTX_MAX_ALIGN);
        goto fail;
    }
    return 0;
fail:
    free(d->name);
    d->name = NULL;
    return -1;
}

/* Round x up to a multiple of a (a power of two or any positive). */
static size_t align_up(size_t x, size_t a)
{
    if (a <= 1) return x;
    return (x + a - 1) / a * a;
}

/* Module-level .global/.const declaration: a symbol with its initializer (zeros unless given). */
static int module_var(parser *P, int space, int linkage)
{
    vdecl d;
    if (parse_vdecl(P, &d)) return -1;
    int si = add_symbol(P, d.name, space, d.size, d.align, 0);
    ws_symbol *sym = &P->mod->syms[si];
    sym->managed = d.managed;
    sym->linkage = linkage;
    free(d.name);
    if (IS('=')) {
        NEXT();
        if (sym->size > WS_PTX_MAX_INIT_BYTES) {
            perr(P, TOK->line, "initializer of '%s' is too large (%zu bytes)", sym->name, sym->size);
            return -1;
        }
        sym->init = calloc(1, sym->size ? sym->size : 1);
        if (parse_init(P, d.type, si)) return -1;
    }
    return expect(P, ';');
}

/* Shared declaration (module level, or inside function fn_scope's body: -1 for a device function or module). */
static int shared_var(parser *P, int fn_scope)
{
    vdecl d;
    if (parse_vdecl(P, &d)) return -1;
    int ext = d.unsized || d.size == 0;
    int si = add_symbol(P, d.name, WS_S_SHARED, ext ? 0 : d.size, d.align, ext);
    /* function-level variables of a kernel share one region per kernel, after the module-level region */
    if (!ext && fn_scope >= 0) P->mod->syms[si].scope = fn_scope;
    if (fn_scope >= 0) declare(P, d.name, (int)strlen(d.name), -1);  /* resolved through gsyms */
    free(d.name);
    if (IS('=')) {  /* shared memory cannot be initialized */
        perr(P, TOK->line, "initializer on a .shared variable is not allowed");
        return -1;
    }
    return expect(P, ';');
}

/* ---------- function declarations ---------- */
/* Find or create a function by name. */
static int func_index(parser *P, const char *name, int len)
{
    int i = hmap_get(&P->funcs, name, len);
    if (i >= 0) return i;
    ws_ptx_module *m = P->mod;
    m->funcs = realloc(m->funcs, (size_t)(m->nfuncs + 1) * sizeof *m->funcs);
    ws_func *f = &m->funcs[m->nfuncs];
    memset(f, 0, sizeof *f);
    f->name = strndup(name, (size_t)len);
    if (!strcmp(f->name, "vprintf")) f->builtin = WS_BI_VPRINTF;
    else if (!strcmp(f->name, "__assertfail")) f->builtin = WS_BI_ASSERTFAIL;
    else if (!strcmp(f->name, "malloc")) f->builtin = WS_BI_MALLOC;
    else if (!strcmp(f->name, "free")) f->builtin = WS_BI_FREE;
    else f->builtin = ws_devrt_builtin(f->name);
    hmap_put(&P->funcs, name, len, m->nfuncs);
    return m->nfuncs++;
}

/* Parse a parameter list "( .param .type name, ... )" into offsets; declares names when decl is set. */
static int parse_params(parser *P, ws_func *f, int is_ret, int entry, int decl)
{
    if (expect(P, '(')) return -1;
    size_t off = entry ? 0 : f->frame_size;
    while (!IS(')') && TOK->kind != WS_TK_EOF) {
        if (!ISW(".param") && !ISW(".reg")) {
            perr(P, TOK->line, "expected .param in parameter list, found '%.*s'", TOK->len, TOK->p);
            return -1;
        }
        NEXT();
        vdecl d;
        if (parse_vdecl(P, &d)) return -1;
        if (d.type == WS_T_PRED) d.size = 1;
        off = align_up(off, (size_t)d.align);
        if (is_ret) {
            f->has_ret = 1;
            f->ret_off = off;
            f->ret_size = d.size;
        } else {
            f->param_off = realloc(f->param_off, (size_t)(f->nparams + 1) * sizeof(size_t));
            f->param_size = realloc(f->param_size, (size_t)(f->nparams + 1) * sizeof(size_t));
            f->param_off[f->nparams] = off;
            f->param_size[f->nparams] = d.size;
            f->nparams++;
        }
        if (off + d.size > WS_PTX_MAX_FRAME) {
            perr(P, d.nameline, "parameter list of '%s' is too large", f->name ? f->name : "?");
            free(d.name);
            return -1;
        }
        if (decl) declare(P, d.name, (int)strlen(d.name), entry ? (NK_KPARAM | (f->nparams - 1)) : (NK_LOCAL | (int)off));
        off += d.size;
        free(d.name);
        if (IS(',')) NEXT();
    }
    NEXT();
    if (entry) f->param_bytes = off;
    else f->frame_size = off;
    return 0;
}

/* ---------- operands ---------- */
typedef struct opnd {
    int kind;        /* 0 reg, 1 addr, 2 vector, 3 label/symbol word, 4 call list */
    int reg;         /* register slot or constant encoding */
    int reg2;        /* second register of "a|b" */
    int neg;         /* "!" prefix */
    int base;        /* addr: base register or -1 */
    int64_t off;     /* addr: offset */
    int space;       /* addr: space implied by the symbol (0 if none) */
    ws_reloc rel;    /* addr / word: the symbol or function the offset is relative to */
    int vregs[WS_MMA_MAXD];
    int nv;
    char *word;
    int line;
} opnd;

static const struct { const char *n; int sr; } sreg_names[] = {
    {"%tid.x", WS_SR_TID_X}, {"%tid.y", WS_SR_TID_Y}, {"%tid.z", WS_SR_TID_Z},
    {"%ntid.x", WS_SR_NTID_X}, {"%ntid.y", WS_SR_NTID_Y}, {"%ntid.z", WS_SR_NTID_Z},
    {"%ctaid.x", WS_SR_CTAID_X}, {"%ctaid.y", WS_SR_CTAID_Y}, {"%ctaid.z", WS_SR_CTAID_Z},
    {"%nctaid.x", WS_SR_NCTAID_X}, {"%nctaid.y", WS_SR_NCTAID_Y}, {"%nctaid.z", WS_SR_NCTAID_Z},
    {"%laneid", WS_SR_LANEID}, {"%warpid", WS_SR_WARPID}, {"%nwarpid", WS_SR_NWARPID},
    {"%smid", WS_SR_SMID}, {"%nsmid", WS_SR_NSMID}, {"%gridid", WS_SR_GRIDID},
    {"%lanemask_eq", WS_SR_LANEMASK_EQ}, {"%lanemask_le", WS_SR_LANEMASK_LE}, {"%lanemask_lt", WS_SR_LANEMASK_LT},
    {"%lanemask_ge", WS_SR_LANEMASK_GE}, {"%lanemask_gt", WS_SR_LANEMASK_GT},
    {"%dynamic_smem_size", WS_SR_DYN_SMEM}, {"%total_smem_size", WS_SR_TOTAL_SMEM}, {"WARP_SZ", WS_SR_WARP_SZ},
    {"%envreg1", WS_SR_ENVREG1}, {"%envreg2", WS_SR_ENVREG2},
    {"%clusterid.x", WS_SR_CLUSTERID_X}, {"%clusterid.y", WS_SR_CLUSTERID_Y}, {"%clusterid.z", WS_SR_CLUSTERID_Z},
    {"%nclusterid.x", WS_SR_NCLUSTERID_X}, {"%nclusterid.y", WS_SR_NCLUSTERID_Y}, {"%nclusterid.z", WS_SR_NCLUSTERID_Z},
    {"%cluster_ctaid.x", WS_SR_CLUSTER_CTAID_X}, {"%cluster_ctaid.y", WS_SR_CLUSTER_CTAID_Y},
    {"%cluster_ctaid.z", WS_SR_CLUSTER_CTAID_Z}, {"%cluster_nctaid.x", WS_SR_CLUSTER_NCTAID_X},
    {"%cluster_nctaid.y", WS_SR_CLUSTER_NCTAID_Y}, {"%cluster_nctaid.z", WS_SR_CLUSTER_NCTAID_Z},
    {"%cluster_ctarank", WS_SR_CLUSTER_CTARANK}, {"%cluster_nctarank", WS_SR_CLUSTER_NCTARANK},
    {"%is_explicit_cluster", WS_SR_IS_EXPLICIT_CLUSTER},
};
/* pseudo registers that only mov reads (as its WS_MOV_CLOCK* forms): encoded below every operand number */
enum { PSEUDO_BASE = -1000, PSEUDO_CLOCK = PSEUDO_BASE - WS_MOV_CLOCK, PSEUDO_CLOCK64 = PSEUDO_BASE - WS_MOV_CLOCK64,
       PSEUDO_GTIMER = PSEUDO_BASE - WS_MOV_GLOBALTIMER };
#define IS_PSEUDO(r) ((r) <= PSEUDO_CLOCK && (r) >= PSEUDO_GTIMER)

/* Resolve a register-like word to a slot; -1 when not a register. */
static int word_reg(parser *P, const char *s, int len)
{
    if (len == 1 && s[0] == '_') return WS_SR_SINK;
    if (s[0] == '%' || (len == 7 && !memcmp(s, "WARP_SZ", 7))) {
        for (size_t i = 0; i < sizeof sreg_names / sizeof *sreg_names; i++)
            if ((int)strlen(sreg_names[i].n) == len && !memcmp(sreg_names[i].n, s, (size_t)len)) return sreg_names[i].sr;
        if (len == 6 && !memcmp(s, "%clock", 6)) return PSEUDO_CLOCK;
        if (len == 8 && !memcmp(s, "%clock64", 8)) return PSEUDO_CLOCK64;
        if (len == 12 && !memcmp(s, "%globaltimer", 12)) return PSEUDO_GTIMER;
        if (len == 15 && !memcmp(s, "%globaltimer_lo", 15)) return PSEUDO_GTIMER;
    }
    int v = lookup(P, s, len);
    if (v >= 0 && NK_KIND(v) == NK_REG) return v & NK_MASK;
    return -1;
}

/* A name used as an address: frame and parameter offsets directly (*rel none), module symbols and functions as
 * relocations (*addr 0, *rel set); sets *space; -1 when unknown. */
static int symbol_ref(parser *P, const char *s, int len, int64_t *addr, int *space, ws_reloc *rel)
{
    *rel = NO_RELOC;
    int v = lookup(P, s, len);
    if (v >= 0 && NK_KIND(v) == NK_LOCAL) { *addr = v & NK_MASK; *space = WS_S_LOCAL; return 0; }
    if (v >= 0 && NK_KIND(v) == NK_KPARAM) {
        *addr = (int64_t)P->fn->param_off[v & NK_MASK];
        *space = WS_S_PARAM_K;
        return 0;
    }
    int fi = hmap_get(&P->funcs, s, len);
    if (fi >= 0) { *addr = 0; *space = WS_S_GLOBAL; *rel = (ws_reloc){ WS_RELOC_FUNC, fi }; return 0; }
    int si = hmap_get(&P->gsyms, s, len);
    if (si >= 0) {
        *space = P->mod->syms[si].space;
        *addr = 0;
        *rel = (ws_reloc){ WS_RELOC_SYM, si };
        return 0;
    }
    return -1;
}

/* Parse a braced register list "{a, b, ...}" (the current token is '{') into o->vregs. */
static int parse_vlist(parser *P, opnd *o, int ty)
{
    NEXT();
    while (!IS('}') && TOK->kind != WS_TK_EOF) {
        if (TOK->kind == WS_TK_WORD) {
            int r = word_reg(P, TOK->p, TOK->len);
            if (r < 0) { perr(P, TOK->line, "unknown register '%.*s'", TOK->len, TOK->p); return -1; }
            if (o->nv >= WS_MMA_MAXD) { perr(P, TOK->line, "more than %d registers in a list", WS_MMA_MAXD); return -1; }
            o->vregs[o->nv++] = r;
            NEXT();
        } else {
            uint64_t v;
            if (parse_number(P, ty, &v)) return -1;
            if (o->nv >= WS_MMA_MAXD) { perr(P, TOK->line, "more than %d values in a list", WS_MMA_MAXD); return -1; }
            o->vregs[o->nv++] = const_reg(P, v);
        }
        if (IS(',')) NEXT();
    }
    NEXT();
    return 0;
}

/* Parse one operand. ty is the instruction's type (for immediates). */
static int parse_operand(parser *P, opnd *o, int ty)
{
    free(o->word);   /* every field but the (large) register list, which nv bounds */
    o->kind = o->reg = o->neg = o->space = o->nv = o->reg2 = 0;
    o->off = 0;
    o->rel = NO_RELOC;
    o->word = NULL;
    o->base = -1;
    o->reg2 = -1;
    o->line = TOK->line;
    if (IS('!')) { o->neg = 1; NEXT(); }
    if (IS('[')) {
        NEXT();
        o->kind = 1;
        while (!IS(']') && TOK->kind != WS_TK_EOF) {
            if (IS('+')) { NEXT(); continue; }   /* "+-4" arrives as '+' then a negative number */
            if (IS(',')) {   /* texture/surface address: [object, {coordinates}] */
                NEXT();
                if (!IS('{')) { perr(P, TOK->line, "expected '{' after ',' in an address"); return -1; }
                if (parse_vlist(P, o, ty)) return -1;
                continue;
            }
            if (TOK->kind == WS_TK_WORD) {
                int r = word_reg(P, TOK->p, TOK->len);
                if (r >= 0) {
                    o->base = r;
                } else {
                    int64_t a;
                    int sp;
                    ws_reloc rel;
                    if (symbol_ref(P, TOK->p, TOK->len, &a, &sp, &rel)) {
                        perr(P, TOK->line, "unknown name '%.*s' in address", TOK->len, TOK->p);
                        return -1;
                    }
                    if (rel.kind != WS_RELOC_NONE) {
                        if (o->rel.kind != WS_RELOC_NONE || rel.kind != WS_RELOC_SYM) {
                            perr(P, TOK->line, "unsupported address '%.*s': one variable per address", TOK->len, TOK->p);
                            return -1;
                        }
                        o->rel = rel;
                    }
                    o->off += a;
                    o->space = sp;
                }
                NEXT();
            } else {
                uint64_t v;
                if (parse_number(P, WS_T_S64, &v)) return -1;
                o->off += (int64_t)v;
            }
        }
        NEXT();
        return 0;
    }
    if (IS('{')) {
        o->kind = 2;
        return parse_vlist(P, o, ty);
    }
    if (TOK->kind == WS_TK_NUM || IS('-')) {
        uint64_t v;
        if (parse_number(P, ty, &v)) return -1;
        o->reg = const_reg(P, v);
        return 0;
    }
    if (TOK->kind == WS_TK_WORD) {
        int r = word_reg(P, TOK->p, TOK->len);
        if (r != -1) {
            o->reg = r;
            NEXT();
            if (IS('|')) {
                NEXT();
                o->reg2 = word_reg(P, TOK->p, TOK->len);
                if (o->reg2 < 0) { perr(P, TOK->line, "unknown register '%.*s'", TOK->len, TOK->p); return -1; }
                NEXT();
            }
            return 0;
        }
        o->kind = 3;
        o->word = tokdup(P);
        NEXT();
        if (IS('+')) {  /* sym+off as a value */
            NEXT();
            uint64_t v;
            if (parse_number(P, WS_T_S64, &v)) return -1;
            o->off = (int64_t)v;
        }
        return 0;
    }
    perr(P, TOK->line, "unexpected '%.*s' in operand", TOK->len, TOK->p);
    return -1;
}

/* ---------- instructions ---------- */
#define opcode_from ws_opcode_from

static const struct { const char *n; int c; } cmp_names[] = {
    {"eq", WS_C_EQ}, {"ne", WS_C_NE}, {"lt", WS_C_LT}, {"le", WS_C_LE}, {"gt", WS_C_GT}, {"ge", WS_C_GE},
    {"lo", WS_C_LO}, {"ls", WS_C_LS}, {"hi", WS_C_HI}, {"hs", WS_C_HS}, {"equ", WS_C_EQU}, {"neu", WS_C_NEU},
    {"ltu", WS_C_LTU}, {"leu", WS_C_LEU}, {"gtu", WS_C_GTU}, {"geu", WS_C_GEU}, {"num", WS_C_NUM}, {"nan", WS_C_NAN},
};
static const struct { const char *n; int s; } sub_names[] = {
    {"and", WS_SUB_AND}, {"or", WS_SUB_OR}, {"xor", WS_SUB_XOR}, {"add", WS_SUB_ADD}, {"min", WS_SUB_MIN},
    {"max", WS_SUB_MAX}, {"inc", WS_SUB_INC}, {"dec", WS_SUB_DEC}, {"cas", WS_SUB_CAS}, {"exch", WS_SUB_EXCH},
    {"up", WS_SUB_UP}, {"down", WS_SUB_DOWN}, {"bfly", WS_SUB_BFLY}, {"idx", WS_SUB_IDX}, {"all", WS_SUB_ALL},
    {"any", WS_SUB_ANY}, {"uni", WS_SUB_UNI}, {"ballot", WS_SUB_BALLOT}, {"popc", WS_SUB_POPC},
    {"arrive", WS_SUB_ARRIVE}, {"red", WS_SUB_RED},
};
static const struct { const char *n; int r; } rnd_names[] = {
    {"rn", WS_R_RN}, {"rz", WS_R_RZ}, {"rm", WS_R_RM}, {"rp", WS_R_RP}, {"rna", WS_R_RNA},
    {"rni", WS_R_RNI}, {"rzi", WS_R_RZI}, {"rmi", WS_R_RMI}, {"rpi", WS_R_RPI},
};

#define MATCH(str) (plen == (int)strlen(str) && !memcmp(part, str, (size_t)plen))

static const struct { const char *n; int g; } tex_geoms[] = {
    {"1d", WS_TG_1D}, {"2d", WS_TG_2D}, {"3d", WS_TG_3D}, {"a1d", WS_TG_A1D}, {"a2d", WS_TG_A2D},
    {"cube", WS_TG_CUBE}, {"acube", WS_TG_ACUBE},
};
static const struct { const char *n; int q; } txq_names[] = {
    {"width", WS_TXQ_WIDTH}, {"height", WS_TXQ_HEIGHT}, {"depth", WS_TXQ_DEPTH},
    {"channel_data_type", WS_TXQ_CHANNEL_DATA_TYPE}, {"channel_order", WS_TXQ_CHANNEL_ORDER},
    {"normalized_coords", WS_TXQ_NORMALIZED_COORDS}, {"filter_mode", WS_TXQ_FILTER_MODE},
    {"addr_mode_0", WS_TXQ_ADDR_MODE_0}, {"addr_mode_1", WS_TXQ_ADDR_MODE_1}, {"addr_mode_2", WS_TXQ_ADDR_MODE_2},
    {"array_size", WS_TXQ_ARRAY_SIZE}, {"num_mipmap_levels", WS_TXQ_NUM_MIPMAP_LEVELS},
    {"num_samples", WS_TXQ_NUM_SAMPLES},
};

/* A modifier of a texture/surface instruction (geometry, tld4 component, boundary mode, txq query); 1 if it
 * was one. Level-of-detail and gradient forms are left to the caller's error. */
static int tex_mod(ws_insn *in, const char *part, int plen)
{
    for (size_t i = 0; i < sizeof tex_geoms / sizeof *tex_geoms; i++)
        if (MATCH(tex_geoms[i].n)) { in->sub = (uint8_t)tex_geoms[i].g; return 1; }
    if (in->op == WS_OP_TLD4) {
        static const char comp[] = "rgba";
        if (plen == 1 && memchr(comp, part[0], 4)) { in->cmp = (uint8_t)((const char *)memchr(comp, part[0], 4) - comp); return 1; }
    }
    if (in->op == WS_OP_SULD || in->op == WS_OP_SUST) {
        if (MATCH("b")) return 1;
        if (MATCH("trap")) { in->cmp = WS_SB_TRAP; return 1; }
        if (MATCH("clamp")) { in->cmp = WS_SB_CLAMP; return 1; }
        if (MATCH("zero")) { in->cmp = WS_SB_ZERO; return 1; }
    }
    if (in->op == WS_OP_TXQ)
        for (size_t i = 0; i < sizeof txq_names / sizeof *txq_names; i++)
            if (MATCH(txq_names[i].n)) { in->cmp = (uint8_t)txq_names[i].q; return 1; }
    return 0;
}

/* Decode the dotted modifiers of a mnemonic into the instruction. */
static int decode_mods(parser *P, ws_insn *in, const char *mods, int len, int line)
{
    int ntypes = 0;
    const char *p = mods, *e = mods + len;
    while (p < e) {
        if (*p == '.') p++;
        const char *part = p;
        while (p < e && *p != '.') p++;
        int plen = (int)(p - part);
        int t = type_from(part, plen);
        if (t != WS_T_NONE) {
            if (ntypes == 0) in->type = (uint8_t)t;
            else in->type2 = (uint8_t)t;
            ntypes++;
            continue;
        }
        int op = in->op, done = 0;
        if ((ws_opinfo_table[op].flags & WS_OF_TEX) && tex_mod(in, part, plen)) continue;
        if (op == WS_OP_SETP || op == WS_OP_SET) {
            for (size_t i = 0; i < sizeof cmp_names / sizeof *cmp_names && !done; i++)
                if (MATCH(cmp_names[i].n)) { if (!in->cmp) in->cmp = (uint8_t)cmp_names[i].c; done = 1; }
            if (!done && (MATCH("and") || MATCH("or") || MATCH("xor"))) {
                in->sub = MATCH("and") ? WS_SUB_AND : MATCH("or") ? WS_SUB_OR : WS_SUB_XOR;
                done = 1;
            }
            if (done) continue;
        }
        if (op == WS_OP_ATOM || op == WS_OP_RED || op == WS_OP_REDUX || op == WS_OP_SHFL || op == WS_OP_VOTE ||
            op == WS_OP_BAR || op == WS_OP_BARRIER || op == WS_OP_MATCH) {
            for (size_t i = 0; i < sizeof sub_names / sizeof *sub_names && !done; i++)
                if (MATCH(sub_names[i].n)) {
                    if (!(in->sub == WS_SUB_RED && (op == WS_OP_BAR || op == WS_OP_BARRIER))) in->sub = (uint8_t)sub_names[i].s;
                    else in->type2 = (uint8_t)sub_names[i].s;  /* bar.red.popc: reduction op kept in type2 */
                    done = 1;
                }
            if (done) continue;
        }
        if (op == WS_OP_BRX && MATCH("idx")) continue;   /* brx.idx: the only form */
        for (size_t i = 0; i < sizeof rnd_names / sizeof *rnd_names && !done; i++)
            if (MATCH(rnd_names[i].n)) { in->rnd = (uint8_t)rnd_names[i].r; done = 1; }
        if (done) continue;
        if (MATCH("global")) in->space = WS_S_GLOBAL;
        else if (MATCH("shared") || MATCH("shared::cta")) in->space = WS_S_SHARED;
        else if (MATCH("shared::cluster")) { in->space = WS_S_SHARED; in->flags |= WS_F_DSMEM; }
        else if (MATCH("local")) in->space = WS_S_LOCAL;
        else if (MATCH("const")) in->space = WS_S_CONST;
        else if (MATCH("param") || MATCH("param::entry") || MATCH("param::func")) in->space = WS_S_PARAM_F;
        else if (MATCH("ftz")) in->flags |= WS_F_FTZ;
        else if (MATCH("sat") || MATCH("satfinite")) in->flags |= WS_F_SAT;
        else if (MATCH("approx")) in->flags |= WS_F_APPROX;
        else if (MATCH("full")) in->flags |= WS_F_FULL;
        else if (MATCH("hi")) in->flags |= WS_F_HI;
        else if (MATCH("lo")) in->flags |= WS_F_LO;
        else if (MATCH("wide")) in->flags |= WS_F_WIDE;
        else if (MATCH("cc")) in->flags |= WS_F_CC;
        else if (MATCH("uni")) in->flags |= WS_F_UNI;
        else if (MATCH("to")) in->flags |= WS_F_TO;
        else if (MATCH("clamp")) in->flags |= WS_F_CLAMP;
        else if (MATCH("wrap")) ;
        else if (MATCH("l")) in->flags |= WS_F_LEFT;
        else if (MATCH("r")) ;
        else if (MATCH("shiftamt")) in->flags |= WS_F_SHIFTAMT;
        else if (MATCH("relu")) in->flags |= WS_F_RELU;
        else if (MATCH("v2")) in->vec = 2;
        else if (MATCH("v4")) in->vec = 4;
        else if ((in->op == WS_OP_LD || in->op == WS_OP_ST) &&
                 (MATCH("volatile") || MATCH("relaxed") || MATCH("acquire") || MATCH("release")))
            in->flags |= WS_F_SYNCMEM;   /* memory-model access: the checkers treat it as synchronizing */
        else if ((in->op == WS_OP_ATOM || in->op == WS_OP_RED) && (MATCH("release") || MATCH("acq_rel")))
            in->flags |= WS_F_RELEASE;   /* a release: the checkers count it as a fence (the grid barrier's) */
        else if (MATCH("sync") || MATCH("aligned") || MATCH("nc") || MATCH("volatile") || MATCH("relaxed") ||
                 MATCH("acquire") || MATCH("release") || MATCH("acq_rel") || MATCH("sc") || MATCH("weak") ||
                 MATCH("cta") || MATCH("gpu") || MATCH("sys") || MATCH("cluster") || MATCH("ca") || MATCH("cg") ||
                 MATCH("cs") || MATCH("lu") || MATCH("cv") || MATCH("wb") || MATCH("wt") || MATCH("noftz") ||
                 MATCH("b4e") || MATCH("f4e") || MATCH("rc8") || MATCH("ecl") || MATCH("ecr") || MATCH("rc16") ||
                 MATCH("mmio") || MATCH("L1") || MATCH("L2") || memchr(part, ':', (size_t)plen) ||
                 MATCH("unified") || MATCH("level") || MATCH("gl") || MATCH("proxy") || MATCH("async") ||
                 MATCH("NaN") || MATCH("xorsign") || MATCH("abs") || MATCH("alias") || MATCH("release_sync") ||
                 (in->op == WS_OP_FENCE && MATCH("mbarrier_init")))
            ;
        else if (MATCH("arrive")) in->sub = WS_SUB_ARRIVE;
        else if (MATCH("wait") && in->op == WS_OP_BAR_CLUSTER) in->sub = WS_SUB_SYNC;
        else if ((MATCH("inc") || MATCH("dec")) && in->op == WS_OP_SETMAXNREG) in->sub = MATCH("inc") ? WS_SUB_INC : WS_SUB_DEC;
        else if (MATCH("warp") && in->op == WS_OP_BAR) in->sub = WS_SUB_SYNC;
        else if (in->op == WS_OP_TESTP && (MATCH("finite") || MATCH("infinite") || MATCH("number") || MATCH("notanumber") ||
                                           MATCH("normal") || MATCH("subnormal")))
            in->sub = MATCH("finite") ? WS_TESTP_FINITE : MATCH("infinite") ? WS_TESTP_INFINITE : MATCH("number") ? WS_TESTP_NUMBER :
                      MATCH("notanumber") ? WS_TESTP_NOTANUMBER : MATCH("normal") ? WS_TESTP_NORMAL : WS_TESTP_SUBNORMAL;
        else if (MATCH("red")) in->sub = WS_SUB_RED;
        else {
            perr(P, line, "unsupported modifier '.%.*s' on '%s'", plen, part, ws_opcode_name(in->op));
            return -1;
        }
        /* prmt modes */
        if (in->op == WS_OP_PRMT) {
            if (MATCH("f4e")) in->sub = WS_PRMT_F4E;
            else if (MATCH("b4e")) in->sub = WS_PRMT_B4E;
            else if (MATCH("rc8")) in->sub = WS_PRMT_RC8;
            else if (MATCH("ecl")) in->sub = WS_PRMT_ECL;
            else if (MATCH("ecr")) in->sub = WS_PRMT_ECR;
            else if (MATCH("rc16")) in->sub = WS_PRMT_RC16;
        }
    }
    return 0;
}

/* Append an instruction slot. */
static ws_insn *new_insn(parser *P)
{
    if (P->ncode == P->capcode) {
        P->capcode = P->capcode ? P->capcode * 2 : 256;
        P->code = realloc(P->code, (size_t)P->capcode * sizeof *P->code);
    }
    ws_insn *in = &P->code[P->ncode++];
    memset(in, 0, sizeof *in);
    in->guard = -1;
    in->base = -1;
    in->sym = -1;
    in->target = -1;
    in->rpc = -1;
    in->vec = 1;
    for (int i = 0; i < 4; i++) in->d[i] = WS_SR_SINK;
    for (int i = 0; i < WS_INSN_NSRC; i++) in->s[i] = WS_SR_SINK;
    in->line = (uint32_t)P->cur_line;
    in->file = (uint16_t)P->cur_file;
    in->at_line = (uint32_t)P->cur_at_line;
    in->at_file = (uint16_t)P->cur_at_file;
    return in;
}

/* Add a branch fixup for label at pc. */
static void add_fixup(parser *P, int pc, const char *label, int is_table, int line)
{
    if (P->nfix == P->capfix) {
        P->capfix = P->capfix ? P->capfix * 2 : 64;
        P->fix = realloc(P->fix, (size_t)P->capfix * sizeof *P->fix);
    }
    P->fix[P->nfix++] = (fixup){ pc, strdup(label), is_table, line };
}

/* Parse a call: call[.uni] (ret), func, (args) [, proto]; */
static int parse_call(parser *P, ws_insn *in)
{
    ws_call *c = calloc(1, sizeof *c);
    in->call = c;
    char *retname = NULL, *argnames[64];
    int nargs = 0, rc = -1;
    ws_func *callee = NULL;
    if (IS('(')) {
        NEXT();
        retname = tokdup(P);
        NEXT();
        if (expect(P, ')') || expect(P, ',')) goto out;
    }
    if (TOK->kind != WS_TK_WORD) { perr(P, TOK->line, "expected a function name in call"); goto out; }
    int fi = hmap_get(&P->funcs, TOK->p, TOK->len);
    if (fi < 0) {
        int r = word_reg(P, TOK->p, TOK->len);
        if (r < 0) {
            perr(P, TOK->line, "call of undeclared function '%.*s'", TOK->len, TOK->p);
            goto out;
        }
        in->s[0] = r;   /* indirect call through a function pointer */
        c->func = -1;
    } else {
        callee = &P->mod->funcs[fi];
        c->func = fi;
        c->builtin = callee->builtin;
    }
    NEXT();
    if (IS(',')) {
        NEXT();
        if (expect(P, '(')) goto out;
        while (!IS(')') && TOK->kind != WS_TK_EOF) {
            if (TOK->kind == WS_TK_EOF) { perr(P, TOK->line, "unexpected end of PTX in a call's arguments"); goto out; }
            if (nargs < 64) argnames[nargs++] = tokdup(P);
            NEXT();
            if (IS(',')) NEXT();
        }
        NEXT();
    }
    if (IS(',')) { NEXT(); NEXT(); }  /* prototype for indirect calls: ignored */
    if (callee && nargs != callee->nparams && !callee->builtin) {
        perr(P, in->ptx_line, "call of '%s' with %d argument%s, but it takes %d", callee->name, nargs,
             nargs == 1 ? "" : "s", callee->nparams);
        goto out;
    }
    c->nargs = nargs;
    c->args = calloc((size_t)nargs + 1, sizeof *c->args);
    for (int i = 0; i < nargs; i++) {
        int v = lookup(P, argnames[i], (int)strlen(argnames[i]));
        if (v < 0 || NK_KIND(v) != NK_LOCAL) {
            /* a register passed directly as an argument */
            int r = word_reg(P, argnames[i], (int)strlen(argnames[i]));
            if (r < 0) perr(P, in->ptx_line, "unknown call argument '%s'", argnames[i]);
            else perr(P, in->ptx_line, "register call arguments are not supported ('%s')", argnames[i]);
            goto out;
        }
        c->args[i].src_off = (uint32_t)(v & NK_MASK);
        c->args[i].dst_off = (!callee || callee->builtin) ? (uint32_t)i : (uint32_t)callee->param_off[i];
        c->args[i].size = (!callee || callee->builtin) ? 8 : (uint32_t)callee->param_size[i];
    }
    if (retname) {
        int v = lookup(P, retname, (int)strlen(retname));
        if (v < 0 || NK_KIND(v) != NK_LOCAL) { perr(P, in->ptx_line, "unknown return buffer '%s'", retname); goto out; }
        c->has_ret = 1;
        c->ret.src_off = callee ? (uint32_t)callee->ret_off : 0;
        c->ret.dst_off = (uint32_t)(v & NK_MASK);
        c->ret.size = (uint32_t)(callee && callee->has_ret ? callee->ret_size : 4);
    }
    rc = 0;
out:
    for (int i = 0; i < nargs; i++) free(argnames[i]);
    free(retname);
    return rc;
}

/* Assign operand o as a source of in at position i. */
static int set_src(parser *P, ws_insn *in, int i, opnd *o)
{
    if (i < 0 || i >= WS_INSN_NSRC) {
        perr(P, o->line, "too many source operands for '%s'", ws_opcode_name(in->op));
        return -1;
    }
    if (o->kind == 3) {
        /* symbol used as a value: its address */
        int64_t a;
        int sp;
        ws_reloc rel;
        int rc = symbol_ref(P, o->word, (int)strlen(o->word), &a, &sp, &rel);
        if (rc) perr(P, o->line, "unknown name '%s'", o->word);
        free(o->word);
        o->word = NULL;
        if (rc) return -1;
        if (sp == WS_S_PARAM_K) {
            /* address of a kernel parameter: its offset in the parameter space (cvta.param makes it generic) */
            in->s[i] = const_reg(P, (uint64_t)(a + o->off));
            return 0;
        }
        if (sp == WS_S_LOCAL) {
            /* address of a frame variable: frame base + offset at run time */
            in->flags |= WS_F_LOCALSYM;
            in->imm = a + o->off;
            in->s[i] = WS_SR_SINK;
            return 0;
        }
        in->s[i] = const_reg_rel(P, (uint64_t)(a + o->off), rel);
        return 0;
    }
    if (o->kind != 0) { perr(P, o->line, "unexpected operand form"); return -1; }
    if (IS_PSEUDO(o->reg)) {
        if (in->op != WS_OP_MOV || i != 0) {
            perr(P, o->line, "%%clock, %%clock64 and %%globaltimer are supported only as the source of mov");
            return -1;
        }
        in->sub = (uint8_t)(PSEUDO_BASE - o->reg);
        in->s[i] = WS_SR_SINK;
        return 0;
    }
    in->s[i] = o->reg;
    if (o->neg) in->flags |= i == 0 ? WS_F_NEG1 : WS_F_NEG2;
    return 0;
}

/* Set the address of a memory instruction from operand o. */
static int set_addr(parser *P, ws_insn *in, opnd *o)
{
    if (o->kind != 1) { perr(P, o->line, "expected an address operand"); return -1; }
    in->base = o->base;
    in->imm = o->off;
    in->sym = o->rel.kind == WS_RELOC_SYM ? o->rel.index : -1;
    if (o->space == WS_S_PARAM_K && in->space == WS_S_PARAM_F) in->space = WS_S_PARAM_K;
    else if (o->space == WS_S_LOCAL && in->space == WS_S_PARAM_F) in->space = WS_S_LOCAL;
    if (in->space == WS_S_PARAM_F && o->base < 0) in->space = WS_S_LOCAL;
    /* through a register in a kernel: an address in the kernel-parameter space (a parameter's address taken) */
    if (in->space == WS_S_PARAM_F && P->fn->is_entry) in->space = WS_S_PARAM_K;
    if (in->space == WS_S_PARAM_F) {
        perr(P, o->line, "parameter access through a register is not supported");
        return -1;
    }
    return 0;
}

/* Coordinates a texture/surface geometry takes in its address vector (3D and cube forms pad to 4). */
static int tex_ncoords(int geom)
{
    static const int n[] = { [WS_TG_1D] = 1, [WS_TG_2D] = 2, [WS_TG_3D] = 4, [WS_TG_A1D] = 2, [WS_TG_A2D] = 4,
                             [WS_TG_CUBE] = 4, [WS_TG_ACUBE] = 4 };
    return geom > WS_TG_NONE && geom <= WS_TG_ACUBE ? n[geom] : 0;
}

/* Distribute the operands of tex/tld4/txq/suld/sust: object in base, coordinates in s[], destinations in d[]
 * (sust: values after the coordinates). Forms with a level, gradients, offsets or a predicate are refused. */
static int tex_operands(parser *P, ws_insn *in, opnd *ops, int n, int line)
{
    const char *name = ws_opcode_name(in->op);
    in->space = WS_S_GLOBAL;
    if (in->op == WS_OP_TXQ) {
        if (n != 2 || ops[0].kind != 0 || ops[1].kind != 1 || ops[1].base < 0 || ops[1].nv) {
            perr(P, line, "unsupported txq form (expected txq.query.b32 d, [object])");
            return -1;
        }
        in->d[0] = ops[0].reg;
        in->nd = 1;
        in->base = ops[1].base;
        return 0;
    }
    int nc = tex_ncoords(in->sub);
    if (!nc) { perr(P, line, "%s needs a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube)", name); return -1; }
    if (in->op == WS_OP_SULD || in->op == WS_OP_SUST) {
        if (in->sub == WS_TG_CUBE || in->sub == WS_TG_ACUBE) { perr(P, line, "%s.%s is not supported", name, "cube"); return -1; }
        if (in->sub == WS_TG_3D || in->sub == WS_TG_A2D) nc = 4;
    }
    int ai = in->op == WS_OP_SUST ? 0 : 1, vi = in->op == WS_OP_SUST ? 1 : 0;
    if (n != 2 || ops[ai].kind != 1 || ops[ai].base < 0 || ops[ai].nv != nc || ops[ai].off) {
        perr(P, line, "unsupported %s form: expected [object, {%d coordinate%s}] and no level, gradient, offset or "
             "depth-compare operand", name, nc, nc == 1 ? "" : "s");
        return -1;
    }
    if (ops[vi].reg2 >= 0) { perr(P, line, "%s with a predicate destination is not supported", name); return -1; }
    int nv = ops[vi].kind == 2 ? ops[vi].nv : 1;
    if (ops[vi].kind == 2 ? nv > 4 : ops[vi].kind != 0) { perr(P, line, "unexpected value operand of %s", name); return -1; }
    if ((in->op == WS_OP_TEX || in->op == WS_OP_TLD4) && nv != 4) { perr(P, line, "%s needs .v4 destinations", name); return -1; }
    in->base = ops[ai].base;
    int used = in->sub == WS_TG_3D || in->sub == WS_TG_CUBE ? 3 : in->sub == WS_TG_A2D && in->op != WS_OP_TLD4 ? 3 : nc;
    if (in->op == WS_OP_SULD || in->op == WS_OP_SUST) used = nc == 4 ? 3 : nc;
    for (int i = 0; i < used; i++) in->s[i] = ops[ai].vregs[i];
    in->ns = (uint8_t)used;
    if (in->op == WS_OP_SUST) {
        uint64_t extra = 0;   /* operands past s[]: two register numbers in imm */
        for (int i = 0; i < nv; i++) {
            int r = ops[vi].kind == 2 ? ops[vi].vregs[i] : ops[vi].reg, k = used + i;
            if (k < WS_INSN_NSRC) in->s[k] = r;
            else extra |= (uint64_t)(uint32_t)r << (32 * (k - WS_INSN_NSRC));
        }
        in->imm = (int64_t)extra;
        in->ns = (uint8_t)(used + nv < WS_INSN_NSRC ? used + nv : WS_INSN_NSRC);
        in->vec = (uint8_t)nv;
    } else {
        for (int i = 0; i < nv; i++) in->d[i] = ops[vi].kind == 2 ? ops[vi].vregs[i] : ops[vi].reg;
        in->nd = (uint8_t)nv;
        in->vec = (uint8_t)nv;
    }
    return 0;
}

/* ---------- tensor-core, matrix-move and async-copy instructions (wmma, mma, ldmatrix, stmatrix, movmatrix,
 * cp.async, mbarrier): modifiers into a ws_mma, register lists, addresses ---------- */

/* matrix element type of a modifier, WS_MT_NONE when it is none */
static int mx_type(const char *s, int n)
{
    static const struct { const char *n; int t; } names[] = {
        {"f16", WS_MT_F16}, {"bf16", WS_MT_BF16}, {"tf32", WS_MT_TF32}, {"f32", WS_MT_F32}, {"f64", WS_MT_F64},
        {"s8", WS_MT_S8}, {"u8", WS_MT_U8}, {"s4", WS_MT_S4}, {"u4", WS_MT_U4}, {"b1", WS_MT_B1}, {"s32", WS_MT_S32},
        {"b16", WS_MT_B16}, {"e4m3", WS_MT_E4M3}, {"e5m2", WS_MT_E5M2},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if ((int)strlen(names[i].n) == n && !memcmp(names[i].n, s, (size_t)n)) return names[i].t;
    return WS_MT_NONE;
}

/* copy a register-list operand into a ws_mma list; -1 when it is not a list of the expected length range */
static int mx_list(parser *P, opnd *o, int32_t *dst, uint8_t *n, int cap, int line, const char *what)
{
    if (o->kind == 0) { dst[0] = o->reg; *n = 1; return 0; }
    if (o->kind != 2 || o->nv < 1 || o->nv > cap) { perr(P, line, "expected a register list for %s", what); return -1; }
    for (int i = 0; i < o->nv; i++) dst[i] = o->vregs[i];
    *n = (uint8_t)o->nv;
    return 0;
}

/* whether a shape and type combination of wmma.mma / mma.sync is one warpsim computes */
static int mx_supported(const ws_mma *x, int wmma)
{
    int m = x->m, n = x->n, k = x->k, a = x->atype, c = x->ctype, d = x->dtype;
    int f16acc = (c == WS_MT_F16 || c == WS_MT_F32) && (d == WS_MT_F16 || d == WS_MT_F32);
    int fp8 = (a == WS_MT_E4M3 || a == WS_MT_E5M2) && (x->btype == WS_MT_E4M3 || x->btype == WS_MT_E5M2);
    if (!wmma && fp8) return m == 16 && n == 8 && k == 32 && c == WS_MT_F32 && d == WS_MT_F32;   /* sm_89+ */
    if (a != x->btype) return 0;
    if (wmma) {
        int big = (m == 16 && n == 16) || (m == 32 && n == 8) || (m == 8 && n == 32);
        if (a == WS_MT_F16) return big && k == 16 && f16acc;
        if (a == WS_MT_BF16) return big && k == 16 && c == WS_MT_F32 && d == WS_MT_F32;
        if (a == WS_MT_TF32) return m == 16 && n == 16 && k == 8 && c == WS_MT_F32 && d == WS_MT_F32;
        if (a == WS_MT_F64) return m == 8 && n == 8 && k == 4 && c == WS_MT_F64 && d == WS_MT_F64;
        if (a == WS_MT_S8 || a == WS_MT_U8) return big && k == 16 && c == WS_MT_S32 && d == WS_MT_S32;
        if (a == WS_MT_S4 || a == WS_MT_U4) return m == 8 && n == 8 && k == 32 && c == WS_MT_S32;
        if (a == WS_MT_B1) return m == 8 && n == 8 && k == 128 && c == WS_MT_S32;
        return 0;
    }
    if (m == 16 && n == 8 && (a == WS_MT_F16)) return (k == 8 || k == 16) && f16acc;
    if (m == 16 && n == 8 && a == WS_MT_BF16) return (k == 8 || k == 16) && c == WS_MT_F32 && d == WS_MT_F32;
    if (m == 16 && n == 8 && a == WS_MT_TF32) return (k == 4 || k == 8) && c == WS_MT_F32 && d == WS_MT_F32;
    if (m == 8 && n == 8 && a == WS_MT_F64) return k == 4 && c == WS_MT_F64 && d == WS_MT_F64;
    if (m == 16 && n == 8 && (a == WS_MT_S8 || a == WS_MT_U8)) return (k == 16 || k == 32) && c == WS_MT_S32;
    if (m == 16 && n == 8 && (a == WS_MT_S4 || a == WS_MT_U4)) return (k == 32 || k == 64) && c == WS_MT_S32;
    if (m == 16 && n == 8 && a == WS_MT_B1) return (k == 128 || k == 256) && c == WS_MT_S32;
    return 0;
}

/* Give the constants a ws_mma's lists name their final operand numbers (as finish_function does for d[]/s[]). */
static void mx_remap_consts(ws_mma *x, int nslots)
{
    int32_t *lists[4] = { x->a, x->b, x->c, x->d };
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < (j == 3 ? WS_MMA_MAXD : 8); i++) if (IS_CONST_ENC(lists[j][i])) lists[j][i] = nslots + (-2 - lists[j][i]);
    if (IS_CONST_ENC(x->stride)) x->stride = nslots + (-2 - x->stride);
    if (IS_CONST_ENC(x->extra)) x->extra = nslots + (-2 - x->extra);
}

/* whether N is a width wgmma.mma_async takes for element type a (the PTX ISA's shape tables) */
static int wgmma_n_ok(int a, int n)
{
    if (n < 8 || n > 256 || n % 8) return 0;
    if (a == WS_MT_S8 || a == WS_MT_U8) return n <= 32 || n % 16 == 0;   /* 8, 16, 24, 32, then multiples of 16 */
    return 1;
}

/* The value of an immediate operand (its constant encoding), or def when it is not one. */
static int64_t imm_value(parser *P, const opnd *o, int64_t def)
{
    return o->kind == 0 && IS_CONST_ENC(o->reg) ? (int64_t)P->consts[-2 - o->reg] : def;
}

/* Decode wgmma.fence / commit_group / wait_group N and wgmma.mma_async.sync.aligned.m64nNkK.dtype.atype.btype
 * d, a-desc|{a}, b-desc, scale-d{, imm-scale-a, imm-scale-b{, imm-trans-a, imm-trans-b}} (K-major operands). */
static int wgmma_decode(parser *P, ws_insn *in, ws_mma *x, int sub, const int *types, int nt, opnd *ops, int n, int line)
{
    if (sub < 0) { perr(P, line, "unsupported wgmma form (mma_async, fence, commit_group, wait_group)"); return -1; }
    x->kind = (uint8_t)sub;
    if (sub == WS_MX_WG_FENCE || sub == WS_MX_WG_COMMIT) {
        if (n) { perr(P, line, "wgmma.%s takes no operand", sub == WS_MX_WG_FENCE ? "fence" : "commit_group"); return -1; }
        return 0;
    }
    if (sub == WS_MX_WG_WAIT) {
        if (n != 1 || ops[0].kind != 0) { perr(P, line, "wgmma.wait_group needs a count"); return -1; }
        x->extra = ops[0].reg;
        return 0;
    }
    if (nt != 3) { perr(P, line, "wgmma.mma_async needs the accumulator and the A and B types"); return -1; }
    x->dtype = x->ctype = (uint8_t)types[0];
    x->atype = (uint8_t)types[1];
    x->btype = (uint8_t)types[2];
    int a = x->atype, b = x->btype, d = x->dtype, k = a == WS_MT_TF32 ? 8 : (a == WS_MT_F16 || a == WS_MT_BF16) ? 16 : 32;
    int f8 = (a == WS_MT_E4M3 || a == WS_MT_E5M2) && (b == WS_MT_E4M3 || b == WS_MT_E5M2);
    int ok = x->m == 64 && x->k == k && wgmma_n_ok(a, x->n) &&
             ((a == WS_MT_F16 && b == a && (d == WS_MT_F16 || d == WS_MT_F32)) ||
              (a == WS_MT_BF16 && b == a && d == WS_MT_F32) || (a == WS_MT_TF32 && b == a && d == WS_MT_F32) ||
              (f8 && (d == WS_MT_F16 || d == WS_MT_F32)) ||
              ((a == WS_MT_S8 || a == WS_MT_U8) && (b == WS_MT_S8 || b == WS_MT_U8) && d == WS_MT_S32));
    if (!ok) {
        perr(P, line, "unsupported wgmma.mma_async shape or types (m%dn%dk%d, %d types)", x->m, x->n, x->k, nt);
        return -1;
    }
    int fl = a == WS_MT_F16 || a == WS_MT_BF16, integer = d == WS_MT_S32;
    int nd = d == WS_MT_F16 ? x->n / 4 : x->n / 2;
    if (n < 4 || ops[0].kind != 2 || ops[0].nv != nd || ops[2].kind != 0 || ops[3].kind != 0) {
        perr(P, line, "wgmma.mma_async m64n%dk%d needs {%d accumulators}, A, a B descriptor and scale-d", x->n, x->k, nd);
        return -1;
    }
    for (int i = 0; i < nd; i++) x->d[i] = ops[0].vregs[i];
    x->nd = (uint8_t)nd;
    x->areg = ops[1].kind == 2;
    if (x->areg) {
        if (ops[1].nv != 4) { perr(P, line, "wgmma.mma_async with A in registers needs 4 of them"); return -1; }
        for (int i = 0; i < 4; i++) x->a[i] = ops[1].vregs[i];
        x->na = 4;
    } else if (ops[1].kind == 0) {
        x->a[0] = ops[1].reg;
        x->na = 1;
    } else { perr(P, line, "wgmma.mma_async: A is a descriptor register or a list of 4 registers"); return -1; }
    x->b[0] = ops[2].reg;
    x->nb = 1;
    x->extra = ops[3].reg;   /* scale-d: a predicate (or an immediate) */
    int nimm = integer ? 0 : fl ? (x->areg ? 3 : 4) : 2;
    if (n != 4 + nimm) { perr(P, line, "wgmma.mma_async of these types takes %d immediates after scale-d, not %d", nimm, n - 4); return -1; }
    x->scale_a = x->scale_b = 1;
    for (int i = 0; i < nimm; i++) {
        int64_t v = (int32_t)imm_value(P, &ops[4 + i], 99);   /* parsed as .u32: -1 is 0xffffffff */
        int is_trans = i >= 2;
        if ((!is_trans && v != 1 && v != -1) || (is_trans && v != 0 && v != 1)) {
            perr(P, line, "wgmma.mma_async: operand %d must be an immediate %s", 5 + i, is_trans ? "0 or 1" : "1 or -1");
            return -1;
        }
        if (i == 0) x->scale_a = (int8_t)v;
        else if (i == 1) x->scale_b = (int8_t)v;
        else if (i == 2 && !x->areg) x->mn_a = (uint8_t)v;   /* imm-trans-a (none when A is in registers) */
        else x->mn_b = (uint8_t)v;                            /* imm-trans-b */
    }
    for (int i = 0; i < 4 && i < nd; i++) in->d[i] = x->d[i];
    in->nd = (uint8_t)(nd < 4 ? nd : 4);
    in->s[0] = x->a[0];
    in->s[1] = x->b[0];
    in->s[2] = x->extra;
    in->ns = 3;
    return 0;
}

/* Decode a tensor/matrix/async instruction: its modifiers (mods, after the mnemonic) and its n operands. */
static int mx_decode(parser *P, ws_insn *in, const char *mods, int len, opnd *ops, int n, int line)
{
    ws_mma *x = calloc(1, sizeof *x);
    in->mma = x;
    x->stride = -1;
    x->extra = -1;
    x->mb_base = -1;
    x->space = WS_S_GENERIC;
    int types[4], nt = 0, nlay = 0, op = in->op, sub = -1;
    int bulk_tensor = 0, bulk_spaces[2] = { 0, 0 }, nbs = 0, bulk_mbar = 0, bulk_group = 0, bulk_hint = 0;
    const char *name = ws_opcode_name(op);
    const char *p = mods, *e = mods + len;
    while (p < e) {
        if (*p == '.') p++;
        const char *part = p;
        while (p < e && *p != '.') p++;
        int plen = (int)(p - part);
        int t = mx_type(part, plen), mm, nn, kk;
        char buf[32];
        snprintf(buf, sizeof buf, "%.*s", plen < 31 ? plen : 31, part);
        if (op == WS_OP_CP_BULK) {   /* cp.async.bulk{.tensor.Nd}.dst.src{.tile}{.mbarrier::complete_tx::bytes|.bulk_group} */
            int sp = MATCH("global") ? WS_S_GLOBAL : (MATCH("shared::cluster") || MATCH("shared::cta")) ? WS_S_SHARED : 0;
            if (sp && nbs < 2) { bulk_spaces[nbs++] = sp; if (MATCH("shared::cluster")) in->flags |= WS_F_DSMEM; continue; }
            if (MATCH("tensor")) { bulk_tensor = 1; continue; }
            if (plen == 2 && part[1] == 'd' && part[0] >= '1' && part[0] <= '5') { x->dims = (uint8_t)(part[0] - '0'); continue; }
            if (MATCH("tile") || MATCH("L2")) continue;
            if (MATCH("mbarrier::complete_tx::bytes")) { bulk_mbar = 1; continue; }
            if (MATCH("bulk_group")) { bulk_group = 1; continue; }
            if (MATCH("L2::cache_hint")) { bulk_hint = 1; continue; }
            if (MATCH("commit_group")) { sub = WS_MX_BULK_COMMIT; continue; }
            if (MATCH("wait_group")) { sub = WS_MX_BULK_WAIT; continue; }
            if (MATCH("read")) continue;   /* wait_group.read: the sources may be reused (a superset here) */
            if (MATCH("prefetch")) { sub = WS_MX_BULK_PREFETCH; continue; }
            if (MATCH("multicast::cluster") || MATCH("im2col") || MATCH("im2col::w") || MATCH("im2col::w::128") ||
                MATCH("tile::gather4") || MATCH("tile::scatter4") || MATCH("cta_group::1") || MATCH("cta_group::2")) {
                perr(P, line, "cp.async.bulk: the .%.*s form is not supported by warpsim", plen, part);
                return -1;
            }
            perr(P, line, "unsupported modifier '.%.*s' on 'cp.async.bulk'", plen, part);
            return -1;
        }
        if (t != WS_MT_NONE && nt < 4) { types[nt++] = t; continue; }
        if (sscanf(buf, "m%dn%dk%d", &mm, &nn, &kk) == 3) { x->m = (uint8_t)mm; x->n = (uint16_t)nn; x->k = (uint16_t)kk; continue; }
        if (!strcmp(buf, "m8n8")) { x->m = 8; x->n = 8; continue; }
        if (MATCH("row") || MATCH("col")) {
            if (nlay++ == 0) x->alayout = MATCH("col"); else x->blayout = MATCH("col");
            continue;
        }
        if (op == WS_OP_WMMA_LOAD && (MATCH("a") || MATCH("b") || MATCH("c"))) {
            x->kind = MATCH("a") ? WS_MX_LOAD_A : MATCH("b") ? WS_MX_LOAD_B : WS_MX_LOAD_C;
            continue;
        }
        if (op == WS_OP_WMMA_STORE && MATCH("d")) { x->kind = WS_MX_STORE_D; continue; }
        if (MATCH("x1") || MATCH("x2") || MATCH("x4")) { x->n = (uint8_t)(part[1] - '0'); continue; }
        if (MATCH("trans")) { x->trans = 1; continue; }
        if (MATCH("satfinite")) { x->satf = 1; continue; }
        if (MATCH("xor") || MATCH("and")) { x->bop = MATCH("and"); continue; }
        if (MATCH("shared") || MATCH("shared::cta")) { x->space = WS_S_SHARED; continue; }
        if (MATCH("global")) { if (op != WS_OP_CP_ASYNC) x->space = WS_S_GLOBAL; continue; }
        if (MATCH("parity")) { x->parity = 1; continue; }
        if (MATCH("noinc")) { x->parity = 1; continue; }
        if ((op == WS_OP_CP_ASYNC && (MATCH("ca") || MATCH("cg"))) || (op == WS_OP_CP_MBAR && MATCH("arrive"))) continue;
        if (op == WS_OP_MBARRIER && sub < 0) {
            static const struct { const char *n; int k; } mb[] = {
                {"init", WS_MX_MB_INIT}, {"arrive", WS_MX_MB_ARRIVE}, {"arrive_drop", WS_MX_MB_ARRIVE_DROP},
                {"expect_tx", WS_MX_MB_EXPECT_TX}, {"complete_tx", WS_MX_MB_COMPLETE_TX},
                {"test_wait", WS_MX_MB_TEST_WAIT}, {"try_wait", WS_MX_MB_TRY_WAIT},
                {"pending_count", WS_MX_MB_PENDING}, {"inval", WS_MX_MB_INVAL},
            };
            int found = 0;
            for (size_t i = 0; i < sizeof mb / sizeof *mb && !found; i++)
                if (MATCH(mb[i].n)) { sub = mb[i].k; found = 1; }
            if (found) continue;
        }
        if (op == WS_OP_WGMMA && sub < 0 && (MATCH("mma_async") || MATCH("fence") || MATCH("commit_group") || MATCH("wait_group"))) {
            sub = MATCH("mma_async") ? WS_MX_WGMMA : MATCH("fence") ? WS_MX_WG_FENCE : MATCH("commit_group") ? WS_MX_WG_COMMIT : WS_MX_WG_WAIT;
            continue;
        }
        if (op == WS_OP_MBARRIER && sub >= 0 && MATCH("expect_tx")) {    /* arrive.expect_tx */
            if (sub == WS_MX_MB_ARRIVE) { x->bop = 1; continue; }
        }
        if (MATCH("sync") || MATCH("aligned") || MATCH("popc") || MATCH("rn") || MATCH("b64") || MATCH("b32") ||
            MATCH("release") || MATCH("acquire") || MATCH("relaxed") || MATCH("cta") || MATCH("cluster") ||
            MATCH("L2::64B") || MATCH("L2::128B") || MATCH("L2::256B") || MATCH("L2::cache_hint") || MATCH("ftz"))
            continue;
        perr(P, line, "unsupported modifier '.%.*s' on '%s'", plen, part, name);
        return -1;
    }
    in->type = WS_T_B32;
    in->vec = 1;
    switch (op) {
    case WS_OP_WMMA_LOAD: case WS_OP_WMMA_STORE: {
        if (nt != 1 || !x->m || (op == WS_OP_WMMA_LOAD && x->kind > WS_MX_LOAD_C) || nlay != 1) {
            perr(P, line, "unsupported '%s' form: needs a fragment, a layout, a shape and one type", name);
            return -1;
        }
        int st = op == WS_OP_WMMA_STORE;
        if (x->kind == WS_MX_LOAD_A) x->atype = (uint8_t)types[0];
        else if (x->kind == WS_MX_LOAD_B) x->btype = (uint8_t)types[0];
        else if (x->kind == WS_MX_LOAD_C) x->ctype = (uint8_t)types[0];
        else x->dtype = (uint8_t)types[0];
        if (n < 2 || n > 3) { perr(P, line, "'%s' needs 2 or 3 operands", name); return -1; }
        opnd *regs = st ? &ops[1] : &ops[0], *addr = st ? &ops[0] : &ops[1];
        if (mx_list(P, regs, st ? x->d : x->a, st ? &x->nd : &x->na, st ? WS_MMA_MAXD : 8, line, name)) return -1;
        if (addr->kind != 1) { perr(P, line, "'%s' needs an address", name); return -1; }
        if (set_addr(P, in, addr)) return -1;
        if (n == 3) { if (ops[2].kind != 0) { perr(P, line, "bad stride of '%s'", name); return -1; } x->stride = ops[2].reg; }
        in->space = x->space;
        int frag_t = types[0], m = x->m, nn = x->n, k = x->k;
        int ok = 0;
        if (frag_t == WS_MT_F16 || frag_t == WS_MT_BF16 || frag_t == WS_MT_S8 || frag_t == WS_MT_U8 || frag_t == WS_MT_F32 || frag_t == WS_MT_S32)
            ok = k == 16 && ((m == 16 && nn == 16) || (m == 32 && nn == 8) || (m == 8 && nn == 32));
        if (frag_t == WS_MT_TF32 || (frag_t == WS_MT_F32 && k == 8)) ok = m == 16 && nn == 16 && k == 8;
        if (frag_t == WS_MT_F64) ok = m == 8 && nn == 8 && k == 4;
        if (frag_t == WS_MT_S4 || frag_t == WS_MT_U4) ok = m == 8 && nn == 8 && k == 32;
        if (frag_t == WS_MT_B1) ok = m == 8 && nn == 8 && k == 128;
        if (frag_t == WS_MT_S32 && m == 8 && nn == 8 && (k == 32 || k == 128)) ok = 1;
        if (!ok) { perr(P, line, "unsupported '%s' shape or type (m%dn%dk%d)", name, m, nn, k); return -1; }
        for (int i = 0; i < 4 && i < (st ? x->nd : x->na); i++) {
            if (st) in->s[i] = x->d[i]; else in->d[i] = x->a[i];
        }
        in->nd = st ? 0 : (uint8_t)(x->na < 4 ? x->na : 4);
        if (x->stride >= 0) in->s[4] = x->stride;
        return 0;
    }
    case WS_OP_WMMA_MMA: case WS_OP_MMA: {
        x->kind = op == WS_OP_WMMA_MMA ? WS_MX_WMMA : WS_MX_MMA;
        if (nt == 2) { x->dtype = (uint8_t)types[0]; x->ctype = (uint8_t)types[1]; x->atype = x->btype = WS_MT_F16; }
        else if (nt == 4) { x->dtype = (uint8_t)types[0]; x->atype = (uint8_t)types[1]; x->btype = (uint8_t)types[2]; x->ctype = (uint8_t)types[3]; }
        else { perr(P, line, "unsupported '%s' form: expected 2 or 4 types", name); return -1; }
        if (!x->m || !mx_supported(x, op == WS_OP_WMMA_MMA)) {
            perr(P, line, "unsupported '%s' shape or types (m%dn%dk%d)", name, x->m, x->n, x->k);
            return -1;
        }
        if (n != 4) { perr(P, line, "'%s' needs 4 operands", name); return -1; }
        if (mx_list(P, &ops[0], x->d, &x->nd, WS_MMA_MAXD, line, name) || mx_list(P, &ops[1], x->a, &x->na, 8, line, name) ||
            mx_list(P, &ops[2], x->b, &x->nb, 8, line, name) || mx_list(P, &ops[3], x->c, &x->nc, 8, line, name))
            return -1;
        for (int i = 0; i < 4 && i < x->nd; i++) in->d[i] = x->d[i];
        in->nd = (uint8_t)(x->nd < 4 ? x->nd : 4);
        in->s[0] = x->a[0]; in->s[1] = x->a[x->na - 1]; in->s[2] = x->b[0]; in->s[3] = x->c[0]; in->s[4] = x->c[x->nc - 1];
        in->ns = 5;
        if (x->atype == WS_MT_F64) in->type = WS_T_F64;
        else if (x->ctype != WS_MT_S32) in->type = WS_T_F32;
        else in->type = WS_T_S32;
        return 0;
    }
    case WS_OP_LDMATRIX: case WS_OP_STMATRIX: {
        int st = op == WS_OP_STMATRIX;
        x->kind = st ? WS_MX_STMATRIX : WS_MX_LDMATRIX;
        if (x->m != 8 || !x->n || nt != 1 || types[0] != WS_MT_B16 || n != 2) {
            perr(P, line, "unsupported '%s' form (only .m8n8 .x1/.x2/.x4 .b16)", name);
            return -1;
        }
        if (x->space == WS_S_GENERIC) x->space = WS_S_SHARED;
        opnd *regs = st ? &ops[1] : &ops[0], *addr = st ? &ops[0] : &ops[1];
        if (mx_list(P, regs, st ? x->a : x->d, st ? &x->na : &x->nd, st ? 8 : WS_MMA_MAXD, line, name)) return -1;
        if ((st ? x->na : x->nd) != x->n) { perr(P, line, "'%s' needs %d registers", name, x->n); return -1; }
        if (set_addr(P, in, addr)) return -1;
        in->space = WS_S_SHARED;
        in->type = WS_T_B128;   /* each lane's record: the 16-byte row its address names */
        for (int i = 0; i < x->n; i++) { if (st) in->s[i] = x->a[i]; else in->d[i] = x->d[i]; }
        in->nd = st ? 0 : x->n;
        return 0;
    }
    case WS_OP_MOVMATRIX:
        x->kind = WS_MX_MOVMATRIX;
        if (!x->trans || n != 2 || ops[0].kind != 0 || ops[1].kind != 0) { perr(P, line, "unsupported 'movmatrix' form"); return -1; }
        x->d[0] = ops[0].reg; x->a[0] = ops[1].reg; x->nd = x->na = 1;
        in->d[0] = ops[0].reg; in->s[0] = ops[1].reg; in->nd = 1; in->ns = 1;
        return 0;
    case WS_OP_CP_ASYNC: case WS_OP_CP_COMMIT: case WS_OP_CP_WAIT: case WS_OP_CP_WAIT_ALL: case WS_OP_CP_MBAR:
        sub = op == WS_OP_CP_ASYNC ? WS_MX_CP_ASYNC : op == WS_OP_CP_COMMIT ? WS_MX_CP_COMMIT : op == WS_OP_CP_WAIT ? WS_MX_CP_WAIT :
              op == WS_OP_CP_WAIT_ALL ? WS_MX_CP_WAIT_ALL : WS_MX_CP_MBAR_ARRIVE;
        x->kind = (uint8_t)sub;
        if (sub == WS_MX_CP_ASYNC) {
            if (n < 3 || ops[0].kind != 1 || ops[1].kind != 1 || ops[2].kind != 0) {
                perr(P, line, "cp.async needs [dst], [src], cp-size{, src-size}"); return -1;
            }
            if (ops[1].rel.kind != WS_RELOC_NONE) { perr(P, line, "cp.async from a named global variable is not supported"); return -1; }
            if (set_addr(P, in, &ops[0])) return -1;
            in->space = WS_S_SHARED;
            x->a[0] = ops[1].base; x->na = 1;
            x->b[0] = ops[2].reg;  /* cp-size: an immediate */
            if (n >= 4) {
                if (ops[3].kind != 0) { perr(P, line, "bad src-size of cp.async"); return -1; }
                x->extra = ops[3].reg;
            }
            x->stride = (int32_t)ops[1].off;
            /* the record's size is the copy's (cp-size is an immediate) */
            if (IS_CONST_ENC(ops[2].reg)) {
                uint64_t cp = P->consts[-2 - ops[2].reg];
                in->type = cp == 16 ? WS_T_B128 : cp == 8 ? WS_T_B64 : WS_T_B32;
            }
            in->s[0] = ops[1].base >= 0 ? ops[1].base : WS_SR_SINK;
            if (x->extra >= 0) in->s[1] = x->extra;
            return 0;
        }
        if (sub == WS_MX_CP_WAIT) {
            if (n != 1 || ops[0].kind != 0) { perr(P, line, "cp.async.wait_group needs a count"); return -1; }
            x->extra = ops[0].reg;
        }
        if (sub == WS_MX_CP_MBAR_ARRIVE) {
            if (n != 1 || set_addr(P, in, &ops[0])) { perr(P, line, "cp.async.mbarrier.arrive needs [addr]"); return -1; }
            in->space = x->space;
        }
        return 0;
    case WS_OP_WGMMA:
        return wgmma_decode(P, in, x, sub, types, nt, ops, n, line);
    case WS_OP_CP_BULK: {
        int nop = n - bulk_hint;   /* the cache policy operand of .L2::cache_hint is a hint */
        if (sub == WS_MX_BULK_COMMIT) { x->kind = (uint8_t)sub; if (nop) { perr(P, line, "cp.async.bulk.commit_group takes no operand"); return -1; } return 0; }
        if (sub == WS_MX_BULK_WAIT) {
            x->kind = (uint8_t)sub;
            if (nop != 1 || ops[0].kind != 0) { perr(P, line, "cp.async.bulk.wait_group needs a count"); return -1; }
            x->extra = ops[0].reg;
            return 0;
        }
        for (int i = 0; i < nop; i++)
            if (ops[i].kind == 1 && ops[i].rel.kind != WS_RELOC_NONE && i != 0) {
                perr(P, line, "cp.async.bulk: a named variable as its second or third address is not supported (use a register)");
                return -1;
            }
        if (sub == WS_MX_BULK_PREFETCH) {
            x->kind = bulk_tensor ? WS_MX_BULK_TENSOR_PREFETCH : WS_MX_BULK_PREFETCH;
            if (nop < 1 || ops[0].kind != 1 || (!bulk_tensor && (nop != 2 || ops[1].kind != 0)) ||
                (bulk_tensor && (nop != 1 || ops[0].nv != x->dims || !x->dims))) {
                perr(P, line, "cp.async.bulk.prefetch needs [src], size (.tensor: [tensorMap, {coordinates}])"); return -1;
            }
            if (ops[0].rel.kind != WS_RELOC_NONE) { perr(P, line, "cp.async.bulk.prefetch of a named variable is not supported"); return -1; }
            x->a[0] = ops[0].base; x->stride = (int32_t)ops[0].off; x->na = 1;
            if (!bulk_tensor) x->extra = ops[1].reg;
            for (int i = 0; bulk_tensor && i < x->dims; i++) x->c[i] = ops[0].vregs[i];
            x->nc = bulk_tensor ? x->dims : 0;
            return 0;
        }
        if (nbs != 2) { perr(P, line, "cp.async.bulk needs a destination and a source state space"); return -1; }
        int g2s = bulk_spaces[0] == WS_S_SHARED && bulk_spaces[1] == WS_S_GLOBAL;
        int s2g = bulk_spaces[0] == WS_S_GLOBAL && bulk_spaces[1] == WS_S_SHARED;
        int s2s = bulk_spaces[0] == WS_S_SHARED && bulk_spaces[1] == WS_S_SHARED && !bulk_tensor;
        if ((!g2s && !s2g && !s2s) || ((g2s || s2s) && !bulk_mbar) || (s2g && !bulk_group) || (bulk_tensor && !x->dims)) {
            perr(P, line, "unsupported cp.async.bulk form (global->shared and shared::cta->shared::cluster complete an "
                 "mbarrier, shared->global a bulk group; .tensor needs .1d-.5d)");
            return -1;
        }
        int ti = bulk_tensor ? (g2s ? 1 : 0) : -1;   /* the [tensorMap, {coordinates}] operand */
        int want = bulk_tensor ? (g2s ? 3 : 2) : (s2g ? 3 : 4);
        if (nop != want || ops[0].kind != 1 || ops[1].kind != 1 || (want == 4 && (ops[2].kind != 0 || ops[3].kind != 1)) ||
            (want == 3 && !bulk_tensor && ops[2].kind != 0) || (bulk_tensor && g2s && ops[2].kind != 1) ||
            (ti >= 0 && ops[ti].nv != x->dims)) {
            perr(P, line, "cp.async.bulk operands: %s", bulk_tensor ? (g2s ? "[dst], [tensorMap, {coordinates}], [mbar]"
                 : "[tensorMap, {coordinates}], [src]") : s2g ? "[dst], [src], size" : "[dst], [src], size, [mbar]");
            return -1;
        }
        if (bulk_tensor) {
            x->kind = g2s ? WS_MX_BULK_TENSOR_G2S : WS_MX_BULK_TENSOR_S2G;
            opnd *tm = &ops[ti], *other = &ops[g2s ? 0 : 1];
            if (tm->rel.kind != WS_RELOC_NONE) { perr(P, line, "cp.async.bulk.tensor: the tensor map must be in a register"); return -1; }
            x->a[0] = tm->base; x->stride = (int32_t)tm->off; x->na = 1;
            for (int i = 0; i < x->dims; i++) x->c[i] = tm->vregs[i];
            x->nc = x->dims;
            if (other->nv) { perr(P, line, "cp.async.bulk.tensor: bad shared address"); return -1; }
            if (set_addr(P, in, other)) return -1;
            in->space = WS_S_SHARED;
            if (g2s) { x->mb_base = ops[2].base; x->mb_off = ops[2].off; }
        } else {
            x->kind = g2s ? WS_MX_BULK_G2S : s2g ? WS_MX_BULK_S2G : WS_MX_BULK_S2S;
            if (set_addr(P, in, &ops[0])) return -1;
            in->space = (uint8_t)bulk_spaces[0];
            x->a[0] = ops[1].base; x->stride = (int32_t)ops[1].off; x->na = 1;
            x->extra = ops[2].reg;
            if (!s2g) { x->mb_base = ops[3].base; x->mb_off = ops[3].off; }
        }
        in->s[0] = x->a[0] >= 0 ? x->a[0] : WS_SR_SINK;
        if (x->extra != -1) in->s[1] = x->extra;   /* a register, or an immediate's encoding (remapped later) */
        return 0;
    }
    case WS_OP_MBARRIER: {
        if (sub < 0) { perr(P, line, "unsupported 'mbarrier' form"); return -1; }
        x->kind = (uint8_t)sub;
        if (sub == WS_MX_MB_PENDING) {
            if (n != 2 || ops[0].kind != 0 || ops[1].kind != 0) { perr(P, line, "mbarrier.pending_count needs 2 registers"); return -1; }
            in->d[0] = ops[0].reg; in->s[0] = ops[1].reg; in->nd = 1; in->ns = 1;
            return 0;
        }
        /* forms with a destination (state or predicate) before the address */
        int k = 0;
        if (sub == WS_MX_MB_ARRIVE || sub == WS_MX_MB_ARRIVE_DROP || sub == WS_MX_MB_TEST_WAIT || sub == WS_MX_MB_TRY_WAIT) {
            if (n < 2) { perr(P, line, "'mbarrier' needs a destination and an address"); return -1; }
            if (ops[0].kind == 3 && ops[0].word && !strcmp(ops[0].word, "_")) in->d[0] = WS_SR_SINK;
            else if (ops[0].kind == 0) in->d[0] = ops[0].reg;
            else { perr(P, line, "bad destination of 'mbarrier'"); return -1; }
            in->nd = 1;
            k = 1;
        }
        if (k >= n || set_addr(P, in, &ops[k])) { perr(P, line, "'mbarrier' needs an address"); return -1; }
        in->space = x->space;
        if (k + 1 < n) {
            if (ops[k + 1].kind != 0) { perr(P, line, "bad operand of 'mbarrier'"); return -1; }
            x->extra = ops[k + 1].reg;
            in->s[0] = x->extra;
            in->ns = 1;
        }
        if ((sub == WS_MX_MB_INIT || sub == WS_MX_MB_EXPECT_TX || sub == WS_MX_MB_COMPLETE_TX ||
             sub == WS_MX_MB_TEST_WAIT || sub == WS_MX_MB_TRY_WAIT) && x->extra == -1) {   /* an immediate is <= -2 here */
            perr(P, line, "'mbarrier' form needs a count, transaction count, state or phase operand"); return -1;
        }
        if (sub == WS_MX_MB_ARRIVE && x->bop && x->extra == -1) { perr(P, line, "mbarrier.arrive.expect_tx needs a transaction count"); return -1; }
        return 0;
    }
    default:
        perr(P, line, "unsupported PTX instruction '%s'", name);
        return -1;
    }
}

/* Parse and decode one instruction whose mnemonic is the current token. */
static int parse_insn_ops(parser *P, int guard, int pneg, opnd *ops)
{
    int line = TOK->line;
    const char *mn = TOK->p;
    int mlen = TOK->len;
    int blen = 0;
    while (blen < mlen && mn[blen] != '.') blen++;
    int op = -1, ends[3], nends = 0;
    for (int b = blen; nends < 3; b++)   /* the ends of the first three parts: the longest known mnemonic wins */
        if (b == mlen || mn[b] == '.') { ends[nends++] = b; if (b == mlen) break; }
    for (int i = nends - 1; i >= 0 && op < 0; i--)
        if ((op = opcode_from(mn, ends[i])) >= 0) blen = ends[i];
    if (op < 0) {
        perr(P, line, "unsupported PTX instruction '%.*s'", mlen, mn);
        return -1;
    }
    ws_insn *in = new_insn(P);
    int pc = P->ncode - 1;
    in->op = (uint16_t)op;
    in->ptx_line = (uint32_t)line;
    in->guard = guard;
    in->pneg = (uint8_t)pneg;
    int tensor = WS_OP_IS_TENSOR(op);
    if (!tensor && decode_mods(P, in, mn + blen, mlen - blen, line)) return -1;
    NEXT();
    if (op == WS_OP_CALL) {
        if (parse_call(P, &P->code[pc])) return -1;
        return expect(P, ';');
    }
    int n = 0;
    int ty = in->type;
    if (op == WS_OP_CVT) ty = in->type2;
    while (!IS(';') && TOK->kind != WS_TK_EOF) {
        if (n >= 8) { perr(P, line, "too many operands"); return -1; }
        int oty = ty;
        if ((op == WS_OP_CVT) && n == 0) oty = in->type;
        if (op == WS_OP_ELECT || op == WS_OP_SETMAXNREG || (op == WS_OP_MAPA && n == 2)) oty = WS_T_U32;
        if (tensor) oty = WS_T_U32;
        if (op == WS_OP_SHL || op == WS_OP_SHR || op == WS_OP_BFE || op == WS_OP_BFI || op == WS_OP_SHFL) oty = (n >= 2) ? WS_T_U32 : ty;
        if (op == WS_OP_SETP || op == WS_OP_SELP) oty = in->type;
        if ((op == WS_OP_TEX || op == WS_OP_TLD4) && n == 1) oty = in->type2;
        if ((op == WS_OP_SULD && n == 1) || (op == WS_OP_SUST && n == 0)) oty = WS_T_S32;
        if (parse_operand(P, &ops[n], oty)) return -1;
        in = &P->code[pc];  /* const_reg cannot move code, but keep the pattern safe */
        n++;
        if (IS(',')) NEXT();
        else if (!IS(';')) { perr(P, TOK->line, "expected ',' or ';' after operand, found '%.*s'", TOK->len, TOK->p); return -1; }
    }
    NEXT();
    if (tensor) return mx_decode(P, &P->code[pc], mn + blen, mlen - blen, ops, n, line);
    /* distribute operands */
    switch (op) {
    case WS_OP_BRA:
        if (n != 1 || ops[0].kind != 3) { perr(P, line, "bra needs a label"); return -1; }
        add_fixup(P, pc, ops[0].word, 0, line);
        free(ops[0].word); ops[0].word = NULL;
        break;
    case WS_OP_BRX:
        if (n != 2 || ops[1].kind != 3) { perr(P, line, "brx.idx needs an index and a target list"); return -1; }
        in->s[0] = ops[0].reg;
        add_fixup(P, pc, ops[1].word, 1, line);
        free(ops[1].word); ops[1].word = NULL;
        break;
    case WS_OP_LD: case WS_OP_LDU: {
        if (n != 2) { perr(P, line, "ld needs 2 operands"); return -1; }
        if (ops[0].kind == 2) { in->nd = (uint8_t)ops[0].nv; for (int i = 0; i < ops[0].nv && i < 4; i++) in->d[i] = ops[0].vregs[i]; }
        else { in->nd = 1; in->d[0] = ops[0].reg; }
        if (set_addr(P, in, &ops[1])) return -1;
        break;
    }
    case WS_OP_ST: {
        if (n != 2) { perr(P, line, "st needs 2 operands"); return -1; }
        if (set_addr(P, in, &ops[0])) return -1;
        if (ops[1].kind == 2) { in->ns = (uint8_t)ops[1].nv; for (int i = 0; i < ops[1].nv && i < 4; i++) in->s[i] = ops[1].vregs[i]; }
        else { in->ns = 1; if (set_src(P, in, 0, &ops[1])) return -1; }
        break;
    }
    case WS_OP_ATOM:
        if (n < 3) { perr(P, line, "atom needs at least 3 operands"); return -1; }
        in->d[0] = ops[0].reg;
        in->nd = 1;
        if (set_addr(P, in, &ops[1])) return -1;
        for (int i = 2; i < n; i++) if (set_src(P, in, i - 2, &ops[i])) return -1;
        in->ns = (uint8_t)(n - 2);
        break;
    case WS_OP_RED:
        if (n < 2) { perr(P, line, "red needs 2 operands"); return -1; }
        if (set_addr(P, in, &ops[0])) return -1;
        for (int i = 1; i < n; i++) if (set_src(P, in, i - 1, &ops[i])) return -1;
        in->ns = (uint8_t)(n - 1);
        break;
    case WS_OP_PREFETCH: case WS_OP_PREFETCHU:
        break;
    case WS_OP_BAR_CLUSTER:   /* barrier.cluster.arrive / .wait: no operands */
        if (n != 0 || (in->sub != WS_SUB_ARRIVE && in->sub != WS_SUB_SYNC)) {
            perr(P, line, "unsupported barrier.cluster form (expected barrier.cluster.arrive or .wait, no operands)");
            return -1;
        }
        break;
    case WS_OP_SETMAXNREG:    /* setmaxnreg.inc/.dec.sync.aligned.u32 imm */
        if (n != 1 || (in->sub != WS_SUB_INC && in->sub != WS_SUB_DEC) || set_src(P, in, 0, &ops[0])) {
            perr(P, line, "unsupported setmaxnreg form (expected setmaxnreg.inc or .dec with a register count)");
            return -1;
        }
        in->ns = 1;
        break;
    case WS_OP_MAPA:          /* mapa{.shared::cluster}.u32/.u64 d, a, rank */
        if (n != 3 || ops[0].kind != 0 || set_src(P, in, 0, &ops[1]) || set_src(P, in, 1, &ops[2])) {
            perr(P, line, "mapa needs a destination, an address register and a rank");
            return -1;
        }
        in->d[0] = ops[0].reg;
        in->nd = 1;
        in->ns = 2;
        break;
    case WS_OP_ELECT:         /* elect.sync d|p, membermask */
        if (n != 2 || ops[0].kind != 0 || ops[0].reg2 < 0 || set_src(P, in, 0, &ops[1])) {
            perr(P, line, "elect.sync needs a destination pair d|p and a member mask");
            return -1;
        }
        in->d[0] = ops[0].reg;
        in->d[1] = ops[0].reg2;
        in->nd = 2;
        in->ns = 1;
        break;
    case WS_OP_TEX: case WS_OP_TLD4: case WS_OP_TXQ: case WS_OP_SULD: case WS_OP_SUST:
        if (tex_operands(P, in, ops, n, line)) return -1;
        break;
    case WS_OP_BAR: case WS_OP_BARRIER: case WS_OP_MEMBAR: case WS_OP_FENCE: case WS_OP_RET: case WS_OP_EXIT:
    case WS_OP_TRAP: case WS_OP_BRKPT: case WS_OP_NANOSLEEP: case WS_OP_PMEVENT:
        if (op == WS_OP_BAR || op == WS_OP_BARRIER) {
            /* bar.red: d, a{, b}, c  ; bar.sync a{, b} */
            int k = 0;
            if (in->sub == WS_SUB_RED) { in->d[0] = ops[0].reg; in->nd = 1; k = 1; }
            int ns = 0;
            for (int i = k; i < n; i++) if (set_src(P, in, ns++, &ops[i])) return -1;
            in->ns = (uint8_t)ns;
        } else {
            for (int i = 0; i < n && i < 5; i++) if (set_src(P, in, i, &ops[i])) return -1;
            in->ns = (uint8_t)n;
        }
        break;
    case WS_OP_MOV:
        if (n != 2) { perr(P, line, "mov needs 2 operands"); return -1; }
        if (ops[0].kind == 2) {   /* unpack: mov.b64 {a,b}, x */
            in->nd = (uint8_t)ops[0].nv;
            for (int i = 0; i < ops[0].nv && i < 4; i++) in->d[i] = ops[0].vregs[i];
            if (set_src(P, in, 0, &ops[1])) return -1;
            in->sub = WS_MOV_UNPACK;
        } else if (ops[1].kind == 2) {  /* pack: mov.b64 x, {a,b} */
            in->d[0] = ops[0].reg;
            in->nd = 1;
            in->ns = (uint8_t)ops[1].nv;
            for (int i = 0; i < ops[1].nv && i < 4; i++) in->s[i] = ops[1].vregs[i];
            in->sub = WS_MOV_PACK;
        } else {
            in->d[0] = ops[0].reg;
            in->nd = 1;
            if (set_src(P, in, 0, &ops[1])) return -1;
            in->ns = 1;
        }
        break;
    default:
        if (n < 1) { perr(P, line, "'%s' needs operands", ws_opcode_name(op)); return -1; }
        if (op == WS_OP_ACTIVEMASK) { in->d[0] = ops[0].reg; in->nd = 1; break; }
        if (ops[0].kind == 2) {  /* cvt/others with vector destinations are not used; reject */
            perr(P, line, "vector destination not supported for '%s'", ws_opcode_name(op));
            return -1;
        }
        in->d[0] = ops[0].reg;
        if (ops[0].reg2 >= 0) in->d[1] = ops[0].reg2;
        in->nd = 1;
        for (int i = 1; i < n; i++) {
            if (ops[i].kind == 2 && op == WS_OP_CVT) { perr(P, line, "vector source not supported"); return -1; }
            if (set_src(P, in, i - 1, &ops[i])) return -1;
        }
        in->ns = (uint8_t)(n - 1);
        break;
    }
    return 0;
}

/* Parse and decode one instruction; operand names left over after an error are freed. */
static int parse_insn(parser *P, int guard, int pneg)
{
    opnd ops[8];
    for (int i = 0; i < 8; i++) {   /* zeros but the (large) register lists, which nv bounds */
        opnd *o = &ops[i];
        o->kind = o->reg = o->reg2 = o->neg = o->base = o->space = o->nv = o->line = 0;
        o->off = 0;
        o->rel = (ws_reloc){ 0, 0 };
        o->word = NULL;
    }
    int rc = parse_insn_ops(P, guard, pneg, ops);
    for (int i = 0; i < 8; i++) free(ops[i].word);
    return rc;
}

/* ---------- function bodies ---------- */
/* Declare registers: .reg .type name<N> | name, name2 ; */
static int parse_reg_decl(parser *P)
{
    NEXT();
    int t = WS_T_NONE;
    int vec = 0;
    while (TOK->kind == WS_TK_WORD && TOK->p[0] == '.') {
        if (ISW(".v2") || ISW(".v4")) { vec = 1; NEXT(); continue; }
        t = type_from(TOK->p + 1, TOK->len - 1);
        NEXT();
    }
    int kind = vec ? WS_RK_VECTOR : t == WS_T_PRED ? WS_RK_PRED : WS_RK_VALUE;
    while (!IS(';') && TOK->kind != WS_TK_EOF) {
        if (TOK->kind != WS_TK_WORD) { perr(P, TOK->line, "expected a register name"); return -1; }
        char *name = tokdup(P);
        int line = TOK->line;
        NEXT();
        uint64_t cnt = 1;
        int numbered = 0;
        if (IS('<')) {
            NEXT();
            if (parse_number(P, WS_T_U32, &cnt)) { free(name); return -1; }
            if (expect(P, '>')) { free(name); return -1; }
            numbered = 1;
        }
        if (cnt > WS_PTX_MAX_REGS || (uint64_t)P->nregs + cnt > WS_PTX_MAX_REGS) {
            perr(P, line, "too many registers in function '%s' (at most %d)", P->fn->name, WS_PTX_MAX_REGS);
            free(name);
            return -1;
        }
        ws_func *f = P->fn;
        f->regdecl = realloc(f->regdecl, sizeof *f->regdecl * (size_t)(f->nregdecl + 1));
        f->regdecl[f->nregdecl++] = (ws_regdecl){ strdup(name), WS_SR_COUNT + P->nregs, (int)cnt, numbered, kind };
        if (numbered) {
            char buf[300];
            for (uint64_t i = 0; i < cnt; i++) {
                int l = snprintf(buf, sizeof buf, "%.255s%llu", name, (unsigned long long)i);
                declare(P, buf, l, NK_REG | (WS_SR_COUNT + P->nregs++));
            }
        } else {
            declare(P, name, (int)strlen(name), NK_REG | (WS_SR_COUNT + P->nregs++));
        }
        free(name);
        if (IS(',')) NEXT();
    }
    NEXT();
    return 0;
}

/* Declare a function-local .local or call-site .param variable in the local frame. */
static int parse_local_decl(parser *P)
{
    NEXT();
    vdecl d;
    if (parse_vdecl(P, &d)) return -1;
    if (d.type == WS_T_PRED) d.size = 1;
    P->frame = align_up(P->frame, (size_t)(d.align < 4 ? 4 : d.align));
    if (P->frame + (d.size ? d.size : 1) > WS_PTX_MAX_FRAME) {
        perr(P, d.nameline, "local variables of '%s' exceed %zu bytes", P->fn->name, WS_PTX_MAX_FRAME);
        free(d.name);
        return -1;
    }
    declare(P, d.name, (int)strlen(d.name), NK_LOCAL | (int)P->frame);
    P->frame += d.size ? d.size : 1;
    free(d.name);
    if (IS('=')) { perr(P, TOK->line, "initialized .local variables are not supported"); return -1; }
    return expect(P, ';');
}

/* Parse "{ ... }" body of function f. */
static int parse_body(parser *P, ws_func *f);

/* Parse a .entry or .func definition/declaration; the current token is .entry or .func. */
static int parse_function(parser *P, int is_extern, int linkage)
{
    int entry = ISW(".entry");
    NEXT();
    ws_func tmp;
    memset(&tmp, 0, sizeof tmp);
    /* return value list */
    int has_ret_list = !entry && IS('(');
    /* the name comes after the return list; parse the return list into tmp first */
    P->fn = &tmp;
    hmap_free(&P->names);
    for (int i = 0; i < P->nshadows; i++) free(P->shadows[i].name);
    P->nshadows = 0;
    P->nscopes = 0;
    if (has_ret_list && parse_params(P, &tmp, 1, 0, 1)) return -1;
    if (TOK->kind != WS_TK_WORD) { perr(P, TOK->line, "expected a function name"); return -1; }
    int fi = func_index(P, TOK->p, TOK->len);
    NEXT();
    ws_func *f = &P->mod->funcs[fi];
    P->fn_index = fi;
    int first_decl = !f->decoded && !f->nparams && !f->has_ret;
    if (first_decl) {
        f->is_entry = entry;
        f->has_ret = tmp.has_ret;
        f->ret_off = tmp.ret_off;
        f->ret_size = tmp.ret_size;
        f->frame_size = tmp.frame_size;
    }
    P->fn = f;
    if (IS('(')) {
        if (!first_decl) {
            /* redeclaration: reparse into a scratch copy to declare the names */
            ws_func scratch = tmp;
            scratch.nparams = 0;
            scratch.param_off = scratch.param_size = NULL;
            P->fn = &scratch;
            int prc = parse_params(P, &scratch, 0, entry, 1);
            free(scratch.param_off);
            free(scratch.param_size);
            P->fn = f;
            if (prc) return -1;
        } else if (parse_params(P, f, 0, entry, 1)) return -1;
    }
    /* performance directives */
    while (TOK->kind == WS_TK_WORD && TOK->p[0] == '.' && !ISW(".entry") && !ISW(".func")) {
        int is_maxntid = ISW(".maxntid") || ISW(".reqntid"), is_cluster = ISW(".reqnctapercluster");
        int is_maxrank = ISW(".maxclusterrank");
        if (ISW(".explicitcluster")) f->explicit_cluster = 1;
        NEXT();
        int prod = 1, nv = 0;
        unsigned v3[3] = { 1, 1, 1 };
        while (TOK->kind == WS_TK_NUM || IS(',')) {
            if (TOK->kind == WS_TK_NUM) {
                long v = strtol(TOK->p, NULL, 0);
                prod *= (int)v;
                if (nv < 3) v3[nv++] = (unsigned)v;
            }
            NEXT();
        }
        if (is_maxntid) f->maxntid = prod;
        if (is_cluster) { memcpy(f->cluster_dim, v3, sizeof v3); f->explicit_cluster = 1; }
        if (is_maxrank) f->maxclusterrank = prod;
        if (TOK->kind == WS_TK_STR) NEXT();
    }
    if (IS(';')) {
        NEXT();
        f->is_extern = is_extern && !f->decoded;
        if (!f->decoded && (first_decl || linkage > f->linkage)) f->linkage = linkage;
        return 0;
    }
    if (!IS('{')) { perr(P, TOK->line, "expected '{' or ';' after function header"); return -1; }
    if (f->decoded) { perr(P, TOK->line, "function '%s' defined twice", f->name); return -1; }
    f->is_extern = 0;
    f->linkage = linkage == WS_LINK_EXTERN ? WS_LINK_VISIBLE : linkage;
    return parse_body(P, f);
}

/* Finish a function: resolve labels and constants, classify, schedule, and find reconvergence points. */
static int finish_function(parser *P, ws_func *f)
{
    for (int i = 0; i < P->nfix; i++) {
        fixup *x = &P->fix[i];
        if (x->is_table) {
            int t = hmap_get(&P->tables, x->label, (int)strlen(x->label));
            if (t < 0) { perr(P, P->code[x->pc].ptx_line, "unknown branch target list '%s'", x->label); return -1; }
            int nt = P->tables_n[t];
            if (nt > 65535) { perr(P, P->code[x->pc].ptx_line, "branch target list '%s' is too long", x->label); return -1; }
            P->code[x->pc].targets = malloc(sizeof(int32_t) * (size_t)(nt + 1));   /* owned by the instruction */
            memcpy(P->code[x->pc].targets, P->tables_v[t], sizeof(int32_t) * (size_t)nt);
            P->code[x->pc].ntargets = (uint16_t)nt;
        } else {
            int pc = hmap_get(&P->labels, x->label, (int)strlen(x->label));
            if (pc < 0) { perr(P, P->code[x->pc].ptx_line, "unknown label '%s'", x->label); return -1; }
            P->code[x->pc].target = pc;
        }
        free(x->label);
        x->label = NULL;
    }
    P->nfix = 0;
    int nslots = WS_SR_COUNT + P->nregs;
    f->first_const = nslots;
    f->nconst = P->nconst;
    f->const_val = malloc(sizeof(uint64_t) * (size_t)(P->nconst + 1));
    if (P->nconst) memcpy(f->const_val, P->consts, sizeof(uint64_t) * (size_t)P->nconst);
    f->const_reloc = NULL;
    for (int k = 0; k < P->nconst; k++)
        if (P->const_rel[k].kind != WS_RELOC_NONE) {
            f->const_reloc = malloc(sizeof(ws_reloc) * (size_t)P->nconst);
            memcpy(f->const_reloc, P->const_rel, sizeof(ws_reloc) * (size_t)P->nconst);
            break;
        }
    f->nregs = nslots + P->nconst;
    for (int i = 0; i < P->ncode; i++) {
        ws_insn *in = &P->code[i];
        for (int k = 0; k < 4; k++) if (IS_CONST_ENC(in->d[k])) { perr(P, in->ptx_line, "constant used as a destination"); return -1; }
        for (int k = 0; k < 5; k++) if (IS_CONST_ENC(in->s[k])) in->s[k] = nslots + (-2 - in->s[k]);
        if (WS_OP_IS_TENSOR(in->op) && in->mma) mx_remap_consts(in->mma, nslots);
        if (IS_CONST_ENC(in->base)) {
            /* a constant base folds into the offset; its relocation moves with it */
            int k = -2 - in->base;
            in->imm += (int64_t)P->consts[k];
            if (P->const_rel[k].kind == WS_RELOC_FUNC) { perr(P, in->ptx_line, "a function used as a memory address"); return -1; }
            if (P->const_rel[k].kind == WS_RELOC_SYM) {
                if (in->sym >= 0) { perr(P, in->ptx_line, "unsupported address: two variables in one address"); return -1; }
                in->sym = P->const_rel[k].index;
            }
            in->base = -1;
        }
        if (in->guard >= 0 && in->guard < WS_SR_COUNT) { perr(P, in->ptx_line, "bad guard predicate"); return -1; }
        if (in->op == WS_OP_BRX && in->ntargets == 0) { perr(P, in->ptx_line, "brx.idx with an empty target list"); return -1; }
        ws_insn_classify(in);
    }
    /* ptxas-like scheduling inside basic blocks, then reconvergence points on the scheduled code */
    if (P->ncode > 1) {
        char *leader = calloc((size_t)P->ncode + 1, 1);
        ws_cfg_leaders(P->code, P->ncode, WS_IF_CTRL, leader);
        ws_ptx_schedule(P->code, P->ncode, leader);
        free(leader);
    }
    ws_cfg_reconvergence(P->code, P->ncode);
    /* a function must not fall off its end: an implicit ret (after the analysis, so that paths reaching the end
     * separately still return separately) */
    if (!P->ncode || (P->code[P->ncode - 1].op != WS_OP_RET && P->code[P->ncode - 1].op != WS_OP_EXIT &&
                      !(P->code[P->ncode - 1].op == WS_OP_BRA && P->code[P->ncode - 1].guard < 0))) {
        ws_insn *in = new_insn(P);
        in->op = WS_OP_RET;
        ws_insn_classify(in);
    }
    f->code = P->code;
    f->ncode = P->ncode;
    P->code = NULL;
    P->ncode = P->capcode = 0;
    if (ws_ptx_regalloc(f) < 0) { perr(P, 0, "out of memory allocating registers of '%s'", f->name); return -1; }
    f->frame_size = align_up(P->frame, 16);
    f->decoded = 1;
    return 0;
}

/* Free the current function's branch-target tables. */
static void free_tables(parser *P)
{
    for (int t = 0; t < P->ntables; t++) free(P->tables_v[t]);
    P->ntables = 0;
}

/* Parse "{ ... }" body of function f. */
static int parse_body(parser *P, ws_func *f)
{
    P->ncode = 0;
    P->nregs = 0;
    P->nconst = 0;
    P->frame = f->frame_size;
    hmap_free(&P->labels);
    hmap_free(&P->tables);
    free_tables(P);
    int depth = 0;
    do {
        if (IS('{')) { depth++; scope_push(P); NEXT(); continue; }
        if (IS('}')) { depth--; scope_pop(P); NEXT(); continue; }
        if (P->failed) return -1;
        if (TOK->kind == WS_TK_EOF) { perr(P, TOK->line, "unexpected end of PTX inside function '%s'", f->name); return -1; }
        if (ISW(".reg")) { if (parse_reg_decl(P)) return -1; continue; }
        if (ISW(".local") || ISW(".param")) { if (parse_local_decl(P)) return -1; continue; }
        if (ISW(".shared")) { NEXT(); if (shared_var(P, f->is_entry ? P->fn_index : -1)) return -1; continue; }
        if (ISW(".loc")) {
            NEXT();
            P->cur_file = (int)strtol(TOK->p, NULL, 10); NEXT();
            P->cur_line = (int)strtol(TOK->p, NULL, 10); NEXT();
            P->cur_at_file = P->cur_at_line = 0;
            if (TOK->kind == WS_TK_NUM) NEXT();
            while (IS(',')) {   /* .loc 1 2 3, function_name $L...[+off], inlined_at 1 2 3 */
                NEXT();
                if (ISW("function_name")) {
                    NEXT();
                    NEXT();
                    if (IS('+')) { NEXT(); NEXT(); }
                } else if (ISW("inlined_at")) {
                    NEXT();
                    for (int k = 0; k < 3 && TOK->kind == WS_TK_NUM; k++) {
                        if (k == 0) P->cur_at_file = (int)strtol(TOK->p, NULL, 10);
                        if (k == 1) P->cur_at_line = (int)strtol(TOK->p, NULL, 10);
                        NEXT();
                    }
                } else NEXT();
            }
            continue;
        }
        if (ISW(".pragma")) { while (!IS(';') && TOK->kind != WS_TK_EOF) NEXT(); NEXT(); continue; }
        if (ISW(".maxnreg") || ISW(".maxntid") || ISW(".reqntid") || ISW(".minnctapersm")) { while (!IS(';') && !IS('{') && TOK->kind != WS_TK_EOF) NEXT(); if (IS(';')) NEXT(); continue; }
        if (TOK->kind == WS_TK_WORD && TOK->len > 0 && TOK->p[0] != '.' && TOK->p[0] != '@') {
            /* label? */
            ws_lex save = P->lx;
            char *name = tokdup(P);
            NEXT();
            if (IS(':')) {
                NEXT();
                if (ISW(".branchtargets")) {
                    int tline = TOK->line;
                    NEXT();
                    int t = P->ntables++;
                    P->tables_v = realloc(P->tables_v, sizeof(int *) * (size_t)P->ntables);
                    P->tables_n = realloc(P->tables_n, sizeof(int) * (size_t)P->ntables);
                    P->tables_v[t] = NULL;
                    P->tables_n[t] = 0;
                    char **names = NULL;
                    int nn = 0;
                    while (!IS(';') && TOK->kind != WS_TK_EOF) {
                        if (TOK->kind == WS_TK_WORD) { names = realloc(names, sizeof(char *) * (size_t)(nn + 1)); names[nn++] = tokdup(P); }
                        NEXT();
                    }
                    NEXT();
                    if (nn > 4096 || t >= 4096) {
                        perr(P, TOK->line, "branch target list '%s' is too long or too many lists (at most 4096)", name);
                        for (int k = 0; k < nn; k++) free(names[k]);
                        free(names);
                        free(name);
                        return -1;
                    }
                    /* resolve later: store names as fixups via a deferred pass */
                    P->tables_v[t] = malloc(sizeof(int) * (size_t)(nn + 1));
                    P->tables_n[t] = nn;
                    for (int k = 0; k < nn; k++) { P->tables_v[t][k] = -1; }
                    hmap_put(&P->tables, name, (int)strlen(name), t);
                    /* record names for resolution at end of body */
                    for (int k = 0; k < nn; k++) {
                        add_fixup(P, -1 - t * 4096 - k, names[k], 2, tline);
                        free(names[k]);
                    }
                    free(names);
                    free(name);
                    continue;
                }
                if (ISW(".callprototype")) {   /* prototype for indirect calls: layout comes from the callee */
                    while (!IS(';') && TOK->kind != WS_TK_EOF) NEXT();
                    NEXT();
                    free(name);
                    continue;
                }
                hmap_put(&P->labels, name, (int)strlen(name), P->ncode);
                free(name);
                continue;
            }
            free(name);
            P->lx = save;
        }
        int guard = -1, pneg = 0;
        if (IS('@')) {
            NEXT();
            if (IS('!')) { pneg = 1; NEXT(); }
            guard = word_reg(P, TOK->p, TOK->len);
            if (guard < 0) { perr(P, TOK->line, "unknown guard predicate '%.*s'", TOK->len, TOK->p); return -1; }
            NEXT();
        }
        if (TOK->kind != WS_TK_WORD) { perr(P, TOK->line, "unexpected '%.*s' in function body", TOK->len, TOK->p); return -1; }
        if (parse_insn(P, guard, pneg)) return -1;
    } while (depth > 0);
    /* resolve branch-target tables (fixups of kind 2) */
    for (int i = 0; i < P->nfix; i++) {
        fixup *x = &P->fix[i];
        if (x->is_table != 2) continue;
        int code = -1 - x->pc;
        int t = code / 4096, k = code % 4096;
        int pc = hmap_get(&P->labels, x->label, (int)strlen(x->label));
        if (pc < 0) { perr(P, x->line, "unknown label '%s' in .branchtargets", x->label); return -1; }
        P->tables_v[t][k] = pc;
    }
    int w = 0;   /* keep the branch fixups; the table ones are done */
    for (int i = 0; i < P->nfix; i++) {
        if (P->fix[i].is_table == 2) free(P->fix[i].label);
        else P->fix[w++] = P->fix[i];
    }
    P->nfix = w;
    return finish_function(P, f);
}

/* Parse a whole module. */
static int parse_module(parser *P)
{
    while (TOK->kind != WS_TK_EOF && !P->failed) {
        if (ISW(".version") || ISW(".target") || ISW(".address_size")) {
            int line = TOK->line;
            NEXT();
            while (TOK->line == line && TOK->kind != WS_TK_EOF && !IS(';') && !(TOK->kind == WS_TK_WORD && TOK->p[0] == '.' && TOK->line != line)) NEXT();
            continue;
        }
        if (ISW(".file")) {
            NEXT();
            int idx = (int)strtol(TOK->p, NULL, 10);
            NEXT();
            if (TOK->kind == WS_TK_STR) {
                ws_ptx_module *m = P->mod;
                if (idx >= m->nfiles) {
                    m->files = realloc(m->files, sizeof(char *) * (size_t)(idx + 1));
                    for (int k = m->nfiles; k <= idx; k++) m->files[k] = NULL;
                    m->nfiles = idx + 1;
                }
                free(m->files[idx]);
                m->files[idx] = strndup(TOK->p + 1, (size_t)(TOK->len >= 2 ? TOK->len - 2 : 0));
                NEXT();
            }
            while (IS(',')) { NEXT(); NEXT(); }
            continue;
        }
        if (ISW(".section")) {
            NEXT();
            while (!IS('{') && TOK->kind != WS_TK_EOF) NEXT();
            int depth = 0;
            do {
                if (IS('{')) depth++;
                if (IS('}')) depth--;
                NEXT();
            } while (depth > 0 && TOK->kind != WS_TK_EOF);
            continue;
        }
        int is_extern = 0, linkage = WS_LINK_LOCAL;
        while (ISW(".visible") || ISW(".extern") || ISW(".weak") || ISW(".common")) {
            if (ISW(".extern")) is_extern = 1, linkage = WS_LINK_EXTERN;
            else if (ISW(".visible") && linkage < WS_LINK_VISIBLE) linkage = WS_LINK_VISIBLE;
            else if (linkage < WS_LINK_WEAK) linkage = WS_LINK_WEAK;   /* .weak, .common */
            NEXT();
        }
        if (ISW(".entry") || ISW(".func")) { if (parse_function(P, is_extern, linkage)) return -1; continue; }
        if (ISW(".global")) { NEXT(); if (module_var(P, WS_S_GLOBAL, linkage)) return -1; continue; }
        if (ISW(".const")) { NEXT(); if (module_var(P, WS_S_CONST, linkage)) return -1; continue; }
        if (ISW(".shared")) { NEXT(); if (shared_var(P, -1)) return -1; continue; }
        if (ISW(".alias") || ISW(".pragma")) { while (!IS(';') && TOK->kind != WS_TK_EOF) NEXT(); NEXT(); continue; }
        perr(P, TOK->line, "unexpected '%.*s' at module level", TOK->len, TOK->p);
        return -1;
    }
    return P->failed ? -1 : 0;
}

/* Free a parsed module. */
void ws_ptx_free(ws_ptx_module *m)
{
    if (!m) return;
    for (int i = 0; i < m->nfuncs; i++) {
        ws_func *f = &m->funcs[i];
        for (int k = 0; k < f->ncode; k++) {
            if (f->code[k].call) { free(f->code[k].call->args); free(f->code[k].call); }
            free(f->code[k].targets);   /* or the ws_mma of a tensor instruction (a union) */
        }
        free(f->name); free(f->code); free(f->sass_w); free(f->const_val); free(f->const_reloc); free(f->param_off); free(f->param_size);
        for (int k = 0; k < f->nregdecl; k++) free(f->regdecl[k].prefix);
        free(f->regdecl);
        free(f->orig_ops);
    }
    for (int i = 0; i < m->nsyms; i++) { free(m->syms[i].name); free(m->syms[i].init); free(m->syms[i].relocs); }
    for (int i = 0; i < m->nfiles; i++) free(m->files[i]);
    free(m->files); free(m->funcs); free(m->syms); free(m->origin);
    free(m);
}

/* Parse and decode a PTX text into a module. */
ws_ptx_module *ws_ptx_parse(const char *ptx, size_t len, const char *origin, char *err, size_t errlen)
{
    parser *P = calloc(1, sizeof *P);
    ws_ptx_module *m = calloc(1, sizeof *m);
    m->origin = strdup(origin ? origin : "ptx");
    P->mod = m;
    P->err = err;
    P->errlen = errlen;
    P->origin = m->origin;
    P->fn_index = -1;
    if (errlen) err[0] = 0;
    ws_lex_init(&P->lx, ptx, len);
    int rc = parse_module(P);
    if (!rc)
        for (int i = 0; i < m->nfuncs; i++) {
            ws_func *f = &m->funcs[i];
            f->files = m->files;
            if (f->is_entry && f->decoded) ws_cfg_stack_need(m, i);
        }
    hmap_free(&P->gsyms); hmap_free(&P->funcs); hmap_free(&P->names); hmap_free(&P->labels); hmap_free(&P->tables);
    for (int i = 0; i < P->nshadows; i++) free(P->shadows[i].name);
    for (int i = 0; i < P->nfix; i++) free(P->fix[i].label);
    for (int i = 0; i < P->ncode; i++) {
        if (P->code[i].call) { free(P->code[i].call->args); free(P->code[i].call); }
        free(P->code[i].targets);
    }
    free(P->shadows); free(P->scope_marks); free(P->fix); free(P->code); free(P->consts); free(P->const_rel);
    free_tables(P);
    free(P->tables_v); free(P->tables_n);
    free(P);
    if (rc) { ws_ptx_free(m); return NULL; }
    return m;
}
