#!/usr/bin/env bash
# TIMEOUT: 180
# warpsim sweep --slurm through a real Slurm on this machine: a slurm.conf for localhost in a temporary folder
# (SlurmUser root, one node with the real CPU count and memory, no cgroups: proctrack/linuxproc, task/none, no
# accounting, auth/none and cred/none so no munge key is needed; the partition lets 12 tasks share a CPU
# (OverSubscribe=FORCE:12), so the 24 short tasks start in one scheduling round instead of twelve rounds of about a
# second each), slurmctld and slurmd started in the foreground
# (-D) in the background and stopped at the end (trap); then the 24-point sweep of tests/cli/sweep.sh runs as a
# job array (sbatch --array, one `warpsim sweep --run-point` per task), is waited for (squeue polling) and merged,
# and its results.csv and results.json equal a local sweep's bit for bit once the host wall-clock column
# host_seconds is removed. Installs nothing: exits 77 (skipped) with the reason when slurmctld, slurmd, sbatch or
# squeue are missing (Debian: apt-get install slurm-wlm), when the daemons cannot start, or when nvcc or python3
# is missing.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
WARPSIM=${WARPSIM:-build/warpsim}
case "$WARPSIM" in /*) ;; *) WARPSIM="$PWD/$WARPSIM" ;; esac
export WARPSIM
NVCC=${NVCC:-nvcc}
NAME=sweep_slurm
OUT=$PWD/build/tests/sweep_slurm
command -v python3 >/dev/null 2>&1 || { echo "sweep_slurm: python3 not found"; exit 77; }
for t in slurmctld slurmd sbatch squeue sinfo; do
  command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] ||
    { echo "sweep_slurm: Slurm is not installed ($t not found; Debian: apt-get install slurm-wlm)"; exit 77; }
done
PATH=$PATH:/usr/sbin
[ "$(id -u)" = 0 ] || { echo "sweep_slurm: needs root to start slurmd (SlurmUser=root)"; exit 77; }
rm -rf "$OUT"
# shellcheck source=../lib/sweep_common.sh
. tests/lib/sweep_common.sh

# the cluster: one node, this machine
T=$(mktemp -d /tmp/warpsim-slurm.XXXXXX)
ctld=0 slurmd_pid=0
stop() {
  [ "$slurmd_pid" != 0 ] && kill "$slurmd_pid" 2>/dev/null
  [ "$ctld" != 0 ] && kill "$ctld" 2>/dev/null
  [ "$slurmd_pid" != 0 ] && wait "$slurmd_pid" 2>/dev/null
  [ "$ctld" != 0 ] && wait "$ctld" 2>/dev/null
  rm -rf "$T"
}
trap stop EXIT
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
port=$((20000 + RANDOM % 20000))
mkdir -p "$T/state" "$T/spool"
cat > "$T/slurm.conf" <<CONF
ClusterName=warpsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
MpiDefault=none
ReturnToService=2
MinJobAge=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=sweeptest Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:12
CONF
export SLURM_CONF=$T/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" > "$T/slurmctld.out" 2>&1 &
ctld=$!
slurmd -D -f "$SLURM_CONF" -N "$host" > "$T/slurmd.out" 2>&1 &
slurmd_pid=$!
up=0
for _ in $(seq 1 150); do
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null)
  case "$state" in idle*|mixed*|allocated*) up=1; break ;; esac
  kill -0 "$ctld" 2>/dev/null && kill -0 "$slurmd_pid" 2>/dev/null || break
  sleep 0.1
done
if [ "$up" != 1 ]; then
  echo "sweep_slurm: Slurm cannot start here (node state '${state:-none}'):"
  tail -3 "$T/slurmctld.log" "$T/slurmd.log" "$T/slurmctld.out" "$T/slurmd.out" 2>/dev/null | grep -v '^$' | tail -8
  exit 77
fi
echo "ok   slurmctld and slurmd up on $host ($cpus CPUs, $mem MiB), port $port"

fails=0
# the same sweep locally and through Slurm
sweep_toml "$OUT/local" > "$OUT/local.toml"
sweep_toml "$OUT/slurm" > "$OUT/slurm.toml"
"$WARPSIM" sweep "$OUT/local.toml" > "$OUT/local.log" 2>&1 || { echo "FAIL local sweep"; tail -5 "$OUT/local.log"; exit 1; }
if "$WARPSIM" sweep --slurm --partition sweeptest --time 5 --cpus-per-task 1 "$OUT/slurm.toml" > "$OUT/slurm.log" 2>&1
then echo "ok   warpsim sweep --slurm (24 points)"
else echo "FAIL warpsim sweep --slurm"; tail -5 "$OUT/slurm.log"; tail -5 "$T/slurmctld.log"; exit 1; fi
grep -q "submitted Slurm job" "$OUT/slurm.log" && grep -q "24 of 24 points passed" "$OUT/slurm.log" &&
  echo "ok   submitted as a job array, 24 of 24 points passed" || { echo "FAIL $(cat "$OUT/slurm.log")"; fails=$((fails + 1)); }
grep -q '^#SBATCH --array=0-23$' "$OUT/slurm/sweep.sbatch" && grep -q -- '--run-point' "$OUT/slurm/sweep.sbatch" &&
  grep -q '^#SBATCH --partition=sweeptest$' "$OUT/slurm/sweep.sbatch" &&
  echo "ok   sweep.sbatch: --array=0-23, --partition, one --run-point per task" ||
  { echo "FAIL sweep.sbatch:"; cat "$OUT/slurm/sweep.sbatch"; fails=$((fails + 1)); }
n=$(ls "$OUT"/slurm/points/slurm-*.out 2>/dev/null | wc -l)
[ "$n" = 24 ] && echo "ok   24 array tasks ran (their Slurm output files)" || { echo "FAIL $n Slurm task output files"; fails=$((fails + 1)); }
python3 tests/lib/sweep_check.py same "$OUT/local" "$OUT/slurm" || fails=$((fails + 1))
# --no-wait submits and returns; --resume waits for the job while squeue lists it, then merges
"$WARPSIM" sweep --slurm --no-wait --out "$OUT/nowait" --arg 0,0,3 -- sh -c "sleep 1; exit {arg}" > "$OUT/nowait.log" 2>&1; rc=$?
[ "$rc" = 0 ] && grep -q "not waiting" "$OUT/nowait.log" && ! [ -e "$OUT/nowait/results.csv" ] &&
  echo "ok   --slurm --no-wait returns at once, nothing merged yet" || { echo "FAIL --no-wait: exit $rc: $(cat "$OUT/nowait.log")"; fails=$((fails + 1)); }
"$WARPSIM" sweep --resume "$OUT/nowait" > "$OUT/nowait_resume.log" 2>&1; rc=$?
if [ "$rc" = 1 ] && grep -q "waiting for Slurm job" "$OUT/nowait_resume.log" &&
   grep -q "3 points, 3 finished, 0 to run" "$OUT/nowait_resume.log" && grep -q "2 of 3 points passed" "$OUT/nowait_resume.log"
then echo "ok   --resume waited for the job and merged (2 of 3 points passed, 1 exit code 3)"
else echo "FAIL --resume after --no-wait: exit $rc: $(cat "$OUT/nowait_resume.log")"; fails=$((fails + 1)); fi
[ "$fails" = 0 ] || { echo "sweep_slurm: $fails failed"; exit 1; }
echo "sweep_slurm: all passed"
