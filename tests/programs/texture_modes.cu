// warpsim test: texture objects over CUDA arrays (1D, 2D, 3D, 1D/2D layered), linear and pitched memory, in every
// address mode (wrap, clamp, mirror, border) x point/linear filtering x normalised or texel coordinates, element
// and normalised-float read modes. A CPU reference implements the CUDA programming guide's fetch rules: x = u*N,
// linear: xB = x - 0.5, i = floor(xB), weight frac(xB) in 1.8 fixed point (nearest 1/256); several dimensions
// weight each texel by the product of its per-dimension weights rounded to 1/256 (3D: z times x rounded, then times
// y rounded); the weighted sum rounded to f32
// (to nearest, ties away from zero).
// TIMING_ARGS: 48
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
static int g_fail = 0;

enum { G1D = 1, G2D, G3D, GL1D, GL2D };

// out[i] = the texture sampled at coords[i] (x, y, z, layer) with the geometry's fetch
__global__ void sample(cudaTextureObject_t t, int geom, const float4 *coords, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 c = coords[i];
  float v = 0;
  switch (geom) {
  case G1D: v = tex1D<float>(t, c.x); break;
  case G2D: v = tex2D<float>(t, c.x, c.y); break;
  case G3D: v = tex3D<float>(t, c.x, c.y, c.z); break;
  case GL1D: v = tex1DLayered<float>(t, c.x, (int)c.w); break;
  case GL2D: v = tex2DLayered<float>(t, c.x, c.y, (int)c.w); break;
  }
  out[i] = v;
}

// four channels of a uchar4 texture read as normalised floats
__global__ void sample4(cudaTextureObject_t t, const float4 *coords, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, coords[i].x, coords[i].y);
}

// integer fetches: tex1Dfetch over linear memory (int and float), element-type short texture by point sampling
__global__ void fetches(cudaTextureObject_t ti, cudaTextureObject_t tf, cudaTextureObject_t ts, int *oi, float *of,
                        int *os, const float4 *coords, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  oi[i] = tex1Dfetch<int>(ti, i - 3);
  of[i] = tex1Dfetch<float>(tf, i - 3);
  os[i] = tex2D<short>(ts, coords[i].x, coords[i].y);
}

// ---- CPU reference ----
struct Tex {
  int w, h, d, layers;   // texels; layers (1 when not layered)
  std::vector<float> v;  // [layer][z][y][x]
  int mode[3], linear, norm;
  float border;
  float at(int x, int y, int z, int l) const { return v[(((size_t)l * d + z) * h + y) * w + x]; }
};

// texel index under an address mode, -1 on the border
static long index_of(long i, long n, int mode) {
  switch (mode) {
  case cudaAddressModeWrap: { long r = i % n; return r < 0 ? r + n : r; }
  case cudaAddressModeMirror: { long r = i % (2 * n); if (r < 0) r += 2 * n; return r >= n ? 2 * n - 1 - r : r; }
  case cudaAddressModeBorder: return i < 0 || i >= n ? -1 : i;
  default: return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

// the two texels and 1.8 weights of one coordinate
static void place(const Tex &T, float u, long n, int d, long idx[2], int wt[2]) {
  float x = T.norm ? u * (float)n : u;
  if (!T.linear) { idx[0] = idx[1] = index_of((long)floorf(x), n, T.mode[d]); wt[0] = 256; wt[1] = 0; return; }
  float xb = x - 0.5f;
  float fl = floorf(xb);
  int a = (int)floor((double)(xb - fl) * 256.0 + 0.5);
  idx[0] = index_of((long)fl, n, T.mode[d]);
  idx[1] = index_of((long)fl + 1, n, T.mode[d]);
  wt[0] = 256 - a; wt[1] = a;
}

// p / 2^k rounded to nearest, ties to even
static long rshift_even(long p, int k) {
  long q = p >> k, r = p - (q << k), h = 1L << (k - 1);
  return r > h || (r == h && (q & 1)) ? q + 1 : q;
}

// v to f32, to nearest with ties away from zero
static float round_away(double v) {
  float f = (float)v;
  if ((double)f == v) return f;
  float g = (double)f < v ? nextafterf(f, INFINITY) : nextafterf(f, -INFINITY);
  double df = fabs((double)f - v), dg = fabs((double)g - v);
  if (df == dg) return fabsf(f) > fabsf(g) ? f : g;
  return df < dg ? f : g;
}

static float ref_sample(const Tex &T, int nd, float cx, float cy, float cz, int layer, bool layered = false) {
  long idx[3][2] = {{0, 0}, {0, 0}, {0, 0}};
  int wt[3][2] = {{256, 0}, {256, 0}, {256, 0}};
  place(T, cx, T.w, 0, idx[0], wt[0]);
  if (nd > 1) place(T, cy, T.h, 1, idx[1], wt[1]);
  if (nd > 2) place(T, cz, T.d, 2, idx[2], wt[2]);
  int l = (unsigned)layer >= (unsigned)T.layers ? T.layers - 1 : layer;   // unsigned: -1 reads the last layer
  double acc = 0;
  if (nd == 1 && !layered && T.linear && T.mode[1] == cudaAddressModeBorder) {
    // (non-layered) 1D is filtered as 2D of height 1 at y = 0: row -1 (the border) and row 0 weigh half each, row 0's texels
    // 128 - w and w with w the fraction's half rounded up (what an H200 does)
    wt[0][1] = (wt[0][1] * 128 + 128) >> 8;
    wt[0][0] = 128 - wt[0][1];
    acc = 128.0 * T.border;
  }
  for (int c2 = 0; c2 < (nd > 2 ? 2 : 1); c2++)
    for (int c1 = 0; c1 < (nd > 1 ? 2 : 1); c1++)
      for (int c0 = 0; c0 < 2; c0++) {
        long w = wt[0][c0];                                   // 3D: (z * x) rounded, then * y rounded
        if (nd > 2) w = rshift_even(wt[2][c2] * w, 8);
        if (nd > 1) w = rshift_even(w * wt[1][c1], 8);
        if (!w) continue;
        long x = idx[0][c0], y = nd > 1 ? idx[1][c1] : 0, z = nd > 2 ? idx[2][c2] : 0;
        double v = (x < 0 || y < 0 || z < 0) ? T.border : T.at((int)x, (int)y, (int)z, l);
        acc += (double)w * v;
      }
  return round_away(acc / 256.0);
}

static unsigned bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }

// run one geometry in every mode combination
static void run_geometry(int geom, int w, int h, int d, int layers, int npts) {
  int nd = geom == G1D || geom == GL1D ? 1 : geom == G3D ? 3 : 2;
  bool layered = geom == GL1D || geom == GL2D;
  Tex T;
  T.w = w; T.h = nd > 1 ? h : 1; T.d = nd > 2 ? d : 1; T.layers = layered ? layers : 1;
  T.v.resize((size_t)T.w * T.h * T.d * T.layers);
  for (size_t i = 0; i < T.v.size(); i++) T.v[i] = (float)((i * 37 + 11) % 101) * 0.173f - 4.0f;
  cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaExtent ext = make_cudaExtent(w, nd > 1 ? h : 0, nd > 2 ? d : layered ? layers : 0);
  CHECK(cudaMalloc3DArray(&arr, &cf, ext, layered ? cudaArrayLayered : 0));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(T.v.data(), T.w * sizeof(float), T.w, T.h);
  p.dstArray = arr;
  p.extent = make_cudaExtent(T.w, T.h, T.d * T.layers);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  std::vector<float4> co(npts);
  float4 *dco;
  float *dout;
  CHECK(cudaMalloc(&dco, npts * sizeof(float4)));
  CHECK(cudaMalloc(&dout, npts * sizeof(float)));
  std::vector<float> out(npts);
  for (int norm = 0; norm < 2; norm++)
    for (int mode = 0; mode < 4; mode++)
      for (int lin = 0; lin < 2; lin++) {
        if (!norm && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) continue;  // normalised only
        for (int k = 0; k < 3; k++) T.mode[k] = mode;
        T.linear = lin; T.norm = norm; T.border = 0.75f;   // the border colour's red channel
        for (int i = 0; i < npts; i++) {
          float f[3];
          int n[3] = {T.w, T.h, T.d};
          for (int k = 0; k < 3; k++) {
            float s = (float)((i * (7 + 5 * k) + 3 * k) % 97) / 96.0f;           // [0, 1]
            float u = -0.6f + 2.2f * s + 0.0137f * (float)(k + 1);               // [-0.6, 1.6]
            f[k] = norm ? u : u * (float)n[k];
          }
          co[i] = make_float4(f[0], f[1], f[2], (float)(i % (T.layers + 2)) - 1.0f);
        }
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        for (int k = 0; k < 3; k++) td.addressMode[k] = (cudaTextureAddressMode)mode;
        td.filterMode = lin ? cudaFilterModeLinear : cudaFilterModePoint;
        td.readMode = cudaReadModeElementType;
        td.normalizedCoords = norm;
        td.borderColor[0] = T.border;
        cudaTextureObject_t tex;
        CHECK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
        CHECK(cudaMemcpy(dco, co.data(), npts * sizeof(float4), cudaMemcpyHostToDevice));
        sample<<<(npts + 63) / 64, 64>>>(tex, geom, dco, dout, npts);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(out.data(), dout, npts * sizeof(float), cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int i = 0; i < npts; i++) {
          float r = ref_sample(T, nd, co[i].x, co[i].y, co[i].z, (int)co[i].w, layered);
          if (bits(r) != bits(out[i])) {
            if (bad < 3)
              printf("FAIL: geom %d mode %d %s %s point %d (%g, %g, %g, layer %d): got %.9g (0x%08x), want %.9g (0x%08x)\n",
                     geom, mode, lin ? "linear" : "point", norm ? "normalized" : "texel", i, co[i].x, co[i].y,
                     co[i].z, (int)co[i].w, out[i], bits(out[i]), r, bits(r));
            bad++;
          }
        }
        if (bad) printf("geom %d mode %d lin %d norm %d: %d of %d fetches differ\n", geom, mode, lin, norm, bad, npts);
        g_fail += bad;
        CHECK(cudaDestroyTextureObject(tex));
      }
  CHECK(cudaFree(dco));
  CHECK(cudaFree(dout));
  CHECK(cudaFreeArray(arr));
}

// uchar4 texture read as normalised floats, bilinear, clamp, texel coordinates; from pitched memory
static void run_uchar4(int npts) {
  const int w = 9, h = 6;
  std::vector<uchar4> img(w * h);
  for (int i = 0; i < w * h; i++) img[i] = make_uchar4(i * 7 % 256, 255 - i * 3, i * 29 % 256, 128);
  size_t pitch;
  uchar4 *dimg;
  CHECK(cudaMallocPitch(&dimg, &pitch, w * sizeof(uchar4), h));
  CHECK(cudaMemcpy2D(dimg, pitch, img.data(), w * sizeof(uchar4), w * sizeof(uchar4), h, cudaMemcpyHostToDevice));
  cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypePitch2D;
  rd.res.pitch2D.devPtr = dimg;
  rd.res.pitch2D.desc = cudaCreateChannelDesc<uchar4>();
  rd.res.pitch2D.width = w;
  rd.res.pitch2D.height = h;
  rd.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t tex;
  CHECK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
  std::vector<float4> co(npts), out(npts);
  for (int i = 0; i < npts; i++) co[i] = make_float4(-1.0f + 11.0f * (float)(i % 53) / 52.0f, -1.0f + 8.0f * (float)(i % 31) / 30.0f, 0, 0);
  float4 *dco, *dout;
  CHECK(cudaMalloc(&dco, npts * sizeof(float4)));
  CHECK(cudaMalloc(&dout, npts * sizeof(float4)));
  CHECK(cudaMemcpy(dco, co.data(), npts * sizeof(float4), cudaMemcpyHostToDevice));
  sample4<<<(npts + 63) / 64, 64>>>(tex, dco, dout, npts);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, npts * sizeof(float4), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int c = 0; c < 4; c++) {
    Tex T;
    T.w = w; T.h = h; T.d = 1; T.layers = 1; T.linear = 1; T.norm = 0; T.border = 0;
    T.mode[0] = T.mode[1] = T.mode[2] = cudaAddressModeClamp;
    for (int i = 0; i < w * h; i++) {
      unsigned char b = c == 0 ? img[i].x : c == 1 ? img[i].y : c == 2 ? img[i].z : img[i].w;
      T.v.push_back((float)b / 255.0f);
    }
    for (int i = 0; i < npts; i++) {
      float got = c == 0 ? out[i].x : c == 1 ? out[i].y : c == 2 ? out[i].z : out[i].w;
      float r = ref_sample(T, 2, co[i].x, co[i].y, 0, 0);
      if (bits(got) != bits(r)) {
        if (bad < 3) printf("FAIL: uchar4 channel %d point %d (%g, %g): got %.9g want %.9g\n", c, i, co[i].x, co[i].y, got, r);
        bad++;
      }
    }
  }
  if (bad) printf("uchar4 normalized-float bilinear: %d of %d fetches differ\n", bad, 4 * npts);
  g_fail += bad;
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFree(dimg));
  CHECK(cudaFree(dco));
  CHECK(cudaFree(dout));
}

// tex1Dfetch over linear memory (zeros out of range) and a short texture in element mode with point sampling
static void run_fetches(int npts) {
  const int n = 40, sw = 5, sh = 4;
  std::vector<int> hi(n);
  std::vector<float> hf(n);
  std::vector<short> hs(sw * sh);
  for (int i = 0; i < n; i++) hi[i] = i * i - 100, hf[i] = 0.5f * i - 3.25f;
  for (int i = 0; i < sw * sh; i++) hs[i] = (short)(i * 1000 - 9000);
  int *di;
  float *df;
  CHECK(cudaMalloc(&di, n * sizeof(int)));
  CHECK(cudaMalloc(&df, n * sizeof(float)));
  CHECK(cudaMemcpy(di, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(df, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeLinear;
  rd.res.linear.devPtr = di;
  rd.res.linear.desc = cudaCreateChannelDesc<int>();
  rd.res.linear.sizeInBytes = n * sizeof(int);
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t ti, tf, ts;
  CHECK(cudaCreateTextureObject(&ti, &rd, &td, NULL));
  rd.res.linear.devPtr = df;
  rd.res.linear.desc = cudaCreateChannelDesc<float>();
  CHECK(cudaCreateTextureObject(&tf, &rd, &td, NULL));
  cudaChannelFormatDesc cs = cudaCreateChannelDesc<short>();
  cudaArray_t as;
  CHECK(cudaMallocArray(&as, &cs, sw, sh));
  CHECK(cudaMemcpy2DToArray(as, 0, 0, hs.data(), sw * sizeof(short), sw * sizeof(short), sh, cudaMemcpyHostToDevice));
  cudaChannelFormatDesc got_desc;
  cudaExtent got_ext;
  unsigned got_flags;
  CHECK(cudaArrayGetInfo(&got_desc, &got_ext, &got_flags, as));
  if (got_desc.x != 16 || got_desc.f != cudaChannelFormatKindSigned || got_ext.width != sw || got_ext.height != sh) {
    printf("FAIL: cudaArrayGetInfo: %d bits kind %d, %zux%zu\n", got_desc.x, (int)got_desc.f, got_ext.width, got_ext.height);
    g_fail++;
  }
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = as;
  td.addressMode[0] = cudaAddressModeBorder;
  td.addressMode[1] = cudaAddressModeClamp;
  CHECK(cudaCreateTextureObject(&ts, &rd, &td, NULL));
  std::vector<float4> co(npts);
  for (int i = 0; i < npts; i++) co[i] = make_float4(-1.5f + 0.37f * (float)(i % 23), -1.0f + 0.29f * (float)(i % 29), 0, 0);
  float4 *dco;
  int *doi, *dos;
  float *dof;
  CHECK(cudaMalloc(&dco, npts * sizeof(float4)));
  CHECK(cudaMalloc(&doi, npts * sizeof(int)));
  CHECK(cudaMalloc(&dos, npts * sizeof(int)));
  CHECK(cudaMalloc(&dof, npts * sizeof(float)));
  CHECK(cudaMemcpy(dco, co.data(), npts * sizeof(float4), cudaMemcpyHostToDevice));
  fetches<<<(npts + 63) / 64, 64>>>(ti, tf, ts, doi, dof, dos, dco, npts);
  CHECK(cudaGetLastError());
  std::vector<int> oi(npts), os(npts);
  std::vector<float> of(npts);
  CHECK(cudaMemcpy(oi.data(), doi, npts * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(of.data(), dof, npts * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(os.data(), dos, npts * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < npts; i++) {
    int k = i - 3;
    int wi = k >= 0 && k < n ? hi[k] : 0;
    float wf = k >= 0 && k < n ? hf[k] : 0.0f;
    long x = (long)floorf(co[i].x), y = (long)floorf(co[i].y);
    y = y < 0 ? 0 : y >= sh ? sh - 1 : y;
    int ws = x < 0 || x >= sw ? 0 : hs[y * sw + x];
    if (oi[i] != wi || bits(of[i]) != bits(wf) || os[i] != ws) {
      if (bad < 3) printf("FAIL: fetch %d: int %d/%d float %g/%g short %d/%d\n", i, oi[i], wi, of[i], wf, os[i], ws);
      bad++;
    }
  }
  g_fail += bad;
  CHECK(cudaDestroyTextureObject(ti));
  CHECK(cudaDestroyTextureObject(tf));
  CHECK(cudaDestroyTextureObject(ts));
  CHECK(cudaFreeArray(as));
  CHECK(cudaFree(di));
  CHECK(cudaFree(df));
  CHECK(cudaFree(dco));
  CHECK(cudaFree(doi));
  CHECK(cudaFree(dos));
  CHECK(cudaFree(dof));
}

int main(int argc, char **argv) {
  int npts = argc > 1 ? atoi(argv[1]) : 300;
  run_geometry(G1D, 13, 0, 0, 0, npts);
  run_geometry(G2D, 11, 7, 0, 0, npts);
  run_geometry(G3D, 5, 4, 3, 0, npts);
  run_geometry(GL1D, 9, 0, 0, 3, npts);
  run_geometry(GL2D, 6, 5, 0, 4, npts);
  run_uchar4(npts);
  run_fetches(npts);
  if (g_fail) { printf("FAIL texture_modes: %d mismatches\n", g_fail); return 1; }
  printf("PASS texture_modes\n");
  return 0;
}
