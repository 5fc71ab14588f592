// cf_kernels.cu - the device code of warpsim's cuFFT (our own kernels), compiled to PTX when warpsim is built and
// loaded through the driver API on the first transform. A transform works in a packed complex buffer (the plan's
// work area) laid out [batch][n0][n1][n2]: a gather kernel brings the user's data there (any advanced layout; real
// input becomes complex, half-spectrum input its full Hermitian spectrum, or, for an even length, real pairs one
// complex value: the half-length trick, finished by real_post / started by real_pre), each dimension is
// transformed by Stockham autosort stages (one launch per radix-2, 3, 4, 5, 7, 11 or 13 stage, as cf_plan.c splits
// the length, ping-pong between two buffers) or, for a length with a larger prime factor, by Bluestein's chirp-z
// algorithm (two power-of-two transforms), and a scatter kernel writes the result in the output layout. A packed
// complex transform needs neither: its first stage reads the input and its last writes the output. Twiddle factors
// come from tables the host computed in long double: exp(-2 pi i k / n) for k < n (an inverse transform conjugates
// them). Power-of-two sequences that fit a block's shared memory are transformed there in one launch.

// what a gather or scatter kernel converts (cf_internal.h's cf_kind): complex, real and a full spectrum, real
// pairs x_2j + i x_2j+1 and a half-length complex sequence (the half-length trick of real transforms)
enum { KIND_C2C, KIND_R2C, KIND_C2R, KIND_PAIRS };

template <typename T> struct cpx;
template <> struct cpx<float> { typedef float2 t; };
template <> struct cpx<double> { typedef double2 t; };

template <typename C> __device__ __forceinline__ C cmul(C a, C b)
{
    C r;
    r.x = a.x * b.x - a.y * b.y;
    r.y = a.x * b.y + a.y * b.x;
    return r;
}
template <typename C> __device__ __forceinline__ C cadd(C a, C b) { a.x += b.x; a.y += b.y; return a; }
template <typename C> __device__ __forceinline__ C csub(C a, C b) { a.x -= b.x; a.y -= b.y; return a; }
// a times -i (forward) or +i (inverse)
template <typename C> __device__ __forceinline__ C mul_i(C a, int inverse)
{
    C r;
    r.x = inverse ? -a.y : a.y;
    r.y = inverse ? a.x : -a.x;
    return r;
}
// entry e of the twiddle table, conjugated for an inverse transform
template <typename C> __device__ __forceinline__ C twiddle(const C *tw, long long e, int inverse)
{
    C w = tw[e];
    if (inverse) w.y = -w.y;
    return w;
}

// the flat thread index of a 1D grid
__device__ __forceinline__ long long thread_index() { return (long long)blockIdx.x * blockDim.x + threadIdx.x; }

// One butterfly of a Stockham stage of radix R (a compile-time constant, so v stays in registers): the R
// elements x[r step_in] from src, times the twiddles W_n^(r k tstep), an R-point DFT, stored to dst[q step_out].
template <int R, typename C>
__device__ __forceinline__ void butterfly(const C *src, C *dst, const C *tw, long long step_in, long long step_out,
                                          long long k, long long tstep, long long m, int inverse)
{
    C v[R];
#pragma unroll
    for (int r = 0; r < R; r++) {
        C x = src[r * step_in];
        v[r] = r && k ? cmul(x, twiddle(tw, r * k * tstep, inverse)) : x;
    }
    if (R == 2) {
        dst[0] = cadd(v[0], v[1]);
        dst[step_out] = csub(v[0], v[1]);
    } else if (R == 4) {
        C a = cadd(v[0], v[2]), b = csub(v[0], v[2]), c = cadd(v[1], v[3]), d = mul_i(csub(v[1], v[3]), inverse);
        dst[0] = cadd(a, c);
        dst[step_out] = cadd(b, d);
        dst[2 * step_out] = csub(a, c);
        dst[3 * step_out] = csub(b, d);
    } else {
        // an odd prime radix: the R-point DFT by its definition, W_R^(rq) being entry (rq mod R) n/R of the table
#pragma unroll
        for (int q = 0; q < R; q++) {
            C acc = v[0];
#pragma unroll
            for (int r = 1; r < R; r++) acc = cadd(acc, cmul(v[r], twiddle(tw, ((r * q) % R) * m, inverse)));
            dst[q * step_out] = acc;
        }
    }
}

// A butterfly of radix R, 2 to 5, chosen at run time.
template <typename C>
__device__ __forceinline__ void small_butterfly(int R, const C *src, C *dst, const C *tw, long long si,
                                                long long so, long long k, long long tstep, long long m, int inverse)
{
    if (R == 2) butterfly<2>(src, dst, tw, si, so, k, tstep, m, inverse);
    else if (R == 3) butterfly<3>(src, dst, tw, si, so, k, tstep, m, inverse);
    else if (R == 4) butterfly<4>(src, dst, tw, si, so, k, tstep, m, inverse);
    else butterfly<5>(src, dst, tw, si, so, k, tstep, m, inverse);
}

// One Stockham stage of radix R over every length-n sequence of the buffer ([outer][n][inner], the sequence's
// elements inner apart): Ns is the length of the sub-transforms done so far. Thread (o, j, i) takes the R elements
// j + r n/R, multiplies them by the twiddles of its position k = j mod Ns, does an R-point DFT, and stores them
// Ns apart from (j / Ns) Ns R + k: after the last stage the sequence is in natural order.
// SMALL: the radices 2 to 5 only (the kernel ws_cf_?stage); else 7, 11 and 13 (ws_cf_?stage_prime, whose
// unrolled DFTs need many more registers).
template <bool SMALL, typename C>
__device__ void stage(const C *src, C *dst, const C *tw, long long n, long long inner, long long threads, int R,
                      long long Ns, int inverse)
{
    const long long t = thread_index();
    if (t >= threads) return;
    const long long m = n / R, i = t % inner, j = (t / inner) % m, o = t / (inner * m);
    const long long base = o * n * inner + i, k = j % Ns, tstep = n / (Ns * R);
    src += base + j * inner;
    dst += base + ((j / Ns) * Ns * R + k) * inner;
    const long long si = m * inner, so = Ns * inner;
    if (SMALL) small_butterfly(R, src, dst, tw, si, so, k, tstep, m, inverse);
    else if (R == 7) butterfly<7>(src, dst, tw, si, so, k, tstep, m, inverse);
    else if (R == 11) butterfly<11>(src, dst, tw, si, so, k, tstep, m, inverse);
    else butterfly<13>(src, dst, tw, si, so, k, tstep, m, inverse);
}

// the dynamic shared memory of the shared-memory transform (double2: aligned for either precision)
extern __shared__ double2 cf_smem[];

// Whole transforms of contiguous length-n sequences in shared memory (2 spb n elements fit): block b loads
// sequences b spb ... (at most spb of them, seqs in all), runs every Stockham stage (radices 4 and 2, four bits
// each in radices, the first stage's lowest: a power-of-two length) between two shared buffers with a barrier
// after each, and stores the result. The same butterflies as the one-launch-per-stage path, without the global
// memory between stages.
template <typename C>
__device__ void shared_fft(const C *src, C *dst, const C *tw, int n, long long seqs, int spb,
                           unsigned long long radices, int stages, int inverse)
{
    C *a = reinterpret_cast<C *>(cf_smem), *b = a + spb * n;
    const long long first = (long long)blockIdx.x * spb;
    const int here = seqs - first < spb ? (int)(seqs - first) : spb, count = here * n;
    src += first * n;
    dst += first * n;
    for (int e = threadIdx.x; e < count; e += blockDim.x) a[e] = src[e];
    __syncthreads();
    int Ns = 1;
    for (int s = 0; s < stages; s++) {
        const int R = (int)(radices >> (4 * s)) & 15, m = n / R;
        for (int t = threadIdx.x; t < here * m; t += blockDim.x) {
            const int q = t / m, j = t % m, k = j % Ns;
            const C *x = a + q * n + j;
            C *y = b + q * n + (j / Ns) * Ns * R + k;
            if (R == 4) butterfly<4>(x, y, tw, m, Ns, k, n / (Ns * R), m, inverse);
            else butterfly<2>(x, y, tw, m, Ns, k, n / (Ns * R), m, inverse);
        }
        __syncthreads();
        C *x = a;
        a = b;
        b = x;
        Ns *= R;
    }
    for (int e = threadIdx.x; e < count; e += blockDim.x) dst[e] = a[e];
}

// The packed index w of the work buffer as (b, x0, x1, x2) and the element's offset in a user layout of extents
// (e1, e2) for dimensions 1 and 2 (dimension 0's extent never matters), stride and distance.
__device__ __forceinline__ long long layout_offset(long long b, long long x0, long long x1, long long x2,
                                                   long long e1, long long e2, long long stride, long long dist)
{
    return b * dist + ((x0 * e1 + x1) * e2 + x2) * stride;
}

// Bring the user's input into the packed work buffer of n0 x n1 x n2 complex elements per batch: complex input
// as it is, real input with a zero imaginary part, a half spectrum (n2 / 2 + 1 elements along the last dimension)
// extended by Hermitian symmetry X[x] = conj(X[-x mod n]), or real pairs (2 n2 reals along the last dimension).
template <typename T>
__device__ void gather(int kind, const void *in, typename cpx<T>::t *work, long long total, long long n0,
                       long long n1, long long n2, long long e1, long long e2, long long stride, long long dist)
{
    typedef typename cpx<T>::t C;
    const long long w = thread_index();
    if (w >= total) return;
    long long x2 = w % n2, x1 = (w / n2) % n1, x0 = (w / (n2 * n1)) % n0, b = w / (n2 * n1 * n0);
    C v;
    if (kind == KIND_R2C) {
        v.x = ((const T *)in)[layout_offset(b, x0, x1, x2, e1, e2, stride, dist)];
        v.y = 0;
    } else if (kind == KIND_PAIRS) {
        v.x = ((const T *)in)[layout_offset(b, x0, x1, 2 * x2, e1, e2, stride, dist)];
        v.y = ((const T *)in)[layout_offset(b, x0, x1, 2 * x2 + 1, e1, e2, stride, dist)];
    } else if (kind == KIND_C2C || x2 <= n2 / 2) {
        v = ((const C *)in)[layout_offset(b, x0, x1, x2, e1, e2, stride, dist)];
    } else {
        x0 = x0 ? n0 - x0 : 0;
        x1 = x1 ? n1 - x1 : 0;
        v = ((const C *)in)[layout_offset(b, x0, x1, n2 - x2, e1, e2, stride, dist)];
        v.y = -v.y;
    }
    work[w] = v;
}

// Write the packed result to the user's output: all of it (complex), the half spectrum of the last dimension
// (x2 <= n2 / 2), the real parts, or each element as two reals. One thread per output element (h2 of them along
// the last dimension).
template <typename T>
__device__ void scatter(int kind, const typename cpx<T>::t *work, void *out, long long total, long long n0,
                        long long n1, long long n2, long long h2, long long e1, long long e2, long long stride,
                        long long dist)
{
    typedef typename cpx<T>::t C;
    const long long t = thread_index();
    if (t >= total) return;
    long long x2 = t % h2, x1 = (t / h2) % n1, x0 = (t / (h2 * n1)) % n0, b = t / (h2 * n1 * n0);
    C v = work[((b * n0 + x0) * n1 + x1) * n2 + x2];
    if (kind == KIND_PAIRS) {
        ((T *)out)[layout_offset(b, x0, x1, 2 * x2, e1, e2, stride, dist)] = v.x;
        ((T *)out)[layout_offset(b, x0, x1, 2 * x2 + 1, e1, e2, stride, dist)] = v.y;
        return;
    }
    long long at = layout_offset(b, x0, x1, x2, e1, e2, stride, dist);
    if (kind == KIND_C2R) ((T *)out)[at] = v.x;
    else ((C *)out)[at] = v;
}

// The half-length trick, forward (R2C): the rows of z ([rows][h]) are the transforms Z of z_j = x_2j + i x_2j+1
// of real rows x of length n = 2h; the half spectrum of x ([rows][h + 1]) is X_k = E_k + W^k O_k with
// E_k = (Z_k + conj Z_h-k) / 2 and O_k = -i (Z_k - conj Z_h-k) / 2 (indices mod h), W^k = hw[k] = exp(-2 pi i k / n).
template <typename C> __device__ void real_post(const C *z, C *X, const C *hw, long long h, long long total)
{
    const long long t = thread_index();
    if (t >= total) return;
    const long long k = t % (h + 1), row = t / (h + 1);
    C a = z[row * h + (k == h ? 0 : k)], b = z[row * h + (k ? h - k : 0)];
    b.y = -b.y;
    C e = cadd(a, b), o = mul_i(csub(a, b), 0);
    e.x *= 0.5f; e.y *= 0.5f; o.x *= 0.5f; o.y *= 0.5f;
    X[t] = cadd(e, cmul(o, hw[k]));
}

// The half-length trick, inverse (C2R): from the half spectrum X ([rows][h + 1]) the sequence whose inverse
// transform (length h) gives n z_j = n (x_2j + i x_2j+1): Z_k = (X_k + conj X_h-k) + i W^-k (X_k - conj X_h-k).
template <typename C> __device__ void real_pre(const C *X, C *z, const C *hw, long long h, long long total)
{
    const long long t = thread_index();
    if (t >= total) return;
    const long long k = t % h, row = t / h;
    C a = X[row * (h + 1) + k], b = X[row * (h + 1) + h - k];
    b.y = -b.y;
    z[t] = cadd(cadd(a, b), mul_i(cmul(csub(a, b), twiddle(hw, k, 1)), 1));
}

// the offset of element 0 of sequence s of a [outer][n][inner] buffer (s = o inner + i; its elements inner apart)
__device__ __forceinline__ long long seq_base(long long s, long long n, long long inner)
{
    return (s / inner) * n * inner + s % inner;
}

// Bluestein's first step for the length-n sequences of data: sequence s becomes row s of a ([s][M], M >= 2n - 1
// a power of two), x_m times the chirp c_m, zero from n on.
template <typename C>
__device__ void chirp_in(const C *data, C *a, const C *chirp, long long n, long long inner, long long M,
                         long long total, int inverse)
{
    const long long t = thread_index(), m = t % M;
    if (t >= total) return;
    C v;
    v.x = v.y = 0;
    if (m < n) v = cmul(data[seq_base(t / M, n, inner) + m * inner], twiddle(chirp, m, inverse));
    a[t] = v;
}

// Bluestein's convolution in the frequency domain: every row of a times the transformed chirp filter bhat (whose
// 1 / M normalization the host already applied; the inverse transform's filter is its conjugate).
template <typename C> __device__ void pointwise(C *a, const C *bhat, long long M, long long total, int inverse)
{
    const long long t = thread_index();
    if (t >= total) return;
    a[t] = cmul(a[t], twiddle(bhat, t % M, inverse));
}

// Bluestein's last step: X_k = c_k times element k of row s of the convolution, back to data's layout.
template <typename C>
__device__ void chirp_out(const C *a, C *data, const C *chirp, long long n, long long inner, long long M,
                          long long total, int inverse)
{
    const long long t = thread_index(), k = t % n, s = t / n;
    if (t < total) data[seq_base(s, n, inner) + k * inner] = cmul(a[s * M + k], twiddle(chirp, k, inverse));
}

#define WS_CF_KERNELS(T, s)                                                                                          \
    typedef cpx<T>::t s##cpx;                                                                                        \
    extern "C" __global__ void ws_cf_##s##stage(const s##cpx *src, s##cpx *dst, const s##cpx *tw, long long n,      \
                                                 long long inner, long long threads, int R, long long Ns,            \
                                                 int inverse)                                                        \
    { stage<true>(src, dst, tw, n, inner, threads, R, Ns, inverse); }                                               \
    extern "C" __global__ void ws_cf_##s##stage_prime(const s##cpx *src, s##cpx *dst, const s##cpx *tw,            \
                                                       long long n, long long inner, long long threads, int R,       \
                                                       long long Ns, int inverse)                                    \
    { stage<false>(src, dst, tw, n, inner, threads, R, Ns, inverse); }                                              \
    extern "C" __global__ void ws_cf_##s##shared(const s##cpx *src, s##cpx *dst, const s##cpx *tw, int n,          \
                                                  long long seqs, int spb, unsigned long long radices, int stages,   \
                                                  int inverse)                                                       \
    { shared_fft(src, dst, tw, n, seqs, spb, radices, stages, inverse); }                                           \
    extern "C" __global__ void ws_cf_##s##gather(int kind, const void *in, s##cpx *work, long long total,          \
                                                  long long n0, long long n1, long long n2, long long e1,            \
                                                  long long e2, long long stride, long long dist)                    \
    { gather<T>(kind, in, work, total, n0, n1, n2, e1, e2, stride, dist); }                                         \
    extern "C" __global__ void ws_cf_##s##scatter(int kind, const s##cpx *work, void *out, long long total,        \
                                                   long long n0, long long n1, long long n2, long long h2,           \
                                                   long long e1, long long e2, long long stride, long long dist)     \
    { scatter<T>(kind, work, out, total, n0, n1, n2, h2, e1, e2, stride, dist); }                                   \
    extern "C" __global__ void ws_cf_##s##chirp_in(const s##cpx *data, s##cpx *a, const s##cpx *chirp,             \
                                                    long long n, long long inner, long long M, long long total,      \
                                                    int inverse)                                                     \
    { chirp_in(data, a, chirp, n, inner, M, total, inverse); }                                                      \
    extern "C" __global__ void ws_cf_##s##real_post(const s##cpx *z, s##cpx *X, const s##cpx *hw, long long h,    \
                                                     long long total)                                                \
    { real_post(z, X, hw, h, total); }                                                                              \
    extern "C" __global__ void ws_cf_##s##real_pre(const s##cpx *X, s##cpx *z, const s##cpx *hw, long long h,      \
                                                    long long total)                                                 \
    { real_pre(X, z, hw, h, total); }                                                                               \
    extern "C" __global__ void ws_cf_##s##pointwise(s##cpx *a, const s##cpx *bhat, long long M, long long total,   \
                                                     int inverse)                                                    \
    { pointwise(a, bhat, M, total, inverse); }                                                                      \
    extern "C" __global__ void ws_cf_##s##chirp_out(const s##cpx *a, s##cpx *data, const s##cpx *chirp,            \
                                                     long long n, long long inner, long long M, long long total,     \
                                                     int inverse)                                                    \
    { chirp_out(a, data, chirp, n, inner, M, total, inverse); }

WS_CF_KERNELS(float, c)
WS_CF_KERNELS(double, z)
