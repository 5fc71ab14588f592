// units.h - what the two units of tests/rdc's separate-compilation program share.
#ifndef RDC_UNITS_H
#define RDC_UNITS_H
#define NOPS 3
typedef int (*binop_t)(int, int);
extern __device__ int g_bias;
extern __device__ binop_t g_ops[NOPS];
__device__ int weigh(int x);
__global__ void fill_kernel(int *out, int n, int v);   /* launched from the other unit's kernel (CDP2) */
int set_bias_here(int v);
int weigh_ref(int x);
#endif
