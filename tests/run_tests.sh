#!/usr/bin/env bash
# warpsim test runner.
#
#   tests/run_tests.sh [PATTERN]
#
# 1. Builds every tests/programs/NAME.cu with
#      nvcc -cudart shared -lineinfo $NVCCFLAGS -o build/tests/progs/NAME tests/programs/NAME.cu
#    (NVCCFLAGS from a "// NVCCFLAGS: ..." line in the source; skipped when the binary is newer than the
#    source; $JOBS compiles in parallel, default 2).
# 2. Runs each as "$WARPSIM run build/tests/progs/NAME $ARGS" (ARGS from a "// ARGS: ..." line) under a
#    timeout; a program passes when it exits 0 and, if tests/programs/NAME.expected exists, its stdout
#    equals that file.
# 3. Runs every executable file directly in build/tests/ (unit tests built by make; label unit/NAME)
#    and every tests/cli/*.sh (label cli/NAME); each passes when it exits 0.
# Prints "PASS label" or "FAIL label (reason)" plus the last 20 lines of output per test, and ends with
# the line "N passed, N failed". Exits 1 if anything failed.
#
# PATTERN selects tests whose label contains it (shell glob characters allowed).
# Environment:
#   WARPSIM=path   simulator binary (default build/warpsim)
#   NATIVE=1       run the programs directly on a real GPU (no simulator); unit and cli tests are skipped
#   TIMEOUT=secs   per-test timeout (default 60)
#   JOBS=n         parallel nvcc jobs (default 2)
#   NVCC=path      nvcc to use (default nvcc)
set -u

SELF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
ROOT="$(cd "$(dirname "$SELF")/.." && pwd)"
cd "$ROOT" || exit 2

NVCC=${NVCC:-nvcc}
PROGDIR=tests/programs
BINDIR=build/tests/progs
OUTDIR=build/tests/out

# directive value from a source line "// KEY: value"
directive() { grep -m1 "^// $1:" "$2" 2>/dev/null | sed "s|^// $1:[[:space:]]*||"; }

# ---- helper mode used by xargs: compile one program ----
if [ "${1:-}" = "--compile-one" ]; then
  name=$2
  src=$PROGDIR/$name.cu
  flags=$(directive NVCCFLAGS "$src")
  log=$BINDIR/$name.log
  tmp=$BINDIR/.$name.tmp.$$
  # shellcheck disable=SC2086
  if "$NVCC" -cudart shared -lineinfo $flags -o "$tmp" "$src" >"$log" 2>&1; then
    mv -f "$tmp" "$BINDIR/$name"
  else
    rm -f "$tmp" "$BINDIR/$name"
    echo "nvcc failed for $name (see $log)" >&2
  fi
  exit 0
fi

PATTERN=${1:-}
NATIVE=${NATIVE:-0}
TIMEOUT=${TIMEOUT:-60}
JOBS=${JOBS:-2}
WARPSIM=${WARPSIM:-$ROOT/build/warpsim}
case "$WARPSIM" in /*) ;; *) WARPSIM="$ROOT/$WARPSIM" ;; esac
export WARPSIM

mkdir -p "$BINDIR" "$OUTDIR"
passed=0
failed=0

matches() { [ -z "$PATTERN" ] || [[ "$1" == *$PATTERN* ]]; }

show_tail() {   # last 20 lines of a test's output (stdout then stderr)
  cat "$@" 2>/dev/null | tail -n 20 | sed 's/^/    | /'
}
pass() { echo "PASS $1${2:+ $2}"; passed=$((passed + 1)); }
fail() { echo "FAIL $1 ($2)"; failed=$((failed + 1)); }

reason_for_rc() {
  case "$1" in
    124) echo "timeout after ${TIMEOUT}s" ;;
    137) echo "killed (timeout or out of memory)" ;;
    *) if [ "$1" -gt 128 ]; then echo "killed by signal $(($1 - 128))"; else echo "exit code $1"; fi ;;
  esac
}

# ---------------------------------------------------------------- programs
progs=()
for src in "$PROGDIR"/*.cu; do
  [ -e "$src" ] || continue
  name=$(basename "$src" .cu)
  matches "$name" && progs+=("$name")
done

if [ ${#progs[@]} -gt 0 ]; then
  stale=()
  for name in "${progs[@]}"; do
    bin=$BINDIR/$name
    if [ ! -x "$bin" ] || [ "$PROGDIR/$name.cu" -nt "$bin" ]; then stale+=("$name"); fi
  done
  if [ ${#stale[@]} -gt 0 ]; then
    if ! command -v "$NVCC" >/dev/null 2>&1; then
      echo "warning: $NVCC not found; stale test programs cannot be built" >&2
    else
      echo "building ${#stale[@]} test program(s) with $JOBS parallel nvcc job(s)..."
      printf '%s\n' "${stale[@]}" | xargs -P "$JOBS" -n 1 bash "$SELF" --compile-one
    fi
  fi

  if [ "$NATIVE" != 1 ] && [ ! -x "$WARPSIM" ]; then
    echo "warning: simulator $WARPSIM not found or not executable (build it with make, or set WARPSIM / NATIVE=1)" >&2
  fi

  # every program runs in every mode the simulator has: functional, and the timing model
  if [ "$NATIVE" = 1 ]; then MODES=${MODES:-native}; else MODES=${MODES:-functional timing}; fi
  for mode in $MODES; do
  tag=""; [ "$mode" = timing ] && tag=" [timing]"
  for name in "${progs[@]}"; do
    label="$name$tag"
    src=$PROGDIR/$name.cu
    bin=$BINDIR/$name
    out=$OUTDIR/$name.$mode.stdout
    err=$OUTDIR/$name.$mode.stderr
    rm -f "$out" "$err"
    if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ]; then
      fail "$label" "compile error"
      show_tail "$BINDIR/$name.log"
      continue
    fi
    args=$(directive ARGS "$src")
    if [ "$NATIVE" = 1 ]; then
      # shellcheck disable=SC2086
      timeout -k 5 "$TIMEOUT" "$bin" $args >"$out" 2>"$err" </dev/null
      rc=$?
    else
      if [ ! -x "$WARPSIM" ]; then
        fail "$label" "no simulator at $WARPSIM"
        continue
      fi
      # shellcheck disable=SC2086
      timeout -k 5 "$TIMEOUT" "$WARPSIM" run --mode="$mode" "$bin" $args >"$out" 2>"$err" </dev/null
      rc=$?
    fi
    if [ "$rc" -ne 0 ]; then
      fail "$label" "$(reason_for_rc "$rc")"
      show_tail "$out" "$err"
      continue
    fi
    exp=$PROGDIR/$name.expected
    if [ -f "$exp" ]; then
      if cmp -s "$exp" "$out"; then
        pass "$label"
      elif [ "$NATIVE" = 1 ] && [ "$(sort "$exp" | md5sum)" = "$(sort "$out" | md5sum)" ]; then
        # real GPUs do not guarantee the order in which warps' printf output appears
        pass "$label" "(native: same lines, different warp order)"
      else
        fail "$label" "stdout differs from $exp"
        diff "$exp" "$out" | head -n 20 | sed 's/^/    | /'
        show_tail "$err"
      fi
    else
      pass "$label"
    fi
  done
  done
fi

# ---------------------------------------------------------------- unit tests and cli scripts
if [ "$NATIVE" = 1 ]; then
  echo "note: NATIVE=1 runs only the CUDA programs (unit and cli tests need the simulator)"
else
  for f in build/tests/*; do
    [ -f "$f" ] && [ -x "$f" ] || continue
    label="unit/$(basename "$f")"
    matches "$label" || continue
    log=$OUTDIR/unit_$(basename "$f").log
    timeout -k 5 "$TIMEOUT" "$f" >"$log" 2>&1 </dev/null
    rc=$?
    if [ "$rc" -eq 0 ]; then pass "$label"; else fail "$label" "$(reason_for_rc "$rc")"; show_tail "$log"; fi
  done
  for f in tests/cli/*.sh; do
    [ -f "$f" ] || continue
    label="cli/$(basename "$f" .sh)"
    matches "$label" || continue
    log=$OUTDIR/cli_$(basename "$f" .sh).log
    limit=$(grep -m1 '^# TIMEOUT:' "$f" | sed 's/^# TIMEOUT:[[:space:]]*//')
    timeout -k 5 "${limit:-$TIMEOUT}" bash "$f" >"$log" 2>&1 </dev/null
    rc=$?
    if [ "$rc" -eq 0 ]; then pass "$label"; else fail "$label" "$(reason_for_rc "$rc")"; show_tail "$log"; fi
  done
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
