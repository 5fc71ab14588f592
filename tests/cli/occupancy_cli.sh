#!/usr/bin/env bash
# TIMEOUT: 60
# occupancy_cli.sh - `warpsim devices`, `warpsim occupancy` (calculator) and `warpsim advise`: output formats,
# exit statuses (2 for bad arguments, 1 when a block cannot run), user presets. One line per check; exit 0 on pass.
set -u
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null || (cd "$(dirname "$0")/../.." && pwd))
W=${WARPSIM:-$ROOT/build/warpsim}
export WARPSIM_DEVICES=$ROOT/devices
[ -x "$W" ] || { echo "FAIL  $W not built (run make)"; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-occcli-XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fails=0
checks=0

# expect DESC STATUS PATTERN... -- CMD...: run CMD, check its exit status and that stdout+stderr match each pattern
expect() {
    local desc=$1 want=$2
    shift 2
    local pats=()
    while [ "$1" != "--" ]; do pats+=("$1"); shift; done
    shift
    "$@" > "$TMP/out" 2>&1
    local rc=$? ok=1
    [ "$rc" = "$want" ] || ok=0
    for p in "${pats[@]}"; do grep -qE -- "$p" "$TMP/out" || { ok=0; echo "      missing: $p"; }; done
    checks=$((checks + 1))
    if [ $ok = 1 ]; then echo "PASS  $desc"; else fails=$((fails + 1)); echo "FAIL  $desc (status $rc, want $want)"; sed 's/^/      | /' "$TMP/out" | head -8; fi
}

expect "devices table lists every preset, h200 default" 0 '^h200 \*' '^teaching-sm ' '^two-core ' '^teaching-8lane ' \
    '^t4 ' '^v100 ' '^a100 ' '^rtx3050-laptop ' '^h100 ' -- "$W" devices
expect "devices --json" 0 '"default": "h200"' '"name": "t4"' '"sm_count": 132' -- "$W" devices --json
expect "devices NAME shows every field" 0 '^sm_count = 132' '^carveouts_kb = 0, 8, 16' '^smem_reserved_per_block = 1024' \
    -- "$W" devices h200
expect "devices unknown name" 1 "unknown device 'nope'" -- "$W" devices nope
expect "devices bad option" 2 "unknown option" -- "$W" devices --frob

expect "occupancy --json (issue format)" 0 '"blocks_per_sm": 2' '"warps_per_sm": 4' '"occupancy": 0.5' \
    '"limiter": "registers"' '"limits": \{"threads": 4, "blocks": 4, "registers": 2, "shared_memory": 4' -- \
    "$W" occupancy --gpu teaching-sm --threads 64 --regs 64 --smem 4K --json
expect "occupancy without --grid has no waves" 0 '"occupancy": 1,' -- \
    "$W" occupancy --gpu teaching-sm --threads 64 --regs 32 --smem 4096 --json
if grep -q '"waves"' "$TMP/out"; then echo "FAIL  waves printed without --grid"; fails=$((fails + 1)); fi
expect "occupancy --grid adds waves" 0 '"waves": 2' '"wave_utilization": 0.50189' '"waves_per_multiprocessor": 1.00378' -- \
    "$W" occupancy --gpu h200 --threads 1024 --regs 32 --smem 0 --grid 265 --json
expect "occupancy human table" 0 'occupancy +93.75%' 'limited by threads; registers ties' -- \
    "$W" occupancy --gpu h100 --threads 192 --regs 32 --smem 16KiB
expect "occupancy --opt=value form" 0 '"blocks_per_sm": 3' -- \
    "$W" occupancy --gpu=t4 --threads=256 --regs=80 --smem=0 --json
expect "occupancy: a block that cannot fit exits 1 with the reason" 1 '"blocks_per_sm": 0' \
    '"error": "1025 threads per block exceed' -- "$W" occupancy --gpu h200 --threads 1025 --regs 32 --smem 0 --json
expect "occupancy: shared memory beyond the opt-in maximum" 1 'cannot run: 233472 bytes of shared memory' -- \
    "$W" occupancy --gpu h200 --threads 256 --regs 32 --smem 228K
expect "occupancy --no-optin" 1 'without opting in' -- \
    "$W" occupancy --gpu h200 --threads 256 --regs 32 --smem 49153 --no-optin
expect "occupancy --carveout" 0 '"shared_memory_config": 135168' '"blocks_per_sm": 4' -- \
    "$W" occupancy --gpu h200 --threads 256 --regs 32 --smem 30K --carveout 50 --json
expect "occupancy bad number" 2 "--threads: invalid value 'abc'" -- "$W" occupancy --threads abc --regs 1 --smem 0
expect "occupancy zero threads" 2 "--threads: invalid value '0'" -- "$W" occupancy --threads 0 --regs 1 --smem 0
expect "occupancy bad smem unit" 2 "--smem: invalid value '4Q'" -- "$W" occupancy --threads 32 --regs 1 --smem 4Q
expect "occupancy missing --regs" 2 "missing --regs" -- "$W" occupancy --threads 32 --smem 0
expect "occupancy unknown option" 2 "unknown option '--frob'" -- "$W" occupancy --frob
expect "occupancy option without value" 2 "--regs needs a value" -- "$W" occupancy --threads 32 --regs
expect "occupancy unknown gpu" 2 "unknown device 'nope'" -- "$W" occupancy --gpu nope --threads 32 --regs 1 --smem 0
expect "occupancy calculator and program together" 2 "not both" -- "$W" occupancy --threads 32 ./prog
expect "occupancy unreadable program" 2 "cannot read" -- "$W" occupancy "$TMP/no-such-program"
expect "occupancy with no arguments" 2 "usage: warpsim occupancy" -- "$W" occupancy

expect "advise table and rule" 0 'Rule: highest efficiency' 'Recommended block size: 64' '^ +1024 +2 ' -- \
    "$W" advise --gpu h200 --regs 32 --smem 0 --elements 1000000
expect "advise --json with a disagreement" 0 '"recommended": 96' '"highest_occupancy": 64' '"disagreement": "the rule picks 96' -- \
    "$W" advise --gpu h200 --regs 32 --smem 0 --elements 300000 --json
expect "advise: block sizes that cannot run" 0 'cannot run: 512 threads per block exceed' -- \
    "$W" advise --gpu teaching-sm --regs 16 --smem 1K --elements 4096
expect "advise missing --elements" 2 "missing --elements" -- "$W" advise --regs 32 --smem 0
expect "advise bad --elements" 2 "--elements: invalid value '-5'" -- "$W" advise --regs 32 --smem 0 --elements -5

# a user's own device: a file with base = and an override, by path; an invalid file names file, line, field
cat > "$TMP/mygpu.preset" << EOF
base = $ROOT/devices/h100.preset   # start from the H100
sm_count = 114                     # an H100 PCIe has 114 SMs
EOF
expect "user preset by path (base + override)" 0 '"waves": 2' -- \
    "$W" occupancy --gpu "$TMP/mygpu.preset" --threads 1024 --regs 32 --smem 0 --grid 229 --json
printf 'base = %s/devices/h100.preset\nsm_count = many  # oops\n' "$ROOT" > "$TMP/bad.preset"
expect "invalid user preset: file:line: field" 2 "bad.preset:2: field 'sm_count': bad number 'many'" -- \
    "$W" occupancy --gpu "$TMP/bad.preset" --threads 32 --regs 1 --smem 0

echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
