#!/bin/bash
# Whole-process timings of two commands in turn (A B A B ...), with public tools only:
# /usr/bin/time's user, system and wall seconds for each run, one warm-up pair not counted,
# then the median of each figure and of the A/B ratios taken pair by pair (pairing keeps a
# ratio meaningful when the machine's speed drifts between pairs).
#
#   pairs.sh N 'COMMAND_A' 'COMMAND_B'
#
# Run it from the folder that holds the files the commands name (for the record beside this
# script: /dev/shm, see README.md), on a machine whose load average is under 1.
set -euo pipefail
n=$1 a=$2 b=$3
time_one() { /usr/bin/time -f '%U %S %e' bash -c "exec $1 >/dev/null 2>&1" 2>&1 | tail -1; }
time_one "$a" >/dev/null; time_one "$b" >/dev/null
for i in $(seq "$n"); do
    echo "A $(time_one "$a")"
    echo "B $(time_one "$b")"
done | awk '
    function median(v, k,   i, j, t) { for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
                                   return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2 }
    $1 == "A" { na++; au[na] = $2; ac[na] = $2 + $3; aw[na] = $4 }
    $1 == "B" { nb++; bu[nb] = $2; bc[nb] = $2 + $3; bw[nb] = $4; rc[nb] = bc[nb] > 0 ? ac[nb] / bc[nb] : 0; rw[nb] = bw[nb] > 0 ? aw[nb] / bw[nb] : 0 }
    # A ratio of 0 marks a pair whose B took under the 10 ms the timer resolves: give B more work.
    END { printf "median of %d pairs: A cpu %.3f s, wall %.3f s; B cpu %.3f s, wall %.3f s; A/B cpu %.2f, wall %.2f\n",
          nb, median(ac, na), median(aw, na), median(bc, nb), median(bw, nb), median(rc, nb), median(rw, nb) }'
