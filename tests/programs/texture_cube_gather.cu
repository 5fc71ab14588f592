// warpsim test: cubemap and layered-cubemap textures (face selection by the major axis of the direction, as the
// CUDA programming guide's cubemap table gives it), tex2Dgather of float, float2 and int textures (the four
// texels bilinear filtering would use, in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j)), all checked against
// a CPU reference (the program passes on an H200 too).
// TIMING_ARGS: 64
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 10) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

// cubemap fetches along directions dir[i] (layer in .w for the layered cubemap)
__global__ void cube(cudaTextureObject_t tc, cudaTextureObject_t tl, const float4 *dir, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 d = dir[i];
  out[2 * i] = texCubemap<float>(tc, d.x, d.y, d.z);
  out[2 * i + 1] = texCubemapLayered<float>(tl, d.x, d.y, d.z, (int)d.w);
}

// gathers: component 0 of a float texture, component 1 of a float2 texture, component 0 of an int texture
__global__ void gather(cudaTextureObject_t tf, cudaTextureObject_t t2, cudaTextureObject_t ti, const float2 *c,
                       float4 *of, float4 *o2, int4 *oi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  of[i] = tex2Dgather<float4>(tf, c[i].x, c[i].y, 0);
  o2[i] = tex2Dgather<float4>(t2, c[i].x, c[i].y, 1);
  oi[i] = tex2Dgather<int4>(ti, c[i].x, c[i].y, 0);
}

static float cube_value(int layer, int face, int x, int y) { return (float)(layer * 1000 + face * 100 + y * 10 + x); }

// face and texel of a direction (point sampling of an n x n face)
static float ref_cube(float x, float y, float z, int layer, int n) {
  float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), sc, tc, ma;
  int face;
  if (ax >= ay && ax >= az) { ma = ax; face = x >= 0 ? 0 : 1; sc = x >= 0 ? -z : z; tc = -y; }
  else if (ay >= az) { ma = ay; face = y >= 0 ? 2 : 3; sc = x; tc = y >= 0 ? z : -z; }
  else { ma = az; face = z >= 0 ? 4 : 5; sc = z >= 0 ? x : -x; tc = -y; }
  float s = (sc / ma + 1.0f) * 0.5f, t = (tc / ma + 1.0f) * 0.5f;
  int i = (int)floorf(s * (float)n), j = (int)floorf(t * (float)n);
  i = i < 0 ? 0 : i >= n ? n - 1 : i;
  j = j < 0 ? 0 : j >= n ? n - 1 : j;
  return cube_value(layer, face, i, j);
}

static void run_cube(int npts) {
  const int n = 4, layers = 2;
  std::vector<float> one(6 * n * n), two(layers * 6 * n * n);
  for (int l = 0; l < layers; l++)
    for (int f = 0; f < 6; f++)
      for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
          if (l == 0) one[(f * n + y) * n + x] = cube_value(0, f, x, y);
          two[((l * 6 + f) * n + y) * n + x] = cube_value(l, f, x, y);
        }
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  cudaArray_t ac, al;
  CHECK(cudaMalloc3DArray(&ac, &cf, make_cudaExtent(n, n, 6), cudaArrayCubemap));
  CHECK(cudaMalloc3DArray(&al, &cf, make_cudaExtent(n, n, 6 * layers), cudaArrayCubemap | cudaArrayLayered));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(one.data(), n * sizeof(float), n, n);
  p.dstArray = ac;
  p.extent = make_cudaExtent(n, n, 6);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  p.srcPtr = make_cudaPitchedPtr(two.data(), n * sizeof(float), n, n);
  p.dstArray = al;
  p.extent = make_cudaExtent(n, n, 6 * layers);
  CHECK(cudaMemcpy3D(&p));
  cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = ac;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.normalizedCoords = 1;
  cudaTextureObject_t tc, tl;
  CHECK(cudaCreateTextureObject(&tc, &rd, &td, NULL));
  rd.res.array.array = al;
  CHECK(cudaCreateTextureObject(&tl, &rd, &td, NULL));
  // directions with a clear major axis, off texel edges
  std::vector<float4> dir(npts);
  for (int i = 0; i < npts; i++) {
    int axis = i % 3, sign = (i / 3) % 2 ? -1 : 1;
    float a = -0.93f + 1.86f * (float)((i * 7) % 29) / 28.0f, b = -0.91f + 1.82f * (float)((i * 11) % 31) / 30.0f;
    a = floorf(a * 8.0f) / 8.0f + 0.0625f;   // texel centres of a 4 x 4 face
    b = floorf(b * 8.0f) / 8.0f + 0.0625f;
    float m = sign * (1.0f + 0.5f * (float)(i % 5));
    float v[3];
    v[axis] = m;
    v[(axis + 1) % 3] = a * fabsf(m);
    v[(axis + 2) % 3] = b * fabsf(m);
    dir[i] = make_float4(v[0], v[1], v[2], (float)(i % layers));
  }
  float4 *ddir;
  float *dout;
  CHECK(cudaMalloc(&ddir, npts * sizeof(float4)));
  CHECK(cudaMalloc(&dout, 2 * npts * sizeof(float)));
  CHECK(cudaMemcpy(ddir, dir.data(), npts * sizeof(float4), cudaMemcpyHostToDevice));
  cube<<<(npts + 63) / 64, 64>>>(tc, tl, ddir, dout, npts);
  CHECK(cudaGetLastError());
  std::vector<float> out(2 * npts);
  CHECK(cudaMemcpy(out.data(), dout, 2 * npts * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < npts; i++) {
    float r0 = ref_cube(dir[i].x, dir[i].y, dir[i].z, 0, n), r1 = ref_cube(dir[i].x, dir[i].y, dir[i].z, (int)dir[i].w, n);
    EXPECT(out[2 * i] == r0, "texCubemap (%g, %g, %g) = %g, want %g", dir[i].x, dir[i].y, dir[i].z, out[2 * i], r0);
    EXPECT(out[2 * i + 1] == r1, "texCubemapLayered (%g, %g, %g, layer %d) = %g, want %g", dir[i].x, dir[i].y,
           dir[i].z, (int)dir[i].w, out[2 * i + 1], r1);
  }
  CHECK(cudaDestroyTextureObject(tc));
  CHECK(cudaDestroyTextureObject(tl));
  CHECK(cudaFreeArray(ac));
  CHECK(cudaFreeArray(al));
  CHECK(cudaFree(ddir));
  CHECK(cudaFree(dout));
}

// the four texels of a gather at (x, y) in texel coordinates, clamp addressing; channel c of texel (i, j) from get
template <typename F>
static void ref_gather(float x, float y, int w, int h, F get, double out[4]) {
  long i = (long)floorf(x - 0.5f), j = (long)floorf(y - 0.5f);
  auto cl = [](long v, long n) { return v < 0 ? 0 : v >= n ? n - 1 : v; };
  const long ox[4] = {0, 1, 1, 0}, oy[4] = {1, 1, 0, 0};
  for (int k = 0; k < 4; k++) out[k] = get(cl(i + ox[k], w), cl(j + oy[k], h));
}

static void run_gather(int npts) {
  const int w = 7, h = 5;
  std::vector<float> vf(w * h);
  std::vector<float2> v2(w * h);
  std::vector<int> vi(w * h);
  for (int i = 0; i < w * h; i++) vf[i] = 0.5f * i - 3.0f, v2[i] = make_float2(i, -2.0f * i), vi[i] = i * i - 7;
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>(), c2 = cudaCreateChannelDesc<float2>(),
                        ci = cudaCreateChannelDesc<int>();
  cudaArray_t af, a2, ai;
  CHECK(cudaMallocArray(&af, &cf, w, h, cudaArrayTextureGather));
  CHECK(cudaMallocArray(&a2, &c2, w, h, cudaArrayTextureGather));
  CHECK(cudaMallocArray(&ai, &ci, w, h, cudaArrayTextureGather));
  CHECK(cudaMemcpy2DToArray(af, 0, 0, vf.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DToArray(a2, 0, 0, v2.data(), w * 8, w * 8, h, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy2DToArray(ai, 0, 0, vi.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  cudaTextureObject_t tf, t2, ti;
  rd.res.array.array = af;
  CHECK(cudaCreateTextureObject(&tf, &rd, &td, NULL));
  rd.res.array.array = a2;
  CHECK(cudaCreateTextureObject(&t2, &rd, &td, NULL));
  rd.res.array.array = ai;
  CHECK(cudaCreateTextureObject(&ti, &rd, &td, NULL));
  std::vector<float2> co(npts);
  for (int i = 0; i < npts; i++) co[i] = make_float2(-1.0f + 9.0f * (float)((i * 13) % 41) / 40.0f, -1.0f + 7.0f * (float)((i * 5) % 37) / 36.0f);
  float2 *dco;
  float4 *dof, *do2;
  int4 *doi;
  CHECK(cudaMalloc(&dco, npts * sizeof(float2)));
  CHECK(cudaMalloc(&dof, npts * sizeof(float4)));
  CHECK(cudaMalloc(&do2, npts * sizeof(float4)));
  CHECK(cudaMalloc(&doi, npts * sizeof(int4)));
  CHECK(cudaMemcpy(dco, co.data(), npts * sizeof(float2), cudaMemcpyHostToDevice));
  gather<<<(npts + 63) / 64, 64>>>(tf, t2, ti, dco, dof, do2, doi, npts);
  CHECK(cudaGetLastError());
  std::vector<float4> of(npts), o2(npts);
  std::vector<int4> oi(npts);
  CHECK(cudaMemcpy(of.data(), dof, npts * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(o2.data(), do2, npts * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(oi.data(), doi, npts * sizeof(int4), cudaMemcpyDeviceToHost));
  for (int i = 0; i < npts; i++) {
    double rf[4], r2[4], ri[4];
    ref_gather(co[i].x, co[i].y, w, h, [&](long x, long y) { return (double)vf[y * w + x]; }, rf);
    ref_gather(co[i].x, co[i].y, w, h, [&](long x, long y) { return (double)v2[y * w + x].y; }, r2);
    ref_gather(co[i].x, co[i].y, w, h, [&](long x, long y) { return (double)vi[y * w + x]; }, ri);
    float gf[4] = {of[i].x, of[i].y, of[i].z, of[i].w}, g2[4] = {o2[i].x, o2[i].y, o2[i].z, o2[i].w};
    int gi[4] = {oi[i].x, oi[i].y, oi[i].z, oi[i].w};
    for (int k = 0; k < 4; k++) {
      EXPECT(gf[k] == (float)rf[k], "gather float (%g, %g)[%d] = %g, want %g", co[i].x, co[i].y, k, gf[k], rf[k]);
      EXPECT(g2[k] == (float)r2[k], "gather float2.y (%g, %g)[%d] = %g, want %g", co[i].x, co[i].y, k, g2[k], r2[k]);
      EXPECT(gi[k] == (int)ri[k], "gather int (%g, %g)[%d] = %d, want %d", co[i].x, co[i].y, k, gi[k], (int)ri[k]);
    }
  }
  CHECK(cudaDestroyTextureObject(tf));
  CHECK(cudaDestroyTextureObject(t2));
  CHECK(cudaDestroyTextureObject(ti));
  CHECK(cudaFreeArray(af));
  CHECK(cudaFreeArray(a2));
  CHECK(cudaFreeArray(ai));
  CHECK(cudaFree(dco));
  CHECK(cudaFree(dof));
  CHECK(cudaFree(do2));
  CHECK(cudaFree(doi));
}

int main(int argc, char **argv) {
  int npts = argc > 1 ? atoi(argv[1]) : 240;
  run_cube(npts);
  run_gather(npts);
  if (g_fail) { printf("FAIL texture_cube_gather: %d mismatches\n", g_fail); return 1; }
  printf("PASS texture_cube_gather\n");
  return 0;
}
