#!/usr/bin/env bash
# install.sh - `make install PREFIX=...` gives a warpsim that works from any folder: it is installed into a
# temporary prefix (nothing else is copied) and run from another temporary folder, where it must find its
# libraries (PREFIX/lib/warpsim) and presets (PREFIX/share/warpsim/devices) relative to itself, the runtime it
# loads into a program must find the presets too, `warpsim run FILE.cu` must cache its build under
# $XDG_CACHE_HOME/warpsim (else ~/.cache/warpsim) and rebuild when a header changes, and the source tree must
# stay untouched. Exits 0 when every check passes, 77 (skip) without nvcc.
# TIMEOUT: 300
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
NVCC=${NVCC:-nvcc}
if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "install: nvcc not found; skipping"
  exit 77
fi
unset WARPSIM_DEVICES WARPSIM_GPU DESTDIR
fails=0

# check NAME CONDITION-RESULT: report one check
check() {
  if [ "$2" = 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
work=$tmp/work
export XDG_CACHE_HOME=$tmp/xdg-cache
mkdir -p "$work"
in_git=0
git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 && in_git=1
[ "$in_git" = 1 ] && git -C "$ROOT" status --porcelain >"$tmp/status.before"

# 1. make install puts everything under the prefix
make -s -C "$ROOT" install PREFIX="$prefix" >"$tmp/install.log" 2>&1
rc=$?
cat "$tmp/install.log"
[ "$rc" = 0 ] && [ -x "$prefix/bin/warpsim" ] && [ -f "$prefix/lib/warpsim/libcudart.so.13" ] &&
  [ "$(readlink "$prefix/lib/warpsim/libcudart.so")" = libcudart.so.13 ] &&
  [ -f "$prefix/lib/warpsim/libcuda.so.1" ] && [ "$(readlink "$prefix/lib/warpsim/libcuda.so")" = libcuda.so.1 ] &&
  [ -f "$prefix/share/warpsim/devices/README.md" ] && [ -f "$prefix/share/warpsim/devices/h200.preset" ]
check "make install PREFIX=... installs bin/, lib/warpsim/, share/warpsim/devices/" $?
touch "$tmp/stamp"
sleep 1   # so that anything written into the source tree from now on is newer than the stamp

# a preset that exists only in the installed folder proves which folder warpsim and its runtime read
printf 'base = h100\nfull_name = "warpsim install probe"\n' >"$prefix/share/warpsim/devices/install-probe.preset"
WS=$prefix/bin/warpsim
cd "$work" || exit 1

# 2. warpsim devices lists the installed presets
out=$("$WS" devices 2>&1); rc=$?
echo "$out"
ok=0
[ "$rc" = 0 ] || ok=1
for p in "$ROOT"/devices/*.preset install-probe; do
  echo "$out" | grep -q "^$(basename "$p" .preset)[ *]" || { echo "missing preset $p"; ok=1; }
done
"$WS" devices --json | grep -q "\"dir\": \"$prefix/share/warpsim/devices\"" || ok=1
check "warpsim devices lists the presets of PREFIX/share/warpsim/devices" $ok

# 3. warpsim run FILE.cu from another folder, cached under $XDG_CACHE_HOME/warpsim
out=$("$WS" run "$ROOT/examples/vecadd.cu" 2>&1); rc=$?
echo "$out"
[ "$rc" = 0 ] && echo "$out" | grep -q "vecAdd<<<2, 64>>>: c\[69\] = 207, all 70 correct"
check "installed warpsim runs examples/vecadd.cu from another folder" $?
ls "$XDG_CACHE_HOME"/warpsim/run/*/vecadd >/dev/null 2>&1 &&
  [ "$(stat -c %a "$XDG_CACHE_HOME/warpsim")" = 700 ] && [ "$(stat -c %a "$XDG_CACHE_HOME"/warpsim/run/*/)" = 700 ]
check "the build is cached under \$XDG_CACHE_HOME/warpsim/run in 0700 folders" $?
out=$("$WS" run "$ROOT/examples/vecadd.cu" 2>&1); rc=$?
echo "$out"
[ "$rc" = 0 ] && echo "$out" | grep -q "all 70 correct" && echo "$out" | grep -q "unchanged; running the cached build" &&
  ! echo "$out" | grep -q "warpsim: nvcc"
check "an unchanged source is not recompiled" $?

# 4. a program built beforehand runs on the installed runtime and presets
cat >"$work/probe.cu" <<'EOF'
#include <cstdio>
#include <cstring>
__global__ void sq(int *p) { p[threadIdx.x] = threadIdx.x * threadIdx.x; }
int main() {
  int *d, h[8] = {0};
  cudaMalloc(&d, sizeof h);
  sq<<<1, 8>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("sq %d %d %d\n", h[1], h[3], h[7]);
  printf("gpu %s\n", prop.name);
  FILE *m = fopen("/proc/self/maps", "r");
  char line[4096];
  while (m && fgets(line, sizeof line, m))
    if (strstr(line, "libcudart") && strchr(line, '/')) { printf("lib %s", strchr(line, '/')); break; }
  return 0;
}
EOF
"$NVCC" -cudart shared -o "$work/probe" "$work/probe.cu" >"$tmp/nvcc.log" 2>&1 || cat "$tmp/nvcc.log"
out=$("$WS" run --gpu install-probe ./probe 2>&1); rc=$?
echo "$out"
[ "$rc" = 0 ] && echo "$out" | grep -q "^sq 1 9 49$" && echo "$out" | grep -q "^gpu warpsim install probe$" &&
  echo "$out" | grep -q "^lib $prefix/lib/warpsim/libcudart.so.13$"
check "a prebuilt program runs on PREFIX/lib/warpsim with an installed preset" $?
out=$(env LD_LIBRARY_PATH="$prefix/lib/warpsim" WARPSIM_GPU=install-probe ./probe 2>&1); rc=$?
echo "$out"
[ "$rc" = 0 ] && echo "$out" | grep -q "^gpu warpsim install probe$"
check "the installed runtime finds PREFIX/share/warpsim/devices by itself (no warpsim run)" $?

# 4b. a program that uses only the driver API runs on the installed libcuda.so.1, which finds the installed
# libcudart.so.13 beside itself
if command -v "${HOSTCC:-gcc}" >/dev/null 2>&1; then
  printf '.version 8.0\n.target sm_75\n.address_size 64\n.visible .entry seven(.param .u64 p)\n{\n  .reg .b64 %%rd<2>;\n  .reg .b32 %%r<2>;\n  ld.param.u64 %%rd1, [p];\n  cvta.to.global.u64 %%rd1, %%rd1;\n  mov.u32 %%r1, 7;\n  st.global.u32 [%%rd1], %%r1;\n  ret;\n}\n' >"$work/seven.ptx"
  cat >"$work/drv.c" <<'EOF'
#include <cuda.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  static char ptx[4096];
  FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
  if (!f || fread(ptx, 1, sizeof ptx - 1, f) == 0) return 3;
  CUdevice d; CUcontext c; CUmodule m; CUfunction k; CUdeviceptr p; int v = 0;
  if (cuInit(0) || cuDeviceGet(&d, 0) || cuDevicePrimaryCtxRetain(&c, d) || cuCtxSetCurrent(c) ||
      cuModuleLoadData(&m, ptx) || cuModuleGetFunction(&k, m, "seven") || cuMemAlloc(&p, 4)) return 4;
  void *args[] = { &p };
  if (cuLaunchKernel(k, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL) || cuMemcpyDtoH(&v, p, 4)) return 5;
  char name[128];
  cuDeviceGetName(name, sizeof name, d);
  printf("drv %d %s\n", v, name);
  FILE *mp = fopen("/proc/self/maps", "r");
  char line[4096], seen[2][4096] = { "", "" };
  while (mp && fgets(line, sizeof line, mp)) {
    int i = strstr(line, "libcuda.so") ? 0 : strstr(line, "libcudart") ? 1 : -1;
    if (i >= 0 && strchr(line, '/') && strcmp(seen[i], strchr(line, '/'))) {
      strcpy(seen[i], strchr(line, '/'));
      printf("lib %s", seen[i]);
    }
  }
  return 0;
}
EOF
  "${HOSTCC:-gcc}" -I"$(dirname "$(command -v "$NVCC")")/../include" -o "$work/drv" "$work/drv.c" \
    -L"$prefix/lib/warpsim" -lcuda >"$tmp/gcc.log" 2>&1 || cat "$tmp/gcc.log"
  out=$("$WS" run --gpu install-probe ./drv seven.ptx 2>&1); rc=$?
  echo "$out"
  [ "$rc" = 0 ] && echo "$out" | grep -q "^drv 7 warpsim install probe$" &&
    echo "$out" | grep -q "^lib $prefix/lib/warpsim/libcuda.so.1$" &&
    echo "$out" | grep -q "^lib $prefix/lib/warpsim/libcudart.so.13$"
  check "a driver-API program runs on PREFIX/lib/warpsim/libcuda.so.1 (with the libcudart.so.13 beside it)" $?
fi

# 5. a changed header recompiles
printf '#define VAL 1\n' >"$work/val.h"
printf '#include <cstdio>\n#include "val.h"\nint main() { printf("val %%d\\n", VAL); return 0; }\n' >"$work/hdr.cu"
out1=$("$WS" run --quiet hdr.cu 2>&1)
printf '#define VAL 2\n' >"$work/val.h"
out2=$("$WS" run --quiet hdr.cu 2>&1)
echo "$out1 / $out2"
[ "$out1" = "val 1" ] && [ "$out2" = "val 2" ]
check "a changed header is recompiled" $?

# 6. default cache ~/.cache/warpsim; concurrent runs of one new source share the cache safely (the inputs are
# made older than a second first: a build whose inputs changed within the last second is used but not kept)
mkdir -p "$tmp/home"
touch -d "@$(( $(date +%s) - 10 ))" "$work/val.h" "$work/hdr.cu"
for k in 1 2 3; do
  env -u XDG_CACHE_HOME HOME="$tmp/home" "$WS" run --quiet hdr.cu >"$tmp/par$k.out" 2>&1 &
done
wait
ok=0
for k in 1 2 3; do [ "$(cat "$tmp/par$k.out")" = "val 2" ] || { cat "$tmp/par$k.out"; ok=1; }; done
ls "$tmp"/home/.cache/warpsim/run/*/hdr "$tmp"/home/.cache/warpsim/run/*/hdr.deps >/dev/null 2>&1 || ok=1
[ -z "$(find "$tmp/home/.cache/warpsim" -name '.tmp-*')" ] || ok=1
check "without XDG_CACHE_HOME the cache is ~/.cache/warpsim; 3 concurrent runs agree" $ok

# 7. nothing new in the source tree (outside the build tree), and no cache in the build tree
cd "$tmp" || exit 1
# (build/ is the build tree, where other tests write while this one runs; only its old cache folder counts)
new=$(find "$ROOT" -path "$ROOT/.git" -prune -o -path "$ROOT/build*" -prune -o -newer "$tmp/stamp" -print
      [ -d "$ROOT/build/run-cache" ] && find "$ROOT/build/run-cache" -newer "$tmp/stamp" -print)
[ -n "$new" ] && echo "new in the source tree: $new"
ok=0
[ -z "$new" ] || ok=1
if [ "$in_git" = 1 ]; then
  git -C "$ROOT" status --porcelain >"$tmp/status.after"
  cmp -s "$tmp/status.before" "$tmp/status.after" || { diff "$tmp/status.before" "$tmp/status.after"; ok=1; }
fi
check "the source tree is unchanged" $ok

# 8. make uninstall removes what make install put there
make -s -C "$ROOT" uninstall PREFIX="$prefix" >/dev/null 2>&1
rm -f "$prefix/share/warpsim/devices/install-probe.preset"
make -s -C "$ROOT" uninstall PREFIX="$prefix" >/dev/null 2>&1
[ ! -e "$prefix/bin/warpsim" ] && [ ! -e "$prefix/lib/warpsim" ] && [ ! -e "$prefix/share/warpsim" ]
check "make uninstall removes the installed files" $?

if [ "$fails" -ne 0 ]; then echo "install: $fails check(s) failed"; exit 1; fi
echo "install: all checks passed"
exit 0
