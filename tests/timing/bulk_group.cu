// bulk_group.cu - cp.async.bulk's bulk async-groups under the timing model: one thread copies 32 KiB of shared
// memory to global memory with cp.async.bulk.global.shared::cta.bulk_group, commits the group and reads %clock64
// before and after cp.async.bulk.wait_group 0 (mode 1), or without waiting (mode 0). Prints the cycles the wait
// took, and checks the copy arrived. Used by tests/cli/bulk_group.sh.
#include <cstdio>
#include <cstdlib>
#define BYTES 32768

__global__ void copy_out(int4 *out, long long *cycles, int wait) {
  __shared__ __align__(128) int4 buf[BYTES / 16];
  for (int i = threadIdx.x; i < BYTES / 16; i += blockDim.x) buf[i] = make_int4(i, i + 1, i + 2, i + 3);
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned s = (unsigned)__cvta_generic_to_shared(buf);
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(out), "r"(s), "r"(BYTES) : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    long long t0 = clock64();
    if (wait) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    long long t1 = clock64();
    *cycles = t1 - t0;
  }
}

int main(int argc, char **argv) {
  int wait = argc > 1 ? atoi(argv[1]) : 1;
  int4 *out, h[BYTES / 16];
  long long *cyc, hc = -1;
  cudaMalloc(&out, BYTES);
  cudaMalloc(&cyc, sizeof *cyc);
  copy_out<<<1, 128>>>(out, cyc, wait);
  cudaMemcpy(h, out, BYTES, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hc, cyc, sizeof hc, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < BYTES / 16; i++) bad += h[i].x != i || h[i].w != i + 3;
  printf("wait %d: %lld cycles, %d bad elements\n", wait, hc, bad);
  return bad != 0;
}
