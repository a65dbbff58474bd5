"""The seed's naive backtracking: cells in row-major order, digits tried 1..N.

One "search call" is counted per recursive call, including the calls that step over a
given and the final call past the last cell, exactly as the seed material counted them
(122 on easy51:0). The recursion is written as an explicit stack in a numba kernel so
the 124 million calls of top95:4 take seconds, not hours; the count is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from sudoku_compare.bench.budget import Budget
from sudoku_compare.bench.outcome import Outcome
from sudoku_compare.bench.registry import register
from sudoku_compare.bench.solver import Solver
from sudoku_compare.problems.puzzle import Puzzle


@numba.njit(cache=True)
def _search(grid, peers, side, max_calls):
    """Iterative form of ``solve(cell)``; returns (solved, search_calls)."""
    n_cells = grid.size
    tried = np.zeros(n_cells + 1, dtype=np.int64)  # digit currently placed by frame
    given = grid != 0
    calls = 0
    cell = 0
    # entering a frame for `cell` is one search call
    calls += 1
    while True:
        if cell == n_cells:
            return True, calls
        if given[cell]:
            # a given: step over it (the recursive call for cell+1 is counted on entry)
            if tried[cell] == 0:
                tried[cell] = -1
                cell += 1
                calls += 1
                if calls > max_calls:
                    return False, calls
                continue
            # returning into a given frame: propagate the failure upwards
            tried[cell] = 0
            cell -= 1
            if cell < 0:
                return False, calls
            continue
        d = tried[cell] + 1
        if tried[cell] > 0:
            grid[cell] = 0
        placed = False
        while d <= side:
            ok = True
            for p in peers[cell]:
                if grid[p] == d:
                    ok = False
                    break
            if ok:
                placed = True
                break
            d += 1
        if placed:
            grid[cell] = d
            tried[cell] = d
            cell += 1
            calls += 1
            if calls > max_calls:
                return False, calls
            continue
        tried[cell] = 0
        grid[cell] = 0
        cell -= 1
        if cell < 0:
            return False, calls


@dataclass(frozen=True)
class BacktrackingParams:
    #: stop after this many search calls (0: unlimited); the deadline also applies
    max_calls: int = 0


@register
class NaiveBacktracking(Solver):
    name = "native.backtracking"
    family = "backtracking"
    encoding = "grid"
    Params = BacktrackingParams
    description = "the seed's naive backtracking (row-major cells, digits 1..N)"

    def warmup(self) -> None:
        from sudoku_compare.problems.topology import topology

        g = np.zeros(16, dtype=np.int64)
        _search(g, topology(2).peers, 4, 10)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        grid = puzzle.flat()
        limit = self.params.max_calls or 2**62
        solved, calls = _search(grid, puzzle.topology.peers, puzzle.side, limit)
        return Outcome(grid=grid.reshape(puzzle.side, puzzle.side), claims_solved=bool(solved),
                       iterations=int(calls), counters={"search_calls": int(calls)})


