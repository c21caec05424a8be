#!/usr/bin/env bash
# Builds (release) and copies into DIR what an h200 script runs on the GPU
# machine, which has CUDA but no Rust: one cargo invocation, so every crate is
# compiled once with one feature set. Binaries and examples keep their names;
# a test binary is named <package short name>-<test> (core-stack, lab-gpu).
# Then stripped, with DIR/COMMIT saying what was built (and "dirty" if the
# tracked tree had changes).
#
#   scripts/lib/stage-into.sh DIR CARGO-BUILD-ARGS...
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$1
shift
mkdir -p "$dir"
cargo build --release --locked "$@" --message-format=json-render-diagnostics > "$dir/stage.json"
python3 - "$dir" <<'PY'
import json, shutil, sys
dest_dir = sys.argv[1]
short = {"skinny": "core", "skinny-aead": "aead", "skinny-romulus": "romulus", "skinny-many": "many",
         "skinny-lab": "lab", "skinny-cuda": "cuda", "skinny-cli": "cli", "skinny-seal": "seal",
         "skinny-bulk": "bulk", "skinny-hash": "hash", "skinny-ct-check": "ct", "skinny-speed-guard": "speed"}
for line in open(f"{dest_dir}/stage.json"):
    m = json.loads(line)
    if m.get("reason") != "compiler-artifact" or not m.get("executable"):
        continue
    # "path+file:///.../skinny-many#0.1.0", or "...checks/ct#skinny-ct-check@0.1.0"
    # when the folder is not named after the package.
    where, _, tail = m["package_id"].partition("#")
    pkg = tail.split("@")[0] if "@" in tail else where.rstrip("/").split("/")[-1]
    kind, name = m["target"]["kind"][0], m["target"]["name"]
    if pkg not in short:
        continue
    dest = name if kind in ("example", "bin") else f"{short[pkg]}-{name}"
    shutil.copy(m["executable"], f"{dest_dir}/{dest}")
PY
rm "$dir/stage.json"
strip "$dir"/* 2>/dev/null || true
git rev-parse HEAD > "$dir/COMMIT"
git status --porcelain --untracked-files=no | grep -q . && echo "dirty" >> "$dir/COMMIT" || true
