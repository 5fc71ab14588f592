// warpsim test: 2D and 3D launch geometry: scale2D on a 1000x600 image with 16x16 blocks (grid (63,38), 12,864 idle threads), the 1024x8191 by 8191x8197 matmul grid count (513x64 blocks, 11,264 idle), dim3 defaults, a 3D grid of 3D blocks (seed: 003 Module 6.5 scale2D and the Module 6 worked example/exercises)
// usage: grid2d [M P]   (the matmul-shaped grid's output size; default 1024 8197: the seed's, whose counts are also
// checked against the seed's numbers; any size is checked against the counts computed on the CPU)
// TIMING_ARGS: 100 1000
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

__global__ void scale2D(float *m, int W, int H, float s, unsigned *idle) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;   // column  0..W-1
  int r = blockIdx.y * blockDim.y + threadIdx.y;   // row     0..H-1
  if (c >= W || r >= H) { atomicAdd(idle, 1u); return; }   // guard BOTH dimensions
  m[r * W + c] *= s;                                // row-major: row x width + column
}

// counts working and idle threads of a matmul-shaped grid (one warp-aggregated atomic per warp)
__global__ void count_grid(int M, int P, unsigned long long *working, unsigned long long *idle, int *dims) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  bool work = (r < M && c < P);
  unsigned active = __activemask();
  unsigned w = __ballot_sync(active, work);
  int lane = (threadIdx.y * blockDim.x + threadIdx.x) % 32;
  if (lane == __ffs(active) - 1) {
    atomicAdd(working, (unsigned long long)__popc(w));
    atomicAdd(idle, (unsigned long long)__popc(active & ~w));
  }
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0) {
    dims[0] = blockDim.z; dims[1] = gridDim.z; dims[2] = gridDim.x; dims[3] = gridDim.y;
  }
}

__global__ void ids3d(int *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  int linearThread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int linearBlock = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  atomicAdd(&out[(z * ny + y) * nx + x], 1);
  out[nx * ny * nz + (z * ny + y) * nx + x] = linearBlock * 1000 + linearThread;
}

int main(int argc, char **argv) {
  const bool seed_size = argc < 3;
  const int M = seed_size ? 1024 : atoi(argv[1]), P = seed_size ? 8197 : atoi(argv[2]);
  if (argc == 2 || M < 1 || P < 1) { printf("FAIL: usage: grid2d [M P], both >= 1\n"); return 2; }
  // ---- 1000 x 600 image, 16 x 16 blocks ----
  {
    int W = 1000, H = 600;
    dim3 block(16, 16);                                 // 256 threads
    dim3 grid((W + 15) / 16, (H + 15) / 16);            // round up each dimension
    EXPECT(grid.x == 63 && grid.y == 38 && block.z == 1 && grid.z == 1, "grid (%u,%u,%u), expected (63,38,1)", grid.x, grid.y, grid.z);
    std::vector<float> m(W * H);
    for (int i = 0; i < W * H; i++) m[i] = (float)(i % 977) - 300.5f;
    float *d_m; unsigned *d_idle;
    CHECK(cudaMalloc(&d_m, W * H * sizeof(float))); CHECK(cudaMalloc(&d_idle, sizeof(unsigned)));
    CHECK(cudaMemcpy(d_m, m.data(), W * H * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_idle, 0, sizeof(unsigned)));
    scale2D<<<grid, block>>>(d_m, W, H, 2.0f, d_idle);
    CHECK_LAUNCH();
    std::vector<float> g(W * H); unsigned idle = 0;
    CHECK(cudaMemcpy(g.data(), d_m, W * H * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&idle, d_idle, sizeof idle, cudaMemcpyDeviceToHost));
    for (int i = 0; i < W * H; i++) EXPECT(g[i] == 2.0f * m[i], "scale2D: m[%d][%d] = %g, expected %g", i / W, i % W, g[i], 2.0f * m[i]);
    // seed: "Threads = 63*38*256 = 612,864, so 612,864 - 600,000 = 12,864 are idle."
    EXPECT(idle == 12864, "scale2D idle threads = %u, seed says 12,864", idle);
    printf("scale2D 1000x600: grid (63,38), %u threads, %u idle\n", grid.x * grid.y * 256, idle);
    CHECK(cudaFree(d_m)); CHECK(cudaFree(d_idle));
  }
  // ---- C = A (M x 8191) * B (8191 x P), by default 1024 x 8197: grid and thread counts only ----
  {
    dim3 block(16, 16), grid((P + 15) / 16, (M + 15) / 16);
    if (seed_size) EXPECT(grid.x == 513 && grid.y == 64, "matmul grid (%u,%u), seed says (513,64)", grid.x, grid.y);
    unsigned long long *d_w, *d_i; int *d_dims;
    CHECK(cudaMalloc(&d_w, 8)); CHECK(cudaMalloc(&d_i, 8)); CHECK(cudaMalloc(&d_dims, 4 * sizeof(int)));
    CHECK(cudaMemset(d_w, 0, 8)); CHECK(cudaMemset(d_i, 0, 8));
    count_grid<<<grid, block>>>(M, P, d_w, d_i, d_dims);
    CHECK_LAUNCH();
    unsigned long long w = 0, i = 0; int dims[4];
    CHECK(cudaMemcpy(&w, d_w, 8, cudaMemcpyDeviceToHost)); CHECK(cudaMemcpy(&i, d_i, 8, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(dims, d_dims, sizeof dims, cudaMemcpyDeviceToHost));
    // seed: "Blocks = 513 x 64 = 32,832. Threads = 8,404,992 ... Useful threads = 8,393,728 ... 11,264"
    if (seed_size)
      EXPECT(w == 8393728ULL && i == 11264ULL && w + i == 8404992ULL, "matmul grid: %llu working, %llu idle (seed: 8,393,728 and 11,264)", w, i);
    const unsigned long long total = (unsigned long long)grid.x * grid.y * 256, useful = (unsigned long long)M * P;
    EXPECT(w == useful && i == total - useful, "matmul grid %dx%d: %llu working, %llu idle (CPU: %llu and %llu)", M, P, w, i, useful, total - useful);
    EXPECT(dims[0] == 1 && dims[1] == 1 && dims[2] == (int)grid.x && dims[3] == (int)grid.y, "blockDim.z %d gridDim.z %d gridDim (%d,%d), expected (%u,%u)", dims[0], dims[1], dims[2], dims[3], grid.x, grid.y);
    printf("%dx%d output with 16x16 blocks: %u blocks, %llu threads, %llu working, %llu idle\n", M, P, grid.x * grid.y, w + i, w, i);
    CHECK(cudaFree(d_w)); CHECK(cudaFree(d_i)); CHECK(cudaFree(d_dims));
  }
  // ---- 3D grid of 3D blocks ----
  {
    const int nx = 13, ny = 9, nz = 7;
    dim3 block(4, 4, 2), grid((nx + 3) / 4, (ny + 3) / 4, (nz + 1) / 2);
    int *d_out; std::vector<int> out(2 * nx * ny * nz);
    CHECK(cudaMalloc(&d_out, out.size() * sizeof(int)));
    CHECK(cudaMemset(d_out, 0, out.size() * sizeof(int)));
    ids3d<<<grid, block>>>(d_out, nx, ny, nz);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int z = 0; z < nz; z++) for (int y = 0; y < ny; y++) for (int x = 0; x < nx; x++) {
      int k = (z * ny + y) * nx + x;
      int lb = (x / 4) + grid.x * ((y / 4) + grid.y * (z / 2)), lt = (x % 4) + 4 * ((y % 4) + 4 * (z % 2));
      EXPECT(out[k] == 1, "3D: (%d,%d,%d) covered %d times", x, y, z, out[k]);
      EXPECT(out[nx * ny * nz + k] == lb * 1000 + lt, "3D: (%d,%d,%d) from block %d thread %d, expected %d %d", x, y, z,
             out[nx * ny * nz + k] / 1000, out[nx * ny * nz + k] % 1000, lb, lt);
    }
    printf("3D launch grid (%u,%u,%u) x block (4,4,2) over %dx%dx%d: every point once\n", grid.x, grid.y, grid.z, nx, ny, nz);
    CHECK(cudaFree(d_out));
  }
  if (g_fail) { printf("FAIL: grid2d: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS grid2d\n");
  return 0;
}
