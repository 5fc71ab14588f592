// warpsim test (tests/cli/unsupported_api.sh): calls of runtime functions warpsim does not simulate return
// cudaErrorNotSupported, as the last error too; the program goes on (on a real GPU these calls succeed).
#include <cstdio>

int main()
{
    int *d = nullptr;
    if (cudaMalloc(&d, 256) != cudaSuccess) { printf("FAIL ipc: cudaMalloc\n"); return 1; }
    cudaIpcMemHandle_t h;
    cudaError_t e1 = cudaIpcGetMemHandle(&h, d), e2 = cudaIpcGetMemHandle(&h, d);
    cudaError_t last = cudaGetLastError(), after = cudaGetLastError();
    cudaStream_t a, b;
    cudaStreamCreate(&a);
    cudaStreamCreate(&b);
    cudaError_t e3 = cudaStreamCopyAttributes(b, a);
    cudaGetLastError();
    int ok = e1 == cudaErrorNotSupported && e2 == cudaErrorNotSupported && last == cudaErrorNotSupported &&
             after == cudaSuccess && e3 == cudaErrorNotSupported && cudaFree(d) == cudaSuccess;
    printf("%s ipc: cudaIpcGetMemHandle %s, cudaStreamCopyAttributes %s\n", ok ? "PASS" : "FAIL", cudaGetErrorName(e1),
           cudaGetErrorName(e3));
    return ok ? 0 : 1;
}
