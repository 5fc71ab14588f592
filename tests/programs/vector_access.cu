// warpsim test: vector loads and stores (ld/st .v2 and .v4 of 32-bit elements, .v2 of 64-bit ones) in global and
// shared memory, as uint4/float4/float2/double2 copies compile to: full warps (warpsim's whole-warp path), a partial
// last warp, lanes that read one address, and a vector load whose destination is its own base register; results
// against the CPU. With the argument "misaligned" it runs only a float4 read 4 bytes off its alignment instead, which
// must fail the launch with cudaErrorMisalignedAddress (tests/cli/vector_misaligned.sh).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 20) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

// out[i] = in[i] * 2 + i as float4, n4 vectors (the last warp partial when n4 is not a multiple of 32)
__global__ void scale4(const float4 *in, float4 *out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = in[i];
    out[i] = make_float4(v.x * 2 + i, v.y * 2 + i, v.z * 2 + i, v.w * 2 + i);
  }
}

// a 128-thread block stages 128 uint4 in shared memory and writes them back reversed, each word xored with its lane
__global__ void stage_reverse(const uint4 *in, uint4 *out) {
  __shared__ uint4 s[128];
  int t = threadIdx.x, b = blockIdx.x * 128;
  s[t] = in[b + t];
  __syncthreads();
  uint4 v = s[127 - t];
  unsigned x = t & 31;
  out[b + t] = make_uint4(v.x ^ x, v.y ^ x, v.z ^ x, v.w ^ x);
}

// float2 and double2 through shared memory; every lane also reads element 0 (one address for the whole warp)
__global__ void pairs(const float2 *f, const double2 *d, float2 *fo, double2 *dout) {
  __shared__ float2 sf[64];
  __shared__ double2 sd[64];
  int t = threadIdx.x;
  sf[t] = f[t];
  sd[t] = d[t];
  __syncthreads();
  float2 a = sf[(t + 5) % 64], z = sf[0];
  double2 c = sd[(t * 7) % 64], y = sd[0];
  fo[t] = make_float2(a.x + z.x, a.y - z.y);
  dout[t] = make_double2(c.x * y.x, c.y + y.y);
}

// ld.global.v2.u64 whose first destination is its base register: every lane must read from its own address
__global__ void self_base(const unsigned long long *tab, unsigned long long *out) {
  int t = threadIdx.x;
  unsigned long long p = (unsigned long long)(tab + 2 * t), q;
  asm volatile("ld.global.v2.u64 {%0, %1}, [%0];" : "+l"(p), "=l"(q));
  out[2 * t] = p;
  out[2 * t + 1] = q;
}

// a float4 read 4 bytes past a 16-byte boundary
__global__ void misaligned4(const float *base, float4 *out) {
  const float4 *p = (const float4 *)(base + 1);
  out[threadIdx.x] = p[threadIdx.x];
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "misaligned")) {
    float *dm;
    float4 *dmo;
    CHECK(cudaMalloc(&dm, 4096));
    CHECK(cudaMalloc(&dmo, 32 * 16));
    CHECK(cudaMemset(dm, 0, 4096));
    misaligned4<<<1, 32>>>(dm, dmo);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s misaligned float4 read: %s\n", e == cudaErrorMisalignedAddress ? "PASS" : "FAIL", cudaGetErrorName(e));
    cudaFree(dm);
    cudaFree(dmo);
    return e == cudaErrorMisalignedAddress ? 0 : 1;
  }
  // scale4: 1000 vectors (31 full warps and one of 8 lanes)
  const int n4 = 1000;
  float *hin = (float *)malloc(n4 * 16), *hout = (float *)malloc(n4 * 16);
  for (int i = 0; i < 4 * n4; i++) hin[i] = (float)((i * 37) % 101) - 50.0f;
  float4 *din, *dout;
  CHECK(cudaMalloc(&din, n4 * 16));
  CHECK(cudaMalloc(&dout, n4 * 16));
  CHECK(cudaMemcpy(din, hin, n4 * 16, cudaMemcpyHostToDevice));
  scale4<<<(n4 + 127) / 128, 128>>>(din, dout, n4);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout, dout, n4 * 16, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 4 * n4; i++) EXPECT(hout[i] == hin[i] * 2 + i / 4, "scale4[%d] = %g, want %g", i, hout[i], hin[i] * 2 + i / 4);

  // stage_reverse: 4 blocks
  const int nu = 4 * 128;
  unsigned *hu = (unsigned *)malloc(nu * 16), *hv = (unsigned *)malloc(nu * 16);
  for (int i = 0; i < 4 * nu; i++) hu[i] = 0x9e3779b9u * (unsigned)(i + 1);
  uint4 *du, *dv;
  CHECK(cudaMalloc(&du, nu * 16));
  CHECK(cudaMalloc(&dv, nu * 16));
  CHECK(cudaMemcpy(du, hu, nu * 16, cudaMemcpyHostToDevice));
  stage_reverse<<<4, 128>>>(du, dv);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hv, dv, nu * 16, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 4; b++)
    for (int t = 0; t < 128; t++)
      for (int e = 0; e < 4; e++) {
        unsigned want = hu[4 * (b * 128 + 127 - t) + e] ^ (unsigned)(t & 31);
        EXPECT(hv[4 * (b * 128 + t) + e] == want, "stage_reverse block %d thread %d word %d = %08x, want %08x", b, t, e,
               hv[4 * (b * 128 + t) + e], want);
      }

  // pairs
  float hf[128], hfo[128];
  double hd[128], hdo[128];
  for (int i = 0; i < 128; i++) { hf[i] = 0.25f * (float)(i - 60); hd[i] = 1.0 / (double)(i + 3); }
  float2 *df, *dfo;
  double2 *dd, *ddo;
  CHECK(cudaMalloc(&df, sizeof hf));
  CHECK(cudaMalloc(&dfo, sizeof hfo));
  CHECK(cudaMalloc(&dd, sizeof hd));
  CHECK(cudaMalloc(&ddo, sizeof hdo));
  CHECK(cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice));
  pairs<<<1, 64>>>(df, dd, dfo, ddo);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hfo, dfo, sizeof hfo, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hdo, ddo, sizeof hdo, cudaMemcpyDeviceToHost));
  for (int t = 0; t < 64; t++) {
    int a = (t + 5) % 64, c = (t * 7) % 64;
    EXPECT(hfo[2 * t] == hf[2 * a] + hf[0] && hfo[2 * t + 1] == hf[2 * a + 1] - hf[1], "pairs float2 %d", t);
    EXPECT(hdo[2 * t] == hd[2 * c] * hd[0] && hdo[2 * t + 1] == hd[2 * c + 1] + hd[1], "pairs double2 %d", t);
  }

  // self_base
  unsigned long long ht[64], ho[64];
  for (int i = 0; i < 64; i++) ht[i] = 0x0123456789abcdefull * (unsigned long long)(i + 1);
  unsigned long long *dt, *dov;
  CHECK(cudaMalloc(&dt, sizeof ht));
  CHECK(cudaMalloc(&dov, sizeof ho));
  CHECK(cudaMemcpy(dt, ht, sizeof ht, cudaMemcpyHostToDevice));
  self_base<<<1, 32>>>(dt, dov);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ho, dov, sizeof ho, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; i++) EXPECT(ho[i] == ht[i], "self_base[%d] = %llx, want %llx", i, ho[i], ht[i]);

  free(hin); free(hout); free(hu); free(hv);
  CHECK(cudaFree(din)); CHECK(cudaFree(dout)); CHECK(cudaFree(du)); CHECK(cudaFree(dv));
  CHECK(cudaFree(df)); CHECK(cudaFree(dfo)); CHECK(cudaFree(dd)); CHECK(cudaFree(ddo));
  CHECK(cudaFree(dt)); CHECK(cudaFree(dov));
  if (g_fail) { printf("FAIL: %d mismatches\n", g_fail); return 1; }
  printf("PASS vector_access\n");
  return 0;
}
