#!/bin/bash
# One shard of a `skinny lab` experiment per Slurm array task, resumable:
# each task counts shard $SLURM_ARRAY_TASK_ID of N with a checkpoint, so a
# task that is requeued (preempted, its node lost, `scontrol requeue`) goes on
# from its last segment instead of starting over. Submit it with
# scripts/slurm/lab-submit.sh (the array and the merge after it), or:
#
#   sbatch --array=0-63 scripts/slurm/lab-array.sh OUT differential \
#       --cipher skinny-128-256 --rounds 10 --dp ... --dc ... --queries 2^40 --seed 7 --show 10
#
# OUT: a folder every node sees. Task I writes OUT/part-I.json (its findings,
# `skinny lab ... --json`) only once its shard is counted, keeps its
# checkpoint in OUT/part-I.ckpt meanwhile (removed at the end) and its log in
# OUT/part-I.log. The shard count is SKINNY_SHARDS, or the array's size
# (SLURM_ARRAY_TASK_COUNT: give the array as 0-(N-1)).
#
# Environment: SKINNY (the binary; default: skinny on the PATH),
# SKINNY_CHECKPOINT_EVERY (seconds of counting between checkpoints, default
# 30), SLURM_CPUS_PER_TASK (--threads).
#SBATCH --job-name=skinny-lab
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail
if [ $# -lt 2 ] || [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
    echo "usage (as a Slurm array job): sbatch --array=0-(N-1) $0 OUT EXPERIMENT [skinny lab options...]" >&2
    exit 2
fi
out="$1"
experiment="$2"
shift 2
skinny="${SKINNY:-skinny}"
i="$SLURM_ARRAY_TASK_ID"
n="${SKINNY_SHARDS:-${SLURM_ARRAY_TASK_COUNT:?set SKINNY_SHARDS or give the array as 0-(N-1)}}"
threads=()
if [ -n "${SLURM_CPUS_PER_TASK:-}" ]; then
    threads=(--threads "$SLURM_CPUS_PER_TASK")
fi
mkdir -p "$out"
# The findings go to a temporary name first: an interrupted run prints a
# partial report, which must never pass for the shard's.
"$skinny" lab "$experiment" "$@" --shard "$i/$n" "${threads[@]}" --json \
    --checkpoint "$out/part-$i.ckpt" --checkpoint-every "${SKINNY_CHECKPOINT_EVERY:-30}" \
    > "$out/part-$i.json.partial" 2>> "$out/part-$i.log"
mv "$out/part-$i.json.partial" "$out/part-$i.json"
