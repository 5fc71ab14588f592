/* cf_internal.h - warpsim's cuFFT (libcufft.so.12): NVIDIA's plan API (cufftPlan*, cufftCreate + cufftMakePlan*,
 * sizes, work areas, streams) and its six execution functions, for 1D, 2D and 3D transforms of any size, batched,
 * in any advanced layout, in single and double precision. The transforms are our own kernels (cf_kernels.cu, PTX
 * built with warpsim) run on the simulated GPU through the driver API: a gather into the plan's work area, Stockham
 * stages (or one shared-memory launch) or Bluestein's algorithm per dimension, and a scatter into the output; a
 * packed complex transform goes straight from input to output, a real one of even length takes the half-length
 * trick. Every other cufft* function NVIDIA exports is a stub returning CUFFT_NOT_SUPPORTED (cf_stubs.c). */
#ifndef WS_CF_INTERNAL_H
#define WS_CF_INTERNAL_H

#include <cuda_runtime_api.h>
#include <cufft.h>

#include "../common/lib_module.h"
#include "../common/lib_msg.h"

/* Dimensions a plan may have (cuFFT's ranks 1 to 3). */
#define CF_MAX_RANK 3
/* Stockham stages of one length at most (2^63 needs 32 radix-4 stages). */
#define CF_MAX_STAGES 64
/* The largest prime radix a Stockham stage takes (cf_kernels.cu's CF_MAX_RADIX); a length with a larger prime
 * factor is transformed by Bluestein's algorithm. */
#define CF_MAX_RADIX 13

/* What the gather and scatter kernels convert (cf_kernels.cu's KIND_*); a plan's kind is one of the first three. */
typedef enum cf_kind { CF_KIND_C2C, CF_KIND_R2C, CF_KIND_C2R, CF_KIND_PAIRS } cf_kind;

/* The kernels of cf_kernels.cu: single precision (c), then double (z). */
typedef enum cf_kernel {
    CF_CSTAGE, CF_CSTAGE_PRIME, CF_CSHARED, CF_CGATHER, CF_CSCATTER, CF_CCHIRP_IN, CF_CREAL_POST, CF_CREAL_PRE,
    CF_CPOINTWISE, CF_CCHIRP_OUT,
    CF_ZSTAGE, CF_ZSTAGE_PRIME, CF_ZSHARED, CF_ZGATHER, CF_ZSCATTER, CF_ZCHIRP_IN, CF_ZREAL_POST, CF_ZREAL_PRE,
    CF_ZPOINTWISE, CF_ZCHIRP_OUT,
    CF_KERNEL_COUNT
} cf_kernel;
/* The double-precision kernel of a single-precision one. */
#define CF_DOUBLE_OFFSET (CF_ZSTAGE - CF_CSTAGE)

/* One length's Stockham stages and its twiddle table on the device (exp(-2 pi i k / n), k < n). */
typedef struct cf_stages {
    long long n;
    int count;
    int radix[CF_MAX_STAGES];
    void *tw;
} cf_stages;

/* How one dimension is transformed: Stockham stages of its length, or Bluestein's algorithm (chirp
 * exp(-pi i m^2 / n) for m < n, the filter's transform divided by M, and the stages of length M). */
typedef struct cf_dim {
    cf_stages direct;
    int bluestein;
    long long M;
    cf_stages conv;
    void *chirp, *bhat;
} cf_dim;

/* A user layout (inembed/onembed, stride, distance); basic: none was given (packed, as cuFFT's basic layout). */
typedef struct cf_layout {
    int basic;
    long long embed[CF_MAX_RANK];
    long long stride, dist;
} cf_layout;

/* A plan (cufftHandle indexes a table of them). */
typedef struct cf_plan {
    int made;                      /* cufftMakePlan* succeeded */
    int auto_alloc;                /* the work area is allocated at plan time (cufftSetAutoAllocation) */
    int device;                    /* the device current when it was made */
    cudaStream_t stream;           /* cufftSetStream's (0: the default stream) */
    cufftType type;
    int dbl;                       /* double precision */
    cf_kind kind;
    int rank;
    long long n[CF_MAX_RANK];
    long long batch;
    cf_layout in, out;
    cf_dim dim[CF_MAX_RANK];
    int half;                      /* a real transform of even last length n by the half-length trick: */
    cf_dim hdim;                   /* the complex transform of length n / 2 of the last dimension, */
    void *hw;                      /* exp(-2 pi i k / n) for k <= n / 2 */
    size_t work_size;              /* bytes the work area needs */
    void *work;                    /* the work area (ours or cufftSetWorkArea's) */
    int work_owned;                /* we allocated it */
} cf_plan;

/* The plan of a handle; NULL when there is none. */
cf_plan *ws_cf_plan(cufftHandle h);
/* Check and lay out a plan of rank dimensions n (outermost first), type, batch and layouts (embed NULL: basic),
 * without touching the device: its work size. CUFFT_INVALID_SIZE / CUFFT_INVALID_TYPE / CUFFT_INVALID_VALUE as
 * cuFFT says. */
cufftResult ws_cf_layout(cf_plan *p, int rank, const long long *n, const long long *inembed, long long istride,
                         long long idist, const long long *onembed, long long ostride, long long odist,
                         cufftType type, long long batch);
/* Make a laid-out plan on the current device: twiddle tables, Bluestein's filters, the work area (when
 * automatic). */
cufftResult ws_cf_build(cf_plan *p);
/* Free the device memory a plan holds (tables, its own work area). */
void ws_cf_release(cf_plan *p);
/* Run plan p on in -> out (inverse: the +i transform), asynchronously on the plan's stream. */
cufftResult ws_cf_execute(cf_plan *p, const void *in, void *out, int inverse);

#endif
