#!/usr/bin/env bash
# TIMEOUT: 300
# checks.sh - `warpsim run --check` finds every bug story of the seed material (tests/check/*.cu) with the right
# class, kernel, file:line, thread and block; --check-exit-code, --leak-check, --max-instructions, --check=LIST and
# the --report JSON work. Lines are found through "@marker" comments in the sources. Programs are compiled with
# nvcc -cudart shared -lineinfo into build/tests/check/ (two at a time, skipped when up to date).
# Exits 0 when every check passes, 77 (skipped) when nvcc or python3 is missing.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT" || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
SRC=tests/check
BIN=build/tests/check
OUT=build/tests/check/out
mkdir -p "$BIN" "$OUT"
fails=0

if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "checks: $NVCC not found"
  exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "checks: python3 not found (it reads the --report JSON)"
  exit 77
fi

# compile the stale programs, two at a time
stale=()
for f in "$SRC"/*.cu; do
  n=$(basename "$f" .cu)
  [ "$BIN/$n" -nt "$f" ] || stale+=("$n")
done
if [ ${#stale[@]} -gt 0 ]; then
  # a "// NVCCFLAGS: ..." line in a source adds flags (e.g. the architecture cp.async needs)
  printf '%s\n' "${stale[@]}" | xargs -P 2 -I{} sh -c \
    "'$NVCC' -cudart shared -lineinfo \$(sed -n 's|^// NVCCFLAGS: *||p' '$SRC/{}.cu' | head -1) -o '$BIN/{}.tmp' '$SRC/{}.cu' >'$OUT/{}.nvcc.log' 2>&1 && mv -f '$BIN/{}.tmp' '$BIN/{}'"
fi

# line of the "@marker" comment in a test source
line() { grep -n "// @$2\b" "$SRC/$1.cu" | head -1 | cut -d: -f1; }

# run NAME [warpsim options...]: output in $OUT/NAME.txt, exit status in $rc
run() {
  local n=$1
  shift
  timeout 120 "$WARPSIM" run "$@" "$BIN/$n" >"$OUT/$n.txt" 2>&1
  rc=$?
}

# runp NAME ARG [warpsim options...]: run NAME with program argument ARG, as run does
runp() {
  local n=$1 a=$2
  shift 2
  timeout 120 "$WARPSIM" run "$@" "$BIN/$n" "$a" >"$OUT/$n.txt" 2>&1
  rc=$?
}

# expect NAME TEXT...: every TEXT (a fixed string) is in the output of NAME
expect() {
  local n=$1 ok=1
  shift
  for t in "$@"; do
    if ! grep -qF -- "$t" "$OUT/$n.txt"; then
      echo "    missing: $t"
      ok=0
    fi
  done
  if [ $ok = 1 ]; then echo "ok   $n"; else echo "FAIL $n (output in $OUT/$n.txt)"; fails=$((fails + 1)); fi
}

# reject NAME TEXT: TEXT must not be in the output of NAME
reject() {
  if grep -qF -- "$2" "$OUT/$1.txt"; then echo "FAIL $1: unexpected '$2'"; fails=$((fails + 1)); else echo "ok   $1 (no '$2')"; fi
}

for n in oob_write neighbour_overflow benign_race cp_async_nowait dot_early_return sync_in_if dot_atomic0 convolve_nobarrier uninit_sum stencil_planes spin_wait host_ptr \
         api_errors misaligned shfl_mask bar_deadlock endless; do
  [ -x "$BIN/$n" ] || { echo "FAIL $n: did not compile (see $OUT/$n.nvcc.log)"; fails=$((fails + 1)); }
done

# 1. N = 100 distance kernel, 4 blocks of 32, no guard: threads 4..31 of block 3 write past the 400 bytes
run oob_write --check
expect oob_write "========= Invalid __global__ write of size 4 bytes" \
  "=========     at distanceKernel(float*, float, int) in oob_write.cu:$(line oob_write oob)" \
  "=========     by thread (4,0,0) in block (3,0,0)" \
  "and is 1 bytes after the nearest allocation at 0x" "of size 400 bytes" \
  "28 errors at this site, by threads (4,0,0)..(31,0,0) in block (3,0,0)" \
  "cudaMemcpy after the kernel: cudaErrorIllegalAddress" "ERROR SUMMARY: 29 errors"

# 1b. the off-by-one write lands right after a 3,072-byte allocation that another one follows: the guard zones
# (every allocation under memcheck has one) make it an error whatever the layout; without --check it overwrites
run neighbour_overflow --check
expect neighbour_overflow "========= Invalid __global__ write of size 4 bytes" \
  "=========     at fill(int*, int) in neighbour_overflow.cu:$(line neighbour_overflow overflow)" \
  "=========     by thread (0,0,0) in block (6,0,0)" \
  "and is 1 bytes after the nearest allocation at 0x" "of size 3072 bytes" "ERROR SUMMARY: 2 errors"
run neighbour_overflow
expect neighbour_overflow "next[0] = 768 after the kernel (overwritten)"

# 1c. benign races: a write-write race in which every write stores 1, a read-write race whose write stores the
# value already there: warnings, not errors; --check-benign-races=off hides them
run benign_race --check
expect benign_race "========= Warning: Benign race reported between Write access at find_key(int const*, int, int, int*) in benign_race.cu:$(line benign_race found)" \
  "=========     and Write access at find_key(int const*, int, int, int*) in benign_race.cu:$(line benign_race found)" \
  "========= Warning: Benign race reported between Write access at frontier(int*, int, int) in benign_race.cu:$(line benign_race write)" \
  "=========     and Read access at frontier(int*, int, int) in benign_race.cu:$(line benign_race read) [128 hazards]" \
  "RACECHECK: 2 benign races" "ERROR SUMMARY: 0 errors" "levels unchanged"
reject benign_race "Error: Race"
cp "$OUT/benign_race.txt" "$OUT/benign_race.on.txt"
run benign_race --check --check-benign-races=off
expect benign_race "ERROR SUMMARY: 0 errors"
reject benign_race "Benign race"

# 1d. a tile loaded with cp.async and read before the group was waited for (a __syncthreads() does not help): a
# racecheck hazard at the read; the same kernel with __pipeline_wait_prior(0) is clean; in timing mode, where the
# copy lands at the wait, the read gets the old contents
run cp_async_nowait --check
expect cp_async_nowait "========= Error: Race reported between cp.async Write access at void rotate_tile<false>(float const*, float*)" \
  "=========     and Read access at void rotate_tile<false>(float const*, float*) in cp_async_nowait.cu:$(line cp_async_nowait read) [512 hazards]" \
  "before the copy's group was waited for" "ERROR SUMMARY: 1 error"
reject cp_async_nowait "rotate_tile<true>"
run cp_async_nowait --timing --quiet
expect cp_async_nowait "with the wait right, without it wrong"

# 2. dot product, N = 1000: `if (idx >= n) return;` before __syncthreads(): entries 40..63 of block 15 unwritten
run dot_early_return --check
expect dot_early_return "Barrier error detected. Read of __shared__ memory" \
  "at dotKernel(int*, int const*, int const*, int) in dot_early_return.cu:$(line dot_early_return sum)" \
  "by thread (0,0,0) in block (15,0,0)" \
  "threads (40,0,0)..(63,0,0) of the block exited before the barrier at dotKernel(int*, int const*, int const*, int) in dot_early_return.cu:$(line dot_early_return bar)" \
  "24 errors at this site"
reject dot_early_return "Divergent thread(s) in warp"

# 3. __syncthreads() inside if (tid < stride)
run sync_in_if --check
expect sync_in_if "========= Barrier error detected. Divergent thread(s) in warp" \
  "at reduce(int*, int const*, int) in sync_in_if.cu:$(line sync_in_if bar)" \
  "by thread (0,0,0) in block (0,0,0)" "threads (16,0,0)..(31,0,0) of warp 0 are alive but do not take part"

# 4. ATOMIC 0: *d_res += blockSum from every block
run dot_atomic0 --check
L=$(line dot_atomic0 rmw)
expect dot_atomic0 "Error: Race reported between Write access at dotKernel(int*, int const*, int const*, int) in dot_atomic0.cu:$L" \
  "and Read access at dotKernel(int*, int const*, int const*, int) in dot_atomic0.cu:$L [15 hazards]" \
  "thread (0,0,0) in block (0,0,0) wrote it, then thread (0,0,0) in block (1,0,0) read it" \
  "different blocks of one launch"

# 5. convolve version 2 without its barrier
run convolve_nobarrier --check
expect convolve_nobarrier \
  "Error: Race reported between Write access at convolve(int, float*, float*) in convolve_nobarrier.cu:$(line convolve_nobarrier extra)" \
  "and Read access at convolve(int, float*, float*) in convolve_nobarrier.cu:$(line convolve_nobarrier read)" \
  "Error: Race reported between Read access at convolve(int, float*, float*) in convolve_nobarrier.cu:$(line convolve_nobarrier read)" \
  "and Write access at convolve(int, float*, float*) in convolve_nobarrier.cu:$(line convolve_nobarrier load)" \
  "different warps of the block with no __syncthreads()"

# 6. a kernel wrote 96 of 100 floats; another sums all 100 into shared memory (copies: not errors) and stores the
# sum (a use: reported there, with the read the undefined floats came from); the host copies all 100 back
run uninit_sum --check
expect uninit_sum "========= Uninitialized __global__ memory read of size 4 bytes" \
  "=========     at sumKernel(float*, float const*, int) in uninit_sum.cu:$(line uninit_sum use)" \
  "=========     by thread (0,0,0) in block (0,0,0)" \
  "The uninitialized value is used as a value stored to __global__ memory by st (PTX line" \
  "the value came from the read at sumKernel(float*, float const*, int) in uninit_sum.cu:$(line uninit_sum read) (PTX line" \
  "by thread (96,0,0) in block (0,0,0); that read and every copy of the value were not errors, this use is" \
  "384 bytes into the allocation at 0x300000000000 of size 400 bytes" \
  "========= Host API memory access error at host access to 0x300000000000 of size 400 bytes" \
  "=========     Uninitialized access at 0x300000000180 on access by cudaMemcpy source" \
  "16 of the 400 bytes copied to the host were never written" "ERROR SUMMARY: 2 errors"

# 6b. a z-marching stencil shifts a never-written shared value through its register planes: unused, it is clean
# (compute-sanitizer-style initcheck at the load would report it); stored, branched on or printed, it is reported
# at that use, with the shared read it came from
run stencil_planes --check
expect stencil_planes "ERROR SUMMARY: 0 errors" "mode 0: planes z >= 2 correct"
reject stencil_planes "Uninitialized"
origin="the value came from the read at planes(float const*, float*, int*, int) in stencil_planes.cu:$(line stencil_planes read) (PTX line"
runp stencil_planes 1 --check
expect stencil_planes "========= Uninitialized __shared__ memory read of size 4 bytes" \
  "=========     at planes(float const*, float*, int*, int) in stencil_planes.cu:$(line stencil_planes store)" \
  "used as a value stored to __global__ memory" "$origin" \
  "Address 0x100 of block (0,0,0)'s shared memory was never written by a thread of the block" \
  "64 errors at this site, by threads (0,0,0)..(63,0,0) in block (0,0,0)" "ERROR SUMMARY: 64 errors" \
  "mode 1: planes z >= 2 correct"
runp stencil_planes 2 --check
expect stencil_planes "========= Uninitialized __shared__ memory read of size 4 bytes" \
  "=========     at planes(float const*, float*, int*, int) in stencil_planes.cu:$(line stencil_planes branch)" \
  "used as the condition of a branch" "$origin" "ERROR SUMMARY: 64 errors"
runp stencil_planes 3 --check
expect stencil_planes "=========     at planes(float const*, float*, int*, int) in stencil_planes.cu:$(line stencil_planes print)" \
  "used as an argument of printf" "$origin" "ERROR SUMMARY: 1 error"
runp stencil_planes 4 --check
expect stencil_planes "=========     at planes(float const*, float*, int*, int) in stencil_planes.cu:$(line stencil_planes call_store)" \
  "used as a value stored to __global__ memory" "$origin" "ERROR SUMMARY: 64 errors"
runp stencil_planes 5 --check
expect stencil_planes "ERROR SUMMARY: 0 errors" "mode 5: planes z >= 2 correct"
runp stencil_planes 1 --check=memcheck,racecheck,synccheck
expect stencil_planes "ERROR SUMMARY: 0 errors"

# 7. blocks spin on a flag block 0 raises after every block checked in; more blocks than fit: deadlock
run spin_wait --check --gpu two-core
expect spin_wait "========= Deadlock: no warp of gridBarrier(int*, int volatile*, int*) can make progress" \
  "2 of the grid's 8 blocks are resident (the device holds at most 2 blocks of this kernel at once: 1 per SM x 2 SMs)" \
  "block (0,0,0): warp 0 spinning in the loop at gridBarrier(int*, int volatile*, int*) in spin_wait.cu:$(line spin_wait spin0)" \
  "block (1,0,0): warps 0-7 spinning in the loop at gridBarrier(int*, int volatile*, int*) in spin_wait.cu:$(line spin_wait spin)" \
  "blocks (2,0,0)..(7,0,0) (6 blocks) never started" "cudaDeviceSynchronize: cudaErrorLaunchFailure"

# 8. a kernel given a host pointer
run host_ptr --check
expect host_ptr "========= Invalid __global__ read of size 4 bytes" \
  "at scaleKernel(float*, float, int) in host_ptr.cu:$(line host_ptr deref)" "by thread (0,0,0) in block (0,0,0)" \
  "and is host memory: kernel parameter 0 holds the host pointer" \
  "64 errors at this site, by threads (0,0,0)..(31,0,0) in blocks (0,0,0)..(1,0,0)" \
  "cudaDeviceSynchronize: cudaErrorIllegalAddress" "ERROR SUMMARY: 65 errors"

# API errors with host call sites, double free, leak check
run api_errors --check --leak-check
expect api_errors "Program hit cudaErrorInvalidValue (error 1) due to \"invalid argument\" on CUDA API call to cudaMemcpy." \
  "Program hit cudaErrorInvalidMemcpyDirection (error 21) due to \"invalid copy direction for memcpy\" on CUDA API call to cudaMemcpy." \
  "Program hit cudaErrorInvalidSymbol (error 13) due to \"invalid device symbol\" on CUDA API call to cudaMemcpyToSymbol." \
  "on CUDA API call to cudaFree." "was already freed: double free of an allocation of 64 bytes" \
  "Host Frame: main+0x" "Leaked 256 bytes at 0x" "LEAK SUMMARY: 256 bytes leaked in 1 allocations" \
  "cudaErrorInvalidValue cudaErrorInvalidMemcpyDirection cudaErrorInvalidSymbol cudaSuccess cudaErrorInvalidValue" \
  "ERROR SUMMARY: 5 errors"

# misaligned access
run misaligned --check
expect misaligned "Invalid __global__ read of size 8 bytes" "at readDouble(int const*, double*) in misaligned.cu:$(line misaligned load)" \
  "is misaligned" "and is inside the nearest allocation" "cudaErrorMisalignedAddress"

# member mask naming lanes that do not take part
run shfl_mask --check
expect shfl_mask "Barrier error detected. Invalid member mask in __shfl_*_sync()" \
  "at halfShuffle(int*, int const*) in shfl_mask.cu:$(line shfl_mask shfl)" \
  "names threads (16,0,0)..(31,0,0) of warp 0, which are alive but do not execute it"

# barriers that cannot complete
run bar_deadlock --check
expect bar_deadlock "Deadlock: no warp of twoBarriers(int*) can make progress" \
  "warp 0 waiting at the barrier at twoBarriers(int*) in bar_deadlock.cu:$(line bar_deadlock bar1)" \
  "warp 1 waiting at the barrier at twoBarriers(int*) in bar_deadlock.cu:$(line bar_deadlock bar2)"

# watchdog
run endless --check --max-instructions 2000000
expect endless "Watchdog: forever(int volatile*, int*) was stopped after 2000000 warp instructions" \
  "block (0,0,0): warp 0 running at forever(int volatile*, int*) in endless.cu:$(line endless loop)" \
  "cudaErrorLaunchTimeout"
run endless --max-cycles 1000 --gpu two-core
expect endless "exceeded 8000 warp instructions" "cudaErrorLaunchTimeout"

# --check-exit-code: N when something was found, the program's own status otherwise
run oob_write --check-exit-code 42
[ "$rc" = 42 ] && echo "ok   --check-exit-code 42 with errors" || { echo "FAIL --check-exit-code: rc=$rc, expected 42"; fails=$((fails + 1)); }
run misaligned --check=racecheck,initcheck --check-exit-code 42
[ "$rc" = 0 ] && echo "ok   --check-exit-code with nothing found" || { echo "FAIL --check-exit-code: rc=$rc, expected 0"; fails=$((fails + 1)); }

# --check=LIST selects checks: memcheck alone does not see the race
run dot_atomic0 --check=memcheck
expect dot_atomic0 "ERROR SUMMARY: 0 errors"

# the findings are in the --report JSON
rm -f "$OUT/report.json"
timeout 60 "$WARPSIM" run --check --report "$OUT/report.json" "$BIN/oob_write" >/dev/null 2>&1
if python3 - "$OUT/report.json" "$(line oob_write oob)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["checks"]
f = [x for x in r["findings"] if x["class"] == "memcheck" and x["title"].startswith("Invalid __global__ write")]
assert r["errors"] == 29 and f, r
x = f[0]
assert x["file"] == "oob_write.cu" and x["line"] == int(sys.argv[2]), x
assert x["thread"] == [4, 0, 0] and x["block"] == [3, 0, 0] and x["count"] == 28, x
PY
then echo "ok   --report JSON findings"; else echo "FAIL --report JSON findings"; fails=$((fails + 1)); fi

echo "checks: $fails failure(s)"
[ $fails = 0 ]
