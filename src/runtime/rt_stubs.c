/* rt_stubs.c - every cuda* function NVIDIA's libcudart.so.13 exports (rt_names.h) exists in ours: the ones warpsim
 * does not implement are weak stubs that say once which function is missing and return cudaErrorNotSupported (also
 * as the last error), so a program that calls one gets NVIDIA's error code and a message instead of a failed
 * dynamic link; an implemented function's strong definition replaces its stub at link time. This file does not
 * include the CUDA headers: every stub has the same shape (the return register holds the cudaError_t). */
#include <stdio.h>
#include <string.h>

/* rt_errors.c: record the last error of the calling thread. */
int ws_rt_set_error_code(int e);
/* rt_state.c: whether warpsim's messages are off (--quiet). */
int ws_rt_quiet(void);

#define WS_RT_NOT_SUPPORTED 801   /* cudaErrorNotSupported */

/* Report once that func is not simulated; return cudaErrorNotSupported. */
static int missing(const char *func)
{
    static const char *said[64];
    static int nsaid;
    int seen = 0;
    for (int i = 0; i < nsaid; i++) seen |= !strcmp(said[i], func);
    if (!seen) {
        if (nsaid < 64) said[nsaid++] = func;
        if (!ws_rt_quiet())
            fprintf(stderr, "warpsim: %s is not supported by the simulator (it returns cudaErrorNotSupported)\n", func);
    }
    return ws_rt_set_error_code(WS_RT_NOT_SUPPORTED);
}

#define WS_RT_FN(name) \
    int name(void); \
    __attribute__((weak, visibility("default"))) int name(void) { return missing(#name); }
#include "rt_names.h"
#undef WS_RT_FN
