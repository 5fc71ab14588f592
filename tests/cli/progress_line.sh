#!/usr/bin/env bash
# TIMEOUT: 240
# The progress line of long launches (src/host/hs_progress.c): under a pseudo-terminal a launch that runs longer
# than 2 seconds shows "warpsim: KERNEL: DONE/TOTAL blocks, ..., N s" on stderr, rewritten in place and
# erased when the launch ends (functional mode; timing mode adds the simulated cycle); short launches show nothing,
# and nothing appears when stderr is not a terminal or with --quiet. The long launches run with the delay shortened
# to 0.3 s (WARPSIM_PROGRESS_DELAY) and last about 1.5 s; the short one runs with the default 2 s. Exits 77 (skipped) when nvcc or python3 is
# missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
OUT=build/tests/progress
mkdir -p "$OUT"
command -v python3 >/dev/null 2>&1 || { echo "progress_line: python3 not found"; exit 77; }
if ! [ "$OUT/long_launch" -nt tests/timing/long_launch.cu ]; then
  command -v "$NVCC" >/dev/null 2>&1 || { echo "progress_line: $NVCC not found"; exit 77; }
  "$NVCC" -cudart shared -lineinfo -o "$OUT/long_launch" tests/timing/long_launch.cu || exit 1
fi
python3 - "$WARPSIM" "$OUT/long_launch" <<'PY'
import os, pty, subprocess, sys, time
warpsim, prog = sys.argv[1], sys.argv[2]

def on_pty(args):
    """Run args with stdin/stdout/stderr on a new pseudo-terminal; (exit status, everything it wrote, seconds)."""
    master, slave = pty.openpty()
    t = time.time()
    p = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return p.wait(), out.decode("utf-8", "replace"), time.time() - t

def piped(args):
    """Run args with stderr (and stdout) to a pipe."""
    t = time.time()
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return r.returncode, r.stdout.decode("utf-8", "replace"), time.time() - t

os.environ["WARPSIM_PROGRESS_DELAY"] = "0.3"
LONG = 1.4      # seconds a long launch should take: the line after 0.3 s, then updated every 0.25 s

def long_args(extra, blocks, iters):
    """A launch long enough: the iteration count grows until the launch takes more than LONG seconds."""
    return [warpsim, "run"] + extra + [prog, str(blocks), str(iters)]

fails = 0
def check(ok, text, detail=""):
    global fails
    print(("ok   " if ok else "FAIL ") + text + ("" if ok or not detail else "\n     " + detail))
    fails += not ok

# calibrate: a functional launch of about 4 s on this machine (the simulator's speed varies with the load)
iters = 4000
for _ in range(6):
    rc, out, secs = piped(long_args(["--quiet"], 128, iters))
    if rc != 0:
        check(False, "long_launch runs", out[-400:])
        sys.exit(1)
    if secs > LONG:
        break
    iters = int(iters * min(8.0, 1.3 * LONG / max(secs, 0.05)))

# a machine whose load fell since the calibration runs the launch faster: one too short for two updates is retried
# longer (the calibration's aim, about LONG seconds, is what the checks need)
for attempt in range(3):
    rc, out, secs = on_pty(long_args([], 128, iters))
    if rc != 0 or secs >= LONG:
        break
    iters = int(iters * min(8.0, 1.3 * LONG / max(secs, 0.05)))
lines = [s for s in out.split("\r") if "warpsim: spin: " in s and " blocks" in s]
check(rc == 0 and "PASS long_launch" in out, f"the program passes under a terminal ({secs:.1f} s)", out[-400:])
check(len(lines) >= 2, f"a {secs:.1f} s launch shows the progress line, updated ({len(lines)} updates)", repr(out[-600:]))
check(any("warpsim: spin: " in s and "/128 blocks" in s for s in lines), "the line names the kernel and the blocks",
      repr(lines[:2]))
check("\r\x1b[K" in out and out.rfind("\x1b[K") < out.find("PASS long_launch"),
      "the line is erased when the launch ends (before the program prints)", repr(out[-300:]))
check(all(len(s.split("\x1b[K")[0]) < 80 for s in lines), "the line fits the terminal's width")

rc, out, _ = piped(long_args([], 128, iters))
check(rc == 0 and "blocks" not in out, "nothing when stderr is not a terminal", out[-300:])

rc, out, _ = on_pty(long_args(["--quiet"], 128, iters))
check(rc == 0 and "blocks" not in out, "nothing with --quiet", out[-300:])

del os.environ["WARPSIM_PROGRESS_DELAY"]
rc, out, _ = on_pty([warpsim, "run", prog, "128", "50", "20"])
check(rc == 0 and "blocks" not in out and "PASS" in out, "nothing for short launches", out[-300:])
os.environ["WARPSIM_PROGRESS_DELAY"] = "0.3"

# timing mode: the simulated cycle (calibrated apart: the timing model is much slower)
titers = max(100, iters // 20)
rc, out, secs = piped(long_args(["--quiet", "--timing"], 128, titers))
if secs < LONG:
    titers = int(titers * min(20.0, 1.3 * LONG / max(secs, 0.05)))
# the engine reports its cycle every 4,096 steps: a launch too short for one (a busy machine makes a short
# launch look long) is retried four times longer
for attempt in range(4):
    rc, out, secs = on_pty(long_args(["--timing"], 128, titers))
    lines = [s for s in out.split("\r") if "warpsim: spin: " in s and " blocks" in s]
    if rc != 0 or any(", cycle " in s for s in lines):
        break
    titers *= 4
check(rc == 0 and any(", cycle " in s for s in lines),
      f"timing mode shows the simulated cycle ({secs:.1f} s)", repr(out[-600:]))
sys.exit(1 if fails else 0)
PY
