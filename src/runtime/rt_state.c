/* rt_state.c - runtime state: lock, last/sticky errors, the lazily created device, fatbin/function/variable
 * registration (called from the program's static constructors) and lazy PTX loading. */
#include "rt_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ws_rt_state ws_rt_g = {
    .cache_config = cudaFuncCachePreferNone,
    .smem_config = cudaSharedMemBankSizeFourByte,
    .limit_stack = 1024,
    .limit_sync_depth = 2,
    .limit_pending_launches = 2048,
    .limit_printf_fifo = 1 << 20,
    .limit_malloc_heap = 8 << 20,
};

static _Thread_local cudaError_t last_error = cudaSuccess;

static _Thread_local int api_depth;   /* API calls of this thread in progress */

/* Start timing an API call: only the outermost call of a thread is recorded. */
ws_rt_api_scope ws_rt_api_begin(const char *name)
{
    ws_rt_api_scope s = { NULL, 0, 0 };
    ws_hs_um_api();   /* timing mode, managed memory: CPU page faults since the last call take their host time */
    if (!ws_hs_tl_on()) return s;
    s.counted = 1;
    if (api_depth++ == 0) {
        s.name = name;
        s.t0 = ws_hs_tl_now();
    }
    return s;
}

/* An API call returns: record it when it was the outermost. */
void ws_rt_api_end(ws_rt_api_scope *s)
{
    if (!s->counted) return;
    api_depth--;
    if (s->name) ws_hs_tl_api(s->name, s->t0, ws_hs_tl_now());
}

static int bound_dev;   /* the device whose state the registered records hold (ws_rt_fatbin) */

/* Park a registered fatbin's fields as device d's, or take device d's back (put=0). */
static void fb_swap(ws_rt_fatbin *fb, int d, int put)
{
    ws_rt_fbdev *x = &fb->per_dev[d];
    if (put) {
        *x = (ws_rt_fbdev){ fb->state, fb->load_error, fb->nmod, fb->nlinked, fb->modules, fb->ptx, fb->ptx_len,
                            fb->arch };
        return;
    }
    fb->state = x->state, fb->load_error = x->load_error, fb->nmod = x->nmod, fb->nlinked = x->nlinked;
    fb->modules = x->modules, fb->ptx = x->ptx, fb->ptx_len = x->ptx_len, fb->arch = x->arch;
    memset(x, 0, sizeof *x);
}

/* Bind the calling thread's current device: the registered fatbins, their kernels and (not managed) variables
 * hold that device's modules, kernels and addresses. */
static void bind_device(void)
{
    int d = ws_hs_current();
    if (d == bound_dev) return;
    int o = bound_dev;
    for (ws_rt_fatbin *fb = ws_rt_g.fatbins; fb; fb = fb->next) {
        fb_swap(fb, o, 1);
        fb_swap(fb, d, 0);
    }
    for (ws_rt_func *f = ws_rt_g.funcs; f; f = f->next) {
        if (!f->fb || !f->fb->registered) continue;
        f->dev_kernel[o] = f->kernel, f->dev_mod[o] = f->mod;
        f->kernel = f->dev_kernel[d], f->mod = f->dev_mod[d];
    }
    for (ws_rt_var *v = ws_rt_g.vars; v; v = v->next) {
        if (v->managed) continue;
        v->dev_resolved[o] = v->resolved, v->dev_addr[o] = v->addr;
        v->resolved = v->dev_resolved[d], v->addr = v->dev_addr[d];
    }
    bound_dev = d;
}

/* Take the runtime lock (the host session's, shared with every API face) and bind the current device. */
void ws_rt_lock(void)
{
    ws_hs_lock();
    bind_device();
}

/* Make device i current for this thread and bind its state (lock held). */
cudaError_t ws_rt_set_device(int i)
{
    if (ws_hs_set_current(i) != WS_OK) return cudaErrorInvalidDevice;
    bind_device();
    return cudaSuccess;
}

/* Release the runtime lock. */
void ws_rt_unlock(void) { ws_hs_unlock(); }

/* Record an error as the thread's last error. */
cudaError_t ws_rt_set_error(cudaError_t e)
{
    if (ws_rt_driver_depth) return e;   /* a runtime call made by the driver API (rt_module.c) */
    if (e != cudaSuccess) last_error = e;
    /* --check: report with the call site (a not-ready answer is not an error) */
    if (e != cudaSuccess && e != cudaErrorNotReady && ws_hs_checking())
        ws_hs_check_api_error((int)e, ws_rt_error_name(e), ws_rt_error_string(e));
    return e;
}

/* ws_rt_set_error for callers without the CUDA headers (rt_stubs.c). */
int ws_rt_set_error_code(int e) { return (int)ws_rt_set_error((cudaError_t)e); }

/* Peek at (and optionally reset) the thread's last error; a sticky fault is never reset. */
cudaError_t ws_rt_last_error(int reset)
{
    cudaError_t e = last_error;
    int sticky = ws_hs_fault_check(0);
    if (sticky) e = (cudaError_t)sticky;
    if (reset) last_error = cudaSuccess;
    return e;
}

/* Sticky error check at the start of an API call. */
cudaError_t ws_rt_check(int sync) { return (cudaError_t)ws_hs_fault_check(sync); }

/* Remember a kernel fault until the next synchronizing call. */
void ws_rt_fault(cudaError_t e) { ws_hs_fault((int)e); }

/* Whether WARPSIM_QUIET asks for no warpsim messages. */
int ws_rt_quiet(void) { return ws_hs_quiet(); }

/* The device preset selected by WARPSIM_GPU (default h200). */
const ws_device *ws_rt_device(cudaError_t *e)
{
    int err = 0;
    const ws_device *d = ws_hs_device(&err);
    if (!d) *e = (cudaError_t)err;
    return d;
}

/* The name the report gives a status code. */
static const char *status_name(int code) { return ws_rt_error_name((cudaError_t)code); }

/* The simulated GPU, created on first use. */
ws_gpu *ws_rt_gpu(cudaError_t *e)
{
    static int hooked;
    if (!hooked) {
        hooked = 1;
        ws_hs_on_gpu_created(ws_rt_reregister_host);   /* pinned memory stays visible after cudaDeviceReset */
        ws_hs_set_error_namer(status_name);
    }
    int err = 0;
    ws_gpu *g = ws_hs_gpu(&err);
    if (!g) *e = (cudaError_t)err;
    return g;
}

/* Hash bucket of a host pointer. */
static unsigned ptr_hash(const void *p)
{
    uintptr_t v = (uintptr_t)p;
    v ^= v >> 17;
    v *= 0x9E3779B97F4A7C15ull;
    return (unsigned)(v >> 40) & 511u;
}

/* Enter (add=1) or remove (0) a kernel record in the host-stub hash, by its host_fun (lock held). */
void ws_rt_func_index(ws_rt_func *f, int add)
{
    ws_rt_func **head = &ws_rt_g.func_hash[ptr_hash(f->host_fun)];
    if (add) {
        f->hnext = *head;
        *head = f;
        return;
    }
    for (ws_rt_func **p = head; *p; p = &(*p)->hnext)
        if (*p == f) { *p = f->hnext; break; }
}

/* Registered kernel for a host stub address or a cudaKernel_t handle. */
ws_rt_func *ws_rt_find_func(const void *p)
{
    if (!p) return NULL;
    for (ws_rt_func *f = ws_rt_g.func_hash[ptr_hash(p)]; f; f = f->hnext)
        if (f->host_fun == p) return f;
    for (ws_rt_func *f = ws_rt_g.funcs; f; f = f->next)
        if ((const void *)f == p) return f;
    return NULL;
}

/* Registered variable for a host shadow address. */
ws_rt_var *ws_rt_find_var(const void *p)
{
    if (!p) return NULL;
    for (ws_rt_var *v = ws_rt_g.var_hash[ptr_hash(p)]; v; v = v->hnext)
        if (v->host_var == p) return v;
    /* a managed variable is named on the host by the memory its pointer points to */
    for (ws_rt_var *v = ws_rt_g.vars; v; v = v->next)
        if (v->managed && v->resolved && *(void *const *)v->host_var == p) return v;
    return NULL;
}

/* Module-scope variable of a fatbin by name, searching its modules in order. */
static int fatbin_global(ws_rt_fatbin *fb, const char *name, uint64_t *addr, size_t *size)
{
    for (int i = 0; i < fb->nlinked; i++)
        if (ws_module_global(fb->modules[i], name, addr, size) == WS_OK) return WS_OK;
    return WS_ERR_INVALID_SYMBOL;
}

/* Point the host pointers of a fatbin's managed variables at their storage; 0, or -1 if one cannot be. */
static int bind_managed(ws_rt_fatbin *fb)
{
    int rc = 0;
    for (ws_rt_var *v = ws_rt_g.vars; v; v = v->next) {
        if (v->fb != fb || !v->managed || v->resolved) continue;
        uint64_t addr = 0;
        size_t size = 0;
        if (fatbin_global(fb, v->name, &addr, &size) != WS_OK) {
            fprintf(stderr, "warpsim: managed variable '%s' is not in the program's PTX\n", v->name);
            rc = -1;
            continue;
        }
        void *host = ws_host_view(ws_hs_current_gpu(), addr, size ? size : 1);
        if (!host) {
            fprintf(stderr, "warpsim: managed variable '%s' has no host view\n", v->name);
            rc = -1;
            continue;
        }
        *(void **)v->host_var = host;
        v->addr = addr;
        v->resolved = 1;
    }
    return rc;
}

/* Drop a fatbin's modules and PTX texts. */
void ws_rt_unload(ws_rt_fatbin *fb)
{
    ws_fatbin_free_texts(fb->ptx, fb->ptx_len, fb->nmod);
    free(fb->arch);
    free(fb->modules);
    fb->ptx = NULL;
    fb->ptx_len = NULL;
    fb->arch = NULL;
    fb->modules = NULL;
    fb->nmod = 0;
    fb->nlinked = 0;
    fb->state = 0;
}

/* Blank out every ".attribute(.managed)" of a PTX text (same length and lines); 1 if there was one.
 * Workaround while the core does not accept the attribute: the variable becomes an ordinary global whose
 * host view the program's host pointer then uses, so host and device still share its bytes. */
static int strip_managed_attribute(char *ptx)
{
    static const char attr[] = ".attribute(.managed)";
    int found = 0;
    for (char *p = strstr(ptx, attr); p; p = strstr(p, attr)) {
        memset(p, ' ', sizeof attr - 1);
        found = 1;
    }
    return found;
}

/* Fail a fatbin's load with error e (kept for every later use). */
static cudaError_t load_failed(ws_rt_fatbin *fb, cudaError_t e)
{
    ws_rt_unload(fb);
    fb->state = -1;
    fb->load_error = e;
    return e;
}

/* Device-link the PTX units of a -rdc program (or of a driver-API image) into one module; NULL with a message. */
ws_module *ws_rt_link_units(ws_gpu *g, char **ptx, const size_t *len, const unsigned *arch, int n, char *err,
                            size_t errlen)
{
    char **origins = calloc((size_t)n + 1, sizeof *origins);
    if (!origins) { snprintf(err, errlen, "out of memory"); return NULL; }
    for (int i = 0; i < n; i++) {
        char o[300];
        snprintf(o, sizeof o, "%s.%d.compute_%u.ptx", ws_hs_program_name(), i, arch ? arch[i] : 0);
        origins[i] = strdup(o);
    }
    char linked[300];
    snprintf(linked, sizeof linked, "%s (device-linked, %d units)", ws_hs_program_name(), n);
    ws_module *m = ws_module_load_units(g, (const char *const *)ptx, len, (const char *const *)origins, n, linked,
                                        err, errlen);
    int stripped = 0;
    for (int i = 0; !m && i < n; i++) stripped |= strip_managed_attribute(ptx[i]);
    if (stripped)
        m = ws_module_load_units(g, (const char *const *)ptx, len, (const char *const *)origins, n, linked, err, errlen);
    for (int i = 0; i < n; i++) free(origins[i]);
    free(origins);
    return m;
}

/* Load the PTX module(s) of a fatbin on first use. */
cudaError_t ws_rt_load(ws_rt_fatbin *fb)
{
    if (fb->state > 0) return cudaSuccess;
    if (fb->state < 0) return fb->load_error;
    cudaError_t e = cudaSuccess;
    ws_gpu *g = ws_rt_gpu(&e);
    if (!g) return e;
    const ws_device *dev = ws_gpu_device(g);
    int cc = dev->cc_major * 10 + dev->cc_minor;
    char err[1024] = "";
    if (ws_fatbin_ptx_units_from_wrapper(fb->wrapper, cc, &fb->ptx, &fb->ptx_len, &fb->arch, &fb->nmod, err,
                                         sizeof err)) {
        fprintf(stderr, "warpsim: %s: %s\n", ws_hs_program_name(), err);
        return load_failed(fb, strstr(err, "no PTX") ? cudaErrorNoKernelImageForDevice : cudaErrorInvalidKernelImage);
    }
    for (int i = 0; i < fb->nmod; i++) {
        /* a GPU cannot JIT newer PTX; it runs the program only from SASS built for it (which the simulator
         * replaces with the newer PTX) */
        if ((int)fb->arch[i] > cc && !dev->teaching && !ws_fatbin_wrapper_has_sass(fb->wrapper, cc)) {
            static int said;
            if (!said++)
                fprintf(stderr, "warpsim: %s: the program's PTX targets compute_%u, newer than the %s (compute "
                        "capability %d.%d); rebuild for an older architecture or choose another device with --gpu\n",
                        ws_hs_program_name(), fb->arch[i], dev->full_name, dev->cc_major, dev->cc_minor);
            return load_failed(fb, cudaErrorNoKernelImageForDevice);
        }
    }
    fb->modules = calloc(fb->nmod > 0 ? (size_t)fb->nmod : 1, sizeof *fb->modules);
    if (!fb->modules) return load_failed(fb, cudaErrorMemoryAllocation);
    if (fb->nmod > 1) {
        /* relocatable device code (-rdc): the units are device-linked into one module, as nvlink links them */
        if (!(fb->modules[0] = ws_rt_link_units(g, fb->ptx, fb->ptx_len, fb->arch, fb->nmod, err, sizeof err))) {
            fprintf(stderr, "warpsim: %s\n", err);
            return load_failed(fb, cudaErrorInvalidPtx);
        }
        fb->nlinked = 1;
    }
    for (int i = 0; fb->nmod == 1 && i < fb->nmod; i++) {
        char origin[300];
        snprintf(origin, sizeof origin, "%s.compute_%u.ptx", ws_hs_program_name(), fb->arch[i]);
        fb->modules[i] = ws_module_load(g, fb->ptx[i], fb->ptx_len[i], origin, err, sizeof err);
        if (!fb->modules[i] && strip_managed_attribute(fb->ptx[i]))
            fb->modules[i] = ws_module_load(g, fb->ptx[i], fb->ptx_len[i], origin, err, sizeof err);
        if (!fb->modules[i]) {
            fprintf(stderr, "warpsim: %s\n", err);
            return load_failed(fb, cudaErrorInvalidPtx);
        }
        fb->nlinked = 1;
    }
    fb->state = 1;
    if (bind_managed(fb)) return load_failed(fb, cudaErrorInvalidPtx);
    return cudaSuccess;
}

/* Resolve a registered kernel to the core's kernel. */
cudaError_t ws_rt_func_kernel(ws_rt_func *f, ws_kernel **k)
{
    if (f->kernel) {
        *k = f->kernel;
        return cudaSuccess;
    }
    cudaError_t e = ws_rt_load(f->fb);
    if (e) return e;
    for (int i = 0; i < f->fb->nlinked && !f->kernel; i++) {
        f->kernel = ws_module_kernel(f->fb->modules[i], f->name);
        f->mod = f->kernel && f->fb->nlinked == 1 ? ws_kernel_unit(f->kernel) : i;
    }
    if (!f->kernel) {
        fprintf(stderr, "warpsim: kernel '%s' is not in the program's PTX\n", f->name);
        return cudaErrorInvalidDeviceFunction;
    }
    if (f->max_dyn_smem != (size_t)-1) ws_kernel_set_max_dyn_smem(f->kernel, f->max_dyn_smem);
    *k = f->kernel;
    return cudaSuccess;
}

/* Resolve a variable's device address. */
cudaError_t ws_rt_var_addr(ws_rt_var *v, uint64_t *addr)
{
    if (v->resolved) {
        *addr = v->addr;
        return cudaSuccess;
    }
    cudaError_t e = ws_rt_load(v->fb);
    if (e) return e;
    if (v->resolved) { /* bound while loading (managed) */
        *addr = v->addr;
        return cudaSuccess;
    }
    size_t size = 0;
    if (fatbin_global(v->fb, v->name, &v->addr, &size) != WS_OK) return cudaErrorInvalidSymbol;
    if (size && (!v->size || size < v->size)) v->size = size;
    v->resolved = 1;
    *addr = v->addr;
    return cudaSuccess;
}

/* ---- registration entry points (called by nvcc-generated static constructors) ---- */

/* Record a fatbin; its PTX is parsed on first use. */
WS_RT_EXPORT void **__cudaRegisterFatBinary(void *fatCubin)
{
    ws_rt_lock();
    ws_rt_fatbin *fb = calloc(1, sizeof *fb);
    if (!fb) {
        ws_rt_unlock();
        fprintf(stderr, "warpsim: out of memory registering a fatbin\n");
        abort();
    }
    fb->wrapper = fatCubin;
    fb->registered = 1;
    fb->id = ws_rt_g.nfatbins++;
    fb->next = ws_rt_g.fatbins;
    ws_rt_g.fatbins = fb;
    ws_rt_unlock();
    return (void **)fb;
}

/* End of one fatbin's registrations (nothing to do: loading is lazy). */
WS_RT_EXPORT void __cudaRegisterFatBinaryEnd(void **fatCubinHandle)
{
    (void)fatCubinHandle;
}

/* Called at exit for each fatbin; modules stay loaded so late calls from destructors still work. */
WS_RT_EXPORT void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    (void)fatCubinHandle;
}

/* Duplicate a string or die. */
static char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d) {
        fprintf(stderr, "warpsim: out of memory\n");
        abort();
    }
    return d;
}

/* Record a kernel: host stub address -> device name. */
WS_RT_EXPORT void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                         const char *deviceName, int thread_limit, uint3 *tid, uint3 *bid,
                                         dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceName, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    ws_rt_lock();
    ws_rt_func *f = calloc(1, sizeof *f);
    if (!f) abort();
    f->magic = WS_RT_FUNC_MAGIC;
    f->host_fun = hostFun;
    f->fb = (ws_rt_fatbin *)fatCubinHandle;
    f->name = xstrdup(deviceFun);
    f->max_dyn_smem = (size_t)-1;
    f->carveout = -1;
    f->cache_config = cudaFuncCachePreferNone;
    f->next = ws_rt_g.funcs;
    ws_rt_g.funcs = f;
    unsigned h = ptr_hash(hostFun);
    f->hnext = ws_rt_g.func_hash[h];
    ws_rt_g.func_hash[h] = f;
    ws_rt_unlock();
}

/* Record one module variable. */
static void add_var(void **handle, const void *host, const char *name, size_t size, int constant, int managed)
{
    ws_rt_lock();
    ws_rt_var *v = calloc(1, sizeof *v);
    if (!v) abort();
    v->host_var = host;
    v->fb = (ws_rt_fatbin *)handle;
    v->name = xstrdup(name);
    v->size = size;
    v->constant = constant;
    v->managed = managed;
    v->next = ws_rt_g.vars;
    ws_rt_g.vars = v;
    unsigned h = ptr_hash(host);
    v->hnext = ws_rt_g.var_hash[h];
    ws_rt_g.var_hash[h] = v;
    ws_rt_unlock();
}

/* Record a __device__ or __constant__ variable: host shadow address -> device name. */
WS_RT_EXPORT void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress, const char *deviceName,
                                    int ext, size_t size, int constant, int global)
{
    (void)deviceName, (void)ext, (void)global;
    add_var(fatCubinHandle, hostVar, deviceAddress, size, constant, 0);
}

/* Record a __managed__ variable: the runtime points *hostVarPtrAddress at its storage when the module loads. */
WS_RT_EXPORT void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress, char *deviceAddress,
                                           const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)deviceName, (void)ext, (void)global;
    add_var(fatCubinHandle, hostVarPtrAddress, deviceAddress, size, constant, 1);
}

/* Load a module now (the program needs its managed variables); 1 on success. */
WS_RT_EXPORT char __cudaInitModule(void **fatCubinHandle)
{
    ws_rt_lock();
    cudaError_t e = fatCubinHandle ? ws_rt_load((ws_rt_fatbin *)fatCubinHandle) : cudaErrorInvalidValue;
    ws_rt_unlock();
    if (e != cudaSuccess) {
        /* the program is about to use __managed__ variables through pointers only a loaded module sets */
        fprintf(stderr, "warpsim: cannot provide the program's __managed__ variables (%s); exiting\n",
                ws_rt_error_string(e));
        exit(1);
    }
    return 1;
}
