// Thread block clusters (sm_90): a histogram and a reduction through distributed shared memory, checked against a
// CPU reference; the cluster special registers; CUDA's errors for cluster shapes it refuses and the cluster
// occupancy queries (the values an H200 gives, CUDA 13.0, driver 580).
// NVCCFLAGS: -arch=sm_90a
// CHECK: api-errors
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BINS 256
#define CL 4                 // blocks per histogram cluster: each owns BINS / CL bins in its shared memory
#define SLICE (BINS / CL)

// Histogram: every thread adds its value to the bin owned by a block of its cluster (atomics on remote shared
// memory, through the generic addresses map_shared_rank gives); each block then adds its slice to the result.
__global__ void __cluster_dims__(CL, 1, 1) hist_kernel(const unsigned *in, int n, unsigned *out)
{
    __shared__ unsigned bins[SLICE];
    cg::cluster_group cl = cg::this_cluster();
    for (int i = threadIdx.x; i < SLICE; i += blockDim.x) bins[i] = 0;
    cl.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned v = in[i] % BINS;
        unsigned *dst = cl.map_shared_rank(bins, v / SLICE);
        atomicAdd(dst + v % SLICE, 1u);
    }
    cl.sync();
    unsigned base = cl.block_rank() * SLICE;
    for (int i = threadIdx.x; i < SLICE; i += blockDim.x) atomicAdd(&out[base + i], bins[i]);
}

// Reduction: each block sums its part into shared memory; rank 0 of each (2D) cluster reads its partners' sums
// with ld.shared::cluster (mapa on a shared::cluster address) and writes the cluster's sum. Every block records
// its cluster special registers.
__global__ void reduce_kernel(const int *in, long long *cluster_sum, unsigned *ids)
{
    __shared__ long long part;
    int t = threadIdx.x;
    if (t == 0) part = 0;
    __syncthreads();
    unsigned blk = blockIdx.x + blockIdx.y * gridDim.x;
    atomicAdd((unsigned long long *)&part, (unsigned long long)(long long)in[blk * blockDim.x + t]);
    unsigned rank, cx, cy, ncx, ncy, kx, ky, nkx, nky, nrank, expl;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cx));
    asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(cy));
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(ncx));
    asm volatile("mov.u32 %0, %%nclusterid.y;" : "=r"(ncy));
    asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(kx));
    asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(ky));
    asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(nkx));
    asm volatile("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(nky));
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(nrank));
    asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(expl));
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (rank == 0 && t == 0) {
        long long s = 0;
        unsigned local = (unsigned)__cvta_generic_to_shared(&part);
        for (unsigned r = 0; r < nrank; r++) {
            unsigned remote;
            long long v;
            asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(r));
            asm volatile("ld.shared::cluster.s64 %0, [%1];" : "=l"(v) : "r"(remote));
            s += v;
        }
        cluster_sum[cx + cy * ncx] = s;
    }
    asm volatile("fence.acq_rel.cluster;\n\tbarrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    if (t == 0) {
        unsigned *o = ids + blk * 11;
        o[0] = rank; o[1] = cx; o[2] = cy; o[3] = ncx; o[4] = ncy; o[5] = kx; o[6] = ky; o[7] = nkx; o[8] = nky;
        o[9] = nrank; o[10] = expl;
    }
}

__global__ void plain_kernel(int *o) { if (o) o[blockIdx.x] = 1; }
__global__ void __cluster_dims__(4, 1, 1) fixed4_kernel(int *o) { if (o) o[blockIdx.x] = 2; }
__global__ void bigsmem_kernel(int *o) { extern __shared__ int s[]; s[threadIdx.x] = 1; if (o) o[blockIdx.x] = s[0]; }

static int failures = 0;
#define CHECK(cond, ...) do { if (!(cond)) { printf("FAIL: " __VA_ARGS__); printf("\n"); failures++; } } while (0)

// Launch f on a grid of gx blocks of 32 threads in clusters of cx x cy; the launch status.
static int launch_cluster(const void *f, unsigned gx, unsigned cx, unsigned cy)
{
    cudaLaunchConfig_t c = {};
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = cx; a[0].val.clusterDim.y = cy; a[0].val.clusterDim.z = 1;
    c.gridDim = dim3(gx, 1, 1); c.blockDim = 32; c.attrs = a; c.numAttrs = 1;
    int *none = nullptr;
    void *args[1] = { &none };
    int e = cudaLaunchKernelExC(&c, f, args);
    cudaDeviceSynchronize();
    cudaGetLastError();
    return e;
}

// cudaOccupancyMaxActiveClusters of clusters of cx blocks of f.
static int active_clusters(const void *f, unsigned cx, size_t smem)
{
    cudaLaunchConfig_t c = {};
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = cx; a[0].val.clusterDim.y = 1; a[0].val.clusterDim.z = 1;
    c.gridDim = dim3(cx * 64, 1, 1); c.blockDim = 128; c.dynamicSmemBytes = smem; c.attrs = a; c.numAttrs = 1;
    int n = -1;
    int e = cudaOccupancyMaxActiveClusters(&n, f, &c);
    return e ? -1000 - e : n;
}

static void test_hist(void)
{
    const int n = 20000, blocks = 8, threads = 128;
    unsigned *h = (unsigned *)malloc(n * sizeof *h), ref[BINS] = {}, got[BINS];
    for (int i = 0; i < n; i++) { h[i] = (unsigned)(i * 2654435761u) >> 7; ref[h[i] % BINS]++; }
    unsigned *din, *dout;
    cudaMalloc(&din, n * sizeof *din);
    cudaMalloc(&dout, sizeof got);
    cudaMemcpy(din, h, n * sizeof *din, cudaMemcpyHostToDevice);
    cudaMemset(dout, 0, sizeof got);
    hist_kernel<<<blocks, threads>>>(din, n, dout);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "hist_kernel: %s", cudaGetErrorString(cudaGetLastError()));
    cudaMemcpy(got, dout, sizeof got, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < BINS; i++) bad += got[i] != ref[i];   // the clusters count disjoint parts of the input
    CHECK(!bad, "histogram: %d of %d bins differ from the CPU reference", bad, BINS);
    cudaFree(din);
    cudaFree(dout);
    free(h);
}

static void test_reduce(void)
{
    const unsigned gx = 4, gy = 4, ccx = 2, ccy = 2, threads = 64, nb = gx * gy;
    int *h = (int *)malloc(nb * threads * sizeof *h);
    for (unsigned i = 0; i < nb * threads; i++) h[i] = (int)(i * 7919u % 2001u) - 1000;
    int *din; long long *dsum; unsigned *dids;
    cudaMalloc(&din, nb * threads * sizeof *din);
    cudaMalloc(&dsum, (nb / 4) * sizeof *dsum);
    cudaMalloc(&dids, nb * 11 * sizeof *dids);
    cudaMemcpy(din, h, nb * threads * sizeof *din, cudaMemcpyHostToDevice);
    cudaLaunchConfig_t c = {};
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeClusterDimension;
    a[0].val.clusterDim.x = ccx; a[0].val.clusterDim.y = ccy; a[0].val.clusterDim.z = 1;
    c.gridDim = dim3(gx, gy, 1); c.blockDim = threads; c.attrs = a; c.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&c, reduce_kernel, (const int *)din, dsum, dids) == cudaSuccess, "reduce launch");
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "reduce_kernel: %s", cudaGetErrorString(cudaGetLastError()));
    long long sum[4]; unsigned ids[16 * 11];
    cudaMemcpy(sum, dsum, sizeof sum, cudaMemcpyDeviceToHost);
    cudaMemcpy(ids, dids, sizeof ids, cudaMemcpyDeviceToHost);
    for (unsigned cy = 0; cy < gy / ccy; cy++)
        for (unsigned cx = 0; cx < gx / ccx; cx++) {
            long long ref = 0;
            for (unsigned by = cy * ccy; by < (cy + 1) * ccy; by++)
                for (unsigned bx = cx * ccx; bx < (cx + 1) * ccx; bx++)
                    for (unsigned t = 0; t < threads; t++) ref += h[(bx + by * gx) * threads + t];
            CHECK(sum[cx + cy * (gx / ccx)] == ref, "cluster (%u,%u) sum %lld, CPU %lld", cx, cy, sum[cx + cy * (gx / ccx)], ref);
        }
    for (unsigned by = 0; by < gy; by++)
        for (unsigned bx = 0; bx < gx; bx++) {
            const unsigned *o = ids + (bx + by * gx) * 11;
            unsigned want[11] = { bx % ccx + (by % ccy) * ccx, bx / ccx, by / ccy, gx / ccx, gy / ccy, bx % ccx, by % ccy,
                                  ccx, ccy, ccx * ccy, 1 };
            for (int k = 0; k < 11; k++)
                CHECK(o[k] == want[k], "block (%u,%u) special register %d: %u, expected %u", bx, by, k, o[k], want[k]);
        }
    cudaFree(din); cudaFree(dsum); cudaFree(dids);
    free(h);
}

static void test_errors(void)
{
    CHECK(launch_cluster((void *)plain_kernel, 8, 2, 1) == cudaSuccess, "8 blocks in clusters of 2");
    CHECK(launch_cluster((void *)plain_kernel, 7, 2, 1) == cudaErrorInvalidClusterSize, "7 blocks in clusters of 2");
    CHECK(launch_cluster((void *)plain_kernel, 16, 8, 1) == cudaSuccess, "clusters of 8");
    CHECK(launch_cluster((void *)plain_kernel, 16, 16, 1) == cudaErrorInvalidClusterSize, "clusters of 16, portable");
    CHECK(launch_cluster((void *)fixed4_kernel, 8, 4, 1) == cudaSuccess, "__cluster_dims__(4) with its own shape");
    CHECK(launch_cluster((void *)fixed4_kernel, 8, 2, 1) == cudaErrorInvalidClusterSize, "__cluster_dims__(4) as 2");
    fixed4_kernel<<<6, 32>>>(nullptr);
    CHECK(cudaGetLastError() == cudaErrorInvalidClusterSize, "__cluster_dims__(4) on 6 blocks");
    CHECK(cudaFuncSetAttribute((void *)plain_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) == cudaSuccess,
          "non-portable opt-in");
    CHECK(launch_cluster((void *)plain_kernel, 16, 16, 1) == cudaSuccess, "clusters of 16, non-portable");
    CHECK(launch_cluster((void *)plain_kernel, 32, 32, 1) == cudaErrorInvalidClusterSize, "clusters of 32");
    CHECK(launch_cluster((void *)plain_kernel, 32, 4, 4) == cudaErrorInvalidClusterSize, "4x4 clusters on a 32x1 grid");
    // one block per SM (200 KiB of shared memory): the clusters an H200 holds at once
    cudaFuncSetAttribute((void *)bigsmem_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
    cudaFuncSetAttribute((void *)bigsmem_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    const unsigned sizes[] = { 1, 2, 8, 16 };
    const int h200[] = { 132, 66, 15, 7 };
    for (int i = 0; i < 4; i++) {
        int n = active_clusters((void *)bigsmem_kernel, sizes[i], 200 * 1024);
        CHECK(n == h200[i], "cudaOccupancyMaxActiveClusters, clusters of %u at 1 block/SM: %d (H200: %d)", sizes[i], n, h200[i]);
    }
    int pot = -1;
    cudaLaunchConfig_t c = {};
    c.gridDim = 64; c.blockDim = 128;
    CHECK(cudaOccupancyMaxPotentialClusterSize(&pot, (void *)plain_kernel, &c) == cudaSuccess && pot == 16,
          "cudaOccupancyMaxPotentialClusterSize with the opt-in: %d (H200: 16)", pot);
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : "all";
    int all = !strcmp(only, "all");
    if (all || !strcmp(only, "hist")) test_hist();
    if (all || !strcmp(only, "reduce")) test_reduce();
    if (all || !strcmp(only, "errors")) test_errors();
    if (failures) { printf("%d failure(s)\n", failures); return 1; }
    printf("cluster_dsmem (%s): PASS\n", only);
    return 0;
}
