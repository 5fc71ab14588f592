/* test_fatbin.c - unit test of the fatbin reader: LZ4 blocks, synthetic fatbins and wrappers (PTX choice),
 * and, when nvcc is installed, PTX extraction from real executables (zstd, LZ4, stored, several archs). */
// TIMEOUT: 180
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fatbin/fatbin.h"

#ifndef WS_BUILD_DIR
#define WS_BUILD_DIR "build"
#endif

static int failures;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "test_fatbin: %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                             \
        }                                                                           \
    } while (0)

/* LZ4 block decoding: literals only, an overlapping match, long lengths, and corrupt input. */
static void test_lz4(void)
{
    unsigned char out[600];
    /* "abc" then match offset 3 length 9 -> "abcabcabcabc" */
    const unsigned char b1[] = {0x35, 'a', 'b', 'c', 3, 0, 0x10, 'Z'};
    long n = ws_fatbin_lz4_decode(b1, sizeof b1, out, sizeof out);
    CHECK(n == 13 && memcmp(out, "abcabcabcabcZ", 13) == 0);
    /* one literal 'x', match offset 1 with length 15+4+255+6 = 280, then literal 'y' */
    const unsigned char b2[] = {0x1f, 'x', 1, 0, 255, 6, 0x10, 'y'};
    n = ws_fatbin_lz4_decode(b2, sizeof b2, out, sizeof out);
    CHECK(n == 282 && out[0] == 'x' && out[280] == 'x' && out[281] == 'y');
    /* 20 literals using the length extension */
    unsigned char b3[22] = {0xf0, 5};
    memcpy(b3 + 2, "01234567890123456789", 20);
    n = ws_fatbin_lz4_decode(b3, sizeof b3, out, sizeof out);
    CHECK(n == 20 && memcmp(out, "01234567890123456789", 20) == 0);
    const unsigned char bad_off[] = {0x10, 'a', 9, 0, 0x10, 'b'}; /* offset beyond output */
    CHECK(ws_fatbin_lz4_decode(bad_off, sizeof bad_off, out, sizeof out) < 0);
    CHECK(ws_fatbin_lz4_decode(b2, sizeof b2, out, 100) < 0); /* output too small */
    const unsigned char trunc[] = {0x50, 'a', 'b'};
    CHECK(ws_fatbin_lz4_decode(trunc, sizeof trunc, out, sizeof out) < 0);
}

/* Append a stored (uncompressed) PTX entry for arch to buf at *off. */
static void add_ptx_entry(unsigned char *buf, size_t *off, unsigned arch, const char *text)
{
    size_t tl = strlen(text) + 1, padded = (tl + 7) & ~(size_t)7;
    unsigned char *e = buf + *off;
    memset(e, 0, 0x40 + padded);
    e[0] = 1;                    /* kind PTX */
    e[2] = 1; e[3] = 1;          /* format version 0x0101 */
    e[4] = 0x40;                 /* header size */
    memcpy(e + 8, &(uint64_t){padded}, 8);
    e[0x1a] = 8;                 /* ISA 8.0 */
    memcpy(e + 0x1c, &(uint32_t){arch}, 4);
    e[0x28] = 0x11;
    memcpy(e + 0x40, text, tl);
    *off += 0x40 + padded;
}

/* Synthetic fatbin with PTX for sm_75, sm_90 and sm_80: the choice of entry by compute capability. */
static void test_select(void)
{
    static unsigned char buf[4096] __attribute__((aligned(8)));
    size_t off = 16;
    add_ptx_entry(buf, &off, 75, ".target sm_75\n");
    add_ptx_entry(buf, &off, 90, ".target sm_90\n");
    add_ptx_entry(buf, &off, 80, ".target sm_80\n");
    memcpy(buf, &(uint32_t){WS_FATBIN_MAGIC}, 4);
    buf[4] = 1;
    buf[6] = 16;
    memcpy(buf + 8, &(uint64_t){off - 16}, 8);
    CHECK(ws_fatbin_size(buf, sizeof buf) == off);

    ws_fatbin_entry es[8];
    int n = 0;
    char err[256] = "";
    CHECK(ws_fatbin_parse(buf, sizeof buf, es, 8, &n, err, sizeof err) == 0 && n == 3);
    CHECK(ws_fatbin_select_ptx(es, n, 90) == 1);
    CHECK(ws_fatbin_select_ptx(es, n, 89) == 2);
    CHECK(ws_fatbin_select_ptx(es, n, 75) == 0);
    CHECK(ws_fatbin_select_ptx(es, n, 61) == 0); /* none <= cc: the lowest */
    CHECK(ws_fatbin_select_ptx(es, n, 100) == 1);

    struct { int magic, version; const void *data; void *extra; } w = {(int)WS_FATBIN_WRAPPER_MAGIC, 1, buf, NULL};
    char *ptx = NULL;
    size_t len = 0;
    unsigned arch = 0;
    CHECK(ws_fatbin_ptx_from_wrapper(&w, 86, &ptx, &len, &arch, err, sizeof err) == 0);
    CHECK(ptx && arch == 80 && len == strlen(".target sm_80\n") && strcmp(ptx, ".target sm_80\n") == 0);
    free(ptx);
    w.magic = 0x1234;
    CHECK(ws_fatbin_ptx_from_wrapper(&w, 86, &ptx, &len, &arch, err, sizeof err) != 0 && strstr(err, "magic"));
    buf[6] = 0; /* broken header */
    CHECK(ws_fatbin_size(buf, sizeof buf) == 0);
}

/* Compile src with nvcc and the given flags into exe; 0 on success. */
static int nvcc_build(const char *cu, const char *exe, const char *flags)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "nvcc -cudart shared -lineinfo %s -o '%s' '%s' >/dev/null 2>&1", flags, exe, cu);
    return system(cmd) == 0 ? 0 : -1;
}

/* Extract every PTX of exe and check there are want of them, each with the kernel and targets listed. */
static void check_exe(const char *exe, int want, const char *const *targets)
{
    char **texts = NULL;
    size_t *lens = NULL;
    int count = 0;
    char err[512] = "";
    int rc = ws_fatbin_ptx_from_file(exe, &texts, &lens, &count, err, sizeof err);
    if (rc) fprintf(stderr, "test_fatbin: %s\n", err);
    CHECK(rc == 0);
    CHECK(count == want);
    for (int i = 0; i < count && i < want; i++) {
        CHECK(lens[i] == strlen(texts[i]));
        CHECK(strstr(texts[i], ".entry _Z9fb_kernelPfi") != NULL);
        CHECK(strstr(texts[i], ".version ") != NULL);
        int found = 0;
        for (int t = 0; t < want; t++)
            if (strstr(texts[i], targets[t])) found = 1;
        CHECK(found);
    }
    ws_fatbin_free_texts(texts, lens, count);
}

/* Real executables built by nvcc, when it is installed. */
static void test_nvcc(void)
{
    if (system("nvcc --version >/dev/null 2>&1") != 0) {
        printf("test_fatbin: nvcc not found, skipping the executable checks\n");
        return;
    }
    char dir[1024], cu[1100], exe[1100];
    snprintf(dir, sizeof dir, "%s/tests/fatbin-work", WS_BUILD_DIR);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    CHECK(system(cmd) == 0);
    snprintf(cu, sizeof cu, "%s/fb_prog.cu", dir);
    FILE *f = fopen(cu, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("#include <cstdio>\n"
          "__global__ void fb_kernel(float *x, int n) {\n"
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  if (i < n) x[i] = x[i] * 2.0f + 1.0f; // padding so that compression has something to do\n"
          "}\n"
          "int main() { float *d; cudaMalloc(&d, 64); fb_kernel<<<1, 16>>>(d, 16); return 0; }\n", f);
    fclose(f);

    static const char *const t75[] = {".target sm_75"};
    static const char *const t90[] = {".target sm_90"};
    static const char *const tmulti[] = {".target sm_75", ".target sm_86", ".target sm_90"};
    struct { const char *name, *flags; int want; const char *const *targets; } cases[] = {
        {"fb_zstd", "", 1, t75},
        {"fb_lz4", "--compress-mode=speed", 1, t75},
        {"fb_none", "--compress-mode=none", 1, t75},
        {"fb_sm90", "-arch=sm_90", 1, t90},
        {"fb_multi", "-gencode arch=compute_75,code=compute_75 -gencode arch=compute_86,code=[sm_86,compute_86] "
                     "-gencode arch=compute_90,code=compute_90 --compress-mode=speed", 3, tmulti},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(exe, sizeof exe, "%s/%s", dir, cases[i].name);
        if (nvcc_build(cu, exe, cases[i].flags)) {
            fprintf(stderr, "test_fatbin: nvcc failed for %s\n", cases[i].name);
            failures++;
            continue;
        }
        check_exe(exe, cases[i].want, cases[i].targets);
    }
    /* a file without device code */
    char **texts = NULL;
    size_t *lens = NULL;
    int count = 0;
    char err[512] = "";
    CHECK(ws_fatbin_ptx_from_file("/bin/sh", &texts, &lens, &count, err, sizeof err) != 0 && strstr(err, "nv_fatbin"));
    CHECK(ws_fatbin_ptx_from_file(cu, &texts, &lens, &count, err, sizeof err) != 0 && strstr(err, "ELF"));
}

/* Run every check; 0 when all pass. */
int main(void)
{
    test_lz4();
    test_select();
    test_nvcc();
    if (failures) {
        fprintf(stderr, "test_fatbin: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test_fatbin: ok\n");
    return 0;
}
