/* chk_mem.c - the memory side of the checkers, run before every load, store and atomic:
 * memcheck (bounds per allocation, alignment, freed memory, host pointers), initcheck's memory side (a bit per byte
 * written, for the global arena and each block's shared memory, a bit per shared byte last stored undefined, a byte
 * per local byte; loads and stores move definedness between them and the register shadow of chk_init.c) and
 * racecheck (a shadow word per 4 bytes: the last
 * writer, with its block, warp, barrier epoch and its block's fence count; for shared memory the last readers
 * too). Host-side copies, fills, allocations and frees arrive through chk_host_mem. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "chk_int.h"

#define SITE_MAX 0xFFFFu
#define ACC_SAME (1u << 16)      /* an encoded write that stored the value already in memory */
#define MC_STOP 100000u   /* invalid accesses after which memcheck stops the kernel */

/* An access as stored in a shadow word: site (17 bits), thread in block (10), synchronizing (1), bytes (4). */
static inline uint32_t acc_enc(uint32_t site, uint64_t thr, int sync, unsigned mask)
{
    return (site & SITE_MAX) | (uint32_t)((thr & 0x3FF) << 17) | ((uint32_t)(sync != 0) << 27) | ((mask & 15u) << 28);
}
/* Site number of an encoded access. */
static inline uint32_t acc_site(uint32_t a) { return a & SITE_MAX; }
/* Block-linear thread of an encoded access. */
static inline uint32_t acc_thr(uint32_t a) { return (a >> 17) & 0x3FF; }
/* Whether an encoded access was synchronizing (atomic, volatile, acquire/release). */
static inline int acc_sync(uint32_t a) { return (a >> 27) & 1; }
/* Bytes of the word an encoded access touched. */
static inline unsigned acc_mask(uint32_t a) { return a >> 28; }

/* Grow an anonymous mapping to at least need bytes (keep: preserve its contents). 0 on success. */
static int ensure_map(void **p, size_t *mapped, size_t need, int keep)
{
    if (need <= *mapped) return 0;
    size_t n = *mapped ? *mapped : ((size_t)1 << 20);
    while (n < need) n *= 2;
    void *q;
    if (*p && keep) {
        q = mremap(*p, *mapped, n, MREMAP_MAYMOVE);
    } else {
        if (*p) munmap(*p, *mapped);
        *p = NULL;
        *mapped = 0;
        q = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    }
    if (q == MAP_FAILED) return -1;
    madvise(q, n, MADV_HUGEPAGE);   /* shadows are touched densely: fewer page faults */
    *p = q;
    *mapped = n;
    return 0;
}

/* Release the shadows. */
void chk_mem_free(ws_chk *c)
{
    if (c->ginit) munmap(c->ginit, c->ginit_map);
    if (c->gsh) munmap(c->gsh, c->gsh_map);
    c->ginit = NULL;
    c->gsh = NULL;
    c->ginit_map = c->ginit_cover = c->gsh_map = c->gsh_cover = 0;
    free(c->fence);
    c->fence = NULL;
    c->nfence = 0;
    free(c->org);
    c->org = NULL;
    c->norg = 0;
    free(c->site_in);
    free(c->site_fn);
    free(c->site_hash);
    c->site_in = NULL;
    c->site_fn = NULL;
    c->site_hash = NULL;
    c->nsites = c->capsites = c->site_hcap = 0;
}

/* Number of an instruction site (1..SITE_MAX), 0 when the table is full. */
uint32_t chk_site(ws_chk *c, const ws_insn *in, const ws_func *fn)
{
    if (2 * (c->nsites + 1) > c->site_hcap) {
        if (c->nsites >= SITE_MAX - 1) return 0;
        uint32_t nc = c->site_hcap ? c->site_hcap * 2 : 1024;
        uint32_t *nh = calloc(nc, sizeof *nh);
        if (!nh) return 0;
        for (uint32_t i = 0; i < c->site_hcap; i++) {
            uint32_t s = c->site_hash[i];
            if (!s) continue;
            uintptr_t v = (uintptr_t)c->site_in[s];
            uint32_t j = (uint32_t)((v >> 3) * 2654435761u) & (nc - 1);
            while (nh[j]) j = (j + 1) & (nc - 1);
            nh[j] = s;
        }
        free(c->site_hash);
        c->site_hash = nh;
        c->site_hcap = nc;
    }
    uintptr_t v = (uintptr_t)in;
    uint32_t j = (uint32_t)((v >> 3) * 2654435761u) & (c->site_hcap - 1);
    for (; c->site_hash[j]; j = (j + 1) & (c->site_hcap - 1))
        if (c->site_in[c->site_hash[j]] == in) return c->site_hash[j];
    if (c->nsites + 2 > c->capsites) {
        uint32_t nc = c->capsites ? c->capsites * 2 : 256;
        const ws_insn **ni = realloc(c->site_in, nc * sizeof *ni);
        if (!ni) return 0;
        c->site_in = ni;
        const ws_func **nf = realloc(c->site_fn, nc * sizeof *nf);
        if (!nf) return 0;
        c->site_fn = nf;
        c->capsites = nc;
    }
    uint32_t s = ++c->nsites;
    c->site_in[s] = in;
    c->site_fn[s] = fn;
    c->site_hash[j] = s;
    return s;
}

/* Set bits [off, off+n) of a bitmap. */
static void bits_set(uint8_t *bm, uint64_t off, uint64_t n)
{
    while (n && (off & 7)) { bm[off >> 3] |= (uint8_t)(1u << (off & 7)); off++; n--; }
    if (n >= 8) { memset(bm + (off >> 3), 0xff, n >> 3); off += n & ~(uint64_t)7; n &= 7; }
    while (n) { bm[off >> 3] |= (uint8_t)(1u << (off & 7)); off++; n--; }
}

/* Clear bits [off, off+n) of a bitmap. */
static void bits_clear(uint8_t *bm, uint64_t off, uint64_t n)
{
    while (n && (off & 7)) { bm[off >> 3] &= (uint8_t)~(1u << (off & 7)); off++; n--; }
    if (n >= 8) { memset(bm + (off >> 3), 0, n >> 3); off += n & ~(uint64_t)7; n &= 7; }
    while (n) { bm[off >> 3] &= (uint8_t)~(1u << (off & 7)); off++; n--; }
}

/* Offset of the first clear bit in [off, off+n), or -1 when all are set. */
static int64_t bits_first_clear(const uint8_t *bm, uint64_t off, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = off + i;
        if ((k & 7) == 0 && i + 8 <= n && bm[k >> 3] == 0xff) { i += 7; continue; }
        if (!(bm[k >> 3] >> (k & 7) & 1)) return (int64_t)k;
    }
    return -1;
}

/* Whether bits [off, off+n) are all set (n <= 16: the per-access fast path). */
static inline int bits_all(const uint8_t *bm, uint64_t off, unsigned n)
{
    if ((off & 7) + n <= 8) {
        unsigned want = ((1u << n) - 1) << (off & 7);
        return (bm[off >> 3] & want) == want;
    }
    return bits_first_clear(bm, off, n) < 0;
}

/* ---------- host side ---------- */

/* Make the init bitmap cover arena offsets below end. */
static int ginit_cover(ws_chk *c, uint64_t end)
{
    if (end <= c->ginit_cover) return 0;
    void *p = c->ginit;
    if (ensure_map(&p, &c->ginit_map, (size_t)(end / 8 + 1), 1)) return -1;
    c->ginit = p;
    c->ginit_cover = c->ginit_map * 8;
    return 0;
}

/* memcheck of a host-side copy or fill: [addr, addr+len) must lie inside the allocation's requested bytes (the
 * runtime accepts the rounded-up size the allocator reserved, as a GPU's does). */
static void host_bounds(ws_chk *c, uint64_t addr, size_t len, int write)
{
    const chk_alloc *a = chk_live_find(c, addr);
    if (!a || addr + len <= a->addr + a->size) return;
    size_t save = c->open_from;
    c->open_from = 0;
    int fresh;
    chk_group *g = chk_group_get(c, WS_CHK_MEMCHECK, CK_OOB, NULL, NULL, addr ^ ((uint64_t)len << 40) ^ (uint64_t)write,
                                 &fresh);
    c->open_from = save;
    if (!g) return;
    chk_group_hit(c, g, NULL, 0);
    if (!fresh) return;
    snprintf(g->title, sizeof g->title, "Invalid __global__ %s of size %zu bytes by a host-side %s",
             write ? "write" : "read", len, write ? "copy or fill (cudaMemcpy/cudaMemset)" : "copy (cudaMemcpy)");
    chk_detail(g, "Address 0x%llx..0x%llx runs %llu bytes past the end of the allocation at 0x%llx of size %zu bytes",
               (unsigned long long)addr, (unsigned long long)(addr + len - 1),
               (unsigned long long)(addr + len - (a->addr + a->size)), (unsigned long long)a->addr, a->size);
    if (c->host_frames) g->nhost = c->host_frames(g->host, CHK_HOST_LINES);
    g->host_what = "the call";
    fprintf(c->out, "========= %s\n=========     %s", g->title, g->detail);
    if (g->nhost) fprintf(c->out, "=========     Saved host backtrace up to driver entry point at the call\n");
    for (int i = 0; i < g->nhost; i++) fprintf(c->out, "=========         Host Frame: %s\n", g->host[i]);
    fprintf(c->out, "=========\n");
    g->printed = 1;
}

/* initcheck: a host-side copy (cudaMemcpy and its kin) read never-written bytes of a device allocation and wrote
 * them to host memory: the host uses them (compute-sanitizer's "Host API memory access error"). */
static void host_copy_uninit(ws_chk *c, uint64_t addr, size_t len, uint64_t first, size_t nundef)
{
    size_t save = c->open_from;
    c->open_from = 0;
    int fresh;
    char host[CHK_HOST_LINES][200];
    int nh = c->host_frames ? c->host_frames(host, CHK_HOST_LINES) : 0;
    uint64_t key = addr ^ ((uint64_t)len << 40);
    for (int i = 0; i < nh; i++)
        for (const char *p = host[i]; *p; p++) key = key * 131 + (unsigned char)*p;
    chk_group *g = chk_group_get(c, WS_CHK_INITCHECK, CK_INIT_HOST, NULL, NULL, key, &fresh);
    c->open_from = save;
    if (!g) return;
    chk_group_hit(c, g, NULL, 0);
    if (!fresh) return;
    snprintf(g->title, sizeof g->title, "Host API memory access error at host access to 0x%llx of size %zu bytes",
             (unsigned long long)addr, len);
    chk_detail(g, "Uninitialized access at 0x%llx on access by cudaMemcpy source", (unsigned long long)first);
    const chk_alloc *al = chk_live_find(c, first);
    if (al)
        chk_detail(g, "%zu of the %zu bytes copied to the host were never written by a kernel, cudaMemcpy or "
                   "cudaMemset (the first of them %llu bytes into the allocation at 0x%llx of size %zu bytes)", nundef,
                   len, (unsigned long long)(first - al->addr), (unsigned long long)al->addr, al->size);
    g->nhost = nh;
    memcpy(g->host, host, sizeof g->host);
    g->host_what = "error";
    snprintf(g->kernel, sizeof g->kernel, "cudaMemcpy");
    fprintf(c->out, "========= %s\n", g->title);
    for (const char *p = g->detail; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        fprintf(c->out, "=========     %.*s\n", (int)n, p);
        p += n + (e ? 1 : 0);
    }
    if (nh) fprintf(c->out, "=========     Saved host backtrace up to driver entry point at error\n");
    for (int i = 0; i < nh; i++) fprintf(c->out, "=========         Host Frame: %s\n", host[i]);
    fprintf(c->out, "=========\n");
    g->printed = 1;
}

/* initcheck: the host side wrote len bytes at addr: a copy from the arena (the read that came just before) carries
 * its source's definedness (device to device) or, to the host, is a use of undefined bytes; fills and copies from
 * the host define them. */
static void host_write_init(ws_chk *c, uint64_t addr, size_t len)
{
    uint64_t off = addr - WS_GLOBAL_BASE;
    int dst_arena = addr >= WS_GLOBAL_BASE && off < WS_GLOBAL_SPAN;
    int copy = c->hread_len == len && len;
    uint64_t soff = c->hread_off;
    c->hread_len = 0;
    int64_t fc = -1;
    if (copy && soff + len <= c->ginit_cover) {
        fc = bits_first_clear(c->ginit, soff, len);
        const ws_alloc *al = fc >= 0 ? ws_mem_find(c->gpu->mem, WS_GLOBAL_BASE + (uint64_t)fc) : NULL;
        if (!al || al->kind != WS_ALLOC_DEVICE) fc = -1;   /* only device allocations start undefined */
    }
    if (!dst_arena) {
        if (fc >= 0) {
            size_t nundef = 0;
            for (size_t i = 0; i < len; i++) nundef += !(c->ginit[(soff + i) >> 3] >> ((soff + i) & 7) & 1);
            host_copy_uninit(c, WS_GLOBAL_BASE + soff, len, WS_GLOBAL_BASE + (uint64_t)fc, nundef);
        }
        return;
    }
    if (ginit_cover(c, off + len)) return;
    if (fc < 0) { bits_set(c->ginit, off, len); return; }
    for (size_t k = 0; k < len; k++) {   /* device to device: bit by bit, in memmove's order */
        size_t i = off > soff ? len - 1 - k : k;
        if (c->ginit[(soff + i) >> 3] >> ((soff + i) & 7) & 1) bits_set(c->ginit, off + i, 1);
        else bits_clear(c->ginit, off + i, 1);
    }
}

/* Host-side memory events from the runtime (allocations, frees, copies, fills, reset). */
void chk_host_mem(void *ctx, int what, uint64_t addr, size_t len)
{
    ws_chk *c = ctx;
    uint64_t off = addr - WS_GLOBAL_BASE;
    int in_arena = addr >= WS_GLOBAL_BASE && off < WS_GLOBAL_SPAN;
    c->c_lo = c->c_hi = 0;
    if ((what == WS_HM_WRITE || what == WS_HM_READ) && in_arena && (c->checks & WS_CHK_MEMCHECK))
        host_bounds(c, addr, len, what == WS_HM_WRITE);
    switch (what) {
    case WS_HM_ALLOC:
        chk_live_add(c, addr, len);
        if ((c->checks & WS_CHK_INITCHECK) && in_arena && ginit_cover(c, off + len) == 0)
            bits_clear(c->ginit, off, len);
        break;
    case WS_HM_FREE:
        chk_live_remove(c, addr);
        break;
    case WS_HM_BADFREE: {
        const chk_alloc *a = chk_live_find(c, addr);
        c->pending_free[0] = 0;
        for (int i = 0; i < c->nfreed && !a; i++)
            if (c->freed[i].addr == addr) {
                snprintf(c->pending_free, sizeof c->pending_free,
                         "0x%llx was already freed: double free of an allocation of %zu bytes",
                         (unsigned long long)addr, c->freed[i].size);
                return;
            }
        if (a)
            snprintf(c->pending_free, sizeof c->pending_free,
                     "0x%llx is not the start of an allocation: it lies %llu bytes into the allocation at 0x%llx of "
                     "size %zu bytes", (unsigned long long)addr, (unsigned long long)(addr - a->addr),
                     (unsigned long long)a->addr, a->size);
        else
            snprintf(c->pending_free, sizeof c->pending_free, "0x%llx was not returned by cudaMalloc (invalid free)",
                     (unsigned long long)addr);
        break;
    }
    case WS_HM_WRITE:
        if (c->checks & WS_CHK_INITCHECK) host_write_init(c, addr, len);
        break;
    case WS_HM_READ:   /* a copy's source: what its destination gets (host_write_init) */
        c->hread_len = (c->checks & WS_CHK_INITCHECK) && in_arena ? len : 0;
        c->hread_off = off;
        break;
    case WS_HM_RESET:
        chk_gpu_reset(c);
        break;
    default:
        break;
    }
}

/* ---------- launches and blocks ---------- */

/* New launch: a fresh racecheck stamp, shadow covering the arena, fence counters per block. */
void chk_mem_launch(ws_chk *c, ws_run *L)
{
    if (!(c->checks & WS_CHK_RACECHECK)) return;
    if (++c->stamp == 0) {   /* wrapped: start the shadow afresh */
        if (c->gsh) munmap(c->gsh, c->gsh_map);
        c->gsh = NULL;
        c->gsh_map = c->gsh_cover = 0;
        c->stamp = 1;
    }
    if (L->glimit > c->gsh_cover) {
        void *p = c->gsh;
        size_t need = (size_t)(L->glimit / 4 + 1) * sizeof(g_ent);
        if (ensure_map(&p, &c->gsh_map, need, 0) == 0) {
            c->gsh = p;
            c->gsh_cover = c->gsh_map / sizeof(g_ent) * 4;
        } else {
            c->gsh = NULL;
            c->gsh_cover = 0;
        }
    }
    size_t nf = 1;
    while (nf < L->nblocks && nf < ((size_t)1 << 22)) nf *= 2;
    free(c->fence);
    c->fence = calloc(nf, sizeof *c->fence);
    c->nfence = c->fence ? nf : 0;
}

/* New block in cb: clear the shared-memory shadows it will use. */
void chk_mem_block(ws_chk *c, chk_blk *cb, ws_block *b)
{
    size_t words = (b->smem_size + 3) / 4;
    if ((c->checks & WS_CHK_RACECHECK) && words) {
        if (cb->sh_n < words) {
            free(cb->sh);
            cb->sh = calloc(words, sizeof *cb->sh);
            cb->sh_n = cb->sh ? words : 0;
        } else if (cb->sh_hi > cb->sh_lo) {
            memset(cb->sh + cb->sh_lo, 0, (cb->sh_hi - cb->sh_lo) * sizeof *cb->sh);
        }
    }
    if ((c->checks & (WS_CHK_INITCHECK | WS_CHK_SYNCCHECK)) && b->smem_size) {
        size_t bytes = b->smem_size / 8 + 2;
        int init = (c->checks & WS_CHK_INITCHECK) != 0;
        if (cb->init_bytes < bytes) {
            free(cb->sh_init);
            free(cb->sh_poison);
            free(cb->sh_org);
            cb->sh_init = calloc(bytes, 1);
            cb->sh_poison = init ? calloc(bytes, 1) : NULL;
            cb->sh_org = init ? calloc(b->smem_size / 4 + 2, sizeof *cb->sh_org) : NULL;
            cb->init_bytes = cb->sh_init && (!init || (cb->sh_poison && cb->sh_org)) ? bytes : 0;
            if (!cb->init_bytes) { free(cb->sh_init); cb->sh_init = NULL; }
        } else if (cb->sh_hi > cb->sh_lo) {
            size_t lo = cb->sh_lo * 4 / 8, hi = (cb->sh_hi * 4 + 7) / 8 + 1;
            if (hi > cb->init_bytes) hi = cb->init_bytes;
            memset(cb->sh_init + lo, 0, hi - lo);
            if (cb->any_poison && cb->sh_poison) memset(cb->sh_poison + lo, 0, hi - lo);
        }
        cb->any_poison = 0;
    }
    if (c->checks & WS_CHK_INITCHECK) chk_init_block(c, cb, b);
    cb->smem = b->smem_size;
    cb->sh_lo = SIZE_MAX;
    cb->sh_hi = 0;
}

/* ---------- memcheck ---------- */

/* Name of a state space in findings. */
static const char *space_name(int sp)
{
    switch (sp) {
    case WS_S_SHARED: return "__shared__";
    case WS_S_LOCAL: return "__local__";
    case WS_S_CONST: return "__constant__";
    default: return "__global__";
    }
}

/* Whether [a, a+size) lies inside one allocation's requested bytes (cached); its kind in *kind. */
static int global_ok(ws_chk *c, uint64_t a, unsigned size, int *kind)
{
    if (a >= c->c_lo && a + size <= c->c_hi && a + size > a) {
        *kind = c->c_kind;
        return 1;
    }
    const ws_alloc *al = ws_mem_find(c->gpu->mem, a);
    if (!al || a < al->addr || a + size > al->addr + al->size || a + size < a) return 0;
    c->c_lo = al->addr;
    c->c_hi = al->addr + al->size;
    c->c_kind = al->kind;
    *kind = al->kind;
    return 1;
}

/* Whether host address a is mapped in this process. */
static int host_mapped(uint64_t a)
{
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0) pg = 4096;
    void *p = (void *)(uintptr_t)(a & ~(uint64_t)(pg - 1));
    return msync(p, 1, MS_ASYNC) == 0 || errno != ENOMEM;
}

/* Describe where a bad global address is; returns the finding kind (CK_OOB, CK_FREED, CK_HOSTPTR). */
static int describe_global(ws_chk *c, ws_warp *w, uint64_t a, unsigned size, char *l1, char *l2, size_t cap)
{
    snprintf(l1, cap, "Address 0x%llx is out of bounds", (unsigned long long)a);
    l2[0] = 0;
    if (a < 4096) {
        snprintf(l2, cap, "and is a null pointer (plus %llu bytes)", (unsigned long long)a);
        return CK_OOB;
    }
    if (a - WS_GLOBAL_BASE >= WS_GLOBAL_SPAN) {
        if (!host_mapped(a)) {
            snprintf(l2, cap, "and is neither device memory nor mapped host memory");
            return CK_OOB;
        }
        /* a host pointer: name the kernel parameter it came from, when one holds it */
        const ws_func *f = w->L->entry;
        int pi = -1;
        uint64_t pv = 0;
        for (int i = 0; i < f->nparams && pi < 0; i++) {
            if (f->param_size[i] != 8) continue;
            uint64_t v;
            memcpy(&v, w->L->params + f->param_off[i], 8);
            if (v && a >= v && a - v < ((uint64_t)1 << 24)) { pi = i; pv = v; }
        }
        if (pi >= 0)
            snprintf(l2, cap, "and is host memory: kernel parameter %d holds the host pointer 0x%llx, which device "
                     "code cannot dereference (allocate with cudaMalloc and copy, or use cudaMallocManaged)", pi,
                     (unsigned long long)pv);
        else
            snprintf(l2, cap, "and is host memory, which device code cannot dereference (a host pointer was passed "
                     "to the kernel?)");
        return CK_HOSTPTR;
    }
    for (int i = 0; i < c->nfreed; i++) {
        const chk_alloc *f = &c->freed[i];
        if (a >= f->addr && a < f->addr + f->size && !chk_live_find(c, a)) {
            snprintf(l2, cap, "and lies in the allocation at 0x%llx of size %zu bytes, which cudaFree released "
                     "(use after free)", (unsigned long long)f->addr, f->size);
            return CK_FREED;
        }
    }
    const ws_alloc *n = ws_mem_nearest(c->gpu->mem, a);
    if (!n) {
        snprintf(l2, cap, "and no allocation exists");
        return CK_OOB;
    }
    uint64_t end = n->addr + n->size;
    if (a >= end)
        snprintf(l2, cap, "and is %llu bytes after the nearest allocation at 0x%llx of size %zu bytes",
                 (unsigned long long)(a - end + 1), (unsigned long long)n->addr, n->size);
    else if (a < n->addr)
        snprintf(l2, cap, "and is %llu bytes before the nearest allocation at 0x%llx of size %zu bytes",
                 (unsigned long long)(n->addr - a), (unsigned long long)n->addr, n->size);
    else
        snprintf(l2, cap, "and its last %llu of %u bytes are past the end of the allocation at 0x%llx of size %zu "
                 "bytes", (unsigned long long)(a + size - end), size, (unsigned long long)n->addr, n->size);
    return CK_OOB;
}

/* Whether every lane's access is aligned and inside one allocation (global) or the block's shared memory: the
 * common, coalesced case, checked from the lowest and highest address. */
static int all_ok(ws_chk *c, ws_warp *w, const ws_rec *r, unsigned size, unsigned align)
{
    uint32_t m = r->exec;
    int l0 = __builtin_ctz(m), sp = r->space[l0];
    uint64_t lo = UINT64_MAX, hi = 0, bits = 0;
    if (r->in->space == WS_S_GENERIC) {   /* generic addresses may resolve to different spaces */
        for (uint32_t k = m; k; k &= k - 1)
            if (r->space[__builtin_ctz(k)] != sp) return 0;
    }
    if (m == 0xffffffffu) {
        for (int l = 0; l < 32; l++) {
            uint64_t a = r->addr[l];
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            bits |= a;
        }
    } else {
        while (m) {
            int l = __builtin_ctz(m);
            m &= m - 1;
            uint64_t a = r->addr[l];
            lo = a < lo ? a : lo;
            hi = a > hi ? a : hi;
            bits |= a;
        }
    }
    if (bits & (align - 1)) return 0;
    if (sp == WS_S_GLOBAL || sp == WS_S_CONST) {
        int k;
        return hi - lo < ((uint64_t)1 << 32) && global_ok(c, lo, (unsigned)(hi - lo) + size, &k);
    }
    if (sp == WS_S_SHARED) return hi + size <= w->blk->smem_size && hi + size > hi;
    if (sp == WS_S_LOCAL) return hi + size <= w->L->local_stride && hi + size > hi;
    return 1;
}

/* memcheck for one memory instruction; returns 1 when it stopped the kernel. */
static int memcheck(ws_chk *c, ws_warp *w, ws_rec *r, unsigned size, int atom)
{
    if (all_ok(c, w, r, size, size & (size - 1) ? 1 : size)) return 0;
    ws_run *L = w->L;
    const ws_insn *in = r->in;
    uint32_t bad = 0;
    int fault = WS_ERR_ILLEGAL_ADDRESS;
    unsigned align = size & (size - 1) ? 1 : size;
    uint32_t m = r->exec;
    while (m) {
        int l = __builtin_ctz(m);
        m &= m - 1;
        int sp = r->space[l], kind = -1, k;
        uint64_t a = r->addr[l];
        switch (sp) {
        case WS_S_GLOBAL: case WS_S_CONST:
            if (!global_ok(c, a, size, &k)) kind = CK_OOB;
            else if (a & (align - 1)) kind = CK_MISALIGNED;
            break;
        case WS_S_SHARED:
            if (a + size > w->blk->smem_size || a + size < a) kind = CK_OOB;
            else if (a & (align - 1)) kind = CK_MISALIGNED;
            break;
        case WS_S_LOCAL:
            if (a + size > L->local_stride || a + size < a) kind = CK_OOB;
            else if (a & (align - 1)) kind = CK_MISALIGNED;
            break;
        default:
            break;
        }
        if (kind < 0) continue;
        bad |= 1u << l;
        char l1[300], l2[400];
        l2[0] = 0;
        if (kind == CK_MISALIGNED) {
            snprintf(l1, sizeof l1, "Address 0x%llx is misaligned", (unsigned long long)a);
            if (sp == WS_S_GLOBAL || sp == WS_S_CONST) {
                const ws_alloc *al = ws_mem_find(c->gpu->mem, a);
                if (al) snprintf(l2, sizeof l2, "and is inside the nearest allocation at 0x%llx of size %zu bytes",
                                 (unsigned long long)al->addr, al->size);
            }
            if (!c->mc_fault) fault = WS_ERR_MISALIGNED_ADDRESS;
        } else if (sp == WS_S_GLOBAL || sp == WS_S_CONST) {
            kind = describe_global(c, w, a, size, l1, l2, sizeof l1);
        } else if (sp == WS_S_SHARED) {
            snprintf(l1, sizeof l1, "Address 0x%llx is out of bounds", (unsigned long long)a);
            snprintf(l2, sizeof l2, "and the block has %zu bytes of shared memory", w->blk->smem_size);
        } else {
            snprintf(l1, sizeof l1, "Address 0x%llx is out of bounds", (unsigned long long)a);
            snprintf(l2, sizeof l2, "and each thread has %zu bytes of local memory (stack)", L->local_stride);
        }
        uint64_t key = (uint64_t)size | (uint64_t)r->is_write << 8 | (uint64_t)atom << 9 | (uint64_t)sp << 12;
        int fresh;
        chk_group *g = chk_group_get(c, WS_CHK_MEMCHECK, kind, chk_line_key(in, r->fn), NULL, key, &fresh);
        if (!g) continue;
        if (fresh) {
            snprintf(g->title, sizeof g->title, "Invalid %s %s of size %u bytes", space_name(sp),
                     atom ? "atomic" : r->is_write ? "write" : "read", size);
            chk_where(c, r->fn, in, g->where, sizeof g->where, g->file, sizeof g->file, &g->line);
            chk_detail(g, "%s", l1);
            if (l2[0]) chk_detail(g, "%s", l2);
        }
        chk_group_hit(c, g, w, l);
    }
    if (!bad) return 0;
    /* as under compute-sanitizer: every bad lane of the warp is reported, the access does not happen, the warp
     * stops and the other warps run on (so that every faulting warp is reported); the launch then fails at its
     * end (chk_launch_end) */
    r->exec = 0;
    ws_warp_exit_lanes(w, w->full);
    c->mc_lanes += (unsigned)__builtin_popcount(bad);
    if (!c->mc_fault) {
        int l = __builtin_ctz(bad);
        uint32_t t[3];
        chk_thr_dims(L, chk_thr(w, l), t);
        c->mc_fault = fault;
        snprintf(c->mc_msg, sizeof c->mc_msg, "memcheck: invalid %s %s of size %u at 0x%llx by thread (%u,%u,%u) in "
                 "block (%u,%u,%u)", space_name(r->space[l]), atom ? "atomic" : r->is_write ? "write" : "read", size,
                 (unsigned long long)r->addr[l], t[0], t[1], t[2], w->blk->id.x, w->blk->id.y, w->blk->id.z);
    }
    if (c->mc_lanes >= MC_STOP)   /* enough: stop the kernel */
        ws_fault(w, in, c->mc_fault, "%s (and %u more invalid accesses)", c->mc_msg, c->mc_lanes - 1);
    return 1;
}

/* ---------- racecheck ---------- */

/* Report a hazard between an earlier access (site s0 by thread t0 of block b0, write or read) and the current one. */
static void race(ws_chk *c, ws_warp *w, int lane, const ws_rec *r, uint32_t prev, uint64_t b0, int prev_write,
                 int now_write, int space, uint64_t addr, int benign)
{
    if (benign && !c->benign_races) return;
    const ws_insn *pin = c->site_in && acc_site(prev) <= c->nsites ? c->site_in[acc_site(prev)] : NULL;
    const ws_func *pfn = pin ? c->site_fn[acc_site(prev)] : NULL;
    uint64_t key = (uint64_t)prev_write | (uint64_t)now_write << 1 | (uint64_t)space << 4;
    int fresh;
    chk_group *g = chk_group_get(c, WS_CHK_RACECHECK, benign ? CK_RACE_BENIGN : CK_RACE, chk_line_key(pin, pfn),
                                 chk_line_key(r->in, r->fn), key, &fresh);
    if (!g) return;
    if (fresh) {
        char wp[512], wn[512];
        chk_where(c, pfn, pin, wp, sizeof wp, NULL, 0, NULL);
        chk_where(c, r->fn, r->in, wn, sizeof wn, g->file, sizeof g->file, &g->line);
        snprintf(g->title, sizeof g->title, "%s reported between %s access at %s",
                 benign ? "Warning: Benign race" : "Error: Race", prev_write ? "Write" : "Read", wp);
        memcpy(g->where, wp, sizeof g->where);
        snprintf(g->where2, sizeof g->where2, "%s access at %.512s", now_write ? "Write" : "Read", wn);
        uint32_t t0[3], t1[3], bb0[3];
        chk_thr_dims(w->L, acc_thr(prev), t0);
        chk_thr_dims(w->L, chk_thr(w, lane), t1);
        chk_blk_dims(w->L, b0, bb0);
        const ws_block *b = w->blk;
        chk_detail(g, "%s memory at 0x%llx: thread (%u,%u,%u) in block (%u,%u,%u) %s it, then thread (%u,%u,%u) in "
                   "block (%u,%u,%u) %s it", space_name(space), (unsigned long long)addr, t0[0], t0[1], t0[2], bb0[0],
                   bb0[1], bb0[2], prev_write ? "wrote" : "read", t1[0], t1[1], t1[2], b->id.x, b->id.y, b->id.z,
                   now_write ? "wrote" : "read");
        if (b0 != b->linear)
            chk_detail(g, "the two threads are in different blocks of one launch, and no __threadfence() after the "
                       "first access nor an atomic orders them (%s)", prev_write && now_write ? "write-after-write" :
                       prev_write ? "read-after-write: e.g. a plain read-modify-write of one counter by many blocks" :
                       "write-after-read");
        else
            chk_detail(g, "the two threads are in different warps of the block with no __syncthreads() between the "
                       "accesses (%s)", prev_write && now_write ? "write-after-write" : prev_write ? "read-after-write"
                       : "write-after-read");
        if (benign) {
            chk_detail(g, "benign: every write of the race stored the value already in memory, so no thread sees a "
                       "different value whatever the order (--check-benign-races=off hides these warnings)");
            c->benign++;
        } else {
            g->errors = 1;
            c->errors++;
        }
    }
    chk_group_hit(c, g, w, lane);
}

/* The bytes of word (addr/4) that an access [a, a+size) covers, as a 4-bit mask. */
static inline unsigned word_mask(uint64_t word, uint64_t a, unsigned size)
{
    uint64_t lo = word * 4 > a ? word * 4 : a, hi = word * 4 + 4 < a + size ? word * 4 + 4 : a + size;
    return ((1u << (hi - lo)) - 1) << (lo - word * 4);
}

/* Whether a plain store of lane l writes the value already in memory at p (a benign write-after-write). */
static int same_value(ws_warp *w, const ws_insn *in, int l, const uint8_t *p, unsigned size)
{
    if (in->op != WS_OP_ST || in->ns != 1 || size > 8 || !p) return 0;
    uint64_t v = w->regs[(size_t)in->s[0] * WS_LANES + (size_t)l];
    return memcmp(&v, p, size) == 0;
}

/* What every lane of one memory instruction shares (racecheck). */
typedef struct acc_ctx {
    uint32_t site, epoch, blk, myfence;
    uint64_t thr0;             /* block-linear id of lane 0 */
    uint32_t wbase;            /* the same, as a 32-bit first thread of the warp */
    int warp, ws, sync, atom;
} acc_ctx;

/* Racecheck of one lane's global access. */
static void race_global(ws_chk *c, ws_warp *w, const ws_rec *r, int l, uint64_t a, unsigned size, const acc_ctx *x)
{
    uint64_t off = a - WS_GLOBAL_BASE;
    if (off + size > c->gsh_cover || off >= WS_GLOBAL_SPAN) return;
    uint64_t thr = x->thr0 + (uint64_t)l;
    uint64_t last = (off + size - 1) / 4;
    int plain_write = r->is_write && !x->sync, plain_read = r->is_read && !r->is_write && !x->sync;
    int store = r->is_write && !r->is_read;
    /* a plain store of the value already in memory: its races are benign */
    int now_same = store && same_value(w, r->in, l, off + size <= w->L->glimit ? w->L->gstore + off : NULL, size);
    uint32_t nf = (uint32_t)c->nfence - 1;
    for (uint64_t wd = off / 4; wd <= last; wd++) {
        g_ent *e = &c->gsh[wd];
        unsigned mask = size == 4 && !(off & 3) ? 15u : word_mask(wd, off, size);
        if (e->stamp != c->stamp) {   /* first touch this launch */
            e->stamp = c->stamp;
            e->acc = e->racc = 0;
        }
        /* unordered with the last write: another block, or another warp of the block since the same barrier, and
         * the writer's block has not fenced since */
        if (e->acc && (acc_mask(e->acc) & mask) &&
            (e->blk != x->blk || (acc_thr(e->acc) - x->wbase >= (uint32_t)x->ws && e->bar == x->epoch)) &&
            (uint16_t)c->fence[e->blk & nf] == e->fence) {
            /* atomics never race with atomics; a plain read of an atomically written word is the CAS-loop idiom;
             * benign: this store writes the value there, or this read or atomic follows a store that did */
            if (!acc_sync(e->acc) || plain_write)
                race(c, w, l, r, e->acc, e->blk, 1, store, WS_S_GLOBAL, a,
                     store ? now_same : !acc_sync(e->acc) && (e->acc & ACC_SAME));
        }
        /* a write unordered with the last plain read (e.g. two blocks' read-add-write of one counter) */
        if (r->is_write && e->racc && (acc_mask(e->racc) & mask) &&
            (e->rblk != x->blk || (acc_thr(e->racc) - x->wbase >= (uint32_t)x->ws && e->rbar == x->epoch)) &&
            (uint16_t)c->fence[e->rblk & nf] == e->rfence)
            race(c, w, l, r, e->racc, e->rblk, 0, 1, WS_S_GLOBAL, a, now_same);
        if (r->is_write) {
            e->blk = x->blk;
            e->acc = acc_enc(x->site, thr, x->sync, mask) | (now_same ? ACC_SAME : 0);
            e->bar = x->epoch;
            e->fence = (uint16_t)x->myfence;
            e->racc = 0;
        } else if (plain_read) {
            e->rblk = x->blk;
            e->racc = acc_enc(x->site, thr, 0, mask);
            e->rbar = x->epoch;
            e->rfence = (uint16_t)x->myfence;
        }
    }
}

/* Racecheck of one lane's shared access. */
static void race_shared(ws_chk *c, chk_blk *cb, ws_warp *w, const ws_rec *r, int l, uint64_t a, unsigned size,
                        int atom, uint32_t site, uint32_t epoch)
{
    if (a + size > (uint64_t)cb->sh_n * 4) return;
    uint32_t ws = (uint32_t)w->L->warp_size, wbase = (uint32_t)chk_thr(w, 0);
    uint64_t thr = chk_thr(w, l);
#define OTHER_WARP(acc) (acc_thr(acc) - wbase >= ws)
    uint64_t blk = w->blk->linear;
    for (uint64_t wd = a / 4; wd <= (a + size - 1) / 4; wd++) {
        s_ent *e = &cb->sh[wd];
        unsigned mask = word_mask(wd, a, size);
        if (wd < cb->sh_lo) cb->sh_lo = wd;
        if (wd + 1 > cb->sh_hi) cb->sh_hi = wd + 1;
        int read = r->is_read && !atom, write = r->is_write;
        int now_same = write && !atom && same_value(w, r->in, l, w->blk->smem + a, size);
        uint32_t now = acc_enc(site, thr, atom, mask) | (now_same ? ACC_SAME : 0);
        /* read-after-write (atomics count as writes, and atomics never race with atomics) */
        if (read && e->w && !acc_sync(e->w) && (acc_mask(e->w) & mask) && OTHER_WARP(e->w) &&
            e->wbar == epoch)
            race(c, w, l, r, e->w, blk, 1, 0, WS_S_SHARED, a, (e->w & ACC_SAME) != 0);
        if (write) {
            /* write-after-read */
            uint32_t rs[2] = { e->r1, e->r2 }, rb[2] = { e->r1bar, e->r2bar };
            for (int k = 0; k < 2; k++)
                if (rs[k] && (acc_mask(rs[k]) & mask) && OTHER_WARP(rs[k]) && rb[k] == epoch) {
                    race(c, w, l, r, rs[k], blk, 0, 1, WS_S_SHARED, a, now_same);
                    break;
                }
            /* write-after-write (the same value written again is benign) */
            if (e->w && (acc_mask(e->w) & mask) && OTHER_WARP(e->w) && e->wbar == epoch &&
                !(acc_sync(e->w) && atom))
                race(c, w, l, r, e->w, blk, 1, 1, WS_S_SHARED, a, now_same);
            e->w = now;
            e->wbar = epoch;
        } else {
            if (e->r1 && OTHER_WARP(e->r1)) {
                e->r2 = e->r1;
                e->r2bar = e->r1bar;
            }
            e->r1 = now;
            e->r1bar = epoch;
        }
    }
}

#undef OTHER_WARP

/* ---------- initcheck ---------- */

/* A read of unwritten global memory by lane l. */
static void uninit_global(ws_chk *c, ws_warp *w, const ws_rec *r, int l, uint64_t a, unsigned size)
{
    int fresh;
    chk_group *g = chk_group_get(c, WS_CHK_INITCHECK, CK_INIT_GLOBAL, chk_line_key(r->in, r->fn), NULL, size, &fresh);
    if (!g) return;
    if (fresh) {
        snprintf(g->title, sizeof g->title, "Uninitialized __global__ memory read of size %u bytes", size);
        chk_where(c, r->fn, r->in, g->where, sizeof g->where, g->file, sizeof g->file, &g->line);
        const chk_alloc *al = chk_live_find(c, a);
        if (al)
            chk_detail(g, "Address 0x%llx, %llu bytes into the allocation at 0x%llx of size %zu bytes, was never "
                       "written by a kernel, cudaMemcpy or cudaMemset (cudaMalloc does not clear memory)",
                       (unsigned long long)a, (unsigned long long)(a - al->addr), (unsigned long long)al->addr,
                       al->size);
        else
            chk_detail(g, "Address 0x%llx was never written by a kernel, cudaMemcpy or cudaMemset",
                       (unsigned long long)a);
    }
    chk_group_hit(c, g, w, l);
}

/* A read of unwritten shared memory by lane l: synccheck when threads exited before a barrier the reader passed
 * (returns 1), else, when report_init (a read whose value initcheck does not follow), initcheck. */
static int uninit_shared(ws_chk *c, chk_blk *cb, ws_warp *w, const ws_rec *r, int l, uint64_t a, unsigned size,
                         int report_init)
{
    const chk_warp *cw = &cb->warps[w->warp_in_block];
    int exited = cb->exit_noted && cw->epoch > cb->exit_epoch && cw->last_bar && (c->checks & WS_CHK_SYNCCHECK);
    if (!exited && (!(c->checks & WS_CHK_INITCHECK) || !report_init)) return 0;
    int fresh;
    chk_group *g = chk_group_get(c, exited ? WS_CHK_SYNCCHECK : WS_CHK_INITCHECK, exited ? CK_EXITED : CK_INIT_SHARED,
                                 chk_line_key(r->in, r->fn), exited ? cw->last_bar : NULL, size, &fresh);
    if (!g) return exited;
    if (fresh) {
        chk_where(c, r->fn, r->in, g->where, sizeof g->where, g->file, sizeof g->file, &g->line);
        const ws_block *b = w->blk;
        if (exited) {
            char bw[512];
            uint32_t t0[3], t1[3];
            chk_where(c, cw->last_bar_fn, cw->last_bar, bw, sizeof bw, NULL, 0, NULL);
            chk_thr_dims(w->L, cb->exit_tmin, t0);
            chk_thr_dims(w->L, cb->exit_tmax, t1);
            snprintf(g->title, sizeof g->title, "Barrier error detected. Read of __shared__ memory (size %u bytes) "
                     "that threads which exited before the barrier never wrote", size);
            chk_detail(g, "Address 0x%llx of block (%u,%u,%u)'s shared memory was never written", (unsigned long long)a,
                       b->id.x, b->id.y, b->id.z);
            chk_detail(g, "threads (%u,%u,%u)..(%u,%u,%u) of the block exited before the barrier at %s: since Volta "
                       "exited threads no longer take part in __syncthreads(), so the barrier completed without them, "
                       "but the shared entries they were to write stay unwritten", t0[0], t0[1], t0[2], t1[0], t1[1],
                       t1[2], bw);
        } else {
            snprintf(g->title, sizeof g->title, "Uninitialized __shared__ memory read of size %u bytes", size);
            chk_detail(g, "Address 0x%llx of block (%u,%u,%u)'s shared memory was never written by a thread of the "
                       "block", (unsigned long long)a, b->id.x, b->id.y, b->id.z);
        }
    }
    chk_group_hit(c, g, w, l);
    return exited;
}

/* Bit i set when bit off+i of a bitmap is clear (i < n <= 32). */
static uint32_t bits_clear_mask(const uint8_t *bm, uint64_t off, unsigned n)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < n; i++) if (!(bm[(off + i) >> 3] >> ((off + i) & 7) & 1)) m |= 1u << i;
    return m;
}

/* Bit i set when bit off+i of a bitmap is set (i < n <= 32). */
static uint32_t bits_set_mask(const uint8_t *bm, uint64_t off, unsigned n)
{
    return ~bits_clear_mask(bm, off, n) & (n >= 32 ? ~0u : (1u << n) - 1);
}

/* Whether an instruction's loaded value is followed by initcheck's register shadow (its destinations are d[]). */
static inline int tracked_load(const ws_insn *in) { return in->op == WS_OP_LD || in->op == WS_OP_LDU; }

/* initcheck of lane l's global access: a load brings the bytes' definedness into its registers, an atomic on
 * unwritten bytes is a use (reported as compute-sanitizer does, at the atomic), a store of undefined bits to global
 * memory is a use; the stored bytes are defined from then on. Returns the bytes it found undefined. */
static uint32_t init_global(ws_chk *c, chk_ish *s, ws_warp *w, const ws_rec *r, int l, uint64_t a, unsigned size,
                            int atom)
{
    uint64_t off = a - WS_GLOBAL_BASE;
    int in_arena = off + size <= c->ginit_cover && off < WS_GLOBAL_SPAN;
    uint32_t undef = 0;
    int kind = 0;
    if ((r->is_read || atom) && in_arena && !bits_all(c->ginit, off, size) && global_ok(c, a, size, &kind) &&
        kind == WS_ALLOC_DEVICE)
        undef = size <= 32 ? bits_clear_mask(c->ginit, off, size) : 1;
    if (tracked_load(r->in)) { if (undef || s->dirty) chk_init_load(c, s, w, r, l, WS_S_GLOBAL, a, undef, undef, 0); }
    else if (undef) uninit_global(c, w, r, l, a, size);   /* an atomic, texture or matrix load reads it */
    if (atom && s->dirty) chk_init_load(c, s, w, r, l, WS_S_GLOBAL, a, 0, 0, 0);
    if (r->is_write) {
        uint32_t org;
        if (s->dirty && chk_init_store_undef(s, w, r, l, &org)) chk_init_use(c, w, r, l, CHK_USE_STORE, org);
        if (in_arena) bits_set(c->ginit, off, size);
    }
    return undef;
}

/* initcheck (and synccheck's reads of entries exited threads never wrote) of lane l's shared access: loads take
 * the bytes' definedness (never written, or last stored with undefined bits), stores put their data's there. */
static uint32_t init_shared(ws_chk *c, chk_blk *cb, chk_ish *s, ws_warp *w, const ws_rec *r, int l, uint64_t a,
                            unsigned size, int atom)
{
    int init = s && cb->sh_poison;
    uint32_t never = 0, poison = 0, org = 0;
    if ((r->is_read || atom) && !bits_all(cb->sh_init, a, size)) {
        never = size <= 32 ? bits_clear_mask(cb->sh_init, a, size) : 1;
        if (uninit_shared(c, cb, w, r, l, a, size, !tracked_load(r->in))) never = 0;   /* synccheck's, or reported */
        else if (!tracked_load(r->in)) never = 0;
    }
    if (init && (r->is_read || atom) && cb->any_poison && size <= 32) {
        poison = bits_set_mask(cb->sh_poison, a, size) & ~never;
        if (poison) org = cb->sh_org[(a + (unsigned)__builtin_ctz(poison)) / 4];
    }
    if (init && tracked_load(r->in)) {
        if (never | poison | (uint32_t)s->dirty)
            chk_init_load(c, s, w, r, l, WS_S_SHARED, a, never | poison, never, org);
    } else if (init && atom) {
        if (poison) chk_init_use(c, w, r, l, CHK_USE_ATOM, org);
        chk_init_load(c, s, w, r, l, WS_S_SHARED, a, 0, 0, 0);
    }
    if (r->is_write) {
        bits_set(cb->sh_init, a, size);
        if (init) {
            uint32_t u = s->dirty ? chk_init_store_undef(s, w, r, l, &org) : 0;
            if (u) {
                for (unsigned i = 0; i < size && i < 32; i++) {
                    if (u >> i & 1) { bits_set(cb->sh_poison, a + i, 1); cb->sh_org[(a + i) / 4] = org; }
                    else if (cb->any_poison) bits_clear(cb->sh_poison, a + i, 1);
                }
                cb->any_poison = 1;
            } else if (cb->any_poison) {
                bits_clear(cb->sh_poison, a, size);
            }
        }
        uint64_t wd = a / 4;
        if (wd < cb->sh_lo) cb->sh_lo = wd;
        if ((a + size + 3) / 4 > cb->sh_hi) cb->sh_hi = (a + size + 3) / 4;
    }
    return never | poison;
}

/* initcheck of lane l's local access (its stack: unwritten until stored). */
static void init_local(ws_chk *c, chk_ish *s, ws_warp *w, const ws_rec *r, int l, uint64_t a, unsigned size)
{
    uint32_t *org;
    uint8_t *p = chk_init_local(s, w, l, a, size, &org);
    if (!p) return;
    if (r->is_read && tracked_load(r->in)) {
        uint32_t never = 0, poison = 0, o = 0;
        for (unsigned i = 0; i < size && i < 32; i++) {
            if (p[i] == CHK_LD_NEVER) never |= 1u << i;
            else if (p[i] == CHK_LD_POISON) { if (!poison) o = org[((a + i) >> 2) - (a >> 2)]; poison |= 1u << i; }
        }
        chk_init_load(c, s, w, r, l, WS_S_LOCAL, a, never | poison, never, o);
    }
    if (r->is_write) {
        uint32_t so, u = chk_init_store_undef(s, w, r, l, &so);
        for (unsigned i = 0; i < size; i++) {
            int bad = i < 32 && (u >> i & 1);
            p[i] = bad ? CHK_LD_POISON : CHK_LD_DEF;
            if (bad) org[((a + i) >> 2) - (a >> 2)] = so;
        }
    }
}

/* ---------- the pre-access callback ---------- */

/* Host pointer of lane l's access (deadlock probe: to see whether a store changes memory). */
static uint8_t *lane_host(ws_warp *w, int sp, uint64_t a, unsigned size, int l)
{
    ws_run *L = w->L;
    switch (sp) {
    case WS_S_SHARED: return a + size <= w->blk->smem_size ? w->blk->smem + a : NULL;
    case WS_S_LOCAL: return a + size <= L->local_stride ? w->local + (size_t)l * L->local_stride + a : NULL;
    case WS_S_GLOBAL: case WS_S_CONST: {
        uint64_t off = a - WS_GLOBAL_BASE;
        if (off < L->glimit && off + size <= L->glimit) return L->gstore + off;
        return ws_host_view(L->gpu, a, size);
    }
    default: return NULL;
    }
}

/* Observer: before a memory instruction touches memory. */
void chk_pre_mem(void *ctx, ws_warp *w, ws_rec *r)
{
    ws_chk *c = ctx;
    if (!r->exec || !c->L) return;
    const ws_insn *in = r->in;
    unsigned size = r->size ? r->size : 1;
    int atom = in->op == WS_OP_ATOM || in->op == WS_OP_RED;
    int sync = atom || (in->flags & WS_F_SYNCMEM);
    if ((c->checks & WS_CHK_MEMCHECK) && (memcheck(c, w, r, size, atom) || !r->exec)) return;
    chk_blk *cb = chk_blk_of(c, w->blk);
    chk_warp *cw = &cb->warps[w->warp_in_block];
    uint32_t site = 0;
    int race_on = (c->checks & WS_CHK_RACECHECK) && c->nfence;
    chk_ish *ish = (c->checks & WS_CHK_INITCHECK) ? chk_init_ish(c, cb, w) : NULL;
    int init_on = ish != NULL;
    int sh_init_on = (c->checks & (WS_CHK_INITCHECK | WS_CHK_SYNCCHECK)) && cb->sh_init;
    acc_ctx x;
    memset(&x, 0, sizeof x);
    if (race_on) {
        site = chk_site(c, in, r->fn);
        x.site = site;
        x.epoch = cw->epoch;
        x.blk = (uint32_t)w->blk->linear;
        /* a release atomic (a grid barrier's arrival) orders the block's earlier accesses as a fence would */
        if (atom && (in->flags & WS_F_RELEASE)) c->fence[w->blk->linear & (c->nfence - 1)]++;
        x.myfence = c->fence[w->blk->linear & (c->nfence - 1)];
        x.thr0 = chk_thr(w, 0);
        x.wbase = (uint32_t)x.thr0;
        x.warp = w->warp_in_block;
        x.ws = w->L->warp_size;
        x.sync = sync;
        x.atom = atom;
    }
    c->probe_nw = 0;
    uint32_t m = r->exec;
    uint64_t prev_a = UINT64_MAX;   /* reads of the word the previous lane read cleanly (broadcasts) add nothing */
    int prev_sp = -1, plain_read = !r->is_write;
    unsigned long errs = c->errors;
    while (m) {
        int l = __builtin_ctz(m);
        m &= m - 1;
        uint64_t a = r->addr[l];
        int sp = r->space[l];
        if (plain_read && a == prev_a && sp == prev_sp && !c->probing) {   /* the previous lane's word, all defined */
            if (init_on && ish->dirty && tracked_load(in)) chk_init_load(c, ish, w, r, l, sp, a, 0, 0, 0);
            continue;
        }
        prev_a = a;
        prev_sp = sp;
        if (c->probing) {
            uint8_t *p = lane_host(w, sp, a, size, l);
            if (r->is_write && p) {
                unsigned n = size < 16 ? size : 16;
                memcpy(c->probe_old[l], p, n);
                c->probe_ptr[l] = p;
                c->probe_size = n;
                c->probe_nw = 1;
            } else {
                c->probe_ptr[l] = NULL;
            }
            if (r->is_read && sp == WS_S_GLOBAL && !cw->has_load) {
                cw->last_load = a;
                cw->has_load = 1;
            }
        }
        uint32_t undef = 0;
        if (sp == WS_S_GLOBAL) {
            if (init_on) undef = init_global(c, ish, w, r, l, a, size, atom);
            if (race_on) race_global(c, w, r, l, a, size, &x);
        } else if (sp == WS_S_SHARED && a + size <= cb->smem) {
            if (sh_init_on) undef = init_shared(c, cb, ish, w, r, l, a, size, atom);
            if (race_on && cb->sh) race_shared(c, cb, w, r, l, a, size, atom, site, cw->epoch);
            if (race_on && cb->npend && in->op != WS_OP_CP_ASYNC) chk_async_access(c, cb, w, r, l, a, size);
        } else if (sp == WS_S_LOCAL && init_on) {
            init_local(c, ish, w, r, l, a, size);
            undef = 1;   /* every lane has its own local memory: the next lane is never the same word */
        } else if (init_on && ish->dirty && tracked_load(in)) {
            chk_init_load(c, ish, w, r, l, sp, a, 0, 0, 0);   /* constants, parameters, out of range: defined */
        }
        if (undef) prev_a = UINT64_MAX;
        if (c->errors != errs) {   /* this lane found something: the next lane reading the same word counts too */
            prev_a = UINT64_MAX;
            errs = c->errors;
        }
    }
    if (race_on && in->op == WS_OP_CP_ASYNC) chk_async_issue(c, cb, w, r, site);
}

/* Bytes [a, a+len) of cb's shared memory were written with defined data by something other than a store record
 * (wmma.store, asynchronous copies): written for synccheck, defined for initcheck. */
void chk_mem_shared_written(chk_blk *cb, uint64_t a, uint64_t len)
{
    bits_set(cb->sh_init, a, len);
    if (cb->any_poison && cb->sh_poison) bits_clear(cb->sh_poison, a, len);
    if (a / 4 < cb->sh_lo) cb->sh_lo = a / 4;
    if ((a + len + 3) / 4 > cb->sh_hi) cb->sh_hi = (a + len + 3) / 4;
}

/* An asynchronous bulk copy wrote [a, a+len) of block dst's shared memory or of global memory: initialized. */
void chk_async_write(void *ctx, ws_warp *w, ws_block *dst, int space, uint64_t a, uint64_t len)
{
    ws_chk *c = ctx;
    (void)w;
    if (!c->L || !(c->checks & (WS_CHK_INITCHECK | WS_CHK_SYNCCHECK))) return;
    if (space == WS_S_SHARED && dst) {
        chk_blk *cb = chk_blk_of(c, dst);
        if (!cb->sh_init || a + len > cb->smem) return;
        chk_mem_shared_written(cb, a, len);
    } else if (space == WS_S_GLOBAL && (c->checks & WS_CHK_INITCHECK)) {
        uint64_t off = a - WS_GLOBAL_BASE;
        if (off + len <= c->ginit_cover && off < WS_GLOBAL_SPAN) bits_set(c->ginit, off, len);
    }
}

/* After a wmma.store: the bytes it wrote are initialized (shared and global; wmma fragments are not memory
 * records, so initcheck learns of them here). */
void chk_mem_wmma_store(ws_chk *c, ws_warp *w, const ws_rec *r)
{
    if (!r->exec || !c->L || !(c->checks & (WS_CHK_INITCHECK | WS_CHK_SYNCCHECK))) return;
    chk_blk *cb = chk_blk_of(c, w->blk);
    for (int l = 0; l < 32; l++)
        for (int i = 0;; i++) {
            uint64_t a;
            unsigned size = ws_mma_elem_addr(w, r->in, l, i, &a);
            if (!size) break;
            int sp = r->in->space;
            if (sp == WS_S_GENERIC) sp = ws_resolve_generic(w, a, &a);
            if (sp == WS_S_SHARED && cb->sh_init && a + size <= cb->smem) {
                chk_mem_shared_written(cb, a, size);
            } else if (sp == WS_S_GLOBAL && (c->checks & WS_CHK_INITCHECK)) {
                uint64_t off = a - WS_GLOBAL_BASE;
                if (off + size <= c->ginit_cover && off < WS_GLOBAL_SPAN) bits_set(c->ginit, off, size);
            }
        }
}
