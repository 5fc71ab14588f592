/* cr_stubs.c - every curand* function NVIDIA's libcurand.so.10 exports (cr_names.h) exists in ours: those warpsim
 * does not simulate (the Poisson distribution objects of the device API, curandGeneratePoissonMethod) are weak stubs
 * that say once which function is missing and return CURAND_STATUS_NOT_INITIALIZED; a simulated function's strong
 * definition replaces its stub at link time. No CUDA header here: every stub has the same shape. */
#include "../common/lib_msg.h"

#define WS_CR_NOT_INITIALIZED 101   /* CURAND_STATUS_NOT_INITIALIZED */

#define WS_CR_FN(name) WS_LIB_STUB(name, "cuRAND", WS_CR_NOT_INITIALIZED, "CURAND_STATUS_NOT_INITIALIZED")
#include "cr_names.h"
#undef WS_CR_FN
