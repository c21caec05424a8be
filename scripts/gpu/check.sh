#!/usr/bin/env bash
# Runs on the device machine, from the repository root, the test suites that
# scripts/gpu/stage.sh staged (carried as .gpu-bin/staged.tgz), with
# SKINNY_REQUIRE_GPU=1 (a GPU test that finds no GPU fails instead of being
# ignored) and SKINNY_GPU_BIG=1 (the tests of a gibibyte and more run).
#
#   OUT=DIR scripts/gpu/check.sh [OPTIONS] [SUITE|GROUP...] [-- TEST ARGS]
#
# SUITE: a staged test binary (bulk-gpu, lab-published, core-suite; a quoted
# glob such as 'lab-*' picks several; --list shows them), or
#   selftest  `skinny selftest`: every backend, each GPU, then all striped
#   python    the Python package's tests (pytest) on the staged wheel
# GROUP: gpu (the default: every GPU suite, selftest, and python when a wheel
# is staged), cpu (every CPU suite staged for the AVX-512 host), all.
#
# Options:
#   --list       the staged suites by group; nothing runs
#   --memcheck   each selected test binary under compute-sanitizer's memcheck
#                (SKINNY_GPU_BIG off: a gibibyte under the sanitizer is slow)
#   --racecheck  the same with its racecheck
#   --limit S    seconds one suite may take (default 300)
# TEST ARGS go to every test binary: a name filter, --skip NAME,
# --include-ignored, --nocapture. A crate's CPU tests are one binary (suite)
# and its GPU suites another (gpu), each former binary a module: `lab-gpu --
# gpu_linear::` runs what was lab-gpu_linear, `core-suite -- lockstep::` core-lockstep.
#
# GPU suites run one test at a time (they share the GPU's memory), CPU suites
# on every core. The CLI's GPU tests run the staged `skinny` (SKINNY_BIN).
# Logs: $OUT/NAME.log (default OUT: a new temporary folder), the machine in
# $OUT/header.txt; a table of every suite's exit status, time and counts
# last. Exit status 1 if a suite failed, ran out of time or is missing.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
# shellcheck source=scripts/lib/device.sh
. scripts/lib/device.sh
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
usage() { sed -n '2,/^set -u/{/^set -u/d;s/^# \{0,1\}//;p}' "$0"; }

limit=300 list=0
SUITE_WRAP=() SUITE_TAG=
picks=() test_args=()
while [ $# -gt 0 ]; do
    case $1 in
        --list) list=1 ;;
        --memcheck | --racecheck)
            SUITE_TAG=${1#--}
            SUITE_WRAP=(compute-sanitizer --tool "$SUITE_TAG" --error-exitcode 9) ;;
        --limit) limit=${2:?--limit needs seconds}; shift ;;
        -h | --help) usage; exit 0 ;;
        --) shift; test_args=("$@"); break ;;
        -*) echo "check: unknown option $1 (--help)" >&2; exit 2 ;;
        *) picks+=("$1") ;;
    esac
    shift
done

if [ ! -f "$B/SUITES" ]; then
    echo "check: no $B/SUITES: run scripts/gpu/stage.sh here and carry .gpu-bin/staged.tgz" >&2
    exit 2
fi
declare -A group_of=()
staged=()
while read -r group name; do
    [ -n "$name" ] || continue
    group_of[$name]=$group
    staged+=("$name")
done < "$B/SUITES"
wheel=$(ls "$B"/wheel/*.whl 2>/dev/null | head -1)

# The selection, in the order given, each suite once.
selected=()
declare -A taken=()
take() { [ -n "${taken[$1]:-}" ] || { taken[$1]=1; selected+=("$1"); }; }
in_group() { # GROUP: every staged suite of it (and the gpu group's extras)
    local name
    for name in "${staged[@]}"; do
        [ "$1" = all ] || [ "${group_of[$name]}" = "$1" ] && take "$name"
    done
    if [ "$1" = gpu ] || [ "$1" = all ]; then
        [ -x "$B/skinny" ] && take selftest
        [ -n "$wheel" ] && take python
    fi
}
[ ${#picks[@]} -gt 0 ] || picks=(gpu)
for pick in "${picks[@]}"; do
    case $pick in
        gpu | cpu | all) in_group "$pick" ;;
        selftest | python) take "$pick" ;;
        *)
            found=0
            for name in "${staged[@]}"; do
                # shellcheck disable=SC2053 # a glob on purpose
                [[ $name == $pick ]] && { take "$name"; found=1; }
            done
            [ $found = 1 ] || { echo "check: no staged suite matches '$pick' (--list)" >&2; exit 2; } ;;
    esac
done

if [ $list = 1 ]; then
    echo "staged in $B ($(tr '\n' ' ' < "$B/COMMIT"))"
    for g in gpu cpu; do
        names=()
        for name in "${staged[@]}"; do [ "${group_of[$name]}" = "$g" ] && names+=("$name"); done
        echo "$g: ${names[*]:-(none)}"
    done
    echo "also: selftest${wheel:+ python ($(basename "$wheel"))}"
    echo "selected: ${selected[*]}"
    exit 0
fi

export SKINNY_REQUIRE_GPU=1
if [ -n "$SUITE_TAG" ]; then export SKINNY_GPU_BIG=0; else export SKINNY_GPU_BIG=${SKINNY_GPU_BIG:-1}; fi
[ -x "$B/skinny" ] && export SKINNY_BIN=$PWD/$B/skinny
header 2>&1 | tee "$OUT/header.txt"

run_selftest() {
    echo "== selftest"
    timeout "$limit" "$B/skinny" selftest > "$OUT/selftest.log" 2>&1
    local rc=$?
    tail -8 "$OUT/selftest.log"
    return $rc
}
run_python() {
    echo "== python ($(basename "$wheel"))"
    local site rc
    site=$(mktemp -d)
    python3 -m pip install -q --no-deps --target "$site" "$wheel" > "$OUT/python.log" 2>&1 || {
        tail -3 "$OUT/python.log"
        return 1
    }
    # From the tests' folder, so that the installed package is imported.
    (cd crates/skinny-py/tests &&
        PYTHONPATH="$site" timeout "$limit" python3 -m pytest -q -rs -p no:cacheprovider .) >> "$OUT/python.log" 2>&1
    rc=$?
    tail -6 "$OUT/python.log"
    rm -rf "$site"
    return $rc
}
# The counts of a finished suite, from its log: libtest's last summary, or pytest's.
counts() {
    local log=$OUT/$1${SUITE_TAG:+.$SUITE_TAG}.log
    [ "$1" = selftest ] && { tail -1 "$log"; return; }
    [ "$1" = python ] && { grep -E '[0-9]+ (passed|failed)' "$log" | tail -1; return; }
    grep -E '^test result' "$log" 2>/dev/null | tail -1 | sed -E 's/^test result: //; s/; [0-9]+ measured.*//'
}

rows=()
failed=0
for name in "${selected[@]}"; do
    t0=$(date +%s)
    case $name in
        selftest | python)
            if [ -n "$SUITE_TAG" ]; then echo "== $name: not run under $SUITE_TAG"; continue; fi
            if [ "$name" = selftest ]; then run_selftest; else run_python; fi
            rc=$? ;;
        *)
            threads=1
            [ "${group_of[$name]}" = cpu ] && threads=$(nproc)
            suite "$name" "$limit" --test-threads="$threads" ${test_args[@]+"${test_args[@]}"}
            rc=$? ;;
    esac
    [ $rc = 0 ] || failed=1
    rows+=("$(printf '%-28s exit %-3s %4s s  %s' "$name" "$rc" "$(( $(date +%s) - t0 ))" "$(counts "$name")")")
done
echo "== every suite (logs in $OUT)"
printf '%s\n' "${rows[@]}"
exit $failed
