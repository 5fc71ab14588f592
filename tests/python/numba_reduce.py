"""numba_reduce.py - Numba @cuda.jit reductions checked against NumPy: a block-wise tree sum in shared memory with
syncthreads whose block partials are added with cuda.atomic.add, and an integer histogram with atomics, both
launched on a stream with device arrays copied asynchronously. Usage: python3 numba_reduce.py [N]"""
import sys
import numpy as np
from numba import cuda

TPB = 256
BINS = 16


@cuda.jit
def block_sum(x, total, n):
    s = cuda.shared.array(TPB, dtype=np.float64)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    s[t] = x[i] if i < n else 0.0
    cuda.syncthreads()
    w = TPB // 2
    while w > 0:
        if t < w:
            s[t] += s[t + w]
        cuda.syncthreads()
        w //= 2
    if t == 0:
        cuda.atomic.add(total, 0, s[0])


@cuda.jit
def histogram(v, hist, n):
    i = cuda.grid(1)
    stride = cuda.gridsize(1)
    while i < n:
        cuda.atomic.add(hist, v[i] % BINS, 1)
        i += stride


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    x = ((np.arange(n) * 37) % 1001).astype(np.float64) * 0.125   # sums of these are exact in float64
    v = ((np.arange(n, dtype=np.int64) * 7919) % 100003).astype(np.int32)
    stream = cuda.stream()
    dx = cuda.to_device(x, stream=stream)
    dv = cuda.to_device(v, stream=stream)
    total = cuda.to_device(np.zeros(1, np.float64), stream=stream)
    hist = cuda.to_device(np.zeros(BINS, np.int32), stream=stream)
    blocks = (n + TPB - 1) // TPB
    block_sum[blocks, TPB, stream](dx, total, n)
    histogram[32, 128, stream](dv, hist, n)
    got_total = total.copy_to_host(stream=stream)
    got_hist = hist.copy_to_host(stream=stream)
    stream.synchronize()
    assert got_total[0] == x.sum(), (got_total[0], x.sum())
    want_hist = np.bincount(v % BINS, minlength=BINS)
    assert (got_hist == want_hist).all(), (got_hist, want_hist)
    print("sum %.3f over %d blocks, histogram %s" % (got_total[0], blocks, got_hist[:4]))
    print("PASS numba_reduce")


main()
