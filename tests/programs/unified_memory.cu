// warpsim test: Unified Memory: cudaMallocManaged, CPU writes then GPU kernel reads/writes the same pointers, host reads after cudaDeviceSynchronize, a managed linked structure, optional prefetch (seed: 003 Module 18.1-18.3)
#include <cstdio>
#include <cstdlib>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

__global__ void add(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + y[i];
}

struct Node { int value; Node *next; };
// walk a linked list built on the host in managed memory (pointers valid on both sides)
__global__ void walk(const Node *head, int *sum, int *count) {
  int s = 0, c = 0;
  for (const Node *p = head; p; p = p->next) { s += p->value; c++; }
  *sum = s; *count = c;
}
__global__ void fill(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i * 3 + 1;
}

int main() {
  const int n = 1 << 20;
  float *x, *y;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&y, n * sizeof(float)));
  for (int i = 0; i < n; i++) { x[i] = 1.0f; y[i] = 2.0f; }    // CPU writes
  int blocks = (n + 255) / 256;
  add<<<blocks, 256>>>(n, x, y);                               // GPU reads/writes the same pointers
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());                              // REQUIRED before the CPU reads y
  printf("%f\n", y[0]);                                        // CPU reads (the seed's printf)
  for (int i = 0; i < n; i++) EXPECT(y[i] == 3.0f, "y[%d] = %g after one add, expected 3", i, y[i]);
  add<<<blocks, 256>>>(n, x, y);                               // run twice
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; i++) EXPECT(y[i] == 4.0f, "y[%d] = %g after two adds, expected 4", i, y[i]);
  // CPU modifies between kernels
  for (int i = 0; i < n; i += 2) x[i] = -1.0f;
  add<<<blocks, 256>>>(n, x, y);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; i++) EXPECT(y[i] == (i % 2 ? 5.0f : 3.0f), "y[%d] = %g after host update, expected %g", i, y[i], i % 2 ? 5.0f : 3.0f);
  printf("managed vector add: CPU writes, GPU adds three times, CPU reads: ok\n");

  // a linked structure: no deep copy needed
  {
    const int len = 100;
    Node *nodes; int *sum, *count;
    CHECK(cudaMallocManaged(&nodes, len * sizeof(Node)));
    CHECK(cudaMallocManaged(&sum, sizeof(int)));
    CHECK(cudaMallocManaged(&count, sizeof(int)));
    int expect = 0;
    for (int i = 0; i < len; i++) {      // link in a scrambled order
      int j = (i * 37) % len;
      nodes[j].value = i * i;
      nodes[j].next = (i + 1 < len) ? &nodes[((i + 1) * 37) % len] : nullptr;
      expect += i * i;
    }
    *sum = -1; *count = -1;
    walk<<<1, 1>>>(&nodes[0], sum, count);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    EXPECT(*sum == expect && *count == len, "linked list walk: sum %d count %d, expected %d %d", *sum, *count, expect, len);
    printf("managed linked list of %d nodes walked on the GPU: sum %d\n", len, *sum);
    CHECK(cudaFree(nodes)); CHECK(cudaFree(sum)); CHECK(cudaFree(count));
  }

  // prefetch to the GPU and back where the device supports it (CUDA 13 takes a cudaMemLocation)
  {
    int dev = 0; CHECK(cudaGetDevice(&dev));
    int cma = 0; CHECK(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, dev));
    const int m = 1 << 16;
    int *a; CHECK(cudaMallocManaged(&a, m * sizeof(int)));
    for (int i = 0; i < m; i++) a[i] = 0;
    cudaStream_t st; CHECK(cudaStreamCreate(&st));
    if (cma) {
      cudaMemLocation loc; loc.type = cudaMemLocationTypeDevice; loc.id = dev;
      CHECK(cudaMemPrefetchAsync(a, m * sizeof(int), loc, 0, st));
    }
    fill<<<(m + 255) / 256, 256, 0, st>>>(a, m);
    CHECK(cudaGetLastError());
    if (cma) {
      cudaMemLocation host; host.type = cudaMemLocationTypeHost; host.id = 0;
      CHECK(cudaMemPrefetchAsync(a, m * sizeof(int), host, 0, st));
    }
    CHECK(cudaStreamSynchronize(st));
    for (int i = 0; i < m; i++) EXPECT(a[i] == i * 3 + 1, "prefetch: a[%d] = %d", i, a[i]);
    printf("stream-ordered kernel on managed memory%s: ok\n", cma ? " with prefetch to device and back" : " (no concurrent managed access: prefetch skipped)");
    CHECK(cudaStreamDestroy(st));
    CHECK(cudaFree(a));
  }
  CHECK(cudaFree(x)); CHECK(cudaFree(y));
  if (g_fail) { printf("FAIL: unified_memory: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS unified_memory\n");
  return 0;
}
