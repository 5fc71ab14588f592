#!/usr/bin/env bash
# TIMEOUT: 240
# coop_errors.sh - cooperative launches that cannot work fail clearly, in every mode: a kernel that calls
# this_grid().sync() launched with <<<>>> stops with cudaErrorLaunchFailure and a message naming
# cudaLaunchCooperativeKernel; a grid barrier that can never complete (a block returns before it) is a deadlock
# (functional and timing: cudaErrorLaunchFailure and a message; --check: its deadlock finding names the grid
# barrier) instead of a hang; a cluster launch through cudaLaunchKernelEx runs (tests/programs/cluster_dsmem.cu
# checks what clusters do).
# Exits 0 when every check passes, 77 (skipped) when nvcc is missing.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT" || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
WORK=build/tests/cli-coop-work
rm -rf "$WORK" && mkdir -p "$WORK"
fails=0

# check NAME CONDITION-RESULT: report one check
check() {
  if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "coop_errors: $NVCC not found"
  exit 77
fi

cat > "$WORK/coop_bad.cu" <<'EOF'
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>
namespace cg = cooperative_groups;
__global__ void needs_grid(int *o) { cg::this_grid().sync(); o[blockIdx.x] = 1; }
__global__ void early_exit(int *o) { if (blockIdx.x == 1) return; cg::this_grid().sync(); o[blockIdx.x] = 1; }
__global__ void plain(int *o) { o[blockIdx.x] = 2; }
int main(int argc, char **argv) {
  int *o;
  cudaMalloc(&o, 64 * sizeof(int));
  void *a[] = { &o };
  cudaError_t e = cudaSuccess;
  if (!strcmp(argv[1], "noncoop")) {
    needs_grid<<<4, 32>>>(o);
  } else if (!strcmp(argv[1], "deadlock")) {
    e = cudaLaunchCooperativeKernel((void *)early_exit, dim3(4), dim3(32), a, 0, 0);
  } else {
    cudaLaunchAttribute at;
    at.id = cudaLaunchAttributeClusterDimension;
    at.val.clusterDim.x = 2; at.val.clusterDim.y = 1; at.val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(4); cfg.blockDim = dim3(32); cfg.attrs = &at; cfg.numAttrs = 1;
    e = cudaLaunchKernelEx(&cfg, plain, o);
  }
  printf("launch %s\n", cudaGetErrorName(e));
  printf("sync %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
EOF
if ! "$NVCC" -cudart shared -o "$WORK/coop_bad" "$WORK/coop_bad.cu" >"$WORK/nvcc.log" 2>&1; then
  cat "$WORK/nvcc.log"; echo "FAIL nvcc"; exit 1
fi

# 1. grid.sync() outside a cooperative launch
out=$(timeout 60 "$WARPSIM" run "$WORK/coop_bad" noncoop 2>&1)
echo "$out" | grep -q "sync cudaErrorLaunchFailure" && echo "$out" | grep -q "needs cudaLaunchCooperativeKernel"
check "grid.sync() in a <<<>>> launch: cudaErrorLaunchFailure naming cudaLaunchCooperativeKernel" $?

# 2. a grid barrier that can never complete, in each mode
for mode in functional timing; do
  out=$(WARPSIM_THREADS=1 timeout 60 "$WARPSIM" run --mode=$mode "$WORK/coop_bad" deadlock 2>&1)
  echo "$out" | grep -q "sync cudaErrorLaunchFailure" && echo "$out" | grep -q "grid barrier (this_grid().sync()) of the cooperative kernel"
  check "a grid barrier that cannot complete ($mode): a deadlock, not a hang" $?
done
out=$(timeout 60 "$WARPSIM" run --check "$WORK/coop_bad" deadlock 2>&1)
echo "$out" | grep -q "Deadlock:" && echo "$out" | grep -q "the grid barrier of this cooperative launch"
check "a grid barrier that cannot complete (--check): the deadlock finding names the grid barrier" $?

# 3. thread block clusters
out=$(timeout 60 "$WARPSIM" run "$WORK/coop_bad" cluster 2>&1)
echo "$out" | grep -q "launch cudaSuccess" && echo "$out" | grep -q "sync cudaSuccess"
check "cudaLaunchKernelEx with a cluster dimension of 2: runs" $?

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all coop_errors checks passed"
