/* ms_bw.c - bandwidth ledgers (ms_bw.h). */
#include "ms_bw.h"

#include <stdlib.h>
#include <string.h>

/* Set up a ledger of rate units per cycle in windows of 1 << shift cycles; 0 on success. */
int ws_ms_bw_init(ws_ms_bw *b, double rate, unsigned shift, uint32_t nwin)
{
    memset(b, 0, sizeof *b);
    b->rate = rate;
    b->shift = shift;
    b->nwin = nwin;
    if (rate <= 0) return 0;
    b->tag = calloc(nwin, sizeof *b->tag);
    b->used = calloc(nwin, sizeof *b->used);
    return b->tag && b->used ? 0 : -1;
}

/* Forget all reservations (time restarts at 0): no tag stored so far can match a window any more. */
void ws_ms_bw_clear(ws_ms_bw *b)
{
    b->base = b->top;
    b->hint = 0;
    b->last = 0;
}

/* Free a ledger. */
void ws_ms_bw_free(ws_ms_bw *b)
{
    free(b->tag);
    free(b->used);
}

