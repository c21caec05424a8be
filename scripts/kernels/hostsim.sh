#!/usr/bin/env bash
# Checks the CUDA kernels' logic on the CPU (no GPU, no CUDA): compiles their
# C++ with g++ under small shims and compares every mode of every variant with
# the Rust reference. Quick to run before spending GPU time.
#
# The vector examples are found by name in whichever crate of the workspace
# holds them. HOSTSIM_PROFILE picks the cargo profile they are built with
# (default release; `dev` reuses a debug build, and runs them in about 35 s
# instead of 1).
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
profile=${HOSTSIM_PROFILE:-release}
cargo run -q --profile "$profile" --example hostsim_vectors -- "$tmp" >/dev/null
g++ -std=c++17 -O2 -Wno-unknown-pragmas -DSKINNY_MAX_ROUNDS=56 -DSKINNY_BS_THREADS=128 -DSKINNY_PAPER_THREADS=512 -DSKINNY_LAB_THREADS=32 -o "$tmp/hostsim" crates/skinny-cuda/hostsim/hostsim.cpp
"$tmp/hostsim" "$tmp"/*.txt
# The lab kernels: experiments with a tweakey per query, hits against the
# specification code.
cargo run -q --profile "$profile" --example hostsim_lab_vectors -p skinny-lab --features cuda -- "$tmp/lab-vectors.txt"
g++ -std=c++17 -O2 -Wno-unknown-pragmas -DSKINNY_MAX_ROUNDS=56 -DSKINNY_BS_THREADS=128 -DSKINNY_PAPER_THREADS=512 -DSKINNY_LAB_THREADS=32 -o "$tmp/hostsim-lab" crates/skinny-cuda/hostsim/lab.cpp
"$tmp/hostsim-lab" "$tmp/lab-vectors.txt"
# The AEAD kernels: runs of blocks with a counter per block, outputs and sums
# against the specification code.
cargo run -q --profile "$profile" --example hostsim_aead_vectors -p skinny-aead --features cuda -- "$tmp/aead-vectors.txt"
g++ -std=c++17 -O2 -Wno-unknown-pragmas -DSKINNY_MAX_ROUNDS=56 -DSKINNY_BS_THREADS=128 -DSKINNY_PAPER_THREADS=512 -DSKINNY_LAB_THREADS=32 -o "$tmp/hostsim-aead" crates/skinny-cuda/hostsim/aead.cpp
"$tmp/hostsim-aead" "$tmp/aead-vectors.txt"
# The many-message kernels (Romulus-N, -M, SKINNY-AEAD M1-M6): random batches
# laid out as the GPU engine lays them, run through the kernels' C++, and
# compared with the single-message types (tampered messages included).
g++ -std=c++17 -O2 -Wno-unknown-pragmas -DSKINNY_MAX_ROUNDS=56 -DSKINNY_BS_THREADS=128 -DSKINNY_PAPER_THREADS=512 -DSKINNY_LAB_THREADS=32 -o "$tmp/hostsim-many" crates/skinny-cuda/hostsim/many.cpp
cargo run -q --profile "$profile" --example many_gpu_hostsim -p skinny-many --features cuda -- "$tmp/hostsim-many" 100
# The neural-pairs kernels: data sets made by the CPU's definition, which the
# kernels' C++ must reproduce byte for byte (every variant, both negatives).
cargo run -q --profile "$profile" --example hostsim_pairs_vectors -p skinny-lab --features cuda -- "$tmp/pairs-vectors.txt"
g++ -std=c++17 -O2 -Wno-unknown-pragmas -DSKINNY_MAX_ROUNDS=56 -DSKINNY_BS_THREADS=128 -DSKINNY_PAPER_THREADS=512 -DSKINNY_LAB_THREADS=32 -o "$tmp/hostsim-pairs" crates/skinny-cuda/hostsim/pairs.cpp
"$tmp/hostsim-pairs" "$tmp/pairs-vectors.txt"
