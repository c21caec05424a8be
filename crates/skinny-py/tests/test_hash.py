"""The hash functions' default (the CLI's: Romulus-H) and the hashlib-like
incremental :class:`skinny.Hasher`, against the submissions' known-answer files."""

import threading

import pytest

import skinny
from conftest import read_kat
from test_aead_hash import HASH_KATS

#: Romulus-H of the empty message (LWC_HASH_KAT_256 Count = 1), what
#: `skinny hash < /dev/null` prints.
ROMULUS_H_EMPTY = "249b3f4370030b979f230ce05029361085766858879b31044742afc4cde6b5ab"


def test_the_default_is_romulus_h_as_on_the_command_line():
    assert skinny.hash(b"").hex() == ROMULUS_H_EMPTY
    assert skinny.hash(b"abc") == skinny.hash(b"abc", "romulus-h") != skinny.hash(b"abc", "skinny-tk3-hash")
    assert skinny.Hasher().name == "romulus-h"
    assert skinny.Hasher().hexdigest() == ROMULUS_H_EMPTY
    assert skinny.HASHES[0] == "romulus-h"
    assert set(skinny.HASHES) == set(HASH_KATS)


def test_unknown_names_are_input_errors():
    for call in (lambda: skinny.hash(b"", "sha256"), lambda: skinny.Hasher("sha256")):
        with pytest.raises(skinny.InputError, match="unknown hash"):
            call()


@pytest.mark.parametrize("name", list(HASH_KATS))
def test_incremental_digests_are_the_kats(name):
    records = read_kat(HASH_KATS[name])
    for r in records[::7]:
        msg, md = bytes.fromhex(r["Msg"]), bytes.fromhex(r["MD"])
        h = skinny.Hasher(name)
        for i in range(0, len(msg), 5):
            h.update(msg[i:i + 5])
        assert h.digest() == md, r["Count"]
        assert h.hexdigest() == md.hex()
        assert skinny.Hasher(name, msg).digest() == md
        assert skinny.Hasher(algorithm=name, data=bytearray(msg)).digest() == md


@pytest.mark.parametrize("name", skinny.HASHES)
def test_hashlib_attributes(name):
    h = skinny.Hasher(name.upper().replace("-", "_"))
    assert h.name == name
    assert h.digest_size == 32
    assert h.block_size == {"romulus-h": 32, "skinny-tk3-hash": 16, "skinny-tk2-hash": 4}[name]
    assert repr(h) == f"<skinny.Hasher {name}>"
    assert isinstance(h, skinny.Hasher)


@pytest.mark.parametrize("name", skinny.HASHES)
def test_digest_goes_on_and_copy_forks(name):
    h = skinny.Hasher(name, b"attack at ")
    early = h.digest()
    assert h.digest() == early  # a digest does not end the hasher
    fork = h.copy()
    h.update(b"dawn")
    fork.update(b"dusk")
    assert h.digest() == skinny.hash(b"attack at dawn", name)
    assert fork.digest() == skinny.hash(b"attack at dusk", name)
    assert fork.name == name
    assert early == skinny.hash(b"attack at ", name)


@pytest.mark.parametrize("name", skinny.HASHES)
def test_large_updates_match_small_ones(name):
    # Updates of 2 KiB or more release the GIL; the digest is the same.
    data = bytes(range(256)) * 300
    whole = skinny.Hasher(name)
    whole.update(data)
    pieces = skinny.Hasher(name)
    for i in range(0, len(data), 1000):
        pieces.update(data[i:i + 1000])
    assert whole.digest() == pieces.digest() == skinny.hash(data, name)


def test_threads_sharing_a_hasher_lose_no_update():
    # Equal chunks, so the order the threads take turns in does not matter.
    chunk = bytes(range(256)) * 256
    h = skinny.Hasher()

    def feed():
        for _ in range(4):
            h.update(chunk)

    threads = [threading.Thread(target=feed) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert h.digest() == skinny.hash(chunk * 32)


def test_only_bytes_like_data():
    with pytest.raises(TypeError):
        skinny.Hasher().update("text")
    with pytest.raises(TypeError):
        skinny.Hasher(data="text")


def test_help_shows_the_docstrings():
    assert "hashlib" in skinny.Hasher.__doc__
    assert "romulus-h" in skinny.hash.__doc__
    for method in ("update", "digest", "hexdigest", "copy"):
        assert getattr(skinny.Hasher, method).__doc__, method
    for attribute in ("name", "digest_size", "block_size"):
        assert getattr(skinny.Hasher, attribute).__doc__, attribute
