#!/usr/bin/env bash
# Mid-sized host calls (1-64 MiB) on the device machine: where a kernel can
# lose time through the staged host path against plain copies. The
# small_calls example (kernel alone, whole and in quarters, one stream and
# four; each host path; page-locked memory), then `skinny bench` ECB end to
# end / pageable / kernel for gpu-paper and gpu, with .gpu-bin/skinny and,
# when present, .gpu-bin/skinny-old (the binary of an earlier commit, copied
# in after staging, for a before/after in the same call). Staged binaries in
# .gpu-bin/ (scripts/gpu/stage.sh).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=scripts/lib/device.sh
. scripts/lib/device.sh
need small_calls skinny
header
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv
echo "== small_calls"
timeout 240 "$B/small_calls" 2>&1
for bin in skinny skinny-old; do
  [ -x "$B/$bin" ] || continue
  echo "== $bin bench: gpu-paper, gpu; ECB; 1M..64M"
  timeout 200 "$B/$bin" bench --backends gpu-paper,gpu --modes ecb --sizes 1M..64M --timings e2e,pageable,kernel \
    --runs 5 -q 2>&1
done
