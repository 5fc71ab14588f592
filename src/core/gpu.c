/* gpu.c - the simulated GPU object: creation, device memory, loaded modules and their kernels, observers. */
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "regpool.h"
#include "../ptx/link.h"
#include "observe.h"
#include "../ptx/parse.h"
#include "../mem/hostwin.h"

/* Create a simulated GPU for device model dev. */
ws_gpu *ws_gpu_create(const ws_device *dev, const ws_options *opt)
{
    ws_gpu *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->dev = dev;
    if (opt) g->opt = *opt;
    size_t cap = dev && dev->global_mem ? dev->global_mem : (16ull << 30);
    g->mem = ws_mem_create(cap, opt ? opt->device_index : 0);
    if (!g->mem) { free(g); return NULL; }
    return g;
}

/* Tell the observers about a host-side memory event. */
static void host_event(ws_gpu *g, int what, uint64_t addr, size_t len)
{
    for (int i = 0; i < g->nobs; i++)
        if (g->obs[i]->host_mem) g->obs[i]->host_mem(g->obs[i]->ctx, what, addr, len);
}

/* Destroy a simulated GPU and everything it owns. */
void ws_gpu_destroy(ws_gpu *g)
{
    if (!g) return;
    host_event(g, WS_HM_RESET, 0, 0);
    for (int i = 0; i < g->nmods; i++) ws_module_free(g->mods[i]);
    free(g->mods);
    ws_cdp_free(g);
    ws_gpu_free_spare(g);
    ws_regpool_free(g);
    ws_mem_destroy(g->mem);
    free(g);
}

/* The device model the GPU was created with. */
const ws_device *ws_gpu_device(const ws_gpu *g) { return g->dev; }

/* Attach an observer to later launches. */
int ws_gpu_add_observer(ws_gpu *g, const ws_observer *obs)
{
    if (!obs) return -1;
    for (int i = 0; i < g->nobs; i++) if (g->obs[i] == obs) return 0;
    if (g->nobs >= WS_MAX_OBSERVERS) return -1;
    g->obs[g->nobs++] = obs;
    return 0;
}

/* Detach an observer. */
void ws_gpu_remove_observer(ws_gpu *g, const ws_observer *obs)
{
    for (int i = 0; i < g->nobs; i++)
        if (g->obs[i] == obs) {
            memmove(&g->obs[i], &g->obs[i + 1], sizeof *g->obs * (size_t)(g->nobs - i - 1));
            g->nobs--;
            return;
        }
}

/* Install an engine that runs launches instead of the functional scheduler (the timing model); NULL removes it. */
void ws_gpu_set_engine(ws_gpu *g, ws_engine_fn fn, void *ctx)
{
    g->engine = fn;
    g->engine_ctx = ctx;
}

/* Install the progress callback of later launches. */
void ws_gpu_set_progress(ws_gpu *g, ws_progress_fn fn, void *ctx)
{
    g->progress = fn;
    g->progress_ctx = ctx;
}

/* Install the texture/surface object lookup. */
void ws_gpu_set_tex_lookup(ws_gpu *g, ws_tex_lookup_fn fn, void *ctx)
{
    g->tex_lookup = fn;
    g->tex_ctx = ctx;
}

/* Leave a guard zone of guard bytes after every later allocation (the checkers', so that an overflow into the
 * next allocation is found whatever the layout). */
void ws_gpu_set_alloc_guard(ws_gpu *g, size_t guard) { ws_mem_set_guard(g->mem, guard); }

/* Allocate global memory. */
int ws_malloc(ws_gpu *g, size_t size, uint64_t *addr)
{
    if (ws_mem_alloc(g->mem, size, WS_ALLOC_DEVICE, addr)) return WS_ERR_MEMORY_ALLOCATION;
    host_event(g, WS_HM_ALLOC, *addr, size);
    return WS_OK;
}

/* Allocate managed memory (same address on host and device). */
int ws_malloc_managed(ws_gpu *g, size_t size, void **ptr)
{
    /* at a fixed address (hostwin.h): the timing model's caches see the same addresses in every run */
    void *p = ws_hostwin_alloc(WS_HOSTWIN_MANAGED, size ? size : 1);
    if (!p) return WS_ERR_MEMORY_ALLOCATION;
    ws_mem_add_host(g->mem, p, size ? size : 1, WS_ALLOC_MANAGED);
    *ptr = p;
    return WS_OK;
}

/* Page-locked host memory at a fixed address. */
void *ws_pinned_alloc(size_t size) { return ws_hostwin_alloc(WS_HOSTWIN_PINNED, size); }

/* Release page-locked host memory. */
int ws_pinned_free(void *p) { return ws_hostwin_free(p); }

/* Free an allocation. */
int ws_free(ws_gpu *g, uint64_t addr)
{
    const ws_alloc *a = ws_mem_find(g->mem, addr);
    size_t size = a && a->addr == addr ? a->size : 0;
    if (ws_mem_free(g->mem, addr) == 0) {
        host_event(g, WS_HM_FREE, addr, size);
        return WS_OK;
    }
    void *p = (void *)(uintptr_t)addr;
    if (a && a->kind == WS_ALLOC_MANAGED && a->host == p) {
        ws_mem_remove_host(g->mem, p);
        ws_hostwin_free(p);
        return WS_OK;
    }
    host_event(g, WS_HM_BADFREE, addr, 0);
    return WS_ERR_INVALID_VALUE;
}

/* Free and total bytes of the device arena. */
void ws_gpu_mem_info(const ws_gpu *g, size_t *free_bytes, size_t *total) { ws_mem_info(g->mem, free_bytes, total); }

/* Tell the observers that the host side wrote or read a device range. */
void ws_gpu_host_access(ws_gpu *g, uint64_t addr, size_t len, int write)
{
    if (g && len) host_event(g, write ? WS_HM_WRITE : WS_HM_READ, addr, len);
}

/* Make host memory visible to kernels at its own address. */
void ws_register_host(ws_gpu *g, void *p, size_t size) { ws_mem_add_host(g->mem, p, size, WS_ALLOC_HOST); }

/* Forget a registered host range. */
void ws_unregister_host(ws_gpu *g, void *p) { ws_mem_remove_host(g->mem, p); }

/* Make peer's memory reachable from g's kernels as peer `index` (NULL forgets it); its global memory only when
 * enabled (peer access), its host-visible memory always. */
void ws_gpu_set_peer(ws_gpu *g, int index, ws_gpu *peer, int enabled)
{
    ws_mem_set_peer(g->mem, index, peer ? peer->mem : NULL, enabled);
}

/* Whether addr lies in g's global address range (allocated or not). */
int ws_gpu_owns_range(const ws_gpu *g, uint64_t addr) { return ws_mem_in_range(g->mem, addr); }

/* Host view of a device range. */
void *ws_host_view(ws_gpu *g, uint64_t addr, size_t len) { return ws_mem_view(g->mem, addr, len); }

/* Whether addr lies in device memory. */
int ws_is_device_addr(ws_gpu *g, uint64_t addr, uint64_t *base, size_t *size)
{
    const ws_alloc *a = ws_mem_find(g->mem, addr);
    if (!a) return 0;
    if (base) *base = a->addr;
    if (size) *size = a->size;
    return 1;
}

/* Link parsed module p to g and keep it in g's module list; NULL with a message on failure. */
static ws_module *gpu_add_module(ws_gpu *g, ws_ptx_module *p, char *err, size_t errlen)
{
    ws_module *m = ws_module_link(g, p, err, errlen);
    if (!m) return NULL;
    g->mods = realloc(g->mods, sizeof *g->mods * (size_t)(g->nmods + 1));
    g->mods[g->nmods++] = m;
    return m;
}

/* Parse, decode and link a PTX text. */
ws_module *ws_module_load(ws_gpu *g, const char *ptx, size_t len, const char *origin, char *err, size_t errlen)
{
    ws_ptx_module *p = ws_ptx_parse(ptx, len, origin, err, errlen);
    return p ? gpu_add_module(g, p, err, errlen) : NULL;
}

/* Parse every unit, link them into one module (ws_ptx_link) and link that to the GPU. */
ws_module *ws_module_load_units(ws_gpu *g, const char *const *ptx, const size_t *len, const char *const *unit_origin,
                                int n, const char *origin, char *err, size_t errlen)
{
    ws_ptx_module **units = calloc((size_t)n + 1, sizeof *units);
    if (!units) { snprintf(err, errlen, "%s: out of memory", origin); return NULL; }
    for (int i = 0; i < n; i++) {
        units[i] = ws_ptx_parse(ptx[i], len[i], unit_origin[i], err, errlen);
        if (!units[i]) {
            for (int k = 0; k < i; k++) ws_ptx_free(units[k]);
            free(units);
            return NULL;
        }
    }
    ws_ptx_module *p = ws_ptx_link(units, n, origin, err, errlen);
    free(units);
    return p ? gpu_add_module(g, p, err, errlen) : NULL;
}

/* Translation unit (of those ws_module_load_units linked) that defines kernel k. */
int ws_kernel_unit(const ws_kernel *k) { return k->mod->funcs[k->func].unit; }

/* Kernel by mangled name. */
ws_kernel *ws_module_kernel(ws_module *m, const char *name)
{
    for (int i = 0; i < m->nkernels; i++)
        if (!strcmp(m->funcs[m->kernels[i].func].name, name)) return &m->kernels[i];
    return NULL;
}

/* Module variable by name. */
int ws_module_global(ws_module *m, const char *name, uint64_t *addr, size_t *size)
{
    const ws_ptx_module *p = m->ptx;
    int found = -1;
    /* a definition (not a unit's .extern declaration); of linked units, the externally visible one first */
    for (int i = 0; i < p->nsyms; i++)
        if ((p->syms[i].space == WS_S_GLOBAL || p->syms[i].space == WS_S_CONST) && p->syms[i].linkage != WS_LINK_EXTERN &&
            !strcmp(p->syms[i].name, name) && (found < 0 || p->syms[found].linkage == WS_LINK_LOCAL))
            found = i;
    if (found < 0) return WS_ERR_INVALID_SYMBOL;
    if (addr) *addr = m->sym_addr[found];
    if (size) *size = p->syms[found].size;
    return WS_OK;
}

/* Symbols of a linked module. */
int ws_module_symbols(const ws_module *m, ws_symbol_info *out, int cap)
{
    const ws_ptx_module *p = m->ptx;
    for (int i = 0; i < p->nsyms && i < cap; i++) {
        const ws_symbol *s = &p->syms[i];
        out[i] = (ws_symbol_info){ s->name, s->space, m->sym_addr[i], s->size, s->is_extern_shared,
                                   s->scope >= 0 ? p->funcs[s->scope].name : NULL };
    }
    return p->nsyms;
}

/* Kernels of a linked module. */
int ws_module_kernels(ws_module *m, int i, ws_kernel **k)
{
    if (k) *k = i >= 0 && i < m->nkernels ? &m->kernels[i] : NULL;
    return m->nkernels;
}

/* An instruction's PTX line and its place in the code, ordered by line (the decoder schedules instructions within
 * a block as ptxas does, so the code is not in line order). */
typedef struct { uint32_t line; int pc; } sass_at;

/* Order sass_at entries by line. */
static int sass_at_cmp(const void *a, const void *b)
{
    const sass_at *x = a, *y = b;
    return x->line < y->line ? -1 : x->line > y->line ? 1 : x->pc - y->pc;
}

/* The instruction of the first PTX line at or after line, from the n entries of by (ordered by line); -1 when
 * none. */
static int first_at_line(const sass_at *by, int n, uint32_t line)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (by[mid].line < line) lo = mid + 1;
        else hi = mid;
    }
    return lo < n ? by[lo].pc : -1;
}

/* The SASS tensor instructions (HMMA, IMMA, DMMA) one wmma.mma or mma.sync becomes on sm_80 and later, or 0 for
 * other instructions: mma.sync shapes are the hardware's; a wmma.mma is its multiply-adds over those of the
 * hardware shape of its input type (f16/bf16/s8/u8 m16n8k16, tf32 m16n8k4, f64 m8n8k4). */
static int mma_sass_ops(const ws_insn *in)
{
    if (!in->mma || (in->op != WS_OP_WMMA_MMA && in->op != WS_OP_MMA)) return 0;
    const ws_mma *x = in->mma;
    if (x->kind != WS_MX_WMMA) return 1;
    int native;
    switch (x->atype) {
    case WS_MT_F16: case WS_MT_BF16: case WS_MT_S8: case WS_MT_U8: native = 16 * 8 * 16; break;
    case WS_MT_TF32: native = 16 * 8 * 4; break;
    case WS_MT_F64: native = 8 * 8 * 4; break;
    default: return 1;   /* sub-byte shapes: one each */
    }
    int ops = x->m * x->n * x->k / native;
    return ops > 0 ? ops : 1;
}

/* Divide the SASS of each loop of f (the code from a backward branch's target to the branch) by the copies of it
 * ptxas's unrolling made: the fewest SASS instructions of one of its memory instructions (each is one SASS
 * instruction per copy), or where it has none, of one of its tensor instructions over the SASS one copy makes
 * (wmma.load is neither: one can be several loads). Inner loops (the shorter) first; an outer loop's copies count
 * from what is left. */
static void loop_copies(const ws_func *f, double *w)
{
    for (int len = 1; len <= f->ncode; len++)
        for (int pc = len - 1; pc < f->ncode; pc++) {
            const ws_insn *in = &f->code[pc];
            if (!(ws_opinfo_table[in->op].flags & WS_OF_BRANCH) || in->target != pc - len + 1) continue;
            double r = 0;
            for (int i = in->target; i <= pc; i++)
                if (f->code[i].mem != WS_MK_NONE && w[i] >= 1 && (!r || w[i] < r)) r = w[i];
            for (int i = in->target; i <= pc; i++) {
                int ops = mma_sass_ops(&f->code[i]);
                if (ops && w[i] >= ops && (!r || w[i] / ops < r)) r = w[i] / ops;
            }
            r = (double)(int)(r + 0.5);
            if (r >= 2)
                for (int i = in->target; i <= pc; i++) w[i] /= r;
        }
}

/* The basic block (numbered in code order: one begins at the start, at a branch target and after a branch or a
 * path end) and the loop depth (the backward branches that span it) of each instruction of f, into blk and depth
 * (f->ncode each); -1 when out of memory. */
static int ptx_blocks(const ws_func *f, int *blk, int *depth)
{
    int n = f->ncode;
    uint8_t *lead = calloc((size_t)n + 1, 1);
    int *d = calloc((size_t)n + 1, sizeof *d);
    if (!lead || !d) { free(lead); free(d); return -1; }
    lead[0] = 1;
    for (int pc = 0; pc < n; pc++) {
        const ws_insn *in = &f->code[pc];
        uint32_t fl = ws_opinfo_table[in->op].flags;
        if (fl & (WS_OF_BRANCH | WS_OF_ENDS)) lead[pc + 1] = 1;
        if ((fl & WS_OF_BRANCH) && in->target >= 0 && in->target < n) {
            lead[in->target] = 1;
            if (in->target <= pc) { d[in->target]++; d[pc + 1]--; }
        }
    }
    int b = -1, dep = 0;
    for (int pc = 0; pc < n; pc++) {
        if (lead[pc]) b++;
        dep += d[pc];
        blk[pc] = b;
        depth[pc] = dep;
    }
    free(lead);
    free(d);
    return 0;
}

/* The PTX block whose executions the SASS block of anchors a[0..na) (their PTX instructions, in address order)
 * follows, or -1 when it has none: of the anchors at the SASS block's loop depth sdepth (or of all, where none is),
 * the PTX block most of them lie in, the later one on a tie; *host: that block's last anchor. A SASS instruction of
 * another PTX line in such a block was moved there by ptxas (a value computed again inside a loop, an invariant
 * hoisted out of one, a branch made into predicated code) and runs as often as the block. */
static int home_block(const int *a, int na, int sdepth, const int *blk, const int *depth, int *host)
{
    int best = -1, votes = 0;
    for (int pass = 0; pass < 2 && best < 0; pass++)
        for (int i = 0; i < na; i++) {
            if (!pass && depth[a[i]] != sdepth) continue;
            int v = 0;
            for (int j = 0; j < na; j++)
                if (blk[a[j]] == blk[a[i]] && (pass || depth[a[j]] == sdepth)) v++;
            if (v >= votes) { votes = v; best = blk[a[i]]; *host = a[i]; }
        }
    for (int i = 0; best >= 0 && i < na; i++)
        if (blk[a[i]] == best) *host = a[i];
    return best;
}

/* Add the SASS of f in address order (o) to w: each instruction to the PTX instruction of its line where that lies
 * in its SASS block's home PTX block (home_block), else to the home block's last anchor; -1 when out of memory. */
static int order_weights(const ws_func *f, const sass_at *by, const ws_sass_order *o, uint32_t *w)
{
    int *blk = malloc(sizeof *blk * (size_t)f->ncode), *depth = malloc(sizeof *depth * (size_t)f->ncode);
    int *pcs = malloc(sizeof *pcs * (size_t)o->n), *a = malloc(sizeof *a * (size_t)o->n);
    int rc = blk && depth && pcs && a ? ptx_blocks(f, blk, depth) : -1;
    for (int s = 0; rc == 0 && s < o->n;) {
        int e = s, na = 0;
        while (e < o->n && o->block[e] == o->block[s]) e++;
        for (int i = s; i < e; i++) {
            pcs[i] = first_at_line(by, f->ncode, o->line[i]);
            if (pcs[i] >= 0 && o->anchor[i] && o->line[i]) a[na++] = pcs[i];
        }
        int host = -1, home = home_block(a, na, o->depth[s], blk, depth, &host);
        for (int i = s; i < e; i++) {
            int pc = pcs[i];
            if (pc < 0) continue;
            if (home >= 0 && blk[pc] != home) pc = host;
            w[pc]++;
        }
        s = e;
    }
    free(blk);
    free(depth);
    free(pcs);
    free(a);
    return rc;
}

/* Set the SASS counts of function fname of k's module for arch from ptxas's line table: each SASS line goes to
 * the first instruction at or after it (a label's or the opening brace's SASS to the instruction that follows;
 * lines past the last instruction are the padding after the exit, never run), or with the SASS in address order,
 * to the PTX block its SASS block follows (order_weights); in a loop that ptxas unrolled into several copies, an
 * execution of a PTX instruction stands for its SASS over the copies. */
int ws_kernel_set_sass(ws_kernel *k, const char *arch, const char *fname, const uint32_t *line, const uint32_t *count,
                       int n, const ws_sass_order *order)
{
    ws_module *m = k->mod;
    for (int i = 0; i < m->nfuncs; i++) {
        ws_func *f = &m->funcs[i];
        if (strcmp(f->name, fname) || f->ncode <= 0) continue;
        if (f->sass_w && !strcmp(f->sass_arch, arch)) return 0;
        uint32_t *w = calloc((size_t)f->ncode, sizeof *w);
        uint16_t *sw = malloc(sizeof *sw * (size_t)f->ncode);
        if (!w || !sw) { free(w); free(sw); return -1; }
        sass_at *by = malloc(sizeof *by * (size_t)f->ncode);
        if (!by) { free(w); free(sw); return -1; }
        for (int pc = 0; pc < f->ncode; pc++) by[pc] = (sass_at){ f->code[pc].ptx_line, pc };
        qsort(by, (size_t)f->ncode, sizeof *by, sass_at_cmp);
        if (order && order->n > 0) {
            if (order_weights(f, by, order, w) != 0) { free(by); free(w); free(sw); return -1; }
        } else {
            for (int e = 0; e < n; e++) {
                int pc = first_at_line(by, f->ncode, line[e]);
                if (pc >= 0) w[pc] += count[e];
            }
        }
        free(by);
        double *dw = malloc(sizeof *dw * (size_t)f->ncode);
        if (!dw) { free(w); free(sw); return -1; }
        for (int pc = 0; pc < f->ncode; pc++) dw[pc] = w[pc];
        loop_copies(f, dw);
        for (int pc = 0; pc < f->ncode; pc++) {
            double v = dw[pc] * WS_SASS_ONE + 0.5;
            sw[pc] = (uint16_t)(v > UINT16_MAX ? UINT16_MAX : v);
        }
        free(dw);
        free(w);
        free(f->sass_w);
        f->sass_w = sw;
        snprintf(f->sass_arch, sizeof f->sass_arch, "%s", arch);
        return 0;
    }
    return -1;
}

/* Static facts about a kernel. */
void ws_kernel_get_info(const ws_kernel *k, ws_kernel_info *info)
{
    const ws_func *f = &k->mod->funcs[k->func];
    memset(info, 0, sizeof *info);
    info->name = f->name;
    info->nparams = f->nparams;
    info->param_bytes = f->param_bytes;
    info->param_offset = f->param_off;
    info->param_size = f->param_size;
    info->static_smem = f->static_smem;
    info->dyn_smem_base = k->mod->dyn_base;
    info->local_bytes = f->stack_need;
    info->max_threads = f->maxntid;
    info->ptx_regs = f->orig_ops ? f->orig_nregs : f->nregs;   /* as declared, not as compacted */
    info->cluster_dim = (ws_dim3){ f->cluster_dim[0], f->cluster_dim[1], f->cluster_dim[2] };
    info->explicit_cluster = f->explicit_cluster;
}

/* Set the opt-in dynamic shared memory limit of a kernel. */
void ws_kernel_set_max_dyn_smem(ws_kernel *k, size_t bytes) { k->max_dyn_smem = bytes; }
/* Opt-in dynamic shared memory limit of a kernel (0 = default). */
size_t ws_kernel_max_dyn_smem(const ws_kernel *k) { return k->max_dyn_smem; }
/* Allow (or not) clusters larger than the portable size for k. */
void ws_kernel_set_cluster_nonportable(ws_kernel *k, int allowed) { k->cluster_nonportable = allowed != 0; }
/* Whether k may be launched in clusters larger than the portable size. */
int ws_kernel_cluster_nonportable(const ws_kernel *k) { return k->cluster_nonportable; }
