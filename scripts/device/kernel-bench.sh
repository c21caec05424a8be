#!/usr/bin/env bash
# The block-cipher kernels on the device machine, from the staged gpu_bench
# (scripts/gpu/stage.sh): the throughput table, then the kernels as compiled
# there (registers, spills and instruction mix of the bitsliced and paper
# kernels, from the kernel cache with cuobjdump). `scripts/gpu/check.sh
# bulk-gpu cuda-gpu` checks them first (add --memcheck or --racecheck for the
# sanitizers).
#
#   OUT=DIR scripts/device/kernel-bench.sh [SIZES_MIB] [RUNS]    (default 1024,4096 10)
#
# EXP_OPTIONS (NVRTC options, one set a word, e.g. "-DBS_MIN_BLOCKS=2
# -DBS_MIN_BLOCKS=1") adds the bench of two variants under each set: tuning
# experiments without a rebuild. Full logs in $OUT; a short table last.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=scripts/lib/device.sh
. scripts/lib/device.sh
need gpu_bench
sizes=${1:-1024,4096}
runs=${2:-10}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
{
    header
    nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.limit --format=csv
    nvcc --version 2>/dev/null | tail -2
} > "$OUT/env.log" 2>&1

timeout 400 "$B/gpu_bench" "$sizes" "$runs" > "$OUT/bench.log" 2>&1
echo "gpu_bench exit $?" >> "$OUT/bench.log"
for opt in ${EXP_OPTIONS:-}; do
    echo "## SKINNY_NVRTC_OPTIONS=$opt" >> "$OUT/exp.log"
    SKINNY_BENCH_NO_PAPER=1 SKINNY_NVRTC_OPTIONS="$opt" timeout 120 "$B/gpu_bench" 1024 10 skinny-128-256,skinny-64-128 2>&1 |
        grep -E "^skinny" >> "$OUT/exp.log"
done
{
    sass=$(mktemp)
    for f in "$XDG_CACHE_HOME"/skinny/*.cubin; do
        [ -e "$f" ] || continue
        echo "== $f"
        cuobjdump --dump-resource-usage "$f" | grep -E "Function|REG"
        for fn in bs128_ecb_enc bs128_ecb_dec bs64_ecb_enc paper_ecb_enc; do
            if cuobjdump -sass -fun "$fn" "$f" > "$sass" 2>/dev/null && [ -s "$sass" ]; then
                echo "-- $fn: $(grep -cE '^\s+/\*[0-9a-f]+\*/' "$sass") instructions; LOP3 $(grep -c LOP3 "$sass"), MOV $(grep -cE ' MOV|IMAD.MOV' "$sass"), SHF $(grep -c SHF "$sass"), PRMT $(grep -c PRMT "$sass"), LDL/STL $(grep -cE 'LDL|STL' "$sass"), ULDC $(grep -c ULDC "$sass"), LDC $(grep -cE ' LDC' "$sass")"
            fi
        done
    done
    rm -f "$sass"
} > "$OUT/sass.log" 2>&1
tar -C "$XDG_CACHE_HOME" -czf "$OUT/cubins.tgz" skinny 2>/dev/null

echo "== env"; cat "$OUT/env.log"
echo "== sass"; grep -E "^--|REG" "$OUT/sass.log" | head -30
echo "== bench"; cat "$OUT/bench.log"
[ -f "$OUT/exp.log" ] && { echo "== experiments"; cat "$OUT/exp.log"; }
exit 0
