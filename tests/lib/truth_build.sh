#!/usr/bin/env bash
# truth_build.sh - build an H200 measurement program (tests/data/h200/PROG.cu, or $WARPSIM_TRUTH_DIR/PROG.cu; PROG
# is truth, the calibration set, unless given: heldout is the held-out set, tensor the tensor-core set) into
# build/PROG with nvcc -O3 -arch=sm_90 -lineinfo -cudart shared (tensor: for sm_90a, whose wgmma needs it: nvcc 13's
# -arch=sm_90a also makes compute_90 PTX, which ptxas refuses), unless build/PROG is newer than the source.
# Used by the truth tests in tests/cli and by bench/calibrate.py (make calibrate); a lock lets them run at once.
#
#   tests/lib/truth_build.sh [PROG] exit 0: build/PROG is up to date; 77: nvcc is missing (the last line of the
#                                   output says so); 1: the data is missing or nvcc failed (the last line says why)
# Environment: WARPSIM_TRUTH_DIR (default tests/data/h200), NVCC (default nvcc).
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TRUTH=${WARPSIM_TRUTH_DIR:-$ROOT/tests/data/h200}
NVCC=${NVCC:-nvcc}
PROG=${1:-truth}
case $PROG in truth|heldout) ARCH=(-arch=sm_90) ;; tensor) ARCH=(-gencode 'arch=compute_90a,code=[sm_90a,compute_90a]') ;;
  *) echo "truth_build: unknown program $PROG (truth, heldout or tensor)"; exit 1 ;; esac
SRC=$TRUTH/$PROG.cu
EXE=$ROOT/build/$PROG
mkdir -p "$ROOT/build"

[ -f "$SRC" ] || { echo "truth_build: $SRC not found"; exit 1; }
{
  flock 9
  [ -x "$EXE" ] && [ "$EXE" -nt "$SRC" ] && exit 0
  if ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "$NVCC not found: cannot build $SRC into build/$PROG"
    exit 77
  fi
  tmp=$EXE.tmp.$$
  if ! "$NVCC" -O3 "${ARCH[@]}" -lineinfo -cudart shared -o "$tmp" "$SRC" >"$ROOT/build/$PROG.log" 2>&1; then
    rm -f "$tmp"
    tail -n 5 "$ROOT/build/$PROG.log"
    echo "truth_build: nvcc could not build $SRC (log in build/$PROG.log)"
    exit 1
  fi
  mv -f "$tmp" "$EXE"
} 9>"$ROOT/build/.$PROG.lock"
