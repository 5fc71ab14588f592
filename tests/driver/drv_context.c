/* drv_context.c - the driver's rules: calls before cuInit, error names and strings (NVIDIA's), the context stack
 * (push/pop/set/get, created contexts, destroyed handles), the primary context's state, cuGetProcAddress (v1 and
 * _v2, versioned names), a function warpsim does not implement, a SASS-only cubin and modules from a fatbin. The
 * same program passes on a GPU with NVIDIA's driver.
 * Usage: drv_context KERNELS.ptx KERNELS.fatbin KERNELS.cubin [SASS_ONLY.fatbin] */
#include "drv_test.h"

#include <string.h>

/* The error name and string of code must be exactly these. */
static void expect_error(CUresult code, const char *name, const char *text)
{
    const char *n = NULL, *t = NULL;
    CK(cuGetErrorName(code, &n));
    CK(cuGetErrorString(code, &t));
    if (strcmp(n, name) || strcmp(t, text)) {
        fprintf(stderr, "FAIL error %d: '%s' '%s', want '%s' '%s'\n", (int)code, n, t, name, text);
        exit(1);
    }
}

/* A vector add through function f of some module, checked. */
static void run_vadd(CUfunction f, int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *a = malloc(bytes), *c = malloc(bytes);
    for (int i = 0; i < n; i++) a[i] = (float)i;
    CUdeviceptr da, dc;
    CK(cuMemAlloc(&da, bytes));
    CK(cuMemAlloc(&dc, bytes));
    CK(cuMemcpyHtoD(da, a, bytes));
    void *p[] = { &da, &da, &dc, &n };
    CK(cuLaunchKernel(f, (unsigned)(n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, p, NULL));
    CK(cuMemcpyDtoH(c, dc, bytes));
    for (int i = 0; i < n; i++) EXPECT(c[i] == 2.0f * (float)i);
    CK(cuMemFree(da));
    CK(cuMemFree(dc));
    free(a);
    free(c);
}

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: drv_context PTX FATBIN CUBIN\n"); return 2; }
    /* under warpsim run (which sets WARPSIM_DEVICES) the SASS-only images and CUDA arrays fail; on a GPU they work.
     * Everything else here answers as NVIDIA's driver 580 does on an H200 (checked there) */
    int sim = getenv("WARPSIM_DEVICES") != NULL;
    CUdevice dev = 0;
    CUcontext cur = (CUcontext)1;
    int n = 0;
    /* before cuInit */
    CKE(cuDeviceGetCount(&n), CUDA_ERROR_NOT_INITIALIZED);
    CKE(cuCtxGetCurrent(&cur), CUDA_ERROR_NOT_INITIALIZED);
    CKE(cuInit(1), CUDA_ERROR_INVALID_VALUE);
    expect_error(CUDA_SUCCESS, "CUDA_SUCCESS", "no error");
    expect_error(CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument");
    expect_error(CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error");
    expect_error(CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context");
    expect_error(CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle");
    expect_error(CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found");
    expect_error(CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
                 "no kernel image is available for execution on the device");
    expect_error(CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered");
    expect_error(CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported");
    expect_error(CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error");
    expect_error(CUDA_ERROR_KEY_ROTATION, "CUDA_ERROR_KEY_ROTATION", "an error happened during the key rotation sequence");
    const char *s = (const char *)1;
    CKE(cuGetErrorName((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
    EXPECT(s == NULL);

    CK(cuInit(0));
    CKE(cuDeviceGet(&dev, 1), CUDA_ERROR_INVALID_DEVICE);
    CK(cuDeviceGet(&dev, 0));
    /* no current context yet */
    CK(cuCtxGetCurrent(&cur));
    EXPECT(cur == NULL);
    CUdeviceptr p;
    CKE(cuMemAlloc(&p, 16), CUDA_ERROR_INVALID_CONTEXT);
    CUcontext popped;
    CKE(cuCtxPopCurrent(&popped), CUDA_ERROR_INVALID_CONTEXT);
    unsigned flags = 0;
    int active = 1;
    CK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    EXPECT(active == 0);

    /* the stack: a created context is current; push the primary over it, pop back */
    CUcontext mine, primary;
    CK(cuCtxCreate(&mine, NULL, 0, dev));
    CK(cuCtxGetCurrent(&cur));
    EXPECT(cur == mine);
    CK(cuDevicePrimaryCtxRetain(&primary, dev));
    EXPECT(primary != mine);
    CK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    EXPECT(active == 1);
    CK(cuCtxPushCurrent(primary));
    CK(cuCtxGetCurrent(&cur));
    EXPECT(cur == primary);
    CUdevice cdev = -1;
    CK(cuCtxGetDevice(&cdev));
    EXPECT(cdev == 0);
    CK(cuCtxPopCurrent(&popped));
    EXPECT(popped == primary);
    CK(cuCtxGetCurrent(&cur));
    EXPECT(cur == mine);
    unsigned long long id1 = 0, id2 = 0;
    CK(cuCtxGetId(mine, &id1));
    CK(cuCtxGetId(primary, &id2));
    EXPECT(id1 != id2);
    size_t stack = 0;
    CK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096));
    CK(cuCtxGetLimit(&stack, CU_LIMIT_STACK_SIZE));
    EXPECT(stack == 4096);
    int lo = 0, hi = 0;
    CK(cuCtxGetStreamPriorityRange(&lo, &hi));
    EXPECT(lo >= hi);
    /* destroying the current context leaves the thread without one; its handle is dead */
    CK(cuCtxDestroy(mine));
    CK(cuCtxGetCurrent(&cur));
    EXPECT(cur == NULL);
    CKE(cuCtxDestroy(primary), CUDA_ERROR_INVALID_CONTEXT);
    CK(cuCtxSetCurrent(primary));
    CK(cuCtxSynchronize());

    /* cuGetProcAddress: API names map to their current symbols */
    void *fn = NULL;
    CUdriverProcAddressQueryResult q = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
    CK(cuGetProcAddress("cuMemAlloc", &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &q));
    EXPECT(fn == (void *)cuMemAlloc_v2 && q == CU_GET_PROC_ADDRESS_SUCCESS);
    CK(cuGetProcAddress("cuInit", &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &q));
    EXPECT(fn == (void *)cuInit);
    CK(cuGetProcAddress("cuLaunchKernel", &fn, CUDA_VERSION, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &q));
    EXPECT(fn != NULL);
    CK(cuGetProcAddress("cuCtxCreate", &fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &q));
    EXPECT(fn != NULL && fn != (void *)cuCtxCreate_v4);   /* the CUDA 12.0 form (cuCtxCreate_v2) */
    CK(cuGetProcAddress("cuNoSuchFunction", &fn, CUDA_VERSION, 0, &q));   /* found or not: the query says */
    EXPECT(fn == NULL && q == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    /* the v1 entry point, through the _v2 one, then a driver call through the pointer */
    CUresult (*v1)(const char *, void **, int, cuuint64_t) = NULL;
    CK(cuGetProcAddress("cuGetProcAddress", (void **)&v1, 11030, 0, &q));
    EXPECT(v1 != NULL);
    CUresult (*get_count)(int *) = NULL;
    CK(v1("cuDeviceGetCount", (void **)&get_count, CUDA_VERSION, 0));
    CKE(v1("cuNoSuchFunction", &fn, CUDA_VERSION, 0), CUDA_ERROR_NOT_FOUND);
    n = 0;
    CK(get_count(&n));
    EXPECT(n == 1);

    /* a function warpsim does not implement fails clearly (CUDA arrays; a GPU makes one) */
    CUarray arr;
    CUDA_ARRAY_DESCRIPTOR ad = { 16, 16, CU_AD_FORMAT_FLOAT, 1 };
    if (sim) CKE(cuArrayCreate(&arr, &ad), CUDA_ERROR_NOT_SUPPORTED);

    /* modules: from a fatbin (file and memory), a SASS-only cubin is refused, bad images too */
    CUmodule m1, m2, m3;
    CUfunction f;
    CK(cuModuleLoad(&m1, argv[2]));
    CK(cuModuleGetFunction(&f, m1, "vadd"));
    run_vadd(f, 3000);
    size_t fsize = 0;
    char *fat = drv_test_slurp(argv[2], &fsize);
    CK(cuModuleLoadFatBinary(&m2, fat));
    CK(cuModuleGetFunction(&f, m2, "vadd"));
    run_vadd(f, 1000);
    if (sim) {   /* SASS only: a GPU runs it, warpsim cannot */
        CKE(cuModuleLoad(&m3, argv[3]), CUDA_ERROR_NO_BINARY_FOR_GPU);
        if (argc > 4) CKE(cuModuleLoad(&m3, argv[4]), CUDA_ERROR_NO_BINARY_FOR_GPU);
    }
    CKE(cuModuleLoad(&m3, "/nonexistent/kernels.ptx"), CUDA_ERROR_FILE_NOT_FOUND);
    CKE(cuModuleLoadData(&m3, "this is not a module"), CUDA_ERROR_INVALID_IMAGE);
    char log[512] = "";
    CUjit_option opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *vals[] = { log, (void *)(size_t)sizeof log };
    const char *bad_ptx = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  frobnicate.u32 %r1;\n}\n";
    CKE(cuModuleLoadDataEx(&m3, bad_ptx, 2, opts, vals), CUDA_ERROR_INVALID_PTX);
    EXPECT(strlen(log) > 0);
    /* a library and its kernel */
    CUlibrary lib;
    CUkernel k;
    char *ptx = drv_test_slurp(argv[1], NULL);
    CK(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
    CK(cuLibraryGetKernel(&k, lib, "vadd"));
    CK(cuKernelGetFunction(&f, k));
    run_vadd(f, 500);
    CK(cuLibraryUnload(lib));
    CK(cuModuleUnload(m1));
    CK(cuModuleUnload(m2));
    CKE(cuModuleUnload(m2), CUDA_ERROR_INVALID_HANDLE);
    /* resetting the primary context drops every module with the device (warpsim: their handles are invalid) */
    CK(cuModuleLoadData(&m3, ptx));
    CK(cuModuleGetFunction(&f, m3, "vadd"));
    CK(cuDevicePrimaryCtxReset(dev));
    if (sim) CKE(cuModuleGetFunction(&f, m3, "vadd"), CUDA_ERROR_INVALID_HANDLE);
    CK(cuDevicePrimaryCtxRetain(&primary, dev));
    CK(cuCtxSetCurrent(primary));
    CK(cuModuleLoadData(&m3, ptx));
    CK(cuModuleGetFunction(&f, m3, "vadd"));
    run_vadd(f, 300);
    CK(cuDevicePrimaryCtxRelease(dev));
    free(fat);
    free(ptx);
    printf("PASS drv_context\n");
    return 0;
}
