// warpsim check test: an off-by-one (`if (i > n) return;`) lets thread n write one int past a 3,072-byte
// allocation that another allocation follows directly. Without guard zones the write lands in the neighbour and
// nothing is reported; under --check every allocation has a guard zone after it, so memcheck finds the write
// whatever the layout (compute-sanitizer finds it only when nothing happens to be allocated right after).
#include <cstdio>

__global__ void fill(int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > n) return;                 // the bug: should be i >= n
    bins[i] = i;                       // @overflow
}

int main()
{
    const int n = 768;                 // 3,072 bytes: a multiple of 256, so the next allocation starts right after
    int *bins, *next;
    cudaMalloc(&bins, n * sizeof(int));
    cudaMalloc(&next, n * sizeof(int));
    cudaMemset(next, 0, n * sizeof(int));
    fill<<<(n + 1 + 127) / 128, 128>>>(bins, n);
    int first;
    cudaMemcpy(&first, next, sizeof first, cudaMemcpyDeviceToHost);
    printf("neighbour_overflow: next[0] = %d after the kernel (%s)\n", first, first ? "overwritten" : "untouched");
    cudaFree(bins);
    cudaFree(next);
    return 0;
}
