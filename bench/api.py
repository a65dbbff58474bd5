"""The Python API the CLI is a thin layer over (notebook users call it directly)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import resolve_puzzle
from sudoku_compare.solver import parse_params
from sudoku_compare.verify import verify

from .campaign import run_campaign as _run_campaign
from .execute import execute
from .runner import DEFAULT_MEMORY_MB, Task, run_isolated
from .sweeps import expand_solvers


def _prepare(solver: str, puzzle: str | Puzzle, params: list[str] | dict[str, Any] | None,
             seed: int = 0):
    """The spec, the puzzle and typed parameter overrides; bad input raises ``InputError``."""
    if seed < 0:
        raise InputError(f"seed {seed}: must be 0 or more (numpy seeds are unsigned)")
    spec = registry.get(solver)
    ok, reason = spec.availability()
    if not ok:
        raise InputError(f"{solver} is unavailable: {reason}")
    pz = resolve_puzzle(puzzle) if isinstance(puzzle, str) else puzzle
    overrides = parse_params(spec.cls.Params, params, solver) if isinstance(params, list) else (params or {})
    return spec, pz, overrides


def solve(solver: str, puzzle: str | Puzzle, budget: Budget | None = None, seed: int = 0,
          params: list[str] | dict[str, Any] | None = None) -> tuple[Outcome, Puzzle]:
    """Solve one puzzle with one solver, in this process, and verify the grid.

    Returns the verified :class:`Outcome` and the puzzle. (Isolated runs with a hard
    deadline are the campaign runner's job.)
    """
    spec, pz, overrides = _prepare(solver, puzzle, params, seed)
    outcome = execute(spec, spec.create(**overrides), pz, budget or Budget(), seed,
                      warmed=_WARMED)
    return verify(pz, outcome), pz


#: what this process has warmed up (as a campaign worker remembers it): ``warmup`` once
#: per solver, ``warmup_for`` once per solver and box size, so a loop of ``solve`` calls
#: pays them once (they cost about 140 us a call when repeated)
_WARMED: set[str] = set()


def solve_isolated(solver: str, puzzle: str | Puzzle, budget: Budget | None = None, seed: int = 0,
                   params: list[str] | dict[str, Any] | None = None,
                   memory_mb: int | None = None) -> tuple[Outcome, Puzzle]:
    """Like :func:`solve`, but in a fresh worker process with a hard deadline and memory cap."""
    spec, pz, overrides = _prepare(solver, puzzle, params, seed)
    spec.create(**overrides)  # a bad value fails here, not in the worker
    task = Task(solver, pz.to_line(), budget or Budget(), seed, dict(overrides))
    return run_isolated(task, memory_mb=memory_mb or DEFAULT_MEMORY_MB), pz


def run_campaign(solvers: Sequence[Any], *args: Any,
                 grid: Mapping[str, Mapping[str, Sequence[Any]]] | None = None, **kwargs: Any):
    """Run a campaign (see :func:`sudoku_compare.bench.campaign.run_campaign`).

    ``grid`` sweeps parameters as a dict of lists, ``{"native.sa": {"alpha": [0.99, 0.999],
    "schedule": ["linear", "exponential"]}}``: each swept solver of ``solvers`` runs as one
    configured variant per point of the product (:mod:`sudoku_compare.bench.sweeps`).
    """
    if grid:
        names = [s for s in solvers if isinstance(s, str)]
        solvers = expand_solvers(names, grid) + [s for s in solvers if not isinstance(s, str)]
    return _run_campaign(solvers, *args, **kwargs)


__all__ = ["Budget", "Outcome", "run_campaign", "solve", "solve_isolated"]
