// warpsim check test: a tile loaded with asynchronous copies (cp.async through __pipeline_memcpy_async) and read
// before the copies' group is waited for. The __syncthreads() does not help: the copy lands when the group
// completes. racecheck reports the read; the fixed kernel (with __pipeline_wait_prior(0)) reports nothing.
// NVCCFLAGS: -arch=sm_90
#include <cstdio>
#include <cuda_pipeline.h>

template <bool WAIT>
__global__ void rotate_tile(const float *in, float *out)
{
    __shared__ float tile[128];
    int t = threadIdx.x, g = blockIdx.x * 128 + t;
    __pipeline_memcpy_async(&tile[t], &in[g], sizeof(float));   // @copy
    __pipeline_commit();
    if (WAIT) __pipeline_wait_prior(0);
    __syncthreads();
    out[g] = tile[(t + 1) % 128];                                 // @read
}

int main()
{
    const int n = 512;
    float h[n], *in, *out;
    for (int i = 0; i < n; i++) h[i] = (float)i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    rotate_tile<true><<<n / 128, 128>>>(in, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= h[i] == (float)(i / 128 * 128 + (i % 128 + 1) % 128);
    rotate_tile<false><<<n / 128, 128>>>(in, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    int ok2 = 1;
    for (int i = 0; i < n; i++) ok2 &= h[i] == (float)(i / 128 * 128 + (i % 128 + 1) % 128);
    printf("cp_async_nowait: with the wait %s, without it %s\n", ok ? "right" : "WRONG", ok2 ? "right" : "wrong");
    cudaFree(in);
    cudaFree(out);
    return 0;
}
