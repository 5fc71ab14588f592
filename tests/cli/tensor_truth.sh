#!/usr/bin/env bash
# TIMEOUT: 240
# tensor_truth.sh - the tensor-core and async-copy kernels of tests/data/h200/tensor.cu against the real H200
# (tensor_ncu.csv): every kernel runs and validates against its CPU reference in functional mode at its measured
# size, and five of the eight (wmma f16 and s8, the mma.sync + ldmatrix + cp.async mainloop, wgmma + TMA, the
# cp.async stencil; make calibrate runs all eight) under --timing on the h200 preset: bench/calibrate.py --check
# passes when each is within 25% of the H200's sm__cycles_elapsed.max, every deterministic counter the two H200
# runs agree on is exact and the tensor-pipe instruction count times its SASS instructions per PTX instruction
# equals the H200's. Exits 77 (skipped) when python3, nvcc or the H200 data is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
TRUTH=${WARPSIM_TRUTH_DIR:-tests/data/h200}
OUT=build/tests/tensor_truth
mkdir -p "$OUT"
SUBSET=wmma_f16,wmma_s8,mma_pipe,wgmma_tma,stencil_async

command -v python3 >/dev/null 2>&1 || { echo "tensor_truth: python3 not found"; exit 77; }
for f in tensor_ncu.csv tensor_benches.txt tensor.cu; do
  [ -f "$TRUTH/$f" ] || { echo "tensor_truth: $TRUTH/$f not found (the H200 data of tests/data/h200 is missing)"; exit 77; }
done
WARPSIM_TRUTH_DIR=$TRUTH bash tests/lib/truth_build.sh tensor >"$OUT/build.txt" 2>&1
rc=$?
[ "$rc" = 0 ] || { tail -n 3 "$OUT/build.txt"; exit "$rc"; }

fails=0
while read -r name size _; do
  case $name in '#'*|'') continue ;; esac
  line=$("$WARPSIM" run --quiet build/tensor "$name" "$size" 0 2>"$OUT/$name.err")
  if [ "$(echo "$line" | cut -d, -f6)" = 1 ]; then echo "ok   $name $size (functional, valid)"
  else echo "FAIL $name $size: '$line' $(tail -n 2 "$OUT/$name.err")"; fails=$((fails + 1)); fi
done <"$TRUTH/tensor_benches.txt"

python3 bench/calibrate.py --no-write --check --jobs 2 --set tensor --only "$SUBSET" >"$OUT/calibrate.txt" 2>&1
rc=$?
grep -E '^\| (wmma|mma|wgmma|stencil)|calibration check' "$OUT/calibrate.txt"
echo "tensor_truth: $fails functional failure(s), calibrate.py --check exit $rc"
[ "$rc" = 0 ] || exit "$rc"   # 77 (no nvcc) skips; anything else fails
[ "$fails" = 0 ]
