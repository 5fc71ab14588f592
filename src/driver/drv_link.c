/* drv_link.c - the JIT linker (cuLinkCreate/AddData/AddFile/Complete/Destroy). warpsim runs PTX, so linking
 * gathers the PTX of every input (PTX text, or the PTX a fatbin or an object file carries; a SASS-only cubin is
 * refused); cuLinkComplete's "cubin" holds those units (warpsim's device-link container), which cuModuleLoadData
 * device-links into one module as the runtime links an -rdc program (src/ptx/link.c): .extern declarations of one
 * unit resolve to the definitions of another, private names stay in their unit, and a symbol unresolved or defined
 * twice fails the load naming it. */
#include "drv_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WS_DRV_LINK_MAGIC 0x57444c4bu

/* A link in progress. */
typedef struct ws_drv_link {
    unsigned magic;              /* WS_DRV_LINK_MAGIC while alive */
    int n;
    char **texts;                /* the PTX units gathered so far */
    size_t *lens;
    unsigned char *image;        /* cuLinkComplete's output (a PTX text), owned until cuLinkDestroy */
    char *error_log;             /* CU_JIT_ERROR_LOG_BUFFER of cuLinkCreate, and its size */
    size_t error_log_size;
} ws_drv_link;

/* The link behind a handle, or NULL. */
static ws_drv_link *get_link(CUlinkState s)
{
    ws_drv_link *l = (ws_drv_link *)s;
    return l && l->magic == WS_DRV_LINK_MAGIC ? l : NULL;
}

/* Append one PTX text (copied). */
static CUresult add_text(ws_drv_link *l, const char *text, size_t len)
{
    char **t = realloc(l->texts, (size_t)(l->n + 1) * sizeof *t);
    if (t) l->texts = t;
    size_t *ln = realloc(l->lens, (size_t)(l->n + 1) * sizeof *ln);
    if (ln) l->lens = ln;
    char *copy = malloc(len + 1);
    if (!t || !ln || !copy) {
        free(copy);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    memcpy(copy, text, len);
    copy[len] = 0;
    l->texts[l->n] = copy;
    l->lens[l->n++] = len;
    return CUDA_SUCCESS;
}

/* cuLinkCreate_v2: start a link (the error log buffer, if given, receives the messages of failed inputs). */
WS_DRV_EXPORT CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues,
                                       CUlinkState *stateOut)
{
    WS_DRV_ENTER_CTX();
    if (!stateOut || (numOptions && (!options || !optionValues))) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    ws_drv_link *l = calloc(1, sizeof *l);
    if (!l) WS_DRV_RET(CUDA_ERROR_OUT_OF_MEMORY);
    l->magic = WS_DRV_LINK_MAGIC;
    for (unsigned i = 0; i < numOptions; i++) {
        if (options[i] == CU_JIT_ERROR_LOG_BUFFER) l->error_log = optionValues[i];
        else if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) l->error_log_size = (size_t)(uintptr_t)optionValues[i];
    }
    if (l->error_log && l->error_log_size) l->error_log[0] = 0;
    *stateOut = (CUlinkState)l;
    return CUDA_SUCCESS;
}

/* Add one input of the given type. */
static CUresult add_data(ws_drv_link *l, CUjitInputType type, const void *data, size_t size, const char *name)
{
    if (!data) return CUDA_ERROR_INVALID_VALUE;
    if (!name) name = "the cuLinkAddData input";
    if (type == CU_JIT_INPUT_PTX) {
        size_t len = size ? strnlen(data, size) : strlen(data);
        return add_text(l, data, len);
    }
    if (type == CU_JIT_INPUT_LIBRARY) return ws_drv_missing("cuLinkAddData (CU_JIT_INPUT_LIBRARY archives)");
    if (type == CU_JIT_INPUT_NVVM) return ws_drv_missing("cuLinkAddData (CU_JIT_INPUT_NVVM, link-time optimization)");
    if (type != CU_JIT_INPUT_CUBIN && type != CU_JIT_INPUT_FATBINARY && type != CU_JIT_INPUT_OBJECT)
        return CUDA_ERROR_INVALID_VALUE;
    const char *kept = ws_drv_kept_ptx(data, size);   /* a cubin from NVRTC: the PTX it came from */
    if (kept) return add_text(l, kept, strlen(kept));
    char **texts = NULL, msg[1200] = "";
    size_t *lens = NULL;
    int n = 0;
    cudaError_t e = ws_rtx_image_ptx(data, size, name, &texts, &lens, &n, msg, sizeof msg);
    if (e) {
        if (l->error_log && l->error_log_size) snprintf(l->error_log, l->error_log_size, "%s", msg);
        return e == cudaErrorNoKernelImageForDevice ? CUDA_ERROR_NO_BINARY_FOR_GPU
             : e == cudaErrorInvalidKernelImage ? CUDA_ERROR_INVALID_IMAGE : ws_drv_from_rt(e);
    }
    CUresult r = CUDA_SUCCESS;
    for (int i = 0; i < n && !r; i++) r = add_text(l, texts[i], lens[i]);
    ws_rtx_free_texts(texts, lens, n);
    return r;
}

/* cuLinkAddData_v2: add an input from memory. */
WS_DRV_EXPORT CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size,
                                        const char *name, unsigned int numOptions, CUjit_option *options,
                                        void **optionValues)
{
    (void)numOptions, (void)options, (void)optionValues;
    WS_DRV_ENTER_CTX();
    ws_drv_link *l = get_link(state);
    if (!l) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    WS_DRV_RET(add_data(l, type, data, size, name));
}

/* cuLinkAddFile_v2: add an input from a file. */
WS_DRV_EXPORT CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path,
                                        unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    (void)numOptions, (void)options, (void)optionValues;
    WS_DRV_ENTER_CTX();
    ws_drv_link *l = get_link(state);
    if (!l) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    if (!path) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    FILE *f = fopen(path, "rb");
    if (!f) WS_DRV_RET(CUDA_ERROR_FILE_NOT_FOUND);
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            cap = cap ? cap * 2 : 1 << 20;
            char *nb = realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); WS_DRV_RET(CUDA_ERROR_OUT_OF_MEMORY); }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (!got) break;
    }
    fclose(f);
    buf[n] = 0;
    CUresult r = add_data(l, type, buf, n, path);
    free(buf);
    WS_DRV_RET(r);
}

/* cuLinkComplete: the linked image (valid until cuLinkDestroy): one PTX unit as it is, several in warpsim's
 * device-link container (rt_bridge.h, WS_RTX_LINKED_MAGIC), which cuModuleLoadData device-links as nvlink would. */
WS_DRV_EXPORT CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    WS_DRV_ENTER_CTX();
    ws_drv_link *l = get_link(state);
    if (!l) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    if (!cubinOut || l->n == 0) WS_DRV_RET(CUDA_ERROR_INVALID_VALUE);
    size_t size = 128;
    for (int i = 0; i < l->n; i++) size += l->lens[i] + 64;
    free(l->image);
    l->image = malloc(size);
    if (!l->image) WS_DRV_RET(CUDA_ERROR_OUT_OF_MEMORY);
    char *o = (char *)l->image;
    if (l->n > 1) o += sprintf(o, "%s %d\n", WS_RTX_LINKED_MAGIC, l->n);
    for (int i = 0; i < l->n; i++) {
        if (l->n > 1) o += sprintf(o, "%s %zu\n", WS_RTX_LINKED_UNIT, l->lens[i]);
        memcpy(o, l->texts[i], l->lens[i]);
        o += l->lens[i];
        *o++ = '\n';
    }
    *o = 0;
    *cubinOut = l->image;
    if (sizeOut) *sizeOut = (size_t)(o - (char *)l->image) + 1;
    return CUDA_SUCCESS;
}

/* cuLinkDestroy: free a link and its image. */
WS_DRV_EXPORT CUresult cuLinkDestroy(CUlinkState state)
{
    WS_DRV_ENTER();
    ws_drv_link *l = get_link(state);
    if (!l) WS_DRV_RET(CUDA_ERROR_INVALID_HANDLE);
    for (int i = 0; i < l->n; i++) free(l->texts[i]);
    free(l->texts);
    free(l->lens);
    free(l->image);
    l->magic = 0;
    free(l);
    return CUDA_SUCCESS;
}
