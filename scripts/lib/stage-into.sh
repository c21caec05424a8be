#!/usr/bin/env bash
# Builds (release) and copies into DIR what runs on the device machine, which
# has CUDA but no Rust: one cargo invocation, so every crate is compiled once
# with one feature set. Binaries and examples keep their names; a test binary
# is named <package short name>-<test>, the short name being the package's
# without "skinny-" and "core" for `skinny` (core-stack, lab-gpu). Then
# stripped, with DIR/COMMIT saying what was built (and "dirty" if the tracked
# tree had changes).
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
for line in open(f"{dest_dir}/stage.json"):
    m = json.loads(line)
    if m.get("reason") != "compiler-artifact" or not m.get("executable"):
        continue
    # "path+file:///.../skinny-many#0.1.0", or "...checks/ct#skinny-ct-check@0.1.0"
    # when the folder is not named after the package.
    where, _, tail = m["package_id"].partition("#")
    pkg = tail.split("@")[0] if "@" in tail else where.rstrip("/").split("/")[-1]
    kind, name = m["target"]["kind"][0], m["target"]["name"]
    if kind in ("example", "bin"):
        dest = name
    elif kind == "test":
        dest = ("core" if pkg == "skinny" else pkg.removeprefix("skinny-")) + "-" + name
    else:
        continue
    shutil.copy(m["executable"], f"{dest_dir}/{dest}")
PY
rm "$dir/stage.json"
find "$dir" -maxdepth 1 -type f -perm -u+x -exec strip {} + 2>/dev/null || true
git rev-parse HEAD > "$dir/COMMIT"
git status --porcelain --untracked-files=no | grep -q . && echo "dirty" >> "$dir/COMMIT" || true
