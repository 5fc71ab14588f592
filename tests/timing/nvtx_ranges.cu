// warpsim test program: NVTX ranges around CUDA work, for the host timeline (tests/cli/trace_stats.sh).
// Nested push/pop ranges ("setup" > "copy in"; "compute" > 3 x "iteration" > kernel), a start/end range across
// them, a mark, a range in a created domain with a registered string, a wide-character range, a named thread
// and a named stream; a graph launch, a host function and a memset. Checks its results on the CPU.
#include <cstdio>
#include <cstdlib>
#include <cwchar>
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtCudaRt.h>
#include <sys/syscall.h>
#include <unistd.h>

__global__ void axpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

static void CUDART_CB on_host(void *p) { ++*(int *)p; }

#define CHECK(c) do { cudaError_t e_ = (c); if (e_ != cudaSuccess) { \
    printf("FAIL: %s: %s\n", #c, cudaGetErrorString(e_)); return 1; } } while (0)

int main()
{
    const int n = 1 << 14;
    const size_t bytes = n * sizeof(float);
    nvtxNameOsThreadA((uint32_t)syscall(SYS_gettid), "main thread");
    nvtxRangeId_t whole = nvtxRangeStartA("whole run");
    nvtxRangePushA("setup");
    float *hx = (float *)malloc(bytes), *hy = (float *)malloc(bytes), *dx, *dy;
    for (int i = 0; i < n; i++) { hx[i] = (float)(i % 100); hy[i] = 1.0f; }
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    nvtxNameCudaStreamA(s, "work stream");
    CHECK(cudaMalloc(&dx, bytes));
    CHECK(cudaMalloc(&dy, bytes));
    nvtxRangePushA("copy in");
    CHECK(cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice));
    nvtxRangePop();
    nvtxRangePop();

    nvtxRangePushA("compute");
    for (int it = 0; it < 3; it++) {
        nvtxRangePushA("iteration");
        axpy<<<(n + 255) / 256, 256, 0, s>>>(2.0f, dx, dy, n);
        CHECK(cudaGetLastError());
        nvtxRangePop();
    }
    nvtxMarkA("kernels queued");
    CHECK(cudaStreamSynchronize(s));
    nvtxRangePop();

    // a range in a library's domain, named by a registered string
    nvtxDomainHandle_t dom = nvtxDomainCreateA("mylib");
    nvtxStringHandle_t name = nvtxDomainRegisterStringA(dom, "mylib graph");
    nvtxEventAttributes_t attr = {};
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    attr.message.registered = name;
    nvtxDomainRangePushEx(dom, &attr);
    cudaGraph_t g;
    cudaGraphExec_t ge;
    int host_calls = 0;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    axpy<<<(n + 255) / 256, 256, 0, s>>>(1.0f, dx, dy, n);
    CHECK(cudaLaunchHostFunc(s, on_host, &host_calls));
    CHECK(cudaStreamEndCapture(s, &g));
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    CHECK(cudaGraphLaunch(ge, s));
    CHECK(cudaStreamSynchronize(s));
    nvtxDomainRangePop(dom);

    nvtxRangePushW(L"copy out (wide)");
    CHECK(cudaMemcpy(hy, dy, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemset(dx, 0, bytes));
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();
    nvtxRangeEnd(whole);

    int bad = host_calls != 1;
    for (int i = 0; i < n; i++) bad += hy[i] != 1.0f + 7.0f * (float)(i % 100);
    CHECK(cudaGraphExecDestroy(ge));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    free(hx);
    free(hy);
    if (bad) { printf("FAIL: nvtx_ranges: %d wrong results\n", bad); return 1; }
    printf("PASS nvtx_ranges\n");
    return 0;
}
