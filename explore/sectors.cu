// sectors.cu - `warpsim explore sectors`: one warp, one load instruction. Lane l loads the float at byte address
// base + 4 x stride x l (base is 32-byte aligned, plus an optional offset); each lane also writes down the byte
// offset it loaded from, so the explorer can draw lanes -> addresses -> 32-byte sectors -> 128-byte lines. Then the
// {x, y} records: the x of 32 records from an array of structures, and from a separate x[] array.
// Usage: sectors [offset=0] STRIDE... (e.g. sectors 1 2 4 8 16 32)
#include <cstdio>
#include <cstdlib>
#include <cstring>

struct point { float x, y; };   // an array of structures: neighbouring x values are 8 bytes apart

__global__ void strided(const float *base, float *out, long long *offset, int stride)
{
    int l = threadIdx.x;
    const float *p = base + stride * l;
    out[l] = *p;                                          // the load being counted
    offset[l] = (const char *)p - (const char *)base;     // the byte offset this lane asked for
}

__global__ void aos_x(const point *rec, float *out, long long *offset)
{
    int l = threadIdx.x;
    out[l] = rec[l].x;
    offset[l] = (const char *)&rec[l].x - (const char *)rec;
}

__global__ void soa_x(const float *x, float *out, long long *offset)
{
    int l = threadIdx.x;
    out[l] = x[l];
    offset[l] = (const char *)&x[l] - (const char *)x;
}

// Print one launch's record: its label, stride, the lanes' byte offsets, and whether it ran.
static void show(int first, const char *label, int stride, const long long *off, int lanes, cudaError_t e)
{
    printf("%s{\"label\": \"%s\", \"stride\": %d, \"error\": \"%s\", \"offsets\": [", first ? "" : ", ", label, stride,
           cudaGetErrorName(e));
    for (int l = 0; l < lanes; l++) printf("%s%lld", l ? ", " : "", off[l]);
    printf("]}");
}

int main(int argc, char **argv)
{
    int offset = 0, first = 1, lanes = 32;
    char *buf;
    float *out;
    long long *dev_off, host_off[32];
    cudaMalloc(&buf, 32 * 32 * 4 + 256);
    cudaMalloc(&out, 32 * sizeof(float));
    cudaMalloc(&dev_off, 32 * sizeof(long long));
    cudaMemset(buf, 0, 32 * 32 * 4 + 256);
    printf("{\"base_mod_128\": %d, \"launches\": [", (int)((unsigned long long)buf % 128));
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "offset=", 7)) { offset = atoi(argv[i] + 7); continue; }
        int stride = atoi(argv[i]);
        if (stride < 0 || stride > 32 || offset < 0 || offset > 252 || offset % 4) {
            fprintf(stderr, "sectors: strides are 0-32, the offset a multiple of 4 up to 252\n");
            return 2;
        }
        strided<<<1, lanes>>>((const float *)(buf + offset), out, dev_off, stride);
        cudaError_t e = cudaDeviceSynchronize();
        cudaMemcpy(host_off, dev_off, sizeof host_off, cudaMemcpyDeviceToHost);
        char label[32];
        snprintf(label, sizeof label, "stride %d", stride);
        show(first, label, stride, host_off, lanes, e);
        first = 0;
    }
    aos_x<<<1, lanes>>>((const point *)buf, out, dev_off);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(host_off, dev_off, sizeof host_off, cudaMemcpyDeviceToHost);
    show(first, "array of {x, y}", 2, host_off, lanes, e);
    soa_x<<<1, lanes>>>((const float *)buf, out, dev_off);
    e = cudaDeviceSynchronize();
    cudaMemcpy(host_off, dev_off, sizeof host_off, cudaMemcpyDeviceToHost);
    show(0, "separate x[]", 1, host_off, lanes, e);
    printf("], \"offset\": %d}\n", offset);
    return 0;
}
