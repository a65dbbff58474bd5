"""sudoku-compare: native Sudoku solvers and library adapters behind one interface.

The package root is the *core*: what a solver needs and nothing of the harness.
``from sudoku_compare import Solver, Budget, Outcome, register`` is all an adapter
author imports. The layers import only downward::

    problems/   puzzles, parsing, checker, encodings, objectives   (imports nothing above)
    core        sudoku_compare.{solver,budget,outcome,registry,verify,vocabulary,checks}
    native/, adapters/   solvers (import the core and problems only)
    bench/      runner, executors, campaigns, store, reporting, perf, CLI (the harness)

The repository folders ``problems/``, ``native/``, ``adapters/`` and ``bench/`` are
mapped into this namespace by setuptools, so nothing generic lands at the top of
site-packages.
"""

from sudoku_compare.budget import Budget, Deadline
from sudoku_compare.outcome import Outcome, Status
from sudoku_compare.registry import register
from sudoku_compare.solver import NoParams, Solver
from sudoku_compare.vocabulary import ENCODINGS, FAMILIES, StopReason

__version__ = "0.1.0"

__all__ = [
    "ENCODINGS", "FAMILIES", "Budget", "Deadline", "NoParams", "Outcome", "Solver", "Status",
    "StopReason", "register", "__version__",
]
