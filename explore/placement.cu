// placement.cu - `warpsim explore placement`: the seed's convolution block on the fictitious two-core GPU
// (the two-core preset: 384 threads and 1,536 bytes of shared memory per core). Version 1 reads its inputs
// straight from global memory; version 2 first stages them in a shared support array of 130 floats (520 bytes)
// for 128 threads; the 256-thread preset's support array holds 258 floats (1,032 bytes). Every block writes
// down the SM it ran on and the cycles (clock64, the simulated clock under --timing) it started and ended.
// Usage: placement [blocks=12]
#include <cstdio>
#include <cstdlib>
#include <cstring>

// When and where one block ran.
struct stamp {
    long long start, end;
    int sm;
};

// Write block b's stamp (thread 0 only).
__device__ void record(stamp *s, long long start)
{
    if (threadIdx.x == 0) {
        unsigned sm;
        asm("mov.u32 %0, %%smid;" : "=r"(sm));
        s[blockIdx.x].start = start;
        s[blockIdx.x].end = clock64();
        s[blockIdx.x].sm = (int)sm;
    }
}

// Version 1: out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3 straight from global memory.
__global__ void conv_v1(const float *in, float *out, int n, stamp *s)
{
    long long start = clock64();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (in[i] + in[i + 1] + in[i + 2]) / 3.0f;   // in[] carries one halo value on each side
    record(s, start);
}

// Version 2: the block first copies its inputs and both halo values into a shared support array.
template <int THREADS>
__global__ void conv_v2(const float *in, float *out, int n, stamp *s)
{
    __shared__ float support[THREADS + 2];
    long long start = clock64();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    support[threadIdx.x] = in[i];
    if (threadIdx.x < 2) support[THREADS + threadIdx.x] = in[i + THREADS];
    __syncthreads();
    if (i < n) out[i] = (support[threadIdx.x] + support[threadIdx.x + 1] + support[threadIdx.x + 2]) / 3.0f;
    record(s, start);
}

int main(int argc, char **argv)
{
    int blocks = 12;
    for (int i = 1; i < argc; i++) if (!strncmp(argv[i], "blocks=", 7)) blocks = atoi(argv[i] + 7);
    if (blocks < 1 || blocks > 64) {
        fprintf(stderr, "placement: blocks must be 1-64\n");
        return 2;
    }
    const char *names[3] = { "version 1", "version 2", "256-thread preset" };
    int threads[3] = { 128, 128, 256 }, smem[3] = { 0, 130 * 4, 258 * 4 };
    float *in, *out;
    stamp *s, hs[64];
    size_t n_max = (size_t)blocks * 256;
    cudaMalloc(&in, (n_max + 2) * sizeof(float));
    cudaMalloc(&out, n_max * sizeof(float));
    cudaMalloc(&s, sizeof hs);
    cudaMemset(in, 0, (n_max + 2) * sizeof(float));
    printf("{\"launches\": [");
    int bad = 0;
    for (int v = 0; v < 3; v++) {
        int n = blocks * threads[v];
        if (v == 0) conv_v1<<<blocks, threads[v]>>>(in, out, n, s);
        else if (v == 1) conv_v2<128><<<blocks, threads[v]>>>(in, out, n, s);
        else conv_v2<256><<<blocks, threads[v]>>>(in, out, n, s);
        cudaError_t e = cudaDeviceSynchronize();
        cudaMemcpy(hs, s, sizeof hs, cudaMemcpyDeviceToHost);
        bad |= e != cudaSuccess;
        printf("%s{\"name\": \"%s\", \"threads\": %d, \"shared_bytes\": %d, \"blocks\": %d, \"error\": \"%s\", "
               "\"stamps\": [", v ? ",\n " : "", names[v], threads[v], smem[v], blocks, cudaGetErrorName(e));
        for (int b = 0; b < blocks; b++)
            printf("%s[%lld, %lld, %d]", b ? ", " : "", hs[b].start, hs[b].end, hs[b].sm);
        printf("]}");
    }
    printf("]}\n");
    return bad;
}
