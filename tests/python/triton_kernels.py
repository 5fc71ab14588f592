"""triton_kernels.py - Triton kernels (Triton compiles them to PTX, its ptxas to a cubin: warpsim runs the PTX
that `warpsim ptxas` kept) on CuPy arrays, checked against NumPy: a vector add, a row softmax (tl.max, tl.sum,
tl.exp) and a tiled matrix product with tl.dot, which on the H200 preset (sm_90) becomes wgmma with shared-memory
operands in K-major and MN-major (transposed) layouts, in f16 and tf32. Prints PASS triton_kernels.
usage: triton_kernels.py [quick]   (quick: the vector add and one product, for timing mode)"""
import sys
import numpy as np
import cupy as cp
import triton
import triton.language as tl


class Ptr:
    """A CuPy array as Triton takes a tensor: a data pointer and a dtype (Triton needs no PyTorch)."""

    def __init__(self, a):
        self.a = a
        self.dtype = a.dtype

    def data_ptr(self):
        return self.a.data.ptr


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


@triton.jit
def softmax_kernel(x, out, ncols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + row * stride + cols, mask=cols < ncols, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(out + row * stride + cols, e / tl.sum(e, axis=0), mask=cols < ncols)


@triton.jit
def matmul_kernel(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        ka = k0 + rk
        x = tl.load(a + rm[:, None] * sam + ka[None, :] * sak, mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        y = tl.load(b + ka[:, None] * sbk + rn[None, :] * sbn, mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * scm + rn[None, :] * scn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def vector_add(n):
    x = cp.arange(n, dtype=cp.float32)
    y = cp.full(n, 0.5, dtype=cp.float32)
    o = cp.zeros(n, dtype=cp.float32)
    add_kernel[(triton.cdiv(n, 1024),)](Ptr(x), Ptr(y), Ptr(o), n, BLOCK=1024)
    assert np.array_equal(cp.asnumpy(o), np.arange(n, dtype=np.float32) + 0.5), "vector add"


def softmax(rows, cols):
    x = np.random.default_rng(2).standard_normal((rows, cols)).astype(np.float32)
    d = cp.asarray(x)
    o = cp.zeros_like(d)
    softmax_kernel[(rows,)](Ptr(d), Ptr(o), cols, cols, BLOCK=triton.next_power_of_2(cols))
    e = np.exp(x - x.max(axis=1, keepdims=True))
    ref = e / e.sum(axis=1, keepdims=True)
    err = np.abs(cp.asnumpy(o) - ref).max()
    assert err < 1e-6, "softmax: max error %g" % err


def matmul(dt, M, N, K, BN, transposed_a):
    """C = A B with small integers (every product and sum exact in f16/tf32 inputs and f32 accumulation)."""
    rng = np.random.default_rng(M + N + K + BN)
    A = rng.integers(-3, 4, (M, K)).astype(dt)
    B = rng.integers(-3, 4, (K, N)).astype(dt)
    b = cp.asarray(B)
    c = cp.zeros((M, N), dtype=cp.float32)
    if transposed_a:   # A stored column by column: Triton's A tile is MN-major in shared memory
        a = cp.asarray(np.ascontiguousarray(A.T))
        sam, sak = 1, M
    else:
        a = cp.asarray(A)
        sam, sak = K, 1
    matmul_kernel[(triton.cdiv(M, 64), triton.cdiv(N, BN))](Ptr(a), Ptr(b), Ptr(c), M, N, K, sam, sak, N, 1, N, 1,
                                                             BM=64, BN=BN, BK=32)
    ref = (A.astype(np.float64) @ B.astype(np.float64)).astype(np.float32)
    got = cp.asnumpy(c)
    assert np.array_equal(got, ref), "matmul %s BN=%d%s: max error %g" % (
        np.dtype(dt).name, BN, " (A transposed)" if transposed_a else "", np.abs(got - ref).max())


quick = len(sys.argv) > 1 and sys.argv[1] == "quick"
vector_add(10000)
if quick:
    matmul(np.float16, 64, 64, 64, 32, False)
else:
    softmax(8, 200)
    for BN in (8, 16, 32, 64):           # B tile rows of 16-128 bytes: no swizzle, 32B, 64B and 128B swizzles
        matmul(np.float16, 128, 96, 96, BN, False)
    matmul(np.float16, 128, 96, 64, 64, True)
    matmul(np.float32, 128, 96, 64, 32, True)   # tf32 (Triton's default precision for f32 dots)
print("PASS triton_kernels")
