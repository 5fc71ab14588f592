// window_memory.cu - global memory as the timing model's windows of cycles must keep it: a thread reads its own
// stores at once, a block sees its warps' stores after a barrier, blocks meet through atomics, fences and volatile
// flags, an atomic's old value is right whether it is read or not, and a lock built from atomicCAS serializes a
// plain read-modify-write. Every result is checked against a CPU reference; the program prints "ok" or the first
// mismatch and exits 1.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

static int g_bad = 0;
static void expect(bool ok, const char *what, long i, long got, long want)
{
    if (!ok && g_bad++ < 5) printf("MISMATCH %s at %ld: got %ld want %ld\n", what, i, got, want);
}

// each thread adds 1 to its own element `rounds` times, reading what it stored the round before
__global__ void own_rmw(int *a, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int r = 0; r < rounds; r++) a[i] = a[i] + 1 + (r & 1);
}

// warp w of a block writes its slice; after a barrier every thread reads the slice of the warp "opposite" it
__global__ void block_exchange(int *buf, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) buf[i] = i * 3 + 1;
    __syncthreads();
    int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - threadIdx.x);
    if (i < n && j < n) out[i] = buf[j];
}

// the last block to finish (told by an atomic ticket after a fence) adds up every block's partial sum
__device__ unsigned int g_done = 0;
__global__ void last_block_sum(const int *in, int n, int *partial, int *total)
{
    __shared__ int s[256];
    __shared__ bool last;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned int ticket = atomicInc(&g_done, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int sum = 0;
        for (int b = 0; b < (int)gridDim.x; b++) sum += ((volatile int *)partial)[b];
        *total = sum;
        g_done = 0;
    }
}

// every thread takes a ticket; the tickets must be 0..n-1 once each; the unused result of a second atomicAdd still
// counts
__global__ void tickets(int *counter, int *dead, int *ticket, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    ticket[i] = atomicAdd(counter, 1);
    atomicAdd(dead, 2);
}

// block 0 publishes a value and raises a flag; block 1 spins on the flag (volatile) and reads the value
__global__ void flag_handoff(volatile int *flag, volatile int *value, int *seen)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        *value = 12345;
        __threadfence();
        *flag = 1;
    } else {
        while (*flag == 0) { }
        __threadfence();
        *seen = *value;
    }
}

// a spin lock from atomicCAS around a plain read-modify-write of one counter
__global__ void locked_count(int *lock, int *count, int per_thread)
{
    if (threadIdx.x % 32 != 0) return;   // one lane per warp takes the lock (no intra-warp livelock)
    for (int k = 0; k < per_thread; k++) {
        while (atomicCAS(lock, 0, 1) != 0) { }
        __threadfence();
        int v = *(volatile int *)count;
        *(volatile int *)count = v + 1;
        __threadfence();
        atomicExch(lock, 0);
    }
}

// a generic pointer that points to shared memory for even blocks and to global memory for odd ones: stores, then
// loads of what was stored
__global__ void generic_mix(int *g, int *out)
{
    __shared__ int s[128];
    int *p = (blockIdx.x & 1) ? g + blockIdx.x * 128 : s;
    p[threadIdx.x] = threadIdx.x * 7 + blockIdx.x;
    __syncthreads();
    out[blockIdx.x * 128 + threadIdx.x] = p[127 - threadIdx.x];
}

int main()
{
    const int n = 1 << 15, threads = 256, blocks = (n + threads - 1) / threads, rounds = 6;
    int *a, *buf, *out, *partial, *total, *counter, *dead, *ticket, *flag, *value, *seen, *lock, *count, *g, *gout;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&buf, n * sizeof(int)));
    CK(cudaMalloc(&out, n * sizeof(int)));
    CK(cudaMalloc(&partial, blocks * sizeof(int)));
    CK(cudaMalloc(&total, sizeof(int)));
    CK(cudaMalloc(&counter, sizeof(int)));
    CK(cudaMalloc(&dead, sizeof(int)));
    CK(cudaMalloc(&ticket, n * sizeof(int)));
    CK(cudaMalloc(&flag, sizeof(int)));
    CK(cudaMalloc(&value, sizeof(int)));
    CK(cudaMalloc(&seen, sizeof(int)));
    CK(cudaMalloc(&lock, sizeof(int)));
    CK(cudaMalloc(&count, sizeof(int)));
    CK(cudaMalloc(&g, 64 * 128 * sizeof(int)));
    CK(cudaMalloc(&gout, 64 * 128 * sizeof(int)));
    std::vector<int> h(n), hin(n);
    for (int i = 0; i < n; i++) { h[i] = i % 97; hin[i] = (i * 7) % 13 - 6; }

    CK(cudaMemcpy(a, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    own_rmw<<<blocks, threads>>>(a, n, rounds);
    CK(cudaMemcpy(h.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) expect(h[i] == i % 97 + 9, "own_rmw", i, h[i], i % 97 + 9);

    block_exchange<<<blocks, threads>>>(buf, out, n);
    CK(cudaMemcpy(h.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int j = (i / threads) * threads + (threads - 1 - i % threads);
        expect(h[i] == j * 3 + 1, "block_exchange", i, h[i], j * 3 + 1);
    }

    CK(cudaMemcpy(buf, hin.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    long want = 0;
    for (int i = 0; i < n; i++) want += hin[i];
    for (int rep = 0; rep < 2; rep++) {
        last_block_sum<<<blocks, threads>>>(buf, n, partial, total);
        int t;
        CK(cudaMemcpy(&t, total, sizeof(int), cudaMemcpyDeviceToHost));
        expect(t == want, "last_block_sum", rep, t, want);
    }

    CK(cudaMemset(counter, 0, sizeof(int)));
    CK(cudaMemset(dead, 0, sizeof(int)));
    tickets<<<blocks, threads>>>(counter, dead, ticket, n);
    CK(cudaMemcpy(h.data(), ticket, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<char> got(n, 0);
    for (int i = 0; i < n; i++) {
        bool ok = h[i] >= 0 && h[i] < n && !got[h[i]];
        expect(ok, "tickets", i, h[i], -1);
        if (h[i] >= 0 && h[i] < n) got[h[i]] = 1;
    }
    int c, d;
    CK(cudaMemcpy(&c, counter, sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&d, dead, sizeof(int), cudaMemcpyDeviceToHost));
    expect(c == n, "ticket counter", 0, c, n);
    expect(d == 2 * n, "unread atomicAdd", 0, d, 2 * n);

    CK(cudaMemset(flag, 0, sizeof(int)));
    CK(cudaMemset(seen, 0, sizeof(int)));
    flag_handoff<<<2, 32>>>(flag, value, seen);
    int sv;
    CK(cudaMemcpy(&sv, seen, sizeof(int), cudaMemcpyDeviceToHost));
    expect(sv == 12345, "flag_handoff", 0, sv, 12345);

    CK(cudaMemset(lock, 0, sizeof(int)));
    CK(cudaMemset(count, 0, sizeof(int)));
    const int lblocks = 16, lthreads = 128, per = 3;
    locked_count<<<lblocks, lthreads>>>(lock, count, per);
    int cnt;
    CK(cudaMemcpy(&cnt, count, sizeof(int), cudaMemcpyDeviceToHost));
    expect(cnt == lblocks * (lthreads / 32) * per, "locked_count", 0, cnt, lblocks * (lthreads / 32) * per);

    generic_mix<<<64, 128>>>(g, gout);
    std::vector<int> hg(64 * 128);
    CK(cudaMemcpy(hg.data(), gout, hg.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < 64; b++)
        for (int t = 0; t < 128; t++)
            expect(hg[b * 128 + t] == (127 - t) * 7 + b, "generic_mix", b * 128 + t, hg[b * 128 + t], (127 - t) * 7 + b);

    CK(cudaDeviceSynchronize());
    if (g_bad) { printf("%d mismatches\n", g_bad); return 1; }
    printf("ok\n");
    return 0;
}
