#!/usr/bin/env bash
# run_sanitize.sh - the test suite against the ASan+UBSan build (called by `make sanitize` after it built SAN_DIR).
#
#   bash tests/fuzz/run_sanitize.sh SAN_DIR [PATTERN]
#   bash tests/fuzz/run_sanitize.sh --setup SAN_DIR     (only step 1; make sanitize-build does this)
#
# 1. Writes SAN_DIR/warpsim-san, a wrapper of SAN_DIR/warpsim that LD_PRELOADs gcc's libasan (the nvcc-built
#    programs are not instrumented, but load the instrumented SAN_DIR/lib/libcudart.so.13, and the ASan runtime
#    must come first), sets ASAN/UBSAN/LSAN options, and puts SAN_DIR/san-bin first on PATH, where an nvcc shim
#    drops the preload again (`warpsim run X.cu` compiles with nvcc, which must not run under ASan).
# 2. Runs every sanitized unit test SAN_DIR/tests/* (they link the runtime themselves).
# 3. Runs tests/run_tests.sh [PATTERN] with WARPSIM=SAN_DIR/warpsim-san and TIMEOUT=$SAN_TIMEOUT (default 300s).
# Every ASan/LSan report goes to SAN_DIR/san-logs/TAG.PID (TAG names the command or unit test); UBSan reports
# stay on stderr (gcc's libubsan ignores log_path next to ASan) and are found in build/tests/out/ and
# SAN_DIR/unit_*.out. A reporting process exits 1, so its test fails. Ends with one line per report and the
# distinct findings (kind, first project frames), and exits 1 when a test failed or any report was written.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root" || exit 2
setup_only=0
if [ "${1:-}" = --setup ]; then setup_only=1; shift; fi
[ $# -ge 1 ] || { echo "usage: $0 [--setup] SAN_DIR [PATTERN]" >&2; exit 2; }
san=$(cd "$1" && pwd) || exit 2
pattern=${2:-}
SAN_CC=${SAN_CC:-gcc}
asan=$(realpath "$("$SAN_CC" -print-file-name=libasan.so)")
[ -f "$asan" ] || { echo "run_sanitize: no libasan.so from $SAN_CC" >&2; exit 2; }
nvcc_real=$(command -v "${NVCC:-nvcc}" || true)
logs=$san/san-logs
[ "$setup_only" = 1 ] || rm -rf "$logs"
mkdir -p "$logs" "$san/san-bin"

# options shared by every sanitized process; log_path is added per process
asan_opts="detect_leaks=1:allocator_may_return_null=1:abort_on_error=0:exitcode=1:halt_on_error=1"
asan_opts="$asan_opts:detect_odr_violation=0:print_summary=1"
ubsan_opts="halt_on_error=1:print_stacktrace=1:exitcode=1"
# known leaks to ignore, one LSan suppression a line (leak:FUNCTION or leak:FILE), in tests/fuzz/lsan.supp
supp=$root/tests/fuzz/lsan.supp
lsan_opts=""
[ -f "$supp" ] && lsan_opts="suppressions=$supp:print_suppressions=0"

cat > "$san/warpsim-san" <<EOF
#!/bin/sh
# warpsim-san - written by tests/fuzz/run_sanitize.sh: the ASan+UBSan warpsim, libasan preloaded into what it runs
tag=\$(for a in "\$@"; do basename -- "\$a"; done | tr -c 'A-Za-z0-9=.\n-' '_' | tr '\n' '_' | cut -c1-120)
export LD_PRELOAD="$asan\${LD_PRELOAD:+:\$LD_PRELOAD}"
# a Python program (CuPy, Numba, Triton): no leak checking. CPython, numpy, CuPy's static CUDA runtime and the
# compilers Triton starts keep memory until exit, and their stacks (no frame pointers) cannot be told from
# warpsim's; ASan's memory-error checks stay on, and warpsim's own code is leak-checked in the other runs
leaks=1
for a in "\$@"; do case "\$(basename -- "\$a")" in python*) leaks=0; break;; esac; done
export ASAN_OPTIONS="$asan_opts:log_path=$logs/\$tag\$([ \$leaks = 0 ] && echo :detect_leaks=0)"
export UBSAN_OPTIONS="$ubsan_opts:log_path=$logs/\$tag"
export LSAN_OPTIONS="$lsan_opts"
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

if [ "$setup_only" = 1 ]; then
  echo "wrote $san/warpsim-san (reports go to $logs)"
  exit 0
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
    LSAN_OPTIONS="$lsan_opts" timeout -k 5 "${SAN_TIMEOUT:-300}" "$t" >"$ulog" 2>&1 </dev/null
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

# 4. the reports: one line each, then the distinct findings (kind and first frame in the project's sources)
echo "---- sanitizer reports ($logs)"
nrep=0
findings=$san/san-findings.txt
: >"$findings"
for f in "$logs"/*; do
  [ -f "$f" ] || continue
  nrep=$((nrep + 1))
  tag=$(basename "$f" | sed 's/\.[0-9]*$//')
  # every report of the file: its kind, then the first frame in src/ or tests/ (not the sanitizer's own files)
  awk -v tag="$tag" '
    /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:/ {
      if ($0 ~ /LeakSanitizer/) kind = "leak"
      else if ($0 ~ /runtime error:/) { kind = $0; sub(/.*runtime error: /, "ubsan: ", kind) }
      else { kind = $0; sub(/.*AddressSanitizer: /, "asan: ", kind); sub(/ on address.*/, "", kind) }
      if ($0 ~ /runtime error:/ && match($0, /(src|tests)\/[A-Za-z0-9_\/.-]+\.c:[0-9]+/)) {
        print kind " at " substr($0, RSTART, RLENGTH) "\t" tag; kind = ""
      }
      want = 1; next
    }
    /^(Direct|Indirect) leak/ { want = 1; next }
    want && /^ *#[0-9]+ / && !/libsanitizer/ && match($0, /(src|tests)\/[A-Za-z0-9_\/.-]+\.c:[0-9]+/) {
      at = at (at == "" ? "" : " < ") substr($0, RSTART, RLENGTH)
      if (++got == 2) { print (kind == "" ? "leak" : kind) " at " at "\t" tag; want = 0; got = 0; at = "" }
      next
    }
    want && !/^ *#[0-9]+ / && got == 1 { print (kind == "" ? "leak" : kind) " at " at "\t" tag; want = 0; got = 0; at = "" }
    ' "$f" >>"$findings"
  echo "$tag: $(grep -m1 -oE 'ERROR: [A-Za-z]+: [a-zA-Z -]+|runtime error: .*' "$f")"
done
# gcc's UBSan ignores log_path when ASan is loaded too: its reports are in the tests' saved output instead
for f in build/tests/out/* "$san"/unit_*.out; do
  [ -f "$f" ] && grep -q 'runtime error: ' "$f" || continue
  nrep=$((nrep + 1))
  tag=$(basename "$f")
  grep -oE '(src|tests)/[A-Za-z0-9_/.-]+\.c:[0-9]+:[0-9]+: runtime error: .*' "$f" |
    sed -E 's/^([^:]+:[0-9]+):[0-9]+: runtime error: (.*)$/ubsan: \2 at \1/' | sed "s|\$|\t$tag|" >>"$findings"
  echo "$tag: $(grep -m1 -oE 'runtime error: .*' "$f")"
done
[ "$nrep" -eq 0 ] && echo "none"
if [ -s "$findings" ]; then
  echo "---- distinct findings (count, kind, first two project frames, one test that shows it)"
  sort "$findings" | awk -F '\t' '{n[$1]++; if (!($1 in t)) t[$1] = $2} END {for (k in n) printf "%4d  %s   (e.g. %s)\n", n[k], k, t[k]}' | sort -rn
fi
echo "sanitized unit tests: $passed passed, $failed failed; suite exit $suite_rc; $nrep report file(s)"
[ "$failed" -eq 0 ] && [ "$suite_rc" -eq 0 ] && [ "$nrep" -eq 0 ]
