"""Lab shards as Ray tasks on a local Ray cluster, merged to exactly the
single run's counts. Skips visibly where Ray cannot be imported or started
(pip install ray)."""

import pytest

import skinny
from skinny import lab

ARGS = dict(cipher="skinny-64-64", rounds=3, dp="2000000000000000", dc="0000000000000000",
            dc_mask="000f000000000000", queries=200_003, key_every=3, seed=17, show=16)


@pytest.fixture(scope="module")
def ray_cluster():
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install ray)")
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    except Exception as e:  # a machine where Ray's processes cannot start
        pytest.skip(f"a local Ray cluster did not start: {e}")
    yield ray
    ray.shutdown()


def test_shards_as_ray_tasks_merge_exactly(ray_cluster):
    ray = ray_cluster

    @ray.remote
    def shard(i, n):
        import skinny.lab

        return skinny.lab.differential(**ARGS, shard=(i, n))

    n = 8
    parts = ray.get([shard.remote(i, n) for i in range(n)])
    assert all(isinstance(p, lab.Findings) for p in parts)
    merged = lab.merge(parts)
    whole = lab.differential(**ARGS)
    assert merged.complete
    assert (merged.hits, merged.queries, merged.right) == (whole.hits, whole.queries, whole.right)
    assert merged.log2_p == whole.log2_p and merged.ci95 == whole.ci95
    assert skinny.lab.merge(parts[:3] + parts[5:]).complete is False


def test_ray_tasks_with_checkpoints_merge_exactly(ray_cluster, tmp_path):
    # What docs/lab.md shows: each task keeps its shard's checkpoint in a
    # folder every worker sees (here, one machine's), so a retried task goes
    # on from it; a finished shard's checkpoint is gone.
    ray = ray_cluster

    @ray.remote(max_retries=3)
    def shard(i, n, folder):
        import skinny.lab

        return skinny.lab.differential(**ARGS, shard=(i, n), checkpoint=f"{folder}/part-{i}.ckpt",
                                       checkpoint_every=0.01)

    n = 4
    parts = ray.get([shard.remote(i, n, str(tmp_path)) for i in range(n)])
    merged, whole = lab.merge(parts), lab.differential(**ARGS)
    assert merged.complete and (merged.hits, merged.right) == (whole.hits, whole.right)
    assert list(tmp_path.iterdir()) == []
