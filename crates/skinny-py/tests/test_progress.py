"""``progress=`` of the long calls: a callable hears ``(done, total)`` while
the work runs and once at the end; ``True`` gives a tqdm bar (or a stderr
line without tqdm); an exception the callable raises stops the call."""

import sys
import types

import numpy as np
import pytest

import skinny
from skinny import lab


def recorder():
    seen = []
    return seen, lambda done, total: seen.append((done, total))


def ends_whole(seen, total):
    assert seen, "never called"
    assert seen[-1] == (total, total)
    dones = [d for d, _ in seen]
    assert dones == sorted(dones), "progress went back"
    assert all(t == total for _, t in seen)


def test_encrypt_reports_its_blocks():
    seen, report = recorder()
    blocks = np.zeros((5000, 16), np.uint8)
    skinny.encrypt("skinny-128-128", blocks, bytes(16), progress=report)
    ends_whole(seen, 5000)


def test_neural_pairs_reports_its_pairs():
    seen, report = recorder()
    skinny.neural_pairs("skinny-64-64", 5, bytes.fromhex("0000000000000020"), 3000, progress=report)
    ends_whole(seen, 3000)


def test_many_seal_reports_its_messages():
    seen, report = recorder()
    n = 300
    skinny.many_seal("romulus-n", bytes(16), [i.to_bytes(16, "big") for i in range(n)], [b"m"] * n, progress=report)
    ends_whole(seen, n)


def test_a_lab_run_reports_its_queries():
    seen, report = recorder()
    f = lab.differential(
        "skinny-64-64", 6, "2000000000000000", "0000000000000000", queries=2**22, threads=1, progress=report
    )
    assert f.queries == 2**22
    ends_whole(seen, 2**22)


def test_a_characteristic_experiment_reports_its_pairs():
    seen, report = recorder()
    states = ["0000000000000001", "0080000000000000", "0000000000000000"]
    r = lab.characteristic_experiment("skinny-64-64", states, queries=1 << 16, key_every=1 << 10, progress=report)
    assert r["queries"] == 1 << 16
    ends_whole(seen, 1 << 16)


def test_a_raising_callable_stops_the_call_and_its_exception_is_raised():
    class Enough(Exception):
        pass

    def report(done, total):
        raise Enough(done)

    with pytest.raises(Enough):
        lab.differential("skinny-64-64", 6, "2000000000000000", "0000000000000000", queries=2**24, progress=report)


def test_true_without_tqdm_writes_one_line_to_stderr(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    skinny.encrypt("skinny-64-64", np.zeros((100, 8), np.uint8), bytes(8), progress=True)
    err = capsys.readouterr().err
    assert "encrypt: 100/100 blocks" in err and err.endswith("\n")


def test_true_uses_a_tqdm_bar_where_tqdm_is_installed(monkeypatch):
    bars = []

    class FakeBar:
        def __init__(self, total, unit, unit_scale, desc):
            self.total, self.unit, self.desc, self.n, self.closed = total, unit, desc, 0, False
            bars.append(self)

        def update(self, k):
            self.n += k

        def close(self):
            self.closed = True

    auto = types.ModuleType("tqdm.auto")
    auto.tqdm = FakeBar
    package = types.ModuleType("tqdm")
    package.auto = auto
    monkeypatch.setitem(sys.modules, "tqdm", package)
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    skinny.neural_pairs("skinny-64-64", 5, bytes.fromhex("0000000000000020"), 700, progress=True)
    [bar] = bars
    assert (bar.n, bar.total, bar.unit, bar.closed) == (700, 700, "pairs", True)


@pytest.mark.parametrize("bad", ["yes", 3])
def test_anything_else_is_a_type_error(bad):
    with pytest.raises(TypeError):
        skinny.encrypt("skinny-64-64", np.zeros((1, 8), np.uint8), bytes(8), progress=bad)
