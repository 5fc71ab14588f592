/* drv_errors.c - the driver's error codes: names and descriptions (cuGetErrorName/String), the runtime's status
 * codes in the driver's terms, the --check report of failed calls, and the message of unimplemented functions. */
#include "drv_internal.h"

#include <stdio.h>
#include <string.h>

/* One row of the error table. */
typedef struct { int code; const char *name, *text; } err_row;

static const err_row err_tab[] = {
#define WS_DRV_ERR(c, n, s) { c, n, s },
#include "drv_errtab.h"
#undef WS_DRV_ERR
};

/* The row of code, or NULL. */
static const err_row *err_find(int code)
{
    for (size_t i = 0; i < sizeof err_tab / sizeof err_tab[0]; i++)
        if (err_tab[i].code == code) return &err_tab[i];
    return NULL;
}

/* cuGetErrorName: the enum name of a CUresult. */
WS_DRV_EXPORT CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    if (!pStr) return CUDA_ERROR_INVALID_VALUE;
    const err_row *r = err_find((int)error);
    *pStr = r ? r->name : NULL;
    return r ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* cuGetErrorString: the description of a CUresult. */
WS_DRV_EXPORT CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    if (!pStr) return CUDA_ERROR_INVALID_VALUE;
    const err_row *r = err_find((int)error);
    *pStr = r ? r->text : NULL;
    return r ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The driver's code for a runtime status: the low runtime codes differ, the rest share their numbers. */
CUresult ws_drv_from_rt(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return CUDA_SUCCESS;
    case cudaErrorMemoryAllocation: return CUDA_ERROR_OUT_OF_MEMORY;
    case cudaErrorInitializationError: return CUDA_ERROR_NOT_INITIALIZED;
    case cudaErrorCudartUnloading: return CUDA_ERROR_DEINITIALIZED;
    case cudaErrorInvalidConfiguration: case cudaErrorInvalidPitchValue: case cudaErrorInvalidHostPointer:
    case cudaErrorInvalidDevicePointer: case cudaErrorInvalidMemcpyDirection: case cudaErrorInvalidValue:
        return CUDA_ERROR_INVALID_VALUE;
    case cudaErrorInvalidSymbol: return CUDA_ERROR_NOT_FOUND;
    case cudaErrorInvalidDeviceFunction: return CUDA_ERROR_INVALID_HANDLE;
    case cudaErrorMissingConfiguration: return CUDA_ERROR_INVALID_VALUE;
    case cudaErrorInsufficientDriver: return CUDA_ERROR_NOT_SUPPORTED;
    case cudaErrorDeviceUninitialized: return CUDA_ERROR_INVALID_CONTEXT;
    default: break;
    }
    return err_find((int)e) ? (CUresult)e : CUDA_ERROR_UNKNOWN;
}

/* Report a failing call under --check; pass the code through. */
CUresult ws_drv_ret(CUresult r, const char *func)
{
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_NOT_READY) {
        const err_row *row = err_find((int)r);
        char what[256];
        snprintf(what, sizeof what, "%s: %s", func, row ? row->text : "unknown error");
        ws_rtx_check_api_error((int)r, row ? row->name : "CUDA_ERROR_UNKNOWN", what);
    }
    return r;
}

/* Whether warpsim's messages are silenced. */
int ws_drv_quiet(void) { return ws_rtx_quiet(); }

/* Names of the unimplemented functions already reported. */
static const char *missing_said[64];
static int nmissing;

/* An unimplemented function: one message per name, CUDA_ERROR_NOT_SUPPORTED. */
CUresult ws_drv_missing(const char *func)
{
    ws_drv_lock();
    int said = 0;
    for (int i = 0; i < nmissing; i++)
        if (strcmp(missing_said[i], func) == 0) said = 1;
    if (!said && nmissing < (int)(sizeof missing_said / sizeof missing_said[0])) missing_said[nmissing++] = func;
    ws_drv_unlock();
    if (!said && !ws_drv_quiet())
        fprintf(stderr, "warpsim: the driver API function %s is not implemented by warpsim; it returns "
                "CUDA_ERROR_NOT_SUPPORTED\n", func);
    return ws_drv_ret(CUDA_ERROR_NOT_SUPPORTED, func);
}

/* The same for the stubs of drv_stubs.c, which see no CUresult. */
int ws_drv_missing_code(const char *func) { return (int)ws_drv_missing(func); }
