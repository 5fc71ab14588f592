/* cf_api.c - warpsim's cuFFT plan API: cufftPlan1d/2d/3d/Many, cufftMakePlan1d/2d/3d/Many/Many64, the work sizes
 * (cufftGetSize*, cufftEstimate*), work areas, streams, versions. */
#include "cf_internal.h"

#include <string.h>

/* int dimensions and layouts as cuFFT's 64-bit ones (NULL stays NULL). */
static const long long *widen(const int *v, int rank, long long *out)
{
    if (!v) return NULL;
    for (int i = 0; i < rank && i < CF_MAX_RANK; i++) out[i] = v[i];
    return out;
}

/* Make plan h (from cufftCreate, not made yet) of the given shape; its work size in *ws (may be NULL). */
static cufftResult make_many64(cufftHandle h, int rank, const long long *n, const long long *inembed,
                               long long istride, long long idist, const long long *onembed, long long ostride,
                               long long odist, cufftType type, long long batch, size_t *ws)
{
    cf_plan *p = ws_cf_plan(h);
    if (!p || p->made) return CUFFT_INVALID_PLAN;
    cufftResult r = ws_cf_layout(p, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
    if (!r) r = ws_cf_build(p);
    if (!r && ws) *ws = p->work_size;
    return r;
}

/* make_many64 with cuFFT's int arguments. */
static cufftResult make_many(cufftHandle h, int rank, const int *n, const int *inembed, int istride, int idist,
                             const int *onembed, int ostride, int odist, cufftType type, int batch, size_t *ws)
{
    if (rank < 1 || rank > CF_MAX_RANK || !n) return CUFFT_INVALID_SIZE;
    long long n64[CF_MAX_RANK], ie[CF_MAX_RANK], oe[CF_MAX_RANK];
    return make_many64(h, rank, widen(n, rank, n64), widen(inembed, rank, ie), istride, idist,
                       widen(onembed, rank, oe), ostride, odist, type, batch, ws);
}

/* The work size of a plan of that shape, without making one. */
static cufftResult size_many64(int rank, const long long *n, const long long *inembed, long long istride,
                               long long idist, const long long *onembed, long long ostride, long long odist,
                               cufftType type, long long batch, size_t *ws)
{
    if (!ws) return CUFFT_INVALID_VALUE;
    cf_plan p;
    memset(&p, 0, sizeof p);
    cufftResult r = ws_cf_layout(&p, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
    if (!r) *ws = p.work_size;
    return r;
}

/* size_many64 with cuFFT's int arguments. */
static cufftResult size_many(int rank, const int *n, const int *inembed, int istride, int idist, const int *onembed,
                             int ostride, int odist, cufftType type, int batch, size_t *ws)
{
    if (rank < 1 || rank > CF_MAX_RANK || !n) return CUFFT_INVALID_SIZE;
    long long n64[CF_MAX_RANK], ie[CF_MAX_RANK], oe[CF_MAX_RANK];
    return size_many64(rank, widen(n, rank, n64), widen(inembed, rank, ie), istride, idist,
                       widen(onembed, rank, oe), ostride, odist, type, batch, ws);
}

/* A new handle made into a plan by make_many; the handle is freed again when that fails. */
static cufftResult plan_many(cufftHandle *plan, int rank, const int *n, const int *inembed, int istride, int idist,
                             const int *onembed, int ostride, int odist, cufftType type, int batch)
{
    if (!plan) return CUFFT_INVALID_VALUE;
    cufftHandle h;
    cufftResult r = cufftCreate(&h);
    if (!r) r = make_many(h, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, NULL);
    if (r) {
        cufftDestroy(h);
        return r;
    }
    *plan = h;
    return CUFFT_SUCCESS;
}

/* cufftPlan1d: batch transforms of length nx. */
cufftResult cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch)
{
    return plan_many(plan, 1, &nx, NULL, 1, 0, NULL, 1, 0, type, batch);
}

/* cufftPlan2d: an nx x ny transform (ny varies fastest). */
cufftResult cufftPlan2d(cufftHandle *plan, int nx, int ny, cufftType type)
{
    int n[] = { nx, ny };
    return plan_many(plan, 2, n, NULL, 1, 0, NULL, 1, 0, type, 1);
}

/* cufftPlan3d: an nx x ny x nz transform. */
cufftResult cufftPlan3d(cufftHandle *plan, int nx, int ny, int nz, cufftType type)
{
    int n[] = { nx, ny, nz };
    return plan_many(plan, 3, n, NULL, 1, 0, NULL, 1, 0, type, 1);
}

/* cufftPlanMany: batched transforms of rank 1 to 3 in an advanced layout. */
cufftResult cufftPlanMany(cufftHandle *plan, int rank, int *n, int *inembed, int istride, int idist, int *onembed,
                          int ostride, int odist, cufftType type, int batch)
{
    return plan_many(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
}

/* cufftMakePlan1d: cufftPlan1d on a handle from cufftCreate. */
cufftResult cufftMakePlan1d(cufftHandle plan, int nx, cufftType type, int batch, size_t *workSize)
{
    return make_many(plan, 1, &nx, NULL, 1, 0, NULL, 1, 0, type, batch, workSize);
}

/* cufftMakePlan2d: cufftPlan2d on a handle from cufftCreate. */
cufftResult cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type, size_t *workSize)
{
    int n[] = { nx, ny };
    return make_many(plan, 2, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

/* cufftMakePlan3d: cufftPlan3d on a handle from cufftCreate. */
cufftResult cufftMakePlan3d(cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t *workSize)
{
    int n[] = { nx, ny, nz };
    return make_many(plan, 3, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

/* cufftMakePlanMany: cufftPlanMany on a handle from cufftCreate. */
cufftResult cufftMakePlanMany(cufftHandle plan, int rank, int *n, int *inembed, int istride, int idist,
                              int *onembed, int ostride, int odist, cufftType type, int batch, size_t *workSize)
{
    return make_many(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

/* cufftMakePlanMany64: the same with 64-bit sizes. */
cufftResult cufftMakePlanMany64(cufftHandle plan, int rank, long long *n, long long *inembed, long long istride,
                                long long idist, long long *onembed, long long ostride, long long odist,
                                cufftType type, long long batch, size_t *workSize)
{
    return make_many64(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

/* cufftEstimate1d: the work size of a cufftPlan1d. */
cufftResult cufftEstimate1d(int nx, cufftType type, int batch, size_t *workSize)
{
    return size_many(1, &nx, NULL, 1, 0, NULL, 1, 0, type, batch, workSize);
}

/* cufftEstimate2d: the work size of a cufftPlan2d. */
cufftResult cufftEstimate2d(int nx, int ny, cufftType type, size_t *workSize)
{
    int n[] = { nx, ny };
    return size_many(2, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

/* cufftEstimate3d: the work size of a cufftPlan3d. */
cufftResult cufftEstimate3d(int nx, int ny, int nz, cufftType type, size_t *workSize)
{
    int n[] = { nx, ny, nz };
    return size_many(3, n, NULL, 1, 0, NULL, 1, 0, type, 1, workSize);
}

/* cufftEstimateMany: the work size of a cufftPlanMany. */
cufftResult cufftEstimateMany(int rank, int *n, int *inembed, int istride, int idist, int *onembed, int ostride,
                              int odist, cufftType type, int batch, size_t *workSize)
{
    return size_many(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

/* cufftGetSize1d: the work size a cufftMakePlan1d on handle would need (exact: our estimates are). */
cufftResult cufftGetSize1d(cufftHandle handle, int nx, cufftType type, int batch, size_t *workSize)
{
    return ws_cf_plan(handle) ? cufftEstimate1d(nx, type, batch, workSize) : CUFFT_INVALID_PLAN;
}

/* cufftGetSize2d: the same for a 2D plan. */
cufftResult cufftGetSize2d(cufftHandle handle, int nx, int ny, cufftType type, size_t *workSize)
{
    return ws_cf_plan(handle) ? cufftEstimate2d(nx, ny, type, workSize) : CUFFT_INVALID_PLAN;
}

/* cufftGetSize3d: the same for a 3D plan. */
cufftResult cufftGetSize3d(cufftHandle handle, int nx, int ny, int nz, cufftType type, size_t *workSize)
{
    return ws_cf_plan(handle) ? cufftEstimate3d(nx, ny, nz, type, workSize) : CUFFT_INVALID_PLAN;
}

/* cufftGetSizeMany: the same for a cufftMakePlanMany. */
cufftResult cufftGetSizeMany(cufftHandle handle, int rank, int *n, int *inembed, int istride, int idist,
                             int *onembed, int ostride, int odist, cufftType type, int batch, size_t *workArea)
{
    if (!ws_cf_plan(handle)) return CUFFT_INVALID_PLAN;
    return size_many(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workArea);
}

/* cufftGetSizeMany64: the same with 64-bit sizes. */
cufftResult cufftGetSizeMany64(cufftHandle plan, int rank, long long *n, long long *inembed, long long istride,
                               long long idist, long long *onembed, long long ostride, long long odist,
                               cufftType type, long long batch, size_t *workSize)
{
    if (!ws_cf_plan(plan)) return CUFFT_INVALID_PLAN;
    return size_many64(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
}

/* cufftGetSize: the work size of a made plan. */
cufftResult cufftGetSize(cufftHandle handle, size_t *workSize)
{
    cf_plan *p = ws_cf_plan(handle);
    if (!p || !p->made) return CUFFT_INVALID_PLAN;
    if (!workSize) return CUFFT_INVALID_VALUE;
    *workSize = p->work_size;
    return CUFFT_SUCCESS;
}

/* cufftSetWorkArea: the caller's work area (at least cufftGetSize's bytes); an automatic one is freed. */
cufftResult cufftSetWorkArea(cufftHandle plan, void *workArea)
{
    cf_plan *p = ws_cf_plan(plan);
    if (!p) return CUFFT_INVALID_PLAN;
    if (p->work_owned) cudaFree(p->work);
    p->work_owned = 0;
    p->work = workArea;
    return CUFFT_SUCCESS;
}

/* cufftSetAutoAllocation: whether cufftMakePlan* allocates the work area (set it before making the plan). */
cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate)
{
    cf_plan *p = ws_cf_plan(plan);
    if (!p) return CUFFT_INVALID_PLAN;
    p->auto_alloc = autoAllocate != 0;
    return CUFFT_SUCCESS;
}

/* cufftSetStream: the stream the plan's kernels go to. */
cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream)
{
    cf_plan *p = ws_cf_plan(plan);
    if (!p) return CUFFT_INVALID_PLAN;
    p->stream = stream;
    return CUFFT_SUCCESS;
}

/* cufftGetVersion: the cuFFT version these headers describe. */
cufftResult cufftGetVersion(int *version)
{
    if (!version) return CUFFT_INVALID_VALUE;
    *version = CUFFT_VERSION;
    return CUFFT_SUCCESS;
}

/* cufftGetProperty: major, minor and patch level. */
cufftResult cufftGetProperty(libraryPropertyType type, int *value)
{
    if (!value) return CUFFT_INVALID_VALUE;
    switch (type) {
    case MAJOR_VERSION: *value = CUFFT_VER_MAJOR; return CUFFT_SUCCESS;
    case MINOR_VERSION: *value = CUFFT_VER_MINOR; return CUFFT_SUCCESS;
    case PATCH_LEVEL: *value = CUFFT_VER_PATCH; return CUFFT_SUCCESS;
    default: return CUFFT_INVALID_TYPE;
    }
}
