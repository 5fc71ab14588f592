// tile.cu - `warpsim explore tile`: the seed's tiled product C = A x B with A 2 x 4, B 4 x 2 and 2 x 2 tiles, in
// one block of 2 x 2 threads; thread (r, c) owns C[r, c]. Each round every thread loads one A entry and one B
// entry into shared memory, all wait at a barrier, each adds its T products, all wait at a second barrier. Next
// to each shared entry the kernel keeps the number of the thread that loaded it, and it writes down, round by
// round, the shared tiles, every thread's partial sum, and for every product which thread loaded its operands.
// Usage: tile
#include <cstdio>

#define T 2                 // tile width
#define M 2                 // rows of A and C
#define K 4                 // columns of A, rows of B: the reduction length
#define N 2                 // columns of B and C
#define ROUNDS (K / T)

// What one round left behind.
struct round_log {
    float As[T][T], Bs[T][T];     // the shared tiles after the loads
    int Aby[T][T], Bby[T][T];     // the thread (y * T + x) that loaded each entry
    float sum[T][T];              // every thread's partial sum after the round
    float a[T][T][T], b[T][T][T]; // [y][x][k]: the operands thread (y, x) multiplied
    int a_by[T][T][T], b_by[T][T][T];
};

__global__ void tiled(const float *A, const float *B, float *C, round_log *log)
{
    __shared__ float As[T][T], Bs[T][T];
    __shared__ int Aby[T][T], Bby[T][T];
    int x = threadIdx.x, y = threadIdx.y, me = y * T + x;
    int row = blockIdx.y * T + y, col = blockIdx.x * T + x;
    float sum = 0.0f;                                    // this thread's private running sum
    for (int r = 0; r < ROUNDS; r++) {
        int ka = r * T + x, kb = r * T + y;              // the A column and B row this thread loads
        As[y][x] = row < M && ka < K ? A[row * K + ka] : 0.0f;
        Bs[y][x] = kb < K && col < N ? B[kb * N + col] : 0.0f;
        Aby[y][x] = me;
        Bby[y][x] = me;
        __syncthreads();                                 // barrier 1: every entry is loaded before anyone reads
        round_log *L = &log[r];
        for (int k = 0; k < T; k++) {
            sum += As[y][k] * Bs[k][x];
            L->a[y][x][k] = As[y][k];
            L->b[y][x][k] = Bs[k][x];
            L->a_by[y][x][k] = Aby[y][k];
            L->b_by[y][x][k] = Bby[k][x];
        }
        L->As[y][x] = As[y][x];
        L->Bs[y][x] = Bs[y][x];
        L->Aby[y][x] = Aby[y][x];
        L->Bby[y][x] = Bby[y][x];
        L->sum[y][x] = sum;
        __syncthreads();                                 // barrier 2: everyone is done reading before the next loads
    }
    if (row < M && col < N) C[row * N + col] = sum;
}

// Print a rows x cols block of floats as a JSON array of arrays.
static void matrix(const float *v, int rows, int cols)
{
    printf("[");
    for (int i = 0; i < rows; i++) {
        printf("%s[", i ? ", " : "");
        for (int j = 0; j < cols; j++) printf("%s%g", j ? ", " : "", v[i * cols + j]);
        printf("]");
    }
    printf("]");
}

// The same for ints.
static void imatrix(const int *v, int rows, int cols)
{
    printf("[");
    for (int i = 0; i < rows; i++) {
        printf("%s[", i ? ", " : "");
        for (int j = 0; j < cols; j++) printf("%s%d", j ? ", " : "", v[i * cols + j]);
        printf("]");
    }
    printf("]");
}

int main()
{
    float hA[M * K], hB[K * N], hC[M * N];
    for (int i = 0; i < M * K; i++) hA[i] = (float)(i + 1);     // [[1 2 3 4] [5 6 7 8]]
    for (int i = 0; i < K * N; i++) hB[i] = (float)(i + 1);     // [[1 2] [3 4] [5 6] [7 8]]
    float *A, *B, *C;
    round_log *log, hl[ROUNDS];
    cudaMalloc(&A, sizeof hA);
    cudaMalloc(&B, sizeof hB);
    cudaMalloc(&C, sizeof hC);
    cudaMalloc(&log, sizeof hl);
    cudaMemcpy(A, hA, sizeof hA, cudaMemcpyHostToDevice);
    cudaMemcpy(B, hB, sizeof hB, cudaMemcpyHostToDevice);
    dim3 block(T, T), grid((N + T - 1) / T, (M + T - 1) / T);
    tiled<<<grid, block>>>(A, B, C, log);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(hC, C, sizeof hC, cudaMemcpyDeviceToHost);
    cudaMemcpy(hl, log, sizeof hl, cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            float s = 0;
            for (int k = 0; k < K; k++) s += hA[r * K + k] * hB[k * N + c];
            wrong += hC[r * N + c] != s;
        }
    printf("{\"tile\": %d, \"m\": %d, \"k\": %d, \"n\": %d, \"error\": \"%s\", \"correct\": %s,\n \"A\": ",
           T, M, K, N, cudaGetErrorName(e), wrong || e ? "false" : "true");
    matrix(hA, M, K);
    printf(", \"B\": ");
    matrix(hB, K, N);
    printf(", \"C\": ");
    matrix(hC, M, N);
    printf(",\n \"rounds\": [");
    for (int r = 0; r < ROUNDS; r++) {
        round_log *L = &hl[r];
        printf("%s{\"As\": ", r ? ",\n  " : "");
        matrix(&L->As[0][0], T, T);
        printf(", \"Bs\": ");
        matrix(&L->Bs[0][0], T, T);
        printf(", \"As_by\": ");
        imatrix(&L->Aby[0][0], T, T);
        printf(", \"Bs_by\": ");
        imatrix(&L->Bby[0][0], T, T);
        printf(", \"sum\": ");
        matrix(&L->sum[0][0], T, T);
        printf(", \"a\": ");
        matrix(&L->a[0][0][0], T * T, T);
        printf(", \"b\": ");
        matrix(&L->b[0][0][0], T * T, T);
        printf(", \"a_by\": ");
        imatrix(&L->a_by[0][0][0], T * T, T);
        printf(", \"b_by\": ");
        imatrix(&L->b_by[0][0][0], T * T, T);
        printf("}");
    }
    printf("]}\n");
    return wrong || e ? 1 : 0;
}
