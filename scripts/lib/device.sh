# Sourced by the scripts/h200-*.sh scripts on the GPU machine: the run's
# header (machine, driver, commit) and one test suite's run with its summary.
# Needs B (the staged folder) and OUT (where logs go).

# suite NAME LIMIT [ARGS]: test binary $B/NAME under a time limit; its log in
# $OUT/NAME.log, its summary lines here.
suite() {
  local name=$1 limit=$2
  shift 2
  echo "== $name"
  if [ ! -x "$B/$name" ]; then echo "MISSING $B/$name"; return; fi
  local t0
  t0=$(date +%s)
  timeout "$limit" "$B/$name" "$@" > "$OUT/$name.log" 2>&1
  echo "exit $? in $(( $(date +%s) - t0 )) s"
  grep -E "^test .*(FAILED|ignored)|test result|skip:|panicked|passed|failed|overflow|needs more|over 64" \
    "$OUT/$name.log" | tail -12
}

# The machine and what runs on it.
header() {
  date -u; echo "commit: $(tr '\n' ' ' < "$B/COMMIT")"; uptime
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  lscpu | grep -E "Model name|^CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)"
  grep -o -w 'avx512f\|gfni\|avx512vbmi' /proc/cpuinfo | sort -u | tr '\n' ' '; echo
}
