"""Shared helpers: the repository's known-answer files, seeded inputs, and the
GPU rule (a GPU test skips visibly where no GPU can be used, and fails
instead under SKINNY_REQUIRE_GPU=1)."""

import os
import pathlib

import numpy as np
import pytest

import skinny

ROOT = pathlib.Path(__file__).resolve().parents[3]


def read_kat(path):
    """The records of an NIST LWC KAT file: a list of dicts of field -> str."""
    records, cur = [], {}
    for line in (ROOT / path).read_text().splitlines():
        line = line.strip()
        if not line:
            if cur:
                records.append(cur)
            cur = {}
            continue
        name, _, value = line.partition("=")
        cur[name.strip()] = value.strip()
    if cur:
        records.append(cur)
    return records


def paper_vectors():
    """The six vectors of the SKINNY paper: (cipher, tweakey, pt, ct) as bytes."""
    out = []
    for line in (ROOT / "crates/skinny/tests/data/skinny-paper.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, tk, pt, ct = line.split()
            out.append((name, bytes.fromhex(tk), bytes.fromhex(pt), bytes.fromhex(ct)))
    return out


def gpu_or_skip():
    """Skips (visibly) when no GPU can be used, unless SKINNY_REQUIRE_GPU=1 says one must."""
    try:
        found = skinny.gpus()
    except skinny.GpuUnavailableError as e:
        if os.environ.get("SKINNY_REQUIRE_GPU") == "1":
            pytest.fail(f"SKINNY_REQUIRE_GPU=1 but no usable GPU: {e}")
        pytest.skip(f"no usable GPU: {e}")
    return found


@pytest.fixture
def rng():
    return np.random.default_rng(20261202)
