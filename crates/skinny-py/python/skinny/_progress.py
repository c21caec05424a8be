"""Progress of long calls: what ``progress=`` of a lab run, ``encrypt``,
``neural_pairs`` or ``many_seal`` becomes.

``progress`` is ``None`` or ``False`` (silent, the default), a callable
``progress(done, total)`` (called from the calling thread about four times a
second while the work runs, and once at the end; an exception it raises stops
the work, as Ctrl-C does, and is raised by the call), or ``True``: a tqdm bar
(``tqdm.auto``, so notebooks get their widget) when tqdm is installed, else a
line on stderr rewritten in place.
"""

import sys


def reporter(progress, unit, what):
    """The callable the extension calls for ``progress``, or None."""
    if progress is None or progress is False:
        return None
    if progress is True:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            return _Line(unit, what)
        return _Bar(tqdm, unit, what)
    if callable(progress):
        return progress
    raise TypeError("progress must be None, True or a callable progress(done, total)")


class _Bar:
    """A tqdm bar made on the first report, when the total is known."""

    def __init__(self, tqdm, unit, what):
        self._tqdm = tqdm
        self._unit = unit
        self._what = what
        self._bar = None

    def __call__(self, done, total):
        if self._bar is None:
            self._bar = self._tqdm(total=total, unit=self._unit, unit_scale=True, desc=self._what)
        self._bar.total = total
        self._bar.update(done - self._bar.n)

    def close(self):
        if self._bar is not None:
            self._bar.close()


class _Line:
    """Without tqdm: one line on stderr, rewritten in place."""

    def __init__(self, unit, what):
        self._unit = unit
        self._what = what
        self._shown = False

    def __call__(self, done, total):
        share = 100.0 * done / total if total else 100.0
        sys.stderr.write(f"\r{self._what}: {done}/{total} {self._unit} ({share:.1f} %)")
        sys.stderr.flush()
        self._shown = True

    def close(self):
        if self._shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
