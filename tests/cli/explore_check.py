#!/usr/bin/env python3
"""explore_check.py - the checks of tests/cli/explore.sh: every number the teaching material's "Try it" explorers
state, read from `warpsim explore NAME --json`, and every page `--html` wrote, as headless Chromium rendered it:
the page's elements exist and every number it shows (an element with data-k="PATH") equals the JSON's value at
PATH. Usage: explore_check.py DIR CASE... where DIR holds CASE.json and CASE.dom (the DOM chromium dumped).
Prints one PASS/FAIL line per check; exits 1 when any failed."""
import json
import math
import sys
from html.parser import HTMLParser

fails = 0
checks = 0


def check(ok, what):
    """Record one check."""
    global fails, checks
    checks += 1
    if not ok:
        fails += 1
    print(("PASS  " if ok else "FAIL  ") + what)
    return ok


def near(a, b, tol):
    """Whether a and b are numbers within tol of each other."""
    return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= tol


def get(obj, path):
    """The value at a dotted path (object keys and array indexes), or None."""
    v = obj
    for part in path.split("."):
        if isinstance(v, list):
            try:
                v = v[int(part)]
            except (ValueError, IndexError):
                return None
        elif isinstance(v, dict):
            v = v.get(part)
        else:
            return None
    return v


class Numbers(HTMLParser):
    """Collects the elements with a data-k attribute (their text), element ids and the explorer name."""

    def __init__(self):
        super().__init__()
        self.stack = []       # open elements: [data-k or None, text pieces]
        self.found = []       # (path, text)
        self.ids = set()
        self.explorer = None
        self.svgs = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "main" and "data-explorer" in a:
            self.explorer = a["data-explorer"]
        if tag == "svg":
            self.svgs += 1
        if tag in ("br", "meta", "img", "input", "hr", "link"):
            return
        self.stack.append([a.get("data-k"), []])

    def handle_endtag(self, tag):
        if tag in ("br", "meta", "img", "input", "hr", "link") or not self.stack:
            return
        key, text = self.stack.pop()
        joined = "".join(text)
        if key is not None:
            self.found.append((key, joined.strip()))
        if self.stack:
            self.stack[-1][1].append(joined)

    def handle_data(self, data):
        if self.stack:
            self.stack[-1][1].append(data)


def check_page(name, res, dom, ids):
    """The page: its explorer, its figures, and every number shown against the JSON."""
    p = Numbers()
    p.feed(dom)
    check(p.explorer == name, f"{name} page: main#explorer names the explorer ({p.explorer})")
    check(p.svgs >= 1, f"{name} page: draws at least one SVG picture ({p.svgs})")
    missing = [i for i in ids if i not in p.ids]
    check(not missing, f"{name} page: has the elements {', '.join(ids)}" + (f" (missing {missing})" if missing else ""))
    check(len(p.found) >= 5, f"{name} page: shows the JSON's numbers ({len(p.found)} tied to it with data-k)")
    bad = []
    for path, text in p.found:
        v = get(res, path)
        if text == "-":
            if v is not None and not (isinstance(v, (int, float)) and v < 0):
                bad.append(f"{path}: page '-', JSON {v}")
            continue
        try:
            t = float(text.replace(",", ""))
        except ValueError:
            bad.append(f"{path}: page '{text}' is not a number")
            continue
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            bad.append(f"{path}: page {text}, JSON {v!r}")
            continue
        dec = len(text.split(".")[1]) if "." in text else 0
        if abs(v - t) > 0.5 * 10 ** -dec * 1.0001 + 1e-9:
            bad.append(f"{path}: page {text}, JSON {v}")
    check(not bad, f"{name} page: all {len(p.found)} numbers shown equal the JSON's" +
          ("".join("\n      " + b for b in bad[:12])))


# ---------------------------------------------------------------------------------------------------- the numbers

def map_(r):
    e = r.get("element") or {}
    check(r["n"] == 70 and r["threads_per_block"] == 64 and r["blocks"] == 2, "map: N = 70, 64 threads per block: 2 blocks")
    check((e.get("index"), e.get("block"), e.get("thread"), e.get("warp"), e.get("lane")) == (69, 1, 5, 0, 5),
          f"map: element 69 is thread 5 of block 1, warp 0, lane 5 ({e})")
    g = r.get("guard") or {}
    check((g.get("block"), g.get("thread"), g.get("index"), g.get("active")) == (1, 6, 70, False),
          f"map: thread 6 of block 1 computes 70 and fails the guard ({g})")
    sms = r.get("blocks_on_sms", [])
    check(len(sms) == 2 and all(isinstance(b.get("sm"), int) and b["sm"] >= 0 for b in sms),
          f"map: the SM each block ran on ({[(b.get('block'), b.get('sm'), b.get('source')) for b in sms]})")
    check(e.get("sm") == sms[1]["sm"] if len(sms) == 2 else False, "map: element 69's SM is block 1's")
    check(r["correct"] and len(r["threads"]) == 128, "map: the results are right; 128 threads recorded")


def fit(r):
    c = r["cases"]
    check(r["sm"] == {"warps": 8, "threads": 256, "blocks": 4, "registers": 8192, "shared_bytes": 16384, "warp_size": 32},
          f"fit: the teaching SM's capacities ({r['sm']})")
    want = [(32, 4096, 4, 100, None), (64, 4096, 2, 50, ["registers"]), (32, 8192, 2, 50, ["shared_memory"])]
    for k, (regs, smem, blocks, pct, lim) in enumerate(want):
        x = c[k]
        ok = (x["threads_per_block"], x["registers"], x["shared_bytes"], x["blocks_per_sm"]) == (64, regs, smem, blocks)
        ok = ok and near(x["occupancy_pct"], pct, 0.01) and (lim is None or x["limiters"] == lim)
        check(ok, f"fit: T = 64, R = {regs} (ptxas: {x['registers']}), S = {smem // 1024} KiB: {x['blocks_per_sm']} "
                  f"blocks, {x['occupancy_pct']}%, limited by {x['limiters']}")
        check(x["resident_blocks_max"] == blocks, f"fit: the timing model held {x['resident_blocks_max']} of them at once")
    check(c[0]["limits"] == {"threads": 4, "blocks": 4, "registers": 4, "shared_memory": 4},
          f"fit: the seed's block ties all four limits at 4 ({c[0]['limits']})")


def latency(r, L):
    one, four = r["one_warp"], r.get("four_warps")
    if L == 4:
        check(one["unit_cycles"] == 6 and near(one["units_per_cycle"], 1 / 6, 1e-9),
              f"latency L = 4: one warp does one unit in 6 cycles, 1/6 per cycle ({one['unit_cycles']}, {one['units_per_cycle']})")
        pw = one["per_warp"][0]
        check((pw["ld"], pw["add"], pw["store"]) == (1, 5, 6), f"latency L = 4: LD in cycle 1, ADD in 5, STORE in 6 ({pw})")
        check(four["units"] == 4 and four["work_slots"] == 12 and four["idle_slots"] == 0,
              f"latency L = 4: four warps do 4 units in 12 LD/ADD/STORE slots, none idle ({four['units']}, "
              f"{four['work_slots']}, {four['idle_slots']})")
        check(near(four["units_per_work_slot"], 1 / 3, 1e-9), f"latency L = 4: 1/3 unit per slot ({four['units_per_work_slot']})")
        check([p["ld"] for p in four["per_warp"]] == [1, 2, 3, 4] and four["per_warp"][0]["add"] == 5 and
              four["per_warp"][0]["store"] == 6, "latency L = 4: the loads issue in cycles 1-4, warp 0's ADD in 5, STORE in 6")
        check(r["fill_warps"] == 4, f"latency L = 4: 4 warps fill every slot ({r['fill_warps']})")
    else:
        check(one["unit_cycles"] == 18, f"latency L = 16: one warp's unit takes 18 cycles ({one['unit_cycles']})")
        check(r["fill_warps"] == 16, f"latency L = 16: it takes 16 warps to fill the slots ({r['fill_warps']})")


def divergence(r):
    runs = r["runs"]
    check(r["lanes"] == 8 and r["start"] == list(range(1, 9)), "divergence: 8 lanes starting with lane + 1")
    for x in runs:
        m = x["mask"]
        want = [(l + 1 + 10) * 2 if m >> l & 1 else (l + 1 - 1) * 3 + 5 for l in range(8)]
        check(x["values"] == want, f"divergence: {x['label']} (mask {m:#04x}) final values {x['values']}")
    mixed, t, f = (x["warp_insts"] for x in runs)
    check(mixed > t and mixed > f and r["extra_vs_all_true"] == 3 and r["extra_vs_all_false"] == 3,
          f"divergence: the mixed warp issues both paths: {mixed} instructions against {t} (all true) and {f} (all false)")
    if not r["view"]:
        print("SKIP  divergence: the active masks (the runtime collects no view data)")
        return
    p = [x["path_insts"] for x in runs]
    check([(q["true"], q["false"]) for q in p] == [(2, 3), (2, 0), (0, 3)],
          f"divergence: path instructions issued: mixed 2 + 3, all true 2, all false 3 ({p})")
    m = runs[0]["mask"]
    ok = True
    for s in runs[0]["steps"]:
        ok &= (s["exec"] & ~s["active"]) == 0
        if s["path"] == "true":
            ok &= s["exec"] == m
        if s["path"] == "false":
            ok &= s["exec"] == (~m & 0xff)
        if s["path"] == "common":
            ok &= s["exec"] == 0xff
    check(ok, "divergence: every issued instruction's active mask: the true path on the mask's lanes, the false path "
              "on the others, the rest on all 8")


def sectors(r):
    got = [(x["stride"], x["sectors"]) for x in r["runs"]]
    check(got == [(1, 4), (2, 8), (4, 16), (8, 32), (16, 32), (32, 32)],
          f"sectors: distinct 32-byte sectors for strides 1, 2, 4, 8, 16, 32: {[s for _, s in got]}")
    allx = r["runs"] + [r["aos"], r["soa"]]
    check(all(x["requests"] == 1 and x["sectors_from_addresses"] == x["sectors"] for x in allx),
          "sectors: one request per load; the lanes' addresses touch exactly the sectors the timing model counted")
    check(r["aos"]["sectors"] == 8 and r["soa"]["sectors"] == 4,
          f"sectors: x of 32 {{x, y}} records: {r['aos']['sectors']} sectors; a separate x[]: {r['soa']['sectors']}")
    if r["view"]:
        check(all(x["view_sectors"] == x["sectors"] for x in allx), "sectors: the view data's memory samples agree")


def banks(r):
    got = [(x["stride"], x["rounds"], x["conflicts"]) for x in r["runs"]]
    check(r["banks"] == 8 and r["lanes"] == 8, "banks: 8 banks, 8 lanes")
    check(got == [(8, 8, 7), (9, 1, 0), (0, 1, 0)],
          f"banks: column of an 8 x 8 tile 8 rounds, padded to 9 one round, broadcast one round ({got})")
    check(all(x["rounds_from_words"] == x["rounds"] for x in r["runs"]),
          "banks: the words the lanes read (bank = word mod 8) give the rounds the timing model counted")
    check(r["runs"][0]["banks"] == [0] * 8 and r["runs"][1]["banks"] == list(range(8)), "banks: the banks of each lane")
    if r["view"]:
        check(all(x["view_rounds"] == x["rounds"] for x in r["runs"]), "banks: the view data's memory samples agree")


def tile(r):
    check(r["after_first"] == [[7, 10], [23, 34]], f"tile: partial sums after the first tile {r['after_first']}")
    check(r["final"] == [[50, 60], [114, 140]] and r["correct"], f"tile: the result {r['final']}")
    t = r["thread"]
    l0 = t["loads"][0]
    check((t["row"], t["col"]) == (0, 1) and l0["A"] == [0, 1] and l0["A_value"] == 2 and l0["As"] == [0, 1] and
          l0["B"] == [0, 1] and l0["B_value"] == 2 and l0["Bs"] == [0, 1],
          "tile: thread (0, 1) loads A[0, 1] = 2 into As[0][1] and B[0, 1] = 2 into Bs[0][1]")
    rd = [(e["a_at"], e["a"], e["a_from"], e["b_at"], e["b"], e["b_from"]) for e in t["reads"] if e["round"] == 0]
    check(rd == [([0, 0], 1, [0, 0], [0, 1], 2, [0, 1]), ([0, 1], 2, [0, 1], [1, 1], 4, [1, 1])],
          f"tile: thread (0, 1) reads As[0][0] = 1 (loaded by (0, 0)) and Bs[1][1] = 4 (loaded by (1, 1)) ({rd})")
    check(t["partials"][0]["sum"] == 10 and t["partials"][1]["sum"] == 60, "tile: its partial sums 10, then 60")
    check([x["As_by"] for x in r["rounds"]] == [[[0, 1], [2, 3]]] * 2,
          "tile: thread (r, c) loaded As[r][c] in both rounds (the loaders the kernel recorded)")


def roofline(r):
    v, o = r["vector_add"], r["with_overhead"]
    check(r["peak_tflops"] == 10 and r["bandwidth_gbs"] == 200 and near(r["ridge"], 50, 1e-9),
          "roofline: P = 10 TFLOP/s, beta = 200 GB/s, ridge at 50 FLOP/byte")
    check(near(v["intensity"], 1 / 12, 1e-9) and near(v["t_compute_us"], 0.1, 1e-9) and near(v["t_memory_us"], 60, 1e-9),
          f"roofline: vector add I = 1/12, 0.1 us of compute against 60 us of memory")
    check(near(v["ceiling_gflops"], 16.67, 0.005), f"roofline: a 16.7 GFLOP/s ceiling ({v['ceiling_gflops']})")
    check(near(o["t_us"], 70, 1e-9) and near(o["gflops"], 14.29, 0.005),
          f"roofline: with H = 10 us: 70 us, 14.3 GFLOP/s ({o['t_us']}, {o['gflops']})")
    check(near(o["halved_t_us"], 40, 1e-9) and near(o["halved_speedup"], 1.75, 1e-9),
          "roofline: halving the traffic: 40 us, 1.75x")
    n = 1024
    ok = all(m["n"] == n and m["flops"] == 2 * n ** 3 and m["bytes"] == 8 * n ** 3 / m["tile"] + 4 * n ** 2 for m in r["matrix"])
    check(ok and [m["tile"] for m in r["matrix"]] == [1, 16, 32, 64],
          "roofline: the 1024 x 1024 presets, 2n^3 FLOPs and 8n^3/T + 4n^2 bytes for tiles 1, 16, 32, 64")
    s = r["simulated"]
    check(near(s["dram_bytes"], 12e6, 12e4) and s["flops"] == 1e6 and s["correct"],
          f"roofline: the simulated vector add moved {s['dram_bytes']} DRAM bytes for {s['flops']} FLOPs")
    check(60 <= s["time_us"] < 66 and s["gflops"] <= v["ceiling_gflops"] * 1.0001,
          f"roofline: simulated {s['time_us']} us, {s['gflops']} GFLOP/s: on the roof, not above it")


def placement(r):
    c = r["configs"]
    check(r["core"] == {"cores": 2, "threads": 384, "warps": 12, "shared_bytes": 1536}, f"placement: the two-core GPU {r['core']}")
    got = [(x["threads_per_block"], x["shared_bytes"], x["blocks_per_sm"]) for x in c]
    check(got == [(128, 0, 3), (128, 520, 2), (256, 1032, 1)],
          f"placement: 128 threads, no shared array: 3 per core; 520 bytes: 2; 256 threads, 1,032 bytes: 1 ({got})")
    check(c[0]["limiters"] == ["threads"] and c[1]["limiters"] == ["shared_memory"] and
          sorted(c[2]["limiters"]) == ["shared_memory", "threads"], "placement: the limiting resources")
    check([x["resident_blocks_max"] for x in c] == [3, 2, 1], "placement: the timing model never held more at once")
    if not r["view"]:
        print("SKIP  placement: the blocks' cores over time (the runtime collects no view data)")
        return
    ok = True
    for x in c:
        bl = x["blocks"]
        ok &= x["timeline"] == "view" and all(b.get("sm") in (0, 1) for b in bl)
        for b in bl:  # at no placement are more blocks resident on its core than fit
            here = [o for o in bl if o.get("sm") == b["sm"] and o["t_start"] <= b["t_start"] < o["t_end"]]
            ok &= len(here) <= x["blocks_per_sm"]
    check(ok, "placement: every block placed on a core, never more resident than fit")


def rare(r):
    check(near(r["formula_pct"], 27.5, 0.05), f"rare-branch: 1 - (1 - 0.01)^32 = {r['formula_pct']:.2f}%")
    x, g = r["random"], r["grouped"]
    check(r["warps"] == 4096 and abs(x["divergent_pct"] - r["formula_pct"]) < 2.5,
          f"rare-branch: over 4096 warps the kernel counts {x['divergent']} divergent warps ({x['divergent_pct']:.1f}%)")
    check(g["divergent"] <= 1 and g["issuing"] < x["issuing"] / 10,
          f"rare-branch: grouped data removes it ({g['divergent']} divergent, {g['issuing']} issuing)")
    check(x["warp_insts"] > g["warp_insts"], f"rare-branch: random data costs more instructions ({x['warp_insts']} vs {g['warp_insts']})")
    check(len(x["kinds"]) == 4096 and x["kinds"].count("1") == x["divergent"], "rare-branch: each warp's kind")


def launch(r):
    check((r["n"], r["threads_per_block"], r["blocks"], r["surplus_threads"]) == (1000, 256, 4, 24),
          "launch: 1000 elements, 256 threads -> 4 blocks, 24 surplus threads")
    a, b, s = r["in_order"], r["shuffled"], r["short"]
    check(a["order"] == [0, 1, 2, 3] and a["correct"] == 1000 and a["touched_once"] == 1000,
          "launch: in order, every element computed once and right")
    check(sorted(b["order"]) == [0, 1, 2, 3] and b["order"] != [0, 1, 2, 3] and b["correct"] == 1000,
          f"launch: --block-order={r['block_order']} ran the blocks as {b['order']}, the same answer")
    check(s["grid"] == 3 and s["never"] == 232 and s["first_never"] == 768 and s["correct"] == 768,
          f"launch: a grid one block short leaves {s['never']} elements unprocessed, from {s['first_never']}")
    check(r["example"]["index"] == r["example"]["thread"] + 256 * r["example"]["block"], "launch: the index arithmetic")


def occupancy(r):
    d = r["device"]
    check((d["threads"], d["blocks"], d["registers"], d["shared_bytes"]) == (2048, 32, 65536, 233472),
          "occupancy: the guide's device: 2,048 threads, 32 blocks, 65,536 registers, 233,472 bytes per SM")
    got = [(x["threads_per_block"], x["registers"], x["blocks_per_sm"], x["occupancy_pct"], x["limiter"]) for x in r["examples"]]
    check(got == [(768, 32, 2, 75, "threads"), (32, 32, 32, 50, "blocks"), (256, 32, 2, 25, "shared_memory")],
          f"occupancy: the guide's examples: 2 blocks 75%, 32 blocks 50%, 2 blocks with 100 KB ({got})")
    sw = [(x["registers"], x["blocks_per_sm"], x["occupancy_pct"]) for x in r["register_sweep"]]
    check(sw == [(32, 8, 100), (64, 4, 50), (96, 2, 25), (128, 2, 25), (255, 1, 12.5)],
          f"occupancy: 256 threads, 32/64/96/128/255 registers: 8, 4, 2, 2, 1 blocks ({sw})")
    wv = [(x["grid"], x["sms"], x["blocks_per_sm"], x["waves"], round(x["utilization_pct"], 1)) for x in r["waves"]]
    check(wv == [(12, 8, 1, 2, 75.0), (264, 132, 2, 1, 100.0), (265, 132, 2, 2, 50.2), (1000, 132, 2, 4, 94.7),
                 (100000, 132, 2, 379, 99.9)], f"occupancy: waves {wv}")


CASES = {
    "map": (map_, ["fig-map", "map-svg"]),
    "fit": (fit, ["fig-fit", "fit-svg"]),
    "latency": (lambda r: latency(r, 4), ["fig-latency-0", "fig-latency-1", "latency-sweep-svg"]),
    "latency16": (lambda r: latency(r, 16), ["fig-latency-0", "latency-sweep-svg"]),
    "divergence": (divergence, ["fig-divergence", "divergence-svg", "fig-divergence-values"]),
    "sectors": (sectors, ["fig-sectors", "sectors-svg"]),
    "banks": (banks, ["fig-banks", "banks-svg"]),
    "tile": (tile, ["fig-tile", "tile-svg", "fig-tile-thread"]),
    "roofline": (roofline, ["fig-roofline", "roofline-svg"]),
    "placement": (placement, ["fig-placement-0", "fig-placement-1", "fig-placement-2"]),
    "rare-branch": (rare, ["fig-rare", "rare-svg"]),
    "launch": (launch, ["fig-launch", "launch-svg"]),
    "occupancy": (occupancy, ["fig-occupancy", "fig-waves"]),
}


def main():
    d = sys.argv[1]
    for case in sys.argv[2:]:
        fn, ids = CASES[case]
        name = "latency" if case == "latency16" else case
        try:
            res = json.load(open(f"{d}/{case}.json"))
        except (OSError, ValueError) as e:
            check(False, f"{case}: --json output: {e}")
            continue
        check(res.get("explorer") == name, f"{case}: --json names the explorer")
        try:
            fn(res)
        except (KeyError, IndexError, TypeError) as e:
            check(False, f"{case}: the JSON lacks {e!r}")
        try:
            dom = open(f"{d}/{case}.dom").read()
        except OSError as e:
            check(False, f"{case}: no rendered page: {e}")
            continue
        check_page(name, res, dom, ids)
    print(f"{checks} checks, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
