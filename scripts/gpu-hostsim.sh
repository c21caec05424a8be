#!/usr/bin/env bash
# Checks the CUDA kernels' logic on the CPU (no GPU, no CUDA): compiles their
# C++ with g++ under small shims and compares every mode of every variant with
# the Rust reference. Quick to run before spending GPU time.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cargo run -q --release --example hostsim_vectors -p skinny-cuda -- "$tmp" >/dev/null
g++ -std=c++17 -O2 -Wno-unknown-pragmas -DSKINNY_MAX_ROUNDS=56 -DSKINNY_BS_THREADS=128 -DSKINNY_PAPER_THREADS=512 -DSKINNY_LAB_THREADS=32 -o "$tmp/hostsim" crates/skinny-cuda/hostsim/hostsim.cpp
"$tmp/hostsim" "$tmp"/*.txt
# The lab kernels: experiments with a tweakey per query, hits against the
# specification code.
cargo run -q --release --example hostsim_lab_vectors -p skinny-cuda -- "$tmp/lab-vectors.txt"
g++ -std=c++17 -O2 -Wno-unknown-pragmas -DSKINNY_MAX_ROUNDS=56 -DSKINNY_BS_THREADS=128 -DSKINNY_PAPER_THREADS=512 -DSKINNY_LAB_THREADS=32 -o "$tmp/hostsim-lab" crates/skinny-cuda/hostsim/lab.cpp
"$tmp/hostsim-lab" "$tmp/lab-vectors.txt"
# The AEAD kernels: runs of blocks with a counter per block, outputs and sums
# against the specification code.
cargo run -q --release --example hostsim_aead_vectors -p skinny-aead --features cuda -- "$tmp/aead-vectors.txt"
g++ -std=c++17 -O2 -Wno-unknown-pragmas -DSKINNY_MAX_ROUNDS=56 -DSKINNY_BS_THREADS=128 -DSKINNY_PAPER_THREADS=512 -DSKINNY_LAB_THREADS=32 -o "$tmp/hostsim-aead" crates/skinny-cuda/hostsim/aead.cpp
"$tmp/hostsim-aead" "$tmp/aead-vectors.txt"
