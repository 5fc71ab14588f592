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
#   - a screenshot in build/tests/view/ (with --docs DIR: all of them, the docs/view-*.png pictures: `make docs`).
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
. tests/lib/chrome.sh
[ -n "$CHROME" ] || { echo "view_page: chromium not found"; exit 77; }
[ -x "$WARPSIM" ] || { echo "view_page: no simulator at $WARPSIM"; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"
FX=tests/data/view
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }

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
pages=()
dom() { pages+=("file://$OUT/$1#$2" "$OUT/$3.dom"); }
dom functional.html "launch=0&open=all" functional.0
dom timing.html "launch=0&open=all" timing.0
dom functional.html "launch=1&open=all" functional.1
dom timing.html "launch=1&open=all" timing.1
dom inject.html "launch=0" inject.0
dom interact.html "launch=0" interact.0
dom stress.html "launch=1" stress.1
dom bare.html "launch=1" bare.1
chrome_doms 1400 1000 8000 "${pages[@]}" || { echo "FAIL a page's DOM (see above)"; fails=$((fails + 1)); }

python3 - "$OUT" "$FX" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
import view_check as vc
from view_check import check, load, by_id, metric
OUT, FX = sys.argv[1], sys.argv[2]
vc.OUT = OUT
check_page = vc.check_page


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
if not vc.failures():
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
sys.exit(1 if vc.failures() else 0)
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
chrome_shots view 8000 "${shots[@]}"

if [ "$fails" -eq 0 ]; then echo "view_page: all checks passed"; fi
[ "$fails" -eq 0 ]
