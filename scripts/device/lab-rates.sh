#!/usr/bin/env bash
# The lab on the H200, in one call: the bulk GPU suite and the selftest (a
# missing GPU fails), the lab's GPU tests (GPU == CPU, published
# distinguishers), the query rates (lab_speed), and a
# long boomerang end to end through the CLI. Prebuilt binaries in .gpu-bin/
# (scripts/gpu-stage.sh).
set -uo pipefail
B=.gpu-bin
export XDG_CACHE_HOME=/tmp/skinny-cache SKINNY_REQUIRE_GPU=1
echo "commit: $(cat $B/COMMIT)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
echo "## bulk GPU suite"; timeout 120 $B/gpu-tests --test-threads=1 2>&1 | grep -E "test result|panicked|FAILED"
echo "## cuda GPU suite"; timeout 120 $B/cuda-gpu-tests --test-threads=1 2>&1 | grep -E "test result|panicked|FAILED"
echo "## selftest"; timeout 120 $B/skinny selftest 2>&1 | tail -3
echo "## lab GPU tests"; timeout 200 $B/lab-gpu-tests --test-threads=4 2>&1 | grep -E "^test |test result|panicked|FAILED|left|right|published"
echo "## published distinguishers (CPU tests, and every probability on the GPU at the published size)"
timeout 150 $B/lab-published-tests --test-threads=4 --nocapture 2>&1 | grep -E "test result|panicked|FAILED|published on the GPU"
echo "## lab_speed, default kernels (GPU 2^${LAB_LOG2:-35} queries, CPU 2^${CPU_LOG2:-22})"
for i in $(seq "${LAB_REPEATS:-1}"); do timeout 150 $B/lab_speed ${LAB_LOG2:-35} ${CPU_LOG2:-22}; done
echo "## CLI: 2^${LONG_LOG2:-37} fresh-key boomerang queries, 18-round SKINNY-128-256"
DP=01000000000000000000000000000000; DC=00000001000000000000000000000000
DK=0000000000000000000000000000000020000000000000000000000000000000
timeout 150 $B/skinny lab boomerang -b gpu --cipher skinny-128-256 --rounds 18 --dp $DP --dc $DC --dk1 $DK --dk2 $DK \
    --queries 2^${LONG_LOG2:-37} --key-every 1 --json | head -c 700; echo
