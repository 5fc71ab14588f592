#!/usr/bin/env bash
# TIMEOUT: 300
# calibration.sh - the timing model against the real H200 (tests/data/h200), on a representative subset of the 31
# truth benchmarks under --timing on the h200 preset (17 of them, about a third of the full run's time): one or
# more of each kind of kernel (streaming, strided, row/column copy, naive and tiled matmul, transpose, shuffle
# reduction, histograms, tiled convolution with its explained shared-memory exception, SpMV, occupancy-capped
# copies) and both sides of seven of the ten pairwise comparisons the seed teaches (left to make calibrate:
# strided8/strided2, spmv_scalar64/spmv_vector64, diverge_lane/diverge_warp). Its error over the subset was 13.7%
# when the full run's was 12.8%. The held-out set (heldout.cu) is left to make calibrate.
# bench/calibrate.py --check passes when, over the subset, the mean absolute error of sm__cycles_elapsed.max is at
# most 25%, no kernel is off by 2x or more, every pair points the right way and every deterministic counter is
# exact. `make calibrate` runs all 31 benchmarks with the same assertions (and rewrites bench/calibration.md).
# Then the pointer chase: load latency in L1 and in L2 within 20% of the H200's.
# Exits 77 (skipped) when python3, nvcc or the H200 data is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
TRUTH=${WARPSIM_TRUTH_DIR:-tests/data/h200}
OUT=build/tests/calibration
mkdir -p "$OUT"
SUBSET=vec_add,strided1,strided32,copy_row,copy_col,matmul_naive,matmul_t16,transpose_pad0,transpose_pad1,dot_shfl,
SUBSET=${SUBSET}hist_global,hist_shared,conv_tiled,spmv_scalar4,spmv_vector4,occ0,occ200

command -v python3 >/dev/null 2>&1 || { echo "calibration: python3 not found"; exit 77; }
for f in ncu_summary.csv benches.txt timing.csv truth.cu; do
  [ -f "$TRUTH/$f" ] || { echo "calibration: $TRUTH/$f not found (the H200 data of tests/data/h200 is missing)"; exit 77; }
done

python3 bench/calibrate.py --no-write --check --jobs 2 --only "$SUBSET" >"$OUT/calibrate.txt" 2>&1
rc=$?
tail -n 30 "$OUT/calibrate.txt"
[ "$rc" = 0 ] || exit "$rc"   # 77 (no nvcc) skips; anything else fails

# load latency: the truth pointer chase (clock64 around 4096 dependent loads, warm caches as in its timing loop)
# measured ~40 cycles per hop in L1 (256 words) and ~282 in L2 (131072 words) on the H200: timing.csv's work column
fails=0
for n in 256 131072; do
  hw=$(awk -F, -v n="$n" '$1 == "chase" && $2 == n { print $5 }' "$TRUTH/timing.csv")
  [ -n "$hw" ] || { echo "FAIL chase $n: no H200 measurement in $TRUTH/timing.csv"; fails=$((fails + 1)); continue; }
  got=$("$WARPSIM" run --timing --quiet --cache-control none build/truth chase "$n" | cut -d, -f5)
  if python3 -c "import sys; g, h = float('${got:-nan}'), float('$hw'); print(f'chase $n words: {g:.1f} cycles per load (H200 {h})'); sys.exit(0 if abs(g - h) / h < 0.2 else 1)"; then
    echo "ok   chase $n"
  else
    echo "FAIL chase $n: '${got}' cycles per load, H200 $hw"
    fails=$((fails + 1))
  fi
done
echo "calibration: $fails chase failure(s)"
[ "$fails" = 0 ]
