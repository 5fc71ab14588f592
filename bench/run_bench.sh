#!/usr/bin/env bash
# run_bench.sh - warpsim speed: simulated warp-instructions per second (and simulated cycles per second in timing
# mode) on bench/bench.cu's kernels: map (saxpy), naive matmul, tiled matmul with barriers, reduction with shuffles.
# Then the timing-mode rate over the truth kernels of tests/data/h200 (bench/timing_rates.py).
# usage: bench/run_bench.sh [SCALE]   (SCALE multiplies the matrix size; default 1 = 256x256)
# BENCH_THREADS=N: warpsim run --threads N for the truth kernels; BENCH_TRUTH=a,b: only those truth kernels
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-1}
mkdir -p build/bench
exe=build/bench/bench
[ "$exe" -nt bench/bench.cu ] || nvcc -cudart shared -lineinfo -O3 -o "$exe" bench/bench.cu
for mode in functional timing; do
    rep=build/bench/$mode.json
    /usr/bin/time -f "%e" -o build/bench/$mode.wall build/warpsim run --quiet --mode=$mode --report "$rep" "$exe" "$scale" >/dev/null
    python3 - "$rep" "$mode" "$(cat build/bench/$mode.wall)" <<'PY'
import json, sys
rep, mode, wall = sys.argv[1], sys.argv[2], float(sys.argv[3])
L = json.load(open(rep))["launches"]
print(f"{mode} mode (process wall time {wall:.2f} s):")
ti = tt = tc = 0
for l in L:
    w, t = l.get("warpsim__ptx_inst_executed.sum", l["smsp__inst_executed.sum"]), l["host_seconds"]
    c = l.get("sm__cycles_elapsed.max")
    ti += w; tt += t; tc += c or 0
    extra = f", {c / t / 1e6:7.2f} M simulated cycles/s" if c else ""
    print(f"  {l['kernel'][:28]:28s} {w:>10d} warp-insts in {t:6.3f} s = {w / t / 1e6:7.2f} M warp-insts/s{extra}")
extra = f", {tc / tt / 1e6:.2f} M simulated cycles/s" if tc else ""
print(f"  total: {ti} warp-insts in {tt:.3f} s = {ti / tt / 1e6:.2f} M warp-insts/s{extra}")
PY
done
# timing mode over the 31 truth kernels (tests/data/h200): a line per kernel and the overall rate (BENCH_TRUTH=a,b
# picks some; skipped with a note when nvcc is missing)
set +e
python3 bench/timing_rates.py ${BENCH_TRUTH:+--only "$BENCH_TRUTH"} ${BENCH_THREADS:+--threads "$BENCH_THREADS"}
rc=$?
[ "$rc" = 77 ] && echo "timing rates over the truth kernels: skipped (nvcc missing: no build/truth)"
[ "$rc" = 0 ] || [ "$rc" = 77 ]
