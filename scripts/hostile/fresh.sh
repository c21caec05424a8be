#!/usr/bin/env bash
# A fresh set of hostile or careless cases in the hostile-use review's
# categories (runs/dev-2026-12-02-hostile-27/), none of them among its
# findings: cases written by someone other than the fixes' author.
#
#   SKINNY=/path/to/skinny [SKINNY_DEBUG=/path/to/debug/skinny] [ONLY=REGEX] \
#   scripts/hostile/fresh.sh
#
# Needs root for the tmpfs cases (a full and a read-only folder); they are
# skipped otherwise. Same verdict lines and exit status as run.sh.
set -u
source "$(dirname "$0")/lib.sh"
inputs

# refused NAME ARGS...: exit 1 or 2, one line on stderr without a raw ESC or
# a panic, nothing on stdout. Extra checks may follow on $W/err.
refused() {
    local name=$1 rc; shift
    want "$name" || return 1
    "$S" "$@" < /dev/null > "$W/out" 2> "$W/err"
    rc=$?
    if [ $rc -eq 101 ] || [ $rc -ge 128 ] || grep -q panicked "$W/err"; then
        fail "exit $rc (crash): $(first "$W/err")"
    elif [ $rc -eq 0 ]; then
        fail "accepted, exit 0"
    elif [ "$(lines "$W/err")" -ne 1 ] || has_esc "$W/err" || [ -s "$W/out" ]; then
        fail "exit $rc, $(lines "$W/err") lines, stdout $(stat -c %s "$W/out") bytes: $(tr '\n' '|' < "$W/err" | cut -c1-150)"
    else
        pass "exit $rc: $(first "$W/err")"
    fi
    return 0
}

source "$(dirname "$0")/fresh_files.sh"
source "$(dirname "$0")/fresh_lab.sh"

c1_stack
c2_keys
c3_outputs
c4_merge
c5_lab
c6_small
c8_readers
c9_counts
summary
