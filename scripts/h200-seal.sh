#!/usr/bin/env bash
# `skinny seal` / `skinny open` of a 4 GiB file in /dev/shm against `cp` on the
# H200 machine (issue target: >= 0.8x cp), CPU engine, all cores; the round
# trip is checked. Prebuilt binary in .gpu-bin/.
set -uo pipefail
B=.gpu-bin
echo "commit: $(cat $B/COMMIT)"; nproc; date -u
K=000102030405060708090a0b0c0d0e0f
head -c $((4 << 30)) /dev/urandom > /dev/shm/s-in 2>/dev/null || dd if=/dev/urandom of=/dev/shm/s-in bs=1M count=4096 status=none
t() { local s e; s=$(date +%s.%N); "$@"; e=$(date +%s.%N); awk -v a="$s" -v b="$e" 'BEGIN { printf "%.3f", b - a }'; }
for i in $(seq "${SEAL_RUNS:-4}"); do
  c=$(t cp /dev/shm/s-in /dev/shm/s-cp); rm -f /dev/shm/s-cp
  s=$(t $B/skinny seal -q -K $K /dev/shm/s-in -o /dev/shm/s-sealed)
  o=$(t $B/skinny open -q -K $K /dev/shm/s-sealed -o /dev/shm/s-out)
  cmp -s /dev/shm/s-in /dev/shm/s-out && ok=same || ok=DIFFERENT
  echo "run $i: cp $c s, seal $s s, open $o s, round trip $ok"
  rm -f /dev/shm/s-sealed /dev/shm/s-out
done
rm -f /dev/shm/s-in
