"""What a run reports, and the statuses the bench assigns after verifying it."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum

import numpy as np

from sudoku_compare.problems.compact import decode_grid
from sudoku_compare.problems.formatting import format_line
from sudoku_compare.problems.topology import box_for_cells


class Status(StrEnum):
    """The verdict on one run. Only the bench assigns it, after checking the grid."""

    SOLVED = "solved"
    #: a verified solution that came back after ``max_seconds`` (inside the kill grace):
    #: not solved within the budget
    SOLVED_LATE = "solved-late"
    UNSOLVED = "unsolved"
    TIMEOUT = "timeout"
    MEMOUT = "memout"
    ERROR = "error"
    INVALID = "invalid"

    def __str__(self) -> str:
        return self.value


@dataclass
class Outcome:
    """What a solver returns (the fields it fills) plus what the bench adds.

    A solver fills ``grid`` (its best grid, possibly with conflicts or empty cells),
    ``claims_solved`` (it believes ``grid`` is a solution), ``evaluations``,
    ``iterations``, ``restarts``, ``best_energy``, ``counters`` and ``trace``.
    The bench fills ``status`` (after checking), ``elapsed_s``, ``versions``,
    ``violations`` and ``error``.
    """

    grid: np.ndarray | None = None
    claims_solved: bool = False
    evaluations: int = 0
    iterations: int = 0
    restarts: int = 0
    best_energy: float | None = None
    counters: dict[str, int] = field(default_factory=dict)
    #: (evaluations, seconds since start, best energy) samples, for convergence plots.
    trace: list[tuple[int, float, float]] = field(default_factory=list)
    #: free-form notes from the solver (e.g. "model_build_s").
    extra: dict[str, float | int | str] = field(default_factory=dict)
    #: why the run ended (a :class:`~sudoku_compare.vocabulary.StopReason` value); the
    #: solver sets it, the bench overrides it with ``killed`` or ``error``.
    stop_reason: str | None = None
    #: share of the solver's own schedule completed (cooling levels, generations, epochs,
    #: restarts), 0..1; None where the algorithm has no schedule.
    schedule_fraction: float | None = None
    status: Status | None = None
    elapsed_s: float | None = None
    versions: dict[str, str] = field(default_factory=dict)
    violations: list[str] = field(default_factory=list)
    error: str | None = None

    def grid_line(self) -> str | None:
        """The grid as a row-major string (``.`` for empty), or None."""
        if self.grid is None:
            return None
        received = self.__dict__.get("_received_line")
        if received is not None and received[0] is self.grid:
            return received[1]  # decoded from this very line by from_dict: not encoded again
        flat = np.asarray(self.grid).ravel()
        box = box_for_cells(flat.size) or 3
        return format_line(flat, box, empty="0" if box == 3 else ".")

    def to_dict(self) -> dict:
        """Plain values (JSON- and pickle-ready): the grid as its line, the trace as lists.

        Written field by field rather than with :func:`dataclasses.asdict`, whose deep copy
        cost about 150 us a run, a tenth of a campaign driver's time per run."""
        return {
            "grid": self.grid_line(), "claims_solved": bool(self.claims_solved),
            "evaluations": self.evaluations, "iterations": self.iterations,
            "restarts": self.restarts, "best_energy": self.best_energy,
            "counters": dict(self.counters), "trace": [list(t) for t in self.trace],
            "extra": dict(self.extra), "stop_reason": self.stop_reason,
            "schedule_fraction": self.schedule_fraction,
            "status": str(self.status) if self.status is not None else None,
            "elapsed_s": self.elapsed_s, "versions": dict(self.versions),
            "violations": list(self.violations), "error": self.error,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Outcome:
        """The inverse of :meth:`to_dict` (unknown keys are ignored, so older rows load)."""
        kw = {k: v for k, v in d.items() if k in _FIELDS}
        grid = kw.pop("grid", None)
        if isinstance(grid, str):
            kw["grid"] = _grid_from_line(grid)
        elif grid is not None:
            kw["grid"] = np.asarray(grid)
        if kw.get("status") is not None:
            kw["status"] = Status(kw["status"])
        kw["trace"] = [tuple(t) for t in kw.get("trace") or []]
        for name in ("counters", "extra", "versions"):
            kw[name] = dict(kw.get(name) or {})
        kw["violations"] = list(kw.get("violations") or [])
        out = cls(**kw)
        if isinstance(grid, str):
            # a campaign driver stores the line it received: keep it beside the array
            out.__dict__["_received_line"] = (out.grid, grid)
        return out


_FIELDS = frozenset(f.name for f in fields(Outcome))


def _grid_from_line(line: str) -> np.ndarray:
    """The (side, side) array a :meth:`Outcome.grid_line` string stands for (conflicts kept)."""
    box = box_for_cells(len(line))
    if box is None:
        raise ValueError(f"a grid line has n**4 cells, this one has {len(line)}")
    values = decode_grid(line)
    if values is None:
        raise ValueError(f"a grid line holds an unknown symbol: {line!r}")
    return values.reshape(box * box, box * box)
