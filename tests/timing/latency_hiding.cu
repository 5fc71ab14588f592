// warpsim timing test program: the seed's LD -> ADD -> STORE warps on the teaching SM. One block per SM with W warps
// (W = argv[1]) on B SMs (argv[4], default all); each thread loads, does F dependent adds (argv[2]) and stores,
// for ITER elements (argv[3]).
#include <cstdio>
#include <cstdlib>

__global__ void ld_add_st(const float *x, float *y, int f, int iters)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
    for (int k = 0; k < iters; k++) {
        int i = k * n + t;
        float v = x[i];
        for (int j = 0; j < f; j++) v = v + 1.0f;
        y[i] = v;
    }
}

int main(int argc, char **argv)
{
    int warps = argc > 1 ? atoi(argv[1]) : 1, f = argc > 2 ? atoi(argv[2]) : 1, iters = argc > 3 ? atoi(argv[3]) : 16;
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    if (argc > 4) sms = atoi(argv[4]);
    int n = sms * warps * 32 * iters;
    float *x, *y;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&y, n * sizeof(float));
    cudaMemset(x, 0, n * sizeof(float));
    ld_add_st<<<sms, warps * 32>>>(x, y, f, iters);
    float h = -1;
    cudaMemcpy(&h, y + n - 1, sizeof h, cudaMemcpyDeviceToHost);
    if (h != (float)f) { printf("FAIL y = %f, expected %d\n", h, f); return 1; }
    printf("ok: %d SMs x %d warps, %d adds per load\n", sms, warps, f);
    return 0;
}
