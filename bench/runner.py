"""One isolated run: a warm worker process, a hard deadline, a memory cap, captured output.

A :class:`Worker` is a child process (``spawn`` context: forking a parent that holds numba
or OpenMP threads is unsafe) that imports the registry once and warms each solver up once
(imports, JIT compilation), outside the measured time. For each :class:`Task` it reports
``started`` just before ``solve`` so the driver starts the hard deadline (max_seconds plus
a grace) at the solve, not at the warm-up; a worker that overruns is killed (``timeout``,
stop reason ``killed``) and a fresh one replaces it. File descriptors 1 and 2 of the
worker go to ``/dev/null`` because libraries such as OR-Tools print from C++.

Memory: the worker caps its data segment (private writable memory, ``RLIMIT_DATA``; an
address-space cap would stop GraalVM-based libraries such as pychoco, which reserve 32 GB
of address space they never touch, from starting at all). What the driver can honestly
tell about a worker that dies:

* a ``MemoryError`` the worker reported is ``memout`` (the cap refused an allocation);
* a worker that dies by a signal is reaped first, so its exit status is known, never
  "exit code None". SIGABRT, SIGSEGV and SIGBUS are what C and C++ code does when an
  allocation is refused (``std::bad_alloc`` uncaught, a NULL pointer used), but also what
  any other bug does; they count as ``memout`` only when a cap was set and the worker's
  data segment, sampled from ``/proc/<pid>/status`` (``VmData``) each time the driver
  polls, had all but reached it (:func:`near_cap`). A refused allocation far below the
  cap (one huge block) is then reported as ``error`` with the peak, never guessed. Otherwise, and for every other signal, the
  run is ``error`` "worker killed by SIGSEGV" with the peak seen. SIGKILL never comes from
  ``RLIMIT_DATA`` (it is another process or the kernel's OOM killer, not our cap): ``error``.
* the signal's name, the peak and the cap are stored in the run's ``extra``.

Killed and dead workers cannot report their evaluations at the end. While a solve runs, a
thread in the worker samples every :class:`EvaluationCounter` the solve created (the
counter libraries are called through) every :data:`PROGRESS_S` seconds and sends the
total; a killed run is stored with the last count, marked a lower bound in
``extra.evaluations``. Where no count was seen (a native loop counts inside compiled code
and reports at the end; a thread cannot run while compiled code holds the GIL) the
evaluations are stored as NULL, "unknown", never as 0, which would make ERT undercount.
A verified grid that came back after ``max_seconds`` (inside the grace period) is
``solved-late``: not solved within the budget.

The driver, never the worker, verifies the grid with the problems checker.
"""

from __future__ import annotations

import importlib
import os
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Outcome, Status
from sudoku_compare.problems.parsing import parse_line
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.verify import verify
from sudoku_compare.vocabulary import StopReason

from .execute import execute, versions_of

#: data-segment cap of a worker (RLIMIT_DATA); numba/LLVM and OR-Tools use well under 1 GB here.
DEFAULT_MEMORY_MB = 3072
#: the smallest cap a worker is given: importing numpy and numba and compiling one kernel
#: peaks at about 250 MB of data segment (measured VmData of a warm native.bitmask worker:
#: 223-256 MB), and under 150 MB LLVM hangs while compiling instead of failing; 600 MB
#: leaves room for the solve itself, so below it every run would be an error, not a memout.
MIN_MEMORY_MB = 600
def near_cap(peak_mb: float, cap_mb: int) -> bool:
    """Whether a data segment of ``peak_mb`` had all but reached the cap: within 10 % of
    it or 64 MB, whichever is more. (A worker at rest already uses about 250 MB, so a share
    of the cap alone would call every crash under a small cap a memout.)"""
    return peak_mb >= cap_mb - max(64.0, 0.1 * cap_mb)
#: seconds between two samples of a running solve's evaluation count
PROGRESS_S = 0.25
#: seconds between two samples of a worker's data segment (reading /proc costs ~40 us)
MEMORY_SAMPLE_S = 0.02
#: signals C/C++ code dies of when an allocation is refused (and of other bugs)
_ALLOCATION_SIGNALS = {signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS}
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
        # the data segment (private writable memory), not RLIMIT_AS: pychoco's native image
        # reserves 32 GB of address space (PROT_NONE) at import and cannot start under it
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
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


class _Sender:
    """The worker's result pipe, shared by the main thread and the progress thread."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._lock = threading.Lock()

    def send(self, message: Any) -> None:
        with self._lock:  # two threads writing one pipe would interleave their bytes
            self._conn.send(message)


class _Progress:
    """The running evaluation count of the solve in progress, sent to the driver.

    Every :class:`EvaluationCounter` created in this process is remembered (weakly); the
    counters created after :meth:`begin` belong to the solve. Only the worker does this:
    it wraps the counter's ``__init__`` in its own process, so solvers need no hook.
    """

    def __init__(self, conn: _Sender) -> None:
        self.conn = conn
        self.live: weakref.WeakSet = weakref.WeakSet()
        self.before: set[int] = set()
        self.active = False
        self.key = ""
        from sudoku_compare.problems.encodings.counter import EvaluationCounter

        original = EvaluationCounter.__init__
        live = self.live

        def remembered(counter: Any, *args: Any, **kwargs: Any) -> None:
            original(counter, *args, **kwargs)
            live.add(counter)

        EvaluationCounter.__init__ = remembered  # type: ignore[method-assign]
        threading.Thread(target=self._loop, name="progress", daemon=True).start()

    def begin(self, key: str = "") -> None:
        self.key = key
        try:
            self.before = {id(c) for c in list(self.live)}
        except RuntimeError:  # the set changed while copied: count every counter
            self.before = set()
        self.active = True

    def end(self) -> None:
        self.active = False

    def _loop(self) -> None:
        last = -1
        while True:
            time.sleep(PROGRESS_S)
            if not self.active:
                last = -1
                continue
            try:
                total = sum(c.count for c in list(self.live) if id(c) not in self.before)
            except RuntimeError:  # a counter was created during the copy: next time
                continue
            if total != last and self.active:
                last = total
                try:
                    self.conn.send(("progress", self.key, int(total)))
                except (OSError, ValueError):
                    return


def _run_one(task: Task, warm: set[str], conn: _Sender, announce: bool,
             progress: _Progress | None = None) -> dict[str, Any]:
    """One task, finished here: solved, timed, verified, in its stored form.

    ``started`` is sent before the solve only when ``announce`` (the first task of a
    chunk) or when this task warmed something up: the driver's clock for the next task of
    a chunk starts when the previous task's ``done`` arrives, and a warm-up must not count
    against it."""
    for mod in task.imports:
        importlib.import_module(mod)
    spec = registry.get(task.solver)
    puzzle = task.puzzle_obj()
    solver = spec.create(**task.params)
    warm_before = len(warm)

    def started() -> None:
        if announce or len(warm) != warm_before:
            conn.send(("started", task.key))
        if progress is not None:
            progress.begin(task.key)

    try:
        outcome = execute(spec, solver, puzzle, task.budget, task.seed, warmed=warm,
                          on_start=started)
    finally:
        if progress is not None:
            progress.end()
    return finish(task, outcome, puzzle).to_dict()


def worker_entry() -> None:
    """``python -c`` entry of a worker: task fd, result fd, memory cap (MB), silence flag."""
    task_fd, result_fd, memory_mb, silence = sys.argv[1:5]
    worker_main(Connection(int(task_fd), writable=False), int(memory_mb) or None,
                silence == "1", Connection(int(result_fd), readable=False))


def worker_main(tasks: Connection, memory_mb: int | None, silence: bool,
                results: Connection) -> None:
    """The worker loop: receive a chunk of tasks; for each send ``done`` with its verified
    outcome (``started`` first when the driver must restart its clock, ``progress``
    while it runs)."""
    _die_with_parent()
    if silence:
        _silence_output()
    _cap_memory(memory_mb)
    conn = _Sender(results)
    try:
        progress: _Progress | None = _Progress(conn)
    except Exception:  # noqa: BLE001 - no running count is no reason to fail the runs
        progress = None
    warm: set[str] = set()
    try:
        registry.load()  # now, while the driver still plans, not at the first task
    except Exception:  # noqa: BLE001 - a broken plug-in is reported by the run that needs it
        pass
    while True:
        try:
            chunk = tasks.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        for i, task in enumerate(chunk):
            try:
                result = _run_one(task, warm, conn, i == 0, progress)
            except MemoryError:
                result = {"status": "memout", "error": "MemoryError outside solve",
                          "stop_reason": "error"}
            except BaseException as exc:  # noqa: BLE001 - report anything, then go on
                result = {"status": "error", "stop_reason": "error",
                          "error": f"{type(exc).__name__}: {exc}"[:2000]}
            conn.send(("done", task.key, result))


def finish(task: Task, out: Outcome, puzzle: Puzzle | None = None) -> Outcome:
    """What the bench adds to an outcome: versions, the checker's verdict, ``solved-late``
    past ``max_seconds``, evaluations that are unknown rather than 0, a stop reason.

    The worker calls it on the outcome of its solve (the grid is checked where it is
    produced, by the independent checker, so the driver neither parses nor checks it);
    the driver calls it on the outcomes it makes itself (a killed or dead worker)."""
    if not out.versions:
        try:
            out.versions = versions_of(registry.get(task.solver))
        except Exception:  # noqa: BLE001 - an unknown solver still gets python/numpy
            out.versions = versions_of(None)
    out = verify(puzzle if puzzle is not None else task.puzzle_obj(), out)
    if out.status in (Status.ERROR, Status.MEMOUT) and not out.evaluations:
        # the solve raised or the worker died: what it spent is unknown, not zero
        if out.trace:
            out.evaluations = int(out.trace[-1][0])
            out.extra.setdefault("evaluations", "lower bound: the last trace sample")
        else:
            out.evaluations = None  # type: ignore[assignment]
            out.extra.setdefault("evaluations", "unknown: the run ended in an error")
    if out.status == Status.SOLVED and out.elapsed_s is not None \
            and out.elapsed_s > task.budget.max_seconds:
        out.status = Status.SOLVED_LATE  # within the grace, past the budget
    if out.stop_reason is None:
        out.stop_reason = default_stop_reason(out, task.budget)
    return out


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
        #: the tasks sent and not yet finished, the running one first
        self.chunk: deque[Task] = deque()
        #: unstarted tasks of a chunk whose worker was killed (see :meth:`take_back`)
        self.returned: list[Task] = []
        self._sampled_at = 0.0
        self.phase = "idle"          # idle | warming | solving
        self.deadline = 0.0
        #: the largest data segment (MB) seen in the current task (VmData of the child)
        self.peak_mb = 0.0
        #: the last running evaluation count the solving worker sent (None: none yet)
        self.evaluations_seen: int | None = None
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

    # -- tasks, one chunk at a time ------------------------------------------------------
    @property
    def task(self) -> Task | None:
        """The task running (or warming up) now: the first unfinished one of the chunk."""
        return self.chunk[0] if self.chunk else None

    def submit(self, tasks: Task | Sequence[Task]) -> None:
        """Send a chunk: tasks the worker runs one after the other, each under its own hard
        deadline (the clock of the next starts when the previous one's result arrives)."""
        chunk = [tasks] if isinstance(tasks, Task) else list(tasks)
        assert self.conn is not None and not self.chunk and chunk
        self.chunk = deque(chunk)
        self._begin("warming")
        assert self._tasks is not None
        try:
            self._tasks.send(chunk)
        except OSError:  # the worker died while idle; a fresh one takes the chunk
            self.restart()
            self._tasks.send(chunk)

    def _begin(self, phase: str) -> None:
        """The current task enters ``phase``: its deadline and samples start afresh."""
        task = self.task
        self.phase = phase
        self.evaluations_seen = None
        self.peak_mb = 0.0
        self._sampled_at = 0.0
        if task is None:
            self.phase = "idle"
        elif phase == "warming":
            self.deadline = time.monotonic() + WARMUP_TIMEOUT_S
        else:
            limit = task.budget.max_seconds + grace_seconds(task.budget.max_seconds)
            self.deadline = time.monotonic() + limit

    def take_back(self) -> list[Task]:
        """The tasks of a chunk that never started because the worker was killed or died
        on an earlier one: the executor runs them again (on the replacement)."""
        back, self.returned = self.returned, []
        return back

    def poll(self) -> list[tuple[Task, Outcome]]:
        """Advance the chunk; return the tasks that ended since the last call, with their
        verified outcomes (the worker verified its own; the driver's are made here)."""
        assert self.conn is not None
        done: list[tuple[Task, Outcome]] = []
        self._sample_memory()
        try:
            while self.chunk and self.conn.poll():
                message = self.conn.recv()
                kind, key = message[0], message[1]
                task = self.chunk[0]
                if key != task.key:
                    continue  # a late progress sample of a task already done
                if kind == "progress":
                    if self.phase == "solving":
                        self.evaluations_seen = int(message[2])
                elif kind == "started":
                    self._begin("solving")
                elif kind == "done":
                    out = Outcome.from_dict(message[2])
                    if not out.versions:  # a failure the worker could not finish itself
                        out = finish(task, out)
                    self.chunk.popleft()
                    done.append((task, out))
                    self._begin("solving")
        except (EOFError, OSError):
            return done + self._end_chunk(self._died())
        if not self.chunk:
            return done
        if not self.alive():
            try:  # results may have been written just before the exit
                if self.conn.poll():
                    return done + self.poll()
            except (EOFError, OSError):
                pass
            return done + self._end_chunk(self._died())
        if time.monotonic() > self.deadline:
            task = self.chunk[0]
            phase = self.phase
            if phase == "warming":
                out = Outcome(status=Status.ERROR,
                              error=f"warm-up took over {WARMUP_TIMEOUT_S:g} s; worker killed")
            else:
                limit = task.budget.max_seconds + grace_seconds(task.budget.max_seconds)
                out = Outcome(status=Status.TIMEOUT, elapsed_s=limit,
                              error=f"no answer within {limit:g} s; worker killed",
                              stop_reason=StopReason.KILLED)
                self._charge_running_count(out, "killed at the hard deadline")
            self.restart()
            return done + self._end_chunk(out)
        return done

    def _end_chunk(self, out: Outcome) -> list[tuple[Task, Outcome]]:
        """The current task ends with ``out`` (a kill or a death); the rest of its chunk
        goes back to the executor."""
        task = self.chunk.popleft()
        self.returned.extend(self.chunk)
        self.chunk.clear()
        self.phase = "idle"
        return [(task, finish(task, out))]

    def _sample_memory(self) -> None:
        """Remember the child's largest data segment seen (VmData, what the cap limits),
        for :meth:`_died`."""
        if self.process is None:
            return
        now = time.monotonic()
        if now - self._sampled_at < MEMORY_SAMPLE_S:
            return
        self._sampled_at = now
        try:
            with open(f"/proc/{self.process.pid}/status", "rb") as fh:
                for line in fh:
                    if line.startswith(b"VmData:"):
                        self.peak_mb = max(self.peak_mb, int(line.split()[1]) / 1024)
                        return
        except (OSError, ValueError, IndexError):  # not Linux, or already gone
            pass

    def _charge_running_count(self, out: Outcome, why: str) -> None:
        """Evaluations of a run that could not report them: the last running count (a
        lower bound), else unknown (NULL), never 0."""
        seen = self.evaluations_seen
        if seen:
            out.evaluations = seen
            out.extra["evaluations"] = f"lower bound: the running count when {why}"
        else:
            out.evaluations = None  # type: ignore[assignment]
            out.extra["evaluations"] = f"unknown: {why} before reporting a count"

    def _died(self) -> Outcome:
        """The outcome of a worker that died during a task, classified after reaping it."""
        counted = self.evaluations_seen
        code: int | None = None
        if self.process is not None:
            try:
                code = self.process.wait(5)  # reap: the exit status is only known then
            except subprocess.TimeoutExpired:  # pipe closed but the process lives on
                self.process.kill()
                code = None
        peak, cap = self.peak_mb, self.memory_mb
        self.restart()
        extra: dict[str, float | int | str] = {}
        where = f"peak data segment {peak:.0f} MB" + (f" of a {cap} MB cap" if cap else "")
        if peak:
            extra["peak_mb"] = round(peak, 1)
        if cap:
            extra["memory_mb"] = int(cap)
        status = Status.ERROR
        if code is None:
            error = "worker stopped answering and was killed"
        elif code >= 0:
            error = f"worker exited with code {code} ({where})"
        else:
            try:
                sig = signal.Signals(-code)
                name = sig.name
            except ValueError:
                sig, name = None, f"signal {-code}"
            extra["signal"] = name
            if sig in _ALLOCATION_SIGNALS and cap and near_cap(peak, cap):
                status = Status.MEMOUT
                error = f"worker killed by {name} at its memory cap ({where})"
            elif sig == signal.SIGKILL:
                error = (f"worker killed by SIGKILL, not by the bench: another process or "
                         f"the kernel's OOM killer ({where})")
            else:
                error = f"worker killed by {name} ({where})"
        out = Outcome(status=status, error=error, stop_reason=StopReason.ERROR, extra=extra)
        self.evaluations_seen = counted
        self._charge_running_count(out, "the worker died")
        return out


def default_stop_reason(out: Outcome, budget: Budget) -> StopReason:
    """Why a run stopped, for an outcome whose solver did not say (so every stored run has
    one): the bench's verdicts first, else the budget that ran out, else its own end."""
    if out.status == Status.TIMEOUT:
        return StopReason.KILLED
    if out.status in (Status.ERROR, Status.MEMOUT):
        return StopReason.ERROR
    if out.status in (Status.SOLVED, Status.SOLVED_LATE):
        return StopReason.TARGET
    if budget.max_evaluations is not None and (out.evaluations or 0) >= budget.max_evaluations:
        return StopReason.EVALUATIONS
    if out.elapsed_s is not None and out.elapsed_s >= budget.max_seconds:
        return StopReason.CLOCK
    return StopReason.FINISHED



def run_isolated(task: Task, memory_mb: int | None = DEFAULT_MEMORY_MB,
                 silence: bool = True) -> Outcome:
    """One run in a fresh worker (start-up cost included in wall time, not in ``elapsed_s``)."""
    from multiprocessing.connection import wait

    worker = Worker(memory_mb=memory_mb, silence=silence)
    try:
        worker.submit(task)
        while True:
            for _, out in worker.poll():
                return out
            wait([worker.conn], timeout=0.2)
    finally:
        worker.close()
