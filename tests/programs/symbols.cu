// warpsim test: __constant__ and __device__ globals with initializers, cudaMemcpyToSymbol (with offset), cudaMemcpyFromSymbol, cudaGetSymbolAddress, cudaGetSymbolSize, a __device__ counter shared between kernels (seed: 003 Module 12.1 constant memory, 14.1 mask in constant memory)
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

struct Params { int n; float scale; double offset; short tag[3]; };

__constant__ float c_coef[8] = {1.0f, 0.5f, 0.25f, 0.125f, -1.0f, -2.0f, 3.5f, 100.0f};
__constant__ Params c_params = {17, 2.5f, -0.75, {7, 8, 9}};
__constant__ int c_zero[4];                               // no initializer: zero-filled
__device__ int d_counter = 42;
__device__ unsigned long long d_table[6] = {1ULL, 2ULL, 3ULL, 0xFFFFFFFFFFFFFFFFULL, 0x123456789ABCDEFULL, 0};
__device__ double d_scalar = 3.25;
__device__ float d_result[64];

__global__ void read_all(float *f, long long *l, double *d) {
  int t = threadIdx.x;
  if (t < 8) f[t] = c_coef[t] * c_params.scale;            // every lane reads a different constant (no broadcast)
  if (t == 8) { f[8] = (float)c_params.n; d[0] = c_params.offset; d[1] = d_scalar; }
  if (t >= 9 && t < 12) l[t - 9] = c_params.tag[t - 9];
  if (t >= 12 && t < 18) l[t - 9] = (long long)d_table[t - 12];
  if (t >= 18 && t < 22) l[t - 9] = c_zero[t - 18];
  if (t == 22) l[13] = d_counter;
}
__global__ void bump(int times) { for (int i = 0; i < times; i++) atomicAdd(&d_counter, 1); }
__global__ void use_mask(const float *in, int n) {           // all lanes read the same c_coef[k]: a broadcast
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float s = 0.0f;
  for (int k = 0; k < 8; k++) s += c_coef[k] * in[(t + k) % n];
  if (t < 64) d_result[t] = s;                             // d_result holds 64 entries; n may be larger
}
__global__ void via_pointer(unsigned long long *p, int n) { int t = threadIdx.x; if (t < n) p[t] = p[t] * 2 + t; }

int main() {
  float *f; long long *l; double *d;
  CHECK(cudaMalloc(&f, 16 * sizeof(float))); CHECK(cudaMalloc(&l, 16 * sizeof(long long))); CHECK(cudaMalloc(&d, 2 * sizeof(double)));
  // the kernel writes only some entries; the host copies all back (initcheck: no copy of never-written bytes)
  CHECK(cudaMemset(f, 0, 16 * sizeof(float))); CHECK(cudaMemset(l, 0, 16 * sizeof(long long)));
  // 1. initializers are visible to kernels
  read_all<<<1, 32>>>(f, l, d);
  CHECK_LAUNCH();
  float hf[16]; long long hl[16]; double hd[2];
  CHECK(cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hl, l, sizeof hl, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost));
  const float coef0[8] = {1.0f, 0.5f, 0.25f, 0.125f, -1.0f, -2.0f, 3.5f, 100.0f};
  for (int k = 0; k < 8; k++) EXPECT(hf[k] == coef0[k] * 2.5f, "initial c_coef[%d]*scale = %g, expected %g", k, hf[k], coef0[k] * 2.5f);
  EXPECT(hf[8] == 17.0f && hd[0] == -0.75 && hd[1] == 3.25, "initial c_params.n %g offset %g d_scalar %g", hf[8], hd[0], hd[1]);
  EXPECT(hl[0] == 7 && hl[1] == 8 && hl[2] == 9, "initial c_params.tag = %lld %lld %lld", hl[0], hl[1], hl[2]);
  const unsigned long long tab0[6] = {1ULL, 2ULL, 3ULL, 0xFFFFFFFFFFFFFFFFULL, 0x123456789ABCDEFULL, 0};
  for (int k = 0; k < 6; k++) EXPECT((unsigned long long)hl[3 + k] == tab0[k], "initial d_table[%d] = %llx", k, (unsigned long long)hl[3 + k]);
  for (int k = 0; k < 4; k++) EXPECT(hl[9 + k] == 0, "c_zero[%d] = %lld", k, hl[9 + k]);
  EXPECT(hl[13] == 42, "initial d_counter = %lld, expected 42", hl[13]);
  printf("initializers: c_coef, c_params, d_table, d_counter = 42 visible to the kernel\n");

  // 2. cudaMemcpyFromSymbol reads the initial values on the host too
  float hc[8]; Params hp; int hcount = 0;
  CHECK(cudaMemcpyFromSymbol(hc, c_coef, sizeof hc));
  CHECK(cudaMemcpyFromSymbol(&hp, c_params, sizeof hp));
  CHECK(cudaMemcpyFromSymbol(&hcount, d_counter, sizeof(int)));
  EXPECT(memcmp(hc, coef0, sizeof hc) == 0, "cudaMemcpyFromSymbol(c_coef) differs from the initializer");
  EXPECT(hp.n == 17 && hp.scale == 2.5f && hp.offset == -0.75 && hp.tag[2] == 9, "cudaMemcpyFromSymbol(c_params) = {%d, %g, %g}", hp.n, hp.scale, hp.offset);
  EXPECT(hcount == 42, "cudaMemcpyFromSymbol(d_counter) = %d", hcount);

  // 3. a __device__ counter updated by one kernel is seen by the next and by the host
  bump<<<4, 64>>>(3);
  CHECK_LAUNCH();
  CHECK(cudaMemcpyFromSymbol(&hcount, d_counter, sizeof(int)));
  EXPECT(hcount == 42 + 4 * 64 * 3, "d_counter after bump = %d, expected %d", hcount, 42 + 768);
  int newc = -5;
  CHECK(cudaMemcpyToSymbol(d_counter, &newc, sizeof(int)));
  bump<<<1, 10>>>(1);
  CHECK_LAUNCH();
  CHECK(cudaMemcpyFromSymbol(&hcount, d_counter, sizeof(int)));
  EXPECT(hcount == 5, "d_counter after reset and bump = %d, expected 5", hcount);

  // 4. cudaMemcpyToSymbol, whole and with an offset
  float nc[8] = {2, 4, 6, 8, 10, 12, 14, 16};
  CHECK(cudaMemcpyToSymbol(c_coef, nc, sizeof nc));
  float tail[2] = {-7.5f, 0.0625f};
  CHECK(cudaMemcpyToSymbol(c_coef, tail, sizeof tail, 5 * sizeof(float)));   // c_coef[5..6]
  nc[5] = tail[0]; nc[6] = tail[1];
  Params np = {3, -1.0f, 10.0, {1, 2, 3}};
  CHECK(cudaMemcpyToSymbol(c_params, &np, sizeof np));
  read_all<<<1, 32>>>(f, l, d);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hl, l, sizeof hl, cudaMemcpyDeviceToHost));
  for (int k = 0; k < 8; k++) EXPECT(hf[k] == nc[k] * -1.0f, "updated c_coef[%d]*scale = %g, expected %g", k, hf[k], -nc[k]);
  EXPECT(hf[8] == 3.0f && hl[2] == 3, "updated c_params not visible");
  float back[3];
  CHECK(cudaMemcpyFromSymbol(back, c_coef, sizeof back, 4 * sizeof(float)));   // c_coef[4..6]
  EXPECT(back[0] == 10 && back[1] == -7.5f && back[2] == 0.0625f, "cudaMemcpyFromSymbol with offset = %g %g %g", back[0], back[1], back[2]);

  // 5. a broadcast read of the mask in a loop
  {
    const int n = 200;
    float hin[n], hres[n];
    for (int i = 0; i < n; i++) hin[i] = (float)(i % 10) - 4.0f;
    float *din; CHECK(cudaMalloc(&din, sizeof hin));
    CHECK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));
    use_mask<<<(n + 63) / 64, 64>>>(din, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpyFromSymbol(hres, d_result, 64 * sizeof(float)));
    for (int t = 0; t < 64; t++) {
      float s = 0.0f; for (int k = 0; k < 8; k++) s += nc[k] * hin[(t + k) % n];
      EXPECT(hres[t] == s, "use_mask: d_result[%d] = %g, expected %g", t, hres[t], s);
    }
    CHECK(cudaFree(din));
  }

  // 6. cudaGetSymbolAddress / cudaGetSymbolSize: use the symbol as an ordinary device pointer
  void *p = nullptr; size_t sz = 0;
  CHECK(cudaGetSymbolAddress(&p, d_table));
  CHECK(cudaGetSymbolSize(&sz, d_table));
  EXPECT(p != nullptr && sz == 6 * sizeof(unsigned long long), "d_table symbol: address %p size %zu", p, sz);
  CHECK(cudaGetSymbolSize(&sz, c_params));
  EXPECT(sz == sizeof(Params), "c_params symbol size %zu, expected %zu", sz, sizeof(Params));
  via_pointer<<<1, 32>>>((unsigned long long *)p, 6);
  CHECK_LAUNCH();
  unsigned long long ht[6];
  CHECK(cudaMemcpy(ht, p, sizeof ht, cudaMemcpyDeviceToHost));                    // plain cudaMemcpy on the symbol's address
  for (int k = 0; k < 6; k++) EXPECT(ht[k] == tab0[k] * 2 + k, "d_table[%d] via pointer = %llx, expected %llx", k, ht[k], tab0[k] * 2 + k);
  unsigned long long ht2[6];
  CHECK(cudaMemcpyFromSymbol(ht2, d_table, sizeof ht2));
  EXPECT(memcmp(ht, ht2, sizeof ht) == 0, "cudaMemcpyFromSymbol and cudaMemcpy through the symbol address disagree");
  unsigned long long seven = 7;
  CHECK(cudaMemcpy((unsigned long long *)p + 5, &seven, sizeof seven, cudaMemcpyHostToDevice));
  read_all<<<1, 32>>>(f, l, d);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(hl, l, sizeof hl, cudaMemcpyDeviceToHost));
  EXPECT(hl[8] == 7, "write through symbol address not visible to the kernel: %lld", hl[8]);
  printf("cudaMemcpyToSymbol/FromSymbol (with offsets), cudaGetSymbolAddress/Size, device counter across kernels: ok\n");

  CHECK(cudaFree(f)); CHECK(cudaFree(l)); CHECK(cudaFree(d));
  if (g_fail) { printf("FAIL: symbols: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS symbols\n");
  return 0;
}
