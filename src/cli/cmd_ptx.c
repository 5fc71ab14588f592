/* cmd_ptx.c - `warpsim ptx`: decode a PTX file (or the PTX inside a CUDA program) and print the decoded listing,
 * or the front end's error (file, line, opcode). The module is also linked to a device so that instruction forms
 * the executor has no handler for are reported as they would be at run time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../core/sim.h"
#include "../device/device.h"
#include "../fatbin/fatbin.h"
#include "../ptx/listing.h"
#include "../ptx/parse.h"

/* Print the usage of `warpsim ptx`. */
static void ptx_usage(FILE *f)
{
    fprintf(f,
        "usage: warpsim ptx [--gpu NAME] [--no-listing] [--layout] FILE.ptx\n"
        "Decode a PTX file as warpsim does before running it and print the decoded listing: every instruction with\n"
        "its operands, modifiers, branch targets and reconvergence points, pipe and latency class. Errors name the\n"
        "file, line and unsupported opcode or modifier; the exit status is 1 then.\n"
        "  --gpu NAME      device to link against (default %s)\n"
        "  --no-listing    only check that the file decodes and links\n"
        "  --layout        after linking: where every variable lives (device address or shared-memory offset) and\n"
        "                  each kernel's shared memory\n", WS_DEVICE_DEFAULT);
}

/* Read a whole file into a NUL-terminated buffer; NULL on failure. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[n] = 0;
    *len = n;
    return buf;
}

/* Print where a linked module's variables live and each kernel's shared memory. */
static void print_layout(ws_module *m)
{
    static const char *const space[] = { "generic", "global", "shared", "local", "const" };
    int n = ws_module_symbols(m, NULL, 0);
    ws_symbol_info *s = calloc((size_t)n + 1, sizeof *s);
    ws_module_symbols(m, s, n);
    printf("layout:\n");
    for (int i = 0; i < n; i++) {
        const char *sp = s[i].space >= 0 && s[i].space <= 4 ? space[s[i].space] : "?";
        if (s[i].space == 2)
            printf("  %-16s .shared offset %llu size %zu%s%s%s\n", s[i].name, (unsigned long long)s[i].addr, s[i].size,
                   s[i].dynamic ? " (dynamic)" : "", s[i].kernel ? " kernel " : "", s[i].kernel ? s[i].kernel : "");
        else
            printf("  %-16s .%s address 0x%llx size %zu\n", s[i].name, sp, (unsigned long long)s[i].addr, s[i].size);
    }
    free(s);
    int nk = ws_module_kernels(m, 0, NULL);
    for (int i = 0; i < nk; i++) {
        ws_kernel *k;
        ws_module_kernels(m, i, &k);
        ws_kernel_info info;
        ws_kernel_get_info(k, &info);
        printf("  kernel %s: %zu bytes of static shared memory, dynamic shared memory at offset %zu, %zu bytes of "
               "local memory per thread\n", info.name, info.static_smem, info.dyn_smem_base, info.local_bytes);
    }
}

/* warpsim ptx [--gpu NAME] [--no-listing] [--layout] FILE.ptx */
int cli_ptx(int argc, char **argv)
{
    const char *gpu = WS_DEVICE_DEFAULT, *file = NULL;
    int listing = 1, layout = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { ptx_usage(stdout); return 0; }
        if (!strcmp(argv[i], "--gpu") && i + 1 < argc) { gpu = argv[++i]; continue; }
        if (!strncmp(argv[i], "--gpu=", 6)) { gpu = argv[i] + 6; continue; }
        if (!strcmp(argv[i], "--no-listing")) { listing = 0; continue; }
        if (!strcmp(argv[i], "--layout")) { layout = 1; continue; }
        if (argv[i][0] == '-' || file) { ptx_usage(stderr); return 2; }
        file = argv[i];
    }
    if (!file) { ptx_usage(stderr); return 2; }
    size_t len = 0;
    char *text = read_file(file, &len);
    if (!text) { fprintf(stderr, "warpsim ptx: cannot read %s\n", file); return 2; }
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    char err[1024] = "";
    ws_ptx_module *m = ws_ptx_parse(text, len, base, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        free(text);
        return 1;
    }
    char *out = NULL;
    size_t outlen = 0;
    FILE *mem = open_memstream(&out, &outlen);
    if (mem) { if (listing) ws_ptx_listing(mem, m); fclose(mem); }
    ws_ptx_free(m);
    /* link against a device: every instruction form must have a handler */
    char derr[512];
    const ws_device *dev = ws_device_get(gpu, derr, sizeof derr);
    if (!dev) { fprintf(stderr, "warpsim ptx: %s\n", derr); free(out); free(text); return 2; }
    ws_gpu *g = ws_gpu_create(dev, NULL);
    int rc = 0;
    ws_module *lm = NULL;
    if (!g) { fprintf(stderr, "warpsim ptx: cannot create the simulated device\n"); rc = 2; }
    else if (!(lm = ws_module_load(g, text, len, base, err, sizeof err))) {
        fprintf(stderr, "%s\n", err);
        /* a relocatable unit (nvcc -rdc=true) alone: its listing still stands, only linking needs the other units */
        if (strstr(err, "unresolved external") && !layout) {
            if (out) fwrite(out, 1, outlen, stdout);
            fprintf(stderr, "warpsim ptx: note: %s is relocatable device code; its .extern symbols are defined by "
                    "the program's other units\n", base);
        } else rc = 1;
    }
    else {
        if (out) fwrite(out, 1, outlen, stdout);
        if (layout) print_layout(lm);
    }
    ws_gpu_destroy(g);
    free(out);
    free(text);
    return rc;
}
