/* test_sass_lines.c - SASS instructions per PTX line from the cubin ptxas writes (src/analysis/sass_lines.c), through
 * the occupancy module's ptxas run: a kernel that only returns is at most two SASS instructions (EXIT; the
 * branch-to-self and NOPs after it are padding, left out); a straight-line kernel's SASS all lands on its own lines; the text form kept
 * in ptxas's cached report reads back the same; the SASS in address order, cut into basic blocks by its branches,
 * puts a loop's body at loop depth 1. Skips (77) without ptxas. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/occupancy.h"
#include "analysis/sass_lines.h"
#include "device/device.h"

static int g_fail, g_checks;

/* Record one check. */
static void check(int ok, const char *desc)
{
    g_checks++;
    if (!ok) g_fail++;
    printf("%s  %s\n", ok ? "PASS" : "FAIL", desc);
}

/* The table of function name, or NULL. */
static const ws_sass_fn *find(const ws_ptxas_table *t, const char *name)
{
    for (int i = 0; i < t->nsass; i++)
        if (!strcmp(t->sass[i].name, name)) return &t->sass[i];
    return NULL;
}

static const char ptx[] =
    ".version 8.0\n"                                         /* 1 */
    ".target sm_90\n"                                        /* 2 */
    ".address_size 64\n"                                     /* 3 */
    ".visible .entry only_ret()\n"                           /* 4 */
    "{\n"                                                    /* 5 */
    "\tret;\n"                                               /* 6 */
    "}\n"                                                    /* 7 */
    ".visible .entry store_tid(.param .u64 out)\n"           /* 8 */
    "{\n"                                                    /* 9 */
    "\t.reg .b32 %r<3>;\n"                                   /* 10 */
    "\t.reg .b64 %rd<5>;\n"                                  /* 11 */
    "\tld.param.u64 %rd1, [out];\n"                          /* 12 */
    "\tcvta.to.global.u64 %rd2, %rd1;\n"                     /* 13 */
    "\tmov.u32 %r1, %tid.x;\n"                               /* 14 */
    "\tmul.wide.u32 %rd3, %r1, 4;\n"                         /* 15 */
    "\tadd.s64 %rd4, %rd2, %rd3;\n"                          /* 16 */
    "\tst.global.u32 [%rd4], %r1;\n"                         /* 17 */
    "\tret;\n"                                               /* 18 */
    "}\n"                                                    /* 19 */
    ".visible .entry count_loop(.param .u64 out, .param .u32 n)\n"   /* 20 */
    "{\n"                                                    /* 21 */
    "\t.reg .pred %p<2>;\n"                                  /* 22 */
    "\t.reg .b32 %r<4>;\n"                                   /* 23 */
    "\t.reg .b64 %rd<3>;\n"                                  /* 24 */
    "\tld.param.u64 %rd1, [out];\n"                          /* 25 */
    "\tld.param.u32 %r1, [n];\n"                             /* 26 */
    "\tcvta.to.global.u64 %rd2, %rd1;\n"                     /* 27 */
    "\tmov.u32 %r2, 0;\n"                                    /* 28 */
    "$L_top:\n"                                              /* 29 */
    "\tst.volatile.global.u32 [%rd2], %r2;\n"               /* 30 */
    "\tadd.s32 %r2, %r2, 1;\n"                               /* 31 */
    "\tsetp.lt.s32 %p1, %r2, %r1;\n"                         /* 32 */
    "\t@%p1 bra $L_top;\n"                                   /* 33 */
    "\tret;\n"                                               /* 34 */
    "}\n";                                                   /* 35 */

int main(void)
{
    char err[1024], ptxas[4096];
    if (ws_occ_find_ptxas(ptxas, sizeof ptxas) != 0) {
        printf("SKIP  no ptxas\n");
        return 77;
    }
    const ws_device *d = ws_device_get("h200", err, sizeof err);
    if (!d) { printf("FAIL  h200 preset: %s\n", err); return 1; }
    const ws_ptxas_table *t = ws_occ_ptxas_table(ptx, strlen(ptx), d, err, sizeof err);
    check(t != NULL, "ptxas -lineinfo ran on the test PTX");
    if (!t) { printf("      %s\n", err); return 1; }
    const ws_sass_fn *r = find(t, "only_ret"), *s = find(t, "store_tid");
    check(r && r->total >= 1 && r->total <= 2,
          "a kernel that only returns: one or two SASS instructions (EXIT, a stack set-up; its padding left out)");
    check(r && r->n >= 1 && r->line[r->n - 1] == 6 && r->line[0] >= 5, "... on its opening brace and its ret");
    int in_body = s != NULL, sum = 0;
    for (int i = 0; s && i < s->n; i++) {
        in_body &= s->line[i] >= 9 && s->line[i] <= 18;
        sum += (int)s->count[i];
        if (i) in_body &= s->line[i] > s->line[i - 1];
    }
    check(s && s->total >= 4 && (uint32_t)sum == s->total, "the store kernel's SASS adds up to its total");
    check(in_body, "... every SASS line lies in its body, in increasing order");
    char *text = NULL;
    size_t len = 0;
    int ok = s && ws_sass_format(s, 1, &text, &len) == 0 && text && text[len - 1] == '\n';
    ws_sass_fn back;
    if (ok) {
        text[len - 1] = 0;
        ok = ws_sass_parse(text, &back) == 0 && !strcmp(back.name, s->name) && back.total == s->total &&
             back.n == s->n && !memcmp(back.line, s->line, sizeof *s->line * (size_t)s->n) &&
             !memcmp(back.count, s->count, sizeof *s->count * (size_t)s->n) && back.ni == s->ni &&
             !memcmp(back.iline, s->iline, sizeof *s->iline * (size_t)s->ni) &&
             !memcmp(back.iblock, s->iblock, sizeof *s->iblock * (size_t)s->ni) &&
             !memcmp(back.ianchor, s->ianchor, (size_t)s->ni) && !memcmp(back.idepth, s->idepth, (size_t)s->ni);
        ws_sass_fn *bk = malloc(sizeof *bk);
        if (bk) { *bk = back; ws_sass_free(bk, 1); }
    }
    check(ok, "the cached text form reads back the same table, the instructions in address order too");
    free(text);
    check(s && s->ni == (int)s->total && s->ni > 0 && s->iblock[s->ni - 1] == 0,
          "the store kernel: every SASS instruction in address order, one basic block (no branch)");
    const ws_sass_fn *c = find(t, "count_loop");
    int loop = 0, blocks = 0, outside = c && c->ni > 0, branch_anchor = 0;
    for (int i = 0; c && i < c->ni; i++) {
        if (!i || c->iblock[i] != c->iblock[i - 1]) blocks++;
        if (c->iline[i] == 30 && c->idepth[i] == 1) loop = 1;   /* ptxas unrolls it, a remainder after it */
        if (c->iline[i] == 33) branch_anchor |= c->ianchor[i];
    }
    if (outside) outside = c->idepth[0] == 0 && c->idepth[c->ni - 1] == 0;
    check(c && c->ni == (int)c->total && loop && blocks >= 2 && outside,
          "a loop: its body's SASS lies in a block of its own at loop depth 1, the function's ends at 0");
    check(branch_anchor, "... its backward branch is an anchor (it issues whenever its block does)");
    check(ws_sass_from_cubin("not an elf", 10, (ws_sass_fn **)&text, &sum, err, sizeof err) == -1,
          "a non-ELF image is refused with a message");
    printf("%d checks, %d failed\n", g_checks, g_fail);
    return g_fail ? 1 : 0;
}
