#!/usr/bin/env bash
# Ours against aadomn/skinny's x86 code (Adomnicai and Peyrin, ACISP 2022) on
# one core, taking turns in one run: Romulus-N and -M seal and open, Romulus-H;
# then SKINNY-tk3-Hash and -tk2-Hash (no peer: sha256sum and b2sum over one
# temporary file are the yardsticks). Prints the machine, medians over the
# rounds and ours/peer ratios (median, and the range of the per-round ratios).
#
#   scripts/peers/compare.sh [--bin DIR] [--peer-src DIR] [--peer-bin DIR]
#       [--core N] [--rounds R] [--passes P] [--sizes LIST] [--yardstick-mib M]
#       [--raw FILE]
#
# --bin       our romulus_speed and hash_speed (default .peer/bin, which
#             scripts/peers/stage.sh fills; release builds, no -march flag)
# --peer-src  the peer's staged sources (default .peer/aadomn); the peer is
#             built from them here, into a temporary folder, by
#             scripts/peers/aadomn/build.sh (gcc -O3 -march=native: for the
#             machine it runs on, so never carried prebuilt)
# --peer-bin  a folder with bench-romulus-{n,m,h} already built here instead
# --core      pin every timed program to this core (taskset -c), if taskset
#             exists; default: not pinned
# --rounds    rounds (default 5); odd rounds run the peer first, even ours
# --passes    timings per binary per size, the best kept (default 5)
# --sizes     message bytes (default 64,1024,16384,1048576)
# --yardstick-mib  the file for sha256sum/b2sum (default 256; 0: none)
# --raw       also keep every parsed line ("round who kind name bytes values")
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/.peer/bin peer_src=$root/.peer/aadomn peer_bin='' core='' rounds=5 passes=5
sizes=64,1024,16384,1048576 yard_mib=256 raw_keep=
while (($#)); do
  [[ $1 == -h || $1 == --help || $# -ge 2 ]] || { echo "compare.sh: $1 needs a value" >&2; exit 2; }
  case $1 in
    --bin) bin=$2 ;;
    --peer-src) peer_src=$2 ;;
    --peer-bin) peer_bin=$2 ;;
    --core) core=$2 ;;
    --rounds) rounds=$2 ;;
    --passes) passes=$2 ;;
    --sizes) sizes=$2 ;;
    --yardstick-mib) yard_mib=$2 ;;
    --raw) raw_keep=$2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift 2
done
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
if [[ -z $peer_bin ]]; then
  peer_bin=$work/peer
  "$root/scripts/peers/aadomn/build.sh" "$peer_src" "$peer_bin" >&2
fi
ours_n=$bin/romulus_speed ours_hash=$bin/hash_speed
for b in "$ours_n" "$peer_bin"/bench-romulus-{n,m,h}; do
  [[ -x $b ]] || { echo "compare.sh: not an executable: $b (run scripts/peers/stage.sh)" >&2; exit 2; }
done
# A folder staged for an older comparison may lack the SKINNY-Hash example.
[[ -x $ours_hash ]] || { echo "compare.sh: no $ours_hash: SKINNY-Hash not timed" >&2; ours_hash=; }
pin=() pinned="not pinned"
if [[ -n $core ]]; then
  if command -v taskset >/dev/null; then pin=(taskset -c "$core"); pinned="taskset -c $core"
  else pinned="not pinned (no taskset)"; fi
fi

# Every timed line becomes "round who kind name bytes values...":
#   check NAME HEX  |  NAME LEN B  seal X MiB/s  open Y MiB/s  |  NAME LEN B  hash X MiB/s
raw=$work/raw
parse() { # ROUND WHO
  awk -v r="$1" -v w="$2" '
    $1 == "check" {print r, w, "check", $2, 0, $3}
    $3 == "B" && $4 == "seal" {print r, w, "aead", $1, $2, $5, $8}
    $3 == "B" && $4 == "hash" {print r, w, "hash", $1, $2, $5}' >>"$raw"
}
peer() { "${pin[@]}" "$peer_bin/bench-romulus-$1" "$passes" "$sizes" | parse "$2" peer; }
ours() { "${pin[@]}" "$ours_n" "$passes" "$1" "$sizes" | parse "$2" ours; }
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
for ((r = 1; r <= rounds; r++)); do
  for s in n m h; do
    if ((r % 2)); then peer $s $r; ours $s $r; else ours $s $r; peer $s $r; fi
  done
  [[ -z $ours_hash ]] || "${pin[@]}" "$ours_hash" "$passes" 32 "$sizes" | parse $r ours
  if ((r == 1)); then
    # The same key, nonce and message must give the same tag (digest), or
    # the two sides are not timing the same function.
    bad=$(awk '$3 == "check" {v[$2 " " $4] = $6; n[$4] = 1}
      END {for (s in n) if (v["ours " s] != v["peer " s]) print s ": ours " v["ours " s] ", peer " v["peer " s]}' "$raw")
    [[ -z $bad ]] || { echo "compare.sh: outputs differ, timings meaningless:"$'\n'"$bad" >&2; exit 3; }
  fi
  echo "round $r of $rounds done" >&2
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
[[ -z $raw_keep ]] || cp "$raw" "$raw_keep"

# The yardsticks: one pass each over a file in memory (/dev/shm when there).
yard=
if ((yard_mib > 0)); then
  dir=/dev/shm; [[ -w $dir ]] || dir=${TMPDIR:-/tmp}
  file=$(mktemp "$dir/peers-yardstick.XXXXXX")
  head -c $((yard_mib << 20)) /dev/urandom >"$file"
  for tool in sha256sum b2sum; do
    if command -v $tool >/dev/null; then
      t0=$(date +%s.%N); "${pin[@]}" $tool "$file" >/dev/null; t1=$(date +%s.%N)
      yard+="$tool $(awk -v m="$yard_mib" -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", m / (b - a)}');"
    else
      yard+="$tool missing;"
    fi
  done
  rm -f "$file"
fi

flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | tr ' ' '\n' |
  grep -x -E 'sse4_1|ssse3|avx|avx2|bmi2|avx512f|avx512bw|avx512vl|avx512vbmi|avx512_vbmi2|gfni|vaes|vpclmulqdq|sha_ni' |
  tr '\n' ' ' || true)
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); host: $(uname -n); cores: $(nproc)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
echo "flags: ${flags:-?}"
echo "pinned: $pinned; load average before $load_before, after $load_after"
echo "ours: $(tr '\n' ' ' 2>/dev/null <"$bin/COMMIT" || echo "commit unknown")($bin)"
echo "peer: $(cat "$peer_src/COMMIT" 2>/dev/null || echo "aadomn/skinny, commit unknown"); $(tr '\n' ';' 2>/dev/null <"$peer_bin/CC-VERSION" | sed 's/;$//; s/;/; /g')"
echo "checks: tag (digest) of 64 zero bytes equal, ours and peer: $(awk '$1 == 1 && $3 == "check" && $2 == "peer" {printf "%s ", $4}' "$raw")"
echo "rounds: $rounds, best of $passes timings of ~2^18 bytes per binary per size per round;"
echo "MiB/s medians over rounds; ratio = ours/peer, median (range of the per-round ratios)"
echo
awk -v yard="$yard" -v yard_mib="$yard_mib" '
  function median(list,   a, n, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {t = a[j]; a[j] = a[j - 1]; a[j - 1] = t}
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  function range(list,   a, n, i, lo, hi) {
    n = split(list, a, " "); lo = hi = a[1]
    for (i = 2; i <= n; i++) {if (a[i] + 0 < lo + 0) lo = a[i]; if (a[i] + 0 > hi + 0) hi = a[i]}
    return sprintf("%.2f-%.2f", lo, hi)
  }
  # A key per (who, name, bytes, field); values in round order.
  function add(k, v) {vals[k] = vals[k] " " v}
  $3 == "aead" {add($2 SUBSEP $4 SUBSEP $5 SUBSEP "seal", $6); add($2 SUBSEP $4 SUBSEP $5 SUBSEP "open", $7);
                byround[$1, $2, $4, $5, "seal"] = $6; byround[$1, $2, $4, $5, "open"] = $7; seen($4, $5)
                if ($1 > rounds) rounds = $1}
  $3 == "hash" {add($2 SUBSEP $4 SUBSEP $5 SUBSEP "hash", $6); byround[$1, $2, $4, $5, "hash"] = $6; seen($4, $5)
                if ($1 > rounds) rounds = $1}
  function seen(name, len) {if (!((name, len) in known)) {known[name, len] = 1; order[++count] = name SUBSEP len}}
  function ratios(name, len, f,   r, list) {
    for (r = 1; r <= rounds; r++) if ((r, "peer", name, len, f) in byround)
      list = list " " byround[r, "ours", name, len, f] / byround[r, "peer", name, len, f]
    return list
  }
  function cell(name, len, f,   o, p) {
    o = median(vals["ours" SUBSEP name SUBSEP len SUBSEP f]); p = median(vals["peer" SUBSEP name SUBSEP len SUBSEP f])
    return sprintf("%9.2f %9.2f %5.2fx (%s)", o, p, o / p, range(ratios(name, len, f)))
  }
  END {
    printf "%-10s %8s  %9s %9s %-17s  %9s %9s %s\n", "scheme", "bytes", "ours seal", "peer seal", "ratio", "ours open", "peer open", "ratio"
    for (i = 1; i <= count; i++) {split(order[i], k, SUBSEP)
      if (k[1] ~ /^Romulus-[NM]$/) printf "%-10s %8d  %-37s  %s\n", k[1], k[2], cell(k[1], k[2], "seal"), cell(k[1], k[2], "open")}
    printf "\n%-10s %8s  %9s %9s %s\n", "scheme", "bytes", "ours hash", "peer hash", "ratio"
    for (i = 1; i <= count; i++) {split(order[i], k, SUBSEP)
      if (k[1] == "Romulus-H") printf "%-10s %8d  %s\n", k[1], k[2], cell(k[1], k[2], "hash")}
    printf "\n%-15s %8s  %9s  %s\n", "hash (no peer)", "bytes", "MiB/s", "range over rounds"
    for (m = 3; m >= 2; m--) for (i = 1; i <= count; i++) {split(order[i], k, SUBSEP)
      if (k[1] != "SKINNY-tk" m "-Hash") continue
      key = "ours" SUBSEP k[1] SUBSEP k[2] SUBSEP "hash"; mid = median(vals[key])
      printf "%-15s %8d  %9.2f  %s\n", k[1], k[2], mid, range(vals[key])
      if (k[2] == 1048576) mib[m] = mid}
    if (yard != "") {
      printf "\nyardsticks: one pass over a random file in memory, same pinning\n"
      n = split(yard, lines, ";"); for (i = 1; i <= n; i++) if (lines[i] != "") {split(lines[i], t, " ")
        printf "%-15s %8s  %9s\n", t[1], yard_mib " MiB", t[2]}
      for (m = 3; m >= 2; m--) if (m in mib) printf "%-15s %8s  %9.2f  (from the table above)\n", "SKINNY-tk" m "-Hash", 1048576, mib[m]
    }
  }' "$raw"
