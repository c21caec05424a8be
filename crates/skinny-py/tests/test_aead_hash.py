"""The AEAD schemes and hashes against the submissions' known-answer files
(the ones the Rust tests read), and their failures."""

import pytest

import skinny
from conftest import read_kat

AEAD_KATS = {
    **{f"skinny-aead-m{i}": f"crates/skinny-aead/tests/data/SKINNY-AEAD-M{i}.txt" for i in range(1, 7)},
    "romulus-n": "crates/skinny-romulus/tests/kat/romulus-n.txt",
    "romulus-m": "crates/skinny-romulus/tests/kat/romulus-m.txt",
    "romulus-t": "crates/skinny-romulus/tests/kat/romulus-t.txt",
}

HASH_KATS = {
    "skinny-tk3-hash": "crates/skinny-hash/tests/kat/skinnyhashtk3/LWC_HASH_KAT_256.txt",
    "skinny-tk2-hash": "crates/skinny-hash/tests/kat/skinnyhashtk2/LWC_HASH_KAT_256.txt",
    "romulus-h": "crates/skinny-romulus/tests/kat/romulus-h.txt",
}


@pytest.mark.parametrize("scheme", list(AEAD_KATS))
def test_aead_kat(scheme):
    records = read_kat(AEAD_KATS[scheme])
    assert len(records) == 1089
    for r in records:
        key, nonce = bytes.fromhex(r["Key"]), bytes.fromhex(r["Nonce"])
        pt, ad, ct = bytes.fromhex(r["PT"]), bytes.fromhex(r["AD"]), bytes.fromhex(r["CT"])
        assert skinny.aead_encrypt(scheme, key, nonce, pt, ad) == ct, r["Count"]
        assert skinny.aead_decrypt(scheme, key, nonce, ct, ad) == pt, r["Count"]


@pytest.mark.parametrize("scheme", skinny.AEAD_SCHEMES)
def test_aead_rejects_forgeries(scheme):
    klen, nlen, tlen = skinny.aead_lengths(scheme)
    key, nonce = bytes(range(klen)), bytes(nlen)
    ct = skinny.aead_encrypt(scheme, key, nonce, b"attack at dawn" * 3, b"hdr")
    assert len(ct) == 42 + tlen
    for bad in [ct[:-1] + bytes([ct[-1] ^ 1]), bytes([ct[0] ^ 0x80]) + ct[1:], ct[:tlen - 1]]:
        with pytest.raises(skinny.AuthenticationError):
            skinny.aead_decrypt(scheme, key, nonce, bad, b"hdr")
    with pytest.raises(skinny.AuthenticationError):
        skinny.aead_decrypt(scheme, key, nonce, ct, b"other")
    # bytearray works as bytes; no AD is empty AD.
    assert skinny.aead_decrypt(scheme, bytearray(key), nonce, bytearray(ct), b"hdr") == b"attack at dawn" * 3
    assert skinny.aead_encrypt(scheme, key, nonce, b"x") == skinny.aead_encrypt(scheme, key, nonce, b"x", b"")


def test_aead_bad_lengths():
    with pytest.raises(skinny.InputError, match="16-byte key"):
        skinny.aead_encrypt("skinny-aead-m1", bytes(15), bytes(16), b"")
    with pytest.raises(skinny.InputError, match="12-byte nonce"):
        skinny.aead_encrypt("skinny-aead-m2", bytes(16), bytes(16), b"")
    with pytest.raises(skinny.InputError, match="unknown scheme"):
        skinny.aead_encrypt("aes-gcm", bytes(16), bytes(12), b"")


@pytest.mark.parametrize("name", list(HASH_KATS))
def test_hash_kat(name):
    records = read_kat(HASH_KATS[name])
    assert len(records) == 1025
    for r in records:
        assert skinny.hash(bytes.fromhex(r["Msg"]), name) == bytes.fromhex(r["MD"]), r["Count"]

