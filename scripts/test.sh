#!/usr/bin/env bash
# All the tests, on a fresh machine with the Rust toolchain and Python 3.9+
# (the README's test command; CI runs it first): the workspace's Rust tests,
# then the Python package built from this checkout and its pytest suite (a venv
# with maturin, numpy and pytest from PyPI: scripts/test-python.sh). GPU tests
# count as ignored (Rust) or skipped (pytest) where there is no usable GPU, and
# fail where SKINNY_REQUIRE_GPU=1.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --locked 2>&1 | tee "$log"
# GPU tests that could not run are counted as ignored by their harness
# (skinny-test-support's gpu module); say once how many there were.
grep -h '^skip: [0-9]* GPU tests' "$log" | awk '{n+=$2} END {print n+0 " GPU tests did not run (no usable GPU here); each is counted as ignored above"}'
# The Python package from the build above (SKINNY_PY_BUILD=workspace: only its
# module compiles; the wheel itself is built by maturin where it ships).
SKINNY_PY_BUILD=workspace scripts/test-python.sh
