/* cf_stubs.c - every cufft* function NVIDIA's libcufft.so.12 exports (cf_names.h) exists in ours: those warpsim
 * does not simulate (cufftXt*, callbacks, plan properties, cufftDebug) are weak stubs that say once which function
 * is missing and return CUFFT_NOT_SUPPORTED; a simulated function's strong definition replaces its stub at link
 * time. No CUDA header here: every stub has the same shape. */
#include "../common/lib_msg.h"

#define WS_CF_NOT_SUPPORTED 16   /* CUFFT_NOT_SUPPORTED (0x10) */

#define WS_CF_FN(name) WS_LIB_STUB(name, "cuFFT", WS_CF_NOT_SUPPORTED, "CUFFT_NOT_SUPPORTED")
#include "cf_names.h"
#undef WS_CF_FN
