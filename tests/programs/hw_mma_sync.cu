// H200 reference program: mma.sync for every shape and type (inline PTX), each lane's input registers from a
// NVCCFLAGS: -arch=sm_90
// fixed generator, each lane's output registers printed in hex; ldmatrix (.x1/.x2/.x4, .trans), stmatrix and
// movmatrix with permuted row addresses.
#include "hw_common.h"

#define R4(p) "r"(p[0]), "r"(p[1]), "r"(p[2]), "r"(p[3])
#define R2(p) "r"(p[0]), "r"(p[1])
#define W4(p) "=r"(p[0]), "=r"(p[1]), "=r"(p[2]), "=r"(p[3])
#define W2(p) "=r"(p[0]), "=r"(p[1])

// op: which instruction; in: per lane 16 words (a 0-3, b 4-5, c 8-11), out: per lane 4 words
__global__ void k_mma(int op, const uint32_t *in, uint32_t *out) {
  const uint32_t *p = in + threadIdx.x * 16;
  uint32_t a[4] = {p[0], p[1], p[2], p[3]}, b[2] = {p[4], p[5]}, c[4] = {p[8], p[9], p[10], p[11]};
  uint32_t d[4] = {0, 0, 0, 0};
  switch (op) {
  case 0: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                       : W4(d) : R4(a), R2(b), R4(c)); break;
  case 1: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                       : W4(d) : R2(a), "r"(b[0]), R4(c)); break;
  case 2: asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                       : W2(d) : R4(a), R2(b), R2(c)); break;
  case 3: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                       : W4(d) : R4(a), R2(b), R4(c)); break;
  case 4: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                       : W4(d) : R2(a), "r"(b[0]), R4(c)); break;
  case 5: asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                       : W4(d) : R2(a), "r"(b[0]), R4(c)); break;
  case 6: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                       : W4(d) : R4(a), R2(b), R4(c)); break;
  case 7: {
    double da = __longlong_as_double(((unsigned long long)p[1] << 32) | p[0]);
    double db = __longlong_as_double(((unsigned long long)p[5] << 32) | p[4]);
    double dc0 = __longlong_as_double(((unsigned long long)p[9] << 32) | p[8]);
    double dc1 = __longlong_as_double(((unsigned long long)p[11] << 32) | p[10]);
    double d0, d1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(d0), "=d"(d1) : "d"(da), "d"(db), "d"(dc0), "d"(dc1));
    unsigned long long u0 = __double_as_longlong(d0), u1 = __double_as_longlong(d1);
    d[0] = (uint32_t)u0; d[1] = (uint32_t)(u0 >> 32); d[2] = (uint32_t)u1; d[3] = (uint32_t)(u1 >> 32);
    break;
  }
  case 8: asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                       : W4(d) : R4(a), R2(b), R4(c)); break;
  case 9: asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                       : W4(d) : R4(a), R2(b), R4(c)); break;
  case 10: asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                       : W4(d) : R2(a), "r"(b[0]), R4(c)); break;
  case 11: asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                       : W4(d) : R4(a), R2(b), R4(c)); break;
  case 12: asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                       : W4(d) : R4(a), R2(b), R4(c)); break;
  case 13: asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                       : W4(d) : R4(a), R2(b), R4(c)); break;
  case 14: asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                       : W4(d) : R2(a), "r"(b[0]), R4(c)); break;
  case 15: asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                       : W4(d) : R4(a), R2(b), R4(c)); break;
  case 16: asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                       : W4(d) : R4(a), R2(b), R4(c)); break;
  case 17: asm volatile("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                       : W4(d) : R2(a), "r"(b[0]), R4(c)); break;
  }
  uint32_t *q = out + threadIdx.x * 4;
  q[0] = d[0]; q[1] = d[1]; q[2] = d[2]; q[3] = d[3];
}

static const char *op_name[] = {
  "m16n8k16.f32.f16.f16.f32", "m16n8k8.f32.f16.f16.f32", "m16n8k16.f16.f16.f16.f16", "m16n8k16.f32.bf16.bf16.f32",
  "m16n8k8.f32.bf16.bf16.f32", "m16n8k4.f32.tf32.tf32.f32", "m16n8k8.f32.tf32.tf32.f32", "m8n8k4.f64",
  "m16n8k32.s32.s8.s8.s32", "m16n8k32.satfinite.s32.s8.s8.s32", "m16n8k16.s32.s8.s8.s32", "m16n8k64.s32.s4.s4.s32",
  "m16n8k32.s32.u8.u8.s32", "m16n8k64.s32.u4.u4.s32", "m16n8k32.s32.s4.s4.s32", "m16n8k256.b1.xor.popc",
  "m16n8k256.b1.and.popc", "m16n8k16.satfinite.s32.s8.s8.s32"};

static uint16_t h16(float f, bool bf) {
  if (bf) { __nv_bfloat16 h = __float2bfloat16(f); uint16_t u; memcpy(&u, &h, 2); return u; }
  __half h = __float2half(f); uint16_t u; memcpy(&u, &h, 2); return u;
}
// the input word w (0-15) of a lane for op and set
static uint32_t gen_word(int op, int set, int w) {
  bool isc = w >= 8;
  switch (op) {
  case 0: case 1: case 2: case 3: case 4: {
    bool bf = op == 3 || op == 4;
    if (isc && op != 2) return hw_fbits(set ? hw_wide(bf ? -60 : -20, bf ? 60 : 20, 23) : hw_wide(-4, 0, 23));
    int lo = set ? (bf ? -30 : -12) : -3, hi = set ? (bf ? 30 : 12) : -1;
    return h16(hw_wide(lo, hi, 10), bf) | (uint32_t)h16(hw_wide(lo, hi, 10), bf) << 16;
  }
  case 5: case 6:
    if (isc) return hw_fbits(set ? hw_wide(-50, 50, 23) : hw_wide(-4, 0, 23));
    return hw_fbits(set ? hw_wide(-25, 25, 23) : hw_wide(-3, -1, 23));
  case 7: {
    static uint32_t hi_word;
    if ((w & 1) == 0) { double v = (double)hw_wide(set ? -300 / 10 : -3, set ? 30 : 0, 23) * (1.0 + (hw_next() >> 3) * 0x1p-52);
      uint64_t u = hw_dbits(v); hi_word = (uint32_t)(u >> 32); return (uint32_t)u; }
    return hi_word;
  }
  default:
    if (isc) { uint32_t r = hw_next() % 3; return set == 0 || r == 0 ? (uint32_t)((int)(hw_next() % 2000001) - 1000000)
               : r == 1 ? 0x7fffffffu - hw_next() % 3000000u : 0x80000000u + hw_next() % 3000000u; }
    return hw_next();
  }
}

static void run_mma_ops() {
  uint32_t hin[32 * 16], hout[32 * 4], *din, *dout;
  CHECK(cudaMalloc(&din, sizeof hin)); CHECK(cudaMalloc(&dout, sizeof hout));
  for (int op = 0; op < 18; op++)
    for (int set = 0; set < 2; set++) {
      hw_seed(900 + op * 31 + set);
      for (int l = 0; l < 32; l++) for (int w = 0; w < 16; w++) hin[l * 16 + w] = gen_word(op, set, w);
      CHECK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));
      k_mma<<<1, 32>>>(op, din, dout); CHECK_LAUNCH();
      CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
      printf("mma %s set%d\n", op_name[op], set);
      for (int l = 0; l < 32; l++) printf("  lane %2d: %08x %08x %08x %08x\n", l, hout[l * 4], hout[l * 4 + 1], hout[l * 4 + 2], hout[l * 4 + 3]);
    }
  cudaFree(din); cudaFree(dout);
}

// ldmatrix / stmatrix / movmatrix: shared memory of 32 rows of 8 b16 (value = index), row r of lane l at perm(l)
__device__ __forceinline__ int perm(int l) { return (l * 5 + 3) & 31; }
__global__ void k_ldm(int op, uint32_t *out) {
  __shared__ __align__(16) uint16_t sm[32 * 8];
  __shared__ __align__(16) uint16_t st[32 * 8];
  int l = threadIdx.x;
  for (int i = l; i < 256; i += 32) { sm[i] = (uint16_t)i; st[i] = 0xffff; }
  __syncwarp();
  unsigned addr = (unsigned)__cvta_generic_to_shared(&sm[perm(l) * 8]);
  unsigned saddr = (unsigned)__cvta_generic_to_shared(&st[perm(l) * 8]);
  uint32_t r[4] = {0, 0, 0, 0};
  uint32_t v[4] = {(uint32_t)(l * 8) | (uint32_t)(l * 8 + 1) << 16, (uint32_t)(l * 8 + 2) | (uint32_t)(l * 8 + 3) << 16,
                   (uint32_t)(l * 8 + 4) | (uint32_t)(l * 8 + 5) << 16, (uint32_t)(l * 8 + 6) | (uint32_t)(l * 8 + 7) << 16};
  switch (op) {
  case 0: asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr)); break;
  case 1: asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr)); break;
  case 2: asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : W4(r) : "r"(addr)); break;
  case 3: asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr)); break;
  case 4: asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr)); break;
  case 5: asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : W4(r) : "r"(addr)); break;
  case 6: asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(saddr), "r"(v[0]) : "memory"); break;
  case 7: asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" :: "r"(saddr), "r"(v[0]), "r"(v[1]) : "memory"); break;
  case 8: asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(saddr), R4(v) : "memory"); break;
  case 9: asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" :: "r"(saddr), R4(v) : "memory"); break;
  case 10: asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(r[0]) : "r"(v[0])); break;
  }
  __syncwarp();
  if (op >= 6 && op <= 9) { for (int i = 0; i < 4; i++) r[i] = st[l * 8 + 2 * i] | (uint32_t)st[l * 8 + 2 * i + 1] << 16; }
  for (int i = 0; i < 4; i++) out[l * 4 + i] = r[i];
}
static void run_ldm_ops() {
  static const char *nm[] = {"ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "ldmatrix.x1.trans", "ldmatrix.x2.trans",
                             "ldmatrix.x4.trans", "stmatrix.x1", "stmatrix.x2", "stmatrix.x4", "stmatrix.x4.trans",
                             "movmatrix.trans"};
  uint32_t h[128], *d; CHECK(cudaMalloc(&d, sizeof h));
  for (int op = 0; op < 11; op++) {
    k_ldm<<<1, 32>>>(op, d); CHECK_LAUNCH();
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("%s%s\n", nm[op], op >= 6 && op <= 9 ? " (shared row l, words)" : "");
    for (int l = 0; l < 32; l++) printf("  lane %2d: %08x %08x %08x %08x\n", l, h[l * 4], h[l * 4 + 1], h[l * 4 + 2], h[l * 4 + 3]);
  }
  cudaFree(d);
}

int main() {
  run_mma_ops();
  run_ldm_ops();
  printf("PASS hw_mma_sync\n");
  return 0;
}
