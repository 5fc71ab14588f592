/* ptxas_cache.h - ptxas's reports kept on disk, so that a PTX text is sized once per machine rather than once
 * per process (occupancy.c runs ptxas for every module a program loads; CuPy's CUB unit takes it ~50 s). The
 * folder is $WARPSIM_PTXAS_CACHE (warpsim's command line sets it to its cache folder's ptxas/); unset: no cache. */
#ifndef WS_PTXAS_CACHE_H
#define WS_PTXAS_CACHE_H

#include <stddef.h>

/* Length of a cache key's text, the terminating zero included. */
#define WS_PTXC_KEY_LEN 40

/* The key of one ptxas run: the ptxas executable (path, size, modification time), its options and the PTX text it
 * was given. 0 with the key in key, -1 when ptxas cannot be examined (then nothing is cached). */
int ws_ptxc_key(const char *ptxas, const char *options, const char *ptx, size_t len, char key[WS_PTXC_KEY_LEN]);
/* ptxas's output kept under key (malloc'd, zero-terminated; the caller frees it), or NULL. */
char *ws_ptxc_get(const char *key);
/* Keep out (ptxas's output of a successful run) under key; failures to write are silent (it is only a cache). */
void ws_ptxc_put(const char *key, const char *out);

#endif
