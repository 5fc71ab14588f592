"""sweep_check.py - checks of a sweep's results folder for tests/cli/sweep.sh and sweep_slurm.sh.

  sweep_check.py individual DIR PROGS      every point against its own `warpsim run` (launch by launch, every
                                           report member but the host wall-clock host_seconds); CSV = JSON
  sweep_check.py same DIR1 DIR2            results.csv and results.json equal, bit for bit, once the host
                                           wall-clock column host_seconds is removed
Prints one line per check; exits 1 when one fails."""
import csv, json, os, re, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

HOST_COLUMNS = {"host_seconds"}   # host wall-clock: the only columns that differ between two runs
fails = 0


def check(ok, text, detail=""):
    global fails
    print(("ok   " if ok else "FAIL ") + text + ("" if ok or not detail else "\n     " + str(detail)[:800]))
    fails += not ok


def load(d):
    with open(os.path.join(d, "results.json")) as f:
        res = json.load(f)
    with open(os.path.join(d, "results.csv"), newline="") as f:
        rows = list(csv.reader(f))
    return res, rows


def individual(d, progs):
    res, csv_rows = load(d)
    points = res["points"]
    check(len(points) == 24, "24 points in results.json", len(points))
    check(all(p["status"] == "passed" for p in points), "every point passed",
          [(p["point"], p["reason"]) for p in points if p["status"] != "passed"])
    params = res["parameters"]
    check(params == ["program", "arg", "gpu", "max_blocks_per_sm", "mode"], "the swept parameters are the columns",
          params)
    check(res["columns"][:len(params) + 1] == ["point"] + params, "columns: point, then the parameters")
    combos = {(p["program"], p["arg"], p["gpu"], p["max_blocks_per_sm"]) for p in points}
    check(len(combos) == 24, "24 distinct (program, size, device, override) points")
    rundir = os.path.join(d, "individual")
    os.makedirs(rundir, exist_ok=True)
    warpsim = os.environ.get("WARPSIM", "build/warpsim")

    def run(p):
        rep = os.path.join(rundir, p["point"] + ".json")
        cmd = [warpsim, "run", "--quiet", "--report", rep, "--gpu", p["gpu"], "--set",
               "max_blocks_per_sm=" + p["max_blocks_per_sm"], "--", os.path.join(progs, p["program"])] + p["arg"].split()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return p["point"], r.returncode, rep, r.stderr.decode()[-300:]

    with ThreadPoolExecutor(2) as ex:
        runs = list(ex.map(run, points))
    check(all(rc == 0 for _, rc, _, _ in runs), "24 individual runs passed", [r for r in runs if r[1]])
    rows_of = {}
    for r in res["rows"]:
        rows_of.setdefault(r["point"], []).append(r)
    bad = []
    nlaunch = 0
    for pid, rc, rep, _ in runs:
        with open(rep) as f:
            launches = json.load(f)["launches"]
        mine = rows_of.get(pid, [])
        if len(mine) != len(launches):
            bad.append((pid, "launches", len(mine), len(launches)))
            continue
        for i, (row, l) in enumerate(zip(mine, launches)):
            nlaunch += 1
            for k, v in l.items():
                if k in HOST_COLUMNS:
                    continue
                if row.get(k) != v:
                    bad.append((pid, i, k, row.get(k), v))
    check(not bad, "the merged table equals the individual runs, launch by launch (%d launches)" % nlaunch, bad[:5])
    # override effect: the block limit of the occupancy follows max_blocks_per_sm
    lim = {(r["max_blocks_per_sm"], r.get("launch__occupancy_limit_blocks")) for r in res["rows"]}
    check(("8", 8) in lim and ("32", 32) in lim, "the override reaches the device (launch__occupancy_limit_blocks)", lim)
    # the CSV holds the same table
    head, body = csv_rows[0], csv_rows[1:]
    check(head == res["columns"], "results.csv has results.json's columns")
    check(len(body) == len(res["rows"]), "results.csv has a row per point and launch (%d)" % len(body))
    mism = []
    for crow, jrow in zip(body, res["rows"]):
        for c, v in zip(head, crow):
            j = jrow.get(c)
            want = "" if j is None else "x".join(map(str, j)) if isinstance(j, list) else str(j)
            if isinstance(j, float):
                ok = v != "" and float(v) == j
            else:
                ok = v == want
            if not ok:
                mism.append((jrow["point"], c, v, j))
    check(not mism, "results.csv equals results.json cell by cell", mism[:5])
    page = open(os.path.join(d, "results.html")).read()
    check("http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in page,
          "results.html is self-contained (no network address)")
    nplots = page.count('<figure class="param"')
    check(nplots == 4, "results.html: a plot per swept parameter (arg, gpu, max_blocks_per_sm, program): %d" % nplots)
    check(page.count('class="t speedups"') == len([m for m in res["metrics"] if m not in ("occupancy_limiter", "warpsim__inst_executed_basis")]),
          "results.html: a speedup table per numeric metric")
    check('<select id="metric">' in page and page.count("<polyline") > 0, "results.html: a metric select box, lines")
    # functional mode: both devices count the same instructions, so a100's line lies exactly on h100's: it is
    # drawn dashed and its legend says which line it equals
    same = re.findall(r'<polyline class="series" data-series="a100" data-same-as="h100"[^>]*stroke-dasharray', page)
    dashed = re.findall(r'<polyline [^>]*data-same-as=[^>]*stroke-dasharray', page)
    check(len(same) > 0 and len(dashed) == page.count("data-same-as=") and ">= h100</text>" in page,
          "results.html: a line equal to an earlier one is dashed and named (a100 = h100): %d plots" % len(same))


def strip(rows):
    head = rows[0]
    keep = [i for i, c in enumerate(head) if c not in HOST_COLUMNS]
    return [[r[i] for i in keep] for r in rows]


def same(a, b):
    ra, ca = load(a)
    rb, cb = load(b)
    check(strip(ca) == strip(cb), "results.csv of %s and %s equal but for host_seconds (%d rows)" %
          (os.path.basename(a), os.path.basename(b), len(ca) - 1))
    for r in ra["rows"] + rb["rows"]:
        for k in HOST_COLUMNS:
            r.pop(k, None)
    for k in ("rows", "points", "columns", "metrics", "parameters", "axes", "programs", "baseline"):
        check(ra.get(k) == rb.get(k), "results.json '%s' equal" % k)


if __name__ == "__main__":
    if sys.argv[1] == "individual":
        individual(sys.argv[2], sys.argv[3])
    else:
        same(sys.argv[2], sys.argv[3])
    sys.exit(1 if fails else 0)
