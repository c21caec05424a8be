"""The block cipher on numpy batches: the paper's vectors, round trips of every
variant and round count, per-block tweakeys against one-by-one, in place, and
the errors for wrong dtypes, shapes and lengths."""

import numpy as np
import pytest

import skinny
from conftest import paper_vectors

VARIANTS = list(skinny.VARIANTS)


@pytest.mark.parametrize("name,tk,pt,ct", paper_vectors())
def test_paper_vectors(name, tk, pt, ct):
    blocks = np.frombuffer(pt, dtype=np.uint8).reshape(1, -1)
    out = skinny.encrypt(name, blocks, tk)
    assert out.tobytes() == ct
    assert skinny.decrypt(name, out, tk).tobytes() == pt
    # The tweakey as a uint8 array, and per block, give the same.
    assert skinny.encrypt(name, blocks, np.frombuffer(tk, np.uint8)).tobytes() == ct
    assert skinny.encrypt(name, blocks, np.frombuffer(tk, np.uint8).reshape(1, -1)).tobytes() == ct


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("n", [0, 1, 3, 63, 64, 65, 257, 1029])
def test_round_trip_one_tweakey(name, n, rng):
    bs, tl, _ = skinny.VARIANTS[name]
    blocks = rng.integers(0, 256, (n, bs), dtype=np.uint8)
    tk = rng.integers(0, 256, tl, dtype=np.uint8).tobytes()
    ct = skinny.encrypt(name, blocks, tk)
    assert ct.shape == blocks.shape and ct.dtype == np.uint8
    if n > 4:
        assert not np.array_equal(ct, blocks)
    assert np.array_equal(skinny.decrypt(name, ct, tk), blocks)


@pytest.mark.parametrize("name", VARIANTS)
def test_per_block_tweakeys_equal_one_by_one(name, rng):
    bs, tl, _ = skinny.VARIANTS[name]
    n = 700
    blocks = rng.integers(0, 256, (n, bs), dtype=np.uint8)
    tks = rng.integers(0, 256, (n, tl), dtype=np.uint8)
    ct = skinny.encrypt(name, blocks, tks)
    for i in [0, 1, 255, 256, 511, 699]:
        one = skinny.encrypt(name, blocks[i : i + 1], tks[i].tobytes())
        assert np.array_equal(ct[i], one[0])
    assert np.array_equal(skinny.decrypt(name, ct, tks), blocks)


@pytest.mark.parametrize("name", VARIANTS)
def test_any_round_count(name, rng):
    bs, tl, full = skinny.VARIANTS[name]
    blocks = rng.integers(0, 256, (100, bs), dtype=np.uint8)
    tks = rng.integers(0, 256, (100, tl), dtype=np.uint8)
    for r in [1, 2, 7, full - 1, full]:
        one = skinny.encrypt(name, blocks, tks[0].tobytes(), rounds=r)
        assert np.array_equal(skinny.decrypt(name, one, tks[0].tobytes(), rounds=r), blocks)
        per = skinny.encrypt(name, blocks, tks, rounds=r)
        assert np.array_equal(skinny.decrypt(name, per, tks, rounds=r), blocks)
        # Per-block with every row the same tweakey equals the one-tweakey path.
        same = np.repeat(tks[:1], 100, axis=0)
        assert np.array_equal(skinny.encrypt(name, blocks, same, rounds=r), one)
    assert not np.array_equal(
        skinny.encrypt(name, blocks, tks[0].tobytes(), rounds=full - 1),
        skinny.encrypt(name, blocks, tks[0].tobytes()),
    )


def test_in_place_and_out(rng):
    blocks = rng.integers(0, 256, (50, 16), dtype=np.uint8)
    keep = blocks.copy()
    tk = bytes(range(32))
    expect = skinny.encrypt("skinny-128-256", blocks, tk)
    assert np.array_equal(blocks, keep), "input untouched without out="
    out = np.empty_like(blocks)
    r = skinny.encrypt("skinny-128-256", blocks, tk, out=out)
    assert r is out and np.array_equal(out, expect)
    r = skinny.encrypt("skinny-128-256", blocks, tk, out=blocks)
    assert r is blocks and np.array_equal(blocks, expect)


def test_non_contiguous_input(rng):
    wide = rng.integers(0, 256, (20, 32), dtype=np.uint8)
    view = wide[:, ::2]
    tk = bytes(16)
    assert np.array_equal(
        skinny.encrypt("skinny-128-128", view, tk), skinny.encrypt("skinny-128-128", np.ascontiguousarray(view), tk)
    )


@pytest.mark.parametrize(
    "blocks,tk,match",
    [
        (np.zeros((4, 16), dtype=np.float32), bytes(32), "uint8"),
        (np.full((4, 16), 256, dtype=np.uint16), bytes(32), "0 to 255"),
        (np.zeros((4, 8), dtype=np.uint8), bytes(32), "shape"),
        (np.zeros(16, dtype=np.uint8), bytes(32), "shape"),
        (np.zeros((4, 16), dtype=np.uint8), bytes(31), "32 bytes"),
        (np.zeros((4, 16), dtype=np.uint8), np.zeros((3, 32), np.uint8), r"\(4, 32\)"),
        (np.zeros((4, 16), dtype=np.uint8), np.full((4, 32), -1, np.int32), "tweakey"),
        ([[0.5] * 16], bytes(32), "uint8"),
    ],
)
def test_bad_input(blocks, tk, match):
    with pytest.raises(skinny.InputError, match=match):
        skinny.encrypt("skinny-128-256", blocks, tk)


def test_bad_names_and_rounds():
    b = np.zeros((1, 16), np.uint8)
    with pytest.raises(skinny.InputError, match="unknown cipher"):
        skinny.encrypt("skinny-128-512", b, bytes(64))
    with pytest.raises(ValueError, match="rounds 1 to 48"):
        skinny.encrypt("skinny-128-256", b, bytes(32), rounds=49)
    with pytest.raises(skinny.InputError, match="rounds 1 to 48"):
        skinny.encrypt("skinny-128-256", b, bytes(32), rounds=0)
    with pytest.raises(skinny.InputError, match="device"):
        skinny.encrypt("skinny-128-256", b, bytes(32), device="tpu")
    with pytest.raises(skinny.InputError, match="out"):
        skinny.encrypt("skinny-128-256", b, bytes(32), out=np.zeros((2, 16), np.uint8))


def test_errors_form_one_hierarchy():
    for e in [
        skinny.InputError,
        skinny.AuthenticationError,
        skinny.PaddingError,
        skinny.GpuUnavailableError,
        skinny.GpuFailureError,
        skinny.UnsupportedError,
    ]:
        assert issubclass(e, skinny.SkinnyError)
    assert issubclass(skinny.InputError, ValueError)


@pytest.mark.parametrize("name", VARIANTS)
def test_start_round_composes(name, rng):
    # Rounds 1..a then a+1..a+b (the master tweakey given to both) are rounds 1..a+b.
    bs, tl, full = skinny.VARIANTS[name]
    blocks = rng.integers(0, 256, (300, bs), dtype=np.uint8)
    tk = rng.integers(0, 256, tl, dtype=np.uint8).tobytes()
    tks = rng.integers(0, 256, (300, tl), dtype=np.uint8)
    for a, b in [(1, 1), (3, 5), (10, full - 10)]:
        whole = skinny.encrypt(name, blocks, tk, rounds=a + b)
        first = skinny.encrypt(name, blocks, tk, rounds=a)
        assert np.array_equal(skinny.encrypt(name, first, tk, rounds=b, start=a + 1), whole)
        assert np.array_equal(skinny.decrypt(name, whole, tk, rounds=b, start=a + 1), first)
        per = skinny.encrypt(name, skinny.encrypt(name, blocks, tks, rounds=a), tks, rounds=b, start=a + 1)
        assert np.array_equal(per, skinny.encrypt(name, blocks, tks, rounds=a + b))
        assert np.array_equal(skinny.decrypt(name, per, tks, rounds=b, start=a + 1), skinny.encrypt(name, blocks, tks, rounds=a))
    # To the end by default; the tweakey at the start round is another tweakey.
    last = skinny.encrypt(name, blocks, tk, start=full - 2)
    assert np.array_equal(last, skinny.encrypt(name, blocks, tk, rounds=3, start=full - 2))
    at_start = skinny.encrypt(name, blocks, tk, rounds=3, start=5, tweakey_at="start")
    assert not np.array_equal(at_start, skinny.encrypt(name, blocks, tk, rounds=3, start=5))
    assert np.array_equal(skinny.decrypt(name, at_start, tk, rounds=3, start=5, tweakey_at="start"), blocks)


def test_start_round_errors():
    b = np.zeros((1, 8), np.uint8)
    with pytest.raises(skinny.InputError, match="do not fit"):
        skinny.encrypt("skinny-64-64", b, bytes(8), rounds=2, start=32)
    with pytest.raises(skinny.InputError, match="do not fit"):
        skinny.encrypt("skinny-64-64", b, bytes(8), start=0)
    with pytest.raises(skinny.InputError, match="tweakey_at"):
        skinny.encrypt("skinny-64-64", b, bytes(8), start=2, tweakey_at="middle")
