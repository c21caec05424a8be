#!/usr/bin/env bash
# scripts/slurm/ on a real Slurm, on this one machine: installs Debian's
# slurm-wlm and munge where they are missing (apt-get), starts a private
# munged, slurmctld and slurmd (one node, proctrack/linuxproc, task/none, no
# cgroups, no accounting; state, sockets and logs in a temporary folder, on
# ports of their own), submits a sharded `skinny lab differential` with
# scripts/slurm/lab-submit.sh (an array of resumable shards and the merge
# after it), requeues one array task once its checkpoint is written (so that
# it is killed and runs again, going on from its checkpoint), waits, and
# checks that the merged findings have exactly a single run's counts, right
# pairs and interval. Stops the daemons it started and removes its folder.
#
# Prints "SKIPPED: <reason>" and exits 0 where Slurm cannot be had here (not
# root, no apt-get, a failed install, daemons that do not start).
#
#   scripts/slurm/test.sh
#
# Environment: SKINNY (a built skinny to submit; default: built here, at the
# opt-level of the workspace's tests, into target/debug/skinny).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
start=$(date +%s)
skip() {
    echo "SKIPPED: $*"
    exit 0
}

[ "$(id -u)" = 0 ] || skip "not root (installing and starting Slurm's daemons needs root)"
if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null || ! command -v munged > /dev/null; then
    command -v apt-get > /dev/null || skip "no slurm-wlm and no apt-get to install it"
    echo "slurm/test.sh: installing slurm-wlm and munge (apt-get)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge) > /dev/null 2>&1 ||
        skip "apt-get could not install slurm-wlm and munge"
fi

if [ -z "${SKINNY:-}" ]; then
    CARGO_PROFILE_DEV_OPT_LEVEL=2 cargo build --quiet --locked -p skinny-cli --bin skinny
    # Where cargo put it (CARGO_TARGET_DIR or the build configuration may move it).
    target=$(cargo metadata --format-version 1 --no-deps --locked |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
    SKINNY="$target/debug/skinny"
fi
[ -x "$SKINNY" ] || { echo "slurm/test.sh: no skinny binary at $SKINNY" >&2; exit 1; }
dir=$(cd "$(dirname "$SKINNY")" && pwd)
SKINNY="$dir/$(basename "$SKINNY")"

work="$(mktemp -d /tmp/skinny-slurm.XXXXXX)"
chmod 755 "$work"
pids=()
jobs_submitted=()
cleanup() {
    # Jobs still there (a failed run) first, so that no task outlives the test.
    if [ ${#jobs_submitted[@]} -gt 0 ]; then
        scancel "${jobs_submitted[@]}" 2> /dev/null || true
        sleep 1
    fi
    for p in "${pids[@]}"; do
        kill "$p" 2> /dev/null || true
    done
    for p in "${pids[@]}"; do
        wait "$p" 2> /dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

# A free TCP port (the kernel's pick; a race with another program is unlikely
# and would only make the daemons refuse, which skips).
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# munge: a key of our own and a socket in our folder (the system's munged,
# if any, is left alone).
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/out"
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge/munge.key"
munged --force --foreground --key-file="$work/munge/munge.key" --socket="$work/munge/munge.sock" \
    --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" --seed-file="$work/munge/seed" \
    > "$work/munge/out.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$work/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$work/munge/munge.sock" ] || skip "munged did not start: $(tail -n 3 "$work/munge/munged.log" "$work/munge/out.log" 2> /dev/null | tr '\n' ' ')"

node="$(hostname -s)"
cpus="$(nproc)"
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" << CONF
ClusterName=skinnytest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.sock
CredType=cred/munge
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF

slurmctld -D -c -f "$SLURM_CONF" > "$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" > "$work/slurmd.out" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 100); do
    if sinfo -h -o '%T' 2> /dev/null | grep -Eq '^(idle|mixed|allocated)'; then
        up=1
        break
    fi
    sleep 0.2
done
[ -n "$up" ] || skip "slurmctld and slurmd did not bring the node up: $(tail -n 2 "$work/slurmctld.log" "$work/slurmd.log" 2> /dev/null | tr '\n' ' ')"
echo "slurm/test.sh: Slurm $(sinfo --version | cut -d' ' -f2) up on $node ($cpus CPUs) in $(($(date +%s) - start)) s"

# A 2-round SKINNY-64-128 differential masked to one cell (hits about 1/16 of
# the time) in 4 shards of 512 key groups, a checkpoint after each group: long
# enough (a synced file each) for a requeue to land in the middle.
args=(--cipher skinny-64-128 --rounds 2 --dp 1000000000000000 --dc 0000000001000000
    --dc-mask 000000000f000000 --queries 2^23 --key-every 2^12 --seed 29 --show 8)
out="$work/out"
shards=4
ids=$(SKINNY="$SKINNY" SKINNY_CHECKPOINT_EVERY=0 SBATCH_ARGS="--cpus-per-task=1" \
    scripts/slurm/lab-submit.sh "$shards" "$out" differential "${args[@]}")
read -r array merge <<< "$ids"
jobs_submitted=("$array" "$merge")
echo "slurm/test.sh: submitted array job $array ($shards shards) and merge job $merge"

# Requeue task 0 once its checkpoint exists: Slurm kills it and starts it
# again, and it must go on from the checkpoint.
requeued=""
for _ in $(seq 600); do
    if [ -s "$out/part-0.ckpt" ]; then
        scontrol requeue "${array}_0" && requeued=1
        break
    fi
    [ -e "$out/part-0.json" ] && break
    sleep 0.05
done
[ -n "$requeued" ] || echo "slurm/test.sh: warning: task 0 ended before it could be requeued"

state() { scontrol show job "$1" 2> /dev/null | grep -o 'JobState=[A-Z_]*' | head -n 1 | cut -d= -f2; }
deadline=$(($(date +%s) + 150))
while :; do
    s="$(state "$merge")"
    case "$s" in
        COMPLETED) break ;;
        FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY)
            echo "slurm/test.sh: FAILED: the merge job ended $s"
            cat "$out"/*.log "$out"/*.out 2> /dev/null | tail -n 20
            exit 1
            ;;
    esac
    # Slurm holds a requeued job back a while (its BeginTime, once the old
    # run has ended); now will do.
    if [ -n "$requeued" ] && squeue -h -j "${array}_0" -o '%r' 2> /dev/null | grep -q BeginTime; then
        scontrol update jobid="${array}_0" StartTime=now || true
    fi
    if [ "$(date +%s)" -gt "$deadline" ]; then
        scontrol show job "${array}_0" || true
        echo "slurm/test.sh: FAILED: the jobs did not finish in 150 s (merge job: ${s:-gone})"
        squeue
        exit 1
    fi
    sleep 0.5
done

# The merged findings against one run of the whole, here.
"$SKINNY" lab differential "${args[@]}" --json > "$work/whole.json"
python3 - "$out/merged.json" "$work/whole.json" << 'PY'
import json, sys
merged, whole = (json.load(open(p)) for p in sys.argv[1:])
assert merged["complete"] is True, merged
assert merged["shards"] == [0, 1, 2, 3], merged["shards"]
for k in ("queries", "queries_total", "hits", "log2_p", "ci95", "right", "seed", "show"):
    assert merged[k] == whole[k], (k, merged[k], whole[k])
print(f"slurm/test.sh: merged = single run: {merged['hits']} hits in {merged['queries']} queries, "
      f"{len(merged['right'])} right pairs, backend {merged['backend']}")
PY
if [ -n "$requeued" ]; then
    grep -q "going on from" "$out/part-0.log" ||
        { echo "slurm/test.sh: FAILED: task 0 was requeued but did not go on from its checkpoint"; cat "$out/part-0.log"; exit 1; }
    echo "slurm/test.sh: task 0 requeued and resumed: $(grep -h 'going on from' "$out/part-0.log" | head -n 1 | sed 's/^skinny: //')"
fi
ls "$out"/*.ckpt > /dev/null 2>&1 && { echo "slurm/test.sh: FAILED: checkpoints left behind"; exit 1; }
echo "slurm/test.sh: passed in $(($(date +%s) - start)) s"
