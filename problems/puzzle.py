"""The puzzle model: an immutable set of givens, and numpy grids for solvers.

A :class:`Puzzle` is what a solver is asked to solve; it never changes. Solvers work
on numpy grids (``puzzle.grid()`` gives a fresh ``(N, N)`` int array, 0 for empty),
and return one; the checker compares that grid with the puzzle.

A puzzle also reads its own one-line form (:meth:`Puzzle.from_string`) and builds
itself from located symbols (:meth:`Puzzle.from_symbols`), refusing a digit given twice
in a unit. Texts and files in their many layouts are :mod:`.parsing`'s job, which builds
on these two; this module never imports it, so the dependency runs one way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from .alphabet import value_of
from .errors import PuzzleFormatError
from .topology import Topology, box_for_cells, topology

#: Characters that only lay cells out on a line and carry none. ``-`` is not one: it is
#: an empty cell (see :mod:`.alphabet`); rules made only of dashes are recognised whole.
LAYOUT = frozenset(" \t|+\r")

_FIRST_FIELD = re.compile(r"\s*(\S*)")

#: Where a symbol was read: (line, column), both 1-based.
Where = tuple[int, int]


def line_symbols(text: str) -> list[tuple[str, int]]:
    """The cell symbols of a puzzle written on one line, with their 1-based columns.

    When the first whitespace-separated field alone holds n**4 symbols, the rest of the
    line is ignored (files such as top1465 append ratings); otherwise every character of
    the line but layout (spaces, ``|``, ``+``) is a cell, so a spaced-out grid reads too.
    """
    m = _FIRST_FIELD.match(text)
    lead, end = m.span(1)
    first = [(ch, i) for i, ch in enumerate(m.group(1), start=lead + 1) if ch not in LAYOUT]
    rest = text[end:]
    if rest.strip():  # trailing text: ignored after a first field of a puzzle's length
        if box_for_cells(len(first)) is not None:
            return first
    elif all(ch in LAYOUT for ch in text[:lead]) and all(ch in LAYOUT for ch in rest):
        return first  # the whole line is that field, as in every file of one puzzle a line
    return [(ch, i) for i, ch in enumerate(text, start=1) if ch not in LAYOUT]


def cell_value(token: str, side: int) -> int | None:
    """The digit a cell token stands for in a grid of side ``side``, None if unknown.

    A token is one symbol (``9``, ``G``, ``.``) or, in grids written as numbers separated
    by spaces or commas, a decimal number (``16``; ``0`` is empty).
    """
    if len(token) == 1:
        return value_of(token, side)
    if token.isascii() and token.isdigit() and int(token) <= side:
        return int(token)
    return None


@cache
def _symbol_values(side: int) -> dict[str, int]:
    """Every one-character symbol of a grid of side ``side`` and its digit (0 = empty):
    one dictionary look-up per cell, since files of thousands of puzzles are common."""
    table = {ch: v for ch in map(chr, range(128)) if (v := value_of(ch, side)) is not None}
    return table


@cache
def _cell_units(box: int) -> list[tuple[int, int, int]]:
    """(row, column, box) of every cell, as plain ints for the scan below."""
    side = box * box
    return [(r, c, (r // box) * box + c // box) for r in range(side) for c in range(side)]


def duplicate_given(values: Sequence[int], box: int) -> tuple[str, int, int, int] | None:
    """The first digit given twice in a unit, as (kind, unit number, first cell, second
    cell), or None. Cells are scanned in row-major order and the report names the
    second occurrence, where a reader scanning the text would notice the clash; at one
    cell a row clash is named before a column one, a column before a box.
    """
    side = box * box
    rows = [0] * side
    cols = [0] * side
    boxes = [0] * side
    units = _cell_units(box)
    for cell, v in enumerate(values):
        if not v:
            continue
        bit = 1 << v
        r, c, b = units[cell]
        if (rows[r] | cols[c] | boxes[b]) & bit:
            for kind, k, u in (("row", 0, r), ("column", 1, c), ("box", 2, b)):
                first = next((e for e in range(cell) if values[e] == v and units[e][k] == u), None)
                if first is not None:
                    return kind, u + 1, first, cell
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit
    return None


@dataclass(frozen=True)
class Puzzle:
    """Givens of an ``N x N`` Sudoku (box size ``box``), row-major, 0 for an empty cell.

    ``name`` is where it came from (``easy51:0``, ``file.txt:3``), for reports only.
    """

    box: int
    cells: tuple[int, ...]
    name: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        topo = topology(self.box)
        if len(self.cells) != topo.cells:
            raise ValueError(f"a box-{self.box} puzzle has {topo.cells} cells, got {len(self.cells)}")
        if self.cells and (min(self.cells) < 0 or max(self.cells) > topo.side):
            raise ValueError(f"cell values must be 0..{topo.side}")

    @classmethod
    def from_grid(cls, grid: np.ndarray | list, name: str | None = None) -> Puzzle:
        """A puzzle whose givens are the non-zero cells of ``grid`` (any shape with n**4 cells)."""
        flat = np.asarray(grid, dtype=np.int64).ravel()
        box = box_for_cells(flat.size)
        if box is None:
            raise ValueError(f"{flat.size} cells is not n**4 for n in 2..5")
        return cls(box, tuple(int(v) for v in flat), name)

    @classmethod
    def from_symbols(cls, tokens: Sequence[str], where: Sequence[Where], source: str = "<string>",
                     name: str | None = None) -> Puzzle:
        """A puzzle from its cell tokens in row-major order, each located by ``where``.

        Refuses, as :class:`PuzzleFormatError` at the offending symbol, a count that is
        not n**4, an unknown symbol and a digit given twice in a unit: an error a user
        can fix needs the line and column, which only the reader of the text knows.
        """
        n = len(tokens)
        box = box_for_cells(n)
        if box is None:
            line = where[0][0] if where else 1
            raise PuzzleFormatError(
                f"a puzzle has 16, 81, 256 or 625 cells (n**4), this line has {n}", source, line, 1)
        side = box * box
        table = _symbol_values(side)
        values = [table.get(t, -1) for t in tokens]
        if -1 in values:  # number tokens ("16"), else the first unknown symbol
            for i, token in enumerate(tokens):
                if values[i] < 0:
                    v = cell_value(token, side)
                    if v is None:
                        line, col = where[i]
                        raise PuzzleFormatError(f"unknown character {token!r} for a {side}x{side} grid",
                                                source, line, col)
                    values[i] = v
        clash = duplicate_given(values, box)
        if clash is not None:
            kind, unit, first, second = clash
            line, col = where[second]
            raise PuzzleFormatError(
                f"digit {values[second]} given twice in {kind} {unit} "
                f"(cells {first + 1} and {second + 1})", source, line, col)
        return cls(box, tuple(values), name)

    @classmethod
    def from_string(cls, text: str, name: str | None = None, *, source: str | None = None,
                    line: int = 1) -> Puzzle:
        """One puzzle written on one line (:func:`line_symbols`): n**4 symbols, row-major.

        Errors are located as ``SOURCE:LINE:COL`` (``source`` defaults to ``name``).
        """
        symbols = line_symbols(text)
        return cls.from_symbols([ch for ch, _ in symbols], [(line, col) for _, col in symbols],
                                source or name or "<string>", name)

    @classmethod
    def trusted(cls, box: int, cells: tuple[int, ...], name: str | None = None,
                line: str | None = None) -> Puzzle:
        """A puzzle from cells already checked (by :func:`.compact.decode`: in range, no
        digit given twice), without checking them again: the fast path of a large file.
        ``line``, when given, is its :meth:`to_line` form, encoded with the whole block
        (a campaign keeps every puzzle as its line: one by one, that cost 15 us each)."""
        puzzle = object.__new__(cls)
        puzzle.__dict__.update(box=box, cells=cells, name=name)  # frozen: no setattr
        if line is not None:
            puzzle.__dict__["_line"] = line  # not a field: equality and hash ignore it
        return puzzle

    def renamed(self, name: str | None) -> Puzzle:
        return Puzzle.trusted(self.box, self.cells, name, self.__dict__.get("_line"))

    @property
    def side(self) -> int:
        """N, the number of digits (9 for a classic Sudoku)."""
        return self.box * self.box

    @property
    def n_cells(self) -> int:
        return self.side * self.side

    @property
    def topology(self) -> Topology:
        return topology(self.box)

    @property
    def n_givens(self) -> int:
        return sum(1 for v in self.cells if v)

    @property
    def n_empty(self) -> int:
        return self.n_cells - self.n_givens

    def flat(self) -> np.ndarray:
        """A fresh flat int64 array of the givens (0 = empty)."""
        return np.array(self.cells, dtype=np.int64)

    def grid(self) -> np.ndarray:
        """A fresh ``(N, N)`` int64 array of the givens (0 = empty)."""
        return self.flat().reshape(self.side, self.side)

    def given_mask(self) -> np.ndarray:
        """``(N, N)`` bool array, True where a digit is given."""
        return self.grid() != 0

    def candidates(self, cell: int, grid: np.ndarray | None = None) -> list[int]:
        """Digits allowed in ``cell`` by its peers (the seeds' ``GetAvailableNumbers``)."""
        values = self.flat() if grid is None else np.asarray(grid).ravel()
        if values[cell]:
            return []
        used = set(int(v) for v in values[self.topology.peers[cell]])
        return [d for d in range(1, self.side + 1) if d not in used]

    def to_line(self) -> str:
        """One-line form (see :func:`sudoku_compare.problems.formatting.format_line`)."""
        line = self.__dict__.get("_line")
        if line is not None:
            return line
        from .formatting import format_line

        return format_line(self.cells, self.box)

    def __str__(self) -> str:
        return self.to_line()
