#!/usr/bin/env bash
# Issues 27-29 on the H200 machine, in one call: a fresh machine's first lab
# run (kernels compiled before the timer, and said on stderr), every GPU suite
# (sealed format v2 on the GPU, the lab's start rounds and differential-linear
# kernel, the earlier suites), the 64 KiB stack tests in the release profile on
# the AVX-512 host (with each call's least stack), the AVX-512 paths after the
# stack work, the Python package's tests with SKINNY_REQUIRE_GPU=1, and the
# measures: the differential-linear rate, sealed v1 against v2 against `age`
# and `cp` on one 4 GiB file.
#
# Here (with Rust): `scripts/h200-seal-lab.sh --stage` builds into
# .gpu-bin/seallab/ (carried, with .gpu-bin/age: Debian's age 1.1.1 binary).
# There: `OUT=... scripts/h200-seal-lab.sh [all|checks|speed]`.
set -uo pipefail
cd "$(dirname "$0")/.."
B=.gpu-bin/seallab
what=${1:-all}
if [ "$what" = "--stage" ]; then
  set -e
  scripts/lib/stage-into.sh $B -p skinny -p skinny-aead -p skinny-romulus -p skinny-many -p skinny-lab \
    -p skinny-cuda -p skinny-cli -p skinny-seal \
    --features "skinny-many/cuda skinny-lab/cuda skinny-aead/cuda skinny-cli/cuda skinny-seal/cuda" \
    --bin skinny --test lockstep --test bitsliced --test per_block_tk1 --test per_block_tweakeys \
    --test partial_rounds --test stack --test kat --test gpu --test gpu_start_round \
    --test round_trip --test hostile \
    --example lab_speed --example seal_speed
  # The Python package as users get it (release, abi3), built with maturin.
  [ -x .venv-python/bin/maturin ] || { python3 -m venv .venv-python && .venv-python/bin/pip install -q "maturin>=1.7,<2"; }
  .venv-python/bin/maturin build --release --locked -m crates/skinny-py/Cargo.toml -o $B/wheel -q
  ls -la $B $B/wheel; du -sh $B
  exit 0
fi
OUT="${OUT:?set OUT}"
mkdir -p "$OUT"
export SKINNY_REQUIRE_GPU=1
# The CLI's end-to-end tests run the carried binary, not the build machine's path.
export SKINNY_BIN=$PWD/$B/skinny
. scripts/lib/h200-common.sh
first_run() {
  echo "== a fresh machine's first lab run (2^30 queries; compile announced, left out of the time)"
  export XDG_CACHE_HOME=$(mktemp -d)
  local t0=$(date +%s.%N)
  $B/skinny lab differential -b gpu -c skinny-128-256 --rounds 18 --key-every 1 --seed 3 --json \
    --dp 00000000000000000006000000000000 --dc 00000000000000000000000000000000 \
    --dk 0000000000000000000200000000000000000000000000000080000000000000 --queries 2^30 \
    > "$OUT/first.json" 2> "$OUT/first.err"
  echo "exit $?, wall $(python3 -c "import time;print(round(time.time()-$t0,2))") s; stderr:"; cat "$OUT/first.err"
  python3 -c "import json;r=json.load(open('$OUT/first.json'));print('reported seconds', r['seconds'])"
}
checks() {
  for s in core-lockstep core-bitsliced core-per_block_tk1 core-per_block_tweakeys core-partial_rounds \
           aead-kat many-kat romulus-kat many-lockstep seal-round_trip seal-hostile; do suite $s 200; done
  for s in core-stack aead-stack many-stack romulus-stack lab-stack seal-stack; do suite $s 200 --include-ignored; done
  echo "== core-stack, least stack of each call (SKINNY_STACK_MEASURE=1)"
  SKINNY_STACK_MEASURE=1 timeout 150 $B/core-stack --include-ignored 2>&1 | grep -E "^stack:|floor|KiB" | sort | uniq -c | sort -rn | head -20
  for s in seal-gpu lab-gpu lab-gpu_start_round cuda-gpu aead-gpu many-gpu cli-gpu; do
    suite $s 300 --test-threads=1
  done
  echo "== skinny selftest"; timeout 200 $B/skinny selftest 2>&1 | tail -6
  echo "== Python package (wheel from $B/wheel), pytest, SKINNY_REQUIRE_GPU=1"
  local py=$(mktemp -d)
  python3 -m pip install -q --no-deps --target "$py" $B/wheel/*.whl 2>&1 | tail -2
  (cd crates/skinny-py/tests && PYTHONPATH="$py" timeout 300 python3 -m pytest -q -rs -p no:cacheprovider . 2>&1 | tail -15)
}
speed() {
  echo "== lab: differential and differential-linear rates (lab_speed 34 0)"
  timeout 240 $B/lab_speed 34 0 2>&1 | tail -25
  echo "== sealed v1 against v2 in memory, 1 GiB, all cores (seal_speed)"
  SKINNY_SEAL_SPEED_MIB=1024 timeout 200 $B/seal_speed 2>&1 | tail -8
  echo "== one 4 GiB file in /dev/shm: cp, skinny seal/open, age (passphrase-less X25519)"
  local d=/dev/shm/sl; mkdir -p $d
  head -c $((4 << 30)) /dev/urandom > $d/plain 2>/dev/null || dd if=/dev/urandom of=$d/plain bs=1M count=4096 status=none
  head -c 16 /dev/urandom > $d/key
  .gpu-bin/age/age-keygen -o $d/age.key 2>/dev/null; local rcpt=$(grep -o 'age1[0-9a-z]*' $d/age.key | head -1)
  t() { local name=$1; shift; local t0=$(date +%s.%N); "$@"; echo "$name: exit $?, $(python3 -c "import time;print(round(time.time()-$t0,2))") s"; }
  for round in 1 2 3; do
    t "cp" cp $d/plain $d/copy; rm -f $d/copy
    t "skinny seal (cpu)" $B/skinny seal --key-file $d/key -b cpu $d/plain -o $d/sealed
    t "skinny open (cpu)" $B/skinny open --key-file $d/key -b cpu $d/sealed -o $d/opened
    cmp -s $d/plain $d/opened && echo "  open == plain" || echo "  OPEN DIFFERS"
    rm -f $d/sealed $d/opened
    t "age encrypt" .gpu-bin/age/age -r "$rcpt" -o $d/aged $d/plain
    t "age decrypt" .gpu-bin/age/age -d -i $d/age.key -o $d/unaged $d/aged
    rm -f $d/aged $d/unaged
  done
  rm -rf $d
}
header 2>&1 | tee "$OUT/header.txt"
case $what in
  checks) { first_run; checks; } 2>&1 | tee "$OUT/checks.txt" ;;
  speed) speed 2>&1 | tee "$OUT/speed.txt" ;;
  *) { first_run; checks; } 2>&1 | tee "$OUT/checks.txt"; speed 2>&1 | tee "$OUT/speed.txt" ;;
esac
