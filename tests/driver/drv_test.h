/* drv_test.h - helpers of the driver-API tests: check a CUresult (naming the call and the error), read a file. */
#ifndef DRV_TEST_H
#define DRV_TEST_H

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

/* Stop the test when a driver call does not return CUDA_SUCCESS. */
#define CK(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) { const char *n_ = "?"; cuGetErrorName(r_, &n_); \
    fprintf(stderr, "FAIL %s:%d: %s -> %d %s\n", __FILE__, __LINE__, #call, (int)r_, n_); exit(1); } } while (0)
/* Stop the test when a driver call does not return the expected code. */
#define CKE(call, want) do { CUresult r_ = (call); if (r_ != (want)) { const char *n_ = "?"; cuGetErrorName(r_, &n_); \
    fprintf(stderr, "FAIL %s:%d: %s -> %d %s, want %s\n", __FILE__, __LINE__, #call, (int)r_, n_, #want); exit(1); } \
    } while (0)
/* Stop the test when a condition is false. */
#define EXPECT(c) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); exit(1); } } while (0)

/* The whole file at path, NUL-terminated (exits when it cannot be read). */
static inline char *drv_test_slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "FAIL cannot open %s\n", path); exit(1); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "FAIL cannot read %s\n", path); exit(1); }
    buf[n] = 0;
    fclose(f);
    if (size) *size = (size_t)n;
    return buf;
}

#endif
