"""The exercises answered by a direct computation on a puzzle (no solver run): a cell's
initial domain, the partial-grid energy, the forward-checking propagation step and the
solution counts of the sets.

Each is computed here from the puzzle itself, in the seed's own words, and cross-checked
against the package's shared code (``Puzzle.candidates``, the CSP model, the row-permutation
energy, the independent solution counter), so a disagreement would show in the report.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from sudoku_compare.problems.encodings import row_permutation as rp
from sudoku_compare.problems.encodings.csp_model import sudoku_csp
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.solutions import count_solutions
from sudoku_compare.problems.topology import topology

# -- a cell's initial domain ------------------------------------------------------------


@dataclass(frozen=True)
class Domain:
    """The seed's ``get_cell_domain``: {1..N} minus the values of the cell's row, column and
    box (a given's domain is its value)."""

    cell: tuple[int, int]
    row_values: tuple[int, ...]
    col_values: tuple[int, ...]
    box_values: tuple[int, ...]
    domain: tuple[int, ...]


def cell_domain(puzzle: Puzzle, row: int, col: int) -> Domain:
    g = puzzle.grid()
    n, b = puzzle.side, puzzle.box
    if g[row, col]:
        v = int(g[row, col])
        return Domain((row, col), (), (), (), (v,))
    rv = tuple(int(x) for x in g[row, :] if x)
    cv = tuple(int(x) for x in g[:, col] if x)
    r0, c0 = (row // b) * b, (col // b) * b
    bv = tuple(int(x) for x in g[r0:r0 + b, c0:c0 + b].ravel() if x)
    used = set(rv) | set(cv) | set(bv)
    return Domain((row, col), rv, cv, bv, tuple(d for d in range(1, n + 1) if d not in used))


def domain_sizes(puzzle: Puzzle) -> Counter[int]:
    """How many empty cells have each initial domain size."""
    g = puzzle.grid()
    return Counter(len(cell_domain(puzzle, r, c).domain)
                   for r in range(puzzle.side) for c in range(puzzle.side) if not g[r, c])


# -- partial-grid energy ----------------------------------------------------------------


@dataclass(frozen=True)
class PartialEnergy:
    """The seed's ``ComputePartialEnergy``: duplicates (count - 1 per non-zero digit) summed
    over the rows, columns and boxes that hold at least one non-zero value."""

    rows: int
    cols: int
    boxes: int
    skipped_units: int

    @property
    def total(self) -> int:
        return self.rows + self.cols + self.boxes


def partial_energy(grid: np.ndarray, box: int) -> PartialEnergy:
    topo = topology(box)
    flat = np.asarray(grid).ravel()
    n = topo.side
    parts = [0, 0, 0]
    skipped = 0
    for u, cells in enumerate(topo.units):
        values = flat[cells]
        values = values[values != 0]
        if values.size == 0:
            skipped += 1
            continue
        parts[u // n] += int(values.size - np.unique(values).size)
    return PartialEnergy(parts[0], parts[1], parts[2], skipped)


def shared_energy(grid: np.ndarray, box: int) -> int:
    """The package's objective on the same grid: column and box duplicates
    (``row_permutation.energy``) plus row duplicates (``row_energy``)."""
    g = np.ascontiguousarray(np.asarray(grid, dtype=np.int64))
    return int(rp.energy(g, box) + rp.row_energy(g, box))


#: the seed's printed initialised grid (Random(42) on the witness puzzle; it printed
#: "Energie initiale : 31"), a full row-permutation state
SEED_INITIAL_GRID = ("972685413" "147963825" "518437962" "826359741" "457318296"
                     "492671538" "248537691" "715298364" "382641957")
SEED_INITIAL_ENERGY = 31


def seed_initial_grid() -> np.ndarray:
    return np.array([int(c) for c in SEED_INITIAL_GRID], dtype=np.int64).reshape(9, 9)


# -- forward checking, one step ---------------------------------------------------------


@dataclass(frozen=True)
class FCStep:
    """Forward checking's propagation of one assignment: for each neighbour whose domain
    lost values, (neighbour, values removed, domain size before, after)."""

    var: tuple[int, int]
    value: int
    pruned_givens: bool
    changes: tuple[tuple[tuple[int, int], tuple[int, ...], int, int], ...]
    neighbours: int
    wiped_out: tuple[int, int] | None
    values_before: int
    values_after: int


def fc_step(puzzle: Puzzle, var: tuple[int, int], value: int, *,
            prune_givens: bool) -> FCStep:
    """The seed's ``analyze_fc_propagation``: build the CSP (the seed's builder), assign
    ``var = value`` with an empty assignment (every neighbour counts as unassigned, as the
    seed calls ``propagate(csp, var, val, {}, domains)``), remove ``value`` from each
    neighbour's domain in the seed's neighbour order, stop at the first emptied domain."""
    csp = sudoku_csp(puzzle, prune_givens=prune_givens)
    names = list(csp.names)
    v = names.index(var)
    k = int(np.flatnonzero(csp.labels == value)[0])
    doms = csp.domain_lists()
    before = sum(len(d) for d in doms)
    changes = []
    wiped = None
    nbrs = csp.neighbour_lists()[v]
    for nb in nbrs:
        d = doms[nb]
        removed = [x for x in d if not csp.constraint(v, k, nb, x)]
        if removed:
            size = len(d)
            for x in removed:
                d.remove(x)
            changes.append((names[nb], tuple(int(csp.labels[x]) for x in removed), size, len(d)))
        if not d:
            wiped = names[nb]
            break
    doms[v] = [k]
    after = sum(len(d) for d in doms)
    return FCStep(var, value, prune_givens, tuple(changes), len(nbrs), wiped, before, after)


# -- solution counts ----------------------------------------------------------------------


@dataclass(frozen=True)
class SetCount:
    """A set's puzzles by solution count (counted up to ``limit``), and repeated lines."""

    name: str
    puzzles: int
    counts: dict[int, int]
    limit: int
    duplicates: int


def count_set(name: str, puzzles: list[Puzzle], limit: int = 2) -> SetCount:
    counts = Counter(count_solutions(p, limit) for p in puzzles)
    lines = Counter(p.to_line() for p in puzzles)
    return SetCount(name, len(puzzles), dict(sorted(counts.items())), limit,
                    sum(c - 1 for c in lines.values()))


@dataclass(frozen=True)
class MultiSolution:
    """A puzzle made from the witness by removing givens in row-major order until it has
    several solutions, and its solution count (up to ``limit``)."""

    line: str
    removed: tuple[tuple[int, int], ...]
    solutions: int
    limit: int


def multi_solution_example(puzzle: Puzzle, want: int = 2, limit: int = 100_000) -> MultiSolution:
    """Remove givens one at a time (row-major) until at least ``want`` solutions, then count
    them exactly (up to ``limit``)."""
    cells = list(puzzle.cells)
    removed = []
    for i, v in enumerate(puzzle.cells):
        if not v:
            continue
        cells[i] = 0
        removed.append((i // puzzle.side, i % puzzle.side))
        candidate = Puzzle(puzzle.box, tuple(cells))
        if count_solutions(candidate, want) >= want:
            return MultiSolution(candidate.to_line(), tuple(removed),
                                 count_solutions(candidate, limit), limit)
    raise ValueError("the puzzle never reached several solutions")  # pragma: no cover
