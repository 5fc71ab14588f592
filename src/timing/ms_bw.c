/* ms_bw.c - bandwidth ledgers (ms_bw.h). */
#include "ms_bw.h"

#include <stdlib.h>
#include <string.h>

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

/* Reserve amount units at cycle t or later; returns the cycle the last unit is through. Each window is a FIFO
 * served at rate units per cycle from its start (or from the arrival, if later); a full window passes the rest
 * of the request to the next one (queueing). */
uint64_t ws_ms_bw_take(ws_ms_bw *b, uint64_t t, double amount)
{
    if (b->rate <= 0 || amount <= 0) return t;
    uint64_t w = t >> b->shift;
    double left = amount, at = (double)t;
    for (uint32_t guard = 0;; guard++) {
        uint32_t i = (uint32_t)(w & (b->nwin - 1));
        double ws = (double)(w << b->shift), we = (double)((w + 1) << b->shift);
        uint64_t key = w + 1 + b->base;
        if (b->tag[i] != key) {
            b->tag[i] = key;
            b->used[i] = ws;
            if (key > b->top) b->top = key;
        }
        double start = at > b->used[i] ? at : b->used[i];   /* used[]: the window's queue frontier */
        if (start < we) {
            double need = left / b->rate;
            if (start + need <= we || guard > b->nwin) {
                double fin = start + need;
                b->used[i] = fin;
                uint64_t f = (uint64_t)(fin + 0.999999);
                if (guard) b->hint = w;
                if (f > b->last) b->last = f;
                return f;
            }
            left -= (we - start) * b->rate;
            b->used[i] = we;
        }
        /* on to the next window (over the run of full windows the last overflow found) */
        w = (b->hint > w + 1) ? b->hint : w + 1;
        at = (double)(w << b->shift);
    }
}
