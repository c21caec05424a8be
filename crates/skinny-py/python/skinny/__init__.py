"""SKINNY for Python: the tweakable block ciphers, their modes, SKINNY-AEAD,
Romulus, SKINNY-Hash, the many-message engine, a cryptanalysis lab and
training data for neural distinguishers, on the Rust crates of the `skinny`
workspace (constant-time bitsliced CPU code; NVIDIA GPUs where asked).

Arrays are numpy ``uint8``; bytes are ``bytes``, ``bytearray`` or any buffer. Every
error is a :class:`SkinnyError`. The work runs with the GIL released.

The block modes (ECB, CBC, CTR, CFB, OFB) are unauthenticated: use an AEAD
(:func:`aead_encrypt`) for anything that needs integrity. Reduced-round
ciphers (``rounds=``) are for cryptanalysis only.
"""

from ._errors import (
    AuthenticationError,
    GpuFailureError,
    GpuUnavailableError,
    InputError,
    PaddingError,
    SkinnyError,
    UnsupportedError,
)
from ._skinny import (
    __version__,
    aead_decrypt,
    aead_encrypt,
    aead_lengths,
    built_with_cuda,
    decrypt,
    encrypt,
    gpus,
    hash,
    Hasher,
    many_open,
    many_seal,
    mode_decrypt,
    mode_encrypt,
    neural_pairs,
    to_device,
)
from . import _skinny as _native
# Debug and test hooks (not public API): a DLPack capsule as parsed here, and
# the device pointers the last GPU call read and wrote.
from ._skinny import _dlpack_info, _gpu_last_pointers
from . import _skinny, keyrecovery, lab, sbox

#: Arrays left in GPU memory (``device="gpu"`` results); None in a build
#: without GPU support.
DeviceArray = getattr(_native, "DeviceArray", None)

#: The cipher names :func:`encrypt` takes, with (block, tweakey) lengths in bytes
#: and the full round count.
VARIANTS = {
    "skinny-64-64": (8, 8, 32),
    "skinny-64-128": (8, 16, 36),
    "skinny-64-192": (8, 24, 40),
    "skinny-128-128": (16, 16, 40),
    "skinny-128-256": (16, 32, 48),
    "skinny-128-384": (16, 48, 56),
}

#: The AEAD schemes of :func:`aead_encrypt` (the library's names).
AEAD_SCHEMES = _skinny.AEAD_SCHEMES

#: The schemes of the many-message engine (:func:`many_seal`).
MANY_SCHEMES = _skinny.MANY_SCHEMES

#: Every name the shared schemes go by: each one's name and its short name
#: (``"skinny-aead-m1"`` and ``"m1"``), as ``skinny seal --aead`` takes them too.
SCHEME_NAMES = _skinny.SCHEME_NAMES

#: The hash functions of :func:`hash` and :class:`Hasher`, the default (Romulus-H, as
#: ``skinny hash`` on the command line) first.
HASHES = ("romulus-h", "skinny-tk3-hash", "skinny-tk2-hash")

#: The block modes of :func:`mode_encrypt`.
MODES = ("ecb", "cbc", "ctr", "cfb", "ofb")

# ``hash`` is left out of ``__all__``: ``from skinny import *`` must not
# shadow the builtin ``hash``; ``skinny.hash`` is there as an attribute.
__all__ = [
    "SkinnyError",
    "InputError",
    "AuthenticationError",
    "PaddingError",
    "GpuUnavailableError",
    "GpuFailureError",
    "UnsupportedError",
    "__version__",
    "encrypt",
    "decrypt",
    "mode_encrypt",
    "mode_decrypt",
    "aead_encrypt",
    "aead_decrypt",
    "aead_lengths",
    "Hasher",
    "many_seal",
    "many_open",
    "neural_pairs",
    "to_device",
    "DeviceArray",
    "built_with_cuda",
    "gpus",
    "keyrecovery",
    "lab",
    "sbox",
    "VARIANTS",
    "AEAD_SCHEMES",
    "MANY_SCHEMES",
    "SCHEME_NAMES",
    "HASHES",
    "MODES",
]
