// warpsim timing test program: the host side of the timing model, read through cudaEventElapsedTime.
// Prints "name value" lines: pinned vs pageable copy time, 100 launches vs a graph of 100 kernels,
// a copy and a kernel on two streams (overlapped) vs one stream (serialized).
#include <cstdio>
#include <cstdlib>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 64; k++) if (i < n) x[i] = x[i] * 1.0001f + 0.5f;
}

static float between(cudaEvent_t a, cudaEvent_t b) { float ms = 0; cudaEventElapsedTime(&ms, a, b); return ms; }

int main()
{
    const size_t bytes = 32u << 20;
    const int n = 1 << 20;
    float *d, *d2, *pinned, *pageable = (float *)malloc(bytes);
    cudaMalloc(&d, bytes);
    cudaMalloc(&d2, n * sizeof(float));
    cudaMallocHost(&pinned, bytes);
    cudaEvent_t e0, e1, e2, e3;
    cudaEventCreate(&e0); cudaEventCreate(&e1); cudaEventCreate(&e2); cudaEventCreate(&e3);

    cudaEventRecord(e0);
    cudaMemcpy(d, pinned, bytes, cudaMemcpyHostToDevice);
    cudaEventRecord(e1);
    cudaMemcpy(d, pageable, bytes, cudaMemcpyHostToDevice);
    cudaEventRecord(e2);
    cudaEventSynchronize(e2);
    printf("pinned_ms %f\npageable_ms %f\n", between(e0, e1), between(e1, e2));

    cudaStream_t s, s2;
    cudaStreamCreate(&s);
    cudaStreamCreate(&s2);
    cudaEventRecord(e0, s);
    for (int i = 0; i < 100; i++) scale<<<1, 32, 0, s>>>(d2, 32);
    cudaEventRecord(e1, s);
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (int i = 0; i < 100; i++) scale<<<1, 32, 0, s>>>(d2, 32);
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&ge, g, 0);
    cudaEventRecord(e2, s);
    cudaGraphLaunch(ge, s);
    cudaEventRecord(e3, s);
    cudaStreamSynchronize(s);
    printf("launches_us %f\ngraph_us %f\n", 1000 * between(e0, e1), 1000 * between(e2, e3));

    /* serialized: copy then kernel on one stream; overlapped: copy on s, kernel on s2 */
    const size_t small = 256u << 10;   /* a copy about as long as the kernel */
    cudaEventRecord(e0, s);
    cudaMemcpyAsync(d, pinned, small, cudaMemcpyHostToDevice, s);
    scale<<<n / 256, 256, 0, s>>>(d2, n);
    cudaEventRecord(e1, s);
    cudaStreamSynchronize(s);
    float serial = between(e0, e1);
    cudaEventRecord(e2, s);
    cudaMemcpyAsync(d, pinned, small, cudaMemcpyHostToDevice, s);
    scale<<<n / 256, 256, 0, s2>>>(d2, n);
    cudaEvent_t done2;
    cudaEventCreate(&done2);
    cudaEventRecord(done2, s2);
    cudaStreamWaitEvent(s, done2, 0);
    cudaEventRecord(e3, s);
    cudaStreamSynchronize(s);
    printf("serial_ms %f\noverlapped_ms %f\n", serial, between(e2, e3));
    cudaError_t e = cudaGetLastError();
    printf("status %s\n", cudaGetErrorName(e));
    free(pageable);
    return e != cudaSuccess;
}
