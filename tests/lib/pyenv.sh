#!/usr/bin/env bash
# pyenv.sh [DIR [EXTRA...]] - the Python virtual environment of the Python tests (tests/cli/python.sh,
# tests/python/*.py): CuPy, Numba (numba-cuda with NVIDIA's cuda-bindings and cuda-core) and NumPy from PyPI, at the
# versions below, and the EXTRA pinned packages (tests/cli/triton.sh: triton), in DIR (default build/pyenv). Reused when DIR already holds exactly these versions; pip's cache keeps a second
# install quick. Exits 0 with the environment ready, 1 (saying why) when python3 -m venv or PyPI fails.
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIR=${1:-$ROOT/build/pyenv}
# the versions the tests were written against (cuda-core decides between nvJitLink and the driver's cuLink*)
PKGS="numpy==2.4.6 numba-cuda==0.30.4 cuda-core==1.2.2 cuda-bindings==13.5.0 cupy-cuda13x==14.2.0"
[ $# -gt 1 ] && PKGS="$PKGS ${*:2}"
STAMP=$DIR/.warpsim-packages
if [ -x "$DIR/bin/python3" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$PKGS" ]; then exit 0; fi
rm -rf "$DIR"
PY=${PYTHON:-python3}
if ! "$PY" -m venv "$DIR" >/dev/null 2>&1; then
  echo "pyenv: $PY -m venv failed (install python3-venv)"
  rm -rf "$DIR"
  exit 1
fi
# shellcheck disable=SC2086
if ! "$DIR/bin/python3" -m pip install -q --disable-pip-version-check --no-compile $PKGS >"$DIR.log" 2>&1; then
  echo "pyenv: pip install $PKGS failed:"
  tail -3 "$DIR.log"
  rm -rf "$DIR"
  exit 1
fi
echo "$PKGS" >"$STAMP"
