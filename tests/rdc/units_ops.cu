// units_ops.cu - the second translation unit of tests/rdc's two-unit program (nvcc -rdc=true): device functions,
// a __device__ variable and a __constant__ table the other unit uses through extern declarations, a table of device
// function pointers, a kernel the other unit launches from the device, and a host function that writes the variable through
// cudaMemcpyToSymbol from this side.
#include "units.h"

__device__ int g_bias = 0;                   /* set by the host from both units */
__constant__ int c_weights[4] = { 3, 5, 7, 11 };

// A unit-private helper: the other unit has its own function of the same name.
static __device__ int twist(int x) { return x * 2 + 1; }

// The operations the function-pointer table holds.
__device__ int op_add(int a, int b) { return a + b + twist(0); }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_xor(int a, int b) { return (a ^ b) + g_bias; }

__device__ binop_t g_ops[NOPS] = { op_add, op_mul, op_xor };

// Weighted sum of x's digits in base 4 (called from the other unit).
__device__ int weigh(int x)
{
    int s = 0;
    for (int i = 0; i < 4; i++) { s += c_weights[i] * (x & 3); x >>= 2; }
    return twist(s);
}

// out[i] = v + weigh(i) (a kernel the other unit launches on the device).
__global__ void fill_kernel(int *out, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = v + weigh(i);
}

// Set g_bias from this unit's host code.
int set_bias_here(int v) { return cudaMemcpyToSymbol(g_bias, &v, sizeof v) == cudaSuccess; }

// Host reference of weigh.
int weigh_ref(int x)
{
    static const int w[4] = { 3, 5, 7, 11 };
    int s = 0;
    for (int i = 0; i < 4; i++) { s += w[i] * (x & 3); x >>= 2; }
    return s * 2 + 1;
}
