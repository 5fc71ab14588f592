// warpsim check: a warp-synchronous built-in whose member mask names lanes that do not take part: lanes 0..15
// shuffle with the full mask inside a branch that lanes 16..31 skip.
// Expected: synccheck "Invalid member mask in __shfl_*_sync()" at @shfl, naming threads (16,0,0)..(31,0,0).
#include <cstdio>
__global__ void halfShuffle(int *out, const int *in) {
  int lane = threadIdx.x % 32, v = in[threadIdx.x];
  if (in[lane] < 16) {
    v = __shfl_down_sync(0xffffffff, v, 1);  // @shfl
    out[threadIdx.x] = v;
  } else {
    out[threadIdx.x] = -v;
  }
}
int main() {
  int *d, *in, h[32];
  for (int i = 0; i < 32; i++) h[i] = i;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&in, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  halfShuffle<<<1, 32>>>(d, in);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("h[0] = %d\n", h[0]);
  return 0;
}
