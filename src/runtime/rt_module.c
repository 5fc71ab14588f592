/* rt_module.c - modules loaded from memory for the driver API face (rt_bridge.h): PTX text, fatbins and ELF
 * images become a fatbin record of the runtime (without a registration wrapper) whose kernels are ordinary
 * kernel records, so the whole launch path (streams, capture, timing, report) serves cuLaunchKernel unchanged. */
#include "rt_internal.h"
#include "rt_bridge.h"
#include "../fatbin/fb_kept.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WS_RTX_EXPORT __attribute__((visibility("default")))
#define WS_RTX_EM_CUDA 190           /* e_machine of an NVIDIA cubin */
#define WS_RTX_MOD_MAGIC 0x5752584du

/* A module of the driver API: the runtime's fatbin record plus its kernels and liveness. */
typedef struct rtx_module {
    ws_rt_fatbin fb;                 /* first member: the runtime's view */
    uint32_t magic;                  /* WS_RTX_MOD_MAGIC while loaded */
    struct rtx_module *next;
} rtx_module;

static rtx_module *modules;          /* every live module */
static rtx_module *dropped;          /* unloaded modules and their kernel records: kept, a graph may hold them */
static ws_rt_func *dropped_funcs;

/* Write a message into msg and print it unless quiet. */
static cudaError_t fail(cudaError_t e, char *msg, size_t msglen, const char *fmt, const char *a, const char *b)
{
    char buf[1200];
    snprintf(buf, sizeof buf, fmt, a, b);
    if (msg && msglen) snprintf(msg, msglen, "%s", buf);
    if (!ws_rt_quiet()) fprintf(stderr, "warpsim: %s\n", buf);
    return e;
}

/* The arch of a PTX text's .target (e.g. 90 for sm_90), or 0. */
static unsigned ptx_target(const char *ptx)
{
    const char *t = strstr(ptx, ".target");
    if (!t) return 0;
    t += 7;
    while (*t == ' ' || *t == '\t') t++;
    if (strncmp(t, "sm_", 3) && strncmp(t, "compute_", 8)) return 0;
    t = strchr(t, '_') + 1;
    return (unsigned)strtoul(t, NULL, 10);
}

/* The units of the driver's device-link container (rt_bridge.h): fills the record's texts. */
static cudaError_t linked_units(rtx_module *m, const char *image, size_t len, const char *origin, char *msg,
                                size_t msglen)
{
    ws_rt_fatbin *fb = &m->fb;
    const char *p = image + strlen(WS_RTX_LINKED_MAGIC), *end = image + len;
    int n = (int)strtol(p, NULL, 10);
    if (n < 1 || n > 4096) return fail(cudaErrorInvalidKernelImage, msg, msglen, "%s: a corrupt device-link image%s",
                                       origin, "");
    fb->ptx = calloc((size_t)n, sizeof *fb->ptx);
    fb->ptx_len = calloc((size_t)n, sizeof *fb->ptx_len);
    fb->arch = calloc((size_t)n, sizeof *fb->arch);
    if (!fb->ptx || !fb->ptx_len || !fb->arch) return cudaErrorMemoryAllocation;
    fb->nmod = n;
    p = memchr(p, '\n', (size_t)(end - p));
    for (int i = 0; i < n; i++) {
        const char *u = p ? strstr(p, WS_RTX_LINKED_UNIT) : NULL;
        size_t ul = u ? strtoul(u + strlen(WS_RTX_LINKED_UNIT), NULL, 10) : 0;
        const char *t = u ? memchr(u, '\n', (size_t)(end - u)) : NULL;
        if (!t || (size_t)(end - t - 1) < ul)
            return fail(cudaErrorInvalidKernelImage, msg, msglen, "%s: a corrupt device-link image%s", origin, "");
        t++;
        if (!(fb->ptx[i] = malloc(ul + 1))) return cudaErrorMemoryAllocation;
        memcpy(fb->ptx[i], t, ul);
        fb->ptx[i][ul] = 0;
        fb->ptx_len[i] = ul;
        fb->arch[i] = ptx_target(fb->ptx[i]);
        p = t + ul;
    }
    return cudaSuccess;
}

/* One PTX text (len bytes) as the record's only unit. */
static cudaError_t ptx_unit(ws_rt_fatbin *fb, const char *text, size_t len)
{
    fb->ptx = calloc(1, sizeof *fb->ptx);
    fb->ptx_len = calloc(1, sizeof *fb->ptx_len);
    fb->arch = calloc(1, sizeof *fb->arch);
    if (!fb->ptx || !fb->ptx_len || !fb->arch || !(fb->ptx[0] = malloc(len + 1))) return cudaErrorMemoryAllocation;
    memcpy(fb->ptx[0], text, len);
    fb->ptx[0][len] = 0;
    fb->ptx_len[0] = len;
    fb->arch[0] = ptx_target(fb->ptx[0]);
    fb->nmod = 1;
    return cudaSuccess;
}

/* PTX units of an image: fills the record's texts; cudaSuccess or an error with a message. */
static cudaError_t image_units(rtx_module *m, const void *image, size_t size, const char *origin, int cc,
                               char *msg, size_t msglen)
{
    ws_rt_fatbin *fb = &m->fb;
    const unsigned char *img = image;
    char err[1024] = "";
    uint32_t magic;
    memcpy(&magic, img, sizeof magic);
    if (memcmp(img, ELFMAG, SELFMAG) == 0) {
        const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
        if (eh->e_machine == WS_RTX_EM_CUDA) {
            /* a cubin `warpsim ptxas` made (Triton's): the PTX it was made from */
            char *kept = ws_fatbin_kept_load(img, ws_fatbin_elf_extent(img));
            if (kept) {
                cudaError_t e = ptx_unit(fb, kept, strlen(kept));
                free(kept);
                return e;
            }
            char arch[32];
            /* the SM number: bits 8..15 of e_flags in cubins of ELF ABI version 8 (CUDA 12.8+), else bits 0..7 */
            unsigned sm = img[EI_ABIVERSION] >= 8 ? (eh->e_flags >> 8) & 0xffu : eh->e_flags & 0xffu;
            snprintf(arch, sizeof arch, "sm_%u", sm);
            return fail(cudaErrorNoKernelImageForDevice, msg, msglen,
                        "%s is a cubin holding only %s SASS (machine code), which warpsim cannot run: it "
                        "simulates PTX; load the PTX (nvcc -ptx) or a fatbin that carries it (nvcc -fatbin with "
                        "code=compute_XX)", origin, arch);
        }
        if (!size) size = ws_fatbin_elf_extent(img);
        if (ws_fatbin_ptx_from_image(image, size, &fb->ptx, &fb->ptx_len, &fb->nmod, err, sizeof err))
            return fail(cudaErrorInvalidKernelImage, msg, msglen, "%s: %s", origin, err);
        if (fb->nmod == 0)
            return fail(cudaErrorNoKernelImageForDevice, msg, msglen,
                        "%s carries no PTX (SASS only), which warpsim cannot run%s", origin, "");
        fb->arch = calloc((size_t)fb->nmod, sizeof *fb->arch);
        if (!fb->arch) return cudaErrorMemoryAllocation;
        for (int i = 0; i < fb->nmod; i++) fb->arch[i] = ptx_target(fb->ptx[i]);
        return cudaSuccess;
    }
    if (magic == WS_FATBIN_WRAPPER_MAGIC || magic == WS_FATBIN_MAGIC) {
        if (ws_fatbin_ptx_units_from_wrapper(image, cc, &fb->ptx, &fb->ptx_len, &fb->arch, &fb->nmod, err,
                                             sizeof err))
            return fail(strstr(err, "no PTX") ? cudaErrorNoKernelImageForDevice : cudaErrorInvalidKernelImage,
                        msg, msglen, "%s: %s (warpsim runs the PTX a fatbin carries, never its SASS)", origin, err);
        return cudaSuccess;
    }
    /* PTX text */
    size_t len = size ? strnlen(image, size) : strlen(image);
    if (len > strlen(WS_RTX_LINKED_MAGIC) && !strncmp(image, WS_RTX_LINKED_MAGIC, strlen(WS_RTX_LINKED_MAGIC)))
        return linked_units(m, image, len, origin, msg, msglen);
    if (!memmem(image, len, ".version", 8))
        return fail(cudaErrorInvalidKernelImage, msg, msglen,
                    "%s is neither PTX text, a fatbin nor an ELF image%s", origin, "");
    return ptx_unit(fb, image, len);
}

/* Free a module record and its texts. */
static void module_free(rtx_module *m)
{
    ws_fatbin_free_texts(m->fb.ptx, m->fb.ptx_len, m->fb.nmod);
    free(m->fb.arch);
    free(m->fb.modules);
    free(m);
}

/* A new module holding the PTX units of an image for the simulated GPU's architecture (under the lock); *m is NULL
 * when it could not be made, else the caller frees it. */
static cudaError_t image_open(const void *image, size_t size, const char *origin, rtx_module **m, char *msg,
                              size_t msglen)
{
    cudaError_t e = cudaSuccess;
    ws_gpu *g = ws_rt_gpu(&e);
    *m = g ? calloc(1, sizeof **m) : NULL;
    if (g && !*m) return cudaErrorMemoryAllocation;
    if (!*m) return e;
    const ws_device *dev = ws_gpu_device(g);
    return image_units(*m, image, size, origin, dev->cc_major * 10 + dev->cc_minor, msg, msglen);
}

/* The PTX units of an image, not loaded. */
WS_RTX_EXPORT cudaError_t ws_rtx_image_ptx(const void *image, size_t size, const char *origin, char ***texts,
                                           size_t **lens, int *count, char *msg, size_t msglen)
{
    if (!image || !texts || !lens || !count) return cudaErrorInvalidValue;
    if (!origin) origin = "the image";
    ws_rt_lock();
    rtx_module *m = NULL;
    cudaError_t e = image_open(image, size, origin, &m, msg, msglen);
    if (!e) {
        *texts = m->fb.ptx;
        *lens = m->fb.ptx_len;
        *count = m->fb.nmod;
        m->fb.ptx = NULL;
        m->fb.ptx_len = NULL;
        m->fb.nmod = 0;
    }
    if (m) module_free(m);
    ws_rt_unlock();
    return e;
}

/* Free what ws_rtx_image_ptx returned. */
WS_RTX_EXPORT void ws_rtx_free_texts(char **texts, size_t *lens, int count) { ws_fatbin_free_texts(texts, lens, count); }

/* Load a module from memory. */
WS_RTX_EXPORT cudaError_t ws_rtx_module_load(const void *image, size_t size, const char *origin, void **mod,
                                             char *msg, size_t msglen)
{
    if (!image || !mod) return cudaErrorInvalidValue;
    if (!origin) origin = "the module";
    ws_rt_lock();
    rtx_module *m = NULL;
    cudaError_t e = image_open(image, size, origin, &m, msg, msglen);
    if (!e) {
        m->fb.modules = calloc((size_t)m->fb.nmod, sizeof *m->fb.modules);
        if (!m->fb.modules) e = cudaErrorMemoryAllocation;
    }
    if (!e) {
        char err[1024] = "";
        ws_gpu *g = ws_rt_gpu(&e);   /* image_open made sure it exists */
        /* several units (an -rdc fatbin): device-linked into one module */
        m->fb.modules[0] = m->fb.nmod > 1
            ? ws_rt_link_units(g, m->fb.ptx, m->fb.ptx_len, m->fb.arch, m->fb.nmod, err, sizeof err)
            : ws_module_load(g, m->fb.ptx[0], m->fb.ptx_len[0], origin, err, sizeof err);
        if (!m->fb.modules[0]) e = fail(cudaErrorInvalidPtx, msg, msglen, "%s%s", err, "");
        m->fb.nlinked = 1;
    }
    if (e) {
        if (m) module_free(m);
    } else {
        m->fb.state = 1;
        m->fb.id = -1;
        m->fb.device = ws_hs_current();
        m->magic = WS_RTX_MOD_MAGIC;
        m->next = modules;
        modules = m;
        *mod = m;
    }
    ws_rt_unlock();
    return e;
}

/* Whether mod is a live module (lock held). */
static rtx_module *find_module(const void *mod)
{
    for (rtx_module *m = modules; m; m = m->next)
        if ((const void *)m == mod) return m;
    return NULL;
}

/* Whether mod is a live module handle. */
WS_RTX_EXPORT int ws_rtx_module_valid(const void *mod)
{
    ws_rt_lock();
    int ok = mod && find_module(mod) != NULL;
    ws_rt_unlock();
    return ok;
}

/* Kernel record of module m named name, made on first request (lock held). */
static cudaError_t module_func(rtx_module *m, const char *name, ws_rt_func **out)
{
    for (ws_rt_func *f = ws_rt_g.funcs; f; f = f->next)
        if (f->fb == &m->fb && strcmp(f->name, name) == 0) { *out = f; return cudaSuccess; }
    ws_kernel *k = NULL;
    int mi = 0;
    for (; mi < m->fb.nlinked && !k; mi++) k = ws_module_kernel(m->fb.modules[mi], name);
    if (!k) return cudaErrorInvalidDeviceFunction;
    ws_rt_func *f = calloc(1, sizeof *f);
    char *nm = strdup(name);
    if (!f || !nm) {
        free(f);
        free(nm);
        return cudaErrorMemoryAllocation;
    }
    f->magic = WS_RT_FUNC_MAGIC;
    f->host_fun = f;                 /* launched by its own handle */
    f->fb = &m->fb;
    f->name = nm;
    f->kernel = k;
    f->mod = ws_kernel_unit(k);
    f->max_dyn_smem = (size_t)-1;
    f->carveout = -1;
    f->cache_config = cudaFuncCachePreferNone;
    f->next = ws_rt_g.funcs;
    ws_rt_g.funcs = f;
    ws_rt_func_index(f, 1);   /* found by its handle in one step, as host stubs are */
    *out = f;
    return cudaSuccess;
}

/* Kernel `name` of a module. */
WS_RTX_EXPORT cudaError_t ws_rtx_module_function(void *mod, const char *name, void **func)
{
    if (!name || !func) return cudaErrorInvalidValue;
    ws_rt_lock();
    rtx_module *m = find_module(mod);
    ws_rt_func *f = NULL;
    cudaError_t e = m ? module_func(m, name, &f) : cudaErrorInvalidResourceHandle;
    if (!e) *func = f;
    ws_rt_unlock();
    return e;
}

/* Kernels of a module: the count, and the i-th as a handle. */
WS_RTX_EXPORT int ws_rtx_module_functions(void *mod, int i, void **func)
{
    ws_rt_lock();
    rtx_module *m = find_module(mod);
    int total = 0;
    for (int mi = 0; m && mi < m->fb.nlinked; mi++) {
        int n = ws_module_kernels(m->fb.modules[mi], 0, NULL);
        if (func && i >= total && i < total + n) {
            ws_kernel *k = NULL;
            ws_module_kernels(m->fb.modules[mi], i - total, &k);
            ws_kernel_info info;
            ws_kernel_get_info(k, &info);
            ws_rt_func *f = NULL;
            if (module_func(m, info.name, &f) == cudaSuccess) *func = f;
        }
        total += n;
    }
    ws_rt_unlock();
    return total;
}

/* Module variable `name`. */
WS_RTX_EXPORT cudaError_t ws_rtx_module_global(void *mod, const char *name, unsigned long long *addr, size_t *size)
{
    if (!name) return cudaErrorInvalidValue;
    ws_rt_lock();
    rtx_module *m = find_module(mod);
    cudaError_t e = m ? cudaErrorInvalidSymbol : cudaErrorInvalidResourceHandle;
    for (int i = 0; m && i < m->fb.nlinked && e; i++) {
        uint64_t a = 0;
        size_t s = 0;
        if (ws_module_global(m->fb.modules[i], name, &a, &s) == WS_OK) {
            if (addr) *addr = a;
            if (size) *size = s;
            e = cudaSuccess;
        }
    }
    ws_rt_unlock();
    return e;
}

/* Drop module m (lock held): its kernel records leave the runtime's lists (their memory stays: a graph may hold
 * them, and launching one then fails with cudaErrorInvalidResourceHandle) and the handle becomes invalid. */
static void module_drop(rtx_module *m)
{
    for (ws_rt_func **pf = &ws_rt_g.funcs; *pf;) {
        if ((*pf)->fb == &m->fb) {
            ws_rt_func *f = *pf;
            f->magic = 0;
            f->kernel = NULL;   /* a graph that still holds it fails to launch it (the module is gone) */
            ws_rt_func_index(f, 0);
            *pf = f->next;
            f->next = dropped_funcs;
            dropped_funcs = f;
        } else {
            pf = &(*pf)->next;
        }
    }
    for (rtx_module **pm = &modules; *pm; pm = &(*pm)->next)
        if (*pm == m) { *pm = m->next; break; }
    m->next = dropped;
    dropped = m;
    m->magic = 0;   /* the core keeps the decoded module until the GPU goes; the record stays for stale kernels */
    m->fb.state = -1;
    m->fb.load_error = cudaErrorInvalidResourceHandle;
}

/* Unload a module: its kernel handles become invalid. */
WS_RTX_EXPORT cudaError_t ws_rtx_module_unload(void *mod)
{
    ws_rt_lock();
    rtx_module *m = find_module(mod);
    if (m) module_drop(m);
    ws_rt_unlock();
    return m ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

/* The current device was reset (cudaDeviceReset, cuDevicePrimaryCtxReset): its driver modules went with its GPU. */
void ws_rt_modules_reset(void)
{
    for (rtx_module *m = modules, *next; m; m = next) {
        next = m->next;
        if (m->fb.device == ws_hs_current()) module_drop(m);
    }
}

/* Live kernel record behind a handle (lock held). */
static ws_rt_func *live_func(const void *func)
{
    ws_rt_func *f = ws_rt_find_func(func);
    return f && f->magic == WS_RT_FUNC_MAGIC ? f : NULL;
}

/* Whether func is a kernel handle. */
WS_RTX_EXPORT int ws_rtx_func_valid(const void *func)
{
    ws_rt_lock();
    int ok = func && live_func(func) != NULL;
    ws_rt_unlock();
    return ok;
}

/* A kernel's mangled name. */
WS_RTX_EXPORT const char *ws_rtx_func_name(const void *func)
{
    ws_rt_lock();
    ws_rt_func *f = live_func(func);
    ws_rt_unlock();
    return f ? f->name : NULL;
}

/* The module of a kernel handle. */
WS_RTX_EXPORT void *ws_rtx_func_module(const void *func)
{
    ws_rt_lock();
    ws_rt_func *f = live_func(func);
    void *m = NULL;
    for (rtx_module *p = modules; f && p; p = p->next)
        if (&p->fb == f->fb) m = p;
    ws_rt_unlock();
    return m;
}

/* A kernel's parameter layout. */
WS_RTX_EXPORT cudaError_t ws_rtx_func_params(const void *func, int *n, const size_t **offset, const size_t **size,
                                             size_t *total)
{
    ws_rt_lock();
    ws_rt_func *f = live_func(func);
    ws_kernel *k = NULL;
    cudaError_t e = f ? ws_rt_func_kernel(f, &k) : cudaErrorInvalidResourceHandle;
    if (!e) {
        ws_kernel_info info;
        ws_kernel_get_info(k, &info);
        if (n) *n = info.nparams;
        if (offset) *offset = info.param_offset;
        if (size) *size = info.param_size;
        if (total) *total = info.param_bytes;
    }
    ws_rt_unlock();
    return e;
}

/* The allocation holding device address p. */
WS_RTX_EXPORT int ws_rtx_mem_range(unsigned long long p, unsigned long long *base, size_t *size)
{
    ws_rt_lock();
    int dv = ws_hs_device_of(p);
    ws_gpu *g = dv >= 0 ? ws_hs_gpu_if(dv) : ws_hs_current_gpu();
    uint64_t b = 0;
    size_t s = 0;
    int ok = g && ws_is_device_addr(g, p, &b, &s) && p - b < (s ? s : 1);
    if (ok) {
        if (base) *base = b;
        if (size) *size = s;
    }
    ws_rt_unlock();
    return ok;
}

/* Whether the simulated GPU exists. */
WS_RTX_EXPORT int ws_rtx_gpu_exists(void) { return ws_hs_current_gpu() != NULL; }

/* Whether warpsim's messages are silenced. */
WS_RTX_EXPORT int ws_rtx_quiet(void) { return ws_rt_quiet(); }

/* Driver calls in progress on this thread (rt_internal.h). */
_Thread_local int ws_rt_driver_depth;

/* The host-timeline scopes of the driver calls in progress on this thread (nested ones are not recorded). */
#define WS_RTX_SCOPES 16
static _Thread_local ws_rt_api_scope driver_scopes[WS_RTX_SCOPES];

/* A driver function starts: time it under its own name. */
WS_RTX_EXPORT void ws_rtx_driver_call(const char *name)
{
    if (ws_rt_driver_depth < WS_RTX_SCOPES) driver_scopes[ws_rt_driver_depth] = ws_rt_api_begin(name);
    ws_rt_driver_depth++;
}

/* A driver function returns. */
WS_RTX_EXPORT void ws_rtx_driver_return(void)
{
    if (ws_rt_driver_depth <= 0) return;
    ws_rt_driver_depth--;
    if (ws_rt_driver_depth < WS_RTX_SCOPES) ws_rt_api_end(&driver_scopes[ws_rt_driver_depth]);
}

/* A failed driver call, for --check: the caller's library is part of the API. */
WS_RTX_EXPORT void ws_rtx_check_api_error(int code, const char *name, const char *description)
{
    if (!ws_hs_checking()) return;
    ws_hs_check_api_library(__builtin_return_address(0));
    ws_hs_check_api_error(code, name, description);
}

/* cuTensorMapEncodeTiled through the core's encoder (a host function: no device state). */
WS_RTX_EXPORT cudaError_t ws_rtx_tmap_encode(void *out, int dtype, unsigned rank, void *addr, const uint64_t *dims,
                                             const uint64_t *strides, const uint32_t *box, const uint32_t *estrides,
                                             int interleave, int swizzle, int l2promo, int oobfill, char *why,
                                             size_t whylen)
{
    int r = ws_tmap_encode(out, dtype, rank, (uint64_t)(uintptr_t)addr, dims, strides, box, estrides, interleave,
                           swizzle, l2promo, oobfill, why, whylen);
    return r == WS_OK ? cudaSuccess : r == WS_ERR_NOT_SUPPORTED ? cudaErrorNotSupported : cudaErrorInvalidValue;
}
