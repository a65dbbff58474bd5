"""The binary CSP model shared by the CSP solvers (native AIMA suite, python-constraint, graph colouring).

A CSP here is AIMA's (Russell & Norvig, ch. 6): variables, a finite ordered domain per
variable, a neighbour list per variable and one binary constraint predicate
``constraint(x, a, y, b)`` that must hold between every pair of neighbours. Sudoku and
graph colouring both use the predicate "different values" (:func:`not_equal`), which is
the only one the compiled search specialises; other predicates run in the pure-Python
search.

Encoding (numpy, int based, so a compiled search can use it directly):

- variables are ``0..n_vars-1``; ``names[i]`` is the domain label (a cell ``(row, col)``
  or a vertex number);
- values are internal indices ``0..n_values-1``; ``labels[k]`` is the printed value
  (digit ``k+1`` for Sudoku, colour ``k`` for graph colouring);
- ``domains[i, :domain_size[i]]`` is the ORDERED domain of variable ``i`` (order matters:
  the seed's searches iterate domains in list order and forward checking's restore
  appends values back at the end, which changes later orders);
- neighbours are CSR: ``neighbours[nbr_start[i]:nbr_start[i+1]]``, in the order the seed
  iterates them.

A *state* of the search is a partial assignment (``assignment[i] = value index`` or -1)
plus the current domains; a *solution* is a complete assignment satisfying every
constraint.

Sudoku (:class:`SudokuCSPBuilder`, the seed's builder): one variable per cell, row-major;
a given's domain is the singleton ``{given}`` and an empty cell's domain is the FULL
``1..N`` by default: the seed does not prune empty cells by the givens' peers (givens are
ordinary variables the search assigns, so "81 assignments" on easy51:0 includes the 45
givens), and its printed figures depend on that. ``prune_givens=True`` gives the reduced
domains (useful for libraries such as python-constraint, where the search never "assigns"
a given). The neighbours of a cell are its 20 peers (``3N - 2n - 1``) in the iteration
order of the Python ``set`` of ``(row, col)`` tuples the seed built: forward checking
stops at the first emptied neighbour, so that order decides later domain orders and the
seed's counts. The 3N AllDifferent units are kept too (``units``), for libraries that post
AllDifferent instead of pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

import numpy as np

from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.topology import topology


def not_equal(x: int, a: int, y: int, b: int) -> bool:
    """The Sudoku and colouring constraint: neighbours take different values."""
    return a != b


@dataclass(frozen=True, eq=False)
class CSP:
    """A binary CSP, numpy encoded (see the module docstring for the layout)."""

    names: tuple[Hashable, ...]
    labels: np.ndarray
    domains: np.ndarray
    domain_size: np.ndarray
    nbr_start: np.ndarray
    neighbours: np.ndarray
    constraint: Callable[[int, int, int, int], bool] = not_equal
    #: (U, k) AllDifferent units when the problem has them (Sudoku), else None
    units: np.ndarray | None = None
    #: problem-specific data (the Sudoku's Puzzle, the graph's edges, ...)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def n_vars(self) -> int:
        return len(self.names)

    @property
    def n_values(self) -> int:
        return int(self.domains.shape[1])

    @property
    def is_not_equal(self) -> bool:
        """True when the constraint is "different values" (the compiled search applies)."""
        return self.constraint is not_equal

    def neighbours_of(self, var: int) -> np.ndarray:
        return self.neighbours[self.nbr_start[var]:self.nbr_start[var + 1]]

    def domain_of(self, var: int) -> list[int]:
        """The ordered initial domain of ``var`` as value indices."""
        return [int(v) for v in self.domains[var, :self.domain_size[var]]]

    def domain_lists(self) -> list[list[int]]:
        return [self.domain_of(v) for v in range(self.n_vars)]

    def neighbour_lists(self) -> list[list[int]]:
        return [[int(y) for y in self.neighbours_of(v)] for v in range(self.n_vars)]

    def arcs(self) -> list[tuple[int, int]]:
        """Every directed arc (x, y), in the seed's order (variables, then neighbours)."""
        return [(x, int(y)) for x in range(self.n_vars) for y in self.neighbours_of(x)]

    def edges(self) -> list[tuple[int, int]]:
        """Every constraint once, as (x, y) with x < y."""
        return [(x, y) for x, y in self.arcs() if x < y]

    def n_domain_values(self) -> int:
        """Total number of (variable, value) pairs of the initial domains."""
        return int(self.domain_size.sum())

    def is_solution(self, assignment: Sequence[int]) -> bool:
        """Complete, in every domain, and every constraint holds."""
        a = [int(v) for v in assignment]
        if len(a) != self.n_vars:
            return False
        for x in range(self.n_vars):
            if a[x] not in self.domain_of(x):
                return False
            for y in self.neighbours_of(x):
                if not self.constraint(x, a[x], int(y), a[int(y)]):
                    return False
        return True


def make_csp(names: Sequence[Hashable], domains: Sequence[Sequence[int]],
             neighbours: Sequence[Sequence[int]], labels: Sequence[Any] | None = None,
             constraint: Callable[[int, int, int, int], bool] = not_equal,
             units: np.ndarray | None = None, meta: dict | None = None) -> CSP:
    """Build a :class:`CSP` from Python lists (value indices, variable indices)."""
    n = len(names)
    if len(domains) != n or len(neighbours) != n:
        raise ValueError("names, domains and neighbours must have one entry per variable")
    width = max((max(d) + 1 for d in domains if len(d)), default=0)
    if labels is None:
        labels = list(range(width))
    width = max(width, len(labels))
    dom = np.full((n, max(width, 1)), -1, dtype=np.int64)
    size = np.zeros(n, dtype=np.int64)
    for i, d in enumerate(domains):
        dom[i, :len(d)] = d
        size[i] = len(d)
    start = np.zeros(n + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(nb) for nb in neighbours])
    flat = np.array([int(y) for nb in neighbours for y in nb], dtype=np.int64)
    pairs = {(x, int(y)) for x, nb in enumerate(neighbours) for y in nb}
    if any((y, x) not in pairs or x == y for x, y in pairs):
        raise ValueError("neighbour lists must be symmetric and irreflexive")
    for arr in (dom, size, start, flat):
        arr.setflags(write=False)
    lab = np.asarray(labels)
    return CSP(tuple(names), lab, dom, size, start, flat, constraint, units, meta or {})


@cache
def seed_neighbour_order(box: int) -> tuple[tuple[int, ...], ...]:
    """The peers of each cell in the order the seed's ``list(neighbor_set)`` yields them.

    The seed adds the row, then the column, then the box ``(r, c)`` tuples to a ``set``
    and lists it; tuple hashes of small ints are not randomised, so the order is fixed by
    CPython's tuple hash and set layout (CPython >= 3.8). We rebuild that set the same way.
    """
    side = box * box
    out = []
    for i in range(side):
        for j in range(side):
            neighbor_set = set()
            for k in range(side):
                if k != j:
                    neighbor_set.add((i, k))
            for k in range(side):
                if k != i:
                    neighbor_set.add((k, j))
            br, bc = (i // box) * box, (j // box) * box
            for r in range(br, br + box):
                for c in range(bc, bc + box):
                    if r != i or c != j:
                        neighbor_set.add((r, c))
            out.append(tuple(r * side + c for r, c in list(neighbor_set)))
    return tuple(out)


class SudokuCSPBuilder:
    """The seed's ``SudokuCSPBuilder``: a Sudoku as a binary not-equal CSP."""

    @staticmethod
    def build_csp(puzzle: Puzzle, *, prune_givens: bool = False,
                  neighbour_order: Literal["seed", "sorted"] = "seed") -> CSP:
        """Variables = cells (row-major), domains after the givens, peers as neighbours.

        ``prune_givens`` removes from an empty cell's domain the givens among its peers
        (the seed does not). ``neighbour_order="sorted"`` lists peers by cell index.
        """
        topo = topology(puzzle.box)
        side = puzzle.side
        cells = puzzle.flat()
        domains: list[list[int]] = []
        for c in range(topo.cells):
            if cells[c]:
                domains.append([int(cells[c]) - 1])
            elif prune_givens:
                used = {int(cells[p]) for p in topo.peers[c] if cells[p]}
                domains.append([v - 1 for v in range(1, side + 1) if v not in used])
            else:
                domains.append(list(range(side)))
        if neighbour_order == "seed":
            nbrs = [list(x) for x in seed_neighbour_order(puzzle.box)]
        elif neighbour_order == "sorted":
            nbrs = [[int(p) for p in row] for row in topo.peers]
        else:
            raise ValueError(f"unknown neighbour order {neighbour_order!r}")
        names = tuple((int(topo.row_of[c]), int(topo.col_of[c])) for c in range(topo.cells))
        return make_csp(names, domains, nbrs, labels=list(range(1, side + 1)),
                        units=topo.units, meta={"puzzle": puzzle})

    @staticmethod
    def apply_solution(puzzle: Puzzle, assignment: Sequence[int]) -> np.ndarray:
        """The N x N grid of an assignment (value indices; -1 leaves a cell empty)."""
        a = np.asarray(assignment, dtype=np.int64)
        grid = np.where(a >= 0, a + 1, 0)
        given = puzzle.flat()
        grid = np.where(given != 0, given, grid)  # an unassigned given stays given
        return grid.reshape(puzzle.side, puzzle.side)


def sudoku_csp(puzzle: Puzzle, **options: Any) -> CSP:
    """Shorthand for :meth:`SudokuCSPBuilder.build_csp`."""
    return SudokuCSPBuilder.build_csp(puzzle, **options)
