#!/usr/bin/env bash
# golden.sh - the PTX front end below nvcc: every tests/golden/NAME.ptx (hand-written, or made by nvcc from our
# own kernels) is decoded by `warpsim ptx` and its output (stdout and stderr, then "exit N") must equal
# tests/golden/NAME.expected byte for byte: the decoded listing (operands, modifiers, branch targets,
# reconvergence points, pipes, latency classes) or the error (file, line, opcode).
# A line "// ARGS: ..." in the .ptx adds options (e.g. --layout). GOLDEN_UPDATE=1 rewrites the expectations.
# TIMEOUT: 120
set -u
cd "$(dirname "$0")/../.." || exit 2
WARPSIM=${WARPSIM:-build/warpsim}
case "$WARPSIM" in /*) ;; *) WARPSIM="$PWD/$WARPSIM" ;; esac
[ -x "$WARPSIM" ] || { echo "no simulator at $WARPSIM"; exit 1; }
fails=0; n=0
for ptx in tests/golden/*.ptx; do
    name=${ptx%.ptx}
    exp=$name.expected
    args=$(grep -m1 '^// ARGS:' "$ptx" | sed 's|^// ARGS:[[:space:]]*||')
    # shellcheck disable=SC2086
    out=$(cd tests/golden && "$WARPSIM" ptx $args "$(basename "$ptx")" 2>&1; echo "exit $?")
    n=$((n + 1))
    if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then printf '%s\n' "$out" > "$exp"; echo "updated $exp"; continue; fi
    if [ ! -f "$exp" ]; then echo "FAIL  $ptx: no $exp"; fails=$((fails + 1)); continue; fi
    if [ "$(cat "$exp")" = "$out" ]; then echo "ok    $ptx"
    else
        echo "FAIL  $ptx: output differs from $exp:"
        diff <(printf '%s\n' "$out") "$exp" | head -20 | sed 's/^/      /'
        fails=$((fails + 1))
    fi
done
[ "$n" -gt 0 ] || { echo "FAIL  no golden files"; exit 1; }
echo "$n golden files, $fails failed"
[ "$fails" -eq 0 ]
