#!/usr/bin/env bash
# The many-message GPU engine (skinny-many's `gpu`, kernels/many.cu) on the
# H200 machine: the GPU test suite (every KAT of Romulus-N, -M and SKINNY-AEAD
# M1-M6 as one batch, random mixed batches on every path, tampering), then the
# speed example (64-byte messages, no AD: messages/s with the batch on the
# device, GB/s from page-locked host memory to host, and the link's own copy
# rates): Romulus at MANY_LOG2, the SKINNY-AEAD members at MANY_AEAD_LOG2.
#
# Here (with Rust): `scripts/h200-many.sh --stage` builds both into .gpu-bin/
# (ignored by git; carried to the GPU machine). There (no Rust):
# `scripts/h200-many.sh` runs them, logs under $OUT (default /tmp/many-out).
# MANY_NCU=1 adds an Nsight Compute profile (ncu, if the machine has it) of
# one Romulus-N and one SKINNY-AEAD M1 seal over 2^20 messages: occupancy,
# limiter, warp stalls, into ncu.log.
# MANY_LOG2 (default 24) sets the batch size of the Romulus speed run,
# MANY_AEAD_LOG2 (default 22) the SKINNY-AEAD one's, MANY_REPEATS (default 5)
# their repeats; MANY_BIN (default .gpu-bin) where the binaries are.
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${MANY_BIN:-.gpu-bin}
if [ "${1:-}" = "--stage" ]; then
  set -e
  mkdir -p .gpu-bin
  cargo build --release -p skinny-many --features cuda --test gpu --example many_gpu_speed \
    --message-format=json-render-diagnostics > .gpu-bin/many-build.json
  python3 - <<'PY'
import json, shutil
for line in open(".gpu-bin/many-build.json"):
    m = json.loads(line)
    if m.get("reason") != "compiler-artifact" or not m.get("executable"):
        continue
    if "skinny-many" not in m["package_id"]:
        continue
    kind, name = m["target"]["kind"][0], m["target"]["name"]
    dest = {"test": "many-gpu-tests", "example": name}.get(kind)
    if dest:
        shutil.copy(m["executable"], ".gpu-bin/" + dest)
PY
  rm .gpu-bin/many-build.json
  git rev-parse HEAD > .gpu-bin/COMMIT
  git status --porcelain --untracked-files=no | grep -q . && echo "dirty" >> .gpu-bin/COMMIT || true
  ls -la .gpu-bin
  exit 0
fi
out=${OUT:-/tmp/many-out}
mkdir -p "$out"
date -u | tee "$out/summary.txt"
echo "commit $(tr '\n' ' ' < "$bin/COMMIT")" | tee -a "$out/summary.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv \
  | tee -a "$out/summary.txt"
export SKINNY_REQUIRE_GPU=1
t0=$(date +%s)
"$bin/many-gpu-tests" --test-threads=1 > "$out/tests.log" 2>&1
echo "tests: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$out/summary.txt"
grep -E "^test |test result|panicked|assert" "$out/tests.log" | head -30 | tee -a "$out/summary.txt"
t0=$(date +%s)
timeout 300 "$bin/many_gpu_speed" "${MANY_LOG2:-24}" "${MANY_REPEATS:-5}" > "$out/speed.log" 2>&1
echo "speed: exit $? in $(( $(date +%s) - t0 )) s" | tee -a "$out/summary.txt"
t0=$(date +%s)
aead=skinny-aead-m1,skinny-aead-m2,skinny-aead-m3,skinny-aead-m4,skinny-aead-m5,skinny-aead-m6
timeout 300 "$bin/many_gpu_speed" "${MANY_AEAD_LOG2:-22}" "${MANY_REPEATS:-5}" "$aead" > "$out/speed-aead.log" 2>&1
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
      "$bin/many_gpu_speed" 20 1 romulus-n,skinny-aead-m1 > "$out/ncu.log" 2>&1
    echo "ncu: exit $?" | tee -a "$out/summary.txt"
    grep -E "many_|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Issue Slots Busy|No Eligible|Eligible Warps|Stall|L1/TEX Hit|L2 Hit|Duration" \
      "$out/ncu.log" | head -80 | tee -a "$out/summary.txt"
  fi
fi
