"""Warming a solver up by solving: a tiny solve through the very path a timed run takes.

Why not just import the library or compile the kernel: the first call pays for more than
that (lazy modules such as ``deap.tools``, loggers and validators built on first use, numba
kernels of the shared objective and the branches settings select, CP-SAT's first-solve
set-up), and that cost then lands in the first timed run of each worker. A puzzle with one
given and a small evaluation budget runs every line a real solve runs, in milliseconds.
Native solvers and adapters both warm up this way.
"""

from __future__ import annotations

from sudoku_compare.problems.puzzle import Puzzle

from .budget import Budget
from .solver import Solver


def one_given(box: int) -> Puzzle:
    """The puzzle of box size ``box`` whose only given is a 1 in the first cell: every free
    row and box has cells to move, every objective exists on it, and it is solvable."""
    return Puzzle(box, (1,) + (0,) * (box ** 4 - 1))


#: the 4x4 :func:`one_given`
TINY = one_given(2)


def warm_by_solving(*solvers: Solver, puzzle: Puzzle = TINY, max_evaluations: int = 300
                    ) -> None:
    """Solve ``puzzle`` once with each solver, seed 0, within ``max_evaluations`` (and 5 s);
    the results are dropped. One solver per compiled path its settings select."""
    for solver in solvers:
        solver.solve(puzzle, Budget(max_seconds=5.0, max_evaluations=max_evaluations), 0)
