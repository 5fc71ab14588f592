#!/usr/bin/env bash
# TIMEOUT: 300
# python.sh - Python GPU code under `warpsim run python3 ...`, in a virtual environment from PyPI (tests/lib/pyenv.sh,
# cached in build/pyenv; .ci/run makes it beforehand). Numba: tests/python/numba_stencil.py (shared memory,
# syncthreads) and numba_reduce.py (a tree sum and a histogram with atomics, on a stream) pass in functional mode,
# and numba_reduce.py in --timing mode with a report naming both kernels and a --view page. CuPy: its wheels link
# NVIDIA's CUDA runtime statically, and libwarpsim_preload.so sends its calls to warpsim's libcudart.so.13:
# tests/python/cupy_basics.py (array expressions, ElementwiseKernel, reductions, RawKernel, RawModule, a matrix
# product through warpsim's libcublas.so.13) passes in
# functional and --timing mode, the report naming its kernels; tests/python/cupy_random.py (the legacy cupy.random,
# through warpsim's libcurand.so.10) matches the H200's numbers in both modes; tests/python/cupy_fft.py (cupy.fft
# through warpsim's libcufft.so.12) passes, its report naming warpsim's cuFFT kernels.
# Exits 0 when every check passes, 77 (skip) when the environment cannot be made.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT" || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
WORK=build/tests/python-work
VENV=${WARPSIM_PYENV:-$ROOT/build/pyenv}
LIB=$(dirname "$WARPSIM")/lib
for l in libcuda.so.1 libcudart.so.13 libnvJitLink.so.13 libwarpsim_preload.so; do
  [ -f "$LIB/$l" ] || { echo "FAIL $LIB/$l is missing (run make)"; exit 1; }
done
why=$(tests/lib/pyenv.sh "$VENV") || { echo "SKIP python: no Python environment from PyPI: $why"; exit 77; }
PY=$VENV/bin/python3
rm -rf "$WORK" && mkdir -p "$WORK"
# numba-cuda warns that it links with the driver's cuLink* (our nvJitLink stand-in says no) and about small grids
export PYTHONWARNINGS=ignore
fails=0

# check NAME CONDITION-RESULT: report one check
check() {
  if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

# run LABEL EXPECTED-PASS-LINE [warpsim options] -- script args: one run, its output in $WORK/LABEL.log
run() {
  local label=$1 pass=$2
  shift 2
  "$WARPSIM" run "$@" >"$WORK/$label.log" 2>&1
  local rc=$?
  grep -q "^$pass$" "$WORK/$label.log" && [ "$rc" = 0 ]
  local r=$?
  [ "$r" = 0 ] || tail -20 "$WORK/$label.log"
  check "$label" $r
}

run numba-stencil "PASS numba_stencil" "$PY" tests/python/numba_stencil.py 20000
run numba-reduce "PASS numba_reduce" "$PY" tests/python/numba_reduce.py 100000
WARPSIM_THREADS=1 run numba-reduce-timing "PASS numba_reduce" --timing --report "$WORK/reduce.json" \
  --view "$WORK/reduce.html" "$PY" tests/python/numba_reduce.py 5000

# the timing report and the page name Numba's kernels (their mangled names hold the Python names)
"$PY" - "$WORK/reduce.json" "$WORK/reduce.html" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
names = [l["kernel"] for l in r["launches"]]
assert len(names) == 2 and "block_sum" in names[0] and "histogram" in names[1], names
assert all(l["sm__cycles_elapsed.max"] > 0 for l in r["launches"])
page = open(sys.argv[2]).read()
assert all(n in page for n in names)
print("timing report: %s cycles" % [(n.split("B2v")[0][-12:], l["sm__cycles_elapsed.max"])
                                    for n, l in zip(names, r["launches"])])
EOF
check "the timing report and the --view page name Numba's kernels" $?

# CuPy: its wheels link NVIDIA's CUDA runtime statically; libwarpsim_preload.so points it at ours
run cupy-basics "PASS cupy_basics" "$PY" tests/python/cupy_basics.py 5000
grep -q "holds NVIDIA's CUDA runtime linked statically" "$WORK/cupy-basics.log"
check "warpsim says that CuPy's static CUDA runtime calls warpsim's" $?
WARPSIM_THREADS=1 run cupy-basics-timing "PASS cupy_basics" --timing --report "$WORK/cupy.json" \
  "$PY" tests/python/cupy_basics.py 2000
"$PY" - "$WORK/cupy.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
names = [l["kernel"] for l in r["launches"]]
for want in ("axpb", "sumsq", "scale", "_Z3addIfEvPKT_S2_PS0_i"):
    assert want in names, (want, names)
assert any(n.startswith("cupy_") for n in names) and all(l["sm__cycles_elapsed.max"] > 0 for l in r["launches"])
print("cupy timing report: %d launches, %s" % (len(names), sorted(set(names))))
EOF
check "the timing report names CuPy's kernels (its own, ElementwiseKernel, ReductionKernel, RawKernel, RawModule)" $?

# CuPy's legacy cupy.random (cuRAND's host API: warpsim's libcurand.so.10), bit for bit against the H200's numbers
run cupy-random "PASS cupy_random" "$PY" tests/python/cupy_random.py 20000
WARPSIM_THREADS=1 run cupy-random-timing "PASS cupy_random" --timing --report "$WORK/random.json" \
  "$PY" tests/python/cupy_random.py 2000
"$PY" - "$WORK/random.json" <<'EOF'
import json, sys
names = [l["kernel"] for l in json.load(open(sys.argv[1]))["launches"]]
assert "ws_cr_xorwow_init" in names and "ws_cr_xorwow_gen" in names and "ws_cr_philox_gen" in names, names
print("cupy.random timing report: %d launches, %s" % (len(names), sorted(set(names))))
EOF
check "the timing report names warpsim's cuRAND kernels under CuPy's RandomState" $?

# cupy.fft: CuPy's cufft module links libcufft.so.12, warpsim's (our kernels, named in the report)
run cupy-fft "PASS cupy_fft" --report "$WORK/fft.json" "$PY" tests/python/cupy_fft.py
"$PY" - "$WORK/fft.json" <<'EOF'
import json, sys
names = {l["kernel"] for l in json.load(open(sys.argv[1]))["launches"]}
for want in ("ws_cf_cstage", "ws_cf_zstage", "ws_cf_cchirp_in", "ws_cf_cgather"):
    assert want in names, (want, sorted(names))
print("cupy.fft report: %s" % sorted(n for n in names if n.startswith("ws_cf_")))
EOF
check "cupy.fft runs warpsim's cuFFT kernels (the report names them)" $?

if [ "$fails" -eq 0 ]; then echo "python: all checks passed"; fi
[ "$fails" -eq 0 ]
