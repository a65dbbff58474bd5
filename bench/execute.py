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
    except Exception as exc:  # noqa: BLE001 - a warm-up crash is the run's recorded error
        outcome = _failure(exc, "warm-up")
        outcome.versions = versions_of(spec)
        return outcome
    versions = versions_of(spec)
    if on_start is not None:
        on_start()
    start = time.perf_counter()
    try:
        outcome = solver.solve(puzzle, budget, seed)
    except Exception as exc:  # noqa: BLE001 - a crash is a recorded error, never fatal
        outcome = _failure(exc)
    outcome.elapsed_s = time.perf_counter() - start
    outcome.versions = versions
    return outcome


def _failure(exc: Exception, phase: str | None = None) -> Outcome:
    """The recorded outcome of ``exc`` raised in ``phase`` (None: the solve itself): a
    ``MemoryError`` is ``memout``, anything else ``error`` with the start of its traceback."""
    if isinstance(exc, MemoryError):
        return Outcome(status=Status.MEMOUT, stop_reason=StopReason.ERROR,
                       error=f"MemoryError in the {phase}" if phase else "MemoryError")
    prefix = f"{phase}: " if phase else ""
    tb = traceback.format_exc(limit=3)
    return Outcome(status=Status.ERROR, stop_reason=StopReason.ERROR,
                   error=f"{prefix}{type(exc).__name__}: {exc}\n{tb}"[:2000])
