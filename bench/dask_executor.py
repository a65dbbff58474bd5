"""Runs on a Dask cluster: the same isolated, verified runs, on as many machines as it has.

Each Dask worker process keeps its own warm isolated worker (a
:class:`~sudoku_compare.bench.executor.LocalProcessExecutor` of one process, started by a
worker plugin and closed with it), so a run there has exactly the hard deadline, memory
cap and verification it has locally; Dask only carries chunks of tasks there and their
outcomes back. The driver stays the only writer of the store and keeps a bounded number of
chunks in flight, so a campaign is resumable as it is locally.

Measured notes (``../shared/LIBRARIES.md`` §12): a Dask worker may start child processes
only with ``distributed.worker.daemon`` set to False (``DASK_DISTRIBUTED__WORKER__DAEMON=
False`` for ``dask worker``); a worker killed with SIGKILL takes its children with it and
its tasks run again elsewhere; after ``distributed.scheduler.allowed-failures`` deaths of
one task the future raises ``KilledWorker``, which is stored as the runs' ``error``, never
as a lost run. A task costs some milliseconds of scheduling, hence the chunks.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

from sudoku_compare.outcome import Outcome, Status
from sudoku_compare.vocabulary import StopReason

from .executor import ClusterError, Executor, LocalProcessExecutor
from .runner import DEFAULT_MEMORY_MB, Task, finish

#: the most runs in one Dask task, the work one task aims at (a task costs milliseconds of
#: scheduling), and Dask tasks in flight per Dask worker
CHUNK_RUNS = 256
CHUNK_S = 0.25
IN_FLIGHT_PER_WORKER = 2
#: seconds to wait for a scheduler before saying it cannot be reached
CONNECT_TIMEOUT_S = 5.0
PLUGIN_NAME = "sudoku-compare-isolated-worker"

try:  # an optional extra: without it DaskExecutor says how to install it
    from distributed import WorkerPlugin
except ImportError:  # pragma: no cover - the [dask] extra is not installed
    WorkerPlugin = object  # type: ignore[misc,assignment]


class IsolatedWorkerPlugin(WorkerPlugin):
    """A Dask worker plugin: one warm isolated worker process per Dask worker."""

    name = PLUGIN_NAME

    def __init__(self, memory_mb: int | None) -> None:
        self.memory_mb = memory_mb
        self.executor: LocalProcessExecutor | None = None

    def setup(self, worker: Any) -> None:
        self.executor = LocalProcessExecutor(1, memory_mb=self.memory_mb)

    def teardown(self, worker: Any) -> None:
        if self.executor is not None:
            self.executor.close()


def run_chunk(tasks: list[Task]) -> list[tuple[str, dict]]:
    """On a Dask worker: run a chunk in that worker's isolated process, outcomes as dicts."""
    from distributed import get_worker

    plugin = get_worker().plugins[PLUGIN_NAME]
    assert plugin.executor is not None
    return [(task.key, out.to_dict()) for task, out in plugin.executor.map_unordered(tasks)]


class DaskExecutor(Executor):
    """Runs tasks on a Dask cluster: an existing one (``scheduler="tcp://HOST:PORT"``) or a
    loopback ``LocalCluster`` of ``n_workers`` processes on this machine."""

    def __init__(self, scheduler: str | None = None, n_workers: int | None = None,
                 memory_mb: int | None = DEFAULT_MEMORY_MB, chunk_runs: int = CHUNK_RUNS) -> None:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError as exc:
            raise ClusterError(f"--executor dask needs dask and distributed: pip install "
                               f"'sudoku-compare[dask]' ({exc})") from None
        self.memory_mb = memory_mb
        self.chunk_runs = max(1, chunk_runs)
        self.cluster = None
        # workers must be allowed to start the isolated worker processes
        dask.config.set({"distributed.worker.daemon": False})
        os.environ.setdefault("DASK_DISTRIBUTED__WORKER__DAEMON", "False")
        if scheduler:
            try:
                self.client = Client(scheduler, timeout=CONNECT_TIMEOUT_S)
            except (OSError, TimeoutError, ValueError) as exc:
                raise ClusterError(f"--scheduler {scheduler}: cannot reach a Dask scheduler "
                                   f"there ({type(exc).__name__}: {exc})") from None
        else:
            self.cluster = LocalCluster(n_workers=n_workers or 1, threads_per_worker=1,
                                        processes=True, host="127.0.0.1",
                                        dashboard_address=None)
            self.client = Client(self.cluster)
        self.client.register_plugin(IsolatedWorkerPlugin(memory_mb), name=PLUGIN_NAME)

    def _workers(self) -> int:
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def map_unordered(self, tasks: Iterable[Task]) -> Iterator[tuple[Task, Outcome]]:
        """Chunks sized by the runs' measured pace (about :data:`CHUNK_S` of work each, at
        most ``chunk_runs``; one run while a solver's pace is unknown), :data:`IN_FLIGHT_PER_WORKER`
        per worker at most: slow runs spread over every worker, short ones share a message."""
        from distributed import as_completed

        source = iter(tasks)
        limit = IN_FLIGHT_PER_WORKER * self._workers()
        chunks: dict[Any, list[Task]] = {}
        pace: dict[str, float] = {}

        def submit_next() -> Any | None:
            first = next(source, None)
            if first is None:
                return None
            mean = pace.get(first.solver)
            size = 1 if mean is None else max(1, min(self.chunk_runs,
                                                     int(CHUNK_S / max(mean, 1e-6))))
            chunk = [first, *(t for _, t in zip(range(size - 1), source, strict=False))]
            future = self.client.submit(run_chunk, chunk, pure=False)
            chunks[future] = chunk
            return future

        pending = as_completed()
        for _ in range(limit):
            f = submit_next()
            if f is None:
                break
            pending.add(f)
        for future in pending:
            chunk = chunks.pop(future)
            for task, out in _outcomes(future, chunk):
                took = out.elapsed_s if out.elapsed_s is not None else task.budget.max_seconds
                old = pace.get(task.solver)
                pace[task.solver] = took if old is None else 0.8 * old + 0.2 * took
                yield task, out
            nxt = submit_next()
            if nxt is not None:
                pending.add(nxt)

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()
                self.cluster = None


def _outcomes(future: Any, chunk: list[Task]) -> Iterator[tuple[Task, Outcome]]:
    """The chunk's outcomes; a chunk Dask gave up on (``KilledWorker`` after repeated
    deaths, any other failure) is an ``error`` for each of its runs, never a lost run."""
    try:
        results = dict(future.result())
    except Exception as exc:  # noqa: BLE001 - whatever Dask raises, each run gets an error
        for task in chunk:
            yield task, finish(task, Outcome(
                status=Status.ERROR, stop_reason=StopReason.ERROR,
                error=f"dask: {type(exc).__name__}: {exc}"[:2000]))
        return
    for task in chunk:
        yield task, Outcome.from_dict(results[task.key])
