#!/usr/bin/env bash
# scaling.sh - the timing model's SM-parallel speedup: bench/bench.cu at SCALE under --timing with --threads N for
# each N given, a Markdown table of the rate per N (warp-instructions over the launches' host seconds) and whether
# every launch's report (cycles, counters, stalls: all but host_seconds) and the program's output are
# bit-identical to the first N's. bench/scaling.md holds the table measured on a 16-core machine.
# usage: bench/scaling.sh [SCALE] [N...]   (default: 2, threads 1 2 4 8 16); OUTDIR=dir keeps the reports there
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-2}
shift || true
threads=${*:-1 2 4 8 16}
out=${OUTDIR:-build/bench/scaling}
mkdir -p "$out"
exe=build/bench/bench
[ -x "$exe" ] && { [ "$exe" -nt bench/bench.cu ] || ! command -v nvcc >/dev/null; } ||
    nvcc -cudart shared -lineinfo -O3 -o "$exe" bench/bench.cu
for n in $threads; do
    /usr/bin/time -f "%e %U" -o "$out/t$n.time" build/warpsim run --quiet --mode=timing --threads "$n" \
        --report "$out/t$n.json" "$exe" "$scale" >"$out/out$n.txt"
done
python3 - "$out" "$scale" $threads <<'PY'
import json, sys
out, scale, ns = sys.argv[1], sys.argv[2], sys.argv[3:]
strip = lambda L: [{k: v for k, v in l.items() if k != "host_seconds"} for l in L]
runs = {n: json.load(open(f"{out}/t{n}.json"))["launches"] for n in ns}
outs = {n: open(f"{out}/out{n}.txt").read() for n in ns}
base = runs[ns[0]]
kernels = [l["kernel"] for l in base]
print(f"bench/bench.cu at scale {scale} under --timing ({sum(l.get('warpsim__ptx_inst_executed.sum', l['smsp__inst_executed.sum']) for l in base)} warp "
      f"instructions; cycles {', '.join(str(l['sm__cycles_elapsed.max']) for l in base)})\n")
print("| threads | " + " | ".join(k.split('P')[0].lstrip('_Z0123456789') for k in kernels) +
      " | total M warp-insts/s | speedup | process wall s | identical to " + ns[0] + " |")
print("| ---: |" + " ---: |" * len(kernels) + " ---: | ---: | ---: | --- |")
r1 = None
for n in ns:
    L = runs[n]
    ti = sum(l.get("warpsim__ptx_inst_executed.sum", l["smsp__inst_executed.sum"]) for l in L)
    tt = sum(l["host_seconds"] for l in L)
    rate = ti / tt / 1e6
    r1 = r1 or rate
    same = strip(L) == strip(base) and outs[n] == outs[ns[0]]
    wall = open(f"{out}/t{n}.time").read().split()[0]
    cells = " | ".join(f"{l.get('warpsim__ptx_inst_executed.sum', l['smsp__inst_executed.sum']) / l['host_seconds'] / 1e6:.2f}" for l in L)
    print(f"| {n} | {cells} | {rate:.2f} | {rate / r1:.2f}x | {wall} | {'yes' if same else 'NO'} |")
PY
