/* test_occupancy.c - the occupancy calculator, waves and advisor against every exact number of issue 3, and
 * against the real H200's occupancy API. Prints one line per check; exits nonzero on any failure. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/occupancy.h"
#include "device/device.h"

static int g_fail, g_checks;

/* Record one check: print PASS/FAIL with a description. */
static void check(int ok, const char *fmt_desc)
{
    g_checks++;
    if (!ok) g_fail++;
    printf("%s  %s\n", ok ? "PASS" : "FAIL", fmt_desc);
}

/* Load a preset or abort the test. */
static const ws_device *dev(const char *name)
{
    char err[1024];
    const ws_device *d = ws_device_get(name, err, sizeof err);
    if (!d) {
        printf("FAIL  load preset %s: %s\n", name, err);
        g_fail++;
    }
    return d;
}

/* Compute occupancy and compare blocks/SM, occupancy (percent, exact to 1e-9) and limiter (NULL = any). */
static void occ(const char *gpu, int t, int r, size_t s, int want_blocks, double want_pct, const char *want_lim,
                const char *what)
{
    const ws_device *d = dev(gpu);
    if (!d) return;
    ws_occ_result res;
    ws_occ_compute(d, t, r, s, 0, &res);
    char desc[512], want[96];
    int ok = res.blocks_per_sm == want_blocks;
    if (want_pct >= 0) ok = ok && fabs(100 * res.occupancy - want_pct) < 1e-9;
    if (want_lim) ok = ok && !strcmp(ws_occ_limiter_name(res.limiter), want_lim);
    int n = snprintf(want, sizeof want, "%d", want_blocks);
    if (want_pct >= 0) n += snprintf(want + n, sizeof want - (size_t)n, ", %.2f%%", want_pct);
    if (want_lim) snprintf(want + n, sizeof want - (size_t)n, ", %s", want_lim);
    snprintf(desc, sizeof desc, "%-40s %s T=%d R=%d S=%zu -> %d blocks, %.2f%%, %s (want %s)", what, gpu, t, r, s,
             res.blocks_per_sm, 100 * res.occupancy, ws_occ_limiter_name(res.limiter), want);
    check(ok, desc);
}

/* Check waves and wave utilization (percent, rounded to 0.1) for a grid at a given blocks/SM. */
static void waves(long long grid, int sms, int bps, long long want_waves, double want_util_pct)
{
    double wps, util;
    long long w = ws_occ_waves(grid, sms, bps, &wps, &util);
    char desc[256];
    int ok = w == want_waves && fabs(round(1000 * util) / 10 - want_util_pct) < 1e-9;
    snprintf(desc, sizeof desc, "%-40s %lld blocks on %d SMs at %d/SM -> %lld waves, %.1f%% (want %lld, %.1f%%)",
             "waves", grid, sms, bps, w, 100 * util, want_waves, want_util_pct);
    check(ok, desc);
}

/* (registers per thread as cudaFuncGetAttributes reported them, threads per block, static + dynamic shared memory,
 * blocks per SM) from cudaOccupancyMaxActiveBlocksPerMultiprocessor on the H200 of tests/data/h200, the kernel
 * opted in to the maximum dynamic shared memory; a sample of 400 of the 13,875 configurations measured. */
static const int h200_sweep[][4] = {
    {8, 32, 4096, 32}, {8, 33, 8192, 25}, {8, 33, 80000, 2}, {8, 64, 1000, 32}, {8, 64, 8192, 25}, {8, 128, 1, 16},
    {8, 128, 1000, 16}, {8, 128, 16384, 13}, {8, 256, 0, 8}, {8, 256, 80000, 2}, {8, 448, 50176, 4}, {8, 640, 8192, 3},
    {8, 768, 180000, 1}, {10, 1, 1, 32}, {10, 1, 2064, 32}, {10, 1, 4096, 32}, {10, 1, 8192, 25}, {10, 1, 9216, 22},
    {10, 1, 16384, 13}, {10, 1, 32768, 6}, {10, 1, 40000, 5}, {10, 32, 1152, 32}, {10, 32, 8192, 25}, {10, 32, 16384, 13},
    {10, 33, 9216, 22}, {10, 64, 3072, 32}, {10, 64, 8192, 25}, {10, 64, 9216, 22}, {10, 64, 25600, 8}, {10, 96, 2064, 21},
    {10, 96, 17408, 12}, {10, 96, 33792, 6}, {10, 128, 8192, 16}, {10, 128, 33792, 6}, {10, 128, 66560, 3}, {10, 128, 80000, 2},
    {10, 192, 1040, 10}, {10, 192, 2024, 10}, {10, 192, 233473, 0}, {10, 224, 0, 9}, {10, 224, 1024, 9}, {10, 224, 3072, 9},
    {10, 256, 1152, 8}, {10, 256, 24576, 8}, {10, 320, 2024, 6}, {10, 320, 150000, 1}, {10, 448, 1152, 4}, {10, 448, 40000, 4},
    {10, 448, 132096, 1}, {10, 512, 1, 4}, {10, 640, 41024, 3}, {10, 896, 2024, 2}, {10, 896, 25600, 2}, {10, 896, 51200, 2},
    {10, 896, 232449, 0}, {10, 1024, 2064, 2}, {10, 1024, 50176, 2}, {12, 1, 9216, 22}, {12, 1, 17408, 12}, {12, 32, 9216, 22},
    {12, 33, 9216, 22}, {12, 33, 24576, 9}, {12, 33, 65536, 3}, {12, 33, 80000, 2}, {12, 64, 3072, 32}, {12, 64, 9216, 22},
    {12, 64, 49152, 4}, {12, 96, 1040, 21}, {12, 96, 5120, 21}, {12, 96, 233472, 0}, {12, 128, 16384, 13}, {12, 128, 17408, 12},
    {12, 128, 220000, 1}, {12, 192, 0, 10}, {12, 192, 1040, 10}, {12, 192, 16384, 10}, {12, 224, 205824, 1}, {12, 256, 1024, 8},
    {12, 256, 1025, 8}, {12, 256, 2064, 8}, {12, 256, 49152, 4}, {12, 320, 1024, 6}, {12, 320, 9216, 6}, {12, 384, 16384, 5},
    {12, 640, 204800, 1}, {12, 640, 233473, 0}, {12, 768, 128, 2}, {12, 768, 40000, 2}, {12, 768, 103425, 2}, {12, 768, 220000, 1},
    {12, 1024, 16384, 2}, {16, 1, 232449, 0}, {16, 32, 1040, 32}, {16, 32, 8192, 25}, {16, 32, 24576, 9}, {16, 32, 32768, 6},
    {16, 64, 8192, 25}, {16, 96, 8192, 21}, {16, 96, 24576, 9}, {16, 128, 0, 16}, {16, 128, 8192, 16}, {16, 128, 65536, 3},
    {16, 128, 102400, 2}, {16, 160, 50176, 4}, {16, 192, 0, 10}, {16, 192, 3072, 10}, {16, 224, 0, 9}, {16, 224, 80000, 2},
    {16, 256, 50176, 4}, {16, 384, 80000, 2}, {16, 640, 0, 3}, {16, 640, 1, 3}, {16, 640, 50176, 3}, {16, 640, 232449, 0},
    {16, 768, 32768, 2}, {16, 1024, 1000, 2}, {18, 1, 128, 32}, {18, 1, 3072, 32}, {18, 33, 1, 32}, {18, 64, 4096, 32},
    {18, 96, 128, 21}, {18, 96, 8192, 21}, {18, 96, 16384, 13}, {18, 96, 180000, 1}, {18, 128, 0, 16}, {18, 192, 1, 10},
    {18, 256, 1, 8}, {18, 256, 102400, 2}, {18, 384, 1040, 5}, {18, 384, 4096, 5}, {18, 448, 220000, 1}, {18, 768, 8192, 2},
    {19, 1, 16384, 13}, {19, 32, 24576, 9}, {19, 32, 40000, 5}, {19, 33, 0, 32}, {19, 96, 1, 21}, {19, 128, 3072, 16},
    {19, 128, 220000, 1}, {19, 160, 16384, 12}, {19, 224, 3072, 9}, {19, 256, 40000, 5}, {19, 384, 1040, 5}, {19, 384, 4096, 5},
    {19, 448, 49152, 4}, {19, 512, 24576, 4}, {19, 640, 50176, 3}, {22, 1, 220000, 1}, {22, 32, 232449, 0}, {22, 33, 1, 32},
    {22, 33, 8192, 25}, {22, 64, 8192, 25}, {22, 64, 40000, 5}, {22, 128, 3072, 16}, {22, 160, 102400, 2}, {22, 224, 4096, 9},
    {22, 256, 32768, 6}, {22, 320, 232448, 1}, {22, 384, 49152, 4}, {24, 32, 24576, 9}, {24, 33, 1, 32}, {24, 33, 50176, 4},
    {24, 33, 80000, 2}, {24, 33, 232449, 0}, {24, 64, 32768, 6}, {24, 96, 0, 21}, {24, 96, 24576, 9}, {24, 128, 128, 16},
    {24, 128, 232449, 0}, {24, 160, 1000, 12}, {24, 192, 49152, 4}, {24, 192, 232449, 0}, {24, 224, 128, 9}, {24, 320, 8192, 6},
    {24, 384, 128, 5}, {24, 384, 1000, 5}, {24, 768, 4096, 2}, {24, 768, 32768, 2}, {25, 1, 4224, 32}, {25, 1, 7168, 28},
    {25, 1, 12288, 17}, {25, 32, 7168, 28}, {25, 32, 12288, 17}, {25, 33, 7168, 28}, {25, 33, 12288, 17}, {25, 33, 28672, 7},
    {25, 64, 7168, 28}, {25, 64, 8192, 25}, {25, 64, 12288, 17}, {25, 64, 28672, 7}, {25, 96, 12288, 17}, {25, 96, 44096, 5},
    {25, 128, 28672, 7}, {25, 128, 54272, 4}, {25, 160, 4096, 12}, {25, 160, 12288, 12}, {25, 160, 236545, 0}, {25, 192, 7168, 10},
    {25, 192, 8192, 10}, {25, 192, 12288, 10}, {25, 224, 28672, 7}, {25, 256, 28672, 7}, {25, 256, 135168, 1}, {25, 256, 224096, 1},
    {25, 320, 44096, 5}, {25, 320, 53248, 4}, {26, 1, 7296, 28}, {26, 1, 28800, 7}, {26, 32, 4225, 32}, {26, 32, 7296, 28},
    {26, 32, 28800, 7}, {26, 32, 236672, 0}, {26, 33, 7296, 28}, {26, 33, 12416, 17}, {26, 33, 84224, 2}, {26, 64, 7296, 28},
    {26, 64, 12416, 17}, {26, 64, 44224, 5}, {26, 96, 4352, 21}, {26, 96, 7296, 21}, {26, 96, 12416, 17}, {26, 96, 28800, 7},
    {26, 160, 28800, 7}, {26, 160, 69760, 3}, {26, 192, 4225, 10}, {26, 192, 28800, 7}, {26, 224, 7296, 9}, {26, 224, 28800, 7},
    {26, 224, 209024, 1}, {26, 256, 28800, 7}, {26, 256, 106624, 2}, {26, 256, 106625, 2}, {26, 384, 36992, 5}, {26, 512, 44224, 4},
    {26, 1024, 12416, 2}, {32, 1, 5120, 32}, {32, 1, 9232, 22}, {32, 1, 11264, 19}, {32, 1, 12288, 17}, {32, 1, 18432, 12},
    {32, 32, 2176, 32}, {32, 32, 8193, 24}, {32, 32, 8320, 24}, {32, 32, 9192, 22}, {32, 32, 10240, 20}, {32, 32, 11264, 19},
    {32, 32, 12288, 17}, {32, 32, 58368, 3}, {32, 32, 67584, 3}, {32, 33, 9232, 22}, {32, 33, 11264, 19}, {32, 33, 16384, 13},
    {32, 33, 88192, 2}, {32, 33, 110593, 2}, {32, 33, 131072, 1}, {32, 64, 8193, 24}, {32, 64, 8320, 24}, {32, 64, 9192, 22},
    {32, 64, 9232, 22}, {32, 64, 11264, 19}, {32, 64, 12288, 17}, {32, 64, 52224, 4}, {32, 64, 67584, 3}, {32, 96, 5120, 21},
    {32, 96, 9232, 21}, {32, 96, 11264, 19}, {32, 96, 12288, 17}, {32, 96, 32768, 6}, {32, 128, 80000, 2}, {32, 160, 3072, 12},
    {32, 160, 8192, 12}, {32, 160, 12288, 12}, {32, 160, 16384, 12}, {32, 192, 1000, 10}, {32, 192, 2176, 10}, {32, 224, 16384, 9},
    {32, 224, 40960, 5}, {32, 224, 88192, 2}, {32, 256, 34816, 6}, {32, 320, 3088, 6}, {32, 320, 9232, 6}, {32, 320, 16384, 6},
    {32, 320, 34816, 6}, {32, 320, 88192, 2}, {32, 448, 16384, 4}, {32, 448, 158192, 1}, {32, 512, 128, 4}, {32, 640, 48192, 3},
    {32, 640, 182048, 1}, {32, 1024, 58368, 2}, {40, 1, 232449, 0}, {40, 32, 3072, 32}, {40, 33, 0, 24}, {40, 33, 1000, 24},
    {40, 33, 1040, 24}, {40, 33, 8192, 24}, {40, 64, 0, 24}, {40, 64, 128, 24}, {40, 64, 1000, 24}, {40, 64, 3072, 24},
    {40, 64, 180000, 1}, {40, 128, 32768, 6}, {40, 192, 3072, 8}, {40, 192, 49152, 4}, {40, 224, 32768, 6}, {40, 256, 32768, 6},
    {40, 1024, 65536, 1}, {48, 1, 8192, 25}, {48, 1, 40000, 5}, {48, 32, 3072, 32}, {48, 32, 8192, 25}, {48, 33, 4096, 20},
    {48, 33, 8192, 20}, {48, 33, 24576, 9}, {48, 64, 1, 20}, {48, 64, 1000, 20}, {48, 64, 1040, 20}, {48, 64, 4096, 20},
    {48, 96, 16384, 13}, {48, 160, 8192, 8}, {48, 192, 102400, 2}, {48, 384, 4096, 3}, {48, 384, 8192, 3}, {48, 384, 24576, 3},
    {48, 448, 3072, 2}, {48, 768, 49152, 1}, {48, 896, 150000, 1}, {48, 1024, 50176, 1}, {64, 32, 16384, 13}, {64, 33, 0, 16},
    {64, 33, 16384, 13}, {64, 33, 40000, 5}, {64, 128, 49152, 4}, {64, 128, 80000, 2}, {64, 192, 32768, 5}, {64, 256, 4096, 4},
    {64, 256, 49152, 4}, {64, 448, 150000, 1}, {64, 448, 180000, 1}, {64, 640, 4096, 1}, {64, 768, 180000, 1}, {64, 1024, 16384, 1},
    {96, 1, 1, 20}, {96, 1, 128, 20}, {96, 1, 1040, 20}, {96, 32, 1, 20}, {96, 32, 8192, 20}, {96, 32, 32768, 6},
    {96, 32, 180000, 1}, {96, 33, 0, 10}, {96, 33, 32768, 6}, {96, 96, 131072, 1}, {96, 96, 220000, 1}, {96, 128, 180000, 1},
    {96, 192, 180000, 1}, {96, 192, 220000, 1}, {96, 320, 232448, 1}, {96, 640, 232449, 0}, {120, 32, 128, 16}, {120, 32, 16384, 13},
    {120, 128, 1040, 4}, {120, 128, 49152, 4}, {120, 160, 24576, 3}, {120, 192, 32768, 2}, {120, 224, 128, 2}, {120, 256, 50176, 2},
    {120, 256, 65536, 2}, {120, 256, 102401, 2}, {120, 256, 204800, 1}, {120, 384, 32768, 1}, {120, 448, 49152, 1}, {128, 1, 16384, 13},
    {128, 32, 1040, 16}, {128, 32, 16384, 13}, {128, 32, 80000, 2}, {128, 33, 50176, 4}, {128, 33, 102401, 2}, {128, 128, 220000, 1},
    {128, 160, 128, 3}, {128, 160, 1000, 3}, {128, 224, 1000, 2}, {128, 224, 232449, 0}, {128, 256, 80000, 2}, {128, 320, 232448, 1},
    {128, 384, 102400, 1}, {128, 448, 80000, 1}, {192, 128, 131072, 1}, {192, 128, 220000, 1}, {192, 224, 49152, 1}, {192, 224, 131072, 1},
    {254, 32, 3072, 8}, {254, 64, 3072, 4}, {254, 64, 220000, 1}, {254, 128, 49152, 2}, {254, 128, 232448, 1}, {254, 160, 32768, 1},
    {254, 192, 24576, 1}, {255, 1, 180000, 1}, {255, 32, 1, 8}, {255, 33, 8192, 4},
};

/* Run every check and report the count of failures. */
int main(void)
{
    printf("devices from %s\n", ws_device_dir());

    /* teaching SM (seed 000): T = 64, R = 32, S = 4 KiB; R = 64; S = 8 KiB */
    occ("teaching-sm", 64, 32, 4096, 4, 100, NULL, "teaching SM");
    occ("teaching-sm", 64, 64, 4096, 2, 50, "registers", "teaching SM, double R");
    occ("teaching-sm", 64, 32, 8192, 2, 50, "shared_memory", "teaching SM, double S");

    /* CUDA Programming Guide examples on an sm_90 device (both sm_90 presets) */
    const char *sm90[] = { "h100", "h200" };
    for (int i = 0; i < 2; i++) {
        occ(sm90[i], 768, 32, 0, 2, 75, "threads", "guide: 768 threads");
        occ(sm90[i], 32, 32, 0, 32, 50, "blocks", "guide: 32 threads (block slots)");
        occ(sm90[i], 256, 32, 100 * 1024, 2, 25, "shared_memory", "guide: 256 threads, 100 KB");
        occ(sm90[i], 192, 40, 16 * 1024, 8, 75, "registers", "guide: 192 threads, 40 regs, 16 KB");
        occ(sm90[i], 192, 32, 16 * 1024, 10, 93.75, NULL, "guide: 192 threads, 32 regs, 16 KB");
        const int regs[] = { 32, 64, 96, 128, 255 }, want[] = { 8, 4, 2, 2, 1 };
        for (int k = 0; k < 5; k++)
            occ(sm90[i], 256, regs[k], 0, want[k], -1, NULL, "guide: 256 threads, rising registers");
    }

    /* T4 (seed 003) */
    occ("t4", 256, 80, 0, 3, 75, "registers", "T4: 256 threads, 80 regs");
    occ("t4", 32, 16, 0, 16, 50, "blocks", "T4: <<<2, 32>>> theoretical");
    occ("t4", 128, 32, 48 * 1024, 1, 12.5, "shared_memory", "T4: 48 KB per 128-thread block");
    occ("t4", 256, 96, 0, 2, 50, "registers", "T4: 96 regs x 256 threads");

    /* two-core GPU (seed 004) */
    occ("two-core", 128, 32, 0, 3, -1, "threads", "two-core: 128 threads, no smem");
    occ("two-core", 128, 32, 520, 2, -1, "shared_memory", "two-core: with the 520-byte array");
    occ("two-core", 256, 32, 1032, 1, -1, NULL, "two-core: 256-thread preset, 1,032 B");

    /* waves (seed 001): the guide's 8-SM example, then 132 SMs at 2 blocks/SM */
    waves(12, 8, 1, 2, 75.0);
    waves(264, 132, 2, 1, 100.0);
    waves(265, 132, 2, 2, 50.2);
    waves(1000, 132, 2, 4, 94.7);
    waves(100000, 132, 2, 379, 99.9);
    {   /* the same through ws_occ_compute: 1024-thread blocks fit twice on an H200 SM */
        const ws_device *d = dev("h200");
        const long long grids[] = { 264, 265, 1000, 100000 }, want_w[] = { 1, 2, 4, 379 };
        const double want_u[] = { 100.0, 50.2, 94.7, 99.9 };
        for (int i = 0; d && i < 4; i++) {
            ws_occ_result r;
            ws_occ_compute(d, 1024, 32, 0, grids[i], &r);
            char desc[256];
            snprintf(desc, sizeof desc, "%-40s grid %lld -> %d blocks/SM, %lld waves, %.1f%%", "h200 1024-thread waves",
                     grids[i], r.blocks_per_sm, r.waves, 100 * r.wave_utilization);
            check(r.blocks_per_sm == 2 && r.waves == want_w[i] &&
                  fabs(round(1000 * r.wave_utilization) / 10 - want_u[i]) < 1e-9, desc);
        }
    }

    /* H200 against Nsight Compute (tests/data/h200): occ_copy, 18 registers, 256-thread blocks, 132 x 8 blocks */
    {
        const ws_device *d = dev("h200");
        const int kb[] = { 0, 24, 48, 96, 200 };
        const double pct[] = { 100, 100, 50, 25, 12.5 }, wps[] = { 1, 1, 2, 4, 8 };
        for (int i = 0; d && i < 5; i++) {
            ws_occ_result r;
            ws_occ_compute(d, 256, 18, (size_t)kb[i] * 1024, 132 * 8, &r);
            char desc[256];
            snprintf(desc, sizeof desc, "%-40s %3d KB -> %.1f%%, %.2f waves/SM, %d regs (ncu: %.1f%%, %.2f, 18)",
                     "h200 occ_copy (ncu)", kb[i], 100 * r.occupancy, r.waves_per_sm, r.regs_per_thread, pct[i], wps[i]);
            check(fabs(100 * r.occupancy - pct[i]) < 1e-9 && fabs(r.waves_per_sm - wps[i]) < 1e-9 &&
                  r.regs_per_thread == 18, desc);
        }
        /* ncu reports 16 registers per thread for kernels ptxas built with 8/10/12 */
        ws_occ_result r;
        ws_occ_compute(d, 256, 10, 0, 4096, &r);
        char desc[256];
        snprintf(desc, sizeof desc, "%-40s 10 regs -> %d allocated, %.2f waves/SM (ncu: 16, 3.88)", "h200 vec_add-like",
                 r.regs_per_thread, r.waves_per_sm);
        check(r.regs_per_thread == 16 && fabs(round(100 * r.waves_per_sm) / 100 - 3.88) < 1e-9, desc);
    }

    /* launches that cannot run at all */
    {
        struct { const char *gpu; int t, r; size_t s; const char *what; } bad[] = {
            { "h200", 1025, 32, 0, "too many threads" },
            { "h200", 1024, 65, 0, "registers per block" },
            { "h200", 32, 256, 0, "registers per thread" },
            { "h200", 256, 32, 227 * 1024 + 1, "shared memory per block" },
            { "t4", 128, 32, 64 * 1024 + 1, "T4 shared memory" },
            { "teaching-sm", 512, 8, 0, "teaching SM: 512 threads" },
            { "teaching-sm", 256, 64, 0, "teaching SM: 256 x 64 registers" },
            { "two-core", 128, 32, 2048, "two-core: 2 KiB" },
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            const ws_device *d = dev(bad[i].gpu);
            if (!d) continue;
            ws_occ_result r;
            int rc = ws_occ_compute(d, bad[i].t, bad[i].r, bad[i].s, 0, &r);
            char desc[512];
            snprintf(desc, sizeof desc, "%-40s %s T=%d R=%d S=%zu -> cannot run: %s", bad[i].what, bad[i].gpu, bad[i].t,
                     bad[i].r, bad[i].s, r.reason);
            check(rc == -1 && !r.ok && r.blocks_per_sm == 0 && r.reason[0], desc);
        }
        ws_occ_opts o = ws_occ_default_opts();
        o.smem_optin = 0;
        ws_occ_result r;
        int rc = ws_occ_compute_ex(dev("h200"), 256, 32, 48 * 1024 + 1, 0, &o, &r);
        check(rc == -1 && strstr(r.reason, "opting in") != NULL, "h200 49153 B without opt-in cannot run");
    }

    /* carve-out preference and barriers (cuda_occupancy.h semantics) */
    {
        const ws_device *d = dev("h200");
        ws_occ_opts o = ws_occ_default_opts();
        ws_occ_result r;
        o.carveout_pct = 50; /* 50% of 228 KiB = 114 KiB -> 132 KiB carve-out */
        ws_occ_compute_ex(d, 256, 32, 30 * 1024, 0, &o, &r);
        check(r.smem_config == 132 * 1024 && r.blocks_per_sm == 4, "h200 carve-out 50% -> 132 KiB, 4 blocks of 31 KiB");
        o.carveout_pct = 0; /* preference below one block: the next carve-out that holds it */
        ws_occ_compute_ex(d, 256, 32, 30 * 1024, 0, &o, &r);
        check(r.smem_config == 32 * 1024 && r.blocks_per_sm == 1, "h200 carve-out 0% -> 32 KiB, 1 block");
        o = ws_occ_default_opts();
        o.barriers = 16;
        ws_occ_compute_ex(d, 32, 16, 0, 0, &o, &r);
        check(r.blocks_per_sm == 4 && r.limiter == WS_OCC_LIMIT_BARRIERS, "h200 16 named barriers -> 4 blocks");
    }

    /* the real H200's cudaOccupancyMaxActiveBlocksPerMultiprocessor */
    {
        const ws_device *d = dev("h200");
        int n = (int)(sizeof h200_sweep / sizeof h200_sweep[0]), bad = 0;
        for (int i = 0; d && i < n; i++) {
            ws_occ_result r;
            ws_occ_compute(d, h200_sweep[i][1], h200_sweep[i][0], (size_t)h200_sweep[i][2], 0, &r);
            if (r.blocks_per_sm != h200_sweep[i][3]) {
                bad++;
                printf("      mismatch: regs %d threads %d smem %d -> %d, H200 said %d\n", h200_sweep[i][0],
                       h200_sweep[i][1], h200_sweep[i][2], r.blocks_per_sm, h200_sweep[i][3]);
            }
        }
        char desc[128];
        snprintf(desc, sizeof desc, "%-40s %d configurations, %d mismatches", "h200 occupancy API sweep", n, bad);
        check(bad == 0, desc);
    }

    /* advisor: every block size, a recommendation, and a disagreement it explains */
    {
        ws_advice a;
        int rc = ws_occ_advise(dev("h200"), 32, 0, 1000000, &a);
        check(rc == 0 && a.n == WS_ADVISE_NSIZES && a.recommended >= 0 && a.highest_occupancy >= 0 &&
              a.rows[a.highest_occupancy].occ.occupancy == 1.0, "advise h200 R=32 N=1e6: rows and picks");
        check(a.rows[0].occ.blocks_per_sm == 32 && a.rows[0].blocks == 31250 && a.rows[9].blocks == 977,
              "advise h200: 32-thread row 32 blocks/SM, 31250 blocks; 1024-thread row 977 blocks");
        rc = ws_occ_advise(dev("h200"), 32, 0, 300000, &a);
        check(rc == 0 && a.rows[a.recommended].block_size == 96 && a.rows[a.highest_occupancy].block_size == 64 &&
              a.disagreement[0], "advise h200 R=32 N=300000: rule 96 vs highest occupancy 64, explained");
        rc = ws_occ_advise(dev("teaching-sm"), 64, 0, 1000, &a);
        check(rc == 0 && !a.rows[9].occ.ok && a.recommended >= 0, "advise teaching-sm R=64: 1024 cannot run, others can");
    }

    /* PTX from a newer toolkit (CuPy's CUB kernels: .version 9.2, .target sm_120): ptxas sizes it once the
     * target is lowered to the device and the version to the one this ptxas names */
    {
        static const char ptx[] =
            ".version 9.9\n.target sm_120\n.address_size 64\n"
            ".visible .entry newer(.param .u64 p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n"
            " ld.param.u64 %rd1, [p];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r1, %tid.x;\n"
            " st.global.u32 [%rd2], %r1;\n ret;\n}\n";
        char err[512] = "";
        const ws_ptxas_table *t = ws_occ_ptxas_table(ptx, sizeof ptx - 1, dev("h200"), err, sizeof err);
        if (!t && strstr(err, "ptxas not found")) {
            printf("SKIP  PTX 9.9 for sm_120 on h200: %s\n", err);
        } else {
            int regs = 0;
            size_t smem = 1;
            int rc = ws_occ_kernel_regs(ptx, sizeof ptx - 1, "newer", dev("h200"), &regs, &smem);
            char desc[700];
            snprintf(desc, sizeof desc, "PTX .version 9.9 .target sm_120 sized by ptxas for h200: rc %d, %d regs (%.512s)",
                     rc, regs, t ? "ok" : err);
            check(t && t->retargeted && rc == 0 && regs > 0 && regs <= 255 && smem == 0, desc);
        }
    }

    printf("%d checks, %d failed\n", g_checks, g_fail);
    return g_fail ? 1 : 0;
}
