#!/usr/bin/env python3
# engines.py: the 31 truth kernels and bench.cu under --timing from several warpsim installs at several thread counts.
# usage: bench/engines.py OUT.json TRUTH_BINARY BENCH_BINARY THREADS NAME=PREFIX [NAME=PREFIX ...]
#   THREADS: comma-separated thread counts (1,4,16); PREFIX: a `make install PREFIX=...` tree.
# Writes {engine: {kernel: {threads: [warp insts, host seconds, sha1 of the report without host seconds]}}};
# engines alternate at each thread count, so a drifting machine touches them alike.
import hashlib, json, os, subprocess, sys, tempfile

def run(prefix, args):
    """One warpsim run; the launches of its report, or None."""
    with tempfile.NamedTemporaryFile(suffix=".json") as rep:
        p = subprocess.run([os.path.join(prefix, "bin", "warpsim"), "run", "--quiet", "--report", rep.name] + args,
                           capture_output=True, text=True, timeout=900)
        if p.returncode:
            print("FAIL", prefix, args, p.stderr[-500:], flush=True)
            return None
        return json.load(open(rep.name))["launches"]

def summary(launches):
    """Warp instructions, host seconds and a digest of everything else."""
    ins = sum(l.get("warpsim__ptx_inst_executed.sum", l["smsp__inst_executed.sum"]) for l in launches)
    key = [{k: v for k, v in l.items() if k != "host_seconds"} for l in launches]
    return [ins, sum(l["host_seconds"] for l in launches),
            hashlib.sha1(json.dumps(key, sort_keys=True).encode()).hexdigest()]

def main():
    out, truth, bench, threads = sys.argv[1:5]
    engines = [a.split("=", 1) for a in sys.argv[5:]]
    here = os.path.dirname(os.path.abspath(__file__))
    benches = [l.split()[:2] for l in open(os.path.join(here, "..", "tests", "data", "h200", "benches.txt"))
               if l.strip() and not l.startswith("#")]
    res = {}
    for th in threads.split(","):
        for name, prefix in engines:
            for kernel, size in benches:
                L = run(prefix, ["--timing", "--gpu", "h200", "--cache-control", "all", "--threads", th,
                                 truth, kernel, size, "1"])
                if L:
                    res.setdefault(name, {}).setdefault(kernel, {})[th] = summary(L)
            L = run(prefix, ["--timing", "--threads", th, bench, "2"])
            if L:
                res.setdefault(name, {}).setdefault("bench.cu", {})[th] = summary(L)
            print(name, th, "done", flush=True)
            json.dump(res, open(out, "w"))

if __name__ == "__main__":
    main()
