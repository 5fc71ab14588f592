// divergence.cu - `warpsim explore divergence`: one 8-lane warp (the teaching-8lane preset) through a branch.
// Lane l starts with v = l + 1; lanes whose bit is set in `taken` run the true path (+10, x2), the others the
// false path (-1, x3, +5). Each step is one PTX instruction (inline asm keeps the compiler from folding the
// arithmetic or turning the branch into a select), so the branch really splits the warp. One launch per mask.
// Usage: divergence MASK... (hex or decimal, e.g. divergence 0xaa 0xff 0)
#include <cstdio>
#include <cstdlib>

#define STEP(op, v, k) asm volatile(op " %0, %0, " #k ";" : "+r"(v))

__global__ void branch(int *out, unsigned taken)
{
    int lane = threadIdx.x;
    int v = lane + 1;
    if ((taken >> lane) & 1) {
        STEP("add.s32", v, 10);       // true path: +10
        STEP("mul.lo.s32", v, 2);     //            x2
    } else {
        STEP("sub.s32", v, 1);        // false path: -1
        STEP("mul.lo.s32", v, 3);     //             x3
        STEP("add.s32", v, 5);        //             +5
    }
    out[lane] = v;
}

int main(int argc, char **argv)
{
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    int lanes = 0;
    cudaDeviceGetAttribute(&lanes, cudaDevAttrWarpSize, 0);
    if (lanes < 1 || lanes > 32) lanes = 32;
    printf("{\"lanes\": %d, \"launches\": [", lanes);
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        unsigned taken = (unsigned)strtoul(argv[i], NULL, 0);
        branch<<<1, lanes>>>(out, taken);
        cudaError_t e = cudaDeviceSynchronize();
        int h[32];
        cudaMemcpy(h, out, lanes * sizeof(int), cudaMemcpyDeviceToHost);
        printf("%s{\"taken\": %u, \"error\": \"%s\", \"values\": [", i > 1 ? ", " : "", taken, cudaGetErrorName(e));
        for (int l = 0; l < lanes; l++) {
            int want = (taken >> l) & 1 ? (l + 1 + 10) * 2 : (l + 1 - 1) * 3 + 5;
            bad |= h[l] != want;
            printf("%s%d", l ? ", " : "", h[l]);
        }
        printf("]}");
        bad |= e != cudaSuccess;
    }
    printf("]}\n");
    return bad;
}
