// units_main.cu - warpsim test (issue 11 item 3, separate compilation): a kernel in this unit calls a device
// function of the other unit (units_ops.cu), reads and writes its __device__ variable (set from both units' host
// code with cudaMemcpyToSymbol and read back from this side), and calls through its table of device function
// pointers; each unit has a private (static) function of the same name; a kernel here launches the other unit's
// kernel from the device (CDP2). Checked against a CPU reference.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "units.h"

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)

// This unit's own helper of the same name as the other unit's.
static __device__ int twist(int x) { return x - 7; }

// out[i] = twist(weigh(i)) + op_{i % NOPS}(i, i + 1); the last thread bumps g_bias.
__global__ void apply(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    binop_t f = g_ops[i % NOPS];
    out[i] = twist(weigh(i)) + f(i, i + 1);
    if (i == n - 1) atomicAdd(&g_bias, 1000);
}

// Launch the other unit's kernel from the device.
__global__ void launch_fill(int *out, int n)
{
    fill_kernel<<<(n + 127) / 128, 128>>>(out, n, 42);
    if (cudaGetLastError() != cudaSuccess) out[0] = -1;
}

int main()
{
    const int n = 1000;
    int *d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    int bias = 5;
    CHECK(cudaMemcpyToSymbol(g_bias, &bias, sizeof bias));   /* from this unit */
    apply<<<(n + 127) / 128, 128>>>(d, n);
    CHECK(cudaGetLastError());
    std::vector<int> a(n), b(n);
    CHECK(cudaMemcpy(a.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
    if (!set_bias_here(-3)) { printf("FAIL: cudaMemcpyToSymbol from the other unit\n"); return 1; }
    apply<<<(n + 127) / 128, 128>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(b.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> c(n);
    launch_fill<<<1, 1>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(c.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
    int final_bias = 0;
    CHECK(cudaMemcpyFromSymbol(&final_bias, g_bias, sizeof final_bias));
    int bad = 0;
    long long sum = 0;
    for (int pass = 0; pass < 2; pass++) {
        int gb = pass == 0 ? 5 : -3;
        for (int i = 0; i < n; i++) {
            int ops[NOPS] = { i + (i + 1) + 1, i * (i + 1), (i ^ (i + 1)) + gb };
            int want = weigh_ref(i) - 7 + ops[i % NOPS];
            int got = pass == 0 ? a[i] : b[i];
            bad += got != want;
            sum += got;
        }
    }
    for (int i = 0; i < n; i++) bad += c[i] != 42 + weigh_ref(i);
    printf("two units: %d of %d results wrong, checksum %lld, g_bias after the second launch %d\n", bad, 3 * n, sum,
           final_bias);
    if (bad || final_bias != 997) { printf("FAIL rdc_units\n"); return 1; }
    printf("PASS rdc_units\n");
    return 0;
}
