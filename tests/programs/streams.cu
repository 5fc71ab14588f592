// warpsim test: pinned memory (cudaMallocHost), cudaMemcpyAsync pipeline over 4 streams, events (record/synchronize/elapsed time/query), cudaStreamWaitEvent producer/consumer across streams, cudaStreamSynchronize/Query (seed: 003 Module 16.3-16.5; 000 "Order dependent phases with streams and events")
#include <cstdio>
#include <cstdlib>
#include <algorithm>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 5) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

__global__ void vecAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  c[i] = a[i] + b[i];
}
// phase 1 does some dependent work per element before writing buf (so a missing dependency would be visible)
__global__ void produce(int *buf, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = i;
  for (int k = 0; k < iters; k++) v = v * 1103515245u + 12345u;
  buf[i] = (int)(v & 0xffff) + 1;
}
__global__ void consume(const int *buf, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = buf[i] * 2 + buf[(i + 1) % n];
}

int main() {
  const int NS = 4;
  const int n = (1 << 18) + 1234;                 // not a multiple of the segment count
  const size_t bytes = n * sizeof(float);
  cudaStream_t s[NS];
  for (int k = 0; k < NS; k++) CHECK(cudaStreamCreate(&s[k]));
  float *h_a, *h_b, *h_c;
  CHECK(cudaMallocHost(&h_a, bytes)); CHECK(cudaMallocHost(&h_b, bytes)); CHECK(cudaMallocHost(&h_c, bytes));
  for (int i = 0; i < n; i++) { h_a[i] = (float)(i % 1000) * 0.5f; h_b[i] = (float)(i / 1000) - 3.25f; h_c[i] = -1.0f; }
  float *d_a, *d_b, *d_c;
  CHECK(cudaMalloc(&d_a, bytes)); CHECK(cudaMalloc(&d_b, bytes)); CHECK(cudaMalloc(&d_c, bytes));
  CHECK(cudaMemset(d_c, 0, bytes));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, s[0]));
  int seg = (n + NS - 1) / NS;
  for (int k = 0; k < NS; k++) {
    int off = k * seg, len = std::min(seg, n - off);
    size_t b = len * sizeof(float);
    CHECK(cudaMemcpyAsync(d_a + off, h_a + off, b, cudaMemcpyHostToDevice, s[k]));
    CHECK(cudaMemcpyAsync(d_b + off, h_b + off, b, cudaMemcpyHostToDevice, s[k]));
    vecAdd<<<(len + 255) / 256, 256, 0, s[k]>>>(d_a + off, d_b + off, d_c + off, len);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_c + off, d_c + off, b, cudaMemcpyDeviceToHost, s[k]));
  }
  for (int k = 0; k < NS; k++) CHECK(cudaStreamSynchronize(s[k]));    // wait for stream k only
  for (int k = 0; k < NS; k++) CHECK(cudaStreamQuery(s[k]));          // idle streams report cudaSuccess
  CHECK(cudaEventRecord(stop, s[0]));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaEventQuery(stop));
  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0.0f, "cudaEventElapsedTime gave %f ms", ms);
  for (int i = 0; i < n; i++) EXPECT(h_c[i] == h_a[i] + h_b[i], "pipeline: c[%d] = %g, expected %g", i, h_c[i], h_a[i] + h_b[i]);
  printf("4-stream pipeline over %d floats in %d segments: results ok, elapsed >= 0\n", n, NS);

  // events order two phases across independent streams (producer in s[1], consumer in s[2])
  {
    const int m = 50000;
    int *buf, *out, *h_out;
    CHECK(cudaMalloc(&buf, m * sizeof(int))); CHECK(cudaMalloc(&out, m * sizeof(int)));
    CHECK(cudaMallocHost(&h_out, m * sizeof(int)));
    CHECK(cudaMemsetAsync(buf, 0, m * sizeof(int), s[1]));
    cudaEvent_t done;
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    produce<<<(m + 127) / 128, 128, 0, s[1]>>>(buf, m, 200);   // phase 1 writes buf
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(done, s[1]));
    CHECK(cudaStreamWaitEvent(s[2], done, 0));                  // s2 waits for the event, the host doesn't
    consume<<<(m + 127) / 128, 128, 0, s[2]>>>(buf, out, m);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_out, out, m * sizeof(int), cudaMemcpyDeviceToHost, s[2]));
    CHECK(cudaStreamSynchronize(s[2]));
    int bad = 0;
    for (int i = 0; i < m; i++) {
      auto prod = [](int j) { unsigned v = j; for (int k = 0; k < 200; k++) v = v * 1103515245u + 12345u; return (int)(v & 0xffff) + 1; };
      int want = prod(i) * 2 + prod((i + 1) % m);
      if (h_out[i] != want) { bad++; EXPECT(false, "consumer saw out[%d] = %d, expected %d (missing dependency?)", i, h_out[i], want); }
    }
    printf("produce in s1 -> event -> cudaStreamWaitEvent(s2) -> consume in s2: %s\n", bad ? "MISMATCH" : "ok");
    CHECK(cudaEventDestroy(done));
    CHECK(cudaFree(buf)); CHECK(cudaFree(out)); CHECK(cudaFreeHost(h_out));
  }
  // the legacy default stream: a kernel in stream 0 after async work in s[3], then a plain cudaMemcpy
  {
    for (int i = 0; i < n; i++) h_c[i] = 0.0f;
    CHECK(cudaMemcpyAsync(d_a, h_b, bytes, cudaMemcpyHostToDevice, s[3]));     // d_a := b
    vecAdd<<<(n + 255) / 256, 256>>>(d_a, d_b, d_c, n);                        // default stream waits for s[3]
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(h_c[i] == h_b[i] + h_b[i], "default stream: c[%d] = %g, expected %g", i, h_c[i], 2 * h_b[i]);
    printf("legacy default stream ordered after s[3]: ok\n");
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
  for (int k = 0; k < NS; k++) CHECK(cudaStreamDestroy(s[k]));
  CHECK(cudaFreeHost(h_a)); CHECK(cudaFreeHost(h_b)); CHECK(cudaFreeHost(h_c));
  CHECK(cudaFree(d_a)); CHECK(cudaFree(d_b)); CHECK(cudaFree(d_c));
  if (g_fail) { printf("FAIL: streams: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS streams\n");
  return 0;
}
