#!/usr/bin/env bash
# TIMEOUT: 180
# Host side of the timing model (simulated time through cudaEventElapsedTime): pinned copies run at the preset's
# pinned host-link bandwidth and faster than pageable ones, a CUDA graph of 100 kernels costs less than 100
# launches, and a copy overlaps a kernel on another stream. Exits 77 (skipped) when nvcc or python3 is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
OUT=build/tests/timeline
mkdir -p "$OUT"
command -v python3 >/dev/null 2>&1 || { echo "host_timeline: python3 not found"; exit 77; }
if ! [ "$OUT/host_timeline" -nt tests/timing/host_timeline.cu ]; then
  command -v "$NVCC" >/dev/null 2>&1 || { echo "host_timeline: $NVCC not found"; exit 77; }
  "$NVCC" -cudart shared -lineinfo -o "$OUT/host_timeline" tests/timing/host_timeline.cu || exit 1
fi
"$WARPSIM" run --timing --quiet "$OUT/host_timeline" > "$OUT/out.txt" || { cat "$OUT/out.txt"; exit 1; }
cat "$OUT/out.txt"
python3 - "$OUT/out.txt" <<'PY'
import sys
v = dict((k, float(x)) for k, x in (l.split() for l in open(sys.argv[1]) if l.split()[0] != "status"))
gbs = 32 * 2**20 / (v["pinned_ms"] * 1e-3) / 1e9
checks = [
    (f"pinned copy runs at the h200 preset's 55 GB/s host link ({gbs:.1f} GB/s)", 45 < gbs < 56),
    ("pageable copies are slower than pinned ones", v["pageable_ms"] > 3 * v["pinned_ms"]),
    ("a graph of 100 kernels costs less than 100 launches", v["graph_us"] < v["launches_us"]),
    ("a copy and a kernel on two streams overlap", v["overlapped_ms"] < v["serial_ms"] * 0.95),
]
bad = 0
for text, ok in checks:
    print(("ok   " if ok else "FAIL ") + text)
    bad += not ok
sys.exit(1 if bad else 0)
PY
