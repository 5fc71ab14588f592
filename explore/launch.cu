// launch.cu - `warpsim explore launch`: the CUDA guide's vecAdd launch, kernel<<<blocks, threads>>>. Thread
// (block, t) computes i = t + threads x block and, inside the bounds check, c[i] = a[i] + b[i]; it also counts
// how often element i was computed, and the first thread of each block takes a ticket, so the block order the
// GPU used is visible. Run it in order, with `warpsim run --block-order=random:SEED`, or with a grid one block
// short. Usage: launch [n=1000] [threads=256] [short=0]
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void vecAdd(const float *A, const float *B, float *C, int n, int *touched, int *order, int *ticket)
{
    int i = threadIdx.x + blockDim.x * blockIdx.x;        // the guide's workIndex
    if (threadIdx.x == 0) order[atomicAdd(ticket, 1)] = blockIdx.x;
    if (i < n) {                                          // bounds check: surplus threads do nothing
        C[i] = A[i] + B[i];
        atomicAdd(&touched[i], 1);
    }
}

// Value of "key=value" in argv, or def.
static int arg(int argc, char **argv, const char *key, int def)
{
    size_t k = strlen(key);
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], key, k) && argv[i][k] == '=') return atoi(argv[i] + k + 1);
    return def;
}

int main(int argc, char **argv)
{
    int n = arg(argc, argv, "n", 1000), threads = arg(argc, argv, "threads", 256);
    int short_grid = arg(argc, argv, "short", 0);
    if (n < 1 || n > 1 << 20 || threads < 1 || threads > 1024) {
        fprintf(stderr, "launch: n must be 1-1048576 and threads 1-1024\n");
        return 2;
    }
    int blocks = (n + threads - 1) / threads;             // ceiling division, as in the CUDA guide
    int grid = short_grid ? blocks - 1 : blocks;
    float *ha = (float *)malloc(n * sizeof(float)), *hb = (float *)malloc(n * sizeof(float));
    float *hc = (float *)malloc(n * sizeof(float));
    int *ht = (int *)malloc(n * sizeof(int)), *ho = (int *)malloc((blocks + 1) * sizeof(int));
    for (int i = 0; i < n; i++) { ha[i] = 0.25f * (float)(i % 97); hb[i] = 2.0f * (float)(i % 13); }
    float *A, *B, *C;
    int *touched, *order, *ticket;
    cudaMalloc(&A, n * sizeof(float));
    cudaMalloc(&B, n * sizeof(float));
    cudaMalloc(&C, n * sizeof(float));
    cudaMalloc(&touched, n * sizeof(int));
    cudaMalloc(&order, (blocks + 1) * sizeof(int));
    cudaMalloc(&ticket, sizeof(int));
    cudaMemcpy(A, ha, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(B, hb, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(C, 0, n * sizeof(float));
    cudaMemset(touched, 0, n * sizeof(int));
    cudaMemset(ticket, 0, sizeof(int));
    cudaError_t e = cudaSuccess;
    if (grid > 0) {
        vecAdd<<<grid, threads>>>(A, B, C, n, touched, order, ticket);
        e = cudaDeviceSynchronize();
    }
    cudaMemcpy(hc, C, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(ht, touched, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(ho, order, (blocks + 1) * sizeof(int), cudaMemcpyDeviceToHost);
    int correct = 0, once = 0, never = 0, first_never = -1, more = 0;
    for (int i = 0; i < n; i++) {
        correct += ht[i] == 1 && hc[i] == ha[i] + hb[i];
        once += ht[i] == 1;
        more += ht[i] > 1;
        if (ht[i] == 0 && never++ == 0) first_never = i;
    }
    printf("{\"n\": %d, \"threads\": %d, \"blocks\": %d, \"grid\": %d, \"surplus\": %d, \"error\": \"%s\", "
           "\"correct\": %d, \"touched_once\": %d, \"touched_more\": %d, \"never\": %d, \"first_never\": %d, "
           "\"order\": [", n, threads, blocks, grid, grid * threads > n ? grid * threads - n : 0, cudaGetErrorName(e),
           correct, once, more, never, first_never);
    for (int b = 0; b < grid; b++) printf("%s%d", b ? ", " : "", ho[b]);
    printf("]}\n");
    free(ha); free(hb); free(hc); free(ht); free(ho);
    return e != cudaSuccess;
}
