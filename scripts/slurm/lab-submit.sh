#!/bin/bash
# Submits a sharded `skinny lab` experiment to Slurm: an array of N tasks
# (scripts/slurm/lab-array.sh, one resumable shard each) and, after all of
# them succeed, one job that merges their findings into OUT/merged.json
# (`skinny lab merge --json`, which checks every part and says whether all
# N shards are there).
#
#   scripts/slurm/lab-submit.sh N OUT EXPERIMENT [skinny lab options...]
#   e.g. scripts/slurm/lab-submit.sh 64 /shared/run7 differential --cipher skinny-128-256 \
#            --rounds 10 --dp ... --dc ... --queries 2^40 --seed 7 --show 10
#
# Prints the two job ids ("ARRAY MERGE"). Environment: SKINNY (the binary,
# default skinny on the PATH; give an absolute path), SBATCH_ARGS (more sbatch
# options for the array, such as "--cpus-per-task=32 --partition=long"),
# SKINNY_CHECKPOINT_EVERY (see lab-array.sh).
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 N OUT EXPERIMENT [skinny lab options...]" >&2
    exit 2
fi
n="$1"
out="$2"
shift 2
here="$(cd "$(dirname "$0")" && pwd)"
skinny="${SKINNY:-skinny}"
mkdir -p "$out"
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
array=$(sbatch --parsable --array="0-$((n - 1))" --output="$out/slurm-%A_%a.out" \
    --export=ALL,SKINNY="$skinny",SKINNY_SHARDS="$n" ${SBATCH_ARGS:-} \
    "$here/lab-array.sh" "$out" "$@")
array="${array%%;*}"
merge=$(sbatch --parsable --dependency="afterok:$array" --job-name=skinny-lab-merge \
    --output="$out/merge.out" --wrap="\"$skinny\" lab merge \"$out\"/part-*.json --json > \"$out/merged.json\"")
echo "${array} ${merge%%;*}"
