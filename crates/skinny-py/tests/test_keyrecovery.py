"""skinny.keyrecovery: partial decryption under guessed round-tweakey cells
and the counter of key candidates, checked against encryption with known keys."""

import numpy as np
import pytest

import skinny
from skinny import keyrecovery as kr

KEY = bytes.fromhex("f5269826fc681238")


def pairs(rounds, n, cell_xor, seed=1, key=KEY):
    rng = np.random.default_rng(seed)
    p = rng.integers(0, 256, size=(n, 8), dtype=np.uint8)
    q = p.copy()
    q[:, 0] ^= cell_xor
    return skinny.encrypt("skinny-64-64", p, key, rounds=rounds), skinny.encrypt("skinny-64-64", q, key, rounds=rounds)


def test_the_worked_example_ranks_the_right_cells_first():
    c, c2 = pairs(6, 16, 0x30)
    counter = kr.KeyCounter("skinny-64-64", last_round=6, peeled=2, predicted={5: 0, 6: 0, 10: 0, 14: 0})
    assert counter.guessed == [(6, 1), (6, 4), (6, 6), (6, 7)]
    assert counter.guesses == 1 << 16
    counts = counter.count(c, c2)
    assert counts.dtype == np.uint32 and counts.shape == (1 << 16,)
    right = counter.guess_of(KEY)
    assert kr.rank(counts, right) == (1, 0)
    assert kr.best(counts, 1) == [(right, 16)]
    assert set(kr.cells(counter, right)) == set(counter.guessed)


def test_partial_decryption_under_the_right_guess_is_the_state_before_the_last_rounds():
    c, _ = pairs(6, 8, 0x30)
    pd = kr.PartialDecryption("skinny-64-64", 6, 2, [0, 13])
    right = pd.guess_of(KEY)
    got = pd.decrypt(c, right, right + 1)
    assert got.shape == (1, 8, 2)
    # The state after round 4: rounds 5 and 6 undone with the whole key.
    state = skinny.decrypt("skinny-64-64", c, KEY, rounds=2, start=5)
    cells = np.stack([state >> 4, state & 0xF], axis=2).reshape(8, 16)
    assert np.array_equal(got[0], cells[:, [0, 13]])
    every = pd.decrypt(c)
    assert pd.guesses == 1 << 12 and every.shape == (pd.guesses, 8, 2)
    assert np.array_equal(every[right], got[0])


def test_bad_input_raises_input_errors():
    with pytest.raises(skinny.InputError):
        kr.KeyCounter("skinny-64-64", 6, 4, {0: 1})
    with pytest.raises(skinny.InputError):
        kr.KeyCounter("skinny-64-64", 6, 1, {16: 1})
    with pytest.raises(skinny.InputError):
        kr.KeyCounter("skinny-64-64", 6, 1, {0: 0x10})
    with pytest.raises(skinny.InputError):
        kr.KeyCounter("skinny-64-64", 6, 1, {0: -1})
    with pytest.raises(skinny.InputError):
        kr.KeyCounter("skinny-99", 6, 1, {0: 1})
    counter = kr.KeyCounter("skinny-64-64", 6, 1, {0: 1})
    with pytest.raises(skinny.InputError):
        counter.count(np.zeros((2, 8), np.uint8), np.zeros((3, 8), np.uint8))
    with pytest.raises(skinny.InputError):
        counter.count(np.zeros(7, np.uint8), np.zeros(7, np.uint8))
    with pytest.raises(skinny.InputError):
        counter.count(np.zeros((2, 8), np.int64), np.zeros((2, 8), np.int64))
    with pytest.raises(skinny.InputError):
        counter.guess_of(bytes(3))
    pd = kr.PartialDecryption("skinny-64-64", 6, 1, [0])
    with pytest.raises(skinny.InputError):
        pd.decrypt(np.zeros((1, 8), np.uint8), 0, 17)
    with pytest.raises(skinny.InputError):
        kr.rank(np.zeros(4), 4)
