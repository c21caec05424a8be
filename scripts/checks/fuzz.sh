#!/usr/bin/env bash
# Coverage-guided fuzzing on the stable toolchain, and the command line fuzzed as a process.
#
#   scripts/checks/fuzz.sh [SECONDS] [TARGET...]      (default: 20 s each, every target)
#
# Targets: sealed_open, lab_merge (libFuzzer, in-process), planted (checks that the
# guidance works: must find its planted bug), cli (the built `skinny` binary run with
# generated key files and argument vectors). For each: executions, coverage, crashes.
# Exit status 1 if anything crashed, a regression input still fails, or `planted`
# found nothing.
#
# How: the `libfuzzer-sys` crate builds libFuzzer from C++ source; the targets are
# compiled with the SanitizerCoverage instrumentation cargo-fuzz asks rustc for, all
# of it stable `-C` options (no nightly, no -Z flags, no sanitizer: the code is safe
# Rust), with debug assertions and overflow checks on (fuzz/Cargo.toml's profile).
# Corpora grow in fuzz/corpus/<target> between runs; crashes go to
# fuzz/artifacts/<target>; inputs of fixed crashes live in fuzz/regressions/<target>
# and are run first.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
fz="$here/fuzz"
seconds=${1:-20}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(planted sealed_open lab_merge cli)
triple=$(rustc -vV | sed -n 's/^host: //p')

coverage="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-sanitizer-coverage-stack-depth --cfg fuzzing"

t0=$(date +%s)
echo "== building (instrumented targets, then the seed generator and the CLI fuzzer)"
bins=()
for t in "${targets[@]}"; do [ "$t" = cli ] || bins+=(--bin "$t"); done
if [ ${#bins[@]} -gt 0 ]; then
    RUSTFLAGS="$coverage" cargo build --quiet --locked --release --features libfuzzer \
        --manifest-path "$fz/Cargo.toml" --target "$triple" "${bins[@]}" || exit 1
fi
# The tools in the dev profile: quick to build, and their work is small.
cargo build --quiet --locked --manifest-path "$fz/Cargo.toml" --bin seeds --bin cli_fuzz || exit 1
if printf '%s\n' "${targets[@]}" | grep -qx cli; then
    # The CLI as users build it, but without CUDA (no GPU here; the key and argument
    # handling is the same): the dev profile keeps overflow checks on.
    cargo build --quiet --locked --manifest-path "$here/Cargo.toml" -p skinny-cli --no-default-features || exit 1
fi
echo "   built in $(( $(date +%s) - t0 )) s"
"$fz/target/debug/seeds" "$fz/target/seeds" >/dev/null || exit 1

status=0
mkdir -p "$fz/logs"
for t in "${targets[@]}"; do
    log="$fz/logs/$t.log"
    if [ "$t" = cli ]; then
        echo "== cli: ${seconds} s"
        mkdir -p "$fz/artifacts/cli"
        "$fz/target/debug/cli_fuzz" "$here/target/debug/skinny" "$seconds" "${FUZZ_SEED:-$(date +%s)}" \
            "$fz/artifacts/cli" >"$log" 2>&1 || status=1
        grep -v '^  argv' "$log" | tail -4
        continue
    fi
    bin="$fz/target/$triple/release/$t"
    corpus="$fz/corpus/$t"; artifacts="$fz/artifacts/$t"
    mkdir -p "$corpus" "$artifacts"
    if [ -d "$fz/regressions/$t" ] && [ -n "$(ls -A "$fz/regressions/$t")" ]; then
        if "$bin" "$fz/regressions/$t"/* >"$fz/logs/$t-regressions.log" 2>&1; then
            echo "== $t: regression inputs pass"
        else
            echo "== $t: a regression input fails (see fuzz/logs/$t-regressions.log)"; status=1
        fi
    fi
    seeds=(); [ -d "$fz/target/seeds/$t" ] && seeds=("$fz/target/seeds/$t")
    before=$(ls "$artifacts" | wc -l)
    echo "== $t: ${seconds} s"
    "$bin" -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=4096 -timeout=20 \
        -artifact_prefix="$artifacts/" "$corpus" "${seeds[@]}" >"$log" 2>&1
    rc=$?
    crashes=$(( $(ls "$artifacts" | wc -l) - before ))
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "   executions ${runs:-?}; last: ${last:-none}; new crash files: $crashes"
    if [ "$t" = planted ]; then
        if [ $rc -ne 0 ] && grep -q 'planted bug reached' "$log"; then
            echo "   planted bug found after $(grep -oE '^#[0-9]+' "$log" | tail -1) executions: guidance works"
            rm -f "$artifacts"/crash-*
        else
            echo "   planted bug NOT found: coverage guidance is not working"; status=1
        fi
    elif [ $rc -ne 0 ] || [ "$crashes" -gt 0 ]; then
        echo "   CRASH: see $log and $artifacts"; grep -m3 -E 'panicked|ERROR' "$log" | sed 's/^/   /'
        status=1
    fi
done
echo "== total $(( $(date +%s) - t0 )) s, status $status"
exit $status
