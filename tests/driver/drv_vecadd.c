/* drv_vecadd.c - a program that uses only the driver API: device queries, the primary context, a module from PTX
 * text (cuModuleLoadData), a vector add launched with kernelParams and with the packed `extra` buffer, a module
 * variable set through cuModuleGetGlobal, a kernel with mixed parameter sizes, dynamic shared memory, function
 * attributes and occupancy; every result checked against the CPU. The same program passes on a GPU with NVIDIA's
 * driver. Usage: drv_vecadd KERNELS.ptx [N] */
#include "drv_test.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The CPU's c = a + b, compared with the device's. */
static void check_vadd(const float *a, const float *b, const float *c, int n, float scale)
{
    for (int i = 0; i < n; i++)
        if (c[i] != scale * (a[i] + b[i])) {
            fprintf(stderr, "FAIL element %d: %g, want %g\n", i, c[i], scale * (a[i] + b[i]));
            exit(1);
        }
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: drv_vecadd KERNELS.ptx [N]\n"); return 2; }
    int n = argc > 2 ? atoi(argv[2]) : 100000;
    char *ptx = drv_test_slurp(argv[1], NULL);

    int ver = 0;
    CK(cuDriverGetVersion(&ver));
    EXPECT(ver >= 13000);
    CK(cuInit(0));
    int count = 0;
    CK(cuDeviceGetCount(&count));
    EXPECT(count == 1);
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    char name[256];
    CK(cuDeviceGetName(name, sizeof name, dev));
    int major = 0, minor = 0, sms = 0, warp = 0;
    CK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    EXPECT(warp == 32 && sms > 0 && major >= 7);
    size_t total = 0;
    CK(cuDeviceTotalMem(&total, dev));
    EXPECT(total > ((size_t)1 << 30));
    CUuuid uuid;
    CK(cuDeviceGetUuid(&uuid, dev));
    printf("device: %s, cc %d.%d, %d SMs, %zu MiB\n", name, major, minor, sms, total >> 20);

    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CUmodule mod;
    CK(cuModuleLoadData(&mod, ptx));
    CUfunction vadd, vadd_scaled, add_bias, sumsq;
    CK(cuModuleGetFunction(&vadd, mod, "vadd"));
    CK(cuModuleGetFunction(&vadd_scaled, mod, "vadd_scaled"));
    CK(cuModuleGetFunction(&add_bias, mod, "add_bias"));
    CK(cuModuleGetFunction(&sumsq, mod, "block_sumsq"));
    CUfunction missing;
    CKE(cuModuleGetFunction(&missing, mod, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);

    size_t bytes = (size_t)n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    for (int i = 0; i < n; i++) { a[i] = (float)(i % 1000) * 0.5f; b[i] = (float)(i % 77) - 3.0f; }
    CUdeviceptr da, db, dc;
    CK(cuMemAlloc(&da, bytes));
    CK(cuMemAlloc(&db, bytes));
    CK(cuMemAlloc(&dc, bytes));
    CK(cuMemcpyHtoD(da, a, bytes));
    CK(cuMemcpyHtoD(db, b, bytes));
    unsigned threads = 256, blocks = (unsigned)((n + 255) / 256);

    /* kernelParams */
    void *params[] = { &da, &db, &dc, &n };
    CK(cuLaunchKernel(vadd, blocks, 1, 1, threads, 1, 1, 0, NULL, params, NULL));
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(c, dc, bytes));
    check_vadd(a, b, c, n, 1.0f);

    /* a module variable: scale_factor = 3 */
    CUdeviceptr dscale;
    size_t scale_size = 0;
    CK(cuModuleGetGlobal(&dscale, &scale_size, mod, "scale_factor"));
    EXPECT(scale_size == sizeof(float));
    float three = 3.0f;
    CK(cuMemcpyHtoD(dscale, &three, sizeof three));
    CKE(cuModuleGetGlobal(&dscale, &scale_size, mod, "no_such_global"), CUDA_ERROR_NOT_FOUND);

    /* the packed `extra` buffer on a stream */
    struct packed_t { CUdeviceptr a, b, c; int n; } packed = { da, db, dc, n };
    size_t packed_size = offsetof(struct packed_t, n) + sizeof(int);   /* the parameters' bytes, no tail padding */
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                      CU_LAUNCH_PARAM_END };
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CK(cuMemsetD32Async(dc, 0, (size_t)n, s));
    CK(cuLaunchKernel(vadd_scaled, blocks, 1, 1, threads, 1, 1, 0, s, NULL, extra));
    CK(cuMemcpyDtoHAsync(c, dc, bytes, s));
    CK(cuStreamSynchronize(s));
    check_vadd(a, b, c, n, 3.0f);
    CKE(cuLaunchKernel(vadd, blocks, 1, 1, threads, 1, 1, 0, s, params, extra), CUDA_ERROR_INVALID_VALUE);
    /* a buffer that does not match the parameters (NVIDIA's driver: too many resources requested) */
    size_t wrong_size = sizeof packed;
    void *extra_big[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &wrong_size,
                          CU_LAUNCH_PARAM_END };
    CKE(cuLaunchKernel(vadd, 1, 1, 1, 1, 1, 1, 0, s, NULL, extra_big), CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
    void *extra_nosize[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_END };
    CKE(cuLaunchKernel(vadd, 1, 1, 1, 1, 1, 1, 0, s, NULL, extra_nosize), CUDA_ERROR_INVALID_VALUE);
    CKE(cuLaunchKernel(vadd, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    CKE(cuLaunchKernel(vadd, 0, 1, 1, 1, 1, 1, 0, s, params, NULL), CUDA_ERROR_INVALID_VALUE);

    /* mixed parameter sizes through `extra`, laid out as the PTX parameter list is */
    int m = 1000;
    CUdeviceptr dout;
    CK(cuMemAlloc(&dout, (size_t)m * sizeof(int)));
    unsigned char buf[64];
    memset(buf, 0, sizeof buf);
    size_t off[6], psz[6];
    for (int i = 0; i < 6; i++) CK(cuFuncGetParamInfo(add_bias, (size_t)i, &off[i], &psz[i]));
    EXPECT(psz[0] == 1 && psz[1] == 8 && psz[2] == 8 && psz[3] == 2 && psz[4] == 8 && psz[5] == 4);
    EXPECT(off[1] == 8 && off[3] == 24 && off[4] == 32 && off[5] == 40);
    char tag = 'k';
    double x = 1.5;
    short y = -7;
    long long z = 1000;
    memcpy(buf + off[0], &tag, 1);
    memcpy(buf + off[1], &x, 8);
    memcpy(buf + off[2], &dout, 8);
    memcpy(buf + off[3], &y, 2);
    memcpy(buf + off[4], &z, 8);
    memcpy(buf + off[5], &m, 4);
    size_t bsize = off[5] + 4;
    void *extra2[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bsize, CU_LAUNCH_PARAM_END };
    CK(cuLaunchKernel(add_bias, (unsigned)((m + 127) / 128), 1, 1, 128, 1, 1, 0, NULL, NULL, extra2));
    int *out = malloc((size_t)m * sizeof(int));
    CK(cuMemcpyDtoH(out, dout, (size_t)m * sizeof(int)));
    for (int i = 0; i < m; i++) {
        int want = (int)(1.5 * i) - 7 + 1000 + (i % 4) + 1;
        if (out[i] != want) { fprintf(stderr, "FAIL add_bias[%d] = %d, want %d\n", i, out[i], want); return 1; }
    }

    /* dynamic shared memory, cuLaunchKernelEx */
    CUdeviceptr din, dsum;
    int *in = malloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++) in[i] = (i * 37) % 101 - 50;
    CK(cuMemAlloc(&din, (size_t)n * sizeof(int)));
    CK(cuMemAlloc(&dsum, blocks * sizeof(long long)));
    CK(cuMemcpyHtoD(din, in, (size_t)n * sizeof(int)));
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = blocks; cfg.gridDimY = 1; cfg.gridDimZ = 1;
    cfg.blockDimX = threads; cfg.blockDimY = 1; cfg.blockDimZ = 1;
    cfg.sharedMemBytes = threads * sizeof(long long);
    cfg.hStream = s;
    void *sp[] = { &din, &dsum, &n };
    CK(cuLaunchKernelEx(&cfg, sumsq, sp, NULL));
    long long *sums = malloc(blocks * sizeof(long long));
    CK(cuMemcpyDtoHAsync(sums, dsum, blocks * sizeof(long long), s));
    CK(cuStreamSynchronize(s));
    long long got = 0, want = 0;
    for (unsigned i = 0; i < blocks; i++) got += sums[i];
    for (int i = 0; i < n; i++) want += (long long)in[i] * in[i];
    EXPECT(got == want);

    /* attributes and occupancy */
    int maxt = 0, regs = 0, shared = 0, nb = 0, min_grid = 0, best = 0;
    CK(cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, vadd));
    CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, vadd));
    CK(cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, sumsq));
    EXPECT(maxt >= 256 && regs > 0 && shared == 0);
    CK(cuFuncSetAttribute(sumsq, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024));
    CK(cuFuncSetCacheConfig(vadd, CU_FUNC_CACHE_PREFER_L1));
    CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, vadd, 256, 0));
    CK(cuOccupancyMaxPotentialBlockSize(&min_grid, &best, vadd, NULL, 0, 0));
    EXPECT(nb > 0 && best > 0 && best % 32 == 0 && min_grid >= sms);
    const char *fname = NULL;
    CK(cuFuncGetName(&fname, vadd));
    EXPECT(strcmp(fname, "vadd") == 0);

    /* memory facts */
    CUdeviceptr base;
    size_t size = 0, freeb = 0, totalb = 0;
    CK(cuMemGetAddressRange(&base, &size, da + 100));
    EXPECT(base == da && size == bytes);
    CK(cuMemGetInfo(&freeb, &totalb));
    EXPECT(freeb < totalb);
    unsigned memtype = 0;
    CK(cuPointerGetAttribute(&memtype, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, da));
    EXPECT(memtype == CU_MEMORYTYPE_DEVICE);

    CK(cuStreamDestroy(s));
    CK(cuMemFree(da));
    CK(cuMemFree(db));
    CK(cuMemFree(dc));
    CK(cuMemFree(dout));
    CK(cuMemFree(din));
    CK(cuMemFree(dsum));
    CK(cuModuleUnload(mod));
    CKE(cuLaunchKernel(vadd, 1, 1, 1, 1, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_HANDLE);
    CK(cuDevicePrimaryCtxRelease(dev));
    free(a), free(b), free(c), free(out), free(in), free(sums), free(ptx);
    printf("PASS drv_vecadd\n");
    return 0;
}
