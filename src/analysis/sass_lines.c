/* sass_lines.c - SASS instructions per PTX line, from a cubin's .nv_debug_line_sass (see sass_lines.h). */
#include "sass_lines.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of one SASS instruction (sm_70 and later). */
#define SASS_INSN_BYTES 16
/* Opcodes (the low 12 bits of an instruction, sm_70 and later) of the padding ptxas puts after a function's last
 * instruction: a branch to itself, then NOPs up to the section's alignment; never executed. */
#define SASS_OP_MASK 0xfffu
#define SASS_OP_NOP 0x918u
#define SASS_OP_BRA 0x947u
/* Other control opcodes (sm_70 and later) the SASS blocks are cut by or that are no anchors (sass_lines.h):
 * BSYNC and BSSY (convergence barriers), WARPSYNC (both its forms), BRX (indirect branch), EXIT, RET. */
#define SASS_OP_BSYNC 0x941u
#define SASS_OP_BSSY 0x945u
#define SASS_OP_WARPSYNC 0x948u
#define SASS_OP_WARPSYNC_R 0x348u
#define SASS_OP_BRX 0x949u
#define SASS_OP_EXIT 0x94du
#define SASS_OP_RET 0x950u
/* An instruction's guard predicate: bits 12-15 (a predicate register, bit 15 negating it); PT, always true. */
#define SASS_PRED_SHIFT 12
#define SASS_PRED_MASK 0xfu
#define SASS_PRED_TRUE 0x7u
/* A direct BRA's target, relative to the next instruction: its bits 2-9 in bits 16-23 of the instruction's low
 * word, its bits 10 and up (signed, 48 bits) in bits 34-81 of the instruction (checked against nvdisasm on every
 * branch of tests/data/h200's programs). */
#define SASS_BRA_LO_SHIFT 16
#define SASS_BRA_LO_MASK 0xffu
#define SASS_BRA_LO_SCALE 4
#define SASS_BRA_HI_SHIFT 34
#define SASS_BRA_HI_BITS 48
#define SASS_BRA_HI_SCALE 1024
/* The deepest loop nesting recorded. */
#define SASS_MAX_DEPTH 255
/* The DWARF 2 line-number program's opcodes used here (DWARF 2, section 6.2.5). */
enum { DW_LNS_COPY = 1, DW_LNS_ADVANCE_PC, DW_LNS_ADVANCE_LINE, DW_LNS_SET_FILE, DW_LNS_SET_COLUMN,
       DW_LNS_NEGATE_STMT, DW_LNS_SET_BASIC_BLOCK, DW_LNS_CONST_ADD_PC, DW_LNS_FIXED_ADVANCE_PC };
enum { DW_LNE_END_SEQUENCE = 1, DW_LNE_SET_ADDRESS = 2 };

/* A cubin's sections as read here. */
typedef struct {
    const uint8_t *img;
    size_t size;
    const Elf64_Shdr *sh;
    unsigned shnum;
    const char *shstr;
    size_t shstr_size;
} cubin;

/* One row of the line program: the SASS at addr (until the next row's) came from PTX line line. */
typedef struct { uint64_t addr; uint32_t line; } row;

/* Read an unsigned LEB128 number at *p (below end). */
static uint64_t uleb(const uint8_t **p, const uint8_t *end)
{
    uint64_t r = 0;
    for (unsigned s = 0; *p < end && s < 64; s += 7) {
        uint8_t b = *(*p)++;
        r |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80)) break;
    }
    return r;
}

/* Read a signed LEB128 number at *p (below end). */
static int64_t sleb(const uint8_t **p, const uint8_t *end)
{
    uint64_t r = 0;
    unsigned s = 0;
    uint8_t b = 0;
    while (*p < end && s < 64) {
        b = *(*p)++;
        r |= (uint64_t)(b & 0x7f) << s;
        s += 7;
        if (!(b & 0x80)) break;
    }
    if (s < 64 && (b & 0x40)) r |= ~0ull << s;
    return (int64_t)r;
}

/* Section i's name ("" when out of range). */
static const char *sec_name(const cubin *c, unsigned i)
{
    if (i >= c->shnum || c->sh[i].sh_name >= c->shstr_size) return "";
    return c->shstr + c->sh[i].sh_name;
}

/* Section i's bytes, or NULL when they lie outside the image. */
static const uint8_t *sec_data(const cubin *c, unsigned i)
{
    if (i >= c->shnum || c->sh[i].sh_type == SHT_NOBITS) return NULL;
    if (c->sh[i].sh_offset > c->size || c->sh[i].sh_size > c->size - c->sh[i].sh_offset) return NULL;
    return c->img + c->sh[i].sh_offset;
}

/* The function whose code a relocation at offset off of the line section (relocated by section rel) points at:
 * its name, from the symbol's section (.text.NAME), whose index goes to *text; NULL when none. */
static const char *reloc_function(const cubin *c, unsigned rel, uint64_t off, unsigned *text)
{
    const Elf64_Rela *r = (const Elf64_Rela *)sec_data(c, rel);
    unsigned symsec = c->sh[rel].sh_link;
    const Elf64_Sym *syms = (const Elf64_Sym *)sec_data(c, symsec);
    if (!r || !syms || c->sh[rel].sh_entsize != sizeof *r) return NULL;
    size_t nr = c->sh[rel].sh_size / sizeof *r, ns = c->sh[symsec].sh_size / sizeof *syms;
    for (size_t i = 0; i < nr; i++) {
        if (r[i].r_offset != off) continue;
        size_t s = ELF64_R_SYM(r[i].r_info);
        if (s >= ns) return NULL;
        const char *nm = sec_name(c, syms[s].st_shndx);
        *text = syms[s].st_shndx;
        return strncmp(nm, ".text.", 6) ? NULL : nm + 6;
    }
    return NULL;
}

/* Add count SASS instructions of PTX line line to fn (kept sorted by line). */
static int fn_add(ws_sass_fn *fn, uint32_t line, uint32_t count)
{
    int lo = 0, hi = fn->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (fn->line[mid] < line) lo = mid + 1;
        else hi = mid;
    }
    if (lo < fn->n && fn->line[lo] == line) {
        fn->count[lo] += count;
    } else {
        uint32_t *nl = realloc(fn->line, sizeof *nl * (size_t)(fn->n + 1));
        if (!nl) return -1;
        fn->line = nl;
        uint32_t *nc = realloc(fn->count, sizeof *nc * (size_t)(fn->n + 1));
        if (!nc) return -1;
        fn->count = nc;
        memmove(fn->line + lo + 1, fn->line + lo, sizeof *nl * (size_t)(fn->n - lo));
        memmove(fn->count + lo + 1, fn->count + lo, sizeof *nc * (size_t)(fn->n - lo));
        fn->line[lo] = line;
        fn->count[lo] = count;
        fn->n++;
    }
    fn->total += count;
    return 0;
}

/* The table of function name, added to *fns when new; NULL when out of memory. */
static ws_sass_fn *fn_get(ws_sass_fn **fns, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp((*fns)[i].name, name)) return &(*fns)[i];
    ws_sass_fn *nf = realloc(*fns, sizeof *nf * (size_t)(*n + 1));
    if (!nf) return NULL;
    *fns = nf;
    ws_sass_fn *f = &nf[(*n)++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    return f;
}

/* The end (bytes) of the code of text section i that can run: before the trailing NOPs and the branch to itself
 * ahead of them. */
static uint64_t live_end(const cubin *c, unsigned i)
{
    const uint8_t *d = sec_data(c, i);
    uint64_t end = d ? c->sh[i].sh_size / SASS_INSN_BYTES * SASS_INSN_BYTES : 0;
    int bra = 0;
    while (end >= SASS_INSN_BYTES) {
        uint64_t lo;
        memcpy(&lo, d + end - SASS_INSN_BYTES, 8);
        unsigned op = (unsigned)(lo & SASS_OP_MASK);
        if (op == SASS_OP_NOP && !bra) end -= SASS_INSN_BYTES;
        else if (op == SASS_OP_BRA && !bra) { end -= SASS_INSN_BYTES; bra = 1; }
        else break;
    }
    return end;
}

/* The low and high words of instruction i of code d. */
static void insn_words(const uint8_t *d, int i, uint64_t *lo, uint64_t *hi)
{
    memcpy(lo, d + (size_t)i * SASS_INSN_BYTES, 8);
    memcpy(hi, d + (size_t)i * SASS_INSN_BYTES + 8, 8);
}

/* The instruction a direct branch at instruction i (words lo, hi) goes to. */
static int64_t bra_target(int i, uint64_t lo, uint64_t hi)
{
    uint64_t h = (lo >> SASS_BRA_HI_SHIFT) | (hi << (64 - SASS_BRA_HI_SHIFT));
    h &= (1ull << SASS_BRA_HI_BITS) - 1;
    int64_t hs = (h >> (SASS_BRA_HI_BITS - 1)) ? (int64_t)(h - (1ull << SASS_BRA_HI_BITS)) : (int64_t)h;
    int64_t off = hs * SASS_BRA_HI_SCALE + (int64_t)((lo >> SASS_BRA_LO_SHIFT) & SASS_BRA_LO_MASK) * SASS_BRA_LO_SCALE;
    return i + 1 + off / SASS_INSN_BYTES;
}

/* The ni live instructions of code d in address order into f (sass_lines.h): their lines from the rows, their
 * blocks, anchors and loop depths from their control flow; -1 when out of memory. */
static int fn_insns(ws_sass_fn *f, const uint8_t *d, int ni, const row *rows, int nrows)
{
    f->iline = calloc((size_t)ni, sizeof *f->iline);
    f->iblock = calloc((size_t)ni, sizeof *f->iblock);
    f->ianchor = calloc((size_t)ni, 1);
    f->idepth = calloc((size_t)ni, 1);
    uint8_t *lead = calloc((size_t)ni + 1, 1);
    int *depth = calloc((size_t)ni + 1, sizeof *depth);
    if (!f->iline || !f->iblock || !f->ianchor || !f->idepth || !lead || !depth) { free(lead); free(depth); return -1; }
    uint64_t live = (uint64_t)ni * SASS_INSN_BYTES;
    for (int r = 0; r + 1 < nrows; r++) {
        uint64_t end = rows[r + 1].addr < live ? rows[r + 1].addr : live;
        for (uint64_t a = rows[r].addr; a < end; a += SASS_INSN_BYTES) f->iline[a / SASS_INSN_BYTES] = rows[r].line;
    }
    lead[0] = 1;
    for (int i = 0; i < ni; i++) {
        uint64_t lo, hi;
        insn_words(d, i, &lo, &hi);
        unsigned op = (unsigned)(lo & SASS_OP_MASK), pred = (unsigned)(lo >> SASS_PRED_SHIFT) & SASS_PRED_MASK;
        int branch = op == SASS_OP_BRA || op == SASS_OP_BRX || op == SASS_OP_EXIT || op == SASS_OP_RET;
        int barrier = op == SASS_OP_BSYNC || op == SASS_OP_BSSY || op == SASS_OP_WARPSYNC ||
                      op == SASS_OP_WARPSYNC_R || op == SASS_OP_NOP;
        f->ianchor[i] = (uint8_t)(branch || (pred == SASS_PRED_TRUE && !barrier));
        if (branch) lead[i + 1] = 1;
        if (op == SASS_OP_BRA) {
            int64_t t = bra_target(i, lo, hi);
            if (t >= 0 && t < ni) {
                lead[t] = 1;
                if (t <= i) { depth[t]++; depth[i + 1]--; }   /* a backward branch: a loop from t to i */
            }
        }
    }
    int blk = -1, dep = 0;
    for (int i = 0; i < ni; i++) {
        dep += depth[i];
        if (lead[i]) blk++;
        f->iblock[i] = (uint32_t)blk;
        f->idepth[i] = (uint8_t)(dep < 0 ? 0 : dep > SASS_MAX_DEPTH ? SASS_MAX_DEPTH : dep);
    }
    for (int i = 1; i < ni; i++)   /* a block's depth is its first instruction's */
        if (f->iblock[i] == f->iblock[i - 1]) f->idepth[i] = f->idepth[i - 1];
    free(lead);
    free(depth);
    f->ni = ni;
    return 0;
}

/* Count one sequence's rows (sorted by address, the last one its end) of the function in text section text into
 * the function's table, its padding left out; the first sequence of a function that starts at its start also
 * gives its instructions in address order. */
static int sequence_done(const cubin *c, ws_sass_fn **fns, int *nfns, const char *name, unsigned text, row *rows,
                         int nrows)
{
    if (!name || nrows < 2) return 0;
    ws_sass_fn *f = fn_get(fns, nfns, name);
    if (!f) return -1;
    uint64_t live = live_end(c, text);
    int first = f->n == 0;
    for (int i = 0; i + 1 < nrows; i++) {
        uint64_t a = rows[i].addr, b = rows[i + 1].addr < live ? rows[i + 1].addr : live;
        if (b > a && fn_add(f, rows[i].line, (uint32_t)((b - a) / SASS_INSN_BYTES)) != 0) return -1;
    }
    const uint8_t *d = sec_data(c, text);
    if (first && d && rows[0].addr == 0 && live >= SASS_INSN_BYTES)
        return fn_insns(f, d, (int)(live / SASS_INSN_BYTES), rows, nrows);
    return 0;
}

/* Run one line-number program unit (at p, below end; the section's start is base, relocated by section rel). */
static int line_unit(const cubin *c, unsigned rel, const uint8_t *base, const uint8_t *p, const uint8_t *end,
                     ws_sass_fn **fns, int *nfns)
{
    if (end - p < 15) return -1;
    uint32_t header_len;
    memcpy(&header_len, p + 6, 4);
    uint8_t min_insn = p[10], line_range = p[13], opcode_base = p[14];
    int8_t line_base = (int8_t)p[12];
    const uint8_t *std_len = p + 15, *prog = p + 10 + header_len;
    if (!line_range || !opcode_base || prog > end || std_len + opcode_base - 1 > end) return -1;
    uint64_t addr = 0;
    int64_t line = 1;
    const char *name = NULL;
    unsigned text = 0;
    int nrows = 0, cap = 0, rc = 0;
    row *rows = NULL;
    for (const uint8_t *q = prog; q < end && rc == 0;) {
        uint8_t op = *q++;
        int emit = 0;
        if (op >= opcode_base) {
            unsigned adj = op - opcode_base;
            addr += (uint64_t)(adj / line_range) * min_insn;
            line += line_base + (int)(adj % line_range);
            emit = 1;
        } else if (op == 0) {
            uint64_t n = uleb(&q, end);
            if (!n || n > (uint64_t)(end - q)) break;
            const uint8_t *args = q + 1;
            if (*q == DW_LNE_END_SEQUENCE) {
                emit = 2;
            } else if (*q == DW_LNE_SET_ADDRESS && n == 9) {
                memcpy(&addr, args, 8);   /* relative to the function's section, which the relocation names */
                name = reloc_function(c, rel, (uint64_t)(args - base), &text);
            }
            q += n;
        } else if (op == DW_LNS_COPY) {
            emit = 1;
        } else if (op == DW_LNS_ADVANCE_PC) {
            addr += uleb(&q, end) * min_insn;
        } else if (op == DW_LNS_ADVANCE_LINE) {
            line += sleb(&q, end);
        } else if (op == DW_LNS_CONST_ADD_PC) {
            addr += (uint64_t)((255 - opcode_base) / line_range) * min_insn;
        } else if (op == DW_LNS_FIXED_ADVANCE_PC) {
            if (end - q < 2) break;
            addr += (uint64_t)(q[0] | q[1] << 8);
            q += 2;
        } else if (op == DW_LNS_NEGATE_STMT || op == DW_LNS_SET_BASIC_BLOCK) {
        } else {   /* DW_LNS_SET_FILE, DW_LNS_SET_COLUMN and unknown standard opcodes: their operands skipped */
            for (unsigned k = 0; k < std_len[op - 1]; k++) uleb(&q, end);
        }
        if (!emit) continue;
        if (nrows == cap) {
            cap = cap ? cap * 2 : 256;
            row *nr = realloc(rows, sizeof *nr * (size_t)cap);
            if (!nr) { rc = -1; break; }
            rows = nr;
        }
        rows[nrows++] = (row){ addr, line > 0 ? (uint32_t)line : 0 };
        if (emit == 2) {
            rc = sequence_done(c, fns, nfns, name, text, rows, nrows);
            nrows = 0;
            addr = 0;
            line = 1;
            name = NULL;
        }
    }
    free(rows);
    return rc;
}

/* The SASS line tables of a cubin. */
int ws_sass_from_cubin(const void *elf, size_t size, ws_sass_fn **fns, int *nfns, char *err, size_t errlen)
{
    *fns = NULL;
    *nfns = 0;
    cubin c = { elf, size, NULL, 0, NULL, 0 };
    const Elf64_Ehdr *eh = elf;
    if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size ||
        (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size - eh->e_shoff || eh->e_shstrndx >= eh->e_shnum) {
        snprintf(err, errlen, "not a 64-bit ELF cubin");
        return -1;
    }
    c.sh = (const Elf64_Shdr *)(c.img + eh->e_shoff);
    c.shnum = eh->e_shnum;
    c.shstr = (const char *)sec_data(&c, eh->e_shstrndx);
    c.shstr_size = c.shstr ? c.sh[eh->e_shstrndx].sh_size : 0;
    unsigned lines = 0, rel = 0;
    for (unsigned i = 1; i < c.shnum; i++)
        if (!strcmp(sec_name(&c, i), ".nv_debug_line_sass")) lines = i;
    for (unsigned i = 1; lines && i < c.shnum; i++)
        if (c.sh[i].sh_type == SHT_RELA && c.sh[i].sh_info == lines) rel = i;
    const uint8_t *d = lines ? sec_data(&c, lines) : NULL;
    if (!d || !rel) {
        snprintf(err, errlen, "the cubin has no SASS line table (.nv_debug_line_sass; ptxas -lineinfo makes one)");
        return -1;
    }
    const uint8_t *end = d + c.sh[lines].sh_size;
    for (const uint8_t *p = d; end - p >= 4;) {
        uint32_t len;
        memcpy(&len, p, 4);
        if (len > (uint64_t)(end - p - 4)) break;
        if (line_unit(&c, rel, d, p, p + 4 + len, fns, nfns) != 0) {
            ws_sass_free(*fns, *nfns);
            *fns = NULL;
            *nfns = 0;
            snprintf(err, errlen, "the cubin's SASS line table cannot be read");
            return -1;
        }
        p += 4 + len;
    }
    return 0;
}

/* Append the tables as text lines. */
int ws_sass_format(const ws_sass_fn *fns, int nfns, char **buf, size_t *len)
{
    for (int i = 0; i < nfns; i++) {
        size_t need = strlen(fns[i].name) + 64 + (size_t)fns[i].n * 24;
        char *nb = realloc(*buf, *len + need + 1);
        if (!nb) return -1;
        *buf = nb;
        size_t at = *len;
        at += (size_t)snprintf(nb + at, need, "warpsim-sass %s %u", fns[i].name, fns[i].total);
        for (int k = 0; k < fns[i].n; k++)
            at += (size_t)snprintf(nb + at, need - (at - *len), " %u:%u", fns[i].line[k], fns[i].count[k]);
        if (fns[i].ni > 0) {
            size_t more = (size_t)fns[i].ni * 28 + 8;
            nb = realloc(*buf, *len + need + more + 1);
            if (!nb) return -1;
            *buf = nb;
            need += more;
            at += (size_t)snprintf(nb + at, need - (at - *len), " |");
            for (int k = 0; k < fns[i].ni; k++) {
                if (!k || fns[i].iblock[k] != fns[i].iblock[k - 1])
                    at += (size_t)snprintf(nb + at, need - (at - *len), " b%u", fns[i].idepth[k]);
                at += (size_t)snprintf(nb + at, need - (at - *len), " %u%s", fns[i].iline[k],
                                       fns[i].ianchor[k] ? "" : "p");
            }
        }
        nb[at++] = '\n';
        nb[at] = 0;
        *len = at;
    }
    return 0;
}

/* Parse one table line. */
int ws_sass_parse(const char *line, ws_sass_fn *fn)
{
    memset(fn, 0, sizeof *fn);
    const char *p = line;
    if (strncmp(p, "warpsim-sass ", 13)) return -1;
    p += 13;
    const char *sp = strchr(p, ' ');
    if (!sp || (size_t)(sp - p) >= sizeof fn->name) return -1;
    memcpy(fn->name, p, (size_t)(sp - p));
    fn->name[sp - p] = 0;
    p = sp + 1;
    char *e;
    unsigned long total = strtoul(p, &e, 10);
    if (e == p) return -1;
    p = e;
    while (*p == ' ') {
        unsigned long l = strtoul(p + 1, &e, 10);
        if (*e != ':') break;
        unsigned long n = strtoul(e + 1, &e, 10);
        if (fn_add(fn, (uint32_t)l, (uint32_t)n) != 0) {
            free(fn->line);
            free(fn->count);
            memset(fn, 0, sizeof *fn);
            return -1;
        }
        p = e;
    }
    fn->total = (uint32_t)total;
    if (strncmp(p, " |", 2)) return 0;
    p += 2;
    int cap = 0, blk = -1;
    unsigned dep = 0;
    while (*p == ' ') {
        p++;
        if (*p == 'b') {
            dep = (unsigned)strtoul(p + 1, &e, 10);
            if (e == p + 1) break;
            blk++;
            p = e;
            continue;
        }
        unsigned long l = strtoul(p, &e, 10);
        if (e == p || blk < 0) break;
        int anchor = *e != 'p';
        p = anchor ? e : e + 1;
        if (fn->ni == cap) {
            cap = cap ? cap * 2 : 256;
            uint32_t *a = realloc(fn->iline, sizeof *a * (size_t)cap);
            if (a) fn->iline = a;
            uint32_t *b = realloc(fn->iblock, sizeof *b * (size_t)cap);
            if (b) fn->iblock = b;
            uint8_t *c = realloc(fn->ianchor, (size_t)cap);
            if (c) fn->ianchor = c;
            uint8_t *dd = realloc(fn->idepth, (size_t)cap);
            if (dd) fn->idepth = dd;
            if (!a || !b || !c || !dd) { fn->ni = 0; return 0; }
        }
        fn->iline[fn->ni] = (uint32_t)l;
        fn->iblock[fn->ni] = (uint32_t)blk;
        fn->ianchor[fn->ni] = (uint8_t)anchor;
        fn->idepth[fn->ni] = (uint8_t)(dep > SASS_MAX_DEPTH ? SASS_MAX_DEPTH : dep);
        fn->ni++;
    }
    if (*p) fn->ni = 0;   /* not read to its end: no instruction order */
    return 0;
}

/* Free the tables. */
void ws_sass_free(ws_sass_fn *fns, int nfns)
{
    for (int i = 0; fns && i < nfns; i++) {
        free(fns[i].line);
        free(fns[i].count);
        free(fns[i].iline);
        free(fns[i].iblock);
        free(fns[i].ianchor);
        free(fns[i].idepth);
    }
    free(fns);
}
