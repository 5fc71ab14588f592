#!/usr/bin/env bash
# warpsim test runner.
#
#   tests/run_tests.sh [PATTERN]
#
# Tests, each with a label:
#   NAME, NAME [timing], NAME [check]
#                        every tests/programs/NAME.cu, built with
#                          nvcc -cudart shared -lineinfo $NVCCFLAGS -o build/tests/progs/NAME tests/programs/NAME.cu
#                        (rebuilt when the source is newer than the binary) and run in three modes:
#                          $WARPSIM run --mode=functional build/tests/progs/NAME $ARGS      (label NAME)
#                          $WARPSIM run --mode=timing build/tests/progs/NAME $ARGS          (NAME [timing])
#                          $WARPSIM run --check build/tests/progs/NAME $ARGS                (NAME [check])
#                        Each passes when the program exits 0 and, if tests/programs/NAME.expected exists, its
#                        stdout equals that file; under --check also no false positive: "ERROR SUMMARY: 0 errors"
#                        and no device-side finding (a "// CHECK: api-errors" program may show API errors).
#   unit/NAME            every executable in build/tests/ (the unit tests make builds), run directly
#   cli/NAME             every tests/cli/NAME.sh, run with bash
# Directives in a program's source, "// KEY: value" lines:
#   NVCCFLAGS    extra nvcc flags
#   ARGS         program arguments
#   TIMING_ARGS  program arguments for the timing-mode and --check runs instead of ARGS (inputs sized for the two
#                slower modes; the program still checks its results at that size). Not allowed with NAME.expected.
#   TIMEOUT      seconds for one run of this program instead of $TIMEOUT
#   CHECK        "api-errors": the program calls the runtime wrongly on purpose; under --check its API errors
#                ("Program hit ...") are allowed, device-side findings are not. "races": it races on purpose;
#                under --check racecheck must report a hazard, and nothing else may be found
# A unit test's source tests/unit/NAME.c may hold a "// TIMEOUT: secs" line too; a cli script's "# TIMEOUT: secs"
# line sets its limit. Every FAIL for a timeout names the limit that was applied.
#
# Results: "PASS label", "FAIL label (reason)" followed by the last 20 lines of the test's output, or
# "SKIP label (reason)". A test that exits with status 77 is skipped; the reason is the last line of its output.
# When nvcc is missing, a program whose binary is missing or older than its source is skipped. Tests run in
# parallel; results are printed in label order (C collation), each as soon as it and every test before it are
# done. The last line is "N passed, N failed, N skipped"; the exit status is 1 if anything failed.
# build/tests/out/times.txt gets each test's wall and CPU (user + sys) seconds; the next run starts the slowest
# tests first.
#
# PATTERN selects tests whose label contains it (shell glob characters allowed).
# Environment:
#   WARPSIM=path    simulator binary (default build/warpsim)
#   NATIVE=1        run the programs directly on a real GPU (no simulator); unit and cli tests are left out
#   MODES="..."     modes to run the programs in (default "functional timing check"; "native" with NATIVE=1)
#   TIMEOUT=secs    default limit for one program run, unit test or cli script (default 120)
#   JOBS=n          tests (and nvcc compiles) run at once (default: the number of cores)
#   NVCC=path       nvcc to use (default nvcc)
#   WARPSIM_THREADS the timing model's simulation threads; set to 1 when JOBS > 1 unless already set (the tests
#                   already fill the cores, and two simulation threads on a busy machine are much slower)
set -u

SELF="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
ROOT="$(cd "$(dirname "$SELF")/.." && pwd)"
cd "$ROOT" || exit 2

NVCC=${NVCC:-nvcc}
OUTDIR=build/tests/out

. tests/lib/progs.sh   # directive, prog_fresh, compile_one

PATTERN=${1:-}
NATIVE=${NATIVE:-0}
TIMEOUT=${TIMEOUT:-120}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "JOBS must be a positive number, not '$JOBS'" >&2; exit 2; }
WARPSIM=${WARPSIM:-$ROOT/build/warpsim}
case "$WARPSIM" in /*) ;; *) WARPSIM="$ROOT/$WARPSIM" ;; esac
export WARPSIM NVCC
if [ "$JOBS" -gt 1 ] && [ -z "${WARPSIM_THREADS:-}" ]; then export WARPSIM_THREADS=1; fi

RES=$OUTDIR/results
mkdir -p "$BINDIR" "$OUTDIR"
rm -rf "$RES"
mkdir -p "$RES"

# true when label $1 is selected by PATTERN
matches() { [ -z "$PATTERN" ] || [[ "$1" == *$PATTERN* ]]; }

# last 20 lines of a test's output (the files in order)
show_tail() { cat "$@" 2>/dev/null | tail -n 20 | sed 's/^/    | /'; }

# last non-empty line of the first of the files that has one
last_line() {
  local f l
  for f in "$@"; do
    l=$(grep -v '^[[:space:]]*$' "$f" 2>/dev/null | tail -n 1)
    [ -n "$l" ] && { echo "$l"; return; }
  done
  echo "no reason given"
}

# reason for a failed run's exit status (limit: the timeout that was applied)
reason_for_rc() {
  case "$1" in
    124) echo "timeout after ${2}s" ;;
    137) echo "killed (timeout after ${2}s, or out of memory)" ;;
    *) if [ "$1" -gt 128 ]; then echo "killed by signal $(($1 - 128))"; else echo "exit code $1"; fi ;;
  esac
}

# ---------------------------------------------------------------- the tests
LABELS=() KINDS=() NAMES=() MODES_OF=()
# add a test: label, kind (prog, unit or cli), program name or path, mode (programs only)
add_test() { LABELS+=("$1"); KINDS+=("$2"); NAMES+=("$3"); MODES_OF+=("$4"); }

if [ "$NATIVE" = 1 ]; then MODES=${MODES:-native}; else MODES=${MODES:-functional timing check}; fi
for src in "$PROGDIR"/*.cu; do
  [ -e "$src" ] || continue
  name=$(basename "$src" .cu)
  for mode in $MODES; do
    label=$name
    case "$mode" in functional|native) ;; *) label="$name [$mode]" ;; esac
    matches "$label" && add_test "$label" prog "$name" "$mode"
  done
done
if [ "$NATIVE" = 1 ]; then
  echo "note: NATIVE=1 runs only the CUDA programs (unit and cli tests need the simulator)"
else
  for f in build/tests/*; do
    [ -f "$f" ] && [ -x "$f" ] || continue
    label="unit/$(basename "$f")"
    matches "$label" && add_test "$label" unit "$f" ""
  done
  for f in tests/cli/*.sh; do
    [ -f "$f" ] || continue
    label="cli/$(basename "$f" .sh)"
    matches "$label" && add_test "$label" cli "$f" ""
  done
  if [ ! -x "$WARPSIM" ]; then
    echo "warning: simulator $WARPSIM not found or not executable (build it with make, or set WARPSIM / NATIVE=1)" >&2
  fi
fi
NTESTS=${#LABELS[@]}

# ---------------------------------------------------------------- running one test
# Each test writes $RES/I.out (output to show), $RES/I.res ("STATUS reason") and $RES/I.time ("wall cpu").

# run a program test: name, mode, prefix of its output files; prints "STATUS reason" (what to show in $prefix.show)
run_prog() {
  local name=$1 mode=$2 o=$3.show src=$PROGDIR/$1.cu
  local out=$3.stdout err=$3.stderr args limit rc
  compile_one "$name"
  rc=$?
  if [ "$rc" = "$SKIP_RC" ]; then
    if [ -x "$BINDIR/$name" ]; then echo "SKIP $NVCC not found and $BINDIR/$name is older than $src"
    else echo "SKIP $NVCC not found: cannot build $src"; fi
    return
  fi
  if [ "$rc" != 0 ]; then
    show_tail "$BINDIR/$name.log" >"$o"
    echo "FAIL compile error"
    return
  fi
  args=$(directive ARGS "$src")
  if [ "$mode" != functional ] && [ "$mode" != native ] && grep -q "^// TIMING_ARGS:" "$src"; then
    if [ -f "$PROGDIR/$name.expected" ]; then
      echo "FAIL $src has both TIMING_ARGS and $name.expected (the $mode run would not be compared)"
      return
    fi
    args=$(directive TIMING_ARGS "$src")
  fi
  limit=$(directive TIMEOUT "$src")
  limit=${limit:-$TIMEOUT}
  if [ "$mode" = native ]; then
    # shellcheck disable=SC2086
    timeout -k 5 "$limit" "$BINDIR/$name" $args >"$out" 2>"$err" </dev/null
    rc=$?
  else
    if [ ! -x "$WARPSIM" ]; then echo "FAIL no simulator at $WARPSIM"; return; fi
    local how=(--mode="$mode")
    [ "$mode" = check ] && how=(--check)
    # shellcheck disable=SC2086
    timeout -k 5 "$limit" "$WARPSIM" run "${how[@]}" "$BINDIR/$name" $args >"$out" 2>"$err" </dev/null
    rc=$?
  fi
  if [ "$rc" = "$SKIP_RC" ]; then
    echo "SKIP $(last_line "$out" "$err")"
    return
  fi
  if [ "$rc" -ne 0 ]; then
    show_tail "$out" "$err" >"$o"
    echo "FAIL $(reason_for_rc "$rc" "$limit")"
    return
  fi
  if [ "$mode" = check ]; then
    # no false positives: no device-side finding, and no error at all unless the program calls the runtime wrongly
    # on purpose ("// CHECK: api-errors": then "Program hit ..." API errors are allowed)
    local found chk pat='^========= (Invalid|Error: Race|Barrier error|Uninitialized|Host API memory access|Deadlock|Watchdog|Device-side|Leaked)'
    chk=$(directive CHECK "$src"); chk=${chk%% *}   # the first word: api-errors or races
    if [ "$chk" = races ]; then
      pat='^========= (Invalid|Barrier error|Uninitialized|Host API memory access|Deadlock|Watchdog|Device-side|Leaked)'
      if ! grep -q '^========= Error: Race reported' "$err"; then
        grep '^=========' "$err" | head -n 12 | sed 's/^/    | /' >"$o"
        echo "FAIL no racecheck hazard under --check (the program races on purpose: // CHECK: races)"
        return
      fi
    fi
    found=$(grep -E "$pat" "$err" | head -n 1)
    if [ -n "$found" ]; then
      grep '^=========' "$err" | head -n 12 | sed 's/^/    | /' >"$o"
      echo "FAIL device-side finding under --check: $found"
      return
    fi
    if [ "$chk" != api-errors ] && [ "$chk" != races ] && ! grep -q "ERROR SUMMARY: 0 errors" "$err"; then
      grep '^=========' "$err" | head -n 12 | sed 's/^/    | /' >"$o"
      found=$(grep -o 'ERROR SUMMARY: .*' "$err" | head -n 1)
      echo "FAIL ${found:-no ERROR SUMMARY} under --check (expected ERROR SUMMARY: 0 errors)"
      return
    fi
  fi
  local exp=$PROGDIR/$name.expected
  if [ ! -f "$exp" ] || cmp -s "$exp" "$out"; then
    echo "PASS"
  elif [ "$mode" = native ] && [ "$(sort "$exp" | md5sum)" = "$(sort "$out" | md5sum)" ]; then
    # real GPUs do not guarantee the order in which warps' printf output appears
    echo "PASS (native: same lines, different warp order)"
  else
    { diff "$exp" "$out" | head -n 20 | sed 's/^/    | /'; show_tail "$err"; } >"$o"
    echo "FAIL stdout differs from $exp"
  fi
}

# run a unit test or cli script: kind, path, prefix of its output files; prints "STATUS reason" (what to show in
# $prefix.show)
run_cmd() {
  local kind=$1 f=$2 o=$3.show log=$3.log limit rc
  limit=$(directive TIMEOUT "tests/unit/$(basename "$f").c")
  limit=${limit:-$TIMEOUT}
  if [ "$kind" = cli ]; then
    limit=$(grep -m1 '^# TIMEOUT:' "$f" | sed 's/^# TIMEOUT:[[:space:]]*//')
    limit=${limit:-$TIMEOUT}
    timeout -k 5 "$limit" bash "$f" >"$log" 2>&1 </dev/null
  else
    timeout -k 5 "$limit" "$f" >"$log" 2>&1 </dev/null
  fi
  rc=$?
  if [ "$rc" = 0 ]; then
    echo "PASS"
  elif [ "$rc" = "$SKIP_RC" ]; then
    echo "SKIP $(last_line "$log")"
  else
    show_tail "$log" >"$o"
    echo "FAIL $(reason_for_rc "$rc" "$limit")"
  fi
}

# run test I in this (background) shell; records its result and times, then tells the scheduler on fd 8
run_test() {
  local i=$1 t0 res cpu prefix
  case "${KINDS[$i]}" in
    prog) prefix=$OUTDIR/${NAMES[$i]}.${MODES_OF[$i]} ;;
    *) prefix=$OUTDIR/${KINDS[$i]}_$(basename "${NAMES[$i]}" .sh) ;;
  esac
  t0=$EPOCHREALTIME
  rm -f "$prefix.show"
  if [ "${KINDS[$i]}" = prog ]; then
    res=$(run_prog "${NAMES[$i]}" "${MODES_OF[$i]}" "$prefix" 8>&-)
  else
    res=$(run_cmd "${KINDS[$i]}" "${NAMES[$i]}" "$prefix" 8>&-)
  fi
  if [ -f "$prefix.show" ]; then mv -f "$prefix.show" "$RES/$i.out"; else : >"$RES/$i.out"; fi
  # CPU seconds of everything this shell ran: the second line of `times` (children's user and sys)
  times >"$RES/$i.cpu"
  cpu=$(sed -n 2p "$RES/$i.cpu" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%.1f", t }')
  awk -v a="$t0" -v b="$EPOCHREALTIME" -v c="$cpu" 'BEGIN { printf "%.1f %s\n", b - a, c }' >"$RES/$i.time"
  echo "$res" >"$RES/$i.res.tmp" && mv -f "$RES/$i.res.tmp" "$RES/$i.res"
  echo "$i" >&8
}

# ---------------------------------------------------------------- scheduling and printing
passed=0 failed=0 skipped=0

# print the result of test I
report() {
  local i=$1 line status reason
  line=$(cat "$RES/$i.res" 2>/dev/null)
  status=${line%% *}
  reason=""
  [ "$line" != "$status" ] && reason=${line#* }
  case "$status" in
    PASS) echo "PASS ${LABELS[$i]}${reason:+ $reason}"; passed=$((passed + 1)) ;;
    SKIP) echo "SKIP ${LABELS[$i]} (${reason:-no reason given})"; skipped=$((skipped + 1)) ;;
    FAIL) echo "FAIL ${LABELS[$i]} (${reason:-no reason given})"; failed=$((failed + 1)); cat "$RES/$i.out" ;;
    *) echo "FAIL ${LABELS[$i]} (the runner got no result)"; failed=$((failed + 1)) ;;
  esac
}

if [ "$NTESTS" -gt 0 ]; then
  # label order for printing; start order: slowest first, by the last run's wall times, or in a fresh checkout
  # by tests/lib/times.prior (a clean clone's times; tests in neither: cli scripts, then timing-mode programs, then
  # the rest)
  mapfile -t PRINT_ORDER < <(for i in "${!LABELS[@]}"; do printf '%s\t%s\n' "${LABELS[$i]}" "$i"; done |
                              LC_ALL=C sort -t "$(printf '\t')" -k1,1 | cut -f2)
  TIMES_FILE=$OUTDIR/times.txt
  [ -f "$TIMES_FILE" ] || TIMES_FILE=tests/lib/times.prior
  mapfile -t START_ORDER < <(
    for i in "${!LABELS[@]}"; do
      prior=1
      case "${KINDS[$i]}:${MODES_OF[$i]}" in
        cli:*) prior=100 ;; prog:timing) prior=20 ;; unit:*) prior=10 ;; prog:check) prior=5 ;;
      esac
      printf '%s\t%s\t%s\n' "${LABELS[$i]}" "$i" "$prior"
    done | awk -F '\t' -v tf="$TIMES_FILE" '
             BEGIN { while ((getline l < tf) > 0) { split(l, a, "\t"); t[a[1]] = a[2] } }
             { print ($1 in t ? t[$1] : $3), $2 }' |
      sort -k1,1nr -s | cut -d' ' -f2)

  mkfifo "$RES/done"
  exec 8<>"$RES/done"
  running=0 next=0 finished=0
  progress=0
  [ -t 2 ] && progress=1
  # print every finished result that has no unfinished test before it in label order
  flush() {
    [ "$progress" = 1 ] && printf '\r\033[K' >&2
    while [ "$next" -lt "$NTESTS" ] && [ -f "$RES/${PRINT_ORDER[$next]}.res" ]; do
      report "${PRINT_ORDER[$next]}"
      next=$((next + 1))
    done
    [ "$progress" = 1 ] && [ "$finished" -lt "$NTESTS" ] && printf '[%d/%d tests done]' "$finished" "$NTESTS" >&2
    return 0
  }
  # wait until one running test has finished
  reap() { read -r _ <&8; running=$((running - 1)); finished=$((finished + 1)); flush; }
  for i in "${START_ORDER[@]}"; do
    while [ "$running" -ge "$JOBS" ]; do reap; done
    run_test "$i" >/dev/null 2>&1 </dev/null &
    running=$((running + 1))
  done
  while [ "$running" -gt 0 ]; do reap; done
  wait
  exec 8>&-

  # wall and CPU seconds per test, for the next run's start order (older entries of tests not run kept)
  {
    for i in "${!LABELS[@]}"; do printf '%s\t%s\t%s\n' "${LABELS[$i]}" $(cat "$RES/$i.time" 2>/dev/null || echo "0 0"); done
    [ -f "$OUTDIR/times.txt" ] && awk -F '\t' 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' \
      <(printf '%s\n' "${LABELS[@]}") "$OUTDIR/times.txt"
  } | LC_ALL=C sort -t "$(printf '\t')" -k1,1 >"$OUTDIR/times.txt.new"
  mv -f "$OUTDIR/times.txt.new" "$OUTDIR/times.txt"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
