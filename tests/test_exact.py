"""Every native exact solver (and the MRV backtracking) gives checker-verified answers.

All of easy51, hardest and top95 for every solver (norvig, pure Python, takes about 2 s
over the three sets), all of top1465 for the bitmask batch kernel, box sizes 2, 4 and 5,
solution counting on a puzzle with several solutions, and the budget stops.
"""

import time

import numpy as np
import pytest

from sudoku_compare import registry
from sudoku_compare.budget import Budget
from sudoku_compare.native import backtracking_mrv, bitmask, dlx
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.sets import load_set

from .conftest import needs_public

EXACT = ["native.bitmask", "native.dlx", "native.norvig", "native.backtracking-mrv"]
EASY = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"


def _pattern_grid(box: int) -> list[int]:
    """A valid full grid of any box size (the classic shifted-rows pattern)."""
    side = box * box
    return [(box * (r % box) + r // box + c) % side + 1 for r in range(side) for c in range(side)]


def _holes(box: int, fraction: float, seed: int) -> Puzzle:
    rng = np.random.default_rng(seed)
    cells = _pattern_grid(box)
    for i in rng.choice(len(cells), int(fraction * len(cells)), replace=False):
        cells[i] = 0
    return Puzzle(box, tuple(cells))


@pytest.fixture(scope="module")
def solvers():
    out = {}
    for name in EXACT:
        s = registry.create(name)
        s.warmup()
        out[name] = s
    return out


def test_families_and_boxes():
    reg = registry.load()
    assert reg["native.bitmask"].family == "exact"
    assert reg["native.dlx"].family == "exact"
    assert reg["native.norvig"].family == "exact"
    assert reg["native.backtracking-mrv"].family == "backtracking"
    for name in EXACT:
        assert set(reg[name].cls.boxes) <= {2, 3, 4, 5}


@needs_public
@pytest.mark.parametrize("set_name", ["easy51", "hardest", "top95"])
@pytest.mark.parametrize("name", EXACT)
def test_public_sets_verified(solvers, name, set_name):
    solver = solvers[name]
    for i, puzzle in enumerate(load_set(set_name)):
        outcome = solver.solve(puzzle, Budget(30), 0)
        assert outcome.claims_solved, f"{name} {set_name}:{i}"
        assert is_solution(puzzle, outcome.grid), f"{name} {set_name}:{i}"


@needs_public
def test_bitmask_batch_solves_top1465():
    puzzles = load_set("top1465")
    grids, guesses, statuses = bitmask.solve_batch(puzzles)
    assert (statuses == 1).all()
    for p, g in zip(puzzles, grids, strict=True):
        assert is_solution(p, g.reshape(9, 9))
    assert guesses.shape == (len(puzzles),) and guesses.sum() > 0


def test_bitmask_batch_matches_single_solves():
    puzzles = [_holes(3, 0.6, s) for s in range(5)] + [Puzzle.from_string(EASY)]
    grids, guesses, statuses = bitmask.solve_batch(puzzles)
    for p, g, k in zip(puzzles, grids, guesses, strict=True):
        one, status, one_guesses = bitmask.solve_grid(p)
        assert status == 1 and np.array_equal(one, g) and one_guesses == k


def test_bitmask_counters(solvers):
    outcome = solvers["native.bitmask"].solve(Puzzle.from_string(EASY), Budget(5), 0)
    assert outcome.counters == {"guesses": 0, "no_guess": 1}


@needs_public
def test_bitmask_guesses_on_a_hard_puzzle(solvers):
    puzzles = load_set("top95")
    _, guesses, _ = bitmask.solve_batch(puzzles)
    puzzle = puzzles[int(np.argmax(guesses))]
    outcome = solvers["native.bitmask"].solve(puzzle, Budget(5), 0)
    assert outcome.counters["guesses"] > 0 and outcome.counters["no_guess"] == 0


@pytest.mark.parametrize("box,fraction", [(2, 0.6), (4, 0.55), (5, 0.45)])
@pytest.mark.parametrize("name", EXACT)
def test_other_box_sizes(solvers, name, box, fraction):
    if box not in registry.load()[name].cls.boxes:
        pytest.skip(f"{name} does not declare box {box}")
    puzzle = _holes(box, fraction, seed=box)
    outcome = solvers[name].solve(puzzle, Budget(20), 0)
    assert outcome.claims_solved and is_solution(puzzle, outcome.grid)


def test_count_solutions_on_a_multi_solution_puzzle():
    unique = Puzzle.from_string(EASY)
    assert backtracking_mrv.count_solutions(unique, limit=5) == 1
    # only the first row given: far more than 10 solutions, so the limit is the count
    first_row = Puzzle(3, tuple(range(1, 10)) + (0,) * 72)
    assert backtracking_mrv.count_solutions(first_row, limit=10) == 10
    # an empty 4x4 grid has 288 solutions; the limit caps the count
    assert backtracking_mrv.count_solutions(Puzzle(2, (0,) * 16), limit=1000) == 288
    assert backtracking_mrv.count_solutions(Puzzle(2, (0,) * 16), limit=7) == 7


def test_count_solutions_as_a_parameter():
    solver = registry.create("native.backtracking-mrv", count_solutions=1000)
    outcome = solver.solve(Puzzle(2, (0,) * 16), Budget(10), 0)
    assert outcome.counters["solutions"] == 288
    assert outcome.claims_solved and is_solution(Puzzle(2, (0,) * 16), outcome.grid)


@pytest.mark.parametrize("name", EXACT)
def test_no_solution_is_an_honest_failure(solvers, name):
    bad = Puzzle.from_string("12345678." + "........9" + "." * 63)
    outcome = solvers[name].solve(bad, Budget(10), 0)
    assert not outcome.claims_solved


@pytest.mark.parametrize("name", EXACT)
def test_max_seconds_is_honoured(solvers, name):
    # an almost empty 25x25 grid with a contradiction deep down keeps every solver busy
    cells = [0] * 625
    cells[0], cells[1] = 1, 2
    cells[25 * 24 + 24] = 1
    cells[25 * 23 + 24] = 2
    puzzle = Puzzle(5, tuple(cells))
    start = time.perf_counter()
    solvers[name].solve(puzzle, Budget(0.5), 0)
    assert time.perf_counter() - start < 3.0


def test_dlx_warmup_for_builds_the_matrix_of_the_size():
    """The first timed solve of a size builds nothing (9x9: 2.5 ms of matrix before, in the
    first timed solve; later solves took 0.03 ms)."""
    solver = registry.create("native.dlx")
    solver.warmup()
    dlx.exact_cover.cache_clear()
    puzzle = _holes(4, 0.3, 0)
    solver.warmup_for(puzzle)
    built = dlx.exact_cover.cache_info().misses
    assert built == 1
    out = solver.solve(puzzle, Budget(10), 0)
    assert out.claims_solved and is_solution(puzzle, out.grid)
    assert dlx.exact_cover.cache_info().misses == built
