/* cb_stubs.c - every cublas* function NVIDIA's libcublas.so.13 exports (cb_names.h) exists in ours: those warpsim
 * does not simulate are weak stubs that say once which function is missing and return CUBLAS_STATUS_NOT_SUPPORTED,
 * so a program gets cuBLAS's status and a message instead of a failed dynamic link; a simulated function's
 * strong definition replaces its stub at link time. No CUDA header here: every stub has the same shape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WS_CB_NOT_SUPPORTED 15   /* CUBLAS_STATUS_NOT_SUPPORTED */

/* Report once that func is not simulated; CUBLAS_STATUS_NOT_SUPPORTED. */
static int missing(const char *func)
{
    static const char *said[64];
    static int nsaid;
    int seen = 0;
    for (int i = 0; i < nsaid; i++) seen |= !strcmp(said[i], func);
    const char *q = getenv("WARPSIM_QUIET");
    if (!seen) {
        if (nsaid < 64) said[nsaid++] = func;
        if (!(q && *q && strcmp(q, "0")))
            fprintf(stderr, "warpsim: %s is not simulated by warpsim's cuBLAS (it returns CUBLAS_STATUS_NOT_SUPPORTED)\n",
                    func);
    }
    return WS_CB_NOT_SUPPORTED;
}

#define WS_CB_FN(name) \
    int name(void); \
    __attribute__((weak, visibility("default"))) int name(void) { return missing(#name); }
#include "cb_names.h"
#undef WS_CB_FN
