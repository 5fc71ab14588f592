#!/usr/bin/env bash
# TIMEOUT: 600
# view_page.sh - `warpsim view` and the view page (src/report/view_page.html), drawn from the hand-written fixtures
# tests/data/view/{functional,timing}.json (docs/view-format.md):
#   - warpsim view's errors: a report without "view", a file that is not JSON, a missing file;
#   - the page loads in headless Chromium without a script error, every section is there, the sections without
#     data (functional mode has no timeline) say so, and every number the page shows (data-metric/data-value,
#     and the text shown) equals what the fixture says, launch by launch;
#   - a "</script>" inside the JSON cannot end the data element;
#   - clicks, zoom, pan and hovering work (a script added to a copy of the page drives them);
#   - 20,000 cycles x 64 warps per SM renders, drawing no more than the visible pixels;
#   - screenshots in build/tests/view/ (with --docs DIR: the docs/view-*.png pictures, see `make docs`).
# Exits 77 (skipped) when chromium or python3 is missing.
#
#   tests/cli/view_page.sh [--docs DIR]
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
case "$WARPSIM" in /*) ;; *) WARPSIM="$PWD/$WARPSIM" ;; esac
OUT=$PWD/build/tests/view
DOCS=
[ "${1:-}" = --docs ] && DOCS=${2:?--docs needs a folder}
command -v python3 >/dev/null 2>&1 || { echo "view_page: python3 not found"; exit 77; }
CHROME=
for c in chromium chromium-browser google-chrome google-chrome-stable; do
  command -v "$c" >/dev/null 2>&1 && { CHROME=$(command -v "$c"); break; }
done
[ -n "$CHROME" ] || { echo "view_page: chromium not found"; exit 77; }
[ -x "$WARPSIM" ] || { echo "view_page: no simulator at $WARPSIM"; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"
FX=tests/data/view
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }

# chrome MODE URL OUTFILE [W H]: the DOM after the scripts ran (MODE dom) or a screenshot (MODE png), each run
# with its own profile so that runs in parallel (and other users' Chromium) do not share one
chrome() {
  local mode=$1 url=$2 out=$3 w=${4:-1400} h=${5:-1000} prof
  prof=$(mktemp -d "$OUT/profile.XXXXXX")
  local args=(--headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$prof"
              --virtual-time-budget=8000 --window-size="$w,$h")
  if [ "$mode" = dom ]; then
    timeout 120 "$CHROME" "${args[@]}" --dump-dom "$url" >"$out" 2>"$out.log"
  else
    timeout 120 "$CHROME" "${args[@]}" --run-all-compositor-stages-before-draw --screenshot="$out" "$url" >"$out.log" 2>&1
  fi
  local rc=$?
  rm -rf "$prof"
  return $rc
}

# ---------------------------------------------------------------- warpsim view's errors
printf '{"device": "h200", "launches": []}\n' >"$OUT/noview.json"
msg=$("$WARPSIM" view "$OUT/noview.json" 2>&1); rc=$?
if [ $rc = 1 ] && [[ "$msg" == *"the report has no view data: run with --view"* ]]; then ok "a report without view data is refused"
else bad "a report without view data: rc $rc, '$msg'"; fi
printf '{"view": \n' >"$OUT/broken.json"
msg=$("$WARPSIM" view "$OUT/broken.json" 2>&1); rc=$?
if [ $rc = 1 ] && [[ "$msg" == *broken.json:* ]]; then ok "a file that is not JSON is refused ($msg)"; else bad "not JSON: rc $rc, '$msg'"; fi
msg=$("$WARPSIM" view "$OUT/missing.json" 2>&1); rc=$?
[ $rc = 1 ] && ok "a missing report is refused" || bad "missing report: rc $rc, '$msg'"
"$WARPSIM" view >/dev/null 2>&1; [ $? = 2 ] && ok "no report: usage, status 2" || bad "no report: status not 2"

# ---------------------------------------------------------------- the pages
cp "$FX/functional.json" "$FX/timing.json" "$OUT/"
for f in functional timing; do
  if "$WARPSIM" view "$OUT/$f.json" 2>"$OUT/$f.view.log" && [ -s "$OUT/$f.html" ]; then ok "warpsim view $f.json wrote $f.html beside it"
  else bad "warpsim view $f.json"; cat "$OUT/$f.view.log"; fi
done
"$WARPSIM" view -o "$OUT/explicit.html" --title 'a <title> & more' "$FX/timing.json" 2>/dev/null
grep -q '<title>a &lt;title&gt; &amp; more</title>' "$OUT/explicit.html" && ok "-o and --title (HTML-escaped)" || bad "-o / --title"
# the view JSON on its own is accepted too
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["view"], open(sys.argv[2], "w"))' "$FX/timing.json" "$OUT/bare.json"
"$WARPSIM" view -o "$OUT/bare.html" "$OUT/bare.json" 2>/dev/null && ok "a bare view document" || bad "a bare view document"

# a "</script>" (and "<!--") in a source line must not end the data element early
python3 - "$FX/timing.json" "$OUT/inject.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
src = r["view"]["sources"]["kernels.cu"]["lines"]
src[1] = '#include <cstdio> // </script><script>document.title="pwned"</script> <!-- <script>'
json.dump(r, open(sys.argv[2], "w"))
PY
"$WARPSIM" view "$OUT/inject.json" 2>/dev/null

# the stress page: 2 SMs x 4 sub-partitions x 16 warp slots over 20,000 cycles, and a 4,096-step divergence strip
python3 - "$FX/timing.json" "$OUT/stress.json" <<'PY'
import json, random, sys
random.seed(7)
r = json.load(open(sys.argv[1]))
L = r["view"]["launches"][1]
T1 = 20000
reasons = ["long_scoreboard", "short_scoreboard", "wait", "barrier", "not_selected", "lg_throttle", "math_pipe_throttle"]
sps = []
for sm in range(2):
    for sp in range(4):
        warps, issues, busy = [], [], set()
        for k in range(16):
            slot, t, st = sp + 4 * k, 0, []
            while t < T1:
                d = random.choice([1, 1, 2, 3, 5, 8, 30, 200])
                st.append([t, min(T1, t + d), random.choice(reasons)])
                t += d
                if t < T1 and t not in busy:
                    busy.add(t)
                    issues.append([t, slot, random.randrange(42)])
                    t += 1
            warps.append({"slot": slot, "block": 8 * sm + k // 4, "warp": k % 4, "t_start": 0, "t_end": T1, "states": st})
        sps.append({"sm": sm, "sp": sp, "issues": sorted(issues), "warps": warps})
L["cycles"] = T1
L["timeline"] = {"sms": [0, 1], "t0": 0, "t1": T1, "truncated": False, "subpartitions": sps}
L["divergence"]["steps"] = [[random.randrange(42), random.randrange(1 << 32), random.randrange(1 << 32)] for _ in range(4096)]
json.dump(r, open(sys.argv[2], "w"))
PY
"$WARPSIM" view "$OUT/stress.json" 2>/dev/null

# a copy of the timing page with a script that clicks, zooms, pans and hovers, and writes what it saw into the DOM
python3 - "$OUT/timing.html" "$OUT/interact.html" <<'PY'
import sys
page = open(sys.argv[1]).read()
drive = r"""<script>
(function () {
  var R = {}, q = function (s) { return document.querySelector(s); };
  var rangeOf = function (sec) { var r = q('#sec-' + sec + ' .range'); return r ? r.textContent : null; };
  var mouse = function (el, type, x, y, extra) {
    var o = { bubbles: true, cancelable: true, clientX: x, clientY: y, button: 0 };
    for (var k in extra || {}) o[k] = extra[k];
    el.dispatchEvent(type === 'wheel' ? new WheelEvent('wheel', o) : new MouseEvent(type, o));
  };
  var steps = [
    function () { R.launch0 = q('#sec-summary [data-metric="warp_insts"]').getAttribute('data-value');
                  q('#launch-table tr[data-launch="1"]').click(); },
    function () { R.launch1 = q('#sec-summary [data-metric="warp_insts"]').getAttribute('data-value');
                  R.ptxBefore = document.querySelectorAll('#source-table tr.ptxrow').length;
                  q('#source-table tr.code-line[data-line="25"]').click(); },
    function () { R.ptxAfter = document.querySelectorAll('#source-table tr.ptxrow[data-of-line="25"]').length;
                  R.selLine = q('#source-table tr.sel') && q('#source-table tr.sel').getAttribute('data-line');
                  q('#memory-table tr[data-space="shared"][data-pc="26"]').click(); },
    function () { var svg = q('#memory-svg'); R.memKind = svg && svg.getAttribute('data-kind');
                  R.banksWith2 = document.querySelectorAll('#memory-svg rect.bank[data-words="2"]').length;
                  R.tl0 = rangeOf('timeline'); q('#sec-timeline [data-act="zoom-in"]').click(); },
    function () { R.tl1 = rangeOf('timeline'); q('#sec-timeline [data-act="pan-right"]').click(); },
    function () { R.tl2 = rangeOf('timeline');
                  var b = q('#sec-timeline .tlbody'), r = b.getBoundingClientRect();
                  mouse(b, 'wheel', r.left + 400, r.top + 50, { deltaY: -120, ctrlKey: true }); },
    function () { R.tl3 = rangeOf('timeline');
                  var b = q('#sec-timeline .tlbody'), r = b.getBoundingClientRect();
                  mouse(b, 'mousedown', r.left + 600, r.top + 50); mouse(window, 'mousemove', r.left + 500, r.top + 50);
                  mouse(window, 'mouseup', r.left + 500, r.top + 50); },
    function () { R.tl4 = rangeOf('timeline'); q('#sec-timeline [data-act="reset"]').click(); },
    function () { R.tl5 = rangeOf('timeline');
                  var svg = q('#timeline-svg'), r = svg.getBoundingClientRect();
                  svg.scrollIntoView(); r = svg.getBoundingClientRect();
                  mouse(svg, 'mousemove', r.left + 400, r.top + 60); },
    function () { var t = q('#tip'); R.tipShown = t.style.display; R.tipText = t.textContent;
                  q('#sec-divergence [data-act="zoom-in"]').click(); },
    function () { R.div1 = rangeOf('divergence');
                  var k = q('#host-svg rect[data-kind="kernel"][data-launch="0"]');
                  R.hostKernel = !!k; if (k) mouse(k, 'click', 0, 0); },
    function () { R.launchAfterHost = q('#sec-summary [data-metric="warp_insts"]').getAttribute('data-value');
                  R.hash = location.hash; }
  ];
  var i = 0;
  var next = function () {
    if (i < steps.length) { try { steps[i++](); } catch (e) { R.error = 'step ' + i + ': ' + e.message; i = steps.length; } setTimeout(next, 60); }
    else document.body.setAttribute('data-test', JSON.stringify(R));
  };
  var start = function () { if (document.body.getAttribute('data-ready')) setTimeout(next, 60); else setTimeout(start, 30); };
  start();
})();
</script>
"""
i = page.rindex("</body>")
open(sys.argv[2], "w").write(page[:i] + drive + page[i:])
PY

# the DOMs: every launch of both fixtures (all PTX lines open), the injected page, the interactions, the stress page
jobs=()
dom() { chrome dom "file://$OUT/$1#$2" "$OUT/$3.dom" & jobs+=($!); }
dom functional.html "launch=0&open=all" functional.0
dom timing.html "launch=0&open=all" timing.0
wait "${jobs[@]}"; jobs=()
dom functional.html "launch=1&open=all" functional.1
dom timing.html "launch=1&open=all" timing.1
wait "${jobs[@]}"; jobs=()
dom inject.html "launch=0" inject.0
dom interact.html "launch=0" interact.0
wait "${jobs[@]}"; jobs=()
dom stress.html "launch=1" stress.1
dom bare.html "launch=1" bare.1
wait "${jobs[@]}"; jobs=()

python3 - "$OUT" "$FX" <<'PY'
import json, math, re, sys
from html.parser import HTMLParser

OUT, FX = sys.argv[1], sys.argv[2]
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
    # source text shown
    text = "".join(n.all_text() for n in rows.values())
    check("c[i] = a[i] + b[i];" in text or "s[k] += s[k + d];" in text, f"{what}: the CUDA source text is not shown")
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
        check(want <= states | {"selected"}, f"{what}: timeline states drawn {sorted(states)} lack {sorted(want - states)}")
        leg = {n.a["data-legend"] for n in tl.walk() if "data-legend" in n.a}
        check(want <= leg | {"selected"}, f"{what}: timeline legend {sorted(leg)} lacks {sorted(want - leg)}")
        items = L["blocks"]["items"]
        expect(root, "blk_count", len(items), f"{what} blocks", bl)
        slots = v["device"]["sm_count"] * o["blocks_per_sm"]
        expect(root, "blk_waves", math.ceil(len(items) / slots), f"{what} blocks", bl)
        expect(root, "blk_slots", slots, f"{what} blocks", bl)
        expect(root, "blk_sms", len({it[1] for it in items}), f"{what} blocks", bl)
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
    I = R["flops"] / R["dram_bytes"]
    expect(root, "intensity", I, f"{what} roofline", rf)
    expect(root, "bound", "memory-bound" if I < R["ridge"] else "compute-bound", f"{what} roofline", rf)
    pt = by_id(root, "roof-point")
    check(pt is not None and near(float(pt.a["data-x"]), I, 1e-9), f"{what}: the roofline point is not at the intensity")
    if timing:
        expect(root, "seconds", R["seconds"], f"{what} roofline", rf)
        expect(root, "achieved_flops", R["flops"] / R["seconds"], f"{what} roofline", rf)
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
    print(f"ok   {what}: {nn} numbers shown, all equal to the fixture")


for mode in ("functional", "timing"):
    rep = json.load(open(f"{FX}/{mode}.json"))
    for li in range(len(rep["view"]["launches"])):
        check_page(f"{mode}.{li}", rep, li)

# the injected "</script>": the page still works and the line is shown as text
root = load("inject.0")
body = root.find(lambda n: n.tag == "body")[0]
t = root.find(lambda n: n.tag == "title")
check(body.a.get("data-ready") == "1" and "data-js-error" not in body.a, "a </script> in the JSON broke the page")
check(t and t[0].all_text() != "pwned", "a </script> in the JSON ran a script")
src = by_id(root, "sec-source").all_text()
check("</script><script>document.title" in src, "the source line with </script> is not shown as text")
if not fails:
    print("ok   a </script> inside the JSON stays inside the data element")

# the interactions
root = load("interact.0")
body = root.find(lambda n: n.tag == "body")[0]
R = json.loads(body.a.get("data-test", "{}"))
check("error" not in R and "data-js-error" not in body.a, f"interactions: {R.get('error') or body.a.get('data-js-error')}")
T = json.load(open(f"{FX}/timing.json"))["view"]
check(R.get("launch0") == str(T["launches"][0]["warp_insts"]) and R.get("launch1") == str(T["launches"][1]["warp_insts"]),
      f"interactions: clicking launch 1 in the index did not select it ({R.get('launch0')}, {R.get('launch1')})")
n25 = len(next(l for l in T["launches"][1]["lines"] if l["line"] == 25)["pcs"])
check(R.get("ptxAfter") == n25 and R.get("selLine") == "25", f"interactions: clicking line 25 did not open its {n25} PTX rows ({R.get('ptxAfter')})")
check(R.get("memKind") == "shared" and R.get("banksWith2", 0) > 0, f"interactions: clicking a shared sample did not draw its banks ({R.get('memKind')})")
tl = [R.get("tl%d" % i) for i in range(6)]
check(len(set(tl[:5])) == 5, f"interactions: zoom in, pan, Ctrl+wheel and drag must each change the timeline's range: {tl}")
check(tl[5] == tl[0], f"interactions: reset did not restore the whole range ({tl[5]} != {tl[0]})")
check(R.get("tipShown") == "block" and "cycle" in R.get("tipText", ""), f"interactions: hovering the timeline shows no tooltip ({R.get('tipText')!r})")
check(R.get("div1") and R.get("hostKernel"), "interactions: divergence zoom or the host timeline's kernel")
check(R.get("launchAfterHost") == str(T["launches"][0]["warp_insts"]), "interactions: clicking a kernel in the host timeline did not select its launch")
check("launch=0" in R.get("hash", ""), f"interactions: the address does not name the launch ({R.get('hash')})")
print("ok   interactions: " + ", ".join(f"{k}={R[k]}" for k in ("tl0", "tl1", "tl2", "tl3", "tl4") if k in R))

# the stress page: drawn, and with no more drawing than pixels
root = load("stress.1")
body = root.find(lambda n: n.tag == "body")[0]
check(body.a.get("data-ready") == "1" and "data-js-error" not in body.a, f"stress: {body.a.get('data-js-error')}")
svg = by_id(root, "timeline-svg")
paths = [n for n in svg.walk() if n.tag == "path" and "data-state" in n.a]
rects = sum(n.a.get("d", "").count("z") for n in paths)
width = int(float(svg.a["width"]))
rows = len([n for n in svg.walk() if "slot-label" in n.a.get("class", "")])
check(rows == 128, f"stress: {rows} warp rows drawn, expected 128")
check(rects <= rows * width, f"stress: {rects} rectangles for {rows} rows of {width} pixels: more than one per pixel")
states = sum(len(x["states"]) for sp in json.load(open(f"{OUT}/stress.json"))["view"]["launches"][1]["timeline"]["subpartitions"] for x in sp["warps"])
tl = by_id(root, "sec-timeline")
print(f"ok   stress: 20,000 cycles x 128 warps ({states} stall intervals) drawn as {rects} rectangles in {len(paths)} paths; "
      f"page {body.a.get('data-render-ms')} ms, timeline {tl.a.get('data-build-ms')} ms (its first drawing {tl.a.get('data-draw-ms')} ms)")

# the bare view document gives the same page
root = load("bare.1")
check(root.find(lambda n: n.a.get("data-ready") == "1") and metric(by_id(root, "sec-summary"), "warp_insts"), "the bare view document's page")
sys.exit(1 if fails else 0)
PY
[ $? = 0 ] || fails=$((fails + 1))

# ---------------------------------------------------------------- screenshots
# name fixture launch hash width height: build/tests/view/NAME.png (and DIR/view-NAME.png with --docs DIR)
shots=(
  "overview timing 0 launch=0 1400 1500"
  "source timing 1 launch=1&solo=source 1400 900"
  "timeline timing 1 launch=1&solo=timeline 1400 900"
  "timeline-zoom timing 1 launch=1&solo=timeline&tl=700:780 1400 640"
  "blocks timing 1 launch=1&solo=blocks 1400 560"
  "divergence timing 1 launch=1&solo=divergence 1400 640"
  "memory-global timing 1 launch=1&solo=memory&mem=0 1400 620"
  "memory-shared timing 1 launch=1&solo=memory&mem=2 1400 660"
  "occupancy timing 1 launch=1&solo=occupancy 1400 520"
  "roofline timing 1 launch=1&solo=roofline 1400 520"
  "host timing 1 launch=1&solo=host 1400 520"
  "functional functional 0 launch=0 1400 1500"
)
[ -n "$DOCS" ] || shots=("${shots[0]}" "${shots[2]}" "${shots[11]}")
jobs=()
for s in "${shots[@]}"; do
  read -r name fx _ hash w h <<<"$s"
  chrome png "file://$OUT/$fx.html#$hash" "$OUT/$name.png" "$w" "$h" & jobs+=($!)
  if [ ${#jobs[@]} -ge 2 ]; then wait "${jobs[@]}"; jobs=(); fi
done
wait "${jobs[@]}" 2>/dev/null
for s in "${shots[@]}"; do
  read -r name _ <<<"$s"
  if [ -s "$OUT/$name.png" ]; then
    # pngquant (when installed) makes the pictures about a third of their size
    if [ -n "$DOCS" ]; then
      if command -v pngquant >/dev/null 2>&1; then pngquant --quality=70-95 --speed 1 --strip -f -o "$DOCS/view-$name.png" "$OUT/$name.png"
      else cp "$OUT/$name.png" "$DOCS/view-$name.png"; fi
    fi
  else bad "screenshot $name"; fi
done
ok "screenshots in $OUT${DOCS:+ and $DOCS/view-*.png}"

if [ "$fails" -eq 0 ]; then echo "view_page: all checks passed"; fi
[ "$fails" -eq 0 ]
