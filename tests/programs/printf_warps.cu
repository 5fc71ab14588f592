// warpsim test: device printf from <<<1, 96>>>: thread, warp (t/32) and lane (t%32) of every thread; stdout checked against printf_warps.expected (seed: 003 Module 2 lab "see warps in action")
#include <cstdio>
#include <cstdlib>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)

// the seed's kernel, plus a record of what each thread computed so the host check does not depend on printf
__global__ void who(int *rec) {
  int t = threadIdx.x;
  int r = printf("thread %2d  warp %d  lane %2d\n", t, t / 32, t % 32);
  rec[3 * t + 0] = t / 32;
  rec[3 * t + 1] = t % 32;
  rec[3 * t + 2] = r;      // device printf returns the number of arguments parsed (3 here)
}

int main() {
  int *d_rec, rec[3 * 96];
  CHECK(cudaMalloc(&d_rec, sizeof(rec)));
  CHECK(cudaMemset(d_rec, 0xFF, sizeof(rec)));
  fflush(stdout);                 // nothing host-side may interleave with the device output
  who<<<1, 96>>>(d_rec);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize()); // flushes the device printf buffer
  CHECK(cudaMemcpy(rec, d_rec, sizeof(rec), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_rec));
  int bad = 0;
  for (int t = 0; t < 96; t++) {
    if (rec[3 * t] != t / 32 || rec[3 * t + 1] != t % 32) {
      if (!bad) printf("FAIL: thread %d recorded warp %d lane %d\n", t, rec[3 * t], rec[3 * t + 1]);
      bad++;
    }
    if (rec[3 * t + 2] != 3) {
      if (!bad) printf("FAIL: thread %d: printf returned %d, expected 3\n", t, rec[3 * t + 2]);
      bad++;
    }
  }
  if (bad) return 1;
  printf("host: 96 threads = 3 warps x 32 lanes, every printf returned 3\n");
  printf("PASS printf_warps\n");
  return 0;
}
