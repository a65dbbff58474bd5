"""One warm-up for every adapter: a tiny solve through the very path a timed run takes.

Why not just import the library: the first call into it pays for more than the import
(lazy modules such as ``deap.tools``, loggers and validators built on first use, numba
kernels of the shared objective, CP-SAT's first-solve set-up), and that cost then lands
in the first timed run of each worker. A 4x4 puzzle with a small evaluation budget runs
every line a real solve runs, in milliseconds.
"""

from __future__ import annotations

from sudoku_compare.budget import Budget
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.solver import Solver

#: a 4x4 puzzle with one given: every free row has cells to move, and it is solvable
TINY = Puzzle(2, (1,) + (0,) * 15)
#: enough for one start population or a few epochs, small enough to take milliseconds
WARM_BUDGET = Budget(max_seconds=5.0, max_evaluations=300)


def warm_by_solving(solver: Solver, puzzle: Puzzle = TINY) -> None:
    """Run ``solver`` once on ``puzzle`` (its result is dropped)."""
    solver.solve(puzzle, WARM_BUDGET, 0)
