"""The seed's guided exercise: backtracking on the cell with the fewest candidates (MRV).

Each search call computes the domain of every empty cell (the digits its row, column
and box do not hold yet), picks the smallest one (the first in row-major order on a
tie), fails at once when a domain is empty, and otherwise tries the domain's digits in
increasing order. One "search call" is counted per call of ``Search``, the root
included, as the seed's ``callCount++`` does. There is no propagation: that is what
the exact solvers (Norvig, bitmask) add.

Counting solutions is the seed's other exercise: with ``count_solutions = K > 0`` the
search goes on past the first solution until it has found K (or exhausted the tree),
and the outcome reports ``solutions = min(count, K)`` with the first solution as its
grid. The generator uses K = 2 to prove uniqueness.

The recursion is an explicit stack in a numba kernel, which reads the clock every few
thousand search calls to honour the deadline.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._warmup import WarmOnEmptyGrid
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings.array_copy import copy1d
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.topology import topology
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason

from ._jit_clock import NO_DEADLINE, now, popcount

#: search calls between two reads of the clock
_CLOCK_EVERY = 4096

@numba.njit(cache=True)
def _used_masks(grid, row_of, col_of, box_of, side):
    """Digits held by each row, column and box; an empty array when two givens clash."""
    used = np.zeros(3 * side, dtype=np.int64)
    for c in range(grid.size):
        v = grid[c]
        if v == 0:
            continue
        bit = np.int64(1) << (v - 1)
        r, k, b = row_of[c], side + col_of[c], 2 * side + box_of[c]
        if (used[r] | used[k] | used[b]) & bit:
            return np.zeros(0, dtype=np.int64)
        used[r] |= bit
        used[k] |= bit
        used[b] |= bit
    return used


@numba.njit(cache=True)
def _search(grid, first, row_of, col_of, box_of, side, limit, max_calls, deadline):
    """MRV backtracking on ``grid`` (in place, left as found at the end).

    Writes the first solution to ``first``; returns (search_calls, solutions, finished),
    ``finished`` False when ``max_calls`` or the deadline stopped the search first.
    """
    n_cells = grid.size
    full = (np.int64(1) << side) - 1
    used = _used_masks(grid, row_of, col_of, box_of, side)
    if used.size == 0:  # clashing givens: no solution, and no search call is made
        return 0, 0, True
    frame_cell = np.empty(n_cells + 1, dtype=np.int64)
    frame_left = np.empty(n_cells + 1, dtype=np.int64)  # digits not tried yet in the frame
    depth = np.int64(0)
    calls = 0
    solutions = 0
    entering = True
    while True:
        if entering:
            # one call of Search: choose the empty cell with the smallest domain
            calls += 1
            if calls > max_calls or (calls % _CLOCK_EVERY == 1 and now() > deadline):
                _unwind(grid, frame_cell, depth, used, row_of, col_of, box_of, side)
                return calls, solutions, False
            best = -1
            best_size = side + 1
            best_domain = np.int64(0)
            for c in range(n_cells):
                if grid[c] != 0:
                    continue
                domain = full & ~(used[row_of[c]] | used[side + col_of[c]]
                                  | used[2 * side + box_of[c]])
                size = popcount(domain)
                if size < best_size:
                    best, best_size, best_domain = c, size, domain
                    if size == 0:
                        break
            if best < 0:  # no empty cell: a solution
                solutions += 1
                if solutions == 1:
                    copy1d(first, grid)
                if solutions >= limit:
                    _unwind(grid, frame_cell, depth, used, row_of, col_of, box_of, side)
                    return calls, solutions, True
            elif best_size > 0:
                frame_cell[depth] = best
                frame_left[depth] = best_domain
                depth += 1
            # an empty domain fails at once: fall through to the parent's next digit
        # the top frame tries its next digit, or returns to its parent
        if depth == 0:
            return calls, solutions, True
        f = depth - 1
        cell = frame_cell[f]
        if grid[cell] != 0:
            _lift(grid, cell, used, row_of, col_of, box_of, side)
        left = frame_left[f]
        if left == 0:
            depth -= 1
            entering = False
            continue
        bit = left & -left
        frame_left[f] = left & ~bit
        d = 1
        while (np.int64(1) << (d - 1)) != bit:
            d += 1
        grid[cell] = d
        used[row_of[cell]] |= bit
        used[side + col_of[cell]] |= bit
        used[2 * side + box_of[cell]] |= bit
        entering = True


@numba.njit(cache=True)
def _lift(grid, cell, used, row_of, col_of, box_of, side):
    """Take the digit in ``cell`` back out of the grid and its units."""
    bit = ~(np.int64(1) << (grid[cell] - 1))
    used[row_of[cell]] &= bit
    used[side + col_of[cell]] &= bit
    used[2 * side + box_of[cell]] &= bit
    grid[cell] = 0


@numba.njit(cache=True)
def _unwind(grid, frame_cell, depth, used, row_of, col_of, box_of, side):
    """Undo every placement still on the stack, so ``grid`` holds the givens again."""
    for f in range(depth):
        if grid[frame_cell[f]] != 0:
            _lift(grid, frame_cell[f], used, row_of, col_of, box_of, side)


def search(puzzle: Puzzle, limit: int = 1, max_calls: int = 2**62,
           deadline: float = NO_DEADLINE) -> tuple[np.ndarray | None, int, int, bool]:
    """(first solution or None, search calls, solutions found (<= limit), finished)."""
    t = topology(puzzle.box)
    grid = puzzle.flat()
    first = np.zeros_like(grid)
    calls, solutions, finished = _search(grid, first, t.row_of, t.col_of, t.box_of, t.side,
                                         max(1, limit), max_calls, deadline)
    return (first if solutions else None), int(calls), int(solutions), bool(finished)


def count_solutions(puzzle: Puzzle, limit: int = 2) -> int:
    """How many solutions ``puzzle`` has, counting no further than ``limit``."""
    return search(puzzle, limit=limit)[2]


@dataclass(frozen=True)
class MrvParams:
    #: when > 0, keep searching past the first solution and report up to this many
    count_solutions: int = 0
    #: stop after this many search calls (0: unlimited); the deadline also applies
    max_calls: int = 0


@register
class MrvBacktracking(WarmOnEmptyGrid, Solver):
    name = "native.backtracking-mrv"
    family = "backtracking"
    encoding = "grid"
    Params = MrvParams
    description = "backtracking on the cell with the fewest candidates (the seed's MRV exercise)"

    def warmup(self) -> None:
        search(Puzzle(2, (0,) * 16), limit=2)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        limit = self.params.count_solutions
        max_calls = self.params.max_calls or 2**62
        first, calls, solutions, finished = search(
            puzzle, limit=limit if limit > 0 else 1, max_calls=max_calls,
            deadline=budget.deadline().at)
        if first is not None:
            reason = StopReason.TARGET
        elif finished:
            reason = StopReason.EXHAUSTED
        else:  # a call cap is the search's own limit; anything else that stopped it, the clock
            reason = StopReason.FINISHED if calls > max_calls else StopReason.CLOCK
        counters = {"search_calls": calls}
        if limit > 0:
            counters["solutions"] = solutions
        grid = first if first is not None else puzzle.flat()
        extra: dict[str, float | int | str] = {}
        if limit > 0:
            extra["count_complete"] = int(finished)
        return Outcome(grid=grid.reshape(puzzle.side, puzzle.side), claims_solved=first is not None,
                       iterations=calls, counters=counters, extra=extra, stop_reason=str(reason))
