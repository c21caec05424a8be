#!/usr/bin/env bash
# The static half of the speed guard: no SIMD intrinsic may be a function of
# its own in a release binary. An intrinsic (`core::core_arch::...::_mm256_xor_si256`)
# is inlined only into code compiled with its target feature; called from code
# without it (a closure or generic callback made outside the path's
# `#[target_feature]` function: edc130c's defect, 20-40x slower) it stays an
# out-of-line call, and `nm` lists it. Allowed: `_xgetbv` and the CPUID helpers,
# which run once at feature detection.
#
#   scripts/speed/check-inlined.sh [BINARY...]
#
# With no argument it builds the release `skinny` CLI, which links every CPU
# path of the workspace (skinny's bitsliced and single-block paths through
# skinny-bulk, -aead, -many, -romulus, -hash, -seal and the lab's CPU engine),
# and checks it. Prints one line and exits 1 if any binary has an intrinsic
# out of line (the names and their callers: `objdump -d BINARY`), 2 if a binary
# cannot be read or has no symbols to check (a stripped binary would pass
# while proving nothing).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v nm >/dev/null || { echo "check-inlined: nm not found (binutils)" >&2; exit 2; }

bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
    cargo build --release --locked -p skinny-cli --bin skinny
    target=$(cargo metadata --format-version 1 --no-deps --locked |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
    bins=("$target/release/skinny")
fi

# Detection only: XGETBV (the OS's saved vector state) and CPUID.
allowed='::(_xgetbv|__cpuid|__cpuid_count|__get_cpuid_max|has_cpuid)$'
status=0
for bin in "${bins[@]}"; do
    if ! symbols=$(nm -C --defined-only "$bin" 2>&1); then
        echo "check-inlined: cannot read the symbols of $bin: $symbols" >&2
        exit 2
    fi
    # Symbols of the crate that holds every SIMD path must be there, or the
    # check below would pass on a binary it cannot see into.
    if ! grep -q ' skinny::' <<<"$symbols"; then
        echo "check-inlined: $bin has no skinny:: symbols (stripped?): nothing to check" >&2
        exit 2
    fi
    # "ADDRESS TYPE NAME": the names alone.
    out_of_line=$(sed -E 's/^[0-9a-fA-F]+ [A-Za-z] //' <<<"$symbols" |
        grep '^core::core_arch::' | grep -Ev "$allowed" | sort -u || true)
    if [ -n "$out_of_line" ]; then
        echo "check-inlined: $bin has $(wc -l <<<"$out_of_line") SIMD intrinsics out of line (compiled outside their #[target_feature] function, as edc130c did): $(tr '\n' ' ' <<<"$out_of_line")" >&2
        status=1
    else
        echo "check-inlined: $bin: no SIMD intrinsic out of line ($(grep -c 'core::core_arch::' <<<"$symbols" || true) detection helpers)"
    fi
done
exit $status
