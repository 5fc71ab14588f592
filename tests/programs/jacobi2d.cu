// warpsim test: 2D Jacobi 5-point stencil with a 2D grid, ping-pong buffers, non-multiple-of-16 sizes (seed: 003 Module 9.3 jacobi kernel)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <utility>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

__global__ void jacobi(const float *in, float *out, int W, int H) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < 1 || r < 1 || c >= W - 1 || r >= H - 1) return;   // skip boundary
  out[r*W + c] = 0.25f * (in[(r-1)*W + c] + in[(r+1)*W + c]
                        + in[r*W + c - 1] + in[r*W + c + 1]);
}

static void run(int W, int H, int iters, dim3 block) {
  std::vector<float> u(W * H, 0.0f);
  for (int c = 0; c < W; c++) u[c] = 1.0f;                         // hot top edge
  for (int r = 0; r < H; r++) u[r * W + W - 1] = 0.5f;             // warm right edge
  for (int r = H / 3; r < H / 2; r++) u[r * W + W / 2] = 2.0f;     // an interior hot spot (initial only)
  std::vector<float> a(u), b(u);
  float *d_in, *d_out;
  size_t bytes = (size_t)W * H * sizeof(float);
  CHECK(cudaMalloc(&d_in, bytes)); CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_in, u.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_out, u.data(), bytes, cudaMemcpyHostToDevice));   // boundary values in both buffers
  dim3 grid((W + block.x - 1) / block.x, (H + block.y - 1) / block.y);
  for (int it = 0; it < iters; it++) {
    jacobi<<<grid, block>>>(d_in, d_out, W, H);
    CHECK(cudaGetLastError());
    std::swap(d_in, d_out);
    for (int r = 1; r < H - 1; r++)
      for (int c = 1; c < W - 1; c++)
        b[r*W + c] = 0.25f * (a[(r-1)*W + c] + a[(r+1)*W + c] + a[r*W + c - 1] + a[r*W + c + 1]);
    std::swap(a, b);
  }
  CHECK(cudaDeviceSynchronize());
  std::vector<float> g(W * H);
  CHECK(cudaMemcpy(g.data(), d_in, bytes, cudaMemcpyDeviceToHost));
  double maxerr = 0; float mid = g[(H / 2) * W + W / 2];
  for (int k = 0; k < W * H; k++) {
    float e = fabsf(g[k] - a[k]);
    if (e > maxerr) maxerr = e;
    EXPECT(e <= 1e-6f * fabsf(a[k]) + 1e-7f, "%dx%d: u[%d][%d] = %.9g, expected %.9g", W, H, k / W, k % W, g[k], a[k]);
  }
  EXPECT(mid > 0.0f && mid < 2.0f, "%dx%d: interior value %g implausible", W, H, mid);
  printf("jacobi %dx%d, block (%u,%u), grid (%u,%u), %d iterations: max |gpu-cpu| = %g, centre %.6f\n",
         W, H, block.x, block.y, grid.x, grid.y, iters, maxerr, mid);
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
}

int main() {
  run(64, 64, 100, dim3(16, 16));
  run(50, 37, 150, dim3(16, 16));     // partial blocks in both dimensions
  run(45, 70, 60, dim3(32, 4));       // rectangular blocks
  if (g_fail) { printf("FAIL: jacobi2d: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS jacobi2d\n");
  return 0;
}
