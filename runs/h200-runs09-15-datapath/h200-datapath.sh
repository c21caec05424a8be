#!/usr/bin/env bash
# One call on the H200 machine for the data-path work (docs/data-path.md): the
# GPU test suite (SKINNY_REQUIRE_GPU=1: a missing GPU fails), `skinny selftest`,
# the datapath example (start-up breakdown, host path by transfer path,
# device-resident throughput), and the CLI's wall time by size for cpu, gpu and
# auto against `cp`, outputs compared. Binaries come prebuilt in .gpu-bin/
# (scripts/gpu-stage.sh); .gpu-bin/skinny-old, if present, is the binary before
# this work, timed at a few sizes for comparison.
# Writes checks.log, datapath.log and cli.log under $OUT.
set -uo pipefail
OUT="${OUT:?set OUT}"
B=.gpu-bin
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/skinny-cache}
export SKINNY_REQUIRE_GPU=1
D=/dev/shm/skinny-dp
mkdir -p $D
K=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff

{
    date -u
    echo "commit: $(cat $B/COMMIT 2>/dev/null)"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    lscpu | grep -E "Model name|^CPU\(s\)"
    free -g | head -2
    echo "== gpu tests (SKINNY_GPU_BIG=1, SKINNY_REQUIRE_GPU=1)"
    timeout 300 env SKINNY_GPU_BIG=1 $B/gpu-tests --test-threads=1 2>&1 | grep -E "^test |test result|skip:|panicked"
    timeout 200 $B/cuda-gpu-tests --test-threads=1 2>&1 | grep -E "^test |test result|skip:|panicked"
    echo "== skinny selftest"
    timeout 120 $B/skinny selftest 2>&1
    echo "selftest exit: $?"
} > "$OUT/checks.log" 2>&1
tail -5 "$OUT/checks.log"

# Start-up first, on a cold process but a warm kernel cache (the selftest above filled it).
timeout 200 $B/datapath 4096 > "$OUT/datapath.log" 2>&1
echo "datapath exit: $?" >> "$OUT/datapath.log"
tail -3 "$OUT/datapath.log"

# Wall time of one command, seconds, median of $2 runs.
med() {
    local n=$1; shift
    local ts=()
    for _ in $(seq "$n"); do
        local s=$(date +%s.%N)
        "$@" > /dev/null 2>&1
        local e=$(date +%s.%N)
        ts+=("$(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f", b - a }')")
    done
    printf '%s\n' "${ts[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# One timed run of each command in turn, $1 rounds (so that drift hits all
# alike); prints the four medians.
interleaved() {
    local runs=$1
    local -a a b c d
    for _ in $(seq "$runs"); do
        a+=("$(med 1 cp $D/in $D/out-cp)")
        b+=("$(med 1 $B/skinny encrypt -q -b cpu -K $K --iv $IV $D/in -o $D/out-cpu)")
        c+=("$(med 1 $B/skinny encrypt -q -b gpu -K $K --iv $IV $D/in -o $D/out-gpu)")
        d+=("$(med 1 $B/skinny encrypt -q -K $K --iv $IV $D/in -o $D/out-auto)")
    done
    for arr in "${a[*]}" "${b[*]}" "${c[*]}" "${d[*]}"; do
        printf '%s\n' $arr | sort -g | awk '{v[NR]=$1} END {printf "%s ", v[int((NR+1)/2)]}'
    done
}

{
    echo "# CLI wall time, skinny-128-256 CTR encryption, input and output in $D (tmpfs), median of interleaved runs"
    printf "%-8s %9s %9s %9s %9s %9s %s\n" size cp cpu gpu auto best/auto outputs
    for spec in 64K:65536:15 1M:1048576:15 8M:8388608:11 64M:67108864:7 512M:536870912:5 4G:4294967296:5; do
        IFS=: read -r name bytes runs <<< "$spec"
        head -c "$bytes" /dev/zero | $B/skinny encrypt -q -b cpu -K $K --iv $IV > $D/in
        read -r t_cp t_cpu t_gpu t_auto <<< "$(interleaved "$runs")"
        same=$(cmp -s $D/out-cpu $D/out-gpu && cmp -s $D/out-cpu $D/out-auto && echo same || echo MISMATCH)
        ratio=$(awk -v a="$t_auto" -v c="$t_cpu" -v g="$t_gpu" 'BEGIN { b = c < g ? c : g; printf "%.3f", a / b }')
        printf "%-8s %9.4f %9.4f %9.4f %9.4f %9s %s\n" "$name" "$t_cp" "$t_cpu" "$t_gpu" "$t_auto" "$ratio" "$same"
        if [ "$name" = 4G ]; then
            echo "auto -v at 4G:"; $B/skinny encrypt -v -q -K $K --iv $IV $D/in -o $D/out-auto 2>&1
            echo "ECB at 4G: cpu $(med 3 $B/skinny encrypt -q -b cpu -m ecb --no-pad -K $K $D/in -o $D/out-cpu) s," \
                "gpu $(med 3 $B/skinny encrypt -q -b gpu -m ecb --no-pad -K $K $D/in -o $D/out-gpu) s," \
                "auto $(med 3 $B/skinny encrypt -q -m ecb --no-pad -K $K $D/in -o $D/out-auto) s"
            cmp -s $D/out-cpu $D/out-gpu && cmp -s $D/out-cpu $D/out-auto && echo "ECB outputs same" || echo "ECB MISMATCH"
            if [ -x $B/skinny-old ]; then
                echo "before this work (skinny-old) at 4G CTR: cpu $(med 3 $B/skinny-old encrypt -q -b cpu -K $K --iv $IV $D/in -o $D/out-old) s," \
                    "gpu $(med 3 $B/skinny-old encrypt -q -b gpu -K $K --iv $IV $D/in -o $D/out-old) s"
            fi
            echo "peak RSS at 4G (KiB): cpu $( { /usr/bin/time -f %M $B/skinny encrypt -q -b cpu -K $K --iv $IV $D/in -o $D/out-cpu; } 2>&1 | tail -1)," \
                "gpu $( { /usr/bin/time -f %M $B/skinny encrypt -q -b gpu -K $K --iv $IV $D/in -o $D/out-gpu; } 2>&1 | tail -1)"
            echo "through a pipe, 4G: cpu $(med 3 sh -c "cat $D/in | $B/skinny encrypt -q -b cpu -K $K --iv $IV > $D/out-cpu") s," \
                "auto $(med 3 sh -c "cat $D/in | $B/skinny encrypt -q -K $K --iv $IV > $D/out-auto") s"
            cmp -s $D/out-cpu $D/out-auto && echo "pipe outputs same" || echo "pipe MISMATCH"
        fi
        if [ "$name" = 64M ] && [ -x $B/skinny-old ]; then
            echo "before this work (skinny-old) at 64M CTR: cpu $(med 5 $B/skinny-old encrypt -q -b cpu -K $K --iv $IV $D/in -o $D/out-old) s," \
                "gpu $(med 5 $B/skinny-old encrypt -q -b gpu -K $K --iv $IV $D/in -o $D/out-old) s"
        fi
    done
} > "$OUT/cli.log" 2>&1
rm -rf $D
cat "$OUT/cli.log"
