#!/usr/bin/env bash
# TIMEOUT: 240
# rdc.sh - separate compilation (issue 11 item 3): programs built with nvcc -rdc=true from several translation
# units (tests/rdc/units_*.cu: extern device functions and variables, a table of device function pointers, private
# functions of the same name, a kernel launched from the other unit's kernel on the device) and with a device
# library made by nvcc -lib (tests/rdc/veclib.cu, linked into libmain.cu). Each runs in functional, --timing and
# --check mode; the report lists the device-side launch with its parent. Exits 0 when every check passes, 77 (skip)
# without nvcc.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT" || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
WORK=build/tests/rdc-work
command -v "$NVCC" >/dev/null 2>&1 || { echo "SKIP rdc: $NVCC not found"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK"
fails=0

# check NAME CONDITION-RESULT: report one check
check() {
  if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

# build: the two-unit program, and the library then the program that links it (in parallel)
S=tests/rdc
"$NVCC" -cudart shared -lineinfo -rdc=true -I$S -o "$WORK/units" $S/units_main.cu $S/units_ops.cu -lcudadevrt \
  >"$WORK/build-units.log" 2>&1 &
pid=$!
ok=0
{ "$NVCC" -rdc=true -lib -lineinfo -o "$WORK/libveclib.a" $S/veclib.cu &&
  "$NVCC" -cudart shared -lineinfo -rdc=true -I$S -o "$WORK/libmain" $S/libmain.cu -L"$WORK" -lveclib; } \
  >"$WORK/build-lib.log" 2>&1 || ok=1
wait $pid || ok=1
[ "$ok" = 0 ] || cat "$WORK"/build-*.log
check "build the two-unit program and the device library (nvcc -rdc=true, -lib)" $ok
[ "$ok" = 0 ] || exit 1

# run LABEL EXPECTED-PASS-LINE [warpsim options] program: one run, its output in $WORK/LABEL.log
run() {
  local label=$1 pass=$2
  shift 2
  WARPSIM_THREADS=1 "$WARPSIM" run "$@" >"$WORK/$label.log" 2>&1
  local rc=$?
  grep -q "^$pass$" "$WORK/$label.log" && [ "$rc" = 0 ]
  local r=$?
  [ "$r" = 0 ] || tail -20 "$WORK/$label.log"
  check "$label" $r
}

run units "PASS rdc_units" --report "$WORK/units.json" "$WORK/units"
run units-timing "PASS rdc_units" --timing "$WORK/units"
run units-check "PASS rdc_units" --check "$WORK/units"
grep -q "ERROR SUMMARY: 0 errors" "$WORK/units-check.log"
check "units: no finding under --check" $?
run library "PASS rdc_library" "$WORK/libmain"
run library-timing "PASS rdc_library" --timing "$WORK/libmain"
run library-check "PASS rdc_library" --check "$WORK/libmain"
grep -q "ERROR SUMMARY: 0 errors" "$WORK/library-check.log"
check "library: no finding under --check" $?
# the lines an H200 printed for the same programs (CUDA 13.0, sm_90)
grep -qx "two units: 0 of 3000 results wrong, checksum 222371956, g_bias after the second launch 997" "$WORK/units.log"
check "units: the H200's results" $?
grep -qx "device library: 0 of 3000 results wrong, sum 149794.83, lib_poly ran 3000 times" "$WORK/library.log"
check "library: the H200's results" $?
# the device-side launch of the other unit's kernel: a launch of its own, with its depth and its parent
python3 - "$WORK/units.json" <<'PY'
import json, sys
ls = json.load(open(sys.argv[1]))["launches"]
kids = [(i, l) for i, l in enumerate(ls) if "device_launch" in l]
assert len(kids) == 1, kids
i, l = kids[0]
assert l["kernel"] == "_Z11fill_kernelPiii" and l["device_launch"]["depth"] == 1, l
assert ls[l["device_launch"]["parent"]]["kernel"] == "_Z11launch_fillPii", l
PY
check "report: the device-side launch names its depth and parent" $?
[ "$fails" = 0 ] || exit 1
exit 0
