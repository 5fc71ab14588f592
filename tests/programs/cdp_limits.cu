// warpsim test: dynamic parallelism (CDP2, issue 11 item 4): the device runtime's pending-launch limit and its
// error. With cudaLimitDevRuntimePendingLaunchCount set to 32 (cudaDeviceSetLimit, read back with
// cudaDeviceGetLimit), one thread launches 100 grids that cannot complete before its loop is over (they wait for a
// flag it sets afterwards, so an H200 cannot retire them early either): the launches beyond the 32 pending ones fail
// with cudaErrorLaunchPendingCountExceeded (cudaGetLastError on the device) and every accepted one runs. A chain of
// grids, each launching the next, stops at depth 32 for the same reason: a grid stays pending until its own child
// completed (an H200 nests deeper than the documented 24 under CDP2 and gives this error there). cdp_limits.expected
// is what an H200 printed (CUDA 13.0, sm_90 SASS).
// NVCCFLAGS: -rdc=true -lcudadevrt
#include <cstdio>
#include <cstdlib>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), __FILE__, __LINE__, #call); exit(1); } } while (0)

#define LAUNCHES 100

struct limits { unsigned ran, accepted, refused, other_error, other_code; unsigned deepest, depth_error, depth_code, go; };

// A child: waits until its parent's launches are over, then counts itself.
__global__ void child(limits *r)
{
    while (atomicAdd(&r->go, 0u) == 0) {}
    atomicAdd(&r->ran, 1u);
}

// One thread launches LAUNCHES children and sorts the outcomes by error.
__global__ void flood(limits *r)
{
    for (int i = 0; i < LAUNCHES; i++) {
        child<<<1, 1, 0, cudaStreamFireAndForget>>>(r);
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess) r->accepted++;
        else if (e == cudaErrorLaunchPendingCountExceeded) r->refused++;
        else { r->other_error++; r->other_code = e; }
    }
    __threadfence();
    atomicExch(&r->go, 1u);
}

// Grid `depth` of a chain: launch the next one until the device runtime refuses.
__global__ void chain(int depth, limits *r)
{
    atomicMax(&r->deepest, (unsigned)depth);
    chain<<<1, 1, 0, cudaStreamFireAndForget>>>(depth + 1, r);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { r->depth_error = (unsigned)depth; r->depth_code = e; }
}

int main()
{
    CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 32));
    size_t pending = 0;
    CHECK(cudaDeviceGetLimit(&pending, cudaLimitDevRuntimePendingLaunchCount));
    limits *d;
    CHECK(cudaMalloc(&d, sizeof(limits)));
    CHECK(cudaMemset(d, 0, sizeof(limits)));
    flood<<<1, 1>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    chain<<<1, 1>>>(0, d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    limits r;
    CHECK(cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost));
    printf("pending-launch limit %zu: %u launches accepted, %u refused with cudaErrorLaunchPendingCountExceeded, %u "
           "other errors; %u children ran\n", pending, r.accepted, r.refused, r.other_error, r.ran);
    printf("nesting: the grid at depth %u could not launch (%s); deepest grid %u\n", r.depth_error,
           cudaGetErrorName((cudaError_t)r.depth_code), r.deepest);
    int ok = pending == 32 && r.accepted + r.refused == LAUNCHES && r.refused > 0 && r.other_error == 0 &&
             r.ran == r.accepted && r.depth_code == cudaErrorLaunchPendingCountExceeded && r.deepest == r.depth_error &&
             r.depth_error == 32;
    if (!ok) { printf("FAIL cdp_limits (other error code %u)\n", r.other_code); return 1; }
    printf("PASS cdp_limits\n");
    return 0;
}
