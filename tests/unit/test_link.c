/* test_link.c - unit test of device linking (src/ptx/link.c, ws_module_load_units): two hand-written PTX units, one
 * calling the other's function through .extern, writing its .extern variable and its own private table whose name
 * the other unit uses too, run on a GPU; a weak definition replaced by a strong one; and the errors that name the
 * symbol: an unresolved function, an unresolved variable (also in a unit loaded alone), a symbol defined twice, an
 * unsupported device-runtime function. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "device/device.h"
#include "ptx/link.h"
#include "ptx/parse.h"

static int failures;

/* Report one check. */
static void check(int ok, const char *what, const char *detail)
{
    printf("%s  %s%s%s\n", ok ? "ok  " : "FAIL", what, detail && *detail ? ": " : "", detail ? detail : "");
    if (!ok) failures++;
}

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

/* unit A: k(out) stores add1(tab[1]) to out[0], twice() of it (a weak copy here) to out[1], and add1(1) called
 * through this unit's pointer table to out[2]; it bumps B's counter */
static const char UNIT_A[] = HEAD
    ".extern .func (.param .b32 func_retval0) add1(.param .b32 add1_param_0);\n"
    ".extern .global .align 4 .u32 counter;\n"
    ".global .align 4 .u32 tab[2] = {10, 20};\n"
    ".global .align 8 .u64 fptab[1] = {add1};\n"
    ".weak .func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)\n"
    "{\n .reg .b32 %r<3>;\n ld.param.u32 %r1, [twice_param_0];\n add.u32 %r2, %r1, %r1;\n"
    " st.param.b32 [func_retval0+0], %r2;\n ret;\n}\n"
    ".visible .entry k(.param .u64 k_param_0)\n"
    "{\n .reg .b32 %r<6>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [k_param_0];\n cvta.to.global.u64 %rd2, %rd1;\n"
    " ld.global.u32 %r1, [tab+4];\n"
    " { .param .b32 p0;\n st.param.b32 [p0+0], %r1;\n .param .b32 rv;\n call.uni (rv), add1, (p0);\n"
    " ld.param.b32 %r2, [rv+0];\n }\n"
    " st.global.u32 [%rd2], %r2;\n"
    " { .param .b32 q0;\n st.param.b32 [q0+0], %r2;\n .param .b32 qv;\n call.uni (qv), twice, (q0);\n"
    " ld.param.b32 %r4, [qv+0];\n }\n"
    " st.global.u32 [%rd2+4], %r4;\n"
    " ld.global.u64 %rd3, [fptab];\n"
    " { .param .b32 f0;\n st.param.b32 [f0+0], 1;\n .param .b32 fv;\n"
    " prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    " call (fv), %rd3, (f0), prototype_0;\n ld.param.b32 %r5, [fv+0];\n }\n"
    " st.global.u32 [%rd2+8], %r5;\n"
    " atom.global.add.u32 %r3, [counter], 5;\n"
    " ret;\n}\n";

/* unit B: add1 (reads its own tab), the counter, and the strong twice (x * 3, so the test sees which one ran) */
static const char UNIT_B[] = HEAD
    ".visible .global .align 4 .u32 counter = 7;\n"
    ".global .align 4 .u32 tab[2] = {1000, 2000};\n"
    ".visible .func (.param .b32 func_retval0) add1(.param .b32 add1_param_0)\n"
    "{\n .reg .b32 %r<4>;\n ld.param.u32 %r1, [add1_param_0];\n ld.global.u32 %r3, [tab];\n"
    " add.u32 %r2, %r1, %r3;\n st.param.b32 [func_retval0+0], %r2;\n ret;\n}\n"
    ".visible .func (.param .b32 func_retval0) twice(.param .b32 twice_param_0)\n"
    "{\n .reg .b32 %r<3>;\n ld.param.u32 %r1, [twice_param_0];\n mul.lo.u32 %r2, %r1, 3;\n"
    " st.param.b32 [func_retval0+0], %r2;\n ret;\n}\n";

/* a second definition of counter */
static const char UNIT_DUP[] = HEAD ".visible .global .align 4 .u32 counter;\n";

/* a unit calling cudaDeviceSynchronize on the device */
static const char UNIT_SYNC[] = HEAD
    ".extern .func (.param .b32 func_retval0) cudaDeviceSynchronize();\n"
    ".visible .entry s()\n{\n .reg .b32 %r<2>;\n { .param .b32 rv;\n call.uni (rv), cudaDeviceSynchronize, ();\n"
    " ld.param.b32 %r1, [rv+0];\n }\n ret;\n}\n";

/* Load units texts[0..n) on g; the module or NULL with err. */
static ws_module *load(ws_gpu *g, const char *const *texts, int n, char *err, size_t errlen)
{
    size_t lens[4];
    const char *names[4] = { "a.ptx", "b.ptx", "c.ptx", "d.ptx" };
    for (int i = 0; i < n; i++) lens[i] = strlen(texts[i]);
    return ws_module_load_units(g, texts, lens, names, n, "linked", err, errlen);
}

int main(void)
{
    char err[1024] = "";
    const ws_device *d = ws_device_get("h200", err, sizeof err);
    if (!d) { printf("FAIL  load preset h200: %s\n", err); return 1; }
    ws_options opt;
    memset(&opt, 0, sizeof opt);
    ws_gpu *g = ws_gpu_create(d, &opt);

    const char *ab[] = { UNIT_A, UNIT_B };
    ws_module *m = load(g, ab, 2, err, sizeof err);
    check(m != NULL, "two units link", err);
    if (m) {
        ws_kernel *k = ws_module_kernel(m, "k");
        uint64_t out = 0, caddr = 0;
        ws_malloc(g, 16, &out);
        void *args[] = { &out };
        ws_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, 0, 0, 0, { 0, 0, 0 } };
        ws_launch_stats st;
        int rc = k ? ws_launch(g, k, &cfg, args, &st) : -1;
        check(rc == 0, "the linked kernel runs", rc ? st.error : "");
        uint32_t r[3] = { 0, 0, 0 }, counter = 0;
        memcpy(r, ws_host_view(g, out, 12), 12);
        size_t csize = 0;
        int found = ws_module_global(m, "counter", &caddr, &csize) == 0;
        if (found) memcpy(&counter, ws_host_view(g, caddr, 4), 4);
        char msg[160];
        snprintf(msg, sizeof msg, "add1(A's tab[1]=20) with B's tab[0]=1000 -> %u, the strong twice -> %u", r[0], r[1]);
        check(r[0] == 1020, "an extern function reads its own unit's private table of the same name", msg);
        check(r[1] == 3060, "a weak definition yields to the strong one of another unit", msg);
        snprintf(msg, sizeof msg, "fptab[0](1) = %u", r[2]);
        check(r[2] == 1001, "a function pointer to the other unit's function, stored in this unit's table", msg);
        snprintf(msg, sizeof msg, "counter = %u (size %zu)", counter, csize);
        check(found && counter == 12 && csize == 4, "the extern variable is the other unit's definition", msg);
    }

    const char *a_only[] = { UNIT_A };
    check(load(g, a_only, 1, err, sizeof err) == NULL && strstr(err, "unresolved external function 'add1'"),
          "a unit alone: the unresolved function is named", err);
    check(ws_module_load(g, UNIT_A, strlen(UNIT_A), "a.ptx", err, sizeof err) == NULL &&
          strstr(err, "unresolved external variable 'counter'"),
          "a unit loaded without linking: the unresolved variable is named", err);
    const char *dup[] = { UNIT_A, UNIT_B, UNIT_DUP };
    check(load(g, dup, 3, err, sizeof err) == NULL && strstr(err, "multiple definition of variable 'counter'"),
          "a variable defined twice is named", err);
    check(ws_module_load(g, UNIT_SYNC, strlen(UNIT_SYNC), "s.ptx", err, sizeof err) == NULL &&
          strstr(err, "cudaDeviceSynchronize"), "cudaDeviceSynchronize on the device is a load error", err);
    ws_gpu_destroy(g);
    if (failures) { printf("%d check(s) failed\n", failures); return 1; }
    printf("PASS test_link\n");
    return 0;
}
