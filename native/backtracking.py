"""The seed's naive backtracking: cells in row-major order, digits tried 1..N.

The seed's ``Search(s, row, col)`` counts one "search call" on entry, and it walks the
grid as ``row, col`` with ``col`` running to N: reaching ``col == N`` is a call of its own
that only moves on to ``(row + 1, 0)``. So besides the calls that place a digit, step over
a given, and the final call past the last row (``row == N``), every forward pass over a
row's end costs one more call. That is why a plain cell-by-cell count falls short
(111 instead of the seed's 122 on easy51:0).

Here the walk is over N*(N+1) positions (N cells and one "end of row" per row) plus the
final one, as an explicit stack in a numba kernel, with the row, column and box digits
held as bit sets, so the 124.6 million calls of top95:4 take seconds; the count is the
seed's, the validity test is only faster.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._jit_clock import NO_DEADLINE, now
from sudoku_compare.native._warmup import WarmOnEmptyGrid
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason

#: search calls between two reads of the clock (a read costs about a microsecond)
_CLOCK_EVERY = 1 << 20


@numba.njit(cache=True)
def _search(grid, side, box, max_calls, deadline):
    """Iterative form of the seed's ``Search(s, row, col)``.

    Returns (status, search_calls): status 1 solved, 0 no solution, -1 call limit,
    -2 deadline.
    """
    width = side + 1                      # N cells and the "col == N" step per row
    end = side * width                    # position of "row == N": the grid is full
    # per position: the cell, its row/col/box, or -1 for a step (end of row or given)
    pos_cell = np.full(end, -1, dtype=np.int64)
    pos_row = np.zeros(end, dtype=np.int64)
    pos_col = np.zeros(end, dtype=np.int64)
    pos_box = np.zeros(end, dtype=np.int64)
    rows = np.zeros(side, dtype=np.int64)
    cols = np.zeros(side, dtype=np.int64)
    boxes = np.zeros(side, dtype=np.int64)
    for r in range(side):
        for c in range(side):
            i = r * side + c
            b = (r // box) * box + c // box
            p = r * width + c
            pos_row[p], pos_col[p], pos_box[p] = r, c, b
            d = grid[i]
            if d:
                bit = np.int64(1) << d
                rows[r] |= bit
                cols[c] |= bit
                boxes[b] |= bit
            else:
                pos_cell[p] = i
    top = np.int64(1) << (side + 1)       # first bit past the last digit
    tried = np.zeros(end + 1, dtype=np.int64)  # bit of the digit placed at a position
    calls = 1                             # the first call, Search(s, 0, 0)
    next_clock = 2                        # first read early: warmup runs the objmode path
    pos = 0
    forward = True                        # entering `pos` (a call) or returning into it
    while True:
        if pos == end:
            _write_back(grid, pos_cell, tried)
            return 1, calls
        cell = pos_cell[pos]
        if cell < 0:
            # end of a row or a given: one call further on entry, pass failure back up
            advance = forward
        else:
            r, c, b = pos_row[pos], pos_col[pos], pos_box[pos]
            bit = tried[pos]
            if bit:                        # undo the digit whose subtree failed
                rows[r] ^= bit
                cols[c] ^= bit
                boxes[b] ^= bit
                bit <<= 1
            else:
                bit = np.int64(2)          # digit 1
            used = rows[r] | cols[c] | boxes[b]
            while bit < top and used & bit:
                bit <<= 1
            if bit < top:
                rows[r] |= bit
                cols[c] |= bit
                boxes[b] |= bit
                tried[pos] = bit
                advance = True
            else:
                tried[pos] = 0
                advance = False
        if advance:                        # the recursive call for the next position
            pos += 1
            forward = True
            calls += 1
            if calls > max_calls:
                break
            if calls >= next_clock:
                next_clock += _CLOCK_EVERY
                if now() > deadline:
                    _write_back(grid, pos_cell, tried)
                    return -2, calls
        else:                              # return false to the caller
            pos -= 1
            forward = False
            if pos < 0:
                return 0, calls
    _write_back(grid, pos_cell, tried)
    return -1, calls


@numba.njit(cache=True)
def _write_back(grid, pos_cell, tried):
    """Put the digits of the current partial assignment into ``grid``."""
    for p in range(pos_cell.size):
        if pos_cell[p] >= 0:
            bit = tried[p]
            d = 0
            while bit > 1:
                bit >>= 1
                d += 1
            grid[pos_cell[p]] = d


@dataclass(frozen=True)
class BacktrackingParams:
    #: stop after this many search calls (0: unlimited); the deadline also applies
    max_calls: int = 0


@register
class NaiveBacktracking(WarmOnEmptyGrid, Solver):
    name = "native.backtracking"
    family = "backtracking"
    encoding = "grid"
    Params = BacktrackingParams
    description = "the seed's naive backtracking (row-major cells, digits 1..N)"

    def warmup(self) -> None:
        _search(np.zeros(16, dtype=np.int64), 4, 2, 10, NO_DEADLINE)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        grid = puzzle.flat()
        limit = self.params.max_calls or 2**62
        deadline = budget.deadline().at if budget.max_seconds else NO_DEADLINE
        status, calls = _search(grid, puzzle.side, puzzle.box, limit, deadline)
        # a call limit is the search's own end (finished); the deadline is the clock
        reason = {1: StopReason.TARGET, 0: StopReason.EXHAUSTED, -1: StopReason.FINISHED,
                  -2: StopReason.CLOCK}[int(status)]
        return Outcome(grid=grid.reshape(puzzle.side, puzzle.side), claims_solved=status == 1,
                       iterations=int(calls), counters={"search_calls": int(calls)},
                       stop_reason=str(reason))
