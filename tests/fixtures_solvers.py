"""Misbehaving solvers for the reliability tests; registered only where this module is imported.

A campaign passes ``imports=("tests.fixtures_solvers",)`` so each worker imports it and the
names below exist there. Their names start with ``test.`` so the contract test skips them.
"""

from __future__ import annotations

import os
import resource
import signal
import time
from pathlib import Path

import numpy as np

from sudoku_compare.outcome import Outcome
from sudoku_compare.registry import load, register
from sudoku_compare.solver import Solver

MODULE = __name__


class _Base(Solver):
    family = "backtracking"
    origin = "native"
    encoding = "grid"
    boxes = (2, 3)


class Hang(_Base):
    """Ignores SIGTERM and SIGINT and never returns."""

    name = "test.hang"

    def solve(self, puzzle, budget, seed):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        while True:
            time.sleep(0.01)


class CountingHang(_Base):
    """Evaluates through the shared counter, as a library does, and never returns."""

    name = "test.counting-hang"

    def solve(self, puzzle, budget, seed):
        from sudoku_compare.problems.encodings.counter import EvaluationCounter

        counter = EvaluationCounter()
        objective = counter.wrap(lambda x: x)
        while True:
            objective(1)
            time.sleep(0.0005)


class QuickOrHang(_Base):
    """Answers at once (its givens, unsolved), except on a puzzle whose first cell is given:
    there it hangs, in the middle of a chunk of quick runs."""

    name = "test.quick-or-hang"

    def solve(self, puzzle, budget, seed):
        if puzzle.cells[0]:
            while True:
                time.sleep(0.01)
        return Outcome(grid=puzzle.grid(), evaluations=1)


class Hog(_Base):
    """Allocates without bound (address space; pages untouched so the test stays fast)."""

    name = "test.hog"

    def solve(self, puzzle, budget, seed):
        chunks = []
        while True:
            chunks.append(np.empty(256 * 1024 * 1024 // 8))


class Cheat(_Base):
    """Returns a grid that changes a given and claims it solved."""

    name = "test.cheat"

    def solve(self, puzzle, budget, seed):
        grid = puzzle.flat().copy()
        i = int(np.flatnonzero(grid)[0])
        grid[i] = grid[i] % puzzle.side + 1
        return Outcome(grid=grid, claims_solved=True)


class Crash(_Base):
    """Raises."""

    name = "test.crash"

    def solve(self, puzzle, budget, seed):
        raise RuntimeError("deliberate crash")


class Slow(_Base):
    """Sleeps ``nap`` seconds then gives up honestly (for the kill-and-resume test)."""

    name = "test.slow"

    def solve(self, puzzle, budget, seed):
        time.sleep(0.3)
        return Outcome(grid=puzzle.flat(), counters={"seed": seed % 1000})


#: signals a worker is made to die of, one fixture solver each (``test.signal-sigsegv``...)
DEATH_SIGNALS = ("SIGSEGV", "SIGABRT", "SIGBUS", "SIGFPE", "SIGILL", "SIGTERM", "SIGKILL")


def _die_by(sig: signal.Signals) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file in the test's folder
    if sig != signal.SIGKILL:  # Python's own handlers stay out of it (SIGKILL has none)
        signal.signal(sig, signal.SIG_DFL)
    os.kill(os.getpid(), sig)
    time.sleep(5)  # a signal that is not delivered at once still ends the process


def _signal_solver(sig_name: str) -> type[Solver]:
    sig = signal.Signals[sig_name]

    def solve(self, puzzle, budget, seed):
        _die_by(sig)

    return type(f"Die{sig_name}", (_Base,), {"name": f"test.signal-{sig_name.lower()}",
                                             "solve": solve,
                                             "__doc__": f"Kills its own process with {sig_name}."})


class Exit(_Base):
    """Leaves the process with exit code 3, as a library calling ``exit(3)`` does."""

    name = "test.exit"

    def solve(self, puzzle, budget, seed):
        os._exit(3)


class HogAbort(_Base):
    """Fills the address space to the cap, holds it, then aborts: what C++ code does when
    ``std::bad_alloc`` goes uncaught (the hold lets the driver see the peak)."""

    name = "test.hog-abort"

    def solve(self, puzzle, budget, seed):
        chunks = []
        try:
            while True:
                chunks.append(np.empty(32 * 1024 * 1024 // 8))
        except MemoryError:
            pass
        time.sleep(1.5)
        _die_by(signal.SIGABRT)


class Late(_Base):
    """Solves, but returns only after ``max_seconds`` (inside the kill grace)."""

    name = "test.late"

    def warmup(self):
        from sudoku_compare.registry import create

        create("native.backtracking").warmup()

    def solve(self, puzzle, budget, seed):
        from sudoku_compare.registry import create

        out = create("native.backtracking").solve(puzzle, budget, seed)
        time.sleep(budget.max_seconds + 0.3)
        return out


#: environment variable naming a file; while it exists ``test.flaky`` raises
FLAKY_FLAG = "SUDOKU_COMPARE_TEST_FLAKY"


class Flaky(_Base):
    """Raises while the file named by ``$SUDOKU_COMPARE_TEST_FLAKY`` exists, else solves."""

    name = "test.flaky"

    def warmup(self):
        from sudoku_compare.registry import create

        create("native.backtracking").warmup()

    def solve(self, puzzle, budget, seed):
        flag = os.environ.get(FLAKY_FLAG)
        if flag and Path(flag).exists():
            raise RuntimeError("flaky failure")
        from sudoku_compare.registry import create

        return create("native.backtracking").solve(puzzle, budget, seed)


class Leaky(_Base):
    """Declares that its worker must be replaced every two runs; reports the worker's pid."""

    name = "test.leaky"
    runs_per_worker = 2

    def solve(self, puzzle, budget, seed):
        from sudoku_compare.registry import create

        out = create("native.backtracking").solve(puzzle, budget, seed)
        out.extra["pid"] = os.getpid()
        return out


load()  # the built-in solvers first, so these never shadow a real name
for _cls in (Hang, CountingHang, QuickOrHang, Hog, Cheat, Crash, Slow, Exit, HogAbort, Late, Flaky, Leaky,
             *(_signal_solver(name) for name in DEATH_SIGNALS)):
    register(_cls)
