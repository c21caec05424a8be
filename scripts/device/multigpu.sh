#!/usr/bin/env bash
# Every GPU of a host, in one call (< 8 minutes on 1, 2 or 4 H200s), after
# `scripts/gpu/check.sh` there (each GPU alone == CPU, striping == one GPU ==
# CPU, the lab's outcome the same on any number of GPUs; `skinny selftest`):
# `skinny info`, the CLI's --gpus errors, then the scaling for N = 1 .. all
# GPUs (docs/multi-gpu.md):
#   - lab queries/s, 18-round SKINNY-128-256, fresh key every query,
#     differential and boomerang, queries scaled with N (CLI, --gpus N);
#   - device-resident kernels, every GPU at once (multigpu resident);
#   - host memory to host memory through the library, >= 4 GiB buffers,
#     page-locked and pageable (multigpu host);
#   - the host's memory bandwidth (multi-threaded memcpy) for the 80 % rule.
# Staged binaries in .gpu-bin/ (scripts/gpu/stage.sh). MAX_N=2 limits N.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=scripts/lib/device.sh
. scripts/lib/device.sh
need skinny multigpu
export SKINNY_REQUIRE_GPU=1
T0=$(date +%s)
header
nvidia-smi --query-gpu=index,pci.bus_id --format=csv,noheader
nvidia-smi topo -m 2>/dev/null | head -12
echo "memory: $(free -g | awk '/Mem:/{print $2}') GiB"
NG=$(nvidia-smi -L | wc -l); MAX=${MAX_N:-$NG}; [ "$MAX" -gt "$NG" ] && MAX=$NG
echo "## info"; timeout 60 "$B/skinny" info 2>&1 | grep -Ei "^gpu|gpu "
echo "## CLI --gpus errors (each one line, exit 2)"
for g in 0 "$((NG + 1))" "0,0" "$NG,"; do
    out=$(echo hi | timeout 20 "$B/skinny" encrypt -b gpu --gpus "$g" --key 000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f --iv 00000000000000000000000000000000 2>&1 >/dev/null)
    echo "--gpus $g -> exit $? : $out"
done
echo "## scaling (elapsed so far: $(( $(date +%s) - T0 )) s)"
echo "### host memory bandwidth, device-resident, host to host"
timeout 200 "$B/multigpu" all "$MAX" 2>&1
echo "### lab, 18-round SKINNY-128-256, fresh keys"
DP=01000000000000000000000000000000; DC=00000001000000000000000000000000
DK=0000000000000000000000000000000020000000000000000000000000000000
printf "%-13s %3s %14s %9s\n" experiment N "queries/s" scaling
for exp in differential boomerang; do
    one=""
    for n in $(seq 1 "$MAX"); do
        if [ $exp = differential ]; then
            q=$(( (1 << 35) * n )); extra="--dk $DK"
        else
            q=$(( (1 << 34) * n )); extra="--dk1 $DK --dk2 $DK"
        fi
        r=$(timeout 60 "$B/skinny" lab $exp -b gpu --gpus "$n" --cipher skinny-128-256 --rounds 18 --dp $DP --dc $DC $extra \
            --queries $q --key-every 1 --json 2>&1 | grep -o '"rate_per_s": *[0-9.e+]*' | grep -o '[0-9.e+]*$')
        [ -z "$one" ] && one=$r
        s=$(awk -v r="${r:-0}" -v o="${one:-1}" -v n="$n" 'BEGIN { if (o > 0) printf "%.3f", r / (o * n); else print "-" }')
        printf "%-13s %3d %14.4g %9s\n" $exp "$n" "${r:-0}" "$s"
    done
done
echo "## done in $(( $(date +%s) - T0 )) s"
