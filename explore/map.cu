// map.cu - `warpsim explore map`: the seed's one-thread-per-element vector add, N = 70 with 64 threads per
// block. Every thread records who it is (block, thread, warp, lane, the SM its block runs on) and the element
// its index formula gives it, so the explorer can show where element i lives. Usage: map [n=70] [threads=64]
#include <cstdio>
#include <cstdlib>
#include <cstring>

// One record per launched thread.
struct who {
    int block, thread, warp, lane, sm, index, active;
};

__global__ void vecAdd(const float *a, const float *b, float *c, int n, who *rec)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;   // the element this thread owns
    unsigned lane, sm;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm("mov.u32 %0, %%smid;" : "=r"(sm));
    who w = { (int)blockIdx.x, (int)threadIdx.x, (int)(threadIdx.x / warpSize), (int)lane, (int)sm, i, i < n };
    rec[i] = w;                                       // i also numbers the launched threads
    if (i < n) c[i] = a[i] + b[i];                    // the guard: surplus threads do nothing
}

// Value of "key=value" in argv, or def.
static int arg(int argc, char **argv, const char *key, int def)
{
    size_t k = strlen(key);
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], key, k) && argv[i][k] == '=') return atoi(argv[i] + k + 1);
    return def;
}

int main(int argc, char **argv)
{
    int n = arg(argc, argv, "n", 70), threads = arg(argc, argv, "threads", 64);
    if (n < 1 || n > 4096 || threads < 1 || threads > 1024) {
        fprintf(stderr, "map: n must be 1-4096 and threads 1-1024\n");
        return 2;
    }
    int blocks = (n + threads - 1) / threads, total = blocks * threads;
    float *ha = (float *)malloc(n * sizeof(float)), *hb = (float *)malloc(n * sizeof(float));
    float *hc = (float *)malloc(n * sizeof(float));
    who *hr = (who *)malloc(total * sizeof(who));
    for (int i = 0; i < n; i++) { ha[i] = (float)i; hb[i] = 2.0f * i; }
    float *a, *b, *c;
    who *rec;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMalloc(&rec, total * sizeof(who));
    cudaMemcpy(a, ha, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, n * sizeof(float), cudaMemcpyHostToDevice);
    vecAdd<<<blocks, threads>>>(a, b, c, n, rec);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(hc, c, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hr, rec, total * sizeof(who), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; i++) wrong += hc[i] != 3.0f * i;
    printf("{\"n\": %d, \"threads\": %d, \"blocks\": %d, \"correct\": %s, \"error\": \"%s\",\n \"rec\": [", n,
           threads, blocks, wrong || e ? "false" : "true", cudaGetErrorName(e));
    for (int t = 0; t < total; t++)
        printf("%s[%d, %d, %d, %d, %d, %d, %d]", t ? ", " : "", hr[t].block, hr[t].thread, hr[t].warp, hr[t].lane,
               hr[t].sm, hr[t].index, hr[t].active);
    printf("]}\n");
    free(ha); free(hb); free(hc); free(hr);
    return wrong || e ? 1 : 0;
}
