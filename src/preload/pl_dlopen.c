/* pl_dlopen.c - libwarpsim_preload.so, which `warpsim run` preloads into the program and its children: after the
 * program starts and after every dlopen (Python imports its extension modules so), the objects loaded are looked
 * at for a CUDA runtime linked in statically (pl_patch.c). Transparent otherwise: dlopen is the C library's. */
#include "pl_patch.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#define WS_PL_EXPORT __attribute__((visibility("default")))

/* The C library's dlopen. */
static void *(*real_dlopen)(const char *, int);

/* dlopen: the C library's, then a look at what it loaded. The C library searches a bare name (and expands
 * $ORIGIN) from its caller's RUNPATH, so such a call is passed on as a tail call (the caller stays the caller) and
 * its objects are looked at on the next dlopen of a path (Python's imports are paths). */
WS_PL_EXPORT void *dlopen(const char *file, int mode)
{
    if (!real_dlopen) real_dlopen = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    if (!real_dlopen) return NULL;
    if (!file || !strchr(file, '/') || strchr(file, '$')) return real_dlopen(file, mode);
    void *h = real_dlopen(file, mode);
    if (h) ws_pl_scan();
    return h;
}

/* At start-up: the program and the libraries it was linked with. */
__attribute__((constructor)) static void pl_start(void) { ws_pl_scan(); }
