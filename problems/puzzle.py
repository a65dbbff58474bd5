"""The puzzle model: an immutable set of givens, and numpy grids for solvers.

A :class:`Puzzle` is what a solver is asked to solve; it never changes. Solvers work
on numpy grids (``puzzle.grid()`` gives a fresh ``(N, N)`` int array, 0 for empty),
and return one; the checker compares that grid with the puzzle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .topology import Topology, box_for_cells, topology


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
        if any(not 0 <= v <= topo.side for v in self.cells):
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
    def from_string(cls, text: str, name: str | None = None) -> Puzzle:
        """Parse one puzzle line (see :mod:`sudoku_compare.problems.parsing`)."""
        from .parsing import parse_line

        puzzle = parse_line(text, source=name or "<string>")
        return puzzle if name is None else puzzle.renamed(name)

    def renamed(self, name: str | None) -> Puzzle:
        return Puzzle(self.box, self.cells, name)

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
        from .formatting import format_line

        return format_line(self.cells, self.box)

    def __str__(self) -> str:
        return self.to_line()
