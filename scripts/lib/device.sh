# shellcheck shell=bash
# Sourced by the scripts that run on the device machine (scripts/gpu/check.sh,
# scripts/device/*.sh), from the repository root: where the staged binaries
# are, the run's header, and one test suite's run with its summary.
#
# B: the staged folder (GPU_BIN, default .gpu-bin; scripts/gpu/stage.sh fills
# it). OUT: where logs go (the device tool's output folder).

B=${GPU_BIN:-.gpu-bin}
# The stage travels as one archive, $B/staged.tgz (the whole folder is larger
# than the device tool carries); unpacked here once for each archive, in
# place of what an earlier one left.
if [ -f "$B/staged.tgz" ]; then
  staged_sum=$(cksum < "$B/staged.tgz")
  if [ "$(cat "$B/.unpacked" 2>/dev/null)" != "$staged_sum" ]; then
    find "$B" -mindepth 1 -maxdepth 1 ! -name staged.tgz -exec rm -rf {} +
    tar -C "$B" -xzf "$B/staged.tgz" && echo "$staged_sum" > "$B/.unpacked"
  fi
  unset staged_sum
fi
# The compiled kernels' cache: one per machine, outside the carried tree.
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-/tmp/skinny-cache}

# need NAME...: fails in one line if a staged binary is missing.
need() {
  local name
  for name in "$@"; do
    if [ ! -x "$B/$name" ]; then
      echo "missing $B/$name (scripts/gpu/stage.sh here, then carry .gpu-bin/staged.tgz)" >&2
      exit 1
    fi
  done
}

# The machine, its GPUs and what runs on it.
header() {
  date -u
  echo "commit: $(tr '\n' ' ' < "$B/COMMIT" 2>/dev/null || echo "no $B/COMMIT")"
  uptime
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1
  lscpu | grep -E "Model name|^CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)"
  grep -o -w 'avx2\|avx512f\|avx512bw\|avx512vl\|avx512vbmi\|gfni' /proc/cpuinfo | sort -u | tr '\n' ' '
  echo
}

# suite NAME LIMIT [ARGS]: test binary $B/NAME under a time limit of LIMIT
# seconds, inside the command SUITE_WRAP (an array, e.g. compute-sanitizer)
# if set; its log in $OUT/NAME.log (NAME.TAG.log with SUITE_TAG), its
# summary lines here. Returns the binary's exit status (124 when it ran out
# of time, 127 when it is missing).
suite() {
  local name=$1 limit=$2 rc t0 log
  shift 2
  log=$OUT/$name${SUITE_TAG:+.$SUITE_TAG}.log
  echo "== $name${SUITE_TAG:+ ($SUITE_TAG)}"
  if [ ! -x "$B/$name" ]; then
    echo "MISSING $B/$name"
    return 127
  fi
  t0=$(date +%s)
  timeout "$limit" ${SUITE_WRAP[@]+"${SUITE_WRAP[@]}"} "$B/$name" "$@" > "$log" 2>&1
  rc=$?
  echo "exit $rc in $(( $(date +%s) - t0 )) s"
  grep -E "^test .*(FAILED|ignored)|test result|skip:|panicked|overflow|needs more|over 64|ERROR SUMMARY|RACECHECK SUMMARY" \
    "$log" | tail -12
  return $rc
}
