#!/usr/bin/env bash
# SKINNY-AEAD's speed on the device machine, from the staged binaries in
# .gpu-bin/ (scripts/gpu/stage.sh); `scripts/gpu/check.sh aead-gpu
# seal-gpu` checks it first (GPU == CPU for every member, up to more
# than 1 GiB, wrong tags). The sealed engines in memory, the resident speed
# against the ECB kernel (the target: seal at least 0.8x ECB, open within
# 15 %), the same under other occupancy settings, one CPU core against the CPU
# ECB code, and `skinny seal`/`open` of 4 GiB in /dev/shm against `cp`
# (scripts/device/seal-vs-cp.sh).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=scripts/lib/device.sh
. scripts/lib/device.sh
need engines_speed gpu_aead_speed aead_speed
header
echo "== sealed engines in memory (1 GiB, 3 runs)"; "$B/engines_speed" 1024 3
echo "== resident speed (1 GiB, 5 runs)"; "$B/gpu_aead_speed" 1024 5
# Occupancy against registers: blocks of 128 threads an SM that the kernel is
# compiled for (the default is 3, as the ECB kernel).
for mb in ${AEAD_MIN_BLOCKS_TRY-2 4}; do
  echo "== resident speed, AEAD_MIN_BLOCKS=$mb (1 GiB, 3 runs)"
  SKINNY_EXAMPLE_NVRTC="-DAEAD_MIN_BLOCKS=$mb" "$B/gpu_aead_speed" 1024 3 | tail -2
done
echo "== one CPU core (taskset -c 2)"; taskset -c 2 "$B/aead_speed" 5
echo "== seal/open 4 GiB"; scripts/device/seal-vs-cp.sh
