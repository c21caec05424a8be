#!/usr/bin/env bash
# A short CLI timing on the H200 machine after a change to the CPU side: CTR
# encryption of 64 MiB, 512 MiB and 4 GiB in tmpfs with cp, cpu, gpu and auto,
# interleaved, median of 3, outputs compared. Prebuilt binaries in .gpu-bin/.
set -uo pipefail
B=.gpu-bin
export XDG_CACHE_HOME=/tmp/skinny-cache
D=/dev/shm/skinny-cc; mkdir -p $D
K=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f; IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
echo "commit: $(cat $B/COMMIT)"
t() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f\n", b - a }'; }
med() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
$B/skinny encrypt -q -b gpu -K $K --iv $IV /dev/null -o /dev/null  # fills the kernel cache
printf "%-6s %8s %8s %8s %8s %s\n" size cp cpu gpu auto outputs
for spec in 64M:67108864 512M:536870912 4G:4294967296; do
    IFS=: read -r name bytes <<< "$spec"
    head -c "$bytes" /dev/zero | $B/skinny encrypt -q -b cpu -K $K --iv $IV > $D/in
    a=(); b=(); c=(); d=()
    for _ in 1 2 3; do
        a+=("$(t cp $D/in $D/o-cp)"); b+=("$(t $B/skinny encrypt -q -b cpu -K $K --iv $IV $D/in -o $D/o-cpu)")
        c+=("$(t $B/skinny encrypt -q -b gpu -K $K --iv $IV $D/in -o $D/o-gpu)"); d+=("$(t $B/skinny encrypt -q -K $K --iv $IV $D/in -o $D/o-auto)")
    done
    same=$(cmp -s $D/o-cpu $D/o-gpu && cmp -s $D/o-cpu $D/o-auto && echo same || echo MISMATCH)
    printf "%-6s %8s %8s %8s %8s %s\n" $name "$(printf '%s\n' "${a[@]}" | med)" "$(printf '%s\n' "${b[@]}" | med)" "$(printf '%s\n' "${c[@]}" | med)" "$(printf '%s\n' "${d[@]}" | med)" "$same"
done
$B/skinny encrypt -v -q -K $K --iv $IV $D/in -o $D/o-auto 2>&1
rm -rf $D
