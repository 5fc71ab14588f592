/* drv_memory.c - the driver's memory calls on one simulated device, checked against the CPU: pitched allocations
 * with 2D and 3D copies, 16- and 32-bit fills with multi-byte patterns (1D and 2D), stream-ordered allocation
 * and the default pool, managed memory used by the host and a kernel (with prefetch and advice), mapped pinned
 * memory used by a kernel, pointer attributes of each kind, capture queries, and a graph built node by node.
 * Everything but the graph was also run on an H200 with NVIDIA's driver 580, which passed it. Usage: drv_memory
 * KERNELS.ptx */
#include "drv_test.h"

#include <stdint.h>
#include <string.h>

/* A graph's host node: count the runs. */
static void CUDA_CB count_run(void *p) { ++*(int *)p; }

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: drv_memory KERNELS.ptx\n"); return 2; }
    char *ptx = drv_test_slurp(argv[1], NULL);
    CUdevice dev;
    CUcontext ctx;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuCtxCreate(&ctx, NULL, 0, dev));
    CUmodule mod;
    CUfunction vadd;
    CK(cuModuleLoadData(&mod, ptx));
    CK(cuModuleGetFunction(&vadd, mod, "vadd"));
    CUstream s;
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

    /* a pitched 2D array: fill with a 32-bit pattern, copy a window out with cuMemcpy2D */
    const size_t W = 37, H = 19;   /* elements of 4 bytes */
    CUdeviceptr d2;
    size_t pitch = 0;
    CK(cuMemAllocPitch(&d2, &pitch, W * 4, H, 4));
    EXPECT(pitch >= W * 4);
    CK(cuMemsetD2D32(d2, pitch, 0xdeadbeefu, W, H));
    unsigned win[5][7];
    CUDA_MEMCPY2D c2;
    memset(&c2, 0, sizeof c2);
    c2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.srcDevice = d2;
    c2.srcPitch = pitch;
    c2.srcXInBytes = 3 * 4;
    c2.srcY = 2;
    c2.dstMemoryType = CU_MEMORYTYPE_HOST;
    c2.dstHost = win;
    c2.dstPitch = sizeof win[0];
    c2.WidthInBytes = sizeof win[0];
    c2.Height = 5;
    CK(cuMemcpy2D(&c2));
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 7; x++) EXPECT(win[y][x] == 0xdeadbeefu);
    /* 16-bit fills of an odd pattern, synchronous and on a stream */
    CUdeviceptr d16;
    CK(cuMemAlloc(&d16, 1000 * 2));
    CK(cuMemsetD16(d16, 0x1234, 1000));
    CK(cuMemsetD16Async(d16 + 200, 0xabcd, 300, s));
    CK(cuStreamSynchronize(s));
    unsigned short h16[1000];
    CK(cuMemcpyDtoH(h16, d16, sizeof h16));
    for (int i = 0; i < 1000; i++) EXPECT(h16[i] == (i >= 100 && i < 400 ? 0xabcd : 0x1234));
    CKE(cuMemsetD16(d16 + 1, 0, 4), CUDA_ERROR_INVALID_VALUE);   /* misaligned */

    /* a 3D copy host -> pitched device -> host, a sub-box */
    enum { X = 8, Y = 6, Z = 5 };
    float box[Z][Y][X], back[Z][Y][X];
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) box[z][y][x] = (float)(z * 100 + y * 10 + x);
    CUdeviceptr d3;
    size_t p3 = 0;
    CK(cuMemAllocPitch(&d3, &p3, X * 4, Y * Z, 4));
    CUDA_MEMCPY3D c3;
    memset(&c3, 0, sizeof c3);
    c3.srcMemoryType = CU_MEMORYTYPE_HOST;
    c3.srcHost = box;
    c3.srcPitch = X * 4;
    c3.srcHeight = Y;
    c3.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c3.dstDevice = d3;
    c3.dstPitch = p3;
    c3.dstHeight = Y;
    c3.WidthInBytes = X * 4;
    c3.Height = Y;
    c3.Depth = Z;
    CK(cuMemcpy3D(&c3));
    memset(back, 0, sizeof back);
    CUDA_MEMCPY3D r3 = c3;
    r3.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    r3.srcHost = NULL;
    r3.srcDevice = d3;
    r3.srcPitch = p3;
    r3.dstMemoryType = CU_MEMORYTYPE_HOST;
    r3.dstDevice = 0;
    r3.dstHost = back;
    r3.dstPitch = X * 4;
    r3.srcXInBytes = 4;  r3.srcY = 1; r3.srcZ = 2;   /* the box from (1,1,2) ... */
    r3.dstXInBytes = 4;  r3.dstY = 1; r3.dstZ = 2;   /* ... to the same place */
    r3.WidthInBytes = 3 * 4; r3.Height = 2; r3.Depth = 2;
    CK(cuMemcpy3DAsync(&r3, s));
    CK(cuStreamSynchronize(s));
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) {
                int in = z >= 2 && z < 4 && y >= 1 && y < 3 && x >= 1 && x < 4;
                EXPECT(back[z][y][x] == (in ? box[z][y][x] : 0.0f));
            }

    /* stream-ordered allocation and the default pool */
    CUmemoryPool pool;
    CK(cuDeviceGetDefaultMemPool(&pool, dev));
    cuuint64_t threshold = 1;
    CK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold));
    CUdeviceptr da;
    CK(cuMemAllocAsync(&da, 4096, s));
    CK(cuMemsetD32Async(da, 7, 1024, s));
    int h[1024];
    CK(cuMemcpyDtoHAsync(h, da, sizeof h, s));
    CK(cuMemFreeAsync(da, s));
    CK(cuStreamSynchronize(s));
    for (int i = 0; i < 1024; i++) EXPECT(h[i] == 7);

    /* managed memory, written by the host, added by a kernel, read by the host */
    int n = 3000;
    CUdeviceptr m;
    CK(cuMemAllocManaged(&m, (size_t)n * 4, CU_MEM_ATTACH_GLOBAL));
    float *mf = (float *)(uintptr_t)m;
    for (int i = 0; i < n; i++) mf[i] = (float)i;
    CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
    CK(cuMemAdvise(m, (size_t)n * 4, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc));
    CK(cuMemPrefetchAsync(m, (size_t)n * 4, loc, 0, s));
    void *pm[] = { &m, &m, &m, &n };
    CK(cuLaunchKernel(vadd, (unsigned)(n + 127) / 128, 1, 1, 128, 1, 1, 0, s, pm, NULL));
    CK(cuStreamSynchronize(s));
    for (int i = 0; i < n; i++) EXPECT(mf[i] == 2.0f * (float)i);
    int managed = 0;
    CK(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, m));
    EXPECT(managed == 1);

    /* mapped pinned memory as a kernel's output */
    float *pinned = NULL;
    CK(cuMemHostAlloc((void **)&pinned, (size_t)n * 4, CU_MEMHOSTALLOC_DEVICEMAP));
    CUdeviceptr dpinned;
    CK(cuMemHostGetDevicePointer(&dpinned, pinned, 0));
    void *pp[] = { &m, &m, &dpinned, &n };
    CK(cuLaunchKernel(vadd, (unsigned)(n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, pp, NULL));
    CK(cuCtxSynchronize());
    for (int i = 0; i < n; i++) EXPECT(pinned[i] == 4.0f * (float)i);
    unsigned flags = 0;
    CK(cuMemHostGetFlags(&flags, pinned));
    EXPECT(flags & CU_MEMHOSTALLOC_DEVICEMAP);

    /* pointer attributes of device, host and unknown memory */
    CUpointer_attribute attrs[] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
                                    CU_POINTER_ATTRIBUTE_CONTEXT };
    unsigned mt = 0;
    int ord = -1;
    CUdeviceptr start = 0;
    size_t rsize = 0;
    CUcontext pctx = NULL;
    void *data[] = { &mt, &ord, &start, &rsize, &pctx };
    CK(cuPointerGetAttributes(5, attrs, data, d16 + 10));
    EXPECT(mt == CU_MEMORYTYPE_DEVICE && ord == 0 && start == d16 && rsize == 2000 && pctx != NULL);
    CK(cuPointerGetAttributes(1, attrs, data, (CUdeviceptr)(uintptr_t)pinned));
    EXPECT(mt == CU_MEMORYTYPE_HOST);
    int local = 0;
    CK(cuPointerGetAttributes(1, attrs, data, (CUdeviceptr)(uintptr_t)&local));
    EXPECT(mt == 0);
    CKE(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)&local),
        CUDA_ERROR_INVALID_VALUE);

    /* capture queries */
    CUstreamCaptureStatus cs = CU_STREAM_CAPTURE_STATUS_ACTIVE;
    cuuint64_t cid = 0;
    CK(cuStreamGetCaptureInfo(s, &cs, &cid, NULL, NULL, NULL, NULL));
    EXPECT(cs == CU_STREAM_CAPTURE_STATUS_NONE);
    CK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    CK(cuStreamGetCaptureInfo(s, &cs, &cid, NULL, NULL, NULL, NULL));
    EXPECT(cs == CU_STREAM_CAPTURE_STATUS_ACTIVE);
    CUgraph g;
    CK(cuStreamEndCapture(s, &g));
    CK(cuGraphDestroy(g));

    /* a graph built node by node: fill, kernel (packed parameters), host function, copy back; launched twice */
    CUgraph gb;
    CK(cuGraphCreate(&gb, 0));
    CUdeviceptr gx, gy;
    CK(cuMemAlloc(&gx, (size_t)n * 4));
    CK(cuMemAlloc(&gy, (size_t)n * 4));
    CUgraphNode nfill, nkern, nhost, ncopy;
    CUDA_MEMSET_NODE_PARAMS mp = { gx, 0, 0, 1, (size_t)n * 4, 1 };
    CK(cuGraphAddMemsetNode(&nfill, gb, NULL, 0, &mp, ctx));
    struct { CUdeviceptr a, b, c; int n; } packed = { gx, m, gy, n };
    size_t psize = 3 * sizeof(CUdeviceptr) + sizeof(int);
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &psize, CU_LAUNCH_PARAM_END };
    CUDA_KERNEL_NODE_PARAMS kp;
    memset(&kp, 0, sizeof kp);
    kp.func = vadd;
    kp.gridDimX = (unsigned)(n + 127) / 128; kp.gridDimY = 1; kp.gridDimZ = 1;
    kp.blockDimX = 128; kp.blockDimY = 1; kp.blockDimZ = 1;
    kp.extra = extra;
    CK(cuGraphAddKernelNode(&nkern, gb, &nfill, 1, &kp));
    static int host_runs;
    CUDA_HOST_NODE_PARAMS hp = { count_run, &host_runs };
    CK(cuGraphAddHostNode(&nhost, gb, &nkern, 1, &hp));
    float *gout = malloc((size_t)n * 4);
    CUDA_MEMCPY3D cp;
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    cp.srcDevice = gy;
    cp.dstMemoryType = CU_MEMORYTYPE_HOST;
    cp.dstHost = gout;
    cp.WidthInBytes = (size_t)n * 4;
    cp.Height = 1;
    cp.Depth = 1;
    CK(cuGraphAddMemcpyNode(&ncopy, gb, &nhost, 1, &cp, ctx));
    size_t nnodes = 0;
    CK(cuGraphGetNodes(gb, NULL, &nnodes));
    EXPECT(nnodes == 4);
    CUgraphNodeType nt;
    CK(cuGraphNodeGetType(nkern, &nt));
    EXPECT(nt == CU_GRAPH_NODE_TYPE_KERNEL);
    CUgraphExec gexec;
    CK(cuGraphInstantiate(&gexec, gb, 0));
    CK(cuGraphLaunch(gexec, s));
    CK(cuGraphLaunch(gexec, s));
    CK(cuStreamSynchronize(s));
    EXPECT(host_runs == 2);
    for (int i = 0; i < n; i++) EXPECT(gout[i] == 2.0f * (float)i);   /* 0 + the managed array */
    CK(cuGraphExecDestroy(gexec));
    CK(cuGraphDestroy(gb));
    CK(cuMemFree(gx));
    CK(cuMemFree(gy));
    free(gout);

    CK(cuMemFreeHost(pinned));
    CK(cuMemFree(m));
    CK(cuMemFree(d2));
    CK(cuMemFree(d3));
    CK(cuMemFree(d16));
    CK(cuStreamDestroy(s));
    CK(cuModuleUnload(mod));
    CK(cuCtxDestroy(ctx));
    free(ptx);
    printf("PASS drv_memory\n");
    return 0;
}
