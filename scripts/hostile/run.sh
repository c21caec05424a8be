#!/usr/bin/env bash
# Findings 1-6 of the hostile-use review (the record: runs/dev-2026-12-02-hostile-27/)
# as black-box cases against one `skinny` binary.
#
#   SKINNY=/path/to/skinny [SKINNY_DEBUG=/path/to/debug/skinny] \
#   [OPEN16M_CLAIM_MIB=120] [LAB_STOP_LIMIT_S=1] [ONLY=REGEX] scripts/hostile/run.sh
#
# Each case prints PASS, FAIL or SKIP with one reason; the exit status is 1
# when any case failed. Everything happens in a private folder under /tmp
# (TMPDIR points there too), removed at the end. Finding 1 needs a debug
# build (SKINNY_DEBUG); OPEN16M_CLAIM_MIB is the peak the binary's README
# states for `open` with 16 MiB chunks (120 now; 100 at d678e35).
set -u
source "$(dirname "$0")/lib.sh"
inputs

# 1. Stack: a debug build seals and opens a 10 MB file; then the same with
# ordinary thread stacks of 1 MiB (RUST_MIN_STACK: every thread that does not
# set its own size), since the reported abort came on a machine with AVX-512
# and 16 cores, where a call needs more than here: 1 MiB is still 16 times
# the 64 KiB a call may use. (A smaller main thread, ulimit -s 256, tells
# nothing: the debug build's argument parsing alone needs more, at both
# commits, even for --version.)
f1_case() { # NAME STACK_KIB MIN_STACK_BYTES
    want "f1.$1" || return
    if [ -z "${SKINNY_DEBUG:-}" ]; then skip "no SKINNY_DEBUG given"; return; fi
    local d rs ro
    d=$(newdir)
    (ulimit -s "$2"; RUST_MIN_STACK=$3 exec "$SKINNY_DEBUG" seal -K $KEY -q "$W/in/p10m" -o "$d/s") 2> "$W/err.seal"
    rs=$?
    [ -f "$d/s" ] || "$S" seal -K $KEY -q "$W/in/p10m" -o "$d/s"
    (ulimit -s "$2"; RUST_MIN_STACK=$3 exec "$SKINNY_DEBUG" open -K $KEY -q "$d/s" -o "$d/p") 2> "$W/err.open"
    ro=$?
    if [ $rs -eq 0 ] && [ $ro -eq 0 ] && cmp -s "$d/p" "$W/in/p10m"; then
        pass "seal and open exit 0, round trip equal"
    else
        fail "seal exit $rs, open exit $ro: $(first "$W/err.seal"); in the folder: $(listing "$d")"
    fi
}
f1() {
    f1_case debug-seal-open-10MB 8192 2097152
    f1_case debug-seal-open-10MB-thread-stacks-1MiB 8192 1048576
}

# 2. The output is the key file (directly, through a symlink, by a hard link).
f2_one() { # NAME KEYFILE OUT ARGS...
    local name=$1 keyf=$2 out=$3; shift 3
    want "f2.$name" || return
    local before after rc
    # Fresh key files each case: an earlier case may have overwritten them.
    cp "$W/in/key.hex" "$KD/my.key"
    cp "$W/in/tk.hex" "$KD/tk.key"
    before=$(sha "$keyf")
    "$S" "$@" -o "$out" -q > /dev/null 2> "$W/err"
    rc=$?
    after=$(sha "$keyf")
    if [ $rc -ne 0 ] && [ "$before" = "$after" ]; then
        pass "refused (exit $rc): $(first "$W/err")"
    else
        fail "exit $rc, key file $([ "$before" = "$after" ] && echo unchanged || echo OVERWRITTEN)"
    fi
}
f2() {
    local d
    d=$(newdir)
    KD=$d
    head -c 1000 /dev/urandom > "$d/report.txt"
    "$S" seal -K $KEY -q "$d/report.txt" -o "$d/report.sealed"
    ln -s my.key "$d/link.key"
    f2_one seal-o-keyfile "$d/my.key" "$d/my.key" seal --key-file "$d/my.key" "$d/report.txt"
    f2_one open-o-keyfile "$d/my.key" "$d/my.key" open --key-file "$d/my.key" "$d/report.sealed"
    f2_one encrypt-o-keyfile "$d/tk.key" "$d/tk.key" encrypt --key-file "$d/tk.key" --iv $IV "$d/report.txt"
    f2_one seal-o-symlink-to-keyfile "$d/my.key" "$d/link.key" seal --key-file "$d/my.key" "$d/report.txt"
    f2_one seal-keyfile-is-symlink "$d/my.key" "$d/my.key" seal --key-file "$d/link.key" "$d/report.txt"
}

# 3. Plaintext or partial output left behind by a signal.
f3_signal() { # CMD SIGNAL INPUT NBYTES PLAINPREFIX ARGS...
    local cmd=$1 sig=$2 input=$3 n=$4 plain=$5; shift 5
    want "f3.$cmd-$sig" || return
    local d res left
    d=$(newdir)
    res=$($PROC midstream "$d" "$sig" "$input" "$n" -- "$S" "$@")
    left=$(ls -A "$d")
    if [[ $res != result=ran* ]]; then
        fail "could not stop it mid-stream: $res"
    elif [ -z "$left" ]; then
        pass "nothing left ($res)"
    else
        local what="partial output"
        for f in "$d"/* "$d"/.[!.]*; do
            [ -f "$f" ] && [ -n "$plain" ] && [ -s "$f" ] && cmp -s -n 4096 "$f" "$plain" && what="PLAINTEXT"
        done
        fail "left $(echo $left | tr '\n' ' ') ($what; $res)"
    fi
}
f3() {
    local half=$((4 << 20)) s
    for s in HUP INT QUIT ABRT USR1 USR2 ALRM TERM XCPU VTALRM PROF SYS PWR RTMIN+1 KILL; do
        f3_signal open "$s" "$W/in/s8m" $half "$W/in/p8m" open -K $KEY -q -o plain
    done
    for s in QUIT USR1 ALRM KILL; do
        f3_signal seal "$s" "$W/in/p8m" $half "" seal -K $KEY -q -o sealed
        f3_signal encrypt "$s" "$W/in/p8m" $half "" encrypt -K $TWEAKEY --iv $IV -q -o out
    done
    # ulimit -f: 1024 blocks of 1 KiB, against 8 MiB of output.
    local c args
    for c in open seal encrypt; do
        want "f3.$c-ulimit-f" || continue
        case $c in
            open) args=(open -K $KEY -q "$W/in/s8m") ;;
            seal) args=(seal -K $KEY -q "$W/in/p8m") ;;
            encrypt) args=(encrypt -K $TWEAKEY --iv $IV -q "$W/in/p8m") ;;
        esac
        local d rc
        d=$(newdir)
        (trap - XFSZ; ulimit -f 1024; exec "$S" "${args[@]}" -o "$d/out") 2> "$W/err"
        rc=$?
        if [ -z "$(ls -A "$d")" ] && [ $rc -ge 1 ] && [ $rc -lt 128 ] && [ "$(lines "$W/err")" -eq 1 ]; then
            pass "exit $rc, one line, nothing left: $(first "$W/err")"
        else
            fail "exit $rc$([ $rc -ge 128 ] && echo " (signal $((rc - 128)))"), left: $(listing "$d"), stderr $(lines "$W/err") lines"
        fi
    done
    # bench --files stopped by Ctrl-C or SIGTERM: its scratch folder.
    for s in INT TERM; do
        want "f3.bench-files-$s" || continue
        local before res after
        before=$(ls -d /tmp/skinny-bench-* 2> /dev/null | sort)
        res=$($PROC waitfor "$TMPDIR/skinny-bench-*/*" "$s" 8 -- "$S" bench --files --backends cpu --modes ctr \
            --sizes 64M --runs 50 -q)
        after=$(ls -d /tmp/skinny-bench-* 2> /dev/null | sort)
        left=$(ls -A "$TMPDIR")
        if [ -z "$left" ] && [ "$before" = "$after" ]; then
            pass "no skinny-bench-* left ($res)"
        else
            fail "left in TMPDIR: $left$([ "$before" != "$after" ] && echo " and in /tmp") ($res)"
            rm -rf "${TMPDIR:?}"/*
        fi
    done
}

source "$(dirname "$0")/run_lab.sh"
source "$(dirname "$0")/run_small.sh"

f1
f2
f3
f4
f5
f6
summary
