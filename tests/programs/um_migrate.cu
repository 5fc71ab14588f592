// warpsim test: Unified Memory page migration as the seed workbook teaches it (003 Module 18.2-18.3): the first
// kernel touching CPU-written managed pages faults them over the link and is slow, the second is not; prefetch
// removes the faults; read-mostly data is duplicated (no migration back on a CPU read); CPU access between kernels
// migrates pages back (ping-pong); mapped host pages (accessed-by) are read over the link; managed allocations larger than the device's memory work (oversubscription).
// Every case checks its results against a CPU reference. Usage: um_migrate [CASE [LOG2N]], CASE one of first,
// prefetch, readmostly, accessedby, pingpong, cache, oversub, all (default all); LOG2N sets the floats per array (default 18: 1 MiB).
// The page-fault counts and migrated bytes are checked from the run report by tests/cli/um_faults.sh.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

// y = a * x + y, one element per thread
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
// y[i] += 1
__global__ void bump(int n, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += 1.0f;
}
// a grid-stride sum of a large array into one partial per block (oversubscription)
__global__ void block_sums(size_t n, const unsigned *v, unsigned long long *part) {
  __shared__ unsigned long long s[256];
  unsigned long long acc = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) acc += v[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int d = blockDim.x / 2; d > 0; d /= 2) {
    if ((int)threadIdx.x < d) s[threadIdx.x] += s[threadIdx.x + d];
    __syncthreads();
  }
  if (threadIdx.x == 0) part[blockIdx.x] = s[0];
}

// strided re-reads of a 200 KB array (about an SM's L1): the cycle count depends on which cache sets the
// addresses fall in, so it repeats only when the addresses do
__global__ void gather(int m, const float *a, float *c) {
  float s = 0;
  for (int j = threadIdx.x; j < m; j += blockDim.x) s += a[(j * 7) % m];
  c[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static int n;            // floats per array
static int blocks;
static cudaEvent_t ev0, ev1;

// Launch saxpy on stream st and return its time in microseconds (cudaEvents).
static float timed_saxpy(float a, const float *x, float *y, cudaStream_t st) {
  CHECK(cudaEventRecord(ev0, st));
  saxpy<<<blocks, 256, 0, st>>>(n, a, x, y);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(ev1, st));
  CHECK(cudaEventSynchronize(ev1));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
  return ms * 1000.0f;
}

// Host wall time in microseconds.
static double host_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

// Fill x and y on the CPU (the pages start on the host).
static void init_xy(float *x, float *y) {
  for (int i = 0; i < n; i++) { x[i] = (float)(i % 97); y[i] = (float)(i % 13); }
}

// first touch: two saxpy launches; the first migrates x and y, the second finds them resident
static void case_first(void) {
  float *x, *y;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&y, n * sizeof(float)));
  init_xy(x, y);
  float t1 = timed_saxpy(2.0f, x, y, 0);
  float t2 = timed_saxpy(2.0f, x, y, 0);
  double h0 = host_us();
  for (int i = 0; i < n; i++) EXPECT(y[i] == 4.0f * (float)(i % 97) + (float)(i % 13), "first: y[%d] = %g", i, y[i]);
  printf("first: first kernel %.1f us, second %.1f us, CPU read of y %.1f us\n", t1, t2, host_us() - h0);
  CHECK(cudaFree(x)); CHECK(cudaFree(y));
}

// prefetch to the device before the kernel, back to the host before the CPU reads
static void case_prefetch(void) {
  float *x, *y;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&y, n * sizeof(float)));
  init_xy(x, y);
  cudaStream_t st; CHECK(cudaStreamCreate(&st));
  int dev = 0; CHECK(cudaGetDevice(&dev));
  cudaMemLocation d; d.type = cudaMemLocationTypeDevice; d.id = dev;
  cudaMemLocation h; h.type = cudaMemLocationTypeHost; h.id = 0;
  CHECK(cudaMemPrefetchAsync(x, n * sizeof(float), d, 0, st));
  CHECK(cudaMemPrefetchAsync(y, n * sizeof(float), d, 0, st));
  float t = timed_saxpy(3.0f, x, y, st);
  CHECK(cudaMemPrefetchAsync(y, n * sizeof(float), h, 0, st));
  CHECK(cudaStreamSynchronize(st));
  for (int i = 0; i < n; i++) EXPECT(y[i] == 3.0f * (float)(i % 97) + (float)(i % 13), "prefetch: y[%d] = %g", i, y[i]);
  printf("prefetch: kernel %.1f us\n", t);
  CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(x)); CHECK(cudaFree(y));
}

// x read-mostly: the GPU reads a copy, the CPU reads x again without a fault; y comes back to the CPU on its read
static void case_readmostly(void) {
  float *x, *y;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&y, n * sizeof(float)));
  init_xy(x, y);
  int dev = 0; CHECK(cudaGetDevice(&dev));
  cudaMemLocation d; d.type = cudaMemLocationTypeDevice; d.id = dev;
  CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, d));
  int rm = 0;
  CHECK(cudaMemRangeGetAttribute(&rm, sizeof rm, cudaMemRangeAttributeReadMostly, x, n * sizeof(float)));
  EXPECT(rm == 1, "readmostly: cudaMemRangeAttributeReadMostly of x is %d", rm);
  float t = timed_saxpy(1.0f, x, y, 0);
  double sx = 0;
  for (int i = 0; i < n; i++) sx += x[i];                  // a read of the duplicated pages: no migration
  for (int i = 0; i < n; i++) EXPECT(y[i] == (float)(i % 97) + (float)(i % 13), "readmostly: y[%d] = %g", i, y[i]);
  double ex = 0;
  for (int i = 0; i < n; i++) ex += (double)(i % 97);
  EXPECT(sx == ex, "readmostly: sum of x %g, expected %g", sx, ex);
  printf("readmostly: kernel %.1f us\n", t);
  CHECK(cudaFree(x)); CHECK(cudaFree(y));
}

// x stays on the host, mapped for the GPU (preferred location host + accessed-by): read over the link, never
// migrated, so the CPU reads it back without a fault
static void case_accessedby(void) {
  float *x, *y;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&y, n * sizeof(float)));
  init_xy(x, y);
  int dev = 0; CHECK(cudaGetDevice(&dev));
  cudaMemLocation d; d.type = cudaMemLocationTypeDevice; d.id = dev;
  cudaMemLocation h; h.type = cudaMemLocationTypeHost; h.id = 0;
  CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetPreferredLocation, h));
  CHECK(cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetAccessedBy, d));
  int pref = 0, by[2] = { -5, -5 };
  CHECK(cudaMemRangeGetAttribute(&pref, sizeof pref, cudaMemRangeAttributePreferredLocation, x, n * sizeof(float)));
  CHECK(cudaMemRangeGetAttribute(by, sizeof by, cudaMemRangeAttributeAccessedBy, x, n * sizeof(float)));
  EXPECT(pref == cudaCpuDeviceId, "accessedby: preferred location %d, expected cudaCpuDeviceId", pref);
  EXPECT(by[0] == dev && by[1] == cudaInvalidDeviceId, "accessedby: accessed by %d %d, expected %d and none", by[0], by[1], dev);
  float t = timed_saxpy(2.0f, x, y, 0);
  for (int i = 0; i < n; i++) EXPECT(y[i] == 2.0f * (float)(i % 97) + (float)(i % 13), "accessedby: y[%d] = %g", i, y[i]);
  for (int i = 0; i < n; i++) EXPECT(x[i] == (float)(i % 97), "accessedby: x[%d] = %g", i, x[i]);
  printf("accessedby: kernel %.1f us\n", t);
  CHECK(cudaFree(x)); CHECK(cudaFree(y));
}

// CPU and GPU take turns on y: every turn migrates it
static void case_pingpong(void) {
  float *y;
  CHECK(cudaMallocManaged(&y, n * sizeof(float)));
  for (int i = 0; i < n; i++) y[i] = (float)(i % 5);
  for (int it = 0; it < 3; it++) {
    CHECK(cudaEventRecord(ev0));
    bump<<<blocks, 256>>>(n, y);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(ev1));
    CHECK(cudaEventSynchronize(ev1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
    double h0 = host_us();
    for (int i = 0; i < n; i++) y[i] *= 2.0f;              // CPU writes between kernels
    printf("pingpong: turn %d kernel %.1f us, CPU pass %.1f us\n", it, ms * 1000.0f, host_us() - h0);
  }
  // ((v + 1) * 2 + 1) * 2 + 1) * 2 = 8v + 14
  for (int i = 0; i < n; i++) EXPECT(y[i] == 8.0f * (float)(i % 5) + 14.0f, "pingpong: y[%d] = %g", i, y[i]);
  printf("pingpong: 3 turns ok\n");
  CHECK(cudaFree(y));
}

// resident managed data read through the caches (prefetched: no faults); tests/cli/um_faults.sh compares its
// cycles across runs
static void case_cache(void) {
  const int m = 50000;
  float *a, *c;
  CHECK(cudaMallocManaged(&a, m * sizeof(float)));
  CHECK(cudaMallocManaged(&c, 132 * 256 * sizeof(float)));   // 132 KiB: like a, mapped apart from the C heap
  for (int i = 0; i < m; i++) a[i] = (float)(i % 5);
  int dev = 0; CHECK(cudaGetDevice(&dev));
  cudaMemLocation d; d.type = cudaMemLocationTypeDevice; d.id = dev;
  CHECK(cudaMemPrefetchAsync(a, m * sizeof(float), d, 0, 0));
  CHECK(cudaMemPrefetchAsync(c, 132 * 256 * sizeof(float), d, 0, 0));
  for (int rep = 0; rep < 2; rep++) {
    gather<<<2, 256>>>(m, a, c);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  for (int t = 0; t < 512; t++) {
    float s = 0;
    for (int j = t % 256; j < m; j += 256) s += (float)(((j * 7) % m) % 5);
    EXPECT(c[t] == s, "cache: c[%d] = %g, expected %g", t, c[t], s);
  }
  printf("cache: ok\n");
  CHECK(cudaFree(a)); CHECK(cudaFree(c));
}

// more managed memory than the device has (run it with a small global_mem): the kernel still sums it right
static void case_oversub(void) {
  size_t free_b = 0, total = 0;
  CHECK(cudaMemGetInfo(&free_b, &total));
  if (total > ((size_t)1 << 30)) { printf("oversub: skipped (%zu MiB of device memory: too much to oversubscribe here)\n", total >> 20); return; }
  size_t cnt = total / sizeof(unsigned) * 3 / 2;            // 1.5 x the device's memory
  unsigned *v; unsigned long long *part;
  CHECK(cudaMallocManaged(&v, cnt * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&part, 64 * sizeof(unsigned long long)));
  unsigned long long expect = 0;
  for (size_t i = 0; i < cnt; i++) { v[i] = (unsigned)(i % 1000); expect += i % 1000; }
  for (int pass = 0; pass < 2; pass++) {
    block_sums<<<64, 256>>>(cnt, v, part);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    unsigned long long s = 0;
    for (int b = 0; b < 64; b++) s += part[b];
    EXPECT(s == expect, "oversub: pass %d sum %llu, expected %llu", pass, s, expect);
  }
  printf("oversub: %zu MiB managed on a %zu MiB device: sum ok\n", cnt * sizeof(unsigned) >> 20, total >> 20);
  CHECK(cudaFree(v)); CHECK(cudaFree(part));
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  int lg = argc > 2 ? atoi(argv[2]) : 18;
  if (lg < 10 || lg > 28) { printf("FAIL: LOG2N %d out of range 10..28\n", lg); return 2; }
  n = 1 << lg;
  blocks = (n + 255) / 256;
  CHECK(cudaEventCreate(&ev0)); CHECK(cudaEventCreate(&ev1));
  bump<<<1, 32>>>(0, nullptr);                               // load the module before anything is timed
  CHECK(cudaDeviceSynchronize());
  int all = !strcmp(which, "all"), any = 0;
  if (all || !strcmp(which, "first")) { case_first(); any = 1; }
  if (all || !strcmp(which, "prefetch")) { case_prefetch(); any = 1; }
  if (all || !strcmp(which, "readmostly")) { case_readmostly(); any = 1; }
  if (all || !strcmp(which, "accessedby")) { case_accessedby(); any = 1; }
  if (all || !strcmp(which, "pingpong")) { case_pingpong(); any = 1; }
  if (all || !strcmp(which, "cache")) { case_cache(); any = 1; }
  if (all || !strcmp(which, "oversub")) { case_oversub(); any = 1; }
  if (!any) { printf("FAIL: unknown case '%s'\n", which); return 2; }
  if (g_fail) { printf("FAIL: um_migrate: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS um_migrate %s\n", which);
  return 0;
}
