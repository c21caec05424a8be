#!/usr/bin/env bash
# `skinny seal` / `skinny open` of a 4 GiB file in /dev/shm against `cp` on the
# device machine (the target: at least 0.8x cp), on both engines (`--backend cpu`,
# all cores; `--backend gpu`, the first GPU, started while the CPU begins) and
# `--backend auto` (the GPU kept only if it proves the faster engine), M1,
# 64 KiB chunks. Checked: every round trip, and that a file sealed on one
# engine opens on the other (the files differ: each seal draws a random nonce
# prefix). Staged binary in .gpu-bin/ (scripts/gpu/stage.sh). SEAL_RUNS
# (default 4) runs; SEAL_CHUNK (default 64K) the chunk size.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=scripts/lib/device.sh
. scripts/lib/device.sh
need skinny
echo "commit: $(tr '\n' ' ' < "$B/COMMIT")"; nproc; date -u
K=000102030405060708090a0b0c0d0e0f
CHUNK=${SEAL_CHUNK:-64K}
head -c $((4 << 30)) /dev/urandom > /dev/shm/s-in 2>/dev/null || dd if=/dev/urandom of=/dev/shm/s-in bs=1M count=4096 status=none
t() { local s e; s=$(date +%s.%N); "$@"; e=$(date +%s.%N); awk -v a="$s" -v b="$e" 'BEGIN { printf "%.3f", b - a }'; }
ratio() { awk -v c="$1" -v x="$2" 'BEGIN { printf "%.2f", c / x }'; }
# Which engine ran, once (verbose), so a silent CPU fallback cannot pass for the GPU.
"$B/skinny" seal -q -v -b gpu --chunk-size "$CHUNK" -K $K /dev/shm/s-in -o /dev/shm/s-probe || echo "GPU ENGINE FAILED"
rm -f /dev/shm/s-probe
for i in $(seq "${SEAL_RUNS:-4}"); do
  c=$(t cp /dev/shm/s-in /dev/shm/s-cp); rm -f /dev/shm/s-cp
  for e in cpu gpu auto; do
    # GPU and auto runs say (-v, on stderr, before the run's line) how many
    # chunks each engine did: the CPU works while the GPU starts, and auto
    # says whether it left the GPU.
    v=; [ $e != cpu ] && v=-v
    s=$(t "$B/skinny" seal -q $v -b $e --chunk-size "$CHUNK" -K $K /dev/shm/s-in -o /dev/shm/s-$e)
    o=$(t "$B/skinny" open -q $v -b $e -K $K /dev/shm/s-$e -o /dev/shm/s-out)
    cmp -s /dev/shm/s-in /dev/shm/s-out && ok=same || ok=DIFFERENT
    echo "run $i $e: cp $c s, seal $s s ($(ratio "$c" "$s")x cp), open $o s ($(ratio "$c" "$o")x cp), round trip $ok"
    rm -f /dev/shm/s-out
  done
  # Across engines: the GPU's file on the CPU, the CPU's on the GPU.
  "$B/skinny" open -q -b cpu -K $K /dev/shm/s-gpu -o /dev/shm/s-out && cmp -s /dev/shm/s-in /dev/shm/s-out && x1=same || x1=DIFFERENT
  "$B/skinny" open -q -b gpu -K $K /dev/shm/s-cpu -o /dev/shm/s-out && cmp -s /dev/shm/s-in /dev/shm/s-out && x2=same || x2=DIFFERENT
  cmp -s /dev/shm/s-cpu /dev/shm/s-gpu && d="IDENTICAL (prefix not random?)" || d=differ
  echo "run $i across: gpu-sealed opened on cpu $x1, cpu-sealed opened on gpu $x2, sealed files $d"
  rm -f /dev/shm/s-out /dev/shm/s-cpu /dev/shm/s-gpu /dev/shm/s-auto
done
rm -f /dev/shm/s-in
