#!/usr/bin/env bash
# The speed guard (docs/speed-guard.md) on the device machine's Xeon, where
# the AVX-512 paths (bitsliced, lockstep, per-block tweakeys, avx512-gfni,
# avx512-vbmi) exist and are measured against their siblings; from the staged
# .gpu-bin/speed-guard (scripts/gpu/stage.sh cpu; the guard needs no data
# files). Pinned to one core (the guard and the many-message engine's one
# worker take turns on it). The JSON goes to $OUT (the device tool's output
# folder) or here.
#
#   scripts/device/speed-guard.sh [SPEED-GUARD ARGS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/lib/device.sh
. scripts/lib/device.sh
need speed-guard
echo "commit: $(tr '\n' ' ' < "$B/COMMIT")"; date -u
out=${OUT:-.}/speed-guard.json
pin=()
command -v taskset >/dev/null && pin=(taskset -c 2)
status=0
"${pin[@]}" "$B/speed-guard" --json "$out" "$@" || status=$?
echo "JSON: $out"
exit $status
