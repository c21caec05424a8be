#!/usr/bin/env bash
# Issues 26 and 27 on the H200 machine, in one call: the suites this work
# touched on the AVX-512 host and the GPU (lockstep groups' first AVX-512 run,
# the core crate after its stack-frame split, the 64 KiB stack tests, the GPU
# suites on the new harness with SKINNY_REQUIRE_GPU=1), the dudect timing test
# of the AVX-512 paths (valgrind cannot run them), the CPU many-message engine
# on 1/8/16 threads, and `skinny bench --many` on the CPU and the GPU.
#
# Here (with Rust): `scripts/h200-hardening.sh --stage` builds into
# .gpu-bin/hardening/ (carried). There: `OUT=... scripts/h200-hardening.sh`.
set -uo pipefail
cd "$(dirname "$0")/.."
B=.gpu-bin/hardening
what=${1:-all}
if [ "$what" = "--stage" ]; then
  set -e
  scripts/lib/stage-into.sh $B -p skinny -p skinny-aead -p skinny-romulus -p skinny-many -p skinny-lab \
    -p skinny-cuda -p skinny-cli -p skinny-ct-check -p skinny-seal \
    --features "skinny-many/cuda skinny-lab/cuda skinny-aead/cuda skinny-cli/cuda skinny-seal/cuda" \
    --bin skinny --test lockstep --test single_block --test bitsliced --test per_block_tweakeys \
    --test per_block_tk1 --test vectors --test stack --test kat --test gpu \
    --example many_speed --example dudect
  ls -la $B; du -sh $B
  exit 0
fi
OUT="${OUT:?set OUT}"
# all (default), or: checks | dudect | speed
mkdir -p "$OUT"
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/skinny-cache}
export SKINNY_REQUIRE_GPU=1
. scripts/lib/h200-common.sh
checks() {
  for s in core-lockstep many-lockstep core-single_block core-bitsliced core-per_block_tweakeys \
           core-per_block_tk1 core-vectors many-kat romulus-kat aead-kat; do suite $s 150; done
  for s in core-stack aead-stack many-stack romulus-stack lab-stack; do suite $s 150 --include-ignored; done
  stack_sizes
  for s in many-gpu cuda-gpu lab-gpu aead-gpu seal-gpu; do suite $s 200 --test-threads=1; done
}
stack_sizes() {
  echo "== core-stack, least stack of each call (SKINNY_STACK_MEASURE=1)"
  SKINNY_STACK_MEASURE=1 timeout 150 $B/core-stack 2>&1 | grep -E "^stack:|do not run|^  " | head -90
}
dudect() {
  echo "== dudect, AVX-512 paths (one core, taskset -c 2)"
  timeout 150 taskset -c 2 $B/dudect --seconds 22 bitsliced-avx512 per-block-avx512 per-block-tk1-avx512 \
    single-avx512-gfni leaky-compare 2>&1 | tail -20
}
speed() {
  dudect
  echo "== CPU many-message engine, 64 B, threads 1, 8, 16"
  timeout 150 $B/many_speed 1048576 1,8,16 2>&1 | tail -45
  echo "== skinny bench --many (CPU 16 threads and GPU)"
  timeout 120 $B/skinny bench --many romulus-n,romulus-m,skinny-aead-m1 --sizes 64,1K --threads 16 \
    --backend cpu,gpu --runs 3 --json "$OUT/bench-many.json" 2>&1 | tail -30
}
header 2>&1 | tee "$OUT/header.txt"
case $what in
  checks) checks 2>&1 | tee "$OUT/checks.txt" ;;
  dudect) { stack_sizes; dudect; } 2>&1 | tee "$OUT/dudect.txt" ;;
  speed) speed 2>&1 | tee "$OUT/speed.txt" ;;
  *) checks 2>&1 | tee "$OUT/checks.txt"; speed 2>&1 | tee "$OUT/speed.txt" ;;
esac
