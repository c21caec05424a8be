#!/usr/bin/env bash
# Builds, on this machine, what the scripts/h200-*.sh scripts run on the GPU
# machine (which has CUDA but no Rust), and puts it in .gpu-bin/ (ignored by
# git; named in the device tool's `carry`). One cargo invocation, so every
# crate is compiled once with one feature set.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .gpu-bin
cargo build --release --locked \
  -p skinny -p skinny-cli -p skinny-cuda -p skinny-bulk -p skinny-lab -p skinny-aead -p skinny-speed-guard \
  --features "skinny-cli/cuda skinny-bulk/cuda skinny-lab/cuda skinny-aead/cuda" \
  --bin skinny --bin speed-guard \
  --example gpu_bench --example datapath --example multigpu --example cpu_speed --example lab_speed \
  --example gpu_aead_speed --example aead_speed --example sealed_speed --example small_calls \
  --test gpu --test multigpu --test published --test sealed_gpu \
  --test bitsliced --test per_block_tweakeys --test per_block_tk1 --test single_block \
  --test vectors --test reduced_rounds --test rustcrypto_modes \
  --message-format=json-render-diagnostics > .gpu-bin/build.json
# Executables by (package, kind, target): tests of `skinny` as skinny-<name>,
# the GPU suites under the names the h200 scripts use.
python3 - <<'PY'
import json, shutil
names = {
    ("skinny-bulk", "test", "gpu"): "gpu-tests",
    ("skinny-bulk", "test", "multigpu"): "multigpu-tests",
    ("skinny-cuda", "test", "gpu"): "cuda-gpu-tests",
    ("skinny-cuda", "test", "multigpu"): "cuda-multigpu-tests",
    ("skinny-lab", "test", "gpu"): "lab-gpu-tests",
    ("skinny-lab", "test", "published"): "lab-published-tests",
    ("skinny-aead", "test", "gpu"): "aead-gpu-tests",
    ("skinny-aead", "test", "sealed_gpu"): "aead-sealed-gpu-tests",
}
for line in open(".gpu-bin/build.json"):
    m = json.loads(line)
    if m.get("reason") != "compiler-artifact" or not m.get("executable"):
        continue
    pkg = m["package_id"].split("#")[0].rstrip("/").split("/")[-1].split("@")[0]
    kind, name = m["target"]["kind"][0], m["target"]["name"]
    dest = names.get((pkg, kind, name))
    if dest is None and kind in ("bin", "example"):
        dest = name
    if dest is None and pkg == "skinny" and kind == "test":
        dest = "skinny-" + name
    if dest:
        shutil.copy(m["executable"], ".gpu-bin/" + dest)
PY
rm .gpu-bin/build.json
git rev-parse HEAD > .gpu-bin/COMMIT
git status --porcelain --untracked-files=no | grep -q . && echo "dirty" >> .gpu-bin/COMMIT || true
ls -la .gpu-bin
