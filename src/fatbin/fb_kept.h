/* fb_kept.h - the PTX behind cubins that ptxas made in another process: `warpsim ptxas` (the ptxas that
 * `warpsim run` hands to tools such as Triton, which compile PTX to a cubin holding SASS only) keeps each cubin's
 * PTX in a folder, named by the cubin's bytes, and the runtime loads that PTX when such a cubin is loaded, in this
 * run or a later one (Triton caches its cubins). The folder: $WARPSIM_KEPT_DIR (set by the cli; unset: none). */
#ifndef WS_FATBIN_KEPT_H
#define WS_FATBIN_KEPT_H

#include <stddef.h>

/* The environment variable naming the folder. */
#define WS_FATBIN_KEPT_ENV "WARPSIM_KEPT_DIR"

/* Keep ptx (len bytes) as the PTX of cubin (size bytes) in the folder; 0, or -1 (errno set) when it could not be
 * written or no folder is set. */
int ws_fatbin_kept_store(const void *cubin, size_t size, const char *ptx, size_t len);
/* The PTX kept for the cubin (size bytes), NUL-terminated, to be freed by the caller; NULL when none is kept. */
char *ws_fatbin_kept_load(const void *cubin, size_t size);

#endif
