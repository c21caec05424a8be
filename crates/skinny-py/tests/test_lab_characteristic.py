"""Characteristics from Python: the exact probability from the DDT, the
tweakey schedule's round differences, the first impossible round, and the
round-by-round experiment (issue 41)."""

import pytest

import skinny
from skinny import lab

# The upper 8-round related-tweakey trail of SKINNY-64-128 of Liu, Ghosh and
# Song (ToSC 2017(3), ePrint 2016/1108), as transcribed in
# QuanQuanTan/key-dependency-tool, skinny_cpp/src/trails.cpp (TK2_2016_1108).
STATES = [
    "0000000000000001",
    "0080000000000000",
    "0000000000000000",
    "0000000000000000",
    "0000000000000000",
    "0000000000000000",
    "00000000000b0000",
    "0100000001000100",
    "8808080000c80808",
]
TWEAKEY = "0000000060000000" "0000000090000000"


def test_exact_probability_and_rounds():
    e = lab.characteristic("skinny-64-128", STATES, TWEAKEY)
    assert e["log2"] == -12.0 and e["exact"] == "1/2^12" and e["impossible"] is None
    assert e["probability"] == 2.0**-12
    assert [r["active"] for r in e["rounds"]] == [1, 1, 0, 0, 0, 0, 1, 3]
    assert e["rounds"][1]["round_tweakey"] == "00500000"


def test_schedule_check_and_impossible_round():
    rtk = lab.tweakey_schedule("skinny-64-128", TWEAKEY, 8)
    assert len(rtk) == 8 and rtk[1] == "00500000"
    assert lab.characteristic("skinny-64-128", STATES, TWEAKEY, round_tweakeys=rtk)["impossible"] is None
    bad = list(rtk)
    bad[2] = "10000000"
    why = lab.characteristic("skinny-64-128", STATES, TWEAKEY, round_tweakeys=bad)["impossible"]
    assert why["round"] == 3 and why["cell"] is None and "schedule" in why["reason"]
    broken = STATES[:-1] + ["0000000000000000"]
    why = lab.characteristic("skinny-64-128", broken, TWEAKEY)["impossible"]
    assert (why["round"], why["cell"]) == (8, 1)


def test_round_by_round_counts_agree():
    r = lab.characteristic_experiment("skinny-64-128", STATES, TWEAKEY, queries=1 << 18, key_every=1024, seed=2017)
    assert r["keys"] == 256 and len(r["prefixes"]) == 8
    assert all(p["agrees"] for p in r["prefixes"]), r["prefixes"]


def test_linear_and_errors():
    # Output mask 1 in cell 0: the S-box output mask is 1 in cells 0, 10 and
    # 13 (MixColumns' transpose, ShiftRows undone). An input mask a in those
    # three cells: a product of three LAT[a][1] / 8, or impossible in round 1.
    possible = 0
    for a in range(1, 16):
        cells = ["0"] * 16
        for c in (0, 10, 13):
            cells[c] = f"{a:x}"
        e = lab.linear_characteristic("skinny-64-64", ["".join(cells), "1000000000000000"])
        if e["impossible"] is None:
            possible += 1
            assert abs(e["correlation"]) == 2.0 ** e["log2"]
            assert e["rounds"][0]["sbox_output"] == "1000000000100100"
        else:
            assert (e["impossible"]["round"], e["impossible"]["cell"]) == (1, 0)
    assert possible > 0
    with pytest.raises(skinny.InputError):
        lab.characteristic("skinny-64-64", ["00"], None)
    with pytest.raises(skinny.InputError):
        lab.characteristic_experiment("skinny-64-128", STATES, TWEAKEY, queries=0)


def test_the_examples_of_lab_md_run():
    """The Python examples of docs/lab.md's characteristic and per-key
    sections run as written."""
    import re

    from conftest import ROOT

    path = ROOT / "docs/lab.md"
    if not path.exists():
        pytest.skip("docs/lab.md is not beside this package")
    blocks = re.findall(r"^```python\n(.*?)^```$", path.read_text(), flags=re.S | re.M)
    mine = [b for b in blocks if "characteristic" in b or "mean_abs_correlation" in b]
    assert len(mine) >= 2
    for i, code in enumerate(mine):
        exec(compile(code, f"docs/lab.md example {i + 1}", "exec"), {"__name__": "__docs__"})


def test_both_key_averaged_correlations():
    f = lab.differential_linear(
        "skinny-64-64", 2, "0000000000000001", "1000000000000000", queries=64 * 256, key_every=256, per_key=True
    )
    d = f.per_key
    assert d.mean_abs_correlation >= abs(d.mean_correlation) - 1e-12
    lo, hi = d.mean_correlation_ci95
    assert lo <= d.mean_correlation <= hi
    lo, hi = d.mean_abs_correlation_ci95
    assert lo <= d.mean_abs_correlation <= hi
