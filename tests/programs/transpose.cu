// warpsim test: row-wise vs column-wise copies (coalesced vs strided mapping) and a shared-memory tiled transpose with tile[32][33] padding vs tile[32][32], non-multiple sizes (seed: 003 Module 12.4 copyRowWise/copyColumnWise, 13.7 bank conflicts and padding)
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

__global__ void copyRowWise(const float *in, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = in[r * cols + c];
}
__global__ void copyColumnWise(const float *in, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x, c = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = in[r * cols + c];
}
// out (cols x rows) = transpose of in (rows x cols); 32x8 threads move a 32x32 tile
template <int PAD>
__global__ void transposeTile(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[32][32 + PAD];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];   // column read of the tile
}

static void run(int rows, int cols) {
  size_t n = (size_t)rows * cols;
  std::vector<float> in(n), out(n);
  for (size_t i = 0; i < n; i++) in[i] = (float)i * 0.5f - 7.0f;
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * 4)); CHECK(cudaMalloc(&d_out, n * 4));
  CHECK(cudaMemcpy(d_in, in.data(), n * 4, cudaMemcpyHostToDevice));
  for (int v = 0; v < 4; v++) {
    CHECK(cudaMemset(d_out, 0xFF, n * 4));
    dim3 block(32, 8);
    if (v == 0) copyRowWise<<<dim3((cols + 31) / 32, (rows + 7) / 8), block>>>(d_in, d_out, rows, cols);
    if (v == 1) copyColumnWise<<<dim3((rows + 31) / 32, (cols + 7) / 8), block>>>(d_in, d_out, rows, cols);
    if (v == 2) transposeTile<0><<<dim3((cols + 31) / 32, (rows + 31) / 32), block>>>(d_in, d_out, rows, cols);
    if (v == 3) transposeTile<1><<<dim3((cols + 31) / 32, (rows + 31) / 32), block>>>(d_in, d_out, rows, cols);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(out.data(), d_out, n * 4, cudaMemcpyDeviceToHost));
    const char *nm[4] = {"copyRowWise", "copyColumnWise", "transpose tile[32][32]", "transpose tile[32][33]"};
    for (int r = 0; r < rows; r++) for (int c = 0; c < cols; c++) {
      float want = in[(size_t)r * cols + c];
      float got = v < 2 ? out[(size_t)r * cols + c] : out[(size_t)c * rows + r];
      EXPECT(got == want, "%s %dx%d: element (%d,%d) = %g, expected %g", nm[v], rows, cols, r, c, got, want);
    }
  }
  printf("%4d x %4d: row-wise copy, column-wise copy, transpose with and without padding ok\n", rows, cols);
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_out));
}

int main() {
  run(256, 256);
  run(100, 70);
  run(33, 129);
  run(1, 40);
  if (g_fail) { printf("FAIL: transpose: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS transpose\n");
  return 0;
}
