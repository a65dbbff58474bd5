"""The standard SAT encoding of Sudoku: one Boolean per (cell, digit), exactly-one constraints.

Variable ``var(cell, digit) = cell * N + digit`` (1-based, DIMACS style: ``N = side``,
``digit`` in ``1..N``), true when ``cell`` holds ``digit``. The clauses say

- every cell holds at least one digit and at most one (exactly-one per cell);
- every unit (row, column, box) holds each digit at least once and at most once
  (exactly-one per unit and digit).

This is the "extended" encoding (Lynce & Ouaknine, *Sudoku as a SAT problem*, 2006): the
cell at-most-one and the unit at-least-one clauses are implied by the others, but they
let unit propagation find naked and hidden singles, which is why SAT solvers solve
9x9 Sudoku with almost no search. At-most-one is pairwise by default (measured with
pysat on 9x9: 11,988 clauses built in ~4 ms, solved in 0.1-0.3 ms per puzzle; the
sequential counter gave fewer clauses but was slower to solve, 0.4-1.0 ms). The
sequential counter (Sinz 2005) is offered for big grids, where pairwise grows as N^3.

The clauses do not depend on the puzzle: :func:`sudoku_cnf` builds them once per box size
(cached), and a puzzle's givens are unit literals (:func:`given_literals`), which a
persistent solver takes as assumptions. Shared by every SAT-based solver (``pysat.sat``,
the Boolean encodings of ``z3.smt``) so that all of them search the same formula.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np

from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.topology import topology

AtMostOne = Literal["pairwise", "sequential"]
AT_MOST_ONE: tuple[str, ...] = ("pairwise", "sequential")


@dataclass(frozen=True, eq=False)
class SudokuCnf:
    """The clauses of box size ``box``; variables ``1..n_cell_vars`` are the (cell, digit)
    Booleans, any above are auxiliary (the sequential counter's)."""

    box: int
    side: int
    at_most_one: str
    #: number of (cell, digit) variables, ``side ** 3``
    n_cell_vars: int
    #: all variables, auxiliary ones included
    n_vars: int
    #: each clause a tuple of non-zero literals (DIMACS: -v is "not v")
    clauses: tuple[tuple[int, ...], ...]

    def var(self, cell: int, digit: int) -> int:
        return var(self.side, cell, digit)


def var(side: int, cell: int, digit: int) -> int:
    """The variable "``cell`` holds ``digit``" (``digit`` in 1..side)."""
    return cell * side + digit


def _pairwise(lits: Sequence[int]) -> Iterable[tuple[int, ...]]:
    for i, a in enumerate(lits):
        for b in lits[i + 1:]:
            yield (-a, -b)


def _sequential(lits: Sequence[int], next_aux: int) -> tuple[list[tuple[int, ...]], int]:
    """Sinz's sequential counter for at-most-one: n-1 auxiliaries, 3n-4 clauses."""
    n = len(lits)
    if n <= 1:
        return [], next_aux
    s = list(range(next_aux, next_aux + n - 1))  # s[i]: one of lits[0..i] is true
    out: list[tuple[int, ...]] = [(-lits[0], s[0])]
    for i in range(1, n - 1):
        out += [(-lits[i], s[i]), (-s[i - 1], s[i]), (-lits[i], -s[i - 1])]
    out.append((-lits[n - 1], -s[n - 2]))
    return out, next_aux + n - 1


def sudoku_cnf(box: int, at_most_one: AtMostOne = "pairwise") -> SudokuCnf:
    """The exactly-one clauses of a ``box``-size Sudoku, built once per (box, at_most_one)."""
    if at_most_one not in AT_MOST_ONE:
        raise ValueError(f"at_most_one must be one of {AT_MOST_ONE}, got {at_most_one!r}")
    return _build(int(box), at_most_one)


@cache  # keyed on positional arguments only, so a default and an explicit value share it
def _build(box: int, at_most_one: str) -> SudokuCnf:
    topo = topology(box)
    side = topo.side
    n_cell_vars = topo.cells * side
    groups: list[list[int]] = [[var(side, c, d) for d in range(1, side + 1)]
                               for c in range(topo.cells)]
    for unit in topo.units:
        cells = [int(c) for c in unit]
        groups += [[var(side, c, d) for c in cells] for d in range(1, side + 1)]
    clauses: list[tuple[int, ...]] = []
    next_aux = n_cell_vars + 1
    for lits in groups:
        clauses.append(tuple(lits))  # at least one
        if at_most_one == "pairwise":
            clauses.extend(_pairwise(lits))
        else:
            more, next_aux = _sequential(lits, next_aux)
            clauses.extend(more)
    return SudokuCnf(box, side, at_most_one, n_cell_vars, next_aux - 1, tuple(clauses))


def given_literals(puzzle: Puzzle) -> list[int]:
    """One positive literal per given: the assumptions (or unit clauses) of this puzzle."""
    side = puzzle.side
    return [var(side, cell, d) for cell, d in enumerate(puzzle.cells) if d]


def grid_literals(grid: np.ndarray | Sequence[int], box: int) -> list[int]:
    """The full assignment of the cell variables a (possibly partial) grid stands for:
    ``+var`` for the digit a cell holds, ``-var`` for every other digit; an empty cell's
    variables are all false (so an incomplete grid falsifies its cell's at-least-one)."""
    side = box * box
    flat = np.asarray(grid, dtype=np.int64).ravel()
    return [var(side, cell, d) if int(flat[cell]) == d else -var(side, cell, d)
            for cell in range(flat.size) for d in range(1, side + 1)]


def decode(literals: Iterable[int], box: int) -> np.ndarray:
    """The flat grid (0 where no digit is true) from a model's literals (a solver's model
    lists every variable, negative when false; auxiliary variables are ignored)."""
    side = box * box
    lits = np.fromiter(literals, dtype=np.int64)
    true = lits[(lits > 0) & (lits <= side ** 3)] - 1
    grid = np.zeros(side * side, dtype=np.int64)
    grid[true // side] = true % side + 1
    return grid


def falsified(cnf: SudokuCnf, literals: Iterable[int]) -> list[tuple[int, ...]]:
    """The clauses a total assignment of the cell variables falsifies (an independent check
    for tests; only valid for the pairwise encoding, which has no auxiliary variables)."""
    if cnf.n_vars != cnf.n_cell_vars:
        raise ValueError("falsified() needs an encoding without auxiliary variables (pairwise)")
    true = {lit for lit in literals if lit > 0}
    return [cl for cl in cnf.clauses if not any((lit in true) if lit > 0 else (-lit not in true)
                                                 for lit in cl)]
