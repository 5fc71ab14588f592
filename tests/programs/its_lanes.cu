// warpsim test: independent thread scheduling (sm_70+): lanes of one warp make progress on their own.
//  1. a spin lock taken by every thread of a block in turn (lanes of one warp wait for each other's unlock),
//     guarding a non-atomic update of a sum and of a ticket counter;
//  2. producer and consumer lanes of one warp: lane 1 spins on a flag that lane 0 of its own warp sets;
//  3. __syncwarp() in both branches of a divergent if: the reading half waits for the writing half.
// Under the pre-Volta stack model (warpsim run --simt=stack) the first two deadlock (tests/cli/simt_stack.sh).
// (seed 001: "lockstep is a performance model ... correctness needs explicit synchronization")
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL its_lanes: %s at line %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

__device__ int lock_word;

// every thread takes the lock, adds its id + 1 to *sum and takes a ticket, all with plain loads and stores
__global__ void locked_sum(volatile int *sum, volatile int *ticket, int *order)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    while (atomicCAS(&lock_word, 0, 1) != 0) { }
    __threadfence();
    *sum = *sum + t + 1;
    int k = *ticket;
    *ticket = k + 1;
    order[k] = t;
    __threadfence();
    atomicExch(&lock_word, 0);
}

// lane 1 of each warp waits for lane 0 of the same warp; the other lanes copy their input
__global__ void lane_handoff(const int *in, volatile int *flag, volatile int *box, int *out)
{
    int lane = threadIdx.x & 31, w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (lane == 1) {
        while (flag[w] == 0) { }
        out[w * 32 + 1] = box[w] * 2;
    } else if (lane == 0) {
        box[w] = in[w * 32] + 7;
        __threadfence();
        flag[w] = 1;
        out[w * 32] = in[w * 32];
    } else {
        out[w * 32 + lane] = in[w * 32 + lane];
    }
}

// the upper half-warp reads what the lower half wrote, after a __syncwarp() on each side of the branch
__global__ void divergent_syncwarp(const int *in, int *out)
{
    __shared__ volatile int buf[8][16];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane >= 16) {
        __syncwarp();
        out[g] = buf[w][lane - 16] + 1000;
    } else {
        buf[w][lane] = in[g] * 3;
        __syncwarp();
        out[g] = in[g];
    }
}

int main()
{
    int fails = 0;
    // 1. the lock
    {
        const int blocks = 4, threads = 64, n = blocks * threads;
        int *sum, *ticket, *order;
        CHECK(cudaMalloc(&sum, 4)); CHECK(cudaMalloc(&ticket, 4)); CHECK(cudaMalloc(&order, n * 4));
        CHECK(cudaMemset(sum, 0, 4)); CHECK(cudaMemset(ticket, 0, 4)); CHECK(cudaMemset(order, 0xff, n * 4));
        locked_sum<<<blocks, threads>>>(sum, ticket, order);
        CHECK(cudaGetLastError());
        int hs, ht;
        std::vector<int> ho(n), seen(n, 0);
        CHECK(cudaMemcpy(&hs, sum, 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(&ht, ticket, 4, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(ho.data(), order, n * 4, cudaMemcpyDeviceToHost));
        int perm = 1;
        for (int i = 0; i < n; i++) { if (ho[i] < 0 || ho[i] >= n || seen[ho[i]]++) perm = 0; }
        if (hs != n * (n + 1) / 2 || ht != n || !perm) {
            printf("FAIL its_lanes: lock: sum %d (expected %d), tickets %d (expected %d), order %s\n", hs, n * (n + 1) / 2, ht, n,
                   perm ? "a permutation" : "not a permutation");
            fails++;
        } else printf("lock: %d threads took the lock in turn, sum %d\n", n, hs);
        CHECK(cudaFree(sum)); CHECK(cudaFree(ticket)); CHECK(cudaFree(order));
    }
    // 2. producer and consumer lanes
    {
        const int warps = 8, n = warps * 32;
        std::vector<int> hin(n), hout(n);
        for (int i = 0; i < n; i++) hin[i] = i * 5 + 1;
        int *in, *flag, *box, *out;
        CHECK(cudaMalloc(&in, n * 4)); CHECK(cudaMalloc(&flag, warps * 4)); CHECK(cudaMalloc(&box, warps * 4)); CHECK(cudaMalloc(&out, n * 4));
        CHECK(cudaMemcpy(in, hin.data(), n * 4, cudaMemcpyHostToDevice));
        CHECK(cudaMemset(flag, 0, warps * 4)); CHECK(cudaMemset(box, 0, warps * 4)); CHECK(cudaMemset(out, 0, n * 4));
        lane_handoff<<<2, 128>>>(in, flag, box, out);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(hout.data(), out, n * 4, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int i = 0; i < n; i++) {
            int want = (i & 31) == 1 ? (hin[i - 1] + 7) * 2 : hin[i];
            if (hout[i] != want) { if (!bad) printf("FAIL its_lanes: handoff: out[%d] = %d, expected %d\n", i, hout[i], want); bad++; }
        }
        if (bad) fails++; else printf("handoff: lane 1 of each of %d warps got lane 0's value\n", warps);
        CHECK(cudaFree(in)); CHECK(cudaFree(flag)); CHECK(cudaFree(box)); CHECK(cudaFree(out));
    }
    // 3. __syncwarp in divergent code
    {
        const int n = 2 * 256;
        std::vector<int> hin(n), hout(n);
        for (int i = 0; i < n; i++) hin[i] = i + 11;
        int *in, *out;
        CHECK(cudaMalloc(&in, n * 4)); CHECK(cudaMalloc(&out, n * 4));
        CHECK(cudaMemcpy(in, hin.data(), n * 4, cudaMemcpyHostToDevice));
        divergent_syncwarp<<<2, 256>>>(in, out);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(hout.data(), out, n * 4, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int i = 0; i < n; i++) {
            int want = (i & 31) >= 16 ? hin[i - 16] * 3 + 1000 : hin[i];
            if (hout[i] != want) { if (!bad) printf("FAIL its_lanes: syncwarp: out[%d] = %d, expected %d\n", i, hout[i], want); bad++; }
        }
        if (bad) fails++; else printf("syncwarp: the upper half-warps read the lower halves' values\n");
        CHECK(cudaFree(in)); CHECK(cudaFree(out));
    }
    if (fails) return 1;
    printf("PASS its_lanes\n");
    return 0;
}
