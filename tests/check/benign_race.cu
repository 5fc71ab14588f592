// warpsim check test: benign races. Threads of many blocks set one "found" flag to 1 with plain stores (a
// write-write race in which every write stores 1), and a frontier kernel, as a BFS does, writes a level into a
// word that already holds it while threads of another block read it (a read-write race whose write changes
// nothing). Both are reported as benign-race warnings, not errors; --check-benign-races=off hides them.
#include <cstdio>

__global__ void find_key(const int *data, int n, int key, int *found)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && data[i] == key) *found = 1;              // @found
}

__global__ void frontier(int *level, int n, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x == 0) {
        if (i < n) level[i] = d;                          // @write (level[i] is d already)
    } else if (i - blockDim.x < n) {
        int seen = level[i - blockDim.x];                 // @read
        if (seen != d) level[i] = -1;
    }
}

int main()
{
    const int n = 1024, key = 7;
    int h[n], *data, *found, *level, hf = 0;
    for (int i = 0; i < n; i++) h[i] = i % 64 == 3 ? key : i % 5;
    cudaMalloc(&data, sizeof h);
    cudaMalloc(&found, 4);
    cudaMalloc(&level, 2 * 128 * 4);
    cudaMemcpy(data, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(found, 0, 4);
    find_key<<<n / 128, 128>>>(data, n, key, found);
    cudaMemcpy(&hf, found, 4, cudaMemcpyDeviceToHost);
    int lv[256];
    for (int i = 0; i < 256; i++) lv[i] = 2;
    cudaMemcpy(level, lv, sizeof lv, cudaMemcpyHostToDevice);
    frontier<<<2, 128>>>(level, 128, 2);
    cudaMemcpy(lv, level, sizeof lv, cudaMemcpyDeviceToHost);
    int ok = hf == 1;
    for (int i = 0; i < 256; i++) ok &= lv[i] == 2;
    printf("benign_race: found = %d, levels %s\n", hf, ok ? "unchanged" : "CHANGED");
    cudaFree(data); cudaFree(found); cudaFree(level);
    return ok ? 0 : 1;
}
