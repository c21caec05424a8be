#!/usr/bin/env bash
# The constant-time check (TIMECOP / ctgrind style; checks/ct): builds the
# check binary (profile `ct`: the release code generation with line tables, so
# reports name source lines) and runs every CPU path valgrind can execute on
# keys and data marked undefined, under memcheck: the ciphers, the AEADs and
# hashes, the bulk modes (PKCS#7 removal included), and the sealed-file format
# v2 (key file text, derivations, file key wrap, header MAC, X25519 unwrap,
# whole files; `skinny-ct-check --list`). Any secret-dependent branch or memory
# index is reported, and any report fails the script. Then the three positive
# controls (a table lookup indexed by a key byte, a branch on a key bit, a MAC
# compared with `==`), each in its own run, which memcheck must report:
# otherwise the marking or the build would be hiding leaks and the clean run
# would prove nothing.
#
# Needs valgrind (Debian: apt-get install -y valgrind). No suppressions: the
# checks run clean without any. Paths the CPU has (AVX2, SSSE3) must be
# available under valgrind too (`--expect`), so none is skipped quietly; the
# AVX-512 paths, which valgrind cannot run, are measured by
# `cargo run --release -p skinny-ct-check --example dudect` instead.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v valgrind >/dev/null; then
    echo "ct-valgrind: valgrind is not installed (apt-get install -y valgrind)" >&2
    exit 1
fi
start=$(date +%s)
cargo build --locked --profile ct -p skinny-ct-check --bin skinny-ct-check
# Where cargo put it (CARGO_TARGET_DIR or the build configuration may move it).
target=$(cargo metadata --format-version 1 --no-deps --locked |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
bin=$target/ct/skinny-ct-check

flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
expect=portable-u64
[[ " $flags " == *" avx2 "* ]] && expect+=,avx2
[[ " $flags " == *" ssse3 "* ]] && expect+=,ssse3,ssse3-split

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
memcheck() {
    local log=$1
    shift
    valgrind --tool=memcheck --error-exitcode=1 --track-origins=yes --leak-check=no \
        --num-callers=40 --log-file="$log" "$bin" "$@"
}

echo "== every path on secret inputs (expected paths: $expect)"
if ! memcheck "$logs/checks.log" --expect "$expect"; then
    cat "$logs/checks.log" >&2
    echo "ct-valgrind: FAILED: memcheck reported secret-dependent branches or indexes (above)" >&2
    exit 1
fi
grep -q "ERROR SUMMARY: 0 errors" "$logs/checks.log" || {
    cat "$logs/checks.log" >&2
    echo "ct-valgrind: FAILED: no clean error summary" >&2
    exit 1
}
grep "ERROR SUMMARY" "$logs/checks.log"

echo "== positive controls (each must be reported)"
for control in "leaky-table:Use of uninitialised value of size 8" \
    "leaky-branch:Conditional jump or move depends on uninitialised value" \
    "leaky-compare:Conditional jump or move depends on uninitialised value"; do
    name=${control%%:*}
    want=${control#*:}
    status=0
    memcheck "$logs/$name.log" "$name" >/dev/null || status=$?
    if [[ $status -ne 1 ]] || ! grep -q "$want" "$logs/$name.log"; then
        cat "$logs/$name.log" >&2
        echo "ct-valgrind: FAILED: the control $name was not reported ($want; exit $status)" >&2
        exit 1
    fi
    echo "$name: reported as expected ($want), at:"
    grep -A2 "$want" "$logs/$name.log" | grep -m1 -E "at 0x|by 0x" | sed 's/^==[0-9]*== */  /'
done
echo "ct-valgrind: ok in $(($(date +%s) - start)) s"
