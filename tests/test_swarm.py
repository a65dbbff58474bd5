"""The three native swarms: seeded determinism, budgets, checked grids, success on easy51:0."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_compare.bench.api import solve
from sudoku_compare.budget import Budget
from sudoku_compare.native.pso_swap import minus_into, move, times_into
from sudoku_compare.outcome import Status
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.encodings import integer_cells as ic
from sudoku_compare.problems.encodings import row_permutation as rp
from sudoku_compare.problems.puzzle import Puzzle

from .conftest import needs_public

EASY51_0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
HARDEST_0 = "850002400720000009004000000000107002305000900040000000000080070017000000000036040"
SWARMS = ["native.pso-swarm", "native.pso-swarm-hybrid", "native.pso-swap",
          "native.pso-swap-memetic", "native.pso-canonical"]


@pytest.mark.parametrize("name", SWARMS)
def test_same_seed_same_outcome(name):
    budget = Budget(max_seconds=20, max_evaluations=20_000)
    a, _ = solve(name, EASY51_0, budget, seed=5)
    b, _ = solve(name, EASY51_0, budget, seed=5)
    assert np.array_equal(a.grid, b.grid)
    assert (a.evaluations, a.iterations, a.restarts, a.counters, a.best_energy) == (
        b.evaluations, b.iterations, b.restarts, b.counters, b.best_energy)
    assert [t[0] for t in a.trace] == [t[0] for t in b.trace]


@pytest.mark.parametrize("name", SWARMS)
@pytest.mark.parametrize("limit", [1, 150, 3_001])
def test_evaluation_budget_is_respected(name, limit):
    outcome, puzzle = solve(name, EASY51_0, Budget(max_seconds=20, max_evaluations=limit), seed=1)
    assert 0 < outcome.evaluations <= limit
    assert outcome.status in (Status.SOLVED, Status.UNSOLVED)  # verified by the bench
    assert outcome.grid.shape == (9, 9)
    assert outcome.claims_solved == (outcome.best_energy == 0)
    if outcome.claims_solved:
        assert is_solution(puzzle, outcome.grid)
    energies = [t[2] for t in outcome.trace]
    assert energies == sorted(energies, reverse=True)


@pytest.mark.parametrize("name", SWARMS)
def test_time_budget_is_respected(name):
    hard = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
    outcome, _ = solve(name, hard, Budget(max_seconds=0.5), seed=0,
                       params={"max_restarts": 20} if "canonical" not in name else None)
    assert outcome.elapsed_s < 1.5
    assert outcome.status in (Status.SOLVED, Status.UNSOLVED)


@pytest.mark.parametrize("name", ["native.pso-swarm", "native.pso-swap-memetic"])
def test_best_energy_is_the_grid_energy(name):
    outcome, puzzle = solve(name, EASY51_0, Budget(max_seconds=5, max_evaluations=2_000), seed=3)
    if "swap" in name:
        assert outcome.best_energy == rp.energy(outcome.grid.astype(np.int64), 3)
    assert outcome.best_energy == 0 or not is_solution(puzzle, outcome.grid)


def test_canonical_energy_is_the_conflicts_of_its_grid():
    outcome, _ = solve("native.pso-canonical", EASY51_0, Budget(max_seconds=5), seed=0,
                       params={"swarm_size": 50, "max_iterations": 40})
    assert outcome.best_energy == ic.conflicts(outcome.grid, 3)
    assert outcome.evaluations == 50 * 41


def test_swap_algebra():
    """Minus gives the swaps that Move turns x into p with; Times truncates or replicates."""
    puzzle = Puzzle.from_string(EASY51_0)
    layout = rp.RowLayout.for_puzzle(puzzle)
    rng = np.random.default_rng(0)
    x, p = rp.initial_state(puzzle, rng), rp.initial_state(puzzle, rng)
    diff = np.zeros((500, 3), dtype=np.int64)
    m = minus_into(diff, p, x, layout.free_cols, layout.n_free)
    assert m == int(np.sum(x != p))
    y = x.copy()
    move(y, diff, m, layout.free_cols, layout.n_free)
    assert rp.is_row_permutation(y, puzzle)
    assert int(np.sum(y != p)) < int(np.sum(x != p)) or m == 0
    out = np.zeros((500, 3), dtype=np.int64)
    assert times_into(out, 0, diff, 10, 0.55) == 5
    assert times_into(out, 0, diff, 10, 2.5) == 25
    assert np.array_equal(out[10:20], diff[:10])
    assert times_into(out, 0, diff, 10, 0.0) == 0


# Statistical success. Measured (08:01 UTC, 2 loaded cores): pso-swarm solved easy51:0 for all of
# seeds 0-9, each in <= 0.5 s (<= 20,099 evaluations); pso-swap-memetic for all of seeds 0-9, each
# in <= 1.3 s (<= 46,060 evaluations). The threshold (at least 7 of 8 seeds, 10 s cap each) leaves
# margin for a slower machine.
@needs_public
@pytest.mark.parametrize("name", ["native.pso-swarm", "native.pso-swap-memetic"])
def test_solves_easy51_0_for_most_seeds(name):
    solved = _seeds_solved(name, "easy51:0", 8)
    assert solved >= 7, f"{name} solved easy51:0 for {solved}/8 seeds"


def _seeds_solved(name: str, ref: str, seeds: int, seconds: float = 10.0) -> int:
    """How many of seeds 0..seeds-1 solve ``ref`` within ``seconds`` (each grid checked)."""
    solved = 0
    for seed in range(seeds):
        outcome, puzzle = solve(name, ref, Budget(max_seconds=seconds), seed=seed)
        if outcome.status is Status.SOLVED:
            assert is_solution(puzzle, outcome.grid)
            solved += 1
    return solved


def test_iterated_climb_keeps_rows_and_reports_the_grid_energy():
    """The memetic iterated local search never worsens its start, keeps every row a permutation,
    returns the energy of the grid it leaves, and counts every trial within the budget."""
    from sudoku_compare.native.pso_swap import iterated_climb

    puzzle = Puzzle.from_string(EASY51_0)
    layout = rp.RowLayout.for_puzzle(puzzle)
    for seed in range(3):
        grid = rp.initial_state(puzzle, np.random.default_rng(seed))
        start = int(rp.energy(grid, 3))
        e, evals = iterated_climb(grid, start, layout.free_cols, layout.n_free, 3, 20, 3,
                                  5_000, 0)
        assert 0 < evals <= 5_000
        assert e <= start
        assert e == rp.energy(grid, 3)
        assert rp.is_row_permutation(grid, puzzle)


# Measured 12:10-12:40 UTC (loaded cores): the seed's first-improvement climb solved none of
# easy51:1-4 in 10 s; the default iterated local search (kicks=200) solved 254/255 runs of
# easy51 x 5 seeds within 30 s, median 0.66 s (the plateau walk, plateau_steps=20000, 251/255).
# Threshold: 4 of 5 seeds on easy51:1 within 10 s each.
@needs_public
def test_memetic_solves_easy51_1_for_most_seeds():
    solved = _seeds_solved("native.pso-swap-memetic", "easy51:1", 5)
    assert solved >= 4, f"native.pso-swap-memetic solved easy51:1 for {solved}/5 seeds"


# Measured 12:20 UTC (loaded cores): native.pso-swarm (the seed's rule) ended easy51:3 at error 2
# after its 20 runs (seed 0, 28 s); native.pso-swarm-hybrid (plateau-walk local search) solved it
# for each of 5 campaign seeds in <= 1.4 s. Threshold: 4 of 5 seeds within 10 s each.
@needs_public
def test_hybrid_swarm_solves_easy51_3_for_most_seeds():
    solved = _seeds_solved("native.pso-swarm-hybrid", "easy51:3", 5)
    assert solved >= 4, f"native.pso-swarm-hybrid solved easy51:3 for {solved}/5 seeds"


def test_a_kick_of_the_iterated_climb_stops_at_the_budget():
    """A kick is ``kick_size`` evaluations; with fewer left it used to spend them all anyway."""
    from sudoku_compare.native.pso_swap import iterated_climb

    puzzle = Puzzle.from_string(EASY51_0)
    rows = rp.RowLayout.for_puzzle(puzzle)
    start = rp.initial_state(puzzle, np.random.default_rng(0))
    e0 = int(rp.energy(start, 3))
    _, descent = iterated_climb(start.copy(), e0, rows.free_cols, rows.n_free, 3, 0, 50,
                                10**9, 0)
    limit = descent + 10
    _, evals = iterated_climb(start.copy(), e0, rows.free_cols, rows.n_free, 3, 1, 50, limit, 0)
    assert evals == limit


@pytest.mark.parametrize("limit", [3_994, 4_991, 21_940])
def test_a_worker_reset_is_not_evaluated_past_the_budget(limit):
    """With max_age 3 workers are reset often; a reset right after the budget's last proposal
    used to cost one evaluation more (3,995 of 3,994 for these limits and seed 1)."""
    outcome, _ = solve("native.pso-swarm", HARDEST_0,
                       Budget(max_seconds=60, max_evaluations=limit), seed=1,
                       params={"max_age": 3})
    assert outcome.evaluations == limit
    assert outcome.stop_reason == "evaluations"

