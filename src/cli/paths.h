/* paths.h - where the warpsim command finds its libraries and keeps its caches. */
#ifndef WS_CLI_PATHS_H
#define WS_CLI_PATHS_H

#include <stddef.h>
#include <sys/types.h>

/* Directory of the running warpsim executable (from /proc/self/exe, symlinks resolved); 0 on success. */
int cli_exe_dir(char *dir, size_t cap);

/* Directory holding the simulated libcudart.so.13: EXE_DIR/../lib/warpsim (installed), else EXE_DIR/lib (the
 * build tree's layout), else the build tree compiled in (WS_BUILD_DIR/lib). 0 on success; -1 with the places
 * looked at in err. */
int cli_lib_dir(char *dir, size_t cap, char *err, size_t errlen);

/* Create path and its missing parents with the given mode; 0 on success, -1 with errno set. */
int cli_mkdir_p(const char *path, mode_t mode);

/* The user's warpsim cache folder, $XDG_CACHE_HOME/warpsim (an absolute XDG_CACHE_HOME only), else
 * $HOME/.cache/warpsim, with sub appended when not NULL; created with mode 0700. 0 on success, -1 with a
 * message in err. */
int cli_cache_dir(const char *sub, char *dir, size_t cap, char *err, size_t errlen);

#endif
