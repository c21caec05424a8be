#!/usr/bin/env bash
# Romulus-N and -M seal/open speed, ours against aadomn/skinny's x86 code,
# run alternately on the same core; prints MiB/s (median over the rounds) and
# our/peer ratios. Needs only bash, awk, sort and the three binaries:
#   romulus-peer-compare.sh [PEER_N PEER_M OURS [ROUNDS [PASSES]]]
# PEER_N, PEER_M: the peer harness (bench-romulus-n, bench-romulus-m, built by
# the peer's build.sh); OURS: skinny-romulus's examples/romulus_speed (release).
# Without arguments they are looked for next to this script. Each round runs
# peer N, ours (N and M), peer M; each binary reports the best of PASSES timings.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
peer_n=${1:-$here/bench-romulus-n}
peer_m=${2:-$here/bench-romulus-m}
ours=${3:-$here/romulus_speed}
rounds=${4:-5}
passes=${5:-5}
for b in "$peer_n" "$peer_m" "$ours"; do
  [[ -x $b ]] || { echo "not an executable: $b" >&2; exit 2; }
done
# Output lines are "NAME LEN B seal X MiB/s open Y MiB/s"; keep
# "scheme len seal open", scheme n or m.
raw=$(mktemp); trap 'rm -f "$raw"' EXIT
for ((r = 1; r <= rounds; r++)); do
  "$peer_n" "$passes" | awk '/ B  seal/ {print "peer n", $2, $5, $8}' >>"$raw"
  "$ours" "$passes" nm | awk '/^Romulus-[NM] / {s = ($1 == "Romulus-N") ? "n" : "m"; print "ours", s, $2, $5, $8}' >>"$raw"
  "$peer_m" "$passes" | awk '/ B  seal/ {print "peer m", $2, $5, $8}' >>"$raw"
  echo "round $r of $rounds done" >&2
done
median() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo "host: $(uname -n), $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //')"
echo "rounds: $rounds, best of $passes timings per binary per round; MiB/s medians over rounds"
printf '%-10s %6s  %10s %10s %6s  %10s %10s %6s\n' scheme bytes "ours seal" "peer seal" ratio "ours open" "peer open" ratio
for s in n m; do
  for len in 64 1024 16384; do
    os=$(awk -v s=$s -v l=$len '$1 == "ours" && $2 == s && $3 == l {print $4}' "$raw" | median)
    ps=$(awk -v s=$s -v l=$len '$1 == "peer" && $2 == s && $3 == l {print $4}' "$raw" | median)
    oo=$(awk -v s=$s -v l=$len '$1 == "ours" && $2 == s && $3 == l {print $5}' "$raw" | median)
    po=$(awk -v s=$s -v l=$len '$1 == "peer" && $2 == s && $3 == l {print $5}' "$raw" | median)
    awk -v s="Romulus-${s^^}" -v l=$len -v os="$os" -v ps="$ps" -v oo="$oo" -v po="$po" \
      'BEGIN {printf "%-10s %6d  %10.2f %10.2f %5.2fx  %10.2f %10.2f %5.2fx\n", s, l, os, ps, os / ps, oo, po, oo / po}'
  done
done
