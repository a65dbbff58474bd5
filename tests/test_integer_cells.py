"""The integer-cells encoding: decoding by rounding and clamping, the conflicts objective."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_compare.problems.encodings import integer_cells as ic
from sudoku_compare.problems.encodings.counter import EvaluationCounter
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.topology import topology

EASY51_0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
EASY51_SOLUTION = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"


def reference_conflicts(grid: np.ndarray, box: int) -> int:
    """The seed's CountConflicts: cells whose digit already appeared in the unit (HashSet.Add)."""
    flat = grid.ravel()
    total = 0
    for unit in topology(box).units:
        seen: set[int] = set()
        for cell in unit:
            v = int(flat[cell])
            total += v in seen
            seen.add(v)
    return total


def test_solution_vector_has_no_conflict():
    puzzle = Puzzle.from_string(EASY51_0)
    solution = Puzzle.from_string(EASY51_SOLUTION).flat()
    vector = solution[ic.free_cells(puzzle)].astype(float) + 0.3  # rounds back down
    assert np.array_equal(ic.decode(vector, puzzle).ravel(), solution)
    assert ic.objective(vector, puzzle) == 0


def test_decode_rounds_and_clamps():
    puzzle = Puzzle.from_string(EASY51_0)
    vector = np.full(puzzle.n_empty, 3.6)
    vector[0], vector[1], vector[2] = -5.0, 42.0, 2.5  # 2.5 rounds half to even, as Math.Round
    grid = ic.decode(vector, puzzle).ravel()
    free = ic.free_cells(puzzle)
    assert grid[free[0]] == 1 and grid[free[1]] == 9 and grid[free[2]] == 2
    assert np.all(grid[free[3:]] == 4)
    assert np.array_equal(grid[puzzle.flat() != 0], puzzle.flat()[puzzle.flat() != 0])


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6))
def test_objective_matches_reference_conflicts(box, seed):
    rng = np.random.default_rng(seed)
    n = box * box
    givens = np.where(rng.random(n * n) < 0.3, rng.integers(1, n + 1, n * n), 0)
    puzzle = Puzzle(box, tuple(int(v) for v in givens))
    vectors = np.stack([ic.initial_state(puzzle, rng) for _ in range(5)])
    assert np.all((vectors >= 1) & (vectors < n + 1))
    costs = ic.objective_batch(vectors, puzzle.flat().astype(np.int64), ic.free_cells(puzzle), box)
    for v, c in zip(vectors, costs, strict=True):
        grid = ic.decode(v, puzzle)
        assert c == ic.conflicts(grid, box) == reference_conflicts(grid, box)


def test_objective_counts_through_the_shared_counter():
    puzzle = Puzzle.from_string(EASY51_0)
    counter = EvaluationCounter()
    counted = counter.wrap(ic.objective)
    rng = np.random.default_rng(0)
    for _ in range(7):
        counted(ic.initial_state(puzzle, rng), puzzle)
    assert counter.count == 7
