"""native.tabu: verified solutions, the evaluation budget, seeded determinism, the deadline."""

from __future__ import annotations

import time

import numpy as np
import pytest

from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.native.tabu import TabuSearch
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.puzzle import Puzzle

EASY51_0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
HARD = "850002400720000009004000000000107002305000900040000000000080070017000000000036040"


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    TabuSearch().warmup()


def run(puzzle, seed, budget, **params):
    return TabuSearch(**params).solve(Puzzle.from_string(puzzle), budget, seed)


def test_declared_in_the_annealing_group_without_counterpart():
    spec = registry.get("native.tabu")
    assert (spec.family, spec.encoding, spec.cls.origin) == ("tabu", "row-permutation", "native")
    assert spec.cls.counterpart is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_solves_easy51_0_verified(seed):
    out = run(EASY51_0, seed, Budget(max_seconds=20, max_evaluations=2_000_000))
    assert out.stop_reason == "target" and out.best_energy == 0
    assert is_solution(Puzzle.from_string(EASY51_0), out.grid)


@pytest.mark.parametrize("limit", [1, 2, 57, 5_000, 123_457])
@pytest.mark.parametrize("params", [{}, {"rows": 2}, {"sampled": 30}, {"max_restarts": 0},
                                    {"conflicted": False}, {"tabu_on": "cells"}])
def test_never_exceeds_max_evaluations(limit, params):
    out = run(HARD, 3, Budget(max_seconds=30, max_evaluations=limit), **params)
    assert out.evaluations <= limit
    # one evaluation per delta, one per start state
    assert out.evaluations == out.counters["deltas"] + out.restarts + 1
    if out.best_energy > 0 and params.get("max_restarts") != 0:
        assert out.evaluations == limit and out.stop_reason == "evaluations"


@pytest.mark.parametrize("params", [{}, {"rows": 2}, {"sampled": 30}, {"conflicted": False},
                                    {"tabu_on": "cells"}])
def test_same_seed_same_outcome(params):
    budget = Budget(max_seconds=60, max_evaluations=300_000)
    a = run(HARD, 11, budget, **params)
    b = run(HARD, 11, budget, **params)
    c = run(HARD, 12, budget, **params)
    assert np.array_equal(a.grid, b.grid)
    assert (a.evaluations, a.counters, a.restarts, a.best_energy) == \
        (b.evaluations, b.counters, b.restarts, b.best_energy)
    assert [t[0] for t in a.trace] == [t[0] for t in b.trace]
    assert not np.array_equal(a.grid, c.grid) or a.counters != c.counters


def test_respects_a_short_deadline():
    # seed 5 needs about 3 million evaluations (0.28 s here): 0.05 s stops it well before
    t = time.perf_counter()
    out = run(HARD, 5, Budget(max_seconds=0.05))
    elapsed = time.perf_counter() - t
    assert out.stop_reason == "clock" and out.best_energy > 0
    assert elapsed < 0.05 + 0.2


def test_one_run_ends_by_stagnation_as_finished():
    out = run(HARD, 4, Budget(max_seconds=30, max_evaluations=10**8),
              max_restarts=0, stagnation=50)
    assert out.restarts == 0 and out.stop_reason == "finished"
    assert out.schedule_fraction == 1.0


def test_restarts_after_stagnation():
    out = run(HARD, 4, Budget(max_seconds=30, max_evaluations=500_000), stagnation=50)
    assert out.restarts > 0


def test_bad_params_refused():
    with pytest.raises(ValueError):
        TabuSearch(stagnation=0)
    with pytest.raises(ValueError):
        TabuSearch(rows=-1)
    with pytest.raises(ValueError):
        TabuSearch(tabu_on="rows")
