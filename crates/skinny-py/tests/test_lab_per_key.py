"""Per-key distributions in Python (per_key=True): the histogram as numpy
arrays, its statistics, exact merges of shards, pickling, refusals."""

import pickle

import numpy as np
import pytest

import skinny
from skinny import lab

ARGS = dict(cipher="skinny-64-64", rounds=2, dp="1000000000000000", queries=12000, key_every=300, seed=5,
            per_key=True)


def run(experiment, **kw):
    args = {**ARGS, **kw}
    if experiment == "differential":
        return lab.differential(**args, dc="0000000100000000", dc_mask="0000000f00000000")
    if experiment == "boomerang":
        return lab.boomerang(**{**args, "rounds": 1}, dc="8000000000000000")
    return lab.differential_linear(**args, mask="0000000c00000000")


@pytest.mark.parametrize("experiment", ["differential", "boomerang", "differential-linear"])
def test_every_experiment_has_its_histogram(experiment):
    f = run(experiment)
    d = f.per_key
    assert isinstance(d, lab.KeyDistribution)
    assert (d.keys, d.queries_per_key, d.dispersion_df) == (40, 300, 39)
    hits, keys = d.histogram
    assert hits.dtype == np.uint64 and keys.dtype == np.uint64
    assert np.all(np.diff(hits.astype(np.int64)) > 0)
    assert int(keys.sum()) == 40 and int((hits * keys).sum()) == f.hits
    assert d.zero_hit_share == float(keys[0]) / 40 if hits[0] == 0 else d.zero_hit_share == 0.0
    assert d.mean_hits == pytest.approx(f.hits / 40)
    if 0 < f.hits < f.queries:
        assert 0.0 <= d.dispersion_p_value <= 1.0
    assert (d.mean_correlation is not None) == (experiment == "differential-linear")
    if experiment == "differential-linear":
        assert d.mean_correlation == pytest.approx(f.correlation)
        assert d.mean_squared_correlation is not None


def test_without_the_flag_there_is_none():
    assert run("differential", per_key=False).per_key is None


def test_shards_merge_into_the_whole_histogram_and_pickle():
    whole = run("differential")
    merged = lab.merge([run("differential", shard=s) for s in lab.shards(3)])
    assert merged.per_key == whole.per_key
    back = pickle.loads(pickle.dumps(whole))
    assert back.per_key == whole.per_key
    hits, keys = back.per_key.histogram
    assert np.array_equal(hits, whole.per_key.histogram[0]) and np.array_equal(keys, whole.per_key.histogram[1])


def test_a_key_dependent_differential_fails_the_dispersion_test():
    # Two rounds of SKINNY-64-64: whether a query hits depends on its
    # plaintext's cell 0 and its key's cell 0 (see the Rust test
    # per_key_stats.rs), so keys differ far beyond one probability.
    found = None
    for a in range(1, 16):
        for b in range(1, 16):
            f = lab.differential("skinny-64-64", 2, f"{a:x}000000000000000", f"00000000{b:02x}000000",
                                 dc_mask="000000000f000000", queries=64 * 512, key_every=512, seed=2024, per_key=True)
            if f.per_key.zero_hit_share and f.per_key.zero_hit_share < 1.0:
                found = f
                break
        if found:
            break
    assert found is not None
    d = found.per_key
    assert d.dispersion_p_value < 1e-12
    assert d.zero_hit_expected < d.zero_hit_share


def test_queries_that_are_not_whole_key_groups_are_refused():
    with pytest.raises(skinny.InputError, match="whole key groups"):
        run("differential", queries=12001)
