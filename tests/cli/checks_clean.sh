#!/usr/bin/env bash
# TIMEOUT: 300
# checks_clean.sh - no false positives: every correct program of tests/programs runs under `warpsim run --check`
# (all checks) with "ERROR SUMMARY: 0 errors", the exit status it has without --check, and the same stdout where
# tests/programs/NAME.expected gives it. Programs that call the runtime wrongly on purpose (their names are in
# API_ERRORS below) may show API errors ("Program hit ...") but no device-side finding.
# Programs are built as tests/run_tests.sh builds them (into build/tests/progs). Exits 0 when all are clean, 77
# (skipped) when nvcc is missing.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT" || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
BIN=build/tests/progs
OUT=build/tests/check/clean
API_ERRORS=" launch_errors "
mkdir -p "$BIN" "$OUT"
fails=0

if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "checks_clean: $NVCC not found"
  exit 77
fi

directive() { grep -m1 "^// $1:" "$2" 2>/dev/null | sed "s|^// $1:[[:space:]]*||"; }

stale=()
for f in tests/programs/*.cu; do
  n=$(basename "$f" .cu)
  [ -x "$BIN/$n" ] && [ "$BIN/$n" -nt "$f" ] || stale+=("$n")
done
[ ${#stale[@]} -gt 0 ] && printf '%s\n' "${stale[@]}" | xargs -P 2 -n 1 bash tests/run_tests.sh --compile-one

for f in tests/programs/*.cu; do
  n=$(basename "$f" .cu)
  if [ ! -x "$BIN/$n" ]; then echo "FAIL $n: not built"; fails=$((fails + 1)); continue; fi
  args=$(directive ARGS "$f")
  # shellcheck disable=SC2086
  timeout 60 "$WARPSIM" run "$BIN/$n" $args >"$OUT/$n.plain" 2>/dev/null </dev/null
  rc0=$?
  # shellcheck disable=SC2086
  timeout 60 "$WARPSIM" run --check "$BIN/$n" $args >"$OUT/$n.out" 2>"$OUT/$n.err" </dev/null
  rc=$?
  why=""
  [ "$rc" = "$rc0" ] || why="exit status $rc under --check, $rc0 without"
  if grep -qE '^========= (Invalid|Error: Race|Barrier error|Uninitialized|Deadlock|Watchdog|Device-side|Leaked)' "$OUT/$n.err"; then
    why="${why:+$why; }device-side findings"
  elif [[ "$API_ERRORS" != *" $n "* ]] && ! grep -q "ERROR SUMMARY: 0 errors" "$OUT/$n.err"; then
    why="${why:+$why; }$(grep -o 'ERROR SUMMARY: .*' "$OUT/$n.err" || echo 'no ERROR SUMMARY')"
  fi
  if [ -f "tests/programs/$n.expected" ] && ! cmp -s "tests/programs/$n.expected" "$OUT/$n.out"; then
    why="${why:+$why; }stdout differs from $n.expected"
  fi
  if [ -z "$why" ]; then
    echo "ok   $n"
  else
    echo "FAIL $n: $why"
    grep '^=========' "$OUT/$n.err" | head -12 | sed 's/^/    | /'
    fails=$((fails + 1))
  fi
done
echo "checks_clean: $fails failure(s)"
[ $fails = 0 ]
