// link_b.cu - second unit of the JIT-linker test: calls poly() of link_a.cu, resolved only by linking. Compiled
// with nvcc -fatbin -rdc=true (PTX kept) by tests/cli/driver_api.sh.
extern "C" __device__ float poly(float x);

// y[i] = poly(x[i])
extern "C" __global__ void apply_poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = poly(x[i]);
}
