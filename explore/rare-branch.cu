// rare-branch.cu - `warpsim explore rare-branch`: a branch that each thread takes with probability p. Element i
// runs on lane i % 32 of warp i / 32; a warp must issue the rare (expensive) path when any of its 32 lanes takes
// it, and it diverges when some lanes take it and others do not. The kernel counts both kinds of warps itself
// (__ballot_sync) and writes down each warp's kind, once for random data and once for the same data grouped so that the taking elements are
// neighbours. Usage: rare-branch [p=0.01] [warps=4096] [seed=1]
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void rare(const unsigned char *take, float *out, unsigned *counts, unsigned char *kind, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool t = i < n && take[i];
    unsigned vote = __ballot_sync(0xffffffffu, t);        // one bit per lane of this warp
    if ((threadIdx.x & 31) == 0) {
        if (vote) atomicAdd(&counts[0], 1u);              // the warp issues the rare path
        if (vote && vote != 0xffffffffu) atomicAdd(&counts[1], 1u);   // and diverges
        kind[i / 32] = !vote ? 0 : vote == 0xffffffffu ? 2 : 1;       // none / some lanes / all lanes take it
    }
    float v = (float)(i & 255);
    if (t) {                                              // the rare, expensive path
        for (int k = 0; k < 40; k++) v = v * 1.0001f + 0.5f;
    } else {                                              // the common, cheap path
        v = v + 1.0f;
    }
    if (i < n) out[i] = v;
}

// Next value of a 64-bit linear congruential generator, as a double in [0, 1).
static double next_uniform(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv)
{
    double p = 0.01;
    int warps = 4096;
    unsigned long long seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "p=", 2)) p = atof(argv[i] + 2);
        else if (!strncmp(argv[i], "warps=", 6)) warps = atoi(argv[i] + 6);
        else if (!strncmp(argv[i], "seed=", 5)) seed = strtoull(argv[i] + 5, NULL, 0);
    }
    if (p < 0 || p > 1 || warps < 1 || warps > 65536) {
        fprintf(stderr, "rare-branch: p must be 0-1 and warps 1-65536\n");
        return 2;
    }
    int n = warps * 32, taking = 0;
    unsigned char *h = (unsigned char *)malloc(n), *g = (unsigned char *)malloc(n);
    unsigned long long s = seed;
    for (int i = 0; i < n; i++) taking += h[i] = next_uniform(&s) < p;
    for (int i = 0; i < n; i++) g[i] = i < taking;          // grouped: the same count, all at the front
    unsigned char *take;
    float *out;
    unsigned *counts, hc[2][2];
    unsigned char *kind, *hk[2] = { (unsigned char *)malloc(warps), (unsigned char *)malloc(warps) };
    cudaMalloc(&kind, warps);
    cudaMalloc(&take, n);
    cudaMalloc(&out, n * sizeof(float));
    cudaMalloc(&counts, 2 * sizeof(unsigned));
    const unsigned char *layouts[2] = { h, g };
    cudaError_t e = cudaSuccess;
    for (int k = 0; k < 2 && e == cudaSuccess; k++) {
        cudaMemcpy(take, layouts[k], n, cudaMemcpyHostToDevice);
        cudaMemset(counts, 0, 2 * sizeof(unsigned));
        rare<<<(n + 255) / 256, 256>>>(take, out, counts, kind, n);
        e = cudaDeviceSynchronize();
        cudaMemcpy(hc[k], counts, sizeof hc[k], cudaMemcpyDeviceToHost);
        cudaMemcpy(hk[k], kind, warps, cudaMemcpyDeviceToHost);
    }
    printf("{\"p\": %.6g, \"warps\": %d, \"elements\": %d, \"taking\": %d, \"seed\": %llu, \"error\": \"%s\", "
           "\"random\": {\"issuing\": %u, \"divergent\": %u}, \"grouped\": {\"issuing\": %u, \"divergent\": %u},\n",
           p, warps, n, taking, seed, cudaGetErrorName(e), hc[0][0], hc[0][1], hc[1][0], hc[1][1]);
    for (int k = 0; k < 2; k++) {                         // one digit per warp: 0 none, 1 diverges, 2 all lanes
        printf(" \"%s_warps\": \"", k ? "grouped" : "random");
        for (int w = 0; w < warps; w++) putchar('0' + hk[k][w]);
        printf("\"%s", k ? "}\n" : ",\n");
    }
    free(h); free(g); free(hk[0]); free(hk[1]);
    return e != cudaSuccess;
}
