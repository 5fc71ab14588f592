// warpsim test: __managed__ variable: one address on host and device, atomics from two blocks (seed: unified memory)
#include <cstdio>
__device__ __managed__ int counter = 5;
__global__ void k(){ atomicAdd(&counter, 1); }
int main(){ k<<<2,32>>>(); cudaDeviceSynchronize(); printf("counter=%d %s\n", counter, counter==69?"PASS":"FAIL"); return counter!=69; }
