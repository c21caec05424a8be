#!/usr/bin/env bash
# The lab on the H200: its GPU tests (GPU == CPU; a missing GPU fails), the
# kernels' registers and the query rates (lab_speed), the CLI end to end, and
# the first GPU runs of the bulk suite for the kernel-source split. Prebuilt
# binaries in .gpu-bin/ (scripts/gpu-stage.sh).
set -uo pipefail
B=.gpu-bin
export XDG_CACHE_HOME=/tmp/skinny-cache SKINNY_REQUIRE_GPU=1
echo "commit: $(cat $B/COMMIT)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "## bulk GPU suite"; timeout 120 $B/gpu-tests --test-threads=1 2>&1 | grep -E "test result|panicked|FAILED"
echo "## lab GPU tests"; timeout 300 $B/lab-gpu-tests --test-threads=1 2>&1 | grep -E "^test |test result|panicked|FAILED|left|right"
echo "## lab_speed (GPU 2^${LAB_LOG2:-35} queries, CPU 2^${CPU_LOG2:-24})"
timeout 240 $B/lab_speed ${LAB_LOG2:-35} ${CPU_LOG2:-24}
echo "## CLI"
DP=01000000000000000000000000000000; DC=00000001000000000000000000000000
DK=0000000000000000000000000000000020000000000000000000000000000000
for b in gpu cpu; do
  q=$([ $b = gpu ] && echo 2^34 || echo 2^22)
  timeout 120 $B/skinny lab differential -b $b --cipher skinny-128-256 --rounds 18 --dp $DP --dc $DC --dk $DK --queries $q --key-every 1 --json | head -c 600; echo
done
timeout 60 $B/skinny lab boomerang -b gpu --cipher skinny-128-256 --rounds 1 --dp 10000000000000000000000000000000 --dc 10000000100000001000000000000000 --queries 2^30 --show 2 --json | head -c 900; echo
