"""The speed champion: bit-set candidates, singles and locked candidates, guess on the fewest.

Each cell holds its candidate digits as the bits of one int64 (digit d is bit d-1; 25
digits fit). Propagation repeats three rules until none changes anything:

* naked single: a cell with one candidate is placed and that digit leaves its peers;
* hidden single: a digit with one possible cell in a unit goes there;
* locked candidates (pointing and claiming): a digit confined to one box-row or box-column
  segment of a box (or of a line) leaves the rest of that line (or box). It is cheap on
  bit sets and removes most guesses on hard sets (top95:0 needs none with it, 25 without;
  ``solve_grid(..., locked_candidates=False)`` turns it off).

When propagation stalls, the search guesses on a cell with the fewest candidates,
trying its digits in increasing order, with a copy of the candidate array per level
so that undoing a guess is one index decrement. The whole solve runs inside one numba
kernel, and :func:`solve_batch` runs a whole file inside one kernel call, so the cost
per puzzle is the search itself, not Python overhead (the quantity tdoku's benchmark
reports as puzzles per second, with "% no guess" and "guesses per puzzle").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numba
import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.encodings.array_copy import copy1d
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.topology import topology
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason

from ._jit_clock import NO_DEADLINE, lowest_digit, now, popcount

#: flag bit (above any digit) marking a cell whose digit has been removed from its peers
PLACED = np.int64(1 << 40)
#: how many guesses between two reads of the clock
_CLOCK_EVERY = 256

SOLVED, UNSOLVABLE, ABORTED = 1, 0, -1


@numba.njit(cache=True)
def _initial_candidates(givens, cand, units, row_of, col_of, box_of, side):
    """Fill ``cand`` from the givens; False when two givens clash in a unit."""
    full = (np.int64(1) << side) - 1
    used = np.zeros(3 * side, dtype=np.int64)
    n_cells = givens.size
    for c in range(n_cells):
        v = givens[c]
        if v == 0:
            continue
        bit = np.int64(1) << (v - 1)
        r, k, b = row_of[c], side + col_of[c], 2 * side + box_of[c]
        if (used[r] | used[k] | used[b]) & bit:
            return False
        used[r] |= bit
        used[k] |= bit
        used[b] |= bit
    for c in range(n_cells):
        v = givens[c]
        if v != 0:
            cand[c] = (np.int64(1) << (v - 1)) | PLACED
        else:
            cand[c] = full & ~(used[row_of[c]] | used[side + col_of[c]] | used[2 * side + box_of[c]])
            if cand[c] == 0:
                return False
    return True


@numba.njit(cache=True)
def _propagate(cand, peers, units, segments, box, side, queue):
    """Naked and hidden singles to a fixpoint on ``cand`` (in place); False on a contradiction."""
    full = (np.int64(1) << side) - 1
    n_cells = cand.size
    tail = np.int64(0)
    for c in range(n_cells):
        v = cand[c]
        if not (v & PLACED) and (v & (v - 1)) == 0:
            queue[tail] = c
            tail += 1
    head = 0
    while True:
        # naked singles: place each queued cell and strike its digit from the peers
        while head < tail:
            c = queue[head]
            head += 1
            v = cand[c]
            if v & PLACED:
                continue
            cand[c] = v | PLACED
            for p in peers[c]:
                w = cand[p]
                if w & v:
                    if w & PLACED:
                        return False
                    w &= ~v
                    if w == 0:
                        return False
                    cand[p] = w
                    if (w & (w - 1)) == 0:
                        queue[tail] = p
                        tail += 1
        # hidden singles: a digit with one place left in a unit
        progress = False
        for u in range(units.shape[0]):
            once = np.int64(0)
            twice = np.int64(0)
            for c in units[u]:
                v = cand[c] & full
                twice |= once & v
                once |= v
            if once != full:
                return False  # some digit has no place left in this unit
            hidden = once & ~twice
            if hidden == 0:
                continue
            for c in units[u]:
                v = cand[c] & full
                h = v & hidden
                if h != 0 and h != v:
                    if h & (h - 1):
                        return False  # two digits need this same cell
                    cand[c] = h
                    queue[tail] = c
                    tail += 1
                    progress = True
        if not progress and box > 0:
            tail, changed = _locked_candidates(cand, segments, box, side, queue, tail)
            if changed < 0:
                return False
            progress = changed > 0
        if not progress:
            return True
        if tail > n_cells * 2:  # queue reuse: compact it (entries before head are done)
            n = tail - head
            for i in range(n):
                queue[i] = queue[head + i]
            head, tail = 0, n


@numba.njit(cache=True)
def _locked_candidates(cand, segments, box, side, queue, tail):
    """Pointing and claiming on every line/box intersection, in place.

    For a segment S (a line inside a box), with LR the rest of the line and BR the rest
    of the box: a digit of S absent from LR is confined to S within the line, so it
    leaves BR; a digit of S absent from BR leaves LR. Returns (new queue tail,
    changed), changed being -1 on a contradiction.
    """
    full = (np.int64(1) << side) - 1
    rest = side - box
    changed = 0
    for s in range(segments.shape[0]):
        seg = segments[s]
        in_seg = np.int64(0)
        for i in range(box):
            in_seg |= cand[seg[i]]
        in_seg &= full
        in_line = np.int64(0)
        in_box = np.int64(0)
        for i in range(rest):
            in_line |= cand[seg[box + i]]
            in_box |= cand[seg[box + rest + i]]
        for k in range(2):
            # k = 0: digits confined to S in the line leave the box rest; k = 1: the converse
            if k == 0:
                mask, start = in_seg & ~in_line & in_box, box + rest
            else:
                mask, start = in_seg & ~in_box & in_line, box
            if mask == 0:
                continue
            for i in range(rest):
                c = seg[start + i]
                w = cand[c]
                if w & mask and not (w & PLACED):
                    w &= ~mask
                    if w == 0:
                        return tail, -1
                    cand[c] = w
                    changed = 1
                    if (w & (w - 1)) == 0:
                        queue[tail] = c
                        tail += 1
    return tail, changed


@numba.njit(cache=True)
def _fewest_candidates_cell(cand):
    """The unplaced cell with the fewest candidates (first in row-major order), or -1."""
    best = -1
    best_count = 1 << 30
    for c in range(cand.size):
        v = cand[c]
        if v & PLACED:
            continue
        k = popcount(v)
        if k < best_count:
            best, best_count = c, k
            if k == 2:
                break
    return best


@numba.njit(cache=True)
def _solve_one(givens, out, stack, queue, peers, units, segments, row_of, col_of, box_of,
               locked_box, side, max_guesses, deadline):
    """Solve one puzzle; writes the grid to ``out``. Returns (status, guesses)."""
    n_cells = givens.size
    full = (np.int64(1) << side) - 1
    guesses = 0
    for c in range(n_cells):
        out[c] = givens[c]
    if not _initial_candidates(givens, stack[0], units, row_of, col_of, box_of, side):
        return UNSOLVABLE, 0
    if not _propagate(stack[0], peers, units, segments, locked_box, side, queue):
        return UNSOLVABLE, 0
    # frame d: branch cell and the digits not tried yet at that cell
    branch_cell = np.empty(n_cells + 1, dtype=np.int64)
    untried = np.zeros(n_cells + 1, dtype=np.int64)
    depth = 0
    descend = True
    while True:
        if descend:
            cell = _fewest_candidates_cell(stack[depth])
            if cell < 0:
                for c in range(n_cells):
                    out[c] = lowest_digit(stack[depth][c] & full)
                return SOLVED, guesses
            branch_cell[depth] = cell
            untried[depth] = stack[depth][cell] & full
        # try the next digit at this frame's branch cell, or go back up
        if untried[depth] == 0:
            if depth == 0:
                return UNSOLVABLE, guesses
            depth -= 1
            descend = False
            continue
        bit = untried[depth] & -untried[depth]
        untried[depth] &= ~bit
        guesses += 1
        if guesses > max_guesses:
            return ABORTED, guesses
        if guesses % _CLOCK_EVERY == 1 and now() > deadline:
            return ABORTED, guesses
        child = stack[depth + 1]
        copy1d(child, stack[depth])
        child[branch_cell[depth]] = bit
        if _propagate(child, peers, units, segments, locked_box, side, queue):
            depth += 1
            descend = True
        else:
            descend = False


@numba.njit(cache=True)
def _solve_many(givens, peers, units, segments, row_of, col_of, box_of, locked_box, side,
                max_guesses):
    """Solve each row of ``givens``; returns (grids, statuses, guesses)."""
    n, n_cells = givens.shape
    grids = np.zeros((n, n_cells), dtype=np.int64)
    statuses = np.zeros(n, dtype=np.int64)
    guesses = np.zeros(n, dtype=np.int64)
    stack = np.zeros((n_cells + 1, n_cells), dtype=np.int64)
    queue = np.zeros(3 * n_cells + 1, dtype=np.int64)
    for i in range(n):
        s, g = _solve_one(givens[i], grids[i], stack, queue, peers, units, segments, row_of,
                          col_of, box_of, locked_box, side, max_guesses, NO_DEADLINE)
        statuses[i] = s
        guesses[i] = g
    return grids, statuses, guesses


@cache
def _segments(box: int) -> np.ndarray:
    """Every line/box intersection as one row: its cells, the rest of the line, the rest of the box."""
    t = topology(box)
    rows = []
    for line_kind in (0, 1):  # rows, then columns
        for line in range(t.side):
            line_cells = t.units[line_kind * t.side + line]
            for j in range(box):
                seg = line_cells[j * box:(j + 1) * box]
                b = int(t.box_of[seg[0]])
                box_cells = t.units[2 * t.side + b]
                rows.append(list(seg) + [c for c in line_cells if c not in seg]
                            + [c for c in box_cells if c not in seg])
    arr = np.array(rows, dtype=np.int64)
    arr.setflags(write=False)
    return arr


def _tables(box: int, locked_candidates: bool = True):
    """The kernel's arguments from the topology, in order, up to ``side``."""
    t = topology(box)
    return (t.peers, t.units, _segments(box), t.row_of, t.col_of, t.box_of,
            box if locked_candidates else 0, t.side)


def solve_grid(puzzle: Puzzle, max_guesses: int = 2**62, deadline: float = NO_DEADLINE,
               locked_candidates: bool = True) -> tuple[np.ndarray, int, int]:
    """(flat grid, status, guesses) for one puzzle; ``deadline`` is a perf_counter instant."""
    n = puzzle.n_cells
    out = np.zeros(n, dtype=np.int64)
    stack = np.zeros((n + 1, n), dtype=np.int64)
    queue = np.zeros(3 * n + 1, dtype=np.int64)
    status, guesses = _solve_one(puzzle.flat(), out, stack, queue, *_tables(puzzle.box, locked_candidates),
                                 max_guesses, deadline)
    return out, int(status), int(guesses)


def solve_batch(puzzles: Sequence[Puzzle] | np.ndarray, max_guesses: int = 2**62,
                locked_candidates: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Solve a whole set in one compiled call: (grids (n, cells), guesses (n,), statuses (n,)).

    ``puzzles`` is a list of puzzles of one box size, or an (n, cells) int array of givens.
    A status is 1 (solved), 0 (no solution) or -1 (stopped at ``max_guesses``); the
    grid of an unsolved puzzle holds its givens. No deadline is checked: a batch is for
    throughput, where a per-puzzle guess cap is the way to bound it.
    """
    if isinstance(puzzles, np.ndarray):
        givens = np.ascontiguousarray(puzzles, dtype=np.int64)
        if givens.ndim != 2:
            raise InputError("solve_batch wants an (n, cells) array of givens")
        from sudoku_compare.problems.topology import box_for_cells

        box = box_for_cells(givens.shape[1])
        if box is None:
            raise InputError(f"{givens.shape[1]} cells is not n**4 for a box size n in 2..5")
    else:
        if not puzzles:
            return (np.zeros((0, 0), np.int64),) * 3  # type: ignore[return-value]
        boxes = {p.box for p in puzzles}
        if len(boxes) != 1:
            raise InputError(f"solve_batch needs puzzles of one box size, got {sorted(boxes)}")
        box = boxes.pop()
        givens = np.array([p.cells for p in puzzles], dtype=np.int64)
    grids, statuses, guesses = _solve_many(givens, *_tables(box, locked_candidates), max_guesses)
    return grids, guesses, statuses


@dataclass(frozen=True)
class BitmaskParams:
    #: stop after this many guesses (0: unlimited); the deadline also applies
    max_guesses: int = 0


@register
class BitmaskSolver(Solver):
    name = "native.bitmask"
    family = "exact"
    encoding = "grid"
    Params = BitmaskParams
    description = "bit-set candidates, singles + locked candidates, guess on fewest (numba)"

    def warmup(self) -> None:
        # an empty grid needs guesses, so the clock read (objmode, slow the first time) runs too
        solve_batch([Puzzle(2, (0,) * 16)])
        solve_grid(Puzzle(3, (0,) * 81))

    def warmup_for(self, puzzle: Puzzle) -> None:
        # the size's tables, through solve itself on an empty grid: the timed solve's path
        self.solve(Puzzle(puzzle.box, (0,) * puzzle.n_cells), Budget(max_seconds=0.05), 0)

    def solve_batch(self, puzzles: Sequence[Puzzle] | np.ndarray, max_guesses: int = 0
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A whole set in one compiled call: (grids (n, cells), guesses (n,), statuses (n,)).

        The harness's way to the batch kernel (it reaches solvers only through the
        registry); ``max_guesses`` 0 takes the solver's own cap. See :func:`solve_batch`.
        """
        cap = max_guesses or self.params.max_guesses or 2**62
        return solve_batch(puzzles, cap)

    def solve(self, puzzle: Puzzle, budget: Budget, seed: int) -> Outcome:
        deadline = budget.deadline().at
        max_guesses = self.params.max_guesses or 2**62
        grid, status, guesses = solve_grid(puzzle, max_guesses, deadline)
        counters = {"guesses": guesses, "no_guess": int(status == SOLVED and guesses == 0)}
        if status == SOLVED:
            reason = StopReason.TARGET
        elif status == UNSOLVABLE:
            reason = StopReason.EXHAUSTED
        else:  # a guess cap is the search's own limit; anything else that stopped it, the clock
            reason = StopReason.FINISHED if guesses > max_guesses else StopReason.CLOCK
        return Outcome(grid=grid.reshape(puzzle.side, puzzle.side), claims_solved=status == SOLVED,
                       iterations=guesses, counters=counters, stop_reason=str(reason))
