"""cupy_fft.py - cupy.fft checked against numpy.fft: fft and ifft (complex64 of a power of two, a 3*5*7 length
and the prime 127 (Bluestein), complex128 of 1000), rfft and irfft (float32 and float64, even and odd lengths),
fft2 and ifft2, rfft2, and a batched fft along an axis. Under warpsim the transforms are warpsim's own
libcufft.so.12 (our kernels). Every element is within tol * max |X| of NumPy's result (computed in double),
tol = C * eps * log2(N), C = 2 (3 for 127). Prints PASS cupy_fft. Usage: python3 cupy_fft.py [SCALE]"""
import sys
import numpy as np
import cupy as cp

failures = []


def check(what, got, ref, single, n, c=2.0):
    """Compare a CuPy result with NumPy's (double) relative to the largest magnitude of the reference."""
    got = cp.asnumpy(got)
    eps = np.finfo(np.float32 if single else np.float64).eps
    tol = c * eps * max(np.log2(max(n, 2)), 1.0)
    scale = np.abs(ref).max()
    err = np.abs(got.astype(ref.dtype) - ref).max() / (scale if scale else 1.0)
    if got.shape != ref.shape or not err <= tol:
        failures.append("%s: shape %s (want %s), error %.3g relative (tol %.2g)" % (what, got.shape, ref.shape,
                                                                                    err, tol))


def main():
    scale = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    rng = np.random.default_rng(5)

    for n in (256 * scale, 105, 127):
        x = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
        xd = cp.asarray(x)
        c = 3.0 if n == 127 else 2.0
        check("fft complex64 %d" % n, cp.fft.fft(xd), np.fft.fft(x.astype(np.complex128)), True, n, c)
        check("ifft complex64 %d" % n, cp.fft.ifft(xd), np.fft.ifft(x.astype(np.complex128)), True, n, c)
    x = rng.standard_normal(1000) + 1j * rng.standard_normal(1000)
    check("fft complex128 1000", cp.fft.fft(cp.asarray(x)), np.fft.fft(x), False, 1000)

    for n, dtype in ((200, np.float32), (63, np.float32), (128, np.float64)):
        r = rng.standard_normal(n).astype(dtype)
        single = dtype == np.float32
        spec = cp.fft.rfft(cp.asarray(r))
        check("rfft %s %d" % (np.dtype(dtype).name, n), spec, np.fft.rfft(r.astype(np.float64)), single, n)
        check("irfft %s %d" % (np.dtype(dtype).name, n), cp.fft.irfft(spec, n), r.astype(np.float64), single, n)

    a = (rng.standard_normal((24, 40)) + 1j * rng.standard_normal((24, 40))).astype(np.complex64)
    ad = cp.asarray(a)
    check("fft2 complex64 24x40", cp.fft.fft2(ad), np.fft.fft2(a.astype(np.complex128)), True, 40)
    check("ifft2 complex64 24x40", cp.fft.ifft2(ad), np.fft.ifft2(a.astype(np.complex128)), True, 40)
    b = rng.standard_normal((16, 30))
    check("rfft2 float64 16x30", cp.fft.rfft2(cp.asarray(b)), np.fft.rfft2(b), False, 30)
    m = (rng.standard_normal((6, 48)) + 1j * rng.standard_normal((6, 48))).astype(np.complex64)
    check("fft along axis 0 of 6x48", cp.fft.fft(cp.asarray(m), axis=0),
          np.fft.fft(m.astype(np.complex128), axis=0), True, 6)

    for f in failures:
        print("FAIL " + f)
    if failures:
        sys.exit(1)
    print("PASS cupy_fft")


if __name__ == "__main__":
    main()
