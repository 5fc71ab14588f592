#include <stdlib.h>
/* memsys.c - TEMPORARY stand-in (fixed latencies, no counters) until the real memory system lands. */
#include "memsys.h"
struct ws_memsys { ws_ms_counts c; };
ws_memsys *ws_ms_create(const ws_device *dev) { (void)dev; return calloc(1, sizeof(ws_memsys)); }
void ws_ms_destroy(ws_memsys *ms) { free(ms); }
void ws_ms_flush(ws_memsys *ms) { (void)ms; }
void ws_ms_reset_counts(ws_memsys *ms) { ms->c = (ws_ms_counts){0}; }
const ws_ms_counts *ws_ms_counts_get(const ws_memsys *ms) { return &ms->c; }
uint64_t ws_ms_access(ws_memsys *ms, int sm, const ws_rec *r, uint64_t now) { (void)ms; (void)sm; return now + (r->space[__builtin_ctz(r->exec)] == WS_S_SHARED ? 30 : 500); }
void ws_ms_end_launch(ws_memsys *ms) { (void)ms; }
