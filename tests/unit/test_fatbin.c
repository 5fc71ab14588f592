/* test_fatbin.c - unit test of the fatbin reader: LZ4 blocks, synthetic fatbins with compressed entries and
 * inconsistent sizes, wrappers (PTX choice), the fuzz regression inputs, and, when nvcc is installed, PTX
 * extraction from real executables and fatbins in every compression mode (zstd, LZ4, stored, -compress-all). */
// TIMEOUT: 180
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lz4.h>
#include <zstd.h>

#include <dirent.h>

#include "fatbin/fatbin.h"
#include "../fuzz/fuzz_fatbin.c" /* LLVMFuzzerTestOneInput: the fuzz harness, replayed here on saved inputs */

#ifndef WS_BUILD_DIR
#define WS_BUILD_DIR "build"
#endif
#ifndef WS_SOURCE_DIR
#define WS_SOURCE_DIR "."
#endif

static int failures;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "test_fatbin: %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                             \
        }                                                                           \
    } while (0)

/* A PTX-like text of about n bytes that compresses well; malloc'd, NUL-terminated. */
static char *sample_text(size_t n)
{
    char *t = malloc(n + 64);
    size_t off = 0;
    for (int i = 0; off < n; i++)
        off += (size_t)sprintf(t + off, "\tadd.s32 \t%%r%d, %%r%d, %d;\n", i % 17, (i * 7) % 23, i % 5);
    return t;
}

/* LZ4 block decoding through liblz4: a round trip, exact and short output buffers, corrupt and empty input. */
static void test_lz4(void)
{
    char *text = sample_text(5000);
    int tl = (int)strlen(text);
    char comp[LZ4_COMPRESSBOUND(8192)];
    int cl = LZ4_compress_default(text, comp, tl, (int)sizeof comp);
    CHECK(cl > 0 && cl < tl);
    unsigned char *out = malloc((size_t)tl + 16);
    long n = ws_fatbin_lz4_decode((unsigned char *)comp, (size_t)cl, out, (size_t)tl);
    CHECK(n == tl && memcmp(out, text, (size_t)tl) == 0);
    CHECK(ws_fatbin_lz4_decode((unsigned char *)comp, (size_t)cl, out, (size_t)tl + 16) == tl);
    CHECK(ws_fatbin_lz4_decode((unsigned char *)comp, (size_t)cl, out, (size_t)tl - 1) < 0); /* output too small */
    CHECK(ws_fatbin_lz4_decode((unsigned char *)comp, (size_t)cl - 1, out, (size_t)tl) < 0); /* truncated */
    CHECK(ws_fatbin_lz4_decode((unsigned char *)comp, 0, out, (size_t)tl) < 0);
    const unsigned char bad_off[] = {0x10, 'a', 9, 0, 0x10, 'b'}; /* match offset beyond the output */
    CHECK(ws_fatbin_lz4_decode(bad_off, sizeof bad_off, out, (size_t)tl) < 0);
    unsigned char lit[22] = {0xf0, 5}; /* 20 literals using the length extension */
    memcpy(lit + 2, "01234567890123456789", 20);
    CHECK(ws_fatbin_lz4_decode(lit, sizeof lit, out, (size_t)tl) == 20 && memcmp(out, lit + 2, 20) == 0);
    free(out);
    free(text);
}

/* Append a compressed PTX entry to buf at *off: flags, the compressed bytes, and the sizes the header declares. */
static void add_packed_entry(unsigned char *buf, size_t *off, unsigned arch, uint64_t flags, const void *data,
                             size_t csize, uint32_t declared_csize, uint64_t declared_usize)
{
    size_t padded = (csize + 7) & ~(size_t)7;
    unsigned char *e = buf + *off;
    memset(e, 0, 0x50 + padded);
    e[0] = 1;                    /* kind PTX */
    e[2] = 1; e[3] = 1;
    e[4] = 0x50;                 /* header size, as nvcc writes for PTX */
    memcpy(e + 8, &(uint64_t){padded}, 8);
    memcpy(e + 0x10, &declared_csize, 4);
    e[0x1a] = 8;
    memcpy(e + 0x1c, &(uint32_t){arch}, 4);
    memcpy(e + 0x28, &flags, 8);
    memcpy(e + 0x38, &declared_usize, 8);
    memcpy(e + 0x50, data, csize);
    *off += 0x50 + padded;
}

/* Wrap the entries in buf[16, off) in a fatbin header. */
static void seal_fatbin(unsigned char *buf, size_t off)
{
    memcpy(buf, &(uint32_t){WS_FATBIN_MAGIC}, 4);
    buf[4] = 1;
    buf[5] = 0;
    buf[6] = 16;
    buf[7] = 0;
    memcpy(buf + 8, &(uint64_t){off - 16}, 8);
}

/* Decode the single entry of a one-entry fatbin; returns the text (malloc'd) or NULL with err set. */
static char *one_entry_text(unsigned char *buf, size_t off, char *err, size_t errlen)
{
    seal_fatbin(buf, off);
    ws_fatbin_entry es[2];
    int n = 0;
    if (ws_fatbin_parse(buf, off, es, 2, &n, err, errlen) || n != 1) return NULL;
    size_t len = 0;
    char *t = ws_fatbin_entry_text(&es[0], &len, err, errlen);
    if (t && len != strlen(t)) {
        free(t);
        return NULL;
    }
    return t;
}

/* Compressed entries made here with liblz4 and libzstd: decoded when consistent, and every inconsistency of the
 * declared sizes rejected with a message naming it. */
static void test_compressed_entries(void)
{
    static unsigned char buf[1 << 16] __attribute__((aligned(8)));
    char err[256];
    char *text = sample_text(3000);
    size_t tl = strlen(text) + 1; /* nvcc stores the NUL */
    char lz[LZ4_COMPRESSBOUND(4096)];
    int lzn = LZ4_compress_default(text, lz, (int)tl, (int)sizeof lz);
    char zs[8192];
    size_t zsn = ZSTD_compress(zs, sizeof zs, text, tl, 3);
    CHECK(lzn > 0 && !ZSTD_isError(zsn));
    struct {
        const char *what;
        uint64_t flags;
        int zstd;
        int64_t dcs, dus; /* declared sizes: -1 = the right one */
        const char *want; /* NULL: decodes to text; else a part of the message */
    } cases[] = {
        {"lz4", WS_FATBIN_FLAG_LZ4 | 0x11, 0, -1, -1, NULL},
        {"zstd", WS_FATBIN_FLAG_ZSTD | 0x11, 1, -1, -1, NULL},
        {"zstd, size only in the frame", WS_FATBIN_FLAG_ZSTD, 1, -1, 0, NULL},
        {"zstd, no compressed size", WS_FATBIN_FLAG_ZSTD, 1, 0, -1, NULL},
        {"lz4, no compressed size", WS_FATBIN_FLAG_LZ4, 0, 0, -1, "no compressed size"},
        {"lz4, no uncompressed size", WS_FATBIN_FLAG_LZ4, 0, -1, 0, "no uncompressed size"},
        {"lz4, too large", WS_FATBIN_FLAG_LZ4, 0, -1, (int64_t)tl + 1, "decompressed to"},
        {"lz4, too small", WS_FATBIN_FLAG_LZ4, 0, -1, (int64_t)tl - 1, "larger than its declared"},
        {"lz4, impossible ratio", WS_FATBIN_FLAG_LZ4, 0, -1, (int64_t)lzn * 256, "more than lz4 can produce"},
        {"lz4, over the limit", WS_FATBIN_FLAG_LZ4, 0, 0x7f000000, (int64_t)1 << 31, "more than the"},
        {"lz4, short compressed size", WS_FATBIN_FLAG_LZ4, 0, lzn - 3, -1, "corrupt"},
        {"zstd, header and frame disagree", WS_FATBIN_FLAG_ZSTD, 1, -1, (int64_t)tl + 8, "its zstd frame"},
        {"zstd, short compressed size", WS_FATBIN_FLAG_ZSTD, 1, (int64_t)zsn - 2, -1, "zstd"},
        {"both codecs", WS_FATBIN_FLAG_ZSTD | WS_FATBIN_FLAG_LZ4, 1, -1, -1, "both"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *data = cases[i].zstd ? zs : lz;
        size_t csize = cases[i].zstd ? zsn : (size_t)lzn;
        size_t off = 16;
        uint32_t dcs = cases[i].dcs < 0 ? (uint32_t)csize : (uint32_t)cases[i].dcs;
        uint64_t dus = cases[i].dus < 0 ? tl : (uint64_t)cases[i].dus;
        if (dcs > csize && dcs <= sizeof buf - 0x100) dcs = (uint32_t)csize; /* keep within the payload */
        if (cases[i].dcs > (int64_t)sizeof buf) {
            /* a compressed size the fatbin itself cannot hold is caught by the parser: test the decoder directly */
            ws_fatbin_entry e = {.kind = 1, .arch = 75, .flags = cases[i].flags, .payload = (const void *)data,
                                 .payload_size = 0x7f000000, .compressed_size = dcs, .uncompressed_size = dus};
            size_t len = 0;
            err[0] = 0;
            char *t = ws_fatbin_entry_text(&e, &len, err, sizeof err);
            CHECK(t == NULL && strstr(err, cases[i].want));
            if (!t && !strstr(err, cases[i].want)) fprintf(stderr, "  case %s: %s\n", cases[i].what, err);
            free(t);
            continue;
        }
        add_packed_entry(buf, &off, 75, cases[i].flags, data, csize, dcs, dus);
        err[0] = 0;
        char *t = one_entry_text(buf, off, err, sizeof err);
        if (!cases[i].want) {
            CHECK(t && strcmp(t, text) == 0);
            if (!t) fprintf(stderr, "  case %s: %s\n", cases[i].what, err);
        } else {
            CHECK(t == NULL && strstr(err, cases[i].want));
            if (t || !strstr(err, cases[i].want)) fprintf(stderr, "  case %s: '%s'\n", cases[i].what, err);
        }
        free(t);
    }
    free(text);
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

/* Feed every file of WS_SOURCE_DIR/sub to the fuzz harness (as `fuzz_fatbin FILE...` does); returns the count. */
static int replay_dir(const char *sub)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", WS_SOURCE_DIR, sub);
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        size_t cap = 1 << 16, len = 0;
        unsigned char *buf = malloc(cap);
        size_t r;
        while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
            len += r;
            if (len == cap) {
                unsigned char *nb = realloc(buf, cap *= 2);
                if (!nb) break;
                buf = nb;
            }
        }
        fclose(f);
        if (!buf) continue;
        /* an exact-size copy, so that a sanitizer build catches a read past the input's end */
        unsigned char *exact = malloc(len ? len : 1);
        if (exact) {
            memcpy(exact, buf, len);
            LLVMFuzzerTestOneInput(exact, len);
            n++;
        }
        free(exact);
        free(buf);
    }
    closedir(d);
    return n;
}

/* The fuzz regression inputs and the seed corpus run through the harness without a crash or sanitizer report. */
static void test_fuzz_replay(void)
{
    int n = replay_dir("tests/fuzz/regress/fatbin");
    int m = replay_dir("tests/fuzz/corpus/fatbin");
    CHECK(m > 0);
    printf("test_fatbin: replayed %d fuzz regression input(s) and %d seed(s)\n", n, m);
}

/* Append to the shell command cmd one background nvcc job building out from cu unless out is newer than cu. */
static void add_nvcc_job(char *cmd, size_t cap, const char *nvcc_args, const char *out, const char *cu)
{
    size_t used = strlen(cmd);
    snprintf(cmd + used, cap - used, "{ [ '%s' -nt '%s' ] || nvcc %s -o '%s' '%s' >'%s.log' 2>&1; } & ", out, cu,
             nvcc_args, out, cu, out);
}

/* Write text to path unless the file already holds it (keeping its time, so built outputs stay fresh). */
static int write_if_changed(const char *path, const char *text)
{
    size_t have = 0;
    FILE *f = fopen(path, "rb");
    if (f) {
        char buf[4096];
        have = fread(buf, 1, sizeof buf, f);
        fclose(f);
        if (have == strlen(text) && memcmp(buf, text, have) == 0) return 0;
    }
    f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
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

/* Read a whole small file; malloc'd, NULL on failure. */
static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = n > 0 ? malloc((size_t)n) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *size = b ? (size_t)n : 0;
    return b;
}

/* A fatbin file nvcc -fatbin made: every entry decodes, ELF entries to an ELF image, PTX ones to the kernel's
 * PTX; the entries flagged with flag (LZ4 / zstd) number want_packed. */
static void check_fatbin_file(const char *path, uint64_t flag, int want_packed)
{
    size_t size = 0;
    unsigned char *fb = slurp(path, &size);
    CHECK(fb != NULL);
    if (!fb) return;
    ws_fatbin_entry es[8];
    int n = 0, packed = 0, ptx = 0, elf = 0;
    char err[256] = "";
    CHECK(ws_fatbin_parse(fb, size, es, 8, &n, err, sizeof err) == 0 && n >= 2 && n <= 8);
    for (int i = 0; i < n && i < 8; i++) {
        if (es[i].flags & flag) packed++;
        size_t len = 0;
        char *t = ws_fatbin_entry_text(&es[i], &len, err, sizeof err);
        CHECK(t != NULL);
        if (!t) {
            fprintf(stderr, "test_fatbin: %s entry %d: %s\n", path, i, err);
            continue;
        }
        if (es[i].kind == WS_FATBIN_KIND_ELF) {
            elf++;
            CHECK(memcmp(t, "\177ELF", 4) == 0);
        } else if (es[i].kind == WS_FATBIN_KIND_PTX) {
            ptx++;
            CHECK(strstr(t, ".entry _Z9fb_kernelPfi") != NULL);
        }
        free(t);
    }
    CHECK(ptx == 1 && elf == 1);
    CHECK(packed == want_packed);
    if (packed != want_packed) fprintf(stderr, "test_fatbin: %s: %d compressed entries, want %d\n", path, packed,
                                       want_packed);
    free(fb);
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
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    CHECK(system(cmd) == 0);
    snprintf(cu, sizeof cu, "%s/fb_prog.cu", dir);
    CHECK(write_if_changed(cu, "#include <cstdio>\n"
                               "__global__ void fb_kernel(float *x, int n) {\n"
                               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                               "  if (i < n) x[i] = x[i] * 2.0f + 1.0f; // padding so that compression has something to do\n"
                               "}\n"
                               "int main() { float *d; cudaMalloc(&d, 64); fb_kernel<<<1, 16>>>(d, 16); return 0; }\n") == 0);

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
    /* fatbins in every compression mode nvcc 13 has, -Xfatbin -compress-all compressing the ELF entry too */
    struct { const char *name, *flags; uint64_t flag; int packed; } fbs[] = {
        {"fbf_speed_all", "--compress-mode=speed -Xfatbin -compress-all", WS_FATBIN_FLAG_LZ4, 2},
        {"fbf_default_all", "-Xfatbin -compress-all", WS_FATBIN_FLAG_ZSTD, 2},
        {"fbf_size", "--compress-mode=size", WS_FATBIN_FLAG_ZSTD, 2},
        {"fbf_balance", "--compress-mode=balance", WS_FATBIN_FLAG_ZSTD, 1},
    };
    /* every nvcc run at once: the suite gives this test a minute */
    static char jobs[16384];
    jobs[0] = 0;
    char args[1024];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(exe, sizeof exe, "%s/%s", dir, cases[i].name);
        snprintf(args, sizeof args, "-cudart shared -lineinfo %s", cases[i].flags);
        add_nvcc_job(jobs, sizeof jobs, args, exe, cu);
    }
    for (size_t i = 0; i < sizeof fbs / sizeof fbs[0]; i++) {
        snprintf(exe, sizeof exe, "%s/%s.fatbin", dir, fbs[i].name);
        snprintf(args, sizeof args, "-fatbin -arch=sm_75 %s", fbs[i].flags);
        add_nvcc_job(jobs, sizeof jobs, args, exe, cu);
    }
    strncat(jobs, "wait", sizeof jobs - strlen(jobs) - 1);
    CHECK(system(jobs) == 0);

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(exe, sizeof exe, "%s/%s", dir, cases[i].name);
        if (access(exe, R_OK) != 0) {
            fprintf(stderr, "test_fatbin: nvcc failed for %s (see %s.log)\n", cases[i].name, exe);
            failures++;
            continue;
        }
        check_exe(exe, cases[i].want, cases[i].targets);
    }
    for (size_t i = 0; i < sizeof fbs / sizeof fbs[0]; i++) {
        snprintf(exe, sizeof exe, "%s/%s.fatbin", dir, fbs[i].name);
        if (access(exe, R_OK) != 0) {
            fprintf(stderr, "test_fatbin: nvcc -fatbin failed for %s (see %s.log)\n", fbs[i].name, exe);
            failures++;
            continue;
        }
        check_fatbin_file(exe, fbs[i].flag, fbs[i].packed);
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
    test_compressed_entries();
    test_select();
    test_fuzz_replay();
    test_nvcc();
    if (failures) {
        fprintf(stderr, "test_fatbin: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test_fatbin: ok\n");
    return 0;
}
