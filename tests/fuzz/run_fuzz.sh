#!/usr/bin/env bash
# run_fuzz.sh - run libFuzzer harnesses built by `make fuzz-build` (called by `make fuzz` / `make fuzz-regress`).
#
#   bash tests/fuzz/run_fuzz.sh FUZZ_DIR SECONDS NAME...
#
# For each NAME, with the binary FUZZ_DIR/fuzz_NAME:
#   1. replays every file of tests/fuzz/regress/NAME/ and tests/fuzz/corpus/NAME/ once (quick mode);
#   2. when SECONDS > 0, fuzzes for SECONDS seconds: new inputs go to FUZZ_DIR/corpus/NAME/ (the seeds in
#      tests/fuzz/corpus/NAME/ are read, never written), crashes, leaks, timeouts and sanitizer reports to
#      FUZZ_DIR/artifacts/NAME/ (copy the ones worth keeping to tests/fuzz/regress/NAME/).
# Ends with one line per harness (corpus size, executions per second, crashes) and exits 1 when any harness
# failed a replay or left an artifact. $FUZZ_ARGS is passed to every fuzzing run (e.g. -jobs=2, -dict=FILE).
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root" || exit 2
[ $# -ge 2 ] || { echo "usage: $0 FUZZ_DIR SECONDS NAME..." >&2; exit 2; }
dir=$1
secs=$2
shift 2
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

status=0
summary=()
for name in "$@"; do
  bin=$dir/fuzz_$name
  seeds=tests/fuzz/corpus/$name
  regress=tests/fuzz/regress/$name
  work=$dir/corpus/$name
  arts=$dir/artifacts/$name
  log=$dir/fuzz_$name.log
  mkdir -p "$seeds" "$work" "$arts"
  if [ ! -x "$bin" ]; then
    echo "FAIL fuzz/$name: $bin not built"
    summary+=("$name: not built")
    status=1
    continue
  fi

  # 1. quick mode: each regression case and seed once
  replay=()
  for f in "$regress"/* "$seeds"/*; do [ -f "$f" ] && replay+=("$f"); done
  if [ ${#replay[@]} -gt 0 ]; then
    if "$bin" -artifact_prefix="$arts/" "${replay[@]}" >"$dir/replay_$name.log" 2>&1; then
      echo "PASS fuzz/$name replay (${#replay[@]} inputs)"
    else
      echo "FAIL fuzz/$name replay (see $dir/replay_$name.log)"
      tail -n 30 "$dir/replay_$name.log" | sed 's/^/    | /'
      status=1
    fi
  fi
  [ "$secs" -gt 0 ] 2>/dev/null || { summary+=("$name: replayed ${#replay[@]} inputs"); continue; }

  # 2. fuzz
  before=$(find "$arts" -type f | wc -l)
  echo "fuzzing $name for ${secs}s (log: $log)"
  # shellcheck disable=SC2086
  "$bin" -max_total_time="$secs" -timeout=10 -print_final_stats=1 -artifact_prefix="$arts/" ${FUZZ_ARGS:-} \
      "$work" "$seeds" >"$log" 2>&1
  rc=$?
  after=$(find "$arts" -type f | wc -l)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  corp=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -n 1 | sed 's/corp: //')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | sed 's/cov: //')
  files=$(find "$work" "$seeds" -type f | wc -l)
  new=$((after - before))
  line="$name: corpus ${corp:-?} (${files} files), ${execs:-?} execs, ${rate:-?} exec/s, cov ${cov:-?}, new artifacts $new"
  if [ "$rc" -ne 0 ] || [ "$new" -gt 0 ]; then
    echo "FAIL fuzz/$name (exit $rc)"
    grep -E 'ERROR: |SUMMARY: |runtime error|Test unit written' "$log" | head -n 20 | sed 's/^/    | /'
    line="$line  FAILED (exit $rc)"
    status=1
  else
    echo "PASS fuzz/$name"
  fi
  summary+=("$line")
done

echo "---- fuzz summary"
for s in "${summary[@]}"; do echo "$s"; done
exit $status
