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
#   SKINNY_PY_PROFILE  the cargo profile of the build (default: dev at
#                 opt-level 2, which is what the workspace's test profile is:
#                 cargo reuses the dependencies `cargo test` built; "release"
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

# maturin through pip's build backend: the wheel is built in this checkout's
# target/ (reusing the workspace's built dependencies) with the chosen profile.
build=$(date +%s)
PATH="$venv/bin:$PATH" CARGO_PROFILE_DEV_OPT_LEVEL=2 MATURIN_PEP517_ARGS="--profile $profile" PYO3_PYTHON="$venv/bin/python" \
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation \
    --force-reinstall --no-deps ./crates/skinny-py
echo "test-python: package built and installed in $(( $(date +%s) - build )) s (profile $profile)"

# Run from the tests' folder so that the installed package, not the source
# folder, is imported.
cd crates/skinny-py/tests
"$venv/bin/python" -m pytest -q -rs "$@"
echo "test-python: total $(( $(date +%s) - start )) s"
