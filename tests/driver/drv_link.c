/* drv_link.c - the JIT linker: a PTX unit from memory (cuLinkAddData), a fatbin from a file (cuLinkAddFile) whose
 * kernel calls a device function of the first unit, and the vector-add PTX; cuLinkComplete's image loads with
 * cuModuleLoadData and every kernel runs, checked against the CPU; under warpsim a SASS-only cubin input is
 * refused with its message in the error log. The same program passes on an H200 with NVIDIA's driver 580.
 * Usage: drv_link LINK_A.ptx LINK_B.fatbin KERNELS.ptx [CUBIN] */
#include "drv_test.h"

#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: drv_link LINK_A.ptx LINK_B.fatbin KERNELS.ptx [CUBIN]\n"); return 2; }
    int sim = getenv("WARPSIM_DEVICES") != NULL;
    CUdevice dev;
    CUcontext ctx;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));

    char log[1024] = "";
    CUjit_option opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *vals[] = { log, (void *)(size_t)sizeof log };
    CUlinkState ls;
    CK(cuLinkCreate(2, opts, vals, &ls));
    size_t asize = 0;
    char *a = drv_test_slurp(argv[1], &asize);
    CK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, a, asize + 1, "link_a.ptx", 0, NULL, NULL));
    CK(cuLinkAddFile(ls, CU_JIT_INPUT_FATBINARY, argv[2], 0, NULL, NULL));
    CK(cuLinkAddFile(ls, CU_JIT_INPUT_PTX, argv[3], 0, NULL, NULL));
    CKE(cuLinkAddFile(ls, CU_JIT_INPUT_PTX, "/nonexistent.ptx", 0, NULL, NULL), CUDA_ERROR_FILE_NOT_FOUND);
    if (sim && argc > 4) {
        CKE(cuLinkAddFile(ls, CU_JIT_INPUT_CUBIN, argv[4], 0, NULL, NULL), CUDA_ERROR_NO_BINARY_FOR_GPU);
        EXPECT(strstr(log, "SASS") != NULL);
    }
    void *image = NULL;
    size_t isize = 0;
    CK(cuLinkComplete(ls, &image, &isize));
    EXPECT(image != NULL && isize > 0);
    CUmodule mod;
    CK(cuModuleLoadData(&mod, image));
    CK(cuLinkDestroy(ls));   /* the module keeps what it needs */

    CUfunction scale, apply_poly, vadd;
    CK(cuModuleGetFunction(&scale, mod, "scale"));
    CK(cuModuleGetFunction(&apply_poly, mod, "apply_poly"));
    CK(cuModuleGetFunction(&vadd, mod, "vadd"));
    int n = 4000;
    size_t bytes = (size_t)n * sizeof(float);
    float *x = malloc(bytes), *y = malloc(bytes);
    for (int i = 0; i < n; i++) x[i] = (float)(i % 50) * 0.125f - 2.0f;
    CUdeviceptr dx, dy;
    CK(cuMemAlloc(&dx, bytes));
    CK(cuMemAlloc(&dy, bytes));
    CK(cuMemcpyHtoD(dx, x, bytes));
    void *pp[] = { &dx, &dy, &n };
    unsigned blocks = (unsigned)(n + 127) / 128;
    CK(cuLaunchKernel(apply_poly, blocks, 1, 1, 128, 1, 1, 0, NULL, pp, NULL));
    float k = 0.5f;
    void *sp[] = { &dy, &k, &n };
    CK(cuLaunchKernel(scale, blocks, 1, 1, 128, 1, 1, 0, NULL, sp, NULL));
    void *vp[] = { &dy, &dx, &dy, &n };
    CK(cuLaunchKernel(vadd, blocks, 1, 1, 128, 1, 1, 0, NULL, vp, NULL));
    CK(cuMemcpyDtoH(y, dy, bytes));
    for (int i = 0; i < n; i++) {
        float p = 3.0f * x[i] * x[i] - x[i] + 0.5f;
        float want = p * 0.5f + x[i];
        if (y[i] != want) { fprintf(stderr, "FAIL y[%d] = %g, want %g\n", i, y[i], want); return 1; }
    }
    CK(cuModuleUnload(mod));
    CK(cuDevicePrimaryCtxRelease(dev));
    free(a), free(x), free(y);
    printf("PASS drv_link\n");
    return 0;
}
