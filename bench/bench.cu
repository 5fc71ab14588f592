// warpsim functional-speed benchmark: kernels of different shapes (map, naive matmul, tiled matmul with
// barriers, reduction with shuffles). Each result is checked; warpsim's --report gives instruction counts.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void matmul_naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float s = 0;
        for (int k = 0; k < n; k++) s += A[row * n + k] * B[k * n + col];
        C[row * n + col] = s;
    }
}

#define T 16
__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[T][T], Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float s = 0;
    for (int t = 0; t < n / T; t++) {
        As[ty][tx] = A[row * n + t * T + tx];
        Bs[ty][tx] = B[(t * T + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < T; k++) s += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = s;
}

__global__ void reduce_shfl(const float *x, float *out, int n)
{
    float s = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += x[i];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    __shared__ float ws[32];
    if ((threadIdx.x & 31) == 0) ws[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
        s = threadIdx.x < blockDim.x / 32 ? ws[threadIdx.x] : 0;
        for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
        if (threadIdx.x == 0) atomicAdd(out, s);
    }
}

int main(int argc, char **argv)
{
    // bench [SCALE [M [N]]]: matrices of M = 256 * SCALE (or M, a multiple of 16), vectors of N = 2^22 (or N)
    int scale = argc > 1 ? atoi(argv[1]) : 1;
    int m = argc > 2 ? atoi(argv[2]) : 256 * scale, n = argc > 3 ? atoi(argv[3]) : 1 << 22;
    if (m < 16 || m % 16 || n < 1) { fprintf(stderr, "usage: bench [SCALE [M (a multiple of 16) [N]]]\n"); return 2; }
    std::vector<float> hx(n), hy(n);
    for (int i = 0; i < n; i++) { hx[i] = (i % 7) * 0.5f; hy[i] = (i % 5) * 0.25f; }
    float *x, *y, *A, *B, *C, *out;
    CHECK(cudaMalloc(&x, n * 4)); CHECK(cudaMalloc(&y, n * 4));
    CHECK(cudaMemcpy(x, hx.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, hy.data(), n * 4, cudaMemcpyHostToDevice));
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    CHECK(cudaGetLastError());
    std::vector<float> r(n);
    CHECK(cudaMemcpy(r.data(), y, n * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (r[i] != 2.0f * hx[i] + hy[i]) { printf("FAIL saxpy %d\n", i); return 1; }

    std::vector<float> hA(m * m), hB(m * m), hC(m * m), ref(m * m);
    for (int i = 0; i < m * m; i++) { hA[i] = (i % 3) - 1; hB[i] = (i % 5) - 2; }
    for (int i = 0; i < m; i++) for (int j = 0; j < m; j++) { float s = 0; for (int k = 0; k < m; k++) s += hA[i * m + k] * hB[k * m + j]; ref[i * m + j] = s; }
    CHECK(cudaMalloc(&A, m * m * 4)); CHECK(cudaMalloc(&B, m * m * 4)); CHECK(cudaMalloc(&C, m * m * 4));
    CHECK(cudaMemcpy(A, hA.data(), m * m * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(B, hB.data(), m * m * 4, cudaMemcpyHostToDevice));
    dim3 blk(16, 16), grd(m / 16, m / 16);
    matmul_naive<<<grd, blk>>>(A, B, C, m);
    CHECK(cudaMemcpy(hC.data(), C, m * m * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m * m; i++) if (hC[i] != ref[i]) { printf("FAIL naive %d\n", i); return 1; }
    CHECK(cudaMemset(C, 0, m * m * 4));
    matmul_tiled<<<grd, blk>>>(A, B, C, m);
    CHECK(cudaMemcpy(hC.data(), C, m * m * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m * m; i++) if (hC[i] != ref[i]) { printf("FAIL tiled %d\n", i); return 1; }

    CHECK(cudaMalloc(&out, 4));
    CHECK(cudaMemset(out, 0, 4));
    reduce_shfl<<<264, 256>>>(x, out, n);
    float got;
    CHECK(cudaMemcpy(&got, out, 4, cudaMemcpyDeviceToHost));
    double want = 0;
    for (int i = 0; i < n; i++) want += hx[i];
    if (fabs(got - want) > 1e-4 * want) { printf("FAIL reduce %f vs %f\n", got, want); return 1; }
    printf("bench: all results correct\n");
    return 0;
}
