#!/usr/bin/env bash
# TIMEOUT: 400
# driver_api.sh - the driver API (libcuda.so.1, src/driver) under `warpsim run`: the tests of tests/driver, with
# their kernels (tests/driver/*.cu) made here as PTX (nvcc -ptx), fatbins (PTX, and SASS only) and a cubin (the
# JIT linker's two units with -rdc=true), the C programs built with gcc against the toolkit's cuda.h and our
# libcuda (nvrtc_template.c with the toolkit's libnvrtc too), the mixed runtime/driver program with
# nvcc -cudart shared -lcuda. Each runs in functional and --timing mode (WARPSIM_THREADS=1 and 2 give the same
# cycles); the timing report holds the driver's launches under their names; --check names the driver function
# that failed, an unimplemented one included; --stats names the driver calls. Exits 0 when every check passes, 77 (skip) without nvcc or gcc.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT" || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
HOSTCC=${HOSTCC:-gcc}
WORK=build/tests/driver-work
for t in "$NVCC" "$HOSTCC"; do
  command -v "$t" >/dev/null 2>&1 || { echo "driver_api: $t not found"; exit 77; }
done
CUDA_INC=$(dirname "$(command -v "$NVCC")")/../include
LIB=$(dirname "$WARPSIM")/lib
[ -f "$LIB/libcuda.so.1" ] || { echo "FAIL $LIB/libcuda.so.1 is missing (run make)"; exit 1; }
rm -rf "$WORK" && mkdir -p "$WORK"
fails=0

# check NAME CONDITION-RESULT: report one check
check() {
  if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

# build: the kernels in every form, the test programs
K=tests/driver/kernels.cu
ok=0
"$NVCC" -ptx -arch=compute_75 -o "$WORK/kernels.ptx" "$K" || ok=1
"$NVCC" -fatbin -gencode arch=compute_75,code=compute_75 -o "$WORK/kernels.fatbin" "$K" || ok=1
"$NVCC" -fatbin -gencode arch=compute_90,code=sm_90 -o "$WORK/sass_only.fatbin" "$K" || ok=1
"$NVCC" -cubin -arch=sm_90 -o "$WORK/kernels.cubin" "$K" || ok=1
"$NVCC" -ptx -rdc=true -arch=compute_75 -o "$WORK/link_a.ptx" tests/driver/link_a.cu || ok=1
"$NVCC" -fatbin -rdc=true -gencode arch=compute_75,code=compute_75 -o "$WORK/link_b.fatbin" tests/driver/link_b.cu || ok=1
for p in drv_vecadd drv_context drv_link drv_memory; do
  "$HOSTCC" -std=c11 -O1 -Wall -Wextra -Werror -I"$CUDA_INC" -o "$WORK/$p" "tests/driver/$p.c" -L"$LIB" -lcuda || ok=1
done
# run-time compilation: the toolkit's NVRTC makes the PTX that our driver loads
CUDA_LIB=$(dirname "$(command -v "$NVCC")")/../lib64
"$HOSTCC" -std=c11 -O1 -Wall -Wextra -Werror -I"$CUDA_INC" -o "$WORK/nvrtc_template" tests/driver/nvrtc_template.c \
  -L"$LIB" -lcuda -Wl,-rpath-link,"$LIB" "$CUDA_LIB/libnvrtc.so" -Wl,-rpath,"$CUDA_LIB" || ok=1
# the per-thread default stream build calls the _ptds/_ptsz symbols
"$HOSTCC" -std=c11 -O1 -Wall -Wextra -Werror -DCUDA_API_PER_THREAD_DEFAULT_STREAM -I"$CUDA_INC" \
  -o "$WORK/drv_vecadd_ptds" tests/driver/drv_vecadd.c -L"$LIB" -lcuda || ok=1
"$NVCC" -cudart shared -o "$WORK/drv_mixed" tests/driver/drv_mixed.cu -L"$LIB" -lcuda 2>&1 | grep -v -i warning
[ "${PIPESTATUS[0]}" = 0 ] || ok=1
check "build the kernels (PTX, fatbins, cubin) and the test programs" $ok
[ "$ok" = 0 ] || exit 1

# run LABEL EXPECTED-PASS-LINE [warpsim options] -- program args: one run, its output in $WORK/LABEL.log
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

P=$WORK/kernels.ptx
CTX_ARGS=("$P" "$WORK/kernels.fatbin" "$WORK/kernels.cubin" "$WORK/sass_only.fatbin")
LINK_ARGS=("$WORK/link_a.ptx" "$WORK/link_b.fatbin" "$P" "$WORK/kernels.cubin")
# functional mode
run vecadd "PASS drv_vecadd" "$WORK/drv_vecadd" "$P"
run vecadd-per-thread-stream "PASS drv_vecadd" "$WORK/drv_vecadd_ptds" "$P" 5000
run context "PASS drv_context" "$WORK/drv_context" "${CTX_ARGS[@]}"
run mixed "PASS drv_mixed" "$WORK/drv_mixed" "$P"
run link "PASS drv_link" "$WORK/drv_link" "${LINK_ARGS[@]}"
run memory "PASS drv_memory" "$WORK/drv_memory" "$P"
run nvrtc "PASS nvrtc_template" "$WORK/nvrtc_template"
# timing mode, with a report
export WARPSIM_THREADS=1
run vecadd-timing "PASS drv_vecadd" --timing --report "$WORK/vecadd1.json" "$WORK/drv_vecadd" "$P" 20000
run context-timing "PASS drv_context" --timing "$WORK/drv_context" "${CTX_ARGS[@]}"
run mixed-timing "PASS drv_mixed" --timing --report "$WORK/mixed.json" "$WORK/drv_mixed" "$P" 5000
run link-timing "PASS drv_link" --timing "$WORK/drv_link" "${LINK_ARGS[@]}"
run memory-timing "PASS drv_memory" --timing "$WORK/drv_memory" "$P"
run nvrtc-timing "PASS nvrtc_template" --timing "$WORK/nvrtc_template" 5000
WARPSIM_THREADS=2 run vecadd-timing-2threads "PASS drv_vecadd" --timing --report "$WORK/vecadd2.json" \
  "$WORK/drv_vecadd" "$P" 20000
unset WARPSIM_THREADS

# the reports: driver launches by name with timing metrics, the same cycles on one and two threads
python3 - "$WORK/vecadd1.json" "$WORK/vecadd2.json" "$WORK/mixed.json" <<'PY'
import json, sys
r1, r2, rm = (json.load(open(p)) for p in sys.argv[1:4])
names = [l["kernel"] for l in r1["launches"]]
assert names == ["vadd", "vadd_scaled", "add_bias", "block_sumsq"], names
assert all(l["sm__cycles_elapsed.max"] > 0 and l["gpu__time_duration.sum"] > 0 for l in r1["launches"])
c1 = [l["sm__cycles_elapsed.max"] for l in r1["launches"]]
c2 = [l["sm__cycles_elapsed.max"] for l in r2["launches"]]
assert c1 == c2, (c1, c2)
mixed = sorted({l["kernel"] for l in rm["launches"]})
assert mixed == ["_Z6affinePffi", "vadd"], mixed
print("reports: driver launches %s, cycles %s on 1 and 2 threads" % (names, c1))
PY
check "timing reports name the driver's launches; 1 and 2 threads agree" $?

# --check: failed driver calls are reported under their names, the unimplemented one too; the program passes
run context-check "PASS drv_context" --check "$WORK/drv_context" "${CTX_ARGS[@]}"
L=$WORK/context-check.log
ok=0
grep -q 'CUDA_ERROR_NOT_SUPPORTED (error 801) due to "cuArrayCreate_v2: operation not supported" on CUDA API call to cuArrayCreate_v2' "$L" || ok=1
grep -q 'the driver API function cuArrayCreate_v2 is not implemented by warpsim' "$L" || ok=1
[ "$(grep -c 'is not implemented by warpsim' "$L")" = 1 ] || ok=1
grep -q 'CUDA_ERROR_NO_BINARY_FOR_GPU (error 209) due to "cuModuleLoad: .*" on CUDA API call to cuModuleLoad' "$L" || ok=1
grep -q 'kernels.cubin is a cubin holding only sm_90 SASS' "$L" || ok=1
grep -q 'Host Frame: main+0x[0-9a-f]* in drv_context' "$L" || ok=1
check "--check names failed and unimplemented driver calls; the cubin message names the file and its SASS" $ok

# the static runtime with -lcuda: its runtime calls go to ours (libwarpsim_preload.so), its driver calls to our
# driver, so the program runs; a driver-only program is not taken for a static one
"$NVCC" -o "$WORK/mixed_static" tests/driver/drv_mixed.cu -lcuda >/dev/null 2>&1
"$WARPSIM" run "$WORK/mixed_static" "$P" >"$WORK/static.log" 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q "^PASS drv_mixed$" "$WORK/static.log" && grep -q "linked statically" "$WORK/static.log" &&
  ! grep -qi "driver API" "$WORK/vecadd.log"
check "a static-runtime program with -lcuda runs; a driver-only one runs" $?

# the host timeline names driver calls as the driver's (not the runtime calls that serve them)
"$WARPSIM" run --stats "$WORK/drv_mixed" "$P" 2000 >"$WORK/stats.log" 2>&1
ok=0
for f in cuLaunchKernel cuModuleLoadData cuMemAlloc_v2 cuGraphLaunch cudaLaunchKernel cudaMalloc; do
  grep -q " $f\$" "$WORK/stats.log" || { echo "missing $f in --stats"; ok=1; }
done
check "--stats lists the driver calls under their names beside the runtime's" $ok

if [ "$fails" -eq 0 ]; then echo "driver_api: all checks passed"; fi
[ "$fails" -eq 0 ]
