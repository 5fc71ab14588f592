/* chk_init.c - initcheck as MemorySanitizer does it: definedness is tracked, and only a use of an undefined value
 * is an error. Registers carry a shadow of undefined bits (one 64-bit word per register lane, the register's own
 * width: exact where it costs nothing, for and/or/xor/not, shifts, moves, packs, selp), memory a bit or byte per
 * byte (chk_mem.c: the global arena's written bits, shared memory's written and poisoned bits, local memory's byte
 * states here). Loads bring memory's shadow into registers, stores of registers into shared or local memory carry
 * it back; arithmetic makes a result undefined when an input is (all of the result's bits). A branch or a guard of an
 * instruction with effects, an address, an atomic's operand, a store to global (host-visible) memory and a printf
 * argument are uses: each report names the use and the load the undefined bits came from (its origin). Everything
 * runs in the checker's observer callbacks, so with --check off the executor pays nothing. */
#include <stdlib.h>
#include <string.h>
#include "chk_int.h"

/* what each use is, in reports */
static const char *const use_text[CHK_USE_COUNT] = {
    [CHK_USE_BRANCH] = "the condition of a branch",
    [CHK_USE_GUARD] = "the guard predicate of an instruction with effects (a store, atomic, call, barrier or exit)",
    [CHK_USE_ADDR] = "an address",
    [CHK_USE_ATOM] = "an operand of an atomic operation",
    [CHK_USE_STORE] = "a value stored to __global__ memory",
    [CHK_USE_PRINTF] = "an argument of printf",
    [CHK_USE_TARGET] = "a branch index or call target",
};

/* ---------- per-warp shadows ---------- */

/* Free a block's shadows. */
void chk_init_blk_free(chk_blk *cb)
{
    for (int i = 0; i < cb->nish; i++) {
        chk_ish *s = &cb->ish[i];
        free(s->rsh);
        free(s->rorg);
        free(s->lsh);
        free(s->lorg);
        free(s->callee);
    }
    free(cb->ish);
    free(cb->sh_poison);
    free(cb->sh_org);
    cb->ish = NULL;
    cb->nish = 0;
    cb->sh_poison = NULL;
    cb->sh_org = NULL;
}

/* Grow a warp's register shadow to n entries (new entries defined). 0, or -1 out of memory. */
static int ish_grow(chk_ish *s, size_t n)
{
    if (n <= s->rcap) return 0;
    uint64_t *a = realloc(s->rsh, n * sizeof *a);
    if (!a) return -1;
    s->rsh = a;
    uint32_t *o = realloc(s->rorg, n * sizeof *o);
    if (!o) return -1;
    s->rorg = o;
    memset(a + s->rcap, 0, (n - s->rcap) * sizeof *a);
    memset(o + s->rcap, 0, (n - s->rcap) * sizeof *o);
    s->rcap = n;
    return 0;
}

/* The shadow of warp w (grown to its register stack), NULL when out of memory. */
chk_ish *chk_init_ish(ws_chk *c, chk_blk *cb, ws_warp *w)
{
    (void)c;
    if (cb->nish < cb->nwarps) {
        chk_ish *n = realloc(cb->ish, (size_t)cb->nwarps * sizeof *n);
        if (!n) return NULL;
        memset(n + cb->nish, 0, (size_t)(cb->nwarps - cb->nish) * sizeof *n);
        cb->ish = n;
        cb->nish = cb->nwarps;
    }
    chk_ish *s = &cb->ish[w->warp_in_block];
    if (s->rcap < w->reg_stack_slots && ish_grow(s, w->reg_stack_slots)) return NULL;
    return s;
}

/* A new block: its warps' registers are defined, their local memory unwritten. */
void chk_init_block(ws_chk *c, chk_blk *cb, ws_block *b)
{
    for (int i = 0; i < b->nwarps; i++) {
        chk_ish *s = chk_init_ish(c, cb, &b->warps[i]);
        if (!s) return;
        if (s->dirty) {   /* a clean shadow is all zeros already */
            memset(s->rsh, 0, s->rcap * sizeof *s->rsh);
            memset(s->rorg, 0, s->rcap * sizeof *s->rorg);
        }
        s->dirty = 0;
        s->lfresh = 0;
        s->depth = 0;
    }
}

/* Local-memory shadow of lane l of w at offset a (size bytes; NULL outside its stack); *org its words' origins. */
uint8_t *chk_init_local(chk_ish *s, ws_warp *w, int l, uint64_t a, unsigned size, uint32_t **org)
{
    size_t stride = w->L->local_stride;
    if (!stride || a + size > stride || a + size < a) return NULL;
    if (!s->lfresh) {   /* first local access of the block's warp: every byte is unwritten */
        size_t n = stride * WS_LANES;
        if (s->lcap < n) {
            free(s->lsh);
            free(s->lorg);
            s->lsh = malloc(n);
            s->lorg = calloc(n / 4 + 1, sizeof *s->lorg);
            if (!s->lsh || !s->lorg) { s->lcap = 0; return NULL; }
            s->lcap = n;
        }
        memset(s->lsh, CHK_LD_NEVER, n);
        s->lfresh = 1;
    }
    size_t at = (size_t)l * stride + (size_t)a;
    if (org) *org = s->lorg + at / 4;
    return s->lsh + at;
}

/* Copy n bytes of local shadow within lane l (call arguments, return values). */
static void local_copy(chk_ish *sh, ws_warp *w, int l, uint64_t dst, uint64_t src, size_t n)
{
    uint32_t *od, *os;
    uint8_t *d = chk_init_local(sh, w, l, dst, (unsigned)n, &od), *s = chk_init_local(sh, w, l, src, (unsigned)n, &os);
    if (!d || !s || !n) return;
    memmove(d, s, n);
    for (size_t i = 0; i < n; i++)
        if (s[i] == CHK_LD_POISON) od[((dst + i) >> 2) - (dst >> 2)] = os[((src + i) >> 2) - (src >> 2)];
}

/* Mark n bytes of lane l's local memory at a defined (written by a built-in). */
static void local_define(chk_ish *s, ws_warp *w, int l, uint64_t a, size_t n)
{
    uint8_t *p = chk_init_local(s, w, l, a, (unsigned)n, NULL);
    if (p) memset(p, CHK_LD_DEF, n);
}

/* ---------- origins and reports ---------- */

/* Lane l read never-written bytes at a (space sp): the load is the value's origin; record its first occurrence in
 * this launch. Returns the origin (the load's site number), 0 when the site table is full. */
uint32_t chk_init_origin(ws_chk *c, ws_warp *w, const ws_rec *r, int l, int sp, uint64_t a, unsigned size)
{
    uint32_t site = chk_site(c, r->in, r->fn);
    if (!site) return 0;
    if (site >= c->norg) {
        uint32_t n = c->norg ? c->norg : 256;
        while (n <= site) n *= 2;
        chk_origin *o = realloc(c->org, n * sizeof *o);
        if (!o) return 0;
        memset(o + c->norg, 0, (n - c->norg) * sizeof *o);
        c->org = o;
        c->norg = n;
    }
    chk_origin *o = &c->org[site];
    if (o->launch != c->launch_no) {
        o->launch = c->launch_no;
        o->space = (uint8_t)sp;
        o->size = size;
        o->addr = a;
        chk_thr_dims(w->L, chk_thr(w, l), o->thr);
        memcpy(o->blk, &w->blk->id, sizeof o->blk);
    }
    return site;
}

/* Name of a state space in initcheck's titles. */
static const char *space_title(int sp)
{
    return sp == WS_S_SHARED ? "__shared__" : sp == WS_S_LOCAL ? "__local__" : "__global__";
}

/* Report a use of an undefined value by lane l of w at r's instruction; org: the load it came from. */
void chk_init_use(ws_chk *c, ws_warp *w, const ws_rec *r, int l, int what, uint32_t org)
{
    int fresh;
    chk_group *g = chk_group_get(c, WS_CHK_INITCHECK, CK_INIT_USE, chk_line_key(r->in, r->fn),
                                 (const void *)(uintptr_t)org, (uint64_t)what, &fresh);
    if (!g) return;
    if (fresh) {
        const chk_origin *o = org && org < c->norg && c->org[org].launch == c->launch_no ? &c->org[org] : NULL;
        chk_where(c, r->fn, r->in, g->where, sizeof g->where, g->file, sizeof g->file, &g->line);
        if (o)
            snprintf(g->title, sizeof g->title, "Uninitialized %s memory read of size %u bytes", space_title(o->space),
                     o->size);
        else
            snprintf(g->title, sizeof g->title, "Uninitialized value used (where it came from was not recorded)");
        chk_detail(g, "The uninitialized value is used as %s by %s (PTX line %u)", use_text[what],
                   ws_opinfo_table[r->in->op].name, r->in->ptx_line);
        if (o) {
            char ow[512];
            const ws_insn *oin = c->site_in[org];
            chk_where(c, c->site_fn[org], oin, ow, sizeof ow, NULL, 0, NULL);
            chk_detail(g, "warpsim tracks definedness as MemorySanitizer does: the value came from the read at %s "
                       "(PTX line %u) by thread (%u,%u,%u) in block (%u,%u,%u); that read and every copy of the value "
                       "were not errors, this use is", ow, oin->ptx_line, o->thr[0], o->thr[1], o->thr[2], o->blk[0],
                       o->blk[1], o->blk[2]);
            if (o->space == WS_S_GLOBAL) {
                const chk_alloc *al = chk_live_find(c, o->addr);
                if (al)
                    chk_detail(g, "Address 0x%llx, %llu bytes into the allocation at 0x%llx of size %zu bytes, was "
                               "never written by a kernel, cudaMemcpy or cudaMemset (cudaMalloc does not clear memory)",
                               (unsigned long long)o->addr, (unsigned long long)(o->addr - al->addr),
                               (unsigned long long)al->addr, al->size);
                else
                    chk_detail(g, "Address 0x%llx was never written by a kernel, cudaMemcpy or cudaMemset",
                               (unsigned long long)o->addr);
            } else if (o->space == WS_S_SHARED) {
                chk_detail(g, "Address 0x%llx of block (%u,%u,%u)'s shared memory was never written by a thread of "
                           "the block", (unsigned long long)o->addr, o->blk[0], o->blk[1], o->blk[2]);
            } else {
                chk_detail(g, "Offset 0x%llx of the thread's local memory (its stack frame) was never written: an "
                           "uninitialized local variable or array element", (unsigned long long)o->addr);
            }
        }
    }
    chk_group_hit(c, g, w, l);
}

/* ---------- memory instructions (called from chk_pre_mem) ---------- */

/* Lane l's load is about to run: its destinations take the loaded bytes' definedness (undef: bit i for byte i). */
void chk_init_load(ws_chk *c, chk_ish *s, ws_warp *w, const ws_rec *r, int l, int sp, uint64_t a, uint32_t undef,
                   uint32_t never, uint32_t org)
{
    if (!undef && !s->dirty) return;   /* every register is defined, and stays so */
    const ws_insn *in = r->in;
    size_t off = ws_warp_win(w);
    const int lo = w->L->mod->sr_lo;
    uint64_t *S = ws_rows_at(s->rsh + off, lo);
    uint32_t *O = ws_rows_at32(s->rorg + off, lo);
    if (in->op == WS_OP_RED) return;
    if (in->op == WS_OP_ATOM) {   /* an atomic on undefined memory was reported as a use: its result is defined */
        chk_sput(S, O, in->d[0], l, 0, 0);
        return;
    }
    if (undef) s->dirty = 1;
    if (undef && never) org = chk_init_origin(c, w, r, l, sp, a, r->size);
    unsigned es = (unsigned)ws_type_size(in->type), n = in->vec ? in->vec : 1;
    if (es == 16) { es = 8; n = 2; }
    int sgn = in->type == WS_T_S8 || in->type == WS_T_S16 || in->type == WS_T_S32;
    for (unsigned k = 0; k < n && k < 4; k++) {
        uint64_t sh = 0;
        uint32_t u = (undef >> (k * es)) & ((1u << es) - 1);
        for (unsigned i = 0; u; i++, u >>= 1)
            if (u & 1) sh |= 0xffull << (8 * i);
        if (sgn && es < 8 && (sh >> (8 * es - 1) & 1)) sh |= ~0ull << (8 * es);   /* sign extension */
        chk_sput(S, O, in->d[k], l, sh, org);
    }
}

/* Undefined bytes of lane l's store data (bit i: byte i of the stored bytes); *org: where they came from. */
uint32_t chk_init_store_undef(const chk_ish *s, ws_warp *w, const ws_rec *r, int l, uint32_t *org)
{
    const ws_insn *in = r->in;
    *org = 0;
    if (in->op != WS_OP_ST || !s->dirty) return 0;
    size_t off = ws_warp_win(w);
    const int lo = w->L->mod->sr_lo;
    const uint64_t *S = ws_rows_at(s->rsh + off, lo);
    const uint32_t *O = ws_rows_at32(s->rorg + off, lo);
    unsigned es = (unsigned)ws_type_size(in->type), n = in->ns ? in->ns : 1;
    if (es == 16) { es = 8; n = 2; }
    uint32_t u = 0;
    for (unsigned k = 0; k < n && k < 4; k++) {
        uint64_t sh = chk_sget(S, in->s[k], l);
        if (!sh) continue;
        for (unsigned i = 0; i < es; i++)
            if ((sh >> (8 * i)) & 0xff) u |= 1u << (k * es + i);
        if (!*org) *org = chk_oget(O, in->s[k], l);
    }
    return u;
}

/* ---------- calls ---------- */

/* The warp returned from call frames the shadow still followed: copy return values' shadows to the callers. */
static void frames_sync(ws_warp *w, chk_ish *s)
{
    for (int k = s->depth - 1; k >= w->nframes && k < s->ccap; k--) {
        const ws_frame *fr = &w->frames[k];
        const ws_func *callee = s->callee[k];
        const ws_call *call = fr->call ? fr->call->call : NULL;
        if (!callee || !call || !call->has_ret || !callee->has_ret) continue;
        uint64_t callee_local = (uint64_t)fr->caller_local + fr->fn->frame_size;
        for (uint32_t m = fr->ret_mask; m; m &= m - 1)
            local_copy(s, w, __builtin_ctz(m), fr->caller_local + call->ret.dst_off, callee_local + callee->ret_off,
                       callee->ret_size);
    }
    s->depth = w->nframes;
}

/* printf's arguments (in the caller's local memory) must be defined. */
static void printf_args(ws_chk *c, chk_ish *s, ws_warp *w, const ws_rec *r, uint32_t mask)
{
    const ws_call *call = r->in->call;
    if (call->nargs < 2) return;
    for (uint32_t m = mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        const uint8_t *fb = w->local + (size_t)l * w->L->local_stride + w->local_base;
        uint64_t fmt, args, la;
        memcpy(&fmt, fb + call->args[0].src_off, 8);
        memcpy(&args, fb + call->args[1].src_off, 8);
        if (!args || ws_resolve_generic(w, args, &la) != WS_S_LOCAL) continue;
        uint32_t aoff[32];
        uint8_t asz[32];
        int n = ws_printf_args(w, l, fmt, aoff, asz, 32);
        for (int i = 0; i < n; i++) {
            uint32_t *org;
            const uint8_t *p = chk_init_local(s, w, l, la + aoff[i], asz[i], &org);
            if (!p) continue;
            int bad = -1;
            for (unsigned k = 0; k < asz[i] && bad < 0; k++) if (p[k] != CHK_LD_DEF) bad = (int)k;
            if (bad < 0) continue;
            uint64_t at = la + aoff[i];
            uint32_t o = p[bad] == CHK_LD_POISON ? org[((at + (unsigned)bad) >> 2) - (at >> 2)] : 0;
            if (!o) o = chk_init_origin(c, w, r, l, WS_S_LOCAL, la + aoff[i], asz[i]);
            chk_init_use(c, w, r, l, CHK_USE_PRINTF, o);
            break;
        }
    }
}

/* A call: built-ins write their results (defined); a call of a function carries its arguments' shadows into the
 * callee's parameters and starts the callee's registers defined. */
static void call_pre(ws_chk *c, ws_warp *w, chk_ish *s, const ws_rec *r, const uint64_t *S, const uint32_t *O)
{
    const ws_insn *in = r->in;
    const ws_call *call = in->call;
    uint32_t mask = r->exec;
    if (!call || !mask) return;
    if (call->builtin) {
        if (call->builtin == WS_BI_VPRINTF) printf_args(c, s, w, r, mask);
        if (call->has_ret)
            for (uint32_t m = mask; m; m &= m - 1)
                local_define(s, w, __builtin_ctz(m), (uint64_t)w->local_base + call->ret.dst_off, call->ret.size);
        return;
    }
    int fi = call->func;
    if (fi < 0) {   /* through a register: the lanes of the first lane's target call now */
        for (uint32_t m = s->dirty ? mask : 0; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (chk_sget(S, in->s[0], l)) chk_init_use(c, w, r, l, CHK_USE_TARGET, chk_oget(O, in->s[0], l));
        }
        int l0 = __builtin_ctz(mask);
        uint64_t t = w->regs[(size_t)in->s[0] * WS_LANES + (size_t)l0];
        if (t < WS_FUNC_BASE || (t - WS_FUNC_BASE) % 16 || (t - WS_FUNC_BASE) / 16 >= (uint64_t)w->L->mod->nfuncs)
            return;
        fi = (int)((t - WS_FUNC_BASE) / 16);
        uint32_t g = 0;
        for (uint32_t m = mask; m; m &= m - 1)
            if (w->regs[(size_t)in->s[0] * WS_LANES + (size_t)__builtin_ctz(m)] == t) g |= 1u << __builtin_ctz(m);
        mask = g;
    }
    const ws_func *f = &w->L->mod->funcs[fi];
    if (f->builtin || !f->decoded) return;
    uint64_t new_local = (uint64_t)w->local_base + w->fn->frame_size;
    for (uint32_t m = mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        for (int i = 0; i < call->nargs && i < f->nparams; i++)
            local_copy(s, w, l, new_local + f->param_off[i], (uint64_t)w->local_base + call->args[i].src_off,
                       f->param_size[i]);
    }
    size_t cur = ws_warp_win(w), nw = cur + ws_win_slots(w->L->mod, w->fn);
    size_t need = nw + ws_win_slots(w->L->mod, f);
    if (ish_grow(s, need)) return;
    if (s->dirty) {   /* a clean shadow is all zeros already */
        memset(s->rsh + nw, 0, (need - nw) * sizeof *s->rsh);
        memset(s->rorg + nw, 0, (need - nw) * sizeof *s->rorg);
    }
    int k = w->nframes;   /* the frame the call will push */
    if (k >= s->ccap) {
        int nc = s->ccap ? s->ccap * 2 : 8;
        while (nc <= k) nc *= 2;
        const ws_func **cc = realloc(s->callee, (size_t)nc * sizeof *cc);
        if (!cc) return;
        memset(cc + s->ccap, 0, (size_t)(nc - s->ccap) * sizeof *cc);
        s->callee = cc;
        s->ccap = nc;
    }
    s->callee[k] = f;
    s->depth = k + 1;
}

/* ---------- propagation through one instruction ---------- */

/* Whether an instruction has effects beyond its destination registers (a guard on it is a use). */
static int has_effects(const ws_insn *in)
{
    return in->mem == WS_MK_STORE || in->mem == WS_MK_ATOMIC || in->mem == WS_MK_REDUCE || in->op == WS_OP_CALL ||
           (in->iflags & (WS_IF_BRANCH | WS_IF_ENDS | WS_IF_BARRIER)) || in->op == WS_OP_WMMA_STORE;
}

/* Observer: before every instruction. Uses of undefined values are reported; the destinations of instructions
 * without a memory part take their definedness from the sources (loads and stores are chk_pre_mem's). */
void chk_init_pre(void *ctx, ws_warp *w, const ws_rec *r)
{
    ws_chk *c = ctx;
    if (!c->L || !(c->checks & WS_CHK_INITCHECK)) return;
    chk_blk *cb = chk_blk_of(c, w->blk);
    chk_ish *s = chk_init_ish(c, cb, w);
    if (!s) return;
    if (w->nframes != s->depth) frames_sync(w, s);
    const ws_insn *in = r->in;
    if (!s->dirty) {   /* every register is defined: nothing to propagate, no use to report but printf's */
        if (in->op == WS_OP_CALL) {
            size_t off0 = ws_warp_win(w);
            call_pre(c, w, s, r, ws_rows_at(s->rsh + off0, w->L->mod->sr_lo),
                     ws_rows_at32(s->rorg + off0, w->L->mod->sr_lo));
        }
        return;
    }
    size_t off = ws_warp_win(w);
    const int lo = w->L->mod->sr_lo;
    uint64_t *S = ws_rows_at(s->rsh + off, lo);
    uint32_t *O = ws_rows_at32(s->rorg + off, lo);
    uint32_t ex = r->exec, gu = 0;
    if (in->guard >= 0) {
        gu = chk_pget(S, in->guard) & r->active;
        if (gu && has_effects(in)) {   /* control flow or an effect that depends on an undefined predicate */
            int what = (in->iflags & (WS_IF_BRANCH | WS_IF_ENDS)) ? CHK_USE_BRANCH : CHK_USE_GUARD;
            for (uint32_t m = gu; m; m &= m - 1)
                chk_init_use(c, w, r, __builtin_ctz(m), what, chk_oget(O, in->guard, __builtin_ctz(m)));
            gu = 0;
        }
    }
    int op = in->op;
    if (in->mem != WS_MK_NONE && in->mem != WS_MK_HINT) {
        /* addresses and atomic operands are uses; loaded values are set by chk_pre_mem */
        if (in->base >= 0 && !(in->iflags & WS_IF_TEX)) {
            uint64_t am = in->space == WS_S_SHARED ? 0xffffffffu : ~0ull;
            for (uint32_t m = ex; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                if (chk_sget(S, in->base, l) & am) chk_init_use(c, w, r, l, CHK_USE_ADDR, chk_oget(O, in->base, l));
            }
        }
        if (op == WS_OP_ATOM || op == WS_OP_RED) {
            uint64_t vm = chk_wmask(in->type);
            for (uint32_t m = ex; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                for (int k = 0; k < in->ns && k < WS_INSN_NSRC; k++)
                    if (chk_sget(S, in->s[k], l) & vm) {
                        chk_init_use(c, w, r, l, CHK_USE_ATOM, chk_oget(O, in->s[k], l));
                        break;
                    }
            }
        }
        if ((in->iflags & WS_IF_TEX) || (WS_OP_IS_TENSOR(op) && op != WS_OP_CP_ASYNC)) chk_prop_define(S, O, in, ex);
        if (gu && (op == WS_OP_LD || op == WS_OP_LDU))   /* a load under an undefined guard: undefined results */
            for (uint32_t m = gu; m; m &= m - 1)
                for (int k = 0; k < in->nd && k < 4; k++)
                    chk_sput(S, O, in->d[k], __builtin_ctz(m), ~0ull, chk_oget(O, in->guard, __builtin_ctz(m)));
        return;
    }
    switch (op) {
    case WS_OP_BRA: case WS_OP_RET: case WS_OP_EXIT: case WS_OP_TRAP: case WS_OP_BRKPT: case WS_OP_MEMBAR:
    case WS_OP_FENCE: case WS_OP_NANOSLEEP: case WS_OP_PMEVENT:
        return;
    case WS_OP_BRX:
        for (uint32_t m = ex; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (chk_sget(S, in->s[0], l) & 0xffffffffu)
                chk_init_use(c, w, r, l, CHK_USE_TARGET, chk_oget(O, in->s[0], l));
        }
        return;
    case WS_OP_CALL:
        call_pre(c, w, s, r, S, O);
        return;
    case WS_OP_BAR: case WS_OP_BARRIER:
        if (in->sub == WS_SUB_RED && in->nd > 0) {   /* bar.red's result: defined */
            if (in->type == WS_T_PRED) chk_pput(S, O, in->d[0], r->active, 0, 0);
            else CHK_EACH_LANE(r->active, chk_sput(S, O, in->d[0], l, 0, 0));
        }
        return;
    default: break;
    }
    if (WS_OP_IS_TENSOR(op)) { chk_prop_define(S, O, in, ex); return; }
    if (in->nd == 0) return;
    if (ex) chk_prop_alu(w, in, S, O, ex);
    if (gu)   /* lanes whose guard is undefined may or may not have written their destinations */
        for (uint32_t m = gu; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            uint32_t o = chk_oget(O, in->guard, l);
            for (int k = 0; k < in->nd && k < 4; k++) {
                int dk = in->d[k];
                if (dk < WS_SR_COUNT) continue;
                if (in->type == WS_T_PRED || ((op == WS_OP_SETP || op == WS_OP_TESTP || op == WS_OP_ISSPACEP ||
                                               (op == WS_OP_VOTE && in->sub != WS_SUB_BALLOT)) ||
                                              (op == WS_OP_SHFL && k == 1)))
                    chk_pput(S, O, dk, 1u << l, 1u << l, o);
                else
                    chk_sput(S, O, dk, l, ~0ull, o);
            }
        }
}
