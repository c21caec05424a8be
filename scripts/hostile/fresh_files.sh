# Fresh cases on files, keys and outputs (categories 1, 2, 3, 6, 8, 9).
# Sourced by fresh.sh.

# roundtrip NAME BIN ENC_ARGS DEC_ARGS: BIN encrypts p1m then decrypts it
# back; both exit 0, equal. ENC_ARGS/DEC_ARGS are strings split on spaces.
roundtrip() {
    local name=$1 bin=$2 enc=$3 dec=$4 d r1 r2
    want "$name" || return
    d=$(newdir)
    # shellcheck disable=SC2086
    "$bin" $enc -q "$W/in/p1m" -o "$d/c" 2> "$W/err"; r1=$?
    # shellcheck disable=SC2086
    "$bin" $dec -q "$d/c" -o "$d/p" 2>> "$W/err"; r2=$?
    if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && cmp -s "$d/p" "$W/in/p1m"; then pass "exit 0 both ways, equal"
    else fail "exit $r1 then $r2: $(first "$W/err"); left: $(listing "$d")"; fi
}

c1_stack() {
    local dbg=${SKINNY_DEBUG:-}
    head -c 1000000 "$W/in/p10m" > "$W/in/p1m"
    if [ -n "$dbg" ]; then
        # 1 MB: CBC is serial, and unoptimised code on a loaded machine slow.
        roundtrip c1.debug-cbc-1MB "$dbg" "encrypt -K $TWEAKEY --iv $IV -m cbc" "decrypt -K $TWEAKEY --iv $IV -m cbc"
        roundtrip c1.debug-ecb-skinny-64-192-1MB "$dbg" "encrypt -c skinny-64-192 -K ${TWEAKEY:0:48} -m ecb" \
            "decrypt -c skinny-64-192 -K ${TWEAKEY:0:48} -m ecb"
        roundtrip c1.debug-seal-m5-16M-chunks-1MB "$dbg" "seal -K $KEY --member m5 --chunk-size 16M" "open -K $KEY"
        local a
        for a in romulus-h skinny-tk3-hash skinny-tk2-hash; do
            want "c1.debug-hash-$a-1MB" || continue
            "$dbg" hash --algo $a "$W/in/p1m" > "$W/out" 2> "$W/err" && "$S" hash --algo $a "$W/in/p1m" > "$W/out2"
            if [ $? -eq 0 ] && cmp -s "$W/out" "$W/out2"; then pass "debug and release agree"
            else fail "$(first "$W/err")"; fi
        done
        if want c1.debug-lab-boomerang; then
            "$dbg" lab boomerang -c skinny-128-384 --rounds 6 --dp 00000000000000000000000000000001 \
                --dc 00000000000000000000000000000001 --queries 4096 --key-every 1 -b cpu --json > "$W/out" 2> "$W/err"
            local rc=$?
            if [ $rc -eq 0 ]; then pass "exit 0"; else fail "exit $rc: $(first "$W/err")"; fi
        fi
    else
        want c1.debug && skip "no SKINNY_DEBUG given"
    fi
    # Threads whose stack size the program leaves to the default (rayon's
    # global pool, used without --threads) at 64 KiB: what a public call
    # may need at most (finding 1). With --threads N the pool's stack is set.
    local m
    for m in "seal -K $KEY" "open -K $KEY" "encrypt -K $TWEAKEY --iv $IV"; do
        want "c1.release-${m%% *}-10MB-default-thread-stacks-64KiB" || continue
        local d2 rc in=$W/in/p10m
        d2=$(newdir)
        [ "${m%% *}" = open ] && in=$W/in/s8m
        # shellcheck disable=SC2086
        RUST_MIN_STACK=65536 "$S" $m -q "$in" -o "$d2/o" 2> "$W/err"
        rc=$?
        if [ $rc -eq 0 ]; then pass "exit 0"; else fail "exit $rc: $(first "$W/err"); folder: $(listing "$d2")"; fi
    done
    # The release binary on a 256 KiB main-thread stack.
    local c
    for c in seal encrypt hash; do
        want "c1.release-ulimit-s-256K-$c" || continue
        local d rc
        d=$(newdir)
        case $c in
            seal) (ulimit -s 256; exec "$S" seal -K $KEY -q "$W/in/p10m" -o "$d/o") 2> "$W/err" ;;
            encrypt) (ulimit -s 256; exec "$S" encrypt -K $TWEAKEY --iv $IV -q "$W/in/p10m" -o "$d/o") 2> "$W/err" ;;
            hash) (ulimit -s 256; exec "$S" hash "$W/in/p10m") > /dev/null 2> "$W/err" ;;
        esac
        rc=$?
        if [ $rc -eq 0 ]; then pass "exit 0"; else fail "exit $rc: $(first "$W/err")"; fi
    done
}

# keyed NAME KEYFILE_BEFORE_SHA KEYFILE ARGS...: refused and the key file unchanged.
key_kept() {
    local name=$1 keyf=$2; shift 2
    local before
    before=$(sha "$keyf")
    refused "$name" "$@" || return
    [ "$before" = "$(sha "$keyf")" ] || fail "and the key file CHANGED"
}

c2_keys() {
    local d
    d=$(newdir)
    cd "$d" || return
    cp "$W/in/key.hex" my.key
    head -c 1000 /dev/urandom > report.txt
    "$S" seal -K $KEY -q report.txt -o report.sealed
    ln my.key hard.key
    key_kept c2.o-hard-link-to-keyfile my.key seal --key-file my.key report.txt -o hard.key
    if want c2.o-proc-fd-of-keyfile; then
        local before
        before=$(sha my.key)
        exec 7< my.key
        "$S" seal --key-file my.key -q report.txt -o /proc/self/fd/7 > /dev/null 2> "$W/err"
        local rc=$?
        exec 7<&-
        if [ $rc -ne 0 ] && [ "$before" = "$(sha my.key)" ]; then pass "refused, exit $rc: $(first "$W/err")"
        else fail "exit $rc, key file $([ "$before" = "$(sha my.key)" ] && echo unchanged || echo OVERWRITTEN)"; fi
    fi
    key_kept c2.o-dotdot-path-to-keyfile my.key seal --key-file my.key report.txt -o "$d/./sub/../my.key"
    mkdir -p sub
    key_kept c2.o-dotdot-path-to-keyfile-existing-dir my.key seal --key-file my.key report.txt -o "$d/sub/../my.key"
    : > empty.key
    refused c2.key-file-0-bytes seal --key-file empty.key report.txt -o out
    mkdir keydir
    refused c2.key-file-is-a-directory seal --key-file keydir report.txt -o out
    if want c2.key-file-dev-zero-bounded; then
        (ulimit -v $((2 << 20)); exec /usr/bin/time -f %M -o "$W/rss" timeout -s KILL 10 "$S" seal --key-file /dev/zero \
            -q report.txt -o out) 2> "$W/err"
        local rc=$? rss
        rss=$(rss_mib "$W/rss")
        if [ $rc -ne 0 ] && [ $rc -lt 128 ] && [ $rss -lt 64 ] && [ "$(lines "$W/err")" -eq 1 ]; then
            pass "exit $rc, peak $rss MiB: $(first "$W/err")"
        else fail "exit $rc$([ $rc -eq 137 ] && echo ' (killed after 10 s)'), peak $rss MiB"; fi
    fi
    refused c2.key-file-dev-urandom seal --key-file /dev/urandom report.txt -o out
    key_kept c2.input-is-keyfile-output-is-keyfile my.key encrypt --key-file my.key -c skinny-128-128 --iv $IV my.key -o my.key
    refused c2.open-o-its-own-input open -K $KEY report.sealed -o report.sealed
    refused c2.encrypt-o-hard-link-of-input encrypt -K $TWEAKEY --iv $IV report.txt -o "$(ln report.txt r2 && echo r2)"
    # A key pasted where a path belongs must not be printed back.
    if refused c2.key-as-key-file-path-not-echoed seal --key-file "$KEY" report.txt -o out; then
        grep -qi "$KEY" "$W/err" && fail "the key was printed: $(first "$W/err")"
    fi
    if refused c2.bad-K-length-not-echoed seal -K "${KEY}00" report.txt -o out; then
        grep -qi "${KEY}" "$W/err" && fail "the key was printed: $(first "$W/err")"
    fi
    refused c2.K-with-multibyte-utf8 seal -K "é${KEY:2}" report.txt -o out
    refused c2.iv-with-multibyte-utf8 encrypt -K $TWEAKEY --iv "${IV:0:30}é" report.txt -o out
    cd "$W" || return
}

# mounted SIZE OPTS: a fresh tmpfs (root only; unmounted by lib.sh's
# cleanup); its path, or fails.
mounted() {
    local m
    m=$(newdir)
    mount -t tmpfs -o "size=$1${2:+,$2}" tmpfs "$m" 2> /dev/null || return 1
    echo "$m"
}

c3_outputs() {
    local d m rc c
    d=$(newdir)
    # A full folder: 8 MiB into 1 MiB.
    for c in seal open encrypt; do
        want "c3.full-tmpfs-$c" || continue
        m=$(mounted 1m) || { skip "cannot mount a tmpfs (not root?)"; continue; }
        case $c in
            seal) refused "$CASE" seal -K $KEY "$W/in/p8m" -o "$m/out" ;;
            open) refused "$CASE" open -K $KEY "$W/in/s8m" -o "$m/out" ;;
            encrypt) refused "$CASE" encrypt -K $TWEAKEY --iv $IV "$W/in/p8m" -o "$m/out" ;;
        esac
        [ -z "$(ls -A "$m")" ] && [ "$(df --output=used -k "$m" | tail -1 | tr -d ' ')" -lt 64 ] ||
            fail "and left: $(listing "$m"), $(df --output=used -k "$m" | tail -1) KiB used"
    done
    if want c3.read-only-folder; then
        if m=$(mounted 1m ro); then
            refused "$CASE" seal -K $KEY "$W/in/p8m" -o "$m/out"
        else skip "cannot mount a tmpfs"; fi
    fi
    mkdir "$d/adir"
    refused c3.o-is-a-directory seal -K $KEY "$W/in/p8m" -o "$d/adir" &&
        { [ -d "$d/adir" ] && [ -z "$(ls -A "$d/adir")" ] || fail "and the folder changed: $(listing "$d/adir")"; }
    refused c3.o-in-missing-folder seal -K $KEY "$W/in/p8m" -o "$d/nope/out"
    refused c3.o-empty-string seal -K $KEY "$W/in/p8m" -o ""
    refused c3.o-name-over-255-bytes seal -K $KEY "$W/in/p8m" -o "$d/$(printf 'a%.0s' {1..300})"
    refused c3.o-name-with-escapes-in-missing-folder seal -K $KEY "$W/in/p8m" -o $'nope\x1b[2J/x\ny'
    if want c3.o-dev-null-stays-a-device; then
        "$S" seal -K $KEY -q "$W/in/p8m" -o /dev/null 2> "$W/err"
        rc=$?
        if [ -c /dev/null ] && [ $rc -eq 0 ]; then pass "exit 0, /dev/null still a character device"
        elif [ -c /dev/null ]; then pass "refused (exit $rc), /dev/null intact: $(first "$W/err")"
        else fail "/dev/null REPLACED by a file (exit $rc)"; rm -f /dev/null; mknod -m 666 /dev/null c 1 3; fi
    fi
    if want c3.input-is-a-fifo; then
        mkfifo "$d/fifo"
        cat "$W/in/s8m" > "$d/fifo" &
        timeout 60 "$S" open -K $KEY -q "$d/fifo" -o "$d/fifo.out" 2> "$W/err"
        rc=$?
        wait
        if [ $rc -eq 0 ] && cmp -s "$d/fifo.out" "$W/in/p8m"; then pass "opened from a FIFO, equal"
        else fail "exit $rc: $(first "$W/err")"; fi
    fi
    if want c3.sigpipe-into-head-c1; then
        local st
        timeout 60 "$S" open -K $KEY -q "$W/in/s8m" 2> "$W/err" | head -c1 > /dev/null
        st=${PIPESTATUS[0]}
        if [ "$st" -eq 1 ] && [ "$(lines "$W/err")" -eq 1 ]; then pass "exit 1, one line: $(first "$W/err")"
        elif [ "$st" -eq 141 ]; then pass "ended by SIGPIPE (exit 141)"
        else fail "exit $st, $(lines "$W/err") lines: $(first "$W/err")"; fi
    fi
    if want c3.sigtstp-sigcont-during-open; then
        local pid
        mkdir "$d/ts"
        "$S" open -K $KEY -q "$W/in/s8m" -o "$d/ts/out" 2> "$W/err" &
        pid=$!
        sleep 0.05; kill -TSTP $pid 2> /dev/null; sleep 0.5; kill -CONT $pid 2> /dev/null
        wait $pid
        rc=$?
        if [ $rc -eq 0 ] && cmp -s "$d/ts/out" "$W/in/p8m" && [ "$(listing "$d/ts")" = "out " ]; then pass "exit 0, equal"
        else fail "exit $rc, $(listing "$d/ts"): $(first "$W/err")"; fi
    fi
    if want c3.two-concurrent-seals-one-output; then
        local a b
        mkdir "$d/cc"
        "$S" seal -K $KEY -q "$W/in/p8m" -o "$d/cc/out" 2> "$W/err.a" & a=$!
        "$S" seal -K $KEY -q "$W/in/p10m" -o "$d/cc/out" 2> "$W/err.b" & b=$!
        wait $a; local ra=$?; wait $b; local rb=$?
        "$S" open -K $KEY -q "$d/cc/out" -o "$d/cc.back" 2> "$W/err"
        rc=$?
        if [ $rc -eq 0 ] && { cmp -s "$d/cc.back" "$W/in/p8m" || cmp -s "$d/cc.back" "$W/in/p10m"; } &&
            [ "$(listing "$d/cc")" = "out " ]; then
            pass "exits $ra, $rb; the output is one whole sealed file, nothing else"
        else fail "exits $ra, $rb; open $rc; folder: $(listing "$d/cc")"; fi
    fi
    if want c3.o-with-other-hard-link-refused; then
        echo keep > "$d/orig"; ln "$d/orig" "$d/other"
        refused "$CASE" seal -K $KEY "$W/in/p8m" -o "$d/other"
        [ "$(cat "$d/orig")" = keep ] || fail "and the other link's content changed"
    fi
    if want c3.o-dangling-symlink; then
        # Refused in one line, or written through to the link's target with
        # the link kept; never the link replaced, never a temporary file left.
        ln -s "$d/real" "$d/link"
        "$S" seal -K $KEY -q "$W/in/p8m" -o "$d/link" 2> "$W/err"
        rc=$?
        if [ $rc -ne 0 ] && [ "$(lines "$W/err")" -eq 1 ] && [ ! -e "$d/real" ] && [ -L "$d/link" ]; then
            pass "refused, exit $rc: $(first "$W/err")"
        elif [ $rc -eq 0 ] && [ -L "$d/link" ] && [ -s "$d/real" ]; then pass "written through the link"
        else fail "exit $rc; link $([ -L "$d/link" ] && echo kept || echo REPLACED); $(first "$W/err")"; fi
        [ "$(ls -A "$d" | grep -c '^\.skinny')" -eq 0 ] || fail "a temporary file left: $(listing "$d")"
    fi
}

c6_small() {
    local d
    d=$(newdir)
    head -c 100 /dev/urandom > "$d/in"
    refused c6.threads-0 seal -K $KEY --threads 0 "$d/in" -o "$d/o"
    refused c6.threads-huge seal -K $KEY --threads 99999999999999999999 "$d/in" -o "$d/o"
    refused c6.chunk-size-17 seal -K $KEY --chunk-size 17 "$d/in" -o "$d/o"
    refused c6.chunk-size-overflow seal -K $KEY --chunk-size 99999999999999999999M "$d/in" -o "$d/o"
    refused c6.key-0x-prefix seal -K "0x$KEY" "$d/in" -o "$d/o"
    refused c6.key-huge-100KB seal -K "$(head -c 100000 /dev/zero | tr '\0' 'a')" "$d/in" -o "$d/o"
    if want c6.stdout-dev-full; then
        "$S" seal -K $KEY "$d/in" > /dev/full 2> "$W/err"
        local rc=$?
        if [ $rc -eq 1 ] && [ "$(lines "$W/err")" -eq 1 ]; then pass "exit 1: $(first "$W/err")"
        else fail "exit $rc, $(lines "$W/err") lines: $(first "$W/err")"; fi
    fi
    refused c6.o-dev-full seal -K $KEY "$W/in/p8m" -o /dev/full
    if want c6.stderr-dev-full-no-panic; then
        "$S" seal -K nothex "$d/in" -o "$d/o" 2> /dev/full
        local rc=$?
        if [ $rc -ge 1 ] && [ $rc -le 2 ]; then pass "exit $rc"; else fail "exit $rc (a panic on the error line?)"; fi
    fi
    if want c6.zero-byte-input-16M-chunks; then
        : > "$d/empty"
        "$S" seal -K $KEY -q --chunk-size 16M "$d/empty" -o "$d/e.s" && "$S" open -K $KEY -q "$d/e.s" -o "$d/e.o"
        if [ $? -eq 0 ] && [ -f "$d/e.o" ] && [ ! -s "$d/e.o" ]; then pass "empty round trip"
        else fail "no empty round trip"; fi
    fi
    if want c6.threads-1024-lab; then
        # As seal's --threads 1024 (finding 6): capped, or at least not far slower.
        local t0 t1 t2 ratio
        t0=$(date +%s.%N)
        "$S" "${LABDIFF[@]}" --queries 2^21 --threads "$(nproc)" --json > /dev/null
        t1=$(date +%s.%N)
        timeout -s KILL 120 "$S" "${LABDIFF[@]}" --queries 2^21 --threads 1024 --json > /dev/null 2> "$W/err"
        t2=$(date +%s.%N)
        ratio=$(python3 -c "print(f'{($t2-$t1)/($t1-$t0):.1f}')")
        if python3 -c "import sys; sys.exit(not $ratio <= 2.0)"; then pass "2^21 queries: --threads 1024 took ${ratio}x --threads $(nproc)"
        else fail "2^21 queries: --threads 1024 took ${ratio}x --threads $(nproc), no cap or notice$(grep -q 'per core' "$W/err" && echo ' (notice given)')"; fi
    fi
    refused c6.usage-lab-merge-no-files lab merge
    local c
    for c in "hash" "hash --check" "hash -"; do
        want "c6.closed-stdin-${c// /_}" || continue
        # shellcheck disable=SC2086
        "$S" $c <&- > "$W/out" 2> "$W/err"
        local rc=$?
        if [ $rc -ne 0 ] && [ "$(lines "$W/err")" -eq 1 ]; then pass "exit $rc: $(first "$W/err")"
        else fail "exit $rc: a closed stdin read as empty input; stdout: $(first "$W/out")"; fi
    done
    if want c6.closed-stdin-lab-merge-dash; then
        "$S" lab merge - <&- > "$W/out" 2> "$W/err"
        local rc=$?
        if [ $rc -ne 0 ] && [ $rc -ne 101 ] && [ "$(lines "$W/err")" -eq 1 ]; then pass "exit $rc: $(first "$W/err")"
        else fail "exit $rc: $(first "$W/err")"; fi
    fi
    refused c6.usage-bench-sizes-0 bench --sizes 0
}

c8_readers() {
    if want c8.open-dev-zero; then
        timeout -s KILL 20 "$S" open -K $KEY -q /dev/zero -o "$W/z" 2> "$W/err"
        local rc=$?
        if [ $rc -ne 137 ] && [ $rc -ne 0 ] && [ "$(lines "$W/err")" -eq 1 ]; then pass "exit $rc: $(first "$W/err")"
        else fail "exit $rc$([ $rc -eq 124 ] && echo ' (still reading after 20 s)')"; fi
    fi
    if want c8.open-header-only-16M-chunk-memory; then
        # The header of a 16M-chunk file, then 64 MiB of zeros: bounded memory.
        "$S" seal -K $KEY -q --chunk-size 16M /dev/null -o "$W/h.s"
        head -c 32 "$W/h.s" > "$W/h2.s"; head -c $((64 << 20)) /dev/zero >> "$W/h2.s"
        /usr/bin/time -f %M -o "$W/rss" "$S" open -K $KEY -q "$W/h2.s" -o "$W/h2.o" 2> "$W/err"
        local rc=$? rss
        rss=$(rss_mib "$W/rss")
        if [ $rc -ne 0 ] && [ ! -e "$W/h2.o" ] && [ $rss -lt 200 ]; then pass "exit $rc, peak $rss MiB: $(first "$W/err")"
        else fail "exit $rc, peak $rss MiB, output $( [ -e "$W/h2.o" ] && echo LEFT || echo none)"; fi
    fi
}

c9_counts() {
    want c9.selftest-no-gpu-not-passed || return
    "$S" selftest --rounds 1 --max-bytes 4096 > "$W/out" 2>&1
    local rc=$?
    if nvidia-smi > /dev/null 2>&1; then skip "a GPU is here"; return; fi
    if grep -iE 'gpu' "$W/out" | grep -viE 'skip|not|no |unavailable|none' | grep -qiE 'pass|ok'; then
        fail "exit $rc; a GPU check reads as passed: $(grep -i gpu "$W/out" | head -1)"
    else pass "exit $rc; GPU lines: $(grep -i gpu "$W/out" | head -1 | cut -c1-120)"; fi
}
