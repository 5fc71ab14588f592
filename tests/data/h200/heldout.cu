// Held-out kernels for judging warpsim's timing model: none of them was used to calibrate it. Written for the
// project (issue 13, accuracy part): reductions ending in a global atomic, contended atomics of several kinds,
// separable convolution, a 3D stencil with a register queue, scans, bitonic sorting, a warp-centric BFS step,
// n-body, GEMV, CSR SpMV, a privatized histogram and a register-blocked 32x32-tile matmul.
// Each benchmark: one kernel, a size, host-side validation, timing with CUDA events (median of reps after one
// warm-up launch, so the second launch is the first timed one; state a kernel changes is restored before each
// launch by a device-to-device copy, never by a kernel, so Nsight Compute's --launch-skip 1 sees the same launch).
// Usage: heldout NAME SIZE [REPS]   -> prints one CSV line: name,size,median_us,min_us,work_units,valid
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <algorithm>
#include <string>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2);} } while (0)

static unsigned rng_state = 2718281u;
static unsigned urand() { rng_state = rng_state * 1664525u + 1013904223u; return rng_state; }
static float frand() { return ((urand() >> 8) & 0xffff) / 65536.0f - 0.5f; }

// ---------- kernels ----------
// sum of n floats: four per thread, warp shuffles, warp sums in shared memory, one atomicAdd per block
__global__ void reduce_atomic(const float4* in, float* res, int n4) {
  __shared__ float warp_sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  if (i < n4) { float4 v = in[i]; s = (v.x + v.y) + (v.z + v.w); }
  for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) {
    s = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0.f;
    for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
    if (lane == 0) atomicAdd(res, s);
  }
}
// three atomic kinds (add, max, or) from every thread onto 8 words each
__global__ void atomic_few(unsigned* cnt, int* mx, unsigned* bits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int k = i & 7;
  atomicAdd(&cnt[k], 1u);
  atomicMax(&mx[k], (int)((unsigned)i * 2654435761u >> 1));
  atomicOr(&bits[k], 1u << ((i >> 3) & 31));
}
// separable convolution, radius 8: rows (tile 8 x 128 outputs, 4 per thread) and columns (tile 64 x 32, 8 per thread)
#define CR 8
__constant__ float c_w[2 * CR + 1];
__global__ void conv_row(const float* in, float* out, int w, int h) {
  __shared__ float t[8][128 + 2 * CR];
  int tx = threadIdx.x, ty = threadIdx.y, y = blockIdx.y * 8 + ty, x0 = blockIdx.x * 128;
  for (int k = tx; k < 128 + 2 * CR; k += 32) {
    int x = x0 + k - CR;
    t[ty][k] = (x >= 0 && x < w && y < h) ? in[(size_t)y * w + x] : 0.f;
  }
  __syncthreads();
  if (y >= h) return;
  for (int q = 0; q < 4; q++) {
    int c = tx + 32 * q, x = x0 + c;
    float s = 0.f;
#pragma unroll
    for (int j = 0; j <= 2 * CR; j++) s += c_w[j] * t[ty][c + j];
    if (x < w) out[(size_t)y * w + x] = s;
  }
}
__global__ void conv_col(const float* in, float* out, int w, int h) {
  __shared__ float t[64 + 2 * CR][32];
  int tx = threadIdx.x, ty = threadIdx.y, x = blockIdx.x * 32 + tx, y0 = blockIdx.y * 64;
  for (int k = ty; k < 64 + 2 * CR; k += 8) {
    int y = y0 + k - CR;
    t[k][tx] = (x < w && y >= 0 && y < h) ? in[(size_t)y * w + x] : 0.f;
  }
  __syncthreads();
  if (x >= w) return;
  for (int q = 0; q < 8; q++) {
    int r = ty + 8 * q, y = y0 + r;
    float s = 0.f;
#pragma unroll
    for (int j = 0; j <= 2 * CR; j++) s += c_w[j] * t[r + j][tx];
    if (y < h) out[(size_t)y * w + x] = s;
  }
}
// 7-point 3D stencil: a 32 x 8 block walks along z with the planes below and above in registers, the current
// plane (with its x/y halo) in shared memory; points outside the grid read as zero
__global__ void stencil3d_zq(const float* in, float* out, int nx, int ny, int nz) {
  __shared__ float p[8 + 2][32 + 2];
  int tx = threadIdx.x, ty = threadIdx.y, x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
  size_t plane = (size_t)nx * ny;
  bool inside = x < nx && y < ny;
  size_t at = (size_t)y * nx + x;
  float below = 0.f, cur = inside ? in[at] : 0.f;
  for (int z = 0; z < nz; z++) {
    float above = (inside && z + 1 < nz) ? in[at + (z + 1) * plane] : 0.f;
    __syncthreads();
    p[ty + 1][tx + 1] = cur;
    if (tx == 0) p[ty + 1][0] = (x > 0 && y < ny) ? in[at - 1 + z * plane] : 0.f;
    if (tx == 31) p[ty + 1][33] = (x + 1 < nx && y < ny) ? in[at + 1 + z * plane] : 0.f;
    if (ty == 0) p[0][tx + 1] = (y > 0 && x < nx) ? in[at - nx + z * plane] : 0.f;
    if (ty == 7) p[9][tx + 1] = (y + 1 < ny && x < nx) ? in[at + nx + z * plane] : 0.f;
    __syncthreads();
    float r = 0.4f * cur + 0.1f * (p[ty + 1][tx] + p[ty + 1][tx + 2] + p[ty][tx + 1] + p[ty + 2][tx + 1] + below + above);
    if (inside) out[at + z * plane] = r;
    below = cur; cur = above;
  }
}
// inclusive scan of each block's 1024 values (four per thread): per-thread scan, warp shuffle scan, warp totals
// in shared memory; the block's total goes to sums[]
__global__ void scan_shfl(const float4* in, float4* out, float* sums, int n4) {
  __shared__ float wt[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float4 v = i < n4 ? in[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  v.y += v.x; v.z += v.y; v.w += v.z;
  float t = v.w;
  for (int off = 1; off < 32; off <<= 1) { float u = __shfl_up_sync(0xffffffffu, t, off); if (lane >= off) t += u; }
  if (lane == 31) wt[warp] = t;
  __syncthreads();
  if (warp == 0) {
    float w = lane < 8 ? wt[lane] : 0.f;
    for (int off = 1; off < 8; off <<= 1) { float u = __shfl_up_sync(0xffffffffu, w, off); if (lane >= off) w += u; }
    if (lane < 8) wt[lane] = w;
  }
  __syncthreads();
  float base = (warp > 0 ? wt[warp - 1] : 0.f) + t - v.w;
  v.x += base; v.y += base; v.z += base; v.w += base;
  if (i < n4) out[i] = v;
  if (threadIdx.x == blockDim.x - 1) sums[blockIdx.x] = wt[7];
}
// inclusive Hillis-Steele scan of each block's 512 ints in shared memory (double buffered)
__global__ void scan_smem(const int* in, int* out, int n) {
  __shared__ int b[2][512];
  int t = threadIdx.x, i = blockIdx.x * 512 + t, src = 0;
  b[0][t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int off = 1; off < 512; off <<= 1) {
    int v = b[src][t];
    if (t >= off) v += b[src][t - off];
    b[src ^ 1][t] = v;
    src ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = b[src][t];
}
// one compare-exchange step (j, k) of a global bitonic sort: the lower thread of each pair loads both keys and
// stores both when they are out of order
__global__ void bitonic_step(unsigned* a, int j, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p = i ^ j;
  if (i >= n || p <= i) return;
  unsigned x = a[i], y = a[p];
  bool up = (i & k) == 0;
  if (up ? x > y : x < y) { a[i] = y; a[p] = x; }
}
// a whole bitonic sort of each block's 1024 keys in shared memory (512 threads, one pair each per step)
__global__ void bitonic_block(unsigned* a) {
  __shared__ unsigned s[1024];
  unsigned* g = a + (size_t)blockIdx.x * 1024;
  int t = threadIdx.x;
  s[t] = g[t]; s[t + 512] = g[t + 512];
  __syncthreads();
  for (int k = 2; k <= 1024; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      int lo = 2 * t - (t & (j - 1)), hi = lo + j;
      bool up = (lo & k) == 0;
      unsigned x = s[lo], y = s[hi];
      if (up ? x > y : x < y) { s[lo] = y; s[hi] = x; }
      __syncthreads();
    }
  g[t] = s[t]; g[t + 512] = s[t + 512];
}
// one BFS step, a warp per frontier vertex: lanes take its edges, claim unvisited neighbours with atomicCAS and
// append them to the next frontier with one warp-aggregated atomicAdd
__global__ void bfs_warp(const int* rp, const int* col, const int* frontier, int nf, int* level, int depth,
                         int* next, int* next_n) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  int nwarps = (gridDim.x * blockDim.x) >> 5;
  for (; w < nf; w += nwarps) {
    int v = frontier[w], beg = rp[v], end = rp[v + 1];
    for (int e0 = beg; e0 < end; e0 += 32) {
      int e = e0 + lane, nb = -1;
      if (e < end) {
        int u = col[e];
        if (level[u] < 0 && atomicCAS(&level[u], -1, depth + 1) == -1) nb = u;
      }
      unsigned m = __ballot_sync(0xffffffffu, nb >= 0);
      if (m == 0) continue;
      int base = 0;
      if (lane == 0) base = atomicAdd(next_n, __popc(m));
      base = __shfl_sync(0xffffffffu, base, 0);
      if (nb >= 0) next[base + __popc(m & ((1u << lane) - 1))] = nb;
    }
  }
}
// all-pairs gravitational acceleration, bodies staged through shared memory 128 at a time
__global__ void nbody(const float4* pos, float4* acc, int n) {
  __shared__ float4 sp[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (int base = 0; base < n; base += 128) {
    int j = base + threadIdx.x;
    sp[threadIdx.x] = j < n ? pos[j] : make_float4(0.f, 0.f, 0.f, 0.f);
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < 128; k++) {
      float4 o = sp[k];
      float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
      float r2 = dx * dx + dy * dy + dz * dz + 1e-3f;
      float inv = rsqrtf(r2);
      float f = o.w * inv * inv * inv;
      ax += f * dx; ay += f * dy; az += f * dz;
    }
    __syncthreads();
  }
  if (i < n) acc[i] = make_float4(ax, ay, az, 0.f);
}
// y = A x for a row-major A: a warp per row, float4 loads, shuffle reduction
__global__ void gemv_warp(const float4* A, const float4* x, float* y, int rows, int cols4) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (r >= rows) return;
  const float4* a = A + (size_t)r * cols4;
  float s = 0.f;
  for (int c = lane; c < cols4; c += 32) {
    float4 u = a[c], v = x[c];
    s += u.x * v.x + u.y * v.y + u.z * v.z + u.w * v.w;
  }
  for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
  if (lane == 0) y[r] = s;
}
// y = A x for a column-major A: a thread per row, coalesced down each column
__global__ void gemv_col(const float* A, const float* x, float* y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int c = 0; c < cols; c++) s += A[(size_t)c * rows + r] * x[c];
  y[r] = s;
}
// CSR SpMV with rows of 1-48 non-zeros: 8 lanes per row, shuffle reduction of width 8
__global__ void spmv_csr8(int rows, const int* rp, const int* col, const float* val, const float* x, float* y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x, r = t >> 3, l = t & 7;
  float s = 0.f;
  if (r < rows)
    for (int k = rp[r] + l; k < rp[r + 1]; k += 8) s += val[k] * x[col[k]];
  for (int off = 4; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off, 8);
  if (r < rows && l == 0) y[r] = s;
}
// 256-bin histogram of the top byte of n words: one shared sub-histogram per warp, merged into global bins
__global__ void hist_warp(const unsigned* in, unsigned* bins, int n) {
  __shared__ unsigned h[8][256];
  int warp = threadIdx.x >> 5;
  for (int k = threadIdx.x; k < 8 * 256; k += blockDim.x) (&h[0][0])[k] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&h[warp][in[i] >> 24], 1u);
  __syncthreads();
  for (int k = threadIdx.x; k < 256; k += blockDim.x) {
    unsigned s = 0;
    for (int w = 0; w < 8; w++) s += h[w][k];
    if (s) atomicAdd(&bins[k], s);
  }
}
// C = A B with 32 x 32 tiles and a 32 x 8 block: each thread keeps four outputs of one column in registers
__global__ void matmul_t32x4(const float* A, const float* B, float* C, int n) {
  __shared__ float sA[32][32], sB[32][32];
  int tx = threadIdx.x, ty = threadIdx.y, col = blockIdx.x * 32 + tx, row0 = blockIdx.y * 32 + ty;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int p = 0; p < n; p += 32) {
#pragma unroll
    for (int q = 0; q < 4; q++) {
      sA[ty + 8 * q][tx] = A[(size_t)(row0 + 8 * q) * n + p + tx];
      sB[ty + 8 * q][tx] = B[(size_t)(p + ty + 8 * q) * n + col];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 32; k++) {
      float b = sB[k][tx];
#pragma unroll
      for (int q = 0; q < 4; q++) acc[q] += sA[ty + 8 * q][k] * b;
    }
    __syncthreads();
  }
#pragma unroll
  for (int q = 0; q < 4; q++) C[(size_t)(row0 + 8 * q) * n + col] = acc[q];
}

// ---------- harness ----------
struct Timer {
  cudaEvent_t s, e;
  Timer() { CK(cudaEventCreate(&s)); CK(cudaEventCreate(&e)); }
};
template <class F>
static void timeit(F launch, int reps, float* med, float* mn) {
  Timer t; std::vector<float> v;
  launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  for (int r = 0; r < reps; r++) {
    CK(cudaEventRecord(t.s)); launch(); CK(cudaEventRecord(t.e)); CK(cudaEventSynchronize(t.e));
    float ms; CK(cudaEventElapsedTime(&ms, t.s, t.e)); v.push_back(ms * 1000.f);
  }
  CK(cudaGetLastError());
  std::sort(v.begin(), v.end()); *med = v[v.size() / 2]; *mn = v[0];
}
template <class T> static T* dev(size_t n) { T* p; CK(cudaMalloc(&p, n * sizeof(T))); return p; }
template <class T> static T* up(const std::vector<T>& h) { T* p = dev<T>(h.size()); CK(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice)); return p; }
template <class T> static std::vector<T> down(const T* d, size_t n) { std::vector<T> h(n); CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost)); return h; }
template <class T> static void restore(T* d, const T* src, size_t n) { CK(cudaMemcpyAsync(d, src, n * sizeof(T), cudaMemcpyDeviceToDevice)); }
static std::vector<float> rnd(size_t n) { std::vector<float> v(n); for (auto& x : v) x = frand(); return v; }
static bool close(double a, double b, double tol) { return fabs(a - b) <= tol * (fabs(b) + 1e-3); }

// a random graph in CSR form: v vertices with 0-31 out-edges each
static void make_graph(int v, std::vector<int>& rp, std::vector<int>& col) {
  rp.assign(v + 1, 0); col.clear();
  for (int i = 0; i < v; i++) { rp[i] = col.size(); int d = urand() >> 27; for (int k = 0; k < d; k++) col.push_back(urand() % v); }
  rp[v] = col.size();
}

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: heldout NAME SIZE [REPS]\n"); return 1; }
  std::string name = argv[1]; long n = atol(argv[2]); int reps = argc > 3 ? atoi(argv[3]) : 20;
  float med = 0, mn = 0; double work = 0; int ok = 1;
  if (name == "reduce_atomic") {   // n floats
    auto h = rnd(n); float* in = up(h); float* res = dev<float>(1); int n4 = n / 4;
    timeit([&] { CK(cudaMemsetAsync(res, 0, 4)); reduce_atomic<<<(n4 + 255) / 256, 256>>>((const float4*)in, res, n4); }, reps, &med, &mn);
    float hr; CK(cudaMemcpy(&hr, res, 4, cudaMemcpyDeviceToHost)); double s = 0; for (long i = 0; i < n; i++) s += h[i];
    ok = fabs(hr - s) <= 1e-3 * sqrt((double)n) + 1e-4 * fabs(s);
    work = 4.0 * n;
  } else if (name == "atomic_few") {   // n threads
    unsigned *cnt = dev<unsigned>(8), *bits = dev<unsigned>(8); int* mx = dev<int>(8);
    timeit([&] { CK(cudaMemsetAsync(cnt, 0, 32)); CK(cudaMemsetAsync(mx, 0, 32)); CK(cudaMemsetAsync(bits, 0, 32));
                 atomic_few<<<(n + 255) / 256, 256>>>(cnt, mx, bits, n); }, reps, &med, &mn);
    auto hc = down(cnt, 8), hb = down(bits, 8); auto hm = down(mx, 8);
    std::vector<unsigned> rc(8, 0), rb(8, 0); std::vector<int> rm(8, 0);
    for (long i = 0; i < n; i++) { int k = i & 7; rc[k]++; rm[k] = std::max(rm[k], (int)((unsigned)i * 2654435761u >> 1)); rb[k] |= 1u << ((i >> 3) & 31); }
    ok = hc == rc && hb == rb && hm == rm;
    work = 3.0 * n;
  } else if (name == "conv_row" || name == "conv_col") {   // n x n image
    float hw[2 * CR + 1]; for (int j = 0; j <= 2 * CR; j++) hw[j] = 1.f / (1 + abs(j - CR)); CK(cudaMemcpyToSymbol(c_w, hw, sizeof(hw)));
    int w = n, h = n; auto hi = rnd((size_t)w * h); float *in = up(hi), *out = dev<float>((size_t)w * h);
    bool row = name == "conv_row";
    if (row) timeit([&] { conv_row<<<dim3((w + 127) / 128, (h + 7) / 8), dim3(32, 8)>>>(in, out, w, h); }, reps, &med, &mn);
    else timeit([&] { conv_col<<<dim3((w + 31) / 32, (h + 63) / 64), dim3(32, 8)>>>(in, out, w, h); }, reps, &med, &mn);
    auto ho = down(out, (size_t)w * h);
    for (long p = 0; p < (long)w * h && ok; p += 613) {
      long y = p / w, x = p % w; double s = 0;
      for (int j = -CR; j <= CR; j++) { long xx = row ? x + j : x, yy = row ? y : y + j; if (xx >= 0 && xx < w && yy >= 0 && yy < h) s += hw[j + CR] * hi[yy * w + xx]; }
      if (!close(ho[p], s, 1e-4)) ok = 0;
    }
    work = 8.0 * w * h;
  } else if (name == "stencil3d_zq") {   // n x n x 64
    int nx = n, ny = n, nz = 64; size_t tot = (size_t)nx * ny * nz; auto hi = rnd(tot); float *in = up(hi), *out = dev<float>(tot);
    timeit([&] { stencil3d_zq<<<dim3((nx + 31) / 32, (ny + 7) / 8), dim3(32, 8)>>>(in, out, nx, ny, nz); }, reps, &med, &mn);
    auto ho = down(out, tot);
    auto at = [&](long x, long y, long z) -> double { return (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) ? 0.0 : hi[(z * ny + y) * nx + x]; };
    for (size_t p = 0; p < tot && ok; p += 997) {
      long x = p % nx, y = (p / nx) % ny, z = p / ((size_t)nx * ny);
      double r = 0.4 * at(x, y, z) + 0.1 * (at(x - 1, y, z) + at(x + 1, y, z) + at(x, y - 1, z) + at(x, y + 1, z) + at(x, y, z - 1) + at(x, y, z + 1));
      if (!close(ho[p], r, 1e-4)) ok = 0;
    }
    work = 8.0 * tot;
  } else if (name == "scan_shfl") {   // n floats, 1024 per block
    auto h = rnd(n); float *in = up(h), *out = dev<float>(n); int n4 = n / 4, blocks = (n4 + 255) / 256; float* sums = dev<float>(blocks);
    timeit([&] { scan_shfl<<<blocks, 256>>>((const float4*)in, (float4*)out, sums, n4); }, reps, &med, &mn);
    auto ho = down(out, n); auto hs = down(sums, blocks);
    for (int b = 0; b < blocks && ok; b += 7) { double s = 0; for (int k = 0; k < 1024; k++) { s += h[(size_t)b * 1024 + k]; if (!close(ho[(size_t)b * 1024 + k], s, 1e-3)) { ok = 0; break; } } if (!close(hs[b], s, 1e-3)) ok = 0; }
    work = 8.0 * n;
  } else if (name == "scan_smem") {   // n ints, 512 per block
    std::vector<int> h(n); for (auto& x : h) x = (int)(urand() >> 24) - 128; int *in = up(h), *out = dev<int>(n);
    timeit([&] { scan_smem<<<(n + 511) / 512, 512>>>(in, out, n); }, reps, &med, &mn);
    auto ho = down(out, n);
    for (long b = 0; b < n && ok; b += 512) { int s = 0; for (long k = b; k < b + 512 && k < n; k++) { s += h[k]; if (ho[k] != s) { ok = 0; break; } } }
    work = 8.0 * n;
  } else if (name == "bitonic_step") {   // n keys, the step j = 8 of stage k = 256
    std::vector<unsigned> h(n); for (auto& x : h) x = urand(); unsigned *a = up(h), *a0 = up(h);
    timeit([&] { restore(a, a0, n); bitonic_step<<<(n + 255) / 256, 256>>>(a, 8, 256, n); }, reps, &med, &mn);
    auto ho = down(a, n); auto r = h;
    for (long i = 0; i < n; i++) { long p = i ^ 8; if (p > i) { bool upd = (i & 256) == 0; if (upd ? r[i] > r[p] : r[i] < r[p]) std::swap(r[i], r[p]); } }
    ok = ho == r;
    work = 8.0 * n;
  } else if (name == "bitonic_block") {   // n keys sorted in blocks of 1024
    std::vector<unsigned> h(n); for (auto& x : h) x = urand(); unsigned *a = up(h), *a0 = up(h);
    timeit([&] { restore(a, a0, n); bitonic_block<<<n / 1024, 512>>>(a); }, reps, &med, &mn);
    auto ho = down(a, n); auto r = h;
    for (long b = 0; b < n; b += 1024) std::sort(r.begin() + b, r.begin() + b + 1024);
    ok = ho == r;
    work = 8.0 * n;
  } else if (name == "bfs_warp") {   // n vertices; the step out of the largest BFS level below 64k vertices
    std::vector<int> rp, col; make_graph(n, rp, col);
    std::vector<int> lev(n, -1), cur{0}; lev[0] = 0; int depth = 0;
    for (;;) {   // host BFS until the next level would be too large
      std::vector<int> nx; for (int v : cur) for (int e = rp[v]; e < rp[v + 1]; e++) if (lev[col[e]] < 0) { lev[col[e]] = depth + 1; nx.push_back(col[e]); }
      if (nx.size() > 64000 || nx.empty()) { for (int v : nx) lev[v] = -1; break; }
      cur = nx; depth++;
    }
    int nf = cur.size(); int *drp = up(rp), *dcol = up(col), *dfr = up(cur), *dlev0 = up(lev), *dlev = up(lev);
    int *dnext = dev<int>(n), *dnn = dev<int>(1);
    int blocks = std::min((nf * 32 + 255) / 256, 132 * 8);
    timeit([&] { restore(dlev, dlev0, n); CK(cudaMemsetAsync(dnn, 0, 4)); bfs_warp<<<blocks, 256>>>(drp, dcol, dfr, nf, dlev, depth, dnext, dnn); }, reps, &med, &mn);
    int hn; CK(cudaMemcpy(&hn, dnn, 4, cudaMemcpyDeviceToHost));
    auto hl = down(dlev, n); auto hx = down(dnext, std::max(hn, 1));
    std::vector<int> want; for (int v : cur) for (int e = rp[v]; e < rp[v + 1]; e++) if (lev[col[e]] < 0) { lev[col[e]] = depth + 1; want.push_back(col[e]); }
    std::vector<int> got(hx.begin(), hx.begin() + hn); std::sort(got.begin(), got.end()); std::sort(want.begin(), want.end());
    ok = got == want && hl == lev;
    work = nf;
    fprintf(stderr, "bfs_warp: frontier %d at depth %d, next %d, edges %zu\n", nf, depth, hn, col.size());
  } else if (name == "nbody") {   // n bodies
    std::vector<float4> h(n); for (auto& b : h) b = make_float4(frand() * 10, frand() * 10, frand() * 10, frand() + 0.6f);
    float4 *p = up(h), *acc = dev<float4>(n);
    timeit([&] { nbody<<<(n + 127) / 128, 128>>>(p, acc, n); }, reps, &med, &mn);
    auto ha = down(acc, n);
    for (int i = 0; i < n && ok; i += 61) {
      double ax = 0, ay = 0, az = 0;
      for (int j = 0; j < n; j++) { double dx = h[j].x - h[i].x, dy = h[j].y - h[i].y, dz = h[j].z - h[i].z, r2 = dx * dx + dy * dy + dz * dz + 1e-3, inv = 1 / sqrt(r2), f = h[j].w * inv * inv * inv; ax += f * dx; ay += f * dy; az += f * dz; }
      double mag = sqrt(ax * ax + ay * ay + az * az) + 1e-6;
      if (fabs(ha[i].x - ax) > 1e-3 * mag + 1e-4 || fabs(ha[i].y - ay) > 1e-3 * mag + 1e-4 || fabs(ha[i].z - az) > 1e-3 * mag + 1e-4) ok = 0;
    }
    work = (double)n * n;
  } else if (name == "gemv_warp" || name == "gemv_col") {   // gemv_warp: n x n row-major; gemv_col: (4 n) x (n / 8) column-major
    bool warp = name == "gemv_warp"; int rows = warp ? n : 4 * n, cols = warp ? n : n / 8;
    auto hA = rnd((size_t)rows * cols), hx = rnd(cols); float *A = up(hA), *x = up(hx), *y = dev<float>(rows);
    if (warp) timeit([&] { gemv_warp<<<(rows * 32 + 255) / 256, 256>>>((const float4*)A, (const float4*)x, y, rows, cols / 4); }, reps, &med, &mn);
    else timeit([&] { gemv_col<<<(rows + 255) / 256, 256>>>(A, x, y, rows, cols); }, reps, &med, &mn);
    auto hy = down(y, rows);
    for (int r = 0; r < rows && ok; r += 31) { double s = 0; for (int c = 0; c < cols; c++) s += (double)(warp ? hA[(size_t)r * cols + c] : hA[(size_t)c * rows + r]) * hx[c]; if (!close(hy[r], s, 1e-3)) ok = 0; }
    work = 4.0 * rows * cols;
  } else if (name == "spmv_csr8") {   // n rows, 1-48 non-zeros each, random columns
    int rows = n; std::vector<int> rp(rows + 1), col; std::vector<float> val;
    for (int r = 0; r < rows; r++) { rp[r] = col.size(); int d = 1 + urand() % 48; for (int k = 0; k < d; k++) { col.push_back(urand() % rows); val.push_back(frand()); } }
    rp[rows] = col.size(); auto hx = rnd(rows);
    int *drp = up(rp), *dcol = up(col); float *dval = up(val), *dx = up(hx), *dy = dev<float>(rows);
    timeit([&] { spmv_csr8<<<(rows * 8 + 255) / 256, 256>>>(rows, drp, dcol, dval, dx, dy); }, reps, &med, &mn);
    auto hy = down(dy, rows);
    for (int r = 0; r < rows && ok; r += 29) { double s = 0; for (int k = rp[r]; k < rp[r + 1]; k++) s += (double)val[k] * hx[col[k]]; if (!close(hy[r], s, 1e-3)) ok = 0; }
    work = (double)col.size() * 8 + rows * 8.0;
  } else if (name == "hist_warp") {   // n words, bell-shaped top bytes (sum of four random bytes)
    std::vector<unsigned> h(n); for (auto& x : h) { unsigned s = 0; for (int k = 0; k < 4; k++) s += urand() >> 26; x = (s << 24) | (urand() >> 8); }
    unsigned *in = up(h), *bins = dev<unsigned>(256);
    timeit([&] { CK(cudaMemsetAsync(bins, 0, 1024)); hist_warp<<<132 * 4, 256>>>(in, bins, n); }, reps, &med, &mn);
    auto hb = down(bins, 256); std::vector<unsigned> ref(256, 0); for (auto x : h) ref[x >> 24]++; ok = hb == ref;
    work = n;
  } else if (name == "matmul_t32x4") {   // n x n, n a multiple of 32
    auto hA = rnd((size_t)n * n), hB = rnd((size_t)n * n); float *A = up(hA), *B = up(hB), *C = dev<float>((size_t)n * n);
    timeit([&] { matmul_t32x4<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(A, B, C, n); }, reps, &med, &mn);
    auto hC = down(C, (size_t)n * n);
    for (int t = 0; t < 64; t++) { int r = (t * 7919) % n, c = (t * 104729) % n; double s = 0; for (int k = 0; k < n; k++) s += (double)hA[(size_t)r * n + k] * hB[(size_t)k * n + c]; if (!close(hC[(size_t)r * n + c], s, 1e-3)) ok = 0; }
    work = 2.0 * n * n * n;
  } else { fprintf(stderr, "unknown benchmark %s\n", name.c_str()); return 1; }
  printf("%s,%ld,%.3f,%.3f,%.6g,%d\n", name.c_str(), n, med, mn, work, ok);
  return ok ? 0 : 3;
}
