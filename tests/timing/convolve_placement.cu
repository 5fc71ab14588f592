// warpsim timing test program: the seed's convolve kernels (000/004) placed on the fictitious two-core GPU.
// argv[1]: 1 = version 1 (128 threads, no shared array), 2 = version 2 (128 threads + 520-byte support array),
//          3 = the 256-thread preset with a 1,032-byte support array.
#include <cstdio>
#include <cstdlib>

template <int T>
__global__ void convolve_v1(int N, const float *input, float *output)
{
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    float result = 0.0f;
    for (int i = 0; i < 3; i++) result += input[index + i];
    output[index] = result / 3.f;
}

template <int T>
__global__ void convolve_v2(int N, const float *input, float *output)
{
    __shared__ float support[T + 2];
    int index = blockIdx.x * blockDim.x + threadIdx.x;
    support[threadIdx.x] = input[index];
    if (threadIdx.x < 2) support[T + threadIdx.x] = input[index + T];
    __syncthreads();
    float result = 0.0f;
    for (int i = 0; i < 3; i++) result += support[threadIdx.x + i];
    output[index] = result / 3.f;
}

int main(int argc, char **argv)
{
    int version = argc > 1 ? atoi(argv[1]) : 1;
    const int N = 128 * 64;
    float *in, *out;
    cudaMalloc(&in, (N + 2) * sizeof(float));
    cudaMalloc(&out, N * sizeof(float));
    cudaMemset(in, 0, (N + 2) * sizeof(float));
    if (version == 1) convolve_v1<128><<<N / 128, 128>>>(N, in, out);
    else if (version == 2) convolve_v2<128><<<N / 128, 128>>>(N, in, out);
    else convolve_v2<256><<<N / 256, 256>>>(N, in, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("version %d: %s\n", version, cudaGetErrorString(e));
    return e != cudaSuccess;
}
