#!/usr/bin/env bash
# On a freshly started GPU machine: what a first GPU use costs, step by step
# (first_gpu_use.cu, compiled there with nvcc: driver, context, memory, a tiny
# kernel's NVRTC compile, launches), then the same probe again; with
# SKINNY_BIN set, skinny's own first GPU run (a lab differential), its threads'
# backtraces sampled every few seconds.
#
#   [OUT=DIR] [SKINNY_BIN=.gpu-bin/skinny] scripts/probes/first-gpu-use.sh
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
out=${OUT:-/tmp/first-gpu-use}; mkdir -p "$out"
d=$(mktemp -d); t=$(date +%s.%N)
nvcc -O2 scripts/probes/first_gpu_use.cu -lcuda -lnvrtc -o "$d/probe" && echo "nvcc took $(python3 -c "import time;print(round(time.time()-$t,3))") s"
echo "== probe 1 (first GPU process on this machine)"; "$d/probe"
echo "== probe 2"; "$d/probe"
# Where skinny's own first GPU run spends its time: backtraces of every thread,
# taken with cuda-gdb (there is no gdb, strace or perf) every few seconds.
if [ -n "${SKINNY_BIN:-}" ]; then
  echo "== skinny's first GPU run, sampled"
  t=$(date +%s.%N)
  "$SKINNY_BIN" lab differential -b gpu -c skinny-128-256 --rounds 18 --key-every 1 --seed 3 --json \
    --dp 00000000000000000006000000000000 --dc 00000000000000000000000000000000 \
    --dk 0000000000000000000200000000000000000000000000000080000000000000 --queries 2^30 \
    > "$out/sampled.json" 2> "$out/sampled.err" &
  pid=$!
  for s in 3 8 15 25; do
    sleep $((s - ${prev:-0})); prev=$s
    kill -0 $pid 2>/dev/null || break
    echo "-- sample at ${s} s"
    timeout 60 cuda-gdb -p $pid -batch -ex "info threads" -ex "thread apply all bt 12" 2>&1 | grep -E '^#|^Thread|^\*|^  [0-9]' | head -80
  done
  wait $pid; echo "exit $? after $(python3 -c "import time;print(round(time.time()-$t,3))") s"
fi
