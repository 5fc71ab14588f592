#!/usr/bin/env bash
# TIMEOUT: 300
# The timing model simulates SMs on two threads when the machine has two cores; the results must be bit-identical
# to one thread: same cycles, counters, stall reasons and program output. The benchmark's four kernels at a size
# whose grids reach both threads' SMs (192 x 192 matrices: 144 blocks; 2^18-element vectors: 1,024 blocks).
# Exits 77 (skipped) when nvcc or python3 is missing.
set -eu
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
OUT=build/tests/threads
mkdir -p "$OUT"
command -v python3 >/dev/null 2>&1 || { echo "timing_threads: python3 not found"; exit 77; }
if ! [ "$OUT/bench" -nt bench/bench.cu ]; then
  command -v "$NVCC" >/dev/null 2>&1 || { echo "timing_threads: $NVCC not found"; exit 77; }
  "$NVCC" -cudart shared -lineinfo -O3 -o "$OUT/bench" bench/bench.cu
fi
for n in 1 2; do
  WARPSIM_THREADS=$n "$WARPSIM" run --timing --quiet --report "$OUT/t$n.json" "$OUT/bench" 1 192 262144 >"$OUT/out$n.txt"
done
cmp "$OUT/out1.txt" "$OUT/out2.txt"
python3 - "$OUT/t1.json" "$OUT/t2.json" <<'PY'
import json, sys
a, b = (json.load(open(f))["launches"] for f in sys.argv[1:3])
strip = lambda l: {k: v for k, v in l.items() if k != "host_seconds"}
same = len(a) == len(b) and all(strip(x) == strip(y) for x, y in zip(a, b))
for x in a:
    print(f"{x['kernel'][:32]:32s} {x['sm__cycles_elapsed.max']:>8} cycles")
print("one thread and two threads:", "bit-identical" if same else "DIFFERENT")
sys.exit(0 if same else 1)
PY
