#!/usr/bin/env bash
# TIMEOUT: 180
# The seed's teaching machines under the timing model:
#  - two-core: the convolve kernels place 3 (version 1), 2 (version 2, 520-byte array) and 1 (256-thread preset,
#    1,032 bytes) blocks per core at once;
#  - teaching-sm: warps doing LD -> ADD -> STORE use more issue slots as resident warps grow, until DRAM
#    bandwidth (the seed's 200 GB/s) is the limit.
# Exits 0 when every check passes, 77 (skipped) when nvcc or python3 is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
W=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
OUT=build/tests/teaching
mkdir -p "$OUT"
fails=0
# check DESCRIPTION STATUS: report one check (STATUS 0 passes)
check() { if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }
command -v python3 >/dev/null 2>&1 || { echo "teaching_presets: python3 not found"; exit 77; }
for p in convolve_placement latency_hiding; do
  [ "$OUT/$p" -nt tests/timing/$p.cu ] && continue
  command -v "$NVCC" >/dev/null 2>&1 || { echo "teaching_presets: $NVCC not found"; exit 77; }
  "$NVCC" -cudart shared -lineinfo -o "$OUT/$p" tests/timing/$p.cu || exit 1
done
# field REPORT KEY: KEY of the first launch in a --report JSON file
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['launches'][0][sys.argv[2]])" "$1" "$2"; }

for v in 1:3 2:2 3:1; do
  ver=${v%%:*} want=${v##*:}
  "$W" run --gpu two-core --timing --quiet --report "$OUT/conv$ver.json" "$OUT/convolve_placement" "$ver" >/dev/null
  got=$(field "$OUT/conv$ver.json" warpsim__max_resident_blocks_per_sm)
  [ "$got" = "$want" ]
  check "two-core convolve version $ver: $got blocks per core at once (seed: $want)" $?
done

prev=0
for w in 1 2 4 8; do
  "$W" run --gpu teaching-sm --timing --quiet --report "$OUT/lat$w.json" "$OUT/latency_hiding" "$w" 1 32 8 >/dev/null || { check "latency_hiding $w warps runs" 1; continue; }
  issue=$(field "$OUT/lat$w.json" smsp__issue_active.avg.pct_of_peak_sustained_active)
  ns=$(field "$OUT/lat$w.json" gpu__time_duration.sum)
  rd=$(field "$OUT/lat$w.json" dram__bytes_read.sum)
  wr=$(field "$OUT/lat$w.json" dram__bytes_write.sum)
  gbs=$(python3 -c "print(round(($rd + $wr) / $ns, 1))")
  echo "     teaching-sm, $w warps per SM: issue slots busy $issue%, DRAM $gbs GB/s"
  python3 -c "import sys; sys.exit(0 if $issue + 2.0 >= $prev else 1)"
  check "issue-slot use grows, then plateaus, as resident warps grow ($w warps: $issue% >= $prev%)" $?
  prev=$issue
  last_gbs=$gbs
done
python3 -c "import sys; sys.exit(0 if $last_gbs >= 180 else 1)"
check "8 warps per SM are limited by the 200 GB/s DRAM bandwidth ($last_gbs GB/s)" $?

[ "$fails" = 0 ] && echo "teaching_presets: all checks passed" && exit 0
echo "teaching_presets: $fails check(s) failed"
exit 1
