// warpsim test: neighbour exchange through shared memory with __syncwarp() between the write and the read (full mask, repeated rotation, several warps, and a half-warp mask in a divergent branch) (seed: 000 "Try it: follow the active lanes through a branch", __syncwarp example)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

// exactly the seed's example: a block of one warp
__global__ void exchange1(const int *in, int *out) {
  __shared__ int slot[32];
  int my_value = in[threadIdx.x];
  int lane = threadIdx.x % 32;
  slot[lane] = my_value;                // each lane writes its own slot
  __syncwarp();                         // default full mask: all 32 lanes must reach it
  int left = slot[(lane + 31) % 32];    // now safe to read a neighbour's slot
  out[threadIdx.x] = left;
}

// several warps per block, each with its own 32 slots; rotate `rounds` times (write, sync, read, sync)
__global__ void rotate(const int *in, int *out, int rounds) {
  __shared__ int slot[8][32];
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int r = 0; r < rounds; r++) {
    slot[w][lane] = v;
    __syncwarp();
    v = slot[w][(lane + 31) % 32] + 1;   // take the left neighbour's value, add 1
    __syncwarp();                        // everyone has read before the next round overwrites
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// only the low 16 lanes take the branch and synchronise among themselves with mask 0x0000ffff
__global__ void halfwarp(const int *in, int *out) {
  __shared__ int slot[2][32];
  int lane = threadIdx.x % 32, w = threadIdx.x / 32;
  int v = in[threadIdx.x];
  if (lane < 16) {
    slot[w][lane] = v * 10;
    __syncwarp(0x0000ffffu);
    v = slot[w][(lane + 1) % 16];           // right neighbour within the half warp
  } else {
    v = -v;
  }
  out[threadIdx.x] = v;
}

int main() {
  // seed example
  {
    int in[32], out[32];
    for (int i = 0; i < 32; i++) in[i] = 100 + i * i;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof in)); CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    exchange1<<<1, 32>>>(d_in, d_out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int l = 0; l < 32; l++) EXPECT(out[l] == in[(l + 31) % 32], "exchange: lane %d got %d, expected %d", l, out[l], in[(l + 31) % 32]);
    printf("one warp: lane 5 read slot[4] = %d, lane 0 read slot[31] = %d\n", out[5], out[0]);
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
  }
  // rotation: after R rounds lane l holds in[(l - R) mod 32] + R
  {
    const int blocks = 3, tpb = 256, n = blocks * tpb;
    for (int rounds = 1; rounds <= 64; rounds *= 4) {
      std::vector<int> in(n), out(n);
      for (int i = 0; i < n; i++) in[i] = i * 7 + 3;
      int *d_in, *d_out;
      CHECK(cudaMalloc(&d_in, n * sizeof(int))); CHECK(cudaMalloc(&d_out, n * sizeof(int)));
      CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
      rotate<<<blocks, tpb>>>(d_in, d_out, rounds);
      CHECK_LAUNCH();
      CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
      for (int i = 0; i < n; i++) {
        int base = i - i % 32, lane = i % 32;
        int src = base + (((lane - rounds) % 32) + 32) % 32;
        EXPECT(out[i] == in[src] + rounds, "rotate %d: thread %d got %d, expected %d", rounds, i, out[i], in[src] + rounds);
      }
      CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
    }
    printf("rotation through shared memory, 8 warps per block, 1/4/16/64 rounds: ok\n");
  }
  // half-warp mask
  {
    int in[64], out[64];
    for (int i = 0; i < 64; i++) in[i] = i + 1;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof in)); CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    halfwarp<<<1, 64>>>(d_in, d_out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) {
      int lane = i % 32, base = i - lane;
      int want = lane < 16 ? in[base + (lane + 1) % 16] * 10 : -in[i];
      EXPECT(out[i] == want, "half warp: thread %d got %d, expected %d", i, out[i], want);
    }
    printf("half-warp __syncwarp(0x0000ffff) in a divergent branch: ok\n");
    CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
  }
  if (g_fail) { printf("FAIL: syncwarp_exchange: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS syncwarp_exchange\n");
  return 0;
}
