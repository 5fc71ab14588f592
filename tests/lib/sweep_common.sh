# sweep_common.sh - shared by tests/cli/sweep.sh and tests/cli/sweep_slurm.sh: the three test programs of the
# 24-point sweep (built into build/tests/progs like tests/run_tests.sh does, under its lock, so the suite builds
# each once) and the sweep's spec: 3 programs x 2 devices x 2 overrides (max_blocks_per_sm) x 2 sizes,
# functional mode. Source it after setting OUT and NAME; it sets PROGS and writes $OUT/sweep.toml.
SWEEP_PROGRAMS="dot_product spmv matvec"
BINDIR=build/tests/progs
mkdir -p "$BINDIR" "$OUT"
# build tests/programs/NAME.cu unless build/tests/progs/NAME is newer (exit 77 from the test when nvcc is missing)
sweep_build() {
  local name=$1 src=tests/programs/$1.cu
  {
    flock 9
    [ -x "$BINDIR/$name" ] && [ "$BINDIR/$name" -nt "$src" ] && return 0
    command -v "$NVCC" >/dev/null 2>&1 || { echo "$NAME: $NVCC not found: cannot build $src"; exit 77; }
    "$NVCC" -cudart shared -lineinfo -o "$BINDIR/.$name.tmp.$$" "$src" >"$BINDIR/$name.log" 2>&1 ||
      { echo "$NAME: nvcc failed for $src (see $BINDIR/$name.log)"; exit 1; }
    mv -f "$BINDIR/.$name.tmp.$$" "$BINDIR/$name"
  } 9>"$BINDIR/.$name.lock"
}
for p in $SWEEP_PROGRAMS; do sweep_build "$p"; done
PROGS=$(cd "$BINDIR" && pwd)
# the spec; paths are absolute, so the sweep may start anywhere
sweep_toml() {   # sweep_toml OUTDIR: the spec with out = OUTDIR
  cat <<TOML
# the sweep of tests/cli/sweep.sh: 3 programs x 2 devices x 2 overrides x 2 sizes = 24 points
out = "$1"
jobs = 2
timeout = 60
gpu = ["h100", "a100"]
mode = "functional"

[set]
max_blocks_per_sm = [8, 32]

[program.dot_product]
command = ["$PROGS/dot_product", "{arg}"]
args = [1024, 4096]

[program.spmv]
command = "$PROGS/spmv {arg}"
args = ["256", "512"]

[program.matvec]   # an argument of two words: {arg} alone becomes both
command = ["$PROGS/matvec", "{arg}"]
args = ["64 64", "128 64"]
TOML
}
