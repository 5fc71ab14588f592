"""numba_stencil.py - a Numba @cuda.jit 1D stencil (radius 3) with a shared-memory tile and syncthreads, on
device arrays, checked against NumPy. Usage: python3 numba_stencil.py [N]"""
import sys
import numpy as np
from numba import cuda

R = 3
TPB = 128
TILE = TPB + 2 * R   # the shared tile: the block and a halo of R on each side


@cuda.jit
def stencil(x, y, n):
    tile = cuda.shared.array(TILE, dtype=np.float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x + R
    tile[t] = x[i] if i < n else 0.0
    if cuda.threadIdx.x < R:
        lo = i - R
        hi = i + TPB
        tile[t - R] = x[lo] if lo >= 0 and lo < n else 0.0
        tile[t + TPB] = x[hi] if hi < n else 0.0
    cuda.syncthreads()
    if i < n:
        s = 0.0
        for k in range(-R, R + 1):
            s += tile[t + k] * (k + 4)
        y[i] = s


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    x = (np.arange(n, dtype=np.float32) % 97) * 0.5
    dx = cuda.to_device(x)
    dy = cuda.device_array_like(dx)
    stencil[(n + TPB - 1) // TPB, TPB](dx, dy, n)
    y = dy.copy_to_host()
    xp = np.concatenate([np.zeros(R, np.float32), x, np.zeros(R, np.float32)])
    want = sum(xp[R + k:R + k + n] * np.float32(k + 4) for k in range(-R, R + 1))
    assert np.allclose(y, want, rtol=1e-5), (y[:8], want[:8])
    print("PASS numba_stencil")


main()
