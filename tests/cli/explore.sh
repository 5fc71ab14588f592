#!/usr/bin/env bash
# TIMEOUT: 900
# explore.sh - `warpsim explore`: runs every explorer with --json and --html, checks every number the teaching
# material's "Try it" explorers state (tests/cli/explore_check.py), renders each page in headless Chromium and
# checks that its elements exist and that the numbers it shows equal the JSON's, and saves a screenshot of the first
# page in build/tests/explore/ (with --docs DIR: of every page, also as DIR/explore-NAME.png: `make docs`). An explorer that exits with
# status 3 (the runtime collects no view data) is a SKIP line; the rest still run. Exit 77 when nvcc, python3 or
# chromium is missing.
#   tests/cli/explore.sh [--docs DIR]
set -u
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null || (cd "$(dirname "$0")/../.." && pwd))
W=${WARPSIM:-$ROOT/build/warpsim}
export WARPSIM_DEVICES=$ROOT/devices
export WARPSIM_EXPLORE_DIR=${WARPSIM_EXPLORE_DIR:-$ROOT/explore}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || { echo "nvcc not found (\$NVCC=$NVCC)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 77; }
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
[ -n "$CHROMIUM" ] || { echo "chromium not found (\$CHROMIUM)"; exit 77; }
[ -x "$W" ] || { echo "FAIL  $W not built (run make)"; exit 1; }
DOCS=
[ "${1:-}" = --docs ] && DOCS=${2:?--docs needs a folder}
SHOTS=$ROOT/build/tests/explore
rm -rf "$SHOTS"; mkdir -p "$SHOTS"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-explore-XXXXXX")
trap 'rm -rf "$TMP"' EXIT
. "$ROOT/tests/lib/chrome.sh"   # chrome_doms, docs_png
fails=0
cases=()

# run CASE ARGS...: warpsim explore ARGS --json --html, the DOM chromium renders of the page
run() {
    local c=$1
    shift
    "$W" explore "$@" --json --html "$TMP/$c.html" > "$TMP/$c.json" 2> "$TMP/$c.err"
    local rc=$?
    if [ $rc = 3 ]; then
        echo "SKIP  $c: $(tail -1 "$TMP/$c.err")"
        return
    fi
    if [ $rc != 0 ]; then
        echo "FAIL  warpsim explore $* (status $rc)"
        sed 's/^/      | /' "$TMP/$c.err" | tail -12
        fails=$((fails + 1))
        return
    fi
    echo "PASS  warpsim explore $* --json --html"
    # the page with one line added that writes down its height (for the screenshot); its DOM comes from doms
    { cat "$TMP/$c.html"; echo '<script>document.body.setAttribute("data-height", document.documentElement.scrollHeight)</script>'; } > "$TMP/$c.m.html"
    cases+=("$c")
}

# doms: the DOMs of every page from one browser start (tests/lib/chrome.sh), then the screenshots: the first
# page's only in the suite (a browser run costs about two CPU seconds), every page's with --docs
doms() {
    local c pages=()
    for c in "${cases[@]}"; do pages+=("file://$TMP/$c.m.html" "$TMP/$c.dom"); done
    [ ${#pages[@]} -gt 0 ] && OUT=$TMP CHROME=$CHROMIUM chrome_doms 1280 800 5000 "${pages[@]}"
    for c in "${cases[@]}"; do
        [ -s "$TMP/$c.dom" ] || { echo "FAIL  $c: chromium rendered nothing"; fails=$((fails + 1)); }
        if [ -n "$DOCS" ] || [ "$c" = "${cases[0]}" ]; then shot "$c"; fi
    done
}

# shot CASE: a screenshot of the page as tall as its DOM said it is, in $SHOTS/CASE.png (and $DOCS/explore-CASE.png)
shot() {
    local c=$1 h
    h=$(grep -o 'data-height="[0-9]*"' "$TMP/$c.dom" | grep -o '[0-9]*' | head -1)
    [ -n "$h" ] || h=1400
    [ "$h" -gt 4000 ] && h=4000
    # tests/lib/chrome.sh's chrome: a profile of its own (a browser on the default profile would hand the page to
    # another test's running Chromium and wait for ever) and a time limit; tried twice
    OUT=$TMP CHROME=$CHROMIUM chrome png "file://$TMP/$c.html" "$SHOTS/$c.png" 1280 "$h" 5000 ||
        OUT=$TMP CHROME=$CHROMIUM chrome png "file://$TMP/$c.html" "$SHOTS/$c.png" 1280 "$h" 5000
    if [ ! -s "$SHOTS/$c.png" ]; then echo "FAIL  $c: no screenshot"; fails=$((fails + 1)); return; fi
    echo "PASS  $c: screenshot $SHOTS/$c.png (1280 x $h)"
    if [ -n "$DOCS" ]; then docs_png "$SHOTS/$c.png" "$DOCS/explore-$c.png"; fi
}

run map map
run fit fit
run latency latency
run latency16 latency --latency 16 --warps 1,16
run divergence divergence
run sectors sectors
run banks banks
run tile tile
run roofline roofline
run placement placement
run rare-branch rare-branch
run launch launch
run occupancy occupancy
doms

# the list, the usage errors
"$W" explore > "$TMP/list" 2>&1
n=$(grep -cE '^  (map|fit|latency|divergence|sectors|banks|tile|roofline|placement|rare-branch|launch|occupancy) ' "$TMP/list")
if [ "$n" = 12 ]; then echo "PASS  warpsim explore lists the 12 explorers"; else echo "FAIL  warpsim explore lists $n of 12"; fails=$((fails + 1)); fi
"$W" explore nope > "$TMP/out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "unknown explorer 'nope'" "$TMP/out"; then echo "PASS  unknown explorer: status 2"; else echo "FAIL  unknown explorer (status $rc)"; fails=$((fails + 1)); fi
"$W" explore fit --regs 33 > "$TMP/out" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q "24, 32, 40, 48, 64, 96 or 128" "$TMP/out"; then echo "PASS  fit --regs 33: says which register counts exist"; else echo "FAIL  fit --regs 33 (status $rc)"; fails=$((fails + 1)); fi
"$W" explore banks --column 9 > "$TMP/out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q -- "--column: 9 is outside 0 to 7" "$TMP/out"; then echo "PASS  banks --column 9: out of range, status 2"; else echo "FAIL  banks --column 9 (status $rc)"; fails=$((fails + 1)); fi

if [ ${#cases[@]} -gt 0 ]; then python3 "$ROOT/tests/cli/explore_check.py" "$TMP" "${cases[@]}" || fails=$((fails + 1)); fi
[ "$fails" = 0 ]
