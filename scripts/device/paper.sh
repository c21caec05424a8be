#!/usr/bin/env bash
# The paper's experiment (Xie, Wei, Liu 2021, Tables 3-4 and Figures 6-7) on the
# H200 machine: SKINNY-128-256, ECB and CTR, 16 B doubling to 64 MiB, 10 runs per
# size, on all four backends (cpu-serial, cpu, gpu-paper, gpu), the GPU ones both
# end to end and kernel-only.
#
# Run from the repository root with a staged binary (default .gpu-bin/skinny,
# from scripts/gpu/stage.sh) and OUT set to an empty folder. It writes six
# files, all directly under $OUT:
#   info.txt          binary version, nvidia-smi, `skinny info`
#   paper.txt         the header and the tables (stdout of skinny bench)
#   paper-stderr.txt  notices: skipped backends, failures
#   paper.csv         one line per mode, backend, timing and size
#   paper.json        the same with the header facts and the raw run times
#   paper.svg         throughput against size, one chart per mode
# and prints info, notices and the tables last.
#
# Time: cpu-serial is the slow part (about 10 MB/s on one core). At 10 runs per size it alone would need about 11 x 128 MiB
# / 10 MB/s = 140 s per mode. So each size stops after MAX_TIME_PER_SIZE seconds
# of timed runs (keeping at least 3): cpu-serial then gets 3 runs at 64, 32 and
# 16 MiB, about 6 at 8 MiB, 10 from 4 MiB down; the runs field of every record
# says how many. Estimated total at that rate: under 2 minutes for cpu-serial,
# under 1 minute for the rest (docs/bench.md); the timeout below is a backstop.
set -uo pipefail

# shellcheck source=scripts/lib/device.sh
. "$(dirname "$0")/../lib/device.sh"
BIN="${SKINNY_BIN:-$B/skinny}"
OUT="${OUT:?set OUT to the folder for the results}"
MAX_TIME_PER_SIZE="${MAX_TIME_PER_SIZE:-4}"
LIMIT_S="${LIMIT_S:-540}"

if [ ! -x "$BIN" ]; then
    echo "paper: no executable skinny at $BIN (set SKINNY_BIN)" >&2
    exit 1
fi
mkdir -p "$OUT"

{
    echo "== $BIN --version"; "$BIN" --version
    echo "== nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
    echo "== skinny info"; "$BIN" info 2>&1
    echo "== nproc: $(nproc)"
} > "$OUT/info.txt" 2>&1

start=$(date +%s)
timeout "$LIMIT_S" "$BIN" bench --paper \
    --backends cpu-serial,cpu,gpu-paper,gpu \
    --max-time-per-size "$MAX_TIME_PER_SIZE" \
    --quiet \
    --csv "$OUT/paper.csv" --json "$OUT/paper.json" --plot "$OUT/paper.svg" \
    > "$OUT/paper.txt" 2> "$OUT/paper-stderr.txt"
rc=$?
end=$(date +%s)

cat "$OUT/info.txt"
echo "== skinny bench notices (exit status $rc, $((end - start)) s)"
cat "$OUT/paper-stderr.txt"
if [ "$rc" -eq 124 ]; then
    echo "paper: stopped after $LIMIT_S s; no CSV/JSON/SVG (they are written at the end)"
fi
echo "== skinny bench tables"
cat "$OUT/paper.txt"
exit "$rc"
