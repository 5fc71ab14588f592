/* load.c - linking a parsed PTX module to a simulated GPU: handler binding, device memory for its variables with
 * their initializers, the shared-memory layout of its kernels, relocation of symbol and function addresses, and the
 * special registers its warps must initialise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "../ptx/devrt.h"
#include "../ptx/parse.h"

/* Round x up to a multiple of a. */
static size_t align_up(size_t x, size_t a)
{
    if (a <= 1) return x;
    return (x + a - 1) / a * a;
}

/* Choose the handler for a decoded instruction; NULL if the combination is unsupported. */
ws_handler ws_select_handler(const ws_insn *in)
{
    ws_handler h = ws_tex_handler(in);
    if (!h) h = ws_mma_handler(in);
    if (!h) h = ws_async_handler(in);
    if (!h) h = ws_cluster_handler(in);
    if (!h) h = ws_bulk_handler(in);
    if (!h) h = ws_wgmma_handler(in);
    if (!h) h = ws_ctl_handler(in);
    if (!h) h = ws_mem_handler(in);
    if (!h) h = ws_alu_handler(in);
    return h;
}

/* Bind a handler to every instruction; -1 with a message naming the first unsupported form. */
static int bind_handlers(ws_ptx_module *p, char *err, size_t errlen)
{
    for (int i = 0; i < p->nfuncs; i++) {
        ws_func *f = &p->funcs[i];
        for (int c = 0; c < f->ncode; c++) {
            ws_insn *in = &f->code[c];
            if (in->op == WS_OP_CALL && in->call && in->call->func >= 0 &&
                p->funcs[in->call->func].builtin == WS_BI_CDP_UNSUPPORTED) {
                char api[96];
                const char *name = p->funcs[in->call->func].name;
                ws_devrt_api_name(name, api, sizeof api);
                if (!strcmp(api, "cudaDeviceSynchronize"))
                    snprintf(err, errlen, "%s:%u: cudaDeviceSynchronize() in device code ('%s'): removed with CDP2 "
                             "(CUDA 12+, sm_90: cudaErrorNotSupported); a parent grid cannot wait for its children "
                             "(use a tail launch, cudaStreamTailLaunch)", p->origin, in->ptx_line, name);
                else
                    snprintf(err, errlen, "%s:%u: the device runtime function %s ('%s') is not supported by warpsim "
                             "(supported: device-side launches, cudaGetLastError, cudaPeekAtLastError, cudaGetDevice, "
                             "cudaDeviceGetAttribute, cudaStreamCreateWithFlags, cudaStreamDestroy)", p->origin,
                             in->ptx_line, api, name);
                return -1;
            }
            in->fn = ws_select_handler(in);
            if (in->fn) continue;
            char mods[64] = "";
            if (in->type) snprintf(mods, sizeof mods, ".%s", ws_type_name(in->type));
            snprintf(err, errlen, "%s:%u: unsupported PTX instruction form '%s%s' (opcode '%s')", p->origin,
                     in->ptx_line, ws_opcode_name(in->op), mods, ws_opcode_name(in->op));
            return -1;
        }
    }
    return 0;
}

/* Allocate the module's .global/.const variables in declaration order and apply their initializers' bytes. */
static int alloc_variables(ws_module *m, char *err, size_t errlen)
{
    const ws_ptx_module *p = m->ptx;
    for (int i = 0; i < p->nsyms; i++) {
        const ws_symbol *s = &p->syms[i];
        if (s->space != WS_S_GLOBAL && s->space != WS_S_CONST) continue;
        if (s->linkage == WS_LINK_EXTERN) {
            /* a declaration: linked units resolved every use to a definition (ws_ptx_link); one unit alone cannot */
            int used = 0;
            for (int fi = 0; fi < p->nfuncs && !used; fi++)
                for (int c = 0; c < p->funcs[fi].ncode && !used; c++) used = p->funcs[fi].code[c].sym == i;
            for (int fi = 0; fi < p->nfuncs && !used; fi++)
                for (int k = 0; p->funcs[fi].const_reloc && k < p->funcs[fi].nconst && !used; k++)
                    used = p->funcs[fi].const_reloc[k].kind == WS_RELOC_SYM && p->funcs[fi].const_reloc[k].index == i;
            if (used) {
                snprintf(err, errlen, "%s: unresolved external variable '%s' (declared .extern; defined in another "
                         "translation unit that was not linked with this one)", p->origin, s->name);
                return -1;
            }
            continue;
        }
        size_t sz = s->size ? s->size : 1;
        uint8_t *host;
        if (s->managed) {
            /* __managed__: one address valid on the host and on the device */
            void *h = NULL;
            if (ws_malloc_managed(m->gpu, sz, &h)) {
                snprintf(err, errlen, "%s: out of memory for variable '%s'", p->origin, s->name);
                return -1;
            }
            m->sym_addr[i] = (uint64_t)(uintptr_t)h;
            host = h;
        } else {
            if (ws_mem_alloc(m->gpu->mem, sz, WS_ALLOC_MODVAR, &m->sym_addr[i])) {
                snprintf(err, errlen, "%s: out of device memory for variable '%s'", p->origin, s->name);
                return -1;
            }
            host = ws_mem_view(m->gpu->mem, m->sym_addr[i], sz);
        }
        memset(host, 0, sz);
        if (s->init) memcpy(host, s->init, s->size);
    }
    return 0;
}

/* Lay out shared memory: module-level variables first, then each kernel's own after them (kernels overlap), then
 * the dynamic region at one offset for the whole module; sets every entry's static_smem. */
static void layout_shared(ws_module *m)
{
    ws_ptx_module *p = m->ptx;
    size_t module_bytes = 0, dyn_align = 16;
    for (int i = 0; i < p->nsyms; i++) {
        const ws_symbol *s = &p->syms[i];
        if (s->space != WS_S_SHARED) continue;
        if (s->is_extern_shared) { if ((size_t)s->align > dyn_align) dyn_align = (size_t)s->align; continue; }
        if (s->scope >= 0) continue;
        module_bytes = align_up(module_bytes, (size_t)s->align);
        m->sym_addr[i] = module_bytes;
        module_bytes += s->size;
    }
    size_t max_end = module_bytes;
    for (int fi = 0; fi < p->nfuncs; fi++) {
        ws_func *f = &p->funcs[fi];
        if (!f->is_entry) continue;
        size_t end = module_bytes;
        for (int i = 0; i < p->nsyms; i++) {
            const ws_symbol *s = &p->syms[i];
            if (s->space != WS_S_SHARED || s->is_extern_shared || s->scope != fi) continue;
            end = align_up(end, (size_t)s->align);
            m->sym_addr[i] = end;
            end += s->size;
        }
        f->static_smem = end;
        if (end > max_end) max_end = end;
    }
    m->shared_module_bytes = module_bytes;
    m->dyn_align = dyn_align;
    m->dyn_base = align_up(max_end, dyn_align);
    for (int i = 0; i < p->nsyms; i++)
        if (p->syms[i].space == WS_S_SHARED && p->syms[i].is_extern_shared) m->sym_addr[i] = m->dyn_base;
}

/* Address a relocation refers to. */
static uint64_t reloc_target(const ws_module *m, ws_reloc r)
{
    if (r.kind == WS_RELOC_SYM) return m->sym_addr[r.index];
    if (r.kind == WS_RELOC_FUNC) return WS_FUNC_BASE + 16ull * (uint64_t)r.index;
    return 0;
}

/* Resolve every relocation: constants, absolute addresses of instructions, addresses in initializers. */
static void relocate(ws_module *m)
{
    ws_ptx_module *p = m->ptx;
    for (int fi = 0; fi < p->nfuncs; fi++) {
        ws_func *f = &p->funcs[fi];
        if (f->const_reloc)
            for (int k = 0; k < f->nconst; k++) f->const_val[k] += reloc_target(m, f->const_reloc[k]);
        for (int c = 0; c < f->ncode; c++) {
            ws_insn *in = &f->code[c];
            if (in->sym >= 0) in->imm += (int64_t)m->sym_addr[in->sym];
        }
    }
    for (int i = 0; i < p->nsyms; i++) {
        const ws_symbol *s = &p->syms[i];
        if (!s->nrelocs) continue;
        uint8_t *host = ws_host_view(m->gpu, m->sym_addr[i], s->size ? s->size : 1);
        for (int k = 0; k < s->nrelocs && host; k++) {
            const ws_data_reloc *r = &s->relocs[k];
            uint64_t v = reloc_target(m, r->ref) + (uint64_t)r->addend;
            memcpy(host + r->offset, &v, r->size < 8 ? r->size : 8);
        }
    }
}

/* Special-register operands some instruction of the module uses (warps initialise only those; thread and block
 * ids always, for reports). */
static uint64_t sregs_used(const ws_ptx_module *p)
{
    uint64_t u = (1ull << WS_SR_TID_X) | (1ull << WS_SR_TID_Y) | (1ull << WS_SR_TID_Z) | (1ull << WS_SR_CTAID_X) |
                 (1ull << WS_SR_CTAID_Y) | (1ull << WS_SR_CTAID_Z) | (1ull << WS_SR_SINK) | (1ull << WS_SR_CARRY);
    for (int i = 0; i < p->nfuncs; i++)
        for (int c = 0; c < p->funcs[i].ncode; c++) {
            const ws_insn *in = &p->funcs[i].code[c];
            for (int k = 0; k < 5; k++) if (in->s[k] >= 0 && in->s[k] < WS_SR_COUNT) u |= 1ull << in->s[k];
            for (int k = 0; k < 4; k++) if (in->d[k] >= 0 && in->d[k] < WS_SR_COUNT) u |= 1ull << in->d[k];
            if (in->base >= 0 && in->base < WS_SR_COUNT) u |= 1ull << in->base;
        }
    return u;
}

_Static_assert(WS_SR_COUNT <= 64, "special registers fit the module's 64-bit usage mask");

/* Free a linked module. */
void ws_module_free(ws_module *m)
{
    if (!m) return;
    ws_ptx_free(m->ptx);
    free(m->sym_addr);
    free(m->kernels);
    free(m);
}

/* Link a parsed module to GPU g. */
ws_module *ws_module_link(ws_gpu *g, ws_ptx_module *p, char *err, size_t errlen)
{
    if (errlen) err[0] = 0;
    if (bind_handlers(p, err, errlen)) { ws_ptx_free(p); return NULL; }
    ws_module *m = calloc(1, sizeof *m);
    m->gpu = g;
    m->ptx = p;
    m->origin = p->origin;
    m->funcs = p->funcs;
    m->nfuncs = p->nfuncs;
    m->files = p->files;
    m->nfiles = p->nfiles;
    m->sym_addr = calloc((size_t)p->nsyms + 1, sizeof *m->sym_addr);
    if (alloc_variables(m, err, errlen)) { ws_module_free(m); return NULL; }
    layout_shared(m);
    relocate(m);
    m->sreg_used = sregs_used(p);
    m->sr_lo = __builtin_ctzll(m->sreg_used);
    for (int i = 0; i < p->nfuncs && !m->cluster_barrier; i++)
        for (int c = 0; c < p->funcs[i].ncode; c++) if (p->funcs[i].code[c].op == WS_OP_BAR_CLUSTER) m->cluster_barrier = 1;
    for (int i = 0; i < p->nfuncs; i++) {
        if (!p->funcs[i].is_entry || !p->funcs[i].decoded) continue;
        m->kernels = realloc(m->kernels, sizeof *m->kernels * (size_t)(m->nkernels + 1));
        ws_kernel *k = &m->kernels[m->nkernels++];
        memset(k, 0, sizeof *k);
        k->mod = m;
        k->func = i;
    }
    return m;
}
