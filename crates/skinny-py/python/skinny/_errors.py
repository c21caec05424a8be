"""The exceptions of the ``skinny`` package: one hierarchy under :class:`SkinnyError`."""


class SkinnyError(Exception):
    """Base class of every error this package raises."""


class InputError(SkinnyError, ValueError):
    """Bad input: a wrong length, shape, dtype, name or parameter (also a ``ValueError``)."""


class AuthenticationError(SkinnyError):
    """A tag did not verify: the message is not authentic. Nothing of it is released."""


class PaddingError(InputError):
    """PKCS#7 padding did not check after decryption (wrong key or IV, or altered data)."""


class GpuUnavailableError(SkinnyError, RuntimeError):
    """No usable GPU: no driver, no device, no NVRTC, or a build without CUDA."""


class GpuFailureError(SkinnyError, RuntimeError):
    """A GPU was found but failed during the work (a driver or kernel error)."""


class UnsupportedError(SkinnyError, NotImplementedError):
    """A combination this package does not offer (e.g. per-block tweakeys on the GPU)."""


__all__ = [
    "SkinnyError",
    "InputError",
    "AuthenticationError",
    "PaddingError",
    "GpuUnavailableError",
    "GpuFailureError",
    "UnsupportedError",
]
