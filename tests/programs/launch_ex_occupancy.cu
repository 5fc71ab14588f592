// warpsim test: cudaLaunchKernelEx with its attributes and the function-attribute / occupancy API (issue 11
// item 6): launches with the priority, access-policy, programmatic-serialization and ignore attributes run; a
// cluster dimension of 1 runs and one of 2 either runs correctly or fails with cudaErrorNotSupported (warpsim
// runs it: tests/programs/cluster_dsmem.cu checks clusters); cudaFuncGetAttributes (static shared memory, __launch_bounds__, registers,
// versions), cudaFuncGetParamInfo, cudaOccupancyMaxActiveBlocksPerMultiprocessor(WithFlags),
// cudaOccupancyMaxPotentialBlockSize (the header template), cudaOccupancyAvailableDynamicSMemPerBlock and
// cudaOccupancyMaxActiveClusters for clusters of one block.
// CHECK: api-errors
// (the cluster launch and an unknown attribute may fail on purpose)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); g_fail++; } } while (0)

__global__ void scale(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + (float)blockIdx.x;
}

#define TILE 10240   // 40 KiB of static shared memory
__global__ void __launch_bounds__(512) big_smem(int *out) {
  __shared__ int buf[TILE];
  for (int i = threadIdx.x; i < TILE; i += blockDim.x) buf[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = buf[TILE - 1 - blockIdx.x % TILE];
}

static int check_scale(const std::vector<float> &y, const std::vector<float> &x, float a, int block, const char *w) {
  int bad = 0;
  for (size_t i = 0; i < y.size(); i++) {
    float want = a * x[i] + (float)(i / block);
    if (y[i] != want) { if (bad++ < 3) printf("%s: y[%zu] = %g, expected %g\n", w, i, y[i], want); }
  }
  EXPECT(bad == 0, "%s: %d wrong", w, bad);
  return bad;
}

int main() {
  const int n = 4096, block = 128;
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; i++) hx[i] = (float)(i % 97) * 0.5f;
  float *x, *y;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  // --- cudaLaunchKernelEx with attributes that change no result ---
  cudaLaunchAttribute at[5];
  at[0].id = cudaLaunchAttributePriority;
  at[0].val.priority = 0;
  at[1].id = cudaLaunchAttributeIgnore;
  at[2].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  at[2].val.programmaticStreamSerializationAllowed = 1;
  at[3].id = cudaLaunchAttributeAccessPolicyWindow;
  at[3].val.accessPolicyWindow.base_ptr = x;
  at[3].val.accessPolicyWindow.num_bytes = n * sizeof(float);
  at[3].val.accessPolicyWindow.hitRatio = 0.5f;
  at[3].val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  at[3].val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  at[4].id = cudaLaunchAttributeClusterDimension;
  at[4].val.clusterDim.x = 1;
  at[4].val.clusterDim.y = 1;
  at[4].val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(n / block);
  cfg.blockDim = dim3(block);
  cfg.stream = s;
  cfg.attrs = at;
  cfg.numAttrs = 5;
  CHECK(cudaLaunchKernelEx(&cfg, scale, y, (const float *)x, 3.0f, n));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
  check_scale(hy, hx, 3.0f, block, "cudaLaunchKernelEx");

  // clusters of 2 blocks: run correctly, or fail with cudaErrorNotSupported and run nothing
  CHECK(cudaMemset(y, 0, n * sizeof(float)));
  at[4].val.clusterDim.x = 2;
  cudaError_t e = cudaLaunchKernelEx(&cfg, scale, y, (const float *)x, 4.0f, n);
  if (e == cudaSuccess) {
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost));
    check_scale(hy, hx, 4.0f, block, "cluster launch");
    printf("clusters of 2: ran\n");
  } else {
    EXPECT(e == cudaErrorNotSupported, "cluster launch: %s", cudaGetErrorName(e));
    EXPECT(cudaGetLastError() == cudaErrorNotSupported, "cudaGetLastError after the cluster launch");
    printf("clusters of 2: %s\n", cudaGetErrorName(e));
  }
  at[4].val.clusterDim.x = 1;
  // an attribute id CUDA does not know
  at[1].id = (cudaLaunchAttributeID)1000;
  e = cudaLaunchKernelEx(&cfg, scale, y, (const float *)x, 4.0f, n);
  EXPECT(e != cudaSuccess, "an unknown launch attribute is refused");
  cudaGetLastError();
  at[1].id = cudaLaunchAttributeIgnore;

  // --- function attributes ---
  int dev = 0, sms = 0, maxt = 0, major = 0, minor = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CHECK(cudaDeviceGetAttribute(&maxt, cudaDevAttrMaxThreadsPerBlock, dev));
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, scale));
  EXPECT(fa.sharedSizeBytes == 0, "scale: %zu bytes of static shared memory", fa.sharedSizeBytes);
  EXPECT(fa.maxThreadsPerBlock == maxt, "scale: maxThreadsPerBlock %d", fa.maxThreadsPerBlock);
  EXPECT(fa.numRegs > 0 && fa.numRegs <= 255, "scale: %d registers", fa.numRegs);
  EXPECT(fa.binaryVersion == major * 10 + minor, "scale: binaryVersion %d", fa.binaryVersion);
  EXPECT(fa.ptxVersion > 0, "scale: ptxVersion %d", fa.ptxVersion);
  CHECK(cudaFuncGetAttributes(&fa, big_smem));
  EXPECT(fa.sharedSizeBytes == TILE * sizeof(int), "big_smem: %zu bytes of static shared memory", fa.sharedSizeBytes);
  EXPECT(fa.maxThreadsPerBlock == 512, "big_smem: maxThreadsPerBlock %d (__launch_bounds__(512))",
         fa.maxThreadsPerBlock);
  size_t off = 99, sz = 99;
  CHECK(cudaFuncGetParamInfo((const void *)scale, 2, &off, &sz));
  EXPECT(off == 16 && sz == 4, "scale parameter 2: offset %zu size %zu", off, sz);
  EXPECT(cudaFuncGetParamInfo((const void *)scale, 4, &off, &sz) == cudaErrorInvalidValue, "parameter 4 of 4");
  cudaGetLastError();

  // --- occupancy ---
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scale, 256, 0));
  EXPECT(per_sm == 8, "scale with 256 threads: %d blocks per SM (2048 threads per SM)", per_sm);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&per_sm, scale, 1024, 0, cudaOccupancyDisableCachingOverride));
  EXPECT(per_sm == 2, "scale with 1024 threads: %d blocks per SM", per_sm);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, big_smem, 512, 0));
  EXPECT(per_sm == 4, "big_smem with 512 threads: %d blocks per SM (threads limit 4, 40 KiB each)", per_sm);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, big_smem, 1024, 0));
  EXPECT(per_sm == 0, "big_smem with 1024 threads (over __launch_bounds__): %d blocks per SM", per_sm);
  int min_grid = 0, best = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best, scale, 0, 0));
  int at_best = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&at_best, scale, best, 0));
  EXPECT(best > 0 && best <= maxt && best % 32 == 0, "potential block size %d", best);
  EXPECT(min_grid == at_best * sms, "minimum grid %d = %d blocks per SM x %d SMs", min_grid, at_best, sms);
  EXPECT(at_best * best == 2048, "the potential block size fills the SM: %d x %d threads", at_best, best);
  size_t dyn = 0;
  CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, scale, 2, 256));
  EXPECT(dyn >= 48 * 1024, "dynamic shared memory with 2 blocks per SM: %zu bytes", dyn);
  cudaLaunchConfig_t occ_cfg = {};
  occ_cfg.gridDim = dim3(264);
  occ_cfg.blockDim = dim3(256);
  occ_cfg.attrs = at + 4;   // cluster dimension 1x1x1
  occ_cfg.numAttrs = 1;
  int clusters = 0;
  CHECK(cudaOccupancyMaxActiveClusters(&clusters, scale, &occ_cfg));
  EXPECT(clusters > 0, "clusters of one block: %d", clusters);

  // the launch those numbers describe runs
  int *d_out;
  CHECK(cudaMalloc(&d_out, 4 * sms * sizeof(int)));
  big_smem<<<4 * sms, 512>>>(d_out);
  CHECK(cudaDeviceSynchronize());
  std::vector<int> ho(4 * sms);
  CHECK(cudaMemcpy(ho.data(), d_out, ho.size() * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < 4 * sms; b++) bad += ho[b] != TILE - 1 - b % TILE;
  EXPECT(bad == 0, "big_smem: %d wrong blocks", bad);
  CHECK(cudaStreamDestroy(s));
  if (g_fail) { printf("FAILED %d checks\n", g_fail); return 1; }
  printf("occupancy: scale best block %d (min grid %d), big_smem %d blocks/SM at 512 threads\n", best, min_grid, 4);
  printf("PASS launch_ex_occupancy\n");
  return 0;
}
