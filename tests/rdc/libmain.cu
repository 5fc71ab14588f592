// libmain.cu - warpsim test (issue 11 item 3): a program linked with a device library made by nvcc -lib
// (tests/rdc/veclib.cu): its kernel calls the library's device function, reads the library's __device__ counter
// (cudaMemcpyFromSymbol through the extern declaration), shares a template helper with it, and calls the library's
// host launcher of its own kernel. Checked against a CPU reference.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "veclib.h"

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)

// y[i] = clamp(lib_poly(x[i]), 0, 50).
__global__ void eval(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = clamp_to(lib_poly(x[i]), 0.0f, 50.0f);
}

int main()
{
    const int n = 3000;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; i++) x[i] = (float)(i % 97) * 0.25f - 6.0f;
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    eval<<<(n + 255) / 256, 256>>>(dx, dy, n);
    CHECK(cudaGetLastError());
    lib_scale(dy, n, 3.0f);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    unsigned calls = 0;
    CHECK(cudaMemcpyFromSymbol(&calls, lib_calls, sizeof calls));
    int bad = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        float p = 1.0f + x[i] * 0.5f + x[i] * x[i] * 0.25f;
        float want = fminf(fmaxf(p, 0.0f), 50.0f) * 3.0f;
        want = fminf(fmaxf(want, -100.0f), 100.0f);
        bad += y[i] != want;
        sum += y[i];
    }
    printf("device library: %d of %d results wrong, sum %.2f, lib_poly ran %u times\n", bad, n, sum, calls);
    if (bad || calls != (unsigned)n) { printf("FAIL rdc_library\n"); return 1; }
    printf("PASS rdc_library\n");
    return 0;
}
