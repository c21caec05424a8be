"""The lab through Python: results, exact shard merges, pickling, JSON, the
CLI's agreement, and bad parameters."""

import json
import os
import pathlib
import pickle
import shutil
import subprocess

import pytest

import skinny
from skinny import lab
from conftest import ROOT

# A 3-round SKINNY-64-64 differential (one active nibble) with hits to count.
DIFF = dict(cipher="skinny-64-64", rounds=3, dp="2000000000000000", dc="0000000000000000", dc_mask="000f000000000000")


def test_differential_result_object():
    f = lab.differential(**DIFF, queries=20000, key_every=7, seed=5, show=4)
    assert f.experiment == "differential" and f.cipher == "skinny-64-64" and f.rounds == 3
    assert f.queries == f.queries_total == 20000 and f.complete and not f.interrupted
    assert 0 < f.hits < f.queries
    lo, hi = f.ci95
    assert lo < f.log2_p < hi <= 0
    assert f.shards == [0] and f.shard == "0/1" and f.backend == "cpu"
    assert len(f.right) == 4
    w = f.right[0]
    assert len(w["p"]) == 2 and len(w["p"][0]) == 8 and len(w["k"][0]) == 8
    assert f.differences["dp"] == "2000000000000000"
    assert "hits=" in repr(f)


@pytest.mark.parametrize("n", [2, 3, 7])
def test_shards_merge_exactly(n):
    whole = lab.differential(**DIFF, queries=30001, key_every=13, seed=9, show=10)
    parts = [lab.differential(**DIFF, queries=30001, key_every=13, seed=9, show=10, shard=s) for s in lab.shards(n)]
    assert not any(p.complete for p in parts)
    merged = lab.merge(reversed(parts))
    assert merged.complete
    assert (merged.hits, merged.queries, merged.right) == (whole.hits, whole.queries, whole.right)
    assert merged.log2_p == whole.log2_p and merged.ci95 == whole.ci95
    with pytest.raises(skinny.InputError, match="cannot merge"):
        lab.merge(parts + parts[:1])
    with pytest.raises(skinny.InputError, match="cannot merge"):
        lab.merge([])


def test_boomerang_and_shards():
    args = dict(cipher="skinny-64-64", rounds=4, dp="0000000000000002", dc="0000000000000000", queries=20000, seed=3)
    whole = lab.boomerang(**args, key_every=1, show=2)
    assert whole.experiment == "boomerang" and whole.complete
    parts = [lab.boomerang(**args, key_every=1, show=2, shard=s) for s in lab.shards(4)]
    m = lab.merge(parts)
    assert (m.hits, m.right) == (whole.hits, whole.right)
    if whole.right:
        assert len(whole.right[0]["c"]) == 4


def test_findings_pickle_and_json():
    f = lab.differential(**DIFF, queries=5000, show=3)
    assert pickle.loads(pickle.dumps(f)) == f
    back = lab.Findings.from_json(f.to_json())
    assert back == f
    assert json.loads(f.to_json())["hits"] == f.hits
    with pytest.raises(skinny.InputError, match="not findings"):
        lab.Findings.from_json("{}")


def test_bytes_and_hex_agree():
    a = lab.differential(**{**DIFF, "dp": bytes.fromhex(DIFF["dp"])}, queries=3000)
    b = lab.differential(**DIFF, queries=3000)
    assert (a.hits, a.queries) == (b.hits, b.queries)


def test_bad_parameters():
    with pytest.raises(skinny.InputError, match="dp must be 8 bytes"):
        lab.differential("skinny-64-64", 3, "00", "0000000000000000", queries=10)
    with pytest.raises(skinny.InputError, match="rounds"):
        lab.differential("skinny-64-64", 33, "0000000000000002", "0000000000000000", queries=10)
    with pytest.raises(skinny.InputError, match="shard"):
        lab.differential(**DIFF, queries=10, shard=(3, 3))
    with pytest.raises(skinny.InputError, match="key_every"):
        lab.differential(**DIFF, queries=10, key_every=0)
    with pytest.raises(skinny.InputError, match="hex"):
        lab.differential("skinny-64-64", 3, "zz", "0000000000000000", queries=10)


def cli():
    """The CLI binary of this checkout, if built (tests do not build it):
    ``SKINNY_BIN``, else in cargo's target folder (``CARGO_TARGET_DIR`` or
    ``target/``), else on the PATH."""
    if os.environ.get("SKINNY_BIN"):
        return os.environ["SKINNY_BIN"]
    target = pathlib.Path(os.environ["CARGO_TARGET_DIR"]) if os.environ.get("CARGO_TARGET_DIR") else ROOT / "target"
    for profile in ("debug", "release"):
        p = target / profile / "skinny"
        if p.is_file() and os.access(p, os.X_OK):
            return str(p)
    return shutil.which("skinny")


def test_same_counts_as_the_cli():
    exe = cli()
    if exe is None:
        pytest.skip("the skinny CLI is not built (cargo build -p skinny-cli)")
    out = subprocess.run(
        [exe, "lab", "differential", "-b", "cpu", "-c", "skinny-64-64", "--rounds", "3", "--seed", "11",
         "--key-every", "5", "--dp", DIFF["dp"], "--dc", DIFF["dc"], "--dc-mask", DIFF["dc_mask"],
         "--queries", "40000", "--show", "5", "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    theirs = lab.Findings.from_json(out)
    ours = lab.differential(**DIFF, queries=40000, key_every=5, seed=11, show=5)
    assert (ours.hits, ours.queries, ours.right) == (theirs.hits, theirs.queries, theirs.right)
    # Shards from the CLI and from Python merge with each other (same version).
    half = lab.differential(**DIFF, queries=40000, key_every=5, seed=11, show=5, shard=(0, 2))
    if theirs.version == half.version:
        other = subprocess.run(
            [exe, "lab", "differential", "-b", "cpu", "-c", "skinny-64-64", "--rounds", "3", "--seed", "11",
             "--key-every", "5", "--dp", DIFF["dp"], "--dc", DIFF["dc"], "--dc-mask", DIFF["dc_mask"],
             "--queries", "40000", "--show", "5", "--shard", "1/2", "--json"],
            capture_output=True, text=True, check=True,
        ).stdout
        m = lab.merge([half, lab.Findings.from_json(other)])
        assert (m.hits, m.right) == (ours.hits, ours.right)
