#!/usr/bin/env python3
"""timing_rates.py - timing-mode speed over the truth kernels (tests/data/h200): each benchmark of benches.txt at
its simulation size under --timing on the h200 preset (as bench/calibrate.py runs them, one after the other so that
each run has the machine's cores), and the simulated warp-instructions per second of each (all its launches: warp
instructions over host seconds in the report) and overall. Prints a table; `make bench` runs it.

usage: bench/timing_rates.py [--only NAME,NAME] [--threads N] [--markdown]

Exits 77 when nvcc is missing (no build/truth can be made)."""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import calibrate  # noqa: E402  (build_truth, TRUTH, WARPSIM)


def run(exe, name, size, threads):
    """Run one benchmark; return (warp instructions, host seconds, cycles of its measured launch) or None."""
    rep = os.path.join(calibrate.BUILD, name + ".rate.json")
    cmd = [calibrate.WARPSIM, "run", "--timing", "--quiet", "--gpu", "h200", "--cache-control", "all",
           "--report", rep]
    if threads:
        cmd += ["--threads", str(threads)]
    cmd += [exe, name, str(size), "1"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=1800)
    if p.returncode != 0:
        print(f"{name}: FAILED: {(p.stdout + p.stderr)[-300:]}", file=sys.stderr)
        return None
    launches = json.load(open(rep))["launches"]
    insts = sum(l.get("warpsim__ptx_inst_executed.sum", l["smsp__inst_executed.sum"]) for l in launches)
    secs = sum(l["host_seconds"] for l in launches)
    pick = min(1000 if name == "heat_1000" else 1, len(launches) - 1)
    return insts, secs, launches[pick].get("sm__cycles_elapsed.max")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--threads", type=int, default=0, help="warpsim run --threads N (default: warpsim's default)")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    a = ap.parse_args()
    benches = []
    for line in open(os.path.join(calibrate.TRUTH, "benches.txt")):
        if line.startswith("#") or not line.strip():
            continue
        name, small, _ = line.split()
        if a.only and name not in a.only.split(","):
            continue
        benches.append((name, int(small)))
    exe = calibrate.build_truth("truth")
    os.makedirs(calibrate.BUILD, exist_ok=True)
    ti = tt = 0.0
    failed = 0
    if a.markdown:
        print("| kernel | warp-insts | seconds | M warp-insts/s | cycles |")
        print("| --- | ---: | ---: | ---: | ---: |")
    else:
        print("timing mode over the truth kernels (tests/data/h200, h200 preset, simulation sizes):")
    for name, size in benches:
        r = run(exe, name, size, a.threads)
        if r is None:
            failed += 1
            continue
        insts, secs, cyc = r
        ti += insts
        tt += secs
        rate = insts / secs / 1e6 if secs > 0 else 0
        if a.markdown:
            print(f"| {name} | {insts} | {secs:.3f} | {rate:.2f} | {cyc} |")
        else:
            print(f"  {name:16s} {insts:>10d} warp-insts in {secs:6.3f} s = {rate:7.2f} M warp-insts/s ({cyc} cycles)")
    rate = ti / tt / 1e6 if tt > 0 else 0
    if a.markdown:
        print(f"| **overall** | {ti:.0f} | {tt:.3f} | **{rate:.2f}** | |")
    else:
        print(f"  overall: {ti:.0f} warp-insts in {tt:.3f} s = {rate:.2f} M warp-insts/s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
