"""checkpoint= on the lab's functions: the findings of a run through a
checkpoint file are a plain run's (seconds aside) and the file is gone at
the end; a file of another run, or damaged, is refused and left as it is.
(Stopping a run and resuming it from its checkpoint is tested on the
library and the CLI, which share the code this calls.)"""

import json

import pytest

import skinny
from skinny import lab

ARGS = dict(cipher="skinny-64-128", rounds=2, dp="1000000000000000", dc="0000000001000000",
            dc_mask="000000000f000000", queries=300_000, key_every=1000, seed=9, show=4)


def timeless(f):
    d = json.loads(f.to_json())
    d.pop("seconds")
    d.pop("rate_per_s")
    return d


def test_a_checkpointed_run_finds_what_a_plain_run_finds(tmp_path):
    ck = tmp_path / "shard.ckpt"
    plain = lab.differential(**ARGS)
    for every in (0.0, 30.0):
        f = lab.differential(**ARGS, checkpoint=ck, checkpoint_every=every)
        assert timeless(f) == timeless(plain)
        assert not ck.exists()
    assert list(tmp_path.iterdir()) == []
    for (i, n) in lab.shards(3):
        part = lab.boomerang(cipher="skinny-64-64", rounds=1, dp="1000000000000000", dc="1000000000000000",
                             queries=5000, key_every=7, shard=(i, n), checkpoint=str(ck), checkpoint_every=0)
        assert part.complete is False and part.queries > 0 and not ck.exists()


def test_foreign_and_damaged_checkpoints_are_refused_and_kept(tmp_path):
    ck = tmp_path / "shard.ckpt"
    for text in ["", "{\"format\": \"skinny-lab checkpoint 1\"", "{\"format\": \"other\", \"findings\": {}}"]:
        ck.write_text(text)
        with pytest.raises(skinny.InputError, match="refused"):
            lab.differential(**ARGS, checkpoint=ck)
        assert ck.read_text() == text
    # A genuine checkpoint's form holding another run's findings (a whole
    # shard of another seed): another experiment.
    other = lab.differential(**{**ARGS, "seed": 10})
    text = json.dumps({"format": "skinny-lab checkpoint 1", "findings": json.loads(other.to_json())})
    ck.write_text(text)
    with pytest.raises(skinny.InputError, match="another experiment"):
        lab.differential(**ARGS, checkpoint=ck)
    assert ck.read_text() == text
    with pytest.raises(skinny.InputError, match="checkpoint_every"):
        lab.differential(**ARGS, checkpoint=ck, checkpoint_every=-1.0)


def test_a_finished_shards_checkpoint_is_its_findings(tmp_path):
    # The checkpoint of a shard already counted (the whole of it): the run
    # returns its findings at once and removes the file.
    ck = tmp_path / "shard.ckpt"
    done = lab.differential(**ARGS)
    ck.write_text(json.dumps({"format": "skinny-lab checkpoint 1", "findings": json.loads(done.to_json())}))
    assert lab.differential(**ARGS, checkpoint=ck) == done
    assert not ck.exists()
