/* sass_lines.h - how many SASS instructions ptxas made of each line of a PTX text: read from the cubin ptxas
 * writes with -lineinfo, whose .nv_debug_line_sass section (a DWARF 2 line-number program) maps every SASS
 * instruction of every function to the line of the PTX input it came from. The timing model counts (and the
 * report shows) a kernel's instructions as the hardware does from these (timing.c), where ptxas is available. */
#ifndef WS_SASS_LINES_H
#define WS_SASS_LINES_H

#include <stddef.h>
#include <stdint.h>

/* The form of the tables kept with ptxas's cached reports (a new one makes older entries misses). */
#define WS_SASS_TABLE_VERSION "sass-3"

/* One function's SASS: n (PTX line, SASS instructions) pairs in increasing line order; and its ni instructions in
 * address order (ni 0 where the code could not be read), each with its PTX line (0: none), its basic block (blocks
 * of the SASS's own control flow, numbered from 0 in address order: they begin at the function's start, at a
 * direct branch's target and after a branch or exit), whether it runs whenever its block runs (anchor: not
 * predicated, or a branch, whose guard is its condition; the convergence-barrier instructions BSSY/BSYNC and
 * WARPSYNC and NOPs, whose PTX lines ptxas picks freely, are no anchors) and its block's loop depth (how many of
 * the SASS's backward branches span it). ptxas moves code between blocks (it computes a value again inside a loop
 * where the PTX computed it once before it, hoists loop-invariant code out of loops, and makes short branches into
 * predicated code), so a SASS instruction need not run as often as its PTX line: the blocks tell. */
typedef struct ws_sass_fn {
    char name[512];             /* mangled name */
    int n;
    uint32_t *line, *count;
    uint32_t total;             /* SASS instructions in all */
    int ni;
    uint32_t *iline, *iblock;
    uint8_t *ianchor, *idepth;
} ws_sass_fn;

/* The SASS line tables of every function of a cubin (a 64-bit ELF of size bytes); 0 with *fns (malloc'd, free with
 * ws_sass_free) and *nfns, -1 with a message in err when the cubin has no usable line table. */
int ws_sass_from_cubin(const void *elf, size_t size, ws_sass_fn **fns, int *nfns, char *err, size_t errlen);
/* Append the tables as text lines "warpsim-sass NAME TOTAL LINE:COUNT ... | bDEPTH LINE LINEp ..." (the form
 * ptxas's cached report keeps them in: after the bar, the instructions in address order, each block opened by its
 * loop depth, an instruction that is no anchor marked p) to *buf (malloc'd, grown; *len its length); -1 when out
 * of memory. */
int ws_sass_format(const ws_sass_fn *fns, int nfns, char **buf, size_t *len);
/* Parse one such text line (without its newline) into fn (its arrays malloc'd); 0, or -1 when it is not one. */
int ws_sass_parse(const char *line, ws_sass_fn *fn);
/* Free the tables. */
void ws_sass_free(ws_sass_fn *fns, int nfns);

#endif
