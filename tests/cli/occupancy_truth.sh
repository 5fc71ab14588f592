#!/usr/bin/env bash
# TIMEOUT: 300
# occupancy_truth.sh - `warpsim occupancy --gpu h200` against what Nsight Compute reported on a real H200 for the
# 31 benchmarks of tests/data/h200 (theoretical occupancy, registers per thread, waves per SM), and ptxas's
# registers / shared memory per kernel against tests/data/h200/ptxas.txt.
#
# 1. builds truth.cu into build/truth (tests/lib/truth_build.sh) and reads every kernel's registers and static
#    shared memory with `warpsim occupancy --gpu h200 --no-run --json build/truth` (PTX extracted from the
#    program's fatbin, ptxas -arch=sm_90); checks them against ptxas.txt;
# 2. for each benchmark, the launch configuration truth.cu uses at the benches.txt small size (the size ncu
#    measured) goes through `warpsim occupancy --gpu h200 --threads --regs --smem --grid --barriers --json`,
#    compared with ncu_summary.csv;
# 3. `warpsim occupancy --gpu h200 --json build/truth NAME SIZE 1` for a few benchmarks: the launch configurations
#    recorded by `warpsim run` must give the same numbers (WARPSIM_TRUTH_DYNAMIC=0 leaves this part out, =all runs
#    every benchmark; WARPSIM_TRUTH_TIMEOUT seconds per run: a run that does not finish in time fails).
# One line per check; exits 0 when every check passed, 77 (skipped) when nvcc or the data is missing.
set -u
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null || (cd "$(dirname "$0")/../.." && pwd))
TRUTH=${WARPSIM_TRUTH_DIR:-$ROOT/tests/data/h200}
WARPSIM=${WARPSIM:-$ROOT/build/warpsim}
BUILD=$ROOT/build
TIMEOUT=${WARPSIM_TRUTH_TIMEOUT:-60}   # seconds per simulated run
export WARPSIM_DEVICES=${WARPSIM_DEVICES:-$ROOT/devices}

fails=0
checks=0
pass() { checks=$((checks + 1)); echo "PASS  $*"; }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL  $*"; }
skip() { echo "SKIP  $*"; }

for f in ncu_summary.csv ptxas.txt truth.cu benches.txt; do
    [ -f "$TRUTH/$f" ] || { echo "SKIP  $TRUTH/$f not found (the H200 data of tests/data/h200 is missing)"; exit 77; }
done
[ -x "$WARPSIM" ] || { echo "FAIL  $WARPSIM not built (run make)"; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-truth-XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# ---- ncu_summary.csv: name -> occupancy %, registers per thread, waves per SM ----
# CSV with quoted fields that hold thousands separators ("1,409,024"): drop commas inside quotes, then the quotes
awk -f "$ROOT/tests/lib/ncu_plain.awk" "$TRUTH/ncu_summary.csv" > "$TMP/ncu.csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         { print $col["name"], $col["sm__maximum_warps_per_active_cycle_pct"], $col["launch__registers_per_thread"],
                 $col["launch__waves_per_multiprocessor"] }' "$TMP/ncu.csv" > "$TMP/ncu.txt"
[ "$(wc -l < "$TMP/ncu.txt")" -ge 30 ] || { echo "FAIL  could not read $TRUTH/ncu_summary.csv"; exit 1; }

# ---- ptxas.txt: mangled kernel -> registers, static smem, barriers ----
awk '/Compiling entry function/ { match($0, /function .[^'"'"']*/); k = substr($0, RSTART + 10, RLENGTH - 10) }
     /Used [0-9]+ registers/ && k != "" {
         r = $0; sub(/.*Used /, "", r); sub(/ registers.*/, "", r)
         s = 0; if ($0 ~ /bytes smem/) { s = $0; sub(/ bytes smem.*/, "", s); sub(/.* /, "", s) }
         b = 0; if ($0 ~ /used [0-9]+ barriers/) { b = $0; sub(/.*used /, "", b); sub(/ barriers.*/, "", b) }
         print k, r, s, b; k = "" }' "$TRUTH/ptxas.txt" > "$TMP/ptxas_ref.txt"

# ---- the launch configurations truth.cu uses (read from truth.cu), at the benches.txt small sizes ----
# benchmark  kernel  threads_per_block  dynamic_smem  grid_blocks(size)
size_of() { awk -v n="$1" '$1 == n { print $2 }' "$TRUTH/benches.txt"; }
config() { # name -> "kernel threads dyn grid"
    local n=$1 s
    s=$(size_of "$n")
    case $n in
    vec_add)        echo "_Z7vec_addPKfS0_Pfi 256 0 $(((s + 255) / 256))" ;;
    strided*)       echo "_Z12strided_readPKfPfii 256 0 $(((s + 255) / 256))" ;;
    copy_row)       echo "_Z8copy_rowPKfPfii 256 0 $((((s + 31) / 32) * ((s + 7) / 8)))" ;;
    copy_col)       echo "_Z8copy_colPKfPfii 256 0 $((((s + 31) / 32) * ((s + 7) / 8)))" ;;
    matmul_naive)   echo "_Z12matmul_naivePKfS0_Pfiii 256 0 $((((s + 15) / 16) ** 2))" ;;
    matmul_t16)     echo "_Z12matmul_tiledILi16EEvPKfS1_Pfiii 256 0 $((((s + 15) / 16) ** 2))" ;;
    matmul_t32)     echo "_Z12matmul_tiledILi32EEvPKfS1_Pfiii 1024 0 $((((s + 31) / 32) ** 2))" ;;
    transpose_pad0) echo "_Z14transpose_smemILi0EEvPKfPfi 256 0 $((((s + 31) / 32) ** 2))" ;;
    transpose_pad1) echo "_Z14transpose_smemILi1EEvPKfPfi 256 0 $((((s + 31) / 32) ** 2))" ;;
    diverge_lane)   echo "_Z7divergeILi0EEvPfi 128 0 $(((s + 127) / 128))" ;;
    diverge_warp)   echo "_Z7divergeILi1EEvPfi 128 0 $(((s + 127) / 128))" ;;
    dot_tree)       echo "_Z8dot_treeILi256EEvPKfS1_Pfi 256 0 $(((s + 255) / 256))" ;;
    dot_shfl)       echo "_Z8dot_shflPKfS0_Pfi 256 0 1024" ;;
    hist_global)    echo "_Z11hist_globalPKhPji 256 0 $(((s + 255) / 256))" ;;
    hist_shared)    echo "_Z11hist_sharedPKhPji 256 0 264" ;;
    heat_1000)      echo "_Z9heat_stepPKfPfif 256 0 $(((s + 255) / 256))" ;;
    conv_basic)     echo "_Z10conv_basicPKfPfi 256 0 $(((s + 255) / 256))" ;;
    conv_tiled)     echo "_Z10conv_tiledPKfPfi 256 $(((256 + 2 * 2) * 4)) $(((s + 255) / 256))" ;;
    spmv_scalar*)   echo "_Z11spmv_scalariPKiS0_PKfS2_Pf 256 0 $(((s + 255) / 256))" ;;
    spmv_vector*)   echo "_Z11spmv_vectoriPKiS0_PKfS2_Pf 256 0 $(((s * 32 + 255) / 256))" ;;
    occ*)           echo "_Z8occ_copyPK6float4PS_i 256 $((${n#occ} * 1024)) $((132 * 8))" ;;
    *)              echo "" ;;
    esac
}

# Extract a numeric JSON member from a one-line JSON object: jnum KEY < line
jnum() { sed -n -E "s/.*\"$1\": (-?[0-9.eE+-]+|null).*/\1/p" | head -1; }

# ---- 1. registers and shared memory per kernel from the program itself ----
bash "$ROOT/tests/lib/truth_build.sh" > "$TMP/truth_build.log" 2>&1
rc=$?
if [ "$rc" != 0 ]; then
    cat "$TMP/truth_build.log"
    [ "$rc" = 77 ] && exit 77
    echo "FAIL  could not build build/truth: $(tail -1 "$TMP/truth_build.log")"
    exit 1
fi
if ! "$WARPSIM" occupancy --gpu h200 --no-run --json "$BUILD/truth" > "$TMP/kernels.json" 2> "$TMP/kernels.err"; then
    echo "FAIL  warpsim occupancy --no-run build/truth failed: $(tail -3 "$TMP/kernels.err")"
    exit 1
fi
grep '"kernel": "' "$TMP/kernels.json" | sed -E 's/.*"kernel": "([^"]*)".*"registers": ([0-9]+),.*"static_smem": ([0-9]+), "barriers": ([0-9]+).*/\1 \2 \3 \4/' > "$TMP/ptxas_ours.txt"

# ptxas's reports are kept on disk ($WARPSIM_PTXAS_CACHE): the second command reads what the first wrote (a report
# edited in the cache shows in its answer), and an empty WARPSIM_PTXAS_CACHE keeps nothing
C=$TMP/ptxas-cache
WARPSIM_PTXAS_CACHE=$C "$WARPSIM" occupancy --gpu h200 --no-run --json "$BUILD/truth" > "$TMP/c1.json" 2>&1
cf=$(ls "$C"/*.txt 2>/dev/null | head -1)
ck=$([ -n "$cf" ] && awk '/Compiling entry function/ { match($0, /function .[^'"'"']*/); k = substr($0, RSTART + 10, RLENGTH - 10) }
                         /Used [0-9]+ registers/ && k != "" { print k; exit }' "$cf")
if [ -n "$ck" ] && cmp -s "$TMP/c1.json" "$TMP/kernels.json"; then
    sed -i '0,/Used [0-9]* registers/s//Used 248 registers/' "$cf"
    WARPSIM_PTXAS_CACHE=$C "$WARPSIM" occupancy --gpu h200 --no-run --json "$BUILD/truth" > "$TMP/c2.json" 2>&1
    WARPSIM_PTXAS_CACHE= "$WARPSIM" occupancy --gpu h200 --no-run --json "$BUILD/truth" > "$TMP/c3.json" 2>&1
    got=$(grep "\"kernel\": \"$ck\"" "$TMP/c2.json" | sed -E 's/.*"registers": ([0-9]+),.*/\1/')
    if [ "$got" = 248 ] && cmp -s "$TMP/c3.json" "$TMP/kernels.json" && [ "$(ls "$C" | wc -l)" = 1 ]; then
        pass "ptxas's report kept on disk: a second command reads it ($ck: the edited 248 registers), none kept when WARPSIM_PTXAS_CACHE is empty"
    else
        fail "ptxas's report cache: $ck shows '$got' registers after the cached report was edited to 248 (or an uncached run differs)"
    fi
else
    fail "ptxas's report cache: no report in $C after a run, or the cached run's answer differs ($(ls "$C" 2>&1 | head -2))"
fi
n=0
while read -r k r s b; do
    n=$((n + 1))
    got=$(awk -v k="$k" '$1 == k { print $2, $3, $4 }' "$TMP/ptxas_ours.txt")
    if [ "$got" = "$r $s $b" ]; then
        pass "ptxas sm_90 $k: $r registers, $s bytes smem, $b barriers (ptxas.txt: $r, $s, $b)"
    else
        fail "ptxas sm_90 $k: warpsim says '${got:-missing}', ptxas.txt says '$r $s $b' (registers smem barriers)"
    fi
done < "$TMP/ptxas_ref.txt"
[ "$n" -ge 20 ] || fail "ptxas.txt lists only $n kernels"
REGS_SRC=$TMP/ptxas_ours.txt

# ---- 2. occupancy, registers, waves at each benchmark's launch configuration ----
while read -r name pct regs_ncu waves_ncu; do
    cfg=$(config "$name")
    if [ -z "$cfg" ]; then fail "$name: no launch configuration known for this benchmark"; continue; fi
    set -- $cfg
    kernel=$1 threads=$2 dyn=$3 grid=$4
    line=$(awk -v k="$kernel" '$1 == k { print $2, $3, $4 }' "$REGS_SRC")
    if [ -z "$line" ]; then fail "$name: kernel $kernel not in the ptxas report"; continue; fi
    set -- $line
    regs=$1 smem=$(($2 + dyn)) bars=$3
    out=$("$WARPSIM" occupancy --gpu h200 --threads "$threads" --regs "$regs" --smem "$smem" --grid "$grid" \
          --barriers "$bars" --json 2>&1)
    occ=$(echo "$out" | jnum occupancy)
    rpt=$(echo "$out" | jnum registers_per_thread)
    wps=$(echo "$out" | jnum waves_per_multiprocessor)
    verdict=$(awk -v o="$occ" -v p="$pct" -v r="$rpt" -v rn="$regs_ncu" -v w="$wps" -v wn="$waves_ncu" 'BEGIN {
        ok = (o != "" && w != "" && (o * 100 - p) < 0.005 && (p - o * 100) < 0.005 && r == rn)
        wr = sprintf("%.2f", w) + 0; ok = ok && (wr - wn < 0.0001 && wn - wr < 0.0001)
        print ok ? "ok" : "bad" }')
    msg=$(printf "%-15s %-38s %4d thr %6d B %5d blocks: occupancy %s%%, %s regs, %s waves/SM (ncu: %s%%, %s, %s)" \
          "$name" "$kernel" "$threads" "$smem" "$grid" "$(awk -v o="${occ:-0}" 'BEGIN{printf "%.2f", o*100}')" \
          "${rpt:-?}" "$(awk -v w="${wps:-0}" 'BEGIN{printf "%.2f", w}')" "$pct" "$regs_ncu" "$waves_ncu")
    if [ "$verdict" = ok ]; then pass "$msg"; else fail "$msg"; fi
done < "$TMP/ncu.txt"

# ---- 3. the launch configurations the program really uses, recorded by the simulator ----
dynamic=${WARPSIM_TRUTH_DYNAMIC:-some}
if [ "$dynamic" = 0 ]; then
    skip "running truth under the simulator (WARPSIM_TRUTH_DYNAMIC=0)"
else
    if [ "$dynamic" = all ]; then list=$(awk '{ print $1 }' "$TMP/ncu.txt")
    else list="matmul_t32 occ48 conv_tiled hist_shared spmv_vector4"; fi
    for name in $list; do
        size=$(size_of "$name")
        timeout "$TIMEOUT" "$WARPSIM" occupancy --gpu h200 --json "$BUILD/truth" "$name" "$size" 1 \
            > "$TMP/run.json" 2> "$TMP/run.err"
        rc=$?
        if [ "$rc" = 124 ]; then
            fail "$name $size did not finish within ${TIMEOUT}s under the simulator"
            continue
        fi
        if ! grep -q '"ok": true' "$TMP/run.json" 2>/dev/null || ! grep -q '"threads_per_block"' "$TMP/run.json"; then
            fail "$name $size under the simulator: status $rc $(grep -o '"error": "[^"]*"' "$TMP/run.json" 2>/dev/null | head -1) $(tail -2 "$TMP/run.err")"
            continue
        fi
        set -- $(config "$name")
        kernel=$1 threads=$2 dyn=$3 grid=$4
        read -r pct regs_ncu waves_ncu <<< "$(awk -v n="$name" '$1 == n { print $2, $3, $4 }' "$TMP/ncu.txt")"
        line=$(grep "\"kernel\": \"$kernel\"" "$TMP/run.json" | grep '"threads_per_block"' | head -1)
        occ=$(echo "$line" | jnum occupancy)
        rpt=$(echo "$line" | jnum registers_per_thread)
        wps=$(echo "$line" | jnum waves_per_multiprocessor)
        tpb=$(echo "$line" | jnum threads_per_block)
        ds=$(echo "$line" | jnum dynamic_smem)
        gb=$(echo "$line" | jnum grid_blocks)
        ok=$(awk -v o="${occ:-x}" -v p="$pct" -v r="${rpt:-x}" -v rn="$regs_ncu" -v w="${wps:-x}" -v wn="$waves_ncu" 'BEGIN {
            ok = (o != "x" && (o * 100 - p) < 0.005 && (p - o * 100) < 0.005 && r == rn)
            wr = sprintf("%.2f", w) + 0; ok = ok && w != "x" && (wr - wn < 0.0001 && wn - wr < 0.0001); print ok }')
        msg="$name (run): launch $tpb threads, $ds B dynamic, $gb blocks -> occupancy ${occ:-?}, ${rpt:-?} regs, ${wps:-?} waves/SM (ncu: $pct%, $regs_ncu, $waves_ncu)"
        if [ "$ok" = 1 ] && [ "$tpb" = "$threads" ] && [ "$ds" = "$dyn" ] && [ "$gb" = "$grid" ]; then pass "$msg"
        else fail "$msg"; fi
    done
fi

echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
