#!/usr/bin/env bash
# A short H200 check after a small GPU change: the GPU suite (a missing GPU
# fails), the start-up part of the datapath example, and the gpu backend's CLI
# wall time at 8 and 64 MiB (median of 5). Prebuilt binaries in .gpu-bin/.
set -uo pipefail
B=.gpu-bin
export XDG_CACHE_HOME=/tmp/skinny-cache SKINNY_REQUIRE_GPU=1
echo "commit: $(cat $B/COMMIT)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 120 $B/gpu-tests --test-threads=1 2>&1 | grep -E "test result|panicked|FAILED"
timeout 120 $B/cuda-gpu-tests --test-threads=1 2>&1 | grep -E "test result|panicked|FAILED"
timeout 60 $B/datapath 64 2>&1 | head -24
K=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f; IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
for mib in 8 64; do
    head -c $((mib << 20)) /dev/zero > /dev/shm/q-in
    for i in 1 2 3 4 5; do
        s=$(date +%s.%N); $B/skinny encrypt -q -b gpu -K $K --iv $IV /dev/shm/q-in -o /dev/shm/q-out; e=$(date +%s.%N)
        awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f\n", b - a }'
    done | sort -g | awk -v m="$mib" '{v[NR]=$1} END {print "gpu CLI " m " MiB CTR median of 5: " v[3] " s"}'
    $B/skinny encrypt -q -b cpu -K $K --iv $IV /dev/shm/q-in -o /dev/shm/q-cpu
    cmp -s /dev/shm/q-out /dev/shm/q-cpu && echo "gpu == cpu" || echo "MISMATCH"
done
