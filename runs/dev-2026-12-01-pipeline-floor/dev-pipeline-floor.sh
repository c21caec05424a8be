#!/usr/bin/env bash
# The pipeline on two cores (issue 25, item 8): a 256 MiB SKINNY-128-128 ECB
# file-to-file run in /dev/shm with --threads 2, against the I/O floor: the
# larger of cp's wall time and (cp's CPU time + the one-thread run's user
# time) / 2 (two cores share the copy's work and the cipher's). Run it on a
# quiet machine; it prints farm-bench's figures (quote the medians).
# Usage: scripts/dev-pipeline-floor.sh [path/to/skinny]
set -euo pipefail
B=${1:-target/release/skinny}
D=/dev/shm/skinny-floor
mkdir -p "$D"
trap 'rm -rf "$D"' EXIT
head -c $((256 << 20)) /dev/urandom > "$D/in.bin"
K=00112233445566778899aabbccddeeff
crypt() { echo "$B encrypt -q -c skinny-128-128 -m ecb --no-pad -b cpu -K $K --threads $1 $D/in.bin -o $D/e$1.bin"; }
echo "== cp"; farm-bench -n 9 -- cp "$D/in.bin" "$D/cp.bin"
echo "== one thread"; farm-bench -n 9 -- $(crypt 1)
echo "== two threads"; farm-bench -n 9 -- $(crypt 2)
cmp "$D/e1.bin" "$D/e2.bin" && echo "one and two threads: the same bytes"
