"""The encoding-neutral swap scoring (``unit_swap``) against each permutation encoding's own
objective: same deltas as both encodings' swap deltas, counts in step with a recount, on every
box size the swarms run."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_compare.native._plateau import plateau_walk
from sudoku_compare.problems.encodings import box_permutation as bp
from sudoku_compare.problems.encodings import row_permutation as rp
from sudoku_compare.problems.encodings import unit_swap
from sudoku_compare.problems.puzzle import Puzzle


def random_puzzle(box: int, seed: int, density: float) -> Puzzle:
    """Givens taken from a digit-shuffled pattern solution (consistent, not necessarily unique)."""
    rng = np.random.default_rng(seed)
    n = box * box
    r, c = np.indices((n, n))
    solution = (rng.permutation(n) + 1)[(box * (r % box) + r // box + c) % n]
    return Puzzle.from_grid(np.where(rng.random((n, n)) < density, solution, 0))


# (initial state, cells table, checked units, full objective, O(N) delta of cells x, y)
ENCODINGS = {
    "row": (rp.initial_state, lambda pz: rp.RowLayout.for_puzzle(pz).cells, rp.checked_units,
            rp.energy, lambda g, x, y, n, box: rp.swap_delta(g, x // n, x % n, y % n, box)),
    "box": (bp.initial_state, lambda pz: bp.layout_of(pz).cells, bp.checked_units, bp.error,
            lambda g, x, y, n, box: bp.swap_delta(g, x // n, x % n, y // n, y % n, box)),
}


@settings(max_examples=40, deadline=None)
@given(box=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**31 - 1),
       density=st.floats(0.0, 0.6), encoding=st.sampled_from(sorted(ENCODINGS)))
def test_unit_swap_delta_is_the_encodings_delta(box, seed, density, encoding):
    start, cells_of, units_of, objective, delta = ENCODINGS[encoding]
    n = box * box
    puzzle = random_puzzle(box, seed, density)
    rng = np.random.default_rng(seed)
    grid = start(puzzle, rng)
    cells = cells_of(puzzle)
    n_free = (cells >= 0).sum(axis=1).astype(np.int64)
    movable = np.flatnonzero(n_free >= 2)
    units = units_of(box)
    flat = grid.reshape(-1)
    counts = unit_swap.unit_counts(flat, units, n)
    e = int(objective(grid, box))
    for _ in range(200 if movable.size else 0):
        u = int(rng.choice(movable))
        i, j = rng.choice(int(n_free[u]), size=2, replace=False)
        x, y = int(cells[u, i]), int(cells[u, j])
        d = unit_swap.swap_delta(counts, units, flat, x, y)
        assert d == delta(grid, x, y, n, box)
        unit_swap.apply_swap(counts, units, flat, x, y)
        e += d
    assert e == objective(grid, box)
    assert np.array_equal(counts, unit_swap.unit_counts(flat, units, n))


def test_plateau_walk_keeps_either_encoding_and_reports_the_grid_energy():
    """The walk never worsens its start, keeps the encoding's invariant, leaves the grid whose
    energy it returns and counts every proposal within the budget, on rows and on boxes."""
    puzzle = random_puzzle(3, 11, 0.35)
    for seed in range(3):
        for encoding, is_valid in (("row", rp.is_row_permutation), ("box", bp.is_box_permutation)):
            start, cells_of, units_of, objective, _ = ENCODINGS[encoding]
            grid = start(puzzle, np.random.default_rng(seed))
            cells = cells_of(puzzle)
            n_free = (cells >= 0).sum(axis=1).astype(np.int64)
            e0 = int(objective(grid, 3))
            e, evals = plateau_walk(grid, e0, cells, n_free, units_of(3), 5_000, 500, 4_000, 0,
                                    np.inf)
            assert 0 < evals <= 4_000 and e <= e0
            assert e == objective(grid, 3) and is_valid(grid, puzzle)


def test_plateau_walk_stops_at_the_deadline():
    puzzle = random_puzzle(3, 5, 0.3)
    grid = rp.initial_state(puzzle, np.random.default_rng(0))
    layout = rp.RowLayout.for_puzzle(puzzle)
    e0 = int(rp.energy(grid, 3))
    _, evals = plateau_walk(grid, e0, layout.cells, layout.n_free, rp.checked_units(3),
                            1_000_000, 500, 10**9, 0, -1.0)  # a deadline already past
    assert evals == 0
