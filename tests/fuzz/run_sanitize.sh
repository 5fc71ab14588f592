#!/usr/bin/env bash
# run_sanitize.sh - the test suite against the ASan+UBSan build (called by `make sanitize` after it built SAN_DIR).
#
#   bash tests/fuzz/run_sanitize.sh SAN_DIR [PATTERN]
#
# 1. Writes SAN_DIR/warpsim-san, a wrapper of SAN_DIR/warpsim that LD_PRELOADs gcc's libasan (the nvcc-built
#    programs are not instrumented, but load the instrumented SAN_DIR/lib/libcudart.so.13, and the ASan runtime
#    must come first), sets ASAN/UBSAN/LSAN options, and puts SAN_DIR/san-bin first on PATH, where an nvcc shim
#    drops the preload again (`warpsim run X.cu` compiles with nvcc, which must not run under ASan).
# 2. Runs every sanitized unit test SAN_DIR/tests/* (they link the runtime themselves).
# 3. Runs tests/run_tests.sh [PATTERN] with WARPSIM=SAN_DIR/warpsim-san and TIMEOUT=$SAN_TIMEOUT (default 300s).
# Every report goes to SAN_DIR/san-logs/TAG.PID (TAG names the command or unit test); a reporting process exits
# non-zero (ASan/UBSan 1, leaks 23), so its test fails. Ends with one line per report (kind, first project
# frame) and exits 1 when a test failed or any report was written.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root" || exit 2
[ $# -ge 1 ] || { echo "usage: $0 SAN_DIR [PATTERN]" >&2; exit 2; }
san=$(cd "$1" && pwd) || exit 2
pattern=${2:-}
SAN_CC=${SAN_CC:-gcc}
asan=$(realpath "$("$SAN_CC" -print-file-name=libasan.so)")
[ -f "$asan" ] || { echo "run_sanitize: no libasan.so from $SAN_CC" >&2; exit 2; }
nvcc_real=$(command -v "${NVCC:-nvcc}" || true)
logs=$san/san-logs
rm -rf "$logs"
mkdir -p "$logs" "$san/san-bin"

# options shared by every sanitized process; log_path is added per process
asan_opts="detect_leaks=1:allocator_may_return_null=1:abort_on_error=0:exitcode=1:halt_on_error=1"
asan_opts="$asan_opts:detect_odr_violation=0:print_summary=1"
ubsan_opts="halt_on_error=1:print_stacktrace=1:exitcode=1"
supp=$san/lsan.supp
cat > "$supp" <<'EOF'
# LSan suppressions of make sanitize (written by tests/fuzz/run_sanitize.sh)
EOF

cat > "$san/warpsim-san" <<EOF
#!/bin/sh
# warpsim-san - written by tests/fuzz/run_sanitize.sh: the ASan+UBSan warpsim, libasan preloaded into what it runs
tag=\$(for a in "\$@"; do basename -- "\$a"; done | tr -c 'A-Za-z0-9=.\n-' '_' | tr '\n' '_' | cut -c1-120)
export LD_PRELOAD="$asan\${LD_PRELOAD:+:\$LD_PRELOAD}"
export ASAN_OPTIONS="$asan_opts:log_path=$logs/\$tag"
export UBSAN_OPTIONS="$ubsan_opts:log_path=$logs/\$tag"
export LSAN_OPTIONS="suppressions=$supp"
export PATH="$san/san-bin:\$PATH"
exec "$san/warpsim" "\$@"
EOF
chmod +x "$san/warpsim-san"
if [ -n "$nvcc_real" ]; then
  cat > "$san/san-bin/nvcc" <<EOF
#!/bin/sh
# nvcc shim of warpsim-san: nvcc runs without the ASan preload
unset LD_PRELOAD ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
exec "$nvcc_real" "\$@"
EOF
  chmod +x "$san/san-bin/nvcc"
fi

failed=0
passed=0
# 2. the sanitized unit tests
for t in "$san"/tests/*; do
  [ -f "$t" ] && [ -x "$t" ] || continue
  name=$(basename "$t")
  [ -z "$pattern" ] || [[ "unit/$name" == *$pattern* ]] || continue
  ulog=$logs/unit_$name.out
  ASAN_OPTIONS="$asan_opts:log_path=$logs/unit_$name" UBSAN_OPTIONS="$ubsan_opts:log_path=$logs/unit_$name" \
    LSAN_OPTIONS="suppressions=$supp" timeout -k 5 "${SAN_TIMEOUT:-300}" "$t" >"$ulog" 2>&1 </dev/null
  rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "PASS san-unit/$name"; passed=$((passed + 1))
  else
    echo "FAIL san-unit/$name (exit $rc)"; failed=$((failed + 1)); tail -n 20 "$ulog" | sed 's/^/    | /'
  fi
done
mv "$logs"/unit_*.out "$san/" 2>/dev/null

# 3. the suite through the sanitized simulator and runtime
suite_log=$san/run_tests.log
TIMEOUT=${SAN_TIMEOUT:-300} WARPSIM=$san/warpsim-san bash tests/run_tests.sh $pattern 2>&1 | tee "$suite_log"
suite_rc=${PIPESTATUS[0]}

# 4. the reports
echo "---- sanitizer reports ($logs)"
nrep=0
for f in "$logs"/*; do
  [ -f "$f" ] || continue
  nrep=$((nrep + 1))
  kind=$(grep -m1 -oE 'ERROR: (AddressSanitizer|LeakSanitizer): [a-zA-Z-]+|runtime error: .*' "$f")
  frame=$(grep -m1 -oE '(src|tests)/[A-Za-z0-9_/.-]+\.c:[0-9]+' "$f")
  echo "$(basename "$f"): ${kind:-?} at ${frame:-?}"
done
[ "$nrep" -eq 0 ] && echo "none"
echo "sanitized unit tests: $passed passed, $failed failed; suite exit $suite_rc; $nrep report(s)"
[ "$failed" -eq 0 ] && [ "$suite_rc" -eq 0 ] && [ "$nrep" -eq 0 ]
