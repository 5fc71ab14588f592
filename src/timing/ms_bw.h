/* ms_bw.h - bandwidth ledgers of the memory system (L1<->L2 path, DRAM, L2 slices' atomic units): transfers
 * booked in windows of cycles, each window a FIFO served at a fixed rate, so that requests may arrive out of time
 * order (ms_bw.c). */
#ifndef WS_MS_BW_H
#define WS_MS_BW_H

#include <stdint.h>

typedef struct ws_ms_bw {
    double rate;         /* units per cycle; <= 0: unlimited */
    unsigned shift;      /* a window is 1 << shift cycles */
    uint32_t nwin;       /* windows kept (power of two) */
    uint64_t *tag;       /* window number + 1 + base: the window the entry holds */
    double *used;        /* cycle up to which the window's transfers are booked (its queue frontier) */
    uint64_t base;       /* moved past every tag stored, it empties the ledger (ws_ms_bw_clear) */
    uint64_t top;        /* the largest tag stored */
    uint64_t hint;       /* window where the last overflow landed */
    uint64_t last;       /* latest completion handed out */
} ws_ms_bw;

/* Set up a ledger of rate units per cycle in windows of 1 << shift cycles; 0 on success. */
int ws_ms_bw_init(ws_ms_bw *b, double rate, unsigned shift, uint32_t nwin);
/* Forget all reservations (time restarts at 0): no tag stored so far can match a window any more. */
void ws_ms_bw_clear(ws_ms_bw *b);
/* Free a ledger. */
void ws_ms_bw_free(ws_ms_bw *b);

/* Reserve amount units at cycle t or later; returns the cycle the last unit is through. Each window is a FIFO
 * served at rate units per cycle from its start (or from the arrival, if later); a full window passes the rest
 * of the request to the next one (queueing). */
static inline uint64_t ws_ms_bw_take(ws_ms_bw *b, uint64_t t, double amount)
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

#endif
