// Shared helpers of the hw_*.cu programs: each prints what the tensor-core instructions put in every lane's
// registers (fragment layouts) and the bits of their results for fixed inputs. The same program runs on an
// H200 (output kept as tests/data/h200/tensor/NAME.txt and tests/programs/NAME.expected) and in warpsim.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)

// deterministic generator (xorshift32), the same on every machine
static uint32_t hw_rng = 12345u;
static inline uint32_t hw_next() { hw_rng ^= hw_rng << 13; hw_rng ^= hw_rng >> 17; hw_rng ^= hw_rng << 5; return hw_rng; }
static inline void hw_seed(uint32_t s) { hw_rng = s ? s : 1u; for (int i = 0; i < 8; i++) hw_next(); }

// a float with a random sign, a random exponent in [elo, ehi] and `mbits` random significand bits
static inline float hw_wide(int elo, int ehi, int mbits) {
  uint32_t r = hw_next();
  int e = elo + (int)(hw_next() % (uint32_t)(ehi - elo + 1));
  uint32_t m = mbits ? (hw_next() & ((1u << mbits) - 1u)) << (23 - mbits) : 0u;
  uint32_t bits = ((r & 1u) << 31) | ((uint32_t)(e + 127) << 23) | m;
  float f; memcpy(&f, &bits, 4); return f;
}
static inline uint32_t hw_fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t hw_dbits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

// device-side: a fragment element as a float (layout dumps store row/column indices, all exact)
__device__ __forceinline__ float hw_tof(__half h) { return __half2float(h); }
__device__ __forceinline__ float hw_tof(__nv_bfloat16 h) { return __bfloat162float(h); }
__device__ __forceinline__ float hw_tof(float f) { return f; }
__device__ __forceinline__ float hw_tof(double d) { return (float)d; }
__device__ __forceinline__ float hw_tof(signed char c) { return (float)c; }
__device__ __forceinline__ float hw_tof(unsigned char c) { return (float)c; }
__device__ __forceinline__ float hw_tof(int c) { return (float)c; }
__device__ __forceinline__ float hw_tof(unsigned c) { return (float)c; }

// host-side: an index as a memory element of each type
template <class T> static inline T hw_from(int v);
template <> inline __half hw_from<__half>(int v) { return __float2half((float)v); }
template <> inline __nv_bfloat16 hw_from<__nv_bfloat16>(int v) { return __float2bfloat16((float)v); }
template <> inline float hw_from<float>(int v) { return (float)v; }
template <> inline double hw_from<double>(int v) { return (double)v; }
template <> inline signed char hw_from<signed char>(int v) { return (signed char)v; }
template <> inline unsigned char hw_from<unsigned char>(int v) { return (unsigned char)v; }
template <> inline int hw_from<int>(int v) { return v; }

// print a layout: for each lane, the (row,col) of each fragment element
static void hw_print_layout(const char *name, const float *rows, const float *cols, int nel) {
  printf("layout %s elements %d\n", name, nel);
  for (int l = 0; l < 32; l++) {
    printf("  lane %2d:", l);
    for (int i = 0; i < nel; i++) printf(" %d,%d", (int)rows[l * nel + i], (int)cols[l * nel + i]);
    printf("\n");
  }
}

// print a matrix of 32-bit words in hex, one row per line
static void hw_print_hex32(const char *name, const void *p, int rows, int cols) {
  const uint32_t *u = (const uint32_t *)p;
  printf("result %s %dx%d\n", name, rows, cols);
  for (int r = 0; r < rows; r++) {
    printf(" ");
    for (int c = 0; c < cols; c++) printf(" %08x", u[r * cols + c]);
    printf("\n");
  }
}
static void hw_print_hex16(const char *name, const void *p, int rows, int cols) {
  const uint16_t *u = (const uint16_t *)p;
  printf("result %s %dx%d\n", name, rows, cols);
  for (int r = 0; r < rows; r++) {
    printf(" ");
    for (int c = 0; c < cols; c++) printf(" %04x", u[r * cols + c]);
    printf("\n");
  }
}
static void hw_print_hex64(const char *name, const void *p, int rows, int cols) {
  const uint64_t *u = (const uint64_t *)p;
  printf("result %s %dx%d\n", name, rows, cols);
  for (int r = 0; r < rows; r++) {
    printf(" ");
    for (int c = 0; c < cols; c++) printf(" %016llx", (unsigned long long)u[r * cols + c]);
    printf("\n");
  }
}

// host-side: a memory element's value
static inline double hw_hval(__half h) { return (double)__half2float(h); }
static inline double hw_hval(float f) { return (double)f; }
static inline double hw_hval(double d) { return d; }
static inline double hw_hval(int i) { return (double)i; }
