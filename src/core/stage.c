/* stage.c - global-memory writes held back during the timing engine's parallel phase (stage.h). */
#include <stdlib.h>
#include <string.h>
#include "stage.h"
#include "ops.h"

#define WS_STAGE_SECTOR 32u

/* Grow array *p of *cap elements of size sz to hold need; 0, or -1 when out of memory. */
static int grow(void **p, uint32_t *cap, size_t need, size_t sz)
{
    if (need <= *cap) return 0;
    size_t n = *cap ? (size_t)*cap * 2 : 64;
    while (n < need) n *= 2;
    void *q = realloc(*p, n * sz);
    if (!q) return -1;
    *p = q;
    *cap = (uint32_t)n;
    return 0;
}

/* Slot of sector key k (sector number + 1) in the written set: where it is, or the empty slot it would go to. */
static uint32_t wslot(const ws_stage *s, uint64_t k)
{
    uint32_t i = (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 40) & (s->wcap - 1);
    while (s->wkey[i] && s->wkey[i] != k) i = (i + 1) & (s->wcap - 1);
    return i;
}

/* The bits of the bytes [a, a + len) that fall in the sector starting at lo. */
static inline uint32_t sector_bits(uint64_t lo, uint64_t a, uint64_t len)
{
    uint64_t b0 = a > lo ? a - lo : 0, b1 = a + len < lo + WS_STAGE_SECTOR ? a + len - lo : WS_STAGE_SECTOR;
    return (uint32_t)((b1 - b0 >= 32 ? ~0ull : ((1ull << (b1 - b0)) - 1)) << b0);
}

/* Make room for n more sectors in the written set (at most half full); 0, or -1 when out of memory. */
static int wreserve(ws_stage *s, uint64_t n)
{
    if ((s->wn + n) * 2 <= s->wcap) return 0;
    uint32_t ocap = s->wcap, ncap = ocap ? ocap : 1024;
    while ((s->wn + n) * 2 > ncap) ncap *= 2;
    uint64_t *ok = s->wkey;
    uint32_t *ob = s->wbits;
    uint64_t *nk = calloc(ncap, sizeof *nk);
    uint32_t *nb = calloc(ncap, sizeof *nb);
    uint32_t *nu = realloc(s->wused, sizeof *nu * (ncap / 2));
    if (!nk || !nb || !nu) { free(nk); free(nb); if (nu) s->wused = nu; return -1; }
    s->wkey = nk;
    s->wbits = nb;
    s->wused = nu;
    s->wcap = ncap;
    s->wn = 0;
    for (uint32_t i = 0; i < ocap; i++)
        if (ok[i]) { uint32_t j = wslot(s, ok[i]); nk[j] = ok[i]; nb[j] = ob[i]; s->wused[s->wn++] = j; }
    free(ok);
    free(ob);
    return 0;
}

/* Record the bytes [a, a + len) of global memory as written in this window. */
static void wmark(ws_stage *s, uint64_t a, uint64_t len)
{
    if (!len) return;
    uint64_t first = a / WS_STAGE_SECTOR, last = (a + len - 1) / WS_STAGE_SECTOR;
    if (wreserve(s, last - first + 1)) { s->unknown = 1; return; }
    if (!s->wn || a < s->wlo) s->wlo = a;
    if (!s->wn || a + len > s->whi) s->whi = a + len;
    for (uint64_t sec = first; sec <= last; sec++) {
        uint32_t i = wslot(s, sec + 1);
        if (!s->wkey[i]) { s->wkey[i] = sec + 1; s->wbits[i] = 0; s->wused[s->wn++] = i; }
        s->wbits[i] |= sector_bits(sec * WS_STAGE_SECTOR, a, len);
    }
}

/* Whether any of the bytes [a, a + len) of global memory was written in this window. */
static int wtest(const ws_stage *s, uint64_t a, uint64_t len)
{
    if (a >= s->whi || a + len <= s->wlo) return 0;   /* outside every byte written (wn > 0: ws_stage_overlaps) */
    uint64_t first = a / WS_STAGE_SECTOR, last = (a + len - 1) / WS_STAGE_SECTOR;
    for (uint64_t sec = first; sec <= last; sec++) {
        uint32_t i = wslot(s, sec + 1);
        if (s->wkey[i] && (s->wbits[i] & sector_bits(sec * WS_STAGE_SECTOR, a, len))) return 1;
    }
    return 0;
}

/* Whether every lane's space in r is sp (compared eight at a time). */
static inline int one_space(const ws_rec *r, int sp)
{
    uint64_t v[4], all = 0x0101010101010101ull * (uint8_t)sp;
    memcpy(v, r->space, sizeof v);
    return v[0] == all && v[1] == all && v[2] == all && v[3] == all;
}

/* Whether r's executing lanes are adjacent lanes at consecutive addresses, size bytes apart (the usual access:
 * checked and captured as one range); *first and *n: the lanes. */
static inline int lane_run(const ws_rec *r, unsigned size, int *first, int *n)
{
    const uint32_t m = r->exec;
    if (!m) return 0;
    const int f = __builtin_ctz(m), k = __builtin_popcount(m);
    if (((m >> f) & ((m >> f) + 1)) || r->addr[f + k - 1] - r->addr[f] != (uint64_t)(k - 1) * size) return 0;
    uint64_t d = 0;
    if (k == 32) for (int l = 1; l < 32; l++) d |= r->addr[l] - r->addr[l - 1] - size;   /* (vector code) */
    else for (int l = f + 1; l < f + k; l++) d |= r->addr[l] - r->addr[l - 1] - size;
    *first = f;
    *n = k;
    return !d;
}

/* Where the executing lanes of r go (see stage.h). */
int ws_stage_lanes(const ws_run *L, const ws_rec *r)
{
    unsigned size = r->size ? r->size : 1;
    int f, n;
    if (one_space(r, WS_S_GLOBAL) && lane_run(r, size, &f, &n)) {   /* one range in global memory */
        uint64_t lo = r->addr[f], off = lo - L->gbase, end = off + (uint64_t)n * size;
        int ok = lo >= L->gbase && off < L->glimit && end <= L->glimit && !(size > 1 && (lo & (size - 1)));
        return ok ? WS_STAGE_GLOBAL : WS_STAGE_BAD;
    }
    int where = 0;
    for (uint32_t m = r->exec; m; m &= m - 1) {
        int l = __builtin_ctz(m), sp = r->space[l];
        if (sp == WS_S_DSMEM) return WS_STAGE_BAD;   /* another SM's shared memory */
        if (sp != WS_S_GLOBAL && sp != WS_S_CONST) { where |= WS_STAGE_OTHER; continue; }
        uint64_t off = r->addr[l] - L->gbase;
        if (off >= L->glimit || off + size > L->glimit || (size > 1 && (r->addr[l] & (size - 1)))) return WS_STAGE_BAD;
        where |= WS_STAGE_GLOBAL;
    }
    return where;
}

/* Whether load r reads bytes this SM wrote in this window (see stage.h). */
int ws_stage_overlaps(const ws_stage *s, const ws_rec *r)
{
    if (s->unknown) return 1;
    if (!s->wn) return 0;
    unsigned size = r->size ? r->size : 1;
    int f, n;
    if (one_space(r, WS_S_GLOBAL) && lane_run(r, size, &f, &n)) return wtest(s, r->addr[f], (uint64_t)n * size);
    uint64_t lo = 0, hi = 0;   /* the current run of consecutive bytes */
    int have = 0;
    for (uint32_t m = r->exec; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (r->space[l] != WS_S_GLOBAL) continue;
        uint64_t a = r->addr[l];
        if (have && a >= lo && a + size <= hi) continue;
        if (have && a == hi) { hi += size; continue; }
        if (have && wtest(s, lo, hi - lo)) return 1;
        lo = a;
        hi = a + size;
        have = 1;
    }
    return have && wtest(s, lo, hi - lo);
}

/* A write of r's executing global lanes left to the serial phase (see stage.h). */
void ws_stage_mark(ws_stage *s, const ws_rec *r)
{
    if (!r || !r->is_mem) { s->unknown = 1; return; }
    unsigned size = r->size ? r->size : 1;
    for (uint32_t m = r->exec; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (r->space[l] == WS_S_GLOBAL) wmark(s, r->addr[l], size);
        else if (r->space[l] != WS_S_SHARED && r->space[l] != WS_S_LOCAL) s->unknown = 1;
    }
}

/* Capture store r of warp w as segments of bytes (see stage.h). */
int ws_stage_store(ws_stage *s, ws_warp *w, const ws_rec *r, uint32_t *seg0, uint32_t *nseg)
{
    const ws_insn *in = r->in;
    const ws_run *L = w->L;
    unsigned es = (unsigned)ws_type_size(in->type), n = in->ns ? in->ns : 1, size = r->size;
    if (!es || size != (es == 16 ? 16 : es * n) || size > 64) return 0;
    size_t need = s->nbytes + (size_t)size * 32;
    if (need > s->capbytes) {
        size_t c = s->capbytes ? s->capbytes * 2 : 4096;
        while (c < need) c *= 2;
        uint8_t *b = realloc(s->bytes, c);
        if (!b) return 0;
        s->bytes = b;
        s->capbytes = c;
    }
    if (grow((void **)&s->segs, &s->capsegs, (size_t)s->nsegs + 32, sizeof *s->segs)) return 0;
    *seg0 = s->nsegs;
    int f, nl;
    if (r->exec == 0xffffffffu && (es == 4 || es == 8) && lane_run(r, size, &f, &nl)) {
        /* a whole warp of consecutive elements or vectors: one segment */
        uint8_t *p = s->bytes + s->nbytes;
        for (unsigned k = 0; k < n; k++) {
            const uint64_t *src = &RG(in->s[k], 0);
            if (es == 4)
                for (int l = 0; l < 32; l++) { uint32_t v = (uint32_t)src[l]; memcpy(p + (size_t)l * size + 4 * k, &v, 4); }
            else
                for (int l = 0; l < 32; l++) memcpy(p + (size_t)l * size + 8 * k, &src[l], 8);
        }
        s->segs[s->nsegs++] = (ws_stage_seg){ r->addr[0] - L->gbase, 32 * size, (uint32_t)s->nbytes };
        s->nbytes += 32 * size;
        wmark(s, r->addr[0], 32ull * size);
        *nseg = 1;
        return 1;
    }
    for (uint32_t m = r->exec; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint8_t *p = s->bytes + s->nbytes;
        if (es == 16) {
            memcpy(p, &RG(in->s[0], l), 8);
            memcpy(p + 8, &RG(in->s[1], l), 8);
        } else
            for (unsigned k = 0; k < n; k++) memcpy(p + k * es, &RG(in->s[k], l), es);
        uint64_t off = r->addr[l] - L->gbase;
        ws_stage_seg *last = s->nsegs > *seg0 ? &s->segs[s->nsegs - 1] : NULL;
        if (last && last->off + last->len == off && last->data + last->len == s->nbytes) last->len += size;
        else s->segs[s->nsegs++] = (ws_stage_seg){ off, size, (uint32_t)s->nbytes };
        s->nbytes += size;
    }
    for (uint32_t i = *seg0; i < s->nsegs; i++) wmark(s, s->segs[i].off + L->gbase, s->segs[i].len);
    *nseg = s->nsegs - *seg0;
    return 1;
}

/* Capture atomic or reduction r of warp w (see stage.h). */
int ws_stage_atom(ws_stage *s, ws_warp *w, const ws_rec *r, int wb, uint32_t *idx)
{
    const ws_insn *in = r->in;
    unsigned sz = (unsigned)ws_type_size(in->type);
    if (!sz || sz > 8 || grow((void **)&s->atoms, &s->capatoms, (size_t)s->natoms + 1, sizeof *s->atoms)) return 0;
    ws_stage_atomop *a = &s->atoms[s->natoms];
    a->in = in;
    a->mask = r->exec;
    a->wb = (uint8_t)wb;
    a->regs_off = ws_warp_win(w);
    const int b = in->s[0], c = in->s[1];
    for (uint32_t m = r->exec; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        a->off[l] = r->addr[l] - w->L->gbase;
        a->b[l] = b >= 0 ? RG(b, l) : 0;
        a->c[l] = c >= 0 ? RG(c, l) : 0;
        wmark(s, r->addr[l], sz);
    }
    *idx = s->natoms++;
    return 1;
}

/* Apply captured segments to global memory (see stage.h). */
void ws_stage_apply_store(const ws_stage *s, ws_run *L, uint32_t seg0, uint32_t nseg)
{
    for (uint32_t i = seg0; i < seg0 + nseg; i++)
        memcpy(L->gstore + s->segs[i].off, s->bytes + s->segs[i].data, s->segs[i].len);
}

/* Apply captured atomic idx for warp w (see stage.h). */
void ws_stage_apply_atom(const ws_stage *s, ws_warp *w, uint32_t idx)
{
    const ws_stage_atomop *a = &s->atoms[idx];
    uint64_t *R = ws_rows_at(w->reg_stack + a->regs_off, w->L->mod->sr_lo);
    const int d = a->in->d[0];
    for (uint32_t m = a->mask; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t old = ws_atomic_apply(a->in, w->L->gstore + a->off[l], a->b[l], a->c[l]);
        if (a->wb && d >= 0) R[(size_t)d * WS_LANES + (size_t)l] = old;
    }
}

/* Forget the window's writes (see stage.h). */
void ws_stage_clear(ws_stage *s)
{
    s->nbytes = 0;
    s->nsegs = s->natoms = 0;
    s->unknown = 0;
    for (uint32_t i = 0; i < s->wn; i++) s->wkey[s->wused[i]] = 0;
    s->wn = 0;
}

/* Free s's arrays. */
void ws_stage_free(ws_stage *s)
{
    free(s->bytes);
    free(s->segs);
    free(s->atoms);
    free(s->wkey);
    free(s->wbits);
    free(s->wused);
    memset(s, 0, sizeof *s);
}
