"""Writing puzzles and grids back out: one line, or the seeds' boxed display."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .alphabet import symbol


def format_line(cells: Sequence[int] | np.ndarray, box: int, empty: str = ".") -> str:
    """Row-major one-line form, ``empty`` for an empty cell."""
    flat = np.asarray(cells).ravel()
    if box == 3 and empty == "0":
        return "".join(str(int(v)) for v in flat)
    return "".join(symbol(int(v), empty) for v in flat)


def format_boxed(cells: Sequence[int] | np.ndarray, box: int, empty: str = ".") -> str:
    """The seeds' display: rows of digits, ``|`` between boxes, a ``-`` rule between bands.

    For 9x9::

        9 . 2 | . . 5 | 4 . 3
        ...
        ------+-------+------
    """
    side = box * box
    flat = np.asarray(cells).ravel()
    lines = []
    rule = "-+-".join("-".join("-" for _ in range(box)) for _ in range(box))
    for r in range(side):
        if r and r % box == 0:
            lines.append(rule)
        parts = []
        for b in range(box):
            chunk = flat[r * side + b * box: r * side + (b + 1) * box]
            parts.append(" ".join(symbol(int(v), empty) for v in chunk))
        lines.append(" | ".join(parts))
    return "\n".join(lines)
