// warpsim test: cooperative launches and grid-wide synchronisation (issue 11 item 1): a two-phase grid reduction
// with this_grid().sync() between the phases, Jacobi sweeps of a 1D Poisson problem with a grid.sync() between
// sweeps (all in one cooperative kernel), the grid-group queries (size, thread_rank, num_blocks, block_rank,
// is_valid) against the launch shape, cudaLaunchKernelEx with the cooperative attribute, a cooperative launch
// captured into a graph and a kernel node made cooperative, the device attribute cudaDevAttrCooperativeLaunch, and
// cudaErrorCooperativeLaunchTooLarge for a grid that cannot be co-resident.
// ARGS: 1048576 200
// TIMING_ARGS: 16384 20
// CHECK: api-errors
// (the too-large launch fails on purpose)
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
namespace cg = cooperative_groups;

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); g_fail++; } } while (0)

#define THREADS 256

// phase 1: each block sums a grid-stride share into partial[block]; grid.sync(); phase 2: block 0 sums the
// partials. Also records what the grid group says about itself.
__global__ void grid_reduce(const int *in, int n, int *partial, long long *out, unsigned long long *info) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block blk = cg::this_thread_block();
  __shared__ long long s[THREADS];
  long long acc = 0;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) acc += in[i];
  s[threadIdx.x] = acc;
  blk.sync();
  for (int w = THREADS / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    blk.sync();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = (int)s[0];
  grid.sync();
  if (grid.block_rank() == 0) {
    long long t = 0;
    for (unsigned long long b = threadIdx.x; b < grid.num_blocks(); b += blockDim.x) t += partial[b];
    s[threadIdx.x] = t;
    blk.sync();
    for (int w = THREADS / 2; w > 0; w >>= 1) {
      if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
      blk.sync();
    }
    if (threadIdx.x == 0) {
      *out = s[0];
      info[0] = grid.size();
      info[1] = grid.num_blocks();
      info[2] = grid.is_valid();
      info[3] = grid.dim_blocks().x;
    }
  }
  // a second barrier: the grid barrier counter is reused (its generation bit flips)
  grid.sync();
  if (grid.thread_rank() == grid.size() - 1) info[4] = grid.block_rank() + 1;
}

// Jacobi sweeps for -u'' = f on n interior points (u = 0 at both ends): each sweep reads one buffer and writes
// the other; grid.sync() separates the sweeps, so every block must see every other block's last sweep.
__global__ void jacobi(float *u0, float *u1, const float *f, int n, int sweeps, float h2) {
  cg::grid_group grid = cg::this_grid();
  for (int s = 0; s < sweeps; s++) {
    const float *src = (s & 1) ? u1 : u0;
    float *dst = (s & 1) ? u0 : u1;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) {
      float l = i > 0 ? src[i - 1] : 0.0f, r = i + 1 < (unsigned long long)n ? src[i + 1] : 0.0f;
      dst[i] = 0.5f * (l + r + h2 * f[i]);
    }
    grid.sync();
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  int sweeps = argc > 2 ? atoi(argv[2]) : 200;
  int dev = 0, coop = 0, sms = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  EXPECT(coop == 1, "cudaDevAttrCooperativeLaunch = %d", coop);

  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_reduce, THREADS, 0));
  EXPECT(per_sm >= 1, "grid_reduce: %d blocks per SM", per_sm);
  int blocks = per_sm * sms;   // the largest co-resident grid

  // --- reduction ---
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; i++) { h[i] = (int)((i * 2654435761u) >> 20) - 2048; want += h[i]; }
  int *d_in, *d_part;
  long long *d_out;
  unsigned long long *d_info;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_part, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_out, sizeof(long long)));
  CHECK(cudaMalloc(&d_info, 5 * sizeof(unsigned long long)));
  CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_info, 0, 5 * sizeof(unsigned long long)));
  void *args[] = { &d_in, &n, &d_part, &d_out, &d_info };
  CHECK(cudaLaunchCooperativeKernel((void *)grid_reduce, dim3(blocks), dim3(THREADS), args, 0, 0));
  CHECK(cudaDeviceSynchronize());
  long long got = 0;
  unsigned long long info[5];
  CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(info, d_info, sizeof info, cudaMemcpyDeviceToHost));
  EXPECT(got == want, "grid reduction: got %lld, expected %lld", got, want);
  EXPECT(info[0] == (unsigned long long)blocks * THREADS, "grid.size() = %llu", info[0]);
  EXPECT(info[1] == (unsigned long long)blocks, "grid.num_blocks() = %llu", info[1]);
  EXPECT(info[2] == 1, "grid.is_valid() = %llu", info[2]);
  EXPECT(info[3] == (unsigned long long)blocks, "grid.dim_blocks().x = %llu", info[3]);
  EXPECT(info[4] == (unsigned long long)blocks, "block_rank of the last thread + 1 = %llu", info[4]);

  // the same kernel through cudaLaunchKernelEx with the cooperative attribute, on half the grid
  CHECK(cudaMemset(d_out, 0, sizeof(long long)));
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr[2];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  attr[1].id = cudaLaunchAttributePriority;
  attr[1].val.priority = 0;
  cfg.gridDim = dim3(blocks / 2 > 0 ? blocks / 2 : 1);
  cfg.blockDim = dim3(THREADS);
  cfg.attrs = attr;
  cfg.numAttrs = 2;
  CHECK(cudaLaunchKernelEx(&cfg, grid_reduce, (const int *)d_in, n, d_part, d_out, d_info));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT(got == want, "cudaLaunchKernelEx cooperative reduction: got %lld, expected %lld", got, want);

  // a cooperative launch captured into a graph keeps its cooperative attribute
  cudaStream_t cs;
  CHECK(cudaStreamCreate(&cs));
  CHECK(cudaMemset(d_out, 0, sizeof(long long)));
  CHECK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
  CHECK(cudaLaunchCooperativeKernel((void *)grid_reduce, dim3(blocks), dim3(THREADS), args, 0, cs));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamEndCapture(cs, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, cs));
  CHECK(cudaStreamSynchronize(cs));
  CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT(got == want, "captured cooperative reduction: got %lld, expected %lld", got, want);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  // and a kernel node made cooperative with cudaGraphKernelNodeSetAttribute
  CHECK(cudaMemset(d_out, 0, sizeof(long long)));
  CHECK(cudaGraphCreate(&graph, 0));
  cudaKernelNodeParams kp = {};
  kp.func = (void *)grid_reduce;
  kp.gridDim = dim3(blocks);
  kp.blockDim = dim3(THREADS);
  kp.kernelParams = args;
  cudaGraphNode_t kn;
  CHECK(cudaGraphAddKernelNode(&kn, graph, NULL, 0, &kp));
  cudaKernelNodeAttrValue av = {};
  av.cooperative = 1;
  CHECK(cudaGraphKernelNodeSetAttribute(kn, cudaLaunchAttributeCooperative, &av));
  av.cooperative = 0;
  CHECK(cudaGraphKernelNodeGetAttribute(kn, cudaLaunchAttributeCooperative, &av));
  EXPECT(av.cooperative == 1, "the kernel node's cooperative attribute reads back");
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaGraphLaunch(exec, cs));
  CHECK(cudaStreamSynchronize(cs));
  CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT(got == want, "cooperative kernel node reduction: got %lld, expected %lld", got, want);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(cs));

  // a grid one block larger than can be co-resident: cudaErrorCooperativeLaunchTooLarge, nothing runs
  cudaError_t e = cudaLaunchCooperativeKernel((void *)grid_reduce, dim3(blocks + 1), dim3(THREADS), args, 0, 0);
  EXPECT(e == cudaErrorCooperativeLaunchTooLarge, "too large cooperative launch returned %s", cudaGetErrorName(e));
  e = cudaGetLastError();
  EXPECT(e == cudaErrorCooperativeLaunchTooLarge, "cudaGetLastError after it: %s", cudaGetErrorName(e));
  EXPECT(cudaGetLastError() == cudaSuccess, "the error is not sticky");
  CHECK(cudaDeviceSynchronize());

  // --- Jacobi: a smaller co-resident grid, many grid-wide barriers ---
  int jn = n / 16 > 64 ? n / 16 : 64;
  int jblocks = sms < blocks ? sms : blocks;
  std::vector<float> hf(jn), hu0(jn, 0.0f), hu1(jn, 0.0f);
  float h2 = 1.0f / ((jn + 1.0f) * (jn + 1.0f));
  for (int i = 0; i < jn; i++) hf[i] = 1.0f + (float)(i % 7);
  float *d_u0, *d_u1, *d_f;
  CHECK(cudaMalloc(&d_u0, jn * sizeof(float)));
  CHECK(cudaMalloc(&d_u1, jn * sizeof(float)));
  CHECK(cudaMalloc(&d_f, jn * sizeof(float)));
  CHECK(cudaMemcpy(d_f, hf.data(), jn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_u0, 0, jn * sizeof(float)));
  CHECK(cudaMemset(d_u1, 0, jn * sizeof(float)));
  void *jargs[] = { &d_u0, &d_u1, &d_f, &jn, &sweeps, &h2 };
  CHECK(cudaLaunchCooperativeKernel((void *)jacobi, dim3(jblocks), dim3(THREADS), jargs, 0, 0));
  CHECK(cudaDeviceSynchronize());
  for (int s = 0; s < sweeps; s++) {
    std::vector<float> &src = (s & 1) ? hu1 : hu0, &dst = (s & 1) ? hu0 : hu1;
    for (int i = 0; i < jn; i++) {
      float l = i > 0 ? src[i - 1] : 0.0f, r = i + 1 < jn ? src[i + 1] : 0.0f;
      dst[i] = 0.5f * (l + r + h2 * hf[i]);
    }
  }
  std::vector<float> res(jn);
  CHECK(cudaMemcpy(res.data(), (sweeps & 1) ? d_u1 : d_u0, jn * sizeof(float), cudaMemcpyDeviceToHost));
  const std::vector<float> &ref = (sweeps & 1) ? hu1 : hu0;
  int bad = 0;
  for (int i = 0; i < jn; i++) if (res[i] != ref[i]) { if (bad < 3) printf("u[%d] = %g, expected %g\n", i, res[i], ref[i]); bad++; }
  EXPECT(bad == 0, "jacobi: %d of %d values differ", bad, jn);

  if (g_fail) { printf("FAILED %d checks\n", g_fail); return 1; }
  printf("coop: %d SMs x %d blocks per SM, sum %lld, %d Jacobi sweeps on %d points\n", sms, per_sm, got, sweeps, jn);
  printf("PASS coop_grid_sync\n");
  return 0;
}
