"""cupy_random.py - CuPy's legacy random API (cupy.random.seed, rand, randn, uniform and RandomState with other
methods: cuRAND's host API, under warpsim warpsim's own libcurand.so.10) checked against what NVIDIA's cuRAND wrote
on an H200 for the same calls (the FNV-1a hashes in tests/data/h200/curand/curand_host.txt, bit for bit), and
uniform and normal samples by their range, mean and variance. Prints PASS cupy_random.
Usage: python3 cupy_random.py [N] (run from the repository root)"""
import sys
import numpy as np
import cupy as cp
from cupy_backends.cuda.libs import curand


def fnv(data):
    """FNV-1a, 64 bits, of bytes (as curand_host.cu hashes a case's output)."""
    h = 1469598103934665603
    for c in data:
        h = ((h ^ c) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def h200(case):
    """The hash NVIDIA's cuRAND gave for a case of curand_host.cu."""
    for line in open("tests/data/h200/curand/curand_host.txt"):
        f = line.split()
        if f[:2] == ["case", case]:
            return f[3]
    raise KeyError(case)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000

    # cupy.random.seed(42); rand; randn; rand float32: curandGenerateUniformDouble, NormalDouble, Uniform (XORWOW)
    cp.random.seed(42)
    a, b = cp.random.rand(1000), cp.random.randn(1000)
    c = cp.random.rand(1000, dtype=cp.float32)
    got = fnv(a.get().tobytes() + b.get().tobytes() + c.get().tobytes())
    assert got == h200("xorwow_cupy_s42"), ("seed 42", got, a[:4], b[:4], c[:4])

    # RandomState(1234) with MRG32k3a and Philox: two calls of curandGenerateUniformDouble (4096, 1001 values)
    for method, case in ((curand.CURAND_RNG_PSEUDO_MRG32K3A, "mrg_ud"),
                         (curand.CURAND_RNG_PSEUDO_PHILOX4_32_10, "philox_ud"),
                         (curand.CURAND_RNG_PSEUDO_XORWOW, "xorwow_ud")):
        rs = cp.random.RandomState(1234, method=method)
        x, y = rs.rand(4096), rs.rand(1001)
        got = fnv(x.get().tobytes() + y.get().tobytes())
        assert got == h200(case), (case, got, x[:4])

    # distributions
    cp.random.seed(7)
    u = cp.random.uniform(-2.0, 3.0, size=n).get()
    assert u.min() >= -2.0 and u.max() < 3.0, (u.min(), u.max())
    se = 5.0 / np.sqrt(12 * n)
    assert abs(u.mean() - 0.5) < 6 * se and abs(u.var() - 25.0 / 12) < 0.05 * 25 / 12, (u.mean(), u.var())
    z = cp.random.randn(n).get()
    assert abs(z.mean()) < 6 / np.sqrt(n) and abs(z.var() - 1.0) < 0.05, (z.mean(), z.var())
    g = cp.random.normal(10.0, 2.0, size=n, dtype=cp.float32).get()
    assert g.dtype == np.float32 and abs(g.mean() - 10.0) < 6 * 2 / np.sqrt(n) and abs(g.std() - 2.0) < 0.1
    print("PASS cupy_random")


if __name__ == "__main__":
    main()
