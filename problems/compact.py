"""Compact one-line puzzles (``003020600...``) decoded and encoded many at a time with numpy.

Nearly every puzzle a campaign touches is written this way: the public sets, the lines a
driver sends its workers, the grids they send back. Character by character in Python, a
9x9 line costs about 70 us to read and a grid about 40 us to write, more than
``native.bitmask`` takes to solve it, so a 49,000-line file took 3.5 s to open. Here a block
of lines is one byte array: a lookup table turns characters into digits, and a digit given
twice in a unit is found by one compiled pass setting a bit per digit seen. Anything this fast path does not accept
(an unknown character, a duplicate, a line of another shape) is left to the general reader
in :mod:`.parsing`, which locates the error by line and column, so there is one set of
rules and one set of messages.
"""

from __future__ import annotations

from functools import cache

import numba
import numpy as np

from .alphabet import DIGITS, EMPTY_SYMBOLS
from .topology import MAX_BOX, MIN_BOX, topology

#: Cell counts of a puzzle on one line, and their box sizes.
BOX_OF_CELLS = {b ** 4: b for b in range(MIN_BOX, MAX_BOX + 1)}


@cache
def _decode_table(side: int) -> np.ndarray:
    """Byte -> digit for a grid of side ``side`` (0 empty, -1 not a symbol of that grid)."""
    table = np.full(256, -1, dtype=np.int16)
    for ch in EMPTY_SYMBOLS:
        table[ord(ch)] = 0
    for value, ch in enumerate(DIGITS[:side], start=1):
        table[ord(ch)] = value
        table[ord(ch.lower())] = value
    return table


@cache
def _encode_table(empty: str) -> bytes:
    """Digit -> byte, ``empty`` for 0, for :meth:`bytes.translate`."""
    return (empty + DIGITS).encode().ljust(256, b"?")


def decode(lines: list[str], box: int) -> np.ndarray | None:
    """The ``(len(lines), box**4)`` int8 digits of compact lines, or None when any line is
    not a valid compact puzzle of that box size (a wrong length, an unknown symbol, a digit
    given twice in a unit): the caller then reads them the slow way, which says why."""
    cells = box ** 4
    if not lines:
        return np.zeros((0, cells), dtype=np.int8)
    try:
        raw = "".join(lines).encode("ascii")
    except UnicodeEncodeError:
        return None
    if len(raw) != cells * len(lines):
        return None
    values = _decode_table(box * box)[np.frombuffer(raw, dtype=np.uint8)]
    if values.min() < 0:
        return None
    grids = values.reshape(len(lines), cells).astype(np.int8)
    if has_duplicate_given(grids, box).any():
        return None
    return grids


def has_duplicate_given(grids: np.ndarray, box: int) -> np.ndarray:
    """Per row of ``grids`` (n, cells): whether some digit appears twice in one unit.

    One compiled pass over the units of each grid (a bit per digit seen), so one line costs
    about a microsecond: a worker reads every puzzle it is sent, and the dozen array
    operations this was before cost it about 15 us a run."""
    return _duplicate_in_a_unit(np.ascontiguousarray(grids), topology(box).units)


@numba.njit(cache=True)
def _duplicate_in_a_unit(grids, units):
    out = np.zeros(grids.shape[0], dtype=np.bool_)
    for g in range(grids.shape[0]):
        for u in range(units.shape[0]):
            seen = np.int64(0)
            for k in range(units.shape[1]):
                d = np.int64(grids[g, units[u, k]])
                if d > 0:
                    bit = np.int64(1) << d
                    if seen & bit:
                        out[g] = True
                        break
                    seen |= bit
            if out[g]:
                break
    return out


def decode_grid(line: str) -> np.ndarray | None:
    """One grid line (as :meth:`Outcome.grid_line` writes it: conflicts allowed) as a flat
    int64 array, or None if it is not n**4 symbols of one grid."""
    box = BOX_OF_CELLS.get(len(line))
    if box is None:
        return None
    try:
        raw = line.encode("ascii")
    except UnicodeEncodeError:
        return None
    values = _decode_table(box * box)[np.frombuffer(raw, dtype=np.uint8)]
    if values.min() < 0:
        return None
    return values.astype(np.int64)


def encode(values: np.ndarray, empty: str = ".") -> str:
    """A flat array of digits as one line (``empty`` for 0, ``?`` for a value that is no
    digit 0..35, so a buggy grid keeps its length and is never mistaken for a digit)."""
    flat = np.asarray(values).ravel().astype(np.int64)
    flat = np.where((flat >= 0) & (flat <= len(DIGITS)), flat, 255)
    return flat.astype(np.uint8).tobytes().translate(_encode_table(empty)).decode("ascii")
