"""Writing puzzles and grids back out: one line, or the seeds' boxed display."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .alphabet import symbol
from .compact import encode


def format_line(cells: Sequence[int] | np.ndarray, box: int, empty: str = ".") -> str:
    """Row-major one-line form, ``empty`` for an empty cell (``box`` is implied by the
    number of cells; it stays in the signature for the callers that pass it)."""
    return encode(cells, empty)


def format_boxed(cells: Sequence[int] | np.ndarray, box: int, empty: str = ".") -> str:
    """The seeds' display (the Python notebooks' ``print(grid)``): ``|`` between boxes,
    a rule of ``-`` as long as a row between bands.

    For 9x9::

        9 . 2 | . . 5 | 4 . 3
        1 . . | . 6 3 | . 2 5
        5 . 8 | 4 . 7 | . 6 .
        ---------------------
        ...
    """
    side = box * box
    flat = np.asarray(cells).ravel()
    rows = []
    for r in range(side):
        parts = []
        for b in range(box):
            chunk = flat[r * side + b * box: r * side + (b + 1) * box]
            parts.append(" ".join(symbol(int(v), empty) for v in chunk))
        rows.append(" | ".join(parts))
    lines = []
    for r, row in enumerate(rows):
        if r and r % box == 0:
            lines.append("-" * len(row))
        lines.append(row)
    return "\n".join(lines)


def format_framed(cells: Sequence[int] | np.ndarray, box: int) -> str:
    """The C# notebooks' display: a framed grid, each cell three wide, empty cells blank.

    For 9x9::

        -------------------------------
        | 9     2 |       5 | 4     3 |
        ...
    """
    side = box * box
    flat = np.asarray(cells).ravel()
    rule = "-" * (box * (3 * box + 1) + 1)
    lines = [rule]
    for r in range(side):
        parts = []
        for b in range(box):
            chunk = flat[r * side + b * box: r * side + (b + 1) * box]
            parts.append("".join(f" {symbol(int(v), ' ')} " for v in chunk))
        lines.append("|" + "|".join(parts) + "|")
        if (r + 1) % box == 0:
            lines.append(rule)
    return "\n".join(lines)
