# progs.sh - building tests/programs/NAME.cu into build/tests/progs/NAME, shared by the test runner and the cli
# scripts that run those programs (sourced; needs the repository root as the working folder and NVCC set), so a
# program is compiled once per run of the suite whoever needs it first.
PROGDIR=tests/programs
BINDIR=build/tests/progs
SKIP_RC=77

# directive value from a source line "// KEY: value"
directive() { grep -m1 "^// $1:" "$2" 2>/dev/null | sed "s|^// $1:[[:space:]]*||"; }

# true when build/tests/progs/NAME exists and is newer than its source
prog_fresh() { [ -x "$BINDIR/$1" ] && [ "$BINDIR/$1" -nt "$PROGDIR/$1.cu" ]; }

# compile tests/programs/NAME.cu unless up to date, under a lock (the tests of every mode share the binary);
# exit 0 when the binary is up to date, 77 when nvcc is missing, 1 when nvcc failed (log in NAME.log)
compile_one() {
  local name=$1 src=$PROGDIR/$1.cu log=$BINDIR/$1.log tmp flags
  mkdir -p "$BINDIR"
  {
    flock 9
    prog_fresh "$name" && return 0
    if ! command -v "${NVCC:-nvcc}" >/dev/null 2>&1; then
      echo "${NVCC:-nvcc} not found: cannot build $src" >"$log"
      return $SKIP_RC
    fi
    flags=$(directive NVCCFLAGS "$src")
    tmp=$BINDIR/.$name.tmp.$$
    # shellcheck disable=SC2086
    if "${NVCC:-nvcc}" -cudart shared -lineinfo $flags -o "$tmp" "$src" >"$log" 2>&1; then
      mv -f "$tmp" "$BINDIR/$name"
      return 0
    fi
    rm -f "$tmp"
    echo "nvcc failed for $name (see $log)" >&2
    return 1
  } 9>"$BINDIR/.$name.lock"
}
