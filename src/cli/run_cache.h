/* run_cache.h - the compile cache of `warpsim run FILE.cu`. */
#ifndef WS_CLI_RUN_CACHE_H
#define WS_CLI_RUN_CACHE_H

#include <stddef.h>

/* Compile FILE.cu with nvcc -cudart shared -lineinfo into the user's cache folder (cli_cache_dir), reusing an
 * earlier build when the source, the headers it included and nvcc are unchanged; the executable's path goes to
 * out. Messages go to stderr (notes only without quiet). 0 on success. */
int cli_compile_cu(const char *cu, int quiet, char *out, size_t cap);

#endif
