"""Typed stubs of the native module ``skinny._skinny`` (re-exported by ``skinny``)."""

import os
from typing import Callable, List, Literal, Optional, Sequence, Tuple, Union, final, overload

import numpy as np
import numpy.typing as npt

U8Array = npt.NDArray[np.uint8]
#: Bytes, or any object with the buffer protocol (read as its bytes).
Buffer = Union[bytes, bytearray, memoryview]
Device = Literal["cpu", "gpu", "auto"]
#: Where blocks and modes run: one backend, chosen by the caller (no "auto").
BlockDevice = Literal["cpu", "gpu"]
#: One tweakey for every block (bytes, or a uint8 array of shape (tk,)), or
#: one per block (a uint8 array of shape (n, tk)).
Tweakey = Union[Buffer, U8Array]
#: One value shared by every message, a list with one per message, or a 2-D
#: uint8 array with one row per message.
Rows = Union[Buffer, Sequence[Buffer], U8Array]
#: ``progress=`` of a long call: None (silent), True (a bar), or a callable
#: ``progress(done, total)``.
Progress = Union[None, bool, Callable[[int, int], object]]

__version__: str

#: Every name of the schemes the products share (:func:`many_seal`, and
#: :func:`aead_encrypt`): each scheme's name and its short name as ``skinny
#: seal --aead`` takes it (any case, ``_`` for ``-``, is accepted too). A test
#: holds this list to the library's.
SchemeName = Literal[
    "romulus-n",
    "romulus-m",
    "skinny-aead-m1",
    "m1",
    "skinny-aead-m2",
    "m2",
    "skinny-aead-m3",
    "m3",
    "skinny-aead-m4",
    "m4",
    "skinny-aead-m5",
    "m5",
    "skinny-aead-m6",
    "m6",
]
#: The names :func:`aead_encrypt` takes: the shared schemes and Romulus-T.
AeadName = Union[SchemeName, Literal["romulus-t"]]

#: The names of :func:`aead_encrypt`'s schemes, M1..M6, Romulus-N, -M, -T.
AEAD_SCHEMES: Tuple[str, ...]
#: The names of :func:`many_seal`'s schemes, M1..M6, Romulus-N, -M.
MANY_SCHEMES: Tuple[str, ...]
#: Every name :class:`SchemeName` lists, as the library reads them.
SCHEME_NAMES: Tuple[str, ...]

def encrypt(
    cipher: str,
    blocks: Union[U8Array, "DeviceArray", object],
    tweakey: Tweakey,
    *,
    rounds: Optional[int] = None,
    start: int = 1,
    tweakey_at: Literal["master", "start"] = "master",
    device: BlockDevice = "cpu",
    out: Optional[Union[U8Array, "DeviceArray", object]] = None,
    progress: Progress = None,
) -> Union[U8Array, "DeviceArray", object]:
    """Encrypts a batch of blocks with SKINNY.

    ``cipher`` names the variant (``"skinny-64-64"`` .. ``"skinny-128-384"``);
    ``blocks`` is a uint8 array of shape (n, 8) or (n, 16); ``tweakey`` is the
    whole tweakey TK1 ‖ TK2 ‖ TK3 (bytes or a uint8 array of shape (tk,)) for
    every block, or a uint8 array of shape (n, tk), one per block. ``rounds``
    runs that many rounds (1 .. the full count; reduced rounds are for
    cryptanalysis only). ``start`` runs them from round ``start`` (from 1) at
    their own place: that round's constants and tweakey state, the tweakey
    given as the master tweakey (``tweakey_at="master"``, the schedule is
    advanced here) or as round ``start``'s state (``"start"``); ``rounds``
    then defaults to the rest of the cipher. Per-block tweakeys from a later
    start run block by block (slower than the bitsliced start-at-1 path).
    ``device="gpu"`` runs one tweakey for all on the GPU
    (per-block tweakeys are CPU only: ``UnsupportedError``); no usable GPU
    raises ``GpuUnavailableError``. The result is a new array, or ``out``
    (which may be ``blocks`` itself, to work in place: no copy).
    Bitsliced and constant time on the CPU, on every core; the GIL is released.

    ``blocks`` may also be a tensor on a CUDA device (any object with
    ``__dlpack__``: a CuPy array, a PyTorch tensor, a :class:`DeviceArray`),
    uint8, C-contiguous, of shape (n, block), with ``device="gpu"``: the GPU
    reads it where it lies and writes ``out`` (a CUDA tensor of the same
    shape, or ``blocks`` itself: in place) or a new :class:`DeviceArray`,
    with no copy through the host.

    ``progress=True`` shows a progress bar (tqdm where installed, else a line
    on stderr); a callable ``progress(done, total)`` is called about four times
    a second and at the end (an exception it raises stops the call).
    """

def decrypt(
    cipher: str,
    blocks: Union[U8Array, "DeviceArray", object],
    tweakey: Tweakey,
    *,
    rounds: Optional[int] = None,
    start: int = 1,
    tweakey_at: Literal["master", "start"] = "master",
    device: BlockDevice = "cpu",
    out: Optional[Union[U8Array, "DeviceArray", object]] = None,
    progress: Progress = None,
) -> Union[U8Array, "DeviceArray", object]:
    """Decrypts a batch of blocks: the inverse of :func:`encrypt`, same arguments."""

def mode_encrypt(
    mode: Literal["ecb", "cbc", "ctr", "cfb", "ofb"],
    cipher: str,
    key: Buffer,
    data: Buffer,
    *,
    iv: Optional[Buffer] = None,
    padding: Optional[bool] = None,
    rounds: Optional[int] = None,
    device: Literal["cpu", "gpu"] = "cpu",
) -> bytes:
    """Encrypts a whole message in a block mode (UNAUTHENTICATED).

    ``iv`` is one block, required by every mode but ECB. ECB and CBC pad with
    PKCS#7 unless ``padding=False`` (then the data must be whole blocks); CTR
    counts big-endian over the whole block. The parallel work (ECB, CTR, CBC
    and CFB decryption) runs on ``device``; the serial modes on the CPU.
    """

def mode_decrypt(
    mode: Literal["ecb", "cbc", "ctr", "cfb", "ofb"],
    cipher: str,
    key: Buffer,
    data: Buffer,
    *,
    iv: Optional[Buffer] = None,
    padding: Optional[bool] = None,
    rounds: Optional[int] = None,
    device: Literal["cpu", "gpu"] = "cpu",
) -> bytes:
    """Decrypts a whole message in a block mode; a bad padding raises ``PaddingError``."""

def aead_encrypt(scheme: Union[AeadName, str], key: Buffer, nonce: Buffer, data: Buffer, ad: Optional[Buffer] = None) -> bytes:
    """Encrypts and authenticates: ciphertext ‖ tag.

    ``scheme``: ``"skinny-aead-m1"`` .. ``"skinny-aead-m6"`` (or ``"m1"`` ..
    ``"m6"``), ``"romulus-n"``, ``"romulus-m"``, ``"romulus-t"`` (lengths:
    :func:`aead_lengths`). A nonce
    must never repeat under one key (Romulus-M tolerates it best).
    """

def aead_decrypt(scheme: Union[AeadName, str], key: Buffer, nonce: Buffer, data: Buffer, ad: Optional[Buffer] = None) -> bytes:
    """Verifies and decrypts ciphertext ‖ tag; raises ``AuthenticationError`` (releasing nothing) on a bad tag."""

def aead_lengths(scheme: Union[AeadName, str]) -> Tuple[int, int, int]:
    """(key, nonce, tag) lengths in bytes of an AEAD scheme."""

HashName = Literal["romulus-h", "skinny-tk3-hash", "skinny-tk2-hash"]

def hash(data: Buffer, name: Union[HashName, str] = "romulus-h") -> bytes:
    """The 32-byte digest of ``data`` under ``name``: ``"romulus-h"`` (the default, as
    ``skinny hash`` on the command line), ``"skinny-tk3-hash"`` or ``"skinny-tk2-hash"``.
    Raises ``InputError`` for another name. The GIL is released while it hashes."""

@final
class Hasher:
    """An incremental hasher with hashlib's interface.

    ``Hasher(algorithm="romulus-h", data=None)`` (``data``: bytes to start with), then
    :meth:`update` as often as needed, and :meth:`digest` / :meth:`hexdigest` at any time
    (the hasher goes on); :meth:`copy` forks it. ``algorithm``: ``"romulus-h"`` (the default, as ``skinny hash``),
    ``"skinny-tk3-hash"`` or ``"skinny-tk2-hash"``; another name raises ``InputError``.
    Safe to share between threads (calls take turns); updates of 2 KiB or more release the
    GIL. The state is wiped when the hasher is freed.
    """

    def __init__(self, algorithm: Union[HashName, str] = "romulus-h", data: Optional[Buffer] = None) -> None: ...
    def update(self, data: Buffer) -> None:
        """Adds ``data`` to what is hashed."""
    def digest(self) -> bytes:
        """The 32-byte digest of everything added so far; more may be added after."""
    def hexdigest(self) -> str:
        """:meth:`digest` as 64 lower-case hex digits."""
    def copy(self) -> "Hasher":
        """An independent hasher with the same state."""
    @property
    def name(self) -> HashName:
        """The function's name: ``"romulus-h"``, ``"skinny-tk3-hash"`` or ``"skinny-tk2-hash"``."""
    @property
    def digest_size(self) -> int:
        """Bytes in a digest: 32."""
    @property
    def block_size(self) -> int:
        """Bytes the function absorbs at a time: 32 (Romulus-H), 16 (SKINNY-tk3-Hash) or 4 (SKINNY-tk2-Hash)."""

@overload
def many_seal(
    scheme: Union[SchemeName, str], keys: Rows, nonces: Rows, data: U8Array, ads: Optional[Rows] = None, *,
    device: Device = "cpu", threads: Optional[int] = None, progress: Progress = None,
) -> U8Array: ...
@overload
def many_seal(
    scheme: Union[SchemeName, str], keys: Rows, nonces: Rows, data: Sequence[Buffer], ads: Optional[Rows] = None, *,
    device: Device = "cpu", threads: Optional[int] = None, progress: Progress = None,
) -> List[bytes]: ...
def many_seal(
    scheme: Union[SchemeName, str], keys: Rows, nonces: Rows, data: Union[U8Array, Sequence[Buffer]], ads: Optional[Rows] = None, *,
    device: Device = "cpu", threads: Optional[int] = None, progress: Progress = None,
) -> Union[U8Array, List[bytes]]:
    """Seals many independent messages at once (the many-message engine).

    ``scheme``: one of :data:`SCHEME_NAMES`: ``"romulus-n"``, ``"romulus-m"``,
    or a SKINNY-AEAD member, ``"skinny-aead-m1"`` to ``"skinny-aead-m6"`` (or
    short, ``"m1"`` to ``"m6"``). ``data``: a list of messages (any lengths) or a uint8 array with
    one message per row; keys, nonces and ``ads`` as one shared bytes value, a
    list, or an array of rows. Returns ciphertext ‖ tag per message: a list,
    or an array of shape (n, len + tag) for array input. Byte for byte what
    :func:`aead_encrypt` gives message by message. ``device``: the CPU's
    threads, the GPU, or ``auto`` (the GPU where it pays).

    ``progress=True`` shows a progress bar (tqdm where installed, else a line
    on stderr); a callable ``progress(done, total)`` is called about four times
    a second and at the end (an exception it raises stops the call).
    """

@overload
def many_open(
    scheme: Union[SchemeName, str], keys: Rows, nonces: Rows, data: U8Array, ads: Optional[Rows] = None, *,
    device: Device = "cpu", threads: Optional[int] = None, progress: Progress = None,
) -> Tuple[U8Array, npt.NDArray[np.bool_]]: ...
@overload
def many_open(
    scheme: Union[SchemeName, str], keys: Rows, nonces: Rows, data: Sequence[Buffer], ads: Optional[Rows] = None, *,
    device: Device = "cpu", threads: Optional[int] = None, progress: Progress = None,
) -> List[Optional[bytes]]: ...
def many_open(
    scheme: Union[SchemeName, str], keys: Rows, nonces: Rows, data: Union[U8Array, Sequence[Buffer]], ads: Optional[Rows] = None, *,
    device: Device = "cpu", threads: Optional[int] = None, progress: Progress = None,
) -> Union[Tuple[U8Array, npt.NDArray[np.bool_]], List[Optional[bytes]]]:
    """Opens many messages: a list with ``None`` where a tag failed, or for
    array input (plaintexts, ok) with failed rows zeroed. One forged message
    fails only itself.

    ``progress=True`` shows a progress bar (tqdm where installed, else a line
    on stderr); a callable ``progress(done, total)`` is called about four times
    a second and at the end (an exception it raises stops the call).
    """

def neural_pairs(
    cipher: str,
    rounds: int,
    diff: bytes,
    n: int,
    *,
    seed: int = 0,
    key_diff: Optional[bytes] = None,
    offset: int = 0,
    negatives: Literal["random-ciphertexts", "random-plaintexts"] = "random-ciphertexts",
    device: BlockDevice = "cpu",
    out: Literal["numpy", "device"] = "numpy",
    progress: Progress = None,
) -> Tuple[Union[U8Array, "DeviceArray"], Union[U8Array, "DeviceArray"]]:
    """Labelled ciphertext pairs for a neural distinguisher (Gohr, CRYPTO 2019).

    Returns ``(X, y)``: ``X`` of shape (n, 2, block) uint8 and ``y`` of shape
    (n,) uint8. A sample labelled 1 is (E_K(P), E_K'(P ^ diff)) with K a fresh
    random tweakey per sample and K' = K ^ key_diff (zero by default); one
    labelled 0 is a random ciphertext pair, or with
    ``negatives="random-plaintexts"`` Gohr's encryption of a random plaintext
    pair under K. Labels are fair coins. Sample i depends on (seed, i) only:
    ``offset=s`` gives rows s .. s+n of the same data set (build it in pieces).
    Bitsliced, a tweakey per block, on every core (``device="cpu"``) or on
    the GPU (``device="gpu"``: the same samples, byte for byte). With
    ``out="device"`` (GPU only) ``X`` and ``y`` stay in GPU memory as
    :class:`DeviceArray` (DLPack and ``__cuda_array_interface__``: CuPy,
    PyTorch and JAX take them without a copy); the default ``out="numpy"``
    gives numpy arrays.

    ``progress=True`` shows a progress bar (tqdm where installed, else a line
    on stderr); a callable ``progress(done, total)`` is called about four times
    a second and at the end (an exception it raises stops the call); the GPU
    path, a few milliseconds a billion samples, does not report.
    """

def to_device(array: U8Array, *, device: int = 0) -> "DeviceArray":
    """Copies a host uint8 array (C-contiguous; any shape) to GPU ``device``
    and returns it as a :class:`DeviceArray`."""

@final
class DeviceArray:
    """A uint8 array in GPU memory, owned by this object: a result of a call
    with ``device="gpu"`` left on the device.

    CuPy, PyTorch and JAX take it without a copy (``cupy.from_dlpack(a)``,
    ``torch.from_dlpack(a)``, or ``cupy.asarray(a)`` through
    ``__cuda_array_interface__``); ``get()`` (or ``numpy()``) copies it to a
    numpy array. The memory is freed when the last user (this object or a
    tensor made from it) lets it go."""

    @property
    def shape(self) -> Tuple[int, ...]:
        """The shape."""
    @property
    def dtype(self) -> np.dtype:
        """The element type: numpy's ``uint8``."""
    @property
    def nbytes(self) -> int:
        """The number of bytes."""
    @property
    def device(self) -> int:
        """The CUDA device number."""
    @property
    def ptr(self) -> int:
        """The device address of the first byte."""
    @property
    def __cuda_array_interface__(self) -> dict:
        """The CUDA array interface (version 3), for libraries that read it."""
    def __len__(self) -> int: ...
    def get(self) -> U8Array:
        """A numpy copy of the array (device to host)."""
    def numpy(self) -> U8Array:
        """The same as ``get()``."""
    def __array__(self, dtype: object = None, copy: Optional[bool] = None) -> U8Array:
        """numpy's conversion (``numpy.asarray(a)``): a host copy."""
    def __dlpack__(
        self,
        *,
        stream: Optional[int] = None,
        max_version: Optional[Tuple[int, int]] = None,
        dl_device: Optional[Tuple[int, int]] = None,
        copy: Optional[bool] = None,
    ) -> object:
        """A DLPack capsule of the array (zero-copy). The data is ready on
        every stream (the call that made it waited for it), so ``stream`` is
        accepted and needs no synchronization."""
    def __dlpack_device__(self) -> Tuple[int, int]:
        """``(kDLCUDA, device number)``."""

def built_with_cuda() -> bool:
    """Whether this build has the GPU paths (a GPU is still needed at run time)."""

def gpus() -> List[str]:
    """The usable GPUs, one line each; raises ``GpuUnavailableError`` when there is none."""

class KeyDistribution:
    """How a per-key run's hits spread over its keys (``per_key=True``),
    against one key-averaged probability p = hits / queries for every key.
    Undefined values are ``None``."""

    keys: int
    """Keys (complete key groups of ``queries_per_key`` queries) counted."""
    queries_per_key: int
    histogram: Tuple[np.ndarray, np.ndarray]
    """``(hits, keys)``, two uint64 arrays: ``keys[i]`` keys had ``hits[i]``
    hits, in increasing order of hits."""
    zero_hit_share: Optional[float]
    """The share of keys without a hit."""
    zero_hit_expected: Optional[float]
    """Its expectation with one probability for every key, (1 - p)^Q."""
    mean_hits: Optional[float]
    variance_hits: Optional[float]
    """Sample variance of the hits per key (divisor keys - 1)."""
    dispersion: Optional[float]
    """sum_k (h_k - Q p)^2 / (Q p (1 - p)); ``None`` when p is 0 or 1."""
    dispersion_df: int
    """keys - 1."""
    dispersion_p_value: Optional[float]
    """Chi-square upper tail of ``dispersion``: small when the keys differ
    more than one probability explains."""
    probability_ci95_over_keys: Optional[Tuple[float, float]]
    """An approximate 95 % interval for the key-averaged probability that
    counts the spread between keys, p +- 1.96 s / (Q sqrt(K)); ``None`` with
    fewer than two keys. Where keys differ, the run's exact binomial interval
    is too narrow."""
    mean_correlation: Optional[float]
    """Correlation experiments: the mean of c_k = 2 h_k / Q - 1."""
    mean_squared_correlation: Optional[float]
    """Correlation experiments: the mean of (Q c_k^2 - 1) / (Q - 1), an
    unbiased estimate of the mean squared correlation over keys."""
    mean_correlation_ci95: Optional[Tuple[float, float]]
    """Correlation experiments: an approximate 95 % interval for the signed
    key average ``mean_correlation`` that counts the spread between keys,
    mean +- 1.96 s / sqrt(K); ``None`` with fewer than two keys."""
    mean_abs_correlation: Optional[float]
    """Correlation experiments: the mean over keys of |c_k|, the figure
    hadipourh's tools report; biased upwards by about sqrt(2 / (pi Q)) where
    c_k is near 0."""
    mean_abs_correlation_ci95: Optional[Tuple[float, float]]
    """Correlation experiments: an approximate 95 % interval over keys for
    ``mean_abs_correlation``; ``None`` with fewer than two keys."""

class Findings:
    """What a lab run found (one shard, or shards merged); pickles through JSON."""

    experiment: str
    cipher: str
    rounds: int
    start_round: int
    tk_at: str
    correlation: Optional[float]
    correlation_ci95: Optional[Tuple[float, float]]
    queries: int
    queries_total: int
    hits: int
    key_every: int
    seed: int
    shard: str
    shards: List[int]
    complete: bool
    interrupted: bool
    log2_p: Optional[float]
    ci95: Tuple[Optional[float], Optional[float]]
    seconds: float
    rate_per_s: float
    backend: str
    version: str
    threads: Optional[int]
    differences: dict
    right: List[dict]
    per_key: Optional[KeyDistribution]
    """The keys' histogram and its statistics with ``per_key=True``."""
    @staticmethod
    def from_json(text: str) -> "Findings":
        """Findings from their JSON form (this class's ``to_json``, or the CLI's ``--json``)."""
    def to_json(self) -> str:
        """The JSON form, as the CLI writes it."""

Hex = Union[str, bytes]

def differential(
    cipher: str,
    rounds: int,
    dp: Hex,
    dc: Optional[Hex] = None,
    *,
    queries: int,
    dk: Optional[Hex] = None,
    dc_mask: Optional[Hex] = None,
    cells: Optional[str] = None,
    start_round: int = 1,
    tk_at: Literal["master", "start"] = "master",
    key_every: int = 4096,
    seed: int = 0,
    shard: Tuple[int, int] = (0, 1),
    show: int = 0,
    device: Device = "cpu",
    threads: Optional[int] = None,
    per_key: bool = False,
    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
    checkpoint_every: float = 30.0,
    progress: Progress = None,
) -> Findings:
    """Counts pairs (P, P ^ dp) under (K, K ^ dk) whose ciphertexts differ by
    dc in the bits of dc_mask, over ``queries`` queries with a fresh random
    tweakey every ``key_every``; ``shard=(i, n)`` runs the i-th of n parts.
    ``start_round=s`` runs rounds s .. s+rounds-1 at their own place (round
    s's constants and tweakey state); ``tk_at`` says whether keys and tweakey
    differences are given at the master tweakey or at round s.
    ``per_key=True`` counts every key's hits too (``Findings.per_key``;
    ``queries`` must then be a multiple of ``key_every``), for every
    experiment.

    ``cells`` adds a truncated difference, ANDed with the bits: 16 characters
    (cell 0 first, spaces allowed) of ``0`` (the cell's difference is zero),
    ``x`` (non-zero) or ``*`` (free), such as ``"0000 x000 **** 0000"``. With
    ``cells`` and no ``dc``, no bits are compared (``dc`` and ``dc_mask`` zero
    unless ``dc_mask`` is given); with ``dc``, ``dc_mask`` defaults to all bits
    as without a pattern. One of ``dc`` and ``cells`` is needed.

    ``checkpoint=PATH`` counts the shard in segments of about
    ``checkpoint_every`` seconds and keeps the findings so far in PATH
    (replaced atomically after each): called again with the same arguments
    after a death (a lost Ray worker, a killed job), it goes on from PATH, and
    returns exactly the findings of a run that never stopped; PATH is removed
    when the shard is done. A PATH of another run or version, or damaged, is
    refused (InputError) and left as it is. Every experiment takes both.

    ``progress=True`` shows a progress bar (tqdm where installed, else a line
    on stderr); a callable ``progress(done, total)`` is called about four times
    a second and at the end (an exception it raises stops the call). Every
    experiment takes ``progress``.
    """

def boomerang(
    cipher: str,
    rounds: int,
    dp: Hex,
    dc: Hex,
    *,
    queries: int,
    dk1: Optional[Hex] = None,
    dk2: Optional[Hex] = None,
    start_round: int = 1,
    tk_at: Literal["master", "start"] = "master",
    key_every: int = 4096,
    seed: int = 0,
    shard: Tuple[int, int] = (0, 1),
    show: int = 0,
    device: Device = "cpu",
    threads: Optional[int] = None,
    per_key: bool = False,
    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
    checkpoint_every: float = 30.0,
    progress: Progress = None,
) -> Findings:
    """Counts boomerang quartets that return with difference dp (related
    tweakeys dk1 above, dk2 below)."""

def differential_linear(
    cipher: str,
    rounds: int,
    dp: Hex,
    mask: Hex,
    *,
    queries: int,
    dk: Optional[Hex] = None,
    start_round: int = 1,
    tk_at: Literal["master", "start"] = "master",
    key_every: int = 4096,
    seed: int = 0,
    shard: Tuple[int, int] = (0, 1),
    show: int = 0,
    device: Device = "cpu",
    threads: Optional[int] = None,
    per_key: bool = False,
    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
    checkpoint_every: float = 30.0,
    progress: Progress = None,
) -> Findings:
    """Counts pairs (P, P ^ dp) under (K, K ^ dk) whose output difference has
    even parity under ``mask``: ``correlation`` = 2 hits / queries - 1, with
    its exact interval ``correlation_ci95``."""

def linear(
    cipher: str,
    rounds: int,
    in_mask: Hex,
    out_mask: Hex,
    *,
    queries: int,
    start_round: int = 1,
    tk_at: Literal["master", "start"] = "master",
    key_every: int = 4096,
    seed: int = 0,
    shard: Tuple[int, int] = (0, 1),
    show: int = 0,
    device: Device = "cpu",
    threads: Optional[int] = None,
    per_key: bool = False,
    checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
    checkpoint_every: float = 30.0,
    progress: Progress = None,
) -> Findings:
    """Counts plaintexts P with parity(in_mask & P) == parity(out_mask & C),
    C = E_K(P), one encryption a query: ``correlation`` = 2 hits / queries - 1
    with its exact interval ``correlation_ci95``. ``key_every >= queries``
    keeps one key (drawn from the seed) for the whole run: that key's
    correlation; small ``key_every`` averages over fresh keys. Kept hits
    (``right``) hold one P, C and K each. ``per_key=True`` adds the per-key
    correlations (``Findings.per_key``: mean c and the mean of c^2 over keys,
    each key's 1/Q bias removed), what the linear potential averaged over keys
    needs."""

def merge(parts: List[Findings]) -> Findings:
    """The exact merge of shards of one run."""

# The S-box tables: the typed, documented API is the Python module
# ``skinny.sbox``, which converts its arguments and calls these.

def sbox_values(name: str) -> Tuple[bytes, bytes]:
    """``(table, inverse)`` of ``"s4"`` or ``"s8"`` as bytes."""

def sbox_table(
    table: str,
    sbox: Union[str, List[int]],
    delta_in: Optional[int] = None,
    nabla_out: Optional[int] = None,
) -> npt.NDArray[Union[np.uint16, np.int32]]:
    """One table of the S-box (``uint16`` counts, ``int32`` signed tables), or a
    slice of the UBCT, LBCT or EBCT."""

def sbox_export(table: str, sbox: Union[str, List[int]], format: str) -> str:
    """The DDT, BCT, LAT or DLCT as ``"csv"``, ``"transitions"`` or ``"pla"`` text."""

# Key recovery: the typed, documented API is the Python module
# ``skinny.keyrecovery``, which converts its arguments and wraps these.

@final
class KeyCounter:
    def __init__(self, cipher: str, last_round: int, peeled: int, predicted: List[Tuple[int, int]]) -> None: ...
    @property
    def guessed(self) -> List[Tuple[int, int]]:
        """``[(round, cell), ...]``: the guessed round-tweakey cells, in a guess's order."""
    @property
    def guesses(self) -> int:
        """The number of guesses."""
    def guess_of(self, tweakey: Buffer) -> int:
        """The guess a master tweakey makes."""
    def count(self, first: U8Array, second: U8Array) -> npt.NDArray[np.uint32]:
        """The count of every guess (uint32, indexed by guess)."""

@final
class PartialDecryption:
    def __init__(self, cipher: str, last_round: int, peeled: int, targets: List[int]) -> None: ...
    @property
    def guessed(self) -> List[Tuple[int, int]]:
        """``[(round, cell), ...]``: the guessed round-tweakey cells."""
    @property
    def guesses(self) -> int:
        """The number of guesses."""
    def guess_of(self, tweakey: Buffer) -> int:
        """The guess a master tweakey makes."""
    def decrypt(self, ciphertexts: U8Array, start: int = 0, stop: Optional[int] = None) -> U8Array:
        """The target cells under guesses ``start .. stop``: shape (guesses, ciphertexts, targets)."""

def characteristic(
    cipher: str,
    states: Sequence[Hex],
    tweakey: Optional[Hex] = None,
    *,
    start_round: int = 1,
    tk_at: Literal["master", "start"] = "master",
    round_tweakeys: Optional[Sequence[Hex]] = None,
) -> dict:
    """The exact probability of a differential characteristic from the DDT.

    ``states`` are the r + 1 state differences (one block each, hex or
    bytes, cells row by row, two cells a byte with the even one high for
    SKINNY-64): before each of rounds start_round .. start_round + r - 1 and
    after the last. ``tweakey`` is the TK1 || TK2 || TK3 difference (zero by
    default) at the master tweakey or at the start round (``tk_at``); each
    round's tweakey difference is derived by the schedule, and
    ``round_tweakeys`` (half a block each), when given, are checked against
    it. Returns a dict: ``log2`` (``None`` when impossible), ``exact`` (e.g.
    ``"1/2^12"``), ``probability``, ``impossible`` (``None`` or ``{"round",
    "cell", "reason"}``: the first round that cannot happen) and ``rounds``
    (per round: ``sbox_input``, ``sbox_output``, ``round_tweakey`` in hex,
    ``active``, ``log2``, ``exact``). Raises :class:`skinny.InputError` for
    lengths or rounds out of range.
    """

def linear_characteristic(cipher: str, masks: Sequence[Hex], *, start_round: int = 1) -> dict:
    """The correlation of a linear characteristic from the LAT: ``masks``
    are the r + 1 masks (before each round, after the last). Returns the
    dict of :func:`characteristic` with ``correlation`` in place of
    ``probability``: the product of the LAT entries, whose sign the key and
    constant bits under the masks flip per key; ``log2`` is log2 |c|.
    """

def tweakey_schedule(
    cipher: str,
    tweakey: Hex,
    rounds: int,
    *,
    start_round: int = 1,
    tk_at: Literal["master", "start"] = "master",
) -> List[str]:
    """Every round's tweakey difference (the 8 cells of the first two rows,
    half a block in hex) for rounds start_round .. start_round + rounds - 1,
    from the tweakey difference ``tweakey`` through the tweakey schedule
    (the cell permutation, the LFSRs on TK2 and TK3)."""

def characteristic_experiment(
    cipher: str,
    states: Sequence[Hex],
    tweakey: Optional[Hex] = None,
    *,
    queries: int,
    key_every: int = 1,
    seed: int = 0,
    start_round: int = 1,
    tk_at: Literal["master", "start"] = "master",
    progress: Progress = None,
) -> dict:
    """Encrypts ``queries`` random pairs with the characteristic's input
    difference under random keys (a fresh one every ``key_every`` pairs)
    related by ``tweakey``, one round at a time on the CPU, and counts the
    pairs that follow the characteristic through every round prefix.
    Returns ``queries``, ``keys``, ``seconds`` and ``prefixes``: per prefix
    ``rounds``, ``last_round``, ``pairs``, ``log2_p``, ``ci95`` (the exact
    95 % interval in log2, its lower end ``None`` without a pair),
    ``predicted_log2`` (from the DDT; ``None`` from an impossible round on)
    and ``agrees`` (the prediction inside the 1 - 10^-6 interval).

    Ctrl-C stops the run at its next batch and raises ``KeyboardInterrupt``.
    ``progress``: ``True`` for a tqdm bar, or a callable ``progress(done,
    total)`` called a few times a second (its exception stops the run)."""
