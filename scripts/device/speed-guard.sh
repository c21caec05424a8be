#!/usr/bin/env bash
# The speed guard (docs/speed-guard.md) on the H200 host's Xeon, where the
# AVX-512 paths (bitsliced, lockstep, per-block tweakeys, avx512-gfni) exist
# and are measured against their siblings; from the prebuilt .gpu-bin/speed-guard
# (scripts/gpu-stage.sh; no Rust there, and the guard needs no data files).
# Pinned to one core (the guard and the many-message engine's one worker take
# turns on it). The JSON goes to $OUT (the device tool's output folder) or here.
#
#   scripts/h200-speed-guard.sh [SPEED-GUARD ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
B=.gpu-bin
echo "commit: $(cat $B/COMMIT)"; date -u
if [[ ! -x $B/speed-guard ]]; then
    echo "missing $B/speed-guard (run scripts/gpu-stage.sh)" >&2
    exit 1
fi
out=${OUT:-.}/speed-guard.json
pin=()
command -v taskset >/dev/null && pin=(taskset -c 2)
status=0
"${pin[@]}" "$B/speed-guard" --json "$out" "$@" || status=$?
echo "JSON: $out"
exit $status
