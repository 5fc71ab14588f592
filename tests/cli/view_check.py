"""view_check.py - checks of a view page's DOM (as headless Chromium dumps it after the page's script ran)
against the run report's "view" data (docs/view-format.md): every section there, every number shown equal to the
data, the source, timeline, blocks, divergence, memory, occupancy, roofline and host timeline drawn from it.
Used by tests/cli/view_page.sh (hand-written fixtures) and tests/cli/view_programs.sh (real programs).

    python3 view_check.py DOMDIR REPORT.json NAME:LAUNCH ...   checks DOMDIR/NAME.dom as launch LAUNCH of the report
"""
import json, math, re, sys
from html.parser import HTMLParser

OUT = "."          # where load() finds NAME.dom (set by the caller)
fails = 0


def check(cond, what):
    global fails
    if cond:
        return True
    fails += 1
    print("FAIL " + what)
    return False


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.a, self.parent, self.kids, self.text = tag, dict(attrs), parent, [], []

    def all_text(self):
        return "".join(t if isinstance(t, str) else t.all_text() for t in self.text)

    def walk(self):
        yield self
        for k in self.kids:
            yield from k.walk()

    def find(self, pred):
        return [n for n in self.walk() if pred(n)]

    def up(self, attr):
        n = self
        while n is not None:
            if attr in n.a:
                return n.a[attr]
            n = n.parent
        return None


VOID = {"br", "img", "meta", "link", "input", "hr", "col", "wbr", "area", "base", "source"}


class Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.kids.append(n)
        self.cur.text.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        n = Node(tag, attrs, self.cur)
        self.cur.kids.append(n)
        self.cur.text.append(n)

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, d):
        self.cur.text.append(d)


def load(name):
    t = Tree()
    t.feed(open(f"{OUT}/{name}.dom", encoding="utf-8").read())
    return t.root


def near(a, b, rel=1e-9, abs_=1e-9):
    return abs(a - b) <= max(abs_, rel * max(abs(a), abs(b)))


UNITS = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1, "B": 1, "KiB": 1024, "MiB": 1024 ** 2, "GiB": 1024 ** 3,
         "TiB": 1024 ** 4}
PREFIX = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}


def shown_value(text):
    """the number a formatted text shows, with its tolerance; None when it shows no single number"""
    t = text.strip().replace(",", "")
    m = re.fullmatch(r"(-?\d+(?:\.(\d+))?)\s*(%|[A-Za-zµ]*(?:/s)?)", t)
    if not m:
        return None
    v, dec, unit = float(m.group(1)), m.group(2) or "", m.group(3)
    tol = 0.5 * 10 ** -len(dec)
    scale = 1
    if unit in ("", "%"):
        pass
    elif unit in UNITS:
        scale = UNITS[unit]
    else:
        u = re.fullmatch(r"([kMGTP]?)(FLOP/s|FLOP|B/s)", unit)
        if not u:
            return None
        scale = PREFIX[u.group(1)]
    return v * scale, tol * scale + abs(v * scale) * 6e-3


def num_nodes(root):
    return [n for n in root.walk() if "data-metric" in n.a]


def metric(root, name, **ctx):
    """the numbers named name whose element or ancestors carry the context attributes"""
    out = []
    for n in num_nodes(root):
        if n.a.get("data-metric") != name:
            continue
        if all(str(n.up("data-" + k.replace("_", "-"))) == str(v) for k, v in ctx.items()):
            out.append(n)
    return out


def val(n):
    return float(n.a["data-value"]) if n.a.get("data-value") not in (None, "") else None


def expect(root, name, want, what, within=None, **ctx):
    ns = metric(within or root, name, **ctx)
    if not check(ns, f"{what}: no element with data-metric={name} {ctx}"):
        return
    for n in ns:
        if isinstance(want, str):
            check(n.a.get("data-value") == want, f"{what}: {name} shows {n.a.get('data-value')!r}, the data says {want!r}")
        else:
            v = val(n)
            check(v is not None and near(v, want, 1e-6, 1e-9), f"{what}: {name} = {v}, the data says {want}")


def by_id(root, i):
    r = root.find(lambda n: n.a.get("id") == i)
    return r[0] if r else None


def popc(m, n):
    return bin(int(m) & ((1 << n) - 1)).count("1")


SECTIONS = ["launches", "host", "summary", "source", "timeline", "blocks", "divergence", "memory", "occupancy", "roofline"]


def check_page(name, rep, li):
    v = rep["view"]
    timing = v["mode"] == "timing"
    L = v["launches"][li]
    root = load(name)
    body = root.find(lambda n: n.tag == "body")[0]
    what = name
    check(body.a.get("data-ready") == "1", f"{what}: the page did not finish drawing")
    check("data-js-error" not in body.a, f"{what}: script error: {body.a.get('data-js-error')}")
    for s in SECTIONS:
        check(by_id(root, "sec-" + s) is not None, f"{what}: section {s} is missing")
    # every number element: a value, and text that shows that value
    nn = 0
    for n in num_nodes(root):
        txt, dv = n.all_text(), n.a.get("data-value")
        if dv in (None, "") or not re.fullmatch(r"-?[\d.]+(e[-+]?\d+)?", dv):
            continue
        sv = shown_value(txt)
        if sv is None:
            continue
        nn += 1
        check(abs(sv[0] - float(dv)) <= sv[1], f"{what}: {n.a['data-metric']} shows '{txt}' but its value is {dv}")
    check(nn > 40, f"{what}: only {nn} numbers found")
    # header
    expect(root, "mode", v["mode"], what)
    for k in ("sm_count", "subpartitions", "clock_mhz", "fp32_tflops", "mem_bandwidth_gbs", "warp_size"):
        expect(root, k, v["device"][k], what)
    # launch index
    idx = by_id(root, "sec-launches")
    for i, X in enumerate(v["launches"]):
        c = dict(launch=i)
        expect(root, "warp_insts", X["warp_insts"], f"{what} index", idx, **c)
        expect(root, "thread_insts", X["thread_insts"], f"{what} index", idx, **c)
        expect(root, "grid", ",".join(map(str, X["grid"])), f"{what} index", idx, **c)
        expect(root, "block", ",".join(map(str, X["block"])), f"{what} index", idx, **c)
        expect(root, "occupancy_pct", X["occupancy"]["occupancy_pct"], f"{what} index", idx, **c)
        if timing:
            expect(root, "cycles", X["cycles"], f"{what} index", idx, **c)
    sel = idx.find(lambda n: n.tag == "tr" and "sel" in n.a.get("class", "").split())
    check(len(sel) == 1 and sel[0].a.get("data-launch") == str(li), f"{what}: launch {li} is not the selected row")
    # summary
    sm = by_id(root, "sec-summary")
    expect(root, "warp_insts", L["warp_insts"], f"{what} summary", sm)
    expect(root, "thread_insts", L["thread_insts"], f"{what} summary", sm)
    expect(root, "avg_lanes", L["thread_insts"] / L["warp_insts"], f"{what} summary", sm)
    o = L["occupancy"]
    expect(root, "occupancy_pct", o["occupancy_pct"], f"{what} summary", sm)
    expect(root, "blocks_per_sm", o["blocks_per_sm"], f"{what} summary", sm)
    expect(root, "waves", o["waves"], f"{what} summary", sm)
    greq = sum(p.get("global", {}).get("requests", 0) for p in L["ptx"])
    gsec = sum(p.get("global", {}).get("sectors", 0) for p in L["ptx"])
    expect(root, "global_requests", greq, f"{what} summary", sm)
    expect(root, "global_sectors", gsec, f"{what} summary", sm)
    expect(root, "bank_conflicts", sum(p.get("shared", {}).get("conflicts", 0) for p in L["ptx"]), f"{what} summary", sm)
    if timing:
        expect(root, "cycles", L["cycles"], f"{what} summary", sm)
        expect(root, "achieved_pct", o["achieved_pct"], f"{what} summary", sm)
    # source: every line, and (all opened) every PTX instruction
    src = by_id(root, "sec-source")
    rows = {(n.a.get("data-file"), n.a.get("data-line")): n for n in src.find(lambda n: n.tag == "tr" and "code-line" in n.a.get("class", ""))}
    for ln in L["lines"]:
        key = (ln["file"], str(ln["line"]))
        w = f"{what} source {ln['file']}:{ln['line']}"
        if not check(key in rows, f"{w}: no row"):
            continue
        r = rows[key]
        expect(root, "warp_insts", ln["warp_insts"], w, r)
        expect(root, "active_lanes", ln["active_lanes"], w, r)
        if "global" in ln:
            g = ln["global"]
            expect(root, "global_requests", g["requests"], w, r)
            expect(root, "sectors_per_request", g["sectors"] / g["requests"] if g["requests"] else 0, w, r)
        else:
            check(not metric(r, "global_requests"), f"{w}: global numbers on a line without global memory")
        if "shared" in ln:
            expect(root, "shared_wavefronts", ln["shared"]["wavefronts"], w, r)
            expect(root, "bank_conflicts", ln["shared"]["conflicts"], w, r)
        hot = bool(r.find(lambda n: n.a.get("data-hot") == "1"))
        check(hot == bool(ln.get("hot")), f"{w}: hot mark {hot}, the data says {ln.get('hot')}")
        if timing:
            expect(root, "issue_share_pct", ln["issue_share_pct"], w, r)
            expect(root, "stalls", sum(ln["stalls"].values()), w, r)
            bars = metric(r, "stalls")
            if bars:
                segs = {n.a["data-reason"]: float(n.a["data-value"]) for n in bars[0].walk() if "data-reason" in n.a}
                check(segs == {k: float(x) for k, x in ln["stalls"].items() if x > 0}, f"{w}: stall segments {segs} != {ln['stalls']}")
    check(not any(n.find(lambda x: "data-metric" in x.a and x.a["data-metric"] == "issue_share_pct") for n in rows.values()) or timing,
          f"{what}: issue share shown in functional mode")
    ptxrows = {(n.a.get("data-fn"), n.a.get("data-pc")): n for n in src.find(lambda n: n.tag == "tr" and "ptxrow" in n.a.get("class", ""))}
    tot_issue = sum(p.get("issue_cycles", 0) for p in L["ptx"])
    for p in L["ptx"]:
        if not p.get("file"):
            continue
        w = f"{what} PTX {p['fn']} pc {p['pc']}"
        if not check((p["fn"], str(p["pc"])) in ptxrows, f"{w}: no row (open=all)"):
            continue
        r = ptxrows[(p["fn"], str(p["pc"]))]
        check(p["text"] in r.all_text(), f"{w}: text '{p['text']}' not shown")
        expect(root, "warp_insts", p["warp_insts"], w, r)
        expect(root, "active_lanes", p["active_lanes"], w, r)
        expect(root, "exec_lanes", p["exec_lanes"], w, r)
        if "global" in p:
            expect(root, "global_requests", p["global"]["requests"], w, r)
        if "shared" in p:
            expect(root, "shared_wavefronts", p["shared"]["wavefronts"], w, r)
            expect(root, "bank_conflicts", p["shared"]["conflicts"], w, r)
        if timing:
            expect(root, "issue_pct", 100 * p["issue_cycles"] / tot_issue, w, r)
            expect(root, "stalls", sum(p["stalls"].values()), w, r)
    # source text shown: each line's row holds that line of the CUDA source
    srcs = v.get("sources", {})
    shown = 0
    for (f, ln), r in rows.items():
        lines = srcs.get(f, {}).get("lines", [])
        if ln and ln.isdigit() and 0 < int(ln) <= len(lines) and lines[int(ln) - 1].strip():
            shown += 1
            check(lines[int(ln) - 1].strip() in r.all_text(), f"{what}: {f}:{ln}: the source text is not shown")
    check(shown > 0, f"{what}: no CUDA source text shown")
    # timeline and blocks
    tl, bl = by_id(root, "sec-timeline"), by_id(root, "sec-blocks")
    if not timing:
        for s, n in (("timeline", tl), ("blocks", bl)):
            e = n.find(lambda x: x.a.get("data-empty") == "functional")
            check(e and "Functional mode" in e[0].all_text(), f"{what}: the {s} section does not say functional mode has none")
    else:
        T = L["timeline"]
        expect(root, "tl_t0", T["t0"], f"{what} timeline", tl)
        expect(root, "tl_t1", T["t1"], f"{what} timeline", tl)
        expect(root, "tl_issues", sum(len(sp["issues"]) for sp in T["subpartitions"]), f"{what} timeline", tl)
        for sp in T["subpartitions"]:
            w = f"{what} timeline SM {sp['sm']} SP {sp['sp']}"
            expect(root, "sp_issues", len(sp["issues"]), w, tl, sm=sp["sm"], sp=sp["sp"])
            expect(root, "sp_warps", len(sp["warps"]), w, tl, sm=sp["sm"], sp=sp["sp"])
            ids = tl.find(lambda n: "warp-id" in n.a.get("class", "") and n.a.get("data-sm") == str(sp["sm"]) and n.a.get("data-sp") == str(sp["sp"]))
            got = sorted((int(n.a["data-slot"]), int(n.a["data-block"]), int(n.a["data-warp"]), int(n.a["data-t-start"]), int(n.a["data-t-end"])) for n in ids)
            want = sorted((x["slot"], x["block"], x["warp"], x["t_start"], x["t_end"]) for x in sp["warps"])
            check(got == want, f"{w}: warps drawn {got} != {want}")
        states = {n.a["data-state"] for n in tl.walk() if "data-state" in n.a}
        want = {"issued"} | {s[2] for sp in T["subpartitions"] for x in sp["warps"] for s in x["states"]}
        # zoomed out, a pixel shows the state covering most of its cycles: all states are drawn only when the
        # window has no more cycles than the drawing has pixels; never a state the data lacks
        svg = by_id(root, "timeline-svg")
        if svg is not None and T["t1"] - T["t0"] <= int(float(svg.a.get("width", 0))) - 200:
            check(want <= states | {"selected"}, f"{what}: timeline states drawn {sorted(states)} lack {sorted(want - states)}")
        check(states <= want | {"selected", "unknown"}, f"{what}: timeline states drawn {sorted(states - want)} are not in the data")
        leg = {n.a["data-legend"] for n in tl.walk() if "data-legend" in n.a}
        check(want <= leg | {"selected"}, f"{what}: timeline legend {sorted(leg)} lacks {sorted(want - leg)}")
        items = L["blocks"]["items"]
        expect(root, "blk_count", len(items), f"{what} blocks", bl)
        slots = v["device"]["sm_count"] * o["blocks_per_sm"]
        expect(root, "blk_waves", math.ceil(len(items) / slots), f"{what} blocks", bl)
        expect(root, "blk_slots", slots, f"{what} blocks", bl)
        expect(root, "blk_sms", len({it[1] for it in items}), f"{what} blocks", bl)
        bsvg = by_id(root, "blocks-svg")
        if bsvg is not None and bsvg.a.get("data-dense") == "1":   # drawn per pixel: as many blocks in view as the data has
            check(int(bsvg.a.get("data-visible", -1)) == len(items), f"{what}: {bsvg.a.get('data-visible')} blocks in view, the data has {len(items)}")
            check(bl.find(lambda n: "blk-dense" in n.a.get("class", "").split()), f"{what}: no dense block drawing")
        else:
            got = sorted((int(n.a["data-block"]), int(n.a["data-sm"]), int(float(n.a["data-t0"])), int(float(n.a["data-t1"])))
                         for n in bl.find(lambda n: "blk" in n.a.get("class", "").split()))
            check(got == sorted(map(tuple, items)), f"{what}: blocks drawn {got} != {items}")
    # divergence
    dv = by_id(root, "sec-divergence")
    DV = L["divergence"]
    st = DV["steps"]
    expect(root, "div_steps", len(st), f"{what} divergence", dv)
    expect(root, "div_block", DV["block"], f"{what} divergence", dv)
    expect(root, "div_warp", DV["warp"], f"{what} divergence", dv)
    expect(root, "div_lanes", DV["lanes"], f"{what} divergence", dv)
    act = [popc(x[1], DV["lanes"]) for x in st]
    expect(root, "div_avg_active", sum(act) / len(st), f"{what} divergence", dv)
    expect(root, "div_avg_exec", sum(popc(x[2], DV["lanes"]) for x in st) / len(st), f"{what} divergence", dv)
    expect(root, "div_divergent", sum(1 for a in act if a < DV["lanes"]), f"{what} divergence", dv)
    check(by_id(root, "divergence-svg") is not None, f"{what}: no divergence strip")
    # memory: the list, and the first sample's diagram
    mm = by_id(root, "sec-memory")
    for i, m in enumerate(L["memory"]):
        w = f"{what} memory sample {i} (pc {m['pc']})"
        expect(root, "mem_lanes", len(m["lanes"]), w, mm, mem=i)
        if m["space"] == "shared":
            expect(root, "mem_wavefronts", m["wavefronts"], w, mm, mem=i)
            expect(root, "mem_conflicts", m["conflicts"], w, mm, mem=i)
        else:
            expect(root, "mem_sectors", len(m["sectors"]), w, mm, mem=i)
            expect(root, "mem_lines", len(m["lines"]), w, mm, mem=i)
    m0 = L["memory"][0]
    det = by_id(root, "memory-detail")
    if m0["space"] != "shared":
        expect(root, "mem_sel_sectors", len(m0["sectors"]), f"{what} memory diagram", det)
        expect(root, "mem_sel_lines", len(m0["lines"]), f"{what} memory diagram", det)
        expect(root, "mem_sel_bytes", len(m0["lanes"]) * m0["bytes_per_lane"], f"{what} memory diagram", det)
        expect(root, "bytes_per_lane", m0["bytes_per_lane"], f"{what} memory diagram", det)
        expect(root, "mem_sel_lanes", len(m0["lanes"]), f"{what} memory diagram", det)
        used = sorted(int(float(n.a["data-sector"])) for n in det.walk() if n.a.get("data-used") == "1" and "data-sector" in n.a)
        check(used == sorted(m0["sectors"]), f"{what}: sectors drawn {used} != {m0['sectors']}")
        lanes = sorted((int(n.a["data-lane"]), int(float(n.a["data-addr"]))) for n in det.walk() if "data-addr" in n.a)
        check(lanes == sorted(map(tuple, m0["lanes"])), f"{what}: lane addresses drawn differ from the data")
    # occupancy
    oc = by_id(root, "sec-occupancy")
    for k in ("warps", "blocks", "registers", "shared_mem"):
        expect(root, "limit_" + k, o["limits"][k], f"{what} occupancy", oc)
    lim = oc.find(lambda n: "limiter" in n.a.get("class", "").split())
    check(len(lim) == 1 and lim[0].a.get("data-limit") == o["limiter"], f"{what}: the limiter marked is not {o['limiter']}")
    for k in ("threads_per_block", "registers_per_thread", "smem_per_block", "blocks_per_sm", "occupancy_pct", "waves"):
        expect(root, k, o[k], f"{what} occupancy", oc)
    expect(root, "limiter", o["limiter"], f"{what} occupancy", oc)
    if timing:
        expect(root, "achieved_pct", o["achieved_pct"], f"{what} occupancy", oc)
    # roofline
    rf, R = by_id(root, "sec-roofline"), L["roofline"]
    for k in ("flops", "dram_bytes", "ridge", "peak_flops", "peak_bandwidth"):
        expect(root, k, R[k], f"{what} roofline", rf)
    I = R["flops"] / R["dram_bytes"] if R["dram_bytes"] else 0
    expect(root, "intensity", I, f"{what} roofline", rf)
    expect(root, "bound", ("memory-bound" if I < R["ridge"] else "compute-bound") if R["dram_bytes"] else "–", f"{what} roofline", rf)
    pt = by_id(root, "roof-point")
    if I > 0:
        check(pt is not None and near(float(pt.a["data-x"]), I, 1e-9), f"{what}: the roofline point is not at the intensity")
    else:   # no FLOPs: no place on a log axis
        check(pt is None, f"{what}: a roofline point for a launch without floating-point work")
    if timing:
        expect(root, "seconds", R["seconds"], f"{what} roofline", rf)
        expect(root, "achieved_flops", R["flops"] / R["seconds"], f"{what} roofline", rf)
        if pt is not None:
            check(near(float(pt.a["data-y"]), R["flops"] / R["seconds"], 1e-9), f"{what}: the roofline point is not at FLOPs / seconds")
    # host timeline
    hs, H = by_id(root, "sec-host"), v["host"]
    evs = {int(n.a["data-host-event"]): n for n in hs.walk() if "data-host-event" in n.a}
    for i, e in enumerate(H["events"]):
        w = f"{what} host event {i} ({e['kind']} {e['name']})"
        if not check(i in evs, f"{w}: not drawn"):
            continue
        n = evs[i]
        check(n.a.get("data-kind") == e["kind"] and n.a.get("data-name") == e["name"], f"{w}: kind or name differ")
        check(near(float(n.a["data-t0"]), e["t0"]) and near(float(n.a["data-t1"]), e["t1"]), f"{w}: times differ")
        for k in ("stream", "bytes", "launch", "depth"):
            if k in e:
                check(n.a.get("data-" + k) == str(e[k]), f"{w}: {k} {n.a.get('data-' + k)} != {e[k]}")
    kinds = {}
    for e in H["events"]:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    for k in ("kernel", "memcpy", "memset", "event", "callback", "graph", "nvtx"):
        expect(root, "host_count", kinds.get(k, 0), f"{what} host count {k}", hs, kind=k)
    for d in ("HtoD", "DtoH"):
        expect(root, "host_bytes", sum(e.get("bytes", 0) for e in H["events"] if e["kind"] == "memcpy" and e["name"] == d),
               f"{what} host bytes {d}", hs, dir=d)
    expect(root, "host_span", max(e["t1"] for e in H["events"]) - min(0, min(e["t0"] for e in H["events"])), f"{what} host", hs)
    labels = " ".join(n.all_text() for n in hs.walk() if n.a.get("data-row") == "stream")
    for s in H["streams"]:
        check(f"Stream {s['id']}" in labels, f"{what}: no row for stream {s['id']}")
    sel = [n for n in evs.values() if n.a.get("data-kind") == "kernel" and n.a.get("data-launch") == str(li)]
    check(sel and sel[0].a.get("stroke") == "#111", f"{what}: the selected launch's kernel is not outlined in the host timeline")
    print(f"ok   {what}: {nn} numbers shown, all equal to the report")


def failures():
    """the number of failed checks so far"""
    return fails


if __name__ == "__main__":
    OUT = sys.argv[1]
    rep = json.load(open(sys.argv[2]))
    for arg in sys.argv[3:]:
        name, li = arg.rsplit(":", 1)
        check_page(name, rep, int(li))
    sys.exit(1 if fails else 0)
