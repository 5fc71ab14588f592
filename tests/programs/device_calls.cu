// warpsim test: real device-function calls: __noinline__ functions with many arguments (int, float, double, 64-bit, pointer), structs passed and returned by value, recursion (factorial, Fibonacci, Ackermann), indirect calls through device function pointers, __host__ __device__ helpers shared with the CPU reference (seed: 003 Module 5.2 function qualifiers, 7.1 __device__ helpers)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    printf("FAIL: CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_), cudaGetErrorString(err_), \
           __FILE__, __LINE__, #call); exit(1); } } while (0)
#define CHECK_LAUNCH() do { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); } while (0)
static int g_fail = 0;
#define EXPECT(cond, ...) do { if (!(cond)) { if (g_fail < 8) { printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } g_fail++; } } while (0)

struct Particle { float x, y, z; int id; double mass; char tag; };
struct Pair { long long a; int b; float c; };

__host__ __device__ __noinline__ long long many_args(int a, int b, int c, int d, long long e, float f, double g, unsigned h, short i, const int *p) {
  return (long long)a * 3 + b * 5 - c * 7 + d * 11 + e + (long long)(f * 4.0f) + (long long)(g * 8.0) + h + i + p[a & 3];
}

__host__ __device__ __noinline__ Particle advance(Particle p, float dt, int steps) {   // struct in, struct out
  for (int s = 0; s < steps; s++) { p.x += dt * (float)p.id; p.y -= dt; p.z = p.z * 0.5f + 1.0f; }
  p.mass *= 2.0;
  p.tag = (char)(p.tag + steps);
  return p;
}

__host__ __device__ __noinline__ Pair combine(Pair l, Pair r) {
  Pair o; o.a = l.a * 31 + r.a; o.b = l.b ^ r.b; o.c = l.c + 2.0f * r.c; return o;
}

__host__ __device__ __noinline__ long long factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }
__host__ __device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__host__ __device__ __noinline__ int ackermann(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}
// mutual recursion
__host__ __device__ __noinline__ bool is_odd(unsigned n);
__host__ __device__ __noinline__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__host__ __device__ __noinline__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

// indirect calls
typedef int (*binop)(int, int);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_max(int a, int b) { return a > b ? a : b; }
__device__ binop d_ops[4] = {op_add, op_sub, op_mul, op_max};
static int h_op(int k, int a, int b) { switch (k) { case 0: return a + b; case 1: return a - b; case 2: return a * b; default: return a > b ? a : b; } }

#define NO 10
__global__ void calls(const int *in, const int *table, long long *out, Particle *pout, Pair *qout) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[t];
  long long *o = out + t * NO;
  o[0] = many_args(x, x + 1, x * 2, -x, (long long)x << 33, 0.25f * x, 0.125 * x, (unsigned)x * 7u, (short)(x - 100), table);
  o[1] = factorial(x % 21);                           // 20! fits in 64 bits
  o[2] = fib(x % 16);                                 // divergent recursion depth per lane
  o[3] = ackermann(x % 3, x % 4);
  o[4] = is_even((unsigned)(x % 40));
  o[5] = d_ops[x & 3](x, t);                           // per-lane indirect call target
  binop f = (t & 1) ? op_mul : op_sub;
  o[6] = f(x, 3);
  Particle p; p.x = (float)x; p.y = 1.5f; p.z = -2.0f; p.id = t; p.mass = 0.5 + x; p.tag = (char)(t & 63);
  pout[t] = advance(p, 0.5f, x % 5);
  Pair a; a.a = x; a.b = t; a.c = 0.5f;
  Pair b; b.a = -3; b.b = 0x55; b.c = (float)x;
  qout[t] = combine(combine(a, b), a);
  o[7] = 0; o[8] = 0; o[9] = 0;
}

int main() {
  const int blocks = 2, tpb = 64, n = blocks * tpb;
  std::vector<int> in(n);
  for (int i = 0; i < n; i++) in[i] = (i * 37 + 11) % 97;
  int table[4] = {1000, 2000, 3000, 4000};
  int *d_in, *d_table; long long *d_out; Particle *d_p; Pair *d_q;
  CHECK(cudaMalloc(&d_in, n * sizeof(int))); CHECK(cudaMalloc(&d_table, sizeof table));
  CHECK(cudaMalloc(&d_out, n * NO * sizeof(long long))); CHECK(cudaMalloc(&d_p, n * sizeof(Particle))); CHECK(cudaMalloc(&d_q, n * sizeof(Pair)));
  // the structs' padding is never written by the kernel, and the host copies whole structs back (initcheck)
  CHECK(cudaMemset(d_p, 0, n * sizeof(Particle))); CHECK(cudaMemset(d_q, 0, n * sizeof(Pair)));
  CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_table, table, sizeof table, cudaMemcpyHostToDevice));
  // recursion needs a call stack; make sure the default is enough for ackermann(2, 3) and fib(15)
  CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
  calls<<<blocks, tpb>>>(d_in, d_table, d_out, d_p, d_q);
  CHECK_LAUNCH();
  std::vector<long long> out(n * NO); std::vector<Particle> P(n); std::vector<Pair> Q(n);
  CHECK(cudaMemcpy(out.data(), d_out, n * NO * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(P.data(), d_p, n * sizeof(Particle), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(Q.data(), d_q, n * sizeof(Pair), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int x = in[t];
    long long e[NO] = {many_args(x, x + 1, x * 2, -x, (long long)x << 33, 0.25f * x, 0.125 * x, (unsigned)x * 7u, (short)(x - 100), table),
                       factorial(x % 21), fib(x % 16), ackermann(x % 3, x % 4), is_even((unsigned)(x % 40)),
                       h_op(x & 3, x, t), (t & 1) ? x * 3 : x - 3, 0, 0, 0};
    for (int k = 0; k < NO; k++) EXPECT(out[t * NO + k] == e[k], "thread %d (x=%d) result %d = %lld, expected %lld", t, x, k, out[t * NO + k], e[k]);
    Particle p; p.x = (float)x; p.y = 1.5f; p.z = -2.0f; p.id = t; p.mass = 0.5 + x; p.tag = (char)(t & 63);
    Particle r = advance(p, 0.5f, x % 5);
    EXPECT(P[t].x == r.x && P[t].y == r.y && P[t].z == r.z && P[t].id == r.id && P[t].mass == r.mass && P[t].tag == r.tag,
           "thread %d: struct by value: (%g %g %g %d %g %d), expected (%g %g %g %d %g %d)", t, P[t].x, P[t].y, P[t].z, P[t].id, P[t].mass, P[t].tag,
           r.x, r.y, r.z, r.id, r.mass, r.tag);
    Pair a; a.a = x; a.b = t; a.c = 0.5f;
    Pair b; b.a = -3; b.b = 0x55; b.c = (float)x;
    Pair q = combine(combine(a, b), a);
    EXPECT(Q[t].a == q.a && Q[t].b == q.b && Q[t].c == q.c, "thread %d: Pair = (%lld %d %g), expected (%lld %d %g)", t, Q[t].a, Q[t].b, Q[t].c, q.a, q.b, q.c);
  }
  printf("noinline calls with 10 args, structs by value, recursion (20! = %lld, fib(15) = %d, A(2,3) = %d), function pointers: ok\n",
         factorial(20), fib(15), ackermann(2, 3));
  CHECK(cudaFree(d_in)); CHECK(cudaFree(d_table)); CHECK(cudaFree(d_out)); CHECK(cudaFree(d_p)); CHECK(cudaFree(d_q));
  if (g_fail) { printf("FAIL: device_calls: %d check(s) failed\n", g_fail); return 1; }
  printf("PASS device_calls\n");
  return 0;
}
