// warpsim test: CSR sparse matrix-vector product, scalar (thread per row) and vector (warp per row, __shfl_down_sync reduction); the seed's 4x4 example and 100,000 rows with ~64 and 4 non-zeros per row (seed: 003 Module 19.2/19.3 spmv_scalar, spmv_vector and the "SpMV two ways" lab)
// usage: spmv [ROWS]   (default 100000: the lab's; the random matrices have ROWS rows and columns, the third ROWS/20
// rows; every size is checked against the CPU)
// TIMING_ARGS: 4096
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

__global__ void spmv_scalar(int rows, const int *rowPtr, const int *col,
                            const float *val, const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int k = rowPtr[r]; k < rowPtr[r + 1]; k++) s += val[k] * x[col[k]];
  y[r] = s;
}

__global__ void spmv_vector(int rows, const int *rowPtr, const int *col,
                            const float *val, const float *x, float *y) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (r >= rows) return;
  float s = 0.0f;
  for (int k = rowPtr[r] + lane; k < rowPtr[r + 1]; k += 32) s += val[k] * x[col[k]];
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffff, s, off);
  if (lane == 0) y[r] = s;
}

struct Csr { int rows, cols; std::vector<int> rowPtr, col; std::vector<float> val; };

static void run(const char *name, const Csr &A, const std::vector<float> &x, bool exact) {
  int nnz = A.rowPtr[A.rows];
  std::vector<double> ref(A.rows);
  for (int r = 0; r < A.rows; r++) {
    double s = 0; for (int k = A.rowPtr[r]; k < A.rowPtr[r + 1]; k++) s += (double)A.val[k] * x[A.col[k]];
    ref[r] = s;
  }
  int *dRow, *dCol; float *dVal, *dX, *dY;
  CHECK(cudaMalloc(&dRow, (A.rows + 1) * sizeof(int)));
  CHECK(cudaMalloc(&dCol, (nnz ? nnz : 1) * sizeof(int)));
  CHECK(cudaMalloc(&dVal, (nnz ? nnz : 1) * sizeof(float)));
  CHECK(cudaMalloc(&dX, A.cols * sizeof(float)));
  CHECK(cudaMalloc(&dY, A.rows * sizeof(float)));
  CHECK(cudaMemcpy(dRow, A.rowPtr.data(), (A.rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  if (nnz) {
    CHECK(cudaMemcpy(dCol, A.col.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dVal, A.val.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  }
  CHECK(cudaMemcpy(dX, x.data(), A.cols * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> y(A.rows);
  for (int v = 0; v < 2; v++) {
    CHECK(cudaMemset(dY, 0xFF, A.rows * sizeof(float)));
    if (v == 0) spmv_scalar<<<(A.rows + 255) / 256, 256>>>(A.rows, dRow, dCol, dVal, dX, dY);
    else spmv_vector<<<(int)(((long long)A.rows * 32 + 255) / 256), 256>>>(A.rows, dRow, dCol, dVal, dX, dY);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(y.data(), dY, A.rows * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < A.rows; r++) {
      if (exact) EXPECT(y[r] == (float)ref[r], "%s %s: y[%d] = %.9g, expected %.9g", name, v ? "vector" : "scalar", r, y[r], ref[r]);
      else EXPECT(fabs(y[r] - ref[r]) <= 1e-4 * fabs(ref[r]) + 1e-4, "%s %s: y[%d] = %.9g, expected %.9g", name, v ? "vector" : "scalar", r, y[r], ref[r]);
    }
  }
  printf("%-28s rows=%6d nnz=%8d: scalar and vector match\n", name, A.rows, nnz);
  CHECK(cudaFree(dRow)); CHECK(cudaFree(dCol)); CHECK(cudaFree(dVal)); CHECK(cudaFree(dX)); CHECK(cudaFree(dY));
}

static Csr random_csr(int rows, int cols, int minNnz, int maxNnz, unsigned seed, bool exact) {
  Csr A; A.rows = rows; A.cols = cols; A.rowPtr.push_back(0);
  unsigned s = seed;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return s >> 7; };
  for (int r = 0; r < rows; r++) {
    int len = minNnz + (int)(rnd() % (unsigned)(maxNnz - minNnz + 1));
    int c = (int)(rnd() % (unsigned)cols);
    for (int k = 0; k < len; k++) {
      c = (c + 1 + (int)(rnd() % 37)) % cols;     // irregular gather
      A.col.push_back(c);
      A.val.push_back(exact ? (float)((int)(rnd() % 9) - 4) * 0.5f : (float)(rnd() % 100000) / 50000.0f - 1.0f);
    }
    A.rowPtr.push_back((int)A.col.size());
  }
  return A;
}

int main(int argc, char **argv) {
  const int rows = argc > 1 ? atoi(argv[1]) : 100000;
  if (rows < 20) { printf("FAIL: usage: spmv [ROWS >= 20]\n"); return 2; }
  // the seed's example: [5 0 0 1; 0 2 0 0; 0 0 0 0; 0 0 3 4]
  {
    Csr A; A.rows = 4; A.cols = 4;
    A.val = {5, 1, 2, 3, 4}; A.col = {0, 3, 1, 2, 3}; A.rowPtr = {0, 2, 3, 3, 5};
    std::vector<float> x = {1, 2, 3, 4};
    run("seed 4x4 (empty row 2)", A, x, true);     // y = [9, 4, 0, 25]
    // exercise: [[0,7],[8,9]] -> val [7,8,9], col [1,0,1], rowPtr [0,1,3]
    Csr B; B.rows = 2; B.cols = 2; B.val = {7, 8, 9}; B.col = {1, 0, 1}; B.rowPtr = {0, 1, 3};
    std::vector<float> x2 = {2, 3};
    run("seed 2x2 exercise", B, x2, true);           // y = [21, 43]
  }
  std::vector<float> xe(rows), xr(rows);
  char name[64];
  for (int j = 0; j < rows; j++) { xe[j] = (float)(j % 13 - 6) * 0.25f; xr[j] = (float)((j * 7919) % 1000) / 1000.0f - 0.5f; }
  {
    Csr A = random_csr(rows, rows, 32, 96, 11, true);      // about 64 non-zeros per row
    snprintf(name, sizeof name, "%d rows ~64 nnz exact", rows);
    run(name, A, xe, true);
  }
  {
    Csr A = random_csr(rows, rows, 4, 4, 12, true);        // 4 non-zeros per row
    snprintf(name, sizeof name, "%d rows 4 nnz exact", rows);
    run(name, A, xe, true);
  }
  {
    Csr A = random_csr(rows / 20, rows, 0, 300, 13, false); // empty rows and rows longer than a warp's stride several times
    snprintf(name, sizeof name, "%d rows 0..300 nnz real", rows / 20);
    run(name, A, xr, false);
  }
  if (g_fail) { printf("FAIL: spmv: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS spmv\n");
  return 0;
}
