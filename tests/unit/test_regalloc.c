/* test_regalloc.c - register slot compaction (src/ptx/regalloc.c), checked against a liveness analysis of its own:
 * in every compacted function of the PTX below and of the golden PTX files (tests/golden), no two declared registers that can hold
 * values needed at the same time share a slot (a write against everything live after it on some path, computed
 * here from the operands as declared), an instruction's writes never share a slot with its reads, predicates share
 * only with predicates, registers read before any write keep a slot of their own, and listings still name the
 * registers as declared. The kernels' results under compaction are the test suite's CUDA programs. Run from the
 * repository root. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/parse.h"
#include "ptx/listing.h"
#include "ptx/regalloc.h"

static int fails;

/* Report a failed check. */
static void check(int ok, const char *what)
{
    if (!ok) { printf("FAIL %s\n", what); fails++; }
}

/* Slot of declared register r (an operand number as declared) of compacted f: found through any instruction that
 * names it; -1 when none does. */
static int slot_of(const ws_func *f, int r)
{
    for (int pc = 0; pc < f->ncode; pc++) {
        const int32_t *o = f->orig_ops + (size_t)pc * WS_ORIG_OPS;
        ws_insn in = f->code[pc];
        int32_t *now[WS_ORIG_OPS];
        ws_ptx_insn_regs(&in, now);
        for (int k = 0; k < WS_ORIG_OPS; k++) if (o[k] == r) return *now[k];
    }
    return -1;
}

/* Whether declared register r of f is a predicate. */
static int is_pred(const ws_func *f, int r)
{
    for (int i = 0; i < f->nregdecl; i++)
        if (r >= f->regdecl[i].first && r < f->regdecl[i].first + f->regdecl[i].count) return f->regdecl[i].kind == WS_RK_PRED;
    return 0;
}

/* out[r] = whether declared register r is live after instruction in at pc of f (live: a byte per register of each
 * instruction's live-in, nd per instruction). */
static void live_after(const ws_func *f, const ws_insn *in, int pc, const char *live, int nd, char *out)
{
    int succ[2], ns = 0, cond = in->guard >= 0, n = f->ncode;
    if (in->op == WS_OP_BRA) { succ[ns++] = in->target; if (cond && pc + 1 < n) succ[ns++] = pc + 1; }
    else if (in->iflags & WS_IF_ENDS) { if (cond && pc + 1 < n) succ[ns++] = pc + 1; }
    else if (pc + 1 < n) succ[ns++] = pc + 1;
    memset(out, 0, (size_t)nd);
    for (int k = 0; k < ns; k++) for (int r = 0; r < nd; r++) out[r] |= live[(size_t)succ[k] * nd + r];
}

/* Check compacted function f against a liveness of its own over the declared operands; returns the slots saved. */
static int verify(const ws_func *f, const char *name)
{
    int n = f->ncode, lo = WS_SR_COUNT, hi = f->orig_first_const, nd = hi - lo;
    char *live = calloc((size_t)n * (size_t)nd, 1);   /* live-in per instruction, a byte per register */
    char *out = calloc((size_t)nd, 1);
    int *slot = malloc(sizeof *slot * (size_t)(nd > 0 ? nd : 1));
    for (int r = 0; r < nd; r++) slot[r] = slot_of(f, lo + r);
    char msg[512];
    ws_insn buf;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int pc = n - 1; pc >= 0; pc--) {
            const ws_insn *in = ws_ptx_orig_insn(f, pc, &buf);
            int cond = in->guard >= 0;
            live_after(f, in, pc, live, nd, out);
            for (int k = 0; k < 4; k++) {
                int r = in->d[k] - lo;
                if (r >= 0 && r < nd && !cond && (k < in->nd || k == 1)) out[r] = 0;
            }
            for (int k = 0; k < 4; k++) {   /* a guarded or extra write keeps the old value alive */
                int r = in->d[k] - lo;
                if (r >= 0 && r < nd && (cond || !(k < in->nd || k == 1))) out[r] = 1;
            }
            for (int k = 0; k < WS_INSN_NSRC; k++) { int r = in->s[k] - lo; if (r >= 0 && r < nd) out[r] = 1; }
            int b = in->base - lo, g = in->guard - lo;
            if (b >= 0 && b < nd) out[b] = 1;
            if (g >= 0 && g < nd) out[g] = 1;
            if (memcmp(&live[(size_t)pc * nd], out, (size_t)nd)) { memcpy(&live[(size_t)pc * nd], out, (size_t)nd); changed = 1; }
        }
    }
    for (int pc = 0; pc < n; pc++) {
        const ws_insn *in = ws_ptx_orig_insn(f, pc, &buf);
        live_after(f, in, pc, live, nd, out);
        for (int k = 0; k < 4; k++) {
            int d = in->d[k] - lo;
            if (d < 0 || d >= nd) continue;
            for (int r = 0; r < nd; r++)
                if (r != d && out[r] && slot[r] == slot[d]) {
                    snprintf(msg, sizeof msg, "%s pc %d: a write of register %d lands in the slot of %d, live after it", name, pc, d + lo, r + lo);
                    check(0, msg);
                }
            const int32_t *src = in->s;
            for (int k2 = 0; k2 < WS_INSN_NSRC + 2; k2++) {
                int s = (k2 < WS_INSN_NSRC ? src[k2] : k2 == WS_INSN_NSRC ? in->base : in->guard) - lo;
                if (s >= 0 && s < nd && s != d && slot[s] == slot[d]) {
                    snprintf(msg, sizeof msg, "%s pc %d: a source and a destination share a slot", name, pc);
                    check(0, msg);
                }
            }
        }
    }
    for (int r = 0; r < nd; r++) {
        if (slot[r] < 0) continue;
        for (int q = 0; q < nd; q++) {
            if (q == r || slot[q] != slot[r]) continue;
            if (is_pred(f, lo + r) != is_pred(f, lo + q)) {
                snprintf(msg, sizeof msg, "%s: a predicate and a value register share a slot", name);
                check(0, msg);
            }
            if (live[r] || live[q]) {
                snprintf(msg, sizeof msg, "%s: register %d, read before it is written, shares its slot", name, live[r] ? r + lo : q + lo);
                check(0, msg);
            }
        }
    }
    free(live);
    free(out);
    free(slot);
    return f->orig_first_const - f->first_const;
}

/* Parse text and verify every compacted function; returns the slots saved over all (-1: parse error). */
static int verify_module(const char *text, size_t len, const char *name, int *compacted)
{
    char err[512];
    ws_ptx_module *m = ws_ptx_parse(text, len, name, err, sizeof err);
    if (!m) return -1;
    int saved = 0;
    for (int i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].orig_ops) { saved += verify(&m->funcs[i], m->funcs[i].name); (*compacted)++; }
    ws_ptx_free(m);
    return saved;
}

/* A kernel with a chain of short-lived temporaries, a value written on both sides of a divergent branch, one live
 * around a loop, predicates, and a register read before any write. */
static const char *kernel =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
    "  .reg .pred %p<4>;\n  .reg .f32 %f<24>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [n];\n  mov.u32 %r2, %tid.x;\n"
    "  cvt.rn.f32.u32 %f1, %r2;\n"
    "  fma.rn.f32 %f2, %f1, 0f3F800000, 0f3F000000;\n  fma.rn.f32 %f3, %f2, 0f3F800000, 0f3F000000;\n"
    "  fma.rn.f32 %f4, %f3, 0f3F800000, 0f3F000000;\n  fma.rn.f32 %f5, %f4, 0f3F800000, 0f3F000000;\n"
    "  fma.rn.f32 %f6, %f5, 0f3F800000, 0f3F000000;\n  fma.rn.f32 %f7, %f6, 0f3F800000, 0f3F000000;\n"
    "  fma.rn.f32 %f8, %f7, 0f3F800000, 0f3F000000;\n  fma.rn.f32 %f9, %f8, 0f3F800000, 0f3F000000;\n"
    "  and.b32 %r3, %r2, 1;\n  setp.eq.u32 %p1, %r3, 0;\n  @%p1 bra ELSE;\n"
    "  add.f32 %f10, %f9, %f1;\n  bra JOIN;\nELSE:\n  sub.f32 %f10, %f9, %f1;\nJOIN:\n"
    "  mov.u32 %r4, 0;\n  mov.f32 %f11, 0f00000000;\nLOOP:\n"
    "  add.f32 %f11, %f11, %f10;\n  add.u32 %r4, %r4, 1;\n  setp.lt.u32 %p2, %r4, %r1;\n  @%p2 bra LOOP;\n"
    "  add.f32 %f12, %f11, %f20;\n"   /* %f20: never written, live at the start */
    "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  st.global.f32 [%rd3], %f12;\n  ret;\n}\n";

/* Verify the PTX file at path (any more files to check can be named on the command line); 0 when it parses. */
static int verify_file(const char *path, const char *name, int *compacted)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return -1;
    static char text[1 << 24];
    size_t len = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[len] = 0;
    return verify_module(text, len, name, compacted) >= 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    int compacted = 0;
    int saved = verify_module(kernel, strlen(kernel), "kernel", &compacted);
    check(saved > 0 && compacted == 1, "the kernel's registers are compacted");
    char err[512];
    ws_ptx_module *m = ws_ptx_parse(kernel, strlen(kernel), "kernel", err, sizeof err);
    check(m != NULL, "the kernel parses");
    if (m) {
        const ws_func *f = &m->funcs[0];
        char msg[256];
        snprintf(msg, sizeof msg, "40 declared registers fit in at most 12 slots (%d)", f->first_const - WS_SR_COUNT);
        check(f->first_const - WS_SR_COUNT <= 12, msg);
        /* the listing names the operands as declared */
        char buf[256];
        int found = 0;
        for (int pc = 0; pc < f->ncode; pc++) {
            const char *t = ws_ptx_insn_text(m, f, pc, buf, sizeof buf);
            if (strstr(t, "%f9") && strstr(t, "%f8")) found = 1;
        }
        check(found, "the listing still names %f8 and %f9");
        ws_ptx_free(m);
    }
    /* every golden PTX file */
    DIR *d = opendir("tests/golden");
    int files = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ptx")) continue;
        char path[1024];
        snprintf(path, sizeof path, "tests/golden/%s", e->d_name);
        if (verify_file(path, e->d_name, &compacted) == 0) files++;
    }
    if (d) closedir(d);
    for (int i = 1; i < argc; i++) check(verify_file(argv[i], argv[i], &compacted) == 0, argv[i]);
    check(files > 0, "the golden PTX files are found (run from the repository root)");
    printf("%s: %d compacted functions checked (%d golden files)\n", fails ? "FAIL" : "PASS", compacted, files);
    return fails ? 1 : 0;
}
