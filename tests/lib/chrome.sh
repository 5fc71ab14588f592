# chrome.sh - headless Chromium for the tests of the pages (sourced by tests/cli/view_page.sh, view_programs.sh).
# Sets CHROME to the browser found (empty when there is none) and defines chrome().

CHROME=
for c in chromium chromium-browser google-chrome google-chrome-stable; do
  command -v "$c" >/dev/null 2>&1 && { CHROME=$(command -v "$c"); break; }
done

# chrome MODE URL OUTFILE [W H [BUDGET_MS]]: the DOM after the page's scripts ran (MODE dom) or a screenshot (MODE
# png), each run with its own profile in $OUT so that runs in parallel (and other users' Chromium) share none
chrome() {
  local mode=$1 url=$2 out=$3 w=${4:-1400} h=${5:-1000} budget=${6:-8000} prof
  prof=$(mktemp -d "$OUT/profile.XXXXXX")
  local args=(--headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$prof"
              --virtual-time-budget="$budget" --window-size="$w,$h")
  if [ "$mode" = dom ]; then
    timeout 180 "$CHROME" "${args[@]}" --dump-dom "$url" >"$out" 2>"$out.log"
  else
    timeout 180 "$CHROME" "${args[@]}" --run-all-compositor-stages-before-draw --screenshot="$out" "$url" >"$out.log" 2>&1
  fi
  local rc=$?
  rm -rf "$prof"
  return $rc
}

# chrome_doms W H BUDGET_MS URL OUT [URL OUT ...]: the DOMs of several pages from one browser start
# (tests/lib/chrome_batch.py: the DevTools protocol over a pipe), each as `chrome dom URL OUT W H BUDGET_MS` gives it
chrome_doms() {
  local w=$1 h=$2 budget=$3 prof rc
  shift 3
  prof=$(mktemp -d "$OUT/profile.XXXXXX")
  timeout 600 python3 "$(dirname "${BASH_SOURCE[0]}")/chrome_batch.py" "$CHROME" "$prof" "$w" "$h" "$budget" "$@"
  rc=$?
  rm -rf "$prof"
  return $rc
}

# docs_png SRC DEST: a picture for docs/ (pngquant, when installed, makes it about a third of the size)
docs_png() {
  if command -v pngquant >/dev/null 2>&1; then pngquant --quality=70-95 --speed 1 --strip -f -o "$2" "$1"
  else cp "$1" "$2"; fi
}

# chrome_shots PREFIX BUDGET_MS "NAME PAGE LAUNCH HASH W H"...: screenshots $OUT/NAME.png of $OUT/PAGE.html#HASH,
# two at a time; with DOCS set, also $DOCS/PREFIX-NAME.png. A missing screenshot is a failure (bad NAME).
# Without DOCS (the test suite) only the first one is taken: the DOM checks cover the pages, and every browser run
# costs the suite about two CPU seconds; `make docs` takes them all.
chrome_shots() {
  local prefix=$1 budget=$2 s name page hash w h jobs=()
  shift 2
  [ -n "${DOCS:-}" ] || set -- "$1"
  for s in "$@"; do
    read -r name page _ hash w h <<<"$s"
    chrome png "file://$OUT/$page.html#$hash" "$OUT/$name.png" "$w" "$h" "$budget" & jobs+=($!)
    if [ ${#jobs[@]} -ge 2 ]; then wait "${jobs[@]}"; jobs=(); fi
  done
  wait "${jobs[@]}" 2>/dev/null
  for s in "$@"; do
    read -r name _ <<<"$s"
    if [ ! -s "$OUT/$name.png" ]; then bad "screenshot $name"
    elif [ -n "${DOCS:-}" ]; then docs_png "$OUT/$name.png" "$DOCS/$prefix-$name.png"; fi
  done
  ok "screenshots in $OUT${DOCS:+ and $DOCS/$prefix-*.png}"
}
