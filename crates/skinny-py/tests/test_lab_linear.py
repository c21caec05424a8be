"""The lab's linear experiment and the differential's cell patterns (issue 29):
one-round correlations from the S-box's LAT, kept hits re-encrypted with the
block functions, exact merges, and the errors of bad masks and patterns."""

import numpy as np
import pytest

import skinny
from skinny import lab

# SKINNY-64 S-box (the specification's table).
S4 = [0xC, 0x6, 0x9, 0x0, 0x1, 0xA, 0x2, 0xB, 0x3, 0x8, 0x5, 0xD, 0x4, 0xE, 0x7, 0xF]


def parity(mask, x):
    return bin(int.from_bytes(bytes(a & b for a, b in zip(mask, x)), "big")).count("1") % 2


def lat(a, b):
    """2^-4 sum_x (-1)^(a.x ^ b.S(x)), exhaustively."""
    return sum(1 if parity([a], [x]) == parity([b], [S4[x]]) else -1 for x in range(16)) / 16


def test_one_round_correlation_is_the_lat():
    # Cell 10 gets no tweakey and no constant; MixColumns after ShiftRows
    # reads cells 4 and 12 back onto its S-box alone.
    a, b = 0x4, 0x2
    f = lab.linear("skinny-64-64", 1, "0000000000400000", "0000200000002000", queries=2**15, key_every=1,
                   start_round=3, seed=1)
    assert f.experiment == "linear" and f.start_round == 3
    lo, hi = f.correlation_ci95
    assert lo <= f.correlation <= hi
    exact = lat(a, b)
    assert exact != 0
    assert abs(f.correlation - exact) < 5 * ((1 - exact**2) / f.queries) ** 0.5
    assert f.differences["in_mask"] == "0000000000400000" and f.differences["out_mask"] == "0000200000002000"


@pytest.mark.parametrize("key_every", [1, 5, 2**40])
def test_kept_hits_are_the_block_functions_and_shards_merge(key_every):
    args = dict(cipher="skinny-128-256", rounds=2, in_mask="00" * 3 + "40" + "00" * 12,
                out_mask="00" * 9 + "11" + "00" * 6, queries=20000, key_every=key_every, seed=3, show=6,
                start_round=4)
    f = lab.linear(**args)
    alpha, beta = bytes.fromhex(args["in_mask"]), bytes.fromhex(args["out_mask"])
    assert len(f.right) == 6
    for w in f.right:
        (p,), (c,), (k,) = w["p"], w["c"], w["k"]
        got = skinny.encrypt("skinny-128-256", np.frombuffer(p, np.uint8).reshape(1, 16), k, rounds=2, start=4)
        assert got.tobytes() == c
        assert parity(alpha, p) == parity(beta, c)
    m = lab.merge([lab.linear(**args, shard=s) for s in lab.shards(3)])
    assert (m.hits, m.right, m.correlation, m.complete) == (f.hits, f.right, f.correlation, True)
    assert lab.Findings.from_json(f.to_json()) == f


def test_bad_masks_are_input_errors():
    with pytest.raises(skinny.InputError, match="in_mask"):
        lab.linear("skinny-64-64", 1, "00", "00" * 8, queries=10)
    with pytest.raises(skinny.InputError, match="out_mask"):
        lab.linear("skinny-64-64", 1, "00" * 8, "zz" * 8, queries=10)


CELLS = dict(cipher="skinny-64-64", rounds=1, dp="1000000000100000", queries=4000, seed=2)


def test_a_cell_pattern_alone_and_with_bits():
    # Cells 0 and 10 active: column 0's cells 0 and 12 cancel exactly when
    # the two S-box outputs are equal.
    cancel = lab.differential(**CELLS, cells="0000 x000 x000 0000", show=3)
    apart = lab.differential(**CELLS, cells="x000x000x000x000")
    assert cancel.hits + apart.hits == 4000 and 0 < cancel.hits < 4000
    assert cancel.differences["cells"] == "0000x000x0000000"
    assert cancel.differences["dc_mask"] == "00" * 8
    for w in cancel.right:
        c0, c1 = w["c"]
        d = bytes(a ^ b for a, b in zip(c0, c1))
        assert d[0] >> 4 == 0 and d[6] >> 4 == 0 and d[2] >> 4 != 0 and d[4] >> 4 != 0
    # With dc, dc_mask defaults to every bit, as without a pattern.
    both = lab.differential(**CELLS, dc="0000800080000000", cells="0000x000x0000000")
    assert both.differences["dc_mask"] == "ff" * 8 and both.hits <= cancel.hits
    plain = lab.differential(**CELLS, dc="0000800080000000")
    assert "cells" not in plain.differences
    m = lab.merge([lab.differential(**CELLS, cells="0000x000x0000000", show=3, shard=s) for s in lab.shards(2)])
    assert (m.hits, m.right) == (cancel.hits, cancel.right)


def test_bad_patterns_are_input_errors():
    with pytest.raises(skinny.InputError, match="16 cells"):
        lab.differential(**CELLS, cells="0000x000")
    with pytest.raises(skinny.InputError, match="'y'"):
        lab.differential(**CELLS, cells="0000x000y0000000")
    with pytest.raises(skinny.InputError, match="dc, cells or both"):
        lab.differential(**CELLS)
