/* ms_shared.c - shared memory in the memory system: bank passes, wavefronts and conflicts (rules in memsys.c),
 * the patterns remembered per SM, and ptxas's load fusion (LDS.64 / LDS.128 from scalar ld.shared). */
#include "ms_int.h"

/* One pass of the bank array over the lanes in mask (each accessing width bytes at addr[lane]): returns the
 * largest number of distinct words in one bank (the wavefronts of the pass, 0 for no lanes); *nwords receives
 * the distinct words. Each bank keeps a chain of the distinct words seen in it (a word repeated by the previous
 * lane, a broadcast, is caught before the chain walk). */
static unsigned ws_ms_bank_pass(const ws_memsys *ms, const uint64_t *addr, uint32_t mask, unsigned width,
                                unsigned *nwords)
{
    uint64_t w[128];
    int8_t head[64], next[128];
    uint8_t cnt[64];
    unsigned bb = ms->bank_bytes, per = width > bb ? width / bb : 1;
    unsigned nb = ms->banks < 64 ? ms->banks : 64, best = 0, uniq = 0;
    const int bs = ms->bank_shift;
    const unsigned bmask = ms->bank_mask;
#define WS_MS_WORD(a) (bs >= 0 ? (a) >> bs : (a) / bb)
    if (per > 4) per = 4;
    *nwords = 0;
    if (!mask) return 0;
    if (per == 1) {
        /* the lanes read consecutive words (tid-indexed arrays): ceil(words / banks) passes, no chain needed */
        uint64_t expect = WS_MS_WORD(addr[__builtin_ctz(mask)]);
        unsigned k = 0;
        uint32_t t = mask;
        for (; t; t &= t - 1, k++, expect++)
            if (WS_MS_WORD(addr[__builtin_ctz(t)]) != expect) break;
        if (!t) { *nwords = k; return (k + nb - 1) / nb; }
    }
    if (bmask && bs >= 0) {
        /* no two distinct words in one bank (conflict-free, broadcasts allowed): one wavefront, found without
         * chains: each bank remembers the one word it holds (a bank asked for another word: the chains decide) */
        uint64_t bw[64], used = 0, prev = UINT64_MAX;
        uint32_t t = mask;
        for (; t; t &= t - 1) {
            uint64_t first = addr[__builtin_ctz(t)] >> bs;
            if (first == prev) continue;
            prev = first;
            unsigned k = 0;
            for (; k < per; k++) {
                uint64_t x = first + k;
                unsigned bk = (unsigned)(x & bmask);
                if (!(used >> bk & 1)) { used |= 1ull << bk; bw[bk] = x; }
                else if (bw[bk] != x) break;
            }
            if (k < per) break;
        }
        if (!t) { *nwords = (unsigned)__builtin_popcountll(used); return 1; }
    }
    memset(head, -1, sizeof head);
    memset(cnt, 0, sizeof cnt);
    uint64_t prev = UINT64_MAX;
    int n = 0;
    while (mask && n < 128) {
        int l = __builtin_ctz(mask);
        mask &= mask - 1;
        uint64_t first = WS_MS_WORD(addr[l]);
        if (first == prev) continue;   /* the same words as the previous lane: nothing new */
        prev = first;
        for (unsigned k = 0; k < per && n < 128; k++) {
            uint64_t x = first + k;
            unsigned bk = bmask ? (unsigned)(x & bmask) : (unsigned)(x % nb);
            int j = head[bk];
            while (j >= 0 && w[j] != x) j = next[j];
            if (j >= 0) continue;
            w[n] = x;
            next[n] = head[bk];
            head[bk] = (int8_t)n;
            n++;
            uniq++;
            if (++cnt[bk] > best) best = cnt[bk];
        }
    }
#undef WS_MS_WORD
    *nwords = uniq;
    return best;
}

/* Lanes [first, first + n) of a warp as a mask. */
static uint32_t ws_ms_lanes(unsigned first, unsigned n)
{
    if (first >= 32) return 0;
    uint64_t m = ((n >= 64 ? ~0ull : ((1ull << n) - 1)) << first);
    return (uint32_t)m;
}

/* Wavefronts and bank conflicts of one shared-memory warp access (rules in the file comment). */
void ws_ms_shared_wavefronts(const ws_memsys *ms, const uint64_t *addr, uint32_t mask, unsigned width, int is_store,
                             unsigned *wavefronts, unsigned *conflicts)
{
    unsigned wf = 0, ideal = 0, nw, bb = ms->bank_bytes, banks = ms->banks;
    unsigned pass_bytes = banks * bb;
    if (!mask) { *wavefronts = *conflicts = 0; return; }
    if (width <= bb) {
        wf = ws_ms_bank_pass(ms, addr, mask, width, &nw);
        ideal = (nw + banks - 1) / banks;
    } else {
        unsigned sub = pass_bytes / width;
        if (sub < 1) sub = 1;
        if (is_store) {
            for (unsigned s = 0; s < 32; s += sub) {
                unsigned a = ws_ms_bank_pass(ms, addr, mask & ws_ms_lanes(s, sub), width, &nw);
                wf += a;
                ideal += (nw + banks - 1) / banks;
            }
        } else {
            unsigned unit = 2 * sub;
            for (unsigned u = 0; u < 32; u += unit) {
                uint32_t um = mask & ws_ms_lanes(u, unit);
                if (!um) continue;
                unsigned a = ws_ms_bank_pass(ms, addr, um, width, &nw);
                int merge = nw * bb <= WS_MS_SECTOR;
                if (merge && a == 1) { wf += 1; ideal += 1; continue; }
                if (merge) ideal += 1;
                for (unsigned s = u; s < u + unit; s += sub) {
                    unsigned b = ws_ms_bank_pass(ms, addr, mask & ws_ms_lanes(s, sub), width, &nw);
                    wf += b;
                    if (!merge) ideal += (nw + banks - 1) / banks;
                }
            }
        }
    }
    *wavefronts = wf;
    *conflicts = wf > ideal ? wf - ideal : 0;
}

/* ws_ms_shared_wavefronts through SM sm's remembered patterns: a loop's access repeats its pattern at other
 * addresses, and a pattern's counts are found once. */
static void ws_ms_shared_memo(ws_memsys *ms, int sm, const uint64_t *addr, uint32_t mask, unsigned width,
                              int is_store, unsigned *wavefronts, unsigned *conflicts)
{
    if (!mask || !ms->bmemo) { ws_ms_shared_wavefronts(ms, addr, mask, width, is_store, wavefronts, conflicts); return; }
    uint32_t d[32];
    const uint64_t a0 = addr[__builtin_ctz(mask)];
    if (mask == 0xffffffffu) for (int l = 0; l < 32; l++) d[l] = (uint32_t)(addr[l] - a0);
    else {
        memset(d, 0, sizeof d);
        for (uint32_t m = mask; m; m &= m - 1) d[__builtin_ctz(m)] = (uint32_t)(addr[__builtin_ctz(m)] - a0);
    }
    /* a few lanes pick the slot (the whole pattern is compared) */
    uint64_t h = ((uint64_t)mask << 16) ^ ((uint64_t)width << 8) ^ ((uint64_t)is_store << 4) ^ (a0 & 3);
    h = (h ^ d[1] ^ ((uint64_t)d[7] << 13) ^ ((uint64_t)d[16] << 27) ^ ((uint64_t)d[31] << 41)) * 0x9E3779B97F4A7C15ull;
    ws_ms_bmemo *e = &ms->bmemo[(size_t)sm * WS_MS_BMEMO + (unsigned)((h >> 40) % WS_MS_BMEMO)];
    if (e->valid && e->mask == mask && e->width == width && e->store == is_store && e->lo == (a0 & 3) &&
        !memcmp(e->d, d, sizeof d)) {
        *wavefronts = e->wf;
        *conflicts = e->bc;
        return;
    }
    ws_ms_shared_wavefronts(ms, addr, mask, width, is_store, wavefronts, conflicts);
    memcpy(e->d, d, sizeof d);
    e->mask = mask;
    e->width = (uint16_t)width;
    e->store = (uint8_t)is_store;
    e->lo = (uint8_t)(a0 & 3);
    e->wf = (uint16_t)*wavefronts;
    e->bc = (uint16_t)*conflicts;
    e->valid = 1;
}

/* Fusion role of instruction in of function fn (WS_MS_FUSE_*); *width and *delta describe a leader's access. */
int ws_ms_fusion(ws_memsys *ms, const ws_func *fn, const ws_insn *in, unsigned *width, int *delta)
{
    if (!ms->fuse_on || !fn || !in || in < fn->code || in >= fn->code + fn->ncode) return WS_MS_FUSE_NONE;
    ws_ms_fnfuse *e = NULL;
    if (ms->last_fuse < ms->nfns && ms->fns[ms->last_fuse].fn == fn) e = &ms->fns[ms->last_fuse];
    else
        for (int i = 0; i < ms->nfns; i++) if (ms->fns[i].fn == fn) { e = &ms->fns[i]; ms->last_fuse = i; break; }
    if (!e) {
        if (ms->nfns == ms->fns_cap) {
            int cap = ms->fns_cap ? 2 * ms->fns_cap : 16;
            ws_ms_fnfuse *p = realloc(ms->fns, sizeof *p * (size_t)cap);
            if (!p) return WS_MS_FUSE_NONE;
            ms->fns = p;
            ms->fns_cap = cap;
        }
        e = &ms->fns[ms->nfns++];
        e->fn = fn;
        e->tab = ws_ptx_fusion(fn);
    }
    if (!e->tab) return WS_MS_FUSE_NONE;
    const ws_fuse *f = &e->tab[in - fn->code];
    if (width) *width = f->width;
    if (delta) *delta = f->delta;
    return f->role;
}

/* Turn the ptxas load fusion on or off (default on). */
void ws_ms_set_fusion(ws_memsys *ms, int on) { ms->fuse_on = on; }

/* Shared-memory access of the lanes in mask (kind: 0 load, 1 store, 2 atomic), counted into c and a; returns the
 * completion cycle. */
uint64_t ws_ms_shared_to(ws_memsys *ms, int sm, const uint64_t *addr, uint32_t mask, unsigned size, int kind,
                         uint64_t now, ws_ms_counts *c, ws_ms_access_counts *a)
{
    unsigned wf, bc;
    ws_ms_shared_memo(ms, sm, addr, mask, size, kind == 1, &wf, &bc);
    a->wavefronts += wf;
    if (kind != 2) a->conflicts += bc;   /* as the counters: atomics count wavefronts only */
    if (kind == 0) { c->shld_requests++; c->shld_wavefronts += wf; c->shld_conflicts += bc; }
    else if (kind == 1) { c->shst_requests++; c->shst_wavefronts += wf; c->shst_conflicts += bc; }
    else { c->shatom_requests++; c->shatom_wavefronts += wf; }
    uint64_t t = now > ms->pipe[sm] ? now : ms->pipe[sm];
    ms->pipe[sm] = t + wf;
    if (kind == 1) return t + wf;
    return t + (wf ? wf - 1 : 0) + ms->lat_smem + (kind == 2 ? ms->lat_smem : 0);
}

/* A warp's access with every executing lane in shared memory, as ws_ms_access_warp accounts it (see memsys.h). */
uint64_t ws_ms_shared_access(ws_memsys *ms, int sm, const ws_rec *rec, int role, unsigned fw, int fd,
                             ws_ms_counts *c, uint64_t now)
{
    ws_ms_access_counts a;
    memset(&a, 0, sizeof a);
    if (!rec || !rec->is_mem || !rec->exec || !rec->in) return now;
    if (sm < 0 || sm >= ms->nsm) sm = ((sm % ms->nsm) + ms->nsm) % ms->nsm;
    int kind = ws_ms_kind(rec->in);
    if (kind == 2) role = WS_MS_FUSE_NONE;
    uint64_t f = ws_ms_shared_fused(ms, sm, rec, rec->exec, kind, role, fw, fd, now, c, &a);
    return f > now ? f : now;
}
