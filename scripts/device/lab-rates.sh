#!/usr/bin/env bash
# The lab's query rates on the device machine, in one call; `scripts/gpu/check.sh
# 'lab-*'` checks it first (GPU == CPU, the published distinguishers at their
# published size). The rates of every experiment (lab_speed), then a long
# fresh-key boomerang through the CLI. Staged binaries in .gpu-bin/
# (scripts/gpu/stage.sh).
#
# LAB_LOG2 (default 35) and CPU_LOG2 (default 22): lab_speed's queries on the
# GPU and the CPU; LAB_REPEATS (default 1) its repeats; LONG_LOG2 (default 37)
# the boomerang's queries; PER_KEY_LOG2 (default 33): the per-key differentials run
# 7 x 2^PER_KEY_LOG2 queries (whole key groups of 1, 7 and 4096).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=scripts/lib/device.sh
. scripts/lib/device.sh
need lab_speed skinny
export SKINNY_REQUIRE_GPU=1
header
echo "## lab_speed, default kernels (GPU 2^${LAB_LOG2:-35} queries, CPU 2^${CPU_LOG2:-22})"
for _ in $(seq "${LAB_REPEATS:-1}"); do timeout 150 "$B/lab_speed" "${LAB_LOG2:-35}" "${CPU_LOG2:-22}"; done
echo "## CLI: 2^${LONG_LOG2:-37} fresh-key boomerang queries, 18-round SKINNY-128-256"
DP=01000000000000000000000000000000; DC=00000001000000000000000000000000
DK=0000000000000000000000000000000020000000000000000000000000000000
timeout 150 "$B/skinny" lab boomerang -b gpu --cipher skinny-128-256 --rounds 18 --dp $DP --dc $DC --dk1 $DK --dk2 $DK \
    --queries "2^${LONG_LOG2:-37}" --key-every 1 --json | head -c 700; echo
echo "## CLI: per-key differentials (--per-key), 18-round SKINNY-128-256, 7 x 2^${PER_KEY_LOG2:-33} queries, a fresh key every query, every 7 and every 4096"
for k in 1 7 4096; do
    timeout 150 "$B/skinny" lab differential -b gpu --cipher skinny-128-256 --rounds 18 --dp $DP --dc $DC \
        --queries "$((7 << ${PER_KEY_LOG2:-33}))" --key-every $k --per-key --json |
        python3 -c 'import json,sys; r=json.load(sys.stdin); print({k: r[k] for k in ("key_every","queries","hits","seconds","rate_per_s")}, r["per_key"]["histogram"][:4])'
done
