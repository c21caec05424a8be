#!/usr/bin/env bash
# Issues 26 and 27 on the H200 machine, in one call: the suites this work
# touched on the AVX-512 host and the GPU (lockstep groups' first AVX-512 run,
# the core crate after its stack-frame split, the 64 KiB stack tests, the GPU
# suites on the new harness with SKINNY_REQUIRE_GPU=1), the dudect timing test
# of the AVX-512 paths (valgrind cannot run them), the CPU many-message engine
# on 1/8/16 threads, and `skinny bench --many` on the CPU and the GPU.
#
# Here (with Rust): `scripts/h200-hardening.sh --stage` builds into
# .gpu-bin/hardening/ (carried). There: `OUT=... scripts/h200-hardening.sh`.
set -uo pipefail
cd "$(dirname "$0")/.."
B=.gpu-bin/hardening
what=${1:-all}
if [ "$what" = "--stage" ]; then
  set -e
  mkdir -p $B
  cargo build --release --locked -p skinny -p skinny-aead -p skinny-romulus -p skinny-many -p skinny-lab \
    -p skinny-cuda -p skinny-cli -p skinny-ct-check \
    --features "skinny-many/cuda skinny-lab/cuda skinny-aead/cuda skinny-cli/cuda" \
    --bin skinny --test lockstep --test single_block --test bitsliced --test per_block_tweakeys \
    --test per_block_tk1 --test vectors --test stack --test kat --test gpu --test sealed_gpu \
    --example many_speed --example dudect \
    --message-format=json-render-diagnostics > $B/stage.json
  python3 - <<'PY'
import json, shutil
short = {"skinny": "core", "skinny-aead": "aead", "skinny-romulus": "romulus", "skinny-many": "many",
         "skinny-lab": "lab", "skinny-cuda": "cuda", "skinny-cli": "cli", "skinny-ct-check": "ct"}
for line in open(".gpu-bin/hardening/stage.json"):
    m = json.loads(line)
    if m.get("reason") != "compiler-artifact" or not m.get("executable"):
        continue
    # "path+file:///.../skinny-many#0.1.0", or "...checks/ct#skinny-ct-check@0.1.0"
    # when the folder is not named after the package.
    where, _, tail = m["package_id"].partition("#")
    pkg = tail.split("@")[0] if "@" in tail else where.rstrip("/").split("/")[-1]
    kind, name = m["target"]["kind"][0], m["target"]["name"]
    if pkg not in short:
        continue
    dest = name if kind in ("example", "bin") else f"{short[pkg]}-{name}"
    shutil.copy(m["executable"], ".gpu-bin/hardening/" + dest)
PY
  rm $B/stage.json
  strip $B/* 2>/dev/null || true
  git rev-parse HEAD > $B/COMMIT
  git status --porcelain --untracked-files=no | grep -q . && echo "dirty" >> $B/COMMIT || true
  ls -la $B; du -sh $B
  exit 0
fi
OUT="${OUT:?set OUT}"
# all (default), or: checks | dudect | speed
mkdir -p "$OUT"
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/skinny-cache}
export SKINNY_REQUIRE_GPU=1
suite() { # NAME LIMIT [ARGS]: one test binary, its summary lines
  local name=$1 limit=$2; shift 2
  echo "== $name"
  if [ ! -x "$B/$name" ]; then echo "MISSING $B/$name"; return; fi
  local t0=$(date +%s)
  timeout "$limit" "$B/$name" "$@" > "$OUT/$name.log" 2>&1
  echo "exit $? in $(( $(date +%s) - t0 )) s"
  grep -E "^test .*(FAILED|ignored)|test result|skip:|panicked|passed|failed|overflow|needs more" "$OUT/$name.log" | tail -12
}
header() {
  date -u; echo "commit: $(tr '\n' ' ' < $B/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  lscpu | grep -E "Model name|^CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)"
  grep -o -w 'avx512f\|gfni\|avx512vbmi' /proc/cpuinfo | sort -u | tr '\n' ' '; echo
}
checks() {
  for s in core-lockstep many-lockstep core-single_block core-bitsliced core-per_block_tweakeys \
           core-per_block_tk1 core-vectors many-kat romulus-kat aead-kat; do suite $s 150; done
  for s in core-stack aead-stack many-stack romulus-stack lab-stack; do suite $s 150 --include-ignored; done
  stack_sizes
  for s in many-gpu cuda-gpu lab-gpu aead-gpu aead-sealed_gpu; do suite $s 200 --test-threads=1; done
}
stack_sizes() {
  echo "== core-stack, least stack of each call (SKINNY_STACK_MEASURE=1)"
  SKINNY_STACK_MEASURE=1 timeout 150 $B/core-stack 2>&1 | grep -E "^stack:|do not run|^  " | head -90
}
dudect() {
  echo "== dudect, AVX-512 paths (one core, taskset -c 2)"
  timeout 150 taskset -c 2 $B/dudect --seconds 22 bitsliced-avx512 per-block-avx512 per-block-tk1-avx512 \
    single-avx512-gfni leaky-compare 2>&1 | tail -20
}
speed() {
  dudect
  echo "== CPU many-message engine, 64 B, threads 1, 8, 16"
  timeout 150 $B/many_speed 1048576 1,8,16 2>&1 | tail -45
  echo "== skinny bench --many (CPU 16 threads and GPU)"
  timeout 120 $B/skinny bench --many romulus-n,romulus-m,skinny-aead-m1 --sizes 64,1K --threads 16 \
    --backend cpu,gpu --runs 3 --json "$OUT/bench-many.json" 2>&1 | tail -30
}
header 2>&1 | tee "$OUT/header.txt"
case $what in
  checks) checks 2>&1 | tee "$OUT/checks.txt" ;;
  dudect) { stack_sizes; dudect; } 2>&1 | tee "$OUT/dudect.txt" ;;
  speed) speed 2>&1 | tee "$OUT/speed.txt" ;;
  *) checks 2>&1 | tee "$OUT/checks.txt"; speed 2>&1 | tee "$OUT/speed.txt" ;;
esac
