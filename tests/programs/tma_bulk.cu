// Bulk asynchronous copies (sm_90, the TMA unit): cp.async.bulk global -> shared completing an mbarrier's
// transaction bytes and shared -> global in bulk groups; cp.async.bulk.tensor 1D/2D/3D/5D through tensor maps that
// cuTensorMapEncodeTiled (reached with cudaGetDriverEntryPoint) builds: boxes partly out of bounds (zeros in, not
// written out), the 32/64/128-byte swizzles, element strides; the encoder's refusals. Checked against a CPU model.
// NVCCFLAGS: -arch=sm_90a
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cuda.h>

static int failures = 0;
#define CHECK(cond, ...) do { if (!(cond)) { if (failures < 20) { printf("FAIL: " __VA_ARGS__); printf("\n"); } failures++; } } while (0)

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *, const cuuint64_t *,
                              const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
static encode_fn encode;

__device__ static inline unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// one thread arms the mbarrier for `bytes` and waits for its phase 0 to complete
__device__ static inline void mbar_init(uint64_t *mb)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(mb)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ static inline void mbar_expect(uint64_t *mb, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(mb)), "r"(bytes) : "memory");
}
__device__ static inline void mbar_wait(uint64_t *mb, unsigned parity)
{
    asm volatile("{\n\t.reg .pred p;\n\tWAIT_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
                 "@!p bra WAIT_%=;\n\t}" ::"r"(smem_addr(mb)), "r"(parity) : "memory");
}

// ---------------- plain bulk copies ----------------
__global__ void bulk_kernel(const int4 *in, int4 *out, int4 *back, unsigned bytes)
{
    extern __shared__ int4 buf[];
    __shared__ uint64_t mb;
    if (threadIdx.x == 0) mbar_init(&mb);
    __syncthreads();
    if (threadIdx.x == 0) {
        mbar_expect(&mb, bytes);
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(smem_addr(buf)), "l"(in + blockIdx.x * (bytes / 16)), "r"(bytes), "r"(smem_addr(&mb)) : "memory");
    }
    mbar_wait(&mb, 0);
    unsigned n = bytes / 16;
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) {
        out[blockIdx.x * n + i] = buf[i];
        buf[i].x += 1000;
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                     ::"l"(back + blockIdx.x * n), "r"(smem_addr(buf)), "r"(bytes) : "memory");
        asm volatile("cp.async.bulk.commit_group;");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    }
}

static void test_bulk(void)
{
    const unsigned bytes = 4096, blocks = 3, n = bytes / 16 * blocks;
    int4 *h = (int4 *)malloc(n * 16), *ho = (int4 *)malloc(n * 16), *hb = (int4 *)malloc(n * 16);
    for (unsigned i = 0; i < n; i++) h[i] = make_int4((int)i, (int)(i * 3), -(int)i, (int)(i ^ 0x5a5a));
    int4 *din, *dout, *dback;
    cudaMalloc(&din, n * 16); cudaMalloc(&dout, n * 16); cudaMalloc(&dback, n * 16);
    cudaMemcpy(din, h, n * 16, cudaMemcpyHostToDevice);
    bulk_kernel<<<blocks, 128, bytes>>>(din, dout, dback, bytes);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "bulk_kernel: %s", cudaGetErrorString(cudaGetLastError()));
    cudaMemcpy(ho, dout, n * 16, cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, dback, n * 16, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (unsigned i = 0; i < n; i++) {
        bad += memcmp(&ho[i], &h[i], 16) != 0;
        int4 w = h[i];
        w.x += 1000;
        bad += memcmp(&hb[i], &w, 16) != 0;
    }
    CHECK(!bad, "cp.async.bulk: %d of %u chunks differ", bad, 2 * n);
    printf("cp.async.bulk: %u bytes in, %u bytes out; mismatches %d\n", n * 16, n * 16, bad);
    cudaFree(din); cudaFree(dout); cudaFree(dback);
    free(h); free(ho); free(hb);
}

// ---------------- tensor copies ----------------
// Load one box at the coordinates into shared memory (1024-byte aligned), dump the raw shared image to img, then
// store the box back through the map at the store coordinates (into the map's array: only in-bounds elements).
template <int R>
__global__ void tensor_kernel(const __grid_constant__ CUtensorMap load_map, const __grid_constant__ CUtensorMap store_map,
                              int4 coords, int c4, int4 scoords, int s4, unsigned bytes, unsigned char *img, int store)
{
    extern __shared__ __align__(1024) unsigned char sm[];
    unsigned char *box = (unsigned char *)(((uintptr_t)sm + 1023) & ~(uintptr_t)1023);
    __shared__ uint64_t mb;
    if (threadIdx.x == 0) mbar_init(&mb);
    __syncthreads();
    if (threadIdx.x == 0) {
        mbar_expect(&mb, bytes);
        unsigned d = smem_addr(box), m = smem_addr(&mb);
        uint64_t map = (uint64_t)&load_map;
        if (R == 1)
            asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                         ::"r"(d), "l"(map), "r"(coords.x), "r"(m) : "memory");
        else if (R == 2)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                         ::"r"(d), "l"(map), "r"(coords.x), "r"(coords.y), "r"(m) : "memory");
        else if (R == 3)
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                         ::"r"(d), "l"(map), "r"(coords.x), "r"(coords.y), "r"(coords.z), "r"(m) : "memory");
        else
            asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, %6}], [%7];"
                         ::"r"(d), "l"(map), "r"(coords.x), "r"(coords.y), "r"(coords.z), "r"(coords.w), "r"(c4), "r"(m) : "memory");
    }
    mbar_wait(&mb, 0);
    for (unsigned i = threadIdx.x; i < bytes; i += blockDim.x) img[i] = box[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0 && store) {
        uint64_t map = (uint64_t)&store_map;
        unsigned s = smem_addr(box);
        if (R == 1)
            asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%1}], [%2];" ::"l"(map), "r"(scoords.x), "r"(s) : "memory");
        else if (R == 2)
            asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                         ::"l"(map), "r"(scoords.x), "r"(scoords.y), "r"(s) : "memory");
        else if (R == 3)
            asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];"
                         ::"l"(map), "r"(scoords.x), "r"(scoords.y), "r"(scoords.z), "r"(s) : "memory");
        else
            asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];"
                         ::"l"(map), "r"(scoords.x), "r"(scoords.y), "r"(scoords.z), "r"(scoords.w), "r"(s4), "r"(s) : "memory");
        asm volatile("cp.async.bulk.commit_group;");
        asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
}

// The CPU model of the shared image: box element (j0..j4) at byte offset o = linear index x element size, its
// 16-byte chunk moved within its 128-byte line to (chunk XOR (line mod span/16)) for a swizzle span of 32/64/128.
static size_t swizzled(size_t o, unsigned span)
{
    if (!span) return o;
    size_t line = o / 128, chunk = (o / 16) % 8, k = line % (span / 16);
    return line * 128 + ((chunk ^ k) * 16) + o % 16;
}

struct TCase {
    const char *name;
    int rank;
    CUtensorMapDataType dt;
    unsigned es;
    cuuint64_t dim[5];
    cuuint32_t box[5], estr[5];
    int swz;          // CUtensorMapSwizzle
    int c[5], sc[5];  // load and store coordinates
    int store;        // also store the box back (0: the load alone)
};

static int do_store = 1;   // "nostore": load only
template <int R>
static void launch_tensor(const CUtensorMap &lm, const CUtensorMap &smap, const int *c, const int *sc, unsigned bytes,
                          unsigned char *img, int store)
{
    int4 co = make_int4(c[0], c[1], c[2], c[3]), so = make_int4(sc[0], sc[1], sc[2], sc[3]);
    tensor_kernel<R><<<1, 128, bytes + 1024>>>(lm, smap, co, c[4], so, sc[4], bytes, img, store);
}

static void test_tensor(const TCase &t)
{
    size_t elems = 1, strides[5];
    for (int i = 0; i < t.rank; i++) { strides[i] = elems * t.es; elems *= t.dim[i]; }
    size_t gbytes = elems * t.es;
    unsigned char *h = (unsigned char *)malloc(gbytes), *hs = (unsigned char *)malloc(gbytes);
    for (size_t i = 0; i < gbytes; i++) h[i] = (unsigned char)(i * 131 + (i >> 8) * 7 + 1);
    unsigned n[5] = { 1, 1, 1, 1, 1 };
    size_t boxe = 1;
    for (int i = 0; i < t.rank; i++) { n[i] = (t.box[i] + t.estr[i] - 1) / t.estr[i]; boxe *= n[i]; }
    unsigned bytes = (unsigned)(boxe * t.es);
    unsigned char *dg, *ds, *dimg;
    cudaMalloc(&dg, gbytes); cudaMalloc(&ds, gbytes); cudaMalloc(&dimg, bytes);
    cudaMemcpy(dg, h, gbytes, cudaMemcpyHostToDevice);
    cudaMemset(ds, 0xee, gbytes);
    cuuint64_t gs[4];
    for (int i = 1; i < t.rank; i++) gs[i - 1] = strides[i];
    CUtensorMap lm, smap;
    CUresult r1 = encode(&lm, t.dt, t.rank, dg, t.dim, gs, t.box, t.estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         (CUtensorMapSwizzle)t.swz, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    cuuint32_t ones[5] = { 1, 1, 1, 1, 1 };
    CUresult r2 = encode(&smap, t.dt, t.rank, ds, t.dim, gs, t.box, ones, CU_TENSOR_MAP_INTERLEAVE_NONE,
                         (CUtensorMapSwizzle)t.swz, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    CHECK(r1 == CUDA_SUCCESS && r2 == CUDA_SUCCESS, "%s: cuTensorMapEncodeTiled %d %d", t.name, (int)r1, (int)r2);
    int unit = 1;   // the store map has element strides of 1: it writes back a box of n[] elements
    for (int i = 0; i < t.rank; i++) unit = unit && t.estr[i] == 1;
    int st = t.store && do_store;
    switch (t.rank) {
    case 1: launch_tensor<1>(lm, smap, t.c, t.sc, bytes, dimg, st); break;
    case 2: launch_tensor<2>(lm, smap, t.c, t.sc, bytes, dimg, st); break;
    case 3: launch_tensor<3>(lm, smap, t.c, t.sc, bytes, dimg, st); break;
    default: launch_tensor<5>(lm, smap, t.c, t.sc, bytes, dimg, st); break;
    }
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "%s: %s", t.name, cudaGetErrorString(cudaGetLastError()));
    unsigned char *img = (unsigned char *)malloc(bytes);
    cudaMemcpy(img, dimg, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(hs, ds, gbytes, cudaMemcpyDeviceToHost);
    unsigned span = t.swz ? 16u << t.swz : 0;
    int bad = 0, bads = 0;
    unsigned char *want_store = (unsigned char *)malloc(gbytes);
    memset(want_store, 0xee, gbytes);
    size_t lin = 0;
    unsigned j[5];
    for (j[4] = 0; j[4] < n[4]; j[4]++)
        for (j[3] = 0; j[3] < n[3]; j[3]++)
            for (j[2] = 0; j[2] < n[2]; j[2]++)
                for (j[1] = 0; j[1] < n[1]; j[1]++)
                    for (j[0] = 0; j[0] < n[0]; j[0]++, lin++) {
                        long long g = 0, gsx = 0;
                        int in = 1, ins = 1;
                        for (int i = 0; i < t.rank; i++) {
                            long long x = t.c[i] + (long long)j[i] * t.estr[i], y = t.sc[i] + (long long)j[i];
                            if (x < 0 || x >= (long long)t.dim[i]) in = 0; else g += x * (long long)strides[i];
                            if (y < 0 || y >= (long long)t.dim[i]) ins = 0; else gsx += y * (long long)strides[i];
                        }
                        size_t o = swizzled(lin * t.es, span);
                        for (unsigned b = 0; b < t.es; b++) {
                            unsigned char want = in ? h[g + b] : 0;
                            if (img[o + b] != want) bad++;
                            if (unit && ins) want_store[gsx + b] = img[o + b];
                        }
                    }
    if (unit && st) for (size_t i = 0; i < gbytes; i++) bads += hs[i] != want_store[i];
    CHECK(!bad, "%s: %d of %u shared-memory bytes differ from the CPU model", t.name, bad, bytes);
    CHECK(!bads, "%s: %d of %zu bytes of the stored array differ", t.name, bads, gbytes);
    printf("tensor %s: box of %u bytes; mismatches %d, store %d\n", t.name, bytes, bad, bads);
    cudaFree(dg); cudaFree(ds); cudaFree(dimg);
    free(h); free(hs); free(img); free(want_store);
}

static void test_encode_errors(void)
{
    void *g;
    cudaMalloc(&g, 1 << 16);
    CUtensorMap m;
    cuuint64_t dim[2] = { 64, 64 }, st[1] = { 128 };
    cuuint32_t box[2] = { 32, 8 }, es[2] = { 1, 1 };
    CUtensorMapDataType f16 = CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    CHECK(encode(&m, f16, 2, g, dim, st, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_64B,
                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS, "encode: a good map");
    CHECK(encode(&m, f16, 2, (char *)g + 8, dim, st, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE,
          "encode: a global address that is not 16-byte aligned");
    cuuint64_t bad_st[1] = { 120 };
    CHECK(encode(&m, f16, 2, g, dim, bad_st, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE,
          "encode: a stride that is not a multiple of 16");
    CHECK(encode(&m, f16, 2, g, dim, st, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_32B,
                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE,
          "encode: a 64-byte inner box with a 32-byte swizzle");
    cuuint32_t box300[2] = { 8, 300 };
    CHECK(encode(&m, f16, 2, g, dim, st, box300, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE,
          "encode: a box dimension of 300");
    cuuint32_t box4[2] = { 4, 8 };
    CHECK(encode(&m, f16, 2, g, dim, st, box4, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                 CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_ERROR_INVALID_VALUE,
          "encode: an inner box of 8 bytes");
    cudaFree(g);
    printf("cuTensorMapEncodeTiled refusals: checked\n");
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    int all = !strcmp(what, "all");
    cudaDriverEntryPointQueryResult q;
    void *fn = nullptr;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) != cudaSuccess || !fn ||
        q != cudaDriverEntryPointSuccess) {
        printf("FAIL: cudaGetDriverEntryPoint(cuTensorMapEncodeTiled)\n");
        return 1;
    }
    encode = (encode_fn)fn;
    if (all || !strcmp(what, "bulk")) test_bulk();
    if (all || !strcmp(what, "tensor")) {
        const CUtensorMapDataType U8 = CU_TENSOR_MAP_DATA_TYPE_UINT8, F16 = CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
                                  F32 = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
        // innermost coordinates 16-byte aligned in the row: with other ones an H200 (driver 580) raised an illegal
        // instruction or moved other bytes (warpsim faults). Cases 0, 1, 2 and 5 ran as modelled on an H200; the
        // 32B/64B swizzles (the same patterns as wgmma's, which wgmma_gemm checked there) and element strides with
        // aligned coordinates have not run on one yet
        const TCase cases[] = {
            { "1d f32", 1, F32, 4, { 1000 }, { 64 }, { 1 }, 0, { 968 }, { 980 }, 1 },
            { "2d f16 none, out of bounds", 2, F16, 2, { 104, 40 }, { 64, 16 }, { 1, 1 }, 0, { -8, 30 }, { 0, 0 }, 0 },
            { "2d f16 128B", 2, F16, 2, { 128, 64 }, { 64, 16 }, { 1, 1 }, 3, { 64, 56 }, { 0, 0 }, 1 },
            { "2d f16 32B", 2, F16, 2, { 104, 40 }, { 16, 32 }, { 1, 1 }, 1, { 96, -3 }, { 8, 1 }, 1 },
            { "2d f16 64B", 2, F16, 2, { 104, 40 }, { 32, 24 }, { 1, 1 }, 2, { 8, 7 }, { 40, 8 }, 1 },
            { "5d u8", 5, U8, 1, { 48, 3, 4, 5, 2 }, { 32, 2, 3, 2, 2 }, { 1, 1, 1, 1, 1 }, 0, { 16, 2, 2, 4, 1 }, { 0, 1, 0, 3, 0 }, 1 },
            { "3d f32 element strides", 3, F32, 4, { 20, 9, 7 }, { 8, 6, 4 }, { 2, 1, 3 }, 0, { 4, 5, -2 }, { 0, 0, 0 }, 0 },
        };
        int pick = argc > 2 ? atoi(argv[2]) : -1;   /* "tensor N": case N alone; "tensor N nostore": its load only */
        if (argc > 3 && !strcmp(argv[3], "nostore")) do_store = 0;
        for (int i = 0; i < (int)(sizeof cases / sizeof *cases); i++) if (pick < 0 || pick == i) test_tensor(cases[i]);
    }
    if (all || !strcmp(what, "encode")) test_encode_errors();
    if (failures) { printf("%d failure(s)\n", failures); return 1; }
    printf("tma_bulk (%s): PASS\n", what);
    return 0;
}
