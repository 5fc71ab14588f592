/* regpool.h - the warps' register files: carved from large zeroed regions on huge pages (ws_huge_alloc) instead of
 * one heap block each, so that a launch's thousands of register files do not cost a page fault per 4 KiB and a
 * clearing of the heap's memory; a register file given back is kept for the next of its size. */
#ifndef WS_REGPOOL_H
#define WS_REGPOOL_H

#include <stddef.h>
#include <stdint.h>

struct ws_gpu;

/* A zeroed register file of `slots` 64-bit slots from g's pool (NULL when out of memory). Thread-safe. */
uint64_t *ws_regpool_get(struct ws_gpu *g, size_t slots);
/* Give register file p of `slots` slots back to g's pool. Thread-safe. */
void ws_regpool_put(struct ws_gpu *g, uint64_t *p, size_t slots);
/* Free g's pool and every register file it gave out (the GPU is destroyed). */
void ws_regpool_free(struct ws_gpu *g);

#endif
