"""Every native solver says why it stopped, and ``max_restarts`` means one thing in every family.

Stochastic natives (annealing, genetic, swarm): an evaluation budget that binds ends the run with
``evaluations`` after exactly that many evaluations; reaching the target ends it with ``target``;
the deadline with ``clock``; the algorithm's own schedule with ``finished`` (fraction 1).
Exact natives: ``target`` when solved, ``exhausted`` when proved unsolvable, ``clock`` at the
deadline, ``evaluations`` where an assignment budget binds (CSP), ``finished`` at their own caps.
"""

from __future__ import annotations

import math
import time
from dataclasses import fields

import pytest

from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.native.annealing import AnnealingParams
from sudoku_compare.native.genetic import GeneticParams
from sudoku_compare.native.pso_canonical import CanonicalPsoParams
from sudoku_compare.native.pso_swap import SwapPsoParams
from sudoku_compare.native.pso_swarm import SwarmParams
from sudoku_compare.native.tabu import TabuParams
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.vocabulary import StopReason

# hardest:0: no stochastic native solves it within the budgets used here
HARD = Puzzle.from_string(
    "850002400720000009004000000000107002305000900040000000000080070017000000000036040")
EASY = Puzzle.from_string(
    "902005403100063025508407060026309001057010290090670530240530600705200304080041950")
FOUR = Puzzle.from_string("1..." "..2." ".3.." "...4")
# row 0 needs a 9 in its last cell, which column 8 already holds: no solution
NO_SOLUTION = Puzzle.from_string("12345678." + "........9" + "." * 63)


def _deep() -> Puzzle:
    """An almost empty 25x25 grid: every exact native has to search (guess) on it."""
    cells = [0] * 625
    cells[0], cells[1] = 1, 2
    cells[25 * 24 + 24] = 1
    cells[25 * 23 + 24] = 2
    return Puzzle(5, tuple(cells))


#: the built-in natives only: the misbehaving fixtures (tests/fixtures_solvers.py, names
#: ``test.*``, some of which never return) are registered once another test module imports
#: them, and must never be called in-process here
NATIVES = [s for s in registry.all_specs()
           if s.origin == "native" and s.source == registry.BUILT_IN]
STOCHASTIC = sorted(s.name for s in NATIVES if s.cls.stochastic)
EXACT = sorted(s.name for s in NATIVES if not s.cls.stochastic)
#: the stochastic Params that share the restart driver, and a schedule short enough to finish:
#: (params, evaluations of one run when that count does not depend on the moves, else None)
TINY = {
    AnnealingParams: ({"alpha": 0.5}, 1 + 10 * 100),  # K = ceil(ln 1e-3 / ln .5) = 10 levels
    GeneticParams: ({"population": 20, "max_generations": 5}, None),
    SwapPsoParams: ({"swarm_size": 5, "max_iterations": 5}, 5 * (1 + 5)),
    SwarmParams: ({"organisms": 20, "max_epochs": 5}, None),
    CanonicalPsoParams: ({"swarm_size": 10, "max_iterations": 5}, 10 * (1 + 5)),
    TabuParams: ({"stagnation": 20}, None),
}
RESTARTED = sorted(s.name for s in NATIVES if s.cls.stochastic and s.cls.Params in TINY)


def _has(name: str, param: str) -> bool:
    return param in {f.name for f in fields(registry.get(name).cls.Params)}


def _tiny(name: str) -> dict:
    """A schedule that ends long before 200,000 evaluations or 30 s."""
    cls = registry.get(name).cls.Params
    if cls in TINY:
        return dict(TINY[cls][0])
    if _has(name, "epoch") and _has(name, "pop_size"):  # the random-keys PSO: no restarts
        return {"epoch": 5, "pop_size": 5}
    raise AssertionError(f"{name}: no short schedule known; add one to this test")


def _endless(name: str) -> dict:
    """A schedule that never ends before the clock."""
    if _has(name, "max_restarts"):
        return {"max_restarts": -1}
    if _has(name, "epoch"):
        return {"epoch": 10**8}
    raise AssertionError(f"{name}: no endless schedule known; add one to this test")


def test_the_lists_are_not_empty():
    """Guards the parametrisations below against a registry that lists nothing."""
    assert {"native.sa", "native.ga", "native.pso-swap", "native.pso-swarm",
            "native.pso-canonical"} <= set(RESTARTED)
    assert {"native.dlx", "native.bitmask", "native.norvig", "native.csp-bt"} <= set(EXACT)


@pytest.mark.parametrize("limit", [1, 777, 5000])
@pytest.mark.parametrize("name", STOCHASTIC)
def test_a_binding_evaluation_budget_is_spent_exactly_and_named(name, limit):
    out = registry.create(name).solve(HARD, Budget(max_seconds=60, max_evaluations=limit), 1)
    assert not out.claims_solved
    assert out.stop_reason == StopReason.EVALUATIONS
    assert out.evaluations == limit
    assert 0.0 <= out.schedule_fraction < 1.0


@pytest.mark.parametrize("name", STOCHASTIC)
def test_a_solved_run_stops_at_the_target(name):
    out = registry.create(name).solve(FOUR, Budget(max_seconds=60, max_evaluations=200_000), 1)
    assert out.claims_solved and is_solution(FOUR, out.grid)
    assert out.stop_reason == StopReason.TARGET
    assert out.evaluations < 200_000
    assert 0.0 <= out.schedule_fraction <= 1.0


@pytest.mark.parametrize("name", STOCHASTIC)
def test_a_met_target_energy_stops_the_run(name):
    """Every state meets target 1e9: the run ends at its first evaluations, named ``target``."""
    out = registry.create(name).solve(
        HARD, Budget(max_seconds=60, max_evaluations=100_000, target=1e9), 1)
    assert out.stop_reason == StopReason.TARGET
    assert out.evaluations < 100_000 and out.restarts == 0


@pytest.mark.parametrize("name", STOCHASTIC)
def test_the_deadline_is_named_clock(name):
    """An endless schedule and a target no state can meet (energies are >= 0), so only the
    clock can end the run (native.sa-presolve solved HARD itself within 0.2 s once)."""
    t = time.perf_counter()
    out = registry.create(name, **_endless(name)).solve(
        HARD, Budget(max_seconds=0.2, target=-1.0), 1)
    assert time.perf_counter() - t < 1.0
    assert out.stop_reason == StopReason.CLOCK
    assert 0.0 <= out.schedule_fraction <= 1.0


@pytest.mark.parametrize("name", STOCHASTIC)
def test_a_schedule_that_ends_first_is_finished(name):
    params = _tiny(name)
    if _has(name, "max_restarts"):
        params["max_restarts"] = 1
    out = registry.create(name, **params).solve(
        HARD, Budget(max_seconds=30, max_evaluations=200_000), 1)
    assert out.stop_reason == StopReason.FINISHED
    assert out.schedule_fraction == 1.0
    assert out.evaluations < 200_000
    if _has(name, "max_restarts"):
        assert out.restarts == 1


@pytest.mark.parametrize("max_restarts", [0, 2])
@pytest.mark.parametrize("name", RESTARTED)
def test_max_restarts_counts_extra_runs_in_every_family(name, max_restarts):
    """``max_restarts = k`` is k + 1 runs, whatever the family (the seed's swarm counted runs)."""
    params, per_run = TINY[registry.get(name).cls.Params]
    out = registry.create(name, **params, max_restarts=max_restarts).solve(
        HARD, Budget(max_seconds=30, max_evaluations=200_000), 1)
    assert out.stop_reason == StopReason.FINISHED
    assert out.restarts == max_restarts
    if "runs" in out.counters:
        assert out.counters["runs"] == max_restarts + 1
    if per_run is not None:
        assert out.evaluations == (max_restarts + 1) * per_run


@pytest.mark.parametrize("name", RESTARTED)
def test_unlimited_restarts_run_until_the_budget(name):
    params, _ = TINY[registry.get(name).cls.Params]
    out = registry.create(name, **params, max_restarts=-1).solve(
        HARD, Budget(max_seconds=30, max_evaluations=20_011), 1)
    # (20,011: not a multiple of a run's evaluations, so the budget ends inside a run)
    assert out.stop_reason == StopReason.EVALUATIONS and out.evaluations == 20_011
    assert out.restarts >= 1  # past the first run (a memetic run costs ~12,000 evaluations)
    # with no end to the schedule, the fraction is the share of the run in progress
    assert 0.0 <= out.schedule_fraction < 1.0


@pytest.mark.parametrize("params_cls", list(TINY), ids=lambda c: c.__name__)
def test_every_family_takes_the_same_restart_values(params_cls):
    assert params_cls(max_restarts=-1).max_restarts == -1
    assert params_cls(max_restarts=0).max_restarts == 0
    with pytest.raises(ValueError):
        params_cls(max_restarts=-2)


def test_the_defaults_keep_the_seeds_run_counts():
    """The seeds: SA and GA restart 5 times (6 runs), the swap PSO and the canonical PSO run
    once, the workers/explorers swarm's ``MaxRestarts = 20`` counts runs (19 extra)."""
    assert AnnealingParams().max_restarts == 5
    assert GeneticParams().max_restarts == 5
    assert SwapPsoParams().max_restarts == 0
    assert CanonicalPsoParams().max_restarts == 0
    assert SwarmParams().max_restarts == 19


def test_schedule_fraction_counts_runs_and_the_levels_of_the_last():
    """Annealing, 2 phases of 10 levels x 100 moves: the budget ends phase 2 in its 5th level
    (1001 + 1 + 500 evaluations), after 4 complete levels: (1 + 4/10) / 2."""
    out = registry.create("native.sa", alpha=0.5, max_restarts=1).solve(
        HARD, Budget(max_seconds=30, max_evaluations=1001 + 1 + 500), 1)
    assert out.stop_reason == StopReason.EVALUATIONS and out.restarts == 1
    assert out.schedule_fraction == pytest.approx((1 + 4 / 10) / 2)


# --- exact natives -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def exact_solvers():
    solvers = {name: registry.create(name) for name in EXACT}
    for solver in solvers.values():
        solver.warmup()
    return solvers


@pytest.mark.parametrize("name", EXACT)
def test_exact_solved_is_target(exact_solvers, name):
    out = exact_solvers[name].solve(EASY, Budget(max_seconds=10), 0)
    assert out.claims_solved and is_solution(EASY, out.grid)
    assert out.stop_reason == StopReason.TARGET


@pytest.mark.parametrize("name", EXACT)
def test_exact_proof_of_no_solution_is_exhausted(exact_solvers, name):
    out = exact_solvers[name].solve(NO_SOLUTION, Budget(max_seconds=10), 0)
    assert not out.claims_solved
    assert out.stop_reason == StopReason.EXHAUSTED


@pytest.mark.parametrize("name", EXACT)
def test_exact_deadline_is_clock(exact_solvers, name):
    """A deadline already past when the search starts: it stops at its first clock read."""
    puzzle = _deep()
    out = exact_solvers[name].solve(puzzle, Budget(max_seconds=1e-6), 0)
    assert not out.claims_solved
    assert out.stop_reason == StopReason.CLOCK


@pytest.mark.parametrize("name", [n for n in EXACT if registry.get(n).family == "csp"])
def test_csp_assignment_budget_is_evaluations(exact_solvers, name):
    out = exact_solvers[name].solve(HARD, Budget(max_seconds=10, max_evaluations=100), 0)
    assert not out.claims_solved
    assert out.stop_reason == StopReason.EVALUATIONS and out.evaluations == 100


@pytest.mark.parametrize("name,cap,puzzle", [
    ("native.backtracking", {"max_calls": 50}, EASY),
    ("native.backtracking-mrv", {"max_calls": 10}, _deep()),
    ("native.bitmask", {"max_guesses": 1}, _deep()),
    ("native.dlx", {"max_nodes": 10}, EASY),
])
def test_an_exact_solvers_own_cap_is_finished(name, cap, puzzle):
    out = registry.create(name, **cap).solve(puzzle, Budget(max_seconds=10), 0)
    assert not out.claims_solved
    assert out.stop_reason == StopReason.FINISHED
    assert out.schedule_fraction is None or math.isfinite(out.schedule_fraction)
