"""Box-permutation encoding (the seed's PSO swarm, ``MatrixHelperPSO``).

State: an N×N int64 grid in which every box holds a permutation of 1..N: the givens stay where
they are and the free cells of each box hold the box's missing digits. Boxes are therefore always
valid; only rows and columns can be wrong.

Initialisation: :func:`initial_state` (one grid) and :func:`initial_population` (many) shuffle
each box's missing digits with a seeded ``numpy.random.Generator`` (the seed's ``RandomMatrix``).

Moves: :func:`random_box_swap` picks a box with at least two free cells and two distinct free
cells in it (the seed's ``NeighborMatrix``); :func:`swap_delta` gives the change of the error for
that swap from the two rows and two columns it touches, property-tested equal to recomputation.
:func:`merge` takes each box from one parent or the other with probability 1/2 (the seed's
``MergeMatrices``).

Objective: :func:`error` = number of digits missing from each row plus from each column (the
seed's ``SudokuPSO.Error``: ``CountErrors(rows) + CountErrors(columns)``), 0 exactly on a solution.
One call of :func:`error` or :func:`swap_delta` is one evaluation for the shared counter.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numba
import numpy as np

from sudoku_compare.problems.encodings.array_copy import copy2d
from sudoku_compare.problems.puzzle import Puzzle


@dataclass(frozen=True)
class BoxLayout:
    """Free cells of each box, as flat indices: ``cells[b, :n_free[b]]``."""

    box: int
    cells: np.ndarray
    n_free: np.ndarray

    @classmethod
    def for_puzzle(cls, puzzle: Puzzle) -> BoxLayout:
        n = puzzle.side
        free = puzzle.flat() == 0
        cells = np.full((n, n), -1, dtype=np.int64)
        n_free = np.zeros(n, dtype=np.int64)
        for r in range(n):
            for c in range(n):
                if free[r * n + c]:
                    b = (r // puzzle.box) * puzzle.box + c // puzzle.box
                    cells[b, n_free[b]] = r * n + c
                    n_free[b] += 1
        return cls(puzzle.box, cells, n_free)


@lru_cache(maxsize=64)
def layout_of(puzzle: Puzzle) -> BoxLayout:
    return BoxLayout.for_puzzle(puzzle)


@lru_cache(maxsize=8)
def checked_units(box: int) -> np.ndarray:
    """``(2, N*N)``: each cell's row and column, the units a box swap can put in conflict (the
    table :mod:`~sudoku_compare.problems.encodings.unit_swap` scores swaps with)."""
    n = box * box
    return np.stack(np.divmod(np.arange(n * n, dtype=np.int64), n))


def _missing_digits(puzzle: Puzzle) -> list[np.ndarray]:
    """Per box, the digits its givens leave out, ascending."""
    n, k = puzzle.side, puzzle.box
    grid = puzzle.grid()
    out = []
    for b in range(n):
        r0, c0 = (b // k) * k, (b % k) * k
        present = set(int(v) for v in grid[r0:r0 + k, c0:c0 + k].ravel() if v)
        out.append(np.array([d for d in range(1, n + 1) if d not in present], dtype=np.int64))
    return out


def initial_population(puzzle: Puzzle, rng: np.random.Generator, size: int) -> np.ndarray:
    """``size`` grids (size, N, N) whose boxes are random permutations of their missing digits.

    One ``rng.permuted`` call per box shuffles that box for every grid at once (a swarm of 200
    is drawn in well under a millisecond)."""
    n = puzzle.side
    layout = layout_of(puzzle)
    grids = np.tile(puzzle.flat().astype(np.int64), (size, 1))
    for b, missing in enumerate(_missing_digits(puzzle)):
        m = int(layout.n_free[b])
        if m:
            grids[:, layout.cells[b, :m]] = rng.permuted(np.tile(missing, (size, 1)), axis=1)
    return grids.reshape(size, n, n)


def initial_state(puzzle: Puzzle, rng: np.random.Generator) -> np.ndarray:
    """A grid whose boxes are random permutations of their missing digits (givens kept)."""
    return initial_population(puzzle, rng, 1)[0]


@numba.njit(cache=True)
def error(state, box):
    """Digits missing from every row plus from every column."""
    n = box * box
    total = 0
    seen = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        seen[:] = 0
        for j in range(n):
            seen[state[i, j]] = 1
        total += n - seen[1:].sum()
        seen[:] = 0
        for j in range(n):
            seen[state[j, i]] = 1
        total += n - seen[1:].sum()
    return total


@numba.njit(cache=True)
def swap_delta(state, r1, c1, r2, c2, box):
    """Change of :func:`error` if cells (r1, c1) and (r2, c2) exchanged their digits.

    Counts ``a`` and ``b`` in the two rows and the two columns with plain index loops (no
    slices: that made it about 1.5x faster than the slice version, which this equals)."""
    n = box * box
    a = state[r1, c1]
    b = state[r2, c2]
    if a == b:
        return 0
    d = 0
    if r1 != r2:
        ca = 0
        cb = 0
        cb2 = 0
        ca2 = 0
        for j in range(n):
            v = state[r1, j]
            ca += v == a
            cb += v == b
            v = state[r2, j]
            cb2 += v == b
            ca2 += v == a
        d += (ca == 1) - (cb == 0) + (cb2 == 1) - (ca2 == 0)
    if c1 != c2:
        ca = 0
        cb = 0
        cb2 = 0
        ca2 = 0
        for j in range(n):
            v = state[j, c1]
            ca += v == a
            cb += v == b
            v = state[j, c2]
            cb2 += v == b
            ca2 += v == a
        d += (ca == 1) - (cb == 0) + (cb2 == 1) - (ca2 == 0)
    return d


@numba.njit(cache=True)
def apply_swap(state, r1, c1, r2, c2):
    t = state[r1, c1]
    state[r1, c1] = state[r2, c2]
    state[r2, c2] = t


def random_box_swap(rng: np.random.Generator, layout: BoxLayout) -> tuple[int, int, int, int]:
    """(r1, c1, r2, c2): two distinct free cells of one box that has at least two."""
    boxes = np.flatnonzero(layout.n_free >= 2)
    if boxes.size == 0:
        raise ValueError("no box has two free cells")
    b = int(boxes[rng.integers(boxes.size)])
    m = int(layout.n_free[b])
    i = int(rng.integers(m))
    j = (i + int(rng.integers(1, m))) % m  # the seed's k2 = (k1 + inc) % count
    n = layout.box * layout.box
    x, y = int(layout.cells[b, i]), int(layout.cells[b, j])
    return x // n, x % n, y // n, y % n


@numba.njit(cache=True)
def merge_boxes(first, second, take_second, box):
    """A copy of ``first`` in which box ``b`` comes from ``second`` where ``take_second[b]``."""
    child = first.copy()
    n = box * box
    for b in range(n):
        if take_second[b]:
            r0 = (b // box) * box
            c0 = (b % box) * box
            copy2d(child[r0:r0 + box, c0:c0 + box], second[r0:r0 + box, c0:c0 + box])
    return child


def merge(first: np.ndarray, second: np.ndarray, rng: np.random.Generator, box: int) -> np.ndarray:
    """The seed's ``MergeMatrices``: each box from ``second`` with probability 1/2."""
    return merge_boxes(first, second, rng.random(box * box) < 0.5, box)


def is_box_permutation(state: np.ndarray, puzzle: Puzzle) -> bool:
    """Every box holds 1..N once and every given is kept."""
    n, k = puzzle.side, puzzle.box
    givens = puzzle.grid()
    if np.any((givens != 0) & (state != givens)):
        return False
    for b in range(n):
        r0, c0 = (b // k) * k, (b % k) * k
        if sorted(state[r0:r0 + k, c0:c0 + k].ravel().tolist()) != list(range(1, n + 1)):
            return False
    return True


@numba.njit(cache=True)
def line_counts(state, box):
    """``(row_counts, col_counts)``, each ``(N, N + 1)``: how often each digit sits in each row
    and column. With them :func:`swap_delta_counted` is O(1) instead of O(N)."""
    n = box * box
    rows = np.zeros((n, n + 1), dtype=np.int64)
    cols = np.zeros((n, n + 1), dtype=np.int64)
    for r in range(n):
        for c in range(n):
            d = state[r, c]
            rows[r, d] += 1
            cols[c, d] += 1
    return rows, cols


@numba.njit(cache=True, inline="always")
def _counted_change(na, nb):
    """Change of a line's missing-digit count when one ``a`` (na copies) becomes ``b`` (nb)."""
    return (1 if na == 1 else 0) - (1 if nb == 0 else 0)


@numba.njit(cache=True, inline="always")
def swap_delta_counted(rows, cols, state, r1, c1, r2, c2):
    """:func:`swap_delta` read from the :func:`line_counts` tables (same value, O(1))."""
    a = state[r1, c1]
    b = state[r2, c2]
    if a == b:
        return 0
    d = 0
    if r1 != r2:
        d += _counted_change(rows[r1, a], rows[r1, b]) + _counted_change(rows[r2, b], rows[r2, a])
    if c1 != c2:
        d += _counted_change(cols[c1, a], cols[c1, b]) + _counted_change(cols[c2, b], cols[c2, a])
    return d


@numba.njit(cache=True, inline="always")
def apply_swap_counted(rows, cols, state, r1, c1, r2, c2):
    """:func:`apply_swap` that keeps the :func:`line_counts` tables in step."""
    a = state[r1, c1]
    b = state[r2, c2]
    rows[r1, a] -= 1
    rows[r1, b] += 1
    rows[r2, b] -= 1
    rows[r2, a] += 1
    cols[c1, a] -= 1
    cols[c1, b] += 1
    cols[c2, b] -= 1
    cols[c2, a] += 1
    state[r1, c1] = b
    state[r2, c2] = a
