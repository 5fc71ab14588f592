// warpsim test: 3-point sliding-window average, version 1 (global loads) and version 2 (static __shared__ support array + __syncthreads), N = 1024*1024, 128 threads per block (seed: 004 "Compute mode" convolve v1/v2)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

#define THREADS_PER_BLK 128
// version 1
__global__ void convolve_v1(int N, float* input, float* output) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;  // thread-local
  float result = 0.0f;                                 // thread-local
  for (int i = 0; i < 3; i++)
    result += input[index + i];
  output[index] = result / 3.f;
}
// version 2
__global__ void convolve_v2(int N, float* input, float* output) {
  __shared__ float support[THREADS_PER_BLK+2];     // one copy per block
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  support[threadIdx.x] = input[index];                 // each thread loads one
  if (threadIdx.x < 2)                                  // two threads load the extra 2
    support[THREADS_PER_BLK + threadIdx.x] = input[index + THREADS_PER_BLK];
  __syncthreads();                                    // barrier: all loads done
  float result = 0.0f;
  for (int i = 0; i < 3; i++)
    result += support[threadIdx.x + i];
  output[index] = result / 3.f;
}

int main() {
  const int N = 1024 * 1024;        // outputs, divisible by 128
  EXPECT(N / THREADS_PER_BLK == 8192, "expected 8,192 blocks");
  std::vector<float> in(N + 2), out1(N), out2(N), ref(N);
  unsigned s = 99;
  for (int i = 0; i < N + 2; i++) { s = s * 1664525u + 1013904223u; in[i] = (float)((s >> 9) % 20001) * 0.001f - 10.0f; }
  for (int i = 0; i < N; i++) {
    volatile float r = 0.0f;
    for (int k = 0; k < 3; k++) r = r + in[i + k];
    ref[i] = r / 3.f;
  }
  float *devInput, *devOutput;
  CHECK(cudaMalloc(&devInput, (N + 2) * sizeof(float)));   // device input has N + 2 elements
  CHECK(cudaMalloc(&devOutput, N * sizeof(float)));        // device output has N
  CHECK(cudaMemcpy(devInput, in.data(), (N + 2) * sizeof(float), cudaMemcpyHostToDevice));

  CHECK(cudaMemset(devOutput, 0, N * sizeof(float)));
  convolve_v1<<<N/THREADS_PER_BLK, THREADS_PER_BLK>>>(N, devInput, devOutput);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out1.data(), devOutput, N * sizeof(float), cudaMemcpyDeviceToHost));

  CHECK(cudaMemset(devOutput, 0, N * sizeof(float)));
  convolve_v2<<<N/THREADS_PER_BLK, THREADS_PER_BLK>>>(N, devInput, devOutput);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(out2.data(), devOutput, N * sizeof(float), cudaMemcpyDeviceToHost));

  int bad1 = 0, bad2 = 0;
  for (int i = 0; i < N; i++) {
    // same additions in the same order and an IEEE division: bitwise equal to the CPU
    if (out1[i] != ref[i]) { bad1++; EXPECT(false, "v1: output[%d] = %.9g, expected %.9g", i, out1[i], ref[i]); }
    if (out2[i] != ref[i]) { bad2++; EXPECT(false, "v2: output[%d] = %.9g, expected %.9g", i, out2[i], ref[i]); }
  }
  printf("convolve N=%d: v1 %d mismatches, v2 %d mismatches (8192 blocks x 128, support array 130 floats)\n", N, bad1, bad2);
  CHECK(cudaFree(devInput)); CHECK(cudaFree(devOutput));
  if (g_fail) { printf("FAIL: convolve: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS convolve\n");
  return 0;
}
