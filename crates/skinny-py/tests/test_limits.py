"""Sizes, memory and threads: an array too large for the machine is a
MemoryError (too large for any machine an InputError), never a panic; an
``out=`` that shares memory with the tweakeys is refused; ``threads=`` is
bounded per core as on the command line."""

import os

import numpy as np
import pytest

import skinny
from skinny import lab


def test_too_large_output_is_memory_error():
    blocks = np.broadcast_to(np.zeros(16, np.uint8), (2**46, 16))
    with pytest.raises(MemoryError):
        skinny.encrypt("skinny-128-128", blocks, bytes(16))


def test_neural_pairs_too_large_is_memory_error():
    with pytest.raises(MemoryError):
        skinny.neural_pairs("skinny-64-64", 5, bytes.fromhex("0000000000000040"), 2**44)


def test_neural_pairs_beyond_any_memory_is_input_error():
    with pytest.raises(skinny.InputError, match="larger than any memory"):
        skinny.neural_pairs("skinny-64-64", 5, bytes.fromhex("0000000000000040"), 2**62)


def test_out_sharing_memory_with_tweakeys_is_refused():
    blocks = np.zeros((4, 16), np.uint8)
    tweakeys = np.arange(64, dtype=np.uint8).reshape(4, 16)
    before = tweakeys.copy()
    with pytest.raises(skinny.InputError, match="shares memory with tweakey"):
        skinny.encrypt("skinny-128-128", blocks, tweakeys, out=tweakeys)
    np.testing.assert_array_equal(tweakeys, before)
    with pytest.raises(skinny.InputError, match="shares memory with tweakey"):
        skinny.encrypt("skinny-128-128", blocks, tweakeys[0], out=tweakeys)
    # In place on the blocks themselves stays allowed.
    expected = skinny.encrypt("skinny-128-128", blocks, tweakeys)
    skinny.encrypt("skinny-128-128", blocks, tweakeys, out=blocks)
    np.testing.assert_array_equal(blocks, expected)


def test_threads_bounded_per_core():
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    with pytest.raises(skinny.InputError, match="per core"):
        skinny.many_seal("romulus-n", bytes(16), [bytes(16)], [b"m"], threads=20000)
    with pytest.raises(skinny.InputError, match="per core"):
        lab.differential(cipher="skinny-64-64", rounds=3, dp="2000000000000000",
                         dc="0000000000000000", queries=10, threads=20000)
    sealed = skinny.many_seal("romulus-n", bytes(16), [bytes(16)], [b"m"], threads=cores)
    assert len(sealed) == 1


def test_byte_strings_take_any_buffer():
    import array

    key, nonce, msg = bytes(range(16)), bytes(16), b"a message of some bytes"
    expected = skinny.aead_encrypt("romulus-n", key, nonce, msg, b"ad")
    for wrap in (bytes, bytearray, memoryview, lambda b: np.frombuffer(b, np.uint8), lambda b: array.array("B", b)):
        assert skinny.aead_encrypt("romulus-n", wrap(key), wrap(nonce), wrap(msg), wrap(b"ad")) == expected
        assert skinny.hash(wrap(msg)) == skinny.hash(msg)
        h = skinny.Hasher()
        h.update(wrap(msg))
        assert h.digest() == skinny.hash(msg)
        ct = skinny.mode_encrypt("ctr", "skinny-128-128", wrap(key), wrap(msg), iv=wrap(nonce))
        assert ct == skinny.mode_encrypt("ctr", "skinny-128-128", key, msg, iv=nonce)
    assert skinny.many_seal("romulus-n", memoryview(key), [memoryview(nonce)], [memoryview(msg)]) == [
        skinny.aead_encrypt("romulus-n", key, nonce, msg)
    ]
    for bad in ("text", 5, [1, 2]):
        with pytest.raises(TypeError):
            skinny.hash(bad)


def test_many_across_segments_keeps_order():
    # More messages than one segment (2^16): each row still its own message.
    n = (1 << 16) + 5
    rng = np.random.default_rng(3)
    msgs = rng.integers(0, 256, (n, 8), dtype=np.uint8)
    nonces = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    sealed = skinny.many_seal("romulus-n", bytes(16), nonces, msgs)
    for i in (0, 1, (1 << 16) - 1, 1 << 16, n - 1):
        assert bytes(sealed[i]) == skinny.aead_encrypt("romulus-n", bytes(16), bytes(nonces[i]), bytes(msgs[i]))
    opened, ok = skinny.many_open("romulus-n", bytes(16), nonces, sealed)
    assert ok.all()
    np.testing.assert_array_equal(opened, msgs)


@pytest.mark.parametrize("mode", ["cbc", "ctr"])
def test_modes_across_segments_match_one_piece(mode):
    # More than one 16 MiB segment, a partial block at the end for CTR.
    n = (16 << 20) + 16 * 3 + (5 if mode == "ctr" else 0)
    data = np.random.default_rng(4).integers(0, 256, n, dtype=np.uint8).tobytes()
    key, iv = bytes(range(16)), bytes(16)
    ct = skinny.mode_encrypt(mode, "skinny-128-128", key, data, iv=iv)
    assert skinny.mode_decrypt(mode, "skinny-128-128", key, ct, iv=iv) == data
    # The segments change nothing: the last blocks equal those of a one-piece run.
    tail = data[-(16 * 3 + (5 if mode == "ctr" else 0)):]
    if mode == "ctr":
        counter = int.from_bytes(iv, "big") + (16 << 20) // 16
        iv_tail = counter.to_bytes(16, "big")
    else:
        iv_tail = ct[(16 << 20) - 16:16 << 20]
    assert ct[16 << 20:] == skinny.mode_encrypt(mode, "skinny-128-128", key, tail, iv=iv_tail)
