#!/usr/bin/env bash
# TIMEOUT: 120
# simt_stack.sh - the two SIMT models of `warpsim run --simt=its|stack`:
#   - tests/programs/its_lanes.cu (lanes of one warp waiting for each other: a spin lock, a lane-to-lane handoff, a
#     __syncwarp in both branches of an if) passes under independent thread scheduling (the default, also a test
#     of the program suite) and deadlocks under the stack model, where the watchdog stops it and names the kernel;
#   - ordinary divergent code runs the same under both models: tests/programs/divergence.cu gives the same
#     instruction and thread counts, cycles and output with --simt=its and --simt=stack in timing mode;
#   - --simt=bogus is a usage error.
# Exits 77 (skipped) when nvcc or python3 is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
OUT=build/tests/simt
mkdir -p "$OUT"
command -v python3 >/dev/null 2>&1 || { echo "simt_stack: python3 not found"; exit 77; }
command -v "$NVCC" >/dev/null 2>&1 || { echo "simt_stack: $NVCC not found"; exit 77; }
. tests/lib/progs.sh
for p in its_lanes divergence; do compile_one "$p" || { cat "$BINDIR/$p.log"; exit 1; }; done
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }

"$WARPSIM" run --quiet "$BINDIR/its_lanes" >"$OUT/its.out" 2>&1 && grep -q "^PASS its_lanes" "$OUT/its.out" &&
  ok "its_lanes passes with independent thread scheduling" || { bad "its_lanes under --simt=its"; tail -5 "$OUT/its.out"; }
"$WARPSIM" run --simt=stack --max-instructions 1000000 "$BINDIR/its_lanes" >"$OUT/stack.out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q "watchdog: kernel _Z10locked_sum.* exceeded 1000000 warp instructions" "$OUT/stack.out"; then
  ok "under --simt=stack the spin lock deadlocks: the watchdog stops locked_sum (status $rc)"
else bad "its_lanes under --simt=stack: status $rc, no watchdog stop of locked_sum"; tail -5 "$OUT/stack.out"; fi

for m in its stack; do
  "$WARPSIM" run --timing --quiet --simt=$m --report "$OUT/div-$m.json" "$BINDIR/divergence" >"$OUT/div-$m.out" 2>&1 ||
    bad "divergence --simt=$m"
done
if cmp -s "$OUT/div-its.out" "$OUT/div-stack.out" && python3 - "$OUT/div-its.json" "$OUT/div-stack.json" <<'PY'
import json, sys
a, b = (json.load(open(f))["launches"] for f in sys.argv[1:3])
keys = ["smsp__inst_executed.sum", "smsp__thread_inst_executed.sum", "sm__cycles_elapsed.max"]
same = len(a) == len(b) and all(x.get(k) == y.get(k) for x, y in zip(a, b) for k in keys)
print(f"     {len(a)} launches, {sum(x['smsp__inst_executed.sum'] for x in a)} warp instructions")
sys.exit(0 if same else 1)
PY
then ok "divergence.cu: the same counts, cycles and output under both models"
else bad "divergence.cu differs between --simt=its and --simt=stack"; fi

"$WARPSIM" run --simt=bogus "$BINDIR/divergence" >"$OUT/bogus.out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q -- "--simt=bogus: expected its or stack" "$OUT/bogus.out" && ok "--simt=bogus: usage error (status 2)" ||
  bad "--simt=bogus: status $rc"
[ "$fails" = 0 ]
