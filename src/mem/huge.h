/* huge.h - large zeroed host arrays the simulator touches at random (cache models, register files): mapped on
 * 2 MiB boundaries with transparent huge pages asked for, so that first touches fault once per 2 MiB instead of once
 * per 4 KiB and random lookups miss the TLB less. */
#ifndef WS_HUGE_H
#define WS_HUGE_H

#include <stddef.h>

/* bytes of zeroed memory (NULL when out of memory); free it with ws_huge_free(p, bytes). */
void *ws_huge_alloc(size_t bytes);
/* Free what ws_huge_alloc(bytes) returned (NULL: nothing). */
void ws_huge_free(void *p, size_t bytes);

#endif
