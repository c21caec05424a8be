#!/usr/bin/env bash
# The CPU paths on the H200 host (AVX-512 with VBMI and GFNI), in one call:
# 1. every CPU suite that checks a path against the specification code or the
#    official vectors: the core crate's bitsliced, per-block, lockstep and
#    single-block suites (the VBMI single-block path and encrypt_lanes among
#    them), Romulus, SKINNY-Hash, SKINNY-AEAD and the many-message engine;
# 2. the speed guard (ratios, its JSON in $OUT);
# 3. dudect on the AVX-512 paths valgrind cannot run (the VBMI single block,
#    its decryption and lanes, the bitsliced AVX-512 batches);
# 4. one thread: the bitsliced paths (AVX-512, AVX2, portable) and the
#    single-block paths;
# 5. ours against aadomn/skinny (Romulus-N/-M/-H) and the hashes against
#    sha256sum/b2sum, when .peer/ is carried (scripts/peers/stage.sh here).
#
# Here (with Rust): `scripts/h200-cpu-speed.sh --stage` builds into .gpu-bin/
# (carried, with .peer). There: `OUT=... scripts/h200-cpu-speed.sh [checks|speed|all]`.
set -uo pipefail
cd "$(dirname "$0")/.."
B=.gpu-bin
if [ "${1:-}" = "--stage" ]; then
  set -e
  scripts/lib/stage-into.sh $B -p skinny -p skinny-romulus -p skinny-hash -p skinny-aead -p skinny-many \
    -p skinny-ct-check -p skinny-speed-guard \
    --test bitsliced --test per_block_tweakeys --test per_block_tk1 --test lockstep --test single_block \
    --test lanes --test fixed_tweakey_part --test vectors --test reduced_rounds --test rustcrypto_modes \
    --test kat --test kat_paths --test kat_reference --test differential --test edges \
    --example cpu_speed --example per_block_speed --example single_block_speed --example dudect \
    --bin speed-guard
  scripts/peers/stage.sh
  exit 0
fi
OUT="${OUT:?set OUT}"
what=${1:-all}
# shellcheck source=scripts/lib/h200-common.sh
. scripts/lib/h200-common.sh
header
if [ "$what" = checks ] || [ "$what" = all ]; then
  for t in core-bitsliced core-per_block_tweakeys core-per_block_tk1 core-lockstep core-single_block \
    core-lanes core-fixed_tweakey_part core-vectors core-reduced_rounds core-rustcrypto_modes \
    romulus-kat romulus-kat_paths romulus-kat_reference romulus-differential hash-kat \
    aead-kat many-kat many-lockstep many-differential many-edges; do
    suite "$t" 300 --test-threads 8
  done
fi
if [ "$what" = speed ] || [ "$what" = all ]; then
  echo "== speed guard (one core)"
  taskset -c 2 $B/speed-guard --json "$OUT/speed-guard.json" 2>&1 | tail -40
  echo "== dudect, 10 s a target (one core)"
  targets=$($B/dudect --list | grep -E 'avx512' | tr '\n' ' ')
  taskset -c 3 $B/dudect --seconds 10 $targets leaky-compare 2>&1 | tail -20
  echo "== one thread, bitsliced ECB (cpu_speed, one core)"
  taskset -c 2 $B/cpu_speed --threads 1 --mib 1 --seconds 1 --variant skinny-128-256 2>&1 | tail -6
  taskset -c 2 $B/cpu_speed --threads 1 --mib 1 --seconds 1 --variant skinny-128-128 --no-spec 2>&1 | tail -4
  echo "== per-block tweakeys (one core)"
  taskset -c 2 $B/per_block_speed --seconds 0.5 2>&1 | tail -20
  echo "== single blocks, CBC chained (one core), SKINNY-128-384 and -128-256"
  for v in skinny-128-384 skinny-128-256; do
    for p in portable-u64 ssse3-split avx512-gfni avx512-vbmi best; do
      echo -n "$v $p: "; taskset -c 2 $B/single_block_speed "$v" "$p" 64 2>&1 | tail -1
    done
  done
  if [ -d .peer ]; then
    echo "== ours against aadomn/skinny and the hash yardsticks (one core)"
    scripts/peers/compare.sh --core 2 --raw "$OUT/peers-raw.txt" > "$OUT/peers.txt" 2> "$OUT/peers-stderr.txt"
    echo "exit $?"; cat "$OUT/peers.txt"
  else
    echo "no .peer carried: the peer comparison did not run"
  fi
fi
