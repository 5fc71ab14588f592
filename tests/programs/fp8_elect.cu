// sm_89/sm_90 warp-level additions: fp8 (OCP E4M3 and E5M2) conversions in cvt, both directions, .satfinite and
// .relu, bit-exact against a CPU reference written from the OCP FP8 definition (every f16 pair, every fp8 pair,
// hashed f32 pairs; the __nv_fp8 types of cuda_fp8.h too); mma.sync m16n8k32 with e4m3/e5m2 inputs (exact sums);
// elect.sync with partial masks; setmaxnreg. Argument "small": every 61st input of the conversion sweeps.
// NVCCFLAGS: -gencode arch=compute_90a,code=[sm_90a,compute_90a]
// ARGS: all
// TIMING_ARGS: small
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cstdint>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

static int failures = 0;
#define CHECK(cond, ...) do { if (!(cond)) { if (failures < 20) { printf("FAIL: " __VA_ARGS__); printf("\n"); } failures++; } } while (0)

// ---------------- the CPU reference, from the OCP 8-bit floating point specification ----------------
// E4M3: bias 7, no infinities, NaN S.1111.111, largest 448. E5M2: bias 15, infinities S.11111.00, NaN
// S.11111.{01,10,11}, largest 57344. Round to nearest, ties to even; .satfinite: anything beyond the largest finite
// value (infinities too) becomes it; NaN is 0x7f; .relu: negative values and -0 become +0.
struct Fmt { int ebits, mbits, bias; unsigned maxcode; };
static const Fmt E4M3 = { 4, 3, 7, 0x7e }, E5M2 = { 5, 2, 15, 0x7b };

static double f8_value(unsigned code, const Fmt &f)   // the value of a non-NaN code
{
    unsigned e = (code >> f.mbits) & ((1u << f.ebits) - 1), m = code & ((1u << f.mbits) - 1);
    double v = e ? ldexp(1.0 + m / (double)(1u << f.mbits), (int)e - f.bias) : ldexp(m / (double)(1u << f.mbits), 1 - f.bias);
    return (code & 0x80) ? -v : v;
}
static int f8_is_nan(unsigned code, const Fmt &f)
{
    unsigned mag = code & 0x7f;
    return f.ebits == 4 ? mag == 0x7f : (mag >> 2) == 0x1f && (mag & 3);
}
static int f8_is_inf(unsigned code, const Fmt &f) { return f.ebits == 5 && (code & 0x7f) == 0x7c; }

static unsigned ref_encode(double x, const Fmt &f, int relu)
{
    if (x != x) return 0x7f;
    int neg = signbit(x);
    if (relu && neg) return 0;
    double a = fabs(x);
    unsigned s = neg ? 0x80 : 0;
    if (a >= f8_value(f.maxcode, f)) return s | f.maxcode;
    unsigned c = 0;                                    // the largest code whose value is <= a
    while (c + 1 <= f.maxcode && f8_value(c + 1, f) <= a) c++;
    if (f8_value(c, f) == a) return s | c;
    double lo = a - f8_value(c, f), hi = f8_value(c + 1, f) - a;
    if (lo < hi) return s | c;
    if (hi < lo) return s | (c + 1);
    return s | ((c & 1) ? c + 1 : c);                  // a tie: the even code
}

static uint16_t ref_half(double v, int relu)          // an fp8 value as f16 (exact), NaN as the H200 gives it
{
    if (v != v) return 0x7fff;
    if (relu && (v < 0 || signbit(v))) v = 0;
    __half h = __double2half(v);
    uint16_t b;
    memcpy(&b, &h, 2);
    return b;
}
static double ref_decode(unsigned code, const Fmt &f)
{
    if (f8_is_nan(code, f)) return NAN;
    if (f8_is_inf(code, f)) return (code & 0x80) ? -INFINITY : INFINITY;
    return f8_value(code, f);
}

static unsigned mix(unsigned x) { x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16; return x; }

// ---------------- conversions on the device ----------------
__global__ void f16_to_f8(const unsigned *in, int n, unsigned short *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = in[i];
    unsigned short a, b, c, d;
    asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(a) : "r"(v));
    asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(b) : "r"(v));
    asm("cvt.rn.satfinite.relu.e4m3x2.f16x2 %0, %1;" : "=h"(c) : "r"(v));
    asm("cvt.rn.satfinite.relu.e5m2x2.f16x2 %0, %1;" : "=h"(d) : "r"(v));
    o[4 * i] = a; o[4 * i + 1] = b; o[4 * i + 2] = c; o[4 * i + 3] = d;
}
__global__ void f8_to_f16(const unsigned short *in, int n, unsigned *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned short v = in[i];
    unsigned a, b, c, d;
    asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(a) : "h"(v));
    asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(b) : "h"(v));
    asm("cvt.rn.relu.f16x2.e4m3x2 %0, %1;" : "=r"(c) : "h"(v));
    asm("cvt.rn.relu.f16x2.e5m2x2 %0, %1;" : "=r"(d) : "h"(v));
    o[4 * i] = a; o[4 * i + 1] = b; o[4 * i + 2] = c; o[4 * i + 3] = d;
}
__global__ void f32_to_f8(const float2 *in, int n, unsigned short *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = in[i].x, b = in[i].y;
    unsigned short r0, r1, r2, r3;
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r0) : "f"(a), "f"(b));
    asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r1) : "f"(a), "f"(b));
    asm("cvt.rn.satfinite.relu.e4m3x2.f32 %0, %1, %2;" : "=h"(r2) : "f"(a), "f"(b));
    asm("cvt.rn.satfinite.relu.e5m2x2.f32 %0, %1, %2;" : "=h"(r3) : "f"(a), "f"(b));
    o[4 * i] = r0; o[4 * i + 1] = r1; o[4 * i + 2] = r2; o[4 * i + 3] = r3;
}
// the __nv_fp8 types as nvcc lowers them: float -> fp8, fp8 -> float, packed pairs
__global__ void nv_types(const float *in, int n, unsigned char *o8, float *of)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_fp8_e4m3 a(in[i]);
    __nv_fp8_e5m2 b(in[i]);
    o8[2 * i] = a.__x;
    o8[2 * i + 1] = b.__x;
    of[2 * i] = float(a);
    of[2 * i + 1] = float(b);
}

static void test_cvt(int stride)
{
    const int N = 65536;
    int n = (N + stride - 1) / stride;
    unsigned *h16 = (unsigned *)malloc(n * 4);
    unsigned short *h8 = (unsigned short *)malloc(n * 2);
    float2 *h32 = (float2 *)malloc(n * 8);
    for (int k = 0; k < n; k++) {
        unsigned i = (unsigned)(k * stride);
        h16[k] = i | ((i ^ 0x8000u) << 16);
        h8[k] = (unsigned short)i;
        unsigned a = mix(i), b = mix(i + 0x9e3779b9u);
        if (i & 1) {   // near the fp8 ranges: exponents around them, so rounding and subnormals are exercised
            a = (a & 0x807fffffu) | ((110u + (a >> 24) % 40u) << 23);
            b = (b & 0x807fffffu) | ((100u + (b >> 24) % 50u) << 23);
        }
        memcpy(&h32[k].x, &a, 4);
        memcpy(&h32[k].y, &b, 4);
    }
    unsigned *d16, *o16; unsigned short *d8, *o8, *o32; float2 *d32;
    cudaMalloc(&d16, n * 4); cudaMalloc(&d8, n * 2); cudaMalloc(&d32, n * 8);
    cudaMalloc(&o16, n * 16); cudaMalloc(&o8, n * 8); cudaMalloc(&o32, n * 8);
    cudaMemcpy(d16, h16, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d8, h8, n * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(d32, h32, n * 8, cudaMemcpyHostToDevice);
    int blocks = (n + 255) / 256;
    f16_to_f8<<<blocks, 256>>>(d16, n, o8);
    f8_to_f16<<<blocks, 256>>>(d8, n, o16);
    f32_to_f8<<<blocks, 256>>>(d32, n, o32);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "conversion kernels: %s", cudaGetErrorString(cudaGetLastError()));
    unsigned short *r8 = (unsigned short *)malloc(n * 8), *r32 = (unsigned short *)malloc(n * 8);
    unsigned *r16 = (unsigned *)malloc(n * 16);
    cudaMemcpy(r8, o8, n * 8, cudaMemcpyDeviceToHost);
    cudaMemcpy(r16, o16, n * 16, cudaMemcpyDeviceToHost);
    cudaMemcpy(r32, o32, n * 8, cudaMemcpyDeviceToHost);
    const Fmt *fm[2] = { &E4M3, &E5M2 };
    int bad8 = 0, bad16 = 0, bad32 = 0;
    for (int k = 0; k < n; k++)
        for (int v = 0; v < 4; v++) {
            const Fmt &f = *fm[v & 1];
            int relu = v >> 1;
            __half_raw lo, hi;
            lo.x = (unsigned short)(h16[k] & 0xffff); hi.x = (unsigned short)(h16[k] >> 16);
            double flo = __half2float(__half(lo)), fhi = __half2float(__half(hi));
            unsigned want = ref_encode(fhi, f, relu) << 8 | ref_encode(flo, f, relu);
            if (r8[4 * k + v] != want) { bad8++; CHECK(0, "f16x2 %08x -> fp8x2 form %d: %04x, reference %04x", h16[k], v, r8[4 * k + v], want); }
            unsigned w16 = (unsigned)ref_half(ref_decode(h8[k] >> 8, f), relu) << 16 | ref_half(ref_decode(h8[k] & 0xff, f), relu);
            if (r16[4 * k + v] != w16) { bad16++; CHECK(0, "fp8x2 %04x -> f16x2 form %d: %08x, reference %08x", h8[k], v, r16[4 * k + v], w16); }
            unsigned w32 = ref_encode(h32[k].x, f, relu) << 8 | ref_encode(h32[k].y, f, relu);
            if (r32[4 * k + v] != w32) { bad32++; CHECK(0, "f32 (%a, %a) -> fp8x2 form %d: %04x, reference %04x", h32[k].x, h32[k].y, v, r32[4 * k + v], w32); }
        }
    printf("cvt: %d f16x2, %d fp8x2 and %d f32 pairs x 4 forms; mismatches %d %d %d\n", n, n, n, bad8, bad16, bad32);
    // __nv_fp8 types (cuda_fp8.h) over the same f32 values
    float *df, *dof; unsigned char *do8;
    cudaMalloc(&df, n * 4); cudaMalloc(&dof, n * 8); cudaMalloc(&do8, n * 2);
    float *hf = (float *)malloc(n * 4), *rof = (float *)malloc(n * 8);
    unsigned char *ro8 = (unsigned char *)malloc(n * 2);
    for (int k = 0; k < n; k++) hf[k] = h32[k].x;
    cudaMemcpy(df, hf, n * 4, cudaMemcpyHostToDevice);
    nv_types<<<blocks, 256>>>(df, n, do8, dof);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "nv_types");
    cudaMemcpy(ro8, do8, n * 2, cudaMemcpyDeviceToHost);
    cudaMemcpy(rof, dof, n * 8, cudaMemcpyDeviceToHost);
    int badnv = 0;
    for (int k = 0; k < n; k++)
        for (int v = 0; v < 2; v++) {
            unsigned want = ref_encode(hf[k], *fm[v], 0);
            float back = (float)ref_decode(want, *fm[v]);
            int ok = ro8[2 * k + v] == want && (back != back ? rof[2 * k + v] != rof[2 * k + v] : rof[2 * k + v] == back);
            if (!ok) { badnv++; CHECK(0, "__nv_fp8 of %a (%s): %02x/%a, reference %02x/%a", hf[k], v ? "e5m2" : "e4m3", ro8[2 * k + v], rof[2 * k + v], want, back); }
        }
    printf("__nv_fp8_e4m3/e5m2: %d values; mismatches %d\n", n, badnv);
    cudaFree(d16); cudaFree(d8); cudaFree(d32); cudaFree(o16); cudaFree(o8); cudaFree(o32);
    cudaFree(df); cudaFree(dof); cudaFree(do8);
    free(h16); free(h8); free(h32); free(r8); free(r16); free(r32); free(hf); free(rof); free(ro8);
}

// ---------------- mma.sync m16n8k32 with fp8 inputs ----------------
// A row-major 16x32, B column-major 32x8 (both fp8 codes), C/D f32 16x8; fragments as the PTX ISA lays out the 8-bit
// m16n8k32 shapes: a[q] byte p = A[g + 8*(q%2)][4t + p + 16*(q/2)], b[q] byte p = B[4t + p + 16q][g], c[i] =
// C[g + 8*(i/2)][2t + i%2], with g = lane/4, t = lane%4.
template <int FA, int FB>
__global__ void mma_fp8(const unsigned char *A, const unsigned char *B, const float *C, float *D)
{
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    unsigned a[4], b[2];
    for (int q = 0; q < 4; q++) {
        unsigned v = 0;
        for (int p = 0; p < 4; p++) v |= (unsigned)A[(g + 8 * (q % 2)) * 32 + 4 * t + p + 16 * (q / 2)] << (8 * p);
        a[q] = v;
    }
    for (int q = 0; q < 2; q++) {
        unsigned v = 0;
        for (int p = 0; p < 4; p++) v |= (unsigned)B[g * 32 + 4 * t + p + 16 * q] << (8 * p);
        b[q] = v;
    }
    float c[4], d[4];
    for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
    if (FA == 0 && FB == 0)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    for (int i = 0; i < 4; i++) D[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = d[i];
}

static void test_mma(void)
{
    unsigned char hA[16 * 32], hB[8 * 32];
    float hC[128], hD[128];
    // small integers and halves, so every product and sum is exact in f32
    const float va[] = { 0, 1, -1, 2, 0.5f, -3, 4, -0.5f, 1.5f, -2 };
    for (int mode = 0; mode < 2; mode++) {
        const Fmt &fa = mode ? E5M2 : E4M3;
        float A[16][32], B[32][8];
        for (int i = 0; i < 16; i++)
            for (int k = 0; k < 32; k++) {
                float v = va[(i * 7 + k * 3 + mode) % 10];
                A[i][k] = v;
                hA[i * 32 + k] = (unsigned char)ref_encode(v, fa, 0);
            }
        for (int k = 0; k < 32; k++)
            for (int j = 0; j < 8; j++) {
                float v = va[(k * 5 + j * 11 + 3) % 10];
                B[k][j] = v;
                hB[j * 32 + k] = (unsigned char)ref_encode(v, E4M3, 0);
            }
        for (int i = 0; i < 128; i++) hC[i] = (float)(i % 13) - 6.25f;
        unsigned char *dA, *dB; float *dC, *dD;
        cudaMalloc(&dA, sizeof hA); cudaMalloc(&dB, sizeof hB); cudaMalloc(&dC, sizeof hC); cudaMalloc(&dD, sizeof hD);
        cudaMemcpy(dA, hA, sizeof hA, cudaMemcpyHostToDevice);
        cudaMemcpy(dB, hB, sizeof hB, cudaMemcpyHostToDevice);
        cudaMemcpy(dC, hC, sizeof hC, cudaMemcpyHostToDevice);
        if (mode) mma_fp8<1, 0><<<1, 32>>>(dA, dB, dC, dD);
        else mma_fp8<0, 0><<<1, 32>>>(dA, dB, dC, dD);
        CHECK(cudaDeviceSynchronize() == cudaSuccess, "mma_fp8: %s", cudaGetErrorString(cudaGetLastError()));
        cudaMemcpy(hD, dD, sizeof hD, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 8; j++) {
                double s = hC[i * 8 + j];
                for (int k = 0; k < 32; k++) s += (double)A[i][k] * B[k][j];
                if (hD[i * 8 + j] != (float)s) { bad++; CHECK(0, "mma %s.e4m3 D[%d][%d] = %g, CPU %g", mode ? "e5m2" : "e4m3", i, j, hD[i * 8 + j], s); }
            }
        printf("mma.sync m16n8k32 %s.e4m3: %d of 128 differ\n", mode ? "e5m2" : "e4m3", bad);
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dD);
    }
}

// ---------------- elect.sync and setmaxnreg ----------------
// Lanes of each warp take one of two paths by a per-warp pattern; on each path elect.sync over the lanes there
// picks the lowest one: the elected lane writes its id, every lane its predicate.
__global__ void elect_kernel(const unsigned *pattern, unsigned *leader, unsigned *pred)
{
    unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned pat = pattern[warp];
    unsigned side = (pat >> lane) & 1;
    unsigned mask = side ? pat : ~pat;
    if (side) {
        unsigned id, p;
        asm volatile("{ .reg .pred e; elect.sync %0|e, %2; selp.u32 %1, 1, 0, e; }" : "=r"(id), "=r"(p) : "r"(mask));
        pred[threadIdx.x] = p;
        if (p) leader[warp * 2 + 1] = id;
    } else {
        unsigned id, p;
        asm volatile("{ .reg .pred e; elect.sync %0|e, %2; selp.u32 %1, 1, 0, e; }" : "=r"(id), "=r"(p) : "r"(mask));
        pred[threadIdx.x] = p;
        if (p) leader[warp * 2] = id;
    }
}

// warp-specialized register counts as a producer/consumer kernel sets them (the values must be multiples of 8)
__global__ void __launch_bounds__(256, 1) maxnreg_kernel(int *out)
{
    if (threadIdx.x < 128) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    else asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    out[threadIdx.x] = threadIdx.x * 3;
}

static void test_elect(void)
{
    const int warps = 4;
    unsigned hp[warps] = { 0x0000ffffu, 0x80000001u, 0xfffffffeu, 0x12345678u };
    unsigned *dp, *dl, *dpr;
    cudaMalloc(&dp, sizeof hp); cudaMalloc(&dl, warps * 8); cudaMalloc(&dpr, warps * 32 * 4);
    cudaMemcpy(dp, hp, sizeof hp, cudaMemcpyHostToDevice);
    cudaMemset(dl, 0xff, warps * 8);
    elect_kernel<<<1, warps * 32>>>(dp, dl, dpr);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "elect_kernel: %s", cudaGetErrorString(cudaGetLastError()));
    unsigned hl[warps * 2], hpr[warps * 32];
    cudaMemcpy(hl, dl, sizeof hl, cudaMemcpyDeviceToHost);
    cudaMemcpy(hpr, dpr, sizeof hpr, cudaMemcpyDeviceToHost);
    for (int w = 0; w < warps; w++)
        for (int side = 0; side < 2; side++) {
            unsigned m = side ? hp[w] : ~hp[w];
            unsigned want = (unsigned)__builtin_ctz(m);
            CHECK(hl[w * 2 + side] == want, "warp %d side %d: leader %u, expected %u", w, side, hl[w * 2 + side], want);
            for (int l = 0; l < 32; l++)
                if ((m >> l) & 1) CHECK(hpr[w * 32 + l] == (unsigned)(l == (int)want), "warp %d lane %d predicate %u", w, l, hpr[w * 32 + l]);
        }
    int *dout, hout[256];
    cudaMalloc(&dout, sizeof hout);
    maxnreg_kernel<<<1, 256>>>(dout);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "maxnreg_kernel: %s", cudaGetErrorString(cudaGetLastError()));
    cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 256; i++) CHECK(hout[i] == i * 3, "maxnreg_kernel out[%d] = %d", i, hout[i]);
    printf("elect.sync and setmaxnreg: checked\n");
    cudaFree(dp); cudaFree(dl); cudaFree(dpr); cudaFree(dout);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    int small = !strcmp(what, "small");
    if (small || !strcmp(what, "all") || !strcmp(what, "cvt")) test_cvt(small ? 61 : 1);
    if (small || !strcmp(what, "all") || !strcmp(what, "mma")) test_mma();
    if (small || !strcmp(what, "all") || !strcmp(what, "elect")) test_elect();
    if (failures) { printf("%d failure(s)\n", failures); return 1; }
    printf("fp8_elect (%s): PASS\n", what);
    return 0;
}
