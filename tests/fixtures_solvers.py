"""Misbehaving solvers for the reliability tests; registered only where this module is imported.

A campaign passes ``imports=("tests.fixtures_solvers",)`` so each worker imports it and the
names below exist there. Their names start with ``test.`` so the contract test skips them.
"""

from __future__ import annotations

import signal
import time

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


load()  # the built-in solvers first, so these never shadow a real name
for _cls in (Hang, Hog, Cheat, Crash, Slow):
    register(_cls)
