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


class ClusterError(RuntimeError):
    """An executor's machines cannot be used (no scheduler at the address, its library not
    installed): raised before anything runs, so nothing is stored."""


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

    def start(self, n: int | None = None) -> None:
        """Start ``n`` (default: all) worker processes now rather than at the first task, so
        their imports overlap whatever the caller does meanwhile (a campaign's plan)."""
        self._workers(n or self.n_workers)

    def trim(self, n: int) -> None:
        """Keep at most ``n`` worker processes (a campaign with fewer runs than workers)."""
        self.n_workers = max(1, min(self.n_workers, n))
        for w in self._pool[self.n_workers:]:
            w.kill()  # idle (maybe still importing): nothing to wait for
        del self._pool[self.n_workers:]

    def _workers(self, needed: int) -> list[Worker]:
        while len(self._pool) < min(self.n_workers, max(needed, 1)):
            self._pool.append(Worker(memory_mb=self.memory_mb, silence=self.silence))
        return self._pool

    def map_unordered(self, tasks: Iterable[Task]) -> Iterator[tuple[Task, Outcome]]:
        """Tasks are taken from ``tasks`` as they are needed, :data:`LOOKAHEAD` ahead at
        most, so a lazy plan of a million runs is never held at once."""
        source = iter(tasks)
        queue: deque[Task] = deque()
        exhausted = False

        def refill() -> None:
            nonlocal exhausted
            while not exhausted and len(queue) < LOOKAHEAD:
                task = next(source, None)
                if task is None:
                    exhausted = True
                else:
                    queue.append(task)

        refill()
        pool = self._workers(len(queue))
        warmed: dict[int, set[str]] = {id(w): set() for w in pool}
        started: set[str] = set()
        ready: set[str] = set()
        served: dict[tuple[int, str], int] = {}
        pace = _Pace()
        worn: set[int] = set()
        def dispatch() -> None:
            for w in pool:
                if w.task is None and queue:
                    task = _next_for(queue, warmed[id(w)], started, ready)
                    chunk = [task]
                    if task.unit in warmed[id(w)]:
                        left = len(queue) if exhausted else MAX_CHUNK * 2 * len(pool)
                        chunk += _same_kind(queue, task, pace.size(task, left, len(pool)) - 1)
                    warmed[id(w)].add(task.unit)
                    started.add(task.unit)
                    w.submit(chunk)

        while queue or any(w.task is not None for w in pool):
            refill()
            dispatch()
            finished: list[tuple[Task, Outcome]] = []
            for w in pool:
                if w.task is None:
                    continue
                for task, out in w.poll():
                    ready.add(task.unit)
                    pace.record(task, out)
                    if _worn_out(served, w, task.solver):
                        worn.add(id(w))
                    finished.append((task, out))
                back = w.take_back()
                if back:  # killed on a task of the chunk: these never started or never came back
                    queue.extendleft(reversed(back))
                if w.task is None and id(w) in worn:  # replaced once its chunk is done
                    worn.discard(id(w))
                    w.restart()
                    warmed[id(w)] = set()
            if finished:
                refill()
                dispatch()  # a worker whose chunk came back starts the next before they are stored
                yield from finished
                continue
            busy = [w for w in pool if w.task is not None]
            if busy and not any(w.task is None for w in pool if queue):
                now = time.monotonic()
                timeout = max(0.0, min(min(w.deadline for w in busy) - now, 0.5))
                wait([w.conn for w in busy], timeout=timeout)

    def close(self) -> None:
        for w in self._pool:
            w.stop()
        for w in self._pool:
            w.close()
        self._pool = []

    def abort(self) -> None:
        """Kill every worker now, without waiting for a clean exit (the caller failed
        before any run: a worker still importing would take a second to stop)."""
        for w in self._pool:
            w.kill()
        self._pool = []


def _worn_out(served: dict[tuple[int, str], int], worker: Worker, solver: str) -> bool:
    """Count a finished run; true when the solver's ``runs_per_worker`` says the worker
    process must be replaced (and reset its count). It is replaced once its chunk is
    done, so it may serve up to a chunk (:data:`MAX_CHUNK`) more runs than the limit."""
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


class _Pace:
    """How many runs of a kind go to a worker in one message.

    A message each way costs the driver and the worker tens of microseconds, longer than
    a ``native.bitmask`` solve; runs whose solves are short go in chunks sized to take
    about :data:`CHUNK_S` each, at most :data:`MAX_CHUNK`, and never more than an even
    share of what is left (so the last runs still spread over the workers); their results
    come back in batches (:data:`~sudoku_compare.bench.runner.FLUSH_S`).
    Every run of a chunk keeps its own hard deadline (see :class:`Worker`)."""

    def __init__(self) -> None:
        self.mean: dict[str, float] = {}

    def record(self, task: Task, out: Outcome) -> None:
        took = out.elapsed_s if out.elapsed_s is not None else task.budget.max_seconds
        old = self.mean.get(task.solver)
        self.mean[task.solver] = took if old is None else 0.8 * old + 0.2 * took

    def size(self, task: Task, queued: int, workers: int) -> int:
        mean = self.mean.get(task.solver)
        if mean is None:
            return 1
        by_time = int(CHUNK_S / max(mean, 1e-6))
        share = -(-queued // (2 * workers))
        return max(1, min(by_time, MAX_CHUNK, share))


#: how many tasks an executor takes from its source ahead of the workers
LOOKAHEAD = 4096
#: the wall time a chunk of short runs aims at, and the most runs in one chunk
CHUNK_S = 0.05
MAX_CHUNK = 256


def _same_kind(queue: deque[Task], first: Task, n: int) -> list[Task]:
    """Up to ``n`` more queued tasks that can share ``first``'s chunk: same solver, budget,
    parameters, imports and box size (so none needs a warm-up the deadline would charge);
    taken from the front of the queue, order kept."""
    if n <= 0:
        return []
    out: list[Task] = []
    kept: list[Task] = []
    while queue and len(out) < n:
        t = queue.popleft()
        if (t.solver == first.solver and t.budget == first.budget and t.params == first.params
                and t.imports == first.imports and len(t.puzzle) == len(first.puzzle)):
            out.append(t)
        else:
            kept.append(t)
            if len(kept) > 4 * n:   # the queue holds other kinds first: do not scan it all
                break
    queue.extendleft(reversed(kept))
    return out


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
