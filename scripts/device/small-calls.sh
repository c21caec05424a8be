#!/usr/bin/env bash
# Mid-sized host calls (1-64 MiB) on the H200 machine: where the paper's
# kernel loses time through the staged path (run 28: 22 ms for 8 MiB against
# 11 ms through plain copies). The small_calls example (kernel alone, whole and
# in quarters, one stream and four; each host path; page-locked memory), then
# `skinny bench` ECB end to end / pageable / kernel for gpu-paper and gpu,
# with .gpu-bin/skinny and, when present, .gpu-bin/skinny-old (the binary of
# an earlier commit, for a before/after in the same call). Prebuilt binaries
# in .gpu-bin/.
set -uo pipefail
B=.gpu-bin
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/skinny-cache}
echo "commit: $(cat $B/COMMIT)"; date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
echo "== small_calls"
timeout 240 $B/small_calls 2>&1
for bin in skinny skinny-old; do
  [ -x $B/$bin ] || continue
  echo "== $bin bench: gpu-paper, gpu; ECB; 1M..64M"
  timeout 200 $B/$bin bench --backends gpu-paper,gpu --modes ecb --sizes 1M..64M --timings e2e,pageable,kernel \
    --runs 5 -q 2>&1
done
