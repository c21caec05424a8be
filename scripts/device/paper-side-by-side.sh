#!/usr/bin/env bash
# The paper's experiment (Xie, Wei, Liu 2021, Tables 3-4), repeated so that it
# can be set beside the paper's tables (runs/paper-side-by-side.md is one):
#   - cpu-serial (the paper's CPU side) gets the full 10 runs at every size,
#     16 B to 64 MiB, no time cap: ECB pinned to CPU 0 and CTR pinned to CPU 1,
#     at the same time (two single-thread processes);
#   - meanwhile, on CPUs 2-15, the GPU series are repeated REPEATS times (whole
#     sweeps, separate processes): gpu-paper and gpu, each end to end (pinned
#     double-buffering), pageable (plain pageable copies, the paper's way), cold
#     (engine opened, used once and dropped inside every operation: allocation,
#     key and table upload, copies, kernel, free) and kernel-only;
#   - then, with every CPU free, the 16-core `cpu` series REPEATS times;
#   - then the side-by-side tables and the charts, from all the JSON files
#     pooled, by the same binary (`skinny bench --from-json`).
# gpu-paper is the paper's T-table kernel: NOT constant time (table look-ups
# indexed by secret data); it is run here on random keys only.
#
# Run from the repository root with the binaries staged (scripts/gpu/stage.sh,
# .gpu-bin/ carried) and OUT set to an empty folder. Writes under $OUT:
#   info.txt                      binary, nvidia-smi, `skinny info`, nproc
#   serial-ecb.{json,csv,txt}     cpu-serial, ECB, 10 runs a size
#   serial-ctr.{json,csv,txt}     cpu-serial, CTR
#   gpu-N.{json,csv,txt}          GPU series, repeat N (1..REPEATS)
#   cpu-N.{json,csv,txt}          16-core cpu series, repeat N
#   *-stderr.txt                  notices of each process
#   side-by-side.md               the paper's tables beside ours (pooled)
#   paper.svg                     throughput against size (pooled), Figures 6-7 style
#   speedup.svg                   E and S against size, ECB and CTR together, the paper's beside
#   times.txt                     wall time of each phase
#
# Wall time estimate (the H200 machine): cpu-serial runs at about
# 7.6 MB/s (ECB) and 8.8 MB/s (CTR) on one core; one sweep is 128 MiB, and 11
# calls a size (warm-up + 10) make 1.48 GB: about 195 s for ECB and 170 s for
# CTR, side by side, so about 3.3 minutes. One GPU sweep (8 series, 23 sizes, 2
# modes) takes about 25-35 s, so 5 repeats about 2.5-3 minutes, inside the
# cpu-serial phase. The cpu repeats take about 5 s each. Total about 4 minutes,
# 5 at the outside; LIMIT_S (default 480 s) stops any one process that hangs.
set -uo pipefail

# shellcheck source=scripts/lib/device.sh
. "$(dirname "$0")/../lib/device.sh"
BIN="${SKINNY_BIN:-$B/skinny}"
OUT="${OUT:?set OUT to the folder for the results}"
REPEATS="${REPEATS:-5}"
LIMIT_S="${LIMIT_S:-480}"
PAPER_TABLES="${PAPER_TABLES:-docs/paper-tables.csv}"
SIZES="${SIZES:-16..64M}"   # the paper's; smaller only for a dry run

if [ ! -x "$BIN" ]; then
    echo "paper-side-by-side: no executable skinny at $BIN (set SKINNY_BIN)" >&2
    exit 1
fi
mkdir -p "$OUT"
ncpu=$(nproc)
pin() { # pin CPU-LIST command...: taskset when there is one and the CPUs exist
    local cpus=$1; shift
    if command -v taskset > /dev/null && [ "$ncpu" -ge 4 ]; then taskset -c "$cpus" "$@"; else "$@"; fi
}

{
    echo "== $BIN --version"; "$BIN" --version
    echo "== commit"; cat "$B/COMMIT" 2>/dev/null || echo "?"
    echo "== nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
    echo "== skinny info"; "$BIN" info 2>&1
    echo "== nproc: $ncpu"
} > "$OUT/info.txt" 2>&1

t0=$(date +%s)
bench() { # NAME [pin CPUs] -- skinny bench options...
    local name=$1 cpus=$2; shift 2
    pin "$cpus" timeout "$LIMIT_S" "$BIN" bench --quiet --sizes "$SIZES" \
        --json "$OUT/$name.json" --csv "$OUT/$name.csv" "$@" \
        > "$OUT/$name.txt" 2> "$OUT/$name-stderr.txt"
    local rc=$?
    echo "$name: exit $rc, $(( $(date +%s) - t0 )) s since start" >> "$OUT/times.txt"
    return $rc
}

# Phase 1: cpu-serial, one process per mode, pinned; no time cap.
bench serial-ecb 0 --paper --backends cpu-serial --modes ecb &
p_ecb=$!
bench serial-ctr 1 --paper --backends cpu-serial --modes ctr &
p_ctr=$!

# Phase 1, beside it: the GPU series, REPEATS whole sweeps.
hi=$(( ncpu - 1 ))
for i in $(seq 1 "$REPEATS"); do
    bench "gpu-$i" "2-$hi" --paper --backends gpu-paper,gpu --timings end-to-end,kernel,pageable,cold
done
wait "$p_ecb"; rc_ecb=$?
wait "$p_ctr"; rc_ctr=$?

# Phase 2: the 16-core CPU with every core free.
for i in $(seq 1 "$REPEATS"); do
    bench "cpu-$i" "0-$hi" --paper --backends cpu
done
echo "measurements done: $(( $(date +%s) - t0 )) s" >> "$OUT/times.txt"

# Phase 3: the tables and charts from everything that was written.
files=$(cd "$OUT" && ls serial-ecb.json serial-ctr.json gpu-*.json cpu-*.json 2>/dev/null | sed "s|^|$OUT/|" | paste -sd, -)
if [ -n "$files" ]; then
    "$BIN" bench --from-json "$files" --paper-tables "$PAPER_TABLES" \
        --plot "$OUT/paper.svg" --speedup-plot "$OUT/speedup.svg" \
        > "$OUT/side-by-side.md" 2> "$OUT/side-by-side-stderr.txt"
    echo "side-by-side: exit $?" >> "$OUT/times.txt"
fi

cat "$OUT/info.txt"
echo "== times"; cat "$OUT/times.txt"
echo "== notices"; cat "$OUT"/*-stderr.txt
echo "== side by side (head)"; head -60 "$OUT/side-by-side.md" 2>/dev/null
# The device tool may bring back only some of many files from $OUT:
# everything also goes into one archive.
(cd "$OUT" && tar czf paper-side.tgz --exclude paper-side.tgz .)
[ "$rc_ecb" -eq 0 ] && [ "$rc_ctr" -eq 0 ]
