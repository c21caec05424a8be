#!/usr/bin/env bash
# The CPU paths' speed on the device machine's host (AVX-512 with VBMI and
# GFNI), in one call; `scripts/gpu/check.sh cpu` checks them first:
# 1. the speed guard (scripts/device/speed-guard.sh: ratios, its JSON in $OUT);
# 2. dudect on the AVX-512 paths valgrind cannot run (the VBMI single block,
#    its decryption and lanes, the bitsliced AVX-512 batches);
# 3. one thread: the bitsliced paths (AVX-512, AVX2, portable) and the
#    single-block paths;
# 4. ours against aadomn/skinny (Romulus-N/-M/-H) and the hashes against
#    sha256sum/b2sum, when .peer/ is carried (scripts/peers/stage.sh here).
#
# Here (with Rust): scripts/gpu/stage.sh cpu, and scripts/peers/stage.sh;
# carry .gpu-bin/staged.tgz and .peer. There: OUT=... scripts/device/cpu-paths.sh
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
OUT="${OUT:?set OUT}"
# shellcheck source=scripts/lib/device.sh
. scripts/lib/device.sh
need dudect cpu_speed per_block_speed single_block_speed
header
echo "== speed guard (one core)"
scripts/device/speed-guard.sh 2>&1 | tail -40
echo "== dudect, 10 s a target (one core)"
# shellcheck disable=SC2046 # one target a word
taskset -c 3 "$B/dudect" --seconds 10 $("$B/dudect" --list | grep -E 'avx512') leaky-compare 2>&1 | tail -20
echo "== one thread, bitsliced ECB (cpu_speed, one core)"
taskset -c 2 "$B/cpu_speed" --threads 1 --mib 1 --seconds 1 --variant skinny-128-256 2>&1 | tail -6
taskset -c 2 "$B/cpu_speed" --threads 1 --mib 1 --seconds 1 --variant skinny-128-128 --no-spec 2>&1 | tail -4
echo "== per-block tweakeys (one core)"
taskset -c 2 "$B/per_block_speed" --seconds 0.5 2>&1 | tail -20
echo "== single blocks, CBC chained (one core), SKINNY-128-384 and -128-256"
for v in skinny-128-384 skinny-128-256; do
  for p in portable-u64 ssse3-split avx512-gfni avx512-vbmi best; do
    echo -n "$v $p: "; taskset -c 2 "$B/single_block_speed" "$v" "$p" 64 2>&1 | tail -1
  done
done
if [ -d .peer ]; then
  echo "== ours against aadomn/skinny and the hash yardsticks (one core)"
  scripts/peers/compare.sh --core 2 --raw "$OUT/peers-raw.txt" > "$OUT/peers.txt" 2> "$OUT/peers-stderr.txt"
  echo "exit $?"; cat "$OUT/peers.txt"
else
  echo "no .peer carried: the peer comparison did not run"
fi
