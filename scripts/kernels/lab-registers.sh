#!/usr/bin/env bash
# Registers and spills of the lab kernels for SKINNY-128-256 as ptxas reports
# them (run on a machine with nvcc; no GPU time beyond the compile). Extra -D
# options for experiments can be given as arguments.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat crates/skinny-cuda/kernels/common.cuh crates/skinny-cuda/kernels/bitsliced_round.cuh crates/skinny-cuda/kernels/tweakey_slices.cuh crates/skinny-cuda/kernels/lab_key_counts.cuh crates/skinny-cuda/kernels/lab.cu > "$tmp/lab.cu"
nvcc -arch=sm_90 -cubin -o "$tmp/lab.cubin" -DSKINNY_MAX_ROUNDS=56 -DSKINNY_BS_THREADS=128 -DSKINNY_PAPER_THREADS=512 \
    -DSKINNY_LAB_THREADS=32 "$@" -Xptxas -v "$tmp/lab.cu" 2>&1 | grep -A4 -E "Compiling entry function 'lab128_tk2" | grep -E "entry|spill|Used"
