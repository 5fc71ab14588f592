// many_blocks.cu - one launch of many blocks (default 100,000 of 128 threads): y = a * x + y, checked on the host.
// tests/cli/view_programs.sh runs it in timing mode with --view to show that the view's memory stays bounded.
// Usage: many_blocks [BLOCKS]
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void axpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv)
{
    int blocks = argc > 1 ? atoi(argv[1]) : 100000;
    if (blocks < 1) { fprintf(stderr, "many_blocks: BLOCKS must be positive\n"); return 2; }
    int n = blocks * 128 - 5;   // the last block has 5 threads past the end
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; i++) { x[i] = (float)(i % 97); y[i] = (float)(i % 13) - 6.0f; }
    float *dx, *dy;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    axpy<<<blocks, 128>>>(n, 2.0f, dx, dy);
    cudaError_t e = cudaDeviceSynchronize();
    std::vector<float> out(n);
    cudaMemcpy(out.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += out[i] != 2.0f * x[i] + y[i];
    if (e != cudaSuccess || bad) {
        printf("FAIL many_blocks: %s, %d wrong elements\n", cudaGetErrorName(e), bad);
        return 1;
    }
    printf("PASS many_blocks: %d blocks\n", blocks);
    return 0;
}
