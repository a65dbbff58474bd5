"""Integer-cells encoding (the seed's canonical PSO, ``SudokuPsoChromosome``).

State: a real vector with one coordinate per free cell (row-major order of the free cells), in
the seed's bounds [1, N + 1). Nothing is valid by construction.

Initialisation: :func:`initial_state` draws each coordinate uniformly in [1, N + 1) with a seeded
``numpy.random.Generator`` (the seed's ``GenerateGene``).

Moves: none of its own; a continuous optimiser (velocity PSO, mealpy) moves the vector.
:func:`decode` rounds half to even (C#'s ``Math.Round``) and clamps to 1..N.

Objective: :func:`conflicts` = over every row, column and box, the number of cells whose digit
already appeared earlier in that unit (the seed's ``CountConflicts``, HashSet-based), i.e. the
sum over units and digits of max(count - 1, 0); 0 exactly on a solution. One call of
:func:`objective` (or one row of :func:`objective_batch`) is one evaluation.
"""

from __future__ import annotations

import numba
import numpy as np

from sudoku_compare.problems.puzzle import Puzzle


def free_cells(puzzle: Puzzle) -> np.ndarray:
    """Flat indices of the empty cells, the coordinates' order."""
    return np.flatnonzero(puzzle.flat() == 0).astype(np.int64)


def bounds(puzzle: Puzzle) -> tuple[float, float]:
    return 1.0, float(puzzle.side + 1)


def initial_state(puzzle: Puzzle, rng: np.random.Generator) -> np.ndarray:
    lo, hi = bounds(puzzle)
    return rng.uniform(lo, hi, size=puzzle.n_empty)


@numba.njit(cache=True)
def decode_into(grid, vector, free, n):
    for i in range(free.size):
        v = np.rint(vector[i])
        d = int(v)
        if d < 1:
            d = 1
        elif d > n:
            d = n
        grid[free[i]] = d


def decode(vector: np.ndarray, puzzle: Puzzle) -> np.ndarray:
    """The N×N grid: givens plus the rounded, clamped coordinates."""
    flat = puzzle.flat().astype(np.int64)
    decode_into(flat, np.asarray(vector, dtype=np.float64), free_cells(puzzle), puzzle.side)
    return flat.reshape(puzzle.side, puzzle.side)


@numba.njit(cache=True)
def grid_conflicts(flat, box):
    """Repeated digits over all rows, columns and boxes of a flat grid."""
    n = box * box
    seen = np.zeros(n + 1, dtype=np.int64)
    total = 0
    for kind in range(3):
        for u in range(n):
            seen[:] = 0
            for j in range(n):
                if kind == 0:
                    cell = u * n + j
                elif kind == 1:
                    cell = j * n + u
                else:
                    cell = ((u // box) * box + j // box) * n + (u % box) * box + j % box
                v = flat[cell]
                if seen[v]:
                    total += 1
                seen[v] = 1
    return total


def conflicts(grid: np.ndarray, box: int) -> int:
    return int(grid_conflicts(np.ascontiguousarray(grid, dtype=np.int64).ravel(), box))


@numba.njit(cache=True)
def objective_batch(vectors, givens, free, box):
    """Conflicts of each row of ``vectors`` (one evaluation each)."""
    n = box * box
    out = np.empty(vectors.shape[0], dtype=np.int64)
    grid = givens.copy()
    for k in range(vectors.shape[0]):
        decode_into(grid, vectors[k], free, n)
        out[k] = grid_conflicts(grid, box)
    return out


def objective(vector: np.ndarray, puzzle: Puzzle) -> int:
    """Conflicts of one vector: the plain function a library callback calls."""
    vectors = np.asarray(vector, dtype=np.float64).reshape(1, -1)
    return int(objective_batch(vectors, puzzle.flat().astype(np.int64), free_cells(puzzle),
                               puzzle.box)[0])
