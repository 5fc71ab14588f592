// kernels.cu - device code of the driver-API tests (tests/driver/*.c): compiled at test time with nvcc -ptx,
// nvcc -fatbin and nvcc -cubin by tests/cli/driver_api.sh. extern "C" keeps the names unmangled.
__device__ float scale_factor = 2.0f;      // read by vadd_scaled; set through cuModuleGetGlobal
__constant__ int bias[4] = {1, 2, 3, 4};   // read by add_bias

// c[i] = a[i] + b[i]
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

// c[i] = scale_factor * (a[i] + b[i])
extern "C" __global__ void vadd_scaled(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = scale_factor * (a[i] + b[i]);
}

// mixed parameter sizes and alignments, for the packed `extra` buffer: out[i] = x * i + y + z + bias[i % 4]
extern "C" __global__ void add_bias(char tag, double x, int *out, short y, long long z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (int)(x * i) + y + (int)z + bias[i % 4] + (tag == 'k' ? 0 : 1000000);
}

// per-block sum of squares in shared memory (dynamic size given at launch)
extern "C" __global__ void block_sumsq(const int *in, long long *out, int n)
{
    extern __shared__ long long part[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = i < n ? (long long)in[i] * in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}
