"""native.bp and native.bp-search: verified solutions, honest statuses, seeded determinism.

Belief propagation is incomplete: the tests pin what it may claim (a solved grid the checker
accepts, ``inference`` 1 only when no search ran), what it must say when inference fails
(``unsolved`` with ``stop_reason`` ``finished``, or the search fallback counted as such), and
that a contradiction before any decision is reported as a proof (``exhausted``).
"""

from __future__ import annotations

import pytest

from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.native.bp import BeliefPropagation, BPParams
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import load_set

from .conftest import needs_public

EASY51_0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
#: 4x4 with consistent givens and no candidate for cell (0, 2): row {1, 2}, column {3, 4}
NO_CANDIDATE = Puzzle(2, (1, 2, 0, 0,
                          0, 0, 0, 0,
                          0, 0, 3, 0,
                          0, 0, 4, 0))
BUDGET = Budget(max_seconds=20)


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    BeliefPropagation().warmup()


def _solve(puzzle: Puzzle, seed: int = 0, **params):
    return BeliefPropagation(**params).solve(puzzle, BUDGET, seed)


def test_registered_as_probabilistic_without_counterpart():
    for name, fallback in (("native.bp", "none"), ("native.bp-search", "search")):
        spec = registry.get(name)
        assert spec.family == "probabilistic" and spec.cls.counterpart is None
        assert spec.create().params.fallback == fallback


def test_easy51_0_solved_by_inference_and_verified():
    puzzle = Puzzle.from_string(EASY51_0)
    out = _solve(puzzle)
    assert out.claims_solved and out.stop_reason == "target"
    assert is_solution(puzzle, out.grid)
    assert out.counters["inference"] == 1 and out.counters["search"] == 0


def test_same_seed_same_outcome_on_a_puzzle_that_needs_decisions():
    # an empty 4x4 has many solutions: every placement past the first is BP's decision
    puzzle = Puzzle(2, (0,) * 16)
    a, b = _solve(puzzle, seed=7, singles=False), _solve(puzzle, seed=7, singles=False)
    assert (a.grid == b.grid).all() and a.counters == b.counters
    assert a.claims_solved and is_solution(puzzle, a.grid)
    assert a.counters["decimations"] > 0


def test_contradiction_before_any_decision_is_a_proof():
    out = _solve(NO_CANDIDATE)
    assert out.stop_reason == "exhausted" and not out.claims_solved
    assert out.counters["decimations"] == 0


def test_params_are_validated():
    for bad in ({"damping": 1.0}, {"damping": -0.1}, {"tol": 0.0}, {"max_iterations": 0},
                {"max_restarts": -1}, {"restart_noise": -1.0}, {"fallback": "guess"}):
        with pytest.raises(ValueError):
            BPParams(**bad)


@needs_public
def test_top95_0_fails_by_inference_and_says_so():
    puzzle = load_set("top95")[0]
    out = _solve(puzzle, max_restarts=2)
    assert not out.claims_solved
    assert out.stop_reason == "finished"
    assert out.counters["inference"] == 0 and out.counters["contradictions"] >= 1


@needs_public
def test_search_fallback_is_counted_and_verified():
    puzzle = load_set("top95")[0]
    out = BeliefPropagation(max_restarts=2, fallback="search").solve(puzzle, BUDGET, 0)
    assert out.claims_solved and is_solution(puzzle, out.grid)
    assert out.counters["search"] == 1 and out.counters["inference"] == 0
