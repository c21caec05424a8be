#!/usr/bin/env bash
# The speed guard as CI runs it (docs/speed-guard.md): one release build of
# the `skinny` CLI and the guard program, then
#  1. the static check: no SIMD intrinsic out of line in either binary
#     (check-inlined.sh);
#  2. the guard itself: every CPU path timed against its simpler sibling in
#     one run, ratios against thresholds, its JSON record printed to stdout
#     (CI keeps no files; a run worth keeping goes into runs/ by hand).
# Both run even if the first fails, so one CI log shows everything; the exit
# status is non-zero if either failed, and each failure is one line.
#
#   scripts/speed/guard.sh [SPEED-GUARD ARGS...]   (e.g. --only bitsliced)
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
# One cargo invocation: the crates both binaries share are compiled once.
cargo build --release --locked -p skinny-cli --bin skinny -p skinny-speed-guard --bin speed-guard
target=$(cargo metadata --format-version 1 --no-deps --locked |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
echo "speed guard: release build $(( $(date +%s) - start )) s"

inlined=0
scripts/speed/check-inlined.sh "$target/release/skinny" "$target/release/speed-guard" || inlined=$?

json=$(mktemp)
trap 'rm -f "$json"' EXIT
guard=0
run=$(date +%s)
"$target/release/speed-guard" --json "$json" "$@" || guard=$?
echo "speed guard: run $(( $(date +%s) - run )) s"
if [ -s "$json" ]; then
    echo "== speed guard JSON"
    cat "$json"
fi
if [ "$inlined" -ne 0 ] || [ "$guard" -ne 0 ]; then
    echo "speed guard: FAILED (static check exit $inlined, ratios exit $guard; the lines above say which)" >&2
    exit 1
fi
