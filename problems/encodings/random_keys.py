"""Random keys: a continuous vector in [0, 1)^k that decodes to a row-permutation grid.

Why: continuous optimisers (mealpy's PSO) need a real vector, and the seed material gave
them one key per empty cell. A row is decoded by ranking the keys of its empty cells and
giving them the row's missing digits in rank order (the smallest key gets the smallest
missing digit), so every decoded row is a permutation and the objective only has to
count column and box conflicts, exactly as the row-permutation encoding does.

The objective is the row-permutation encoding's own kernel (``row_permutation.energy``,
the duplicates in columns and boxes) on the decoded grid; on a grid with full rows it
equals the seeds' ``NbErrors``. :func:`keys_energy` is that objective as one compiled
function, so a library adapter (through :meth:`RandomKeys.energy`) and a native compiled
loop (``native.pso-random-keys``, calling it directly) run the same kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from sudoku_compare.problems.encodings import row_permutation
from sudoku_compare.problems.puzzle import Puzzle


@numba.njit(cache=True)
def _decode(keys, base, empty, row_start, missing):
    """Fill ``empty`` cells of ``base`` row by row; row r owns empty[row_start[r]:row_start[r+1]]."""
    grid = base.copy()
    for r in range(row_start.size - 1):
        lo, hi = row_start[r], row_start[r + 1]
        if hi > lo:
            order = np.argsort(keys[lo:hi], kind="mergesort")  # stable: ties keep cell order
            for rank in range(hi - lo):
                grid[empty[lo + order[rank]]] = missing[lo + rank]
    return grid


@numba.njit(cache=True)
def keys_energy(keys, base, empty, row_start, missing, box):
    """Conflicts (column and box duplicates) of the grid ``keys`` decode to."""
    n = box * box
    return row_permutation.energy(_decode(keys, base, empty, row_start, missing).reshape(n, n),
                                  box)


@dataclass(frozen=True)
class RandomKeys:
    """The decoder for one puzzle: ``k = puzzle.n_empty`` keys, grouped by row."""

    puzzle: Puzzle
    #: empty cells in row-major order (key i belongs to cell empty[i])
    empty: np.ndarray
    #: row r's keys are keys[row_start[r]:row_start[r+1]]
    row_start: np.ndarray
    #: missing digits of each row, sorted, aligned with ``empty``
    missing: np.ndarray

    @classmethod
    def for_puzzle(cls, puzzle: Puzzle) -> RandomKeys:
        base = puzzle.flat()
        n = puzzle.side
        empty, row_start, missing = [], [0], []
        for r in range(n):
            row = base[r * n:(r + 1) * n]
            cells = [r * n + c for c in range(n) if row[c] == 0]
            digits = sorted(set(range(1, n + 1)) - {int(v) for v in row if v})
            empty += cells
            missing += digits
            row_start.append(len(empty))
        as_int = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
        return cls(puzzle, as_int(empty), as_int(row_start), as_int(missing))

    @property
    def dimensions(self) -> int:
        return int(self.empty.size)

    def decode(self, keys) -> np.ndarray:
        """The flat grid the keys stand for (givens kept, each row a permutation)."""
        k = np.asarray(keys, dtype=np.float64)
        if k.shape != (self.dimensions,):
            raise ValueError(f"expected {self.dimensions} keys, got shape {k.shape}")
        return _decode(k, self.puzzle.flat(), self.empty, self.row_start, self.missing)

    def energy(self, keys) -> float:
        """Conflicts of the decoded grid (the objective a continuous optimiser minimises)."""
        k = np.asarray(keys, dtype=np.float64)
        if k.shape != (self.dimensions,):
            raise ValueError(f"expected {self.dimensions} keys, got shape {k.shape}")
        return float(keys_energy(k, self.puzzle.flat(), self.empty, self.row_start,
                                 self.missing, self.puzzle.box))

    def random_keys(self, rng: np.random.Generator) -> np.ndarray:
        return rng.random(self.dimensions)

    def random_swarm(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` key vectors, one per row, uniform in [0, 1): the start swarm that a
        native PSO and a library given the same seed share (the same draws, in order)."""
        return rng.random((size, self.dimensions))

    def encode(self, grid) -> np.ndarray:
        """Keys that decode to ``grid`` (whose rows must be permutations keeping the givens)."""
        flat = np.asarray(grid, dtype=np.int64).ravel()
        keys = np.empty(self.dimensions)
        for r in range(self.row_start.size - 1):
            lo, hi = int(self.row_start[r]), int(self.row_start[r + 1])
            digits = list(self.missing[lo:hi])
            for j in range(lo, hi):
                rank = digits.index(int(flat[self.empty[j]]))
                keys[j] = (rank + 0.5) / max(1, hi - lo)
        return keys
