/* cf_plan.c - warpsim's cuFFT plans: the handle table, the checks and layout of a plan (its dimensions' Stockham
 * stages or Bluestein's algorithm, its work size), and the device tables a plan holds (twiddles and Bluestein's
 * chirp and filter, computed on the host in long double). */
#include "cf_internal.h"

#include <complex.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* pi to long double's precision */
#define CF_PI 3.14159265358979323846264338327950288L

/* The plans, by handle. */
static struct {
    pthread_mutex_t lock;
    cf_plan **plans;
    int count;
} cf_table = { PTHREAD_MUTEX_INITIALIZER, NULL, 0 };

/* The plan of handle h, or NULL. */
cf_plan *ws_cf_plan(cufftHandle h)
{
    pthread_mutex_lock(&cf_table.lock);
    cf_plan *p = h >= 0 && h < cf_table.count ? cf_table.plans[h] : NULL;
    pthread_mutex_unlock(&cf_table.lock);
    return p;
}

/* cufftCreate: an empty plan (cufftMakePlan* makes it), with automatic work-area allocation. */
cufftResult cufftCreate(cufftHandle *handle)
{
    if (!handle) return CUFFT_INVALID_VALUE;
    cf_plan *p = calloc(1, sizeof *p);
    if (!p) return CUFFT_ALLOC_FAILED;
    p->auto_alloc = 1;
    pthread_mutex_lock(&cf_table.lock);
    int h = 0;
    while (h < cf_table.count && cf_table.plans[h]) h++;
    if (h == cf_table.count) {
        cf_plan **grown = realloc(cf_table.plans, (size_t)(cf_table.count * 2 + 8) * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&cf_table.lock);
            free(p);
            return CUFFT_ALLOC_FAILED;
        }
        memset(grown + cf_table.count, 0, (size_t)(cf_table.count + 8) * sizeof *grown);
        cf_table.plans = grown;
        cf_table.count = cf_table.count * 2 + 8;
    }
    cf_table.plans[h] = p;
    pthread_mutex_unlock(&cf_table.lock);
    *handle = h;
    return CUFFT_SUCCESS;
}

/* cufftDestroy: free a plan and its device memory (CUFFT_PLAN_NULL, never made into a plan, is left alone). */
cufftResult cufftDestroy(cufftHandle plan)
{
    if (plan == CUFFT_PLAN_NULL) return CUFFT_SUCCESS;
    pthread_mutex_lock(&cf_table.lock);
    cf_plan *p = plan >= 0 && plan < cf_table.count ? cf_table.plans[plan] : NULL;
    if (p) cf_table.plans[plan] = NULL;
    pthread_mutex_unlock(&cf_table.lock);
    if (!p) return CUFFT_INVALID_PLAN;
    ws_cf_release(p);
    free(p);
    return CUFFT_SUCCESS;
}

/* Split n into Stockham radices (4s first, then 2, 3, 5, 7, 11, 13); the factor left over (1 when n splits). */
static long long factorize(cf_stages *s, long long n)
{
    static const int primes[] = { 2, 3, 5, 7, 11, 13 };
    s->n = n;
    s->count = 0;
    while (n % 4 == 0 && s->count < CF_MAX_STAGES) { s->radix[s->count++] = 4; n /= 4; }
    for (size_t i = 0; i < sizeof primes / sizeof primes[0]; i++)
        while (n % primes[i] == 0 && s->count < CF_MAX_STAGES) { s->radix[s->count++] = primes[i]; n /= primes[i]; }
    return n;
}

/* Whether cufftType t is one of cuFFT's six. */
static int valid_type(cufftType t)
{
    return t == CUFFT_C2C || t == CUFFT_R2C || t == CUFFT_C2R || t == CUFFT_Z2Z || t == CUFFT_D2Z || t == CUFFT_Z2D;
}

/* Keep one side's layout (embed NULL: the basic one); 0 when its numbers are not a layout. */
static int set_layout(cf_layout *l, int rank, const long long *embed, long long stride, long long dist)
{
    memset(l, 0, sizeof *l);
    l->basic = !embed;
    if (!embed) return 1;
    for (int i = 0; i < rank; i++)
        if (embed[i] < 1 && i > 0) return 0;
    memcpy(l->embed, embed, (size_t)rank * sizeof *embed);
    l->stride = stride;
    l->dist = dist;
    return stride >= 1 && dist >= 0;
}

/* Lay out the transform of one length (its stages, or Bluestein's) over seqs sequences; the bytes of Bluestein's
 * area it needs. */
static size_t layout_dim(cf_dim *d, long long len, long long seqs, size_t csize)
{
    memset(d, 0, sizeof *d);
    d->bluestein = factorize(&d->direct, len) != 1;
    if (!d->bluestein) return 0;
    /* a linear convolution of two length-len sequences without wrap-around: M >= 2 len - 1 */
    d->M = 1;
    while (d->M < 2 * len - 1) d->M *= 2;
    factorize(&d->conv, d->M);
    return 2 * (size_t)seqs * (size_t)d->M * csize;
}

/* Check and lay out a plan (cf_internal.h). */
cufftResult ws_cf_layout(cf_plan *p, int rank, const long long *n, const long long *inembed, long long istride,
                         long long idist, const long long *onembed, long long ostride, long long odist,
                         cufftType type, long long batch)
{
    if (rank < 1 || rank > CF_MAX_RANK || !n) return CUFFT_INVALID_SIZE;
    if (!valid_type(type)) return CUFFT_INVALID_TYPE;
    if (batch < 1) return CUFFT_INVALID_SIZE;
    long long total = batch;
    for (int i = 0; i < rank; i++) {
        if (n[i] < 1 || total > (1LL << 40) / n[i]) return CUFFT_INVALID_SIZE;
        total *= n[i];
    }
    if (!set_layout(&p->in, rank, inembed, istride, idist) || !set_layout(&p->out, rank, onembed, ostride, odist))
        return CUFFT_INVALID_VALUE;
    p->type = type;
    p->dbl = type == CUFFT_Z2Z || type == CUFFT_D2Z || type == CUFFT_Z2D;
    p->kind = type == CUFFT_R2C || type == CUFFT_D2Z ? CF_KIND_R2C :
              type == CUFFT_C2R || type == CUFFT_Z2D ? CF_KIND_C2R : CF_KIND_C2C;
    p->rank = rank;
    p->batch = batch;
    const size_t csize = p->dbl ? 16 : 8;
    const long long last = n[rank - 1];
    /* a real transform of even length: a complex one of half the length along the last dimension */
    p->half = p->kind != CF_KIND_C2C && last % 2 == 0;
    size_t extra = 0;
    for (int i = 0; i < rank; i++) {
        p->n[i] = n[i];
        size_t need = layout_dim(&p->dim[i], n[i], total / n[i], csize);
        if (!(p->half && i == rank - 1) && need > extra) extra = need;
    }
    memset(&p->hdim, 0, sizeof p->hdim);
    if (p->half) {
        size_t need = layout_dim(&p->hdim, last / 2, total / last, csize);
        if (need > extra) extra = need;
    }
    p->work_size = 2 * (size_t)total * csize + extra;
    return CUFFT_SUCCESS;
}

/* A table of count complex values in the plan's precision on the device; NULL when it cannot be made. */
static void *upload(const cf_plan *p, const long double complex *v, long long count)
{
    size_t es = p->dbl ? sizeof(double) : sizeof(float), bytes = 2 * (size_t)count * es;
    void *host = malloc(bytes), *dev = NULL;
    if (!host) return NULL;
    for (long long k = 0; k < count; k++) {
        if (p->dbl) {
            ((double *)host)[2 * k] = (double)creall(v[k]);
            ((double *)host)[2 * k + 1] = (double)cimagl(v[k]);
        } else {
            ((float *)host)[2 * k] = (float)creall(v[k]);
            ((float *)host)[2 * k + 1] = (float)cimagl(v[k]);
        }
    }
    if (cudaMalloc(&dev, bytes) != cudaSuccess) dev = NULL;
    else if (cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
        cudaFree(dev);
        dev = NULL;
    }
    free(host);
    return dev;
}

/* exp(-2 pi i k / n), its angle reduced exactly to at most pi / 4 by the quadrant and octant symmetries (4k mod n
 * in integers), so cosl and sinl are exact to rounding and need no argument reduction of their own. */
static long double complex unit_root(long long k, long long n)
{
    k %= n;
    long long quadrant = 4 * k / n, t = 4 * k - quadrant * n;   /* angle = (quadrant + t / n) pi / 2 */
    int swap = 2 * t > n;
    long double a = (CF_PI / 2) * (long double)(swap ? n - t : t) / (long double)n;
    long double c = cosl(a), s = sinl(a), x, y;
    if (swap) { long double u = c; c = s; s = u; }
    switch (quadrant) {   /* cos and sin of quadrant pi / 2 + the reduced angle */
    case 0: x = c; y = s; break;
    case 1: x = -s; y = c; break;
    case 2: x = -c; y = -s; break;
    default: x = s; y = -c; break;
    }
    return x - I * y;
}

/* exp(-2 pi i k / n) for k < n. */
static void fill_twiddles(long double complex *w, long long n)
{
    for (long long k = 0; k < n; k++) w[k] = unit_root(k, n);
}

/* The forward transform of a (M a power of two) in place on the host: radix-2 by bit reversal, tw = M twiddles. */
static void host_fft(long double complex *a, const long double complex *tw, long long M)
{
    for (long long i = 1, j = 0; i < M; i++) {
        long long bit = M >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j |= bit;
        if (i < j) { long double complex t = a[i]; a[i] = a[j]; a[j] = t; }
    }
    for (long long len = 2; len <= M; len *= 2)
        for (long long s = 0; s < M; s += len)
            for (long long k = 0; k < len / 2; k++) {
                long double complex u = a[s + k], v = a[s + k + len / 2] * tw[k * (M / len)];
                a[s + k] = u + v;
                a[s + k + len / 2] = u - v;
            }
}

/* A length's twiddle table on the device. */
static cufftResult make_twiddles(const cf_plan *p, cf_stages *s)
{
    long double complex *w = malloc((size_t)s->n * sizeof *w);
    if (!w) return CUFFT_ALLOC_FAILED;
    fill_twiddles(w, s->n);
    s->tw = upload(p, w, s->n);
    free(w);
    return s->tw ? CUFFT_SUCCESS : CUFFT_ALLOC_FAILED;
}

/* Bluestein's tables of a dimension: the chirp c_m = exp(-pi i m^2 / n) (m^2 taken mod 2n, so the angle stays
 * small and exact) and the transform of the filter b (conj(c_m) at m and M - m, zero between), divided by M. The
 * filter is symmetric, so the inverse transform's filter is this one conjugated (the kernels do it). */
static cufftResult make_bluestein(const cf_plan *p, cf_dim *d)
{
    const long long n = d->direct.n, M = d->M;
    long double complex *c = malloc((size_t)n * sizeof *c), *b = calloc((size_t)M, sizeof *b),
                        *tw = malloc((size_t)M * sizeof *tw);
    cufftResult r = c && b && tw ? CUFFT_SUCCESS : CUFFT_ALLOC_FAILED;
    for (long long m = 0, sq = 0; !r && m < n; m++) {
        c[m] = unit_root(sq, 2 * n);
        b[m] = conjl(c[m]);
        if (m) b[M - m] = b[m];
        sq = (sq + 2 * m + 1) % (2 * n);   /* (m + 1)^2 mod 2n */
    }
    if (!r) {
        fill_twiddles(tw, M);
        host_fft(b, tw, M);
        for (long long k = 0; k < M; k++) b[k] /= (long double)M;
        d->chirp = upload(p, c, n);
        d->bhat = upload(p, b, M);
        if (!d->chirp || !d->bhat) r = CUFFT_ALLOC_FAILED;
    }
    if (!r) r = make_twiddles(p, &d->conv);
    free(c);
    free(b);
    free(tw);
    return r;
}

/* The device tables of one length's transform. */
static cufftResult make_dim(const cf_plan *p, cf_dim *d)
{
    return d->bluestein ? make_bluestein(p, d) : make_twiddles(p, &d->direct);
}

/* The half-length trick's tables: exp(-2 pi i k / n) for k <= n / 2 (n the last length) and the length-n/2
 * transform's. */
static cufftResult make_half(cf_plan *p)
{
    const long long n = p->n[p->rank - 1];
    long double complex *w = malloc((size_t)(n / 2 + 1) * sizeof *w);
    if (!w) return CUFFT_ALLOC_FAILED;
    for (long long k = 0; k <= n / 2; k++) w[k] = unit_root(k, n);
    p->hw = upload(p, w, n / 2 + 1);
    free(w);
    return p->hw ? make_dim(p, &p->hdim) : CUFFT_ALLOC_FAILED;
}

/* Make a laid-out plan on the current device (cf_internal.h). */
cufftResult ws_cf_build(cf_plan *p)
{
    if (cudaFree(0) != cudaSuccess || cudaGetDevice(&p->device) != cudaSuccess) return CUFFT_SETUP_FAILED;
    cufftResult r = CUFFT_SUCCESS;
    for (int i = 0; !r && i < p->rank; i++)
        if (!(p->half && i == p->rank - 1)) r = make_dim(p, &p->dim[i]);
    if (!r && p->half) r = make_half(p);
    if (!r && p->auto_alloc) {
        if (cudaMalloc(&p->work, p->work_size) != cudaSuccess) r = CUFFT_ALLOC_FAILED;
        else p->work_owned = 1;
    }
    if (r) ws_cf_release(p);
    else p->made = 1;
    return r;
}

/* Free a plan's device memory (cf_internal.h). */
void ws_cf_release(cf_plan *p)
{
    for (int i = 0; i <= CF_MAX_RANK; i++) {
        cf_dim *d = i < CF_MAX_RANK ? &p->dim[i] : &p->hdim;
        void *mem[] = { d->direct.tw, d->conv.tw, d->chirp, d->bhat };
        for (size_t k = 0; k < sizeof mem / sizeof mem[0]; k++)
            if (mem[k]) cudaFree(mem[k]);
        d->direct.tw = d->conv.tw = d->chirp = d->bhat = NULL;
    }
    if (p->hw) cudaFree(p->hw);
    p->hw = NULL;
    if (p->work_owned) cudaFree(p->work);
    p->work = NULL;
    p->work_owned = 0;
    p->made = 0;
}
