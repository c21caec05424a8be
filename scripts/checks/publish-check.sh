#!/usr/bin/env bash
# Checks that every publishable crate of the workspace is ready for crates.io,
# without uploading anything. Publishable: every workspace member without
# `publish = false`, found from `cargo metadata` (a new crate is covered with no
# edit here).
#
#  1. each package's files (`cargo package --list`): both licence files, its own
#     README (the one `readme` names, inside the crate, not the workspace's), and
#     no packaged source that names an unpublished crate (cargo drops such a
#     dev-dependency from the published manifest, so the file would not build);
#  2. `cargo publish --dry-run --workspace --locked`: every crate packaged in
#     dependency order and built from its .crate, the local crates overlaid
#     for those not on crates.io yet;
#  3. the packaged tests and examples: the .crate files unpacked side by side
#     into one scratch workspace (target/publish-check) that patches crates.io
#     with them, then `cargo check --all-targets --all-features` there. What a
#     user of the .crate (a distribution packager running its tests) builds.
#
# PUBLISH_CHECK_TESTS=0 skips step 3; PUBLISH_CHECK_VERIFY=0 skips the build in
# step 2 (see there). Needs python3 and tar.
set -euo pipefail
cd "$(dirname "$0")/../.." || exit 2
root=$(pwd)
step() { printf '\n== %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }
fail=0
problem() {
    printf 'publish-check: %s\n' "$1" >&2
    fail=1
}

metadata=$(cargo metadata --format-version 1 --no-deps --locked)
# name version manifest-dir readme-path (or -), one publishable crate a line.
crates=$(python3 -c '
import json, os, sys
m = json.load(sys.stdin)
members = set(m["workspace_members"])
for p in m["packages"]:
    if p["id"] in members and p.get("publish") != []:
        d = os.path.dirname(p["manifest_path"])
        r = p.get("readme")
        r = os.path.normpath(os.path.join(d, r)) if r else "-"
        print(p["name"], p["version"], d, r)
' <<<"$metadata")
# Unpublished members, as a test names them in code (`skinny_test_support`).
unpublished=$(python3 -c '
import json, sys
m = json.load(sys.stdin)
members = set(m["workspace_members"])
print(" ".join(p["name"].replace("-", "_") for p in m["packages"] if p["id"] in members and p.get("publish") == []))
' <<<"$metadata")
names=$(cut -d' ' -f1 <<<"$crates")
echo "publishable: $(tr '\n' ' ' <<<"$names")"
echo "unpublished: $unpublished"

step "each package's files: licences, its own README, nothing unpublished"
while read -r name version dir readme; do
    list=$(cargo package --list --locked --allow-dirty -p "$name" 2>/dev/null) || {
        problem "$name: cargo package --list failed"
        continue
    }
    for f in LICENSE-MIT LICENSE-APACHE; do
        grep -qx "$f" <<<"$list" || problem "$name: $f is not in the package (copy it into $dir)"
    done
    if [ "$readme" = - ]; then
        problem "$name: no readme in Cargo.toml"
    elif [ "$(dirname "$readme")" != "$dir" ]; then
        problem "$name: its readme is $readme, not a README of its own in $dir"
    elif cmp -s "$readme" "$root/README.md"; then
        problem "$name: its README is a copy of the workspace's"
    elif ! grep -qx "$(basename "$readme")" <<<"$list"; then
        problem "$name: $(basename "$readme") is not in the package"
    fi
    for crate in $unpublished; do
        for f in $(grep -E '\.rs$' <<<"$list" || true); do
            [ -f "$dir/$f" ] || continue
            if grep -qw "$crate" "$dir/$f"; then
                problem "$name: packaged $f uses $crate (unpublished): exclude it in Cargo.toml or stop using it"
            fi
        done
    done
    echo "$name $version: $(wc -l <<<"$list") files"
done <<<"$crates"
[ "$fail" = 0 ] || exit 1

# --allow-dirty: a check of the working tree as it is (the real upload wants it
# committed). PUBLISH_CHECK_VERIFY=0 packages without building each crate from
# its .crate (--no-verify): step 3 then checks the same code (libraries and
# binaries, tests and examples too), without code generation.
verify=()
[ "${PUBLISH_CHECK_VERIFY:-1}" != 0 ] || verify=(--no-verify)
step "cargo publish --dry-run --workspace --locked ${verify[*]}"
cargo publish --dry-run --workspace --locked --allow-dirty "${verify[@]}"

if [ "${PUBLISH_CHECK_TESTS:-1}" != 0 ]; then
    step "the packaged tests and examples, built from the .crate files"
    scratch="$root/target/publish-check"
    src="$scratch/src"
    rm -rf "$src"
    mkdir -p "$src"
    # shellcheck disable=SC2046 # one word an option or a package name
    cargo package --no-verify --locked --allow-dirty $(sed 's/^/-p /' <<<"$names") >/dev/null 2>&1 ||
        cargo package --no-verify --locked --allow-dirty $(sed 's/^/-p /' <<<"$names")
    {
        echo '[workspace]'
        echo 'resolver = "2"'
        echo 'members = ['
        while read -r name version _; do echo "    \"$name-$version\","; done <<<"$crates"
        echo ']'
        echo '[patch.crates-io]'
        while read -r name version _; do echo "$name = { path = \"$name-$version\" }"; done <<<"$crates"
    } >"$src/Cargo.toml"
    while read -r name version _; do
        tar -xzf "$root/target/package/$name-$version.crate" -C "$src"
    done <<<"$crates"
    # The workspace's lock keeps every third-party version as tested here.
    cp Cargo.lock "$src/Cargo.lock"
    CARGO_TARGET_DIR="$scratch/target" cargo check --manifest-path "$src/Cargo.toml" \
        --workspace --all-targets --all-features
fi

step "publish-check: all publishable crates ready"
