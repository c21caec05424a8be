#!/usr/bin/env bash
# Builds here (Rust, no GPU) what the device machine runs (CUDA, no Rust) and
# puts it in .gpu-bin/ (ignored by git), and all of it in one archive,
# .gpu-bin/staged.tgz: name that in the device tool's `carry` (the folder is
# larger than a carry may be), and the scripts there unpack it. There,
# scripts/gpu/check.sh runs the test suites; the scripts in scripts/device/
# run the examples and the CLI.
#
#   scripts/gpu/stage.sh [--dry-run] [GROUP...]      (default: gpu)
#
# Groups (scripts/gpu/targets.py finds their targets from cargo metadata, so
# a suite added or renamed needs no edit here):
#   gpu     every GPU suite (a test binary on skinny_test_support's GPU
#           harness), every example of the packages that have one, and the
#           `skinny` CLI, each package with its `cuda` feature
#   cpu     every test and example of the crates whose CPU paths differ on
#           the device machine's AVX-512 host, dudect and the speed guard
#   python  the Python package's wheel (release, maturin) in .gpu-bin/wheel/
#   all     the three
# gpu and cpu are built by one cargo invocation (one feature set); python by
# maturin. .gpu-bin/SUITES lists the staged test binaries and their group.
# Files staged before are replaced; folders put there by hand (.gpu-bin/age,
# .gpu-bin/peer) are kept, and go into the archive too.
#
# --dry-run prints the cargo command and the suites, and builds nothing.
set -euo pipefail
cd "$(dirname "$0")/../.." || exit 2
B=.gpu-bin
dry=0
groups=()
for a in "$@"; do
    case $a in
        --dry-run) dry=1 ;;
        -h | --help) sed -n '2,/^set -e/{/^set -e/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        gpu | cpu | python) groups+=("$a") ;;
        all) groups+=(gpu cpu python) ;;
        *) echo "stage: unknown group or option '$a' (groups: gpu cpu python all; --dry-run)" >&2; exit 2 ;;
    esac
done
[ ${#groups[@]} -gt 0 ] || groups=(gpu)
cargo_groups=()
python=0
for g in "${groups[@]}"; do
    if [ "$g" = python ]; then python=1; else cargo_groups+=("$g"); fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=()
if [ ${#cargo_groups[@]} -gt 0 ]; then
    cargo metadata --format-version 1 --no-deps --locked > "$tmp/metadata.json"
    python3 scripts/gpu/targets.py "$tmp/SUITES" "${cargo_groups[@]}" < "$tmp/metadata.json" > "$tmp/args"
    mapfile -t args < "$tmp/args"
fi

if [ "$dry" = 1 ]; then
    if [ ${#args[@]} -gt 0 ]; then
        printf 'scripts/lib/stage-into.sh %s' "$B"
        printf ' %q' "${args[@]}"
        echo
        echo "suites:"
        sed 's/^/  /' "$tmp/SUITES"
    fi
    [ "$python" = 0 ] || echo "maturin build --release --locked -m crates/skinny-py/Cargo.toml -o $B/wheel"
    exit 0
fi

start=$(date +%s)
mkdir -p "$B"
find "$B" -maxdepth 1 -type f -delete
rm -rf "$B/wheel" "$B/.unpacked"
if [ ${#args[@]} -gt 0 ]; then
    scripts/lib/stage-into.sh "$B" "${args[@]}"
    cp "$tmp/SUITES" "$B/SUITES"
else
    git rev-parse HEAD > "$B/COMMIT"
    git status --porcelain --untracked-files=no | grep -q . && echo "dirty" >> "$B/COMMIT" || true
fi
if [ "$python" = 1 ]; then
    # The package as users get it (release, abi3), with the GPU code.
    venv=${SKINNY_VENV:-.venv-python}
    [ -x "$venv/bin/maturin" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q "maturin>=1.7,<2"; }
    "$venv/bin/maturin" build --release --locked -m crates/skinny-py/Cargo.toml -o "$B/wheel" -q
fi
tar -C "$B" -czf "$tmp/staged.tgz" .
mv "$tmp/staged.tgz" "$B/staged.tgz"
cksum < "$B/staged.tgz" > "$B/.unpacked"
ls "$B"
size=$(stat -c %s "$B/staged.tgz")
echo "stage: $(du -sh --exclude staged.tgz "$B" | cut -f1) in $B ($(tr '\n' ' ' < "$B/COMMIT")), $(( $(date +%s) - start )) s;" \
    "carry .gpu-bin/staged.tgz ($(( size >> 20 )) MiB)"
[ "$size" -lt $((60 << 20)) ] || echo "stage: the archive is near or over the device tool's 64 MiB carry: stage fewer groups a call" >&2
