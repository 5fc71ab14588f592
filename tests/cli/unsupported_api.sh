#!/usr/bin/env bash
# TIMEOUT: 120
# unsupported_api.sh - every cuda* function NVIDIA's libcudart.so.13 exports exists in warpsim's: a program that
# calls one warpsim does not simulate (here CUDA IPC and stream attribute copies) links and runs, the call returns
# cudaErrorNotSupported (also from cudaGetLastError), and warpsim says once which function is missing. Exits 77
# (skipped) when nvcc is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
OUT=build/tests/unsupported
mkdir -p "$OUT"
command -v "$NVCC" >/dev/null 2>&1 || { echo "unsupported_api: $NVCC not found"; exit 77; }
if ! [ "$OUT/ipc" -nt tests/unsupported/ipc.cu ]; then
  "$NVCC" -cudart shared -o "$OUT/ipc" tests/unsupported/ipc.cu || exit 1
fi
fails=0
# the library exports every cuda* function NVIDIA's does
missing=$(comm -23 <(sed -n 's/^WS_RT_FN(\(.*\))$/\1/p' src/runtime/rt_names.h | sort) \
                   <(nm -D --defined-only build/lib/libcudart.so.13 | awk '{print $3}' | sed 's/@.*//' | sort -u) | head -5)
if [ -z "$missing" ]; then echo "ok   libcudart.so.13 exports all $(grep -c '^WS_RT_FN' src/runtime/rt_names.h) cuda* functions of NVIDIA's"
else echo "FAIL not exported: $missing"; fails=$((fails + 1)); fi
"$WARPSIM" run "$OUT/ipc" >"$OUT/out.txt" 2>"$OUT/err.txt"
rc=$?
if [ $rc = 0 ] && grep -q "^PASS ipc" "$OUT/out.txt" &&
   [ "$(grep -c 'cudaIpcGetMemHandle is not supported by the simulator (it returns cudaErrorNotSupported)' "$OUT/err.txt")" = 1 ] &&
   grep -q "cudaStreamCopyAttributes is not supported by the simulator" "$OUT/err.txt"; then
  echo "ok   unsupported calls return cudaErrorNotSupported and are named once on stderr"
else
  echo "FAIL unsupported calls (status $rc)"; cat "$OUT/out.txt" "$OUT/err.txt" | tail -8; fails=$((fails + 1))
fi
[ "$fails" = 0 ]
