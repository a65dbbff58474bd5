"""One isolated run: a warm worker process, a hard deadline, a memory cap, captured output.

A :class:`Worker` is a child process (``spawn`` context: forking a parent that holds numba
or OpenMP threads is unsafe) that imports the registry once and warms each solver up once
(imports, JIT compilation), outside the measured time. For each :class:`Task` it reports
``started`` just before ``solve`` so the driver starts the hard deadline (max_seconds plus
a grace) at the solve, not at the warm-up; a worker that overruns is killed (``timeout``)
and a fresh one replaces it. The worker caps its address space with ``RLIMIT_AS``; a
``MemoryError`` (or a worker killed while over the cap) is ``memout``. File descriptors 1
and 2 of the worker go to ``/dev/null`` because libraries such as OR-Tools print from C++.

The driver, never the worker, verifies the grid with the problems checker.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome, Status
from sudoku_compare.problems.parsing import parse_line
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.verify import verify

from .execute import execute, versions_of

#: address-space cap of a worker; numba/LLVM and OR-Tools reserve well under 2 GB here.
DEFAULT_MEMORY_MB = 3072
#: seconds a worker may spend importing and compiling a solver before it counts as hung.
WARMUP_TIMEOUT_S = 300.0


def grace_seconds(max_seconds: float) -> float:
    """How long past ``max_seconds`` a run may go before it is killed: 2 s or 20 %."""
    return max(2.0, 0.2 * max_seconds)


@dataclass(frozen=True)
class Task:
    """Everything a worker needs for one run (picklable; the puzzle travels as text)."""

    solver: str
    puzzle: str                      # givens, one line
    budget: Budget
    seed: int
    params: dict[str, Any] = field(default_factory=dict)
    #: extra modules the worker imports first (they may register solvers, e.g. in tests)
    imports: tuple[str, ...] = ()
    key: str = ""                    # the run id, passed back with the result
    #: what a warm-up compiles: the solver class's module (its variants share the kernels)
    unit: str = ""

    def puzzle_obj(self) -> Puzzle:
        return parse_line(self.puzzle, source="<task>")


# -- the worker side ----------------------------------------------------------------------
def _cap_memory(memory_mb: int | None) -> None:
    if not memory_mb:
        return
    try:
        import resource

        limit = int(memory_mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # not on this platform: the driver's deadline stays
        pass


def _die_with_parent() -> None:
    """A worker must not outlive a driver killed with SIGKILL (a hung solver would spin on)."""
    parent = os.getppid()
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    import threading

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _silence_output() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)


def _run_one(task: Task, warm: set[str], conn: Connection) -> dict[str, Any]:
    for mod in task.imports:
        importlib.import_module(mod)
    spec = registry.get(task.solver)
    puzzle = task.puzzle_obj()
    solver = spec.create(**task.params)
    outcome = execute(spec, solver, puzzle, task.budget, task.seed, warmed=warm,
                      on_start=lambda: conn.send(("started", task.key)))
    return outcome.to_dict()


def worker_entry() -> None:
    """``python -c`` entry of a worker: task fd, result fd, memory cap (MB), silence flag."""
    task_fd, result_fd, memory_mb, silence = sys.argv[1:5]
    worker_main(Connection(int(task_fd), writable=False), int(memory_mb) or None,
                silence == "1", Connection(int(result_fd), readable=False))


def worker_main(tasks: Connection, memory_mb: int | None, silence: bool,
                conn: Connection) -> None:
    """The worker loop: receive a task, send ``started`` then ``done``."""
    _die_with_parent()
    if silence:
        _silence_output()
    _cap_memory(memory_mb)
    warm: set[str] = set()
    while True:
        try:
            task = tasks.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            result = _run_one(task, warm, conn)
            conn.send(("done", result))
        except MemoryError:
            conn.send(("done", {"status": "memout", "error": "MemoryError outside solve"}))
        except BaseException as exc:  # noqa: BLE001 - report anything, then go on
            conn.send(("done", {"status": "error",
                                "error": f"{type(exc).__name__}: {exc}"[:2000]}))


# -- the driver side ----------------------------------------------------------------------
class Worker:
    """A warm child process the driver sends tasks to, killed and replaced when it overruns.

    The child is a fresh interpreter (``subprocess`` + two pipes wrapped as
    ``multiprocessing`` connections) rather than a ``multiprocessing.Process``: a spawned
    Process re-imports the caller's ``__main__``, which breaks scripts and notebooks
    without a ``__main__`` guard, and forking a parent holding numba threads is unsafe.
    """

    def __init__(self, memory_mb: int | None = DEFAULT_MEMORY_MB, silence: bool = True) -> None:
        self.memory_mb = memory_mb
        self.silence = silence
        self.process: subprocess.Popen | None = None
        self.conn: Connection | None = None      # results from the child
        self._tasks: Connection | None = None    # tasks to the child
        self.task: Task | None = None
        self.phase = "idle"          # idle | warming | solving
        self.deadline = 0.0
        self.start()

    def start(self) -> None:
        task_r, task_w = os.pipe()
        res_r, res_w = os.pipe()
        env = dict(os.environ)
        paths = [p for p in sys.path if p and os.path.isdir(p)]
        env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([os.getcwd(), *paths]))
        code = "from sudoku_compare.bench.runner import worker_entry; worker_entry()"
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, str(task_r), str(res_w), str(self.memory_mb or 0),
             "1" if self.silence else "0"],
            pass_fds=(task_r, res_w), env=env, stdin=subprocess.DEVNULL,
            start_new_session=True)
        os.close(task_r)
        os.close(res_w)
        self._tasks = Connection(task_w, readable=False)
        self.conn = Connection(res_r, writable=False)

    def kill(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                pass
        for c in (self.conn, self._tasks):
            if c is not None:
                c.close()
        self.process = self.conn = self._tasks = None

    def restart(self) -> None:
        self.kill()
        self.start()

    def close(self) -> None:
        if self._tasks is not None and self.process is not None and self.process.poll() is None:
            try:
                self._tasks.send(None)
                self.process.wait(2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    # -- one task at a time -------------------------------------------------------------
    def submit(self, task: Task) -> None:
        assert self.conn is not None and self.task is None
        self.task = task
        self.phase = "warming"
        self.deadline = time.monotonic() + WARMUP_TIMEOUT_S
        assert self._tasks is not None
        try:
            self._tasks.send(task)
        except OSError:  # the worker died while idle; a fresh one takes the task
            self.restart()
            self._tasks.send(task)

    def poll(self) -> Outcome | None:
        """Advance the current task; return its verified outcome once it is over."""
        assert self.task is not None and self.conn is not None
        task = self.task
        try:
            while self.conn.poll():
                kind, payload = self.conn.recv()
                if kind == "started":
                    self.phase = "solving"
                    self.deadline = (time.monotonic() + task.budget.max_seconds
                                     + grace_seconds(task.budget.max_seconds))
                elif kind == "done":
                    return self._finish(Outcome.from_dict(payload))
        except (EOFError, OSError):
            return self._finish(self._died())
        if not self.alive():
            # the result may have been written just before the exit
            try:
                if self.conn.poll():
                    return self.poll()
            except (EOFError, OSError):
                pass
            return self._finish(self._died())
        if time.monotonic() > self.deadline:
            phase = self.phase
            self.restart()
            if phase == "warming":
                out = Outcome(status=Status.ERROR,
                              error=f"warm-up took over {WARMUP_TIMEOUT_S:g} s; worker killed")
            else:
                limit = task.budget.max_seconds + grace_seconds(task.budget.max_seconds)
                out = Outcome(status=Status.TIMEOUT, elapsed_s=limit,
                              error=f"no answer within {limit:g} s; worker killed")
            return self._finish(out, replaced=True)
        return None

    def _died(self) -> Outcome:
        code = self.process.poll() if self.process is not None else None
        self.restart()
        # a worker over its address-space cap dies in C code (abort, or the kernel's kill)
        status = Status.MEMOUT if code in (-6, -9, -11) else Status.ERROR
        return Outcome(status=status, error=f"worker died (exit code {code})")

    def _finish(self, out: Outcome, replaced: bool = False) -> Outcome:
        task = self.task
        assert task is not None
        self.task = None
        self.phase = "idle"
        if not out.versions:
            try:
                out.versions = versions_of(registry.get(task.solver))
            except Exception:  # noqa: BLE001 - an unknown solver still gets python/numpy
                out.versions = versions_of(None)
        return verify(task.puzzle_obj(), out)



def run_isolated(task: Task, memory_mb: int | None = DEFAULT_MEMORY_MB,
                 silence: bool = True) -> Outcome:
    """One run in a fresh worker (start-up cost included in wall time, not in ``elapsed_s``)."""
    from multiprocessing.connection import wait

    worker = Worker(memory_mb=memory_mb, silence=silence)
    try:
        worker.submit(task)
        while True:
            out = worker.poll()
            if out is not None:
                return out
            wait([worker.conn], timeout=0.2)
    finally:
        worker.close()
