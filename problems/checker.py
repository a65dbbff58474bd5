"""The independent checker: is this grid a solution of this puzzle, and if not, why.

It shares no code with any solver, so a solver bug cannot hide behind it. The bench
calls it on every grid a run returns; the tests call it everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from .puzzle import Puzzle
from .topology import topology


@dataclass(frozen=True)
class Violation:
    """One reason a grid is not a solution."""

    kind: str  # "duplicate", "changed-given", "empty", "out-of-range", "shape"
    where: str  # "row 3", "column 7", "box 5", "cell 12"
    detail: str

    def __str__(self) -> str:
        return f"{self.kind} in {self.where}: {self.detail}"


def _as_flat(puzzle: Puzzle, grid) -> np.ndarray | None:
    arr = np.asarray(grid)
    if arr.size != puzzle.n_cells:
        return None
    return np.ascontiguousarray(arr, dtype=np.int64).ravel()


def is_solution(puzzle: Puzzle, grid) -> bool:
    """Whether ``grid`` solves ``puzzle``: every cell a digit 1..N, every given kept, every
    unit holding each digit once (one bit per digit, OR-ed over the unit, must fill it).

    The same rules as :func:`violations`, in one compiled pass (about 2 us on 9x9, against
    about 12 us for the same test as a dozen array operations and about 250 us for
    :func:`violations`), so a campaign can check every one of its runs and a loop of
    ``api.solve`` calls is not dominated by its checks."""
    flat = _as_flat(puzzle, grid)
    if flat is None:
        return False
    where, values = _givens(puzzle)
    return bool(_fills_every_unit(flat, where, values, topology(puzzle.box).units,
                                  puzzle.side))


@numba.njit(cache=True)
def _fills_every_unit(flat, where, values, units, side):
    for v in flat:
        if v < 1 or v > side:
            return False
    for i in range(where.size):
        if flat[where[i]] != values[i]:
            return False
    full = (np.int64(1) << (side + 1)) - 2
    for u in range(units.shape[0]):
        seen = np.int64(0)
        for k in range(units.shape[1]):
            seen |= np.int64(1) << flat[units[u, k]]
        if seen != full:
            return False
    return True


def _givens(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """(cells, digits) of the givens, kept on the puzzle (it is immutable) so checking
    many grids of one puzzle, or one grid per run, does not rebuild them."""
    cached = puzzle.__dict__.get("_checker_givens")
    if cached is None:
        flat = np.array(puzzle.cells, dtype=np.int64)
        where = np.flatnonzero(flat)
        cached = (where, flat[where])
        puzzle.__dict__["_checker_givens"] = cached
    return cached


def violations(puzzle: Puzzle, grid) -> list[Violation]:
    """Every way ``grid`` fails to solve ``puzzle``; empty when it is a solution."""
    flat = _as_flat(puzzle, grid)
    if flat is None:
        return [Violation("shape", "grid", f"{np.asarray(grid).size} cells, expected {puzzle.n_cells}")]
    if is_solution(puzzle, flat):
        return []
    topo = topology(puzzle.box)
    out: list[Violation] = []
    for cell, (given, value) in enumerate(zip(puzzle.cells, flat.tolist(), strict=True)):
        if not 0 <= value <= puzzle.side:
            out.append(Violation("out-of-range", f"cell {cell}", f"value {value}"))
        elif value == 0:
            out.append(Violation("empty", f"cell {cell}", "no digit"))
        if given and value != given:
            out.append(Violation("changed-given", f"cell {cell}", f"given {given}, grid has {value}"))
    kinds = ("row", "column", "box")
    for u, unit in enumerate(topo.units):
        vals = flat[unit]
        vals = vals[vals > 0]
        counts = np.bincount(vals, minlength=puzzle.side + 1)
        for digit in np.nonzero(counts > 1)[0]:
            out.append(Violation("duplicate", f"{kinds[u // topo.side]} {u % topo.side + 1}",
                                 f"digit {int(digit)} appears {int(counts[digit])} times"))
    return out


def nb_errors(grid, box: int = 3) -> int:
    """The seeds' ``NbErrors``: over every unit, the number of digits missing from it.

    A unit holding k distinct digits contributes N - k; a solution scores 0.
    """
    flat = np.asarray(grid, dtype=np.int64).ravel()
    topo = topology(box)
    total = 0
    for unit in topo.units:
        vals = flat[unit]
        total += topo.side - len(set(int(v) for v in vals if v > 0))
    return total


def changes_a_given(puzzle: Puzzle, grid) -> bool:
    """True when the grid overwrites a given (always a wrong answer, never a near miss)."""
    flat = _as_flat(puzzle, grid)
    if flat is None:
        return True
    givens = puzzle.flat()
    mask = givens != 0
    return bool(np.any(flat[mask] != givens[mask]))

