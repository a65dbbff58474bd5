"""The box-permutation encoding: invariants, error definition, in-box swap delta, box-wise merge."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_compare.problems.encodings import box_permutation as bp
from sudoku_compare.problems.puzzle import Puzzle

EASY51_0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
EASY51_SOLUTION = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"


def random_puzzle(box: int, seed: int, density: float) -> Puzzle:
    """Givens taken from a digit-shuffled pattern solution (consistent, not necessarily unique)."""
    rng = np.random.default_rng(seed)
    n = box * box
    r, c = np.indices((n, n))
    pattern = (box * (r % box) + r // box + c) % n
    solution = (rng.permutation(n) + 1)[pattern]
    keep = rng.random((n, n)) < density
    return Puzzle.from_grid(np.where(keep, solution, 0))


def reference_error(grid: np.ndarray) -> int:
    """The seed's CountErrors(rows) + CountErrors(columns), written independently."""
    n = grid.shape[0]
    return sum(n - len(set(grid[i].tolist())) + n - len(set(grid[:, i].tolist()))
               for i in range(n))


puzzles = st.builds(random_puzzle, st.integers(2, 4), st.integers(0, 10**6), st.floats(0.0, 0.7))


@settings(max_examples=60, deadline=None)
@given(puzzles, st.integers(0, 10**6))
def test_initial_state_is_a_box_permutation_with_the_reference_error(puzzle, seed):
    state = bp.initial_state(puzzle, np.random.default_rng(seed))
    assert bp.is_box_permutation(state, puzzle)
    assert bp.error(state, puzzle.box) == reference_error(state)


def test_initial_state_is_seeded():
    puzzle = Puzzle.from_string(EASY51_0)
    a = bp.initial_state(puzzle, np.random.default_rng(7))
    b = bp.initial_state(puzzle, np.random.default_rng(7))
    c = bp.initial_state(puzzle, np.random.default_rng(8))
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_error_is_zero_exactly_on_the_solution():
    solution = Puzzle.from_string(EASY51_SOLUTION).grid().astype(np.int64)
    assert bp.error(solution, 3) == 0
    broken = solution.copy()
    broken[0, 0], broken[0, 1] = broken[0, 1], broken[0, 0]  # same box, same row: columns break
    assert bp.error(broken, 3) == 2 == reference_error(broken)


def test_swap_delta_equals_recomputation_over_100k_swaps():
    """The delta property on every size 2..5: >= 10^5 random in-box swaps in all."""
    rng = np.random.default_rng(2026)
    checked = 0
    for box, steps in ((2, 30_000), (3, 40_000), (4, 30_000), (5, 5_000)):
        for k in range(5):
            puzzle = random_puzzle(box, 100 * box + k, 0.3)
            layout = bp.layout_of(puzzle)
            state = bp.initial_state(puzzle, rng)
            e = bp.error(state, box)
            for _ in range(steps // 5):
                r1, c1, r2, c2 = bp.random_box_swap(rng, layout)
                d = bp.swap_delta(state, r1, c1, r2, c2, box)
                bp.apply_swap(state, r1, c1, r2, c2)
                e2 = bp.error(state, box)
                assert d == e2 - e, (box, r1, c1, r2, c2)
                e = e2
                checked += 1
            assert bp.is_box_permutation(state, puzzle)
    assert checked >= 100_000


@settings(max_examples=40, deadline=None)
@given(puzzles, st.integers(0, 10**6))
def test_merge_takes_each_box_from_one_parent(puzzle, seed):
    rng = np.random.default_rng(seed)
    a = bp.initial_state(puzzle, rng)
    b = bp.initial_state(puzzle, rng)
    child = bp.merge(a, b, rng, puzzle.box)
    assert bp.is_box_permutation(child, puzzle)
    k = puzzle.box
    for box_index in range(puzzle.side):
        r0, c0 = (box_index // k) * k, (box_index % k) * k
        block = child[r0:r0 + k, c0:c0 + k]
        assert (np.array_equal(block, a[r0:r0 + k, c0:c0 + k])
                or np.array_equal(block, b[r0:r0 + k, c0:c0 + k]))


def test_merge_mixes_parents():
    puzzle = Puzzle.from_string(EASY51_0)
    rng = np.random.default_rng(3)
    a, b = bp.initial_state(puzzle, rng), bp.initial_state(puzzle, rng)
    take = np.array([True, False] * 4 + [True])
    child = bp.merge_boxes(a, b, take, 3)
    assert np.array_equal(child[0:3, 0:3], b[0:3, 0:3])
    assert np.array_equal(child[0:3, 3:6], a[0:3, 3:6])
    assert np.array_equal(a, bp.merge_boxes(a, b, np.zeros(9, dtype=np.bool_), 3))


def test_counted_delta_equals_swap_delta_and_tables_stay_in_step():
    """The O(1) counted delta (used by the hybrid swarm's plateau walk) equals the O(N) one on
    every size 2..5, and ``apply_swap_counted`` keeps the row/column tables equal to a recount."""
    rng = np.random.default_rng(7)
    for box in (2, 3, 4, 5):
        puzzle = random_puzzle(box, 40 + box, 0.3)
        layout = bp.layout_of(puzzle)
        state = bp.initial_state(puzzle, rng)
        rows, cols = bp.line_counts(state, box)
        e = bp.error(state, box)
        for _ in range(3_000):
            r1, c1, r2, c2 = bp.random_box_swap(rng, layout)
            d = bp.swap_delta_counted(rows, cols, state, r1, c1, r2, c2)
            assert d == bp.swap_delta(state, r1, c1, r2, c2, box)
            bp.apply_swap_counted(rows, cols, state, r1, c1, r2, c2)
            e += d
        assert e == bp.error(state, box)
        fresh_rows, fresh_cols = bp.line_counts(state, box)
        assert np.array_equal(rows, fresh_rows) and np.array_equal(cols, fresh_cols)
        assert bp.is_box_permutation(state, puzzle)
