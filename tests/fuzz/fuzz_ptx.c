/* fuzz_ptx.c - libFuzzer harness of the PTX front end (src/ptx) and of linking a module to a device (src/core):
 * one input is a PTX text. It is parsed and decoded; a module that decodes is printed as a decoded listing and
 * linked to a simulated H200 (variables allocated and initialised, shared memory laid out, relocations resolved,
 * handlers bound). Nothing may crash, hang, leak or trip a sanitizer, whatever the input.
 *
 * Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined; the seed corpus is tests/fuzz/corpus/ptx. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sim.h"
#include "device/device.h"
#include "ptx/listing.h"
#include "ptx/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ws_gpu *gpu;
static unsigned long links;

/* Decode one PTX text, print its listing, link it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char err[1024];
    ws_ptx_module *m = ws_ptx_parse(text, size, "fuzz.ptx", err, sizeof err);
    if (m) {
        FILE *devnull = fopen("/dev/null", "w");
        if (devnull) { ws_ptx_listing(devnull, m); fclose(devnull); }
        ws_ptx_free(m);
        /* link against a device; a new one every so often so that module variables do not pile up */
        if (!gpu || ++links % 256 == 0) {
            ws_gpu_destroy(gpu);
            char derr[256];
            const ws_device *d = ws_device_get("h200", derr, sizeof derr);
            gpu = d ? ws_gpu_create(d, NULL) : NULL;
        }
        if (gpu) (void)ws_module_load(gpu, text, size, "fuzz.ptx", err, sizeof err);
    } else if (!memchr(err, ':', strlen(err))) {
        abort();   /* every error names the file and line */
    }
    free(text);
    return 0;
}
