// warpsim test: sub-warp shuffles in a segmented reduction (issue 11 item 6): a CSR SpMV that gives each row a
// sub-warp of W = 2, 4, 8, 16 (and 32) lanes, reducing the row's partial sums with __shfl_down_sync(mask, v, d, W),
// then again with __shfl_xor_sync(mask, v, d, W), broadcasting the row's first lane with __shfl_sync(mask, v, 0,
// W) and reading a neighbour with __shfl_up_sync(mask, v, 1, W); checked against the CPU (integer-valued floats,
// so every summation order gives the same sums); and an integer SpMV with 64-bit sums and per-row shuffle masks,
// whose negative entries gave wrong sums before (ld.global.s32 into a 64-bit register did not sign-extend).
// ARGS: 20000
// TIMING_ARGS: 2000
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)

template <int W>
__global__ void spmv(int rows, const int *rowptr, const int *col, const float *val, const float *x, float *y_down,
                     float *y_xor, int *first, int *up) {
  int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  int row = gtid / W, lane = threadIdx.x % W;
  // every lane of the warp takes part (rows past the end contribute zeros), so the full mask is right
  float s = 0.0f;
  if (row < rows)
    for (int k = rowptr[row] + lane; k < rowptr[row + 1]; k += W) s += val[k] * x[col[k]];
  float d = s, e = s;
  for (int off = W / 2; off > 0; off >>= 1) d += __shfl_down_sync(0xffffffffu, d, off, W);
  for (int off = W / 2; off > 0; off >>= 1) e += __shfl_xor_sync(0xffffffffu, e, off, W);
  int f = __shfl_sync(0xffffffffu, lane == 0 ? row * 3 + 1 : -1, 0, W);
  int u = __shfl_up_sync(0xffffffffu, lane * 10 + row, 1, W);
  if (row < rows) {
    if (lane == 0) y_down[row] = d;
    if (lane == W - 1) y_xor[row] = e;    // the xor butterfly leaves the sum in every lane of the segment
    if (lane == W - 1) first[row] = f;
    if (lane == W - 1) up[row] = u;        // lane W-2's value: shuffles do not cross a segment
  }
}

// integer matrix, 64-bit sums of A x + A 1: nvcc loads the values with ld.global.s32 straight into 64-bit registers (negative
// entries must sign-extend), and a 64-bit shuffle is two 32-bit ones
template <int W>
__global__ void spmv_int(int rows, const int *rowptr, const int *col, const int *ival, const int *ix,
                         long long *y) {
  int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  int row = gtid / W, lane = threadIdx.x & (W - 1);
  if (row < rows) {                       // whole segments are in or out, so the full mask of each row's lanes
    unsigned m = W == 32 ? 0xffffffffu : ((1u << W) - 1) << (threadIdx.x & 31 & ~(W - 1));
    long long s = 0;
    for (int k = rowptr[row] + lane; k < rowptr[row + 1]; k += W) s += ival[k] * (long long)ix[col[k]];
    long long t = 0;   // the row sum: each value loaded once, straight into a 64-bit register (ld.global.s32)
    for (int k = rowptr[row] + lane; k < rowptr[row + 1]; k += W) t += ival[k];
    s += t;
    for (int off = W / 2; off > 0; off >>= 1) s += __shfl_down_sync(m, s, off, W);
    if (lane == 0) y[row] = s;
  }
}

template <int W>
static int run_int(int rows, const std::vector<int> &rp, const std::vector<int> &ci, const std::vector<float> &v,
                   const int *d_rp, const int *d_ci, const int *d_iv, const int *d_ix, const std::vector<float> &x,
                   long long *d_y) {
  int threads = 128, blocks = (int)(((long long)rows * W + threads - 1) / threads);
  spmv_int<W><<<blocks, threads>>>(rows, d_rp, d_ci, d_iv, d_ix, d_y);
  CHECK(cudaGetLastError());
  std::vector<long long> y(rows);
  CHECK(cudaMemcpy(y.data(), d_y, rows * sizeof(long long), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < rows; r++) {
    long long want = 0;
    for (int k = rp[r]; k < rp[r + 1]; k++) want += (long long)((int)v[k] * 1000003) * ((int)x[ci[k]] + 1);
    if (y[r] != want) {
      if (bad < 4) printf("int W=%d row %d: %lld (expected %lld)\n", W, r, y[r], want);
      bad++;
    }
  }
  if (bad) printf("FAIL: integer W=%d: %d of %d rows wrong\n", W, bad, rows);
  return bad;
}

template <int W>
static int run(int rows, const std::vector<int> &rp, const std::vector<int> &ci, const std::vector<float> &v,
               const int *d_rp, const int *d_ci, const float *d_v, const float *d_x, const std::vector<float> &x,
               float *d_y0, float *d_y1, int *d_f, int *d_u) {
  int threads = 128, blocks = (int)(((long long)rows * W + threads - 1) / threads);
  CHECK(cudaMemset(d_y0, 0xff, rows * sizeof(float)));
  CHECK(cudaMemset(d_y1, 0xff, rows * sizeof(float)));
  spmv<W><<<blocks, threads>>>(rows, d_rp, d_ci, d_v, d_x, d_y0, d_y1, d_f, d_u);
  CHECK(cudaGetLastError());
  std::vector<float> y0(rows), y1(rows);
  std::vector<int> f(rows), u(rows);
  CHECK(cudaMemcpy(y0.data(), d_y0, rows * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(y1.data(), d_y1, rows * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(f.data(), d_f, rows * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(u.data(), d_u, rows * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < rows; r++) {
    float want = 0.0f;
    for (int k = rp[r]; k < rp[r + 1]; k++) want += v[k] * x[ci[k]];
    int wu = (W - 2) * 10 + r;
    if (y0[r] != want || y1[r] != want || f[r] != r * 3 + 1 || u[r] != wu) {
      if (bad < 4)
        printf("W=%d row %d: down %g xor %g (expected %g), first %d (expected %d), up %d (expected %d)\n", W, r,
               y0[r], y1[r], want, f[r], r * 3 + 1, u[r], wu);
      bad++;
    }
  }
  if (bad) printf("FAIL: W=%d: %d of %d rows wrong\n", W, bad, rows);
  return bad;
}

int main(int argc, char **argv) {
  int rows = argc > 1 ? atoi(argv[1]) : 20000, cols = rows;
  std::vector<int> rp(rows + 1), ci;
  std::vector<float> v, x(cols);
  unsigned s = 12345;
  for (int r = 0; r < rows; r++) {
    rp[r] = (int)ci.size();
    int nnz = (r * 7) % 41;                  // 0..40 entries: empty rows, rows shorter and longer than W
    for (int k = 0; k < nnz; k++) {
      s = s * 1664525u + 1013904223u;
      ci.push_back((int)(s % (unsigned)cols));
      v.push_back((float)((int)(s >> 24) % 9 - 4));
    }
  }
  rp[rows] = (int)ci.size();
  for (int i = 0; i < cols; i++) x[i] = (float)(i % 13 - 6);
  int nnz = (int)ci.size();
  int *d_rp, *d_ci, *d_f, *d_u;
  float *d_v, *d_x, *d_y0, *d_y1;
  CHECK(cudaMalloc(&d_rp, (rows + 1) * sizeof(int)));
  CHECK(cudaMalloc(&d_ci, nnz * sizeof(int)));
  CHECK(cudaMalloc(&d_v, nnz * sizeof(float)));
  CHECK(cudaMalloc(&d_x, cols * sizeof(float)));
  CHECK(cudaMalloc(&d_y0, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_y1, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_f, rows * sizeof(int)));
  CHECK(cudaMalloc(&d_u, rows * sizeof(int)));
  CHECK(cudaMemcpy(d_rp, rp.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ci, ci.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_v, v.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice));
  int bad = 0;
  bad += run<2>(rows, rp, ci, v, d_rp, d_ci, d_v, d_x, x, d_y0, d_y1, d_f, d_u);
  bad += run<4>(rows, rp, ci, v, d_rp, d_ci, d_v, d_x, x, d_y0, d_y1, d_f, d_u);
  bad += run<8>(rows, rp, ci, v, d_rp, d_ci, d_v, d_x, x, d_y0, d_y1, d_f, d_u);
  bad += run<16>(rows, rp, ci, v, d_rp, d_ci, d_v, d_x, x, d_y0, d_y1, d_f, d_u);
  bad += run<32>(rows, rp, ci, v, d_rp, d_ci, d_v, d_x, x, d_y0, d_y1, d_f, d_u);
  std::vector<int> iv(nnz), ix(cols);
  for (int k = 0; k < nnz; k++) iv[k] = (int)v[k] * 1000003;
  for (int i = 0; i < cols; i++) ix[i] = (int)x[i];
  int *d_iv, *d_ix;
  long long *d_yl;
  CHECK(cudaMalloc(&d_iv, nnz * sizeof(int)));
  CHECK(cudaMalloc(&d_ix, cols * sizeof(int)));
  CHECK(cudaMalloc(&d_yl, rows * sizeof(long long)));
  CHECK(cudaMemcpy(d_iv, iv.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ix, ix.data(), cols * sizeof(int), cudaMemcpyHostToDevice));
  bad += run_int<2>(rows, rp, ci, v, d_rp, d_ci, d_iv, d_ix, x, d_yl);
  bad += run_int<4>(rows, rp, ci, v, d_rp, d_ci, d_iv, d_ix, x, d_yl);
  bad += run_int<8>(rows, rp, ci, v, d_rp, d_ci, d_iv, d_ix, x, d_yl);
  bad += run_int<16>(rows, rp, ci, v, d_rp, d_ci, d_iv, d_ix, x, d_yl);
  bad += run_int<32>(rows, rp, ci, v, d_rp, d_ci, d_iv, d_ix, x, d_yl);
  if (bad) return 1;
  printf("spmv_subwarp: %d rows, %d nonzeros, widths 2-32\n", rows, nnz);
  printf("PASS spmv_subwarp\n");
  return 0;
}
