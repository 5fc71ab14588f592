/* paths.c - where the warpsim command finds its libraries (relative to its own executable, so an installed
 * copy works from any folder) and where it keeps its caches (the user's cache folder, never the source tree). */
#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef WS_BUILD_DIR
#define WS_BUILD_DIR "build"
#endif

/* Directory of the running warpsim executable (from /proc/self/exe, symlinks resolved); 0 on success. */
int cli_exe_dir(char *dir, size_t cap)
{
    char path[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0) return -1;
    path[n] = 0;
    char *slash = strrchr(path, '/');
    if (!slash) return -1;
    *slash = 0;
    return (size_t)snprintf(dir, cap, "%s", slash == path ? "/" : path) < cap ? 0 : -1;
}

/* Directory holding the simulated libcudart.so.13: EXE_DIR/../lib/warpsim, EXE_DIR/lib, WS_BUILD_DIR/lib. */
int cli_lib_dir(char *dir, size_t cap, char *err, size_t errlen)
{
    char exe[PATH_MAX] = "", cand[3][PATH_MAX + 32];
    int n = 0;
    if (cli_exe_dir(exe, sizeof exe) == 0) {
        snprintf(cand[n++], sizeof cand[0], "%s/../lib/warpsim", exe);
        snprintf(cand[n++], sizeof cand[0], "%s/lib", exe);
    }
    snprintf(cand[n++], sizeof cand[0], "%s/lib", WS_BUILD_DIR);
    for (int i = 0; i < n; i++) {
        char lib[PATH_MAX + 64], real[PATH_MAX];
        if ((size_t)snprintf(lib, sizeof lib, "%s/libcudart.so.13", cand[i]) >= sizeof lib) continue;
        if (access(lib, R_OK) != 0 || !realpath(cand[i], real)) continue;
        if ((size_t)snprintf(dir, cap, "%s", real) >= cap) continue;
        return 0;
    }
    snprintf(err, errlen, "the simulated CUDA runtime libcudart.so.13 is in none of %s%s%s%s%s (run make, or make "
             "install)", cand[0], n > 1 ? ", " : "", n > 1 ? cand[1] : "", n > 2 ? ", " : "", n > 2 ? cand[2] : "");
    return -1;
}

/* Create path and its missing parents with the given mode; 0 on success, -1 with errno set. */
int cli_mkdir_p(const char *path, mode_t mode)
{
    char tmp[PATH_MAX];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s", path) >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(tmp, mode) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(tmp, mode) != 0 && errno != EEXIST) return -1;
    struct stat st;
    if (stat(tmp, &st) != 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* The user's warpsim cache folder ($XDG_CACHE_HOME/warpsim, else $HOME/.cache/warpsim) plus sub, made 0700. */
int cli_cache_dir(const char *sub, char *dir, size_t cap, char *err, size_t errlen)
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    size_t need;
    if (xdg && xdg[0] == '/') { /* the XDG spec: a relative value is to be ignored */
        need = (size_t)snprintf(dir, cap, "%s/warpsim%s%s", xdg, sub ? "/" : "", sub ? sub : "");
    } else {
        if (!home || home[0] != '/') {
            const struct passwd *pw = getpwuid(getuid());
            home = pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
        }
        if (!home) {
            snprintf(err, errlen, "no cache folder: neither XDG_CACHE_HOME nor HOME is an absolute path");
            return -1;
        }
        need = (size_t)snprintf(dir, cap, "%s/.cache/warpsim%s%s", home, sub ? "/" : "", sub ? sub : "");
    }
    if (need >= cap) {
        snprintf(err, errlen, "the cache folder's path is too long");
        return -1;
    }
    if (cli_mkdir_p(dir, 0700) != 0 || access(dir, W_OK | X_OK) != 0) {
        snprintf(err, errlen, "cannot create the cache folder %s: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}
