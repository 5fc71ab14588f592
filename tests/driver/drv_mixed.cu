// drv_mixed.cu - one program mixing the runtime and the driver API on one simulated device: memory from
// cudaMalloc used by cuMemcpyHtoD and by a cuLaunchKernel kernel, memory from cuMemAlloc used by cudaMemcpy and by
// a <<<>>> kernel, a cudaStream_t passed as a CUstream and the other way round, events of either API, the primary
// context as the runtime's context, pointer attributes, pinned memory, a host function, stream capture by the
// driver of runtime work, driver functions from cudaGetDriverEntryPointByVersion, a sticky fault. Built with nvcc -cudart shared ... -lcuda. Usage: drv_mixed KERNELS.ptx [N]
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) { const char *n_ = "?"; cuGetErrorName(r_, &n_); \
    fprintf(stderr, "FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, n_); exit(1); } } while (0)
#define RT(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); exit(1); } } while (0)
#define EXPECT(c) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

// x[i] = x[i] * k + 1, the program's own kernel (registered with the runtime)
__global__ void affine(float *x, float k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * k + 1.0f;
}

static int host_calls;
// a host function in stream order
static void CUDA_CB on_host(void *p) { host_calls += *(int *)p; }

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: drv_mixed KERNELS.ptx [N]\n"); return 2; }
    int n = argc > 2 ? atoi(argv[2]) : 50000;
    FILE *f = fopen(argv[1], "rb");
    if (!f) { fprintf(stderr, "FAIL cannot open %s\n", argv[1]); return 1; }
    std::vector<char> ptx(1 << 20);
    ptx.resize(fread(ptx.data(), 1, ptx.size() - 1, f));
    ptx.push_back(0);
    fclose(f);
    size_t bytes = (size_t)n * sizeof(float);
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; i++) { a[i] = (float)(i % 513); b[i] = (float)(i % 7) * 0.25f; }

    // the runtime brings the device up; the driver then sees the primary context as current
    float *ra = nullptr;
    RT(cudaMalloc(&ra, bytes));
    CK(cuInit(0));
    CUcontext cur = nullptr, primary = nullptr;
    CK(cuCtxGetCurrent(&cur));
    CK(cuDevicePrimaryCtxRetain(&primary, 0));
    EXPECT(cur == primary);

    // driver memory, runtime copies; runtime memory, driver copies
    CUdeviceptr db, dc;
    CK(cuMemAlloc(&db, bytes));
    CK(cuMemAlloc(&dc, bytes));
    CK(cuMemcpyHtoD((CUdeviceptr)ra, a.data(), bytes));
    RT(cudaMemcpy((void *)db, b.data(), bytes, cudaMemcpyHostToDevice));
    unsigned memtype = 0;
    CK(cuPointerGetAttribute(&memtype, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)ra));
    EXPECT(memtype == CU_MEMORYTYPE_DEVICE);
    cudaPointerAttributes pa;
    RT(cudaPointerGetAttributes(&pa, (void *)db));
    EXPECT(pa.type == cudaMemoryTypeDevice);

    // a driver-loaded kernel on a runtime stream, then the program's kernel on a driver stream
    CUmodule mod;
    CUfunction vadd;
    CK(cuModuleLoadData(&mod, ptx.data()));
    CK(cuModuleGetFunction(&vadd, mod, "vadd"));
    cudaStream_t rs;
    RT(cudaStreamCreate(&rs));
    CUstream ds;
    CK(cuStreamCreate(&ds, CU_STREAM_DEFAULT));
    CUdeviceptr da = (CUdeviceptr)ra;
    void *params[] = { &da, &db, &dc, &n };
    unsigned blocks = (unsigned)(n + 255) / 256;
    CUevent e0;
    cudaEvent_t e1;
    CK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    RT(cudaEventCreate(&e1));
    RT(cudaEventRecord((cudaEvent_t)e0, rs));
    CK(cuLaunchKernel(vadd, blocks, 1, 1, 256, 1, 1, 0, (CUstream)rs, params, nullptr));
    CK(cuEventRecord((CUevent)e1, (CUstream)rs));
    CK(cuStreamWaitEvent(ds, (CUevent)e1, 0));
    affine<<<blocks, 256, 0, (cudaStream_t)ds>>>((float *)dc, 2.0f, n);
    RT(cudaGetLastError());
    int inc = 5;
    CK(cuLaunchHostFunc(ds, on_host, &inc));
    RT(cudaStreamSynchronize((cudaStream_t)ds));
    CK(cuEventSynchronize((CUevent)e1));
    float ms = -1.0f;
    RT(cudaEventElapsedTime(&ms, (cudaEvent_t)e0, e1));
    EXPECT(ms >= 0.0f);
    EXPECT(host_calls == 5);
    // pinned memory from the driver, an async copy from the runtime
    float *pinned = nullptr;
    CK(cuMemHostAlloc((void **)&pinned, bytes, CU_MEMHOSTALLOC_PORTABLE));
    RT(cudaMemcpyAsync(pinned, (void *)dc, bytes, cudaMemcpyDeviceToHost, rs));
    RT(cudaStreamSynchronize(rs));
    for (int i = 0; i < n; i++) {
        float want = (a[i] + b[i]) * 2.0f + 1.0f;
        if (pinned[i] != want) { fprintf(stderr, "FAIL element %d: %g, want %g\n", i, pinned[i], want); return 1; }
    }

    // the driver captures runtime and driver work on a runtime stream into a graph and launches it twice
    CK(cuStreamBeginCapture((CUstream)rs, CU_STREAM_CAPTURE_MODE_GLOBAL));
    affine<<<blocks, 256, 0, rs>>>(ra, 1.0f, n);                           // ra += 1
    CK(cuLaunchKernel(vadd, blocks, 1, 1, 256, 1, 1, 0, (CUstream)rs, params, nullptr));   // dc = ra + db
    CUgraph g;
    CUgraphExec ge;
    CK(cuStreamEndCapture((CUstream)rs, &g));
    CK(cuGraphInstantiateWithFlags(&ge, g, 0));
    CK(cuGraphLaunch(ge, (CUstream)rs));
    CK(cuGraphLaunch(ge, (CUstream)rs));
    CK(cuStreamSynchronize((CUstream)rs));
    CK(cuMemcpyDtoH(c.data(), dc, bytes));
    for (int i = 0; i < n; i++) {
        float want = (a[i] + 2.0f) + b[i];
        if (c[i] != want) { fprintf(stderr, "FAIL graph element %d: %g, want %g\n", i, c[i], want); return 1; }
    }
    CK(cuGraphExecDestroy(ge));
    CK(cuGraphDestroy(g));

    // the runtime hands out driver functions (cudaGetDriverEntryPointByVersion -> cuGetProcAddress)
    typedef CUresult (*memset32_fn)(CUdeviceptr, unsigned int, size_t);
    memset32_fn ms32 = nullptr;
    cudaDriverEntryPointQueryResult qr = cudaDriverEntryPointSymbolNotFound;
    RT(cudaGetDriverEntryPointByVersion("cuMemsetD32", (void **)&ms32, CUDA_VERSION, cudaEnableDefault, &qr));
    EXPECT(ms32 != nullptr && qr == cudaDriverEntryPointSuccess);
    CK(ms32(dc, 0x3f800000u, (size_t)n));   // 1.0f
    RT(cudaMemcpy(c.data(), (void *)dc, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(c[i] == 1.0f);
    void *none = (void *)1;
    RT(cudaGetDriverEntryPointByVersion("cuNoSuchThing", &none, CUDA_VERSION, cudaEnableDefault, &qr));
    EXPECT(none == nullptr && qr == cudaDriverEntryPointSymbolNotFound);

    // a kernel fault in a driver launch is sticky for both APIs
    CUdeviceptr bad = 16;
    void *badp[] = { &bad, &bad, &bad, &n };
    CK(cuLaunchKernel(vadd, blocks, 1, 1, 256, 1, 1, 0, nullptr, badp, nullptr));
    CUresult r = cuCtxSynchronize();
    EXPECT(r == CUDA_ERROR_ILLEGAL_ADDRESS);
    EXPECT(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    printf("PASS drv_mixed\n");
    return 0;
}
