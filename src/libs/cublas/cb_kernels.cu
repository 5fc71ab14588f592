// cb_kernels.cu - the device code of warpsim's cuBLAS (our own kernels, column-major as BLAS is), compiled to PTX
// when warpsim is built and loaded through the driver API on the first call that needs it. Every kernel takes
// alpha and beta by value; the host side reads them (host or device pointer mode) before the launch.

// element i of a strided vector of n elements (BLAS: a negative increment walks the vector backwards)
template <typename T> __device__ __forceinline__ T &vec_at(T *x, long long i, long long n, long long inc)
{
    return x[inc >= 0 ? i * inc : (n - 1 - i) * -inc];
}

// C = alpha op(A) op(B) + beta C for each batch (blockIdx.z): 16 x 16 tiles of C, 16-deep slices of k through
// shared memory; beta == 0 never reads C (it may hold NaN, as cuBLAS allows)
template <typename T>
__device__ void gemm(int ta, int tb, int m, int n, int k, T alpha, const T *A, int lda, long long sa, const T *B,
                     int ldb, long long sb, T beta, T *C, int ldc, long long sc)
{
    __shared__ T As[16][17], Bs[16][17];
    A += sa * blockIdx.z;
    B += sb * blockIdx.z;
    C += sc * blockIdx.z;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = blockIdx.x * 16 + tx, j = blockIdx.y * 16 + ty;
    T acc = 0;
    for (int p0 = 0; p0 < k; p0 += 16) {
        int ai = blockIdx.x * 16 + tx, ap = p0 + ty;   // As[ty][tx] = op(A)(ai, ap)
        As[ty][tx] = ai < m && ap < k ? (ta ? A[ap + (long long)ai * lda] : A[ai + (long long)ap * lda]) : T(0);
        int bp = p0 + tx, bj = blockIdx.y * 16 + ty;   // Bs[ty][tx] = op(B)(bp, bj)
        Bs[ty][tx] = bp < k && bj < n ? (tb ? B[bj + (long long)bp * ldb] : B[bp + (long long)bj * ldb]) : T(0);
        __syncthreads();
        for (int q = 0; q < 16; q++) acc += As[q][tx] * Bs[ty][q];
        __syncthreads();
    }
    if (i < m && j < n) {
        T *c = C + i + (long long)j * ldc;
        *c = beta == T(0) ? alpha * acc : alpha * acc + beta * *c;
    }
}

// y = alpha op(A) x + beta y: one thread per element of y
template <typename T>
__device__ void gemv(int ta, int m, int n, T alpha, const T *A, int lda, const T *x, int incx, T beta, T *y,
                     int incy)
{
    const int rows = ta ? n : m, cols = ta ? m : n;
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    T acc = 0;
    for (int c = 0; c < cols; c++)
        acc += (ta ? A[c + (long long)r * lda] : A[r + (long long)c * lda]) * vec_at(x, c, cols, incx);
    T &out = vec_at(y, r, rows, incy);
    out = beta == T(0) ? alpha * acc : alpha * acc + beta * out;
}

// one block of 256 threads: a fixed order of additions, so the result never depends on timing
template <typename T> __device__ T block_sum(T v)
{
    __shared__ T part[256];
    part[threadIdx.x] = v;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    return part[0];
}

// what a level-1 reduction computes (cuBLAS's dot, nrm2, asum)
enum { RED_DOT, RED_NRM2, RED_ASUM };
template <typename T>
__device__ void reduce(int what, int n, const T *x, int incx, const T *y, int incy, T *result)
{
    T v = 0;
    for (int i = threadIdx.x; i < n; i += 256) {
        T a = vec_at(x, i, n, incx);
        v += what == RED_DOT ? a * vec_at(y, i, n, incy) : what == RED_NRM2 ? a * a : (a < 0 ? -a : a);
    }
    v = block_sum(v);
    if (threadIdx.x == 0) *result = what == RED_NRM2 ? sqrt(v) : v;
}

// the 1-based index of the first element of largest (amax) or smallest (amin) absolute value; 0 when n <= 0
template <typename T> __device__ void iamax(int amin, int n, const T *x, int incx, int *result)
{
    __shared__ T best[256];
    __shared__ int at[256];
    T b = 0;
    int bi = 0x7fffffff;
    for (int i = threadIdx.x; i < n; i += 256) {
        T a = vec_at(x, i, n, incx);
        a = a < 0 ? -a : a;
        if (bi == 0x7fffffff || (amin ? a < b : a > b)) { b = a; bi = i; }
    }
    best[threadIdx.x] = b;
    at[threadIdx.x] = bi;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            T o = best[threadIdx.x + s];
            int oi = at[threadIdx.x + s];
            int take = oi != 0x7fffffff && (at[threadIdx.x] == 0x7fffffff || (amin ? o < best[threadIdx.x] : o > best[threadIdx.x]) ||
                                           (o == best[threadIdx.x] && oi < at[threadIdx.x]));
            if (take) { best[threadIdx.x] = o; at[threadIdx.x] = oi; }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) *result = at[0] == 0x7fffffff ? 0 : at[0] + 1;
}

// level-1 element-wise operations
enum { EW_AXPY, EW_SCAL, EW_COPY, EW_SWAP };
template <typename T> __device__ void elementwise(int what, int n, T alpha, T *x, int incx, T *y, int incy)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T &a = vec_at(x, i, n, incx);
    if (what == EW_SCAL) { a = alpha * a; return; }
    T &b = vec_at(y, i, n, incy);
    if (what == EW_AXPY) b = alpha * a + b;
    else if (what == EW_COPY) b = a;
    else { T t = a; a = b; b = t; }
}

#define WS_CB_KERNELS(T, s)                                                                                          \
    extern "C" __global__ void ws_cb_##s##gemm(int ta, int tb, int m, int n, int k, T alpha, const T *A, int lda,   \
                                                long long sa, const T *B, int ldb, long long sb, T beta, T *C,       \
                                                int ldc, long long sc)                                               \
    { gemm<T>(ta, tb, m, n, k, alpha, A, lda, sa, B, ldb, sb, beta, C, ldc, sc); }                                 \
    extern "C" __global__ void ws_cb_##s##gemv(int ta, int m, int n, T alpha, const T *A, int lda, const T *x,     \
                                                int incx, T beta, T *y, int incy)                                    \
    { gemv<T>(ta, m, n, alpha, A, lda, x, incx, beta, y, incy); }                                                   \
    extern "C" __global__ void ws_cb_##s##reduce(int what, int n, const T *x, int incx, const T *y, int incy,       \
                                                  T *result)                                                         \
    { reduce<T>(what, n, x, incx, y, incy, result); }                                                               \
    extern "C" __global__ void ws_cb_i##s##amax(int amin, int n, const T *x, int incx, int *result)                 \
    { iamax<T>(amin, n, x, incx, result); }                                                                         \
    extern "C" __global__ void ws_cb_##s##elementwise(int what, int n, T alpha, T *x, int incx, T *y, int incy)    \
    { elementwise<T>(what, n, alpha, x, incx, y, incy); }

WS_CB_KERNELS(float, s)
WS_CB_KERNELS(double, d)
