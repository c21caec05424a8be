#!/usr/bin/env bash
# Stages what scripts/peers/compare.sh needs into .peer/ (ignored by git, so
# never committed, and carried whole to another machine):
#   .peer/aadomn/   the peer's x86 sources, copied from a fetched mirror or
#                   clone of aadomn/skinny at a pinned commit, symlinks resolved
#                   (built where the comparison runs, by aadomn/build.sh)
#   .peer/bin/      our speed examples built here in release, and COMMIT
#
#   scripts/peers/stage.sh [--no-build] [PEER_GIT_DIR]
# PEER_GIT_DIR: a git directory or clone of github.com/aadomn/skinny (default
# /work/.mirror/aadomn+skinny/repo). PEER_COMMIT overrides the pinned commit.
# --no-build: only the peer's sources (our binaries left as they are).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=1
if [[ ${1:-} == --no-build ]]; then build=0; shift; fi
mirror=${1:-/work/.mirror/aadomn+skinny/repo}
# Pinned, so that comparisons over time measure the same peer (its newest
# commit as of 2026-12).
commit=${PEER_COMMIT:-3e0f4f4064947ce14a1314de917ed16613bb81e3}
git -C "$mirror" cat-file -e "$commit^{commit}" 2>/dev/null || {
  echo "stage.sh: no commit $commit in $mirror; fetch github:aadomn/skinny" \
    "(or git clone https://github.com/aadomn/skinny) and give its path" >&2
  exit 2
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# The x86 folders are mostly symlinks into the other platforms' folders and
# crypto_tbc/, so the archive takes those too, and cp -L resolves them.
git -C "$mirror" archive "$commit" crypto_aead/romulus-n crypto_aead/romulus-m \
  crypto_hash/romulus-h crypto_tbc/skinny128/simd/x86 | tar -x -C "$tmp"
rm -rf .peer/aadomn; mkdir -p .peer/aadomn
cp -rL "$tmp/crypto_aead/romulus-n/x86" .peer/aadomn/romulus-n
cp -rL "$tmp/crypto_aead/romulus-m/x86" .peer/aadomn/romulus-m
cp -rL "$tmp/crypto_hash/romulus-h/x86" .peer/aadomn/romulus-h
git -C "$mirror" archive "$commit" LICENSE | tar -x -C .peer/aadomn
echo "aadomn/skinny $commit" >.peer/aadomn/COMMIT
echo "peer sources: .peer/aadomn ($(cat .peer/aadomn/COMMIT))"
if ((build)); then
  cargo build --release --locked -p skinny-romulus --example romulus_speed \
    -p skinny-hash --example hash_speed
  target=${CARGO_TARGET_DIR:-target}
  mkdir -p .peer/bin
  cp "$target/release/examples/romulus_speed" "$target/release/examples/hash_speed" .peer/bin/
  commit_line=$(git rev-parse --short HEAD)
  git status --porcelain --untracked-files=no | grep -q . && commit_line="$commit_line (dirty)"
  { echo "$commit_line"; rustc --version; } >.peer/bin/COMMIT
  echo "ours: .peer/bin (romulus_speed, hash_speed at $(cat .peer/bin/COMMIT))"
fi
