"""native.backtracking reproduces the seed's 15 printed search-call counts."""

import pytest

from sudoku_compare.bench.api import solve
from sudoku_compare.budget import Budget
from sudoku_compare.outcome import Status
from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.puzzle import Puzzle

from .conftest import needs_public

#: the seed's figures (../shared/puzzles/README.md): first five puzzles of each set
SEED_COUNTS = {
    "easy51": [122, 311, 477, 25565, 2544],
    "hardest": [490304, 15387, 337036, 114216, 250684],
    "top95": [12625368, 4405485, 126417, 503219, 124635056],
}
CASES = [(f"{s}:{i}", n) for s, counts in SEED_COUNTS.items() for i, n in enumerate(counts)]
EASY = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"


@needs_public
@pytest.mark.parametrize("ref,calls", CASES, ids=[c[0] for c in CASES])
def test_seed_search_calls(ref, calls):
    outcome, _ = solve("native.backtracking", ref, Budget(120))
    assert outcome.status is Status.SOLVED
    assert outcome.counters["search_calls"] == calls


def test_literal_puzzle_counts_like_the_seed():
    outcome, puzzle = solve("native.backtracking", EASY)
    assert outcome.status is Status.SOLVED
    assert is_solution(puzzle, outcome.grid)
    assert outcome.counters["search_calls"] == 122


def test_full_grid_costs_one_call_per_position():
    outcome, puzzle = solve("native.backtracking", EASY)
    full = Puzzle.from_grid(outcome.grid)
    again, _ = solve("native.backtracking", full)
    # 81 cells + 9 row ends + the final call past the last row
    assert again.counters["search_calls"] == 81 + 9 + 1


def test_call_limit_stops_honestly():
    outcome, _ = solve("native.backtracking", EASY, params={"max_calls": 50})
    assert outcome.status is Status.UNSOLVED
    assert not outcome.claims_solved
    assert outcome.counters["search_calls"] == 51
    assert outcome.stop_reason == "finished"  # its own call cap, not a budget


def test_no_solution_is_reported_unsolved():
    # row 0 needs a 9 in its last cell, but column 8 already holds one below
    bad = "12345678." + "........9" + "." * 63
    outcome, _ = solve("native.backtracking", bad, Budget(5))
    assert not outcome.claims_solved
    assert outcome.status is not Status.SOLVED
    assert outcome.stop_reason == "exhausted"


def test_box_sizes_2_and_4():
    four = "1..." "..2." ".3.." "...4"
    outcome, puzzle = solve("native.backtracking", four)
    assert outcome.status is Status.SOLVED and puzzle.side == 4
    outcome, puzzle = solve("native.backtracking", Puzzle(4, (0,) * 256), Budget(20))
    assert outcome.status is Status.SOLVED and puzzle.side == 16


@needs_public
def test_deadline_is_honoured():
    import time

    start = time.perf_counter()
    outcome, _ = solve("native.backtracking", "top95:4", Budget(0.3))
    assert time.perf_counter() - start < 2.0
    assert outcome.status is not Status.SOLVED
    assert outcome.counters["search_calls"] < 124635056
