// warpsim test: taking the address of a kernel parameter (issue 11 item 6): __grid_constant__ parameters whose
// address is used, so nvcc addresses the parameter space directly (mov of the parameter's address, ld.param
// through a register, cvta.param to a generic pointer that a device function reads), next to an ordinary by-value
// struct whose address is taken (copied to local memory by nvcc).
#include <cstdio>
#include <cstdlib>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)

struct Table { int v[16]; float scale; };

// reads through a generic pointer: the caller passes the address of a kernel parameter
__device__ __noinline__ int sum_prefix(const int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}

__global__ void grid_const(const __grid_constant__ Table t, const __grid_constant__ int n, int *out) {
  const int *p = t.v;                        // generic address of the parameter space
  int i = threadIdx.x;
  int v = p[i % 16];                         // ld.param through a register
  const int *q = &n;
  out[i] = sum_prefix(p, *q) + v * (int)t.scale;
}

__global__ void by_value(Table t, int n, int *out) {
  int *p = t.v;                              // a writable copy: nvcc puts it in local memory
  p[threadIdx.x % 16] += 1;
  out[threadIdx.x] = sum_prefix(p, n) + p[(threadIdx.x + 3) % 16];
}

int main() {
  Table t;
  for (int i = 0; i < 16; i++) t.v[i] = i * i - 7;
  t.scale = 3.0f;
  int n = 11;
  int *d;
  CHECK(cudaMalloc(&d, 64 * sizeof(int)));
  grid_const<<<1, 64>>>(t, n, d);
  CHECK(cudaGetLastError());
  int h[64];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  int pre = 0, bad = 0;
  for (int i = 0; i < n; i++) pre += t.v[i];
  for (int i = 0; i < 64; i++) {
    int want = pre + t.v[i % 16] * 3;
    if (h[i] != want) { if (bad++ < 3) printf("grid_const: out[%d] = %d, expected %d\n", i, h[i], want); }
  }
  by_value<<<1, 16>>>(t, n, d);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h, d, 16 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 16; i++) {
    int c[16];
    for (int k = 0; k < 16; k++) c[k] = t.v[k];
    c[i] += 1;
    int s = 0;
    for (int k = 0; k < n; k++) s += c[k];
    int want = s + c[(i + 3) % 16];
    if (h[i] != want) { if (bad++ < 6) printf("by_value: out[%d] = %d, expected %d\n", i, h[i], want); }
  }
  if (bad) { printf("FAIL: %d wrong values\n", bad); return 1; }
  printf("PASS param_address\n");
  return 0;
}
