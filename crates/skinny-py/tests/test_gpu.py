"""The GPU paths against the CPU's: same blocks, same modes, same lab counts.
Each test skips visibly where no GPU can be used, and fails instead under
SKINNY_REQUIRE_GPU=1. Without a GPU the calls raise GpuUnavailableError."""

import os

import numpy as np
import pytest

import skinny
from skinny import lab
from conftest import gpu_or_skip


def test_without_a_gpu_the_error_is_clear():
    try:
        skinny.gpus()
    except skinny.GpuUnavailableError:
        if os.environ.get("SKINNY_REQUIRE_GPU") == "1":
            pytest.fail("SKINNY_REQUIRE_GPU=1 but no usable GPU")
        with pytest.raises(skinny.GpuUnavailableError):
            skinny.encrypt("skinny-128-256", np.zeros((4, 16), np.uint8), bytes(32), device="gpu")
        with pytest.raises(skinny.GpuUnavailableError):
            lab.differential("skinny-64-64", 3, "0000000000000002", "0000000000000000", queries=100, device="gpu")
        with pytest.raises(skinny.GpuUnavailableError):
            skinny.many_seal("romulus-n", bytes(16), bytes(16), [b"a"], device="gpu")
        with pytest.raises(skinny.GpuUnavailableError):
            skinny.mode_encrypt("ctr", "skinny-128-128", bytes(16), bytes(100), iv=bytes(16), device="gpu")
        return
    pytest.skip("a GPU is present: the no-GPU error cannot be seen here")


def test_per_block_tweakeys_are_cpu_only():
    with pytest.raises(skinny.UnsupportedError, match="CPU only"):
        skinny.encrypt("skinny-64-64", np.zeros((2, 8), np.uint8), np.zeros((2, 8), np.uint8), device="gpu")


@pytest.mark.parametrize("name", list(skinny.VARIANTS))
def test_gpu_blocks_equal_cpu(name, rng):
    gpu_or_skip()
    bs, tl, full = skinny.VARIANTS[name]
    blocks = rng.integers(0, 256, (100_003, bs), dtype=np.uint8)
    tk = rng.integers(0, 256, tl, dtype=np.uint8).tobytes()
    for r in [5, full]:
        cpu = skinny.encrypt(name, blocks, tk, rounds=r)
        gpu = skinny.encrypt(name, blocks, tk, rounds=r, device="gpu")
        assert np.array_equal(cpu, gpu)
        assert np.array_equal(skinny.decrypt(name, gpu, tk, rounds=r, device="gpu"), blocks)


@pytest.mark.parametrize("mode", ["ecb", "ctr", "cbc", "cfb"])
def test_gpu_modes_equal_cpu(mode, rng):
    gpu_or_skip()
    data = rng.integers(0, 256, 1 << 20, dtype=np.uint8).tobytes()
    iv = None if mode == "ecb" else bytes(16)
    ct = skinny.mode_encrypt(mode, "skinny-128-384", bytes(48), data, iv=iv)
    assert skinny.mode_decrypt(mode, "skinny-128-384", bytes(48), ct, iv=iv, device="gpu") == data
    if mode in ("ecb", "ctr"):
        assert skinny.mode_encrypt(mode, "skinny-128-384", bytes(48), data, iv=iv, device="gpu") == ct


@pytest.mark.parametrize("key_every", [1, 4096])
def test_gpu_lab_equals_cpu(key_every):
    gpu_or_skip()
    args = dict(cipher="skinny-128-256", rounds=5, dp="00000000000000000000000000000002",
                dc="00000000000000000000000000000000", dc_mask="000000000000000000000000000000ff",
                queries=1 << 22, key_every=key_every, seed=4, show=8)
    cpu = lab.differential(**args)
    gpu = lab.differential(**args, device="gpu")
    assert gpu.backend.startswith("gpu")
    assert (gpu.hits, gpu.queries, gpu.right) == (cpu.hits, cpu.queries, cpu.right)
    mixed = lab.merge([lab.differential(**args, shard=(0, 2)), lab.differential(**args, shard=(1, 2), device="gpu")])
    assert (mixed.hits, mixed.right) == (cpu.hits, cpu.right)


def test_gpu_many_equals_cpu(rng):
    gpu_or_skip()
    n = 4096
    keys = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    nonces = rng.integers(0, 256, (n, 16), dtype=np.uint8)
    msgs = rng.integers(0, 256, (n, 256), dtype=np.uint8)
    for scheme in ["romulus-n", "skinny-aead-m1"]:
        _, nlen, _ = skinny.aead_lengths(scheme)
        cpu = skinny.many_seal(scheme, keys, nonces[:, :nlen].copy(), msgs)
        gpu = skinny.many_seal(scheme, keys, nonces[:, :nlen].copy(), msgs, device="gpu")
        assert np.array_equal(cpu, gpu)
