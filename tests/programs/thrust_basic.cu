// warpsim test: Thrust (CCCL) reduce and sort on device vectors: heavy nvcc-generated PTX (bmsk, templates) (seed: libraries on top of CUDA)
#include <thrust/device_vector.h>
#include <thrust/sequence.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <cstdio>
int main(){
  thrust::device_vector<int> v(1000);
  thrust::sequence(v.begin(), v.end());
  long s = thrust::reduce(v.begin(), v.end(), 0L);
  thrust::device_vector<int> w(v.rbegin(), v.rend());
  thrust::sort(w.begin(), w.end());
  int first = w[0], last = w[999];
  printf("sum=%ld first=%d last=%d %s\n", s, first, last, (s==499500 && first==0 && last==999)?"PASS":"FAIL");
  return !(s==499500 && first==0 && last==999);
}
