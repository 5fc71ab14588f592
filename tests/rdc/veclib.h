// veclib.h - the device library of tests/rdc (nvcc -rdc=true -lib -o libveclib.a veclib.cu).
#ifndef RDC_VECLIB_H
#define RDC_VECLIB_H
__device__ float lib_poly(float x);             /* 1 + x/2 + x^2/4 */
extern __device__ unsigned lib_calls;           /* how many times lib_poly ran */
// A helper both the library and the program instantiate (a weak definition in each unit's PTX).
template <typename T> __device__ __noinline__ T clamp_to(T x, T lo, T hi) { return x < lo ? lo : x > hi ? hi : x; }
void lib_scale(float *d, int n, float s);       /* launches the library's own kernel */
#endif
