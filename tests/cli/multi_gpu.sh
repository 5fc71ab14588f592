#!/usr/bin/env bash
# TIMEOUT: 180
# multi_gpu.sh - several simulated devices (`warpsim run --gpus`). tests/programs/multi_gpu.cu (a reduction split
# over the devices with peer reads and writes, peer copies, an event across devices and the error codes; the
# suite also runs it alone on one device) runs with --gpus 2 in functional mode, with --gpus 2 in timing mode at
# --threads 1 and 2 (same output, same report but host_seconds), and with the list --gpus h200,a100 in timing
# mode; an 8 MiB peer copy takes the presets' peer_link_gbs (450 GB/s h200, 300 a100: the slower end) plus
# peer_link_latency_us; the report gives each launch its device and each device its preset, launches and copies
# by direction (the peer copies on device 0), the trace puts every
# device's kernels and the PtoP copies on their device. tests/driver/drv_multi.c (gcc, the driver API) runs with
# --gpus 2. Bad --gpus values are refused. Exits 77 (skipped) when nvcc, gcc or python3 is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
HOSTCC=${HOSTCC:-gcc}
OUT=build/tests/multi_gpu
mkdir -p "$OUT"
for t in python3 "$NVCC" "$HOSTCC"; do
  command -v "$t" >/dev/null 2>&1 || { echo "multi_gpu: $t not found"; exit 77; }
done
. tests/lib/progs.sh
compile_one multi_gpu || { cat "$BINDIR/multi_gpu.log" 2>/dev/null; exit 1; }
PROG=$BINDIR/multi_gpu
CUDA_INC=$(dirname "$(command -v "$NVCC")")/../include
"$HOSTCC" -std=c11 -O1 -Wall -Wextra -Werror -I"$CUDA_INC" -o "$OUT/drv_multi" tests/driver/drv_multi.c \
  -L"$(dirname "$WARPSIM")/lib" -lcuda || exit 1
fails=0

# check NAME STATUS: report one check (status 0 = passed)
check() {
  if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

# run NAME ARGS...: run the program under warpsim with ARGS, its stdout in $OUT/NAME.out; the exit status
run() {
  local name=$1
  shift
  "$WARPSIM" run --quiet "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
  local rc=$?
  [ $rc = 0 ] || { cat "$OUT/$name.out" "$OUT/$name.err"; }
  return $rc
}

run func2 --gpus 2 "$PROG"
check "--gpus 2, functional: the split reduction, peer access, peer copies and error codes" $?
grep -q "^devices 2$" "$OUT/func2.out"
check "--gpus 2: the program sees two devices" $?
run t1 --gpus 2 --timing --threads 1 --report "$OUT/t1.json" --trace "$OUT/t1.trace.json" "$PROG"
check "--gpus 2, timing mode, --threads 1" $?
run t2 --gpus 2 --timing --threads 2 --report "$OUT/t2.json" "$PROG"
check "--gpus 2, timing mode, --threads 2" $?
run mixed --gpus h200,a100 --timing --report "$OUT/mixed.json" "$PROG"
check "--gpus h200,a100, timing mode" $?
run drv --gpus 2 "$OUT/drv_multi"
check "the driver API with --gpus 2 (contexts per device, peer access, cuMemcpyPeer)" $?

python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
def lines(name):
    return open(f"{out}/{name}.out").read().splitlines()
def value(name, key):
    for l in lines(name):
        if l.startswith(key + " "):
            return float(l.split()[1])
    return None
def strip(r):
    for l in r["launches"]:
        l.pop("host_seconds", None)
    return r
checks = []
t1, t2 = json.load(open(f"{out}/t1.json")), json.load(open(f"{out}/t2.json"))
checks.append(("the same output at --threads 1 and 2", lines("t1") == lines("t2")))
checks.append(("the same report at --threads 1 and 2 (but host_seconds)", strip(t1) == strip(t2)))
dv = t1.get("devices", [])
checks.append(("the report lists the devices", [d["preset"] for d in dv] == ["h200", "h200"] and t1["device"] == "h200"))
checks.append(("the report's launches per device add up", sum(d["launches"] for d in dv) == len(t1["launches"])
               and all(d["launches"] == sum(l["device"] == d["index"] for l in t1["launches"]) for d in dv)))
cp = {(d["index"], c["direction"]): c for d in dv for c in d["copies"]}
checks.append(("the report counts device 0's peer copies (PtoP, the 8 MiB one among them) and device 1's upload",
               (0, "PtoP") in cp and cp[(0, "PtoP")]["bytes"] >= 8 * 2**20 and cp[(0, "PtoP")]["count"] >= 2
               and cp.get((1, "HtoD"), {}).get("bytes") == 65536 and (1, "PtoP") not in cp))
devs = {}
for l in t1["launches"]:
    devs.setdefault(l["kernel"], set()).add(l.get("device"))
checks.append(("every launch names its device; scale_sum ran on both", all("device" in l for l in t1["launches"])
               and any(k.startswith("_Z9scale_sum") and v == {0, 1} for k, v in devs.items())))
mib8 = 8 * 2**20
for name, gbs in (("t1", 450.0), ("mixed", 300.0)):
    ms = value(name, "peer_copy_ms")
    want = (mib8 / (gbs * 1e9) + 2e-6) * 1e3
    checks.append((f"{name}: the 8 MiB peer copy takes {ms} ms = 8 MiB / {gbs:.0f} GB/s + 2 us ({want:.6f} ms)",
                   ms is not None and abs(ms - want) < 0.01 * want))
m = json.load(open(f"{out}/mixed.json"))
checks.append(("--gpus h200,a100: the report lists both presets",
               [d["preset"] for d in m.get("devices", [])] == ["h200", "a100"]))
checks.append(("--gpus h200,a100: device 1 is the A100", any("device 1: NVIDIA A100" in l for l in lines("mixed"))))
tr = json.load(open(f"{out}/t1.trace.json"))
evs = tr["traceEvents"] if isinstance(tr, dict) else tr
kdev = {e["args"].get("device") for e in evs if e.get("cat") == "kernel"}
ptop = [e for e in evs if e.get("cat") == "memcpy" and e["args"].get("direction") == "PtoP"]
checks.append(("the trace has kernels of both devices", kdev == {0, 1}))
checks.append(("the trace has the peer copies (PtoP) on device 0", len(ptop) >= 2 and
               all(e["args"]["device"] == 0 for e in ptop)))
names = {e["args"]["name"] for e in evs if e.get("ph") == "M" and e.get("name") == "thread_name"}
checks.append(("the trace has device 1's default stream", "stream 0 (default) [device 1]" in names))
bad = 0
for text, ok in checks:
    print(("ok   " if ok else "FAIL ") + text)
    bad += not ok
sys.exit(1 if bad else 0)
PY
check "reports, outputs and timing of the runs above" $?

# bad values: a clear message, exit status 2, the program never starts
refuse() {
  local want=$1
  shift
  "$WARPSIM" run "$@" "$PROG" >"$OUT/refuse.out" 2>&1
  local rc=$?
  [ $rc = 2 ] && grep -q -- "$want" "$OUT/refuse.out" && ! grep -q "^devices" "$OUT/refuse.out"
  local ok=$?
  [ $ok = 0 ] || { echo "rc=$rc"; cat "$OUT/refuse.out"; }
  return $ok
}
refuse "expected 1 to 16 devices" --gpus 0
check "--gpus 0 is refused" $?
refuse "expected 1 to 16 devices" --gpus 17
check "--gpus 17 is refused" $?
refuse "unknown GPU 'nosuch'" --gpus h200,nosuch
check "--gpus with an unknown preset is refused" $?
refuse "expected a count or up to 16 preset names" --gpus h200,,a100
check "--gpus with an empty name is refused" $?
refuse "leave out --gpu" --gpu h200 --gpus h200,a100
check "--gpu with a --gpus list is refused" $?
refuse "several devices are --gpus" --gpu h200,a100
check "--gpu with a list is refused (pointing to --gpus)" $?
refuse "--check runs on one device" --check --gpus 2
check "--check with several devices is refused" $?

[ $fails = 0 ] && echo "multi_gpu: all checks passed"
exit $((fails > 0))
