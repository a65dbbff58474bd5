"""The one in-process execute path: warm the solver up, time ``solve``, record what ran.

``api.solve`` (a notebook user, ``sudoku-compare solve``) and the campaign worker both
call :func:`execute`, so a run measured in a notebook and a run stored by a campaign
go through the same steps: warm-up outside the clock, a crash (of the warm-up too)
recorded as ``error``
(never a traceback), a ``MemoryError`` as ``memout``, versions stamped. Verification
is the caller's: the worker sends the outcome to the driver, which verifies it there.
"""

from __future__ import annotations

import platform
import time
import traceback
from collections.abc import Callable, MutableSet

import numpy as np

from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome, Status
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.registry import SolverSpec
from sudoku_compare.solver import Solver
from sudoku_compare.vocabulary import StopReason


def versions_of(spec: SolverSpec | None) -> dict[str, str]:
    """The versions a stored run records: Python, numpy and the adapted library."""
    out = {"python": platform.python_version(), "numpy": np.__version__}
    if spec is not None and (v := spec.cls.library_version()) is not None:
        out[spec.origin] = v
    return out


def warm(solver: Solver, puzzle: Puzzle, warmed: MutableSet[str] | None = None) -> None:
    """Run ``warmup`` once per solver and ``warmup_for`` once per (solver, box size).

    ``warmed`` remembers what a long-lived worker has already done; None warms
    unconditionally (a one-off solve).
    """
    if warmed is None:
        solver.warmup()
        solver.warmup_for(puzzle)
        return
    if solver.name not in warmed:
        solver.warmup()
        warmed.add(solver.name)
    if (sized := f"{solver.name}@{puzzle.box}") not in warmed:
        solver.warmup_for(puzzle)
        warmed.add(sized)


def execute(spec: SolverSpec, solver: Solver, puzzle: Puzzle, budget: Budget, seed: int,
            warmed: MutableSet[str] | None = None,
            on_start: Callable[[], None] | None = None) -> Outcome:
    """Warm up, then time one ``solve``; the outcome is not yet verified.

    ``on_start`` is called just before the clock starts (the worker tells its driver
    then, so the hard deadline starts at the solve and not at the warm-up).
    """
    try:
        warm(solver, puzzle, warmed)
    except MemoryError:
        return Outcome(status=Status.MEMOUT, error="MemoryError in the warm-up",
                       stop_reason=StopReason.ERROR, versions=versions_of(spec))
    except Exception as exc:  # a warm-up crash is the run's recorded error, not a traceback
        return Outcome(status=Status.ERROR, stop_reason=StopReason.ERROR,
                       error=f"warm-up: {type(exc).__name__}: {exc}"[:2000],
                       versions=versions_of(spec))
    versions = versions_of(spec)
    if on_start is not None:
        on_start()
    start = time.perf_counter()
    try:
        outcome = solver.solve(puzzle, budget, seed)
    except MemoryError:
        outcome = Outcome(status=Status.MEMOUT, error="MemoryError",
                          stop_reason=StopReason.ERROR)
    except Exception as exc:  # a crash is a recorded error, never fatal
        tb = traceback.format_exc(limit=3)
        outcome = Outcome(status=Status.ERROR, error=f"{type(exc).__name__}: {exc}\n{tb}"[:2000],
                          stop_reason=StopReason.ERROR)
    outcome.elapsed_s = time.perf_counter() - start
    outcome.versions = versions
    return outcome
