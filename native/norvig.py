"""Peter Norvig's "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html), kept in pure Python.

The page's idea in its own words: ``values`` maps each square to the string of digits
still possible there; ``assign`` keeps one digit by eliminating the others;
``eliminate`` applies the two rules,

1. if a square is reduced to one value, eliminate that value from its peers;
2. if a unit has only one place for a value, put the value there;

and ``search`` tries, depth first, each digit of a square with the fewest possibilities
on a copy of ``values``. Squares are cell indices and digits are the grid's symbols
(``1-9``, then ``A-P``), so the same page of code solves 4x4 to 25x25 grids.

It stays pure Python (dicts of strings, recursion) on purpose: it is the reference for
what compiling buys (``native.bitmask`` runs the same two rules, compiled, on bit sets).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache

import numpy as np

from sudoku_compare.budget import Budget, Deadline
from sudoku_compare.native._warmup import WarmOnEmptyGrid
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.alphabet import DIGITS
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.topology import topology
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason


class _OutOfTime(Exception):
    """Raised inside the recursion when the deadline has passed."""


@dataclass(frozen=True)
class Board:
    """Squares, units and peers of one box size, as Norvig's page lays them out."""

    digits: str
    squares: range
    units: dict[int, list[list[int]]]
    peers: dict[int, set[int]]


@cache
def board(box: int) -> Board:
    t = topology(box)
    unit_list = [[int(s) for s in u] for u in t.units]
    units = {s: [unit_list[int(u)] for u in t.cell_units[s]] for s in range(t.cells)}
    peers = {s: {int(p) for p in t.peers[s]} for s in range(t.cells)}
    return Board(DIGITS[:t.side], range(t.cells), units, peers)


class Norvig:
    """One puzzle's solve, carrying the board and the counters of the page's functions."""

    def __init__(self, b: Board, deadline: Deadline | None = None) -> None:
        self.b = b
        self.deadline = deadline
        self.search_calls = 0
        self.guesses = 0

    def parse_grid(self, cells: tuple[int, ...]) -> dict[int, str] | bool:
        """Values with every given assigned, or False if a contradiction is detected."""
        values = {s: self.b.digits for s in self.b.squares}
        for s, v in enumerate(cells):
            if v and not self.assign(values, s, self.b.digits[v - 1]):
                return False
        return values

    def assign(self, values: dict[int, str], s: int, d: str) -> dict[int, str] | bool:
        """Eliminate all the other values (except d) from values[s] and propagate."""
        other_values = values[s].replace(d, "")
        if all(self.eliminate(values, s, d2) for d2 in other_values):
            return values
        return False

    def eliminate(self, values: dict[int, str], s: int, d: str) -> dict[int, str] | bool:
        """Eliminate d from values[s]; propagate when values or places <= 2."""
        if d not in values[s]:
            return values  # already eliminated
        values[s] = values[s].replace(d, "")
        # (1) If a square s is reduced to one value d2, then eliminate d2 from the peers.
        if len(values[s]) == 0:
            return False  # contradiction: removed last value
        elif len(values[s]) == 1:
            d2 = values[s]
            if not all(self.eliminate(values, s2, d2) for s2 in self.b.peers[s]):
                return False
        # (2) If a unit u is reduced to only one place for a value d, then put it there.
        for u in self.b.units[s]:
            dplaces = [s for s in u if d in values[s]]
            if len(dplaces) == 0:
                return False  # contradiction: no place for this value
            elif len(dplaces) == 1:
                # d can only be in one place in unit; assign it there
                if not self.assign(values, dplaces[0], d):
                    return False
        return values

    def search(self, values: dict[int, str] | bool) -> dict[int, str] | bool:
        """Using depth-first search and propagation, try all possible values."""
        self.search_calls += 1
        if values is False:
            return False  # failed earlier
        assert isinstance(values, dict)
        if all(len(values[s]) == 1 for s in self.b.squares):
            return values  # solved!
        if self.deadline is not None and self.search_calls % 64 == 0 and self.deadline.expired():
            raise _OutOfTime
        # choose the unfilled square s with the fewest possibilities
        n, s = min((len(values[s]), s) for s in self.b.squares if len(values[s]) > 1)
        for d in values[s]:
            self.guesses += 1
            result = self.search(self.assign(values.copy(), s, d))
            if result:
                return result
        return False


def solve_values(puzzle: Puzzle, deadline: Deadline | None = None
                 ) -> tuple[list[int] | None, int, int, bool]:
    """(solution as digits or None, search calls, guesses, finished before the deadline)."""
    b = board(puzzle.box)
    solver = Norvig(b, deadline)
    # eliminate() recurses once per propagated elimination; a 25x25 grid goes deeper
    # than Python's default limit of 1000 frames
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20 * puzzle.n_cells + 1000))
    try:
        result = solver.search(solver.parse_grid(puzzle.cells))
        finished = True
    except _OutOfTime:
        result, finished = False, False
    finally:
        sys.setrecursionlimit(old_limit)
    if not result:
        return None, solver.search_calls, solver.guesses, finished
    assert isinstance(result, dict)
    grid = [b.digits.index(result[s]) + 1 for s in b.squares]
    return grid, solver.search_calls, solver.guesses, finished


@register
class NorvigSolver(WarmOnEmptyGrid, Solver):
    name = "native.norvig"
    family = "exact"
    encoding = "grid"
    description = "Norvig's constraint propagation + depth-first search, pure Python"

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        grid, calls, guesses, finished = solve_values(puzzle, budget.deadline())
        arr = np.array(grid if grid is not None else puzzle.cells, dtype=np.int64)
        if grid is not None:
            reason = StopReason.TARGET
        else:
            reason = StopReason.EXHAUSTED if finished else StopReason.CLOCK
        return Outcome(grid=arr.reshape(puzzle.side, puzzle.side), claims_solved=grid is not None,
                       iterations=calls, counters={"search_calls": calls, "guesses": guesses},
                       stop_reason=str(reason))
