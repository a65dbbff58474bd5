"""Knuth's Algorithm X with dancing links, on Sudoku as an exact-cover problem.

Rows of the 0/1 matrix are the N^3 choices "digit d in cell c"; its 4 N^2 columns are
the constraints each must be covered exactly once: every cell has a digit, and every
row, column and box has every digit. Each choice covers one column of each kind.

The links live in flat int arrays (``left``, ``right``, ``up``, ``down``, ``column``),
node 0 being the root and nodes 1..columns the column headers, as in Knuth's paper
"Dancing Links" (2000). The full matrix is built once per box size; a solve copies it,
selects the givens' rows, then runs the search: cover the column with the fewest rows
(Knuth's S heuristic), try each of its rows, uncover in reverse order on the way back.
The recursion is an explicit stack of chosen nodes so it compiles with numba.

Counters: ``nodes``, the search-tree nodes visited (one per row tried, plus the root);
``guesses``, rows tried in a column that had more than one row (a real choice). Stop reason:
``target`` (solved), ``exhausted`` (proved unsolvable), ``clock``, or ``finished`` when the
``max_nodes`` cap ended the search. ``warmup_for`` builds the size's matrix, so the first timed
solve costs what the later ones do.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numba
import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._warmup import WarmOnEmptyGrid
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason

from ._jit_clock import NO_DEADLINE, now

#: search-tree nodes between two reads of the clock
_CLOCK_EVERY = 1024


@dataclass(frozen=True)
class ExactCover:
    """The dancing-links matrix of the empty grid of one box size (read-only template)."""

    left: np.ndarray
    right: np.ndarray
    up: np.ndarray
    down: np.ndarray
    column: np.ndarray
    #: matrix row (cell * N + digit - 1) of each node; -1 for the root and headers
    row: np.ndarray
    size: np.ndarray
    #: (N^3,) node of the first column (the cell constraint) of each matrix row
    first_node: np.ndarray


def _columns_of_choice(cell: int, digit: int, box: int) -> tuple[int, int, int, int]:
    """The four constraint columns (1-based header nodes) covered by "digit in cell"."""
    side = box * box
    r, c = divmod(cell, side)
    b = (r // box) * box + c // box
    d = digit - 1
    n2 = side * side
    return (1 + cell, 1 + n2 + r * side + d, 1 + 2 * n2 + c * side + d, 1 + 3 * n2 + b * side + d)


@cache
def exact_cover(box: int) -> ExactCover:
    """Build the linked matrix for box size ``box`` once (cached)."""
    side = box * box
    n_cols = 4 * side * side
    n_rows = side ** 3
    n_nodes = 1 + n_cols + 4 * n_rows
    left = np.zeros(n_nodes, dtype=np.int64)
    right = np.zeros(n_nodes, dtype=np.int64)
    up = np.arange(n_nodes, dtype=np.int64)
    down = np.arange(n_nodes, dtype=np.int64)
    column = np.zeros(n_nodes, dtype=np.int64)
    row = np.full(n_nodes, -1, dtype=np.int64)
    size = np.zeros(n_cols + 1, dtype=np.int64)
    # the header list: root 0 and columns 1..n_cols in a circle
    for h in range(n_cols + 1):
        left[h] = h - 1 if h > 0 else n_cols
        right[h] = h + 1 if h < n_cols else 0
        column[h] = h
    first_node = np.zeros(n_rows, dtype=np.int64)
    node = n_cols + 1
    for cell in range(side * side):
        for digit in range(1, side + 1):
            r = cell * side + digit - 1
            first_node[r] = node
            cols = _columns_of_choice(cell, digit, box)
            for k, col in enumerate(cols):
                n = node + k
                left[n] = node + (k - 1) % 4
                right[n] = node + (k + 1) % 4
                column[n] = col
                row[n] = r
                # append at the bottom of the column
                up[n] = up[col]
                down[n] = col
                down[up[col]] = n
                up[col] = n
                size[col] += 1
            node += 4
    for arr in (left, right, up, down, column, row, size, first_node):
        arr.setflags(write=False)
    return ExactCover(left, right, up, down, column, row, size, first_node)


@numba.njit(cache=True, inline="always")
def _cover(c, left, right, up, down, column, size):
    right[left[c]] = right[c]
    left[right[c]] = left[c]
    i = down[c]
    while i != c:
        j = right[i]
        while j != i:
            down[up[j]] = down[j]
            up[down[j]] = up[j]
            size[column[j]] -= 1
            j = right[j]
        i = down[i]


@numba.njit(cache=True, inline="always")
def _uncover(c, left, right, up, down, column, size):
    i = up[c]
    while i != c:
        j = left[i]
        while j != i:
            size[column[j]] += 1
            down[up[j]] = j
            up[down[j]] = j
            j = left[j]
        i = up[i]
    right[left[c]] = c
    left[right[c]] = c


@numba.njit(cache=True)
def _select_givens(givens, first_node, left, right, up, down, column, size, covered):
    """Put every given's row into the partial solution; False when two givens clash."""
    side_cells = givens.size
    side = first_node.size // side_cells
    for cell in range(side_cells):
        v = givens[cell]
        if v == 0:
            continue
        r = first_node[cell * side + v - 1]
        j = r
        while True:  # a row whose column is already covered was removed by a clashing given
            if covered[column[j]]:
                return False
            j = right[j]
            if j == r:
                break
        j = r
        while True:
            covered[column[j]] = True
            _cover(column[j], left, right, up, down, column, size)
            j = right[j]
            if j == r:
                break
    return True


@numba.njit(cache=True)
def _search(givens, out, first_node, left, right, up, down, column, row, size, max_nodes,
            deadline):
    """Algorithm X from the givens; writes the grid to ``out``.

    Returns (status, nodes, guesses): status 1 solved, 0 no solution, -1 stopped.
    """
    n_cells = givens.size
    side = first_node.size // n_cells
    covered = np.zeros(size.size, dtype=np.bool_)
    for c in range(n_cells):
        out[c] = givens[c]
    if not _select_givens(givens, first_node, left, right, up, down, column, size, covered):
        return 0, 0, 0
    chosen = np.zeros(n_cells + 1, dtype=np.int64)  # the node tried at each level
    level = 0
    nodes = 1  # the root
    guesses = 0
    entering = True
    while True:
        if entering:
            if right[0] == 0:  # every column covered: the chosen rows are a solution
                for k in range(level):
                    r = row[chosen[k]]
                    out[r // side] = r % side + 1
                return 1, nodes, guesses
            c = right[0]
            best = c
            while c != 0:
                if size[c] < size[best]:
                    best = c
                    if size[c] <= 1:
                        break
                c = right[c]
            _cover(best, left, right, up, down, column, size)
            chosen[level] = down[best]
        else:
            # back from a child: undo the row tried at this level and move to the next one
            r = chosen[level]
            j = left[r]
            while j != r:
                _uncover(column[j], left, right, up, down, column, size)
                j = left[j]
            chosen[level] = down[r]
        r = chosen[level]
        c = column[r]
        if r == c:  # no row left in this column: uncover it and return to the parent
            _uncover(c, left, right, up, down, column, size)
            if level == 0:
                return 0, nodes, guesses
            level -= 1
            entering = False
            continue
        nodes += 1
        if up[r] != c or down[r] != c:  # the column had another row: this is a guess
            guesses += 1
        # the clock is first read at node 2, so that even a short warm-up solve runs (and
        # numba compiles) the objmode read instead of leaving it to the first timed solve
        if nodes > max_nodes or (nodes % _CLOCK_EVERY == 2 and now() > deadline):
            return -1, nodes, guesses
        j = right[r]
        while j != r:
            _cover(column[j], left, right, up, down, column, size)
            j = right[j]
        level += 1
        entering = True


def solve_grid(puzzle: Puzzle, max_nodes: int = 2**62,
               deadline: float = NO_DEADLINE) -> tuple[np.ndarray, int, int, int]:
    """(flat grid, status, nodes, guesses) for one puzzle."""
    m = exact_cover(puzzle.box)
    out = np.zeros(puzzle.n_cells, dtype=np.int64)
    status, nodes, guesses = _search(
        puzzle.flat(), out, m.first_node, m.left.copy(), m.right.copy(), m.up.copy(),
        m.down.copy(), m.column, m.row, m.size.copy(), max_nodes, deadline)
    return out, int(status), int(nodes), int(guesses)


@dataclass(frozen=True)
class DlxParams:
    #: stop after this many search-tree nodes (0: unlimited); the deadline also applies
    max_nodes: int = 0


@register
class DancingLinks(WarmOnEmptyGrid, Solver):
    name = "native.dlx"
    family = "exact"
    encoding = "exact-cover"
    Params = DlxParams
    description = "Knuth's Algorithm X with dancing links on the exact-cover matrix (numba)"

    def warmup(self) -> None:
        solve_grid(Puzzle(2, (0,) * 16))

    def warmup_for(self, puzzle: Puzzle) -> None:
        # the size's matrix (2.5 ms for 9x9) is built here, not inside the first timed solve;
        # the solve of an empty grid of that size runs the same path a timed solve does
        exact_cover(puzzle.box)
        super().warmup_for(puzzle)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        max_nodes = self.params.max_nodes or 2**62
        grid, status, nodes, guesses = solve_grid(puzzle, max_nodes, budget.deadline().at)
        if status == 1:
            reason = StopReason.TARGET
        elif status == 0:
            reason = StopReason.EXHAUSTED
        else:  # a node cap is the search's own limit; anything else stopped it is the clock
            reason = StopReason.FINISHED if nodes > max_nodes else StopReason.CLOCK
        return Outcome(grid=grid.reshape(puzzle.side, puzzle.side), claims_solved=status == 1,
                       iterations=nodes, counters={"nodes": nodes, "guesses": guesses},
                       stop_reason=str(reason))
