"""The block modes (against their definitions on top of the block cipher) and
the many-message engine (against the single-message functions)."""

import numpy as np
import pytest

import skinny

LENGTHS = [0, 1, 15, 16, 17, 31, 32, 33, 100, 1000, 4099]


def ecb(name, key, block):
    return skinny.encrypt(name, np.frombuffer(block, np.uint8).reshape(1, -1), key).tobytes()


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


@pytest.mark.parametrize("name", list(skinny.VARIANTS))
@pytest.mark.parametrize("mode", skinny.MODES)
def test_mode_round_trip(name, mode, rng):
    bs, tl, _ = skinny.VARIANTS[name]
    key = rng.integers(0, 256, tl, dtype=np.uint8).tobytes()
    iv = None if mode == "ecb" else rng.integers(0, 256, bs, dtype=np.uint8).tobytes()
    for n in LENGTHS:
        data = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        ct = skinny.mode_encrypt(mode, name, key, data, iv=iv)
        if mode in ("ecb", "cbc"):
            assert len(ct) == (n // bs + 1) * bs  # PKCS#7 always adds
        else:
            assert len(ct) == n
        assert skinny.mode_decrypt(mode, name, key, ct, iv=iv) == data


def test_modes_match_their_definitions(rng):
    name, bs = "skinny-64-192", 8
    key, iv = bytes(range(24)), bytes(range(100, 108))
    data = rng.integers(0, 256, 5 * bs, dtype=np.uint8).tobytes()
    blocks = [data[i : i + bs] for i in range(0, len(data), bs)]
    # CTR: E(iv + i), big-endian over the whole block.
    start = int.from_bytes(iv, "big")
    stream = b"".join(ecb(name, key, ((start + i) % 2**64).to_bytes(bs, "big")) for i in range(5))
    assert skinny.mode_encrypt("ctr", name, key, data, iv=iv) == xor(data, stream)
    # CBC without padding.
    prev, out = iv, b""
    for b in blocks:
        prev = ecb(name, key, xor(b, prev))
        out += prev
    assert skinny.mode_encrypt("cbc", name, key, data, iv=iv, padding=False) == out
    # OFB and CFB.
    s, ofb, prev, cfb = iv, b"", iv, b""
    for b in blocks:
        s = ecb(name, key, s)
        ofb += xor(b, s)
        prev = xor(b, ecb(name, key, prev))
        cfb += prev
    assert skinny.mode_encrypt("ofb", name, key, data, iv=iv) == ofb
    assert skinny.mode_encrypt("cfb", name, key, data, iv=iv) == cfb
    # ECB without padding is encrypt().
    assert skinny.mode_encrypt("ecb", name, key, data, padding=False) == b"".join(ecb(name, key, b) for b in blocks)


def test_mode_reduced_rounds_round_trip():
    ct = skinny.mode_encrypt("cbc", "skinny-128-384", bytes(48), b"hello", iv=bytes(16), rounds=10)
    assert ct != skinny.mode_encrypt("cbc", "skinny-128-384", bytes(48), b"hello", iv=bytes(16))
    assert skinny.mode_decrypt("cbc", "skinny-128-384", bytes(48), ct, iv=bytes(16), rounds=10) == b"hello"


def test_mode_errors():
    k = bytes(32)
    with pytest.raises(skinny.InputError, match="IV"):
        skinny.mode_encrypt("cbc", "skinny-128-256", k, b"x")
    with pytest.raises(skinny.InputError, match="IV"):
        skinny.mode_encrypt("ecb", "skinny-128-256", k, b"x", iv=bytes(16))
    with pytest.raises(skinny.InputError, match="whole number"):
        skinny.mode_encrypt("ecb", "skinny-128-256", k, b"x", padding=False)
    with pytest.raises(skinny.InputError, match="unknown mode"):
        skinny.mode_encrypt("gcm", "skinny-128-256", k, b"x")
    ct = skinny.mode_encrypt("ecb", "skinny-128-256", k, b"x" * 16)
    with pytest.raises(skinny.PaddingError):
        skinny.mode_decrypt("ecb", "skinny-128-256", bytes(range(32)), ct)


@pytest.mark.parametrize("scheme", skinny.MANY_SCHEMES)
def test_many_equals_single(scheme, rng):
    klen, nlen, tlen = skinny.aead_lengths(scheme)
    n = 300
    lens = rng.integers(0, 200, n)
    keys = [rng.integers(0, 256, klen, dtype=np.uint8).tobytes() for _ in range(n)]
    nonces = [rng.integers(0, 256, nlen, dtype=np.uint8).tobytes() for _ in range(n)]
    ads = [rng.integers(0, 256, int(x) % 40, dtype=np.uint8).tobytes() for x in lens]
    msgs = [rng.integers(0, 256, int(x), dtype=np.uint8).tobytes() for x in lens]
    sealed = skinny.many_seal(scheme, keys, nonces, msgs, ads)
    for i in range(n):
        assert sealed[i] == skinny.aead_encrypt(scheme, keys[i], nonces[i], msgs[i], ads[i])
    sealed[7] = sealed[7][:-1] + bytes([sealed[7][-1] ^ 1])
    opened = skinny.many_open(scheme, keys, nonces, sealed, ads)
    assert opened[7] is None
    assert [m for i, m in enumerate(opened) if i != 7] == [m for i, m in enumerate(msgs) if i != 7]


def test_many_packed_arrays(rng):
    scheme = "romulus-n"
    n = 1000
    keys = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    nonces = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    msgs = rng.integers(0, 256, (n, 64), dtype=np.uint8)
    ct = skinny.many_seal(scheme, keys, nonces, msgs, b"shared ad")
    assert ct.shape == (n, 80) and ct.dtype == np.uint8
    assert ct[5].tobytes() == skinny.aead_encrypt(scheme, keys[5].tobytes(), nonces[5].tobytes(), msgs[5].tobytes(), b"shared ad")
    ct[9, 0] ^= 1
    pt, ok = skinny.many_open(scheme, keys, nonces, ct, b"shared ad")
    assert pt.shape == (n, 64) and ok.dtype == np.bool_
    assert not ok[9] and ok.sum() == n - 1 and not pt[9].any()
    assert np.array_equal(np.delete(pt, 9, 0), np.delete(msgs, 9, 0))
    # One key for every message.
    shared = skinny.many_seal(scheme, bytes(16), nonces, msgs)
    assert shared[3].tobytes() == skinny.aead_encrypt(scheme, bytes(16), nonces[3].tobytes(), msgs[3].tobytes())


def test_many_errors():
    with pytest.raises(skinny.InputError, match="3 given for 2"):
        skinny.many_seal("romulus-n", [bytes(16)] * 3, bytes(16), [b"a", b"b"])
    with pytest.raises(skinny.InputError, match="message 1"):
        skinny.many_seal("romulus-n", [bytes(16), bytes(15)], bytes(16), [b"a", b"b"])
    with pytest.raises(skinny.InputError, match="unknown scheme"):
        skinny.many_seal("romulus-t", bytes(16), bytes(16), [b"a"])
    with pytest.raises(skinny.InputError, match="many messages"):
        skinny.many_seal("romulus-n", bytes(16), bytes(16), b"a")
