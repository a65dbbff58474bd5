"""The one evaluation counter that native loops and library callbacks share.

A library calls the objective through :meth:`EvaluationCounter.wrap`, which counts each
call; a compiled native loop calls the kernel directly and reports how many times it
did with :meth:`add`. The bench reads ``count``; a test holds both ways equal on the
same sequence of moves. ``limit`` lets a wrapped objective stop a library that has no
evaluation budget of its own (it raises :class:`BudgetExhausted`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class BudgetExhausted(Exception):
    """Raised from inside an objective when the evaluation budget is spent."""


class EvaluationCounter:
    def __init__(self, limit: int | None = None) -> None:
        self.count = 0
        self.limit = limit

    def add(self, k: int = 1) -> None:
        self.count += k

    @property
    def remaining(self) -> int:
        return (2**62 if self.limit is None else self.limit) - self.count

    def exhausted(self) -> bool:
        return self.limit is not None and self.count >= self.limit

    def wrap(self, objective: Callable[..., Any], *, enforce: bool = False) -> Callable[..., Any]:
        """``objective`` counted; with ``enforce``, raising BudgetExhausted past the limit."""

        def counted(*args: Any, **kwargs: Any) -> Any:
            if enforce and self.exhausted():
                raise BudgetExhausted(self.count)
            self.count += 1
            return objective(*args, **kwargs)

        counted.__wrapped__ = objective  # type: ignore[attr-defined]
        return counted
