#!/usr/bin/env bash
# TIMEOUT: 120
# Unified memory in timing mode (src/mem/um.h, src/timing/tm_um.c, src/host/hs_um.c) on tests/programs/um_migrate.cu
# at its default size (2^18 floats per array: 1 MiB = 16 pages of the h200 preset's 64 KiB):
#   first      the first saxpy faults exactly 2 x 16 pages in one batch and moves 2 MiB HtoD; the second faults
#              none; the first is slower by the model's cost of that batch (um_fault_latency_us + 32 pages x
#              (um_fault_page_us + 64 KiB over host_link_gbs_pinned)), within -1% (the kernel overlaps a
#              little of it) and +5%; the CPU's
#              first touch of x and y (32 faults) and its read of y (16 faults, 1 MiB DtoH) are counted;
#   prefetch   no GPU fault; 2 MiB prefetched HtoD, 1 MiB DtoH; the CPU reads y without a fault;
#   readmostly x (read-mostly) is duplicated: the CPU reads it without a fault, only y comes back (1 MiB);
#   accessedby x (preferred location host, accessed by the device) is read over the link: only y's 16 pages fault,
#              1 MiB crosses remotely, the CPU reads x without a fault;
#   pingpong   every one of three kernels faults y's 16 pages again, every CPU pass between them brings 1 MiB back;
#   cache      prefetched data read through the caches: equal cycle counts in three runs in different environments;
#   oversub    6 MiB of managed memory on a 4 MiB device (--set global_mem=4MiB): the sum is right, pages are
#              evicted and fault in again;
#   the timeline has the fault batch as nsys's "Unified Memory memcpy HtoD" row and --stats nsys's um_total_sum
#   table; the whole program gives equal reports at --threads 1 and 2 in environments of different sizes (managed
#   memory lives at fixed addresses: from the C heap, its addresses moved the caches' sets between runs); in
#   functional mode the report has no unified-memory member.
# Exits 77 (skipped) when nvcc or python3 is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
OUT=build/tests/um_faults
mkdir -p "$OUT"
command -v python3 >/dev/null 2>&1 || { echo "um_faults: python3 not found"; exit 77; }
command -v "$NVCC" >/dev/null 2>&1 || { echo "um_faults: $NVCC not found"; exit 77; }
. tests/lib/progs.sh   # compile_one: the suite's um_migrate binary
compile_one um_migrate || { cat "$BINDIR/um_migrate.log"; exit 1; }
P=$BINDIR/um_migrate
fail=0
run() {   # run LABEL [warpsim options...] -- [program args...]: report in $OUT/LABEL.json, output in $OUT/LABEL.txt
  local label=$1; shift
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  if ! "$WARPSIM" run --quiet "${opts[@]}" --report "$OUT/$label.json" "$P" "$@" > "$OUT/$label.txt" 2>&1 \
     || ! grep -q "^PASS um_migrate" "$OUT/$label.txt"; then
    echo "FAIL: $label: the program failed"; cat "$OUT/$label.txt"; fail=1
  fi
}
run first --timing --trace "$OUT/first.trace.json" --stats="$OUT/first.stats.txt" -- first
run prefetch --timing -- prefetch
run readmostly --timing -- readmostly
run accessedby --timing -- accessedby
run pingpong --timing -- pingpong
for k in 1 2 3; do   # three runs in environments of different sizes (the stack and the C heap start elsewhere)
  WARPSIM_UM_PAD=$(printf "%0${k}000d" 0) run cache$k --timing -- cache
done
run oversub --timing --set global_mem=4MiB -- oversub
WARPSIM_THREADS=1 run all1 --timing -- all
# another run with a longer environment (the stack and heap start elsewhere): managed addresses stay the same
WARPSIM_UM_PAD=$(printf '%04000d' 0) WARPSIM_THREADS=2 run all2 --timing --threads 2 -- all
run func --mode=functional -- all
[ "$fail" = 0 ] || exit 1
python3 - "$OUT" devices/h200.preset <<'PY'
import json, sys
out, preset = sys.argv[1], sys.argv[2]
P = {}
for line in open(preset):
    line = line.split("#")[0].strip()
    if "=" in line:
        k, v = (x.strip() for x in line.split("=", 1))
        P[k] = v
def rep(label): return json.load(open(f"{out}/{label}.json"))
def um(l): return l.get("unified_memory", {})
MiB = 1 << 20
page = 64 * 1024
assert P["um_page_bytes"] == "64 KiB", P["um_page_bytes"]
pages = 4 * (1 << 18) // page                    # 16 pages per array
clk = float(P["sm_clock_mhz"])
batch = float(P["um_fault_latency_us"]) * clk
per_page = float(P["um_fault_page_us"]) * clk + page / (float(P["host_link_gbs_pinned"]) * 1e3 / clk)
checks = []
def check(text, ok): checks.append((text, ok))

f = rep("first"); L = f["launches"]          # launch 0: the program's warm-up (no managed memory yet)
k1, k2 = L[1], L[2]
check(f"first saxpy: {um(k1).get('gpu_page_faults')} GPU page faults (2 x {pages}) in {um(k1).get('fault_batches')} batch, "
      f"{um(k1).get('htod_bytes')} bytes HtoD (2 MiB)",
      um(k1).get("gpu_page_faults") == 2 * pages and um(k1).get("fault_batches") == 1 and um(k1).get("htod_bytes") == 2 * MiB)
check("second saxpy: no fault, nothing moved", um(k2).get("gpu_page_faults") == 0 and um(k2).get("htod_bytes") == 0)
c1, c2 = k1["sm__cycles_elapsed.max"], k2["sm__cycles_elapsed.max"]
extra = batch + 2 * pages * per_page
check(f"first saxpy {c1} cycles = second {c2} + the batch's {extra:.0f} (within -1% and +5%)",
      c1 - c2 >= extra * 0.99 and c1 - c2 <= extra * 1.05)
check(f"first / second = {c1 / c2:.1f} (the seed: the first kernel is much slower)", c1 > 20 * c2)
check("the CPU's first touch of x and y: 32 CPU faults before the first saxpy, no bytes",
      um(k1).get("cpu_page_faults") == 2 * pages and um(k1).get("cpu_dtoh_bytes") == 0)
t = f["unified_memory"]
check(f"run: {t['cpu_page_faults']} CPU faults (32 + 16 for reading y), {t['dtoh_bytes']} bytes DtoH (1 MiB)",
      t["cpu_page_faults"] == 3 * pages and t["dtoh_bytes"] == MiB and t["gpu_page_faults"] == 2 * pages)

p = rep("prefetch"); t = p["unified_memory"]; k = p["launches"][1]
check("prefetch: the saxpy faults on nothing", um(k).get("gpu_page_faults") == 0 and um(k).get("htod_bytes") == 0)
check(f"prefetch: {t['prefetch_htod_bytes']} bytes HtoD, {t['prefetch_dtoh_bytes']} DtoH; {t['cpu_page_faults']} CPU faults (the first touch only)",
      t["prefetch_htod_bytes"] == 2 * MiB and t["prefetch_dtoh_bytes"] == MiB and t["cpu_page_faults"] == 2 * pages
      and t["gpu_page_faults"] == 0 and t["dtoh_bytes"] == 0)

r = rep("readmostly"); t = r["unified_memory"]; k = r["launches"][1]
check("readmostly: the saxpy faults 32 pages (x duplicated, y migrated)", um(k).get("gpu_page_faults") == 2 * pages)
check(f"readmostly: the CPU reads x without a fault, y with 16: {t['cpu_page_faults']} CPU faults, {t['dtoh_bytes']} bytes DtoH",
      t["cpu_page_faults"] == 3 * pages and t["dtoh_bytes"] == MiB)

a = rep("accessedby"); k = a["launches"][1]; t = a["unified_memory"]
check(f"accessedby: {um(k).get('gpu_page_faults')} GPU faults (y's 16), {um(k).get('remote_bytes')} bytes of x over the link (1 MiB)",
      um(k).get("gpu_page_faults") == pages and um(k).get("remote_bytes") == MiB and um(k).get("htod_bytes") == MiB)
check(f"accessedby: the CPU reads x without a fault ({t['cpu_page_faults']} CPU faults: 32 first touches + 16 for y)",
      t["cpu_page_faults"] == 3 * pages)

g = rep("pingpong"); ks = g["launches"][1:]
check("pingpong: three kernels, each faults y's 16 pages and moves 1 MiB HtoD",
      len(ks) == 3 and all(um(k).get("gpu_page_faults") == pages and um(k).get("htod_bytes") == MiB for k in ks))
check("pingpong: before each of the last two kernels the CPU pass brought y back (16 faults, 1 MiB)",
      [(um(k).get("cpu_page_faults"), um(k).get("cpu_dtoh_bytes")) for k in ks] == [(pages, 0), (pages, MiB), (pages, MiB)])

o = rep("oversub"); t = o["unified_memory"]
check(f"oversub: {t['evicted_pages']} pages evicted, {t['htod_bytes']} bytes faulted in (more than the 6 MiB once)",
      t["evicted_pages"] > 0 and t["htod_bytes"] > 6 * MiB)

tr = json.load(open(f"{out}/first.trace.json"))["traceEvents"]
um_rows = [e for e in tr if e.get("name") == "Unified Memory memcpy HtoD"]
check(f"trace: the fault batch is a 'Unified Memory memcpy HtoD' event of 2 MiB and 32 faults ({len(um_rows)} such)",
      len(um_rows) == 1 and um_rows[0]["args"]["bytes"] == 2 * MiB and um_rows[0]["args"]["page_faults"] == 2 * pages)

st = open(f"{out}/first.stats.txt").read().split("Unified Memory Totals (um_total_sum)")
tot = [l for l in st[1].strip().splitlines() if l.strip()][3].split() if len(st) > 1 else []
check(f"--stats: the um_total_sum table says 2.097 MB HtoD, 1.049 MB DtoH, 48 CPU and 32 GPU page faults ({tot})",
      tot == ["2.097", "1.049", "48", "32"])
cy = [[l["sm__cycles_elapsed.max"] for l in rep(f"cache{k}")["launches"]] for k in (1, 2, 3)]
check(f"cache: the same cycles in three runs ({cy}; from the C heap, managed addresses moved the caches' sets and "
      "these counts with them)", cy[0] == cy[1] == cy[2])
def strip(d):
    for l in d["launches"]: l.pop("host_seconds", None)
    return d
a1, a2 = strip(rep("all1")), strip(rep("all2"))
check("--threads 1 and 2, another environment: equal reports (cycles, faults, bytes)", a1 == a2)
fu = rep("func")
check("functional mode: no unified-memory counts", "unified_memory" not in fu and all("unified_memory" not in l for l in fu["launches"]))
bad = 0
for text, ok in checks:
    print(("PASS" if ok else "FAIL") + ": " + text)
    bad += not ok
sys.exit(1 if bad else 0)
PY
