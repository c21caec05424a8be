#!/usr/bin/env bash
# The Python package's tests on a fresh machine: a venv with maturin, numpy
# and pytest from PyPI, the package built from this checkout and installed
# into it, then pytest over crates/skinny-py/tests.
#
#   scripts/test-python.sh [PYTEST ARGS...]
#
# Environment:
#   PYTHON        the interpreter to build the venv with (default: python3)
#   SKINNY_VENV   where the venv lives (default: .venv-python in the repository,
#                 git-ignored; kept between runs, so a warm run only rebuilds
#                 what changed)
#   SKINNY_PY_BUILD  how the package is built:
#                 "maturin" (the default): a wheel, through pip's build
#                 backend, exactly as users install it;
#                 "workspace" (what scripts/test.sh, the README's test command,
#                 uses): the native module from the workspace's own test-profile
#                 build (`cargo build --workspace --lib --examples --profile test`,
#                 the feature set `cargo test --workspace` built, so only the
#                 module itself is compiled: built alone, its dependencies get
#                 other features and all of them compile again), installed with
#                 the Python sources as a plain folder in the venv; the
#                 packaging is checked by `maturin sdist` (no compiling), the
#                 wheel itself built where it ships (scripts/gpu/stage.sh
#                 python, releases).
#   SKINNY_PY_PROFILE  with maturin, the cargo profile of the build (default:
#                 dev at opt-level 2, as the workspace's test profile; "release"
#                 for the wheel users get). Not "test": cargo would build the
#                 module as a test harness.
#   SKINNY_PY_RAY=0  do not install Ray (its test then skips, visibly); by
#                 default Ray is installed too, and a failed install only
#                 makes that test skip
#   SKINNY_REQUIRE_GPU=1  GPU tests fail, instead of skipping, without a GPU.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
python="${PYTHON:-python3}"
venv="${SKINNY_VENV:-$root/.venv-python}"
profile="${SKINNY_PY_PROFILE:-dev}"
build_kind="${SKINNY_PY_BUILD:-maturin}"
case $build_kind in
    maturin | workspace) ;;
    *) echo "test-python: SKINNY_PY_BUILD is maturin or workspace, not '$build_kind'" >&2; exit 2 ;;
esac

start=$(date +%s)
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "maturin>=1.7,<2" numpy pytest
if [ "${SKINNY_PY_RAY:-1}" != 0 ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check ray ||
        echo "test-python: Ray did not install: tests/test_ray.py will skip"
fi
echo "test-python: venv ready in $(( $(date +%s) - start )) s ($venv)"

build=$(date +%s)
if [ "$build_kind" = maturin ]; then
    # maturin through pip's build backend: the wheel is built in this
    # checkout's target/ with the chosen profile.
    PATH="$venv/bin:$PATH" CARGO_PROFILE_DEV_OPT_LEVEL=2 MATURIN_PEP517_ARGS="--profile $profile" PYO3_PYTHON="$venv/bin/python" \
        "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation \
        --force-reinstall --no-deps ./crates/skinny-py
    echo "test-python: package built and installed in $(( $(date +%s) - build )) s (maturin, profile $profile)"
else
    # The interpreter pyo3 was configured with by `cargo test` is kept (the
    # module is abi3: any CPython from 3.9 imports it), so pyo3 is not rebuilt.
    cargo build --locked --quiet --workspace --lib --examples --profile test
    target=$(cargo metadata --format-version 1 --no-deps --locked |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
    # A wheel installed before is replaced by the folder.
    "$venv/bin/python" -m pip uninstall --quiet --disable-pip-version-check -y skinny-cipher 2>/dev/null || true
    "$venv/bin/python" - "$root/crates/skinny-py/python/skinny" "$target/debug/lib_skinny.so" <<'PY'
import shutil, sys, sysconfig
from pathlib import Path
source, module = Path(sys.argv[1]), Path(sys.argv[2])
dest = Path(sysconfig.get_paths()["purelib"]) / "skinny"
shutil.rmtree(dest, ignore_errors=True)
shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
# The name maturin gives the module of an abi3 wheel.
shutil.copy2(module, dest / "_skinny.abi3.so")
PY
    # The packaging itself, without compiling: maturin reads pyproject.toml
    # and the crates and makes the source distribution users' pip builds
    # from; it must hold the Python sources and the stub.
    sdist=$(mktemp -d)
    "$venv/bin/maturin" sdist --manifest-path crates/skinny-py/Cargo.toml --out "$sdist" > "$sdist/log" 2>&1 ||
        { cat "$sdist/log" >&2; echo "test-python: maturin could not make the source distribution" >&2; exit 1; }
    listing=$(tar tzf "$sdist"/*.tar.gz)
    for f in python/skinny/__init__.py python/skinny/_skinny.pyi crates/skinny-py/Cargo.toml pyproject.toml; do
        grep -q "/$f\$" <<< "$listing" || { echo "test-python: the source distribution lacks $f" >&2; exit 1; }
    done
    rm -rf "$sdist"
    # The CLI the same build made, for the tests comparing the package with it.
    [ -n "${SKINNY_BIN:-}" ] || { [ -x "$target/debug/skinny" ] && export SKINNY_BIN="$target/debug/skinny"; }
    echo "test-python: package built and installed in $(( $(date +%s) - build )) s (the workspace's test-profile build)"
fi

# Run from the tests' folder so that the installed package, not the source
# folder, is imported.
cd crates/skinny-py/tests
"$venv/bin/python" -m pytest -q -rs "$@"
echo "test-python: total $(( $(date +%s) - start )) s"
