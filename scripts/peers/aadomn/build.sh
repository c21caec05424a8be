#!/usr/bin/env bash
# Builds the peer harness against aadomn/skinny's x86 (SSSE3) code:
#   build.sh SRC OUT
# SRC: the staged sources (scripts/peers/stage.sh puts them in .peer/aadomn/:
# romulus-n/, romulus-m/, romulus-h/, each one flat folder of the peer's x86
# files); OUT: where bench-romulus-n, -m and -h go. CC (default gcc) and
# CFLAGS (default -O3 -march=native) as the peer's authors build it; the
# compiler's version goes to OUT/CC-VERSION for the record.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: build.sh SRC OUT}
out=${2:?usage: build.sh SRC OUT}
cc=${CC:-gcc}
read -r -a cflags <<<"${CFLAGS:--O3 -march=native}"
mkdir -p "$out"
build() { # SCHEME NAME KIND FILES...
  local scheme=$1 dir=$src/$1 name=$2 kind=$3; shift 3
  [[ -d $dir ]] || { echo "build.sh: no $dir (run scripts/peers/stage.sh)" >&2; exit 2; }
  local files=()
  for f in "$@"; do files+=("$dir/$f"); done
  "$cc" "${cflags[@]}" -std=gnu11 -D"$kind" -DSCHEME_NAME="\"$name\"" -I"$dir" \
    "$here/bench.c" "${files[@]}" -o "$out/bench-$scheme"
}
build romulus-n Romulus-N BENCH_AEAD encrypt.c romulus_n.c skinny128.c
build romulus-m Romulus-M BENCH_AEAD encrypt.c romulus_m.c skinny128.c
build romulus-h Romulus-H BENCH_HASH hash.c skinny128.c
{ "$cc" --version | head -1; echo "flags: ${cflags[*]}"; } >"$out/CC-VERSION"
