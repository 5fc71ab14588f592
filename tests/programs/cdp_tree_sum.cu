// warpsim test: dynamic parallelism (CDP2, issue 11 item 4): a tree sum whose grids launch four child grids each
// (into the default stream; at depth 1 into a stream the grid creates with cudaStreamCreateWithFlags) down to
// nesting depth 3, where blocks reduce their segment in shared memory
// and add it to one total; the host-launched grid also tail-launches (cudaStreamTailLaunch) a grid that reads the
// total, which CDP2 starts only after the whole tree completed. Device-side cudaGetDevice, cudaDeviceGetAttribute
// and cudaPeekAtLastError/cudaGetLastError are checked too. Checked against a CPU sum; an H200 printed the same
// lines (262144 values: 8579698176, 85 grids, deepest nesting 3).
// ARGS: 262144
// TIMING_ARGS: 32768
// NVCCFLAGS: -rdc=true -lcudadevrt
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)

#define FANOUT 4
#define LEAF_DEPTH 3
#define THREADS 128

struct tree { unsigned long long total, seen_by_tail; unsigned grids, max_depth, errors, sms, warp; };

// Sum in[0, n) at nesting depth `depth`: split in FANOUT child grids, or reduce at the leaves.
__global__ void tree_sum(const unsigned *in, int n, int depth, tree *t)
{
    if (depth < LEAF_DEPTH) {
        if (threadIdx.x == 0 && blockIdx.x == 0) {
            atomicAdd(&t->grids, 1u);
            atomicMax(&t->max_depth, (unsigned)depth);
            int part = (n + FANOUT - 1) / FANOUT;
            cudaStream_t s = 0;
            if (depth == 1 && cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) atomicAdd(&t->errors, 1u);
            for (int c = 0; c < FANOUT; c++) {
                int lo = c * part, len = n - lo < part ? n - lo : part;
                if (len <= 0) break;
                int blocks = depth + 1 == LEAF_DEPTH ? (len + THREADS * 4 - 1) / (THREADS * 4) : 1;
                tree_sum<<<blocks, THREADS, 0, s>>>(in + lo, len, depth + 1, t);
                if (cudaPeekAtLastError() != cudaSuccess) atomicAdd(&t->errors, 1u);
            }
            if (cudaGetLastError() != cudaSuccess) atomicAdd(&t->errors, 1u);
            if (s && cudaStreamDestroy(s) != cudaSuccess) atomicAdd(&t->errors, 1u);
        }
        return;
    }
    if (threadIdx.x == 0 && blockIdx.x == 0) { atomicAdd(&t->grids, 1u); atomicMax(&t->max_depth, (unsigned)depth); }
    __shared__ unsigned long long part[THREADS];
    unsigned long long s = 0;
    for (int i = blockIdx.x * THREADS * 4 + threadIdx.x; i < n && i < (blockIdx.x + 1) * THREADS * 4; i += THREADS) s += in[i];
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = THREADS / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(&t->total, part[0]);
}

// Tail launch of the root: the whole tree is done; record what it summed and what the device runtime says.
__global__ void read_total(tree *t)
{
    t->seen_by_tail = t->total;
    int dev = -1, sms = 0, warp = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev != 0) atomicAdd(&t->errors, 1u);
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) atomicAdd(&t->errors, 1u);
    if (cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev) != cudaSuccess) atomicAdd(&t->errors, 1u);
    t->sms = sms;
    t->warp = warp;
}

// The root: the tree, then the tail launch.
__global__ void root(const unsigned *in, int n, tree *t)
{
    tree_sum<<<1, 1>>>(in, n, 0, t);
    read_total<<<1, 1, 0, cudaStreamTailLaunch>>>(t);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(&t->errors, 1u);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 262144;
    std::vector<unsigned> h(n);
    unsigned long long want = 0;
    unsigned seed = 12345;
    for (int i = 0; i < n; i++) { seed = seed * 1103515245u + 12345u; h[i] = (seed >> 10) & 0xffff; want += h[i]; }
    unsigned *d;
    tree *t;
    CHECK(cudaMalloc(&d, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&t, sizeof(tree)));
    CHECK(cudaMemset(t, 0, sizeof(tree)));
    CHECK(cudaMemcpy(d, h.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    root<<<1, 1>>>(d, n, t);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    tree r;
    CHECK(cudaMemcpy(&r, t, sizeof r, cudaMemcpyDeviceToHost));
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    printf("tree sum of %d values: %llu (CPU %llu), the tail launch saw %llu; %u grids, deepest nesting %u, %u device "
           "errors, warp size %u\n", n, r.total, want, r.seen_by_tail, r.grids, r.max_depth, r.errors, r.warp);
    unsigned want_grids = 1 + FANOUT + FANOUT * FANOUT + FANOUT * FANOUT * FANOUT;
    if (r.total != want || r.seen_by_tail != want || r.grids != want_grids || r.max_depth != LEAF_DEPTH || r.errors ||
        (int)r.sms != sms || r.warp != 32) {
        printf("FAIL cdp_tree_sum\n");
        return 1;
    }
    printf("PASS cdp_tree_sum\n");
    return 0;
}
