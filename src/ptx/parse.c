/* parse.c - PTX front end: parses a PTX module and decodes every instruction once into ws_insn records.
 * Registers, immediates and special registers all become register slots, so handlers read operands uniformly. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lex.h"
#include "sched.h"
#include "../core/exec.h"

const char *const ws_opcode_name[WS_OP_COUNT] = {
#define WS_OP_NAME(e, s, f) s,
    WS_OPCODE_LIST(WS_OP_NAME)
#undef WS_OP_NAME
};
const unsigned char ws_opcode_class[WS_OP_COUNT] = {
#define WS_OP_CLS(e, s, f) f,
    WS_OPCODE_LIST(WS_OP_CLS)
#undef WS_OP_CLS
};

/* ---------- string -> int hash map with scoped shadowing ---------- */
typedef struct hent { char *key; int val; } hent;
typedef struct hmap { hent *e; int cap, n; } hmap;

/* FNV-1a hash of a byte string. */
static uint32_t hash_str(const char *s, int len)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Slot for key in the map (existing or empty). */
static hent *hmap_slot(hmap *m, const char *k, int len)
{
    uint32_t i = hash_str(k, len) & (uint32_t)(m->cap - 1);
    for (;;) {
        hent *e = &m->e[i];
        if (!e->key || ((int)strlen(e->key) == len && !memcmp(e->key, k, (size_t)len))) return e;
        i = (i + 1) & (uint32_t)(m->cap - 1);
    }
}

/* Look up key; -1 when absent. */
static int hmap_get(hmap *m, const char *k, int len)
{
    if (!m->cap) return -1;
    hent *e = hmap_slot(m, k, len);
    return e->key ? e->val : -1;
}

/* Insert or replace key; returns the previous value or -1. */
static int hmap_put(hmap *m, const char *k, int len, int val)
{
    if ((m->n + 1) * 2 > m->cap) {
        hmap nm = { calloc((size_t)(m->cap ? m->cap * 2 : 256), sizeof(hent)), m->cap ? m->cap * 2 : 256, 0 };
        for (int i = 0; i < m->cap; i++)
            if (m->e[i].key) {
                hent *e = hmap_slot(&nm, m->e[i].key, (int)strlen(m->e[i].key));
                *e = m->e[i];
                nm.n++;
            }
        free(m->e);
        *m = nm;
    }
    hent *e = hmap_slot(m, k, len);
    if (e->key) {
        int old = e->val;
        e->val = val;
        return old;
    }
    e->key = strndup(k, (size_t)len);
    e->val = val;
    m->n++;
    return -1;
}

/* Free the map's keys and table. */
static void hmap_free(hmap *m)
{
    for (int i = 0; i < m->cap; i++) free(m->e[i].key);
    free(m->e);
    memset(m, 0, sizeof *m);
}

/* ---------- parser state ---------- */
/* name kinds in a function's scope: value encodes kind in the top bits */
#define NK_REG     (1 << 24)   /* register slot */
#define NK_LOCAL   (2 << 24)   /* local-frame symbol (depot, call param, func param): value = frame offset */
#define NK_KPARAM  (3 << 24)   /* kernel parameter: index */
#define NK_MASK    0x00ffffff
#define NK_KIND(v) ((v) & ~NK_MASK)

typedef struct shadow { char *name; int prev; } shadow;

typedef struct fixup { int pc; char *label; int is_table; } fixup;

typedef struct parser {
    ws_lex lx;
    ws_module *mod;
    char *err;
    size_t errlen;
    int failed;
    const char *origin;
    hmap gsyms;            /* module symbols: index into mod->syms */
    hmap funcs;            /* function name -> index */
    /* current function */
    ws_func *fn;
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
    int nregs;             /* declared register slots (after specials) */
    uint64_t *consts;      /* constant values (index = const number) */
    int nconst, capconst;
    int *const_fix;        /* per operand reference: (insn index, which) resolved at function end */
    size_t frame;          /* local frame bytes so far */
    int cur_file, cur_line;
    int cur_at_file, cur_at_line;   /* .loc ... inlined_at FILE LINE COL */
    size_t func_shared;    /* entry: bytes of function-level shared memory */
    size_t module_shared;  /* bytes of module-level shared (from the pre-scan) */
    size_t max_func_shared;/* largest function-level shared region of any kernel */
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
static const struct { const char *n; int t; } type_names[] = {
    {"b8", WS_T_B8}, {"b16", WS_T_B16}, {"b32", WS_T_B32}, {"b64", WS_T_B64}, {"b128", WS_T_B128},
    {"u8", WS_T_U8}, {"u16", WS_T_U16}, {"u32", WS_T_U32}, {"u64", WS_T_U64},
    {"s8", WS_T_S8}, {"s16", WS_T_S16}, {"s32", WS_T_S32}, {"s64", WS_T_S64},
    {"f16", WS_T_F16}, {"f16x2", WS_T_F16X2}, {"bf16", WS_T_BF16}, {"bf16x2", WS_T_BF16X2},
    {"f32", WS_T_F32}, {"f64", WS_T_F64}, {"tf32", WS_T_TF32}, {"pred", WS_T_PRED},
};

/* Type from a name without the dot, or WS_T_NONE. */
static int type_from(const char *s, int len)
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
    switch (t) {
    case WS_T_B8: case WS_T_U8: case WS_T_S8: return 1;
    case WS_T_B16: case WS_T_U16: case WS_T_S16: case WS_T_F16: case WS_T_BF16: return 2;
    case WS_T_B32: case WS_T_U32: case WS_T_S32: case WS_T_F32: case WS_T_F16X2: case WS_T_BF16X2: case WS_T_TF32: return 4;
    case WS_T_B64: case WS_T_U64: case WS_T_S64: case WS_T_F64: return 8;
    case WS_T_B128: return 16;
    case WS_T_PRED: return 1;
    default: return 0;
    }
}

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
/* Register slot holding constant value v (deduplicated per function). */
static int const_reg(parser *P, uint64_t v)
{
    for (int i = 0; i < P->nconst; i++)
        if (P->consts[i] == v) return -2 - i;
    if (P->nconst == P->capconst) {
        P->capconst = P->capconst ? P->capconst * 2 : 64;
        P->consts = realloc(P->consts, (size_t)P->capconst * sizeof(uint64_t));
    }
    P->consts[P->nconst] = v;
    return -2 - P->nconst++;
}
#define WS_DYN_MARK 0xD1D0000000000000ull
/* Constant registers are encoded as -2 - k until the function ends, then become real slots. */
#define IS_CONST_ENC(r) ((r) <= -2)

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
    if (neg) v = (uint64_t)(-(int64_t)v);
    if (isf) {
        /* integer literal used with a float type: PTX allows it, meaning the value */
        double d = neg ? -(double)(uint64_t)(-(int64_t)v) : (double)v;
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
static int add_symbol(parser *P, const char *name, int space, uint64_t addr, size_t size, int align, int ext)
{
    ws_module *m = P->mod;
    m->syms = realloc(m->syms, (size_t)(m->nsyms + 1) * sizeof *m->syms);
    ws_symbol *s = &m->syms[m->nsyms];
    s->name = strdup(name);
    s->space = space;
    s->addr = addr;
    s->size = size;
    s->align = align;
    s->is_extern_shared = ext;
    hmap_put(&P->gsyms, name, (int)strlen(name), m->nsyms);
    return m->nsyms++;
}

/* Parse "{ v, v, ... }" or a single value initializer of element type t into buf. */
static int parse_init(parser *P, int t, uint8_t *buf, size_t cap)
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
        uint64_t v = 0;
        if (TOK->kind == WS_TK_WORD) {
            /* generic(sym) or sym: address of a module variable */
            int gen = ISW("generic");
            if (gen) { NEXT(); if (expect(P, '(')) return -1; }
            int si = hmap_get(&P->gsyms, TOK->p, TOK->len);
            int fi = hmap_get(&P->funcs, TOK->p, TOK->len);
            if (si < 0 && fi < 0) {
                perr(P, TOK->line, "unknown symbol '%.*s' in initializer", TOK->len, TOK->p);
                return -1;
            }
            v = si >= 0 ? P->mod->syms[si].addr : WS_FUNC_BASE + 16ull * (uint64_t)fi;
            NEXT();
            if (IS('+')) { NEXT(); uint64_t o; if (parse_number(P, WS_T_U64, &o)) return -1; v += o; }
            if (gen && expect(P, ')')) return -1;
        } else if (parse_number(P, t, &v)) return -1;
        if (off + (size_t)es <= cap) memcpy(buf + off, &v, (size_t)es);
        off += (size_t)es;
        if (IS(',')) { NEXT(); continue; }
        if (braces && IS('}')) { NEXT(); if (IS(',')) { NEXT(); continue; } if (IS('}')) continue; break; }
        if (!braces) break;
    }
    return 0;
}

/* Parse a variable declaration after its state-space word: [.align N] [.v2/.v4] .type name[dims] [= init] ;
 * Calls back with the resolved facts. Returns 0 or -1. */
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
            if (parse_number(P, WS_T_U32, &a)) return -1;
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
    size_t count = 1;
    while (IS('[')) {
        NEXT();
        if (IS(']')) { d->unsized = 1; NEXT(); continue; }
        uint64_t n;
        if (parse_number(P, WS_T_U64, &n)) return -1;
        count *= n;
        if (expect(P, ']')) return -1;
    }
    int es = ws_type_size(d->type);
    if (!es) es = 1;
    d->size = count * (size_t)es * (size_t)d->vec;
    if (!d->align) d->align = es * d->vec;
    return 0;
}

/* Round x up to a multiple of a (a power of two or any positive). */
static size_t align_up(size_t x, size_t a)
{
    if (a <= 1) return x;
    return (x + a - 1) / a * a;
}

/* Module-level .global/.const declaration: allocate device memory and apply the initializer. */
static int module_var(parser *P, int space)
{
    vdecl d;
    if (parse_vdecl(P, &d)) return -1;
    uint64_t addr = 0;
    size_t sz = d.size ? d.size : 1;
    uint8_t *host;
    if (d.managed) {
        /* __managed__: one address valid on the host and on the device */
        void *p = NULL;
        if (ws_malloc_managed(P->mod->gpu, sz, &p)) { perr(P, d.nameline, "out of memory for variable '%s'", d.name); free(d.name); return -1; }
        addr = (uint64_t)(uintptr_t)p;
        host = p;
    } else {
        if (ws_mem_alloc(P->mod->gpu->mem, sz, 1, &addr)) {
            perr(P, d.nameline, "out of device memory for variable '%s'", d.name);
            free(d.name);
            return -1;
        }
        host = ws_mem_view(P->mod->gpu->mem, addr, sz);
    }
    memset(host, 0, sz);
    add_symbol(P, d.name, space, addr, d.size, d.align, 0);
    if (IS('=')) {
        NEXT();
        if (parse_init(P, d.type, host, sz)) { free(d.name); return -1; }
    }
    free(d.name);
    return expect(P, ';');
}

/* Shared declaration (module level or inside a function). */
static int shared_var(parser *P, int in_entry)
{
    vdecl d;
    if (parse_vdecl(P, &d)) return -1;
    if (d.unsized || d.size == 0) {
        /* extern dynamic shared memory: address resolved per launch; remember its alignment */
        int i = add_symbol(P, d.name, WS_S_SHARED, 0, 0, d.align, 1);
        (void)i;
        if (in_entry) declare(P, d.name, (int)strlen(d.name), -1);
    } else if (in_entry) {
        /* function-level shared variable of a kernel: after the module-level region */
        P->func_shared = align_up(P->func_shared, (size_t)d.align);
        uint64_t off = P->module_shared + P->func_shared;
        int i = add_symbol(P, d.name, WS_S_SHARED, off, d.size, d.align, 0);
        (void)i;
        P->func_shared += d.size;
        declare(P, d.name, (int)strlen(d.name), -1);  /* resolved through gsyms */
    } else {
        /* module-level (or device-function) shared variable: laid out at module level */
        ws_module *m = P->mod;
        m->shared_module_bytes = align_up(m->shared_module_bytes, (size_t)d.align);
        add_symbol(P, d.name, WS_S_SHARED, m->shared_module_bytes, d.size, d.align, 0);
        m->shared_module_bytes += d.size;
    }
    free(d.name);
    if (IS('=')) {  /* shared memory cannot be initialized; skip */
        perr(P, TOK->line, "initializer on a .shared variable is not allowed");
        return -1;
    }
    return expect(P, ';');
}

/* Pre-scan: size of the module-level shared region (module scope and device-function scope declarations). */
static size_t prescan_shared(const char *ptx, size_t len)
{
    ws_lex lx;
    ws_lex_init(&lx, ptx, len);
    int depth = 0, in_entry = 0;
    size_t total = 0;
    while (lx.tok.kind != WS_TK_EOF) {
        if (ws_lex_is(&lx, '{')) depth++;
        else if (ws_lex_is(&lx, '}')) { depth--; if (!depth) in_entry = 0; }
        else if (depth == 0 && ws_lex_word(&lx, ".entry")) in_entry = 1;
        else if (depth == 0 && ws_lex_word(&lx, ".func")) in_entry = 0;
        else if (ws_lex_word(&lx, ".shared") && !(depth > 0 && in_entry)) {
            /* parse: [.align N] [.type] name [dims] */
            size_t align = 1, es = 1, count = 1;
            int unsized = 0;
            ws_lex_next(&lx);
            for (;;) {
                if (ws_lex_word(&lx, ".align")) {
                    ws_lex_next(&lx);
                    align = strtoul(lx.tok.p, NULL, 0);
                    ws_lex_next(&lx);
                } else if (lx.tok.kind == WS_TK_WORD && lx.tok.p[0] == '.') {
                    int t = type_from(lx.tok.p + 1, lx.tok.len - 1);
                    if (t) es = (size_t)ws_type_size(t);
                    ws_lex_next(&lx);
                } else break;
            }
            ws_lex_next(&lx);  /* name */
            while (ws_lex_is(&lx, '[')) {
                ws_lex_next(&lx);
                if (ws_lex_is(&lx, ']')) { unsized = 1; ws_lex_next(&lx); continue; }
                count *= strtoull(lx.tok.p, NULL, 0);
                ws_lex_next(&lx);
                ws_lex_next(&lx);
            }
            if (!unsized) total = align_up(total, align) + es * count;
            continue;
        }
        ws_lex_next(&lx);
    }
    return total;
}

/* ---------- function declarations ---------- */
/* Find or create a function by name. */
static int func_index(parser *P, const char *name, int len)
{
    int i = hmap_get(&P->funcs, name, len);
    if (i >= 0) return i;
    ws_module *m = P->mod;
    m->funcs = realloc(m->funcs, (size_t)(m->nfuncs + 1) * sizeof *m->funcs);
    ws_func *f = &m->funcs[m->nfuncs];
    memset(f, 0, sizeof *f);
    f->name = strndup(name, (size_t)len);
    if (!strcmp(f->name, "vprintf")) f->builtin = WS_BI_VPRINTF;
    else if (!strcmp(f->name, "__assertfail")) f->builtin = WS_BI_ASSERTFAIL;
    else if (!strcmp(f->name, "malloc")) f->builtin = WS_BI_MALLOC;
    else if (!strcmp(f->name, "free")) f->builtin = WS_BI_FREE;
    hmap_put(&P->funcs, name, len, m->nfuncs);
    return m->nfuncs++;
}

/* Parse a parameter list "( .param .type name, ... )" into offsets; declares names when decl is set. */
static int parse_params(parser *P, ws_func *f, int is_ret, int entry, int decl)
{
    if (expect(P, '(')) return -1;
    size_t off = entry ? 0 : f->frame_size;
    while (!IS(')')) {
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
    int vregs[8];
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
    {"%dynamic_smem_size", WS_SR_DYN_SMEM}, {"%total_smem_size", WS_SR_TOTAL_SMEM},
};
/* pseudo registers read through dedicated handlers */
#define WS_REG_CLOCK     (-1000)
#define WS_REG_CLOCK64   (-1001)
#define WS_REG_GTIMER    (-1002)

/* Resolve a register-like word to a slot; -1 when not a register. */
static int word_reg(parser *P, const char *s, int len)
{
    if (len == 1 && s[0] == '_') return WS_SR_SINK;
    if (s[0] == '%') {
        for (size_t i = 0; i < sizeof sreg_names / sizeof *sreg_names; i++)
            if ((int)strlen(sreg_names[i].n) == len && !memcmp(sreg_names[i].n, s, (size_t)len)) return sreg_names[i].sr;
        if (len == 6 && !memcmp(s, "%clock", 6)) return WS_REG_CLOCK;
        if (len == 8 && !memcmp(s, "%clock64", 8)) return WS_REG_CLOCK64;
        if (len == 12 && !memcmp(s, "%globaltimer", 12)) return WS_REG_GTIMER;
        if (len == 15 && !memcmp(s, "%globaltimer_lo", 15)) return WS_REG_GTIMER;
    }
    int v = lookup(P, s, len);
    if (v >= 0 && NK_KIND(v) == NK_REG) return v & NK_MASK;
    return -1;
}

/* Value of a symbol used as an address: sets *space; -1 when unknown. */
static int symbol_addr(parser *P, const char *s, int len, int64_t *addr, int *space)
{
    int v = lookup(P, s, len);
    if (v >= 0 && NK_KIND(v) == NK_LOCAL) { *addr = v & NK_MASK; *space = WS_S_LOCAL; return 0; }
    if (v >= 0 && NK_KIND(v) == NK_KPARAM) {
        *addr = (int64_t)P->fn->param_off[v & NK_MASK];
        *space = WS_S_PARAM_K;
        return 0;
    }
    int fi = hmap_get(&P->funcs, s, len);
    if (fi >= 0) { *addr = (int64_t)(WS_FUNC_BASE + 16ull * (uint64_t)fi); *space = WS_S_GLOBAL; return 0; }
    int si = hmap_get(&P->gsyms, s, len);
    if (si >= 0) {
        ws_symbol *sym = &P->mod->syms[si];
        *space = sym->space;
        *addr = (int64_t)sym->addr;
        if (sym->is_extern_shared) *addr = -1;  /* resolved per launch: marker */
        return 0;
    }
    return -1;
}

/* Parse one operand. ty is the instruction's type (for immediates). */
static int parse_operand(parser *P, opnd *o, int ty)
{
    memset(o, 0, sizeof *o);
    o->base = -1;
    o->reg2 = -1;
    o->line = TOK->line;
    if (IS('!')) { o->neg = 1; NEXT(); }
    if (IS('[')) {
        NEXT();
        o->kind = 1;
        while (!IS(']')) {
            if (IS('+')) { NEXT(); continue; }   /* "+-4" arrives as '+' then a negative number */
            if (TOK->kind == WS_TK_WORD) {
                int r = word_reg(P, TOK->p, TOK->len);
                if (r >= 0) {
                    o->base = r;
                } else {
                    int64_t a;
                    int sp;
                    if (symbol_addr(P, TOK->p, TOK->len, &a, &sp)) {
                        perr(P, TOK->line, "unknown name '%.*s' in address", TOK->len, TOK->p);
                        return -1;
                    }
                    if (a == -1 && sp == WS_S_SHARED) {
                        o->space = WS_S_SHARED;
                        o->word = tokdup(P);  /* dynamic shared: marker */
                        a = 0;
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
        NEXT();
        o->kind = 2;
        while (!IS('}')) {
            if (TOK->kind == WS_TK_WORD) {
                int r = word_reg(P, TOK->p, TOK->len);
                if (r < 0) { perr(P, TOK->line, "unknown register '%.*s'", TOK->len, TOK->p); return -1; }
                if (o->nv < 8) o->vregs[o->nv++] = r;
                NEXT();
            } else {
                uint64_t v;
                if (parse_number(P, ty, &v)) return -1;
                if (o->nv < 8) o->vregs[o->nv++] = const_reg(P, v);
            }
            if (IS(',')) NEXT();
        }
        NEXT();
        return 0;
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
/* Opcode enum from a mnemonic, -1 when unknown. */
static int opcode_from(const char *s, int len)
{
    for (int i = 0; i < WS_OP_COUNT; i++)
        if ((int)strlen(ws_opcode_name[i]) == len && !memcmp(ws_opcode_name[i], s, (size_t)len)) return i;
    return -1;
}

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
        for (size_t i = 0; i < sizeof rnd_names / sizeof *rnd_names && !done; i++)
            if (MATCH(rnd_names[i].n)) { in->rnd = (uint8_t)rnd_names[i].r; done = 1; }
        if (done) continue;
        if (MATCH("global")) in->space = WS_S_GLOBAL;
        else if (MATCH("shared") || MATCH("shared::cta") || MATCH("shared::cluster")) in->space = WS_S_SHARED;
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
        else if (MATCH("sync") || MATCH("aligned") || MATCH("nc") || MATCH("volatile") || MATCH("relaxed") ||
                 MATCH("acquire") || MATCH("release") || MATCH("acq_rel") || MATCH("sc") || MATCH("weak") ||
                 MATCH("cta") || MATCH("gpu") || MATCH("sys") || MATCH("cluster") || MATCH("ca") || MATCH("cg") ||
                 MATCH("cs") || MATCH("lu") || MATCH("cv") || MATCH("wb") || MATCH("wt") || MATCH("noftz") ||
                 MATCH("b4e") || MATCH("f4e") || MATCH("rc8") || MATCH("ecl") || MATCH("ecr") || MATCH("rc16") ||
                 MATCH("mmio") || MATCH("L1") || MATCH("L2") || memchr(part, ':', (size_t)plen) ||
                 MATCH("unified") || MATCH("level") || MATCH("gl") || MATCH("proxy") || MATCH("async") ||
                 MATCH("NaN") || MATCH("xorsign") || MATCH("abs") || MATCH("alias") || MATCH("release_sync"))
            ;
        else if (MATCH("arrive")) in->sub = WS_SUB_ARRIVE;
        else if (MATCH("warp") && in->op == WS_OP_BAR) in->sub = WS_SUB_SYNC;
        else if (in->op == WS_OP_TESTP && (MATCH("finite") || MATCH("infinite") || MATCH("number") || MATCH("notanumber") ||
                                           MATCH("normal") || MATCH("subnormal")))
            in->sub = MATCH("finite") ? 1 : MATCH("infinite") ? 2 : MATCH("number") ? 3 : MATCH("notanumber") ? 4 : MATCH("normal") ? 5 : 6;
        else if (MATCH("red")) in->sub = WS_SUB_RED;
        else {
            perr(P, line, "unsupported modifier '.%.*s' on '%s'", plen, part, ws_opcode_name[in->op]);
            return -1;
        }
        /* prmt modes */
        if (in->op == WS_OP_PRMT) {
            if (MATCH("f4e")) in->sub = 1;
            else if (MATCH("b4e")) in->sub = 2;
            else if (MATCH("rc8")) in->sub = 3;
            else if (MATCH("ecl")) in->sub = 4;
            else if (MATCH("ecr")) in->sub = 5;
            else if (MATCH("rc16")) in->sub = 6;
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
    in->target = -1;
    in->rpc = -1;
    in->vec = 1;
    for (int i = 0; i < 4; i++) in->d[i] = WS_SR_SINK;
    for (int i = 0; i < 5; i++) in->s[i] = WS_SR_SINK;
    in->line = (uint32_t)P->cur_line;
    in->file = (uint16_t)P->cur_file;
    in->at_line = (uint32_t)P->cur_at_line;
    in->at_file = (uint16_t)P->cur_at_file;
    return in;
}

/* Add a branch fixup for label at pc. */
static void add_fixup(parser *P, int pc, const char *label, int is_table)
{
    if (P->nfix == P->capfix) {
        P->capfix = P->capfix ? P->capfix * 2 : 64;
        P->fix = realloc(P->fix, (size_t)P->capfix * sizeof *P->fix);
    }
    P->fix[P->nfix++] = (fixup){ pc, strdup(label), is_table };
}

/* Parse a call: call[.uni] (ret), func, (args) [, proto]; */
static int parse_call(parser *P, ws_insn *in)
{
    ws_call *c = calloc(1, sizeof *c);
    in->call = c;
    char *retname = NULL;
    if (IS('(')) {
        NEXT();
        retname = tokdup(P);
        NEXT();
        if (expect(P, ')')) return -1;
        if (expect(P, ',')) return -1;
    }
    if (TOK->kind != WS_TK_WORD) { perr(P, TOK->line, "expected a function name in call"); return -1; }
    int fi = hmap_get(&P->funcs, TOK->p, TOK->len);
    ws_func *callee = NULL;
    if (fi < 0) {
        int r = word_reg(P, TOK->p, TOK->len);
        if (r < 0) {
            perr(P, TOK->line, "call of undeclared function '%.*s'", TOK->len, TOK->p);
            free(retname);
            return -1;
        }
        in->s[0] = r;   /* indirect call through a function pointer */
        c->func = -1;
    } else {
        callee = &P->mod->funcs[fi];
        c->func = fi;
        c->builtin = callee->builtin;
    }
    NEXT();
    char *argnames[64];
    int nargs = 0;
    if (IS(',')) {
        NEXT();
        if (expect(P, '(')) return -1;
        while (!IS(')')) {
            if (nargs < 64) argnames[nargs++] = tokdup(P);
            NEXT();
            if (IS(',')) NEXT();
        }
        NEXT();
    }
    if (IS(',')) { NEXT(); NEXT(); }  /* prototype for indirect calls: ignored */
    if (callee && nargs != callee->nparams && !callee->builtin) {
        perr(P, in->ptx_line, "call of '%s' with %d arguments, but it takes %d", callee->name, nargs, callee->nparams);
        return -1;
    }
    c->nargs = nargs;
    c->args = calloc((size_t)nargs + 1, sizeof *c->args);
    for (int i = 0; i < nargs; i++) {
        int v = lookup(P, argnames[i], (int)strlen(argnames[i]));
        if (v < 0 || NK_KIND(v) != NK_LOCAL) {
            /* a register passed directly as an argument */
            int r = word_reg(P, argnames[i], (int)strlen(argnames[i]));
            if (r < 0) { perr(P, in->ptx_line, "unknown call argument '%s'", argnames[i]); return -1; }
            perr(P, in->ptx_line, "register call arguments are not supported ('%s')", argnames[i]);
            return -1;
        }
        c->args[i].src_off = (uint32_t)(v & NK_MASK);
        c->args[i].dst_off = (!callee || callee->builtin) ? (uint32_t)i : (uint32_t)callee->param_off[i];
        c->args[i].size = (!callee || callee->builtin) ? 8 : (uint32_t)callee->param_size[i];
        free(argnames[i]);
    }
    if (retname) {
        int v = lookup(P, retname, (int)strlen(retname));
        if (v < 0 || NK_KIND(v) != NK_LOCAL) { perr(P, in->ptx_line, "unknown return buffer '%s'", retname); return -1; }
        c->has_ret = 1;
        c->ret.src_off = callee ? (uint32_t)callee->ret_off : 0;
        c->ret.dst_off = (uint32_t)(v & NK_MASK);
        c->ret.size = (uint32_t)(callee && callee->has_ret ? callee->ret_size : 4);
        free(retname);
    }
    return 0;
}

/* Assign operand o as a source of in at position i. */
static int set_src(parser *P, ws_insn *in, int i, opnd *o)
{
    if (o->kind == 3) {
        /* symbol used as a value: its address */
        int64_t a;
        int sp;
        if (symbol_addr(P, o->word, (int)strlen(o->word), &a, &sp)) {
            perr(P, o->line, "unknown name '%s'", o->word);
            return -1;
        }
        if (sp == WS_S_PARAM_K) { perr(P, o->line, "taking the address of kernel parameter '%s' is not supported", o->word); return -1; }
        if (sp == WS_S_SHARED && a == -1) {
            /* dynamic shared base: patched when the module's layout is known */
            in->s[i] = const_reg(P, WS_DYN_MARK | (uint64_t)o->off);
            return 0;
        }
        if (sp == WS_S_LOCAL) {
            /* address of a frame variable: frame base + offset at run time */
            in->flags |= WS_F_LOCALSYM;
            in->imm = a + o->off;
            in->s[i] = WS_SR_SINK;
            return 0;
        }
        in->s[i] = const_reg(P, (uint64_t)(a + o->off));
        return 0;
    }
    if (o->kind != 0) { perr(P, o->line, "unexpected operand form"); return -1; }
    if (o->reg == WS_REG_CLOCK || o->reg == WS_REG_CLOCK64 || o->reg == WS_REG_GTIMER) {
        in->imm = o->reg;
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
    if (o->word) {  /* dynamic shared symbol: base added at run time */
        in->flags |= WS_F_SYMOPND;
        free(o->word);
        o->word = NULL;
    }
    if (o->space == WS_S_PARAM_K && in->space == WS_S_PARAM_F) in->space = WS_S_PARAM_K;
    else if (o->space == WS_S_LOCAL && in->space == WS_S_PARAM_F) in->space = WS_S_LOCAL;
    if (in->space == WS_S_PARAM_F && o->base < 0) in->space = WS_S_LOCAL;
    if (in->space == WS_S_PARAM_F) {
        perr(P, o->line, "parameter access through a register is not supported");
        return -1;
    }
    return 0;
}

/* Parse and decode one instruction whose mnemonic is the current token. */
static int parse_insn(parser *P, int guard, int pneg)
{
    int line = TOK->line;
    const char *mn = TOK->p;
    int mlen = TOK->len;
    int blen = 0;
    while (blen < mlen && mn[blen] != '.') blen++;
    int op = opcode_from(mn, blen);
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
    if (decode_mods(P, in, mn + blen, mlen - blen, line)) return -1;
    NEXT();
    if (op == WS_OP_CALL) {
        if (parse_call(P, &P->code[pc])) return -1;
        return expect(P, ';');
    }
    opnd ops[8];
    int n = 0;
    int ty = in->type;
    if (op == WS_OP_CVT) ty = in->type2;
    while (!IS(';')) {
        if (n >= 8) { perr(P, line, "too many operands"); return -1; }
        int oty = ty;
        if ((op == WS_OP_CVT) && n == 0) oty = in->type;
        if (op == WS_OP_SHL || op == WS_OP_SHR || op == WS_OP_BFE || op == WS_OP_BFI || op == WS_OP_SHFL) oty = (n >= 2) ? WS_T_U32 : ty;
        if (op == WS_OP_SETP || op == WS_OP_SELP) oty = in->type;
        if (parse_operand(P, &ops[n], oty)) return -1;
        in = &P->code[pc];  /* const_reg cannot move code, but keep the pattern safe */
        n++;
        if (IS(',')) NEXT();
        else if (!IS(';')) { perr(P, TOK->line, "expected ',' or ';' after operand, found '%.*s'", TOK->len, TOK->p); return -1; }
    }
    NEXT();
    /* distribute operands */
    switch (op) {
    case WS_OP_BRA:
        if (n != 1 || ops[0].kind != 3) { perr(P, line, "bra needs a label"); return -1; }
        add_fixup(P, pc, ops[0].word, 0);
        free(ops[0].word);
        break;
    case WS_OP_BRX:
        if (n != 2 || ops[1].kind != 3) { perr(P, line, "brx.idx needs an index and a target list"); return -1; }
        in->s[0] = ops[0].reg;
        add_fixup(P, pc, ops[1].word, 1);
        free(ops[1].word);
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
            in->sub = 1;
        } else if (ops[1].kind == 2) {  /* pack: mov.b64 x, {a,b} */
            in->d[0] = ops[0].reg;
            in->nd = 1;
            in->ns = (uint8_t)ops[1].nv;
            for (int i = 0; i < ops[1].nv && i < 4; i++) in->s[i] = ops[1].vregs[i];
            in->sub = 2;
        } else {
            in->d[0] = ops[0].reg;
            in->nd = 1;
            if (set_src(P, in, 0, &ops[1])) return -1;
            in->ns = 1;
        }
        break;
    default:
        if (n < 1) { perr(P, line, "'%s' needs operands", ws_opcode_name[op]); return -1; }
        if (op == WS_OP_ACTIVEMASK) { in->d[0] = ops[0].reg; in->nd = 1; break; }
        if (ops[0].kind == 2) {  /* cvt/others with vector destinations are not used; reject */
            perr(P, line, "vector destination not supported for '%s'", ws_opcode_name[op]);
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

/* ---------- function bodies ---------- */
/* Declare registers: .reg .type name<N> | name, name2 ; */
static int parse_reg_decl(parser *P)
{
    NEXT();
    int t = WS_T_NONE;
    while (TOK->kind == WS_TK_WORD && TOK->p[0] == '.') {
        if (ISW(".v2") || ISW(".v4")) { NEXT(); continue; }
        t = type_from(TOK->p + 1, TOK->len - 1);
        NEXT();
    }
    (void)t;
    while (!IS(';')) {
        if (TOK->kind != WS_TK_WORD) { perr(P, TOK->line, "expected a register name"); return -1; }
        char *name = tokdup(P);
        NEXT();
        if (IS('<')) {
            NEXT();
            uint64_t cnt;
            if (parse_number(P, WS_T_U32, &cnt)) { free(name); return -1; }
            if (expect(P, '>')) { free(name); return -1; }
            char buf[256];
            for (uint64_t i = 0; i < cnt; i++) {
                int l = snprintf(buf, sizeof buf, "%s%llu", name, (unsigned long long)i);
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
    declare(P, d.name, (int)strlen(d.name), NK_LOCAL | (int)P->frame);
    P->frame += d.size ? d.size : 1;
    free(d.name);
    if (IS('=')) { perr(P, TOK->line, "initialized .local variables are not supported"); return -1; }
    return expect(P, ';');
}

/* Parse "{ ... }" body of function f. */
static int parse_body(parser *P, ws_func *f);

/* Parse a .entry or .func definition/declaration; the current token is .entry or .func. */
static int parse_function(parser *P, int is_extern)
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
            if (parse_params(P, &scratch, 0, entry, 1)) return -1;
            free(scratch.param_off);
            free(scratch.param_size);
            P->fn = f;
        } else if (parse_params(P, f, 0, entry, 1)) return -1;
    }
    /* performance directives */
    while (TOK->kind == WS_TK_WORD && TOK->p[0] == '.' && !ISW(".entry") && !ISW(".func")) {
        int is_maxntid = ISW(".maxntid") || ISW(".reqntid");
        NEXT();
        int prod = 1;
        while (TOK->kind == WS_TK_NUM || IS(',')) {
            if (TOK->kind == WS_TK_NUM) prod *= (int)strtol(TOK->p, NULL, 0);
            NEXT();
        }
        if (is_maxntid) f->maxntid = prod;
        if (TOK->kind == WS_TK_STR) NEXT();
    }
    if (IS(';')) { NEXT(); f->is_extern = is_extern && !f->decoded; return 0; }
    if (!IS('{')) { perr(P, TOK->line, "expected '{' or ';' after function header"); return -1; }
    if (f->decoded) { perr(P, TOK->line, "function '%s' defined twice", f->name); return -1; }
    f->is_extern = 0;
    return parse_body(P, f);
}

/* Compute immediate post-dominators and set the reconvergence pc of every branch of the current function. */
static void compute_reconvergence(parser *P)
{
    int n = P->ncode;
    if (n <= 0 || n > (1 << 26)) return;
    /* leaders */
    char *leader = calloc((size_t)n + 1, 1);
    leader[0] = 1;
    for (int i = 0; i < n; i++) {
        ws_insn *in = &P->code[i];
        if (in->op == WS_OP_BRA) { if (in->target >= 0 && in->target < n) leader[in->target] = 1; if (i + 1 < n) leader[i + 1] = 1; }
        if (in->op == WS_OP_BRX) { for (int k = 0; k < in->ntargets; k++) leader[in->targets[k]] = 1; if (i + 1 < n) leader[i + 1] = 1; }
        if ((in->op == WS_OP_RET || in->op == WS_OP_EXIT || in->op == WS_OP_TRAP) && i + 1 < n) leader[i + 1] = 1;
    }
    int *blk = malloc(sizeof(int) * (size_t)n);
    int nb = 0;
    for (int i = 0; i < n; i++) { if (leader[i]) nb++; blk[i] = nb - 1; }
    int *start = malloc(sizeof(int) * (size_t)(nb + 1));
    for (int i = 0; i < n; i++) if (leader[i]) start[blk[i]] = i;
    int EXIT = nb;
    /* successors (at most: fallthrough, target, or brx list) */
    int *succ_n = calloc((size_t)nb + 1, sizeof(int));
    int **succ = calloc((size_t)nb + 1, sizeof(int *));
    for (int b = 0; b < nb; b++) {
        int last = (b + 1 < nb ? start[b + 1] : n) - 1;
        ws_insn *in = &P->code[last];
        int cap = 2 + (in->op == WS_OP_BRX ? in->ntargets : 0);
        succ[b] = malloc(sizeof(int) * (size_t)cap);
        int fall = last + 1 < n ? blk[last + 1] : EXIT;
        int cond = in->guard >= 0;
        if (in->op == WS_OP_BRA) {
            succ[b][succ_n[b]++] = in->target >= 0 && in->target < n ? blk[in->target] : EXIT;
            if (cond) succ[b][succ_n[b]++] = fall;
        } else if (in->op == WS_OP_BRX) {
            for (int k = 0; k < in->ntargets; k++) succ[b][succ_n[b]++] = blk[in->targets[k]];
            if (cond) succ[b][succ_n[b]++] = fall;
        } else if (in->op == WS_OP_RET || in->op == WS_OP_EXIT || in->op == WS_OP_TRAP) {
            succ[b][succ_n[b]++] = EXIT;
            if (cond) succ[b][succ_n[b]++] = fall;
        } else succ[b][succ_n[b]++] = fall;
    }
    /* predecessors on the reverse graph = successors on the forward graph; DFS from EXIT over reverse edges */
    int *pred_n = calloc((size_t)nb + 1, sizeof(int));
    for (int b = 0; b < nb; b++) for (int k = 0; k < succ_n[b]; k++) pred_n[succ[b][k]]++;
    int **pred = calloc((size_t)nb + 1, sizeof(int *));
    for (int b = 0; b <= nb; b++) { pred[b] = malloc(sizeof(int) * (size_t)(pred_n[b] + 1)); pred_n[b] = 0; }
    for (int b = 0; b < nb; b++) for (int k = 0; k < succ_n[b]; k++) { int s = succ[b][k]; pred[s][pred_n[s]++] = b; }
    /* postorder of the reverse graph from EXIT (iterative DFS) */
    int *order = malloc(sizeof(int) * (size_t)(nb + 1));
    int *po = malloc(sizeof(int) * (size_t)(nb + 1));
    char *seen = calloc((size_t)nb + 1, 1);
    int *stack = malloc(sizeof(int) * (size_t)(nb + 1) * 2);
    int sp = 0, no = 0;
    stack[sp++] = EXIT; stack[sp++] = 0;
    seen[EXIT] = 1;
    while (sp) {
        int k = stack[sp - 1], v = stack[sp - 2];
        if (k < pred_n[v]) {
            stack[sp - 1] = k + 1;
            int u = pred[v][k];
            if (!seen[u]) { seen[u] = 1; stack[sp++] = u; stack[sp++] = 0; }
        } else {
            sp -= 2;
            po[v] = no;
            order[no++] = v;
        }
    }
    /* Cooper-Harvey-Kennedy on the reverse graph: "predecessors" there are forward successors */
    int *idom = malloc(sizeof(int) * (size_t)(nb + 1));
    for (int b = 0; b <= nb; b++) idom[b] = -1;
    idom[EXIT] = EXIT;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int i = no - 1; i >= 0; i--) {
            int b = order[i];
            if (b == EXIT) continue;
            int nd = -1;
            for (int k = 0; k < succ_n[b]; k++) {
                int s = succ[b][k];
                if (!seen[s] || idom[s] < 0) continue;
                if (nd < 0) { nd = s; continue; }
                int x = s, y = nd;
                while (x != y) {
                    while (po[x] < po[y]) x = idom[x];
                    while (po[y] < po[x]) y = idom[y];
                }
                nd = x;
            }
            if (nd >= 0 && idom[b] != nd) { idom[b] = nd; changed = 1; }
        }
    }
    for (int i = 0; i < n; i++) {
        ws_insn *in = &P->code[i];
        if (in->op != WS_OP_BRA && in->op != WS_OP_BRX) continue;
        int b = blk[i];
        int pd = seen[b] ? idom[b] : -1;
        in->rpc = (pd < 0 || pd == EXIT) ? -1 : start[pd];
    }
    for (int b = 0; b <= nb; b++) { free(pred[b]); if (b < nb) free(succ[b]); }
    free(pred); free(succ); free(pred_n); free(succ_n); free(order); free(po); free(seen); free(stack);
    free(idom); free(leader); free(blk); free(start);
}

/* Reorder instructions within basic blocks as ptxas would (loads first), before reconvergence analysis. */
static void schedule_blocks(parser *P)
{
    int n = P->ncode;
    if (n <= 1) return;
    char *leader = calloc((size_t)n + 1, 1);
    leader[0] = 1;
    for (int i = 0; i < n; i++) {
        ws_insn *in = &P->code[i];
        if (in->op == WS_OP_BRA && in->target >= 0 && in->target < n) leader[in->target] = 1;
        if (in->op == WS_OP_BRX) for (int k = 0; k < in->ntargets; k++) if (in->targets[k] >= 0 && in->targets[k] < n) leader[in->targets[k]] = 1;
        if (ws_opcode_class[in->op] & WS_CLS_CTRL) leader[i + 1] = 1;
    }
    ws_ptx_schedule(P->code, n, leader);
    free(leader);
}

/* Finish a function: resolve labels, constants, reconvergence points and handlers. */
static int finish_function(parser *P, ws_func *f)
{
    for (int i = 0; i < P->nfix; i++) {
        fixup *x = &P->fix[i];
        if (x->is_table) {
            int t = hmap_get(&P->tables, x->label, (int)strlen(x->label));
            if (t < 0) { perr(P, P->code[x->pc].ptx_line, "unknown branch target list '%s'", x->label); return -1; }
            P->code[x->pc].targets = P->tables_v[t];
            P->code[x->pc].ntargets = P->tables_n[t];
        } else {
            int pc = hmap_get(&P->labels, x->label, (int)strlen(x->label));
            if (pc < 0) { perr(P, P->code[x->pc].ptx_line, "unknown label '%s'", x->label); return -1; }
            P->code[x->pc].target = pc;
        }
        free(x->label);
    }
    P->nfix = 0;
    int nslots = WS_SR_COUNT + P->nregs;
    f->first_const = nslots;
    f->nconst = P->nconst;
    f->const_val = malloc(sizeof(uint64_t) * (size_t)(P->nconst + 1));
    memcpy(f->const_val, P->consts, sizeof(uint64_t) * (size_t)P->nconst);
    f->nregs = nslots + P->nconst;
    for (int i = 0; i < P->ncode; i++) {
        ws_insn *in = &P->code[i];
        for (int k = 0; k < 4; k++) if (IS_CONST_ENC(in->d[k])) { perr(P, in->ptx_line, "constant used as a destination"); return -1; }
        for (int k = 0; k < 5; k++) if (IS_CONST_ENC(in->s[k])) in->s[k] = nslots + (-2 - in->s[k]);
        if (IS_CONST_ENC(in->base)) {
            in->imm += (int64_t)P->consts[-2 - in->base];
            in->base = -1;
        }
        if (in->guard >= 0 && in->guard < WS_SR_COUNT) { perr(P, in->ptx_line, "bad guard predicate"); return -1; }
    }
    schedule_blocks(P);
    compute_reconvergence(P);
    for (int i = 0; i < P->ncode; i++) {
        ws_insn *in = &P->code[i];
        in->fn = ws_select_handler(in);
        if (!in->fn) {
            char mods[64] = "";
            if (in->type) snprintf(mods, sizeof mods, ".%s", ws_type_name(in->type));
            perr(P, in->ptx_line, "unsupported PTX instruction form '%s%s' (opcode '%s')", ws_opcode_name[in->op], mods,
                 ws_opcode_name[in->op]);
            return -1;
        }
    }
    /* a function must not fall off its end */
    if (!P->ncode || (P->code[P->ncode - 1].op != WS_OP_RET && P->code[P->ncode - 1].op != WS_OP_EXIT &&
                      !(P->code[P->ncode - 1].op == WS_OP_BRA && P->code[P->ncode - 1].guard < 0))) {
        ws_insn *in = new_insn(P);
        in->op = WS_OP_RET;
        in->fn = ws_select_handler(in);
    }
    f->code = P->code;
    f->ncode = P->ncode;
    P->code = NULL;
    P->ncode = P->capcode = 0;
    f->frame_size = align_up(P->frame, 16);
    if (f->is_entry) {
        f->static_smem = P->module_shared + P->func_shared;
        if (P->func_shared > P->max_func_shared) P->max_func_shared = P->func_shared;
    }
    f->decoded = 1;
    return 0;
}

/* Parse "{ ... }" body of function f. */
static int parse_body(parser *P, ws_func *f)
{
    P->ncode = 0;
    P->nregs = 0;
    P->nconst = 0;
    P->frame = f->frame_size;
    P->func_shared = 0;
    hmap_free(&P->labels);
    hmap_free(&P->tables);
    P->ntables = 0;
    int depth = 0;
    do {
        if (IS('{')) { depth++; scope_push(P); NEXT(); continue; }
        if (IS('}')) { depth--; scope_pop(P); NEXT(); continue; }
        if (P->failed) return -1;
        if (TOK->kind == WS_TK_EOF) { perr(P, TOK->line, "unexpected end of PTX inside function '%s'", f->name); return -1; }
        if (ISW(".reg")) { if (parse_reg_decl(P)) return -1; continue; }
        if (ISW(".local") || ISW(".param")) { if (parse_local_decl(P)) return -1; continue; }
        if (ISW(".shared")) { NEXT(); if (shared_var(P, f->is_entry)) return -1; continue; }
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
        if (ISW(".pragma")) { while (!IS(';')) NEXT(); NEXT(); continue; }
        if (ISW(".maxnreg") || ISW(".maxntid") || ISW(".reqntid") || ISW(".minnctapersm")) { while (!IS(';') && !IS('{')) NEXT(); if (IS(';')) NEXT(); continue; }
        if (TOK->kind == WS_TK_WORD && TOK->len > 0 && TOK->p[0] != '.' && TOK->p[0] != '@') {
            /* label? */
            ws_lex save = P->lx;
            char *name = tokdup(P);
            NEXT();
            if (IS(':')) {
                NEXT();
                if (ISW(".branchtargets")) {
                    NEXT();
                    int t = P->ntables++;
                    P->tables_v = realloc(P->tables_v, sizeof(int *) * (size_t)P->ntables);
                    P->tables_n = realloc(P->tables_n, sizeof(int) * (size_t)P->ntables);
                    P->tables_v[t] = NULL;
                    P->tables_n[t] = 0;
                    char **names = NULL;
                    int nn = 0;
                    while (!IS(';')) {
                        if (TOK->kind == WS_TK_WORD) { names = realloc(names, sizeof(char *) * (size_t)(nn + 1)); names[nn++] = tokdup(P); }
                        NEXT();
                    }
                    NEXT();
                    /* resolve later: store names as fixups via a deferred pass */
                    P->tables_v[t] = malloc(sizeof(int) * (size_t)(nn + 1));
                    P->tables_n[t] = nn;
                    for (int k = 0; k < nn; k++) { P->tables_v[t][k] = -1; }
                    hmap_put(&P->tables, name, (int)strlen(name), t);
                    /* record names for resolution at end of body */
                    for (int k = 0; k < nn; k++) {
                        add_fixup(P, -1 - t * 4096 - k, names[k], 2);
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
    int w = 0;
    for (int i = 0; i < P->nfix; i++) {
        fixup *x = &P->fix[i];
        if (x->is_table != 2) { P->fix[w++] = *x; continue; }
        int code = -1 - x->pc;
        int t = code / 4096, k = code % 4096;
        int pc = hmap_get(&P->labels, x->label, (int)strlen(x->label));
        if (pc < 0) { perr(P, 0, "unknown label '%s' in .branchtargets", x->label); return -1; }
        P->tables_v[t][k] = pc;
        free(x->label);
    }
    P->nfix = w;
    return finish_function(P, f);
}

/* Size every entry's local memory: its frame plus the deepest chain of callee frames. */
static size_t stack_need(ws_module *m, int fi, int depth)
{
    ws_func *f = &m->funcs[fi];
    if (f->stack_need) return f->stack_need;
    if (f->visiting || depth > 64) return 16384;  /* recursion: a fixed stack, as CUDA's default limit suggests */
    f->visiting = 1;
    size_t deepest = 0;
    for (int i = 0; i < f->ncode; i++) {
        ws_insn *in = &f->code[i];
        if (in->op == WS_OP_CALL && in->call && in->call->func >= 0 && !m->funcs[in->call->func].builtin) {
            size_t s = stack_need(m, in->call->func, depth + 1);
            if (s > deepest) deepest = s;
        }
    }
    f->visiting = 0;
    f->stack_need = f->frame_size + deepest;
    return f->stack_need;
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
                ws_module *m = P->mod;
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
        int is_extern = 0;
        while (ISW(".visible") || ISW(".extern") || ISW(".weak") || ISW(".common")) {
            if (ISW(".extern")) is_extern = 1;
            NEXT();
        }
        if (ISW(".entry") || ISW(".func")) { if (parse_function(P, is_extern)) return -1; continue; }
        if (ISW(".global")) { NEXT(); if (module_var(P, WS_S_GLOBAL)) return -1; continue; }
        if (ISW(".const")) { NEXT(); if (module_var(P, WS_S_CONST)) return -1; continue; }
        if (ISW(".shared")) { NEXT(); if (shared_var(P, 0)) return -1; continue; }
        if (ISW(".alias") || ISW(".pragma")) { while (!IS(';')) NEXT(); NEXT(); continue; }
        perr(P, TOK->line, "unexpected '%.*s' at module level", TOK->len, TOK->p);
        return -1;
    }
    return P->failed ? -1 : 0;
}

/* Release a module's memory. */
static void module_free(ws_module *m)
{
    if (!m) return;
    for (int i = 0; i < m->nfuncs; i++) {
        ws_func *f = &m->funcs[i];
        for (int k = 0; k < f->ncode; k++) {
            if (f->code[k].call) { free(f->code[k].call->args); free(f->code[k].call); }
        }
        free(f->name); free(f->code); free(f->const_val); free(f->param_off); free(f->param_size);
    }
    for (int i = 0; i < m->nsyms; i++) free(m->syms[i].name);
    for (int i = 0; i < m->nfiles; i++) free(m->files[i]);
    free(m->files); free(m->funcs); free(m->syms); free(m->kernels); free(m->origin);
    free(m);
}

/* Parse and decode a PTX text into a module of gpu g. */
ws_module *ws_ptx_parse(ws_gpu *g, const char *ptx, size_t len, const char *origin, char *err, size_t errlen)
{
    parser *P = calloc(1, sizeof *P);
    ws_module *m = calloc(1, sizeof *m);
    m->gpu = g;
    m->origin = strdup(origin ? origin : "ptx");
    P->mod = m;
    P->err = err;
    P->errlen = errlen;
    P->origin = m->origin;
    if (errlen) err[0] = 0;
    P->module_shared = prescan_shared(ptx, len);
    ws_lex_init(&P->lx, ptx, len);
    int rc = parse_module(P);
    if (!rc) {
        m->shared_module_bytes = P->module_shared;
        for (int i = 0; i < m->nfuncs; i++) {
            ws_func *f = &m->funcs[i];
            f->files = m->files;
            if (f->is_entry && f->decoded) {
                stack_need(m, i, 0);
                m->kernels = realloc(m->kernels, sizeof *m->kernels * (size_t)(m->nkernels + 1));
                ws_kernel *k = &m->kernels[m->nkernels++];
                memset(k, 0, sizeof *k);
                k->mod = m;
                k->func = i;
                k->dyn_align = 16;
            }
        }
        /* special-register slots the module uses (warps initialise only those); ids always, for reports */
        m->sreg_used = (1u << WS_SR_TID_X) | (1u << WS_SR_TID_Y) | (1u << WS_SR_TID_Z) | (1u << WS_SR_CTAID_X) |
                       (1u << WS_SR_CTAID_Y) | (1u << WS_SR_CTAID_Z) | (1u << WS_SR_SINK) | (1u << WS_SR_CARRY);
        for (int i = 0; i < m->nfuncs; i++)
            for (int c = 0; c < m->funcs[i].ncode; c++) {
                const ws_insn *in = &m->funcs[i].code[c];
                for (int k = 0; k < 5; k++) if (in->s[k] >= 0 && in->s[k] < WS_SR_COUNT) m->sreg_used |= 1u << in->s[k];
                for (int k = 0; k < 4; k++) if (in->d[k] >= 0 && in->d[k] < WS_SR_COUNT) m->sreg_used |= 1u << in->d[k];
                if (in->base >= 0 && in->base < WS_SR_COUNT) m->sreg_used |= 1u << in->base;
            }
        size_t dyn_align = 16;
        for (int i = 0; i < m->nsyms; i++)
            if (m->syms[i].is_extern_shared && (size_t)m->syms[i].align > dyn_align) dyn_align = (size_t)m->syms[i].align;
        /* dynamic shared memory starts at one offset for the whole module, after every kernel's static data */
        m->dyn_base = align_up(P->module_shared + P->max_func_shared, dyn_align);
        for (int k = 0; k < m->nkernels; k++) m->kernels[k].dyn_align = dyn_align;
        for (int i = 0; i < m->nfuncs; i++) {
            ws_func *f = &m->funcs[i];
            for (int c = 0; c < f->nconst; c++)
                if ((f->const_val[c] & 0xFFFF000000000000ull) == WS_DYN_MARK)
                    f->const_val[c] = m->dyn_base + (f->const_val[c] & 0xFFFFFFFFFFFFull);
            for (int c = 0; c < f->ncode; c++)
                if (f->code[c].flags & WS_F_SYMOPND) { f->code[c].imm += (int64_t)m->dyn_base; f->code[c].flags &= ~WS_F_SYMOPND; }
        }
    }
    hmap_free(&P->gsyms); hmap_free(&P->funcs); hmap_free(&P->names); hmap_free(&P->labels); hmap_free(&P->tables);
    for (int i = 0; i < P->nshadows; i++) free(P->shadows[i].name);
    for (int i = 0; i < P->nfix; i++) free(P->fix[i].label);
    free(P->shadows); free(P->scope_marks); free(P->fix); free(P->code); free(P->consts);
    free(P->tables_v); free(P->tables_n);
    free(P);
    if (rc) { module_free(m); return NULL; }
    return m;
}

/* Free a module (used by the GPU on destruction). */
void ws_ptx_free(ws_module *m) { module_free(m); }
