#!/usr/bin/env bash
# TIMEOUT: 120
# warpsim run --threads N: the timing model simulates the SMs on N threads with bit-identical results at any N.
# One small program (shared-memory tiles with barriers, shuffles, global atomics, 400 blocks: several waves over
# the 132 SMs, so blocks retire and start on every thread's SMs) runs at --threads 1, 2 and 3; the program's
# output and every report field but host_seconds must be equal. A bad --threads value is refused.
# Exits 77 (skipped) when nvcc or python3 is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
NVCC=${NVCC:-nvcc}
OUT=build/tests/threads_n
mkdir -p "$OUT"
command -v python3 >/dev/null 2>&1 || { echo "timing_threads_n: python3 not found"; exit 77; }
command -v "$NVCC" >/dev/null 2>&1 || { echo "timing_threads_n: $NVCC not found"; exit 77; }
cat >"$OUT/mix.cu" <<'CU'
// warpsim test: a block-wide tile sum through shared memory, a warp shuffle reduction and global atomics
#include <cstdio>
__global__ void mix(const float *a, float *out, unsigned *hist, int n) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a[i] : 0.0f;
  tile[threadIdx.x] = v * 2.0f;
  __syncthreads();
  float s = tile[threadIdx.x] + tile[(threadIdx.x + 37) % blockDim.x];
  for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xffffffffu, s, d);
  if ((threadIdx.x & 31) == 0) atomicAdd(&out[blockIdx.x % 7], s);
  atomicAdd(&hist[(i * 7) & 63], 1u);
  if (i < n) out[8 + i] = s;
}
int main() {
  const int n = 400 * 128;
  static float ha[n], hout[n + 8];
  static unsigned hhist[64];
  float *a, *out;
  unsigned *hist;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&out, (n + 8) * sizeof(float));
  cudaMalloc(&hist, 64 * sizeof(unsigned));
  for (int i = 0; i < n; i++) ha[i] = (float)(i % 13);
  cudaMemcpy(a, ha, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, (n + 8) * sizeof(float));
  cudaMemset(hist, 0, 64 * sizeof(unsigned));
  mix<<<400, 128>>>(a, out, hist, n);
  if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL mix\n"); return 1; }
  cudaMemcpy(hout, out, (n + 8) * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hhist, hist, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  unsigned total = 0;
  for (int i = 0; i < 64; i++) total += hhist[i];
  printf("%s mix %u %.1f %.1f\n", total == (unsigned)n ? "PASS" : "FAIL", total, hout[0], hout[8 + 1000]);
  return total == (unsigned)n ? 0 : 1;
}
CU
if ! [ "$OUT/mix" -nt "$OUT/mix.cu" ]; then
  "$NVCC" -cudart shared -o "$OUT/mix" "$OUT/mix.cu" || { echo "FAIL: nvcc"; exit 1; }
fi
fails=0
for n in 1 2 3; do
  "$WARPSIM" run --timing --quiet --threads "$n" --report "$OUT/t$n.json" "$OUT/mix" >"$OUT/out$n.txt" 2>&1 ||
    { echo "FAIL: --threads $n: $(tail -3 "$OUT/out$n.txt")"; fails=$((fails + 1)); }
done
for n in 2 3; do
  cmp -s "$OUT/out1.txt" "$OUT/out$n.txt" || { echo "FAIL: output at --threads $n differs"; fails=$((fails + 1)); }
done
python3 - "$OUT"/t1.json "$OUT"/t2.json "$OUT"/t3.json <<'PY' || fails=$((fails + 1))
import json, sys
runs = [json.load(open(f))["launches"] for f in sys.argv[1:]]
strip = lambda L: [{k: v for k, v in l.items() if k != "host_seconds"} for l in L]
base = strip(runs[0])
for n, r in zip((2, 3), runs[1:]):
    if strip(r) != base:
        print(f"FAIL: the report at --threads {n} differs from --threads 1"); sys.exit(1)
print(f"ok   --threads 1, 2, 3: bit-identical ({base[0]['sm__cycles_elapsed.max']} cycles, "
      f"{base[0]['smsp__inst_executed.sum']} warp instructions)")
PY
if "$WARPSIM" run --timing --threads 0 "$OUT/mix" >"$OUT/bad.txt" 2>&1; then
  echo "FAIL: --threads 0 was accepted"; fails=$((fails + 1))
elif grep -q -- "--threads=0: expected" "$OUT/bad.txt"; then echo "ok   --threads 0 refused"
else echo "FAIL: --threads 0: $(cat "$OUT/bad.txt")"; fails=$((fails + 1)); fi
grep -q "^PASS mix" "$OUT/out1.txt" || { echo "FAIL: the program: $(cat "$OUT/out1.txt")"; fails=$((fails + 1)); }
echo "timing_threads_n: $fails failure(s)"
[ "$fails" = 0 ]
