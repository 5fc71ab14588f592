#!/usr/bin/env bash
# TIMEOUT: 300
# truth_counters.sh - the memory system's Nsight Compute counters for the 31 benchmarks of tests/data/h200 under the
# h200 preset, against what Nsight Compute measured on a real H200 (ncu_summary.csv, --cache-control all).
#
# 1. builds truth.cu into build/truth (tests/lib/truth_build.sh) and the helper tests/cli/truth_memsys.c into
#    build/cli-helpers/truth_memsys (against build/libwarpsim.a);
# 2. the helper runs every benchmark once at its benches.txt small size on the functional core, feeding each memory
#    warp instruction to src/timing/memsys.c (blocks round-robin over the 132 SMs, caches flushed before the launch);
#    WARPSIM_TRUTH_VIA=timing instead runs the real program under `warpsim run --timing --cache-control all
#    --report` and reads the measured launch (the 2nd; heat_1000: the 1001st) from the report (slower: ~1 min of
#    two cores);
# 3. exact targets (must be equal): global load/store requests and sectors, shared-memory load wavefronts, shared
#    load/store bank conflicts. Explained exceptions, checked in their own form:
#      dot_tree, conv_tiled: ncu reports extra shared-load "bank conflicts" (1,616 and 1,055) whose addresses
#      cannot conflict (dot_tree: s[tid] / s[tid + stride]; conv_tiled: s[t + j], consecutive words), and the same
#      number of extra wavefronts; a rerun of ncu on an H200 gave other counts (dot_tree 1,390 instead of 1,616,
#      conv_tiled 992 instead of 1,055), so they are not a function of the addresses (presumably the pipe
#      arbitrating with the SM's other shared-memory traffic). The check: our wavefronts = ncu wavefronts - ncu
#      conflicts, and our conflicts = 0.
# 4. approximate targets, reported (INFO lines and a summary): L1 and L2 sector hit rates, L2 read sectors from L1,
#    DRAM bytes read (must be within 2% or 8 KiB: the rest is instruction and constant fetch) and written.
# One line per check; exits 0 when every check passed, 77 (skipped) when nvcc or the data is missing.
set -u
ROOT=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null || (cd "$(dirname "$0")/../.." && pwd))
TRUTH=${WARPSIM_TRUTH_DIR:-$ROOT/tests/data/h200}
BUILD=$ROOT/build
WARPSIM=${WARPSIM:-$BUILD/warpsim}
VIA=${WARPSIM_TRUTH_VIA:-functional}
export WARPSIM_DEVICES=${WARPSIM_DEVICES:-$ROOT/devices}
export WARPSIM_TRUTH_DIR=$TRUTH
CC=${CC:-cc}

fails=0
checks=0
pass() { checks=$((checks + 1)); echo "PASS  $*"; }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL  $*"; }
info() { echo "INFO  $*"; }

for f in ncu_summary.csv truth.cu benches.txt; do
    [ -f "$TRUTH/$f" ] || { echo "SKIP  $TRUTH/$f not found (the H200 data of tests/data/h200 is missing)"; exit 77; }
done
[ -f "$BUILD/libwarpsim.a" ] || { echo "FAIL  $BUILD/libwarpsim.a not built (run make)"; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpsim-truthc-XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# ---- build the truth program and the helper ----
bash "$ROOT/tests/lib/truth_build.sh" > "$TMP/truth_build.log" 2>&1
rc=$?
if [ "$rc" != 0 ]; then
    cat "$TMP/truth_build.log"
    [ "$rc" = 77 ] && exit 77
    echo "FAIL  could not build build/truth: $(tail -1 "$TMP/truth_build.log")"
    exit 1
fi
HELPER=$BUILD/cli-helpers/truth_memsys
if [ "$VIA" != timing ]; then
    if [ ! -x "$HELPER" ] || [ "$ROOT/tests/cli/truth_memsys.c" -nt "$HELPER" ] || [ "$BUILD/libwarpsim.a" -nt "$HELPER" ]; then
        mkdir -p "$BUILD/cli-helpers"
        if ! $CC -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -I"$ROOT/src" -o "$HELPER" "$ROOT/tests/cli/truth_memsys.c" \
             "$BUILD/libwarpsim.a" -lzstd -llz4 -ljansson -lm -lpthread -ldl > "$TMP/cc.log" 2>&1; then
            echo "FAIL  could not build tests/cli/truth_memsys.c: $(tail -5 "$TMP/cc.log")"
            exit 1
        fi
    fi
fi

# ---- ncu_summary.csv without the thousands separators inside quotes ----
awk -f "$ROOT/tests/lib/ncu_plain.awk" "$TRUTH/ncu_summary.csv" > "$TMP/ncu.csv"

METRICS="l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum l1tex__t_sector_hit_rate.pct lts__t_sector_hit_rate.pct
lts__t_sectors_srcunit_tex_op_read.sum dram__bytes_read.sum dram__bytes_write.sum"
# ncu table in our column order: name m1 .. m12
awk -F, -v metrics="$(echo $METRICS)" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; n = split(metrics, m, " "); next }
     { line = $col["name"]; for (i = 1; i <= n; i++) line = line " " $col[m[i]]; print line }' "$TMP/ncu.csv" > "$TMP/ncu.txt"
[ "$(wc -l < "$TMP/ncu.txt")" -ge 30 ] || { echo "FAIL  could not read $TRUTH/ncu_summary.csv"; exit 1; }

# ---- our counters ----
names=$(awk '{ print $1 }' "$TMP/ncu.txt")
if [ "$VIA" = timing ]; then
    [ -x "$WARPSIM" ] || { echo "FAIL  $WARPSIM not built (run make)"; exit 1; }
    : > "$TMP/ours.txt"
    for name in $names; do
        size=$(awk -v n="$name" '$1 == n { print $2 }' "$TRUTH/benches.txt")
        idx=1; [ "$name" = heat_1000 ] && idx=1000
        if ! "$WARPSIM" run --timing --quiet --gpu h200 --cache-control all --report "$TMP/$name.json" \
                "$BUILD/truth" "$name" "$size" 1 > "$TMP/$name.out" 2> "$TMP/$name.err"; then
            fail "$name: warpsim run --timing failed: $(tail -2 "$TMP/$name.err")"
            continue
        fi
        # the report holds one launch per line; take the measured one
        line=$(grep '"kernel": "' "$TMP/$name.json" | sed -n "$((idx + 1))p")
        row=$name
        for m in $METRICS; do
            v=$(echo "$line" | sed -n -E "s/.*\"$m\": ([0-9.eE+-]+).*/\1/p")
            row="$row ${v:-?}"
        done
        echo "$row" >> "$TMP/ours.txt"
    done
else
    start=$SECONDS
    if ! "$HELPER" "$BUILD/truth" > "$TMP/helper.txt" 2> "$TMP/helper.err"; then
        echo "FAIL  truth_memsys failed: $(tail -3 "$TMP/helper.err") $(grep -E 'MISSING|FAILED|UNKNOWN|NO_SIZE' "$TMP/helper.txt" | head -3)"
        exit 1
    fi
    info "31 benchmarks through the memory system in $((SECONDS - start)) s (functional core + memsys observer)"
    tail -n +2 "$TMP/helper.txt" > "$TMP/ours.txt"
fi

# ---- compare ----
join <(sort "$TMP/ncu.txt") <(sort "$TMP/ours.txt") > "$TMP/both.txt"
[ "$(wc -l < "$TMP/both.txt")" -ge 30 ] || fail "only $(wc -l < "$TMP/both.txt") benchmarks have both ncu and warpsim counters"
short=(gld_requests gld_sectors gst_requests gst_sectors shld_wavefronts shld_conflicts shst_conflicts)
while read -r name n1 n2 n3 n4 n5 n6 n7 n8 n9 n10 n11 n12 o1 o2 o3 o4 o5 o6 o7 o8 o9 o10 o11 o12; do
    ncu=("$n1" "$n2" "$n3" "$n4" "$n5" "$n6" "$n7")
    ours=("$o1" "$o2" "$o3" "$o4" "$o5" "$o6" "$o7")
    bad=""
    for i in 0 1 2 3 4 5 6; do
        [ "${ncu[$i]}" = "${ours[$i]}" ] && continue
        if [ "$name" = dot_tree ] || [ "$name" = conv_tiled ]; then
            case ${short[$i]} in shld_wavefronts|shld_conflicts) continue ;; esac
        fi
        bad="$bad ${short[$i]}=${ours[$i]}(ncu ${ncu[$i]})"
    done
    msg=$(printf "%-15s ld %s req %s sec, st %s req %s sec, shared ld %s wavefronts %s conflicts, st %s conflicts" \
          "$name" "$o1" "$o2" "$o3" "$o4" "$o5" "$o6" "$o7")
    if [ -z "$bad" ]; then pass "$msg (= ncu)"; else fail "$msg; differs from ncu:$bad"; fi
    if [ "$name" = dot_tree ] || [ "$name" = conv_tiled ]; then
        if [ "$o5" = "$((n5 - n6))" ] && [ "$o6" = 0 ]; then
            pass "$name shared loads: $o5 wavefronts, 0 conflicts = ncu's $n5 wavefronts less its $n6 non-address conflicts (exception, see header)"
        else
            fail "$name shared loads: $o5 wavefronts, $o6 conflicts; expected ncu's $n5 - $n6 = $((n5 - n6)) and 0"
        fi
    fi
    # approximate targets
    ok=$(awk -v a="$o11" -v b="$n11" 'BEGIN { d = a - b; if (d < 0) d = -d; print (d <= 0.02 * b || d <= 8192) ? 1 : 0 }')
    line=$(awk -v n="$name" -v l1="$o8" -v l1n="$n8" -v l2="$o9" -v l2n="$n9" -v rd="$o10" -v rdn="$n10" \
               -v dr="$o11" -v drn="$n11" -v dw="$o12" -v dwn="$n12" 'BEGIN {
        printf "%-15s L1 hit %6.2f%% (ncu %6.2f)  L2 hit %6.2f%% (ncu %6.2f)  L2 reads from L1 %8d (ncu %8d)  DRAM read %9d (ncu %9d, %+.2f%%)  write %7d (ncu %7d)",
               n, l1, l1n, l2, l2n, rd, rdn, dr, drn, drn ? 100 * (dr - drn) / drn : 0, dw, dwn }')
    if [ "$ok" = 1 ]; then pass "$line"; else fail "$line: DRAM bytes read off by more than 2% and 8 KiB"; fi
done < "$TMP/both.txt"

# ---- how close the approximate counters are ----
awk '{ l1 = $9 - $21; l2 = $10 - $22; rd = $11 ? ($23 - $11) / $11 : 0; dr = $12 ? ($24 - $12) / $12 : 0
       if (l1 < 0) l1 = -l1; if (l2 < 0) l2 = -l2; if (rd < 0) rd = -rd; if (dr < 0) dr = -dr
       if ($1 != "heat_1000") { s2 += l2; n2++ }   # heat_1000: ncu reports an L2 hit rate of 148%
       s1 += l1; s3 += rd; s4 += dr; n++; w += $13; wo += $25 }
     END { printf "INFO  mean absolute error over %d benchmarks: L1 hit rate %.1f points, L2 hit rate %.1f points (%d, without heat_1000), L2 reads from L1 %.1f%%, DRAM bytes read %.2f%%; DRAM bytes written: %d in all (ncu %d)\n",
                  n, s1 / n, s2 / n2, n2, 100 * s3 / n, 100 * s4 / n, wo, w }' "$TMP/both.txt"

echo "$checks checks, $fails failed"
[ "$fails" -eq 0 ]
