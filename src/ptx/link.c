/* link.c - device linking of PTX units into one module (see link.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "link.h"
#include "cfg.h"
#include "hmap.h"
#include "parse.h"

/* A link in progress: the linked module and where each unit's entries start in it. */
typedef struct linker {
    ws_ptx_module *out;
    ws_ptx_module **units;
    int n;
    int *fbase, *sbase, *filebase;
    int *fmap, *smap;            /* per linked index: the index it resolves to */
    ws_hmap fdefs, sdefs;           /* external names -> linked index of their definition */
    char *err;
    size_t errlen;
} linker;

/* Whether a symbol is a .global/.const variable (the spaces a device link shares). */
static int linkable_var(const ws_symbol *s) { return s->space == WS_S_GLOBAL || s->space == WS_S_CONST; }

/* Record definition idx of a name; -1 with a message when two units define it strongly. */
static int define(linker *K, ws_hmap *defs, const char *name, int idx, int weak, const char *what, int unit,
                  const int *base)
{
    int prev = ws_hmap_get(defs, name, (int)strlen(name));
    if (prev < 0) { ws_hmap_put(defs, name, (int)strlen(name), idx); return 0; }
    int prev_weak = defs == &K->fdefs ? K->out->funcs[prev].linkage == WS_LINK_WEAK
                                      : K->out->syms[prev].linkage == WS_LINK_WEAK;
    if (weak) return 0;                                 /* the first definition, or the strong one, wins */
    if (prev_weak) { ws_hmap_put(defs, name, (int)strlen(name), idx); return 0; }
    int pu = 0;
    while (pu + 1 < K->n && base[pu + 1] <= prev) pu++;
    snprintf(K->err, K->errlen, "%s: multiple definition of %s '%s' (in %s and in %s)", K->out->origin, what, name,
             K->units[pu]->origin, K->units[unit]->origin);
    return -1;
}

/* Resolve every .extern of the linked module to its definition; -1 naming the first unresolved one. */
static int resolve(linker *K)
{
    ws_ptx_module *o = K->out;
    for (int u = 0; u < K->n; u++) {
        for (int li = K->fbase[u]; li < K->fbase[u + 1]; li++) {
            ws_func *f = &o->funcs[li];
            K->fmap[li] = li;
            if (f->builtin || f->decoded || f->linkage == WS_LINK_LOCAL) {
                if (f->decoded && f->linkage != WS_LINK_LOCAL) {
                    int d = ws_hmap_get(&K->fdefs, f->name, (int)strlen(f->name));
                    if (d >= 0) K->fmap[li] = d;   /* a weak copy another unit's definition replaces */
                }
                if (f->decoded || f->builtin) continue;
            }
            int d = ws_hmap_get(&K->fdefs, f->name, (int)strlen(f->name));
            if (d < 0) {
                snprintf(K->err, K->errlen, "%s: unresolved external function '%s' (declared in %s; no unit of the "
                         "program defines it)", o->origin, f->name, K->units[u]->origin);
                return -1;
            }
            K->fmap[li] = d;
        }
        for (int li = K->sbase[u]; li < K->sbase[u + 1]; li++) {
            ws_symbol *s = &o->syms[li];
            K->smap[li] = li;
            if (!linkable_var(s) || s->linkage == WS_LINK_LOCAL) continue;
            int d = ws_hmap_get(&K->sdefs, s->name, (int)strlen(s->name));
            if (s->linkage != WS_LINK_EXTERN) { if (d >= 0) K->smap[li] = d; continue; }
            if (d < 0) {
                snprintf(K->err, K->errlen, "%s: unresolved external variable '%s' (declared in %s; no unit of the "
                         "program defines it)", o->origin, s->name, K->units[u]->origin);
                return -1;
            }
            K->smap[li] = d;
        }
    }
    return 0;
}

/* Renumber a relocation of unit u. */
static void map_reloc(const linker *K, int u, ws_reloc *r)
{
    if (r->kind == WS_RELOC_SYM) r->index = K->smap[K->sbase[u] + r->index];
    else if (r->kind == WS_RELOC_FUNC) r->index = K->fmap[K->fbase[u] + r->index];
}

/* Renumber the instructions of function f of unit u; -1 when a call does not match its callee's definition. */
static int map_code(linker *K, int u, ws_func *f)
{
    ws_ptx_module *o = K->out;
    for (int k = 0; f->const_reloc && k < f->nconst; k++) map_reloc(K, u, &f->const_reloc[k]);
    for (int c = 0; c < f->ncode; c++) {
        ws_insn *in = &f->code[c];
        if (in->sym >= 0) in->sym = K->smap[K->sbase[u] + in->sym];
        if (in->line) in->file = (uint16_t)(in->file + K->filebase[u]);
        if (in->at_file) in->at_file = (uint16_t)(in->at_file + K->filebase[u]);
        ws_call *call = in->call;
        if (in->op != WS_OP_CALL || !call || call->func < 0) continue;
        call->func = K->fmap[K->fbase[u] + call->func];
        const ws_func *d = &o->funcs[call->func];
        if (d->builtin) continue;
        if (call->nargs != d->nparams || (call->has_ret && !d->has_ret)) {
            snprintf(K->err, K->errlen, "%s:%u: call of '%s' does not match its definition in %s (%d argument%s, "
                     "it takes %d)", K->units[u]->origin, in->ptx_line, d->name, K->units[d->unit]->origin,
                     call->nargs, call->nargs == 1 ? "" : "s", d->nparams);
            return -1;
        }
        /* where the definition's frame wants the arguments and keeps its return value */
        for (int i = 0; i < call->nargs; i++) {
            call->args[i].dst_off = (uint32_t)d->param_off[i];
            call->args[i].size = (uint32_t)d->param_size[i];
        }
        if (call->has_ret) { call->ret.src_off = (uint32_t)d->ret_off; call->ret.size = (uint32_t)d->ret_size; }
    }
    return 0;
}

/* Move the units' entries into the linked module (their arrays are then empty shells). */
static int gather(linker *K)
{
    ws_ptx_module *o = K->out;
    int nf = 0, ns = 0, nfile = 0;
    for (int u = 0; u < K->n; u++) {
        K->fbase[u] = nf, K->sbase[u] = ns, K->filebase[u] = nfile;
        nf += K->units[u]->nfuncs, ns += K->units[u]->nsyms, nfile += K->units[u]->nfiles;
    }
    if (nfile > 65535) { snprintf(K->err, K->errlen, "%s: too many .file entries to link", o->origin); return -1; }
    o->funcs = calloc((size_t)nf + 1, sizeof *o->funcs);
    o->syms = calloc((size_t)ns + 1, sizeof *o->syms);
    o->files = calloc((size_t)nfile + 1, sizeof *o->files);
    K->fmap = calloc((size_t)nf + 1, sizeof *K->fmap);
    K->smap = calloc((size_t)ns + 1, sizeof *K->smap);
    if (!o->funcs || !o->syms || !o->files || !K->fmap || !K->smap) {
        snprintf(K->err, K->errlen, "%s: out of memory linking", o->origin);
        return -1;
    }
    for (int u = 0; u < K->n; u++) {
        ws_ptx_module *p = K->units[u];
        if (p->nfuncs) memcpy(o->funcs + K->fbase[u], p->funcs, sizeof *p->funcs * (size_t)p->nfuncs);
        if (p->nsyms) memcpy(o->syms + K->sbase[u], p->syms, sizeof *p->syms * (size_t)p->nsyms);
        if (p->nfiles) memcpy(o->files + K->filebase[u], p->files, sizeof *p->files * (size_t)p->nfiles);
        for (int i = 0; i < p->nfuncs; i++) o->funcs[K->fbase[u] + i].unit = u;
        free(p->funcs), free(p->syms), free(p->files);
        p->funcs = NULL, p->syms = NULL, p->files = NULL;
        p->nfuncs = p->nsyms = p->nfiles = 0;
    }
    o->nfuncs = nf, o->nsyms = ns, o->nfiles = nfile;
    K->fbase[K->n] = nf, K->sbase[K->n] = ns, K->filebase[K->n] = nfile;
    /* the definitions other units may name */
    for (int li = 0; li < nf; li++) {
        const ws_func *f = &o->funcs[li];
        if (f->decoded && !f->builtin && f->linkage != WS_LINK_LOCAL &&
            define(K, &K->fdefs, f->name, li, f->linkage == WS_LINK_WEAK, "function", f->unit, K->fbase))
            return -1;
    }
    for (int u = 0; u < K->n; u++)
        for (int i = K->sbase[u]; i < K->sbase[u + 1]; i++) {
            const ws_symbol *s = &o->syms[i];
            if (linkable_var(s) && s->linkage != WS_LINK_LOCAL && s->linkage != WS_LINK_EXTERN &&
                define(K, &K->sdefs, s->name, i, s->linkage == WS_LINK_WEAK, "variable", u, K->sbase))
                return -1;
        }
    return 0;
}

/* Link the units. */
ws_ptx_module *ws_ptx_link(ws_ptx_module **units, int n, const char *origin, char *err, size_t errlen)
{
    linker K;
    memset(&K, 0, sizeof K);
    K.units = units, K.n = n, K.err = err, K.errlen = errlen;
    if (errlen) err[0] = 0;
    K.out = calloc(1, sizeof *K.out);
    K.fbase = calloc((size_t)n + 1, sizeof *K.fbase);
    K.sbase = calloc((size_t)n + 1, sizeof *K.sbase);
    K.filebase = calloc((size_t)n + 1, sizeof *K.filebase);
    int rc = -1;
    if (K.out && K.fbase && K.sbase && K.filebase) {
        K.out->origin = strdup(origin ? origin : "linked");
        rc = gather(&K);
    }
    if (!rc) rc = resolve(&K);
    ws_ptx_module *o = K.out;
    for (int u = 0; !rc && u < n; u++)
        for (int i = K.fbase[u]; !rc && i < K.fbase[u + 1]; i++) rc = map_code(&K, u, &o->funcs[i]);
    for (int u = 0; !rc && u < n; u++)
        for (int i = K.sbase[u]; i < K.sbase[u + 1]; i++) {
            ws_symbol *s = &o->syms[i];
            if (s->scope >= 0) s->scope = K.fmap[K.fbase[u] + s->scope];
            for (int k = 0; k < s->nrelocs; k++) map_reloc(&K, u, &s->relocs[k].ref);
        }
    if (!rc) {
        for (int i = 0; i < o->nfuncs; i++) {
            ws_func *f = &o->funcs[i];
            f->files = o->files;
            f->stack_need = 0;
            if (K.fmap[i] != i) f->is_entry = 0;   /* a weak copy replaced by another unit's: never a kernel */
        }
        for (int i = 0; i < o->nfuncs; i++)
            if (o->funcs[i].is_entry && o->funcs[i].decoded) ws_cfg_stack_need(o, i);
    }
    for (int u = 0; u < n; u++) ws_ptx_free(units[u]);
    ws_hmap_free(&K.fdefs), ws_hmap_free(&K.sdefs);
    free(K.fbase), free(K.sbase), free(K.filebase), free(K.fmap), free(K.smap);
    if (rc) { ws_ptx_free(o); return NULL; }
    return o;
}
