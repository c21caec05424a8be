"""GPU arrays: DLPack in and out, ``skinny.DeviceArray``, neural pairs made on
the GPU. The capsule parsing runs everywhere (numpy's own ``__dlpack__``);
the device paths skip visibly where no GPU can be used, and fail instead
under SKINNY_REQUIRE_GPU=1."""

import numpy as np
import pytest

import skinny
from conftest import gpu_or_skip


class HostTensor:
    """A host tensor of another library: DLPack only (no ``__array__``)."""

    def __init__(self, array):
        self._a = array

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__(**{k: v for k, v in kwargs.items() if k != "max_version" or v is None})

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


class ForeignDevice:
    """A tensor on a device that is neither the CPU nor CUDA (kDLOpenCL)."""

    def __dlpack__(self, **kwargs):
        raise AssertionError("never asked for its memory")

    def __dlpack_device__(self):
        return (4, 0)


def test_numpy_capsules_are_parsed():
    a = np.arange(48, dtype=np.uint8).reshape(3, 16)
    info = skinny._dlpack_info(a)
    assert info["device_type"] == 1 and info["device_id"] == 0
    assert info["shape"] == [3, 16]
    assert info["dtype"] == (1, 8, 1)
    assert info["data"] == a.ctypes.data
    assert info["uint8_c_contiguous"]
    strided = np.zeros((4, 32), np.uint8)[:, ::2]
    info = skinny._dlpack_info(strided)
    assert info["strides"] == [32, 2] and not info["uint8_c_contiguous"]
    assert not skinny._dlpack_info(np.zeros(3, np.uint16))["uint8_c_contiguous"]
    # A read-only array says so where the producer speaks DLPack 1.x.
    ro = np.zeros((2, 8), np.uint8)
    ro.flags.writeable = False
    try:
        info = skinny._dlpack_info(ro)
    except BufferError:
        return  # numpy older than 2.1 refuses to export read-only arrays
    if info["version"] is not None:
        assert info["read_only"]


def test_host_dlpack_tensors_are_taken_as_host_arrays():
    rng = np.random.default_rng(5)
    blocks = rng.integers(0, 256, (6, 8), dtype=np.uint8)
    want = skinny.encrypt("skinny-64-64", blocks, bytes(8))
    got = skinny.encrypt("skinny-64-64", HostTensor(blocks), bytes(8))
    assert np.array_equal(got, want)


def test_tensors_of_other_devices_are_refused_on_the_gpu_path():
    with pytest.raises(skinny.InputError, match="DLPack device type 4"):
        skinny.encrypt("skinny-64-64", ForeignDevice(), bytes(8), device="gpu")


def test_device_output_needs_the_gpu():
    with pytest.raises(skinny.InputError, match="needs device=\"gpu\""):
        skinny.neural_pairs("skinny-64-64", 5, bytes(8), 10, out="device")
    with pytest.raises(skinny.InputError, match="out must be"):
        skinny.neural_pairs("skinny-64-64", 5, bytes(8), 10, out="cupy")


@pytest.mark.parametrize("cipher", ["skinny-64-64", "skinny-64-192", "skinny-128-128", "skinny-128-384"])
@pytest.mark.parametrize("negatives", ["random-ciphertexts", "random-plaintexts"])
def test_gpu_pairs_are_the_cpus(cipher, negatives):
    gpu_or_skip()
    block = skinny.VARIANTS[cipher][0]
    diff = bytes([0x40] + [0] * (block - 1))
    key_diff = bytes([0] * (skinny.VARIANTS[cipher][1] - 1) + [0x01])
    kw = dict(seed=9, key_diff=key_diff, offset=77, negatives=negatives)
    cx, cy = skinny.neural_pairs(cipher, 7, diff, 5000, **kw)
    gx, gy = skinny.neural_pairs(cipher, 7, diff, 5000, device="gpu", **kw)
    assert isinstance(gx, np.ndarray) and gx.shape == cx.shape
    assert np.array_equal(gx, cx) and np.array_equal(gy, cy)


def test_device_pairs_stay_on_the_device():
    gpu_or_skip()
    cx, cy = skinny.neural_pairs("skinny-64-64", 7, bytes(7) + b"\x40", 1000, seed=3)
    x, y = skinny.neural_pairs("skinny-64-64", 7, bytes(7) + b"\x40", 1000, seed=3, device="gpu", out="device")
    assert isinstance(x, skinny.DeviceArray)
    assert x.shape == (1000, 2, 8) and y.shape == (1000,) and x.dtype == np.uint8
    assert x.__dlpack_device__() == (2, x.device)
    cai = x.__cuda_array_interface__
    assert cai["data"] == (x.ptr, False) and cai["typestr"] == "|u1" and cai["shape"] == (1000, 2, 8)
    info = skinny._dlpack_info(x)
    assert info["device_type"] == 2 and info["data"] == x.ptr and info["shape"] == [1000, 2, 8]
    assert skinny._gpu_last_pointers()[1] == x.ptr
    assert np.array_equal(x.get(), cx) and np.array_equal(np.asarray(y), cy)


def test_encrypt_reads_and_writes_device_memory_in_place():
    gpu_or_skip()
    rng = np.random.default_rng(11)
    blocks = rng.integers(0, 256, (4096, 16), dtype=np.uint8)
    tk = bytes(range(32))
    want = skinny.encrypt("skinny-128-256", blocks, tk)
    d = skinny.to_device(blocks)
    same = skinny.encrypt("skinny-128-256", d, tk, device="gpu", out=d)
    assert same is d
    # Zero copies: the kernel read and wrote the input's own memory.
    assert skinny._gpu_last_pointers() == (d.ptr, d.ptr)
    assert np.array_equal(d.get(), want)
    back = skinny.decrypt("skinny-128-256", d, tk, device="gpu")
    assert isinstance(back, skinny.DeviceArray) and back.ptr != d.ptr
    assert skinny._gpu_last_pointers() == (d.ptr, back.ptr)
    assert np.array_equal(back.get(), blocks)


def test_device_inputs_are_checked():
    gpu_or_skip()
    d = skinny.to_device(np.zeros((4, 8), np.uint8))
    with pytest.raises(skinny.InputError, match=r"shape \(n, 16\)"):
        skinny.encrypt("skinny-128-128", d, bytes(16), device="gpu")
    with pytest.raises(skinny.InputError, match="device=\"gpu\""):
        skinny.encrypt("skinny-64-64", d, bytes(8))
    with pytest.raises(skinny.InputError, match="out is on the GPU"):
        skinny.encrypt("skinny-64-64", np.zeros((4, 8), np.uint8), bytes(8), device="gpu", out=d)
    with pytest.raises(skinny.UnsupportedError, match="CPU only"):
        skinny.encrypt("skinny-64-64", d, np.zeros((4, 8), np.uint8), device="gpu")
