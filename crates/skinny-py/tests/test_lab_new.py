"""The lab's start rounds and differential-linear experiment (h/labdl):
right pairs recomputed with the block functions, correlations, exact merges."""

import numpy as np
import pytest

import skinny
from skinny import lab


def parity(x):
    return bin(int.from_bytes(x, "big")).count("1") % 2


@pytest.mark.parametrize("at", ["master", "start"])
def test_start_round_pairs_are_the_block_functions(at):
    f = lab.differential("skinny-64-128", 3, "2000000000000000", "0000000000000000", dc_mask="000f000000000000",
                         queries=20000, key_every=5, seed=2, start_round=7, tk_at=at, show=20)
    assert f.start_round == 7 and f.tk_at == at and f.complete and f.hits > 20
    for w in f.right:
        for p, c, k in zip(w["p"], w["c"], w["k"]):
            got = skinny.encrypt("skinny-64-128", np.frombuffer(p, np.uint8).reshape(1, 8), k, rounds=3, start=7,
                                 tweakey_at=at)
            assert got.tobytes() == c
    r1 = lab.differential("skinny-64-128", 3, "2000000000000000", "0000000000000000", dc_mask="000f000000000000",
                          queries=20000, key_every=5, seed=2, show=20)
    assert r1.start_round == 1


def test_start_round_shards_merge_exactly():
    args = dict(cipher="skinny-128-256", rounds=2, dp="00" * 15 + "02", dc="00" * 16, dc_mask="00" * 15 + "0f",
                queries=30000, key_every=1, seed=8, start_round=20, show=5)
    whole = lab.differential(**args)
    m = lab.merge([lab.differential(**args, shard=s) for s in lab.shards(3)])
    assert (m.hits, m.right, m.start_round) == (whole.hits, whole.right, 20)
    with pytest.raises(skinny.InputError, match="tk_at"):
        lab.differential(**{**args, "tk_at": "middle"})
    with pytest.raises(skinny.InputError):
        lab.differential(**{**args, "start_round": 48})


def test_differential_linear():
    args = dict(cipher="skinny-64-64", rounds=3, dp="2000000000000000", mask="0001000000000000", queries=40000,
                key_every=3, seed=4, show=10)
    f = lab.differential_linear(**args)
    assert f.experiment == "differential-linear"
    assert f.correlation == pytest.approx(2 * f.hits / f.queries - 1)
    lo, hi = f.correlation_ci95
    assert lo <= f.correlation <= hi
    mask = bytes.fromhex(args["mask"])
    for w in f.right:
        c0, c1 = w["c"]
        assert parity(bytes((a ^ b) & m for a, b, m in zip(c0, c1, mask))) == 0
    assert f.differences["mask"] == args["mask"]
    m = lab.merge([lab.differential_linear(**args, shard=s) for s in lab.shards(4)])
    assert (m.hits, m.right, m.correlation) == (f.hits, f.right, f.correlation)
    # A mask the difference cannot reach in one round: correlation 1.
    one = lab.differential_linear("skinny-64-64", 1, "2000000000000000", "0000000000000001", queries=1000)
    assert one.hits == 1000 and one.correlation == 1.0
    back = lab.Findings.from_json(f.to_json())
    assert back == f
