/* fuzz_fatbin.c - libFuzzer harness of the fatbin reader (src/fatbin): one input is either an ELF image (read
 * as ws_fatbin_ptx_from_file reads a program) or a bare fatbin, whose entries are all decompressed and which is
 * also handed to the registration-wrapper readers the runtime uses.
 *
 * Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined. tests/unit/test_fatbin.c includes this
 * file to replay tests/fuzz/regress/fatbin/ and the seed corpus through the same entry point. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin/fatbin.h"

/* Registration wrapper as nvcc emits it (__fatBinC_Wrapper_t). */
typedef struct fuzz_fatbin_wrapper {
    uint32_t magic, version;
    const void *data;
    const void *extra;
} fuzz_fatbin_wrapper;

/* Every reader that takes an ELF image. */
static void fuzz_fatbin_elf(const uint8_t *data, size_t size)
{
    char **texts = NULL;
    size_t *lens = NULL;
    int count = 0;
    char err[256];
    if (ws_fatbin_ptx_from_image(data, size, &texts, &lens, &count, err, sizeof err) == 0)
        for (int i = 0; i < count; i++)
            if (strlen(texts[i]) != lens[i]) abort(); /* the length must be the text's */
    ws_fatbin_free_texts(texts, lens, count);
}

/* The wrapper readers on a fatbin whose declared size fits the input (they trust the size, as the runtime must). */
static void fuzz_fatbin_wrappers(const uint8_t *fb)
{
    static const int ccs[] = {75, 86, 90};
    char err[64];
    const void *list[2] = {fb, NULL};
    fuzz_fatbin_wrapper w1 = {WS_FATBIN_WRAPPER_MAGIC, 1, fb, NULL};
    fuzz_fatbin_wrapper w2 = {WS_FATBIN_WRAPPER_MAGIC, 2, fb, list};
    const void *wrappers[] = {fb, &w1, &w2};
    for (size_t c = 0; c < sizeof ccs / sizeof ccs[0]; c++) {
        for (size_t k = 0; k < sizeof wrappers / sizeof wrappers[0]; k++) {
            char *ptx = NULL;
            size_t len = 0;
            unsigned arch = 0;
            if (ws_fatbin_ptx_from_wrapper(wrappers[k], ccs[c], &ptx, &len, &arch, err, sizeof err) == 0 &&
                strlen(ptx) != len)
                abort();
            free(ptx);
            char **texts = NULL;
            size_t *lens = NULL;
            unsigned *archs = NULL;
            int count = 0;
            if (ws_fatbin_ptx_units_from_wrapper(wrappers[k], ccs[c], &texts, &lens, &archs, &count, err,
                                                 sizeof err) == 0) {
                ws_fatbin_free_texts(texts, lens, count);
                free(archs);
            }
            (void)ws_fatbin_wrapper_has_sass(wrappers[k], ccs[c]);
        }
    }
}

/* Parse a bare fatbin and decompress every entry. */
static void fuzz_fatbin_bare(const uint8_t *data, size_t size)
{
    char err[256];
    int n = 0;
    if (ws_fatbin_parse(data, size, NULL, 0, &n, err, sizeof err) == 0 && n > 0) {
        ws_fatbin_entry *es = calloc((size_t)n, sizeof *es);
        int m = 0;
        if (es && ws_fatbin_parse(data, size, es, n, &m, err, sizeof err) == 0) {
            if (m != n) abort(); /* both passes must see the same entries */
            for (int i = 0; i < m; i++) {
                size_t len = 0;
                char *t = ws_fatbin_entry_text(&es[i], &len, err, sizeof err);
                if (t && strlen(t) != len) abort();
                free(t);
            }
            (void)ws_fatbin_select_ptx(es, m, 80);
        }
        free(es);
    }
    if (ws_fatbin_size(data, size)) fuzz_fatbin_wrappers(data);
}

/* libFuzzer entry point: one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 4 && memcmp(data, "\177ELF", 4) == 0) {
        fuzz_fatbin_elf(data, size);
        return 0;
    }
    /* the input is also one raw LZ4 block, straight into liblz4 through the reader's wrapper */
    static unsigned char lz4_out[1 << 16];
    (void)ws_fatbin_lz4_decode(data, size, lz4_out, sizeof lz4_out);
    fuzz_fatbin_bare(data, size);
    return 0;
}
