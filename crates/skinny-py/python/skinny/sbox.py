"""Exact tables of SKINNY's S-boxes, or of any permutation of up to 8 bits.

``S4``, ``S8``, ``S4_INV``, ``S8_INV``: the S-boxes and their inverses as
read-only numpy ``uint8`` arrays (``S8[x]`` is S8(x)).

Every table function takes ``sbox``: ``"s4"``, ``"s8"``, or a permutation of
``0 .. 2**n - 1`` (n from 1 to 8) as a 1-D integer array, list or bytes. It
returns a numpy array indexed by differences and masks (shape ``(2**n,) *
rank``): ``uint16`` for counts, ``int32`` for signed tables. ``u . v`` below is
the parity of ``u & v``.

- :func:`ddt`: ``DDT[a, b] = #{x : S(x) ^ S(x ^ a) = b}``.
- :func:`lat`: ``LAT[a, b] = #{x : a . x = b . S(x)} - 2**(n-1)`` (signed:
  correlation ``LAT / 2**(n-1)``).
- :func:`bct`: ``BCT[di, no] = #{x : Si(S(x) ^ no) ^ Si(S(x ^ di) ^ no) = di}``.
- :func:`dlct`: ``DLCT[a, l] = #{x : l . S(x) = l . S(x ^ a)} - 2**(n-1)``.
- :func:`ubct`, :func:`lbct`, :func:`ebct`: the BCT's quartets split by the
  upper output difference, the lower input difference, or both.
- :func:`ddlct`: two S-box layers with a key between them.

The sources and the full definitions are in the Rust documentation of
``skinny_lab::tables`` and in docs/lab.md ("S-box tables"). The work runs
with the GIL released. :func:`export` writes a table as text for CP, SAT and
MILP tools.
"""

from __future__ import annotations

from typing import List, Literal, Optional, Union

import numpy as np
import numpy.typing as npt

from ._errors import InputError
from ._skinny import sbox_export as _export
from ._skinny import sbox_table as _table
from ._skinny import sbox_values as _values

#: An S-box argument: ``"s4"``, ``"s8"``, or a permutation (integer array, list
#: or bytes).
SboxLike = Union[str, bytes, bytearray, "npt.ArrayLike"]


def _constant(name: str, inverse: bool) -> npt.NDArray[np.uint8]:
    # np.frombuffer over bytes: a read-only array, so the module's constants
    # cannot be changed by accident.
    return np.frombuffer(_values(name)[int(inverse)], dtype=np.uint8)


#: SKINNY's 4-bit S-box (SKINNY-64): ``S4[x]`` = S4(x).
S4 = _constant("s4", False)
#: S4's inverse.
S4_INV = _constant("s4", True)
#: SKINNY's 8-bit S-box (SKINNY-128): ``S8[x]`` = S8(x).
S8 = _constant("s8", False)
#: S8's inverse.
S8_INV = _constant("s8", True)


def _sbox(sbox: SboxLike) -> Union[str, List[int]]:
    if isinstance(sbox, str):
        return sbox
    if isinstance(sbox, (bytes, bytearray)):
        return list(sbox)
    values = np.asarray(sbox)
    if values.ndim != 1 or not (np.issubdtype(values.dtype, np.integer) or values.size == 0):
        raise InputError(f"sbox must be \"s4\", \"s8\" or a 1-D integer array, not {values.ndim}-D {values.dtype}")
    return [int(v) for v in values]


def ddt(sbox: SboxLike) -> npt.NDArray[np.uint16]:
    """The difference distribution table ``DDT[a, b] = #{x : S(x) ^ S(x ^ a) = b}``
    (Biham and Shamir, CRYPTO 1990): uint16, shape (2**n, 2**n). A difference
    ``a`` becomes ``b`` with probability ``DDT[a, b] / 2**n``."""
    return _table("ddt", _sbox(sbox))


def lat(sbox: SboxLike) -> npt.NDArray[np.int32]:
    """The linear approximation table, signed: ``LAT[a, b] = #{x : a . x = b . S(x)}
    - 2**(n-1)`` (Matsui, EUROCRYPT 1993), ``u . v`` the parity of ``u & v``:
    int32, shape (2**n, 2**n). The correlation of ``a -> b`` is ``LAT[a, b] /
    2**(n-1)``; the squares of each row sum to ``2**(2n-2)``."""
    return _table("lat", _sbox(sbox))


def bct(sbox: SboxLike) -> npt.NDArray[np.uint16]:
    """The boomerang connectivity table (Cid et al., EUROCRYPT 2018):
    ``BCT[di, no] = #{x : Si(S(x) ^ no) ^ Si(S(x ^ di) ^ no) = di}``, ``Si`` the
    inverse: uint16, shape (2**n, 2**n). At least the DDT entrywise; row and
    column 0 are ``2**n``."""
    return _table("bct", _sbox(sbox))


def dlct(sbox: SboxLike) -> npt.NDArray[np.int32]:
    """The differential-linear connectivity table (Bar-On et al., EUROCRYPT
    2019): ``DLCT[a, l] = #{x : l . S(x) = l . S(x ^ a)} - 2**(n-1)``: int32,
    shape (2**n, 2**n); the correlation is ``DLCT / 2**(n-1)``."""
    return _table("dlct", _sbox(sbox))


def ddlct(sbox: SboxLike) -> npt.NDArray[np.int32]:
    """The double differential-linear connectivity table (Hadipour, Derbez and
    Eichlseder, CRYPTO 2024): two S-box layers with every key ``k`` between
    them, ``DDLCT[a, l] = #{(x, k) : l . S(S(x) ^ k) = l . S(S(x ^ a) ^ k)} -
    2**(2n-1) = sum_d DDT[a, d] * DLCT[d, l]``: int32, shape (2**n, 2**n); the
    key-averaged correlation is ``DDLCT / 2**(2n-1)`` (the authors' tool lists
    twice these values, divided by ``2**(2n)``)."""
    return _table("ddlct", _sbox(sbox))


def ubct(sbox: SboxLike, delta_in: Optional[int] = None) -> npt.NDArray[np.uint16]:
    """The upper boomerang connectivity table (Delaune, Derbez and Vavrille,
    ToSC 2020(4)): ``UBCT[di, do, no] = #{x : S(x) ^ S(x ^ di) = do and
    Si(S(x) ^ no) ^ Si(S(x ^ di) ^ no) = di}``: uint16, shape (2**n,) * 3
    (32 MiB for S8); summed over ``do`` it is the BCT. With ``delta_in`` only
    that slice, shape (2**n, 2**n) over ``(do, no)``."""
    return _table("ubct", _sbox(sbox), delta_in)


def lbct(sbox: SboxLike, delta_in: Optional[int] = None) -> npt.NDArray[np.uint16]:
    """The lower boomerang connectivity table (Delaune, Derbez and Vavrille,
    ToSC 2020(4)): ``LBCT[di, ni, no] = #{x : x ^ Si(S(x) ^ no) = ni and
    Si(S(x) ^ no) ^ Si(S(x ^ di) ^ no) = di}``: uint16, shape (2**n,) * 3
    (32 MiB for S8); summed over ``ni`` it is the BCT. With ``delta_in`` only
    that slice, shape (2**n, 2**n) over ``(ni, no)``."""
    return _table("lbct", _sbox(sbox), delta_in)


def ebct(sbox: SboxLike, delta_in: Optional[int] = None, nabla_out: Optional[int] = None) -> npt.NDArray[np.uint16]:
    """The extended boomerang connectivity table (Delaune, Derbez and Vavrille,
    ToSC 2020(4)): ``EBCT[di, do, ni, no]`` counts the x of the BCT's
    ``[di, no]`` with ``S(x) ^ S(x ^ di) = do`` and ``x ^ Si(S(x) ^ no) = ni``:
    uint16, shape (2**n,) * 4, up to 6-bit S-boxes (S8's would be 8 GiB). With
    ``delta_in`` and ``nabla_out`` (both) the slice over ``(do, ni)``, shape
    (2**n, 2**n), for any S-box."""
    return _table("ebct", _sbox(sbox), delta_in, nabla_out)


def export(
    sbox: SboxLike,
    table: Literal["ddt", "bct", "lat", "dlct"] = "ddt",
    format: Literal["csv", "transitions", "pla"] = "transitions",
) -> str:
    """A table as text for CP, SAT and MILP tools.

    ``format``: ``"csv"``, the matrix (one line per first index, entries
    separated by commas); ``"transitions"``, a CSV list
    ``input,output,entry,weight`` of the nonzero entries with weight
    ``-log2`` of the probability (DDT, BCT) or of the squared correlation
    (LAT, DLCT), four decimals; ``"pla"``, the transitions as a truth table in
    Berkeley PLA, the input of ESPRESSO, with the weights as one-hot variables
    ``p0 ..`` (sboxanalyzer's encoding: the header's comments list them)."""
    return _export(table, _sbox(sbox), format)


__all__ = ["S4", "S4_INV", "S8", "S8_INV", "ddt", "lat", "bct", "dlct", "ddlct", "ubct", "lbct", "ebct", "export"]
