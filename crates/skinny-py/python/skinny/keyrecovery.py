"""Key recovery over the last rounds of reduced-round SKINNY.

A distinguisher over rounds ``1 .. R - d`` predicts differences in some cells
of the state after round ``R - d``. Undoing the last ``d`` rounds
(``peeled``) of ciphertext pairs under guessed round-tweakey cells reaches
those cells; the right guess shows the predicted differences in the right
pairs, a wrong one about as often as chance.

- :class:`KeyCounter`: for every guess, how many pairs ``(C, C')`` partially
  decrypt to the predicted differences (``predicted``: ``{cell: difference}``
  or ``[(cell, difference), ...]``); :func:`rank` and :func:`best` read the
  counts.
- :class:`PartialDecryption`: the target cells' values under a range of
  guesses.

Only the round-tweakey cells on the targets' paths are guessed (``guessed``:
``[(round, cell), ...]``, rounds from 1, cells 0 to 7 of the round tweakey);
guessed cell ``j`` holds ``(guess >> (w * j)) & (2**w - 1)``, ``w`` the cell
width (4 or 8 bits), so :func:`cells` spells a guess out. A target predicted
with difference 0 needs no key cell of the deepest undone round. The round
tweakeys are the XOR of TK1, TK2 and TK3's first two rows (the constants are
not guessed); ``guess_of(tweakey)`` gives the guess a known master tweakey
makes. Cells are numbered row by row from 0; in SKINNY-64 cell ``2i`` is the
high nibble of byte ``i``.

Ciphertexts are C-contiguous uint8 arrays of shape ``(n, block)`` (or any
shape holding whole blocks). The work runs without the GIL, on every core,
and stops at Ctrl-C (``KeyboardInterrupt``). The method is in docs/lab.md
("Key recovery").
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Mapping, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._errors import InputError
from ._skinny import KeyCounter as _KeyCounter
from ._skinny import PartialDecryption as _PartialDecryption

Predicted = Union[Mapping[int, int], Iterable[Tuple[int, int]]]


def _blocks(name: str, x: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    if isinstance(x, (bytes, bytearray, memoryview)):
        return np.frombuffer(bytes(x), dtype=np.uint8)
    a = np.asarray(x)
    if a.dtype != np.uint8:
        raise InputError(f"{name} must be a uint8 array, not {a.dtype}")
    return np.ascontiguousarray(a)


class KeyCounter:
    """Counts, for every guess of the round-tweakey cells involved, the
    ciphertext pairs whose last ``peeled`` rounds undone show ``predicted``
    (``{cell: difference}`` of the state after round ``last_round -
    peeled``). ``cipher``: ``"skinny-64-64"`` .. ``"skinny-128-384"``;
    ``last_round``: the cipher's last round (reduced-round: below the full
    count); ``peeled``: 1 to 3."""

    def __init__(self, cipher: str, last_round: int, peeled: int, predicted: Predicted):
        items = predicted.items() if isinstance(predicted, Mapping) else predicted
        pairs = [(int(c), int(d)) for c, d in items]
        if any(c < 0 or d < 0 for c, d in pairs):
            raise InputError("cells and differences must be at least 0")
        self._inner = _KeyCounter(cipher, int(last_round), int(peeled), pairs)

    @property
    def guessed(self) -> List[Tuple[int, int]]:
        """The guessed cells ``[(round, cell), ...]``, in a guess's order."""
        return self._inner.guessed

    @property
    def guesses(self) -> int:
        """The number of guesses."""
        return self._inner.guesses

    def guess_of(self, tweakey: bytes) -> int:
        """The guess a master tweakey (TK1 ‖ TK2 ‖ TK3) makes."""
        return self._inner.guess_of(tweakey)

    def count(self, first: npt.ArrayLike, second: npt.ArrayLike) -> npt.NDArray[np.uint32]:
        """The count of every guess (uint32, indexed by guess) over the pairs
        ``(first[i], second[i])``."""
        return self._inner.count(_blocks("first", first), _blocks("second", second))


class PartialDecryption:
    """The last ``peeled`` rounds undone as far as the cells ``targets`` of
    the state after round ``last_round - peeled``, every round-tweakey cell
    on their paths guessed."""

    def __init__(self, cipher: str, last_round: int, peeled: int, targets: Iterable[int]):
        cells = [int(c) for c in targets]
        if any(c < 0 for c in cells):
            raise InputError("cells must be at least 0")
        self._inner = _PartialDecryption(cipher, int(last_round), int(peeled), cells)

    @property
    def guessed(self) -> List[Tuple[int, int]]:
        """The guessed cells ``[(round, cell), ...]``, in a guess's order."""
        return self._inner.guessed

    @property
    def guesses(self) -> int:
        """The number of guesses."""
        return self._inner.guesses

    def guess_of(self, tweakey: bytes) -> int:
        """The guess a master tweakey (TK1 ‖ TK2 ‖ TK3) makes."""
        return self._inner.guess_of(tweakey)

    def decrypt(self, ciphertexts: npt.ArrayLike, start: int = 0, stop: int = None) -> npt.NDArray[np.uint8]:
        """The target cells of every ciphertext under guesses ``start ..
        stop`` (all by default): uint8 of shape (guesses, ciphertexts,
        targets), one cell a byte."""
        if start < 0 or (stop is not None and stop < 0):
            raise InputError("start and stop must be at least 0")
        return self._inner.decrypt(_blocks("ciphertexts", ciphertexts), int(start), None if stop is None else int(stop))


def rank(counts: npt.ArrayLike, guess: int) -> Tuple[int, int]:
    """``(rank, ties)`` of ``guess``: 1 + the guesses counted higher, and the
    other guesses counted the same."""
    c = np.asarray(counts)
    if not 0 <= guess < c.size:
        raise InputError(f"guesses run from 0 to {c.size - 1}, not {guess}")
    mine = c[guess]
    return int(np.count_nonzero(c > mine)) + 1, int(np.count_nonzero(c == mine)) - 1


def best(counts: npt.ArrayLike, n: int = 10) -> List[Tuple[int, int]]:
    """The ``n`` guesses counted highest, as ``(guess, count)``, highest
    first (ties by the lower guess)."""
    c = np.asarray(counts)
    order = np.lexsort((np.arange(c.size), -c.astype(np.int64)))[: max(int(n), 0)]
    return [(int(g), int(c[g])) for g in order]


def cells(counter: Union[KeyCounter, PartialDecryption], guess: int) -> Dict[Tuple[int, int], int]:
    """The value of every guessed cell in ``guess``: ``{(round, cell): value}``."""
    width = 4 if counter.guesses == 1 << (4 * len(counter.guessed)) else 8
    mask = (1 << width) - 1
    return {rc: (guess >> (width * j)) & mask for j, rc in enumerate(counter.guessed)}


__all__ = ["KeyCounter", "PartialDecryption", "rank", "best", "cells"]
