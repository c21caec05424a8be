# Fresh cases on `skinny lab` (categories 4 and 5). Sourced by fresh.sh;
# uses merge_refused and stop_case from run_lab.sh.
source "$(dirname "${BASH_SOURCE[0]}")/run_lab.sh"

c4_merge() {
    local d q
    d=$(newdir)
    lab_shard 0/2 "$d/a.json" && lab_shard 1/2 "$d/b.json" || { want c4 && fail "no lab shards"; return; }
    q=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["queries"])' "$d/a.json")
    edit() {
        local name=$1 judge=merge_refused; shift
        [[ $name == *csi* ]] && judge=merge_clean
        want "c4.$name" || return
        $LABEDIT "$d/a.json" "$d/x.json" "$@"
        $judge "$d/x.json" "$d/b.json"
    }
    # Numbers a JSON parser may take in odd ways.
    edit hits-NaN "hits@raw=NaN"
    edit queries-1e999 "queries@raw=1e999"
    edit queries-float-1.5 "queries@raw=$q.5"
    edit hits-negative "hits=-1"
    edit queries-2^64 "queries@raw=18446744073709551616"
    edit rounds-as-string 'rounds="2"'
    edit seed-huge "seed@raw=1e30"
    if want c4.deep-nesting-100000-unknown-field; then
        # An unknown field may be ignored; the nesting must not crash the reader.
        $LABEDIT "$d/a.json" "$d/x.json" "extra@nest=100000"
        "$S" lab merge "$d/x.json" "$d/b.json" > "$W/out" 2> "$W/err"
        local rc=$?
        if [ $rc -le 2 ] && ! grep -q panicked "$W/err"; then pass "exit $rc, no crash: $(first "$W/err")"
        else fail "exit $rc: $(first "$W/err")"; fi
    fi
    edit right-pair-duplicated "right.1=$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["right"][0]))' "$d/a.json")"
    edit c1-csi-in-backend $'backend=cpu\xc2\x9b2J'
    edit other-dp 'dp="2000000000000000"'
    edit version-missing "-version"
    if want c4.shards-of-different-counts; then
        lab_shard 1/3 "$d/c.json"
        merge_refused "$d/a.json" "$d/c.json"
    fi
    if want c4.invalid-utf8; then
        printf '{"\xff\xfe": 1}' > "$d/u.json"
        merge_refused "$d/u.json"
    fi
    if want c4.bom-prefixed; then
        { printf '\xef\xbb\xbf'; cat "$d/a.json"; } > "$d/bom.json"
        "$S" lab merge "$d/bom.json" "$d/b.json" > "$W/out" 2> "$W/err"
        local rc=$?
        if [ $rc -ne 101 ] && ! has_esc "$W/err" && [ "$(lines "$W/err")" -le 1 ]; then pass "exit $rc: $(first "$W/err")"
        else fail "exit $rc: $(first "$W/err")"; fi
    fi
    if want c4.report-is-dev-zero; then
        # Bounded: 10 s and 2 GiB of address space at most.
        (ulimit -v $((2 << 20)); exec /usr/bin/time -f %M -o "$W/rss" timeout -s KILL 10 "$S" lab merge /dev/zero) \
            > "$W/out" 2> "$W/err"
        local rc=$? rss
        rss=$(rss_mib "$W/rss")
        if { [ $rc -eq 1 ] || [ $rc -eq 2 ]; } && [ $rss -lt 256 ]; then pass "exit $rc, peak $rss MiB: $(first "$W/err")"
        else fail "exit $rc$([ $rc -eq 137 ] && echo ' (killed after 10 s)'), peak $rss MiB (under ulimit -v 2 GiB): reads without bound: $(first "$W/err")"; fi
    fi
    if want c4.report-100MB-whitespace; then
        head -c $((100 << 20)) /dev/zero | tr '\0' ' ' > "$d/ws.json"
        /usr/bin/time -f %M -o "$W/rss" "$S" lab merge "$d/ws.json" > "$W/out" 2> "$W/err"
        local rc=$? rss
        rss=$(rss_mib "$W/rss")
        rm -f "$d/ws.json"
        if [ $rc -ne 0 ] && [ $rc -ne 101 ] && [ $rss -lt 256 ]; then pass "exit $rc, peak $rss MiB: $(first "$W/err")"
        else fail "exit $rc, peak $rss MiB"; fi
    fi
    if want c4.bad-report-at-path-with-escapes; then
        cp "$d/b.json" "$d/"$'x\x1b[2Jy.json'
        $LABEDIT "$d/a.json" "$d/"$'e\x1b[31m.json' "rounds=999"
        merge_clean "$d/"$'e\x1b[31m.json' "$d/"$'x\x1b[2Jy.json'
    fi
}

c5_lab() {
    stop_case c5.boomerang-u64max-key-every-1-SIGTERM TERM lab boomerang -c skinny-128-384 --rounds 8 \
        --dp 00000000000000000000000000000001 --dc 00000000000000000000000000000001 \
        --queries 18446744073709551615 --key-every 1 --json --threads 2 -b cpu
    if want c5.sigterm-before-counting; then
        local res
        res=$($PROC stop TERM 0 -- "$S" "${LABDIFF[@]}" --queries 1e19 --threads 2)
        if [[ $res == *signal=15* ]] || [[ $res == *code=143* ]]; then pass "$res"; else fail "$res"; fi
    fi
    if want c5.sigtstp-then-sigint; then
        local pid t0 t1
        "$S" "${LABDIFF[@]}" --queries 1e19 --threads 2 > /dev/null 2> "$W/err" &
        pid=$!
        sleep 1; kill -TSTP $pid; sleep 0.3; kill -CONT $pid; sleep 0.3
        t0=$(date +%s.%N); kill -TERM $pid
        local n=0
        while kill -0 $pid 2> /dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
        kill -KILL $pid 2> /dev/null
        wait $pid; local rc=$?; t1=$(date +%s.%N)
        local lat
        lat=$(python3 -c "print(f'{$t1-$t0:.2f}')")
        if [ $rc -eq 143 ] && python3 -c "import sys; sys.exit(not $lat <= ${LAB_STOP_LIMIT_S:-1})"; then
            pass "stopped $lat s after SIGTERM"
        else fail "exit $rc, $lat s after SIGTERM"; fi
    fi
    refused c5.queries-0 "${LABDIFF[@]}" --queries 0
    refused c5.queries-2^64 "${LABDIFF[@]}" --queries 2^64
    refused c5.queries-1e400 "${LABDIFF[@]}" --queries 1e400
    refused c5.queries-negative "${LABDIFF[@]}" --queries -5
    refused c5.queries-NaN "${LABDIFF[@]}" --queries NaN
    refused c5.key-every-0 "${LABDIFF[@]}" --queries 1000 --key-every 0
    refused c5.rounds-0 lab differential -c skinny-64-128 --rounds 0 --dp 1000000000000000 --dc 0000000001000000 --queries 10
    refused c5.shard-3-of-2 "${LABDIFF[@]}" --queries 1000 --shard 3/2
    refused c5.shard-0-of-0 "${LABDIFF[@]}" --queries 1000 --shard 0/0
    if want c5.shard-more-than-queries; then
        # More shards than queries: an empty shard is a fair answer, a refusal too.
        "$S" "${LABDIFF[@]}" --queries 10 --shard 5/18446744073709551615 --json > "$W/out" 2> "$W/err"
        local rc=$?
        if [ $rc -eq 2 ] && [ "$(lines "$W/err")" -eq 1 ]; then pass "refused: $(first "$W/err")"
        elif [ $rc -eq 0 ] && grep -q '"queries":0,' "$W/out" && grep -q '"complete":false' "$W/out"; then
            pass "an empty shard report (0 queries, not complete)"
        else fail "exit $rc: $(first "$W/err") $(head -c 200 "$W/out")"; fi
    fi
    refused c5.show-u64max "${LABDIFF[@]}" --queries 1000 --show 18446744073709551615
    if want c5.lab-json-into-head-c1; then
        timeout 60 "$S" "${LABDIFF[@]}" --queries 2^16 --show 1024 --json 2> "$W/err" | head -c1 > /dev/null
        local st=${PIPESTATUS[0]}
        if [ "$st" -ne 124 ] && [ "$st" -ne 101 ] && [ "$(lines "$W/err")" -le 1 ]; then pass "exit $st: $(first "$W/err")"
        else fail "exit $st: $(first "$W/err")"; fi
    fi
    if want c5.lab-stdout-closed; then
        "$S" "${LABDIFF[@]}" --queries 1000 --json >&- 2> "$W/err"
        local rc=$?
        if [ $rc -eq 1 ] && [ "$(lines "$W/err")" -eq 1 ]; then pass "exit 1: $(first "$W/err")"
        else fail "exit $rc, $(lines "$W/err") lines: $(first "$W/err")"; fi
    fi
}
