#!/usr/bin/env bash
# The bitsliced AVX-512 path on the H200 machine's Xeon (AVX-512F/BW/VL), from
# the prebuilt binaries in .gpu-bin/ (scripts/gpu-stage.sh; no Rust there):
# 1. the `skinny` test suites that check every bitsliced path against the
#    specification code (AVX-512 is what `Path::best` picks there; the AVX2 and
#    portable paths are forced by the tests themselves), failing if the CPU has
#    no AVX-512F, since then the AVX-512 cases only print "skipped";
# 2. one thread, ECB, AVX-512 against AVX2 for SKINNY-128-128, -128-256 and
#    -64-128, three alternating repeats (the two paths take turns inside each
#    run), pinned to one core; and, when .gpu-bin/peer/p128 and p64 exist, the
#    designers' AVX2 code (kste/skinny_avx, built outside the repository with a
#    timing driver that first checks the specification's test vector in all 64
#    blocks of a batch; never part of the repository) on the same core in the
#    same repeat, for the 1.7x target of issue #14.
set -euo pipefail
cd "$(dirname "$0")/.."
B=.gpu-bin
echo "commit: $(cat $B/COMMIT)"; date -u
grep -m1 "model name" /proc/cpuinfo
flags=$(grep -m1 '^flags' /proc/cpuinfo)
for f in avx2 avx512f avx512bw avx512vl gfni; do
    if [[ " $flags " == *" $f "* ]]; then echo "cpu has $f"; else echo "cpu LACKS $f"; fi
done
if [[ " $flags " != *" avx512f "* ]]; then
    echo "no AVX-512F on this CPU: the AVX-512 path cannot be tested here" >&2
    exit 1
fi

echo "== skinny tests (all paths against the specification code)"
for t in bitsliced per_block_tweakeys per_block_tk1 vectors reduced_rounds rustcrypto_modes single_block; do
    bin=$B/skinny-$t
    if [[ ! -x $bin ]]; then
        echo "missing $bin (run scripts/gpu-stage.sh)" >&2
        exit 1
    fi
    log=$(mktemp)
    # `--nocapture` so a skipped path's stderr line shows in the log.
    if ! timeout 600 "$bin" --test-threads 2 --nocapture >"$log" 2>&1; then
        tail -40 "$log"
        echo "FAILED: skinny-$t" >&2
        exit 1
    fi
    grep -E "^test result" "$log" | sed "s/^/skinny-$t: /"
    if grep -qi "skipped" "$log"; then
        grep -i "skipped" "$log" | sed "s/^/skinny-$t: /"
        echo "a path was skipped on a CPU that should have it" >&2
        exit 1
    fi
    rm -f "$log"
done

echo "== one thread, ECB, AVX-512 vs AVX2 (taskset -c 2; 3 repeats, paths alternate)"
for rep in 1 2 3; do
    for v in skinny-128-128 skinny-128-256 skinny-64-128; do
        # Odd repeats run AVX2 first, even ones AVX-512 first, so neither always
        # gets the warmer (or the quieter) turn.
        if ((rep % 2)); then paths=avx2,avx512; else paths=avx512,avx2; fi
        echo "-- repeat $rep $v ($paths)"
        peer=""
        [[ $v == skinny-128-128 ]] && peer=$B/peer/p128
        [[ $v == skinny-64-128 ]] && peer=$B/peer/p64
        if [[ -n $peer && -x $peer ]]; then taskset -c 2 "$peer" 2; fi
        taskset -c 2 $B/cpu_speed --threads 1 --mib 1 --seconds 2 --variant "$v" --path "$paths" --no-spec
    done
done
