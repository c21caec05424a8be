"""``help()`` and ``?`` show what the stub says: every public callable has a
real docstring, and those of the compiled functions are the stub's own."""

import ast
import inspect

import pytest

import skinny
import skinny._skinny
from skinny import lab, sbox
from conftest import ROOT

STUB = ROOT / "crates/skinny-py/python/skinny/_skinny.pyi"


def stub_docstrings():
    tree = ast.parse(STUB.read_text())
    return {n.name: ast.get_docstring(n) for n in tree.body if isinstance(n, ast.FunctionDef) and ast.get_docstring(n)}


def public_callables():
    for module in (skinny, lab, sbox):
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj):
                yield f"{module.__name__}.{name}", obj
    yield "skinny.hash", skinny.hash


@pytest.mark.parametrize("name,obj", list(public_callables()), ids=lambda x: x if isinstance(x, str) else "")
def test_every_public_callable_has_a_real_docstring(name, obj):
    doc = inspect.getdoc(obj) or ""
    assert len(doc) > 30, f"{name}: {doc!r}"
    assert "_skinny.pyi" not in doc and "see the stub" not in doc, f"{name}: {doc!r}"


@pytest.mark.parametrize("name,doc", sorted(stub_docstrings().items()))
def test_compiled_docstrings_are_the_stubs(name, doc):
    assert inspect.getdoc(getattr(skinny._skinny, name)) == doc


def test_stub_device_names_are_the_ones_accepted():
    """``Device`` (the lab, the many-message engine) takes "auto"; blocks
    (``BlockDevice``) are given a backend and refuse it."""
    tree = ast.parse(STUB.read_text())
    literals = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript):
            name = node.targets[0].id
            if isinstance(node.value.slice, ast.Tuple):
                literals[name] = [e.value for e in node.value.slice.elts if isinstance(e, ast.Constant)]
    assert literals["BlockDevice"] == ["cpu", "gpu"]
    assert "auto" in literals["Device"]
    import numpy as np

    blocks = np.zeros((1, 16), np.uint8)
    skinny.encrypt("skinny-128-128", blocks, bytes(16), device="cpu")
    with pytest.raises(skinny.UnsupportedError):
        skinny.encrypt("skinny-128-128", blocks, bytes(16), device="auto")
    sealed = skinny.many_seal("romulus-n", bytes(16), [bytes(16)], [b"m"], device="auto")
    assert len(sealed) == 1
    f = lab.differential(cipher="skinny-64-64", rounds=3, dp="2000000000000000",
                         dc="0000000000000000", queries=100, device="auto")
    assert f.queries == 100


def test_short_member_names_as_the_cli_takes_them():
    key, nonce = bytes(16), bytes(16)
    for m in range(1, 7):
        full, short = f"skinny-aead-m{m}", f"M{m}"
        assert skinny.aead_lengths(short) == skinny.aead_lengths(full)
        k, n, _ = skinny.aead_lengths(full)
        ct = skinny.aead_encrypt(short, bytes(k), bytes(n), b"msg")
        assert ct == skinny.aead_encrypt(full, bytes(k), bytes(n), b"msg")
    sealed = skinny.many_seal("m1", key, [nonce], [b"m"])
    assert sealed == skinny.many_seal("skinny-aead-m1", key, [nonce], [b"m"])
    with pytest.raises(skinny.InputError):
        skinny.aead_lengths("m7")


def test_stub_scheme_names_are_accepted():
    for name in skinny.AEAD_SCHEMES:
        skinny.aead_lengths(name)
    for name in skinny.MANY_SCHEMES:
        k, n, _ = skinny.aead_lengths(name)
        skinny.many_seal(name, bytes(k), [bytes(n)], [b"m"])


def stub_literals():
    """The stub's ``Name = Literal[...]`` aliases: name -> the strings listed."""
    literals = {}
    for node in ast.parse(STUB.read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript):
            value = node.value
            if isinstance(value.value, ast.Name) and value.value.id == "Literal":
                elts = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
                literals[node.targets[0].id] = [e.value for e in elts if isinstance(e, ast.Constant)]
    return literals


def test_stub_scheme_literals_are_the_librarys_names():
    """``SchemeName`` lists exactly the names the library reads, in its order
    (``m1`` and ``skinny-aead-m1``, as the CLI's ``--aead``); each is accepted
    by every scheme function, and ``AeadName`` adds only Romulus-T."""
    literals = stub_literals()
    assert literals["SchemeName"] == list(skinny.SCHEME_NAMES)
    assert set(skinny.MANY_SCHEMES) <= set(skinny.SCHEME_NAMES)
    assert set(skinny.AEAD_SCHEMES) - set(skinny.SCHEME_NAMES) == {"romulus-t"}
    tree = ast.parse(STUB.read_text())
    aead_name = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "AeadName")
    assert ast.unparse(aead_name.value) == "Union[SchemeName, Literal['romulus-t']]"
    key = bytes(16)
    for name in skinny.SCHEME_NAMES:
        k, n, _ = skinny.aead_lengths(name)
        assert k == len(key)
        one = skinny.aead_encrypt(name, key, bytes(n), b"m")
        assert skinny.many_seal(name, key, [bytes(n)], [b"m"]) == [one]
        assert skinny.many_seal(name.upper().replace("-", "_"), key, [bytes(n)], [b"m"]) == [one]
