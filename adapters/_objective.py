"""The objective as a library sees it: counted, budgeted, and remembering the best.

Libraries that own their loop (mealpy, pygad, DEAP, simanneal) check their own stopping
rules once per epoch or generation, or not at all. Wrapping the shared objective here
gives every adapter the same exact accounting: each call goes through the shared
:class:`EvaluationCounter`, and the call that would be one past the evaluation budget
raises :class:`BudgetExhausted` *before* it is counted or computed, so a library that
evaluates a whole population at once is stopped at exactly ``max_evaluations``. The
deadline is checked on every call (:class:`DeadlineReached`) and reaching the target
raises :class:`TargetReached`. The best state is kept here, because a library aborted by
an exception only remembers its last completed generation; the reason of the stop is
kept too (:attr:`TrackedObjective.stopped`), because after the exception only the
wrapper knows which rule fired.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sudoku_compare.budget import Budget
from sudoku_compare.problems.encodings.counter import BudgetExhausted, EvaluationCounter
from sudoku_compare.vocabulary import StopReason


class TargetReached(Exception):
    """Raised from the objective once a state at the budget's target energy is seen."""


class DeadlineReached(BudgetExhausted):
    """Raised from the objective once the run's deadline has passed."""


class TrackedObjective:
    """``energy(state)`` counted by the shared counter, with best-so-far, trace and stop reason."""

    def __init__(self, energy: Callable[[Any], float], budget: Budget,
                 copy: Callable[[Any], Any], *, raise_at_target: bool = True) -> None:
        self.counter = EvaluationCounter(budget.max_evaluations)
        self._energy = energy
        self._copy = copy
        self.deadline = budget.deadline()
        self.target = budget.target
        self.raise_at_target = raise_at_target
        self.best_energy = float("inf")
        self.best_state: Any = None
        self.trace: list[tuple[int, float, float]] = []
        #: the budget rule that raised out of the library, None while it runs on
        self.stopped: StopReason | None = None
        self._start = time.perf_counter()

    @property
    def evaluations(self) -> int:
        return self.counter.count

    def __call__(self, state: Any) -> float:
        if self.counter.exhausted():
            self.stopped = StopReason.EVALUATIONS
            raise BudgetExhausted(self.counter.count)
        if self.deadline.expired():
            self.stopped = StopReason.CLOCK
            raise DeadlineReached(self.counter.count)
        self.counter.add(1)
        e = float(self._energy(state))
        if e < self.best_energy:
            self.best_energy = e
            self.best_state = self._copy(state)
            self.trace.append((self.counter.count, time.perf_counter() - self._start, e))
        if self.raise_at_target and e <= self.target:
            self.stopped = StopReason.TARGET
            raise TargetReached(self.counter.count)
        return e

    def finished(self) -> bool:
        """True when the run must stop (for libraries that poll instead of catching)."""
        return (self.best_energy <= self.target or self.counter.exhausted()
                or self.deadline.expired())

    def stop_reason(self) -> StopReason:
        """Why the run ended: the rule that raised, else the target, else the library's
        own end (its epochs, generations or restarts ran out with budget left)."""
        if self.best_energy <= self.target:
            return StopReason.TARGET
        if self.stopped is not None:
            return self.stopped
        return StopReason.FINISHED


#: what an adapter catches around the library's own loop
STOPS = (TargetReached, BudgetExhausted)
