"""cupy_basics.py - CuPy checked against NumPy: an array expression (saxpy), an ElementwiseKernel, reductions
(cupy.sum, along an axis, a ReductionKernel), a RawKernel, a RawModule with a template kernel found by its name
expression, and a matrix product (cuBLAS: under warpsim, warpsim's own libcublas.so.13), exact.
Prints PASS cupy_basics. Usage: python3 cupy_basics.py [N]"""
import sys
import numpy as np
import cupy as cp


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    xh = (np.arange(n) % 101).astype(np.float32) * 0.5
    yh = (np.arange(n) % 7).astype(np.float32)
    x, y = cp.asarray(xh), cp.asarray(yh)

    z = 2.0 * x + y
    assert np.array_equal(cp.asnumpy(z), np.float32(2.0) * xh + yh)

    axpb = cp.ElementwiseKernel("float32 x, float32 a, float32 b", "float32 y", "y = a * x + b", "axpb")
    assert np.array_equal(cp.asnumpy(axpb(x, np.float32(3), np.float32(-1))), np.float32(3) * xh - 1)

    assert float(cp.sum(x)) == float(xh.astype(np.float64).sum())
    sumsq = cp.ReductionKernel("float32 x", "float64 s", "(double)x * x", "a + b", "s = a", "0", "sumsq")
    assert float(sumsq(x)) == float((xh.astype(np.float64) ** 2).sum())

    raw = cp.RawKernel(r'''
    extern "C" __global__ void scale(const float *x, float *y, float s, int n)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = s * x[i];
    }''', "scale")
    out = cp.empty_like(x)
    raw(((n + 127) // 128,), (128,), (x, out, np.float32(4), np.int32(n)))
    assert np.array_equal(cp.asnumpy(out), np.float32(4) * xh)

    mod = cp.RawModule(code=r'''
    template <typename T> __global__ void add(const T *a, const T *b, T *c, int n)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) c[i] = a[i] + b[i];
    }''', name_expressions=["add<float>"])
    add = mod.get_function("add<float>")
    add(((n + 127) // 128,), (128,), (x, y, out, np.int32(n)))
    assert np.array_equal(cp.asnumpy(out), xh + yh)
    m = x[:12].reshape(3, 4)
    assert np.array_equal(cp.asnumpy(m.sum(axis=0)), xh[:12].reshape(3, 4).sum(axis=0))

    p = cp.asnumpy(m @ m.T)
    assert np.array_equal(p, xh[:12].reshape(3, 4) @ xh[:12].reshape(3, 4).T)
    print("PASS cupy_basics")


main()
