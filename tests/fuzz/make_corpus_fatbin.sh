#!/usr/bin/env bash
# make_corpus_fatbin.sh - regenerate the seed corpus of fuzz_fatbin (tests/fuzz/corpus/fatbin/) with nvcc.
# Each seed is a real fatbin or ELF object that nvcc 13 made from one tiny kernel, in every compression
# mode nvcc offers. Run from anywhere: bash tests/fuzz/make_corpus_fatbin.sh
set -eu
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/corpus/fatbin"
NVCC=${NVCC:-nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
cat > "$tmp/tiny.cu" <<'CU'
__global__ void fz(int *p, int v) { p[threadIdx.x] = v + (int)threadIdx.x; }
CU
# fatbin NAME FLAGS...: nvcc -fatbin for sm_75 (an ELF entry and a PTX entry unless FLAGS pick targets)
fatbin() {
  local name=$1; shift
  "$NVCC" -fatbin "$@" -o "$out/$name.fatbin" "$tmp/tiny.cu"
}
fatbin none     -arch=sm_75 --compress-mode=none
fatbin zstd     -arch=sm_75 --compress-mode=default
fatbin zstd_all -arch=sm_75 --compress-mode=size -Xfatbin -compress-all
fatbin lz4      -arch=sm_75 --compress-mode=speed
fatbin lz4_all  -arch=sm_75 --compress-mode=speed -Xfatbin -compress-all
fatbin ptx2_lz4 -gencode arch=compute_75,code=compute_75 -gencode arch=compute_90,code=compute_90 --compress-mode=speed
# an ELF object reduced to its .nv_fatbin section: the path ws_fatbin_ptx_from_image takes
"$NVCC" -c -cudart shared -arch=sm_75 --compress-mode=speed -o "$tmp/tiny.o" "$tmp/tiny.cu"
objcopy -j .nv_fatbin "$tmp/tiny.o" "$out/elf_lz4.elf"
ls -l "$out"
