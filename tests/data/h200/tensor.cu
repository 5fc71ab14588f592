// Tensor-core and asynchronous-copy kernels for judging warpsim's timing model against the H200 (issue 10).
// Written for the project: a shared-memory-tiled wmma GEMM per input type (f16 and bf16 with f32 accumulators,
// tf32, f64, s8 with s32), a CUTLASS-style mainloop (mma.sync m16n8k16 fed by ldmatrix from a 3-stage cp.async
// pipeline), a Hopper GEMM (wgmma m64n128k16 on 128-byte-swizzled tiles that cp.async.bulk.tensor brings in, one
// mbarrier per stage) and a 5-point stencil whose tiles come through a double-buffered cp.async pipeline.
// Each benchmark: one kernel, a size, host-side validation against a CPU reference, timing with CUDA events
// (median of reps after one warm-up launch, so the second launch is the first timed one).
// Usage: tensor NAME SIZE [REPS]   -> prints one CSV line: name,size,median_us,min_us,work_units,valid
// (REPS 0: one launch, no timing: under warpsim's --cache-control all it is the same as the second one)
// Build: nvcc -O3 -arch=sm_90a -lineinfo (tests/lib/truth_build.sh tensor)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
#include <string>
#include <cuda.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
#include <cuda_pipeline.h>

using namespace nvcuda;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2);} } while (0)

static unsigned rng_state = 1618033u;
static unsigned urand() { rng_state = rng_state * 1664525u + 1013904223u; return rng_state; }
// small values that every input type holds exactly: multiples of 1/8 in [-1, 1)
static float frand8() { return (float)((int)(urand() >> 28) - 8) / 8.0f; }

__device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

// ---------- wmma GEMMs: C (n x n) = A (n x n, row-major) * B (n x n, row-major) ----------
// 64 x 64 block tile, 4 warps of 32 x 32 each, K in steps of 32; tiles staged in padded shared memory with 16-byte
// loads, then wmma fragments loaded from it. One template for every input type.
#define WT 64
#define WK 32
template <class T> struct wfrag;                       // fragment shape and accumulator of an input type
template <> struct wfrag<half> { typedef half in; typedef float acc; enum { M = 16, N = 16, K = 16 }; };
template <> struct wfrag<__nv_bfloat16> { typedef __nv_bfloat16 in; typedef float acc; enum { M = 16, N = 16, K = 16 }; };
template <> struct wfrag<float> { typedef wmma::precision::tf32 in; typedef float acc; enum { M = 16, N = 16, K = 8 }; };
template <> struct wfrag<double> { typedef double in; typedef double acc; enum { M = 8, N = 8, K = 4 }; };
template <> struct wfrag<signed char> { typedef signed char in; typedef int acc; enum { M = 16, N = 16, K = 16 }; };

template <class T>
__global__ void __launch_bounds__(128) wmma_gemm(const T* A, const T* B, typename wfrag<T>::acc* C, int n) {
  typedef wfrag<T> F;
  typedef typename F::acc Acc;
  const int PAD = 16 / sizeof(T);                      // 16 bytes of padding per row: rows stay 32-byte aligned
  __shared__ __align__(128) T As[WT][WK + 16 / sizeof(T)];
  __shared__ __align__(128) T Bs[WK][WT + 16 / sizeof(T)];
  const int FM = 32 / F::M, FN = 32 / F::N;
  int warp = threadIdx.x / 32, wm = warp / 2, wn = warp % 2;
  int row0 = blockIdx.y * WT, col0 = blockIdx.x * WT;
  wmma::fragment<wmma::accumulator, F::M, F::N, F::K, Acc> acc[FM][FN];
  for (int i = 0; i < FM; i++)
    for (int j = 0; j < FN; j++) wmma::fill_fragment(acc[i][j], (Acc)0);
  const int VA = WK * sizeof(T) / 16, VB = WT * sizeof(T) / 16;   // 16-byte vectors per tile row
  for (int k0 = 0; k0 < n; k0 += WK) {
    for (int v = threadIdx.x; v < WT * VA; v += 128) {
      int r = v / VA, c = (v % VA) * (16 / sizeof(T));
      *(uint4*)&As[r][c] = *(const uint4*)&A[(size_t)(row0 + r) * n + k0 + c];
    }
    for (int v = threadIdx.x; v < WK * VB; v += 128) {
      int r = v / VB, c = (v % VB) * (16 / sizeof(T));
      *(uint4*)&Bs[r][c] = *(const uint4*)&B[(size_t)(k0 + r) * n + col0 + c];
    }
    __syncthreads();
    for (int kk = 0; kk < WK; kk += F::K) {
      wmma::fragment<wmma::matrix_a, F::M, F::N, F::K, typename F::in, wmma::row_major> a[FM];
      wmma::fragment<wmma::matrix_b, F::M, F::N, F::K, typename F::in, wmma::row_major> b[FN];
      for (int i = 0; i < FM; i++) {
        wmma::load_matrix_sync(a[i], &As[wm * 32 + i * F::M][kk], WK + PAD);
        if (sizeof(T) == 4 && F::K == 8)
          for (int e = 0; e < a[i].num_elements; e++) a[i].x[e] = wmma::__float_to_tf32(a[i].x[e]);
      }
      for (int j = 0; j < FN; j++) {
        wmma::load_matrix_sync(b[j], &Bs[kk][wn * 32 + j * F::N], WT + PAD);
        if (sizeof(T) == 4 && F::K == 8)
          for (int e = 0; e < b[j].num_elements; e++) b[j].x[e] = wmma::__float_to_tf32(b[j].x[e]);
      }
      for (int i = 0; i < FM; i++)
        for (int j = 0; j < FN; j++) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < FM; i++)
    for (int j = 0; j < FN; j++)
      wmma::store_matrix_sync(&C[(size_t)(row0 + wm * 32 + i * F::M) * n + col0 + wn * 32 + j * F::N], acc[i][j], n,
                              wmma::mem_row_major);
}

// ---------- mma.sync + ldmatrix + 3-stage cp.async mainloop: C (f32) = A (f16, row-major) * B (f16, row-major) ----------
// 64 x 64 block tile, 4 warps of 32 x 32 (2 x 4 m16n8k16 tiles each), K in steps of 32; 3 shared-memory stages
// filled by 16-byte cp.async.cg, rows padded by 16 bytes so ldmatrix's eight row addresses hit distinct banks.
#define MS 3
#define MK 32
__device__ __forceinline__ void cp_async16(void* s, const void* g) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_u32(s)), "l"(g) : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N> __device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

__global__ void __launch_bounds__(128) mma_pipe(const half* A, const half* B, float* C, int n) {
  __shared__ __align__(128) half As[MS][64][MK + 8];
  __shared__ __align__(128) half Bs[MS][MK][64 + 8];
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, wm = warp / 2, wn = warp % 2;
  int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64, ktiles = n / MK;
  auto load_tile = [&](int kt, int s) {
    for (int v = tid; v < 64 * MK / 8; v += 128) {     // A: 64 rows x 4 vectors of 8 halves
      int r = v / (MK / 8), c = (v % (MK / 8)) * 8;
      cp_async16(&As[s][r][c], &A[(size_t)(row0 + r) * n + kt * MK + c]);
    }
    for (int v = tid; v < MK * 64 / 8; v += 128) {     // B: 32 rows x 8 vectors
      int r = v / 8, c = (v % 8) * 8;
      cp_async16(&Bs[s][r][c], &B[(size_t)(kt * MK + r) * n + col0 + c]);
    }
  };
  float acc[2][4][4];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 4; j++)
      for (int e = 0; e < 4; e++) acc[i][j][e] = 0.f;
  for (int s = 0; s < MS - 1; s++) { if (s < ktiles) load_tile(s, s); cp_commit(); }
  for (int kt = 0; kt < ktiles; kt++) {
    cp_wait<MS - 2>();
    __syncthreads();
    int nk = kt + MS - 1;
    if (nk < ktiles) load_tile(nk, nk % MS);
    cp_commit();
    int s = kt % MS;
    for (int kk = 0; kk < MK; kk += 16) {
      unsigned a[2][4], b[4][2];
      for (int i = 0; i < 2; i++) {
        const half* p = &As[s][wm * 32 + i * 16 + lane % 16][kk + (lane / 16) * 8];
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a[i][0]), "=r"(a[i][1]), "=r"(a[i][2]), "=r"(a[i][3]) : "r"(smem_u32(p)));
      }
      for (int j = 0; j < 4; j += 2) {
        const half* p = &Bs[s][kk + lane % 8 + ((lane / 8) % 2) * 8][wn * 32 + j * 8 + (lane / 16) * 8];
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(b[j][0]), "=r"(b[j][1]), "=r"(b[j + 1][0]), "=r"(b[j + 1][1]) : "r"(smem_u32(p)));
      }
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++)
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                       "{%0, %1, %2, %3};"
                       : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]), "+f"(acc[i][j][3])
                       : "r"(a[i][0]), "r"(a[i][1]), "r"(a[i][2]), "r"(a[i][3]), "r"(b[j][0]), "r"(b[j][1]));
    }
  }
  cp_wait<0>();
  int g = lane / 4, t = lane % 4;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 4; j++) {
      int r = row0 + wm * 32 + i * 16 + g, c = col0 + wn * 32 + j * 8 + 2 * t;
      *(float2*)&C[(size_t)r * n + c] = make_float2(acc[i][j][0], acc[i][j][1]);
      *(float2*)&C[(size_t)(r + 8) * n + c] = make_float2(acc[i][j][2], acc[i][j][3]);
    }
}

// ---------- wgmma + TMA (sm_90a): C (f32) = A (f16, n x n row-major) * B^T, B given as Bt (n x n row-major) ----------
// One warpgroup per 64 x 128 tile; K in tiles of 64 halves (128 bytes: the 128-byte swizzle's row) brought by
// cp.async.bulk.tensor into 3 stages, each with an mbarrier that thread 0 arms with the stage's bytes.
#define GS 3
#define GK 64
#define GA_BYTES (64 * GK * 2)
#define GB_BYTES (128 * GK * 2)
__device__ __forceinline__ void mbar_init(uint64_t* mb, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(mb)), "r"(count));
}
__device__ __forceinline__ void mbar_expect(uint64_t* mb, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(mb)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t* mb, unsigned parity) {
  asm volatile("{\n\t.reg .pred p;\n\tWAIT_%=:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
               "@!p bra WAIT_%=;\n\t}" ::"r"(smem_u32(mb)), "r"(parity) : "memory");
}
__device__ __forceinline__ void tma_2d(void* dst, const CUtensorMap* map, int x, int y, uint64_t* mb) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
               ::"r"(smem_u32(dst)), "l"((uint64_t)map), "r"(x), "r"(y), "r"(smem_u32(mb)) : "memory");
}
// K-major operand, 128-byte swizzle: 8-row atoms 1024 bytes apart (SBO), byte offset kb within the 128-byte row
__device__ __forceinline__ uint64_t gdesc(const void* base, unsigned kb) {
  unsigned a = smem_u32(base) + kb;
  return (uint64_t)((a & 0x3ffff) >> 4) | ((uint64_t)(16 >> 4) << 16) | ((uint64_t)(1024 >> 4) << 32) | (1ull << 62);
}
__device__ __forceinline__ void wgmma_n128(float* d, uint64_t da, uint64_t db) {
  asm volatile("{\n\t.reg .pred p;\n\tsetp.eq.u32 p, 1, 1;\n\t"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, "
               "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, "
               "%33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, "
               "%54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n\t}"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                 "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                 "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                 "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                 "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                 "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db));
}

__global__ void __launch_bounds__(128) wgmma_tma(const __grid_constant__ CUtensorMap amap,
                                                 const __grid_constant__ CUtensorMap bmap, float* C, int n) {
  extern __shared__ unsigned char dyn[];
  unsigned char* sm = (unsigned char*)(((uintptr_t)dyn + 1023) & ~(uintptr_t)1023);
  __shared__ uint64_t full[GS];
  int tid = threadIdx.x, row0 = blockIdx.y * 64, col0 = blockIdx.x * 128, ktiles = n / GK;
  auto sa = [&](int s) { return sm + s * (GA_BYTES + GB_BYTES); };
  auto sb = [&](int s) { return sm + s * (GA_BYTES + GB_BYTES) + GA_BYTES; };
  if (tid == 0) {
    for (int s = 0; s < GS; s++) mbar_init(&full[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (tid == 0)
    for (int s = 0; s < GS && s < ktiles; s++) {
      mbar_expect(&full[s], GA_BYTES + GB_BYTES);
      tma_2d(sa(s), &amap, s * GK, row0, &full[s]);
      tma_2d(sb(s), &bmap, s * GK, col0, &full[s]);
    }
  float d[64];
  for (int i = 0; i < 64; i++) d[i] = 0.f;
  for (int kt = 0; kt < ktiles; kt++) {
    int s = kt % GS;
    mbar_wait(&full[s], (kt / GS) & 1);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int kk = 0; kk < GK / 16; kk++) wgmma_n128(d, gdesc(sa(s), kk * 32), gdesc(sb(s), kk * 32));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads();                                   // every warp is done with stage s: refill it
    if (tid == 0 && kt + GS < ktiles) {
      mbar_expect(&full[s], GA_BYTES + GB_BYTES);
      tma_2d(sa(s), &amap, (kt + GS) * GK, row0, &full[s]);
      tma_2d(sb(s), &bmap, (kt + GS) * GK, col0, &full[s]);
    }
  }
  int warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  for (int i = 0; i < 64; i += 2) {
    int r = row0 + 16 * warp + g + 8 * ((i % 4) / 2), c = col0 + (i / 4) * 8 + 2 * t;
    *(float2*)&C[(size_t)r * n + c] = make_float2(d[i], d[i + 1]);
  }
}

// ---------- 5-point stencil through a double-buffered cp.async pipeline ----------
// Block (32, 8) owns a 32-column strip of 64 rows: 8 chunks of 8 rows, each staged with its halo (10 x 34 floats)
// by 4-byte cp.async (zero-filled outside the grid) while the previous chunk is computed.
#define SR 8
#define SCH 8
__global__ void __launch_bounds__(256) stencil_async(const float* in, float* out, int n) {
  __shared__ float buf[2][SR + 2][32 + 2];
  int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 32 + tx;
  int x0 = blockIdx.x * 32, y0 = blockIdx.y * SR * SCH;
  auto stage = [&](int c, int b) {
    for (int e = tid; e < (SR + 2) * 34; e += 256) {
      int r = e / 34, q = e % 34, y = y0 + c * SR + r - 1, x = x0 + q - 1;
      bool inside = x >= 0 && x < n && y >= 0 && y < n;
      const float* src = inside ? &in[(size_t)y * n + x] : in;
      __pipeline_memcpy_async(&buf[b][r][q], src, 4, inside ? 0 : 4);
    }
    __pipeline_commit();
  };
  stage(0, 0);
  for (int c = 0; c < SCH; c++) {
    if (c + 1 < SCH) stage(c + 1, (c + 1) & 1);
    else __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    int b = c & 1, r = ty + 1, q = tx + 1, y = y0 + c * SR + ty, x = x0 + tx;
    float v = 0.5f * buf[b][r][q] + 0.125f * (buf[b][r - 1][q] + buf[b][r + 1][q] + buf[b][r][q - 1] + buf[b][r][q + 1]);
    if (x < n && y < n) out[(size_t)y * n + x] = v;
    __syncthreads();
  }
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
  if (reps <= 0) { *med = *mn = 0; return; }   // REPS 0: the one launch only (a simulator's quick check)
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

// host values of an input type (every frand8 value is exact in each)
static void to_type(float v, half* p) { *p = __float2half(v); }
static void to_type(float v, __nv_bfloat16* p) { *p = __float2bfloat16(v); }
static void to_type(float v, float* p) { *p = v; }
static void to_type(float v, double* p) { *p = v; }
static void to_type(float v, signed char* p) { *p = (signed char)(v * 8); }   // s8: the eighths as integers

// C = A * B (B row-major, or B^T when bt) in double, checked on every element: exact for f64 and s8, and for the
// others exact too, as the inputs are eighths and every partial sum of 512 products of eighths is a multiple of
// 1/64 below 2^9, which f32 holds exactly whatever the order of the additions
template <class Out>
static bool check_gemm(const std::vector<float>& a, const std::vector<float>& b, const std::vector<Out>& c, int n,
                       bool bt, double scale) {
  std::vector<double> row(n);
  for (int i = 0; i < n; i++) {
    std::fill(row.begin(), row.end(), 0.0);
    for (int k = 0; k < n && !bt; k++) {
      double av = a[(size_t)i * n + k];
      const float* br = &b[(size_t)k * n];
      for (int j = 0; j < n; j++) row[j] += av * br[j];
    }
    if (bt)
      for (int j = 0; j < n; j++) { double s = 0; for (int k = 0; k < n; k++) s += (double)a[(size_t)i * n + k] * b[(size_t)j * n + k]; row[j] = s; }
    for (int j = 0; j < n; j++)
      if ((double)c[(size_t)i * n + j] != row[j] * scale) {
        fprintf(stderr, "C[%d][%d] = %g, CPU %g\n", i, j, (double)c[(size_t)i * n + j], row[j] * scale);
        return false;
      }
  }
  return true;
}

template <class T>
static bool run_wmma(int n, int reps, float* med, float* mn) {
  typedef typename wfrag<T>::acc Acc;
  std::vector<float> a((size_t)n * n), b((size_t)n * n);
  for (auto& x : a) x = frand8();
  for (auto& x : b) x = frand8();
  std::vector<T> ha(a.size()), hb(b.size());
  for (size_t i = 0; i < a.size(); i++) { to_type(a[i], &ha[i]); to_type(b[i], &hb[i]); }
  T *da = up(ha), *db = up(hb); Acc* dc = dev<Acc>((size_t)n * n);
  timeit([&] { wmma_gemm<T><<<dim3(n / WT, n / WT), 128>>>(da, db, dc, n); }, reps, med, mn);
  auto hc = down(dc, (size_t)n * n);
  return check_gemm(a, b, hc, n, false, sizeof(T) == 1 ? 64.0 : 1.0);
}

typedef CUresult (*encode_fn)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*, const cuuint64_t*,
                              const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
// a 2D map of an n x n f16 row-major matrix, boxes of 64 halves (128 bytes, 128-byte swizzle) x rows
static CUtensorMap half_map(encode_fn enc, half* p, int n, unsigned rows) {
  CUtensorMap m;
  cuuint64_t dim[2] = {(cuuint64_t)n, (cuuint64_t)n}, stride[1] = {(cuuint64_t)n * 2};
  cuuint32_t box[2] = {GK, rows}, es[2] = {1, 1};
  CUresult r = enc(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, p, dim, stride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) { fprintf(stderr, "cuTensorMapEncodeTiled: %d\n", (int)r); exit(2); }
  return m;
}

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: tensor NAME SIZE [REPS]\n"); return 1; }
  std::string name = argv[1]; long n = atol(argv[2]); int reps = argc > 3 ? atoi(argv[3]) : 20;
  float med = 0, mn = 0; double work = 2.0 * n * n * n; int ok = 1;
  if (name != "stencil_async" && (n % 128 != 0 || n < 128)) { fprintf(stderr, "SIZE must be a multiple of 128\n"); return 1; }
  if (name == "wmma_f16") ok = run_wmma<half>(n, reps, &med, &mn);
  else if (name == "wmma_bf16") ok = run_wmma<__nv_bfloat16>(n, reps, &med, &mn);
  else if (name == "wmma_tf32") ok = run_wmma<float>(n, reps, &med, &mn);
  else if (name == "wmma_f64") ok = run_wmma<double>(n, reps, &med, &mn);
  else if (name == "wmma_s8") ok = run_wmma<signed char>(n, reps, &med, &mn);
  else if (name == "mma_pipe" || name == "wgmma_tma") {
    bool wg = name == "wgmma_tma";
    std::vector<float> a((size_t)n * n), b((size_t)n * n);
    for (auto& x : a) x = frand8();
    for (auto& x : b) x = frand8();
    std::vector<half> ha(a.size()), hb(b.size());
    for (size_t i = 0; i < a.size(); i++) { ha[i] = __float2half(a[i]); hb[i] = __float2half(b[i]); }
    half *da = up(ha), *db = up(hb); float* dc = dev<float>((size_t)n * n);
    if (!wg) timeit([&] { mma_pipe<<<dim3(n / 64, n / 64), 128>>>(da, db, dc, n); }, reps, &med, &mn);
    else {
      cudaDriverEntryPointQueryResult q; void* fn = nullptr;
      CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
      if (!fn || q != cudaDriverEntryPointSuccess) { fprintf(stderr, "no cuTensorMapEncodeTiled\n"); return 2; }
      CUtensorMap am = half_map((encode_fn)fn, da, n, 64), bm = half_map((encode_fn)fn, db, n, 128);
      int smem = GS * (GA_BYTES + GB_BYTES) + 1024;
      CK(cudaFuncSetAttribute(wgmma_tma, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      timeit([&] { wgmma_tma<<<dim3(n / 128, n / 64), 128, smem>>>(am, bm, dc, n); }, reps, &med, &mn);
    }
    ok = check_gemm(a, b, down(dc, (size_t)n * n), n, wg, 1.0);
  } else if (name == "stencil_async") {   // n x n grid, n a multiple of 64
    if (n % 64) { fprintf(stderr, "SIZE must be a multiple of 64\n"); return 1; }
    std::vector<float> h((size_t)n * n); for (auto& x : h) x = frand8();
    float *in = up(h), *out = dev<float>((size_t)n * n);
    timeit([&] { stencil_async<<<dim3(n / 32, n / (SR * SCH)), dim3(32, SR)>>>(in, out, n); }, reps, &med, &mn);
    auto ho = down(out, (size_t)n * n);
    auto at = [&](long y, long x) -> float { return (x < 0 || y < 0 || x >= n || y >= n) ? 0.f : h[y * n + x]; };
    for (long y = 0; y < n && ok; y++)
      for (long x = 0; x < n; x++) {
        float r = 0.5f * at(y, x) + 0.125f * (at(y - 1, x) + at(y + 1, x) + at(y, x - 1) + at(y, x + 1));
        if (ho[y * n + x] != r) { fprintf(stderr, "out[%ld][%ld] = %g, CPU %g\n", y, x, ho[y * n + x], r); ok = 0; break; }
      }
    work = 8.0 * n * n;
  } else { fprintf(stderr, "unknown benchmark %s\n", name.c_str()); return 1; }
  printf("%s,%ld,%.3f,%.3f,%.6g,%d\n", name.c_str(), n, med, mn, work, ok);
  return ok ? 0 : 3;
}
