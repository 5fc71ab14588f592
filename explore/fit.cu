// fit.cu - `warpsim explore fit`: what fits on the seed's teaching SM. A block of T threads, each thread using R
// registers, and S bytes of shared memory per block. R is fixed when the kernel is compiled, so there is one
// kernel per register count: __maxnreg__(R) caps ptxas at R registers and R live values make it use all of them
// (the simulator asks ptxas, as the driver does). S is dynamic shared memory, T the launch's block size.
// A launch is "THREADS:REGS:SMEM_BYTES:GRID". Usage: fit LAUNCH... (e.g. fit 64:32:4096:8 64:64:4096:8)
#include <cstdio>

// R values loaded, then combined in a different order, so all R are live at once.
template <int R>
__global__ void __maxnreg__(R) fit(const float *in, float *out, int stride, int smem_words)
{
    extern __shared__ float stage[];
    int i = (blockIdx.x * blockDim.x + threadIdx.x) % stride;
    float v[R];
#pragma unroll
    for (int k = 0; k < R; k++) v[k] = in[i + k * stride];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < R; k++) s += v[k] * v[(k * 7 + 3) % R];
    if (smem_words) {                       // the block's shared memory holds each thread's partial result
        stage[threadIdx.x % smem_words] = s;
        __syncthreads();
        s += stage[(threadIdx.x + 1) % smem_words];
    }
    out[i] = s;
}

typedef void (*kernel_t)(const float *, float *, int, int);

int main(int argc, char **argv)
{
    static const int sizes[] = { 24, 32, 40, 48, 64, 96, 128 };
    static const kernel_t kernels[] = { fit<24>, fit<32>, fit<40>, fit<48>, fit<64>, fit<96>, fit<128> };
    const int stride = 4096;
    float *in, *out;
    cudaMalloc(&in, (size_t)stride * 129 * sizeof(float));
    cudaMalloc(&out, (size_t)stride * sizeof(float));
    cudaMemset(in, 0, (size_t)stride * 129 * sizeof(float));
    printf("{\"launches\": [");
    int bad = 0;
    for (int a = 1; a < argc; a++) {
        int threads, regs, smem, grid;
        kernel_t k = NULL;
        if (sscanf(argv[a], "%d:%d:%d:%d", &threads, &regs, &smem, &grid) == 4)
            for (int j = 0; j < 7; j++) if (sizes[j] == regs) k = kernels[j];
        if (!k || threads < 1 || smem < 0 || grid < 1 || grid * threads > stride) {
            fprintf(stderr, "fit: '%s': expected THREADS:REGS:SMEM:GRID with REGS one of 24 32 40 48 64 96 128 and "
                    "at most %d threads in all\n", argv[a], stride);
            return 2;
        }
        k<<<grid, threads, smem>>>(in, out, stride, smem / 4);
        cudaError_t e = cudaDeviceSynchronize();
        if (e == cudaSuccess) e = cudaGetLastError();
        bad |= e != cudaSuccess;
        printf("%s{\"threads\": %d, \"regs\": %d, \"smem\": %d, \"grid\": %d, \"error\": \"%s\"}", a > 1 ? ", " : "",
               threads, regs, smem, grid, cudaGetErrorName(e));
    }
    printf("]}\n");
    return bad;
}
