"""Isolated runs: a hung, a memory-hungry, a lying and a crashing solver are each recorded,
and the worker pool goes on with the next run."""

from __future__ import annotations

import time

import pytest

from sudoku_compare.bench.executor import LocalProcessExecutor
from sudoku_compare.bench.runner import Task, grace_seconds, run_isolated
from sudoku_compare.budget import Budget
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.parsing import parse_line

from .fixtures_solvers import MODULE

EASY = ("000260701680070090190004500820100040004602900050003028009300074040050036703018000")
IMPORTS = (MODULE,)


@pytest.fixture(scope="module")
def misbehaving():
    """One pool, five runs in order: the statuses and the wall time of each."""
    names = ["test.hang", "test.hog", "test.cheat", "test.crash", "native.backtracking"]
    tasks = [Task(n, EASY, Budget(0.5), 7, {}, IMPORTS, n) for n in names]
    out = {}
    with LocalProcessExecutor(workers=1, memory_mb=1024) as ex:
        start = time.monotonic()
        for task, outcome in ex.map_unordered(tasks):
            out[task.solver] = (outcome, time.monotonic() - start)
    return out


def test_a_solver_that_ignores_signals_and_never_returns_is_a_timeout(misbehaving):
    outcome, _ = misbehaving["test.hang"]
    assert outcome.status == "timeout"
    assert "killed" in outcome.error


def test_unbounded_allocation_is_a_memout(misbehaving):
    outcome, _ = misbehaving["test.hog"]
    assert outcome.status == "memout"


def test_a_changed_given_is_invalid(misbehaving):
    outcome, _ = misbehaving["test.cheat"]
    assert outcome.status == "invalid"
    assert any("given" in v for v in outcome.violations)


def test_an_exception_is_an_error_with_its_message(misbehaving):
    outcome, _ = misbehaving["test.crash"]
    assert outcome.status == "error"
    assert "deliberate crash" in outcome.error


def test_the_pool_goes_on_after_a_killed_worker(misbehaving):
    outcome, _ = misbehaving["native.backtracking"]
    assert outcome.status == "solved"
    assert is_solution(parse_line(EASY), outcome.grid)
    assert outcome.counters["search_calls"] > 0
    assert outcome.elapsed_s < 0.5  # the solve alone: no start-up, no JIT
    assert {"python", "numpy"} <= set(outcome.versions)


def test_the_hard_deadline_is_max_seconds_plus_grace(misbehaving):
    _, hang_done = misbehaving["test.hang"]
    # the first result arrives after worker start + warm-up + the deadline; never long after
    assert hang_done >= 0.5 + grace_seconds(0.5)
    assert hang_done < 0.5 + grace_seconds(0.5) + 60


def test_library_output_is_captured_and_the_outcome_verified():
    out = run_isolated(Task("native.backtracking", EASY, Budget(2.0), 0))
    assert out.status == "solved" and out.error is None


def test_a_free_worker_prefers_kernels_it_has_and_then_kernels_nobody_compiles():
    from collections import deque

    from sudoku_compare.bench.executor import _next_for

    def t(unit: str, k: int) -> Task:
        return Task("x", "0" * 81, Budget(1.0), 0, key=f"{unit}{k}", unit=unit)

    queue = deque([t("a", 0), t("b", 0), t("a", 1), t("c", 0), t("c", 1)])
    assert _next_for(queue, {"a"}, {"a", "b"}).key == "a0"     # its own kernels first
    assert _next_for(queue, {"z"}, {"a", "b"}).key == "c0"     # then an unstarted module
    # then a module another worker has finished compiling, not one still being compiled
    assert _next_for(queue, {"z"}, {"a", "b", "c"}, {"c"}).key == "c1"
    assert _next_for(queue, {"z"}, {"a", "b", "c"}).key == "b0"  # else the next in line
    assert [x.key for x in queue] == ["a1"]


def test_a_worker_is_replaced_after_the_runs_its_solver_allows():
    """``runs_per_worker = 2``: six runs on one worker use three processes, two runs each,
    every grid still verified (the pychoco memory leak is handled this way)."""
    tasks = [Task("test.leaky", EASY, Budget(5.0), s, {}, IMPORTS, str(s)) for s in range(6)]
    pids = []
    with LocalProcessExecutor(workers=1, memory_mb=1024) as ex:
        for _task, outcome in ex.map_unordered(tasks):
            assert outcome.status == "solved"
            pids.append(outcome.extra["pid"])
    assert len(set(pids)) == 3
    assert [pids.count(p) for p in dict.fromkeys(pids)] == [2, 2, 2]
