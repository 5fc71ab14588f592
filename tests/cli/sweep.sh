#!/usr/bin/env bash
# TIMEOUT: 120
# warpsim sweep (docs/sweep.md), locally:
#  - a 24-point sweep from sweep.toml (3 programs x 2 devices x 2 overrides x 2 sizes, functional mode, 2 jobs):
#    every point passes, and the merged table (results.json, results.csv) equals 24 individual `warpsim run`s
#    launch by launch (all report members but the host wall-clock host_seconds); results.html is self-contained;
#  - --resume after the sweep is killed (SIGTERM) halfway redoes exactly the unfinished points (counted from the
#    finished markers; the finished points' markers are untouched), and the results equal the uninterrupted ones;
#  - failures are recorded and never stop the sweep: a nonzero exit, a crash (signal) and a timeout each leave a
#    failed point with its output and reason, the other points pass, and the sweep exits 1;
#  - --set with an unknown field, an invalid value or an inconsistent one: a clear error naming it, exit 2, and
#    nothing runs (no results folder); `warpsim run --set` checks the same way.
# Exits 77 (skipped) when nvcc or python3 is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
case "$WARPSIM" in /*) ;; *) WARPSIM="$PWD/$WARPSIM" ;; esac
export WARPSIM
NVCC=${NVCC:-nvcc}
NAME=sweep
OUT=$PWD/build/tests/sweep
command -v python3 >/dev/null 2>&1 || { echo "sweep: python3 not found"; exit 77; }
rm -rf "$OUT"
# shellcheck source=../lib/sweep_common.sh
. tests/lib/sweep_common.sh
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }

# 1. the 24-point sweep, checked against individual runs
sweep_toml "$OUT/local" > "$OUT/sweep.toml"
if "$WARPSIM" sweep "$OUT/sweep.toml" > "$OUT/local.log" 2>&1; then ok "warpsim sweep sweep.toml (24 points)"
else bad "warpsim sweep sweep.toml"; tail -20 "$OUT/local.log"; fi
grep -q "24 of 24 points passed" "$OUT/local.log" && ok "24 of 24 points passed" || bad "summary line: $(tail -1 "$OUT/local.log")"
python3 tests/lib/sweep_check.py individual "$OUT/local" "$PROGS" || fails=$((fails + 1))

# 2. --resume after killing the sweep halfway
sweep_toml "$OUT/resumed" > "$OUT/resume.toml"
"$WARPSIM" sweep "$OUT/resume.toml" > "$OUT/killed.log" 2>&1 &
pid=$!
for _ in $(seq 1 400); do
  n=$(find "$OUT/resumed/points" -name done 2>/dev/null | wc -l)
  [ "$n" -ge 12 ] && break
  sleep 0.02
done
kill -TERM "$pid"
wait "$pid"; rc=$?
[ "$rc" = 130 ] && ok "the killed sweep exits 130" || bad "the killed sweep exited $rc (expected 130)"
finished=$(find "$OUT/resumed/points" -name done | wc -l)
if [ "$finished" -gt 0 ] && [ "$finished" -lt 24 ]; then ok "killed with $finished of 24 points finished"
else bad "killed with $finished points finished (expected some, not all)"; fi
find "$OUT/resumed/points" -name done -printf '%P %T@\n' | sort > "$OUT/markers.before"
"$WARPSIM" sweep --resume "$OUT/resumed" > "$OUT/resume.log" 2>&1; rc=$?
[ "$rc" = 0 ] && ok "warpsim sweep --resume" || { bad "--resume exited $rc"; tail -5 "$OUT/resume.log"; }
want="24 points, $finished finished, $((24 - finished)) to run here"
grep -q "$want" "$OUT/resume.log" && ok "--resume: $want" || bad "--resume said '$(head -1 "$OUT/resume.log")', expected '$want'"
find "$OUT/resumed/points" -name done -printf '%P %T@\n' | sort > "$OUT/markers.after"
[ "$(find "$OUT/resumed/points" -name done | wc -l)" = 24 ] && ok "all 24 points finished" || bad "not all points finished"
redone=$(join "$OUT/markers.before" "$OUT/markers.after" | awk '$2 != $3' | wc -l)
[ "$redone" = 0 ] && ok "no finished point was run again" || bad "$redone finished points were run again"
python3 tests/lib/sweep_check.py same "$OUT/local" "$OUT/resumed" || fails=$((fails + 1))

# 3. failures are recorded and never stop the sweep
cat > "$OUT/fail.toml" <<TOML
out = "$OUT/fail"
timeout = 1
[program.exits]
command = ["sh", "-c", "echo exiting with {arg}; exit {arg}"]
args = [0, 3]
[program.crashes]
# (env -u LD_PRELOAD: under make sanitize the preloaded ASan runtime would catch the shell's SEGV itself)
command = ["env", "-u", "LD_PRELOAD", "sh", "-c", "echo crashing; kill -SEGV \$\$"]
[program.hangs]
command = ["sleep", "{arg}"]
args = [0, 30]
TOML
"$WARPSIM" sweep "$OUT/fail.toml" > "$OUT/fail.log" 2>&1; rc=$?
[ "$rc" = 1 ] && ok "a sweep with failed points exits 1" || bad "the failing sweep exited $rc (expected 1)"
python3 - "$OUT/fail" <<'PY' || fails=$((fails + 1))
import json, sys
d = sys.argv[1]
pts = {(p["program"], p["arg"]): p for p in json.load(open(d + "/results.json"))["points"]}
fails = 0
def check(ok, text):
    global fails
    print(("ok   " if ok else "FAIL ") + text)
    fails += not ok
want = {("exits", "0"): ("passed", "passed"), ("exits", "3"): ("failed", "exit code 3"),
        ("crashes", ""): ("failed", "crashed (exit code 139"), ("hangs", "0"): ("passed", "passed"),
        ("hangs", "30"): ("failed", "timed out after 1 s")}
for k, (st, why) in want.items():
    p = pts.get(k, {})
    check(p.get("status") == st and p.get("reason", "").startswith(why), "point %s %s: %s (%s)" % (k + (st, why)))
    out = open("%s/points/%s/output.txt" % (d, p.get("point", "x"))).read()
    if k[0] != "hangs":
        check(("exiting" in out or "crashing" in out), "point %s %s keeps its output" % k)
    if st == "failed":
        check("warpsim sweep: point %s failed: %s" % (p["point"], why) in out, "point %s %s: reason in output.txt" % k)
sys.exit(1 if fails else 0)
PY

# 4. the progress line on a terminal (points done, running, failed, ETA), and none without one
python3 - "$WARPSIM" "$OUT/tty" <<'PY' || fails=$((fails + 1))
import os, pty, subprocess, sys
warpsim, out = sys.argv[1], sys.argv[2]
master, slave = pty.openpty()
p = subprocess.Popen([warpsim, "sweep", "--out", out, "--arg", "0,0,1", "--jobs", "2", "--", "sh", "-c", "exit {arg}"],
                     stdin=slave, stdout=slave, stderr=slave, close_fds=True)
os.close(slave)
text = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    text += chunk
rc = p.wait()
t = text.decode(errors="replace")
ok = rc == 1 and "3/3 done, 0 running, 1 failed, ETA 0s" in t and "\r\033[K[" in t and "running" in t
print(("ok   " if ok else "FAIL ") + "progress line on a terminal: " + repr(t.split("\r")[-1][:90]))
sys.exit(0 if ok else 1)
PY
grep -q "done, .* running" "$OUT/local.log" && bad "a progress line without a terminal" || ok "no progress line without a terminal"

# 5. spec errors name the line; --set errors are clear, and nothing runs
printf 'out = "%s"\ngpu = [h100]\n' "$OUT/bad" > "$OUT/bad.toml"
"$WARPSIM" sweep "$OUT/bad.toml" > "$OUT/bad.log" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -qF "bad.toml:2: unsupported value starting with 'h'" "$OUT/bad.log" && ! [ -e "$OUT/bad" ] &&
  ok "a bad sweep.toml: $(head -1 "$OUT/bad.log")" || bad "bad sweep.toml: exit $rc: $(head -1 "$OUT/bad.log")"
set_error() {   # set_error LABEL EXPECTED-TEXT SWEEP-OPTIONS...
  local label=$1 want=$2; shift 2
  rm -rf "$OUT/err"
  "$WARPSIM" sweep --out "$OUT/err" "$@" -- "$PROGS/dot_product" 1024 > "$OUT/err.log" 2>&1; local rc=$?
  if [ "$rc" = 2 ] && grep -qF -- "$want" "$OUT/err.log" && ! [ -e "$OUT/err" ]; then ok "$label: $(head -1 "$OUT/err.log")"
  else bad "$label: exit $rc, '$(head -2 "$OUT/err.log")', results folder $( [ -e "$OUT/err" ] && echo made || echo absent)"; fi
}
set_error "unknown field" "--set foo=1: unknown preset field 'foo'" --set foo=1,2
set_error "invalid value" "--set sm_count=abc: field 'sm_count': invalid value 'abc'" --gpu h100,a100 --set sm_count=66,abc
set_error "value out of range" "--set warp_size=0: field 'warp_size': invalid value '0'" --set warp_size=0
set_error "inconsistent value" "--set regs_per_sm=1024: the preset becomes inconsistent: field 'max_regs_per_block': larger than regs_per_sm" --set regs_per_sm=1024
set_error "unknown device" "--gpu nosuchgpu: unknown device 'nosuchgpu'" --gpu h100,nosuchgpu
rm -f "$OUT/run.json"
"$WARPSIM" run --report "$OUT/run.json" --set l2_sise=1MiB "$PROGS/dot_product" 1024 > "$OUT/run.log" 2>&1; rc=$?
if [ "$rc" = 2 ] && grep -qF "warpsim run: --set l2_sise=1MiB: unknown preset field 'l2_sise'" "$OUT/run.log" &&
   ! [ -e "$OUT/run.json" ] && ! grep -q PASS "$OUT/run.log"; then ok "warpsim run --set with an unknown field: nothing runs"
else bad "warpsim run --set l2_sise: exit $rc: $(head -2 "$OUT/run.log")"; fi
"$WARPSIM" run --quiet --report "$OUT/run.json" --set "l2_size=1MiB" --gpu h100 "$PROGS/dot_product" 1024 > "$OUT/run.log" 2>&1 &&
  grep -q '"device": "h100"' "$OUT/run.json" && ok "warpsim run --set l2_size=1MiB runs, on device h100" ||
  bad "warpsim run --set l2_size=1MiB: $(tail -2 "$OUT/run.log")"

[ "$fails" = 0 ] || { echo "sweep: $fails failed"; exit 1; }
echo "sweep: all passed"
