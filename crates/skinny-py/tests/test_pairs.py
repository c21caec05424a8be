"""Training pairs for neural distinguishers: shapes, labels, reproducibility,
slices equal to the rows of a larger set, and real pairs that carry the
difference."""

import numpy as np
import pytest

import skinny


def test_shapes_and_labels():
    x, y = skinny.neural_pairs("skinny-64-64", 5, bytes.fromhex("0000000000000040"), 10000, seed=1)
    assert x.shape == (10000, 2, 8) and x.dtype == np.uint8
    assert y.shape == (10000,) and set(np.unique(y)) == {0, 1}
    assert 0.45 < y.mean() < 0.55


@pytest.mark.parametrize("negatives", ["random-ciphertexts", "random-plaintexts"])
def test_reproducible_and_sliceable(negatives):
    args = ("skinny-128-256", 7, bytes(15) + b"\x01")
    x, y = skinny.neural_pairs(*args, 9000, seed=42, negatives=negatives)
    x2, y2 = skinny.neural_pairs(*args, 9000, seed=42, negatives=negatives)
    assert np.array_equal(x, x2) and np.array_equal(y, y2)
    xs, ys = skinny.neural_pairs(*args, 1000, seed=42, offset=4500, negatives=negatives)
    assert np.array_equal(xs, x[4500:5500]) and np.array_equal(ys, y[4500:5500])
    x3, _ = skinny.neural_pairs(*args, 9000, seed=43, negatives=negatives)
    assert not np.array_equal(x, x3)


def active_cells(x):
    d = x[:, 0, :] ^ x[:, 1, :]
    return ((d & 0x0F) != 0).sum(axis=1) + ((d & 0xF0) != 0).sum(axis=1)


def test_real_pairs_carry_the_difference():
    # One round from one active nibble: at most a column's worth of nibbles
    # differ in a real pair; a random pair differs almost everywhere.
    x, y = skinny.neural_pairs("skinny-64-64", 1, bytes.fromhex("0000000000000002"), 4000, seed=7)
    cells = active_cells(x)
    assert cells[y == 1].max() <= 4
    assert cells[y == 0].mean() > 12
    x, y = skinny.neural_pairs(
        "skinny-64-64", 1, bytes.fromhex("0000000000000002"), 4000, seed=7, negatives="random-plaintexts"
    )
    assert active_cells(x)[y == 1].max() <= 4


def test_key_difference_and_errors():
    x, y = skinny.neural_pairs("skinny-64-128", 3, bytes(8), 100, key_diff=bytes(15) + b"\x01")
    assert x.shape == (100, 2, 8)
    with pytest.raises(skinny.InputError, match="diff must be 8 bytes"):
        skinny.neural_pairs("skinny-64-128", 3, bytes(16), 10)
    with pytest.raises(skinny.InputError, match="key_diff"):
        skinny.neural_pairs("skinny-64-128", 3, bytes(8), 10, key_diff=bytes(8))
    with pytest.raises(skinny.InputError, match="negatives"):
        skinny.neural_pairs("skinny-64-128", 3, bytes(8), 10, negatives="zeros")
    with pytest.raises(skinny.InputError, match="rounds"):
        skinny.neural_pairs("skinny-64-128", 0, bytes(8), 10)
