"""Array-likes and bytes-like objects, as numpy-based tools take them: nested
lists, integer arrays of another dtype (values checked, never wrapped),
bytes, bytearray and memoryview, everywhere a uint8 array is taken."""

import numpy as np
import pytest

import skinny

CIPHER = "skinny-64-64"


def reference(blocks, tweakey=bytes(8)):
    return skinny.encrypt(CIPHER, np.asarray(blocks, np.uint8), tweakey)


@pytest.mark.parametrize(
    "blocks",
    [
        [[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15, 16]],
        ((1, 2, 3, 4, 5, 6, 7, 8), (9, 10, 11, 12, 13, 14, 15, 16)),
        np.arange(1, 17, dtype=np.int64).reshape(2, 8),
        np.arange(1, 17, dtype=np.uint16).reshape(2, 8),
    ],
    ids=["lists", "tuples", "int64", "uint16"],
)
def test_blocks_as_array_likes(blocks):
    want = reference(np.arange(1, 17).reshape(2, 8))
    assert np.array_equal(skinny.encrypt(CIPHER, blocks, bytes(8)), want)


@pytest.mark.parametrize("wrap", [bytes, bytearray, memoryview], ids=lambda w: w.__name__)
def test_blocks_as_bytes_like_objects_of_whole_blocks(wrap):
    raw = bytes(range(1, 17))
    want = reference(np.frombuffer(raw, np.uint8).reshape(2, 8))
    assert np.array_equal(skinny.encrypt(CIPHER, wrap(raw), bytes(8)), want)


@pytest.mark.parametrize(
    "blocks",
    [[[256] * 8], [[-1] * 8], np.full((1, 8), 300, np.int32), [[0.5] * 8], [[1] * 7], bytes(9), "text"],
    ids=["256", "-1", "int32-300", "float", "short-row", "9-bytes", "str"],
)
def test_what_is_not_blocks_of_bytes_is_an_input_error(blocks):
    with pytest.raises(skinny.InputError):
        skinny.encrypt(CIPHER, blocks, bytes(8))


@pytest.mark.parametrize(
    "tweakey",
    [bytearray(range(8)), memoryview(bytes(range(8))), list(range(8)), np.arange(8, dtype=np.int64)],
    ids=["bytearray", "memoryview", "list", "int64"],
)
def test_tweakeys_as_bytes_like_and_array_likes(tweakey):
    blocks = np.zeros((3, 8), np.uint8)
    assert np.array_equal(skinny.encrypt(CIPHER, blocks, tweakey), reference(blocks, bytes(range(8))))


def test_per_block_tweakeys_as_nested_lists():
    blocks = np.zeros((2, 8), np.uint8)
    tks = [[i] * 8 for i in range(2)]
    assert np.array_equal(skinny.encrypt(CIPHER, blocks, tks), skinny.encrypt(CIPHER, blocks, np.array(tks, np.uint8)))


def test_many_seal_takes_rows_as_nested_lists():
    keys = [[7] * 16, [8] * 16]
    nonces = np.zeros((2, 16), np.uint8)
    data = [[1, 2, 3], [4, 5, 6]]
    got = skinny.many_seal("romulus-n", keys, nonces, data)
    want = skinny.many_seal("romulus-n", np.array(keys, np.uint8), nonces, np.array(data, np.uint8))
    assert np.array_equal(got, want)
