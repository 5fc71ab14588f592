/* rt_errors.c - error reporting API: last error, and NVIDIA's exact names and descriptions of error codes. */
#include "rt_internal.h"

/* One row of the generated table. */
typedef struct {
    int code;
    const char *name;
    const char *text;
} ws_rt_errrow;

static const ws_rt_errrow errtab[] = {
#define WS_RT_ERR(code, name, text) {code, name, text},
#include "rt_errtab.h"
#undef WS_RT_ERR
};

/* Table row for a code, or NULL. */
static const ws_rt_errrow *find_row(cudaError_t e)
{
    size_t lo = 0, hi = sizeof errtab / sizeof errtab[0];
    while (lo < hi) { /* the table is sorted by code */
        size_t mid = (lo + hi) / 2;
        if (errtab[mid].code == (int)e) return &errtab[mid];
        if (errtab[mid].code < (int)e) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* NVIDIA's name of an error code ("cudaErrorInvalidValue"). */
const char *ws_rt_error_name(cudaError_t e)
{
    const ws_rt_errrow *r = find_row(e);
    return r ? r->name : "unrecognized error code";
}

/* NVIDIA's description of an error code ("invalid argument"). */
const char *ws_rt_error_string(cudaError_t e)
{
    const ws_rt_errrow *r = find_row(e);
    return r ? r->text : "unrecognized error code";
}

/* cudaGetErrorName: the enum name of an error. */
WS_RT_EXPORT const char *cudaGetErrorName(cudaError_t error)
{
    WS_RT_API();
    return ws_rt_error_name(error);
}

/* cudaGetErrorString: the description of an error. */
WS_RT_EXPORT const char *cudaGetErrorString(cudaError_t error)
{
    WS_RT_API();
    return ws_rt_error_string(error);
}

/* cudaGetLastError: return the last error and reset it (a sticky fault stays). */
WS_RT_EXPORT cudaError_t cudaGetLastError(void)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = ws_rt_last_error(1);
    ws_rt_unlock();
    return e;
}

/* cudaPeekAtLastError: return the last error without resetting it. */
WS_RT_EXPORT cudaError_t cudaPeekAtLastError(void)
{
    WS_RT_API();
    ws_rt_lock();
    cudaError_t e = ws_rt_last_error(0);
    ws_rt_unlock();
    return e;
}
