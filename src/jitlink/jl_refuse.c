/* jl_refuse.c - warpsim's libnvJitLink.so.13, found before NVIDIA's under `warpsim run`: nvJitLink links to SASS
 * (machine code), which warpsim cannot run, so every link is refused with a message, and, since the library has no
 * nvJitLinkVersion, cuda.core (Numba's linker) takes the driver's cuLink* instead: our libcuda.so.1 links PTX
 * and keeps it. The functions are NVIDIA's versioned symbols that nvJitLink.h's inline wrappers call. */
#include <stdio.h>
#include <stdlib.h>

/* nvJitLinkResult's values used here (nvJitLink.h). */
enum { WS_JL_ERROR_INTERNAL = 6 };

#define WS_JL_EXPORT __attribute__((visibility("default")))

/* Say once that nvJitLink is not available under warpsim; the error code. */
static int jl_refuse(const char *func)
{
    static int said;
    const char *q = getenv("WARPSIM_QUIET");
    if (!said && !(q && *q && *q != '0'))
        fprintf(stderr, "warpsim: %s: nvJitLink is not available under warpsim (it makes SASS, which warpsim cannot "
                "run); link PTX with the driver's cuLinkCreate/cuLinkAddData/cuLinkComplete, which keep the PTX "
                "(NVJITLINK_ERROR_INTERNAL)\n", func);
    said = 1;
    return WS_JL_ERROR_INTERNAL;
}

/* Every function of nvJitLink's API: the same refusal under its own name. */
#define WS_JL_FN(name) \
    WS_JL_EXPORT int name(void); \
    WS_JL_EXPORT int name(void) { return jl_refuse(#name); }
WS_JL_FN(__nvJitLinkCreate_13_0)
WS_JL_FN(__nvJitLinkDestroy_13_0)
WS_JL_FN(__nvJitLinkAddData_13_0)
WS_JL_FN(__nvJitLinkAddFile_13_0)
WS_JL_FN(__nvJitLinkComplete_13_0)
WS_JL_FN(__nvJitLinkGetLinkedCubinSize_13_0)
WS_JL_FN(__nvJitLinkGetLinkedCubin_13_0)
WS_JL_FN(__nvJitLinkGetLinkedPtxSize_13_0)
WS_JL_FN(__nvJitLinkGetLinkedPtx_13_0)
WS_JL_FN(__nvJitLinkGetErrorLogSize_13_0)
WS_JL_FN(__nvJitLinkGetErrorLog_13_0)
WS_JL_FN(__nvJitLinkGetInfoLogSize_13_0)
WS_JL_FN(__nvJitLinkGetInfoLog_13_0)
