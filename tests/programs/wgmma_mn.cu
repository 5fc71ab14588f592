// wgmma (sm_90a) with MN-major ("transposed", imm-trans-a = imm-trans-b = 1) shared-memory operands: D (64 x 128) =
// A (64 x 32) * B (32 x 128) in two k16 steps of m64n128k16 f16 -> f32, A stored with M contiguous and B with N
// contiguous (as a row-major B and a column-major A are), in each swizzle mode (none, 128B, 64B, 32B) and with A and
// B in different modes. Every descriptor has distinct leading and stride byte offsets, so a layout that swapped
// them, or misplaced 16-byte chunks, would give wrong products. Small integers: every result is exact; checked
// against the CPU.
// NVCCFLAGS: -gencode arch=compute_90a,code=[sm_90a,compute_90a]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cuda_fp16.h>

static int failures = 0;
#define CHECK(cond, ...) do { if (!(cond)) { if (failures < 20) { printf("FAIL: " __VA_ARGS__); printf("\n"); } failures++; } } while (0)

enum { M = 64, N = 128, K = 32, KSTEP = 16, ES = 2 };

// one m64n128k16 step, both operands MN-major
__device__ static inline void wg_mn_n128(float *d, unsigned long long da, unsigned long long db, int scale_d)
{
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %66, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 1, 1;\n\t}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(da), "l"(db), "r"(scale_d));
}

// ---------------- an MN-major operand (rows = M or N elements, K = 32) in shared memory ----------------
// no swizzle: core matrices of 8 K x 16 bytes (8 elements along MN); the next 8 MN elements SBO bytes on (here
// 128), the next 8 K LBO bytes on (here rows * 16: every MN core matrix of a K group first).
// swizzle of span S: atoms of 8 K x S bytes; the next S bytes along MN LBO on (here 4 * 8 * S: the K atoms of one
// MN column, then a gap), the next 8 K SBO on (here 8 * S); within the 1024-byte-aligned region each 16-byte chunk
// moves to chunk XOR (its 128-byte line) % (S / 16), the hardware's address swizzle.
static unsigned span_of(int sw) { return sw == 1 ? 128 : sw == 2 ? 64 : sw == 3 ? 32 : 0; }
static void strides(int sw, int rows, unsigned *lbo, unsigned *sbo)
{
    unsigned S = span_of(sw);
    if (!S) { *sbo = 128; *lbo = (unsigned)rows * 16; }
    else { *sbo = 8 * S; *lbo = 4 * 8 * S; }
}
static unsigned layout(int sw, int rows, int i, int k)
{
    unsigned S = span_of(sw), lbo, sbo, mb = (unsigned)(i * ES);
    strides(sw, rows, &lbo, &sbo);
    if (!S) return (mb / 16) * sbo + (unsigned)(k / 8) * lbo + (unsigned)(k % 8) * 16 + mb % 16;
    unsigned off = (mb / S) * lbo + (unsigned)(k / 8) * sbo + (unsigned)(k % 8) * S + mb % S;
    unsigned line = off / 128, chunk = (off / 16) % 8;
    return line * 128 + ((chunk ^ (line % (S / 16))) * 16) + off % 16;
}
static unsigned bytes_of(int sw, int rows)
{
    unsigned top = 0;
    for (int i = 0; i < rows; i++)
        for (int k = 0; k < K; k++) { unsigned a = layout(sw, rows, i, k) + ES; top = a > top ? a : top; }
    return (top + 1023) & ~1023u;
}
// the descriptor of the k16 step s (its K starts 16 s on: two 8-K groups, 2 LBO or 2 SBO bytes)
static unsigned long long descriptor(unsigned start, int sw, int rows, int s)
{
    unsigned lbo, sbo;
    strides(sw, rows, &lbo, &sbo);
    start += (unsigned)s * 2 * (span_of(sw) ? sbo : lbo);
    return (unsigned long long)((start & 0x3ffff) >> 4) | ((unsigned long long)(lbo >> 4) << 16) |
           ((unsigned long long)(sbo >> 4) << 32) | ((unsigned long long)sw << 62);
}

__global__ void mn_kernel(const unsigned char *img, unsigned img_bytes, unsigned b_at, const unsigned long long *desc,
                          float *C)
{
    extern __shared__ __align__(1024) unsigned char smem[];
    unsigned char *s = (unsigned char *)(((uintptr_t)smem + 1023) & ~(uintptr_t)1023);
    for (unsigned i = threadIdx.x; i < img_bytes; i += blockDim.x) s[i] = img[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    unsigned base = (unsigned)__cvta_generic_to_shared(s);
    float d[64];
    for (int i = 0; i < 64; i++) d[i] = 1e9f;   // scale-d = 0 on the first step discards it
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int st = 0; st < K / KSTEP; st++)      // descriptors are relative to the image; add its address
        wg_mn_n128(d, desc[2 * st] + (base >> 4), desc[2 * st + 1] + ((base + b_at) >> 4), st > 0);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    for (int e = 0; e < 64; e++) {   // accumulator e: rows g and g + 8, per 8 columns two
        int r = 16 * warp + g + 8 * ((e % 4) / 2), c = (e / 4) * 8 + 2 * t + e % 2;
        C[r * N + c] = d[e];
    }
}

int main()
{
    const int modes[][2] = { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 }, { 1, 3 }, { 2, 0 } };
    const char *names[] = { "none", "128B", "64B", "32B" };
    float A[M][K], B[K][N], ref[M][N];
    srand(7);
    for (int i = 0; i < M; i++) for (int k = 0; k < K; k++) A[i][k] = (float)(rand() % 7 - 3);
    for (int k = 0; k < K; k++) for (int j = 0; j < N; j++) B[k][j] = (float)(rand() % 7 - 3);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) { float s = 0; for (int k = 0; k < K; k++) s += A[i][k] * B[k][j]; ref[i][j] = s; }
    unsigned char *dimg;
    unsigned long long *ddesc;
    float *dC, C[M * N];
    cudaMalloc(&dimg, 1 << 17);
    cudaMalloc(&ddesc, 4 * sizeof(unsigned long long));
    cudaMalloc(&dC, sizeof C);
    cudaFuncSetAttribute(mn_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
    for (const auto &md : modes) {
        int sa = md[0], sb = md[1];
        unsigned abytes = bytes_of(sa, M), bbytes = bytes_of(sb, N), total = abytes + bbytes;
        unsigned char *img = (unsigned char *)calloc(total, 1);
        for (int i = 0; i < M; i++)
            for (int k = 0; k < K; k++) { __half h = __float2half(A[i][k]); memcpy(img + layout(sa, M, i, k), &h, 2); }
        for (int j = 0; j < N; j++)
            for (int k = 0; k < K; k++) { __half h = __float2half(B[k][j]); memcpy(img + abytes + layout(sb, N, j, k), &h, 2); }
        unsigned long long desc[4];
        for (int st = 0; st < 2; st++) { desc[2 * st] = descriptor(0, sa, M, st); desc[2 * st + 1] = descriptor(0, sb, N, st); }
        cudaMemcpy(dimg, img, total, cudaMemcpyHostToDevice);
        cudaMemcpy(ddesc, desc, sizeof desc, cudaMemcpyHostToDevice);
        cudaMemset(dC, 0, sizeof C);
        mn_kernel<<<1, 128, total + 1024>>>(dimg, total, abytes, ddesc, dC);
        cudaError_t e = cudaDeviceSynchronize();
        CHECK(e == cudaSuccess, "A %s, B %s: %s", names[sa], names[sb], cudaGetErrorString(e));
        cudaMemcpy(C, dC, sizeof C, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++)
                if (C[i * N + j] != ref[i][j]) {
                    if (!bad) CHECK(0, "A %s, B %s: D[%d][%d] = %g, expected %g", names[sa], names[sb], i, j, C[i * N + j], ref[i][j]);
                    bad++;
                }
        printf("A MN-major %-4s B MN-major %-4s: %s\n", names[sa], names[sb], bad ? "wrong" : "exact");
        free(img);
    }
    cudaFree(dimg); cudaFree(ddesc); cudaFree(dC);
    if (failures) { printf("%d failures\n", failures); return 1; }
    printf("PASS wgmma_mn\n");
    return 0;
}
