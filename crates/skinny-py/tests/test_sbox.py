"""skinny.sbox: the S-boxes as arrays, every table against its definition
computed here by brute force (S4 and small permutations in full), shapes and
dtypes (S8 too), slices, exports, refusals, and docs/lab.md's example."""

import re

import numpy as np
import pytest

import skinny
from skinny import sbox
from conftest import ROOT

# PRESENT's S-box, a 4-bit permutation other than SKINNY's.
PRESENT = [0xC, 5, 6, 0xB, 9, 0, 0xA, 0xD, 3, 0xE, 0xF, 8, 4, 7, 1, 2]


def dot(u, v):
    return bin(u & v).count("1") & 1


def inverse(s):
    inv = [0] * len(s)
    for x, y in enumerate(s):
        inv[y] = x
    return inv


def quartets(s):
    """Every (di, no, x) whose boomerang returns, with its do and ni."""
    inv, size = inverse(s), len(s)
    for di in range(size):
        for no in range(size):
            for x in range(size):
                y0, y1 = s[x], s[x ^ di]
                x2, x3 = inv[y0 ^ no], inv[y1 ^ no]
                if x2 ^ x3 == di:
                    yield di, y0 ^ y1, x ^ x2, no


def brute_force(s):
    """Every table of the permutation s, from the definitions."""
    size = len(s)
    half = size // 2
    t = {}
    t["ddt"] = np.array([[sum(s[x] ^ s[x ^ a] == b for x in range(size)) for b in range(size)] for a in range(size)])
    t["lat"] = np.array(
        [[sum(dot(a, x) == dot(b, s[x]) for x in range(size)) - half for b in range(size)] for a in range(size)]
    )
    t["dlct"] = np.array(
        [[sum(dot(m, s[x]) == dot(m, s[x ^ a]) for x in range(size)) - half for m in range(size)] for a in range(size)]
    )
    t["ddlct"] = np.array(
        [
            [
                sum(dot(m, s[s[x] ^ k]) == dot(m, s[s[x ^ a] ^ k]) for x in range(size) for k in range(size))
                - size * half
                for m in range(size)
            ]
            for a in range(size)
        ]
    )
    e = np.zeros((size,) * 4, dtype=np.int64)
    for di, do, ni, no in quartets(s):
        e[di, do, ni, no] += 1
    t["ebct"] = e
    t["ubct"] = e.sum(axis=2)
    t["lbct"] = e.sum(axis=1)
    t["bct"] = e.sum(axis=(1, 2))
    return t


def random_permutation(bits, seed):
    return np.random.default_rng(seed).permutation(1 << bits).astype(np.int64)


COUNTS = ("ddt", "bct", "ubct", "lbct", "ebct")
SIGNED = ("lat", "dlct", "ddlct")


@pytest.mark.parametrize(
    "given,values",
    [
        ("s4", list(sbox.S4)),
        (PRESENT, PRESENT),
        (random_permutation(3, 1), list(random_permutation(3, 1))),
        (bytes(random_permutation(2, 2).astype(np.uint8)), list(random_permutation(2, 2))),
    ],
)
def test_every_table_is_its_definition(given, values):
    want = brute_force([int(v) for v in values])
    for name in COUNTS + SIGNED:
        got = getattr(sbox, name)(given)
        assert got.dtype == (np.uint16 if name in COUNTS else np.int32), name
        assert got.shape == want[name].shape, name
        assert np.array_equal(got, want[name]), name


def test_the_sboxes_are_skinnys():
    assert sbox.S4.dtype == np.uint8 and sbox.S8.dtype == np.uint8
    assert sbox.S4.tolist() == [0xC, 6, 9, 0, 1, 0xA, 2, 0xB, 3, 8, 5, 0xD, 4, 0xE, 7, 0xF]
    assert sbox.S8[:16].tolist() == [0x65, 0x4C, 0x6A, 0x42, 0x4B, 0x63, 0x43, 0x6B, 0x55, 0x75, 0x5A, 0x7A, 0x53, 0x73, 0x5B, 0x7B]
    assert (sbox.S4_INV[sbox.S4] == np.arange(16)).all()
    assert (sbox.S8_INV[sbox.S8] == np.arange(256)).all()
    assert not sbox.S8.flags.writeable
    # A name and the array give the same tables.
    assert np.array_equal(sbox.ddt("s8"), sbox.ddt(sbox.S8))
    assert np.array_equal(sbox.bct("S4"), sbox.bct(sbox.S4.astype(np.int32)))
    assert skinny.sbox is sbox


def test_s8_tables_shapes_dtypes_and_published_values():
    ddt, lat = sbox.ddt("s8"), sbox.lat("s8")
    assert ddt.shape == (256, 256) and ddt.dtype == np.uint16
    # Beierle et al., CRYPTO 2016: maximal differential probability and
    # absolute linear bias 2^-2.
    assert ddt[1:].max() == 64 and np.abs(lat[:, 1:]).max() == 64
    assert sbox.ddt("s4")[1:].max() == 4 and np.abs(sbox.lat("s4")[:, 1:]).max() == 4
    assert (ddt.sum(axis=1) == 256).all()
    assert ((lat.astype(np.int64) ** 2).sum(axis=1) == 128**2).all()
    bct = sbox.bct("s8")
    assert (bct >= ddt).all() and (bct[0] == 256).all() and (bct[:, 0] == 256).all()
    dlct = sbox.dlct("s8")
    assert dlct.dtype == np.int32
    # The DLCT is the Walsh transform of the DDT's rows (Bar-On et al.).
    signs = np.array([[1 - 2 * dot(m, b) for b in range(256)] for m in range(256)])
    assert np.array_equal(2 * dlct, ddt.astype(np.int64) @ signs.T)
    ddlct = sbox.ddlct("s8")
    assert ddlct.dtype == np.int32 and np.array_equal(ddlct, ddt.astype(np.int64) @ dlct)
    assert np.abs(ddlct).max() <= 2**15


def test_s8_slices_add_up():
    bct = sbox.bct("s8")
    for di in (0x01, 0x5A):
        u, l = sbox.ubct("s8", delta_in=di), sbox.lbct("s8", delta_in=di)
        assert u.shape == l.shape == (256, 256) and u.dtype == np.uint16
        assert (u.sum(axis=0) == bct[di]).all() and (l.sum(axis=0) == bct[di]).all()
        e = sbox.ebct("s8", delta_in=di, nabla_out=0x11)
        assert e.shape == (256, 256)
        assert (e.sum(axis=1) == u[:, 0x11]).all() and (e.sum(axis=0) == l[:, 0x11]).all()
    full = sbox.ubct("s8")
    assert full.shape == (256, 256, 256) and np.array_equal(full[0x5A], sbox.ubct("s8", 0x5A))


def test_exports():
    ddt = sbox.ddt("s4")
    matrix = np.loadtxt(sbox.export("s4", "ddt", "csv").splitlines(), delimiter=",", dtype=np.int64)
    assert np.array_equal(matrix, ddt)
    lines = sbox.export("s4", "ddt", "transitions").splitlines()
    assert lines[0] == "input,output,entry,weight" and lines[1] == "0,0,16,0.0000"
    assert len(lines) - 1 == int((ddt > 0).sum())
    for line in lines[1:]:
        a, b, e, w = line.split(",")
        assert ddt[int(a), int(b)] == int(e) and float(w) == pytest.approx(4 - np.log2(int(e)), abs=1e-4)
    lat = sbox.lat("s8")
    lines = sbox.export("s8", "lat", "transitions").splitlines()
    assert len(lines) - 1 == int((lat != 0).sum())
    pla = sbox.export("s4", "ddt", "pla")
    assert ".i 10\n.o 1\n.ilb a0 a1 a2 a3 b0 b1 b2 b3 p0 p1\n" in pla and pla.endswith(".e\n")


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: sbox.ddt([0, 1, 2]), "2^n entries"),
        (lambda: sbox.ddt([0, 1, 1, 3]), "appears twice"),
        (lambda: sbox.ddt([0, 1, 2, 300]), "not a value from 0 to 255"),
        (lambda: sbox.ddt([[0, 1], [2, 3]]), "1-D integer array"),
        (lambda: sbox.ddt([0.0, 1.0]), "1-D integer array"),
        (lambda: sbox.ddt("s5"), "s4"),
        (lambda: sbox.ebct("s8"), "over the limit"),
        (lambda: sbox.ebct("s8", delta_in=1), "both delta_in and nabla_out"),
        (lambda: sbox.ubct("s4", delta_in=16), "out of range"),
        (lambda: sbox.ubct("s4", delta_in=-1), "at least 0"),
        (lambda: sbox.export("s4", "ubct", "csv"), "ddt, bct, lat or dlct"),
        (lambda: sbox.export("s4", "ddt", "xml"), "format must be"),
    ],
)
def test_refusals_are_input_errors(call, message):
    with pytest.raises(skinny.InputError, match=re.escape(message)):
        call()


def test_the_lab_page_example_runs():
    path = ROOT / "docs/lab.md"
    if not path.exists():
        pytest.skip("docs/lab.md is not beside this package")
    text = path.read_text()
    section = text[text.index("## S-box tables") :]
    section = section[: section.index("\n## ", 1)]
    blocks = re.findall(r"^```python\n(.*?)^```$", section, flags=re.S | re.M)
    assert blocks
    for code in blocks:
        exec(compile(code, "docs/lab.md S-box tables", "exec"), {"__name__": "__docs__"})
