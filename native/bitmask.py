"""The speed champion: bit-set candidates, singles and locked candidates, guess on the fewest.

Propagation at every node: naked and hidden singles over every unit from bit-parallel
counts, and locked candidates (pointing and claiming: a digit confined to one box-row or
box-column segment of a box, or of a line, leaves the rest of that line, or box;
``solve_grid(..., locked_candidates=False)`` turns it off). When propagation stalls, the
search guesses on a cell with the fewest candidates, ties going to the one with the most
unplaced peers, one digit at a time: the digit goes into a copy of the node, and when the
copy fails it is struck from the node, which is propagated again before the next branch.
9x9 runs on band-wise bitboards (30 words a node), every other size on one word per cell;
:mod:`.bitmask_kernel` holds both, and says why.

The whole solve runs inside one numba kernel, and :func:`solve_batch` runs a whole file
inside one kernel call, so the cost per puzzle is the search itself, not Python overhead
(the quantity tdoku's benchmark reports as puzzles per second, with "% no guess" and
"guesses per puzzle").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.native._warmup import WarmOnEmptyGrid
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.topology import box_for_cells, topology
from sudoku_compare.registry import register
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason

from . import bitmask_kernel as kernel
from ._jit_clock import NO_DEADLINE

SOLVED, UNSOLVABLE, ABORTED = kernel.SOLVED, kernel.UNSOLVABLE, kernel.ABORTED


def _tables(box: int):
    """The cell kernel's topology arguments, in order."""
    t = topology(box)
    return t.peers, t.units, t.cell_units, t.row_of, t.col_of, t.box_of, box, t.side


@cache
def _scratch(box: int, bands: bool) -> tuple[np.ndarray, ...]:
    """One set of search scratch per size, reused by every :func:`solve_grid` call."""
    if bands:
        return (np.zeros((82, kernel.NODE9), np.int64), np.zeros((82, 3), np.int64),
                np.zeros(kernel.SNAP9, np.int64))
    side = box * box
    n = side * side
    return (np.zeros((n + 1, n), np.int32), np.zeros(2 * n + 1, np.int64),
            np.zeros(3 * side, np.int8), np.zeros(2 * box, np.int8),
            np.zeros((box, box), np.int32), np.zeros((n + 1, 2), np.int64))


def solve_grid(puzzle: Puzzle, max_guesses: int = 2**62, deadline: float = NO_DEADLINE,
               locked_candidates: bool = True, cells: bool = False
               ) -> tuple[np.ndarray, int, int]:
    """(flat grid, status, guesses) for one puzzle; ``deadline`` is a perf_counter instant.

    ``cells`` runs 9x9 on the one-word-per-cell kernel instead of the bitboards (the same
    search, slower; for checking one against the other).
    """
    out = np.zeros(puzzle.n_cells, dtype=np.int64)
    givens = np.asarray(puzzle.flat(), dtype=np.int64)
    if puzzle.box == 3 and not cells:
        stack, branch, snap = _scratch(3, True)
        status, guesses = kernel.solve_one9(givens, out, stack, branch, snap, locked_candidates,
                                            max_guesses, deadline)
    else:
        status, guesses = kernel.solve_one(givens, out, *_scratch(puzzle.box, False),
                                           *_tables(puzzle.box), locked_candidates,
                                           max_guesses, deadline)
    return out, int(status), int(guesses)


def solve_batch(puzzles: Sequence[Puzzle] | np.ndarray, max_guesses: int = 2**62,
                locked_candidates: bool = True, cells: bool = False
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Solve a whole set in one compiled call: (grids (n, cells), guesses (n,), statuses (n,)).

    ``puzzles`` is a list of puzzles of one box size, or an (n, cells) int array of givens.
    A status is 1 (solved), 0 (no solution) or -1 (stopped at ``max_guesses``); the
    grid of an unsolved puzzle holds its givens. No deadline is checked: a batch is for
    throughput, where a per-puzzle guess cap is the way to bound it. ``cells`` as in
    :func:`solve_grid`.
    """
    if isinstance(puzzles, np.ndarray):
        givens = np.ascontiguousarray(puzzles, dtype=np.int64)
        if givens.ndim != 2:
            raise InputError("solve_batch wants an (n, cells) array of givens")
        box = box_for_cells(givens.shape[1])
        if box is None:
            raise InputError(f"{givens.shape[1]} cells is not n**4 for a box size n in 2..5")
        side = box * box
        if givens.size and (givens.min() < 0 or givens.max() > side):
            # the kernels index their words by digit and do not check (a wrong value would
            # write outside the node), so a bad array stops here, as a bad Puzzle does earlier
            raise InputError(f"givens must be 0 (empty) or digits 1..{side}, got values "
                             f"{int(givens.min())}..{int(givens.max())}")
    else:
        if not puzzles:
            return (np.zeros((0, 0), np.int64),) * 3  # type: ignore[return-value]
        boxes = {p.box for p in puzzles}
        if len(boxes) != 1:
            raise InputError(f"solve_batch needs puzzles of one box size, got {sorted(boxes)}")
        box = boxes.pop()
        givens = np.array([p.cells for p in puzzles], dtype=np.int64)
    if box == 3 and not cells:
        grids, statuses, guesses = kernel.solve_many9(givens, locked_candidates, max_guesses,
                                                      NO_DEADLINE)
    else:
        grids, statuses, guesses = kernel.solve_many(givens, *_tables(box), locked_candidates,
                                                     max_guesses, NO_DEADLINE)
    return grids, guesses, statuses


@dataclass(frozen=True)
class BitmaskParams:
    #: stop after this many guesses (0: unlimited); the deadline also applies
    max_guesses: int = 0


@register
class BitmaskSolver(WarmOnEmptyGrid, Solver):
    name = "native.bitmask"
    family = "exact"
    encoding = "grid"
    Params = BitmaskParams
    description = ("bitboards, singles + locked candidates at every node, binary guesses on "
                   "the fewest candidates and most unplaced peers (numba)")

    def warmup(self) -> None:
        # The 9x9 path of solve() only: an empty grid needs guesses, so the clock read
        # (objmode, slow the first time) runs too. Other sizes are warmed by warmup_for,
        # the batch kernels by their caller (perf batch); loading all four kernels here
        # cost each campaign worker about 0.1 s more before its first run.
        self.warmup_for(Puzzle(3, (0,) * 81))

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
