"""Compact one-line puzzles (``003020600...``) decoded and encoded many at a time with numpy.

Nearly every puzzle a campaign touches is written this way: the public sets, the lines a
driver sends its workers, the grids they send back. Character by character in Python, a
9x9 line costs about 70 us to read and a grid about 40 us to write, more than
``native.bitmask`` takes to solve it, so a 49,000-line file took 3.5 s to open. Here a block
of lines is one byte array: a lookup table turns characters into digits, and a digit given
twice in a unit is found with a few whole-array operations. Anything this fast path does not accept
(an unknown character, a duplicate, a line of another shape) is left to the general reader
in :mod:`.parsing`, which locates the error by line and column, so there is one set of
rules and one set of messages.
"""

from __future__ import annotations

from functools import cache

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

    A digit ``d`` is the bit ``1 << d`` (an empty cell none); a unit holds a digit twice
    exactly when the sum of its bits differs from their OR. Whole arrays at once, no
    compiled kernel: this runs in the campaign driver, where loading a numba kernel (and
    LLVM with it) cost about 0.6 s before the first run could start; 20,000 lines take
    about 30 ms, one line about 12 us."""
    units = topology(box).units
    bits = np.left_shift(np.int64(1), grids[:, units].astype(np.int64)) & ~np.int64(1)
    return (bits.sum(axis=2) != np.bitwise_or.reduce(bits, axis=2)).any(axis=1)


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
