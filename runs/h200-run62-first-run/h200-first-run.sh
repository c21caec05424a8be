#!/usr/bin/env bash
# Where a freshly started GPU machine's first lab run loses its ~30 s (issue 29
# item 4): the same differential run three times on a fresh machine, each timed
# with its peak memory, then the cost of first-touching host memory and of
# initializing CUDA alone, so the first run's extra time can be placed.
# Usage (on the GPU machine): scripts/h200-first-run.sh BINARY
set -uo pipefail
bin=${1:?usage: h200-first-run.sh BINARY}
out=${OUT:-/tmp/first-run}; mkdir -p "$out"
now() { date +%s.%N; }
since() { python3 -c "import sys;print(round(float(sys.argv[2])-float(sys.argv[1]),3))" "$1" "$(now)"; }
lab=(lab differential -b gpu -c skinny-128-256 --rounds 18 --key-every 1 --seed 3 --json
     --dp 00000000000000000006000000000000 --dc 00000000000000000000000000000000
     --dk 0000000000000000000200000000000000000000000000000080000000000000 --queries 2^36)
{
echo "== machine at start"; date -u; uptime; free -m; grep -E 'MemTotal|MemFree|MemAvailable' /proc/meminfo
nvidia-smi --query-gpu=name,driver_version,persistence_mode,pstate,clocks.sm,memory.used --format=csv
nvidia-smi dmon -s pc -d 1 > "$out/dmon.txt" 2>&1 &
dmon=$!
if [ "${FIRST_TOUCH:-0}" = 1 ]; then
  echo "== first touch of 16 GiB of host memory, twice (before any GPU use)"
  for i in 1 2; do t0=$(now); python3 -c "b=bytearray(16<<30)"; echo "touch $i: $(since $t0) s"; done
fi
if [ -n "${SMALL_FIRST:-}" ]; then
  echo "== a small GPU lab run first: 2^30 queries"
  t0=$(now); "$bin" "${lab[@]/2^36/2^30}" > "$out/small.json" 2> "$out/small.err"; echo "small run: exit $? after $(since $t0) s"
fi
for i in 1 2 3; do
  echo "== lab run $i (fresh kernel cache)"
  export XDG_CACHE_HOME=$(mktemp -d)
  t0=$(now)
  /usr/bin/time -f 'wall %e s, user %U s, sys %S s, max RSS %M KiB, major faults %F, minor faults %R' \
      "$bin" "${lab[@]}" > "$out/lab-$i.json" 2> "$out/lab-$i.err"
  echo "exit $? after $(since $t0) s"; tail -2 "$out/lab-$i.err"
  python3 -c "import json;r=json.load(open('$out/lab-$i.json'));print({k:r[k] for k in r if k in ('queries','hits','seconds','queries_per_second','rate')})" 2>/dev/null || head -c 400 "$out/lab-$i.json"
  free -m | sed -n 2p
done
kill $dmon 2>/dev/null
} 2>&1 | tee "$out/first-run.txt"
