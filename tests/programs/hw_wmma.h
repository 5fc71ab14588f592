// The body of the hw_wmma_*.cu programs: fragment layouts of wmma.load.{a,b,c} (each element's row and column),
// a store round trip, and the bits of wmma.mma results for fixed inputs, for the types the including file picks
// (HW_F16, HW_BF16, HW_TF32, HW_F64, HW_INT8, HW_SUB).
#include "hw_common.h"
#include <mma.h>
using namespace nvcuda;

// each lane's fragment elements as floats
template <class Use, int M, int N, int K, class T, class L, class MT>
__global__ void k_dump(const MT *src, unsigned ld, float *out) {
  wmma::fragment<Use, M, N, K, T, L> f;
  wmma::load_matrix_sync(f, src, ld);
  for (int i = 0; i < f.num_elements; i++) out[threadIdx.x * f.num_elements + i] = hw_tof(f.x[i]);
}
template <int M, int N, int K, class T>
__global__ void k_dump_acc(const T *src, unsigned ld, int colmajor, float *out) {
  wmma::fragment<wmma::accumulator, M, N, K, T> f;
  wmma::load_matrix_sync(f, src, ld, colmajor ? wmma::mem_col_major : wmma::mem_row_major);
  for (int i = 0; i < f.num_elements; i++) out[threadIdx.x * f.num_elements + i] = hw_tof(f.x[i]);
}
// load then store an accumulator (store layout = load layout?), and store x[i] = lane*64+i
template <int M, int N, int K, class T>
__global__ void k_store(const T *src, unsigned ld, int colmajor, T *dst, T *dst2) {
  wmma::fragment<wmma::accumulator, M, N, K, T> f;
  wmma::layout_t lay = colmajor ? wmma::mem_col_major : wmma::mem_row_major;
  wmma::load_matrix_sync(f, src, ld, lay);
  wmma::store_matrix_sync(dst, f, ld + 4, lay);
  for (int i = 0; i < f.num_elements; i++) f.x[i] = (T)(threadIdx.x * 64 + i);
  wmma::store_matrix_sync(dst2, f, ld, lay);
}

template <class Use, int M, int N, int K, class T, class L, class MT>
static void dump(const char *name, int rows, int cols, bool colmajor) {
  int n = rows * cols;
  MT *hr = new MT[n], *hc = new MT[n];
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      int i = colmajor ? c * rows + r : r * cols + c;
      hr[i] = hw_from<MT>(r); hc[i] = hw_from<MT>(c);
    }
  MT *d; float *o; int nel = wmma::fragment<Use, M, N, K, T, L>().num_elements;
  CHECK(cudaMalloc(&d, n * sizeof(MT))); CHECK(cudaMalloc(&o, 32 * nel * sizeof(float)));
  float *fr = new float[32 * nel], *fc = new float[32 * nel];
  unsigned ld = colmajor ? rows : cols;
  CHECK(cudaMemcpy(d, hr, n * sizeof(MT), cudaMemcpyHostToDevice));
  k_dump<Use, M, N, K, T, L, MT><<<1, 32>>>(d, ld, o); CHECK_LAUNCH();
  CHECK(cudaMemcpy(fr, o, 32 * nel * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(d, hc, n * sizeof(MT), cudaMemcpyHostToDevice));
  k_dump<Use, M, N, K, T, L, MT><<<1, 32>>>(d, ld, o); CHECK_LAUNCH();
  CHECK(cudaMemcpy(fc, o, 32 * nel * sizeof(float), cudaMemcpyDeviceToHost));
  hw_print_layout(name, fr, fc, nel);
  cudaFree(d); cudaFree(o); delete[] hr; delete[] hc; delete[] fr; delete[] fc;
}
template <int M, int N, int K, class T>
static void dump_acc(const char *name, bool colmajor) {
  int n = M * N;
  T *hr = new T[n], *hc = new T[n];
  for (int r = 0; r < M; r++)
    for (int c = 0; c < N; c++) {
      int i = colmajor ? c * M + r : r * N + c;
      hr[i] = hw_from<T>(r); hc[i] = hw_from<T>(c);
    }
  T *d; float *o; int nel = wmma::fragment<wmma::accumulator, M, N, K, T>().num_elements;
  CHECK(cudaMalloc(&d, n * sizeof(T))); CHECK(cudaMalloc(&o, 32 * nel * sizeof(float)));
  float *fr = new float[32 * nel], *fc = new float[32 * nel];
  unsigned ld = colmajor ? M : N;
  CHECK(cudaMemcpy(d, hr, n * sizeof(T), cudaMemcpyHostToDevice));
  k_dump_acc<M, N, K, T><<<1, 32>>>(d, ld, colmajor, o); CHECK_LAUNCH();
  CHECK(cudaMemcpy(fr, o, 32 * nel * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(d, hc, n * sizeof(T), cudaMemcpyHostToDevice));
  k_dump_acc<M, N, K, T><<<1, 32>>>(d, ld, colmajor, o); CHECK_LAUNCH();
  CHECK(cudaMemcpy(fc, o, 32 * nel * sizeof(float), cudaMemcpyDeviceToHost));
  hw_print_layout(name, fr, fc, nel);
  // store round trip with a padded stride, and the stored x[i] = lane*64+i
  int ld2 = ld + 4, n2 = (colmajor ? N : M) * ld2;
  T *s, *s2; CHECK(cudaMalloc(&s, n2 * sizeof(T))); CHECK(cudaMalloc(&s2, n * sizeof(T)));
  CHECK(cudaMemset(s, 0, n2 * sizeof(T)));
  k_store<M, N, K, T><<<1, 32>>>(d, ld, colmajor, s, s2); CHECK_LAUNCH();
  T *hs = new T[n2], *hs2 = new T[n];
  CHECK(cudaMemcpy(hs, s, n2 * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hs2, s2, n * sizeof(T), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < M; r++)
    for (int c = 0; c < N; c++) {
      int i = colmajor ? c * ld2 + r : r * ld2 + c;
      if (memcmp(&hs[i], &hc[colmajor ? c * M + r : r * N + c], sizeof(T)) != 0) bad++;
    }
  printf("store %s roundtrip mismatches %d\n", name, bad);
  printf("store %s x[i]=lane*64+i:", name);
  for (int i = 0; i < n; i++) printf(" %d", (int)hw_hval(hs2[i]));
  printf("\n");
  cudaFree(d); cudaFree(o); cudaFree(s); cudaFree(s2);
  delete[] hr; delete[] hc; delete[] fr; delete[] fc; delete[] hs; delete[] hs2;
}

// D = A*B + C with A, B in the given layouts (memory types MA, MB), C and D row-major of type TC
template <int M, int N, int K, class TI, class TC, class LA, class LB, class MI>
__global__ void k_mma(const MI *a, const MI *b, const TC *c, TC *d, int satf) {
  wmma::fragment<wmma::matrix_a, M, N, K, TI, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, TI, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
  wmma::load_matrix_sync(fa, a, std::is_same<LA, wmma::row_major>::value ? K : M);
  wmma::load_matrix_sync(fb, b, std::is_same<LB, wmma::row_major>::value ? N : K);
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  (void)satf;
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}
#if defined(HW_INT8)
template <int M, int N, int K, class TI, class LA, class LB>
__global__ void k_mma_int(const TI *a, const TI *b, const int *c, int *d, int satf) {
  wmma::fragment<wmma::matrix_a, M, N, K, TI, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, TI, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, int> fc;
  wmma::load_matrix_sync(fa, a, std::is_same<LA, wmma::row_major>::value ? K : M);
  wmma::load_matrix_sync(fb, b, std::is_same<LB, wmma::row_major>::value ? N : K);
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  if (satf) wmma::mma_sync(fc, fa, fb, fc, true); else wmma::mma_sync(fc, fa, fb, fc, false);
  wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}
#endif

// run one mma: A (MxK) and B (KxN) given row-major as floats/ints on the host, converted to MI and laid out
template <int M, int N, int K, class TI, class TC, class LA, class LB, class MI, class HC>
static void run_mma(const char *name, const MI *ha_rm, const MI *hb_rm, const HC *hc, int esz) {
  bool acol = std::is_same<LA, wmma::col_major>::value, bcol = std::is_same<LB, wmma::col_major>::value;
  MI *ha = new MI[M * K], *hb = new MI[K * N];
  for (int i = 0; i < M; i++) for (int k = 0; k < K; k++) ha[acol ? k * M + i : i * K + k] = ha_rm[i * K + k];
  for (int k = 0; k < K; k++) for (int j = 0; j < N; j++) hb[bcol ? j * K + k : k * N + j] = hb_rm[k * N + j];
  MI *da, *db; TC *dc, *dd;
  CHECK(cudaMalloc(&da, M * K * sizeof(MI))); CHECK(cudaMalloc(&db, K * N * sizeof(MI)));
  CHECK(cudaMalloc(&dc, M * N * sizeof(TC))); CHECK(cudaMalloc(&dd, M * N * sizeof(TC)));
  CHECK(cudaMemcpy(da, ha, M * K * sizeof(MI), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, K * N * sizeof(MI), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, hc, M * N * sizeof(TC), cudaMemcpyHostToDevice));
  k_mma<M, N, K, TI, TC, LA, LB, MI><<<1, 32>>>(da, db, dc, dd, 0); CHECK_LAUNCH();
  TC *hd = new TC[M * N];
  CHECK(cudaMemcpy(hd, dd, M * N * sizeof(TC), cudaMemcpyDeviceToHost));
  if (esz == 2) hw_print_hex16(name, hd, M, N); else if (esz == 8) hw_print_hex64(name, hd, M, N); else hw_print_hex32(name, hd, M, N);
  cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd); delete[] ha; delete[] hb; delete[] hd;
}

#define L_ROW wmma::row_major
#define L_COL wmma::col_major
#define MA wmma::matrix_a
#define MB wmma::matrix_b

// the float input sets: 0 random in [-1,1), 1 wide exponents, 2 wide with C cancelling most of the sum
template <int M, int N, int K>
static void float_sets(int set, int elo, int ehi, int mbits, float *a, float *b, float *c) {
  hw_seed(1000 + set * 7 + M + N * 3 + K * 5);
  for (int i = 0; i < M * K; i++) a[i] = set == 0 ? hw_wide(-3, -1, mbits) : hw_wide(elo, ehi, mbits);
  for (int i = 0; i < K * N; i++) b[i] = set == 0 ? hw_wide(-3, -1, mbits) : hw_wide(elo, ehi, mbits);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      if (set == 0) { c[i * N + j] = hw_wide(-4, -1, 23); continue; }
      double s = 0;
      for (int k = 0; k < K; k++) s += (double)a[i * K + k] * (double)b[k * N + j];
      c[i * N + j] = set == 1 ? hw_wide(2 * elo, 2 * ehi, 23) : (float)(-s * (1.0 + ((hw_next() % 5) - 2) * 1e-7));
    }
}

#if defined(HW_F16) || defined(HW_BF16)
template <int M, int N, int K, class T>
static void half_group(const char *tn, int elo, int ehi, int mbits) {
  char nm[96];
  snprintf(nm, sizeof nm, "a.m%dn%dk%d.%s.row", M, N, K, tn); dump<MA, M, N, K, T, L_ROW, T>(nm, M, K, false);
  snprintf(nm, sizeof nm, "a.m%dn%dk%d.%s.col", M, N, K, tn); dump<MA, M, N, K, T, L_COL, T>(nm, M, K, true);
  snprintf(nm, sizeof nm, "b.m%dn%dk%d.%s.row", M, N, K, tn); dump<MB, M, N, K, T, L_ROW, T>(nm, K, N, false);
  snprintf(nm, sizeof nm, "b.m%dn%dk%d.%s.col", M, N, K, tn); dump<MB, M, N, K, T, L_COL, T>(nm, K, N, true);
  float a[M * K], b[K * N], c[M * N];
  T ta[M * K], tb[K * N];
  for (int set = 0; set < 3; set++) {
    float_sets<M, N, K>(set, elo, ehi, mbits, a, b, c);
    for (int i = 0; i < M * K; i++) ta[i] = (T)a[i];
    for (int i = 0; i < K * N; i++) tb[i] = (T)b[i];
    snprintf(nm, sizeof nm, "mma.m%dn%dk%d.%s.f32.rowcol.set%d", M, N, K, tn, set);
    run_mma<M, N, K, T, float, L_ROW, L_COL, T, float>(nm, ta, tb, c, 4);
    if (set == 0) {
      snprintf(nm, sizeof nm, "mma.m%dn%dk%d.%s.f32.colrow.set%d", M, N, K, tn, set);
      run_mma<M, N, K, T, float, L_COL, L_ROW, T, float>(nm, ta, tb, c, 4);
    }
  }
}
#endif

#if defined(HW_F16)
template <int M, int N, int K>
static void f16acc_group() {
  char nm[96];
  snprintf(nm, sizeof nm, "c.m%dn%dk%d.f16.row", M, N, K); dump_acc<M, N, K, __half>(nm, false);
  snprintf(nm, sizeof nm, "c.m%dn%dk%d.f16.col", M, N, K); dump_acc<M, N, K, __half>(nm, true);
  snprintf(nm, sizeof nm, "c.m%dn%dk%d.f32.row", M, N, K); dump_acc<M, N, K, float>(nm, false);
  snprintf(nm, sizeof nm, "c.m%dn%dk%d.f32.col", M, N, K); dump_acc<M, N, K, float>(nm, true);
  float a[M * K], b[K * N], c[M * N];
  __half ta[M * K], tb[K * N], tc[M * N];
  for (int set = 0; set < 3; set++) {
    float_sets<M, N, K>(set, -6, 5, 10, a, b, c);
    for (int i = 0; i < M * K; i++) ta[i] = __float2half(a[i]);
    for (int i = 0; i < K * N; i++) tb[i] = __float2half(b[i]);
    for (int i = 0; i < M * N; i++) tc[i] = __float2half(set == 1 ? c[i] * 1e-3f : c[i]);
    snprintf(nm, sizeof nm, "mma.m%dn%dk%d.f16.f16.rowrow.set%d", M, N, K, set);
    run_mma<M, N, K, __half, __half, L_ROW, L_ROW, __half, __half>(nm, ta, tb, tc, 2);
  }
}
#endif


#if defined(HW_SUB)
namespace ex = wmma::experimental;
// sub-byte fragments: memory words hold their own index, each lane's storage words printed
template <class Use, int M, int N, int K, class T, class L>
__global__ void k_dump_sub(const unsigned *src, unsigned ld, unsigned *out) {
  wmma::fragment<Use, M, N, K, T, L> f;
  wmma::load_matrix_sync(f, src, ld);
  for (int i = 0; i < (int)(sizeof(f.x) / sizeof(f.x[0])); i++) out[threadIdx.x * 8 + i] = (unsigned)f.x[i];
}
template <class T, int K>
__global__ void k_mma_sub(const unsigned *a, const unsigned *b, const int *c, int *d, int op) {
  wmma::fragment<wmma::matrix_a, 8, 8, K, T, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, K, T, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, K, int> fc;
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
  if constexpr (K == 128) {
    if (op) wmma::bmma_sync(fc, fa, fb, fc, ex::bmmaBitOpAND, ex::bmmaAccumulateOpPOPC);
    else wmma::bmma_sync(fc, fa, fb, fc, ex::bmmaBitOpXOR, ex::bmmaAccumulateOpPOPC);
  } else {
    if (op) wmma::mma_sync(fc, fa, fb, fc, true); else wmma::mma_sync(fc, fa, fb, fc, false);
  }
  wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}
template <class Use, int M, int N, int K, class T, class L>
static void dump_sub(const char *name, unsigned ld) {
  unsigned h[32], *d, *o, ho[256];
  for (int i = 0; i < 32; i++) h[i] = i;
  CHECK(cudaMalloc(&d, sizeof h)); CHECK(cudaMalloc(&o, sizeof ho)); CHECK(cudaMemset(o, 0xff, sizeof ho));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  k_dump_sub<Use, M, N, K, T, L><<<1, 32>>>(d, ld, o); CHECK_LAUNCH();
  CHECK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
  printf("words %s\n", name);
  for (int l = 0; l < 32; l++) { printf("  lane %2d:", l); for (int i = 0; i < 8; i++) if (ho[l * 8 + i] != 0xffffffffu) printf(" %u", ho[l * 8 + i]); printf("\n"); }
  cudaFree(d); cudaFree(o);
}
template <class T, int K>
static void mma_sub(const char *name, int op) {
  unsigned ha[32], hb[32]; int hc[64], hd[64];
  hw_seed(555 + K + op);
  for (int i = 0; i < 32; i++) { ha[i] = hw_next(); hb[i] = hw_next(); }
  for (int i = 0; i < 64; i++) { int r = hw_next() % 3; hc[i] = r == 0 ? (int)(hw_next() % 20001) - 10000 : r == 1 ? 2147483647 - (int)(hw_next() % 3000) : -2147483647 - 1 + (int)(hw_next() % 3000); }
  unsigned *da, *db; int *dc, *dd;
  CHECK(cudaMalloc(&da, 128)); CHECK(cudaMalloc(&db, 128)); CHECK(cudaMalloc(&dc, 256)); CHECK(cudaMalloc(&dd, 256));
  CHECK(cudaMemcpy(da, ha, 128, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, hb, 128, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, hc, 256, cudaMemcpyHostToDevice));
  k_mma_sub<T, K><<<1, 32>>>(da, db, dc, dd, op); CHECK_LAUNCH();
  CHECK(cudaMemcpy(hd, dd, 256, cudaMemcpyDeviceToHost));
  hw_print_hex32(name, hd, 8, 8);
  cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd);
}
#endif

int main() {
#if defined(HW_F16)
  half_group<16, 16, 16, __half>("f16", -12, 12, 10);
  half_group<32, 8, 16, __half>("f16", -12, 12, 10);
  half_group<8, 32, 16, __half>("f16", -12, 12, 10);
  f16acc_group<16, 16, 16>();
  f16acc_group<32, 8, 16>();
  f16acc_group<8, 32, 16>();
#endif
#if defined(HW_BF16)
  half_group<16, 16, 16, __nv_bfloat16>("bf16", -40, 40, 7);
  half_group<32, 8, 16, __nv_bfloat16>("bf16", -40, 40, 7);
  half_group<8, 32, 16, __nv_bfloat16>("bf16", -40, 40, 7);
#endif
#if defined(HW_TF32)
  {
    typedef wmma::precision::tf32 T;
    dump<MA, 16, 16, 8, T, L_ROW, float>("a.m16n16k8.tf32.row", 16, 8, false);
    dump<MA, 16, 16, 8, T, L_COL, float>("a.m16n16k8.tf32.col", 16, 8, true);
    dump<MB, 16, 16, 8, T, L_ROW, float>("b.m16n16k8.tf32.row", 8, 16, false);
    dump<MB, 16, 16, 8, T, L_COL, float>("b.m16n16k8.tf32.col", 8, 16, true);
    dump_acc<16, 16, 8, float>("c.m16n16k8.f32.row", false);
    dump_acc<16, 16, 8, float>("c.m16n16k8.f32.col", true);
    float a[16 * 8], b[8 * 16], c[16 * 16];
    char nm[96];
    for (int set = 0; set < 3; set++) {   // full 23-bit significands: does the hardware use the low 13 bits?
      float_sets<16, 16, 8>(set, -30, 30, 23, a, b, c);
      snprintf(nm, sizeof nm, "mma.m16n16k8.tf32.f32.rowcol.set%d", set);
      run_mma<16, 16, 8, T, float, L_ROW, L_COL, float, float>(nm, a, b, c, 4);
      snprintf(nm, sizeof nm, "mma.m16n16k8.tf32.f32.colrow.set%d", set);
      run_mma<16, 16, 8, T, float, L_COL, L_ROW, float, float>(nm, a, b, c, 4);
    }
  }
#endif
#if defined(HW_F64)
  {
    dump<MA, 8, 8, 4, double, L_ROW, double>("a.m8n8k4.f64.row", 8, 4, false);
    dump<MA, 8, 8, 4, double, L_COL, double>("a.m8n8k4.f64.col", 8, 4, true);
    dump<MB, 8, 8, 4, double, L_ROW, double>("b.m8n8k4.f64.row", 4, 8, false);
    dump<MB, 8, 8, 4, double, L_COL, double>("b.m8n8k4.f64.col", 4, 8, true);
    dump_acc<8, 8, 4, double>("c.m8n8k4.f64.row", false);
    dump_acc<8, 8, 4, double>("c.m8n8k4.f64.col", true);
    double a[32], b[32], c[64];
    char nm[96];
    for (int set = 0; set < 3; set++) {
      hw_seed(77 + set);
      for (int i = 0; i < 32; i++) { a[i] = (double)hw_wide(-20, 20, 23) * (1.0 + (hw_next() >> 3) * 0x1p-52); }
      for (int i = 0; i < 32; i++) { b[i] = (double)hw_wide(-20, 20, 23) * (1.0 + (hw_next() >> 3) * 0x1p-52); }
      for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
          double s = 0;
          for (int k = 0; k < 4; k++) s += a[i * 4 + k] * b[k * 8 + j];
          c[i * 8 + j] = set == 0 ? (double)hw_wide(-10, 10, 23) : set == 1 ? -s : -s * (1 + 0x1p-40);
        }
      snprintf(nm, sizeof nm, "mma.m8n8k4.f64.rowcol.set%d", set);
      run_mma<8, 8, 4, double, double, L_ROW, L_COL, double, double>(nm, a, b, c, 8);
    }
  }
#endif
#if defined(HW_INT8)
  {
    char nm[96];
#define INT_SHAPE(M, N, K) \
    dump<MA, M, N, K, signed char, L_ROW, signed char>("a.m" #M "n" #N "k" #K ".s8.row", M, K, false); \
    dump<MA, M, N, K, signed char, L_COL, signed char>("a.m" #M "n" #N "k" #K ".s8.col", M, K, true); \
    dump<MB, M, N, K, signed char, L_ROW, signed char>("b.m" #M "n" #N "k" #K ".s8.row", K, N, false); \
    dump<MB, M, N, K, signed char, L_COL, signed char>("b.m" #M "n" #N "k" #K ".s8.col", K, N, true); \
    dump<MA, M, N, K, unsigned char, L_ROW, unsigned char>("a.m" #M "n" #N "k" #K ".u8.row", M, K, false); \
    dump<MB, M, N, K, unsigned char, L_COL, unsigned char>("b.m" #M "n" #N "k" #K ".u8.col", K, N, true); \
    dump_acc<M, N, K, int>("c.m" #M "n" #N "k" #K ".s32.row", false); \
    dump_acc<M, N, K, int>("c.m" #M "n" #N "k" #K ".s32.col", true);
    INT_SHAPE(16, 16, 16) INT_SHAPE(32, 8, 16) INT_SHAPE(8, 32, 16)
    // saturation: C near the s32 limits, products of 127*127 or -128*127 over k=16
    signed char a[256], b[256]; unsigned char ua[256], ub[256]; int c[256];
    hw_seed(4242);
    for (int i = 0; i < 256; i++) { a[i] = (signed char)(hw_next() & 255); b[i] = (signed char)(hw_next() & 255); ua[i] = (unsigned char)a[i]; ub[i] = (unsigned char)b[i]; }
    for (int i = 0; i < 256; i++) { int r = hw_next() % 3; c[i] = r == 0 ? (int)(hw_next() % 2000001) - 1000000 : r == 1 ? 2147483647 - (int)(hw_next() % 300000) : -2147483647 - 1 + (int)(hw_next() % 300000); }
    for (int satf = 0; satf < 2; satf++) {
      const int M = 16, N = 16, K = 16;
      signed char *da, *db; unsigned char *dua, *dub; int *dc, *dd, hd[256];
      CHECK(cudaMalloc(&da, 256)); CHECK(cudaMalloc(&db, 256)); CHECK(cudaMalloc(&dua, 256)); CHECK(cudaMalloc(&dub, 256));
      CHECK(cudaMalloc(&dc, 1024)); CHECK(cudaMalloc(&dd, 1024));
      CHECK(cudaMemcpy(da, a, 256, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, b, 256, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dua, ua, 256, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(dub, ub, 256, cudaMemcpyHostToDevice));
      CHECK(cudaMemcpy(dc, c, 1024, cudaMemcpyHostToDevice));
      k_mma_int<M, N, K, signed char, L_ROW, L_COL><<<1, 32>>>(da, db, dc, dd, satf); CHECK_LAUNCH();
      CHECK(cudaMemcpy(hd, dd, 1024, cudaMemcpyDeviceToHost));
      snprintf(nm, sizeof nm, "mma.m16n16k16.s8.rowcol.satf%d", satf); hw_print_hex32(nm, hd, 16, 16);
      k_mma_int<M, N, K, unsigned char, L_ROW, L_ROW><<<1, 32>>>(dua, dub, dc, dd, satf); CHECK_LAUNCH();
      CHECK(cudaMemcpy(hd, dd, 1024, cudaMemcpyDeviceToHost));
      snprintf(nm, sizeof nm, "mma.m16n16k16.u8.rowrow.satf%d", satf); hw_print_hex32(nm, hd, 16, 16);
      cudaFree(da); cudaFree(db); cudaFree(dua); cudaFree(dub); cudaFree(dc); cudaFree(dd);
    }
  }
#endif
#if defined(HW_SUB)
  dump_sub<MA, 8, 8, 32, ex::precision::u4, L_ROW>("a.m8n8k32.u4.row", 32);
  dump_sub<MB, 8, 8, 32, ex::precision::u4, L_COL>("b.m8n8k32.u4.col", 32);
  dump_sub<MA, 8, 8, 32, ex::precision::s4, L_ROW>("a.m8n8k32.s4.row", 32);
  dump_sub<MB, 8, 8, 32, ex::precision::s4, L_COL>("b.m8n8k32.s4.col", 32);
  dump_sub<MA, 8, 8, 128, ex::precision::b1, L_ROW>("a.m8n8k128.b1.row", 128);
  dump_sub<MB, 8, 8, 128, ex::precision::b1, L_COL>("b.m8n8k128.b1.col", 128);
  dump_acc<8, 8, 32, int>("c.m8n8k32.s32.row", false);
  dump_acc<8, 8, 32, int>("c.m8n8k32.s32.col", true);
  dump_acc<8, 8, 128, int>("c.m8n8k128.s32.row", false);
  mma_sub<ex::precision::u4, 32>("mma.m8n8k32.u4", 0);
  mma_sub<ex::precision::u4, 32>("mma.m8n8k32.u4.satf", 1);
  mma_sub<ex::precision::s4, 32>("mma.m8n8k32.s4", 0);
  mma_sub<ex::precision::s4, 32>("mma.m8n8k32.s4.satf", 1);
  mma_sub<ex::precision::b1, 128>("mma.m8n8k128.b1.xor", 0);
  mma_sub<ex::precision::b1, 128>("mma.m8n8k128.b1.and", 1);
#endif
  printf("PASS hw_wmma\n");
  return 0;
}
