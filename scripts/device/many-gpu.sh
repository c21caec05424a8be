#!/usr/bin/env bash
# The many-message GPU engine's speed (skinny-many's `gpu`, kernels/many.cu)
# on the device machine; `scripts/gpu/check.sh many-gpu` checks it first
# (every KAT of Romulus-N, -M and SKINNY-AEAD M1-M6 as one batch, random mixed
# batches on every path, tampering). The speed example: 64-byte messages, no
# AD; messages/s with the batch on the device, GB/s from page-locked host
# memory to host, and the link's own copy rates: Romulus at MANY_LOG2, the
# SKINNY-AEAD members at MANY_AEAD_LOG2.
#
# Here (with Rust): scripts/gpu/stage.sh; carry .gpu-bin/staged.tgz. There:
# scripts/device/many-gpu.sh, logs under $OUT (default /tmp/many-out).
# MANY_NCU=1 adds an Nsight Compute profile (ncu, if the machine has it) of
# one Romulus-N and one SKINNY-AEAD M1 seal over 2^20 messages: occupancy,
# limiter, warp stalls, into ncu.log.
# MANY_LOG2 (default 24) sets the batch size of the Romulus speed run,
# MANY_AEAD_LOG2 (default 22) the SKINNY-AEAD one's, MANY_REPEATS (default 5)
# their repeats.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=scripts/lib/device.sh
. scripts/lib/device.sh
need many_gpu_speed
out=${OUT:-/tmp/many-out}
mkdir -p "$out"
header | tee "$out/summary.txt"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv \
  | tee -a "$out/summary.txt"
t0=$(date +%s)
timeout 300 "$B/many_gpu_speed" "${MANY_LOG2:-24}" "${MANY_REPEATS:-5}" > "$out/speed.log" 2>&1
echo "speed: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$out/summary.txt"
t0=$(date +%s)
aead=skinny-aead-m1,skinny-aead-m2,skinny-aead-m3,skinny-aead-m4,skinny-aead-m5,skinny-aead-m6
timeout 300 "$B/many_gpu_speed" "${MANY_AEAD_LOG2:-22}" "${MANY_REPEATS:-5}" "$aead" > "$out/speed-aead.log" 2>&1
echo "speed (SKINNY-AEAD): exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$out/summary.txt"
tee -a "$out/summary.txt" < "$out/speed.log"
grep -v "^kernel \|^link" "$out/speed-aead.log" | tee -a "$out/summary.txt"
if [ -n "${MANY_NCU:-}" ]; then
  ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  echo "ncu: ${ncu:-none}" | tee -a "$out/summary.txt"
  if [ -n "$ncu" ]; then
    timeout 300 "$ncu" --clock-control none -k regex:'many_romulus_n_seal|many_aead_m1_seal' -c 2 \
      --section SpeedOfLight --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis \
      --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats \
      "$B/many_gpu_speed" 20 1 romulus-n,skinny-aead-m1 > "$out/ncu.log" 2>&1
    echo "ncu: exit $?" | tee -a "$out/summary.txt"
    grep -E "many_|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Issue Slots Busy|No Eligible|Eligible Warps|Stall|L1/TEX Hit|L2 Hit|Duration" \
      "$out/ncu.log" | head -80 | tee -a "$out/summary.txt"
  fi
fi
