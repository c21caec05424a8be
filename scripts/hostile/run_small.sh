# Finding 6 of the hostile-use review (the small items). Sourced by run.sh.

# on_tty OUTFILE CMD...: CMD under a pseudo-terminal (util-linux script);
# its exit status, what it printed in OUTFILE.
on_tty() {
    local out=$1; shift
    script -qec "$(printf '%q ' "$@")" /dev/null > "$out" 2>&1 < /dev/null
}

f6() {
    local d rc
    d=$(newdir)
    head -c 1000 /dev/urandom > "$d/in"
    # Key files of whitespace only.
    printf '%16s' '' > "$d/k.spaces"
    printf '\n%.0s' {1..16} > "$d/k.newlines"
    printf '\t%.0s' {1..16} > "$d/k.tabs"
    local k
    for k in spaces newlines tabs; do
        want "f6.key-file-16-$k" || continue
        "$S" seal --key-file "$d/k.$k" -q "$d/in" -o "$d/out.$k" 2> "$W/err"
        rc=$?
        if [ $rc -ne 0 ] && [ ! -e "$d/out.$k" ]; then pass "refused, exit $rc: $(first "$W/err")"
        else fail "accepted as a raw key (exit $rc)"; fi
    done
    # A closed stdin.
    local c args
    for c in seal open encrypt; do
        want "f6.closed-stdin-$c" || continue
        case $c in
            seal) args=(seal -K $KEY -q -o "$d/cs") ;;
            open) args=(open -K $KEY -q -o "$d/cs") ;;
            encrypt) args=(encrypt -K $TWEAKEY --iv $IV -q -o "$d/cs") ;;
        esac
        "$S" "${args[@]}" < /dev/null > /dev/null 2> "$W/err.empty"
        local re=$?
        rm -f "$d/cs"
        "$S" "${args[@]}" <&- > "$W/out" 2> "$W/err"
        rc=$?
        # Read as an empty input: the same outcome as with </dev/null.
        if [ $rc -ne 0 ] && [ ! -e "$d/cs" ] && ! cmp -s "$W/err" "$W/err.empty"; then pass "exit $rc: $(first "$W/err")"
        else fail "exit $rc, as with an empty stdin (exit $re): $(first "$W/err")"; fi
        rm -f "$d/cs"
    done
    # Binary output to a terminal by another name.
    local o
    for o in "" /dev/stdout /proc/self/fd/1 /dev/tty; do
        want "f6.tty-o-${o:-none}" || continue
        if [ -z "$o" ]; then on_tty "$W/out" "$S" seal -K $KEY "$d/in"
        else on_tty "$W/out" "$S" seal -K $KEY "$d/in" -o "$o"; fi
        rc=$?
        if [ $rc -ne 0 ] && [ "$(stat -c %s "$W/out")" -lt 400 ]; then pass "refused, exit $rc: $(first "$W/out")"
        else fail "exit $rc, $(stat -c %s "$W/out") bytes reached the terminal"; fi
    done
    # --threads 1024 on this machine's cores against --threads = cores.
    if want f6.threads-1024; then
        head -c $((64 << 20)) /dev/urandom > "$d/big"
        local t0 t1 t2 ratio cores
        cores=$(nproc)
        t0=$(date +%s.%N)
        "$S" seal -K $KEY -q -b cpu --threads "$cores" "$d/big" -o "$d/big.s1"
        t1=$(date +%s.%N)
        "$S" seal -K $KEY -b cpu --threads 1024 "$d/big" -o "$d/big.s2" 2> "$W/err"
        t2=$(date +%s.%N)
        ratio=$(python3 -c "print(f'{($t2-$t1)/($t1-$t0):.2f}')")
        local note
        note=$(grep -i thread "$W/err" | head -1)
        if python3 -c "import sys; sys.exit(not $ratio <= 2.0)"; then
            pass "64 MiB seal: --threads 1024 took ${ratio}x --threads $cores${note:+; notice: $note}"
        else
            fail "64 MiB seal: --threads 1024 took ${ratio}x --threads $cores"
        fi
        rm -f "$d/big" "$d/big.s1" "$d/big.s2"
    fi
    # Peak memory of open with 16 MiB chunks against the README's figure.
    if want f6.open-16M-chunks-rss; then
        local claim=${OPEN16M_CLAIM_MIB:-120} rss
        head -c $((256 << 20)) /dev/urandom > "$d/big"
        "$S" seal -K $KEY -q --chunk-size 16M -b cpu "$d/big" -o "$d/big.s"
        rm -f "$d/big"
        /usr/bin/time -f %M -o "$W/rss" "$S" open -K $KEY -q -b cpu "$d/big.s" -o "$d/big.o"
        rss=$(rss_mib "$W/rss")
        if [ $rss -le $((claim * 115 / 100)) ]; then pass "peak RSS $rss MiB, README says about $claim"
        else fail "peak RSS $rss MiB, README says about $claim"; fi
        rm -f "$d/big.s" "$d/big.o"
    fi
    # Usage errors (clap's): one line.
    local u
    for u in "seal --frobnicate" "encrypt -m xyz" "completions" "sael" "open --threads 0" "lab differential --rounds 2"; do
        want "f6.usage-one-line-${u// /_}" || continue
        # shellcheck disable=SC2086
        "$S" $u < /dev/null > /dev/null 2> "$W/err"
        rc=$?
        if [ $rc -eq 2 ] && [ "$(lines "$W/err")" -eq 1 ]; then pass "one line: $(first "$W/err")"
        else fail "exit $rc, $(lines "$W/err") lines: $(tr '\n' '|' < "$W/err" | cut -c1-150)"; fi
    done
}
