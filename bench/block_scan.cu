// warpsim slow-corner benchmark (issue 13): barrier-heavy blocks of 1,024 threads, as CUB's BlockScan runs them. An
// inclusive scan of each block's 1,024 integers in shared memory (Hillis-Steele: ten steps, two barriers each),
// launched several times. The result is checked.
// usage: block_scan [BLOCKS [LAUNCHES]]   (default 1,024 blocks, 8 launches)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

__global__ void block_scan(const int *in, int *out)
{
    __shared__ int s[1024];
    int t = threadIdx.x, i = blockIdx.x * 1024 + t;
    s[t] = in[i];
    __syncthreads();
    for (int o = 1; o < 1024; o <<= 1) {
        int v = t >= o ? s[t - o] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    out[i] = s[t];
}

int main(int argc, char **argv)
{
    int nb = argc > 1 ? atoi(argv[1]) : 1024, launches = argc > 2 ? atoi(argv[2]) : 8;
    if (nb < 1 || launches < 1) { fprintf(stderr, "usage: block_scan [BLOCKS [LAUNCHES]]\n"); return 2; }
    size_t n = (size_t)nb * 1024;
    std::vector<int> h(n), r(n);
    for (size_t i = 0; i < n; i++) h[i] = (int)(i % 7);
    int *a, *b;
    CHECK(cudaMalloc(&a, n * 4)); CHECK(cudaMalloc(&b, n * 4));
    CHECK(cudaMemcpy(a, h.data(), n * 4, cudaMemcpyHostToDevice));
    for (int k = 0; k < launches; k++) { block_scan<<<nb, 1024>>>(a, b); CHECK(cudaGetLastError()); }
    CHECK(cudaMemcpy(r.data(), b, n * 4, cudaMemcpyDeviceToHost));
    for (int blk = 0; blk < nb; blk++) {
        int acc = 0;
        for (int t = 0; t < 1024; t++) {
            acc += h[(size_t)blk * 1024 + t];
            if (r[(size_t)blk * 1024 + t] != acc) { printf("FAIL block %d thread %d\n", blk, t); return 1; }
        }
    }
    printf("block_scan: all results correct\n");
    return 0;
}
