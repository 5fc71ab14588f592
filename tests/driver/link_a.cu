// link_a.cu - first unit of the JIT-linker test (tests/driver/drv_link.c): defines a device function that
// link_b.cu calls across units. Compiled with nvcc -ptx -rdc=true by tests/cli/driver_api.sh.
extern "C" __device__ float poly(float x) { return 3.0f * x * x - x + 0.5f; }

// x[i] *= k
extern "C" __global__ void scale(float *x, float k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= k;
}
