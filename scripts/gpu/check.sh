#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with the binaries that
# scripts/gpu-stage.sh built into .gpu-bin/:
#   1. the GPU test suites (skinny-bulk's backends, with the 1 GiB test, and
#      skinny-cuda's own: host paths, device-resident data, several GPUs),
#   2. compute-sanitizer memcheck over the suite (without the 1 GiB test) and
#      racecheck over part of it,
#   3. the kernels' register and spill report and instruction counts,
#   4. the throughput table (gpu_bench).
# Full logs go to $OUT; a short table is printed last.
# Usage: scripts/gpu-check.sh [all|tests|bench|exp] [SIZES_MIB] [RUNS]
#   exp: tests, then the bench, then the bench of two variants under each
#   option set in EXP_OPTIONS (default: BS_MIN_BLOCKS=2, =1).
set -uo pipefail
what=${1:-all}
sizes=${2:-1024,4096}
runs=${3:-10}
OUT=${OUT:-$(mktemp -d)}
B=.gpu-bin
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/skinny-cache}
summary=()

step() {
    local name=$1 limit=$2
    shift 2
    local t0=$SECONDS
    timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
    local rc=$?
    summary+=("$(printf '%-10s rc=%-3s %4ss' "$name" "$rc" "$((SECONDS - t0))")")
    return 0
}

{
    date -u
    echo "commit: $(cat $B/COMMIT 2>/dev/null)"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.limit --format=csv
    nvcc --version | tail -2
} >"$OUT/env.log" 2>&1

if [[ $what == all || $what == tests || $what == exp ]]; then
    step tests 330 env SKINNY_GPU_BIG=1 $B/gpu-tests --test-threads=1
    step cuda-tests 240 $B/cuda-gpu-tests --test-threads=1
    step cuda-multigpu 240 $B/cuda-multigpu-tests --test-threads=1
    # The plain path (no pinned staging) too.
    step memcheck 240 compute-sanitizer --tool memcheck --error-exitcode 9 $B/gpu-tests --test-threads=1 --skip one_gib
    step cuda-memcheck 240 compute-sanitizer --tool memcheck --error-exitcode 9 $B/cuda-gpu-tests --test-threads=1
    step racecheck 120 compute-sanitizer --tool racecheck --error-exitcode 9 $B/gpu-tests --test-threads=1 unaligned
fi
if [[ $what == all || $what == bench ]]; then
    step bench 400 $B/gpu_bench "$sizes" "$runs"
fi
if [[ $what == exp ]]; then
    # Tuning experiments: the bitsliced kernels under other compile options.
    step bench 300 $B/gpu_bench "$sizes" "$runs"
    for opt in ${EXP_OPTIONS:-"-DBS_MIN_BLOCKS=2" "-DBS_MIN_BLOCKS=1"}; do
        echo "## SKINNY_NVRTC_OPTIONS=$opt" >>"$OUT/exp.log"
        step "exp$opt" 120 env SKINNY_BENCH_NO_PAPER=1 SKINNY_NVRTC_OPTIONS="$opt" $B/gpu_bench 1024 10 skinny-128-256,skinny-64-128
        grep -E "^skinny" "$OUT/exp$opt.log" >>"$OUT/exp.log"; rm -f "$OUT/exp$opt.log"
    done
fi
{
    for f in "$XDG_CACHE_HOME"/skinny/*.cubin; do
        echo "== $f"
        cuobjdump --dump-resource-usage "$f" | grep -E "Function|REG"
        for fn in bs128_ecb_enc bs128_ecb_dec bs64_ecb_enc paper_ecb_enc; do
            if cuobjdump -sass -fun "$fn" "$f" >/tmp/sass.txt 2>/dev/null && [[ -s /tmp/sass.txt ]]; then
                echo "-- $fn: $(grep -cE '^\s+/\*[0-9a-f]+\*/' /tmp/sass.txt) instructions; LOP3 $(grep -c LOP3 /tmp/sass.txt), MOV $(grep -cE ' MOV|IMAD.MOV' /tmp/sass.txt), SHF $(grep -c SHF /tmp/sass.txt), PRMT $(grep -c PRMT /tmp/sass.txt), LDL/STL $(grep -cE 'LDL|STL' /tmp/sass.txt), ULDC $(grep -c ULDC /tmp/sass.txt), LDC $(grep -cE ' LDC' /tmp/sass.txt)"
            fi
        done
    done
} >"$OUT/sass.log" 2>&1
tar -C "$XDG_CACHE_HOME" -czf "$OUT/cubins.tgz" skinny 2>/dev/null

echo "== env"; cat "$OUT/env.log"
for f in tests cuda-tests cuda-multigpu memcheck cuda-memcheck racecheck; do
    [[ -f $OUT/$f.log ]] && { echo "== $f (tail)"; grep -E "test result|FAILED|panicked|ERROR SUMMARY|RACECHECK SUMMARY|skip:|error" "$OUT/$f.log" | tail -8; }
done
echo "== sass"; grep -E "^--|REG" "$OUT/sass.log" | head -30
[[ -f $OUT/bench.log ]] && { echo "== bench"; cat "$OUT/bench.log"; }
[[ -f $OUT/exp.log ]] && { echo "== experiments"; cat "$OUT/exp.log"; }
echo "== steps"; printf '%s\n' "${summary[@]}"
