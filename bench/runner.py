"""One isolated run: a warm worker process, a hard deadline, a memory cap, captured output.

A :class:`Worker` is a child process (a fresh interpreter: forking a parent that holds numba
or OpenMP threads is unsafe) that imports each solver's module at its first task and warms
each solver up once (imports, JIT compilation), outside the measured time. A worker takes a
chunk of tasks in one message and runs them one after the other. Before each it writes, in a few bytes of
memory it shares with the driver (:class:`TaskState`), which task of which chunk it is on,
whether it is warming up or solving, and since when; the driver reads them to hold every
run to its own hard deadline (max_seconds plus a grace, from the start of the solve, not of
the warm-up) and kills an overrunning worker (``timeout``, stop reason ``killed``); a fresh
one replaces it. Results go back in batches (one message per :data:`FLUSH_S` of work or per
chunk), so a run of tens of microseconds does not cost a message each way; a kill loses the
finished results of the batch not yet sent, and the shared state says which runs those
were, so they run again rather than being lost or blamed. File descriptors 1 and 2 of the
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

The worker verifies the grid it produced with the independent problems checker
(:func:`finish`) and sends the verdict; the driver neither parses nor checks it again.
"""

from __future__ import annotations

import functools
import importlib
import math
import mmap
import os
import signal
import struct
import subprocess
import sys
import tempfile
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
from sudoku_compare.problems.parsing import parse_compact_lines, parse_line
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
#: the longest a finished result waits in the worker before it is sent (the rest of a
#: chunk still running): what a kill can cost in runs done again
FLUSH_S = 0.02


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


class TaskState:
    """Which task a worker is on, shared by the worker (the only writer) and the driver.

    A few bytes of a file both processes map: the chunk's number, the task's index in it,
    its phase (:data:`WARMING` or :data:`SOLVING`) and the ``time.monotonic()`` it entered
    the phase (a system-wide clock, the same in both processes). Written under a sequence
    count (odd while a write is under way), so a reader never mixes two writes; a message
    per task would cost more than a short solve."""

    WARMING, SOLVING = 0, 1
    _SEQ = struct.Struct("<q")
    _FIELDS = struct.Struct("<qqqd")   # chunk number, task index, phase, since

    def __init__(self, fd: int | None = None) -> None:
        """``fd=None``: the driver's side, a new unlinked file; else the worker's side of
        the file behind that descriptor (inherited from the driver)."""
        self._file = tempfile.TemporaryFile(prefix="sudoku-compare-worker-") if fd is None \
            else None
        self.fd = self._file.fileno() if self._file is not None else fd
        size = self._SEQ.size + self._FIELDS.size
        if self._file is not None:
            os.ftruncate(self.fd, size)
        self._map = mmap.mmap(self.fd, size)
        self._seq = 0

    def write(self, chunk: int, index: int, phase: int) -> None:
        """The worker enters ``phase`` of task ``index`` of chunk ``chunk`` now."""
        self._seq += 1
        self._SEQ.pack_into(self._map, 0, self._seq)
        self._FIELDS.pack_into(self._map, self._SEQ.size, chunk, index, phase, time.monotonic())
        self._seq += 1
        self._SEQ.pack_into(self._map, 0, self._seq)

    def read(self) -> tuple[int, int, int, float]:
        """(chunk, index, phase, since) as last written; (0, 0, WARMING, 0.0) before any."""
        fields = (0, 0, self.WARMING, 0.0)
        for _ in range(1000):
            (before,) = self._SEQ.unpack_from(self._map, 0)
            fields = self._FIELDS.unpack_from(self._map, self._SEQ.size)
            (after,) = self._SEQ.unpack_from(self._map, 0)
            if before == after and not before & 1:
                break
        return fields

    def close(self) -> None:
        self._map.close()
        if self._file is not None:
            self._file.close()


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


def _run_one(task: Task, warm: set[str], started: Any,
             progress: _Progress | None = None, puzzle: Puzzle | None = None
             ) -> dict[str, Any]:
    """One task, finished here: solved, timed, verified, in its stored form; ``started``
    is called just before the solve (after any warm-up). ``puzzle`` is the task's puzzle
    when its chunk decoded it already."""
    for mod in task.imports:
        importlib.import_module(mod)
    spec = registry.get_from(task.solver, task.unit)
    if puzzle is None:
        puzzle = task.puzzle_obj()
    solver = spec.create(**task.params)

    def on_start() -> None:
        started()
        if progress is not None:
            progress.begin(task.key)

    try:
        outcome = execute(spec, solver, puzzle, task.budget, task.seed, warmed=warm,
                          on_start=on_start)
    finally:
        if progress is not None:
            progress.end()
    return finish(task, outcome, puzzle).to_dict()


def worker_entry() -> None:
    """``python -c`` entry of a worker: task fd, result fd, state fd, memory cap (MB),
    silence flag."""
    task_fd, result_fd, state_fd, memory_mb, silence = sys.argv[1:6]
    worker_main(Connection(int(task_fd), writable=False), int(memory_mb) or None,
                silence == "1", Connection(int(result_fd), readable=False),
                TaskState(int(state_fd)))
    # Every result is sent and nothing else is owed: exit without the interpreter's
    # teardown (numba's and numpy's took 0.1-0.2 s, which a campaign's close waited for).
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(0)


def worker_main(tasks: Connection, memory_mb: int | None, silence: bool,
                results: Connection, state: TaskState) -> None:
    """The worker loop: receive a chunk ``(number, tasks)``; run its tasks in order, each
    announced in ``state``; send their verified outcomes as ``("done", [(key, result),
    ...])`` at least every :data:`FLUSH_S` and at the chunk's end (``progress`` samples
    while a solve runs)."""
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
        _load_checker()  # now, while the driver still plans, not at the first task
    except Exception:  # noqa: BLE001 - the first run's own check then says what is wrong
        pass
    while True:
        try:
            message = tasks.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        number, chunk = message
        batch: list[tuple[str, dict[str, Any]]] = []
        sent_at = time.monotonic()
        state.write(number, 0, TaskState.WARMING)
        try:
            puzzles = parse_compact_lines([task.puzzle for task in chunk])
        except Exception:  # noqa: BLE001 - each run then parses its own and reports why
            puzzles = [None] * len(chunk)
        for i, task in enumerate(chunk):
            state.write(number, i, TaskState.WARMING)
            try:
                result = _run_one(task, warm, functools.partial(
                    state.write, number, i, TaskState.SOLVING), progress, puzzles[i])
            except MemoryError:
                result = {"status": "memout", "error": "MemoryError outside solve",
                          "stop_reason": "error"}
            except BaseException as exc:  # noqa: BLE001 - report anything, then go on
                result = {"status": "error", "stop_reason": "error",
                          "error": f"{type(exc).__name__}: {exc}"[:2000]}
            batch.append((task.key, result))
            now = time.monotonic()
            if now - sent_at >= FLUSH_S or i == len(chunk) - 1:
                conn.send(("done", batch))
                batch, sent_at = [], now


def _load_checker() -> None:
    """Load what every run needs, whichever its solver: numba's compiled-code machinery and
    the independent checker's kernel (one check of a solved 4x4 grid). The solver's own
    module is imported by its first task (:func:`registry.get_from`), not every solver's."""
    from sudoku_compare.problems.checker import is_solution

    is_solution(Puzzle(2, (0,) * 16), [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])


def finish(task: Task, out: Outcome, puzzle: Puzzle | None = None) -> Outcome:
    """What the bench adds to an outcome: versions, the checker's verdict, ``solved-late``
    past ``max_seconds``, evaluations that are unknown rather than 0, a stop reason.

    The worker calls it on the outcome of its solve (the grid is checked where it is
    produced, by the independent checker, so the driver neither parses nor checks it);
    the driver calls it on the outcomes it makes itself (a killed or dead worker)."""
    if not out.versions:
        try:
            out.versions = versions_of(registry.get_from(task.solver, task.unit))
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
    ``multiprocessing`` connections, and the :class:`TaskState` file) rather than a
    ``multiprocessing.Process``: a spawned Process re-imports the caller's ``__main__``,
    which breaks scripts and notebooks without a ``__main__`` guard, and forking a parent
    holding numba threads is unsafe.
    """

    def __init__(self, memory_mb: int | None = DEFAULT_MEMORY_MB, silence: bool = True) -> None:
        self.memory_mb = memory_mb
        self.silence = silence
        self.process: subprocess.Popen | None = None
        self.conn: Connection | None = None      # results from the child
        self._tasks: Connection | None = None    # tasks to the child
        self._state: TaskState | None = None
        #: the tasks of the chunk sent whose results have not come back, in order
        self.chunk: deque[Task] = deque()
        #: the chunk's number (the worker writes it into the state) and how many of its
        #: tasks came back, so the state's task index names a task of :attr:`chunk`
        self._number = 0
        self._returned_count = 0
        self._submitted_at = 0.0
        #: unstarted or unsent tasks of a chunk whose worker was killed (see :meth:`take_back`)
        self.returned: list[Task] = []
        self._sampled_at = 0.0
        self._sampled_index = -1
        #: the largest data segment (MB) seen in the current task (VmData of the child)
        self.peak_mb = 0.0
        #: the last running evaluation count the worker sent: (run id, count)
        self._progress: tuple[str, int] | None = None
        self.start()

    def start(self) -> None:
        task_r, task_w = os.pipe()
        res_r, res_w = os.pipe()
        self._state = TaskState()
        env = dict(os.environ)
        paths = [p for p in sys.path if p and os.path.isdir(p)]
        env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([os.getcwd(), *paths]))
        code = "from sudoku_compare.bench.runner import worker_entry; worker_entry()"
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, str(task_r), str(res_w), str(self._state.fd),
             str(self.memory_mb or 0), "1" if self.silence else "0"],
            pass_fds=(task_r, res_w, self._state.fd), env=env, stdin=subprocess.DEVNULL,
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
        for c in (self.conn, self._tasks, self._state):
            if c is not None:
                c.close()
        self.process = self.conn = self._tasks = self._state = None

    def restart(self) -> None:
        self.kill()
        self.start()

    def stop(self) -> None:
        """Ask the worker to exit once its chunk is done (:meth:`close` waits for it): a pool
        asks all its workers first, so their exits overlap."""
        if self._tasks is not None and self.process is not None and self.process.poll() is None:
            try:
                self._tasks.send(None)
            except OSError:
                pass
            self._tasks.close()
            self._tasks = None

    def close(self) -> None:
        self.stop()
        if self.process is not None and self.process.poll() is None:
            try:
                self.process.wait(2)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    # -- tasks, one chunk at a time ------------------------------------------------------
    @property
    def task(self) -> Task | None:
        """The first task of the chunk whose result has not come back (None: idle)."""
        return self.chunk[0] if self.chunk else None

    def submit(self, tasks: Task | Sequence[Task]) -> None:
        """Send a chunk: tasks the worker runs one after the other, each under its own hard
        deadline from the start of its solve (read from the shared :class:`TaskState`)."""
        chunk = [tasks] if isinstance(tasks, Task) else list(tasks)
        assert self.conn is not None and not self.chunk and chunk
        self.chunk = deque(chunk)
        self._number += 1
        self._returned_count = 0
        self._submitted_at = time.monotonic()
        self._progress = None
        self.peak_mb = 0.0
        self._sampled_index = -1
        assert self._tasks is not None
        try:
            self._tasks.send((self._number, chunk))
        except OSError:  # the worker died while idle; a fresh one takes the chunk
            self.restart()
            assert self._tasks is not None
            self._tasks.send((self._number, chunk))

    def running(self) -> tuple[int, int, float]:
        """(position in :attr:`chunk`, phase, since) of the task the worker is on: a task
        whose result came back is never blamed (the worker is past it)."""
        assert self._state is not None
        number, index, phase, since = self._state.read()
        if number != self._number:  # the chunk not begun yet: its first task warms up
            return 0, TaskState.WARMING, self._submitted_at
        position = index - self._returned_count
        if position < 0:  # between tasks: the last one it named came back, the next not begun
            return 0, TaskState.WARMING, time.monotonic()
        # no task of this chunk began before it was sent: a time before that is not this
        # chunk's (one spurious warm-up kill in about 300,000 runs was seen without this)
        return min(position, len(self.chunk) - 1), phase, max(since, self._submitted_at)

    @property
    def deadline(self) -> float:
        """When the task the worker is on must be killed (``time.monotonic()``)."""
        if not self.chunk:
            return math.inf
        position, phase, since = self.running()
        if phase == TaskState.WARMING:
            return since + WARMUP_TIMEOUT_S
        budget = self.chunk[position].budget
        return since + budget.max_seconds + grace_seconds(budget.max_seconds)

    def take_back(self) -> list[Task]:
        """The tasks of a chunk that never started, or finished without their result
        reaching the driver, because the worker was killed or died on another one: the
        executor runs them again (on the replacement)."""
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
                if message[0] == "progress":
                    self._progress = (message[1], int(message[2]))
                    continue
                for key, result in message[1]:
                    task = self.chunk.popleft()
                    assert key == task.key, (key, task.key)
                    self._returned_count += 1
                    out = Outcome.from_dict(result)
                    if not out.versions:  # a failure the worker could not finish itself
                        out = finish(task, out)
                    done.append((task, out))
        except (EOFError, OSError):
            return done + self._died()
        if not self.chunk:
            return done
        if not self.alive():
            try:  # results may have been written just before the exit
                if self.conn.poll():
                    return done + self.poll()
            except (EOFError, OSError):
                pass
            return done + self._died()
        if time.monotonic() > self.deadline:
            position, phase, _ = self.running()
            task = self.chunk[position]
            if phase == TaskState.WARMING:
                out = Outcome(status=Status.ERROR,
                              error=f"warm-up took over {WARMUP_TIMEOUT_S:g} s; worker killed")
            else:
                limit = task.budget.max_seconds + grace_seconds(task.budget.max_seconds)
                out = Outcome(status=Status.TIMEOUT, elapsed_s=limit,
                              error=f"no answer within {limit:g} s; worker killed",
                              stop_reason=StopReason.KILLED)
                self._charge_running_count(out, task, "killed at the hard deadline")
            self.restart()
            return done + self._end_chunk(out, position)
        return done

    def _end_chunk(self, out: Outcome, position: int) -> list[tuple[Task, Outcome]]:
        """The task at ``position`` of the chunk ends with ``out`` (a kill or a death); the
        others whose results did not come back go back to the executor: those before it
        finished unsent, those after it never started."""
        tasks = list(self.chunk)
        task = tasks.pop(position)
        self.returned.extend(tasks)
        self.chunk.clear()
        return [(task, finish(task, out))]

    def _sample_memory(self) -> None:
        """Remember the largest data segment (VmData, what the cap limits) the child had
        during the task it is on, for :meth:`_died`."""
        if self.process is None:
            return
        now = time.monotonic()
        if now - self._sampled_at < MEMORY_SAMPLE_S:
            return
        self._sampled_at = now
        if self.chunk:
            position = self.running()[0]
            if position != self._sampled_index:  # another task: its own peak
                self._sampled_index, self.peak_mb = position, 0.0
        try:
            with open(f"/proc/{self.process.pid}/status", "rb") as fh:
                for line in fh:
                    if line.startswith(b"VmData:"):
                        self.peak_mb = max(self.peak_mb, int(line.split()[1]) / 1024)
                        return
        except (OSError, ValueError, IndexError):  # not Linux, or already gone
            pass

    def _charge_running_count(self, out: Outcome, task: Task, why: str) -> None:
        """Evaluations of a run that could not report them: the last running count the
        worker sent for this very run (a lower bound), else unknown (NULL), never 0."""
        seen = self._progress[1] if self._progress and self._progress[0] == task.key else 0
        if seen:
            out.evaluations = seen
            out.extra["evaluations"] = f"lower bound: the running count when {why}"
        else:
            out.evaluations = None  # type: ignore[assignment]
            out.extra["evaluations"] = f"unknown: {why} before reporting a count"

    def _died(self) -> list[tuple[Task, Outcome]]:
        """The task a worker died on, with its outcome classified after reaping the
        process; the rest of its chunk goes back to the executor."""
        position = self.running()[0]
        task = self.chunk[position]
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
        self._charge_running_count(out, task, "the worker died")
        return self._end_chunk(out, position)


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
