#!/usr/bin/env bash
# TIMEOUT: 300
# triton.sh - Triton kernels under `warpsim run python3 ...` (tests/python/triton_kernels.py: a vector add, a row
# softmax and tl.dot matrix products that become wgmma with K-major and MN-major shared-memory operands), in a
# virtual environment with Triton from PyPI (tests/lib/pyenv.sh build/pyenv-triton triton==VERSION; .ci/run makes
# it beforehand). Triton compiles PTX to a cubin with the ptxas that `warpsim run` names (build/lib/ptxas, which
# keeps the PTX: warpsim runs that), and builds its launcher with the C compiler and Python's headers.
# Checks: the kernels' results against NumPy in functional mode; the quick case in --timing mode with a report
# naming Triton's kernels; a second run reusing Triton's cache (no ptxas: the PTX kept from the first run is found);
# a cubin with no kept PTX still gets warpsim's clear SASS-only message.
# Exits 0 when every check passes, 77 (skip) when the environment or Python's headers are missing.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT" || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
WORK=build/tests/triton-work
VENV=${WARPSIM_TRITON_PYENV:-$ROOT/build/pyenv-triton}
TRITON_PKG="triton==3.9.0"
[ -x "$(dirname "$WARPSIM")/lib/ptxas" ] || { echo "FAIL $(dirname "$WARPSIM")/lib/ptxas is missing (run make)"; exit 1; }
why=$(tests/lib/pyenv.sh "$VENV" "$TRITON_PKG") || { echo "SKIP triton: no Python environment from PyPI: $why"; exit 77; }
PY=$VENV/bin/python3
inc=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -f "$inc/Python.h" ] || { echo "SKIP triton: Python's headers ($inc/Python.h) are missing (install python3-dev)"; exit 77; }
command -v cc >/dev/null || command -v gcc >/dev/null || { echo "SKIP triton: no C compiler"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK"
export PYTHONWARNINGS=ignore TRITON_DEFAULT_FP_FUSION=1
# a cache of Triton's and of kept PTX of this test's own
export TRITON_CACHE_DIR=$WORK/triton-cache WARPSIM_KEPT_DIR=$WORK/kept
mkdir -p "$WARPSIM_KEPT_DIR"
fails=0

# check NAME CONDITION-RESULT: report one check
check() {
  if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

# run LABEL [warpsim options] -- script args: one run that must print PASS triton_kernels, log in $WORK/LABEL.log
run() {
  local label=$1
  shift
  "$WARPSIM" run --quiet "$@" >"$WORK/$label.log" 2>&1
  local rc=$?
  grep -q "^PASS triton_kernels$" "$WORK/$label.log" && [ "$rc" = 0 ]
  local r=$?
  [ "$r" = 0 ] || tail -20 "$WORK/$label.log"
  check "$label" $r
}

run functional "$PY" tests/python/triton_kernels.py
kept=$(ls "$WARPSIM_KEPT_DIR" | wc -l)
[ "$kept" -ge 7 ]; check "warpsim ptxas kept the PTX of each of Triton's cubins ($kept)" $?
grep -q 'wgmma.mma_async.*, 1, 1, 1, 1;' "$WARPSIM_KEPT_DIR"/*.ptx; check "a product with both operands MN-major (imm-trans 1) ran" $?
WARPSIM_THREADS=1 run timing --timing --report "$WORK/tri.json" "$PY" tests/python/triton_kernels.py quick
"$PY" - "$WORK/tri.json" <<'PYEOF'
import json, sys
names = [l["kernel"] for l in json.load(open(sys.argv[1]))["launches"]]
assert "add_kernel" in names and "matmul_kernel" in names, names
print("timing report: " + ", ".join(names))
PYEOF
check "the timing report names Triton's kernels" $?
# Triton's cache: no compile, no ptxas; the kept PTX is found again for the cached cubins
TRITON_PTXAS_PATH=/nonexistent run cached "$PY" tests/python/triton_kernels.py
# without the kept PTX, the cached cubins are SASS only: a clear error, not a wrong answer
WARPSIM_KEPT_DIR=$WORK/empty "$WARPSIM" run "$PY" tests/python/triton_kernels.py quick >"$WORK/nokept.log" 2>&1
grep -q 'cubin holding only sm_90 SASS' "$WORK/nokept.log" && ! grep -q '^PASS' "$WORK/nokept.log"
check "a cubin whose PTX was not kept: warpsim's SASS-only message" $?
[ "$fails" = 0 ] && echo "triton: every check passed"
[ "$fails" = 0 ]
