# Shared by scripts/hostile/run.sh and fresh.sh: the verdict lines, a private
# work folder, and the inputs every case uses. Sourced, not run.

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PROC="python3 $HERE/proc.py"
LABEDIT="python3 $HERE/labedit.py"
: "${SKINNY:?set SKINNY=/path/to/skinny}"
S=$(realpath "$SKINNY")
KEY=000102030405060708090a0b0c0d0e0f
TWEAKEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
FAILS=0
PASSES=0
SKIPS=0
# ONLY=REGEX runs only the cases whose name matches.
ONLY=${ONLY:-.}

W=$(mktemp -d "${HOSTILE_TMP:-/tmp}/hostile.XXXXXX")
# Removes the work folder, after unmounting what a case mounted in it.
cleanup() {
    local m
    for m in $(awk -v w="$W/" 'index($2, w) == 1 { print $2 }' /proc/mounts); do umount "$m"; done
    rm -rf "$W"
}
trap cleanup EXIT
export TMPDIR=$W/tmp
mkdir -p "$TMPDIR" "$W/in"
ulimit -c 0

# want NAME: true when the case is selected; sets CASE.
want() { CASE=$1; [[ $CASE =~ $ONLY ]]; }
pass() { echo "PASS $CASE: $*"; PASSES=$((PASSES + 1)); }
fail() { echo "FAIL $CASE: $*"; FAILS=$((FAILS + 1)); }
skip() { echo "SKIP $CASE: $*"; SKIPS=$((SKIPS + 1)); }
verdict() { if "$@"; then pass "$REASON"; else fail "$REASON"; fi; }

# A fresh empty folder for one case.
newdir() { mktemp -d "$W/case.XXXXXX"; }
# Every name in a folder (hidden ones too), one line, or "(none)".
listing() { local l; l=$(ls -A "$1" | tr '\n' ' '); echo "${l:-(none)}"; }
# Lines of a file (a last line without newline counts).
lines() { awk 'END { print NR }' "$1"; }
# The first line of a file, control characters shown as \xNN, cut to 160 chars.
first() { grep -m1 -a . "$1" | python3 -c 'import sys; t=sys.stdin.buffer.read().rstrip(b"\n"); print(repr(t)[2:-1][:160])'; }
# True when a file holds an ESC byte (a terminal escape).
has_esc() { grep -q $'\x1b' "$1"; }
# Peak RSS in MiB from /usr/bin/time -f %M -o FILE (0 when it did not finish).
rss_mib() { awk '/^[0-9]+$/ { k = $1 } END { print int(k / 1024) }' "$1" 2> /dev/null || echo 0; }
sha() { sha256sum "$1" | cut -c1-16; }

# Inputs: 10 MB and 8 MiB of random bytes, the 8 MiB sealed (64K chunks),
# the key files.
inputs() {
    head -c 10000000 /dev/urandom > "$W/in/p10m"
    head -c $((8 << 20)) /dev/urandom > "$W/in/p8m"
    "$S" seal -K $KEY -q --chunk-size 64K "$W/in/p8m" -o "$W/in/s8m" || { echo "cannot seal the inputs"; exit 3; }
    echo $KEY > "$W/in/key.hex"
    echo $TWEAKEY > "$W/in/tk.hex"
}

# A small lab shard (2-round SKINNY-64-128, one cell masked) as JSON: lab_shard I/N OUT
LABDIFF=(lab differential -c skinny-64-128 --rounds 2 --dp 1000000000000000 --dc 0000000001000000
    --dc-mask 000000000f000000 -b cpu)
lab_shard() { "$S" "${LABDIFF[@]}" --queries 3000 --key-every 7 --show 3 --shard "$1" --json > "$2"; }

summary() {
    echo "summary: $PASSES passed, $FAILS failed, $SKIPS skipped ($S)"
    [ "$FAILS" -eq 0 ]
}
