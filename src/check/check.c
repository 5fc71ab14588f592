/* check.c - the checker object: options, attaching to a GPU, the launch/block lifecycle, findings grouped per
 * site and printed in compute-sanitizer's shape, API errors, leaks, the ERROR SUMMARY, and the findings for reports. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "chk_int.h"

#define MAX_GROUPS 4096

static const char *const check_names[] = { "memcheck", "racecheck", "synccheck", "initcheck", "deadlock" };

/* Name of one check bit. */
const char *ws_chk_name(unsigned check)
{
    for (int i = 0; i < 5; i++) if (check == 1u << i) return check_names[i];
    return "check";
}

/* Parse "memcheck,racecheck" / "all" / "" into check bits. */
int ws_chk_parse(const char *spec, unsigned *checks, char *err, size_t errlen)
{
    *checks = 0;
    if (!spec || !*spec || !strcmp(spec, "all") || !strcmp(spec, "1")) { *checks = WS_CHK_ALL; return 0; }
    const char *p = spec;
    while (*p) {
        size_t n = strcspn(p, ",");
        int found = 0;
        for (int i = 0; i < 5; i++)
            if (n == strlen(check_names[i]) && !strncmp(p, check_names[i], n)) { *checks |= 1u << i; found = 1; }
        if (n == 3 && !strncmp(p, "all", 3)) { *checks = WS_CHK_ALL; found = 1; }
        if (!found) {
            snprintf(err, errlen, "unknown check '%.*s' (expected memcheck, racecheck, synccheck, initcheck, deadlock "
                     "or all)", (int)n, p);
            return -1;
        }
        p += n;
        if (*p == ',') p++;
    }
    return 0;
}

/* Create a checker. */
ws_chk *ws_chk_create(unsigned checks, FILE *out)
{
    ws_chk *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->checks = checks;
    c->out = out ? out : stderr;
    return c;
}

/* Turn the leak check on or off. */
void ws_chk_set_leak_check(ws_chk *c, int on) { c->leak_check = on; }
/* Report benign races (on, the default) or hide them. */
void ws_chk_set_benign_races(ws_chk *c, int on) { c->benign_races = on; }

/* Set the source of host call stacks. */
void ws_chk_set_host_frames(ws_chk *c, ws_chk_host_fn fn) { c->host_frames = fn; }

/* Free the per-block states of the launch. */
static void blocks_clear(ws_chk *c)
{
    for (size_t i = 0; i < c->btab_cap; i++) {
        chk_blk *cb = c->btab[i];
        if (!cb) continue;
        free(cb->warps);
        free(cb->sh);
        free(cb->sh_init);
        chk_init_blk_free(cb);
        free(cb->pend);
        free(cb);
    }
    free(c->btab);
    c->btab = NULL;
    c->btab_cap = c->btab_n = 0;
    c->last = NULL;
}

/* Free the checker. */
void ws_chk_destroy(ws_chk *c)
{
    if (!c) return;
    blocks_clear(c);
    chk_mem_free(c);
    chk_sync_free(c);
    for (size_t i = 0; i < c->nlive; i++) free(c->live[i].host);
    free(c->live);
    for (size_t i = 0; i < c->ng; i++) free(c->g[i].detail);
    free(c->g);
    free(c);
}

/* ---------- threads, blocks, names ---------- */

/* Thread x,y,z from a block-linear id. */
void chk_thr_dims(const ws_run *L, uint64_t t, uint32_t d[3])
{
    d[0] = (uint32_t)(t % L->block.x);
    d[1] = (uint32_t)((t / L->block.x) % L->block.y);
    d[2] = (uint32_t)(t / ((uint64_t)L->block.x * L->block.y));
}

/* Block x,y,z from a grid-linear id. */
void chk_blk_dims(const ws_run *L, uint64_t b, uint32_t d[3])
{
    d[0] = (uint32_t)(b % L->grid.x);
    d[1] = (uint32_t)((b / L->grid.x) % L->grid.y);
    d[2] = (uint32_t)(b / ((uint64_t)L->grid.x * L->grid.y));
}

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

/* Demangle a C++ name with libstdc++'s demangler when the program has it loaded. */
void chk_demangle(const char *name, char *buf, size_t cap)
{
    static demangle_fn dm;
    static int looked;
    if (!looked) {
        looked = 1;
        void *sym = dlsym(RTLD_DEFAULT, "__cxa_demangle");
        if (!sym) {   /* a C-only program: libstdc++ is not loaded, but is installed wherever nvcc is */
            void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
            if (h) sym = dlsym(h, "__cxa_demangle");
        }
        memcpy(&dm, &sym, sizeof dm);
    }
    if (dm && name && name[0] == '_' && name[1] == 'Z') {
        int st = 0;
        char *s = dm(name, NULL, NULL, &st);
        if (s && st == 0) {
            snprintf(buf, cap, "%s", s);
            free(s);
            return;
        }
        free(s);
    }
    snprintf(buf, cap, "%s", name ? name : "?");
}

/* Public form of chk_demangle. */
void ws_chk_demangle(const char *name, char *buf, size_t cap) { chk_demangle(name, buf, cap); }

/* "func(args) in file:line" for instruction in of function fn. */
void chk_where(ws_chk *c, const ws_func *fn, const ws_insn *in, char *buf, size_t cap, char *file, size_t fcap,
               unsigned *line)
{
    char name[400];
    chk_demangle(fn ? fn->name : NULL, name, sizeof name);
    const char *path = NULL, *inner = NULL;
    int nf = c->L ? c->L->mod->nfiles : 0;
    if (in && in->line && in->file < (unsigned)nf) path = c->L->mod->files[in->file];
    if (path && in->at_line && in->at_file < (unsigned)nf) {   /* inlined: name the call site first */
        inner = path;
        path = c->L->mod->files[in->at_file];
    }
    if (path) {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        unsigned ln = inner ? in->at_line : in->line;
        if (inner) {
            const char *ib = strrchr(inner, '/');
            snprintf(buf, cap, "%s in %s:%u (inlined from %s:%u)", name, base, ln, ib ? ib + 1 : inner, in->line);
        } else {
            snprintf(buf, cap, "%s in %s:%u", name, base, ln);
        }
        if (file) snprintf(file, fcap, "%s", base);
        if (line) *line = ln;
    } else {
        snprintf(buf, cap, "%s (PTX line %u)", name, in ? in->ptx_line : 0);
        if (file) snprintf(file, fcap, "%s", c->L ? c->L->mod->origin : "");
        if (line) *line = in ? in->ptx_line : 0;
    }
}

/* ---------- findings ---------- */

/* Grouping key of an instruction's source line: the instruction itself when the PTX has no line for it. */
const void *chk_line_key(const ws_insn *in, const ws_func *fn)
{
    if (!in || !in->line) return in;
    uint64_t k = (uint64_t)(uintptr_t)fn * 0x9E3779B97F4A7C15ull ^ ((uint64_t)in->file << 40) ^ in->line;
    return (const void *)(uintptr_t)(k | 1);
}


/* Find or create the group of a finding. */
chk_group *chk_group_get(ws_chk *c, unsigned cls, int kind, const void *k1, const void *k2, uint64_t k3, int *fresh)
{
    *fresh = 0;
    for (size_t i = c->open_from; i < c->ng; i++) {
        chk_group *g = &c->g[i];
        if (g->kind == kind && g->k1 == k1 && g->k2 == k2 && g->k3 == k3 && g->cls == cls) return g;
    }
    if (c->ng >= MAX_GROUPS) {
        c->dropped++;
        c->errors++;
        return NULL;
    }
    if (c->ng == c->capg) {
        size_t nc = c->capg ? c->capg * 2 : 32;
        chk_group *ng = realloc(c->g, nc * sizeof *ng);
        if (!ng) return NULL;
        c->g = ng;
        c->capg = nc;
    }
    chk_group *g = &c->g[c->ng++];
    memset(g, 0, sizeof *g);
    g->cls = cls;
    g->kind = kind;
    g->k1 = k1;
    g->k2 = k2;
    g->k3 = k3;
    g->tmin = g->bmin = UINT64_MAX;
    if (c->L) chk_demangle(c->L->entry->name, g->kernel, sizeof g->kernel);
    *fresh = 1;
    return g;
}

/* Count one occurrence by lane l of warp w. */
void chk_group_hit(ws_chk *c, chk_group *grp, ws_warp *w, int lane)
{
    grp->count++;
    if (grp->kind != CK_RACE && grp->kind != CK_RACE_BENIGN) {
        grp->errors++;
        c->errors++;
    }
    if (!w) return;
    uint64_t t = chk_thr(w, lane), b = w->blk->linear;
    if (!grp->has_thread) {
        grp->has_thread = 1;
        chk_thr_dims(w->L, t, grp->thr);
        memcpy(grp->blk, &w->blk->id, sizeof grp->blk);
    }
    if (t < grp->tmin) grp->tmin = t;
    if (t > grp->tmax) grp->tmax = t;
    if (b < grp->bmin) grp->bmin = b;
    if (b > grp->bmax) grp->bmax = b;
}

/* Append a line to a group's detail. */
void chk_detail(chk_group *grp, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t old = grp->detail ? strlen(grp->detail) : 0, n = strlen(line);
    char *d = realloc(grp->detail, old + n + 2);
    if (!d) return;
    memcpy(d + old, line, n);
    d[old + n] = '\n';
    d[old + n + 1] = 0;
    grp->detail = d;
}

/* Copy the current launch's host frames into a group. */
void chk_group_launch_frames(ws_chk *c, chk_group *grp)
{
    grp->nhost = c->nhost_launch;
    memcpy(grp->host, c->host_launch, sizeof grp->host);
    grp->host_what = "kernel launch time";
}

/* Print one group. */
static void print_group(ws_chk *c, chk_group *g)
{
    FILE *o = c->out;
    g->printed = 1;
    fprintf(o, "========= %s\n", g->title);
    int race = g->kind == CK_RACE || g->kind == CK_RACE_BENIGN;
    if (race)
        fprintf(o, "=========     and %s [%lu hazard%s]\n", g->where2, g->count, g->count == 1 ? "" : "s");
    else if (g->where[0])
        fprintf(o, "=========     at %s\n", g->where);
    if (g->has_thread && !race)
        fprintf(o, "=========     by thread (%u,%u,%u) in block (%u,%u,%u)\n", g->thr[0], g->thr[1], g->thr[2],
                g->blk[0], g->blk[1], g->blk[2]);
    for (const char *p = g->detail; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        fprintf(o, "=========     %.*s\n", (int)n, p);
        p += n + (e ? 1 : 0);
    }
    if (g->count > 1 && g->has_thread && !race && c->L) {
        uint32_t t0[3], t1[3], b0[3], b1[3];
        chk_thr_dims(c->L, g->tmin, t0);
        chk_thr_dims(c->L, g->tmax, t1);
        chk_blk_dims(c->L, g->bmin, b0);
        chk_blk_dims(c->L, g->bmax, b1);
        char thr[128], blk[128];
        if (g->tmin == g->tmax) snprintf(thr, sizeof thr, "thread (%u,%u,%u)", t0[0], t0[1], t0[2]);
        else snprintf(thr, sizeof thr, "threads (%u,%u,%u)..(%u,%u,%u)", t0[0], t0[1], t0[2], t1[0], t1[1], t1[2]);
        if (g->bmin == g->bmax) snprintf(blk, sizeof blk, "block (%u,%u,%u)", b0[0], b0[1], b0[2]);
        else snprintf(blk, sizeof blk, "blocks (%u,%u,%u)..(%u,%u,%u)", b0[0], b0[1], b0[2], b1[0], b1[1], b1[2]);
        fprintf(o, "=========     %lu errors at this site, by %s in %s\n", g->count, thr, blk);
    } else if (g->count > 1 && !race) {
        fprintf(o, "=========     %lu times\n", g->count);
    }
    if (g->nhost) {
        fprintf(o, "=========     Saved host backtrace up to driver entry point at %s\n", g->host_what);
        for (int i = 0; i < g->nhost; i++) fprintf(o, "=========         Host Frame: %s\n", g->host[i]);
    }
    fprintf(o, "=========\n");
    fflush(o);
}

/* ---------- allocations ---------- */

/* The allocation record holding addr in its requested bytes. */
const chk_alloc *chk_live_find(const ws_chk *c, uint64_t addr)
{
    size_t lo = 0, hi = c->nlive;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->live[mid].addr <= addr) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return NULL;
    const chk_alloc *a = &c->live[lo - 1];
    return addr < a->addr + a->size || (a->size == 0 && addr == a->addr) ? a : NULL;
}

/* Record a new device allocation (sorted by address). */
void chk_live_add(ws_chk *c, uint64_t addr, size_t size)
{
    if (c->nlive == c->caplive) {
        size_t nc = c->caplive ? c->caplive * 2 : 64;
        chk_alloc *n = realloc(c->live, nc * sizeof *n);
        if (!n) return;
        c->live = n;
        c->caplive = nc;
    }
    size_t i = c->nlive;
    while (i > 0 && c->live[i - 1].addr > addr) i--;
    memmove(&c->live[i + 1], &c->live[i], (c->nlive - i) * sizeof *c->live);
    chk_alloc *a = &c->live[i];
    memset(a, 0, sizeof *a);
    a->addr = addr;
    a->size = size;
    c->nlive++;
    if (c->leak_check && c->host_frames) {
        a->host = calloc(CHK_HOST_LINES, sizeof *a->host);
        if (a->host) a->nhost = c->host_frames(a->host, CHK_HOST_LINES);
    }
}

/* Forget a freed allocation; remember it as freed (use-after-free and double-free reports). */
void chk_live_remove(ws_chk *c, uint64_t addr)
{
    for (size_t i = 0; i < c->nlive; i++) {
        if (c->live[i].addr != addr) continue;
        chk_alloc *f = &c->freed[c->freed_next];
        f->addr = addr;
        f->size = c->live[i].size;
        c->freed_next = (c->freed_next + 1) % 256;
        if (c->nfreed < 256) c->nfreed++;
        free(c->live[i].host);
        memmove(&c->live[i], &c->live[i + 1], (c->nlive - i - 1) * sizeof *c->live);
        c->nlive--;
        return;
    }
}

/* Report the allocations still live (leak check). */
static void report_leaks(ws_chk *c)
{
    if (!c->leak_check || !(c->checks & WS_CHK_MEMCHECK)) return;
    size_t bytes = 0;
    for (size_t i = 0; i < c->nlive; i++) {
        chk_alloc *a = &c->live[i];
        int fresh;
        chk_group *g = chk_group_get(c, WS_CHK_MEMCHECK, CK_LEAK, NULL, NULL, a->addr, &fresh);
        if (!g) continue;
        snprintf(g->title, sizeof g->title, "Leaked %zu bytes at 0x%llx", a->size, (unsigned long long)a->addr);
        g->nhost = a->nhost < CHK_HOST_LINES ? a->nhost : CHK_HOST_LINES;
        for (int k = 0; k < g->nhost; k++) snprintf(g->host[k], sizeof g->host[k], "%s", a->host[k]);
        g->host_what = "allocation time";
        chk_group_hit(c, g, NULL, 0);
        print_group(c, g);
        bytes += a->size;
    }
    fprintf(c->out, "========= LEAK SUMMARY: %zu bytes leaked in %zu allocations\n", bytes, c->nlive);
    for (size_t i = 0; i < c->nlive; i++) free(c->live[i].host);
    c->nlive = 0;
}

/* ---------- observer: launches and blocks ---------- */

/* Hash slot of a block pointer. */
static size_t blk_slot(const ws_chk *c, const ws_block *b)
{
    uintptr_t v = (uintptr_t)b;
    v ^= v >> 17;
    v *= 0x9E3779B97F4A7C15ull;
    return (size_t)(v >> 20) & (c->btab_cap - 1);
}

/* The checker's state of block b (created on first use). */
chk_blk *chk_blk_of(ws_chk *c, ws_block *b)
{
    if (c->last && c->last->b == b) return c->last;
    if (c->btab_cap) {
        for (size_t i = blk_slot(c, b);; i = (i + 1) & (c->btab_cap - 1)) {
            if (!c->btab[i]) break;
            if (c->btab[i]->b == b) return c->last = c->btab[i];
        }
    }
    if (2 * (c->btab_n + 1) > c->btab_cap) {   /* grow */
        size_t nc = c->btab_cap ? c->btab_cap * 2 : 64;
        chk_blk **old = c->btab;
        size_t oc = c->btab_cap;
        c->btab = calloc(nc, sizeof *c->btab);
        c->btab_cap = nc;
        for (size_t i = 0; i < oc; i++) {
            if (!old[i]) continue;
            size_t j = blk_slot(c, old[i]->b);
            while (c->btab[j]) j = (j + 1) & (nc - 1);
            c->btab[j] = old[i];
        }
        free(old);
    }
    chk_blk *cb = calloc(1, sizeof *cb);
    cb->b = b;
    cb->nwarps = b->nwarps;
    cb->warps = calloc((size_t)b->nwarps, sizeof *cb->warps);
    size_t j = blk_slot(c, b);
    while (c->btab[j]) j = (j + 1) & (c->btab_cap - 1);
    c->btab[j] = cb;
    c->btab_n++;
    return c->last = cb;
}

/* Observer: a launch starts. */
static void chk_launch_begin(void *ctx, ws_run *L)
{
    ws_chk *c = ctx;
    c->L = L;
    c->open_from = c->ng;
    chk_demangle(L->entry->name, c->kname, sizeof c->kname);
    c->nhost_launch = c->host_frames ? c->host_frames(c->host_launch, CHK_HOST_LINES) : 0;
    c->admitted = c->live_blocks = 0;
    c->since_end = 0;
    c->gen = 0;
    c->probing = c->dl_reported = 0;
    c->c_lo = c->c_hi = 0;
    c->mc_fault = 0;
    c->mc_lanes = 0;
    c->launch_no++;
    chk_mem_launch(c, L);
}

/* Observer: a block becomes resident. */
static void chk_block_begin(void *ctx, ws_run *L, ws_block *b)
{
    ws_chk *c = ctx;
    (void)L;
    chk_blk *cb = chk_blk_of(c, b);
    for (int i = 0; i < cb->nwarps; i++) {
        memset(&cb->warps[i], 0, sizeof cb->warps[i]);
        cb->warps[i].probe_pc = -1;
    }
    memset(cb->phase_in, 0, sizeof cb->phase_in);
    cb->exit_noted = 0;
    cb->npend = 0;
    cb->live = 1;
    chk_mem_block(c, cb, b);
    c->admitted++;
    c->live_blocks++;
}

/* Observer: a block finished. */
static void chk_block_end(void *ctx, ws_run *L, ws_block *b)
{
    ws_chk *c = ctx;
    (void)L;
    chk_blk *cb = chk_blk_of(c, b);
    if (cb->live) c->live_blocks--;
    cb->live = 0;
    c->since_end = 0;
    c->probing = 0;
}

/* Observer: a launch ended; print its findings. */
static void chk_launch_end(void *ctx, ws_run *L, int status)
{
    ws_chk *c = ctx;
    if (c->mc_fault && !L->fault) {   /* memcheck let the kernel finish; now it fails as it would have on a GPU */
        L->fault = c->mc_fault;
        snprintf(L->fault_msg, sizeof L->fault_msg, "%s in %s", c->mc_msg, L->entry->name);
    }
    chk_sync_launch_end(c, L, status);
    for (size_t i = c->open_from; i < c->ng; i++) {
        chk_group *g = &c->g[i];
        if (!g->nhost && c->nhost_launch) chk_group_launch_frames(c, g);
        if (!g->printed) print_group(c, g);
        g->k1 = g->k2 = NULL;   /* instructions die with their module; the group stays for the report */
        g->k3 = 0;
    }
    c->open_from = c->ng;
    blocks_clear(c);
    c->L = NULL;
}

/* Attach the checker to g. */
void ws_chk_attach(ws_chk *c, ws_gpu *g)
{
    c->gpu = g;
    memset(&c->obs, 0, sizeof c->obs);
    c->obs.ctx = c;
    c->obs.launch_begin = chk_launch_begin;
    c->obs.launch_end = chk_launch_end;
    c->obs.block_begin = chk_block_begin;
    c->obs.block_end = chk_block_end;
    if (c->checks & WS_CHK_INITCHECK) c->obs.pre = chk_init_pre;
    c->obs.pre_mem = chk_pre_mem;
    c->obs.post = chk_post;
    c->obs.host_mem = chk_host_mem;
    c->obs.async_write = chk_async_write;
    ws_gpu_add_observer(g, &c->obs);
    /* guard zones: an overflow past an allocation's end reaches unallocated bytes, never the next allocation */
    if (c->checks & WS_CHK_MEMCHECK) ws_gpu_set_alloc_guard(g, CHK_GUARD_BYTES);
}

/* The GPU is going away: report leaks and forget its memory. */
void chk_gpu_reset(ws_chk *c)
{
    report_leaks(c);
    for (size_t i = 0; i < c->nlive; i++) free(c->live[i].host);
    c->nlive = 0;
    c->nfreed = c->freed_next = 0;
    chk_mem_free(c);
    chk_sync_free(c);   /* functions die with the GPU's modules */
    c->gpu = NULL;
}

/* ---------- host side ---------- */

/* A runtime call failed: report it with the host call site. */
void ws_chk_api_error(ws_chk *c, int code, const char *ename, const char *estr, const char *api)
{
    if (!(c->checks & WS_CHK_MEMCHECK)) return;   /* API errors are memcheck's, as in compute-sanitizer */
    char host[CHK_HOST_LINES][200];
    int nh = c->host_frames ? c->host_frames(host, CHK_HOST_LINES) : 0;
    /* group by error, API and first host frame */
    uint64_t key = (uint64_t)code;
    for (const char *p = api; p && *p; p++) key = key * 131 + (unsigned char)*p;
    for (int i = 0; i < nh; i++)
        for (const char *p = host[i]; *p; p++) key = key * 131 + (unsigned char)*p;
    size_t save = c->open_from;
    c->open_from = 0;   /* host-side groups match across launches */
    int fresh;
    chk_group *g = chk_group_get(c, WS_CHK_MEMCHECK, CK_API, NULL, NULL, key, &fresh);
    c->open_from = save;
    if (!g) return;
    chk_group_hit(c, g, NULL, 0);
    if (!fresh) {
        c->pending_free[0] = 0;
        return;
    }
    snprintf(g->title, sizeof g->title, "Program hit %s (error %d) due to \"%s\" on CUDA API call to %s.", ename, code,
             estr, api && *api ? api : "a CUDA runtime function");
    if (c->pending_free[0] && api && strstr(api, "Free")) chk_detail(g, "%s", c->pending_free);
    c->pending_free[0] = 0;
    g->nhost = nh;
    memcpy(g->host, host, sizeof g->host);
    g->host_what = "error";
    snprintf(g->kernel, sizeof g->kernel, "%s", api ? api : "");
    print_group(c, g);
}

/* End of the program: leaks, repeated host-side findings, the summary line. */
void ws_chk_finish(ws_chk *c)
{
    report_leaks(c);
    for (size_t i = 0; i < c->ng; i++) {
        chk_group *g = &c->g[i];
        if (g->kind == CK_API && g->count > 1)
            fprintf(c->out, "========= (the API error \"%s\" happened %lu times)\n", g->title, g->count);
    }
    if (c->dropped) fprintf(c->out, "========= %lu more errors were counted but not grouped (too many sites)\n",
                            c->dropped);
    if (c->benign)
        fprintf(c->out, "========= RACECHECK: %lu benign race%s (warnings, not errors: every write stored the value "
                "already there; --check-benign-races=off hides them)\n", c->benign, c->benign == 1 ? "" : "s");
    fprintf(c->out, "========= ERROR SUMMARY: %lu error%s\n", c->errors, c->errors == 1 ? "" : "s");
    fflush(c->out);
}

/* Errors found so far. */
unsigned long ws_chk_errors(const ws_chk *c) { return c ? c->errors : 0; }

/* The check bits the checker runs. */
unsigned ws_chk_enabled(const ws_chk *c) { return c ? c->checks : 0; }

/* Number of finding groups. */
size_t ws_chk_findings(const ws_chk *c) { return c ? c->ng : 0; }

/* One finding group, as reports show it. */
int ws_chk_finding_get(const ws_chk *c, size_t i, ws_chk_finding *f)
{
    _Static_assert(CHK_HOST_LINES <= WS_CHK_HOST_FRAMES, "ws_chk_finding.host holds every host line");
    if (!c || i >= c->ng) return -1;
    const chk_group *g = &c->g[i];
    memset(f, 0, sizeof *f);
    f->check = g->cls;
    f->title = g->title;
    f->kernel = g->kernel;
    f->file = g->file;
    f->line = g->line;
    f->at = g->where;
    f->other = g->where2;
    f->has_thread = g->has_thread;
    memcpy(f->thread, g->thr, sizeof f->thread);
    memcpy(f->block, g->blk, sizeof f->block);
    f->count = g->count;
    f->errors = g->errors;
    f->detail = g->detail;
    f->nhost = g->nhost;
    for (int k = 0; k < g->nhost; k++) f->host[k] = g->host[k];
    return 0;
}
