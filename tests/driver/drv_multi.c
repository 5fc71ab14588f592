/* drv_multi.c - the driver API with several simulated devices (run by tests/cli/multi_gpu.sh under
 * `warpsim run --gpus 2`): device count and handles, a context per device (cuCtxCreate on device 1, device 0's
 * primary context), each context's memory on its own device, peer access between the contexts with its error
 * codes, and cuMemcpyPeer / cuMemcpyPeerAsync between them, checked byte for byte. Prints "PASSED". */
#include <string.h>
#include "drv_test.h"

int main(void)
{
    CK(cuInit(0));
    int n = 0;
    CK(cuDeviceGetCount(&n));
    EXPECT(n == 2);
    CUdevice d0, d1, bad;
    CK(cuDeviceGet(&d0, 0));
    CK(cuDeviceGet(&d1, 1));
    CKE(cuDeviceGet(&bad, 2), CUDA_ERROR_INVALID_DEVICE);
    char name[128];
    for (int i = 0; i < n; i++) {
        CK(cuDeviceGetName(name, sizeof name, i));
        int sms = 0;
        CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, i));
        printf("device %d: %s, %d SMs\n", i, name, sms);
    }
    int can = -1;
    CK(cuDeviceCanAccessPeer(&can, d0, d1));
    EXPECT(can == 1);
    CK(cuDeviceCanAccessPeer(&can, d1, d1));
    EXPECT(can == 0);
    int p2p = -1;
    CK(cuDeviceGetP2PAttribute(&p2p, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, d0, d1));
    EXPECT(p2p == 1);

    CUcontext c1, p0;
    CK(cuCtxCreate(&c1, NULL, 0, d1));
    CUdevice cur = -1;
    CK(cuCtxGetDevice(&cur));
    EXPECT(cur == 1);
    const size_t bytes = 1 << 16;
    CUdeviceptr b1 = 0, b0 = 0;
    CK(cuMemAlloc(&b1, bytes));
    unsigned char *h = malloc(bytes), *back = malloc(bytes);
    for (size_t i = 0; i < bytes; i++) h[i] = (unsigned char)(i * 7 + 3);
    CK(cuMemcpyHtoD(b1, h, bytes));
    int ord = -1;
    CK(cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, b1));
    EXPECT(ord == 1);

    CK(cuDevicePrimaryCtxRetain(&p0, d0));
    CK(cuCtxPushCurrent(p0));
    CK(cuCtxGetDevice(&cur));
    EXPECT(cur == 0);
    CK(cuMemAlloc(&b0, bytes));
    EXPECT(b0 != b1);
    CK(cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, b0));
    EXPECT(ord == 0);
    CKE(cuCtxDisablePeerAccess(c1), CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
    CK(cuCtxEnablePeerAccess(c1, 0));
    CKE(cuCtxEnablePeerAccess(c1, 0), CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED);
    CK(cuCtxDisablePeerAccess(c1));

    CK(cuMemcpyPeer(b0, p0, b1, c1, bytes));
    memset(back, 0, bytes);
    CK(cuMemcpyDtoH(back, b0, bytes));
    EXPECT(memcmp(back, h, bytes) == 0);
    CK(cuMemsetD8(b1, 0, bytes));
    CK(cuMemcpyPeerAsync(b1, c1, b0, p0, bytes / 2, NULL));
    CK(cuCtxSynchronize());
    CK(cuCtxPopCurrent(NULL));
    CK(cuCtxGetDevice(&cur));
    EXPECT(cur == 1);
    memset(back, 0xff, bytes);
    CK(cuMemcpyDtoH(back, b1, bytes));
    EXPECT(memcmp(back, h, bytes / 2) == 0 && back[bytes / 2] == 0 && back[bytes - 1] == 0);
    CK(cuMemFree(b1));
    CK(cuCtxDestroy(c1));
    CK(cuDevicePrimaryCtxRelease(d0));
    free(h);
    free(back);
    printf("PASSED\n");
    return 0;
}
