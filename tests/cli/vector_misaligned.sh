#!/usr/bin/env bash
# vector_misaligned.sh - a float4 read 4 bytes off its 16-byte alignment by a full warp (the vector loads' whole-warp
# path must hand it to the lane-by-lane one and its error): tests/programs/vector_access.cu with the argument
# "misaligned", in functional and timing mode, must end the launch with cudaErrorMisalignedAddress.
# Exits 77 (skipped) when nvcc is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
OUT=build/tests/vector_misaligned
mkdir -p "$OUT"
command -v "$NVCC" >/dev/null 2>&1 || { echo "vector_misaligned: $NVCC not found"; exit 77; }
if ! [ "$OUT/vector_access" -nt tests/programs/vector_access.cu ]; then
  "$NVCC" -cudart shared -o "$OUT/vector_access" tests/programs/vector_access.cu || { echo "FAIL: nvcc"; exit 1; }
fi
fails=0
for mode in functional timing; do
  out=$("$WARPSIM" run --quiet --mode=$mode "$OUT/vector_access" misaligned 2>&1)
  if echo "$out" | grep -q "^PASS misaligned float4 read: cudaErrorMisalignedAddress"; then echo "ok   $mode: $(echo "$out" | grep misaligned | head -1)"
  else echo "FAIL $mode: $out"; fails=$((fails + 1)); fi
done
[ $fails = 0 ] && echo "PASS" || exit 1
