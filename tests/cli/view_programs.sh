#!/usr/bin/env bash
# TIMEOUT: 600
# view_programs.sh - `warpsim run --view` on real seed programs (the tiled matmul, the transpose with and without
# padding, the streams program; matmul in functional mode too), each page opened from disk in headless Chromium:
#   - the program still passes its own checks, and the page and the run report come from the same run;
#   - the page finishes drawing without a script error, and every number it shows equals the report's "view"
#     (tests/cli/view_check.py, the same checks as the fixtures' pages), for chosen launches of each program;
#   - what the seed teaches shows on the page: the unpadded tile[32][32] transpose has bank conflicts, the padded
#     tile[32][33] none; the column-wise copy needs more sectors per request than the row-wise one; the streams
#     program's kernels run on several streams;
#   - `warpsim view REPORT.json` rebuilds a page with the same data;
#   - a launch of 10^5 blocks (tests/timing/many_blocks.cu) in timing mode: --view adds at most 64 MiB to the
#     program's largest resident set, the timeline stays within its bound, the page draws the blocks per pixel;
#   - a screenshot in build/tests/view-programs/ (with --docs DIR: all of them, as DIR/view-program-*.png: `make docs`).
# Exits 77 (skipped) when chromium, python3 or nvcc is missing.
#
#   tests/cli/view_programs.sh [--docs DIR]
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
case "$WARPSIM" in /*) ;; *) WARPSIM="$PWD/$WARPSIM" ;; esac
OUT=$PWD/build/tests/view-programs
DOCS=
[ "${1:-}" = --docs ] && DOCS=${2:?--docs needs a folder}
command -v python3 >/dev/null 2>&1 || { echo "view_programs: python3 not found"; exit 77; }
command -v nvcc >/dev/null 2>&1 || { echo "view_programs: nvcc not found"; exit 77; }
. tests/lib/chrome.sh
[ -n "$CHROME" ] || { echo "view_programs: chromium not found"; exit 77; }
[ -x "$WARPSIM" ] || { echo "view_programs: no simulator at $WARPSIM"; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }

# ---------------------------------------------------------------- the runs
# name program mode
runs=("matmul matmul --timing" "transpose transpose --timing" "streams streams --timing" "matmul-functional matmul --mode=functional")
. tests/lib/progs.sh   # compile_one: the programs' binaries are the ones the suite's program tests run
for p in matmul transpose streams; do compile_one "$p" || { cat "$BINDIR/$p.log"; exit 1; }; done
for r in "${runs[@]}"; do
  read -r name prog mode <<<"$r"
  if "$WARPSIM" run "$mode" --quiet --view "$OUT/$name.html" --report "$OUT/$name.json" "$BINDIR/$prog" \
       >"$OUT/$name.out" 2>"$OUT/$name.err" && grep -q "^PASS $prog" "$OUT/$name.out" && [ -s "$OUT/$name.html" ]; then
    ok "$prog ($mode) passes with --view: $(wc -c <"$OUT/$name.html") bytes of page"
  else
    bad "$prog ($mode) with --view"; tail -5 "$OUT/$name.err" "$OUT/$name.out"
  fi
done

# ---------------------------------------------------------------- a launch of 10^5 blocks: bounded memory
# the largest resident set of the run (the program's process) with and without --view, in KiB
maxrss() { python3 -c 'import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r == 0 else -1)' "$@"; }
nvcc -cudart shared -lineinfo -o "$OUT/many_blocks" tests/timing/many_blocks.cu || bad "nvcc many_blocks.cu"
plain=$(maxrss "$WARPSIM" run --timing --quiet "$OUT/many_blocks" 100000)
viewed=$(maxrss "$WARPSIM" run --timing --quiet --view "$OUT/many.html" --view-json "$OUT/many.json" "$OUT/many_blocks" 100000)
if [ "$plain" -gt 0 ] && [ "$viewed" -gt 0 ] && [ $((viewed - plain)) -le 65536 ]; then
  ok "10^5 blocks in timing mode: $plain KiB without --view, $viewed KiB with it (+$(( (viewed - plain) / 1024 )) MiB; bound 64 MiB)"
else bad "10^5 blocks: $plain KiB without --view, $viewed KiB with it (more than 64 MiB more, or a failed run)"; fi

# ---------------------------------------------------------------- the DOMs
# name launch: the launches checked (a small and a large tiled matmul; the four transpose variants at 256 x 256;
# two streams' vecAdd, produce and the large vecAdd; a functional matmul)
checks=("matmul 1" "matmul 9" "transpose 0" "transpose 1" "transpose 2" "transpose 3" "streams 0" "streams 4"
        "streams 6" "matmul-functional 9")
pages=()
for c in "${checks[@]}"; do
  read -r name li <<<"$c"
  pages+=("file://$OUT/$name.html#launch=$li&open=all" "$OUT/$name.$li.dom")
done
pages+=("file://$OUT/many.html#launch=0" "$OUT/many.0.dom")
chrome_doms 1400 1000 15000 "${pages[@]}" || bad "a page's DOM (see above)"
# warpsim view rebuilds the page from the saved report
"$WARPSIM" view -o "$OUT/rebuilt.html" "$OUT/transpose.json" 2>"$OUT/rebuilt.err" || bad "warpsim view transpose.json"

python3 - "$OUT" "${checks[@]}" <<'PY'
import json, re, sys
sys.path.insert(0, "tests/cli")
import view_check as vc
from view_check import check, load, by_id, metric

OUT = sys.argv[1]
vc.OUT = OUT
reports = {}
for arg in sys.argv[2:]:
    name, li = arg.split()
    if name not in reports:
        reports[name] = json.load(open(f"{OUT}/{name}.json"))
    vc.check_page(f"{name}.{li}", reports[name], int(li))


def embedded(path):
    """the view JSON a page carries"""
    t = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="warpsim-data">(.*?)</script>', t, re.S)
    return json.loads(m.group(1)) if m else None


# the page written by --view carries the report's view; warpsim view's page the same
T = reports["transpose"]
check(embedded(f"{OUT}/transpose.html") == T["view"], "the --view page's data differ from the report's view")
check(embedded(f"{OUT}/rebuilt.html") == T["view"], "warpsim view's page data differ from the report's view")


def launch_sum(L, space, key):
    return sum(p.get(space, {}).get(key, 0) for p in L["ptx"])


# the seed's lessons, as the page shows them
V = T["view"]["launches"]
names = [L["name"] for L in V[:4]]
check(names[0].startswith("copyRowWise") and names[1].startswith("copyColumnWise") and "transposeTile<0>" in names[2]
      and "transposeTile<1>" in names[3], f"transpose launches: {names}")
shown = {}
for li in range(4):
    sm = by_id(load(f"transpose.{li}"), "sec-summary")
    shown[li] = {k: float(metric(sm, k)[0].a["data-value"]) for k in ("bank_conflicts", "global_requests", "global_sectors")}
check(shown[2]["bank_conflicts"] > 0 and shown[2]["bank_conflicts"] == launch_sum(V[2], "shared", "conflicts"),
      f"tile[32][32]: the page shows {shown[2]['bank_conflicts']} bank conflicts")
check(shown[3]["bank_conflicts"] == 0, f"tile[32][33] (padded): the page shows {shown[3]['bank_conflicts']} bank conflicts, not 0")
spr = {li: shown[li]["global_sectors"] / shown[li]["global_requests"] for li in (0, 1)}
check(spr[1] > 2 * spr[0], f"column-wise copy {spr[1]:.2f} sectors per request against row-wise {spr[0]:.2f}")
print(f"ok   transpose: {shown[2]['bank_conflicts']:.0f} bank conflicts unpadded, 0 padded; sectors per request "
      f"{spr[0]:.2f} row-wise, {spr[1]:.2f} column-wise")
S = reports["streams"]["view"]["host"]
ks = {e.get("stream") for e in S["events"] if e["kind"] == "kernel"}
check(len(ks) >= 3, f"streams: kernels on streams {sorted(ks)}")
root = load("streams.0")
rows = {n.a.get("data-stream") or "" for n in by_id(root, "sec-host").walk() if n.a.get("data-kind") == "kernel"}
check({str(k) for k in ks} <= rows, f"streams: kernels drawn on streams {sorted(rows)}, the data has {sorted(ks)}")
print(f"ok   streams: kernels on {len(ks)} streams drawn on their rows")
sys.exit(1 if vc.failures() else 0)
PY
[ $? = 0 ] || fails=$((fails + 1))

# ---------------------------------------------------------------- the 10^5-block page (runs above)
python3 - "$OUT" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
import view_check as vc
OUT = sys.argv[1]
vc.OUT = OUT
V = json.load(open(f"{OUT}/many.json"))
L = V["launches"][0]
n = len(L["blocks"]["items"])
vc.check(n == 100000 and not L["blocks"]["truncated"], f"10^5 blocks: {n} block entries")
ent = sum(len(sp["issues"]) + sum(len(w["states"]) for w in sp["warps"]) for sp in L["timeline"]["subpartitions"])
vc.check(ent <= 400000, f"10^5 blocks: {ent} timeline entries, more than the bound of 400,000")
root = vc.load("many.0")
body = root.find(lambda x: x.tag == "body")[0]
vc.check(body.a.get("data-ready") == "1" and "data-js-error" not in body.a, f"10^5 blocks: the page: {body.a.get('data-js-error')}")
svg = vc.by_id(root, "blocks-svg")
vc.check(svg is not None and svg.a.get("data-dense") == "1" and svg.a.get("data-visible") == "100000",
         "10^5 blocks: the blocks are not drawn per pixel")
bl = vc.by_id(root, "sec-blocks")
print(f"ok   10^5 blocks: {n} block entries, {ent} timeline entries; the page drew its blocks per pixel in "
      f"{bl.a.get('data-build-ms')} ms" if not vc.failures() else "FAIL 10^5 blocks")
sys.exit(1 if vc.failures() else 0)
PY
[ $? = 0 ] || fails=$((fails + 1))

# ---------------------------------------------------------------- screenshots
# name page launch hash width height
shots=(
  "matmul matmul 9 launch=9 1400 2600"
  "transpose-conflicts transpose 2 launch=2&solo=source 1400 700"
  "transpose-padded transpose 3 launch=3&solo=source 1400 700"
  "transpose-banks transpose 2 launch=2&solo=memory&mem=8 1400 660"
  "streams-host streams 0 launch=0&solo=host 1400 560"
  "streams-timeline streams 6 launch=6&solo=timeline 1400 900"
  "many-blocks many 0 launch=0&solo=blocks 1400 900"
)
chrome_shots view-program 15000 "${shots[@]}"

[ "$fails" -eq 0 ] && echo "view_programs: all checks passed"
[ "$fails" -eq 0 ]
