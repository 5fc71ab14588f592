// latency.cu - `warpsim explore latency`: the seed's LD -> ADD -> STORE warps. Every warp of one block computes
// its addresses, waits at a barrier so that all warps start the three instructions together, then loads a[i]
// (LD), adds 1 (ADD, which needs the loaded value) and stores c[i] (STORE, which needs the sum). One launch per
// warp count; the explorer reads each launch's issue timeline from the run report's view data.
// Usage: latency WARPS... (e.g. latency 1 4)
#include <cstdio>
#include <cstdlib>

__global__ void unit(const float *a, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float *pa = a + i;
    float *pc = c + i;
    __syncthreads();          // every warp has its addresses: the three instructions below are all that is left
    float v = *pa;            // LD
    v = v + 1.0f;             // ADD: waits for the load's value
    *pc = v;                  // STORE: waits for the ADD's result
}

int main(int argc, char **argv)
{
    float *a, *c;
    cudaMalloc(&a, 1024 * sizeof(float));
    cudaMalloc(&c, 1024 * sizeof(float));
    cudaMemset(a, 0, 1024 * sizeof(float));
    printf("{\"launches\": [");
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        int warps = atoi(argv[i]);
        if (warps < 1 || warps > 32) {
            fprintf(stderr, "latency: a warp count must be 1-32, not '%s'\n", argv[i]);
            return 2;
        }
        unit<<<1, 32 * warps>>>(a, c);
        cudaError_t e = cudaDeviceSynchronize();
        float h[1024];
        cudaMemcpy(h, c, 32 * warps * sizeof(float), cudaMemcpyDeviceToHost);
        int wrong = 0;
        for (int t = 0; t < 32 * warps; t++) wrong += h[t] != 1.0f;
        bad |= wrong || e;
        printf("%s{\"warps\": %d, \"correct\": %s, \"error\": \"%s\"}", i > 1 ? ", " : "", warps,
               wrong ? "false" : "true", cudaGetErrorName(e));
        cudaMemset(c, 0, 1024 * sizeof(float));
    }
    printf("]}\n");
    return bad;
}
