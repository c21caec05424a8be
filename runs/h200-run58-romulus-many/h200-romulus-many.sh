#!/usr/bin/env bash
# Issue 26 on the H200 machine, in one call: the core crate's single-block
# suites on the AVX-512 host (the nibble-split path and FixedTweakeyPart), the
# Romulus suites, the many-message engine's CPU and GPU suites
# (SKINNY_REQUIRE_GPU=1), the lab's and the CUDA crate's GPU suites (lab.cu's
# tweakey schedule moved into tweakey_slices.cuh); then the speed runs:
# Romulus-N/-M against aadomn/skinny on one core (the peer built there with
# gcc -O3 -march=native when gcc exists), the CPU many-message engine on
# 1/8/16 threads against the single-message path, the GPU engine.
#
# Here (with Rust): `scripts/h200-romulus-many.sh --stage` builds into
# .gpu-bin/ and `scripts/peers/stage.sh --no-build` puts the peer's sources in
# .peer/ (carry both). There: `OUT=... scripts/h200-romulus-many.sh [checks|speed|all]`.
set -uo pipefail
cd "$(dirname "$0")/.."
B=.gpu-bin
if [ "${1:-}" = "--stage" ]; then
  set -e
  mkdir -p $B
  cargo build --release --locked -p skinny -p skinny-romulus -p skinny-many -p skinny-lab -p skinny-cuda \
    --features "skinny-many/cuda skinny-lab/cuda" \
    --test single_block --test fixed_tweakey_part --test rustcrypto_modes --test vectors \
    --test kat --test kat_paths --test lockstep --test differential --test tamper --test edges --test gpu --test published \
    --example romulus_speed --example many_speed --example many_gpu_speed --example gateway \
    --message-format=json-render-diagnostics > $B/stage.json
  python3 - <<'PY'
import json, shutil
for line in open(".gpu-bin/stage.json"):
    m = json.loads(line)
    if m.get("reason") != "compiler-artifact" or not m.get("executable"):
        continue
    pkg = m["package_id"].split("#")[0].rstrip("/").split("/")[-1].split("@")[0]
    kind, name = m["target"]["kind"][0], m["target"]["name"]
    short = {"skinny": "core", "skinny-romulus": "romulus", "skinny-many": "many",
             "skinny-lab": "lab", "skinny-cuda": "cuda"}[pkg]
    dest = name if kind == "example" else f"{short}-{name}"
    shutil.copy(m["executable"], ".gpu-bin/" + dest)
PY
  rm $B/stage.json
  git rev-parse HEAD > $B/COMMIT
  git status --porcelain --untracked-files=no | grep -q . && echo "dirty" >> $B/COMMIT || true
  ls $B
  exit 0
fi
OUT="${OUT:?set OUT}"
what=${1:-all}
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/skinny-cache}
export SKINNY_REQUIRE_GPU=1
suite() { # NAME LIMIT [ARGS]: one test binary, its summary lines
  local name=$1 limit=$2; shift 2
  echo "== $name"
  if [ ! -x "$B/$name" ]; then echo "MISSING $B/$name"; return; fi
  local t0=$(date +%s)
  timeout "$limit" "$B/$name" "$@" > "$OUT/$name.log" 2>&1
  echo "exit $? in $(( $(date +%s) - t0 )) s"
  grep -E "^test .*(FAILED|ignored)|test result|skip:|panicked" "$OUT/$name.log" | tail -8
}
header() {
  date -u; echo "commit: $(tr '\n' ' ' < $B/COMMIT)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  lscpu | grep -E "Model name|^CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)"; grep -o -w 'avx512f\|gfni\|avx512vbmi' /proc/cpuinfo | sort -u | tr '\n' ' '; echo
}
checks() {
  for s in core-single_block core-fixed_tweakey_part core-rustcrypto_modes core-vectors \
           romulus-kat romulus-kat_paths romulus-differential romulus-tamper \
           core-lockstep many-lockstep many-kat many-differential many-edges; do suite $s 200; done
  suite many-gpu 200 --test-threads=1
  suite cuda-gpu 200 --test-threads=1
  suite lab-gpu 200 --test-threads=1
  suite lab-published 200 --test-threads=1
  echo "== gateway"; timeout 60 $B/gateway 2>&1 | tail -8
}
speed() {
  echo "== Romulus single messages against aadomn/skinny (one core, taskset -c 2)"
  # The peer's sources staged by scripts/peers/stage.sh (carry .peer), built here.
  if command -v gcc >/dev/null && [ -d .peer/aadomn ]; then
    timeout 300 scripts/peers/compare.sh --bin $B --core 2 --yardstick-mib 0 2>/dev/null
  else
    echo "no gcc or no peer sources: peer not run"; timeout 60 taskset -c 2 $B/romulus_speed 5 nm
  fi
  echo "== CPU many-message engine (64 B and more; threads 1, 8, 16)"
  timeout 200 $B/many_speed 1048576 1,8,16 2>&1 | tail -40
  echo "== GPU many-message engine (2^24 messages of 64 B)"
  timeout 200 $B/many_gpu_speed 24 3 2>&1 | tail -30
}
mkdir -p "$OUT"
header | tee "$OUT/header.txt"
case $what in
  checks) checks 2>&1 | tee "$OUT/checks.txt" ;;
  speed) speed 2>&1 | tee "$OUT/speed.txt" ;;
  *) checks 2>&1 | tee "$OUT/checks.txt"; speed 2>&1 | tee "$OUT/speed.txt" ;;
esac
