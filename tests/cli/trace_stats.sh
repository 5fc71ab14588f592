#!/usr/bin/env bash
# TIMEOUT: 300
# The host timeline (src/host/hs_timeline.c) through `warpsim run --trace FILE.json --stats=FILE`:
#  - the Chrome trace of tests/programs/streams.cu (timing and functional mode) is valid trace-event JSON: every
#    event has name, ph, ts, pid and tid, complete events have a duration and nest on their track, async events
#    pair up; kernels and copies appear on their streams in stream order; every kernel links to its launch in the
#    run report (same kernel, same simulated duration); in timing mode the SM tracks hold every block of every
#    launch, inside its kernel;
#  - the NVTX ranges of tests/timing/nvtx_ranges.cu are on the host thread, named and nested as the program opened
#    them (start/end range, mark, domain range, wide range, thread and stream names, a graph with its nodes);
#  - --stats: kernel instances and total simulated time equal the run report's, copy counts and bytes equal the
#    trace's, API call counts and NVTX rows are right, in nsys's table layout;
#  - the view data's "host" object (WARPSIM_HOST_JSON) has exactly docs/view-format.md's fields;
#  - WARPSIM_TIMELINE_MAX bounds the timeline, which then says it was truncated.
# Exits 77 (skipped) when nvcc or python3 is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
OUT=build/tests/trace
mkdir -p "$OUT"
command -v python3 >/dev/null 2>&1 || { echo "trace_stats: python3 not found"; exit 77; }
command -v "$NVCC" >/dev/null 2>&1 || { echo "trace_stats: $NVCC not found"; exit 77; }
. tests/lib/progs.sh   # compile_one: tests/programs/streams.cu is built once for the whole suite
compile_one streams || { cat "$BINDIR/streams.log"; exit 1; }
if ! [ "$OUT/nvtx_ranges" -nt tests/timing/nvtx_ranges.cu ]; then
  "$NVCC" -cudart shared -lineinfo -o "$OUT/nvtx_ranges" tests/timing/nvtx_ranges.cu || exit 1
fi
run() {   # run LABEL [options...] PROGRAM: the trace, stats, report and host JSON go to $OUT/LABEL.*
  local label=$1; shift
  rm -f "$OUT/$label".*
  WARPSIM_HOST_JSON="$OUT/$label.host.json" "$WARPSIM" run --quiet --trace "$OUT/$label.trace.json" \
    --stats="$OUT/$label.stats.txt" --report "$OUT/$label.report.json" "$@" > "$OUT/$label.out" 2>&1 ||
    { echo "FAIL $label: warpsim run $*"; tail -20 "$OUT/$label.out"; exit 1; }
}
run streams_timing --timing "$BINDIR/streams"
run streams_func "$BINDIR/streams"
run nvtx_timing --timing "$OUT/nvtx_ranges"
run nvtx_func "$OUT/nvtx_ranges"
rm -f "$OUT/bounded".*
WARPSIM_TIMELINE_MAX=10 WARPSIM_HOST_JSON="$OUT/bounded.host.json" "$WARPSIM" run --quiet \
  --trace "$OUT/bounded.trace.json" --stats="$OUT/bounded.stats.txt" "$BINDIR/streams" > "$OUT/bounded.out" 2>&1 ||
  { echo "FAIL bounded run"; tail -20 "$OUT/bounded.out"; exit 1; }

python3 - "$OUT" <<'PY'
import json, re, sys
out = sys.argv[1]
fails = 0
def check(ok, text, detail=""):
    global fails
    print(("ok   " if ok else "FAIL ") + text + ("" if ok or not detail else "\n     " + str(detail)[:600]))
    fails += not ok

def ns(x):
    """Microseconds of the trace (nanosecond digits) as integer nanoseconds."""
    return round(x * 1000)

def validate(label):
    """Check a trace's format and nesting; returns its events."""
    d = json.load(open(f"{out}/{label}.trace.json"))
    ev = d["traceEvents"]
    bad = [e for e in ev if not all(k in e for k in ("name", "ph", "ts", "pid", "tid"))]
    check(not bad, f"{label}: every event has name, ph, ts, pid, tid ({len(ev)} events)", bad[:3])
    bad = [e for e in ev if e["ph"] == "X" and not (isinstance(e.get("dur"), (int, float)) and e["dur"] >= 0)]
    check(not bad, f"{label}: complete events have a duration", bad[:3])
    bad = [e for e in ev if e["ph"] not in ("X", "i", "b", "e", "M")]
    check(not bad, f"{label}: only X, i, b, e and M events", bad[:3])
    tracks = {}
    for e in ev:
        if e["ph"] == "X":
            tracks.setdefault((e["pid"], e["tid"]), []).append(e)
    broken = []
    for key, xs in tracks.items():
        xs.sort(key=lambda e: (ns(e["ts"]), -ns(e["dur"])))
        stack = []
        for e in xs:
            t0, t1 = ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])
            while stack and stack[-1][1] <= t0 and not (stack[-1][1] == t0 == t1):
                stack.pop()
            if stack and t1 > stack[-1][1]:
                broken.append((key, stack[-1][2], e["name"], t0, t1, stack[-1][1]))
            stack.append((t0, t1, e["name"]))
    check(not broken, f"{label}: complete events nest on each of {len(tracks)} tracks", broken[:3])
    opened = {}
    for e in ev:
        if e["ph"] == "b": opened[(e.get("cat"), e.get("id"))] = e
    ends = [e for e in ev if e["ph"] == "e"]
    unpaired = [e for e in ends if (e.get("cat"), e.get("id")) not in opened or
                ns(e["ts"]) < ns(opened[(e.get("cat"), e.get("id"))]["ts"])]
    check(not unpaired and len(ends) == len(opened), f"{label}: async events pair up ({len(ends)})", unpaired[:3])
    return d

def names_of(ev, pid, tid):
    """Names of the complete events of one track, in time order."""
    xs = sorted((e for e in ev if e["ph"] == "X" and e["pid"] == pid and e["tid"] == tid),
                key=lambda e: (ns(e["ts"]), -ns(e["dur"])))
    return [re.sub(r" \((pinned|pageable)\)", "", e["name"]) for e in xs], xs

def stats_tables(label):
    """The tables of a --stats file: title -> list of rows (lists of cells; the last column may hold spaces)."""
    text = open(f"{out}/{label}.stats.txt").read()
    tables = {}
    for block in re.split(r"\n \*\* ", text)[1:]:
        title, _, body = block.partition(":\n\n")
        lines = body.strip("\n").split("\n")
        if lines[0].startswith(" SKIPPED"):
            tables[title] = []
            continue
        head, dashes, rows = lines[0], lines[1], lines[2:]
        spans = [(m.start(), m.end()) for m in re.finditer(r"-+", dashes)]
        table = []
        for r in rows:
            if not r.strip(): break
            cells = [r[a:b].strip() for a, b in spans[:-1]] + [r[spans[-1][0]:].strip()]
            table.append(cells)
        tables[title] = (head, table)
    return text, tables

def num(s):
    return float(s.replace(",", ""))

for mode in ("timing", "func"):
    label = f"streams_{mode}"
    d = validate(label)
    ev = d["traceEvents"]
    rep = json.load(open(f"{out}/{label}.report.json"))["launches"]
    check(d["otherData"]["clock"] == ("simulated" if mode == "timing" else "wall"), f"{label}: the clock is named")
    # stream order: tid = stream + 1 on pid 2; streams 1..4 are s[0..3], 0 the default stream
    expect = {
        1: ["Memset", "vecAdd", "Memcpy DtoH"],
        2: ["Memcpy HtoD", "Memcpy HtoD", "vecAdd", "Memcpy DtoH"],
        3: ["Memcpy HtoD", "Memcpy HtoD", "vecAdd", "Memcpy DtoH", "Memset", "produce"],
        4: ["Memcpy HtoD", "Memcpy HtoD", "vecAdd", "Memcpy DtoH", "consume", "Memcpy DtoH"],
        5: ["Memcpy HtoD", "Memcpy HtoD", "vecAdd", "Memcpy DtoH", "Memcpy HtoD"],
    }
    for tid, want in expect.items():
        got, xs = names_of(ev, 2, tid)
        check(got == want, f"{label}: stream {tid - 1} runs {', '.join(want)} in order", got)
        overlap = [(a["name"], b["name"]) for a, b in zip(xs, xs[1:]) if ns(b["ts"]) < ns(a["ts"]) + ns(a["dur"])]
        check(not overlap, f"{label}: stream {tid - 1}'s work does not overlap", overlap)
    kernels = [e for e in ev if e["ph"] == "X" and e.get("cat") == "kernel"]
    check(len(kernels) == len(rep) == 7, f"{label}: 7 kernels, each a launch of the report", (len(kernels), len(rep)))
    wrong = [k for k in kernels if rep[k["args"]["launch"]]["kernel"] != k["args"]["mangled"]]
    check(not wrong and len({k["args"]["launch"] for k in kernels}) == len(rep),
          f"{label}: each kernel names its own launch in the report", wrong[:2])
    if mode == "timing":
        off = [(k["name"], ns(k["dur"]), rep[k["args"]["launch"]]["gpu__time_duration.sum"]) for k in kernels
               if abs(ns(k["dur"]) - rep[k["args"]["launch"]]["gpu__time_duration.sum"]) > 1]
        check(not off, f"{label}: kernel durations are the report's gpu__time_duration.sum", off[:3])
        blocks = [e for e in ev if e["ph"] == "X" and e["pid"] == 3]
        want = sum(l["grid"][0] * l["grid"][1] * l["grid"][2] for l in rep)
        check(len(blocks) == want, f"{label}: the SM tracks hold every block ({len(blocks)} of {want})")
        byl = {k["args"]["launch"]: k for k in kernels}
        outside = [b for b in blocks if not (ns(byl[b["args"]["launch"]]["ts"]) <= ns(b["ts"]) and
                   ns(b["ts"]) + ns(b["dur"]) <= ns(byl[b["args"]["launch"]]["ts"]) + ns(byl[b["args"]["launch"]]["dur"]) + 1)]
        check(not outside, f"{label}: every block lies inside its kernel", outside[:2])
        sms = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["pid"] == 3 and e["name"] == "thread_name"}
        check("SM 0" in sms and "SM 131" in sms, f"{label}: SM tracks are named ({len(sms)} tracks)")
    else:
        check(not [e for e in ev if e["pid"] == 3], f"{label}: no SM tracks in functional mode")
    # --stats against the report and the trace
    text, t = stats_tables(label)
    check(("(simulated time of the timing model" in text) == (mode == "timing") and
          ("functional mode, wall time" in text) == (mode != "timing"), f"{label}: the header names the clock")
    head, krows = t["CUDA GPU Kernel Summary (cuda_gpu_kern_sum)"]
    check(re.match(r" Time \(%\)  Total Time \(ns\)  Instances +Avg \(ns\) +Med \(ns\) +Min \(ns\) +Max \(ns\) +"
                   r"StdDev \(ns\)  Name", head), f"{label}: kernel table in nsys's columns", head)
    inst = sum(num(r[2]) for r in krows)
    check(inst == len(rep), f"{label}: kernel instances = the report's launches ({inst:.0f})")
    names = {r[-1] for r in krows}
    check(names == {"vecAdd(float const*, float const*, float*, int)", "produce(int*, int, int)",
                    "consume(int const*, int*, int)"}, f"{label}: kernels by demangled name", names)
    if mode == "timing":
        total = sum(num(r[1]) for r in krows)
        want = sum(l["gpu__time_duration.sum"] for l in rep)
        check(abs(total - want) <= len(rep), f"{label}: total kernel time = the report's ({total:.0f} ns, {want:.0f})")
    totals = [num(r[1]) for r in krows]
    check(totals == sorted(totals, reverse=True), f"{label}: rows sorted by total time")
    _, mrows = t["CUDA GPU MemOps Summary (by Time) (cuda_gpu_mem_time_sum)"]
    counts = {r[-1]: num(r[2]) for r in mrows}
    check(counts == {"[CUDA memcpy Host-to-Device]": 9, "[CUDA memcpy Device-to-Host]": 6, "[CUDA memset]": 2},
          f"{label}: copies and fills counted by direction", counts)
    tr = {}
    for e in ev:
        if e["ph"] == "X" and e.get("cat") in ("memcpy", "memset"):
            k = e["args"].get("direction", "memset")
            tr[k] = tr.get(k, 0) + e["args"]["bytes"]
    _, srows = t["CUDA GPU MemOps Summary (by Size) (cuda_gpu_mem_size_sum)"]
    mb = {r[-1]: num(r[0]) for r in srows}
    check(abs(mb["[CUDA memcpy Host-to-Device]"] - tr["HtoD"] / 1e6) < 0.001 and
          abs(mb["[CUDA memcpy Device-to-Host]"] - tr["DtoH"] / 1e6) < 0.001, f"{label}: sizes match the trace", (mb, tr))
    _, arows = t["CUDA API Summary (cuda_api_sum)"]
    calls = {r[-1]: num(r[2]) for r in arows}
    check(calls.get("cudaLaunchKernel") == 7 and calls.get("cudaMemcpyAsync") == 14 and calls.get("cudaMemcpy") == 1
          and calls.get("cudaStreamSynchronize") == 5, f"{label}: API calls counted", calls)
    check(t["NVTX Range Summary (nvtx_sum)"] == [], f"{label}: no NVTX table without ranges")
    # the view data's host object
    h = json.load(open(f"{out}/{label}.host.json"))["host"]
    check(set(h) == {"clock", "streams", "events"} and [s["id"] for s in h["streams"]] == [0, 1, 2, 3, 4] and
          h["streams"][0]["name"] == "default", f"{label}: host object: clock, streams, events", list(h)[:5])
    allowed = {"kind", "name", "stream", "t0", "t1", "bytes", "launch", "depth"}
    kinds = {"kernel", "memcpy", "memset", "event", "callback", "graph", "sync", "api", "nvtx"}
    bad = [e for e in h["events"] if not set(e) <= allowed or e["kind"] not in kinds or e["t1"] < e["t0"] or
           (e["kind"] == "kernel" and ("launch" not in e or "stream" not in e)) or
           (e["kind"] in ("memcpy", "memset") and "bytes" not in e)]
    check(not bad, f"{label}: host events have docs/view-format.md's fields ({len(h['events'])} events)", bad[:3])
    hk = [e for e in h["events"] if e["kind"] == "kernel"]
    check(sorted(e["launch"] for e in hk) == list(range(7)) and {e["name"] for e in hk} == {"vecAdd", "produce", "consume"},
          f"{label}: host kernels link to their launches, by short name")

for mode in ("timing", "func"):
    label = f"nvtx_{mode}"
    d = validate(label)
    ev = d["traceEvents"]
    host = [e for e in ev if e["pid"] == 1 and e["ph"] != "M"]
    def find(name, ph="X"):
        return [e for e in host if e["name"] == name and e["ph"] == ph]
    def inside(a, b):   # a within b
        return ns(b["ts"]) <= ns(a["ts"]) and ns(a["ts"]) + ns(a.get("dur", 0)) <= ns(b["ts"]) + ns(b.get("dur", 0))
    setup, copyin, compute, its = find("setup"), find("copy in"), find("compute"), find("iteration")
    ok = len(setup) == len(copyin) == len(compute) == 1 and len(its) == 3
    check(ok, f"{label}: the push/pop ranges are there", [e["name"] for e in host if e.get("cat") == "nvtx"])
    if not ok: continue
    check(inside(copyin[0], setup[0]) and copyin[0]["args"]["depth"] == 1 and setup[0]["args"]["depth"] == 0,
          f"{label}: 'copy in' nests in 'setup' (depth 1 in 0)")
    check(all(inside(i, compute[0]) and i["args"]["depth"] == 1 for i in its), f"{label}: 3 iterations nest in 'compute'")
    launches = find("cudaLaunchKernel")
    check(sum(1 for l in launches if any(inside(l, i) for i in its)) == 3, f"{label}: each iteration holds its launch")
    copies = [c for c in find("cudaMemcpy") if inside(c, copyin[0])]
    check(len(copies) == 2, f"{label}: the two copies are inside 'copy in'")
    b = [e for e in host if e["ph"] == "b" and e["name"] == "whole run"]
    e_ = [e for e in host if e["ph"] == "e" and e["name"] == "whole run"]
    wide = find("copy out (wide)")
    check(len(b) == len(e_) == 1 and len(wide) == 1 and ns(b[0]["ts"]) <= ns(setup[0]["ts"]) and
          ns(e_[0]["ts"]) >= ns(wide[0]["ts"]) + ns(wide[0]["dur"]), f"{label}: the start/end range spans the run")
    mark = find("kernels queued", "i")
    check(len(mark) == 1 and inside(mark[0], compute[0]), f"{label}: the mark is inside 'compute'")
    dom = find("mylib graph")
    check(len(dom) == 1 and dom[0]["args"].get("domain") == "mylib" and
          any(inside(g, dom[0]) for g in find("cudaGraphLaunch")), f"{label}: the domain range holds the graph launch")
    tn = {(e["pid"], e["args"]["name"]) for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    check((1, "main thread") in tn and (2, "stream 1 (work stream)") in tn, f"{label}: thread and stream names", tn)
    names, xs = names_of(ev, 2, 2)
    graph = [x for x in xs if x["name"] == "graph launch"]
    check(len(graph) == 1 and sum(1 for x in xs if x["name"] in ("axpy", "host function") and inside(x, graph[0])) == 2,
          f"{label}: the graph launch holds its kernel and host function on its stream", names)
    text, t = stats_tables(label)
    _, rows = t["NVTX Range Summary (nvtx_sum)"]
    got = {(r[-1], r[-2]): num(r[2]) for r in rows}
    want = {(":setup", "PushPop"): 1, (":copy in", "PushPop"): 1, (":compute", "PushPop"): 1,
            (":iteration", "PushPop"): 3, (":whole run", "StartEnd"): 1, ("mylib:mylib graph", "PushPop"): 1,
            (":copy out (wide)", "PushPop"): 1}
    check(got == want, f"{label}: the NVTX table", got)
    check(re.match(r" Time \(%\)  Total Time \(ns\)  Num Calls +Avg \(ns\) +Med \(ns\) +Min \(ns\) +Max \(ns\) +"
                   r"StdDev \(ns\)  Name", t["CUDA API Summary (cuda_api_sum)"][0]), f"{label}: API table in nsys's columns")
    h = json.load(open(f"{out}/{label}.host.json"))["host"]
    nv = [e for e in h["events"] if e["kind"] == "nvtx"]
    check({(e["name"], e["depth"]) for e in nv} >= {("setup", 0), ("copy in", 1), ("iteration", 1)},
          f"{label}: the host object's NVTX ranges carry their depth")
    check({s["name"] for s in h["streams"]} == {"default", "work stream"}, f"{label}: the host object names the stream")

# the bound
d = json.load(open(f"{out}/bounded.trace.json"))
host_events = [e for e in d["traceEvents"] if e["ph"] in ("X", "i", "b") and e["pid"] in (1, 2)]
check(len(host_events) <= 10 and d["otherData"]["dropped_events"] > 0,
      f"WARPSIM_TIMELINE_MAX=10 keeps 10 events and counts the rest ({d['otherData']['dropped_events']})")
h = json.load(open(f"{out}/bounded.host.json"))["host"]
check(h.get("truncated") is True and len(h["events"]) == 10, "the bounded host object says it was truncated")
check("note: the host timeline kept its first 10 events" in open(f"{out}/bounded.stats.txt").read(),
      "the bounded statistics say so")
sys.exit(1 if fails else 0)
PY
