// roofline.cu - `warpsim explore roofline`: the seed's vector addition, c[i] = a[i] + b[i] over n floats (one
// FLOP and 12 requested bytes per element), run under the timing model so the explorer can put the simulated
// kernel on the roofline: its time, its DRAM bytes and its FLOPs come from the run report.
// Usage: roofline [n=1000000]
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    int n = 1000000;
    for (int i = 1; i < argc; i++) if (!strncmp(argv[i], "n=", 2)) n = atoi(argv[i] + 2);
    if (n < 1 || n > 64 * 1024 * 1024) {
        fprintf(stderr, "roofline: n must be 1 to 67108864\n");
        return 2;
    }
    size_t bytes = (size_t)n * sizeof(float);
    float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
    for (int i = 0; i < n; i++) { ha[i] = (float)(i % 1000); hb[i] = 0.5f * (float)(i % 777); }
    float *a, *b, *c;
    cudaMalloc(&a, bytes);
    cudaMalloc(&b, bytes);
    cudaMalloc(&c, bytes);
    cudaMemcpy(a, ha, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, bytes, cudaMemcpyHostToDevice);
    int threads = 256, blocks = (n + threads - 1) / threads;
    vecAdd<<<blocks, threads>>>(a, b, c, n);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(hc, c, bytes, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; i++) wrong += hc[i] != ha[i] + hb[i];
    printf("{\"n\": %d, \"threads\": %d, \"blocks\": %d, \"flops\": %d, \"requested_bytes\": %lld, \"correct\": %s, "
           "\"error\": \"%s\"}\n", n, threads, blocks, n, 12LL * n, wrong || e ? "false" : "true", cudaGetErrorName(e));
    free(ha); free(hb); free(hc);
    return wrong || e ? 1 : 0;
}
