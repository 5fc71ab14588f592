// vecadd.cu - the seed's first kernel: one thread per element, N = 70 with 2 blocks of 64 threads.
// Build and run on the simulated GPU:  build/warpsim run examples/vecadd.cu
#include <cstdio>

__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main()
{
    const int n = 70, threads = 64, blocks = (n + threads - 1) / threads;
    float ha[n], hb[n], hc[n];
    for (int i = 0; i < n; i++) { ha[i] = i; hb[i] = 2 * i; }
    float *a, *b, *c;
    cudaMalloc(&a, sizeof ha);
    cudaMalloc(&b, sizeof hb);
    cudaMalloc(&c, sizeof hc);
    cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
    vecAdd<<<blocks, threads>>>(a, b, c, n);
    cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += hc[i] != 3.0f * i;
    printf("vecAdd<<<%d, %d>>>: c[69] = %.0f, %s\n", blocks, threads, hc[69], bad ? "WRONG" : "all 70 correct");
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return bad != 0;
}
