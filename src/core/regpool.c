/* regpool.c - the warps' register files from large regions on huge pages (regpool.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "regpool.h"
#include "exec.h"
#include "../mem/huge.h"

#define WS_REGPOOL_CHUNK ((size_t)32 << 20)   /* bytes of a region (a larger register file gets one of its own) */

/* a register file given back, for the next one of its size */
typedef struct rp_free { uint64_t *p; size_t slots; } rp_free;
/* a region register files are carved from */
typedef struct rp_chunk { void *p; size_t bytes; } rp_chunk;

struct ws_regpool {
    pthread_mutex_t mu;
    rp_chunk *chunk;           /* the regions */
    int nchunk, capchunk;
    uint8_t *cur;              /* the unused rest of the last region */
    size_t left;
    rp_free *fr;
    int nfr, capfr;
};

/* g's pool, made on first use (under g's construction: the first launch's blocks are started on one thread). */
static struct ws_regpool *pool_of(ws_gpu *g)
{
    if (!g->regs) {
        struct ws_regpool *p = calloc(1, sizeof *p);
        if (!p) return NULL;
        pthread_mutex_init(&p->mu, NULL);
        g->regs = p;
    }
    return g->regs;
}

/* A zeroed register file of `slots` slots (see regpool.h). */
uint64_t *ws_regpool_get(ws_gpu *g, size_t slots)
{
    struct ws_regpool *p = pool_of(g);
    if (!p || !slots) return NULL;
    size_t bytes = (slots * sizeof(uint64_t) + 63) & ~(size_t)63;
    uint64_t *r = NULL;
    pthread_mutex_lock(&p->mu);
    for (int i = p->nfr - 1; i >= 0; i--)   /* one given back of this size (cleared: a new file reads as zero) */
        if (p->fr[i].slots == slots) {
            r = p->fr[i].p;
            p->fr[i] = p->fr[--p->nfr];
            memset(r, 0, bytes);
            break;
        }
    if (!r) {
        if (bytes > p->left) {
            size_t cb = bytes > WS_REGPOOL_CHUNK ? bytes : WS_REGPOOL_CHUNK;
            void *c = ws_huge_alloc(cb);
            if (c && p->nchunk == p->capchunk) {
                int cap = p->capchunk ? 2 * p->capchunk : 16;
                rp_chunk *nc = realloc(p->chunk, sizeof *nc * (size_t)cap);
                if (nc) { p->chunk = nc; p->capchunk = cap; }
            }
            if (c && p->nchunk < p->capchunk) {
                p->chunk[p->nchunk++] = (rp_chunk){ c, cb };
                p->cur = c;
                p->left = cb;
            } else if (c) ws_huge_free(c, cb);
        }
        if (bytes <= p->left) {
            r = (uint64_t *)p->cur;
            p->cur += bytes;
            p->left -= bytes;
        }
    }
    pthread_mutex_unlock(&p->mu);
    return r;
}

/* Give register file r of `slots` slots back (see regpool.h). */
void ws_regpool_put(ws_gpu *g, uint64_t *r, size_t slots)
{
    struct ws_regpool *p = g->regs;
    if (!p || !r) return;
    pthread_mutex_lock(&p->mu);
    if (p->nfr == p->capfr) {
        int cap = p->capfr ? 2 * p->capfr : 256;
        rp_free *nf = realloc(p->fr, sizeof *nf * (size_t)cap);
        if (nf) { p->fr = nf; p->capfr = cap; }
    }
    if (p->nfr < p->capfr) p->fr[p->nfr++] = (rp_free){ r, slots };
    pthread_mutex_unlock(&p->mu);
}

/* Free g's pool (see regpool.h). */
void ws_regpool_free(ws_gpu *g)
{
    struct ws_regpool *p = g->regs;
    if (!p) return;
    for (int i = 0; i < p->nchunk; i++) ws_huge_free(p->chunk[i].p, p->chunk[i].bytes);
    free(p->chunk);
    free(p->fr);
    pthread_mutex_destroy(&p->mu);
    free(p);
    g->regs = NULL;
}
