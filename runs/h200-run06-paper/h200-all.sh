#!/usr/bin/env bash
# One call on the H200 machine that checks and measures the whole product after a
# merge: the GPU test suite (1 GiB test included), `skinny selftest` on every
# backend, the CLI end to end on the GPU against the CPU, the CPU figures of the
# bitsliced backend on that machine's cores, and the paper's experiment
# (scripts/h200-bench.sh). Binaries come prebuilt in .gpu-bin/ (scripts/gpu-stage.sh
# plus the skinny binary and the cpu_speed example; see runs/h200-log.md).
# Writes at most 7 files directly under $OUT: checks.log and h200-bench.sh's six.
set -uo pipefail
OUT="${OUT:?set OUT}"
B=.gpu-bin
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/skinny-cache}
log="$OUT/checks.log"
{
    date -u
    echo "commit: $(cat $B/COMMIT 2>/dev/null)"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    lscpu | grep -E "Model name|^CPU\(s\)"
    echo "== gpu tests (SKINNY_GPU_BIG=1)"
    timeout 300 env SKINNY_GPU_BIG=1 $B/gpu-tests --test-threads=1 2>&1 | grep -E "^test |test result|skip:|panicked"
    timeout 200 $B/cuda-gpu-tests --test-threads=1 2>&1 | grep -E "^test |test result|skip:|panicked"
    echo "== skinny selftest"
    timeout 120 $B/skinny selftest 2>&1
    echo "selftest exit: $?"
    echo "== CLI end to end: 256 MiB + 7 bytes, gpu against cpu"
    head -c $((256 * 1024 * 1024 + 7)) /dev/urandom > /tmp/in.bin
    K=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'); IV=ffffffffffffffffffffffffffffff00
    for m in ctr ecb cbc cfb ofb; do
        ivo="--iv $IV"; [ $m = ecb ] && ivo=""
        /usr/bin/time -f "%e s" $B/skinny encrypt -q -b gpu -m $m -K $K $ivo /tmp/in.bin -o /tmp/g.bin 2>&1 | tr '\n' ' '
        $B/skinny encrypt -q -b cpu -m $m -K $K $ivo /tmp/in.bin -o /tmp/c.bin
        $B/skinny decrypt -q -b gpu -m $m -K $K $ivo /tmp/g.bin -o /tmp/back.bin
        if cmp -s /tmp/g.bin /tmp/c.bin && cmp -s /tmp/back.bin /tmp/in.bin; then echo "$m: gpu == cpu, round trip ok"; else echo "$m: MISMATCH"; fi
    done
    rm -f /tmp/in.bin /tmp/g.bin /tmp/c.bin /tmp/back.bin
    echo "== cpu_speed, 16 threads"
    timeout 240 $B/cpu_speed --threads 16 --seconds 0.5 2>&1
    echo "== cpu_speed, 1 thread vs 2"
    timeout 60 $B/cpu_speed --threads 2 --seconds 0.5 --variant skinny-128-128 2>&1
} > "$log" 2>&1
cat "$log"
echo "== paper bench"
OUT="$OUT" SKINNY_BIN=$B/skinny LIMIT_S=${LIMIT_S:-330} bash scripts/h200-bench.sh
