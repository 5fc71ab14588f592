// occupancy.cu - `warpsim explore occupancy`: the CUDA Programming Guide's worked occupancy examples on its
// example device (2,048 threads, 32 blocks, 65,536 registers and 233,472 bytes of shared memory per SM), with real
// kernels: one kernel per register count (__maxnreg__(R) and R live values make ptxas use exactly R), the block
// size and dynamic shared memory set by each launch. A launch is "THREADS:REGS:SMEM_BYTES:GRID"; a REGS of 0
// means the small kernel (a handful of registers) used for the wave examples.
// Usage: occupancy LAUNCH... (e.g. occupancy 768:32:0:1 32:32:0:1)
#include <cstdio>
#include <cstdlib>

// R values loaded, then combined in a different order, so all R are live at once.
template <int R>
__global__ void __maxnreg__(R) occ(const float *in, float *out, int stride, int smem_words)
{
    extern __shared__ float stage[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v[R];
#pragma unroll
    for (int k = 0; k < R; k++) v[k] = in[i % stride + k * stride];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < R; k++) s += v[k] * v[(k * 5 + 1) % R];
    if (smem_words) stage[threadIdx.x % smem_words] = s;   // the block's shared memory (the launch sizes it)
    out[i % stride] = s;
}

// The wave examples only need many blocks of a given size: a kernel that does almost nothing.
__global__ void small(float *out, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < stride) out[i] = (float)i;
}

typedef void (*kernel_t)(const float *, float *, int, int);

int main(int argc, char **argv)
{
    static const int sizes[] = { 32, 64, 96, 128, 255 };
    static const kernel_t kernels[] = { occ<32>, occ<64>, occ<96>, occ<128>, occ<255> };
    const int stride = 1024;
    float *in, *out;
    cudaMalloc(&in, (size_t)stride * 256 * sizeof(float));
    cudaMalloc(&out, (size_t)stride * sizeof(float));
    cudaMemset(in, 0, (size_t)stride * 256 * sizeof(float));
    printf("{\"launches\": [");
    int bad = 0;
    for (int a = 1; a < argc; a++) {
        int threads, regs, smem, grid;
        if (sscanf(argv[a], "%d:%d:%d:%d", &threads, &regs, &smem, &grid) != 4 || threads < 1 || smem < 0 ||
            grid < 1) {
            fprintf(stderr, "occupancy: '%s': expected THREADS:REGS:SMEM:GRID\n", argv[a]);
            return 2;
        }
        kernel_t k = NULL;
        for (int j = 0; j < 5; j++) if (sizes[j] == regs) k = kernels[j];
        if (!k && regs != 0) {
            fprintf(stderr, "occupancy: REGS must be 0 (the small kernel) or one of 32 64 96 128 255\n");
            return 2;
        }
        if (k) {
            if (smem > 48 * 1024) cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
            k<<<grid, threads, smem>>>(in, out, stride, smem / 4);
        } else {
            small<<<grid, threads, smem>>>(out, stride);
        }
        cudaError_t e = cudaDeviceSynchronize();
        if (e == cudaSuccess) e = cudaGetLastError();
        bad |= e != cudaSuccess;
        printf("%s{\"threads\": %d, \"regs\": %d, \"smem\": %d, \"grid\": %d, \"error\": \"%s\"}", a > 1 ? ", " : "",
               threads, regs, smem, grid, cudaGetErrorName(e));
    }
    printf("]}\n");
    return bad;
}
