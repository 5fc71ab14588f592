/* truth_memsys.c - helper of tests/cli/truth_counters.sh: runs the benchmarks of tests/data/h200 on the functional
 * core with an observer that feeds every memory warp instruction to the memory system (src/timing/memsys.c) under
 * the h200 preset, one launch per benchmark after a cache flush (Nsight Compute's --cache-control all), and prints
 * the memory counters per benchmark. The kernels come from the truth program's own PTX (its fatbin); the host side
 * (sizes, launch configurations and the data that decides addresses: the SpMV structure and the histogram input)
 * is truth.cu's, rewritten in C with the same random-number sequence.
 *
 *   truth_memsys TRUTH_BINARY [NAME ...]      (default: every benchmark of benches.txt at its small size)
 *
 * benches.txt is read from $WARPSIM_TRUTH_DIR (default tests/data/h200, relative to the current directory).
 *
 * Output, one line per benchmark (ncu metric names in the header line):
 *   name gld_req gld_sec gst_req gst_sec shld_wf shld_bc shst_bc l1_hit_pct l2_hit_pct l2_rd_from_l1 dram_rd dram_wr
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/exec.h"
#include "core/observe.h"
#include "core/sim.h"
#include "device/device.h"
#include "fatbin/fatbin.h"
#include "timing/memsys.h"

/* observer state: the memory system, a cycle count per SM, the SM count */
typedef struct drv {
    ws_memsys *ms;
    uint64_t *now;
    int nsm;
    uint64_t warps_per_block;
} drv;

/* Feed one executed warp instruction to the memory system (blocks go round-robin over the SMs). */
static void drv_post(void *ctx, ws_warp *w, const ws_rec *r)
{
    drv *d = ctx;
    int sm = (int)(w->blk->linear % (uint64_t)d->nsm);
    d->now[sm]++;
    if (r->is_mem && r->exec && r->in->space != WS_S_PARAM_K) {
        uint64_t key = w->blk->linear * d->warps_per_block + (uint64_t)w->warp_in_block;
        ws_ms_access_warp(d->ms, sm, key, r, d->now[sm]);
    }
}

static ws_gpu *G;
static ws_module **MODS;
static int NMODS;

/* Kernel by mangled name in any of the program's PTX units, or NULL. */
static ws_kernel *kern(const char *name)
{
    for (int i = 0; i < NMODS; i++) {
        ws_kernel *k = ws_module_kernel(MODS[i], name);
        if (k) return k;
    }
    return NULL;
}

/* Device allocation of n bytes (zeroed); exits on failure. */
static uint64_t dalloc(size_t n)
{
    uint64_t a;
    if (ws_malloc(G, n ? n : 4, &a)) { fprintf(stderr, "truth_memsys: out of device memory\n"); exit(2); }
    void *h = ws_host_view(G, a, n ? n : 4);
    if (h) memset(h, 0, n ? n : 4);
    return a;
}

/* truth.cu's random-number generator, same sequence */
static unsigned rng_state = 12345u;
/* One step of that generator. */
static void rng_step(void) { rng_state = rng_state * 1664525u + 1013904223u; }

/* Size of benchmark name in benches.txt (column 2), or 0. */
static long bench_size(const char *truth_dir, const char *name)
{
    char path[4096], line[512], n[128];
    long s, big;
    snprintf(path, sizeof path, "%s/benches.txt", truth_dir);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    long r = 0;
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' && sscanf(line, "%127s %ld %ld", n, &s, &big) >= 2 && !strcmp(n, name)) { r = s; break; }
    fclose(f);
    return r;
}

/* Launch kernel kname with the given configuration on a flushed memory system and print the counters. */
static int run(drv *d, const char *bench, const char *kname, ws_dim3 grid, ws_dim3 block, size_t dyn, void **args)
{
    ws_kernel *k = kern(kname);
    if (!k) { printf("%s MISSING kernel %s\n", bench, kname); return 1; }
    const ws_device *dev = ws_gpu_device(G);
    ws_kernel_info info;
    ws_kernel_get_info(k, &info);
    if (dyn > 48 * 1024) ws_kernel_set_max_dyn_smem(k, dyn);
    unsigned threads = block.x * block.y * block.z;
    d->warps_per_block = (threads + 31) / 32;
    /* L1 size: what the resident blocks leave of the SM's SRAM (threads and shared memory limit residency) */
    size_t smem = info.static_smem + dyn + dev->smem_reserved_per_block;
    size_t bps = (size_t)dev->max_blocks_per_sm;
    if (bps > (size_t)dev->max_threads_per_sm / threads) bps = (size_t)dev->max_threads_per_sm / threads;
    if (smem && bps > dev->smem_per_sm / smem) bps = dev->smem_per_sm / smem;
    ws_ms_set_smem_per_sm(d->ms, bps * smem);
    ws_ms_flush(d->ms);
    ws_ms_reset_counts(d->ms);
    memset(d->now, 0, sizeof *d->now * (size_t)d->nsm);
    ws_launch_stats st;
    ws_launch_config cfg = { grid, block, dyn, 0, 0, 0, { 0, 0, 0 } };
    int rc = ws_launch(G, k, &cfg, args, &st);
    ws_ms_end_launch(d->ms);
    if (rc) { printf("%s LAUNCH_FAILED %d %s\n", bench, rc, st.error); return 1; }
    const ws_ms_counts *c = ws_ms_counts_get(d->ms);
    printf("%s %llu %llu %llu %llu %llu %llu %llu %.2f %.2f %llu %llu %llu\n", bench,
           (unsigned long long)c->gld_requests, (unsigned long long)c->gld_sectors,
           (unsigned long long)c->gst_requests, (unsigned long long)c->gst_sectors,
           (unsigned long long)c->shld_wavefronts, (unsigned long long)c->shld_conflicts,
           (unsigned long long)c->shst_conflicts,
           c->l1_sectors ? 100.0 * (double)c->l1_hit_sectors / (double)c->l1_sectors : 0.0,
           c->l2_sectors ? 100.0 * (double)c->l2_hit_sectors / (double)c->l2_sectors : 0.0,
           (unsigned long long)c->l2_read_sectors_from_l1, (unsigned long long)c->dram_read_bytes,
           (unsigned long long)c->dram_write_bytes);
    fflush(stdout);
    return 0;
}

/* 1-D configuration helper. */
static ws_dim3 d1(unsigned x) { ws_dim3 r = { x, 1, 1 }; return r; }
/* 2-D configuration helper. */
static ws_dim3 d2(unsigned x, unsigned y) { ws_dim3 r = { x, y, 1 }; return r; }

/* Set up and run one benchmark as truth.cu does at size n. */
static int bench(drv *d, const char *name, long n)
{
    int ni = (int)n;
    if (!strcmp(name, "vec_add")) {
        uint64_t a = dalloc((size_t)n * 4), b = dalloc((size_t)n * 4), c = dalloc((size_t)n * 4);
        void *args[] = { &a, &b, &c, &ni };
        return run(d, name, "_Z7vec_addPKfS0_Pfi", d1((unsigned)((n + 255) / 256)), d1(256), 0, args);
    }
    if (!strncmp(name, "strided", 7)) {
        int stride = atoi(name + 7);
        uint64_t a = dalloc((size_t)n * (size_t)stride * 4), o = dalloc((size_t)n * 4);
        void *args[] = { &a, &o, &ni, &stride };
        return run(d, name, "_Z12strided_readPKfPfii", d1((unsigned)((n + 255) / 256)), d1(256), 0, args);
    }
    if (!strcmp(name, "copy_row") || !strcmp(name, "copy_col")) {
        uint64_t in = dalloc((size_t)n * (size_t)n * 4), out = dalloc((size_t)n * (size_t)n * 4);
        void *args[] = { &in, &out, &ni, &ni };
        return run(d, name, !strcmp(name, "copy_row") ? "_Z8copy_rowPKfPfii" : "_Z8copy_colPKfPfii",
                   d2((unsigned)((n + 31) / 32), (unsigned)((n + 7) / 8)), d2(32, 8), 0, args);
    }
    if (!strncmp(name, "matmul_", 7)) {
        uint64_t A = dalloc((size_t)n * (size_t)n * 4), B = dalloc((size_t)n * (size_t)n * 4), C = dalloc((size_t)n * (size_t)n * 4);
        void *args[] = { &A, &B, &C, &ni, &ni, &ni };
        if (!strcmp(name, "matmul_naive"))
            return run(d, name, "_Z12matmul_naivePKfS0_Pfiii", d2((unsigned)((n + 15) / 16), (unsigned)((n + 15) / 16)), d2(16, 16), 0, args);
        if (!strcmp(name, "matmul_t16"))
            return run(d, name, "_Z12matmul_tiledILi16EEvPKfS1_Pfiii", d2((unsigned)((n + 15) / 16), (unsigned)((n + 15) / 16)), d2(16, 16), 0, args);
        return run(d, name, "_Z12matmul_tiledILi32EEvPKfS1_Pfiii", d2((unsigned)((n + 31) / 32), (unsigned)((n + 31) / 32)), d2(32, 32), 0, args);
    }
    if (!strncmp(name, "transpose_pad", 13)) {
        uint64_t in = dalloc((size_t)n * (size_t)n * 4), out = dalloc((size_t)n * (size_t)n * 4);
        void *args[] = { &in, &out, &ni };
        return run(d, name, name[13] == '0' ? "_Z14transpose_smemILi0EEvPKfPfi" : "_Z14transpose_smemILi1EEvPKfPfi",
                   d2((unsigned)((n + 31) / 32), (unsigned)((n + 31) / 32)), d2(32, 8), 0, args);
    }
    if (!strncmp(name, "diverge_", 8)) {
        uint64_t a = dalloc((size_t)n * 4);
        void *args[] = { &a, &ni };
        return run(d, name, !strcmp(name, "diverge_lane") ? "_Z7divergeILi0EEvPfi" : "_Z7divergeILi1EEvPfi",
                   d1((unsigned)((n + 127) / 128)), d1(128), 0, args);
    }
    if (!strncmp(name, "dot_", 4)) {
        uint64_t a = dalloc((size_t)n * 4), b = dalloc((size_t)n * 4), res = dalloc(4);
        void *args[] = { &a, &b, &res, &ni };
        if (!strcmp(name, "dot_tree"))
            return run(d, name, "_Z8dot_treeILi256EEvPKfS1_Pfi", d1((unsigned)((n + 255) / 256)), d1(256), 0, args);
        return run(d, name, "_Z8dot_shflPKfS0_Pfi", d1(1024), d1(256), 0, args);
    }
    if (!strncmp(name, "hist_", 5)) {
        uint64_t in = dalloc((size_t)n), bins = dalloc(1024);
        unsigned char *h = ws_host_view(G, in, (size_t)n);
        for (long i = 0; i < n; i++) { rng_step(); h[i] = (unsigned char)((rng_state >> 13) & 255); }
        void *args[] = { &in, &bins, &ni };
        if (!strcmp(name, "hist_global"))
            return run(d, name, "_Z11hist_globalPKhPji", d1((unsigned)((n + 255) / 256)), d1(256), 0, args);
        return run(d, name, "_Z11hist_sharedPKhPji", d1(264), d1(256), 0, args);
    }
    if (!strcmp(name, "heat_1000")) {
        /* Nsight Compute measured the 1001st launch; with caches flushed every launch sees the same addresses
         * (u and un swap every launch: after 1000 swaps they are back in place) */
        uint64_t u = dalloc((size_t)n * 4), un = dalloc((size_t)n * 4);
        float alpha = 0.25f;
        void *args[] = { &u, &un, &ni, &alpha };
        return run(d, name, "_Z9heat_stepPKfPfif", d1((unsigned)((n + 255) / 256)), d1(256), 0, args);
    }
    if (!strncmp(name, "conv_", 5)) {
        uint64_t in = dalloc((size_t)n * 4), out = dalloc((size_t)n * 4);
        void *args[] = { &in, &out, &ni };
        if (!strcmp(name, "conv_basic"))
            return run(d, name, "_Z10conv_basicPKfPfi", d1((unsigned)((n + 255) / 256)), d1(256), 0, args);
        return run(d, name, "_Z10conv_tiledPKfPfi", d1((unsigned)((n + 255) / 256)), d1(256), (256 + 2 * 2) * 4, args);
    }
    if (!strncmp(name, "spmv_", 5)) {
        int vec = strstr(name, "vector") != NULL, nnz_row = atoi(name + 11), rows = ni, cols = ni;
        size_t nnz = (size_t)rows * (size_t)nnz_row;
        uint64_t drp = dalloc(((size_t)rows + 1) * 4), dcol = dalloc(nnz * 4), dval = dalloc(nnz * 4);
        uint64_t dx = dalloc((size_t)cols * 4), dy = dalloc((size_t)rows * 4);
        int *rp = ws_host_view(G, drp, ((size_t)rows + 1) * 4), *col = ws_host_view(G, dcol, nnz * 4);
        size_t k = 0;
        for (int r = 0; r < rows; r++) {
            rp[r] = (int)k;
            for (int j = 0; j < nnz_row; j++) {
                rng_step();
                col[k++] = (int)(rng_state % (unsigned)cols);
                rng_step();   /* frand() for the value */
            }
        }
        rp[rows] = (int)k;
        void *args[] = { &rows, &drp, &dcol, &dval, &dx, &dy };
        if (vec)
            return run(d, name, "_Z11spmv_vectoriPKiS0_PKfS2_Pf", d1((unsigned)(((long)rows * 32 + 255) / 256)), d1(256), 0, args);
        return run(d, name, "_Z11spmv_scalariPKiS0_PKfS2_Pf", d1((unsigned)((rows + 255) / 256)), d1(256), 0, args);
    }
    if (!strncmp(name, "occ", 3)) {
        int kb = atoi(name + 3);
        int n4 = (int)(n / 4);
        uint64_t in = dalloc((size_t)n * 4), out = dalloc((size_t)n * 4);
        void *args[] = { &in, &out, &n4 };
        int sms = ws_gpu_device(G)->sm_count;
        return run(d, name, "_Z8occ_copyPK6float4PS_i", d1((unsigned)sms * 8), d1(256), (size_t)kb * 1024, args);
    }
    printf("%s UNKNOWN\n", name);
    return 1;
}

/* Run the requested benchmarks; exit status 0 when all ran. */
int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: truth_memsys TRUTH_BINARY [NAME ...]\n"); return 2; }
    const char *truth_dir = getenv("WARPSIM_TRUTH_DIR");
    if (!truth_dir) truth_dir = "tests/data/h200";
    char err[1024];
    const ws_device *dev = ws_device_get("h200", err, sizeof err);
    if (!dev) { fprintf(stderr, "truth_memsys: %s\n", err); return 2; }
    char **texts;
    size_t *lens;
    int nt;
    if (ws_fatbin_ptx_from_file(argv[1], &texts, &lens, &nt, err, sizeof err) || nt < 1) {
        fprintf(stderr, "truth_memsys: %s: %s\n", argv[1], nt < 1 ? "no PTX" : err);
        return 2;
    }
    ws_options opt;
    memset(&opt, 0, sizeof opt);
    G = ws_gpu_create(dev, &opt);
    MODS = calloc((size_t)nt, sizeof *MODS);
    for (int i = 0; i < nt; i++) {
        MODS[NMODS] = ws_module_load(G, texts[i], lens[i], argv[1], err, sizeof err);
        if (MODS[NMODS]) NMODS++;
        else fprintf(stderr, "truth_memsys: PTX unit %d: %s\n", i, err);
    }
    ws_fatbin_free_texts(texts, lens, nt);
    drv d;
    memset(&d, 0, sizeof d);
    d.ms = ws_ms_create(dev);
    d.nsm = dev->sm_count;
    d.now = calloc((size_t)d.nsm, sizeof *d.now);
    if (!d.ms || !d.now) { fprintf(stderr, "truth_memsys: no memory system\n"); return 2; }
    ws_observer obs;
    memset(&obs, 0, sizeof obs);
    obs.ctx = &d;
    obs.post = drv_post;
    ws_gpu_add_observer(G, &obs);
    printf("name l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum "
           "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum "
           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum "
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum l1tex__t_sector_hit_rate.pct lts__t_sector_hit_rate.pct "
           "lts__t_sectors_srcunit_tex_op_read.sum dram__bytes_read.sum dram__bytes_write.sum\n");
    int fails = 0;
    static const char *all[] = {
        "vec_add", "strided1", "strided2", "strided4", "strided8", "strided32", "copy_row", "copy_col", "matmul_naive",
        "matmul_t16", "matmul_t32", "transpose_pad0", "transpose_pad1", "diverge_lane", "diverge_warp", "dot_tree",
        "dot_shfl", "hist_global", "hist_shared", "heat_1000", "conv_basic", "conv_tiled", "spmv_scalar64",
        "spmv_vector64", "spmv_scalar4", "spmv_vector4", "occ0", "occ24", "occ48", "occ96", "occ200", NULL };
    int nargs = argc - 2;
    for (int i = 0; nargs ? i < nargs : all[i] != NULL; i++) {
        const char *name = nargs ? argv[2 + i] : all[i];
        long n = bench_size(truth_dir, name);
        if (!n) { printf("%s NO_SIZE\n", name); fails++; continue; }
        rng_state = 12345u;
        fails += bench(&d, name, n) != 0;
    }
    ws_gpu_remove_observer(G, &obs);
    ws_ms_destroy(d.ms);
    free(d.now);
    ws_gpu_destroy(G);
    free(MODS);
    return fails ? 1 : 0;
}
