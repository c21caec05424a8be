#!/usr/bin/env bash
# Issue 29's new lab work on the H200, in one call: the GPU suites of the new
# experiments (linear, cell patterns, per-key histograms; and the earlier lab
# suites, the kernels' signature having changed), the published validations
# at GPU size (the middle part at its true rounds, Peyrin and Tan's key
# dependence per key, the differential-linear configuration), the Python
# package's tests with SKINNY_REQUIRE_GPU=1, and the rates: every experiment
# (lab_speed), and what --per-key costs.
#
# Here (with Rust): `scripts/h200-lab-29.sh --stage` builds into
# .gpu-bin/lab29/ (carry it as .gpu-bin/lab29.tgz: see the end of --stage).
# There: `OUT=... scripts/h200-lab-29.sh [all|checks|validate|speed|resume|second]`
# (second: the checks again, a checkpointed GPU run stopped and resumed, and
# per-key with a fresh key every query).
set -uo pipefail
cd "$(dirname "$0")/.."
B=.gpu-bin/lab29
what=${1:-all}
if [ "$what" = "--stage" ]; then
  set -e
  rm -rf $B
  scripts/lib/stage-into.sh $B -p skinny-lab -p skinny-cuda -p skinny-cli \
    --features "skinny-lab/cuda skinny-cli/cuda" \
    --bin skinny --test gpu --test gpu_start_round --test gpu_per_key --test gpu_linear \
    --test published --test published_start_round --test published_key_dependence --test stack \
    --example lab_speed
  [ -x .venv-python/bin/maturin ] || { python3 -m venv .venv-python && .venv-python/bin/pip install -q "maturin>=1.7,<2"; }
  .venv-python/bin/maturin build --release --locked -m crates/skinny-py/Cargo.toml -o $B/wheel -q
  tar -C .gpu-bin -czf .gpu-bin/lab29.tgz lab29
  ls -la $B $B/wheel; du -sh $B .gpu-bin/lab29.tgz
  exit 0
fi
[ -d $B ] || tar -C .gpu-bin -xzf .gpu-bin/lab29.tgz
OUT="${OUT:?set OUT}"
mkdir -p "$OUT"
export SKINNY_REQUIRE_GPU=1
export SKINNY_BIN=$PWD/$B/skinny
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/skinny-cache}
. scripts/lib/h200-common.sh
S=$B/skinny
# A command's JSON report in $OUT/NAME.json and its figures here.
lab() {
  local name=$1
  shift
  local t0
  t0=$(date +%s.%N)
  timeout 300 "$S" lab "$@" --backend gpu --json > "$OUT/$name.json" 2> "$OUT/$name.err"
  local rc=$?
  python3 - "$OUT/$name.json" "$name" "$rc" "$t0" <<'PY'
import json, sys, time
path, name, rc, t0 = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
try:
    r = json.load(open(path))
except Exception as e:
    print(f"{name}: exit {rc}, no report ({e})"); sys.exit()
keys = ("queries", "hits", "log2_p", "ci95", "correlation", "correlation_ci95", "seconds", "rate_per_s")
print(f"{name}: exit {rc}, wall {time.time() - t0:.1f} s; " + ", ".join(f"{k} {r.get(k)}" for k in keys))
pk = r.get("per_key")
if pk:
    h = pk["histogram"]
    print(f"  per key: {pk['keys']} keys x {pk['queries_per_key']}; zero-hit {pk.get('zero_hit_share')} "
          f"(expected {pk.get('zero_hit_expected')}); dispersion {pk.get('dispersion')} on {pk.get('dispersion_df')} df, "
          f"p {pk.get('dispersion_p_value')}; p over keys {pk.get('probability_ci95_over_keys')}; "
          f"mean c {pk.get('mean_correlation')}, mean c^2 {pk.get('mean_squared_correlation')}; "
          f"histogram entries {len(h)}, first {h[:6]}")
PY
}
checks() {
  for s in lab-gpu lab-gpu_start_round lab-gpu_per_key lab-gpu_linear; do suite $s 400 --test-threads=1; done
  for s in lab-published_key_dependence lab-published_start_round lab-stack; do suite $s 300 --include-ignored; done
  echo "== Python package (wheel from $B/wheel), pytest, SKINNY_REQUIRE_GPU=1"
  local py
  py=$(mktemp -d)
  python3 -m pip install -q --no-deps --target "$py" $B/wheel/*.whl 2>&1 | tail -2
  (cd crates/skinny-py/tests && PYTHONPATH="$py" timeout 400 python3 -m pytest -q -rs -p no:cacheprovider . 2>&1 | tail -15)
}
validate() {
  echo "== published validations at GPU size (docs/lab-validation.md)"
  local dk1=0000000000000000000000000200000000000000000000000000000004000000
  local dk2=000000000000000000000000000000f80000000000000000000000000000007f
  local mid=(-c skinny-128-256 --rounds 6 --dp 00000000000000000006000000000000
    --dc 00000000000000000000000000000000 --dk1 $dk1 --dk2 $dk2 --queries 2^36 --key-every 2^12 --seed 6)
  lab middle-rounds-7-12 boomerang "${mid[@]}" --start-round 7 --tk-at start
  lab middle-rounds-1-6 boomerang "${mid[@]}"
  lab dl-64-192-8r differential-linear -c skinny-64-192 --rounds 8 --dp 000000000000000a \
    --mask 0000300030003000 --queries 2^38 --key-every 2^20 --seed 9 --per-key
  lab peyrin-tan-per-key differential -c skinny-64-64 --rounds 2 --dp 0040000000000000 \
    --dc 0000000000010000 --dc-mask 00000000000f0000 --queries 2^30 --key-every 256 --per-key --seed 1
}
speed() {
  echo "== lab_speed 36 0: 18-round SKINNY-128-256, every experiment, key every 1 and 4096"
  timeout 300 $B/lab_speed 36 0 2>&1 | tail -30
  echo "== what --per-key costs (18-round SKINNY-128-256 differential, 2^36 queries)"
  local d=(-c skinny-128-256 --rounds 18 --dp 00000000000000000006000000000000
    --dc 00000000000000000000000000000000
    --dk 0000000000000000000200000000000000000000000000000080000000000000 --queries 2^36 --seed 3)
  lab diff-key4096 differential "${d[@]}" --key-every 4096
  lab diff-key4096-per-key differential "${d[@]}" --key-every 4096 --per-key
  lab diff-key1 differential "${d[@]}" --key-every 1
  lab diff-key1-per-key differential "${d[@]}" --key-every 1 --per-key
  echo "== linear, 18 rounds, fresh key every query and per key of 2^20 (2^36 queries)"
  local l=(-c skinny-128-256 --rounds 18 --in-mask 00000000000000000000000000000001
    --out-mask 00000000000000000000000000000001 --queries 2^36 --seed 4)
  lab linear-key1 linear "${l[@]}" --key-every 1
  lab linear-per-key linear "${l[@]}" --key-every 2^20 --per-key
}
resume() {
  echo "== a GPU run stopped (SIGTERM) after its first checkpoint and resumed, against one that never stopped and the CPU"
  local a=(lab differential -c skinny-128-256 --rounds 10 --dp 01000000000000000000000000000000
    --dc 00000000000000000000000000000000 --dc-mask 00000000000000000000000000000000
    --key-every 4096 --seed 7 --show 10 --per-key --json)
  local ck=$OUT/ck.json
  rm -f "$ck"
  "$S" "${a[@]}" --queries 2^34 --backend gpu > "$OUT/whole.json" 2> "$OUT/whole.err"
  echo "uninterrupted: exit $?"
  "$S" "${a[@]}" --queries 2^34 --backend gpu --checkpoint "$ck" --checkpoint-every 0.2 > "$OUT/stopped.json" 2> "$OUT/stopped.err" &
  local pid=$!
  for _ in $(seq 1 200); do [ -s "$ck" ] && break; sleep 0.05; done
  sleep 0.3
  kill -TERM $pid; wait $pid
  echo "stopped: exit $?; checkpoint $( [ -s "$ck" ] && echo kept || echo MISSING ); $(tail -1 "$OUT/stopped.err")"
  "$S" "${a[@]}" --queries 2^34 --backend gpu --checkpoint "$ck" --checkpoint-every 0.2 > "$OUT/resumed.json" 2> "$OUT/resumed.err"
  echo "resumed: exit $?; $(head -1 "$OUT/resumed.err"); checkpoint $( [ -e "$ck" ] && echo LEFT || echo removed )"
  "$S" "${a[@]}" --backend cpu --queries 2^26 > "$OUT/cpu-small.json" 2>/dev/null
  "$S" "${a[@]}" --backend gpu --queries 2^26 > "$OUT/gpu-small.json" 2>/dev/null
  python3 - "$OUT" <<'PY'
import json, sys
d = sys.argv[1]
load = lambda n: json.load(open(f"{d}/{n}.json"))
same = lambda a, b: all(a[k] == b[k] for k in ("queries", "hits", "right", "per_key", "complete"))
w, r = load("whole"), load("resumed")
print(f"resumed == uninterrupted (queries, hits, right pairs, per-key, complete): {same(w, r)}; hits {w['hits']} of {w['queries']}")
c, g = load("cpu-small"), load("gpu-small")
print(f"2^26 queries, CPU == GPU: {same(c, g)}; hits {c['hits']}")
PY
}
header 2>&1 | tee "$OUT/header.txt"
case $what in
  checks) checks 2>&1 | tee "$OUT/checks.txt" ;;
  validate) validate 2>&1 | tee "$OUT/validate.txt" ;;
  speed) speed 2>&1 | tee "$OUT/speed.txt" ;;
  resume) resume 2>&1 | tee "$OUT/resume.txt" ;;
  second)
    checks 2>&1 | tee "$OUT/checks.txt"
    resume 2>&1 | tee "$OUT/resume.txt"
    echo "== per-key with a fresh key every query (host fold)"
    lab diff-key1-per-key differential -c skinny-128-256 --rounds 18 --dp 00000000000000000006000000000000 \
      --dc 00000000000000000000000000000000 --queries 2^34 --seed 3 --key-every 1 --per-key 2>&1 | tee -a "$OUT/speed.txt"
    ;;
  *)
    checks 2>&1 | tee "$OUT/checks.txt"
    validate 2>&1 | tee "$OUT/validate.txt"
    speed 2>&1 | tee "$OUT/speed.txt"
    ;;
esac
