"""The cryptanalysis lab: seeded, sharded experiments on reduced-round SKINNY.

Each experiment returns a :class:`Findings` (counts, log2 p, the exact 95 %
Clopper-Pearson interval, right pairs, shard, complete flag). A run cut into
shards ``(i, n)`` merges exactly: ``merge([shard_0, ..., shard_n-1])`` has the
counts and right pairs of the unsharded run, whatever ran each shard (CPU, GPU,
another machine, the CLI's ``skinny lab ... --json``: see
:meth:`Findings.from_json`). Findings pickle (through JSON), so shards can
run as Ray or multiprocessing tasks.

Experiments: :func:`differential` (with a truncated difference too:
``cells=``), :func:`boomerang`, :func:`differential_linear` and
:func:`linear`, each from any start round (``start_round=``, ``tk_at=``). New
kinds arrive as functions of the same shape, returning the same
:class:`Findings`.

``per_key=True`` (every experiment; ``queries`` a multiple of ``key_every``)
also counts each key's hits: ``Findings.per_key`` is a
:class:`KeyDistribution` with the histogram of hits per key (numpy arrays),
the share of keys without a hit against its expectation under one
key-averaged probability, a dispersion (chi-square) test of that model, and
for correlations the mean per-key correlation and mean squared correlation.
It merges exactly, like the counts.
"""

from ._skinny import Findings, KeyDistribution, boomerang, differential, differential_linear, linear
from ._skinny import characteristic, characteristic_experiment, linear_characteristic, tweakey_schedule
from ._skinny import merge as _merge


def merge(results):
    """Merges the findings of shards of one run (any order) into one.

    Every part is read back and checked (its counts against its shards'
    share, its right pairs recomputed); the result is ``complete`` when every
    shard is in it. Raises :class:`skinny.InputError` for parts that do not
    merge (a shard twice, different experiments, an interrupted run).
    """
    return _merge(list(results))


def shards(n):
    """The shard arguments ``(0, n) .. (n-1, n)`` of a run cut into ``n``."""
    return [(i, n) for i in range(n)]


EXPERIMENTS = ("differential", "boomerang", "differential-linear", "linear")

__all__ = [
    "Findings",
    "KeyDistribution",
    "differential",
    "boomerang",
    "differential_linear",
    "linear",
    "merge",
    "shards",
    "characteristic",
    "linear_characteristic",
    "tweakey_schedule",
    "characteristic_experiment",
    "EXPERIMENTS",
]
