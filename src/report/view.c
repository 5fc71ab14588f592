/* view.c - the view collector (view.h): per-launch counts per instruction, blocks on SMs, a warp timeline window,
 * one warp's active masks and memory samples, turned into the "view" JSON of docs/view-format.md. Each launch is
 * materialised when it ends (instruction texts and file names copied), so the data outlives the module. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"
#include "../check/check.h"
#include "../core/observe.h"
#include "../ptx/listing.h"
#include "../timing/timing.h"

#define MAX_SAMPLES 64
#define MAX_DIV 4096
#define MAX_SOURCE_BYTES (4u << 20)
#define MAX_LINES_OUT 2000

static const char *const stall_key[WS_ST_COUNT] = {
    "barrier", "long_scoreboard", "short_scoreboard", "wait", "math_pipe_throttle", "lg_throttle", "not_selected",
    "selected",
};

/* counts of one instruction */
typedef struct vpc {
    uint64_t warp_insts, active, exec;          /* issues, summed active and executing lanes */
    uint64_t greq, gsect, sreq, swf, sconf;     /* global/local requests and sectors; shared requests, wavefronts */
    uint64_t gbytes;                            /* functional: global/local bytes the lanes asked for */
    uint64_t issue;                             /* timing: issue cycles */
    uint64_t stall[WS_ST_COUNT];                /* timing: cycles warps waited to issue it, by reason */
    uint8_t gmem, smem;                         /* it accessed global/local, shared memory */
    uint8_t sampled;                            /* its memory sample was taken (or cannot be) */
} vpc;

/* the counts of one function during a launch */
typedef struct vfn { const ws_func *fn; vpc *pcs; } vfn;

/* one materialised instruction */
typedef struct vinsn {
    char *fn, *text;
    int pc, file, line;                         /* file: index in the view's file table, -1 when unknown */
    const char *pipe;
    vpc c;
} vinsn;

/* a memory sample */
typedef struct vsample {
    const ws_func *fnp;                         /* while the launch runs */
    char *fn;
    int pc;
    uint8_t space, op, bytes;
    uint32_t mask;
    uint64_t addr[32];
    unsigned wavefronts, conflicts;
} vsample;

/* an interval a warp did not issue */
typedef struct vstate { uint64_t t0, t1; uint8_t reason; } vstate;

/* a warp in the timeline */
typedef struct vwarp {
    uint64_t block;
    uint32_t warp;
    uint64_t t_start, t_end;
    vstate *st;
    size_t nst, capst;
} vwarp;

/* a sub-partition in the timeline */
typedef struct vsp {
    int sm, sp;
    uint64_t (*iss)[3];                         /* cycle, warp slot, pc */
    size_t niss, capiss;
    vwarp *w;
    size_t nw, capw;
} vsp;

/* one launch */
typedef struct vlaunch {
    int timing, detailed, nsp;
    uint64_t cycles;
    uint64_t flops, gbytes;                     /* functional: FLOPs of the executing lanes, global bytes asked for */
    /* while it runs */
    const ws_module *mod;
    vfn *fns;
    int nfns;
    const ws_func *last_fn;                     /* the function of the previous lookup, and its counts */
    vpc *last_pcs;
    /* materialised */
    vinsn *ins;
    size_t nins;
    uint64_t (*blk)[4];                         /* block, sm, start, end */
    size_t nblk, capblk;
    int blk_trunc;
    uint64_t *blk_start;                        /* per block slot of blk: index, while placing (by block id) */
    vsp *sps;
    int nsps;
    size_t tl_entries;
    int tl_trunc;
    uint64_t (*div)[3];
    size_t ndiv;
    int div_trunc;
    vsample *smp;
    int nsmp;
} vlaunch;

struct ws_view {
    const ws_device *dev;
    ws_view_opts o;
    int timing;
    vlaunch *ls;
    size_t nls, capls;
    uint64_t dropped;                           /* launches past o.max_launches, not kept */
    vlaunch *cur;
    char **files;                               /* file names (sources) */
    int nfiles;
    uint8_t *watched;                           /* per SM: its timeline is kept */
    int nwatched;
    ws_memsys *ms;                              /* functional mode: counts memory accesses as the timing model does */
    uint64_t ms_clock;
    ws_observer obs;
    ws_tm_listener lis;
};

/* The default options. */
void ws_view_default_opts(ws_view_opts *o)
{
    memset(o, 0, sizeof *o);
    o->sms[0] = 0;
    o->sms[1] = 1;
    o->nsms = 2;
    o->t0 = 0;
    o->t1 = 20000;
    o->max_detailed = 16;
    o->max_launches = 1024;
    o->max_timeline = 400000;
    o->max_blocks = 1000000;
}

/* Parse an option value ('c' cycles A:B, 's' SMs a,b,..., 'w' warp BLOCK:WARP). */
int ws_view_parse_opt(ws_view_opts *o, int which, const char *s, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    if (which == 'c') {
        unsigned long long a = strtoull(s, &end, 10), b;
        if (errno || end == s || *end != ':') goto bad;
        const char *p = end + 1;
        b = strtoull(p, &end, 10);
        if (errno || end == p || *end || b <= a) goto bad;
        o->t0 = a;
        o->t1 = b;
        return 0;
    }
    if (which == 's') {
        int n = 0;
        const char *p = s;
        while (*p) {
            long v = strtol(p, &end, 10);
            if (errno || end == p || v < 0 || v > 65535 || n == WS_VIEW_MAX_SMS || (*end && *end != ',')) goto bad;
            o->sms[n++] = (int)v;
            p = *end ? end + 1 : end;
        }
        if (!n) goto bad;
        o->nsms = n;
        return 0;
    }
    if (which == 'w') {
        unsigned long long b = strtoull(s, &end, 10);
        if (errno || end == s || *end != ':') goto bad;
        const char *p = end + 1;
        long w = strtol(p, &end, 10);
        if (errno || end == p || *end || w < 0 || w > 1023) goto bad;
        o->div_block = b;
        o->div_warp = (int)w;
        return 0;
    }
    if (which == 'l') {
        long n = strtol(s, &end, 10);
        if (errno || end == s || *end || n < 0 || n > 100000) goto bad;
        o->max_detailed = (int)n;
        return 0;
    }
bad:
    snprintf(err, errlen, "cannot read '%s' (cycles are A:B, SMs 0,1,..., a warp BLOCK:WARP, launches 0-100000)", s);
    return -1;
}

/* The counts of instruction in of function fn in launch l (allocated on first use). */
static vpc *pc_of(vlaunch *l, const ws_func *fn, const ws_insn *in)
{
    if (fn == l->last_fn && fn) return &l->last_pcs[in - fn->code];
    if (!fn || in < fn->code || in >= fn->code + fn->ncode) return NULL;
    vfn *f = NULL;
    for (int i = 0; i < l->nfns && !f; i++)
        if (l->fns[i].fn == fn) f = &l->fns[i];
    if (!f) {
        l->fns = realloc(l->fns, sizeof *l->fns * (size_t)(l->nfns + 1));
        f = &l->fns[l->nfns++];
        f->fn = fn;
        f->pcs = calloc((size_t)fn->ncode + 1, sizeof *f->pcs);
    }
    l->last_fn = fn;
    l->last_pcs = f->pcs;
    return &f->pcs[in - fn->code];
}

/* Index of a file name in the view's table (added when new). */
static int file_index(ws_view *v, const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < v->nfiles; i++) if (!strcmp(v->files[i], name)) return i;
    v->files = realloc(v->files, sizeof *v->files * (size_t)(v->nfiles + 1));
    v->files[v->nfiles] = strdup(name);
    return v->nfiles++;
}

/* Whether SM s is one whose timeline is kept. */
static inline int sm_watched(const ws_view *v, int s) { return s < v->nwatched && v->watched[s]; }

/* A new launch begins. */
static vlaunch *launch_new(ws_view *v, const ws_run *L, int nsp)
{
    if (v->nls >= v->o.max_launches) {   /* past the bound: counted, not kept */
        v->dropped++;
        v->cur = NULL;
        return NULL;
    }
    if (v->nls == v->capls) {
        v->capls = v->capls ? v->capls * 2 : 16;
        v->ls = realloc(v->ls, sizeof *v->ls * v->capls);
    }
    vlaunch *l = &v->ls[v->nls++];
    memset(l, 0, sizeof *l);
    l->timing = v->timing;
    l->detailed = (int)v->nls <= v->o.max_detailed;
    l->mod = L->mod;
    l->nsp = nsp;
    if (l->timing && l->detailed) {
        l->nsps = v->o.nsms * nsp;
        l->sps = calloc((size_t)l->nsps, sizeof *l->sps);
        for (int i = 0; i < v->o.nsms; i++)
            for (int k = 0; k < nsp; k++) { l->sps[i * nsp + k].sm = v->o.sms[i]; l->sps[i * nsp + k].sp = k; }
    }
    v->cur = l;
    return l;
}

/* Record a memory sample of instruction in (first execution only). */
static void sample(vlaunch *l, vpc *c, const ws_func *fn, const ws_insn *in, uint32_t exec, uint8_t space,
                   unsigned bytes, const uint64_t *addr, unsigned wf, unsigned conf)
{
    if (c->sampled || !exec) return;
    c->sampled = 1;
    if (!l->detailed || l->nsmp >= MAX_SAMPLES) return;
    int pc = (int)(in - fn->code);
    if (!l->smp) l->smp = calloc(MAX_SAMPLES, sizeof *l->smp);
    vsample *s = &l->smp[l->nsmp++];
    s->fnp = fn;
    s->pc = pc;
    s->space = space;
    s->op = in->mem == WS_MK_LOAD ? 0 : in->mem == WS_MK_STORE ? 1 : 2;
    s->bytes = (uint8_t)(bytes > 255 ? 255 : bytes);
    s->mask = exec;
    memcpy(s->addr, addr, sizeof s->addr);
    s->wavefronts = wf;
    s->conflicts = conf;
}

/* Add one issued instruction of (block, warp) to the divergence strip when it is the chosen warp. */
static void diverge(ws_view *v, vlaunch *l, uint64_t block, uint32_t warp, const ws_func *fn, const ws_insn *in,
                    uint32_t active, uint32_t exec)
{
    if (!l->detailed || block != v->o.div_block || (int)warp != v->o.div_warp || !fn || !in) return;
    if (l->ndiv >= MAX_DIV) { l->div_trunc = 1; return; }
    if (!l->div) l->div = malloc(sizeof *l->div * MAX_DIV);
    l->div[l->ndiv][0] = (uint64_t)(in - fn->code);
    l->div[l->ndiv][1] = active;
    l->div[l->ndiv][2] = exec;
    l->ndiv++;
}

/* Copy the launch's counts into self-contained records and free the per-function tables. */
static void launch_finish(ws_view *v, vlaunch *l)
{
    size_t n = 0;
    for (int i = 0; i < l->nfns; i++)
        for (int pc = 0; pc < l->fns[i].fn->ncode; pc++) {
            const vpc *c = &l->fns[i].pcs[pc];
            if (c->warp_insts || c->issue || c->stall[WS_ST_NOT_SELECTED] || c->stall[WS_ST_WAIT]) n++;
        }
    l->ins = calloc(n + 1, sizeof *l->ins);
    const ws_ptx_module *pm = l->mod ? l->mod->ptx : NULL;
    for (int i = 0; i < l->nfns; i++) {
        const ws_func *fn = l->fns[i].fn;
        for (int pc = 0; pc < fn->ncode; pc++) {
            const vpc *c = &l->fns[i].pcs[pc];
            if (!(c->warp_insts || c->issue || c->stall[WS_ST_NOT_SELECTED] || c->stall[WS_ST_WAIT])) continue;
            vinsn *x = &l->ins[l->nins++];
            const ws_insn *in = &fn->code[pc];
            char buf[512];
            x->fn = strdup(fn->name);
            x->text = strdup(pm ? ws_ptx_insn_text(pm, fn, pc, buf, sizeof buf) : ws_opcode_name(in->op));
            x->pc = pc;
            x->line = (int)in->line;
            x->file = in->line && fn->files && l->mod && in->file < (unsigned)l->mod->nfiles ?
                      file_index(v, fn->files[in->file]) : -1;
            x->pipe = ws_ptx_pipe_name(in->pipe);
            x->c = *c;
            l->flops += (uint64_t)in->flops * c->exec;
            l->gbytes += c->gbytes;
        }
        free(l->fns[i].pcs);
    }
    for (int k = 0; k < l->nsmp; k++) l->smp[k].fn = strdup(l->smp[k].fnp ? l->smp[k].fnp->name : "?");
    free(l->fns);
    l->fns = NULL;
    l->nfns = 0;
    l->last_fn = NULL;
    l->last_pcs = NULL;
    free(l->blk_start);
    l->blk_start = NULL;
    l->mod = NULL;
    v->cur = NULL;
}

/* ---------- functional mode: the core's records ---------- */

/* Observer: a launch begins. */
static void obs_launch_begin(void *ctx, ws_run *L)
{
    ws_view *v = ctx;
    launch_new(v, L, 0);
}

/* Observer: a launch ended. */
static void obs_launch_end(void *ctx, ws_run *L, int status)
{
    (void)L, (void)status;
    ws_view *v = ctx;
    if (v->cur) launch_finish(v, v->cur);
}

/* Observer: one executed warp instruction. */
static void obs_post(void *ctx, ws_warp *w, const ws_rec *r)
{
    ws_view *v = ctx;
    vlaunch *l = v->cur;
    if (!l) return;
    vpc *c = pc_of(l, r->fn, r->in);
    if (!c) return;
    c->warp_insts++;
    c->active += (uint64_t)__builtin_popcount(r->active);
    c->exec += (uint64_t)__builtin_popcount(r->exec);
    diverge(v, l, w->blk->linear, (uint32_t)w->warp_in_block, r->fn, r->in, r->active, r->exec);
    if (!r->is_mem || !r->exec || !(r->in->iflags & WS_IF_MEMSYS) || !v->ms) return;
    /* the timing model's memory system counts requests, sectors and wavefronts (its clock is not used) */
    ws_ms_access_warp(v->ms, 0, w->blk->linear * 64u + (uint64_t)w->warp_in_block, r, v->ms_clock += 64);
    const ws_ms_access_counts *a = ws_ms_last_access(v->ms);
    int space = r->space[__builtin_ctz(r->exec)];
    if (space == WS_S_SHARED) { c->smem = 1; c->sreq++; c->swf += a->wavefronts; c->sconf += a->conflicts; }
    else if (space != WS_S_CONST) {
        c->gmem = 1; c->greq += a->requests; c->gsect += a->sectors;
        c->gbytes += (uint64_t)r->size * (uint64_t)__builtin_popcount(r->exec);
    }
    sample(l, c, r->fn, r->in, r->exec, (uint8_t)space, r->size, r->addr, a->wavefronts, a->conflicts);
}

/* ---------- timing mode: the timing model's events ---------- */

/* Listener: a launch begins. */
static void lis_launch_begin(void *ctx, const ws_run *L, int nsm, int nsp)
{
    (void)nsm;
    launch_new(ctx, L, nsp);
}

/* Listener: the launch ended. */
static void lis_launch_end(void *ctx, const ws_run *L, const ws_tm_result *r)
{
    (void)L;
    ws_view *v = ctx;
    if (!v->cur) return;
    v->cur->cycles = r ? r->cycles : 0;
    launch_finish(v, v->cur);
}

/* The timeline sub-partition of (sm, sp), or NULL when it is not watched. */
static vsp *sp_of(vlaunch *l, int sm, int sp)
{
    for (int i = 0; i < l->nsps; i++) if (l->sps[i].sm == sm && l->sps[i].sp == sp) return &l->sps[i];
    return NULL;
}

/* The timeline warp (block, warp) of sub-partition s (added when new, at t). */
static vwarp *warp_of(vsp *s, uint64_t block, uint32_t warp, uint64_t t, size_t *slot)
{
    for (size_t i = s->nw; i-- > 0 && i + 256 >= s->nw;)
        if (s->w[i].block == block && s->w[i].warp == warp) { *slot = i; return &s->w[i]; }
    if (s->nw == s->capw) {
        s->capw = s->capw ? s->capw * 2 : 32;
        s->w = realloc(s->w, sizeof *s->w * s->capw);
    }
    vwarp *w = &s->w[s->nw];
    memset(w, 0, sizeof *w);
    w->block = block;
    w->warp = warp;
    w->t_start = t;
    w->t_end = UINT64_MAX;
    *slot = s->nw++;
    return w;
}

/* Timeline entry budget: 1 when one more entry may be kept. */
static int tl_room(ws_view *v, vlaunch *l)
{
    if (l->tl_entries >= v->o.max_timeline) { l->tl_trunc = 1; return 0; }
    l->tl_entries++;
    return 1;
}

/* Add the interval [t0, t1) of `reason` to warp w, clipped to the window; 0 when the budget is spent. */
static int add_state(ws_view *v, vlaunch *l, vwarp *w, uint64_t t0, uint64_t t1, int reason)
{
    if (t0 < v->o.t0) t0 = v->o.t0;
    if (t1 > v->o.t1) t1 = v->o.t1;
    if (t0 >= t1) return 1;
    if (!tl_room(v, l)) return 0;
    if (w->nst == w->capst) {
        w->capst = w->capst ? w->capst * 2 : 16;
        w->st = realloc(w->st, sizeof *w->st * w->capst);
    }
    w->st[w->nst++] = (vstate){ t0, t1, (uint8_t)reason };
    return 1;
}

/* One event of a watched SM into the launch's timeline window, if it falls in it. */
static void timeline(ws_view *v, vlaunch *l, const ws_tm_event *e)
{
    if (e->kind == WS_TE_BLOCK_RETIRED) {
        for (int i = 0; i < l->nsps; i++) {
            vsp *s = &l->sps[i];
            if (s->sm != e->sm) continue;
            for (size_t k = s->nw; k-- > 0 && k + 256 >= s->nw;)
                if (s->w[k].block == e->block) s->w[k].t_end = e->t0;
        }
        return;
    }
    if (e->kind != WS_TE_ISSUE || e->t0 < v->o.t0 || e->wait_from >= v->o.t1) return;
    vsp *s = sp_of(l, e->sm, e->sp);
    if (!s) return;
    size_t slot;
    vwarp *w = warp_of(s, e->block, e->warp, e->wait_from, &slot);
    if (!add_state(v, l, w, e->wait_from, e->wait_from + e->dep, e->reason) ||
        !add_state(v, l, w, e->wait_from + e->dep, e->t0, WS_ST_NOT_SELECTED))
        return;
    if (e->t0 >= v->o.t1 || !tl_room(v, l)) return;
    if (s->niss == s->capiss) {
        s->capiss = s->capiss ? s->capiss * 2 : 256;
        s->iss = realloc(s->iss, sizeof *s->iss * s->capiss);
    }
    s->iss[s->niss][0] = e->t0;
    s->iss[s->niss][1] = slot;
    s->iss[s->niss][2] = e->in && e->fn ? (uint64_t)(e->in - e->fn->code) : UINT64_MAX;
    s->niss++;
}

/* Listener: a batch of events. */
static void lis_events(void *ctx, const ws_run *L, const ws_tm_event *ev, size_t n)
{
    (void)L;
    ws_view *v = ctx;
    vlaunch *l = v->cur;
    if (!l) return;
    for (size_t i = 0; i < n; i++) {
        const ws_tm_event *e = &ev[i];
        switch (e->kind) {
        case WS_TE_BLOCK_PLACED:
            if (!l->detailed) break;
            if (l->nblk >= v->o.max_blocks) { l->blk_trunc = 1; break; }
            if (l->nblk == l->capblk) {
                l->capblk = l->capblk ? l->capblk * 2 : 256;
                l->blk = realloc(l->blk, sizeof *l->blk * l->capblk);
            }
            l->blk[l->nblk][0] = e->block;
            l->blk[l->nblk][1] = e->sm;
            l->blk[l->nblk][2] = e->t0;
            l->blk[l->nblk][3] = UINT64_MAX;
            l->nblk++;
            break;
        case WS_TE_BLOCK_RETIRED:
            /* blocks retire roughly in placement order: look back from the newest */
            for (size_t k = l->nblk; k-- > 0;)
                if (l->blk[k][0] == e->block && l->blk[k][3] == UINT64_MAX) { l->blk[k][3] = e->t0; break; }
            if (l->sps && sm_watched(v, e->sm)) timeline(v, l, e);
            break;
        case WS_TE_ISSUE: {
            /* the wait before the issue belongs to the instruction the warp waited to issue */
            vpc *c = e->in ? pc_of(l, e->fn, e->in) : NULL;
            if (c) {
                c->warp_insts++;
                c->issue++;
                c->active += (uint64_t)__builtin_popcount(e->active);
                c->exec += (uint64_t)__builtin_popcount(e->exec);
                if (e->reason < WS_ST_COUNT) c->stall[e->reason] += e->dep;
                c->stall[WS_ST_NOT_SELECTED] += e->t0 - e->wait_from - e->dep;
                diverge(v, l, e->block, e->warp, e->fn, e->in, e->active, e->exec);
            }
            if (l->sps && sm_watched(v, e->sm)) timeline(v, l, e);
            break;
        }
        case WS_TE_MEM: {
            vpc *c = pc_of(l, e->fn, e->in);
            if (!c) break;
            if (e->space == WS_S_SHARED) { c->smem = 1; c->sreq++; c->swf += e->wavefronts; c->sconf += e->conflicts; }
            else if (e->space != WS_S_CONST) { c->gmem = 1; c->greq += e->requests; c->gsect += e->sectors; }
            if (e->addr && !c->sampled) {
                unsigned bytes = (unsigned)ws_type_size(e->in->type) *
                                 (e->in->mem == WS_MK_STORE ? (e->in->ns ? e->in->ns : 1) : e->in->vec);
                sample(l, c, e->fn, e->in, e->exec, e->space, bytes, e->addr, e->wavefronts, e->conflicts);
            }
            break;
        }
        default:
            break;
        }
    }
}

/* Create a collector. */
ws_view *ws_view_create(const ws_device *d, const ws_view_opts *o)
{
    ws_view *v = calloc(1, sizeof *v);
    if (!v) return NULL;
    v->dev = d;
    if (o) v->o = *o;
    else ws_view_default_opts(&v->o);
    v->obs.ctx = v;
    v->obs.launch_begin = obs_launch_begin;
    v->obs.launch_end = obs_launch_end;
    v->obs.post = obs_post;
    v->lis.ctx = v;
    v->lis.launch_begin = lis_launch_begin;
    v->lis.events = lis_events;
    v->lis.launch_end = lis_launch_end;
    v->lis.want_addresses = 1;
    int top = 0;
    for (int i = 0; i < v->o.nsms; i++) if (v->o.sms[i] + 1 > top) top = v->o.sms[i] + 1;
    v->nwatched = top;
    v->watched = calloc((size_t)top + 1, 1);
    for (int i = 0; i < v->o.nsms; i++) v->watched[v->o.sms[i]] = 1;
    return v;
}

/* Watch launches on g (through tm in timing mode). */
void ws_view_attach(ws_view *v, ws_gpu *g, struct ws_tm *tm)
{
    if (tm) {
        v->timing = 1;
        ws_tm_add_listener(tm, &v->lis);
    } else {
        v->timing = 0;
        if (!v->ms) v->ms = ws_ms_create(v->dev);
        ws_gpu_add_observer(g, &v->obs);
    }
}

/* Stop watching. */
void ws_view_detach(ws_view *v, ws_gpu *g, struct ws_tm *tm)
{
    if (tm) ws_tm_remove_listener(tm, &v->lis);
    if (g) ws_gpu_remove_observer(g, &v->obs);
}

/* Launches seen so far. */
size_t ws_view_launches(const ws_view *v) { return v->nls; }

/* Write a stall map (reason -> cycles, nonzero ones) as the member "stalls". */
static void stalls_json(ws_json *w, const uint64_t *st)
{
    ws_json_key(w, "stalls");
    ws_json_begin_object(w);
    for (int k = 0; k < WS_ST_COUNT; k++)
        if (st[k] && k != WS_ST_SELECTED) ws_json_member_uint(w, stall_key[k], st[k]);
    ws_json_end_object(w);
}

/* Write the memory counts of c ("global" and/or "shared" members). */
static void mem_json(ws_json *w, const vpc *c)
{
    if (c->gmem) {
        ws_json_key(w, "global");
        ws_json_begin_object(w);
        ws_json_member_uint(w, "requests", c->greq);
        ws_json_member_uint(w, "sectors", c->gsect);
        ws_json_end_object(w);
    }
    if (c->smem) {
        ws_json_key(w, "shared");
        ws_json_begin_object(w);
        ws_json_member_uint(w, "requests", c->sreq);
        ws_json_member_uint(w, "wavefronts", c->swf);
        ws_json_member_uint(w, "conflicts", c->sconf);
        ws_json_end_object(w);
    }
}

/* Write one instruction's record. */
static void insn_json(ws_json *w, const ws_view *v, const vinsn *x)
{
    ws_json_begin_object(w);
    ws_json_member_string(w, "fn", x->fn);
    ws_json_member_int(w, "pc", x->pc);
    ws_json_member_string(w, "text", x->text);
    if (x->file >= 0) ws_json_member_string(w, "file", v->files[x->file]);
    else ws_json_member_null(w, "file");
    ws_json_member_int(w, "line", x->line);
    ws_json_member_string(w, "pipe", x->pipe);
    ws_json_member_uint(w, "warp_insts", x->c.warp_insts);
    ws_json_member_double(w, "active_lanes", x->c.warp_insts ? (double)x->c.active / (double)x->c.warp_insts : 0, 2);
    ws_json_member_double(w, "exec_lanes", x->c.warp_insts ? (double)x->c.exec / (double)x->c.warp_insts : 0, 2);
    mem_json(w, &x->c);
    if (v->timing) {
        ws_json_member_uint(w, "issue_cycles", x->c.issue);
        stalls_json(w, x->c.stall);
    }
    ws_json_end_object(w);
}

/* a source line's totals */
typedef struct vline { int file, line; vpc c; size_t *ix; size_t nix; uint64_t stall_total; } vline;

/* Order lines hottest first (stall cycles in timing mode, warp instructions otherwise). */
static int line_cmp(const void *a, const void *b)
{
    const vline *x = a, *y = b;
    uint64_t kx = x->stall_total + x->c.warp_insts, ky = y->stall_total + y->c.warp_insts;
    if (kx != ky) return kx > ky ? -1 : 1;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Write a launch's "lines". */
static void lines_json(ws_json *w, const ws_view *v, const vlaunch *l)
{
    vline *ln = calloc(l->nins + 1, sizeof *ln);
    size_t n = 0;
    uint64_t total_issue = 0;
    for (size_t i = 0; i < l->nins; i++) {
        const vinsn *x = &l->ins[i];
        total_issue += x->c.warp_insts;
        if (x->line <= 0 || x->file < 0) continue;
        size_t k = 0;
        while (k < n && !(ln[k].file == x->file && ln[k].line == x->line)) k++;
        if (k == n) { ln[n].file = x->file; ln[n].line = x->line; n++; }
        vline *L = &ln[k];
        L->c.warp_insts += x->c.warp_insts;
        L->c.active += x->c.active;
        L->c.exec += x->c.exec;
        L->c.greq += x->c.greq;
        L->c.gsect += x->c.gsect;
        L->c.sreq += x->c.sreq;
        L->c.swf += x->c.swf;
        L->c.sconf += x->c.sconf;
        L->c.gmem |= x->c.gmem;
        L->c.smem |= x->c.smem;
        L->c.issue += x->c.issue;
        for (int r = 0; r < WS_ST_COUNT; r++) {
            L->c.stall[r] += x->c.stall[r];
            if (r != WS_ST_SELECTED) L->stall_total += x->c.stall[r];
        }
        L->ix = realloc(L->ix, sizeof *L->ix * (L->nix + 1));
        L->ix[L->nix++] = i;
    }
    qsort(ln, n, sizeof *ln, line_cmp);
    size_t hot = n < 3 ? n : 3;
    ws_json_key(w, "lines");
    ws_json_begin_array(w);
    for (size_t k = 0; k < n && k < MAX_LINES_OUT; k++) {
        const vline *L = &ln[k];
        ws_json_break(w, 4);
        ws_json_begin_object(w);
        ws_json_member_string(w, "file", v->files[L->file]);
        ws_json_member_int(w, "line", L->line);
        ws_json_key(w, "pcs");
        ws_json_begin_array(w);
        for (size_t j = 0; j < L->nix; j++) {
            ws_json_begin_array(w);
            ws_json_string(w, l->ins[L->ix[j]].fn);
            ws_json_int(w, l->ins[L->ix[j]].pc);
            ws_json_end_array(w);
        }
        ws_json_end_array(w);
        ws_json_member_uint(w, "warp_insts", L->c.warp_insts);
        ws_json_member_double(w, "active_lanes", L->c.warp_insts ? (double)L->c.active / (double)L->c.warp_insts : 0, 2);
        mem_json(w, &L->c);
        if (v->timing) {
            ws_json_member_double(w, "issue_share_pct",
                                  total_issue ? 100.0 * (double)L->c.warp_insts / (double)total_issue : 0, 2);
            stalls_json(w, L->c.stall);
        }
        ws_json_member_bool(w, "hot", k < hot && (L->c.warp_insts || L->stall_total));
        ws_json_end_object(w);
    }
    ws_json_end_array(w);
    for (size_t k = 0; k < n; k++) free(ln[k].ix);
    free(ln);
}

/* Write a launch's timeline window. */
static void timeline_json(ws_json *w, const ws_view *v, const vlaunch *l)
{
    ws_json_key(w, "timeline");
    ws_json_begin_object(w);
    ws_json_key(w, "sms");
    ws_json_begin_array(w);
    for (int i = 0; i < v->o.nsms; i++) ws_json_int(w, v->o.sms[i]);
    ws_json_end_array(w);
    ws_json_member_uint(w, "t0", v->o.t0);
    ws_json_member_uint(w, "t1", l->cycles && l->cycles < v->o.t1 ? l->cycles : v->o.t1);
    ws_json_member_bool(w, "truncated", l->tl_trunc);
    ws_json_key(w, "subpartitions");
    ws_json_begin_array(w);
    for (int i = 0; i < l->nsps; i++) {
        const vsp *s = &l->sps[i];
        ws_json_break(w, 4);
        ws_json_begin_object(w);
        ws_json_member_int(w, "sm", s->sm);
        ws_json_member_int(w, "sp", s->sp);
        ws_json_key(w, "issues");
        ws_json_begin_array(w);
        for (size_t k = 0; k < s->niss; k++) {
            ws_json_begin_array(w);
            ws_json_uint(w, s->iss[k][0]);
            ws_json_uint(w, s->iss[k][1]);
            if (s->iss[k][2] == UINT64_MAX) ws_json_null(w);
            else ws_json_uint(w, s->iss[k][2]);
            ws_json_end_array(w);
        }
        ws_json_end_array(w);
        ws_json_key(w, "warps");
        ws_json_begin_array(w);
        for (size_t k = 0; k < s->nw; k++) {
            const vwarp *x = &s->w[k];
            ws_json_begin_object(w);
            ws_json_member_uint(w, "slot", k);
            ws_json_member_uint(w, "block", x->block);
            ws_json_member_uint(w, "warp", x->warp);
            ws_json_member_uint(w, "t_start", x->t_start);
            if (x->t_end == UINT64_MAX) ws_json_member_null(w, "t_end");
            else ws_json_member_uint(w, "t_end", x->t_end);
            ws_json_key(w, "states");
            ws_json_begin_array(w);
            for (size_t j = 0; j < x->nst; j++) {
                ws_json_begin_array(w);
                ws_json_uint(w, x->st[j].t0);
                ws_json_uint(w, x->st[j].t1);
                ws_json_string(w, x->st[j].reason < WS_ST_COUNT ? stall_key[x->st[j].reason] : "?");
                ws_json_end_array(w);
            }
            ws_json_end_array(w);
            ws_json_end_object(w);
        }
        ws_json_end_array(w);
        ws_json_end_object(w);
    }
    ws_json_end_array(w);
    ws_json_end_object(w);
}

/* Write a launch's memory samples. */
static void samples_json(ws_json *w, const ws_view *v, const vlaunch *l)
{
    static const char *const spname[] = { "generic", "global", "shared", "local", "const", "param", "param" };
    static const char *const opname[] = { "load", "store", "atomic" };
    unsigned banks = v->dev && v->dev->smem_banks ? (unsigned)v->dev->smem_banks : 32;
    unsigned bb = v->dev && v->dev->smem_bank_bytes ? (unsigned)v->dev->smem_bank_bytes : 4;
    int lanes = v->dev && v->dev->warp_size ? v->dev->warp_size : 32;
    ws_json_key(w, "memory");
    ws_json_begin_array(w);
    for (int i = 0; i < l->nsmp; i++) {
        const vsample *s = &l->smp[i];
        ws_json_break(w, 4);
        ws_json_begin_object(w);
        ws_json_member_string(w, "fn", s->fn);
        ws_json_member_int(w, "pc", s->pc);
        ws_json_member_string(w, "space", s->space < 7 ? spname[s->space] : "?");
        ws_json_member_string(w, "op", opname[s->op < 3 ? s->op : 2]);
        ws_json_member_int(w, "bytes_per_lane", s->bytes);
        ws_json_key(w, "lanes");
        ws_json_begin_array(w);
        for (int k = 0; k < lanes && k < 32; k++) {
            if (!(s->mask >> k & 1)) continue;
            ws_json_begin_array(w);
            ws_json_int(w, k);
            ws_json_uint(w, s->addr[k]);
            ws_json_end_array(w);
        }
        ws_json_end_array(w);
        if (s->space == WS_S_SHARED) {
            ws_json_key(w, "banks");
            ws_json_begin_array(w);
            for (int k = 0; k < lanes && k < 32; k++) {
                if (!(s->mask >> k & 1)) continue;
                ws_json_begin_array(w);
                ws_json_int(w, k);
                ws_json_uint(w, (s->addr[k] / bb) % banks);
                ws_json_uint(w, s->addr[k] / bb);
                ws_json_end_array(w);
            }
            ws_json_end_array(w);
            ws_json_member_uint(w, "wavefronts", s->wavefronts);
            ws_json_member_uint(w, "conflicts", s->conflicts);
        } else if (s->space == WS_S_GLOBAL) {
            uint64_t sec[64], lin[64];
            int ns = 0, nl = 0;
            unsigned bytes = s->bytes ? s->bytes : 4;
            for (int k = 0; k < 32; k++) {
                if (!(s->mask >> k & 1)) continue;
                for (uint64_t a = s->addr[k] / 32; a <= (s->addr[k] + bytes - 1) / 32; a++) {
                    int seen = 0;
                    for (int j = 0; j < ns; j++) if (sec[j] == a * 32) seen = 1;
                    if (!seen && ns < 64) sec[ns++] = a * 32;
                    uint64_t ln = a / 4 * 128;
                    seen = 0;
                    for (int j = 0; j < nl; j++) if (lin[j] == ln) seen = 1;
                    if (!seen && nl < 64) lin[nl++] = ln;
                }
            }
            ws_json_key(w, "sectors");
            ws_json_begin_array(w);
            for (int j = 0; j < ns; j++) ws_json_uint(w, sec[j]);
            ws_json_end_array(w);
            ws_json_key(w, "lines");
            ws_json_begin_array(w);
            for (int j = 0; j < nl; j++) ws_json_uint(w, lin[j]);
            ws_json_end_array(w);
        }
        ws_json_end_object(w);
    }
    ws_json_end_array(w);
}

/* The view's names of the limiters: the keys of its "limits" (Nsight Compute's launch__occupancy_limit_*). */
static const char *const view_limiter_name[] = {
    [WS_OCC_LIMIT_NONE] = "none", [WS_OCC_LIMIT_THREADS] = "warps", [WS_OCC_LIMIT_BLOCKS] = "blocks",
    [WS_OCC_LIMIT_REGISTERS] = "registers", [WS_OCC_LIMIT_SHARED_MEMORY] = "shared_mem",
    [WS_OCC_LIMIT_BARRIERS] = "barriers",
};

/* Write a launch's occupancy and roofline from its report record. */
static void occ_roof_json(ws_json *w, const ws_view *v, const vlaunch *l, const ws_rep_launch *r)
{
    const ws_device *d = v->dev;
    if (r->has_occ) {
        const ws_occ_result *o = &r->occ;
        ws_json_key(w, "occupancy");
        ws_json_begin_object(w);
        ws_json_member_int(w, "threads_per_block", o->threads_per_block);
        ws_json_member_int(w, "registers_per_thread", o->regs_per_thread);
        ws_json_member_uint(w, "smem_per_block", o->smem_per_block);
        ws_json_member_int(w, "blocks_per_sm", o->blocks_per_sm);
        ws_json_key(w, "limits");
        ws_json_begin_object(w);
        ws_json_member_int(w, "warps", o->limit_threads == WS_OCC_UNLIMITED ? 0 : o->limit_threads);
        ws_json_member_int(w, "blocks", o->limit_blocks == WS_OCC_UNLIMITED ? 0 : o->limit_blocks);
        ws_json_member_int(w, "registers", o->limit_registers == WS_OCC_UNLIMITED ? 0 : o->limit_registers);
        ws_json_member_int(w, "shared_mem", o->limit_shared_memory == WS_OCC_UNLIMITED ? 0 : o->limit_shared_memory);
        ws_json_end_object(w);
        ws_json_member_string(w, "limiter", view_limiter_name[o->limiter]);
        ws_json_member_double(w, "occupancy_pct", 100.0 * o->occupancy, 2);
        if (r->has_tm) ws_json_member_double(w, "achieved_pct", r->tm.achieved_occupancy_pct, 2);
        ws_json_member_double(w, "waves", o->waves_per_sm, 2);
        ws_json_end_object(w);
    }
    ws_json_key(w, "roofline");
    ws_json_begin_object(w);
    if (r->has_tm) {
        const ws_ms_counts *m = &r->tm.mem;
        ws_json_member_uint(w, "flops", r->tm.flops);
        ws_json_member_uint(w, "dram_bytes", m->dram_read_bytes + m->dram_write_bytes);
        ws_json_member_double_g(w, "seconds", r->tm.duration_ns * 1e-9, 6);
    } else {   /* functional mode: the executing lanes' FLOPs and the global bytes they asked for */
        ws_json_member_uint(w, "flops", l->flops);
        ws_json_member_uint(w, "dram_bytes", l->gbytes);
    }
    if (d) {
        ws_json_member_double_g(w, "peak_flops", d->fp32_tflops * 1e12, 6);
        ws_json_member_double_g(w, "peak_bandwidth", d->mem_bandwidth_gbs * 1e9, 6);
        ws_json_member_double(w, "ridge", d->mem_bandwidth_gbs > 0 ? d->fp32_tflops * 1e3 / d->mem_bandwidth_gbs : 0, 2);
    }
    ws_json_end_object(w);
}

/* Write the source files the launches' instructions name (bounded in bytes). */
static void sources_json(ws_json *w, const ws_view *v)
{
    ws_json_key(w, "sources");
    ws_json_begin_object(w);
    size_t budget = MAX_SOURCE_BYTES;
    for (int i = 0; i < v->nfiles; i++) {
        FILE *f = fopen(v->files[i], "r");
        if (!f) continue;
        ws_json_key(w, v->files[i]);
        ws_json_begin_object(w);
        ws_json_key(w, "lines");
        ws_json_begin_array(w);
        char buf[4096];
        int truncated = 0;
        while (fgets(buf, sizeof buf, f)) {
            size_t n = strlen(buf);
            if (n > budget) { truncated = 1; break; }
            budget -= n;
            while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r')) buf[--n] = 0;
            ws_json_string(w, buf);
        }
        ws_json_end_array(w);
        if (truncated) ws_json_member_bool(w, "truncated", 1);
        ws_json_end_object(w);
        fclose(f);
    }
    ws_json_end_object(w);
}

/* Write the members of the "view" object. */
void ws_view_json_members(ws_view *v, ws_json *w, const ws_rep_launch *launches, size_t n)
{
    const ws_device *d = v->dev;
    if (v->cur) launch_finish(v, v->cur);   /* a launch cut short at exit */
    ws_json_member_int(w, "version", 1);
    ws_json_member_string(w, "mode", v->timing ? "timing" : "functional");
    if (d) {
        ws_json_key(w, "device");
        ws_json_begin_object(w);
        ws_json_member_string(w, "name", d->name);
        ws_json_member_string(w, "full_name", d->full_name);
        ws_json_member_int(w, "sm_count", d->sm_count);
        ws_json_member_int(w, "subpartitions", d->subpartitions);
        ws_json_member_int(w, "warp_size", d->warp_size);
        ws_json_member_double(w, "clock_mhz", d->sm_clock_mhz, 1);
        ws_json_member_double(w, "fp32_tflops", d->fp32_tflops, 3);
        ws_json_member_double(w, "mem_bandwidth_gbs", d->mem_bandwidth_gbs, 1);
        ws_json_member_int(w, "banks", d->smem_banks);
        ws_json_member_int(w, "bank_bytes", d->smem_bank_bytes);
        ws_json_member_int(w, "max_warps_per_sm", d->max_warps_per_sm);
        ws_json_member_int(w, "max_threads_per_sm", d->max_threads_per_sm);
        ws_json_member_int(w, "max_blocks_per_sm", d->max_blocks_per_sm);
        ws_json_member_int(w, "regs_per_sm", d->regs_per_sm);
        ws_json_member_uint(w, "smem_per_sm", d->smem_per_sm);
        ws_json_end_object(w);
    }
    sources_json(w, v);
    if (v->dropped) ws_json_member_uint(w, "launches_dropped", v->dropped);
    ws_json_key(w, "launches");
    ws_json_begin_array(w);
    for (size_t i = 0; i < v->nls && i < n; i++) {
        const vlaunch *l = &v->ls[i];
        const ws_rep_launch *r = &launches[i];
        char name[512];
        ws_chk_demangle(r->kernel, name, sizeof name);
        ws_json_break(w, 2);
        ws_json_begin_object(w);
        ws_json_member_uint(w, "index", i);
        ws_json_member_string(w, "kernel", r->kernel);
        ws_json_member_string(w, "name", name);
        if (r->ndevices > 1) ws_json_member_int(w, "device", r->device);   /* several devices (--gpus) */
        ws_json_key(w, "grid");
        ws_json_begin_array(w);
        ws_json_uint(w, r->grid.x); ws_json_uint(w, r->grid.y); ws_json_uint(w, r->grid.z);
        ws_json_end_array(w);
        ws_json_key(w, "block");
        ws_json_begin_array(w);
        ws_json_uint(w, r->block.x); ws_json_uint(w, r->block.y); ws_json_uint(w, r->block.z);
        ws_json_end_array(w);
        ws_json_member_uint(w, "dynamic_smem", r->dyn_smem);
        ws_json_member_uint(w, "warp_insts", r->stats.warp_insts);
        ws_json_member_uint(w, "thread_insts", r->stats.thread_insts);
        if (r->has_tm) ws_json_member_uint(w, "cycles", r->tm.cycles);
        occ_roof_json(w, v, l, r);
        ws_json_key(w, "ptx");
        ws_json_begin_array(w);
        for (size_t k = 0; k < l->nins; k++) { ws_json_break(w, 4); insn_json(w, v, &l->ins[k]); }
        ws_json_end_array(w);
        lines_json(w, v, l);
        if (l->timing && l->detailed) {
            ws_json_key(w, "blocks");
            ws_json_begin_object(w);
            ws_json_key(w, "items");
            ws_json_begin_array(w);
            for (size_t k = 0; k < l->nblk; k++) {
                ws_json_begin_array(w);
                for (int j = 0; j < 4; j++) {
                    if (l->blk[k][j] == UINT64_MAX) ws_json_null(w);
                    else ws_json_uint(w, l->blk[k][j]);
                }
                ws_json_end_array(w);
            }
            ws_json_end_array(w);
            ws_json_member_bool(w, "truncated", l->blk_trunc);
            ws_json_end_object(w);
            timeline_json(w, v, l);
        }
        if (l->detailed) {
            ws_json_key(w, "divergence");
            ws_json_begin_object(w);
            ws_json_member_uint(w, "block", v->o.div_block);
            ws_json_member_int(w, "warp", v->o.div_warp);
            ws_json_member_int(w, "lanes", d && d->warp_size ? d->warp_size : 32);
            ws_json_key(w, "steps");
            ws_json_begin_array(w);
            for (size_t k = 0; k < l->ndiv; k++) {
                ws_json_begin_array(w);
                ws_json_uint(w, l->div[k][0]);
                ws_json_uint(w, l->div[k][1]);
                ws_json_uint(w, l->div[k][2]);
                ws_json_end_array(w);
            }
            ws_json_end_array(w);
            ws_json_member_bool(w, "truncated", l->div_trunc);
            ws_json_end_object(w);
            samples_json(w, v, l);
        }
        ws_json_end_object(w);
    }
    ws_json_end_array(w);
}

/* Free a launch's data. */
static void launch_free(vlaunch *l)
{
    for (size_t k = 0; k < l->nins; k++) { free(l->ins[k].fn); free(l->ins[k].text); }
    free(l->ins);
    for (int i = 0; i < l->nfns; i++) free(l->fns[i].pcs);
    free(l->fns);
    free(l->blk);
    free(l->blk_start);
    for (int i = 0; i < l->nsps; i++) {
        for (size_t k = 0; k < l->sps[i].nw; k++) free(l->sps[i].w[k].st);
        free(l->sps[i].w);
        free(l->sps[i].iss);
    }
    free(l->sps);
    free(l->div);
    for (int i = 0; i < l->nsmp; i++) free(l->smp[i].fn);
    free(l->smp);
}

/* Free the collector. */
void ws_view_destroy(ws_view *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->nls; i++) launch_free(&v->ls[i]);
    free(v->ls);
    for (int i = 0; i < v->nfiles; i++) free(v->files[i]);
    free(v->files);
    ws_ms_destroy(v->ms);
    free(v->watched);
    free(v);
}
