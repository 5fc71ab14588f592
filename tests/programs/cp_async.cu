// warpsim test: asynchronous copies global -> shared: cp.async.ca (4 and 8 bytes) and .cg (16 bytes) with src-size
// zero-fill, commit_group / wait_group / wait_all; a double-buffered tile sum through the pipeline primitives
// (__pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior); mbarrier init / arrive / test_wait /
// try_wait.parity / pending_count, cp.async.mbarrier.arrive.noinc, and cuda::barrier across the warps of a block.
// Every result is checked element by element against the host.
// NVCCFLAGS: -arch=sm_90 -diag-suppress 20054
// CHECK: races (early_read reads a cp.async destination before the wait on purpose: racecheck reports it)
// ARGS: 256
// TIMING_ARGS: 64
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_pipeline.h>
#include <cuda/barrier>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d\n", cudaGetErrorName(err_), __FILE__, __LINE__); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

__device__ __forceinline__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// each thread copies 4 + 8 + 16 bytes of its own 32-byte record; thread t keeps only (t % 17) bytes of the
// 16-byte copy (src-size), the rest reads as zeros
__global__ void raw_copies(const unsigned char *src, unsigned char *dst) {
  __shared__ __align__(16) unsigned char s[128 * 32];
  int t = threadIdx.x;
  for (int i = 0; i < 32; i++) s[t * 32 + i] = 0xee;
  __syncthreads();
  const unsigned char *g = src + t * 32;
  unsigned d = smem_addr(&s[t * 32]);
  unsigned keep = t % 17;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(d), "l"(g) : "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(d + 8), "l"(g + 8) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(d + 16), "l"(g + 16), "r"(keep) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 1;" ::: "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  for (int i = 0; i < 32; i++) dst[t * 32 + i] = s[t * 32 + i];
}

// sum of each 256-float row chunk, tiles double-buffered through the pipeline primitives
__global__ void pipelined_sum(const float *in, float *out, int tiles) {
  __shared__ __align__(16) float buf[2][256];
  int t = threadIdx.x;   // 64 threads, 4 floats (16 bytes) each per tile
  const float *base = in + (size_t)blockIdx.x * tiles * 256;
  __pipeline_memcpy_async(&buf[0][t * 4], base + t * 4, 16);
  __pipeline_commit();
  float acc = 0;
  for (int k = 0; k < tiles; k++) {
    if (k + 1 < tiles) __pipeline_memcpy_async(&buf[(k + 1) & 1][t * 4], base + (k + 1) * 256 + t * 4, 16);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    for (int i = 0; i < 4; i++) acc += buf[k & 1][(t * 4 + i + 4 * k) % 256];
    __syncthreads();
  }
  out[blockIdx.x * 64 + t] = acc;
}

// mbarrier by hand: 4 warps arrive per phase; thread 0 records states, test_wait and pending counts
__global__ void mbar_raw(int *out) {
  __shared__ __align__(8) unsigned long long bar;
  __shared__ __align__(16) int data[128];
  __shared__ __align__(16) int copy[128];
  int t = threadIdx.x;
  unsigned b = smem_addr(&bar);
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(128) : "memory");
  __syncthreads();
  for (int phase = 0; phase < 3; phase++) {
    data[t] = t * 10 + phase;
    unsigned long long st;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(b) : "memory");
    unsigned ok = 0;
    while (!ok) {
      asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(b), "l"(st) : "memory");
    }
    out[phase * 128 + t] = data[(t + 32) % 128];   // another warp's value, written before its arrival
    unsigned cnt;
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(cnt) : "l"(st));
    if (t == 0) out[384 + phase] = (int)cnt;
    __syncthreads();
  }
  // parity waits: phase 3 has parity 1 (phases 0, 1, 2 completed)
  asm volatile("mbarrier.arrive.shared.b64 _, [%0];" :: "r"(b) : "memory");
  unsigned ok = 0;
  while (!ok) asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(b), "r"(1) : "memory");
  __syncthreads();
  // cp.async completing on the barrier (.noinc: each thread's copy counts as its arrival)
  const int *src = out + 512;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem_addr(&copy[t])), "l"(src + t) : "memory");
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(b) : "memory");
  ok = 0;
  while (!ok) asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(b), "r"(0) : "memory");
  out[400 + t] = copy[(t + 64) % 128];
}

// a read of the destination before the wait: the old contents on the hardware (and in warpsim's timing mode) or
// the new ones (functional mode: the copy lands at issue); after the wait always the new ones
__global__ void early_read(const int *src, int *before, int *after) {
  __shared__ __align__(16) int s[128];
  int t = threadIdx.x;
  s[t] = -1;
  __syncthreads();
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem_addr(&s[t])), "l"(src + t) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  before[t] = *(volatile int *)&s[t];
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  after[t] = s[t];
}

// cuda::barrier: producer warps fill, all wait, consumers read
__global__ void cuda_barrier(int *out, int rounds) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int v[256];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  int acc = 0;
  for (int r = 0; r < rounds; r++) {
    v[threadIdx.x] = r * 1000 + threadIdx.x;
    bar.arrive_and_wait();
    acc += v[(threadIdx.x + 97) % blockDim.x];
    bar.arrive_and_wait();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 256;
  // raw copies
  std::vector<unsigned char> src(128 * 32), dst(128 * 32);
  for (int i = 0; i < 128 * 32; i++) src[i] = (unsigned char)(i * 7 + 3);
  unsigned char *ds, *dd;
  CHECK(cudaMalloc(&ds, src.size())); CHECK(cudaMalloc(&dd, dst.size()));
  CHECK(cudaMemcpy(ds, src.data(), src.size(), cudaMemcpyHostToDevice));
  raw_copies<<<1, 128>>>(ds, dd);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(dst.data(), dd, dst.size(), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 128; t++)
    for (int i = 0; i < 32; i++) {
      int e;
      if (i < 4 || (i >= 8 && i < 16)) e = src[t * 32 + i];
      else if (i < 8) e = 0xee;
      else e = (i - 16) < t % 17 ? src[t * 32 + i] : 0;
      EXPECT(dst[t * 32 + i] == e, "raw copy thread %d byte %d = 0x%02x, expected 0x%02x", t, i, dst[t * 32 + i], e);
    }
  // pipelined sum
  int tiles = n / 16, blocks = 4;
  std::vector<float> in((size_t)blocks * tiles * 256), out(blocks * 64);
  for (size_t i = 0; i < in.size(); i++) in[i] = (float)((i * 37) % 101) - 50.0f;
  float *di, *dout;
  CHECK(cudaMalloc(&di, in.size() * 4)); CHECK(cudaMalloc(&dout, out.size() * 4));
  CHECK(cudaMemcpy(di, in.data(), in.size() * 4, cudaMemcpyHostToDevice));
  pipelined_sum<<<blocks, 64>>>(di, dout, tiles);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < 64; t++) {
      float acc = 0;
      for (int k = 0; k < tiles; k++)
        for (int i = 0; i < 4; i++) acc += in[(size_t)b * tiles * 256 + k * 256 + (t * 4 + i + 4 * k) % 256];
      EXPECT(out[b * 64 + t] == acc, "pipelined sum block %d thread %d = %g, expected %g", b, t, out[b * 64 + t], acc);
    }
  // raw mbarrier
  std::vector<int> mo(640, -1);
  for (int i = 0; i < 128; i++) mo[512 + i] = 5000 + i;
  int *dm;
  CHECK(cudaMalloc(&dm, mo.size() * 4));
  CHECK(cudaMemcpy(dm, mo.data(), mo.size() * 4, cudaMemcpyHostToDevice));
  mbar_raw<<<1, 128>>>(dm);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(mo.data(), dm, mo.size() * 4, cudaMemcpyDeviceToHost));
  for (int p = 0; p < 3; p++)
    for (int t = 0; t < 128; t++) EXPECT(mo[p * 128 + t] == ((t + 32) % 128) * 10 + p, "mbarrier phase %d thread %d read %d", p, t, mo[p * 128 + t]);
  for (int t = 0; t < 128; t++) EXPECT(mo[400 + t] == 5000 + (t + 64) % 128, "cp.async.mbarrier thread %d read %d", t, mo[400 + t]);
  // cuda::barrier
  int rounds = 5, bt = 256;
  std::vector<int> co(2 * bt);
  int *dco;
  CHECK(cudaMalloc(&dco, co.size() * 4));
  cuda_barrier<<<2, bt>>>(dco, rounds);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(co.data(), dco, co.size() * 4, cudaMemcpyDeviceToHost));
  for (int b = 0; b < 2; b++)
    for (int t = 0; t < bt; t++) {
      int e = 0;
      for (int r = 0; r < rounds; r++) e += r * 1000 + (t + 97) % bt;
      EXPECT(co[b * bt + t] == e, "cuda::barrier block %d thread %d = %d, expected %d", b, t, co[b * bt + t], e);
    }
  { // early read
    std::vector<int> h(128), b(128), a(128);
    for (int i = 0; i < 128; i++) h[i] = 100 + i;
    int *dsrc = NULL, *db = NULL, *da = NULL;
    CHECK(cudaMalloc(&dsrc, 512)); CHECK(cudaMalloc(&db, 512)); CHECK(cudaMalloc(&da, 512));
    CHECK(cudaMemcpy(dsrc, h.data(), 512, cudaMemcpyHostToDevice));
    early_read<<<1, 128>>>(dsrc, db, da);
    CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(b.data(), db, 512, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(a.data(), da, 512, cudaMemcpyDeviceToHost));
    int stale = 0;
    for (int i = 0; i < 128; i++) {
      EXPECT(a[i] == 100 + i, "after the wait thread %d read %d", i, a[i]);
      EXPECT(b[i] == -1 || b[i] == 100 + i, "before the wait thread %d read %d", i, b[i]);
      stale += b[i] == -1;
    }
    printf("reads before cp.async.wait_group that saw the old contents: %d of 128\n", stale);
  }
  if (g_fail) { printf("FAIL cp_async (%d)\n", g_fail); return 1; }
  printf("PASS cp_async\n");
  return 0;
}
