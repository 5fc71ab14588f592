/* nvrtc_template.c - run-time compilation: NVRTC (the toolkit's libnvrtc, which only makes PTX on the CPU)
 * compiles a CUDA C++ source held in this file: a template kernel instantiated for float and int through name
 * expressions (nvrtcAddNameExpression / nvrtcGetLoweredName give the mangled names), and an extern "C" kernel
 * with shared memory and __syncthreads. The PTX is loaded with cuModuleLoadDataEx (with JIT options and their
 * log buffers), the kernels are found by their lowered names and launched; then the same source is compiled to
 * an sm_90 cubin (SASS, which warpsim finds the PTX behind: libwarpsim_preload.so's nvrtcGetCUBIN), loaded with
 * cuModuleLoadData and launched. Every result is checked against the CPU. Usage: nvrtc_template [N] */
#include "drv_test.h"

#include <nvrtc.h>
#include <string.h>

/* Stop the test when an NVRTC call fails, with the compile log when there is one. */
#define NK(call) do { nvrtcResult r_ = (call); if (r_ != NVRTC_SUCCESS) { \
    fprintf(stderr, "FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, nvrtcGetErrorString(r_)); exit(1); } \
    } while (0)

static const char source[] =
    "template <typename T>\n"
    "__global__ void axpb(T *y, const T *x, T a, T b, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) y[i] = a * x[i] + b;\n"
    "}\n"
    "extern \"C\" __global__ void block_max(const int *x, int *out, int n)\n"
    "{\n"
    "    __shared__ int s[256];\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    s[threadIdx.x] = i < n ? x[i] : -2147483647 - 1;\n"
    "    __syncthreads();\n"
    "    for (int w = blockDim.x / 2; w > 0; w /= 2) {\n"
    "        if (threadIdx.x < w && s[threadIdx.x + w] > s[threadIdx.x]) s[threadIdx.x] = s[threadIdx.x + w];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (threadIdx.x == 0) out[blockIdx.x] = s[0];\n"
    "}\n";

/* Compile the source for arch (compute_XX: PTX; sm_XX: a cubin, returned in *cubin_size bytes); the lowered names of
 * the two template instances. */
static char *compile(const char *arch, char *lowered_f, char *lowered_i, size_t cap, size_t *cubin_size)
{
    nvrtcProgram prog;
    NK(nvrtcCreateProgram(&prog, source, "nvrtc_template.cu", 0, NULL, NULL));
    NK(nvrtcAddNameExpression(prog, "axpb<float>"));
    NK(nvrtcAddNameExpression(prog, "axpb<int>"));
    char archopt[64];
    snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
    const char *opts[] = { archopt, "-default-device" };
    nvrtcResult r = nvrtcCompileProgram(prog, 2, opts);
    if (r != NVRTC_SUCCESS) {
        size_t n = 0;
        nvrtcGetProgramLogSize(prog, &n);
        char *log = malloc(n + 1);
        if (log && nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS) fprintf(stderr, "%s\n", log);
        NK(r);
    }
    const char *name = NULL;
    NK(nvrtcGetLoweredName(prog, "axpb<float>", &name));
    snprintf(lowered_f, cap, "%s", name);
    NK(nvrtcGetLoweredName(prog, "axpb<int>", &name));
    snprintf(lowered_i, cap, "%s", name);
    size_t size = 0;
    char *out;
    if (cubin_size) {   /* a cubin: SASS for the real architecture (warpsim finds the program's PTX behind it) */
        NK(nvrtcGetCUBINSize(prog, &size));
        out = malloc(size);
        EXPECT(out != NULL);
        NK(nvrtcGetCUBIN(prog, out));
        *cubin_size = size;
    } else {
        NK(nvrtcGetPTXSize(prog, &size));
        out = malloc(size);
        EXPECT(out != NULL);
        NK(nvrtcGetPTX(prog, out));
    }
    NK(nvrtcDestroyProgram(&prog));
    return out;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 50000;
    int major = 0, minor = 0;
    NK(nvrtcVersion(&major, &minor));
    EXPECT(major >= 12);
    char lf[256], li[256];
    char *ptx = compile("compute_75", lf, li, sizeof lf, NULL);
    EXPECT(strcmp(lf, "_Z4axpbIfEvPT_PKS0_S0_S0_i") == 0);
    EXPECT(strcmp(li, "_Z4axpbIiEvPT_PKS0_S0_S0_i") == 0);

    CK(cuInit(0));
    CUdevice dev;
    CK(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    char info[1024] = "", err[1024] = "";
    CUjit_option o[] = { CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_OPTIMIZATION_LEVEL };
    void *ov[] = { info, (void *)(size_t)sizeof info, err, (void *)(size_t)sizeof err, (void *)(size_t)3 };
    CUmodule mod;
    CK(cuModuleLoadDataEx(&mod, ptx, 5, o, ov));
    CUfunction ff, fi, fm;
    CK(cuModuleGetFunction(&ff, mod, lf));
    CK(cuModuleGetFunction(&fi, mod, li));
    CK(cuModuleGetFunction(&fm, mod, "block_max"));

    float *xf = malloc(n * sizeof *xf), *yf = malloc(n * sizeof *yf);
    int *xi = malloc(n * sizeof *xi), *yi = malloc(n * sizeof *yi);
    EXPECT(xf && yf && xi && yi);
    for (int i = 0; i < n; i++) {
        xf[i] = (float)(i % 1000) * 0.25f;
        xi[i] = (i * 7919) % 100003 - 50000;
    }
    CUdeviceptr dxf, dyf, dxi, dyi, dmax;
    int blocks = (n + 255) / 256;
    CK(cuMemAlloc(&dxf, n * sizeof *xf));
    CK(cuMemAlloc(&dyf, n * sizeof *yf));
    CK(cuMemAlloc(&dxi, n * sizeof *xi));
    CK(cuMemAlloc(&dyi, n * sizeof *yi));
    CK(cuMemAlloc(&dmax, blocks * sizeof(int)));
    CK(cuMemcpyHtoD(dxf, xf, n * sizeof *xf));
    CK(cuMemcpyHtoD(dxi, xi, n * sizeof *xi));

    float af = 1.5f, bf = -2.0f;
    int ai = 3, bi = 11;
    void *pf[] = { &dyf, &dxf, &af, &bf, &n };
    void *pi[] = { &dyi, &dxi, &ai, &bi, &n };
    void *pm[] = { &dxi, &dmax, &n };
    CK(cuLaunchKernel(ff, blocks, 1, 1, 256, 1, 1, 0, NULL, pf, NULL));
    CK(cuLaunchKernel(fi, blocks, 1, 1, 256, 1, 1, 0, NULL, pi, NULL));
    CK(cuLaunchKernel(fm, blocks, 1, 1, 256, 1, 1, 0, NULL, pm, NULL));
    CK(cuCtxSynchronize());
    CK(cuMemcpyDtoH(yf, dyf, n * sizeof *yf));
    CK(cuMemcpyDtoH(yi, dyi, n * sizeof *yi));
    int *mx = malloc(blocks * sizeof *mx);
    EXPECT(mx != NULL);
    CK(cuMemcpyDtoH(mx, dmax, blocks * sizeof *mx));
    for (int i = 0; i < n; i++) {
        if (yf[i] != af * xf[i] + bf) { fprintf(stderr, "FAIL axpb<float>[%d] %g\n", i, yf[i]); return 1; }
        if (yi[i] != ai * xi[i] + bi) { fprintf(stderr, "FAIL axpb<int>[%d] %d\n", i, yi[i]); return 1; }
    }
    for (int b = 0; b < blocks; b++) {
        int m = -2147483647 - 1;
        for (int i = b * 256; i < n && i < (b + 1) * 256; i++) if (xi[i] > m) m = xi[i];
        if (mx[b] != m) { fprintf(stderr, "FAIL block_max[%d] %d, want %d\n", b, mx[b], m); return 1; }
    }
    CK(cuModuleUnload(mod));

    /* the same source compiled to a cubin for sm_90, loaded from memory (in a copy: the program's own buffer) */
    size_t cubin_size = 0;
    char lf2[256], li2[256];
    char *cubin = compile("sm_90", lf2, li2, sizeof lf2, &cubin_size);
    EXPECT(cubin_size > 0 && memcmp(cubin, "\177ELF", 4) == 0 && strcmp(lf2, lf) == 0);
    char *copy = malloc(cubin_size);
    EXPECT(copy != NULL);
    memcpy(copy, cubin, cubin_size);
    CK(cuModuleLoadData(&mod, copy));
    CK(cuModuleGetFunction(&ff, mod, lf2));
    float a2 = -0.5f, b2 = 4.0f;
    void *pf2[] = { &dyf, &dxf, &a2, &b2, &n };
    CK(cuLaunchKernel(ff, blocks, 1, 1, 256, 1, 1, 0, NULL, pf2, NULL));
    CK(cuMemcpyDtoH(yf, dyf, n * sizeof *yf));
    for (int i = 0; i < n; i++)
        if (yf[i] != a2 * xf[i] + b2) { fprintf(stderr, "FAIL cubin axpb<float>[%d] %g\n", i, yf[i]); return 1; }
    CK(cuModuleUnload(mod));
    CK(cuDevicePrimaryCtxRelease(dev));
    printf("nvrtc %d.%d: %s and %s, block_max over %d blocks; a %zu-byte sm_90 cubin\n", major, minor, lf, li,
           blocks, cubin_size);
    printf("PASS nvrtc_template\n");
    free(xf); free(yf); free(xi); free(yi); free(mx); free(copy); free(cubin); free(ptx);
    return 0;
}
