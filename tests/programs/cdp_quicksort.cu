// warpsim test: dynamic parallelism (CDP2, issue 11 item 4): a recursive quicksort whose kernel launches itself
// on both halves of its partition with cudaStreamFireAndForget (the left half) and cudaStreamTailLaunch (the right
// half), down to segments that one thread insertion-sorts; checked against std::sort. The number of grids is a
// property of the input alone: an H200 printed the same lines (4096 keys: 297 grids, deepest nesting 13; 1024
// keys: 65 grids, deepest nesting 9).
// ARGS: 4096 7
// TIMING_ARGS: 512 7
// NVCCFLAGS: -rdc=true -lcudadevrt
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)

#define LEAF 48          /* segments this short are insertion-sorted by one thread */
#define MAX_DEPTH 20     /* deeper than this, insertion sort too (CUDA nests at most 24 grids) */

struct stats { unsigned grids, max_depth, launch_errors, last_error; };

// One thread sorts keys[lo, hi) by insertion.
__device__ void insertion_sort(unsigned *keys, int lo, int hi)
{
    for (int i = lo + 1; i < hi; i++) {
        unsigned v = keys[i];
        int j = i - 1;
        while (j >= lo && keys[j] > v) { keys[j + 1] = keys[j]; j--; }
        keys[j + 1] = v;
    }
}

// Median of three keys.
__device__ unsigned median3(unsigned a, unsigned b, unsigned c)
{
    return a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
}

// Sort keys[lo, hi): partition around a median-of-three pivot (Hoare), then launch a grid per half.
__global__ void quicksort(unsigned *keys, int lo, int hi, int depth, stats *st)
{
    if (threadIdx.x != 0) return;
    atomicAdd(&st->grids, 1u);
    atomicMax(&st->max_depth, (unsigned)depth);
    if (hi - lo <= LEAF || depth >= MAX_DEPTH) { insertion_sort(keys, lo, hi); return; }
    unsigned pivot = median3(keys[lo], keys[lo + (hi - lo) / 2], keys[hi - 1]);
    int i = lo - 1, j = hi;
    for (;;) {
        do i++; while (keys[i] < pivot);
        do j--; while (keys[j] > pivot);
        if (i >= j) break;
        unsigned t = keys[i]; keys[i] = keys[j]; keys[j] = t;
    }
    int mid = j + 1;   /* [lo, mid) <= pivot <= [mid, hi) */
    quicksort<<<1, 32, 0, cudaStreamFireAndForget>>>(keys, lo, mid, depth + 1, st);
    cudaError_t e1 = cudaGetLastError();
    quicksort<<<1, 32, 0, cudaStreamTailLaunch>>>(keys, mid, hi, depth + 1, st);
    cudaError_t e2 = cudaGetLastError();
    if (e1 != cudaSuccess || e2 != cudaSuccess) {
        atomicAdd(&st->launch_errors, 1u);
        st->last_error = e1 != cudaSuccess ? e1 : e2;
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    unsigned seed = argc > 2 ? (unsigned)atoi(argv[2]) : 7;
    std::vector<unsigned> h(n);
    for (int i = 0; i < n; i++) { seed = seed * 1664525u + 1013904223u; h[i] = (seed >> 8) % 100000u; }
    unsigned *d;
    stats *st;
    CHECK(cudaMalloc(&d, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&st, sizeof(stats)));
    CHECK(cudaMemset(st, 0, sizeof(stats)));
    CHECK(cudaMemcpy(d, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    quicksort<<<1, 32>>>(d, 0, n, 0, st);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> got(n);
    stats s;
    CHECK(cudaMemcpy(got.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&s, st, sizeof s, cudaMemcpyDeviceToHost));
    std::sort(h.begin(), h.end());
    int bad = 0;
    for (int i = 0; i < n; i++) bad += got[i] != h[i];
    printf("quicksort of %d keys: %u grids, deepest nesting %u, %d keys out of place, %u launch errors\n", n, s.grids,
           s.max_depth, bad, s.launch_errors);
    if (bad || s.launch_errors) { printf("FAIL cdp_quicksort (last device error %u)\n", s.last_error); return 1; }
    printf("PASS cdp_quicksort\n");
    return 0;
}
