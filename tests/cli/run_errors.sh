#!/usr/bin/env bash
# TIMEOUT: 180
# run_errors.sh - `warpsim run` errors and conveniences: a program linked with the static CUDA runtime runs, a
# stripped one is refused with a clear message (exit 2), an unknown --gpu lists the presets (exit 2), FILE.cu is compiled and
# run with its arguments and exit code passed through, --report writes JSON, bad options are refused.
# Exits 0 when every check passes, 77 (skipped) when nvcc is missing.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT" || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
WORK=build/tests/cli-run-work
rm -rf "$WORK" && mkdir -p "$WORK"
fails=0

# check NAME CONDITION-RESULT: report one check
check() {
  if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "run_errors: $NVCC not found"
  exit 77
fi

cat > "$WORK/hello.cu" <<'EOF'
#include <cstdio>
#include <cstdlib>
__global__ void fill(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }
int main(int argc, char **argv) {
  int v = argc > 1 ? atoi(argv[1]) : 0, h[4] = {0};
  int *d; cudaMalloc(&d, sizeof h);
  fill<<<1, 4>>>(d, v);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("hello %d %d %d %d\n", h[0], h[1], h[2], h[3]);
  return argc > 2 ? atoi(argv[2]) : 0;
}
EOF

# 1. statically linked CUDA runtime (nvcc's default): runs (its CUDA calls sent to warpsim's runtime); stripped of
# its symbol table, it is refused with a clear message
"$NVCC" -o "$WORK/static_prog" "$WORK/hello.cu" >/dev/null 2>&1
out=$("$WARPSIM" run "$WORK/static_prog" 3 2>&1); rc=$?
echo "$out"
[ "$rc" = 0 ] && echo "$out" | grep -q "^hello 3 4 5 6$" && echo "$out" | grep -q "holds NVIDIA's CUDA runtime linked statically"
check "static cudart runs on warpsim's runtime" $?
strip -s -o "$WORK/static_stripped" "$WORK/static_prog"
out=$("$WARPSIM" run "$WORK/static_stripped" 2>&1); rc=$?
echo "$out"
[ "$rc" = 2 ] && echo "$out" | grep -q "static CUDA runtime" && echo "$out" | grep -q -- "-cudart shared"
check "stripped static cudart refused with exit 2" $?

# 2. unknown GPU: exit 2, names the GPU and lists presets
"$NVCC" -cudart shared -lineinfo -o "$WORK/shared_prog" "$WORK/hello.cu" >/dev/null 2>&1
out=$("$WARPSIM" run --gpu no-such-gpu "$WORK/shared_prog" 2>&1); rc=$?
echo "$out"
[ "$rc" = 2 ] && echo "$out" | grep -q "no-such-gpu" && echo "$out" | grep -q "h200"
check "unknown --gpu lists presets" $?

# 3. FILE.cu convenience: compiled, run with its arguments, exit code passed through
out=$("$WARPSIM" run --quiet "$WORK/hello.cu" 10 3 2>&1); rc=$?
echo "$out"
[ "$rc" = 3 ] && echo "$out" | grep -q "hello 10 11 12 13"
check ".cu is compiled and run, exit code passed through" $?

# 4. a shared-cudart program runs, --gpu=NAME and --report FILE work
rm -f "$WORK/report.json"
out=$("$WARPSIM" run --gpu=h100 --report "$WORK/report.json" -- "$WORK/shared_prog" 5 2>&1); rc=$?
echo "$out"
[ "$rc" = 0 ] && echo "$out" | grep -q "hello 5 6 7 8" && grep -q '"device": "h100"' "$WORK/report.json" &&
  grep -q '"kernel": "_Z4fillPii"' "$WORK/report.json" && grep -q '"block": \[4, 1, 1\]' "$WORK/report.json"
check "--gpu=NAME and --report" $?

# 5. bad option values and missing program
"$WARPSIM" run --block-order=sideways "$WORK/shared_prog" >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ]; check "bad --block-order refused" $?
"$WARPSIM" run >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ]; check "missing program refused" $?
"$WARPSIM" run "$WORK/does-not-exist" >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ]; check "nonexistent program refused" $?
out=$("$WARPSIM" run --block-order=random:7 "$WORK/shared_prog" 1 2>&1); rc=$?
[ "$rc" = 0 ] && echo "$out" | grep -q "hello 1 2 3 4"
check "--block-order=random:SEED runs" $?

# 6. a kernel fault is reported by the next synchronizing call and every later call (sticky), not by the launch
cat > "$WORK/fault.cu" <<'EOF'
#include <cstdio>
__global__ void bad(int *p) { p[threadIdx.x + (1 << 28)] = 1; }
int main() {
  int *d; cudaMalloc(&d, 64);
  bad<<<1, 4>>>(d);
  printf("launch=%s\n", cudaGetErrorName(cudaGetLastError()));
  printf("sync=%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int h; printf("memcpy=%s\n", cudaGetErrorName(cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost)));
  printf("last=%s\n", cudaGetErrorName(cudaGetLastError()));
  printf("text=%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
EOF
out=$("$WARPSIM" run "$WORK/fault.cu" 2>&1); rc=$?
echo "$out"
[ "$rc" = 0 ] && echo "$out" | grep -q "launch=cudaSuccess" && echo "$out" | grep -q "sync=cudaErrorIllegalAddress" &&
  echo "$out" | grep -q "memcpy=cudaErrorIllegalAddress" && echo "$out" | grep -q "last=cudaErrorIllegalAddress" &&
  echo "$out" | grep -q "text=an illegal memory access was encountered" && echo "$out" | grep -q "warpsim: kernel _Z3badPi faulted"
check "kernel fault is sticky from the next synchronizing call" $?

if [ "$fails" -ne 0 ]; then echo "run_errors: $fails check(s) failed"; exit 1; fi
echo "run_errors: all checks passed"
exit 0
