// multi_gpu.cu - a reduction split over every device the program sees (`warpsim run --gpus N`): each device
// scales its slice of a vector and sums it per block; device 1.. write their partial sums straight into device
// 0's memory (peer writes), device 0 gathers them with a kernel that reads the other devices' buffers (peer
// reads), the scaled slices come back to device 0 with cudaMemcpyPeerAsync and cudaMemcpy(cudaMemcpyDefault), a
// stream of device 0 waits for an event recorded on the last device; the results are compared with the CPU's.
// It checks the multi-device API's error codes (peer access, streams and events of another device, a kernel
// reading a peer's memory without access faults only its own device). With one device it checks that a second
// device does not exist and runs the reduction alone. Prints "peer_copy_ms" (event time of one 8 MiB peer copy on
// device 0's stream; the simulated time in timing mode) for tests/cli/multi_gpu.sh.
// CHECK: api-errors
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <pthread.h>
#include <cuda_runtime.h>

#define MAXDEV 16
static int failures;

// Count a failed expectation.
static void expect(bool ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

// Expect a call to return a given status.
static void expect_rc(cudaError_t got, cudaError_t want, const char *what)
{
    if (got != want) {
        printf("FAIL: %s: got %s, expected %s\n", what, cudaGetErrorName(got), cudaGetErrorName(want));
        failures++;
    }
    cudaGetLastError();
}

// y = a * x over the slice, and one partial sum of y per block into sums[block] and, unless NULL, copy[block]
// (another device's memory: a peer write).
__global__ void scale_sum(const float *x, float *y, float a, int n, float *sums, float *copy)
{
    __shared__ float part[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.0f;
    if (i < n) {
        v = a * x[i];
        y[i] = v;
    }
    part[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = part[0];
        if (copy) copy[blockIdx.x] = part[0];
    }
}

// One thread adds count partial sums of each of ndev buffers (other devices' memory: peer reads) into out.
__global__ void gather(float *const *bufs, int ndev, int count, double *out)
{
    double t = 0.0;
    for (int d = 0; d < ndev; d++)
        for (int k = 0; k < count; k++) t += bufs[d][k];
    *out = t;
}

// Read one float from p (a fault when p is a peer's memory without peer access).
__global__ void peek(const float *p, float *out) { *out = *p; }

// cudaSetDevice is per host thread: a thread that selects the last device leaves the main thread's alone.
static void *thread_device(void *arg)
{
    int last = *(int *)arg, d = -1;
    cudaSetDevice(last);
    cudaGetDevice(&d);
    *(int *)arg = d;
    return NULL;
}

int main()
{
    int ndev = 0;
    expect_rc(cudaGetDeviceCount(&ndev), cudaSuccess, "cudaGetDeviceCount");
    if (ndev < 1 || ndev > MAXDEV) { printf("FAIL: %d devices\n", ndev); return 1; }
    printf("devices %d\n", ndev);
    for (int d = 0; d < ndev; d++) {
        cudaDeviceProp p;
        expect_rc(cudaGetDeviceProperties(&p, d), cudaSuccess, "cudaGetDeviceProperties");
        int sms = 0;
        expect_rc(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d), cudaSuccess, "attribute");
        expect(sms == p.multiProcessorCount, "cudaDeviceGetAttribute agrees with the properties");
        char bus[32];
        int back = -1;
        expect_rc(cudaDeviceGetPCIBusId(bus, sizeof bus, d), cudaSuccess, "cudaDeviceGetPCIBusId");
        expect_rc(cudaDeviceGetByPCIBusId(&back, bus), cudaSuccess, "cudaDeviceGetByPCIBusId");
        expect(back == d, "a device's PCI bus id names it");
        printf("device %d: %s, %d SMs, cc %d.%d\n", d, p.name, p.multiProcessorCount, p.major, p.minor);
    }
    int can = -1;
    expect_rc(cudaDeviceCanAccessPeer(&can, 0, 0), cudaSuccess, "cudaDeviceCanAccessPeer(0, 0)");
    expect(can == 0, "a device is not its own peer");
    expect_rc(cudaSetDevice(ndev), cudaErrorInvalidDevice, "cudaSetDevice past the last device");
    expect_rc(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice, "peer access to the device itself");
    expect_rc(cudaDeviceEnablePeerAccess(ndev, 0), cudaErrorInvalidDevice, "peer access to a missing device");
    expect_rc(cudaDeviceCanAccessPeer(&can, 0, ndev), cudaErrorInvalidDevice, "cudaDeviceCanAccessPeer(missing)");

    const int per = 1 << 14, threads = 256, blocks = per / threads;   // elements and blocks per device
    const int n = per * ndev;
    float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) hx[i] = (float)((i * 37) % 101) * 0.125f - 6.0f;
    const float a = 1.5f;

    float *x[MAXDEV], *y[MAXDEV], *sums[MAXDEV], *copies = NULL;
    cudaStream_t st[MAXDEV];
    cudaEvent_t done[MAXDEV];
    for (int d = 0; d < ndev; d++) {
        expect_rc(cudaSetDevice(d), cudaSuccess, "cudaSetDevice");
        int cur = -1;
        cudaGetDevice(&cur);
        expect(cur == d, "cudaGetDevice returns the device set");
        cudaMalloc(&x[d], per * sizeof(float));
        cudaMalloc(&y[d], (d == 0 ? n : per) * sizeof(float));   // device 0's y receives every slice
        cudaMalloc(&sums[d], blocks * sizeof(float));
        if (d == 0) cudaMalloc(&copies, blocks * ndev * sizeof(float));   // every device's sums, peer-written
        cudaStreamCreate(&st[d]);
        cudaEventCreate(&done[d]);
        cudaPointerAttributes at;
        expect_rc(cudaPointerGetAttributes(&at, x[d]), cudaSuccess, "cudaPointerGetAttributes");
        expect(at.type == cudaMemoryTypeDevice && at.device == d, "a pointer names the device that allocated it");
        for (int e = 0; e < d; e++) expect(x[e] != x[d], "two devices' pointers differ");
    }
    if (ndev > 1) {
        int last = ndev - 1;
        pthread_t t;
        pthread_create(&t, NULL, thread_device, &last);
        pthread_join(t, NULL);
        int cur = -1;
        cudaGetDevice(&cur);
        expect(last == ndev - 1 && cur == ndev - 1, "cudaSetDevice is per thread");
        expect_rc(cudaDeviceCanAccessPeer(&can, 0, 1), cudaSuccess, "cudaDeviceCanAccessPeer(0, 1)");
        expect(can == 1, "two devices are peers");
        int p2p = -1;
        expect_rc(cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrAccessSupported, 0, 1), cudaSuccess,
                  "cudaDeviceGetP2PAttribute");
        expect(p2p == 1, "peer access is supported between two devices");
        expect_rc(cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrAccessSupported, 1, 1), cudaErrorInvalidDevice,
                  "cudaDeviceGetP2PAttribute of a device with itself");
        // the devices after 0 write their partial sums into device 0's memory: they need access to it
        for (int d = 1; d < ndev; d++) {
            cudaSetDevice(d);
            expect_rc(cudaDeviceDisablePeerAccess(0), cudaErrorPeerAccessNotEnabled, "disable before enable");
            expect_rc(cudaDeviceEnablePeerAccess(0, 1), cudaErrorInvalidValue, "peer access flags");
            expect_rc(cudaDeviceEnablePeerAccess(0, 0), cudaSuccess, "cudaDeviceEnablePeerAccess(0)");
            expect_rc(cudaDeviceEnablePeerAccess(0, 0), cudaErrorPeerAccessAlreadyEnabled, "enable twice");
        }
        cudaSetDevice(0);
        for (int d = 1; d < ndev; d++) expect_rc(cudaDeviceEnablePeerAccess(d, 0), cudaSuccess, "enable 0 -> d");
        // a kernel may not run on another device's stream, an event records only on its own device's streams
        scale_sum<<<1, threads, 0, st[1]>>>(x[0], y[0], a, 1, sums[0], NULL);
        expect_rc(cudaGetLastError(), cudaErrorInvalidResourceHandle, "launch on another device's stream");
        expect_rc(cudaEventRecord(done[1], st[0]), cudaErrorInvalidResourceHandle, "event of another device");
    }
    for (int d = 0; d < ndev; d++) {
        cudaSetDevice(d);
        cudaMemcpyAsync(x[d], hx + d * per, per * sizeof(float), cudaMemcpyHostToDevice, st[d]);
        scale_sum<<<blocks, threads, 0, st[d]>>>(x[d], y[d], a, per, sums[d], copies + d * blocks);   // peer writes
        expect_rc(cudaGetLastError(), cudaSuccess, "scale_sum launch");
        cudaEventRecord(done[d], st[d]);
    }
    cudaSetDevice(0);
    for (int d = 1; d < ndev; d++) expect_rc(cudaStreamWaitEvent(st[0], done[d], 0), cudaSuccess, "wait for a peer");
    // the scaled slices come to device 0 over the peer link
    for (int d = 1; d < ndev; d++)
        expect_rc(cudaMemcpyPeerAsync(y[0] + d * per, 0, y[d], d, per * sizeof(float), st[0]), cudaSuccess,
                  "cudaMemcpyPeerAsync");
    // one 8 MiB copy from device 1 to device 0, timed with events on device 0's stream
    const size_t big = 8u << 20;
    char *big0 = NULL, *big1 = NULL;
    cudaEvent_t c0, c1;
    cudaEventCreate(&c0);
    cudaEventCreate(&c1);
    if (ndev > 1) {
        cudaSetDevice(1);
        cudaMalloc(&big1, big);
        cudaMemset(big1, 7, big);
        cudaSetDevice(0);
        cudaMalloc(&big0, big);
        cudaEventRecord(c0, st[0]);
        expect_rc(cudaMemcpyPeerAsync(big0, 0, big1, 1, big, st[0]), cudaSuccess, "cudaMemcpyPeerAsync 8 MiB");
        cudaEventRecord(c1, st[0]);
        expect_rc(cudaMemcpyPeerAsync(big0, 1, big1, 1, 16, st[0]), cudaErrorInvalidValue,
                  "cudaMemcpyPeer naming the wrong device");
    }
    // device 0's gather kernel reads every device's own sums where they are (peer reads), and its own copies of them
    float **bufs;
    cudaMallocManaged(&bufs, (ndev + 1) * sizeof(float *));
    for (int d = 0; d < ndev; d++) bufs[d] = sums[d];
    bufs[ndev] = copies;
    double *dsum;
    cudaMalloc(&dsum, 2 * sizeof(double));
    gather<<<1, 1, 0, st[0]>>>(bufs, ndev, blocks, dsum);
    gather<<<1, 1, 0, st[0]>>>(bufs + ndev, 1, blocks * ndev, dsum + 1);
    double got2[2] = { 0, 0 };
    cudaMemcpyAsync(got2, dsum, sizeof got2, cudaMemcpyDeviceToHost, st[0]);
    expect_rc(cudaStreamSynchronize(st[0]), cudaSuccess, "cudaStreamSynchronize");
    double got = got2[0];
    if (ndev > 1) {
        float ms = -1;
        expect_rc(cudaEventElapsedTime(&ms, c0, c1), cudaSuccess, "cudaEventElapsedTime");
        printf("peer_copy_ms %.6f\n", ms);
        char probe[2] = { 0, 0 };
        cudaMemcpy(probe, big0 + big - 2, 2, cudaMemcpyDeviceToHost);
        expect(probe[0] == 7 && probe[1] == 7, "the 8 MiB peer copy arrived");
        expect_rc(cudaEventElapsedTime(&ms, done[0], done[1]), cudaErrorInvalidResourceHandle,
                  "cudaEventElapsedTime across devices");
        // the last device's slice once more with cudaMemcpy(cudaMemcpyDefault), and its sums read in place
        float *check;
        cudaMalloc(&check, per * sizeof(float));
        expect_rc(cudaMemcpy(check, y[ndev - 1], per * sizeof(float), cudaMemcpyDefault), cudaSuccess,
                  "cudaMemcpy across devices (cudaMemcpyDefault)");
        float *tail = (float *)malloc(per * sizeof(float));
        cudaMemcpy(tail, check, per * sizeof(float), cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < per; i++) bad += tail[i] != a * hx[(ndev - 1) * per + i];
        expect(bad == 0, "the cudaMemcpyDefault copy between devices");
        free(tail);
        cudaFree(check);
    }
    cudaMemcpy(hy, y[0], n * sizeof(float), cudaMemcpyDeviceToHost);
    double want = 0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        want += (double)(a * hx[i]);
        bad += hy[i] != a * hx[i];
    }
    expect(bad == 0, "every device's scaled slice reached device 0");
    expect(fabs(got - want) <= 1e-3 * (fabs(want) + 1), "the sum over all devices (peer reads)");
    expect(got2[1] == got, "the sums the devices wrote into device 0's memory (peer writes)");
    printf("sum %.3f (cpu %.3f)\n", got, want);

    if (ndev > 1) {
        // device 0 without access to device 1: reading its memory faults device 0 only
        cudaSetDevice(0);
        expect_rc(cudaDeviceDisablePeerAccess(1), cudaSuccess, "cudaDeviceDisablePeerAccess(1)");
        float *out;
        cudaMalloc(&out, sizeof(float));
        peek<<<1, 1>>>(x[1], out);
        expect_rc(cudaDeviceSynchronize(), cudaErrorIllegalAddress, "a peer's memory without peer access");
        cudaSetDevice(1);
        expect_rc(cudaDeviceSynchronize(), cudaSuccess, "the other device is unaffected");
        peek<<<1, 1>>>(x[1], sums[1]);   // its own memory
        expect_rc(cudaDeviceSynchronize(), cudaSuccess, "a kernel on device 1 after device 0's fault");
        cudaSetDevice(0);
        expect_rc(cudaDeviceReset(), cudaSuccess, "cudaDeviceReset of device 0");
        float *again;
        expect_rc(cudaMalloc(&again, 16), cudaSuccess, "device 0 works after its reset");
        cudaFree(again);
    } else {
        float *dummy;
        cudaMalloc(&dummy, 16);
        expect_rc(cudaMemcpyPeer(dummy, 1, dummy, 0, 16), cudaErrorInvalidDevice, "cudaMemcpyPeer to device 1");
        cudaFree(dummy);
    }
    free(hx);
    free(hy);
    printf(failures ? "FAILED (%d)\n" : "PASSED\n", failures);
    return failures ? 1 : 0;
}
