// warpsim test: 2D grid/block indexing: matrixAdd 12x6 with 4x3 blocks, plus the 5x7 "show" lab with 4x4 blocks (seed: 004 "Compute mode" matrixAdd; 003 Module 6 lab step 3)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

// device code from the seed, plus a record of who wrote each element
__global__ void matrixAdd(const float* A, const float* B, float* C, int Nx, int Ny, int *who) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < Nx && j < Ny) {
    int k = j * Nx + i;
    C[k] = A[k] + B[k];
    who[k] = ((blockIdx.x * 10 + blockIdx.y) * 10 + threadIdx.x) * 10 + threadIdx.y;
  }
}

// the 5 (rows) x 7 (columns) lab, with counters instead of printf
__global__ void show(int W, int H, int *perBlock, int *idxSeen) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c >= W || r >= H) return;
  atomicAdd(&perBlock[blockIdx.y * gridDim.x + blockIdx.x], 1);
  atomicAdd(&idxSeen[r * W + c], 1);
}

int main() {
  const int Nx = 12, Ny = 6, N = Nx * Ny;
  dim3 threadsPerBlock(4, 3);
  dim3 numBlocks((Nx + threadsPerBlock.x - 1) / threadsPerBlock.x,
                 (Ny + threadsPerBlock.y - 1) / threadsPerBlock.y);
  EXPECT(numBlocks.x == 3 && numBlocks.y == 2 && numBlocks.z == 1, "grid is (%u,%u,%u), expected (3,2,1)",
         numBlocks.x, numBlocks.y, numBlocks.z);
  EXPECT(numBlocks.x * numBlocks.y * threadsPerBlock.x * threadsPerBlock.y == 72, "expected 6 blocks, 72 threads");

  float* A = new float[N];
  float* B = new float[N];
  float* C = new float[N];
  for (int i = 0; i < N; i++) { A[i] = (float)i; B[i] = 1000.0f + 0.5f * i; }
  float *devA, *devB, *devC; int *devWho;
  CHECK(cudaMalloc(&devA, sizeof(float) * N));
  CHECK(cudaMalloc(&devB, sizeof(float) * N));
  CHECK(cudaMalloc(&devC, sizeof(float) * N));
  CHECK(cudaMalloc(&devWho, sizeof(int) * N));
  CHECK(cudaMemcpy(devA, A, sizeof(float) * N, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(devB, B, sizeof(float) * N, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(devC, 0, sizeof(float) * N));
  CHECK(cudaMemset(devWho, 0xFF, sizeof(int) * N));
  matrixAdd<<<numBlocks, threadsPerBlock>>>(devA, devB, devC, Nx, Ny, devWho);
  CHECK_LAUNCH();
  std::vector<int> who(N);
  CHECK(cudaMemcpy(C, devC, sizeof(float) * N, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(who.data(), devWho, sizeof(int) * N, cudaMemcpyDeviceToHost));
  for (int j = 0; j < Ny; j++)
    for (int i = 0; i < Nx; i++) {
      int k = j * Nx + i;
      EXPECT(C[k] == A[k] + B[k], "C[%d][%d] = %g, expected %g", j, i, C[k], A[k] + B[k]);
      int bx = i / 4, by = j / 3, tx = i % 4, ty = j % 3;
      int w = ((bx * 10 + by) * 10 + tx) * 10 + ty;
      EXPECT(who[k] == w, "C[%d][%d] written by code %d, expected %d", j, i, who[k], w);
    }
  // "thread (1, 2) in block (2, 1) computes i = 9 and j = 5, so it writes C[5][9]"
  EXPECT(who[5 * Nx + 9] == ((2 * 10 + 1) * 10 + 1) * 10 + 2, "C[5][9] not written by block (2,1) thread (1,2)");
  printf("matrixAdd 12x6, blocks (4,3), grid (3,2): C[5][9] written by block (2,1) thread (1,2)\n");

  // 5 x 7 lab: grid (2,2) = 64 threads, exactly 35 active, block (1,1) has 3
  {
    int W = 7, H = 5;
    dim3 block(4, 4), grid((W + 3) / 4, (H + 3) / 4);
    EXPECT(grid.x == 2 && grid.y == 2, "show grid (%u,%u), expected (2,2)", grid.x, grid.y);
    int *dPer, *dIdx;
    CHECK(cudaMalloc(&dPer, 4 * sizeof(int)));
    CHECK(cudaMalloc(&dIdx, W * H * sizeof(int)));
    CHECK(cudaMemset(dPer, 0, 4 * sizeof(int)));
    CHECK(cudaMemset(dIdx, 0, W * H * sizeof(int)));
    show<<<grid, block>>>(W, H, dPer, dIdx);
    CHECK_LAUNCH();
    int per[4]; std::vector<int> idx(W * H);
    CHECK(cudaMemcpy(per, dPer, sizeof(per), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(idx.data(), dIdx, W * H * sizeof(int), cudaMemcpyDeviceToHost));
    int total = per[0] + per[1] + per[2] + per[3];
    EXPECT(total == 35, "show: %d lines, expected 35", total);
    EXPECT(per[0] == 16 && per[1] == 12 && per[2] == 4 && per[3] == 3,
           "show per-block counts %d %d %d %d, expected 16 12 4 3", per[0], per[1], per[2], per[3]);
    for (int k = 0; k < W * H; k++) EXPECT(idx[k] == 1, "show: idx %d seen %d times", k, idx[k]);
    printf("show 5x7 with 4x4 blocks: 35 active threads, block (1,1) has %d\n", per[3]);
    CHECK(cudaFree(dPer)); CHECK(cudaFree(dIdx));
  }
  CHECK(cudaFree(devA)); CHECK(cudaFree(devB)); CHECK(cudaFree(devC)); CHECK(cudaFree(devWho));
  delete[] A; delete[] B; delete[] C;
  if (g_fail) { printf("FAIL: matrix_add: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS matrix_add\n");
  return 0;
}
