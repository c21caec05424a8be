#!/usr/bin/env bash
# Finding 9 of the hostile-use review (the test count overstates what ran),
# shown on one GPU test binary: run it on a machine without a GPU and count what its harness
# reports as passed, ignored and skipped.
#
#   scripts/hostile/gpu_count.sh TEST_BINARY
# (built with `cargo test -p skinny-lab --features cuda --test gpu --no-run`,
# whose last line names the binary). PASS when no test that printed a skip
# line is counted as passed; exit 1 otherwise.
set -u
bin=${1:?give the test binary}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
env -u SKINNY_REQUIRE_GPU "$bin" > "$out" 2>&1
rc=$?
skips=$(grep -c '^skip: no usable GPU' "$out")
result=$(grep -E '^test result:' "$out" | tail -1)
passed=$(sed -n 's/.* \([0-9]*\) passed.*/\1/p' <<< "$result")
ignored=$(sed -n 's/.* \([0-9]*\) ignored.*/\1/p' <<< "$result")
echo "binary: $bin (exit $rc)"
echo "harness: $result"
grep -iE 'did not run|no usable GPU|ignored' "$out" | grep -v '^test ' | sort | uniq -c | head -5
echo "skip lines: $skips; passed: ${passed:-?}; ignored: ${ignored:-?}"
if nvidia-smi > /dev/null 2>&1; then
    echo "SKIP f9.gpu-tests-not-counted-as-passed: a GPU is here"
elif [ "${passed:-0}" -gt 0 ] && [ "$skips" -gt 0 ]; then
    echo "FAIL f9.gpu-tests-not-counted-as-passed: $passed passed with $skips 'skip: no usable GPU' lines (nothing ran on a GPU)"
    exit 1
elif [ "${passed:-0}" -gt 0 ]; then
    echo "FAIL f9.gpu-tests-not-counted-as-passed: $passed GPU tests passed without a GPU"
    exit 1
else
    echo "PASS f9.gpu-tests-not-counted-as-passed: ${ignored:-0} ignored, 0 passed"
fi
