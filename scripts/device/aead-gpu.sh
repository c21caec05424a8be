#!/usr/bin/env bash
# SKINNY-AEAD on the H200 machine, from the prebuilt binaries in .gpu-bin/
# (scripts/gpu-stage.sh): the GPU tests (GPU == CPU for every member, up to
# more than 1 GiB, wrong tags), the resident speed against the ECB kernel
# (issue #13: seal >= 0.8x, open within 15 %), one CPU core against the CPU
# ECB code, and `skinny seal`/`open` of 4 GiB in /dev/shm against `cp`.
set -uo pipefail
B=.gpu-bin
echo "commit: $(cat $B/COMMIT)"; date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export SKINNY_REQUIRE_GPU=1
echo "== aead GPU tests"; $B/aead-gpu-tests --test-threads 1 2>&1 | tail -8
echo "== sealed format on the GPU engine"; $B/aead-sealed-gpu-tests --test-threads 2 2>&1 | grep -E "^test |test result|panicked|FAILED|skip"
echo "== sealed engines in memory (1 GiB, 3 runs)"; $B/sealed_speed 1024 3
echo "== resident speed (1 GiB, 5 runs)"; $B/gpu_aead_speed 1024 5
# Occupancy against registers: blocks of 128 threads an SM that the kernel is
# compiled for (the default is 3, as the ECB kernel).
for mb in ${AEAD_MIN_BLOCKS_TRY-2 4}; do
  echo "== resident speed, AEAD_MIN_BLOCKS=$mb (1 GiB, 3 runs)"
  SKINNY_EXAMPLE_NVRTC="-DAEAD_MIN_BLOCKS=$mb" $B/gpu_aead_speed 1024 3 | tail -2
done
echo "== one CPU core (taskset -c 2)"; taskset -c 2 $B/aead_speed 5
echo "== seal/open 4 GiB"; bash scripts/h200-seal.sh
