// warpsim test: surface objects over CUDA arrays made with cudaArraySurfaceLoadStore: surf1D/2D/3D/2DLayered
// writes and reads (float, uchar4, float4, short), the clamp and zero boundary modes on reads and writes, a
// texture fetch of what a surface wrote, and copies back with cudaMemcpy2DFromArray / cudaMemcpy3D / linear
// cudaMemcpy2DArrayToArray, all checked against a CPU model of the same arrays. Built for the per-thread default
// stream, so its copies go through the _ptds/_ptsz entry points, the deprecated 1D array copies and the async 2D
// forms among them.
// NVCCFLAGS: --default-stream per-thread
// TIMING_ARGS: 24 10
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 10) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

static __host__ __device__ float value(int x, int y) { return (float)(x * 3 - y * 7) * 0.25f + 1.0f; }

// every thread writes value(x, y) at (x, y); threads past the right edge write with the zero boundary mode
// (dropped, never a trap)
__global__ void write2d(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) surf2Dwrite(value(x, y), s, x * (int)sizeof(float), y);
  else if (x == w && y < h) surf2Dwrite(-1000.0f, s, x * (int)sizeof(float), y, cudaBoundaryModeZero);
}

// a clamp-mode write past the bottom-right corner lands on the last texel
__global__ void clampwrite(cudaSurfaceObject_t s, int w, int h) {
  surf2Dwrite(-2000.0f, s, (w + 1) * (int)sizeof(float), h + 1, cudaBoundaryModeClamp);
}

// reads back: in range (trap mode), a zero-mode read and a clamp-mode read past the right edge
__global__ void read2d(cudaSurfaceObject_t s, int w, int h, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float a = surf2Dread<float>(s, x * (int)sizeof(float), y);
  float z = surf2Dread<float>(s, (x + w) * (int)sizeof(float), y, cudaBoundaryModeZero);
  float c = surf2Dread<float>(s, (x + w) * (int)sizeof(float), y - h, cudaBoundaryModeClamp);
  out[3 * (y * w + x) + 0] = a;
  out[3 * (y * w + x) + 1] = z;
  out[3 * (y * w + x) + 2] = c;
}

// uchar4 1D surface: out = in with channels rotated, in place
__global__ void rotate1d(cudaSurfaceObject_t s, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= n) return;
  uchar4 v;
  surf1Dread(&v, s, x * 4);
  surf1Dwrite(make_uchar4(v.y, v.z, v.w, v.x), s, x * 4);
}

// float4 3D surface and a short 2D layered surface written from coordinates
__global__ void fill3d(cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, int w, int h, int d) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  if (x >= w || y >= h || z >= d) return;
  surf3Dwrite(make_float4(x, y, z, x + 10 * y + 100 * z), s3, x * (int)sizeof(float4), y, z);
  surf2DLayeredwrite((short)(x - 2 * y + 50 * z), sl, x * (int)sizeof(short), y, z);
}

// the surface-written 2D array read through a texture (point sampling, texel coordinates)
__global__ void texread(cudaTextureObject_t t, int w, int h, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

int main(int argc, char **argv) {
  int w = argc > 1 ? atoi(argv[1]) : 70, h = argc > 2 ? atoi(argv[2]) : 33;
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  cudaArray_t a2;
  CHECK(cudaMallocArray(&a2, &cf, w, h, cudaArraySurfaceLoadStore));
  std::vector<float> zeros(w * h, 0.0f);
  CHECK(cudaMemcpy2DToArray(a2, 0, 0, zeros.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a2;
  cudaSurfaceObject_t s2;
  CHECK(cudaCreateSurfaceObject(&s2, &rd));
  dim3 blk(16, 8), grd((w + 2 + 15) / 16, (h + 2 + 7) / 8);
  write2d<<<grd, blk>>>(s2, w, h);
  CHECK(cudaGetLastError());
  clampwrite<<<1, 1>>>(s2, w, h);
  CHECK(cudaGetLastError());
  float *dout;
  CHECK(cudaMalloc(&dout, 3 * w * h * sizeof(float)));
  read2d<<<grd, blk>>>(s2, w, h, dout);
  CHECK(cudaGetLastError());
  std::vector<float> out(3 * w * h), back(w * h);
  CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy2DFromArray(back.data(), w * 4, a2, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      // the clamp-mode write of thread (w+1, h+1) landed on the last texel
      float want = (x == w - 1 && y == h - 1) ? -2000.0f : value(x, y);
      EXPECT(back[y * w + x] == want, "2D array (%d,%d) = %g, want %g", x, y, back[y * w + x], want);
      EXPECT(out[3 * (y * w + x)] == want, "surf2Dread (%d,%d) = %g, want %g", x, y, out[3 * (y * w + x)], want);
      EXPECT(out[3 * (y * w + x) + 1] == 0.0f, "zero-mode read (%d,%d) = %g", x, y, out[3 * (y * w + x) + 1]);
      float cw = h == 1 ? -2000.0f : value(w - 1, 0);   // clamped to (w-1, 0)
      EXPECT(out[3 * (y * w + x) + 2] == cw, "clamp-mode read (%d,%d) = %g, want %g", x, y, out[3 * (y * w + x) + 2], cw);
    }
  // the same array through a texture
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  cudaTextureObject_t t2;
  CHECK(cudaCreateTextureObject(&t2, &rd, &td, NULL));
  texread<<<grd, blk>>>(t2, w, h, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, w * h * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < w * h; i++) EXPECT(out[i] == back[i], "texture of surface texel %d = %g, want %g", i, out[i], back[i]);
  // a copy of the array into another array, then back
  cudaArray_t a2b;
  CHECK(cudaMallocArray(&a2b, &cf, w, h));
  CHECK(cudaMemcpy2DArrayToArray(a2b, 0, 0, a2, 0, 0, w * 4, h, cudaMemcpyDeviceToDevice));
  std::vector<float> back2(w * h);
  CHECK(cudaMemcpy2DFromArray(back2.data(), w * 4, a2b, 0, 0, w * 4, h, cudaMemcpyDeviceToHost));
  EXPECT(back2 == back, "cudaMemcpy2DArrayToArray copy differs");
  // the deprecated 1D array copies (row 1 of a2b, then into a third array) and the async 2D ones
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  std::vector<float> row(w), row2(w), row3(w), back3(w * h);
  for (int i = 0; i < w; i++) row[i] = 0.5f * i - 3;
  CHECK(cudaMemcpyToArray(a2b, 0, 1, row.data(), w * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyFromArray(row2.data(), a2b, 0, 1, w * 4, cudaMemcpyDeviceToHost));
  EXPECT(row2 == row, "cudaMemcpyToArray / cudaMemcpyFromArray round trip differs");
  cudaArray_t a2c;
  CHECK(cudaMallocArray(&a2c, &cf, w, h));
  CHECK(cudaMemcpyArrayToArray(a2c, 0, 0, a2b, 0, 1, 4, cudaMemcpyDeviceToDevice));   // row[0] only
  CHECK(cudaMemcpyToArrayAsync(a2c, 4, 0, row.data() + 1, (w - 1) * 4, cudaMemcpyHostToDevice, 0));
  CHECK(cudaMemcpyFromArrayAsync(row3.data(), a2c, 0, 0, w * 4, cudaMemcpyDeviceToHost, 0));
  CHECK(cudaMemcpy2DToArrayAsync(a2c, 0, 1, back.data() + w, w * 4, w * 4, h - 1, cudaMemcpyHostToDevice, 0));
  CHECK(cudaMemcpy2DFromArrayAsync(back3.data(), w * 4, a2c, 0, 0, w * 4, h, cudaMemcpyDeviceToHost, 0));
  CHECK(cudaStreamSynchronize(0));
#pragma GCC diagnostic pop
  EXPECT(row3 == row, "cudaMemcpyArrayToArray + cudaMemcpyToArrayAsync + cudaMemcpyFromArrayAsync differ");
  for (int i = 0; i < w * h; i++)
    EXPECT(back3[i] == (i < w ? row[i] : back[i]), "cudaMemcpy2DToArrayAsync/2DFromArrayAsync element %d", i);
  CHECK(cudaFreeArray(a2c));

  // 1D uchar4 surface
  int n = w * 3;
  cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a1;
  CHECK(cudaMallocArray(&a1, &c4, n, 0, cudaArraySurfaceLoadStore));
  std::vector<uchar4> px(n), px2(n);
  for (int i = 0; i < n; i++) px[i] = make_uchar4(i % 256, (i * 3) % 256, (i * 5) % 256, (i * 7) % 256);
  CHECK(cudaMemcpy2DToArray(a1, 0, 0, px.data(), n * 4, n * 4, 1, cudaMemcpyHostToDevice));
  rd.res.array.array = a1;
  cudaSurfaceObject_t s1;
  CHECK(cudaCreateSurfaceObject(&s1, &rd));
  rotate1d<<<(n + 63) / 64, 64>>>(s1, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy2DFromArray(px2.data(), n * 4, a1, 0, 0, n * 4, 1, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    EXPECT(px2[i].x == px[i].y && px2[i].y == px[i].z && px2[i].z == px[i].w && px2[i].w == px[i].x,
           "uchar4 surface texel %d", i);

  // 3D float4 surface and 2D layered short surface, read back with cudaMemcpy3D
  const int W = 7, H = 5, D = 3;
  cudaChannelFormatDesc cq = cudaCreateChannelDesc<float4>(), cs = cudaCreateChannelDesc<short>();
  cudaArray_t a3, al;
  CHECK(cudaMalloc3DArray(&a3, &cq, make_cudaExtent(W, H, D), cudaArraySurfaceLoadStore));
  CHECK(cudaMalloc3DArray(&al, &cs, make_cudaExtent(W, H, D), cudaArraySurfaceLoadStore | cudaArrayLayered));
  cudaSurfaceObject_t s3, sl;
  rd.res.array.array = a3;
  CHECK(cudaCreateSurfaceObject(&s3, &rd));
  rd.res.array.array = al;
  CHECK(cudaCreateSurfaceObject(&sl, &rd));
  fill3d<<<D, dim3(W, H)>>>(s3, sl, W, H, D);
  CHECK(cudaGetLastError());
  std::vector<float4> v3(W * H * D);
  std::vector<short> vl(W * H * D);
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcArray = a3;
  p.dstPtr = make_cudaPitchedPtr(v3.data(), W * sizeof(float4), W, H);
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&p));
  p.srcArray = al;
  p.dstPtr = make_cudaPitchedPtr(vl.data(), W * sizeof(short), W, H);
  CHECK(cudaMemcpy3D(&p));
  for (int z = 0; z < D; z++)
    for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
        float4 q = v3[(z * H + y) * W + x];
        EXPECT(q.x == x && q.y == y && q.z == z && q.w == x + 10 * y + 100 * z, "3D surface (%d,%d,%d)", x, y, z);
        EXPECT(vl[(z * H + y) * W + x] == (short)(x - 2 * y + 50 * z), "layered surface (%d,%d,%d) = %d", x, y, z,
               vl[(z * H + y) * W + x]);
      }
  unsigned flags = 0;
  cudaExtent ext;
  CHECK(cudaArrayGetInfo(NULL, &ext, &flags, al));
  EXPECT(flags == (cudaArraySurfaceLoadStore | cudaArrayLayered) && ext.depth == (size_t)D, "cudaArrayGetInfo flags %u", flags);
  CHECK(cudaDestroySurfaceObject(s1));
  CHECK(cudaDestroySurfaceObject(s2));
  CHECK(cudaDestroySurfaceObject(s3));
  CHECK(cudaDestroySurfaceObject(sl));
  CHECK(cudaDestroyTextureObject(t2));
  CHECK(cudaFreeArray(a1));
  CHECK(cudaFreeArray(a2));
  CHECK(cudaFreeArray(a2b));
  CHECK(cudaFreeArray(a3));
  CHECK(cudaFreeArray(al));
  CHECK(cudaFree(dout));
  if (g_fail) { printf("FAIL surface_rw: %d mismatches\n", g_fail); return 1; }
  printf("PASS surface_rw\n");
  return 0;
}
