"""Where runs execute: an interface a distributed engine can implement later, and local processes.

An :class:`Executor` takes :class:`~sudoku_compare.bench.runner.Task` objects and yields
``(task, outcome)`` pairs as they finish, in any order. The campaign driver consumes them
and is the only writer of the store, so an executor never touches the database.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from multiprocessing.connection import wait

from sudoku_compare import registry
from sudoku_compare.outcome import Outcome
from sudoku_compare.problems.errors import InputError

from .runner import DEFAULT_MEMORY_MB, Task, Worker


class Executor(ABC):
    """Runs tasks; verified outcomes come back as they finish."""

    @abstractmethod
    def map_unordered(self, tasks: Iterable[Task]) -> Iterator[tuple[Task, Outcome]]:
        """Yield ``(task, outcome)`` for every task, in completion order."""

    def close(self) -> None:  # noqa: B027 - optional hook, not every executor holds resources
        """Release workers (idempotent)."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalProcessExecutor(Executor):
    """``workers`` warm child processes on this machine, each with a hard deadline per run."""

    def __init__(self, workers: int = 1, memory_mb: int | None = DEFAULT_MEMORY_MB,
                 silence: bool = True) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.n_workers = workers
        self.memory_mb = memory_mb
        self.silence = silence
        self._pool: list[Worker] = []

    def _workers(self, needed: int) -> list[Worker]:
        while len(self._pool) < min(self.n_workers, max(needed, 1)):
            self._pool.append(Worker(memory_mb=self.memory_mb, silence=self.silence))
        return self._pool

    def map_unordered(self, tasks: Iterable[Task]) -> Iterator[tuple[Task, Outcome]]:
        queue = deque(tasks)
        pool = self._workers(len(queue))
        warmed: dict[int, set[str]] = {id(w): set() for w in pool}
        started: set[str] = set()
        ready: set[str] = set()
        served: dict[tuple[int, str], int] = {}
        while queue or any(w.task is not None for w in pool):
            for w in pool:
                if w.task is None and queue:
                    task = _next_for(queue, warmed[id(w)], started, ready)
                    warmed[id(w)].add(task.unit)
                    started.add(task.unit)
                    w.submit(task)
            busy = [w for w in pool if w.task is not None]
            for w in busy:
                task = w.task
                out = w.poll()
                if out is not None:
                    ready.add(task.unit)
                    if _worn_out(served, w, task.solver):
                        w.restart()
                        warmed[id(w)] = set()
                    yield task, out
            busy = [w for w in pool if w.task is not None]
            if busy and not any(w.task is None for w in pool if queue):
                now = time.monotonic()
                timeout = max(0.0, min(min(w.deadline for w in busy) - now, 0.5))
                wait([w.conn for w in busy],
                     timeout=timeout)

    def close(self) -> None:
        for w in self._pool:
            w.close()
        self._pool = []


def _worn_out(served: dict[tuple[int, str], int], worker: Worker, solver: str) -> bool:
    """Count a finished run; true when the solver's ``runs_per_worker`` says the worker
    process must be replaced now (and reset its count)."""
    try:
        limit = registry.get(solver).cls.runs_per_worker
    except InputError:   # registered only inside the worker (Task.imports)
        return False
    if not limit:
        return False
    key = (id(worker), solver)
    served[key] = served.get(key, 0) + 1
    if served[key] < limit:
        return False
    served[key] = 0
    return True


def _next_for(queue: deque[Task], warmed: AbstractSet[str], started: AbstractSet[str],
              ready: AbstractSet[str] = frozenset()) -> Task:
    """The task a free worker takes: one whose kernels it has already compiled; else one
    whose kernels no worker has started on; else one whose kernels another worker has
    finished compiling (``ready``: a run of that unit came back, so they are in the numba
    cache); else the next in line.

    On a cold numba cache this spreads the compilation over the workers (each compiles
    different modules and later loads the others' from the cache) instead of every worker
    compiling the same kernels at once. Results do not depend on the order.
    """
    for preferred in (lambda t: t.unit in warmed, lambda t: t.unit not in started,
                      lambda t: t.unit in ready):
        for i, task in enumerate(queue):
            if preferred(task):
                del queue[i]
                return task
    return queue.popleft()
