#!/usr/bin/env bash
# Builds, on this machine, what scripts/gpu-check.sh runs on the GPU machine
# (which has CUDA but no Rust), and puts it in .gpu-bin/ (ignored by git; named
# in the device tool's `carry`).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .gpu-bin
T=${CARGO_TARGET_DIR:-target}
cargo build --release --locked -p skinny-cli
cp "$T"/release/skinny .gpu-bin/
cargo build --release --locked -p skinny-cuda --example gpu_bench --example datapath --example multigpu
cp "$T"/release/examples/gpu_bench "$T"/release/examples/datapath "$T"/release/examples/multigpu .gpu-bin/
cargo build --release --locked -p skinny --example cpu_speed
cp "$T"/release/examples/cpu_speed .gpu-bin/
exe=$(cargo test --release --locked -p skinny-bulk --features cuda --test gpu --no-run 2>&1 | grep -o '/release/deps/gpu-[0-9a-f]*' | head -1)
cp "$T$exe" .gpu-bin/gpu-tests
exe=$(cargo test --release --locked -p skinny-bulk --features cuda --test multigpu --no-run 2>&1 | grep -o '/release/deps/multigpu-[0-9a-f]*' | head -1)
cp "$T$exe" .gpu-bin/multigpu-tests
exe=$(cargo test --release --locked -p skinny-lab --features cuda --test gpu --no-run 2>&1 | grep -o '/release/deps/gpu-[0-9a-f]*' | head -1)
cp "$T$exe" .gpu-bin/lab-gpu-tests
exe=$(cargo test --release --locked -p skinny-lab --features cuda --test published --no-run 2>&1 | grep -o '/release/deps/published-[0-9a-f]*' | head -1)
cp "$T$exe" .gpu-bin/lab-published-tests
cargo build --release --locked -p skinny-lab --features cuda --example lab_speed
cp "$T"/release/examples/lab_speed .gpu-bin/
git rev-parse HEAD > .gpu-bin/COMMIT
git status --porcelain --untracked-files=no | grep -q . && echo "dirty" >> .gpu-bin/COMMIT || true
ls -la .gpu-bin
