#!/usr/bin/env bash
# TIMEOUT: 120
# occupancy_oracle.sh - the CUDA toolkit's own cuda_occupancy.h as an oracle for warpsim's occupancy calculator:
# for every real preset, carve-outs, barriers and a sweep of threads x registers x shared memory, both must give
# the same blocks per SM. Needs g++, the toolkit's cuda_occupancy.h and build/libwarpsim.a; exits 77 (skipped) when
# g++ or the header is missing, 0 when every configuration agrees.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export WARPSIM_DEVICES=$ROOT/devices
CUDA_INC=${CUDA_HOME:-/usr/local/cuda}/include
LIB=$ROOT/build/libwarpsim.a
command -v g++ > /dev/null 2>&1 || { echo "occupancy_oracle: g++ not found"; exit 77; }
[ -f "$CUDA_INC/cuda_occupancy.h" ] || { echo "occupancy_oracle: $CUDA_INC/cuda_occupancy.h not found (set CUDA_HOME)"; exit 77; }
[ -f "$LIB" ] || { echo "FAIL  $LIB not built (run make)"; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-occoracle-XXXXXX")
trap 'rm -rf "$TMP"' EXIT

cat > "$TMP/oracle.cpp" << 'EOF'
#include <initializer_list>
#include <cstdio>
#include <cuda_occupancy.h>
extern "C" {
#include "device/device.h"
#include "analysis/occupancy.h"
}
int main() {
    const char *names[] = {"t4", "v100", "a100", "rtx3050-laptop", "h100", "h200"};
    long total = 0, bad = 0;
    for (const char *n : names) {
        char err[512];
        const ws_device *d = ws_device_get(n, err, sizeof err);
        if (!d) { printf("cannot load %s: %s\n", n, err); return 1; }
        cudaOccDeviceProp p;
        p.computeMajor = d->cc_major; p.computeMinor = d->cc_minor; p.maxThreadsPerBlock = d->max_threads_per_block;
        p.maxThreadsPerMultiprocessor = d->max_threads_per_sm; p.regsPerBlock = d->max_regs_per_block;
        p.regsPerMultiprocessor = d->regs_per_sm; p.warpSize = d->warp_size; p.sharedMemPerBlock = d->smem_per_block;
        p.sharedMemPerMultiprocessor = d->smem_per_sm; p.numSms = d->sm_count;
        p.sharedMemPerBlockOptin = d->smem_per_block_optin; p.reservedSharedMemPerBlock = d->smem_reserved_per_block;
        for (int carve : {-1, 0, 50, 100}) for (int bars : {0, 1, 3})
        for (int t : {1, 32, 33, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024})
        for (int r : {0, 8, 16, 24, 32, 33, 40, 48, 64, 65, 80, 96, 128, 168, 200, 255})
        for (size_t s : {0, 1, 1000, 4096, 16384, 40000, 49152, 49153, 65536, 65537, 98304, 102400, 150000,
                         167936, 200000, 232448, 233472}) {
            cudaOccFuncAttributes a;
            a.maxThreadsPerBlock = 1024; a.numRegs = r < d->min_regs_per_thread ? d->min_regs_per_thread : r;
            a.sharedSizeBytes = 0; a.partitionedGCConfig = PARTITIONED_GC_OFF; a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
            a.maxDynamicSharedSizeBytes = d->smem_per_block_optin; a.numBlockBarriers = bars; a.virtualResourceCount = 0;
            cudaOccDeviceState st;
            st.cacheConfig = CACHE_PREFER_NONE;
            st.carveoutConfig = carve < 0 ? SHAREDMEM_CARVEOUT_DEFAULT : (cudaOccCarveoutConfig)carve;
            cudaOccResult res;
            cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&res, &p, &a, &st, t, s);
            int want = e == CUDA_OCC_SUCCESS ? res.activeBlocksPerMultiprocessor : 0;
            ws_occ_opts o = ws_occ_default_opts();
            o.carveout_pct = carve; o.barriers = bars;
            ws_occ_result m;
            ws_occ_compute_ex(d, t, r, s, 0, &o, &m);
            total++;
            if (want != m.blocks_per_sm && bad++ < 10)
                printf("  %s carve-out %d barriers %d: T=%d R=%d S=%zu -> cuda_occupancy.h %d, warpsim %d\n", n, carve,
                       bars, t, r, s, want, m.blocks_per_sm);
        }
    }
    printf("%ld configurations, %ld differ\n", total, bad);
    return bad != 0;
}
EOF
if ! g++ -O1 -std=c++17 -w -I"$ROOT/src" -I"$CUDA_INC" -o "$TMP/oracle" "$TMP/oracle.cpp" "$LIB" \
        -lzstd -llz4 -ljansson -lm -lpthread -ldl > "$TMP/oracle.log" 2>&1; then
    sed 's/^/      | /' "$TMP/oracle.log" | head -20
    echo "FAIL  could not build the cuda_occupancy.h oracle"
    exit 1
fi
"$TMP/oracle"
rc=$?
if [ "$rc" = 0 ]; then echo "PASS  cuda_occupancy.h agrees on every real preset"; else echo "FAIL  cuda_occupancy.h and warpsim differ (status $rc)"; fi
exit "$rc"
