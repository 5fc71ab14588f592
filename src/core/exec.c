/* exec.c - the simulated GPU: memory API, module loading, and the functional launch engine
 * (block scheduling, warp setup, the per-warp issue loop, faults). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ops.h"
#include "observe.h"

/* Choose the handler for a decoded instruction; NULL if the combination is unsupported. */
ws_handler ws_select_handler(const ws_insn *in)
{
    ws_handler h = ws_ctl_handler(in);
    if (!h) h = ws_mem_handler(in);
    if (!h) h = ws_alu_handler(in);
    return h;
}

/* Create a simulated GPU for device model dev. */
ws_gpu *ws_gpu_create(const ws_device *dev, const ws_options *opt)
{
    ws_gpu *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->dev = dev;
    if (opt) g->opt = *opt;
    size_t cap = dev && dev->global_mem ? dev->global_mem : (16ull << 30);
    g->mem = ws_mem_create(cap);
    if (!g->mem) { free(g); return NULL; }
    return g;
}

/* Tell the observer (if any) about a host-side memory event. */
static void host_event(ws_gpu *g, int what, uint64_t addr, size_t len)
{
    if (g->obs && g->obs->host_mem) g->obs->host_mem(g->obs->ctx, what, addr, len);
}

/* Destroy a simulated GPU and everything it owns. */
void ws_gpu_destroy(ws_gpu *g)
{
    if (!g) return;
    host_event(g, WS_HM_RESET, 0, 0);
    for (int i = 0; i < g->nmods; i++) ws_ptx_free(g->mods[i]);
    free(g->mods);
    ws_mem_destroy(g->mem);
    free(g);
}

/* The device model the GPU was created with. */
const ws_device *ws_gpu_device(const ws_gpu *g) { return g->dev; }

/* Allocate global memory. */
int ws_malloc(ws_gpu *g, size_t size, uint64_t *addr)
{
    if (ws_mem_alloc(g->mem, size, 0, addr)) return WS_ERR_MEMORY_ALLOCATION;
    host_event(g, WS_HM_ALLOC, *addr, size);
    return WS_OK;
}

/* Allocate managed memory (same address on host and device). */
int ws_malloc_managed(ws_gpu *g, size_t size, void **ptr)
{
    void *p = NULL;
    if (posix_memalign(&p, 4096, size ? size : 1)) return WS_ERR_MEMORY_ALLOCATION;
    memset(p, 0, size ? size : 1);
    ws_mem_add_host(g->mem, p, size ? size : 1, 2);
    *ptr = p;
    return WS_OK;
}

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
    if (a && a->kind == 2 && a->host == p) {
        ws_mem_remove_host(g->mem, p);
        free(p);
        return WS_OK;
    }
    host_event(g, WS_HM_BADFREE, addr, 0);
    return WS_ERR_INVALID_VALUE;
}

/* Tell the observer that the host side wrote or read a device range. */
void ws_gpu_host_access(ws_gpu *g, uint64_t addr, size_t len, int write)
{
    if (g && len) host_event(g, write ? WS_HM_WRITE : WS_HM_READ, addr, len);
}

/* Residency of the next launch (blocks per SM from the occupancy calculator). */
void ws_gpu_set_blocks_per_sm(ws_gpu *g, int blocks_per_sm) { g->next_blocks_per_sm = blocks_per_sm; }

/* Make host memory visible to kernels at its own address. */
void ws_register_host(ws_gpu *g, void *p, size_t size) { ws_mem_add_host(g->mem, p, size, 3); }

/* Forget a registered host range. */
void ws_unregister_host(ws_gpu *g, void *p) { ws_mem_remove_host(g->mem, p); }

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

/* Parse and decode a PTX text. */
ws_module *ws_module_load(ws_gpu *g, const char *ptx, size_t len, const char *origin, char *err, size_t errlen)
{
    ws_module *m = ws_ptx_parse(g, ptx, len, origin, err, errlen);
    if (!m) return NULL;
    g->mods = realloc(g->mods, sizeof *g->mods * (size_t)(g->nmods + 1));
    g->mods[g->nmods++] = m;
    return m;
}

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
    for (int i = 0; i < m->nsyms; i++)
        if ((m->syms[i].space == WS_S_GLOBAL || m->syms[i].space == WS_S_CONST) && !strcmp(m->syms[i].name, name)) {
            if (addr) *addr = m->syms[i].addr;
            if (size) *size = m->syms[i].size;
            return WS_OK;
        }
    return WS_ERR_INVALID_SYMBOL;
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
    info->local_bytes = f->stack_need;
    info->max_threads = f->maxntid;
    info->ptx_regs = f->nregs;
}

/* Set the opt-in dynamic shared memory limit of a kernel. */
void ws_kernel_set_max_dyn_smem(ws_kernel *k, size_t bytes) { k->max_dyn_smem = bytes; }
/* Opt-in dynamic shared memory limit of a kernel (0 = default). */
size_t ws_kernel_max_dyn_smem(const ws_kernel *k) { return k->max_dyn_smem; }

/* Record a fault for the launch and stop the warp. */
void ws_fault(ws_warp *w, const ws_insn *in, int code, const char *fmt, ...)
{
    ws_run *L = w->L;
    w->state = WS_W_FAULT;
    if (L->fault) return;
    L->fault = code;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *file = NULL;
    if (in && in->line && in->file < (unsigned)L->mod->nfiles) file = L->mod->files[in->file];
    if (file)
        snprintf(L->fault_msg, sizeof L->fault_msg, "%s in %s at %s:%u", msg, w->fn->name, file, in->line);
    else
        snprintf(L->fault_msg, sizeof L->fault_msg, "%s in %s (PTX line %u)", msg, w->fn->name, in ? in->ptx_line : 0);
}

/* Host pointer for a generic/global address outside the arena fast path, NULL when not mapped. */
void *ws_xlate_slow(ws_warp *w, uint64_t addr, unsigned size, int lane)
{
    ws_run *L = w->L;
    uint64_t off = addr - WS_GLOBAL_BASE;
    if (off < L->glimit && off + size <= L->glimit) return L->gstore + off;
    off = addr - WS_SHARED_WIN;
    if (off < WS_WIN_SPAN) return off + size <= w->blk->smem_size ? w->blk->smem + off : NULL;
    off = addr - WS_LOCAL_WIN;
    if (off < WS_WIN_SPAN) return off + size <= L->local_stride ? w->local + (size_t)lane * L->local_stride + off : NULL;
    return ws_mem_view_slow(L->gpu->mem, addr, size);
}

/* ---------- launch engine ---------- */
#define WS_VISIT_BUDGET 200000   /* warp instructions a block may run before others get a turn */
#define WS_WARP_QUANTUM 4096     /* warp instructions a warp runs before the next warp of its block */

/* Attach an observer to later launches. */
void ws_gpu_set_observer(ws_gpu *g, const ws_observer *obs) { g->obs = obs; }

/* Resolve a generic address into (space, address in that space). */
int ws_resolve_generic(const ws_warp *w, uint64_t addr, uint64_t *out)
{
    (void)w;
    if (addr - WS_SHARED_WIN < WS_WIN_SPAN) { *out = addr - WS_SHARED_WIN; return WS_S_SHARED; }
    if (addr - WS_LOCAL_WIN < WS_WIN_SPAN) { *out = addr - WS_LOCAL_WIN; return WS_S_LOCAL; }
    *out = addr;
    return WS_S_GLOBAL;
}

/* Fill the memory part of a record: per-lane resolved spaces and addresses. */
static void rec_fill_mem(ws_warp *w, const ws_insn *in, uint32_t m, ws_rec *r)
{
    int op = in->op;
    r->is_mem = op == WS_OP_LD || op == WS_OP_LDU || op == WS_OP_ST || op == WS_OP_ATOM || op == WS_OP_RED;
    if (!r->is_mem) return;
    r->is_write = op == WS_OP_ST || op == WS_OP_ATOM || op == WS_OP_RED;
    r->is_read = op == WS_OP_LD || op == WS_OP_LDU || op == WS_OP_ATOM;
    unsigned n = op == WS_OP_ST ? (in->ns ? in->ns : 1) : in->vec;
    r->size = (unsigned)ws_type_size(in->type) * n;
    int sp = in->space;
    const uint64_t imm = (uint64_t)in->imm;
    if (in->base >= 0) {
        const uint64_t *B = &w->regs[(size_t)in->base * WS_LANES];
        FOR_LANES(m, r->addr[l] = B[l] + imm);
    } else {
        uint64_t a = (sp == WS_S_LOCAL ? (uint64_t)w->local_base : 0) + imm;
        FOR_LANES(m, r->addr[l] = a);
    }
    if (sp == WS_S_GENERIC) {
        FOR_LANES(m, r->space[l] = (uint8_t)ws_resolve_generic(w, r->addr[l], &r->addr[l]));
    } else {
        memset(r->space, sp, sizeof r->space);
    }
}

/* Execute the next instruction of w (after any pending reconvergence pops) and fill r for observers and the
 * timing model; returns 0 when the warp stopped without executing one. Counts the instruction. */
static int exec_one(ws_warp *w, ws_rec *r)
{
    const ws_observer *o = w->L->obs;
    for (;;) {
        if (w->state != WS_W_RUN) return 0;
        ws_stk *top = &w->stk[w->sp - 1];
        if (top->pc != top->rpc) break;
        ws_warp_pop(w);
    }
    ws_stk *top = &w->stk[w->sp - 1];
    const ws_insn *in = &w->code[top->pc++];
    uint32_t m = top->mask;
    r->in = in;
    r->fn = w->fn;
    r->active = m;
    w->nthread += (uint64_t)__builtin_popcount(m);
    if (in->guard >= 0) {
        uint32_t g = (uint32_t)w->regs[(size_t)in->guard * WS_LANES];
        if (in->pneg) g = ~g;
        m &= g;
    }
    r->exec = m;
    r->is_mem = 0;
    if (ws_opcode_class[in->op] & WS_CLS_MEM) {
        rec_fill_mem(w, in, m, r);
        if (r->is_mem && o && o->pre_mem && m) {
            o->pre_mem(o->ctx, w, r);
            m = r->exec;
        }
    }
    w->ninst++;
    if (m && w->state == WS_W_RUN) in->fn(w, in, m);
    if (o && o->post) o->post(o->ctx, w, r);
    return 1;
}

/* Run one warp for up to budget instructions with an observer attached. */
static uint64_t warp_run_observed(ws_warp *w, uint64_t budget)
{
    ws_rec r;
    uint64_t n = 0;
    while (n < budget && exec_one(w, &r)) n++;
    return n;
}

/* Run one warp for up to budget instructions; returns the number executed. */
static uint64_t warp_run(ws_warp *w, uint64_t budget)
{
    if (w->L->obs) return warp_run_observed(w, budget);
    uint64_t n = 0, nthr = 0;
    while (n < budget) {
        ws_stk *top = &w->stk[w->sp - 1];
        if (top->pc == top->rpc) {
            ws_warp_pop(w);
            if (w->state != WS_W_RUN) break;
            continue;
        }
        const ws_insn *in = &w->code[top->pc++];
        uint32_t m = top->mask;
        nthr += (uint64_t)__builtin_popcount(m);
        if (in->guard >= 0) {
            uint32_t g = (uint32_t)w->regs[(size_t)in->guard * WS_LANES];
            if (in->pneg) g = ~g;
            m &= g;
        }
        n++;
        if (m) in->fn(w, in, m);
        if (w->state != WS_W_RUN) break;
    }
    w->ninst += n;
    w->nthread += nthr;
    return n;
}

/* Decompose a linear block index into grid coordinates. */
static ws_dim3 block_coords(ws_dim3 grid, uint64_t i)
{
    ws_dim3 b;
    b.x = (unsigned)(i % grid.x);
    b.y = (unsigned)((i / grid.x) % grid.y);
    b.z = (unsigned)(i / ((uint64_t)grid.x * grid.y));
    return b;
}

/* Prepare warp wi of block b for a fresh start. */
static void warp_init(ws_run *L, ws_block *b, int wi, uint64_t linear_block)
{
    ws_warp *w = &b->warps[wi];
    const ws_func *f = L->entry;
    unsigned threads = L->block.x * L->block.y * L->block.z;
    int ws = L->warp_size;
    unsigned first = (unsigned)wi * (unsigned)ws;
    unsigned lanes = threads - first < (unsigned)ws ? threads - first : (unsigned)ws;
    w->full = lanes >= 32 ? 0xffffffffu : ((1u << lanes) - 1);
    w->exited = 0;
    w->state = WS_W_RUN;
    w->sp = 0;
    w->nframes = 0;
    w->fn = f;
    w->code = f->code;
    w->regs = w->reg_stack;
    w->local_base = 0;
    w->warp_in_block = wi;
    w->blk = b;
    w->L = L;
    if (!w->stk_cap) { w->stk_cap = 16; w->stk = malloc(sizeof *w->stk * 16); }
    w->stk[w->sp++] = (ws_stk){ 0, -1, w->full };
    uint64_t *R = w->regs;
    const ws_device *dev = L->gpu->dev;
    /* only the special registers some function of the module reads (thread and block ids always: reports use them) */
    for (uint32_t used = L->mod->sreg_used; used; used &= used - 1) {
        int k = __builtin_ctz(used);
        uint64_t *row = R + (size_t)k * WS_LANES, v;
        switch (k) {
        case WS_SR_TID_X: for (int l = 0; l < WS_LANES; l++) row[l] = (first + (unsigned)l) % L->block.x; continue;
        case WS_SR_TID_Y: for (int l = 0; l < WS_LANES; l++) row[l] = ((first + (unsigned)l) / L->block.x) % L->block.y; continue;
        case WS_SR_TID_Z: for (int l = 0; l < WS_LANES; l++) row[l] = (first + (unsigned)l) / (L->block.x * L->block.y); continue;
        case WS_SR_LANEID: for (int l = 0; l < WS_LANES; l++) row[l] = (unsigned)l; continue;
        case WS_SR_LANEMASK_EQ: for (int l = 0; l < WS_LANES; l++) row[l] = 1u << l; continue;
        case WS_SR_LANEMASK_LT: for (int l = 0; l < WS_LANES; l++) row[l] = (1u << l) - 1; continue;
        case WS_SR_LANEMASK_LE: for (int l = 0; l < WS_LANES; l++) row[l] = l == 31 ? 0xffffffffu : (2u << l) - 1; continue;
        case WS_SR_LANEMASK_GE: for (int l = 0; l < WS_LANES; l++) row[l] = (uint32_t)~((1u << l) - 1); continue;
        case WS_SR_LANEMASK_GT: for (int l = 0; l < WS_LANES; l++) row[l] = l == 31 ? 0 : (uint32_t)~((2u << l) - 1); continue;
        case WS_SR_NTID_X: v = L->block.x; break;
        case WS_SR_NTID_Y: v = L->block.y; break;
        case WS_SR_NTID_Z: v = L->block.z; break;
        case WS_SR_CTAID_X: v = b->id.x; break;
        case WS_SR_CTAID_Y: v = b->id.y; break;
        case WS_SR_CTAID_Z: v = b->id.z; break;
        case WS_SR_NCTAID_X: v = L->grid.x; break;
        case WS_SR_NCTAID_Y: v = L->grid.y; break;
        case WS_SR_NCTAID_Z: v = L->grid.z; break;
        case WS_SR_WARPID: v = (unsigned)wi; break;
        case WS_SR_NWARPID: v = dev ? (unsigned)dev->max_warps_per_sm : 64; break;
        case WS_SR_SMID: v = dev && dev->sm_count ? linear_block % (unsigned)dev->sm_count : 0; break;
        case WS_SR_NSMID: v = dev ? (unsigned)dev->sm_count : 1; break;
        case WS_SR_GRIDID: v = 1; break;
        case WS_SR_DYN_SMEM: v = L->dyn_smem; break;
        case WS_SR_TOTAL_SMEM: v = b->smem_size; break;
        default: v = 0; break;   /* SINK, CARRY */
        }
        for (int l = 0; l < WS_LANES; l++) row[l] = v;
    }
    for (int k = 0; k < f->nconst; k++) {
        uint64_t v = f->const_val[k], *s = R + (size_t)(f->first_const + k) * WS_LANES;
        for (int l = 0; l < WS_LANES; l++) s[l] = v;
    }
}

/* Release warps waiting at barrier id when enough have arrived. */
static void barrier_check(ws_run *L, ws_block *b, int id)
{
    int expect = b->bar_expect[id] ? b->bar_expect[id] : b->live_warps;
    if (b->bar_count[id] < expect || b->bar_count[id] == 0) return;
    uint32_t red = b->bar_red[id];
    b->bar_count[id] = 0;
    b->bar_expect[id] = 0;
    b->bar_red[id] = 0;
    for (int i = 0; i < b->nwarps; i++) {
        ws_warp *w = &b->warps[i];
        if (w->state != WS_W_BAR || w->bar_id != id) continue;
        w->state = WS_W_RUN;
        const ws_insn *in = &w->code[w->stk[w->sp - 1].pc - 1];
        if (in->sub == WS_SUB_RED) {
            uint32_t m = w->stk[w->sp - 1].mask;
            if (in->type == WS_T_PRED) PSET(in->d[0], red ? 0xffffffffu : 0, m);
            else FOR_LANES(m, { RG(in->d[0], l) = red; });
        }
    }
    (void)L;
}

/* Account a warp that just stopped: barrier arrival releases waiters, completion may finish the block. */
static void warp_stopped(ws_run *L, ws_warp *w)
{
    ws_block *b = w->blk;
    if (w->state == WS_W_BAR) barrier_check(L, b, w->bar_id);
    else if (w->state == WS_W_DONE) {
        b->live_warps--;
        for (int id = 0; id < 16; id++) if (b->bar_count[id]) barrier_check(L, b, id);
        if (!b->live_warps) b->done = 1;
    }
}

/* Run a resident block until it finishes or uses its visit budget; returns instructions executed. */
static uint64_t block_visit(ws_run *L, ws_block *b)
{
    uint64_t total = 0;
    while (!b->done && total < WS_VISIT_BUDGET && !L->fault) {
        uint64_t pass = 0;
        for (int i = 0; i < b->nwarps && !L->fault; i++) {
            ws_warp *w = &b->warps[i];
            if (w->state != WS_W_RUN) continue;
            pass += warp_run(w, WS_WARP_QUANTUM);
            if (w->state != WS_W_RUN) warp_stopped(L, w);
        }
        total += pass;
        if (!pass) break;   /* every warp waits: possibly on another block */
    }
    return total;
}

/* Execute one instruction of warp w for an external engine; fills r. Returns 1 when an instruction ran. */
int ws_warp_step(ws_warp *w, ws_rec *r)
{
    int ran = exec_one(w, r);
    if (w->state != WS_W_RUN) warp_stopped(w->L, w);
    return ran;
}

/* Start block number `lin` (grid-linear) of the launch in a free pool entry; returns it. */
ws_block *ws_run_block_start(ws_run *L, uint64_t lin)
{
    ws_block *b = L->nfree ? L->free_blocks[--L->nfree] : NULL;
    if (!b) {
        if (L->npool == L->pool_cap) {
            L->pool_cap = L->pool_cap ? L->pool_cap * 2 : 16;
            L->pool = realloc(L->pool, sizeof *L->pool * (size_t)L->pool_cap);
        }
        b = calloc(1, sizeof *b);
        L->pool[L->npool++] = b;
        L->free_blocks = realloc(L->free_blocks, sizeof *L->free_blocks * (size_t)L->pool_cap);
        b->nwarps = L->warps_per_block;
        b->warps = calloc((size_t)b->nwarps, sizeof *b->warps);
        b->smem = calloc(1, L->smem_bytes + 16);
        size_t reg_cap = (size_t)L->entry->nregs * WS_LANES;   /* calls grow it on demand */
        for (int i = 0; i < b->nwarps; i++) {
            b->warps[i].reg_stack = calloc(reg_cap, sizeof(uint64_t));
            b->warps[i].reg_stack_slots = reg_cap;
            b->warps[i].local = L->local_stride ? calloc(WS_LANES, L->local_stride) : NULL;
        }
    } else memset(b->smem, 0, L->smem_bytes);
    b->in_use = 1;
    b->smem_size = L->smem_bytes;
    b->id = block_coords(L->grid, lin);
    b->linear = lin;
    b->live_warps = b->nwarps;
    b->done = 0;
    memset(b->bar_count, 0, sizeof b->bar_count);
    memset(b->bar_expect, 0, sizeof b->bar_expect);
    for (int i = 0; i < b->nwarps; i++) warp_init(L, b, i, lin);
    if (L->obs && L->obs->block_begin) L->obs->block_begin(L->obs->ctx, L, b);
    return b;
}

/* Retire a finished (or abandoned) block: count its instructions and make its storage reusable. */
void ws_run_block_retire(ws_run *L, ws_block *b)
{
    if (b->done && L->obs && L->obs->block_end) L->obs->block_end(L->obs->ctx, L, b);
    for (int wi = 0; wi < b->nwarps; wi++) {
        L->ninst += b->warps[wi].ninst;
        L->nthread += b->warps[wi].nthread;
        b->warps[wi].ninst = b->warps[wi].nthread = 0;
    }
    if (b->in_use) L->free_blocks[L->nfree++] = b;
    b->in_use = 0;
}

/* Next block (grid-linear index) to start, honouring --block-order; -1 when all have started. */
int64_t ws_run_next_block(ws_run *L)
{
    if (L->next >= L->nblocks) return -1;
    uint64_t i = L->next++;
    return (int64_t)(L->order ? L->order[i] : i);
}

/* The functional engine: blocks run one after another, and concurrently when they wait on each other. */
static void functional_engine(ws_run *L)
{
    ws_block **res = calloc(L->resident, sizeof *res);
    uint64_t live = 0;
    int yielded = 0;
    while (!L->fault) {
        /* admit a block when none is resident; when the resident ones all yielded without finishing (they wait on
         * each other), fill every free slot at once, as the device would hold them all */
        while (L->next < L->nblocks && live < L->resident && (live == 0 || yielded)) {
            int64_t lin = ws_run_next_block(L);
            ws_block *b = ws_run_block_start(L, (uint64_t)lin);
            for (uint64_t i = 0; i < L->resident; i++) if (!res[i]) { res[i] = b; break; }
            live++;
        }
        if (!live) break;
        uint64_t progress = 0;
        int finished = 0;
        for (uint64_t i = 0; i < L->resident && !L->fault; i++) {
            ws_block *b = res[i];
            if (!b) continue;
            progress += block_visit(L, b);
            if (b->done) {
                ws_run_block_retire(L, b);
                res[i] = NULL;
                live--;
                finished = 1;
            }
        }
        yielded = !finished;
        if (L->max_inst && !L->fault) {
            uint64_t sum = L->ninst;
            for (uint64_t i = 0; i < L->resident; i++)
                if (res[i]) for (int wi = 0; wi < res[i]->nwarps; wi++) sum += res[i]->warps[wi].ninst;
            if (sum > L->max_inst) {
                L->fault = WS_ERR_LAUNCH_TIMEOUT;
                snprintf(L->fault_msg, sizeof L->fault_msg, "watchdog: kernel %s exceeded %llu warp instructions",
                         L->entry->name, (unsigned long long)L->max_inst);
            }
        }
        if (!progress && !finished && live && (live >= L->resident || L->next >= L->nblocks) && !L->fault) {
            L->fault = WS_ERR_LAUNCH_FAILURE;
            snprintf(L->fault_msg, sizeof L->fault_msg,
                     "deadlock: no warp of the %llu resident block(s) of %s can make progress (all wait at barriers)",
                     (unsigned long long)live, L->entry->name);
        }
    }
    for (uint64_t i = 0; i < L->resident; i++) if (res[i]) ws_run_block_retire(L, res[i]);
    free(res);
}

/* Install an engine that runs launches instead of the functional scheduler (the timing model); NULL removes it. */
void ws_gpu_set_engine(ws_gpu *g, ws_engine_fn fn, void *ctx)
{
    g->engine = fn;
    g->engine_ctx = ctx;
}

/* Monotonic seconds. */
static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* splitmix64 step (deterministic shuffles). */
static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Check a launch configuration the way the CUDA runtime does. */
static int check_config(const ws_gpu *g, const ws_kernel *k, ws_dim3 grid, ws_dim3 block, size_t dyn)
{
    const ws_device *d = g->dev;
    const ws_func *f = &k->mod->funcs[k->func];
    int maxb = d ? d->max_threads_per_block : 1024;
    int bx = d ? d->max_block_dim[0] : 1024, by = d ? d->max_block_dim[1] : 1024, bz = d ? d->max_block_dim[2] : 64;
    /* CUDA 13 reports every bad launch shape as cudaErrorInvalidValue (measured on an H200) */
    if (!block.x || !block.y || !block.z || !grid.x || !grid.y || !grid.z) return WS_ERR_INVALID_VALUE;
    if (block.x > (unsigned)bx || block.y > (unsigned)by || block.z > (unsigned)bz) return WS_ERR_INVALID_VALUE;
    if ((uint64_t)block.x * block.y * block.z > (uint64_t)maxb) return WS_ERR_INVALID_VALUE;
    if (grid.x > 2147483647u || grid.y > 65535u || grid.z > 65535u) return WS_ERR_INVALID_VALUE;
    if (f->maxntid && (int)(block.x * block.y * block.z) > f->maxntid) return WS_ERR_INVALID_VALUE;
    size_t limit = d ? d->smem_per_block : 48 * 1024;
    if (k->max_dyn_smem && f->static_smem + k->max_dyn_smem > limit) limit = f->static_smem + k->max_dyn_smem;
    if (d && limit > d->smem_per_block_optin) limit = d->smem_per_block_optin;
    if (f->static_smem + dyn > limit) return WS_ERR_INVALID_VALUE;
    if (dyn > (d ? d->smem_per_block : 48 * 1024) && dyn > k->max_dyn_smem) return WS_ERR_INVALID_VALUE;
    return WS_OK;
}

/* Run a kernel to completion. */
int ws_launch(ws_gpu *g, const ws_kernel *k, ws_dim3 grid, ws_dim3 block, size_t dyn_smem, void **args,
              ws_launch_stats *stats)
{
    double t0 = now_sec();
    if (stats) memset(stats, 0, sizeof *stats);
    int rc = check_config(g, k, grid, block, dyn_smem);
    if (rc) { g->next_blocks_per_sm = 0; return rc; }
    const ws_module *mod = k->mod;
    const ws_func *f = &mod->funcs[k->func];
    ws_run L;
    memset(&L, 0, sizeof L);
    L.gpu = g;
    L.mod = mod;
    L.entry = f;
    L.grid = grid;
    L.block = block;
    L.dyn_smem = dyn_smem;
    L.warp_size = g->dev && g->dev->warp_size ? g->dev->warp_size : 32;
    if (L.warp_size > 32) L.warp_size = 32;
    L.gstore = ws_mem_store(g->mem);
    L.glimit = ws_mem_limit(g->mem);
    L.local_stride = (f->stack_need + 15) & ~(size_t)15;
    L.max_inst = g->opt.max_instructions;
    L.obs = g->obs;
    L.params = calloc(1, f->param_bytes + 16);
    for (int i = 0; i < f->nparams; i++)
        if (args && args[i]) memcpy(L.params + f->param_off[i], args[i], f->param_size[i]);
    unsigned threads = block.x * block.y * block.z;
    int nwarps = (int)((threads + (unsigned)L.warp_size - 1) / (unsigned)L.warp_size);
    L.warps_per_block = nwarps;
    uint64_t nblocks = (uint64_t)grid.x * grid.y * grid.z;
    size_t smem = f->static_smem;
    if (dyn_smem && mod->dyn_base + dyn_smem > smem) smem = mod->dyn_base + dyn_smem;

    /* residency: blocks that may be on the device at once (threads and block slots; registers unknown here) */
    const ws_device *d = g->dev;
    uint64_t per_sm = d ? (uint64_t)d->max_blocks_per_sm : 16;
    if (d && d->max_threads_per_sm && per_sm > (uint64_t)d->max_threads_per_sm / threads) per_sm = (uint64_t)d->max_threads_per_sm / threads;
    if (d && d->smem_per_sm && smem && per_sm > d->smem_per_sm / smem) per_sm = d->smem_per_sm / smem;
    if (g->next_blocks_per_sm > 0) per_sm = (uint64_t)g->next_blocks_per_sm;   /* the occupancy calculator's */
    g->next_blocks_per_sm = 0;
    if (per_sm < 1) per_sm = 1;
    uint64_t resident = per_sm * (uint64_t)(d && d->sm_count ? d->sm_count : 1);
    if (resident > nblocks) resident = nblocks;
    if (resident > 4096) resident = 4096;

    /* block order */
    uint64_t *order = NULL;
    if (g->opt.block_order_random && nblocks > 1) {
        order = malloc(sizeof(uint64_t) * nblocks);
        for (uint64_t i = 0; i < nblocks; i++) order[i] = i;
        uint64_t s = g->opt.block_order_seed;
        for (uint64_t i = nblocks - 1; i > 0; i--) {
            uint64_t j = splitmix(&s) % (i + 1);
            uint64_t t = order[i]; order[i] = order[j]; order[j] = t;
        }
    }

    L.resident = resident;
    L.order = order;
    L.nblocks = nblocks;
    L.smem_bytes = smem;
    if (L.obs && L.obs->launch_begin) L.obs->launch_begin(L.obs->ctx, &L);
    if (g->engine) g->engine(g->engine_ctx, &L);
    else functional_engine(&L);
    if (L.obs && L.obs->launch_end) L.obs->launch_end(L.obs->ctx, &L, L.fault);
    for (int i = 0; i < L.npool; i++) {
        ws_block *b = L.pool[i];
        for (int wi = 0; wi < b->nwarps; wi++) {
            ws_warp *w = &b->warps[wi];
            L.ninst += w->ninst;
            L.nthread += w->nthread;
            free(w->reg_stack);
            free(w->local);
            free(w->stk);
            free(w->frames);
        }
        free(b->warps);
        free(b->smem);
        free(b);
    }
    free(L.pool);
    free(L.free_blocks);
    free(order);
    free(L.params);
    fflush(stdout);
    if (stats) {
        stats->warp_insts = L.ninst;
        stats->thread_insts = L.nthread;
        stats->host_seconds = now_sec() - t0;
        if (L.fault) snprintf(stats->error, sizeof stats->error, "%s", L.fault_msg);
    }
    return L.fault;
}
