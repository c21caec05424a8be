#!/usr/bin/env bash
# One call on the H200 machine after the execution-layer restructuring (issue
# 25): every GPU suite of every crate with SKINNY_REQUIRE_GPU=1 (a missing GPU
# fails), `skinny selftest`, seal/open and encrypt through the CLI on the GPU
# against the CPU, and the datapath example (every host path beside Auto's
# choice, pageable memory, ECB and CTR). Binaries come prebuilt in .gpu-bin/
# (scripts/gpu-stage.sh). Writes checks.log and datapath.log under $OUT.
set -uo pipefail
OUT="${OUT:?set OUT}"
B=.gpu-bin
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/skinny-cache}
export SKINNY_REQUIRE_GPU=1
suite() { # NAME LIMIT: one test binary, its summary lines
    local name=$1 limit=$2
    echo "== $name"
    if [ ! -x "$B/$name" ]; then echo "MISSING $B/$name"; return; fi
    timeout "$limit" env SKINNY_GPU_BIG=1 "$B/$name" --test-threads=1 2>&1 | grep -E "^test .*(FAILED|ignored)|test result|skip:|panicked" | tail -12
}
{
    date -u
    echo "commit: $(cat $B/COMMIT 2>/dev/null)"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    lscpu | grep -E "Model name|^CPU\(s\)"
    for s in cuda-gpu-tests cuda-multigpu-tests gpu-tests multigpu-tests lab-gpu-tests lab-published-tests aead-gpu-tests seal-gpu-tests; do
        suite $s 300
    done
    echo "== skinny selftest"
    timeout 120 $B/skinny selftest 2>&1 | tail -15
    echo "selftest exit: ${PIPESTATUS[0]}"
    echo "== CLI end to end on the GPU against the CPU (256 MiB + 7 bytes, /dev/shm)"
    D=/dev/shm/skinny-house; mkdir -p $D
    head -c $((256 * 1024 * 1024 + 7)) /dev/urandom > $D/in.bin
    head -c 16 /dev/urandom > $D/seal.key
    K=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'); IV=ffffffffffffffffffffffffffffff00
    for m in ctr ecb cbc; do
        ivo="--iv $IV"; [ $m = ecb ] && ivo=""
        $B/skinny encrypt -q -b gpu -m $m -K $K $ivo $D/in.bin -o $D/g.bin
        $B/skinny encrypt -q -b cpu -m $m -K $K $ivo $D/in.bin -o $D/c.bin
        $B/skinny decrypt -q -b gpu -m $m -K $K $ivo $D/g.bin -o $D/back.bin
        if cmp -s $D/g.bin $D/c.bin && cmp -s $D/back.bin $D/in.bin; then echo "encrypt $m: gpu == cpu, round trip ok"; else echo "encrypt $m: MISMATCH"; fi
    done
    # Sealed files: 600 MiB + 7 bytes, above auto's 512 MiB, so auto opens the GPU too.
    head -c $((600 * 1024 * 1024 + 7)) /dev/urandom > $D/big.bin
    for b in gpu auto cpu; do
        /usr/bin/time -f "seal -b $b: %e s" $B/skinny seal -q -v -b $b --key-file $D/seal.key $D/big.bin -o $D/s-$b.sealed 2>&1 | tail -3
        /usr/bin/time -f "open -b $b: %e s" $B/skinny open -q -v -b $b --key-file $D/seal.key $D/s-$b.sealed -o $D/o-$b.bin 2>&1 | tail -3
        cmp -s $D/o-$b.bin $D/big.bin && echo "open -b $b: round trip ok" || echo "open -b $b: FAILED"
    done
    cmp -s $D/s-gpu.sealed $D/s-cpu.sealed && echo "sealed gpu == cpu (bytes)" || echo "sealed files differ (expected: random prefix per file)"
    # Each engine opens the other's file; small chunks: gpu refuses in one line, auto uses the CPU.
    $B/skinny open -q -b gpu --key-file $D/seal.key $D/s-cpu.sealed -o $D/x.bin && cmp -s $D/x.bin $D/big.bin && echo "gpu opens the cpu's file: ok" || echo "gpu opens the cpu's file: FAILED"
    $B/skinny open -q -b cpu --key-file $D/seal.key $D/s-gpu.sealed -o $D/x.bin && cmp -s $D/x.bin $D/big.bin && echo "cpu opens the gpu's file: ok" || echo "cpu opens the gpu's file: FAILED"
    $B/skinny seal -q -b gpu --chunk-size 4K --key-file $D/seal.key $D/in.bin -o $D/small.sealed; echo "seal -b gpu --chunk-size 4K: exit $? (want 2)"
    $B/skinny seal -q -v -b auto --chunk-size 4K --key-file $D/seal.key $D/big.bin -o $D/small.sealed 2>&1 | tail -2
    $B/skinny seal -q -b gpu --gpus 7 --key-file $D/seal.key $D/in.bin -o $D/small.sealed; echo "seal -b gpu --gpus 7: exit $? (want 2)"
    rm -rf $D
} > "$OUT/checks.log" 2>&1
cat "$OUT/checks.log" | tail -60
echo "== datapath"
timeout 240 $B/datapath 4096 > "$OUT/datapath.log" 2>&1
echo "datapath exit: $?" >> "$OUT/datapath.log"
tail -40 "$OUT/datapath.log"
