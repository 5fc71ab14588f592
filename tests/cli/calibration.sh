#!/usr/bin/env bash
# TIMEOUT: 300
# Timing model against the real H200 (../shared/truth): all 31 truth benchmarks under --timing on the h200 preset.
# Passes when the mean absolute error of sm__cycles_elapsed.max is at most 25%, no kernel is off by 2x or more,
# every pairwise comparison the seed teaches points the right way, and every deterministic counter is exact.
set -eu
cd "$(git rev-parse --show-toplevel)"
[ -d ../shared/truth ] || { echo "no ../shared/truth beside the repository: skipped"; exit 0; }
python3 bench/calibrate.py --no-write --check --jobs 2 | tail -n 30
