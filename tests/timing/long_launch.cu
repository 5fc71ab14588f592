// warpsim test program: one long launch, for the progress line (tests/cli/progress_line.sh).
// usage: long_launch BLOCKS ITERS [LAUNCHES]: LAUNCHES launches (default 1) of BLOCKS blocks of 256 threads, each
// thread stepping a scrambled generator ITERS times (no closed form a compiler could fold); checks every 61st
// result on the CPU.
#include <cstdio>
#include <cstdlib>

__global__ void spin(unsigned *out, int iters)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v = i;
    for (int k = 0; k < iters; k++) v = v * 1664525u + (v >> 13) + 1013904223u;
    out[i] = v;
}

int main(int argc, char **argv)
{
    int blocks = argc > 1 ? atoi(argv[1]) : 64, iters = argc > 2 ? atoi(argv[2]) : 100;
    int launches = argc > 3 ? atoi(argv[3]) : 1;
    size_t n = (size_t)blocks * 256;
    unsigned *d, *h = (unsigned *)malloc(n * sizeof *h);
    if (cudaMalloc(&d, n * sizeof *d) != cudaSuccess) { printf("FAIL: cudaMalloc\n"); return 1; }
    for (int l = 0; l < launches; l++) spin<<<blocks, 256>>>(d, iters);
    if (cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost) != cudaSuccess) { printf("FAIL: copy\n"); return 1; }
    int bad = 0;
    for (size_t i = 0; i < n; i += 61) {
        unsigned v = (unsigned)i;
        for (int k = 0; k < iters; k++) v = v * 1664525u + (v >> 13) + 1013904223u;
        bad += h[i] != v;
    }
    cudaFree(d);
    free(h);
    if (bad) { printf("FAIL: long_launch: %d wrong results\n", bad); return 1; }
    printf("PASS long_launch\n");
    return 0;
}
