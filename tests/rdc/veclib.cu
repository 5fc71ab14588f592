// veclib.cu - a device library (tests/rdc): a device function and a counter other units use, and a kernel with its
// host launcher.
#include "veclib.h"

__device__ unsigned lib_calls = 0;

// 1 + x/2 + x^2/4, counted.
__device__ float lib_poly(float x)
{
    atomicAdd(&lib_calls, 1u);
    return 1.0f + x * 0.5f + x * x * 0.25f;
}

// d[i] = clamp(d[i] * s, -100, 100).
__global__ void lib_scale_kernel(float *d, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] = clamp_to(d[i] * s, -100.0f, 100.0f);
}

// Launch lib_scale_kernel.
void lib_scale(float *d, int n, float s) { lib_scale_kernel<<<(n + 255) / 256, 256>>>(d, n, s); }
