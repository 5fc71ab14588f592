// warpsim test: stream-ordered allocation and graph memory nodes (issue 11 item 6): cudaMallocAsync /
// cudaFreeAsync on a stream, the default pool's attributes (release threshold, used and reserved bytes with their
// high-water marks), a created pool (cudaMemPoolCreate, cudaMallocFromPoolAsync, cudaDeviceSetMemPool,
// cudaMemPoolTrimTo, cudaMemPoolDestroy), a graph built with cudaGraphAddMemAllocNode / cudaGraphAddMemFreeNode
// around a kernel node, and the same nodes made by capturing cudaMallocAsync / cudaFreeAsync; each graph is
// launched twice and its results checked against the CPU.
// CHECK: api-errors
// (a read-only pool attribute and destroying the default pool fail on purpose)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); g_fail++; } } while (0)

__global__ void fill(int *p, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i * k + 1;
}
__global__ void axpy(const int *x, int *y, int n, int a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

static unsigned long long attr64(cudaMemPool_t p, cudaMemPoolAttr a) {
  unsigned long long v = 0;
  CHECK(cudaMemPoolGetAttribute(p, a, &v));
  return v;
}

static void check_fill(const std::vector<int> &h, int n, int k, int a, const char *what) {
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int want = (i * k + 1) * (1 + a);
    if (h[i] != want) { if (bad++ < 3) printf("%s: [%d] = %d, expected %d\n", what, i, h[i], want); }
  }
  EXPECT(bad == 0, "%s: %d wrong values", what, bad);
}

int main() {
  const int n = 10000;
  const size_t bytes = n * sizeof(int);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  std::vector<int> h(n);

  // --- the default pool ---
  cudaMemPool_t def, cur;
  CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
  CHECK(cudaDeviceGetMemPool(&cur, 0));
  EXPECT(def == cur, "the current pool is the default one");
  unsigned long long thr = 64ull << 20;
  CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &thr));
  EXPECT(attr64(def, cudaMemPoolAttrReleaseThreshold) == thr, "release threshold reads back");
  int *x, *y;
  CHECK(cudaMallocAsync((void **)&x, bytes, s));
  CHECK(cudaMallocAsync((void **)&y, bytes, s));
  EXPECT(attr64(def, cudaMemPoolAttrUsedMemCurrent) >= 2 * bytes, "used bytes with two allocations: %llu",
         attr64(def, cudaMemPoolAttrUsedMemCurrent));
  EXPECT(attr64(def, cudaMemPoolAttrReservedMemCurrent) >= attr64(def, cudaMemPoolAttrUsedMemCurrent),
         "reserved >= used");
  fill<<<(n + 255) / 256, 256, 0, s>>>(x, n, 3);
  fill<<<(n + 255) / 256, 256, 0, s>>>(y, n, 3);
  axpy<<<(n + 255) / 256, 256, 0, s>>>(x, y, n, 2);
  CHECK(cudaMemcpyAsync(h.data(), y, bytes, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(x, s));
  CHECK(cudaFreeAsync(y, s));
  CHECK(cudaStreamSynchronize(s));
  check_fill(h, n, 3, 2, "cudaMallocAsync");
  EXPECT(attr64(def, cudaMemPoolAttrUsedMemCurrent) == 0, "used bytes after the frees: %llu",
         attr64(def, cudaMemPoolAttrUsedMemCurrent));
  EXPECT(attr64(def, cudaMemPoolAttrUsedMemHigh) >= 2 * bytes, "used high-water mark");
  unsigned long long zero = 0;
  CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &zero));
  EXPECT(attr64(def, cudaMemPoolAttrUsedMemHigh) == 0, "used high-water mark resets");
  EXPECT(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &zero) == cudaErrorInvalidValue,
         "the current count is read-only");
  int reuse = -1;
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
  EXPECT(reuse == 1, "opportunistic reuse is on by default");
  CHECK(cudaMemPoolTrimTo(def, 0));

  // --- a created pool ---
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  CHECK(cudaMemPoolCreate(&pool, &props));
  cudaMemAccessDesc acc = {};
  acc.location = props.location;
  acc.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolSetAccess(pool, &acc, 1));
  cudaMemAccessFlags af;
  cudaMemLocation loc = props.location;
  CHECK(cudaMemPoolGetAccess(&af, pool, &loc));
  EXPECT(af == cudaMemAccessFlagsProtReadWrite, "pool access");
  CHECK(cudaMallocFromPoolAsync((void **)&x, bytes, pool, s));
  EXPECT(attr64(pool, cudaMemPoolAttrUsedMemCurrent) >= bytes, "the created pool counts its allocation");
  EXPECT(attr64(def, cudaMemPoolAttrUsedMemCurrent) == 0, "the default pool does not");
  CHECK(cudaDeviceSetMemPool(0, pool));
  CHECK(cudaMallocAsync((void **)&y, bytes, s));   // from the current pool: the created one
  EXPECT(attr64(pool, cudaMemPoolAttrUsedMemCurrent) >= 2 * bytes, "cudaMallocAsync uses the current pool");
  fill<<<(n + 255) / 256, 256, 0, s>>>(x, n, 5);
  fill<<<(n + 255) / 256, 256, 0, s>>>(y, n, 5);
  axpy<<<(n + 255) / 256, 256, 0, s>>>(x, y, n, 4);
  CHECK(cudaMemcpyAsync(h.data(), y, bytes, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(x, s));
  CHECK(cudaFreeAsync(y, s));
  CHECK(cudaStreamSynchronize(s));
  check_fill(h, n, 5, 4, "cudaMallocFromPoolAsync");
  CHECK(cudaDeviceSetMemPool(0, def));
  CHECK(cudaMemPoolTrimTo(pool, 0));
  CHECK(cudaMemPoolDestroy(pool));
  EXPECT(cudaMemPoolDestroy(def) == cudaErrorInvalidValue, "the default pool cannot be destroyed");
  cudaGetLastError();

  // --- a graph with explicit memory nodes: alloc x, alloc y, fill both, axpy, copy out, free both ---
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = bytes;
  cudaGraphNode_t ax, ay, fx, fy, k, cp, frx, fry;
  CHECK(cudaGraphAddMemAllocNode(&ax, g, NULL, 0, &ap));
  int *gx = (int *)ap.dptr;
  CHECK(cudaGraphAddMemAllocNode(&ay, g, &ax, 1, &ap));
  int *gy = (int *)ap.dptr;
  EXPECT(gx && gy && gx != gy, "allocation nodes give two addresses");
  int nn = n, k7 = 7, a3 = 3;
  cudaKernelNodeParams kp = {};
  kp.func = (void *)fill;
  kp.gridDim = dim3((n + 255) / 256);
  kp.blockDim = dim3(256);
  void *fa[] = { &gx, &nn, &k7 };
  kp.kernelParams = fa;
  CHECK(cudaGraphAddKernelNode(&fx, g, &ay, 1, &kp));
  void *fb[] = { &gy, &nn, &k7 };
  kp.kernelParams = fb;
  CHECK(cudaGraphAddKernelNode(&fy, g, &fx, 1, &kp));
  void *xa[] = { &gx, &gy, &nn, &a3 };
  kp.func = (void *)axpy;
  kp.kernelParams = xa;
  CHECK(cudaGraphAddKernelNode(&k, g, &fy, 1, &kp));
  CHECK(cudaGraphAddMemcpyNode1D(&cp, g, &k, 1, h.data(), gy, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaGraphAddMemFreeNode(&frx, g, &cp, 1, gx));
  CHECK(cudaGraphAddMemFreeNode(&fry, g, &frx, 1, gy));
  cudaMemAllocNodeParams back = {};
  CHECK(cudaGraphMemAllocNodeGetParams(ax, &back));
  EXPECT(back.dptr == gx && back.bytesize == bytes, "alloc node parameters read back");
  void *fp = NULL;
  CHECK(cudaGraphMemFreeNodeGetParams(fry, &fp));
  EXPECT(fp == gy, "free node parameter reads back");
  cudaGraphNodeType ty;
  CHECK(cudaGraphNodeGetType(ax, &ty));
  EXPECT(ty == cudaGraphNodeTypeMemAlloc, "alloc node type %d", (int)ty);
  CHECK(cudaGraphNodeGetType(frx, &ty));
  EXPECT(ty == cudaGraphNodeTypeMemFree, "free node type %d", (int)ty);
  cudaGraphExec_t ge;
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  for (int rep = 0; rep < 2; rep++) {
    std::fill(h.begin(), h.end(), 0);
    CHECK(cudaGraphLaunch(ge, s));
    CHECK(cudaStreamSynchronize(s));
    check_fill(h, n, 7, 3, "graph memory nodes");
  }
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));

  // --- the same made by stream capture of cudaMallocAsync / cudaFreeAsync ---
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMallocAsync((void **)&x, bytes, s));
  CHECK(cudaMallocAsync((void **)&y, bytes, s));
  fill<<<(n + 255) / 256, 256, 0, s>>>(x, n, 9);
  fill<<<(n + 255) / 256, 256, 0, s>>>(y, n, 9);
  axpy<<<(n + 255) / 256, 256, 0, s>>>(x, y, n, 5);
  CHECK(cudaMemcpyAsync(h.data(), y, bytes, cudaMemcpyDeviceToHost, s));
  CHECK(cudaFreeAsync(x, s));
  CHECK(cudaFreeAsync(y, s));
  cudaGraph_t cg;
  CHECK(cudaStreamEndCapture(s, &cg));
  size_t nnodes = 0;
  CHECK(cudaGraphGetNodes(cg, NULL, &nnodes));
  std::vector<cudaGraphNode_t> nodes(nnodes);
  CHECK(cudaGraphGetNodes(cg, nodes.data(), &nnodes));
  int nalloc = 0, nfree = 0;
  for (size_t i = 0; i < nnodes; i++) {
    CHECK(cudaGraphNodeGetType(nodes[i], &ty));
    nalloc += ty == cudaGraphNodeTypeMemAlloc;
    nfree += ty == cudaGraphNodeTypeMemFree;
  }
  EXPECT(nalloc == 2 && nfree == 2, "captured graph: %d alloc and %d free nodes of %zu", nalloc, nfree, nnodes);
  CHECK(cudaGraphInstantiate(&ge, cg, 0));
  for (int rep = 0; rep < 2; rep++) {
    std::fill(h.begin(), h.end(), 0);
    CHECK(cudaGraphLaunch(ge, s));
    CHECK(cudaStreamSynchronize(s));
    check_fill(h, n, 9, 5, "captured cudaMallocAsync graph");
  }
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(cg));
  CHECK(cudaDeviceGraphMemTrim(0));
  CHECK(cudaStreamDestroy(s));
  if (g_fail) { printf("FAILED %d checks\n", g_fail); return 1; }
  printf("PASS stream_ordered_alloc\n");
  return 0;
}
