// banks.cu - `warpsim explore banks`: one 8-lane warp (the teaching-8lane preset: 8 banks, bank w mod 8 holds the
// 4-byte word w) reads one word each from a shared tile. Lane l reads word start + stride x l: stride 8 is a
// column of an 8 x 8 tile, stride 9 the same column of the tile padded to rows of 9 words, stride 0 every lane
// reading one word. Each lane writes down the word it read. One launch per pattern.
// Usage: banks START:STRIDE... (e.g. banks 0:8 0:9 0:0)
#include <cstdio>
#include <cstdlib>

#define WORDS 81   // the largest tile: 9 rows of 9 words

__global__ void column(float *out, int *word, int start, int stride)
{
    __shared__ float tile[WORDS];
    int l = threadIdx.x;
    for (int k = l; k < WORDS; k += blockDim.x) tile[k] = (float)k;   // fill the tile (stores, counted apart)
    __syncthreads();
    int w = start + stride * l;
    out[l] = tile[w];                                                  // the shared load being counted
    word[l] = w;
}

int main(int argc, char **argv)
{
    int lanes = 0;
    cudaDeviceGetAttribute(&lanes, cudaDevAttrWarpSize, 0);
    if (lanes < 1 || lanes > 32) lanes = 32;
    float *out, hv[32];
    int *word, hw[32];
    cudaMalloc(&out, 32 * sizeof(float));
    cudaMalloc(&word, 32 * sizeof(int));
    printf("{\"lanes\": %d, \"launches\": [", lanes);
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        int start = 0, stride = 0;
        if (sscanf(argv[i], "%d:%d", &start, &stride) != 2 || start < 0 || stride < 0 ||
            start + stride * (lanes - 1) >= WORDS) {
            fprintf(stderr, "banks: '%s': expected START:STRIDE with every word inside the %d-word tile\n", argv[i],
                    WORDS);
            return 2;
        }
        column<<<1, lanes>>>(out, word, start, stride);
        cudaError_t e = cudaDeviceSynchronize();
        cudaMemcpy(hv, out, lanes * sizeof(float), cudaMemcpyDeviceToHost);
        cudaMemcpy(hw, word, lanes * sizeof(int), cudaMemcpyDeviceToHost);
        printf("%s{\"start\": %d, \"stride\": %d, \"error\": \"%s\", \"words\": [", i > 1 ? ", " : "", start, stride,
               cudaGetErrorName(e));
        for (int l = 0; l < lanes; l++) {
            printf("%s%d", l ? ", " : "", hw[l]);
            bad |= hv[l] != (float)(start + stride * l);
        }
        printf("]}");
        bad |= e != cudaSuccess;
    }
    printf("]}\n");
    return bad;
}
