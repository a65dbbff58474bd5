"""The objective as a library sees it: counted, budgeted, and remembering the best.

Libraries that own their loop (mealpy, pygad, DEAP, simanneal) check their own stopping
rules once per epoch or generation, or not at all. Wrapping the shared objective here
gives every adapter the same exact accounting: each call goes through the shared
:class:`EvaluationCounter` (``enforce=True`` raises :class:`BudgetExhausted` past the
evaluation budget), the deadline is checked on every call, and reaching the target
raises :class:`TargetReached` -- the best state is kept here, because a library aborted
by an exception only remembers its last completed generation.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sudoku_compare.budget import Budget
from sudoku_compare.problems.encodings.counter import BudgetExhausted, EvaluationCounter


class TargetReached(Exception):
    """Raised from the objective once a state at the budget's target energy is seen."""


class DeadlineReached(BudgetExhausted):
    """Raised from the objective once the run's deadline has passed."""


class TrackedObjective:
    """``energy(state)`` counted by the shared counter, with best-so-far and a trace."""

    def __init__(self, energy: Callable[[Any], float], budget: Budget,
                 copy: Callable[[Any], Any], *, raise_at_target: bool = True,
                 trace_every: int = 0) -> None:
        self.counter = EvaluationCounter(budget.max_evaluations)
        self._energy = self.counter.wrap(energy, enforce=True)
        self._copy = copy
        self.deadline = budget.deadline()
        self.target = budget.target
        self.raise_at_target = raise_at_target
        self.best_energy = float("inf")
        self.best_state: Any = None
        self.trace: list[tuple[int, float, float]] = []
        self._start = time.perf_counter()
        self._trace_every = trace_every

    @property
    def evaluations(self) -> int:
        return self.counter.count

    def __call__(self, state: Any) -> float:
        if self.deadline.expired():
            raise DeadlineReached(self.counter.count)
        e = float(self._energy(state))
        if e < self.best_energy:
            self.best_energy = e
            self.best_state = self._copy(state)
            self.trace.append((self.counter.count, time.perf_counter() - self._start, e))
        if self.raise_at_target and e <= self.target:
            raise TargetReached(self.counter.count)
        return e

    def finished(self) -> bool:
        """True when the run must stop (for libraries that poll instead of catching)."""
        return (self.best_energy <= self.target or self.counter.exhausted()
                or self.deadline.expired())

    def stop_reason(self) -> str:
        if self.best_energy <= self.target:
            return "target"
        if self.counter.exhausted():
            return "evaluations"
        if self.deadline.expired():
            return "deadline"
        return "library"


#: what an adapter catches around the library's own loop
STOPS = (TargetReached, BudgetExhausted)
