# Findings 4 (lab merge trusts what it reads) and 5 (the lab
# ignores Ctrl-C on huge runs; --show unbounded). Sourced by run.sh.

# merge_refused NAME FILES...: `lab merge` must refuse (exit 1 or 2, not a
# panic's 101), print nothing on stdout, and let no terminal escape through.
merge_refused() {
    local rc
    "$S" lab merge "$@" > "$W/out" 2> "$W/err"
    rc=$?
    if has_esc "$W/out" || has_esc "$W/err"; then
        fail "exit $rc, a raw ESC byte reached the terminal: $(first "$W/out") / $(first "$W/err")"
    elif [ $rc -eq 0 ]; then
        fail "merged, exit 0: $(grep -o '"complete":[a-z]*' "$W/out" | head -1)"
    elif [ $rc -eq 101 ] || grep -q panicked "$W/err"; then
        fail "panicked (exit $rc): $(first "$W/err")"
    else
        pass "refused, exit $rc: $(first "$W/err")"
    fi
}

# merge_clean FILES...: for reports holding terminal controls in strings:
# refused or merged, but no ESC (or C1 CSI, U+009B) byte reaches the terminal
# and no panic.
merge_clean() {
    local rc
    "$S" lab merge "$@" > "$W/out" 2> "$W/err"
    rc=$?
    if has_esc "$W/out" || has_esc "$W/err" || grep -q $'\xc2\x9b' "$W/out" "$W/err"; then
        fail "exit $rc, a raw terminal control reached the terminal: $(first "$W/out") / $(first "$W/err")"
    elif [ $rc -eq 101 ] || grep -q panicked "$W/err"; then
        fail "panicked (exit $rc): $(first "$W/err")"
    elif [ $rc -eq 0 ]; then
        pass "merged, exit 0, no control character printed"
    else
        pass "refused, exit $rc: $(first "$W/err")"
    fi
}

f4() {
    local d
    d=$(newdir)
    lab_shard 0/2 "$d/a.json" && lab_shard 1/2 "$d/b.json" || { want f4.setup && fail "no lab shards"; return; }
    local q hits
    q=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["queries"])' "$d/a.json")
    if want f4.genuine-shards-merge; then
        if "$S" lab merge "$d/a.json" "$d/b.json" > "$W/out" 2> "$W/err"; then pass "control: merged"
        else fail "genuine shards refused: $(first "$W/err")"; fi
    fi
    if want f4.genuine-one-shard-alone-merges; then
        if "$S" lab merge "$d/a.json" > "$W/out" 2> "$W/err"; then pass "control: merged"
        else fail "a genuine shard alone refused: $(first "$W/err")"; fi
    fi
    # edit NAME EDIT...: shard a edited, merged alone (a report a user could
    # pass on its own); both: a and b edited alike, merged together.
    edit() {
        local name=$1 judge=merge_refused; shift
        [[ $name == *escape* ]] && judge=merge_clean
        want "f4.$name" || return
        $LABEDIT "$d/a.json" "$d/x.json" "$@"
        $judge "$d/x.json"
    }
    both() {
        local name=$1; shift
        want "f4.$name" || return
        $LABEDIT "$d/a.json" "$d/x.json" "$@"
        $LABEDIT "$d/b.json" "$d/y.json" "$@"
        merge_refused "$d/x.json" "$d/y.json"
    }
    edit hits-eq-queries-plus-1 "hits=$((q + 1))"
    if want f4.queries-u64max-plus-shard-wraps; then
        $LABEDIT "$d/a.json" "$d/x.json" "queries=18446744073709551615"
        merge_refused "$d/x.json" "$d/b.json"
    fi
    edit shards-0-0-in-one-report "shards=[0,0]"
    edit shard-claims-both-shards "shards=[0,1]"
    edit queries-3x-share "queries=$((3 * q))"
    both rounds-999 "rounds=999"
    both key-every-0 "key_every=0"
    edit right-pair-outside-shard "right.0.query=2999"
    edit backend-terminal-escape $'backend=cpu\x1b[2J\x1b]0;owned\x07'
    edit cipher-terminal-escape $'cipher=skinny\x1b[31m'
    edit version-terminal-escape $'version=\x1b[31mred'
    if want f4.duplicate-shard-across-reports; then merge_refused "$d/a.json" "$d/a.json"; fi
    if want f4.shard-0-of-4-claims-0-1-2-3; then
        lab_shard 0/4 "$d/q.json"
        $LABEDIT "$d/q.json" "$d/x.json" "shards=[0,1,2,3]"
        merge_refused "$d/x.json"
    fi
}

# stop_case NAME SIGNAL ARGS...: the seconds from the signal to the exit.
stop_case() {
    local name=$1 sig=$2; shift 2
    want "$name" || return
    local res lat limit=${LAB_STOP_LIMIT_S:-1}
    res=$($PROC stop "$sig" 0.3 -- "$S" "$@")
    lat=$(sed -n 's/.*latency=\([0-9.]*\).*/\1/p' <<< "$res")
    if [[ $res == result=ran* ]] && python3 -c "import sys; sys.exit(not float('$lat') <= $limit)"; then
        pass "stopped ${lat} s after SIG$sig ($res)"
    else
        fail "not stopped within $limit s of SIG$sig: $res"
    fi
}

f5() {
    stop_case f5.queries-1e19-SIGINT INT "${LABDIFF[@]}" --queries 1e19 --json --threads 2
    stop_case f5.queries-2^62-key-every-1-SIGTERM TERM "${LABDIFF[@]}" --queries 2^62 --key-every 1 --json --threads 2
    stop_case f5.boomerang-1e19-SIGINT INT lab boomerang -c skinny-64-64 --rounds 3 --dp 0000000000000000 \
        --dc 0000000000000000 --queries 1e19 --key-every 2^40 --json --threads 2 -b cpu
    if want f5.show-huge; then
        # Every query is a right pair (zero differences): 2^22 of them, --show 10^9.
        local rc rss
        /usr/bin/time -f %M -o "$W/rss" "$S" lab differential -c skinny-64-64 --rounds 2 --dp 0000000000000000 \
            --dc 0000000000000000 --queries 2^22 --show 1000000000 --json -b cpu > "$W/out" 2> "$W/err"
        rc=$?
        rss=$(rss_mib "$W/rss")
        if [ $rss -lt 256 ] && { [ $rc -eq 0 ] || [ "$(lines "$W/err")" -eq 1 ]; }; then
            pass "exit $rc, peak RSS $rss MiB: $(first "$W/err")"
        else
            fail "exit $rc, peak RSS $rss MiB ($(stat -c %s "$W/out") bytes of JSON)"
        fi
    fi
}
