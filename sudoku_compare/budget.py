"""What a run may spend: wall time, objective evaluations, and when it may stop early."""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """Limits every solver honours.

    ``max_seconds`` is enforced twice: cooperatively by the solver (it checks a
    :class:`Deadline`) and by the bench, which kills the run's process after a grace.
    ``max_evaluations`` counts calls of the shared objective (None: unlimited).
    ``target`` is the energy at which a stochastic solver stops (0: solved).
    """

    max_seconds: float = 10.0
    max_evaluations: int | None = None
    target: float = 0.0

    def __post_init__(self) -> None:
        if not self.max_seconds > 0:
            raise ValueError("max_seconds must be positive")
        if self.max_evaluations is not None and self.max_evaluations <= 0:
            raise ValueError("max_evaluations must be positive")

    def deadline(self) -> Deadline:
        return Deadline(time.perf_counter() + self.max_seconds)

    @property
    def evaluations_or_max(self) -> int:
        """The evaluation limit as an int usable inside compiled loops (2**62 when unlimited)."""
        return self.max_evaluations if self.max_evaluations is not None else 2**62

    def to_dict(self) -> dict:
        return {"max_seconds": self.max_seconds, "max_evaluations": self.max_evaluations,
                "target": self.target}


@dataclass(frozen=True)
class Deadline:
    """An absolute ``time.perf_counter()`` instant after which a solver must stop."""

    at: float

    def expired(self) -> bool:
        return time.perf_counter() >= self.at

    def remaining(self) -> float:
        return max(0.0, self.at - time.perf_counter())
