// warpsim slow-corner benchmark (issue 13): many tiny blocks, where starting a block costs as much as running it.
// An 8 x 8 transpose of 8-thread blocks through warp shuffles (a lane gathers its column from the other lanes),
// launched several times. The result is checked.
// usage: tiny_blocks [LOG2_BLOCKS [LAUNCHES]]   (default 2^24 blocks of 8 threads, 6 launches)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(1); } } while (0)

// block b holds one 8 x 8 tile: thread t reads row t (8 bytes, one per column) and writes column t
__global__ void transpose8(const unsigned long long *in, unsigned long long *out)
{
    unsigned t = threadIdx.x;
    unsigned long long row = in[(size_t)blockIdx.x * 8 + t], col = 0;
    for (int j = 0; j < 8; j++) {
        unsigned long long r = __shfl_sync(0xffu, row, j, 8);   // row j
        col |= ((r >> (8 * t)) & 0xffull) << (8 * j);
    }
    out[(size_t)blockIdx.x * 8 + t] = col;
}

int main(int argc, char **argv)
{
    int lg = argc > 1 ? atoi(argv[1]) : 24, launches = argc > 2 ? atoi(argv[2]) : 6;
    if (lg < 0 || lg > 26 || launches < 1) { fprintf(stderr, "usage: tiny_blocks [LOG2_BLOCKS [LAUNCHES]]\n"); return 2; }
    size_t nb = (size_t)1 << lg, n = nb * 8;
    std::vector<unsigned long long> h(n), r(n);
    for (size_t i = 0; i < n; i++) h[i] = (i * 0x9e3779b97f4a7c15ull) ^ (i >> 3);
    unsigned long long *a, *b;
    CHECK(cudaMalloc(&a, n * 8)); CHECK(cudaMalloc(&b, n * 8));
    CHECK(cudaMemcpy(a, h.data(), n * 8, cudaMemcpyHostToDevice));
    for (int k = 0; k < launches; k++) {
        // even launches a -> b, odd ones b -> a: an even number of launches leaves a as it was
        transpose8<<<(unsigned)nb, 8>>>(k % 2 ? b : a, k % 2 ? a : b);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaMemcpy(r.data(), launches % 2 ? b : a, n * 8, cudaMemcpyDeviceToHost));
    for (size_t blk = 0; blk < nb; blk++)
        for (int t = 0; t < 8; t++) {
            unsigned long long want = 0;
            for (int j = 0; j < 8; j++) {
                unsigned long long v = launches % 2 ? (h[blk * 8 + j] >> (8 * t)) & 0xff : (h[blk * 8 + t] >> (8 * j)) & 0xff;
                want |= v << (8 * j);
            }
            if (r[blk * 8 + t] != want) { printf("FAIL block %zu thread %d\n", blk, t); return 1; }
        }
    printf("tiny_blocks: all results correct\n");
    return 0;
}
