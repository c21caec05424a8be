#!/usr/bin/env bash
# The CLI's wall time by size on this machine (no GPU): `cp`, `--backend cpu` and
# `auto`, SKINNY-128-256 CTR, input and output in /dev/shm, interleaved runs,
# medians; then the 2-thread floor of docs/data-path.md at 512 MiB (cp's wall and
# CPU time, the kernel's CPU time from cpu_speed). Needs a release build
# (`cargo build --release`); run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
S=target/release/skinny
D=$(mktemp -d /dev/shm/skinny-dev.XXXXXX)
trap 'rm -rf "$D"' EXIT
K=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff

t() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); awk -v a="$s" -v b="$e" 'BEGIN { printf "%.4f\n", b - a }'; }
med() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

echo "# $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); CLI wall time, skinny-128-256 CTR, median of interleaved runs"
printf "%-6s %9s %9s %9s %9s %s\n" size cp cpu auto auto/cpu outputs
for spec in 64K:65536:21 1M:1048576:21 8M:8388608:11 64M:67108864:7 512M:536870912:5; do
    IFS=: read -r name bytes runs <<< "$spec"
    head -c "$bytes" /dev/urandom > "$D/in"
    a=(); b=(); c=()
    for _ in $(seq "$runs"); do
        a+=("$(t cp "$D/in" "$D/out-cp")")
        b+=("$(t $S encrypt -q -b cpu -K $K --iv $IV "$D/in" -o "$D/out-cpu")")
        c+=("$(t $S encrypt -q -K $K --iv $IV "$D/in" -o "$D/out-auto")")
    done
    tcp=$(printf '%s\n' "${a[@]}" | med); tcpu=$(printf '%s\n' "${b[@]}" | med); tauto=$(printf '%s\n' "${c[@]}" | med)
    same=$(cmp -s "$D/out-cpu" "$D/out-auto" && echo same || echo MISMATCH)
    printf "%-6s %9.4f %9.4f %9.4f %9.3f %s\n" "$name" "$tcp" "$tcpu" "$tauto" "$(awk -v a="$tauto" -v c="$tcpu" 'BEGIN { print a / c }')" "$same"
done
echo "# the 2-thread floor at 512 MiB: cp wall/CPU, then the CLI (user+sys)"
for _ in 1 2 3; do /usr/bin/time -f "cp %e s wall, %U+%S s CPU" cp "$D/in" "$D/out-cp"; done 2>&1
for m in ctr ecb; do
    for _ in 1 2 3; do
        # shellcheck disable=SC2046 # no word, or two: an option and its value
        /usr/bin/time -f "$m %e s wall, %U+%S s CPU" $S encrypt -q -b cpu -m $m $([ $m = ecb ] && echo --no-pad) -K $K $([ $m = ctr ] && echo --iv $IV) "$D/in" -o "$D/out-cpu"
    done 2>&1
done
