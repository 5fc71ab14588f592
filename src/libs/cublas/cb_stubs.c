/* cb_stubs.c - every cublas* function NVIDIA's libcublas.so.13 exports (cb_names.h) exists in ours: those warpsim
 * does not simulate are weak stubs that say once which function is missing and return CUBLAS_STATUS_NOT_SUPPORTED,
 * so a program gets cuBLAS's status and a message instead of a failed dynamic link; a simulated function's
 * strong definition replaces its stub at link time. No CUDA header here: every stub has the same shape. */
#include "../common/lib_msg.h"

#define WS_CB_NOT_SUPPORTED 15   /* CUBLAS_STATUS_NOT_SUPPORTED */

#define WS_CB_FN(name) WS_LIB_STUB(name, "cuBLAS", WS_CB_NOT_SUPPORTED, "CUBLAS_STATUS_NOT_SUPPORTED")
#include "cb_names.h"
#undef WS_CB_FN
