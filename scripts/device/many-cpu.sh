#!/usr/bin/env bash
# The many-message CPU engine's speed on the device machine's host (AVX-512,
# 16 cores), in one call; `scripts/gpu/check.sh 'many-*' core-suite`
# checks it first. examples/many_speed on 1 thread (one core) and 16: 64 B,
# 1 KiB, a packet mix beside the same bytes in equal lengths, mixed lengths;
# each beside the single-message path on the same threads. Then the UDP
# gateway through the streaming front, and the speed guard.
#
# Here (with Rust): scripts/gpu/stage.sh cpu; carry .gpu-bin/staged.tgz.
# There: OUT=... scripts/device/many-cpu.sh
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUT="${OUT:?set OUT}"
# shellcheck source=scripts/lib/device.sh
. scripts/lib/device.sh
need many_speed gateway
header
echo "== many_speed, 1 thread (one core) and 16"
taskset -c 2 "$B/many_speed" 65536 1 > "$OUT/many-speed-1.txt" 2>&1
echo "exit $?"; cat "$OUT/many-speed-1.txt"
"$B/many_speed" 65536 16 > "$OUT/many-speed-16.txt" 2>&1
echo "exit $?"; cat "$OUT/many-speed-16.txt"
echo "== gateway, 16 cores"
"$B/gateway" --duration 1 --rate 200000 --generators 4 > "$OUT/gateway.txt" 2>&1
echo "exit $?"; tail -20 "$OUT/gateway.txt"
echo "== speed guard (one core)"
scripts/device/speed-guard.sh 2>&1 | tail -30
