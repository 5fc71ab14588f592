// warpsim test: launch-configuration errors: <<<1, 2048>>> fails without running the kernel, cudaGetLastError returns the launch error once (cudaErrorInvalidValue on CUDA 13, see kBadShape) then cudaSuccess; oversized blocks/grids; dynamic shared memory above the default and the opt-in limits; error strings and names (seed: 003 Module 6.4 and the "<<<1, 2048>>>" exercise, 5.6 error checking, 13.2 opt-in shared memory)
// CHECK: api-errors
// (it calls the runtime wrongly on purpose: under --check those API errors are expected, device-side findings not)
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); g_fail++; } } while (0)
#define EXPECT_ERR(got, want, what) do { cudaError_t g_ = (got); if (g_ != (want)) { \
    printf("FAIL: %s: got %s (%d), expected %s (%d)\n", what, cudaGetErrorName(g_), (int)g_, cudaGetErrorName(want), (int)(want)); g_fail++; } } while (0)

// What an invalid launch shape (too many threads, a block or grid dimension over its limit, a zero dimension)
// returns. Measured on an H200 with the CUDA 13.0 runtime (libcudart.so.13) and driver 580: cudaErrorInvalidValue
// ("invalid argument"). Older runtimes, and the seed text ("invalid configuration argument"), report
// cudaErrorInvalidConfiguration; warpsim replaces libcudart.so.13, so it must behave like CUDA 13.
static const cudaError_t kBadShape = cudaErrorInvalidValue;

__global__ void setflag(int *flag, int v) { if (threadIdx.x == 0 && blockIdx.x == 0) *flag = v; }

// uses all of its dynamic shared memory: every thread fills a stripe, then thread 0 checks the whole buffer
__global__ void dynsmem(int *ok, int nints) {
  extern __shared__ int buf[];
  for (int i = threadIdx.x; i < nints; i += blockDim.x) buf[i] = i ^ 0x5a5a;
  __syncthreads();
  if (threadIdx.x == 0) {
    int good = 1;
    for (int i = 0; i < nints; i++) if (buf[i] != (i ^ 0x5a5a)) good = 0;
    *ok = good;
  }
}

static int read_flag(int *d) { int v; CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost)); return v; }

int main() {
  int *d_flag;
  CHECK(cudaMalloc(&d_flag, sizeof(int)));
  CHECK(cudaMemset(d_flag, 0, sizeof(int)));
  CHECK(cudaGetLastError());     // start clean

  // ---- <<<1, 2048>>>: 2048 > 1024, the launch fails and the kernel never runs ----
  setflag<<<1, 2048>>>(d_flag, 1);
  cudaError_t e1 = cudaGetLastError();
  EXPECT_ERR(e1, kBadShape, "<<<1,2048>>> cudaGetLastError");
  EXPECT_ERR(cudaGetLastError(), cudaSuccess, "second cudaGetLastError after the failed launch");
  CHECK(cudaDeviceSynchronize());
  EXPECT(read_flag(d_flag) == 0, "<<<1,2048>>> kernel ran: flag = %d", read_flag(d_flag));
  printf("<<<1, 2048>>>: %s (\"%s\"), kernel did not run, next cudaGetLastError: cudaSuccess\n",
         cudaGetErrorName(e1), cudaGetErrorString(e1));

  // cudaPeekAtLastError does not reset the error
  setflag<<<1, 2048>>>(d_flag, 2);
  EXPECT_ERR(cudaPeekAtLastError(), kBadShape, "cudaPeekAtLastError #1");
  EXPECT_ERR(cudaPeekAtLastError(), kBadShape, "cudaPeekAtLastError #2");
  EXPECT_ERR(cudaGetLastError(), kBadShape, "cudaGetLastError after peeks");
  EXPECT_ERR(cudaGetLastError(), cudaSuccess, "cudaGetLastError after reset");

  // other invalid shapes (003 6.4: "(32, 32) is allowed; (64, 32) is not")
  struct { dim3 g, b; const char *what; } bad[] = {
    {dim3(1), dim3(64, 32), "block (64,32)"},
    {dim3(1), dim3(1, 1, 65), "block z = 65"},
    {dim3(1, 65536), dim3(1), "grid y = 65536"},
    {dim3(1, 1, 65536), dim3(1), "grid z = 65536"},
    {dim3(1), dim3(0), "block of 0 threads"},
    {dim3(0), dim3(32), "grid of 0 blocks"},
  };
  for (auto &c : bad) {
    setflag<<<c.g, c.b>>>(d_flag, 3);
    char what[96]; snprintf(what, sizeof what, "launch with %s", c.what);
    EXPECT_ERR(cudaGetLastError(), kBadShape, what);
  }
  CHECK(cudaDeviceSynchronize());
  EXPECT(read_flag(d_flag) == 0, "an invalid launch ran the kernel: flag = %d", read_flag(d_flag));

  // valid launches still work after all of that
  setflag<<<dim3(2, 1, 1), dim3(32, 32)>>>(d_flag, 4);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  EXPECT(read_flag(d_flag) == 4, "block (32,32) launch did not run: flag = %d", read_flag(d_flag));
  setflag<<<1, 1024>>>(d_flag, 5);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  EXPECT(read_flag(d_flag) == 5, "<<<1,1024>>> did not run: flag = %d", read_flag(d_flag));
  setflag<<<dim3(2, 65535), 1>>>(d_flag, 6);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  EXPECT(read_flag(d_flag) == 6, "grid y = 65535 did not run: flag = %d", read_flag(d_flag));
  printf("invalid block/grid shapes rejected; (32,32), 1024 and grid y 65535 run\n");

  // ---- dynamic shared memory limits ----
  cudaDeviceProp p; CHECK(cudaGetDeviceProperties(&p, 0));
  EXPECT(p.maxThreadsPerBlock == 1024 && p.warpSize == 32, "maxThreadsPerBlock %d warpSize %d", p.maxThreadsPerBlock, p.warpSize);
  EXPECT(p.sharedMemPerBlockOptin >= p.sharedMemPerBlock, "optin %zu < default %zu", p.sharedMemPerBlockOptin, p.sharedMemPerBlock);
  size_t def = p.sharedMemPerBlock, optin = p.sharedMemPerBlockOptin;
  int *d_ok; CHECK(cudaMalloc(&d_ok, sizeof(int)));
  // at the default limit: fine
  CHECK(cudaMemset(d_ok, 0, sizeof(int)));
  dynsmem<<<1, 256, def>>>(d_ok, (int)(def / 4));
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  EXPECT(read_flag(d_ok) == 1, "dynamic shared memory of %zu bytes not usable", def);
  // above the default without opting in: rejected
  CHECK(cudaMemset(d_ok, 0, sizeof(int)));
  dynsmem<<<1, 256, def + 1024>>>(d_ok, (int)((def + 1024) / 4));
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue, "dynamic smem above sharedMemPerBlock without opt-in");
  EXPECT_ERR(cudaGetLastError(), cudaSuccess, "cudaGetLastError after the smem error");
  CHECK(cudaDeviceSynchronize());
  EXPECT(read_flag(d_ok) == 0, "rejected dynsmem launch ran");
  // opting in above the device maximum is refused
  EXPECT_ERR(cudaFuncSetAttribute(dynsmem, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)optin + 1024),
             cudaErrorInvalidValue, "cudaFuncSetAttribute above sharedMemPerBlockOptin");
  cudaGetLastError();
  if (optin > def) {
    // opting in to the maximum works, and the whole opt-in size is usable
    CHECK(cudaFuncSetAttribute(dynsmem, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)optin));
    cudaFuncAttributes fa; CHECK(cudaFuncGetAttributes(&fa, dynsmem));
    EXPECT(fa.maxDynamicSharedSizeBytes == (int)optin, "maxDynamicSharedSizeBytes = %d after opt-in to %zu", fa.maxDynamicSharedSizeBytes, optin);
    CHECK(cudaMemset(d_ok, 0, sizeof(int)));
    dynsmem<<<1, 1024, optin>>>(d_ok, (int)(optin / 4));
    CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
    EXPECT(read_flag(d_ok) == 1, "opt-in dynamic shared memory of %zu bytes not usable", optin);
  }
  // more than the device allows at all: rejected
  CHECK(cudaMemset(d_ok, 0, sizeof(int)));
  dynsmem<<<1, 256, optin + 1024>>>(d_ok, (int)((optin + 1024) / 4));
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidValue, "dynamic smem above sharedMemPerBlockOptin");
  CHECK(cudaDeviceSynchronize());
  EXPECT(read_flag(d_ok) == 0, "rejected opt-in dynsmem launch ran");
  printf("dynamic shared memory: default %zu bytes ok, above it rejected, opt-in %zu ok, above opt-in rejected\n", def, optin);

  // ---- other API errors are recorded as the last error too ----
  int count = 0; CHECK(cudaGetDeviceCount(&count));
  EXPECT_ERR(cudaSetDevice(count + 7), cudaErrorInvalidDevice, "cudaSetDevice(count + 7)");
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidDevice, "last error after cudaSetDevice failure");
  EXPECT_ERR(cudaGetLastError(), cudaSuccess, "last error reset after cudaSetDevice failure");
  void *huge = nullptr;
  EXPECT_ERR(cudaMalloc(&huge, (size_t)1 << 52), cudaErrorMemoryAllocation, "cudaMalloc(4 PiB)");
  EXPECT_ERR(cudaGetLastError(), cudaErrorMemoryAllocation, "last error after cudaMalloc failure");
  EXPECT_ERR(cudaGetLastError(), cudaSuccess, "last error reset after cudaMalloc failure");
  // the context is still fine
  setflag<<<1, 32>>>(d_flag, 7);
  CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize());
  EXPECT(read_flag(d_flag) == 7, "launch after API errors did not run");

  // ---- error strings and names match NVIDIA's ----
  struct { cudaError_t e; const char *name, *str; } tbl[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
  };
  for (auto &t : tbl) {
    const char *n = cudaGetErrorName(t.e), *s = cudaGetErrorString(t.e);
    EXPECT(n && strcmp(n, t.name) == 0, "cudaGetErrorName(%d) = \"%s\", expected \"%s\"", (int)t.e, n ? n : "(null)", t.name);
    EXPECT(s && strcmp(s, t.str) == 0, "cudaGetErrorString(%s) = \"%s\", expected \"%s\"", t.name, s ? s : "(null)", t.str);
  }
  EXPECT((int)cudaErrorInvalidValue == 1 && (int)cudaErrorMemoryAllocation == 2 && (int)cudaErrorInvalidConfiguration == 9,
         "enum values changed");
  printf("error names and strings: %zu codes checked\n", sizeof tbl / sizeof tbl[0]);

  CHECK(cudaFree(d_flag)); CHECK(cudaFree(d_ok));
  if (g_fail) { printf("FAIL: launch_errors: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS launch_errors\n");
  return 0;
}
