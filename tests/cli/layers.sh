#!/usr/bin/env bash
# layers.sh - the architecture's one-way layers, as the #include lines show them: ptx -> core (mem, device) ->
# timing, check (and analysis, fatbin beside) -> report -> host session -> runtime and cli (the faces) -> driver
# (the driver API face, served by the runtime); jitlink (nvJitLink's stand-in), preload (libwarpsim_preload.so)
# and libs (CUDA's libraries, over the public CUDA APIs only) stand alone. Each folder may
# include only the folders listed for it; nothing in src/ptx may include or call the core; the runtime sees the
# simulator only through src/core/sim.h and the host session; the driver sees the runtime only through its bridge
# (src/runtime/rt_bridge.h) and the CUDA runtime API.
# TIMEOUT: 30
set -u
cd "$(dirname "$0")/../.." || exit 2
declare -A allow=(
  [ptx]=""
  [mem]=""
  [device]=""
  [fatbin]=""
  [core]="ptx mem device"
  [analysis]="device"
  [timing]="core ptx mem device"
  [check]="core ptx mem device"
  [report]="timing check analysis core ptx mem device"
  [host]="report timing check analysis core ptx mem device fatbin"
  [runtime]="host core analysis fatbin device"
  [cli]="host report timing check analysis core ptx mem device fatbin"
  [driver]="runtime"
  [jitlink]=""
  [preload]=""
  [libs]="common" # CUDA's libraries as warpsim provides them (src/libs/cublas, ...): only the CUDA API they are built
                  # on, and what they share (src/libs/common, reached as ../common from a library's folder)
)
fails=0
for d in src/*/; do
  n=$(basename "$d")
  if [ -z "${allow[$n]+x}" ]; then echo "FAIL  src/$n is not a known layer (add it to tests/cli/layers.sh)"; fails=$((fails + 1)); continue; fi
  while IFS=: read -r file dep; do
    [ -n "$dep" ] || continue
    case " ${allow[$n]} " in *" $dep "*) ;; *) echo "FAIL  $file includes src/$dep (src/$n may include: ${allow[$n]:-nothing})"; fails=$((fails + 1)) ;; esac
  done < <(grep -rHo --include='*.[ch]' '#include "\.\./[a-z]*/' "$d" 2>/dev/null | sed 's|:#include "\.\./|:|; s|/$||')
done
# the runtime: only the public simulator header of the core
bad=$(grep -Hn '#include "\.\./core/' src/runtime/*.[ch] | grep -v 'core/sim.h"' || true)
[ -z "$bad" ] || { echo "FAIL  the runtime includes core internals:"; echo "$bad"; fails=$((fails + 1)); }
# the driver: only the runtime's bridge header
bad=$(grep -Hn '#include "\.\./runtime/' src/driver/*.[ch] | grep -v 'runtime/rt_bridge.h"' || true)
[ -z "$bad" ] || { echo "FAIL  the driver includes runtime internals:"; echo "$bad"; fails=$((fails + 1)); }
# no function of the core is called from src/ptx
calls=$(grep -Hn '\bws_gpu_[a-z]*(\|\bws_launch(\|\bws_mem_[a-z]*(\|\bws_malloc\|\bws_warp_[a-z]*(\|\bws_run_[a-z_]*(\|\bws_module_[a-z]*(' src/ptx/*.[ch] || true)
[ -z "$calls" ] || { echo "FAIL  src/ptx calls the core:"; echo "$calls"; fails=$((fails + 1)); }
if [ "$fails" -eq 0 ]; then echo "layers: every #include points down the layers"; fi
[ "$fails" -eq 0 ]
