#!/usr/bin/env bash
# The many-message CPU engine on the H200 host (AVX-512, 16 cores), in one
# call: the suites that check it (the core crate's lockstep batches on the
# AVX-512 path, every KAT as a batch, lockstep groups and slots, random
# batches against the single-message types, the streaming front), then its
# speed (examples/many_speed on 1 and 16 threads: 64 B, 1 KiB, a packet mix
# beside the same bytes in equal lengths, mixed lengths; each beside the
# single-message path on the same threads), the UDP gateway through the
# streaming front, and the speed guard.
#
# Here (with Rust): `scripts/h200-many-cpu.sh --stage` builds into .gpu-bin/
# (carried). There: `OUT=... scripts/h200-many-cpu.sh [checks|speed|all]`.
set -uo pipefail
cd "$(dirname "$0")/.."
B=.gpu-bin
if [ "${1:-}" = "--stage" ]; then
  set -e
  scripts/lib/stage-into.sh $B -p skinny -p skinny-many -p skinny-speed-guard \
    --test lockstep --test kat --test differential --test edges --test stream \
    --example many_speed --example gateway --bin speed-guard
  exit 0
fi
OUT="${OUT:?set OUT}"
what=${1:-all}
# shellcheck source=scripts/lib/h200-common.sh
. scripts/lib/h200-common.sh
header
if [ "$what" = checks ] || [ "$what" = all ]; then
  for t in core-lockstep many-kat many-lockstep many-differential many-edges many-stream; do
    suite "$t" 300 --test-threads 8
  done
fi
if [ "$what" = speed ] || [ "$what" = all ]; then
  echo "== many_speed, 1 thread (one core) and 16"
  taskset -c 2 $B/many_speed 65536 1 > "$OUT/many-speed-1.txt" 2>&1
  echo "exit $?"; cat "$OUT/many-speed-1.txt"
  $B/many_speed 65536 16 > "$OUT/many-speed-16.txt" 2>&1
  echo "exit $?"; cat "$OUT/many-speed-16.txt"
  echo "== gateway, 16 cores"
  $B/gateway --duration 1 --rate 200000 --generators 4 > "$OUT/gateway.txt" 2>&1
  echo "exit $?"; tail -20 "$OUT/gateway.txt"
  echo "== speed guard (one core)"
  taskset -c 2 $B/speed-guard --json "$OUT/speed-guard.json" 2>&1 | tail -30
fi
