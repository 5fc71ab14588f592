/* run_libs.c - the environment for CUDA code that a program loads while it runs (see run_libs.h). */
#include "run_libs.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Preloaded into the program and its children. */
#define WS_CLI_PRELOAD "libwarpsim_preload.so"

/* CuPy settings warpsim gives unless the user set them: NVRTC makes PTX (warpsim simulates PTX, not the cubin's
 * SASS), and CuPy's own reduction kernels instead of CUB's prebuilt ones (they run, but their 21 MB PTX unit takes
 * ptxas about 50 s to size for occupancy in every process). */
static const struct { const char *var, *value; } cupy_env[] = {
    { "CUPY_COMPILE_WITH_PTX", "1" },
    { "CUPY_ACCELERATORS", "" },
};

/* Triton's ptxas (it compiles PTX to cubins holding SASS only): warpsim's, which keeps their PTX for warpsim to run,
 * unless the user named one. */
static const char *const triton_ptxas_env[] = { "TRITON_PTXAS_PATH", "TRITON_PTXAS_BLACKWELL_PATH" };

/* Set the environment for the program (libdir holds warpsim's libraries). */
int cli_libs_env(const char *libdir)
{
    char path[PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/ptxas", libdir) >= sizeof path) return -1;
    for (size_t i = 0; i < sizeof triton_ptxas_env / sizeof triton_ptxas_env[0]; i++)
        if (!getenv(triton_ptxas_env[i]) && access(path, X_OK) == 0 && setenv(triton_ptxas_env[i], path, 1) != 0)
            return -1;
    if ((size_t)snprintf(path, sizeof path, "%s/%s", libdir, WS_CLI_PRELOAD) >= sizeof path) return -1;
    if (access(path, R_OK) == 0) {
        const char *old = getenv("LD_PRELOAD");
        size_t n = strlen(path) + (old ? strlen(old) : 0) + 2;
        char *v = malloc(n);
        if (!v) return -1;
        /* after the caller's own preloads (a sanitizer runtime must come first) */
        snprintf(v, n, "%s%s%s", old ? old : "", old && *old ? ":" : "", path);
        int rc = setenv("LD_PRELOAD", v, 1);
        free(v);
        if (rc != 0) return -1;
    }
    for (size_t i = 0; i < sizeof cupy_env / sizeof cupy_env[0]; i++)
        if (!getenv(cupy_env[i].var) && setenv(cupy_env[i].var, cupy_env[i].value, 1) != 0) return -1;
    return 0;
}
