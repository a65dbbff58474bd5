"""The random-keys decoder: every key vector decodes to rows that are permutations."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from sudoku_compare.problems.checker import nb_errors
from sudoku_compare.problems.encodings.random_keys import RandomKeys
from sudoku_compare.problems.puzzle import Puzzle

EASY = Puzzle.from_string(
    "902005403100063025508407060026309001057010290090670530240530600705200304080041950")
SOLUTION = Puzzle.from_string(
    "962185473174963825538427169826359741357814296491672538249538617715296384683741952")
RK = RandomKeys.for_puzzle(EASY)
keys = arrays(np.float64, RK.dimensions,
              elements=st.floats(0.0, 1.0, exclude_max=True, allow_nan=False))


def test_one_key_per_empty_cell():
    assert RK.dimensions == EASY.n_empty == 36


@settings(max_examples=200, deadline=None)
@given(keys)
def test_decoded_rows_are_permutations_keeping_givens(k):
    g = RK.decode(k).reshape(9, 9)
    for r in range(9):
        assert sorted(g[r]) == list(range(1, 10))
    given_mask = EASY.given_mask().ravel()
    assert (g.ravel()[given_mask] == EASY.flat()[given_mask]).all()


@settings(max_examples=200, deadline=None)
@given(keys)
def test_energy_is_the_seeds_nb_errors(k):
    assert RK.energy(k) == nb_errors(RK.decode(k))


@settings(max_examples=100, deadline=None)
@given(keys, st.sampled_from([2.0, 8.0, 1024.0]))
def test_decoding_depends_only_on_ranks(k, scale):
    """Scaling the keys (exactly, by a power of two) keeps their ranks, so the grid."""
    assert (RK.decode(k) == RK.decode(k * scale)).all()


def test_smallest_key_gets_smallest_missing_digit():
    row0 = EASY.flat()[:9]  # 9 0 2 0 0 5 4 0 3: missing 1 6 7 8
    lo, hi = RK.row_start[0], RK.row_start[1]
    k = np.zeros(RK.dimensions)
    k[lo:hi] = [0.9, 0.1, 0.5, 0.3]  # cells 1, 3, 4, 7
    g = RK.decode(k)
    assert list(g[:9]) == [9, 8, 2, 1, 7, 5, 4, 6, 3]
    assert sorted(set(range(1, 10)) - set(row0.tolist())) == [1, 6, 7, 8]


def test_encode_round_trips_the_solution():
    k = RK.encode(SOLUTION.flat())
    assert (RK.decode(k) == SOLUTION.flat()).all()
    assert RK.energy(k) == 0


def test_wrong_length_is_refused():
    import pytest

    with pytest.raises(ValueError):
        RK.decode(np.zeros(3))


@settings(max_examples=100, deadline=None)
@given(keys)
def test_compiled_objective_is_the_decoded_grids_energy(k):
    # the one kernel both mealpy.pso (through RK.energy) and native.pso-random-keys call
    from sudoku_compare.problems.encodings.random_keys import keys_energy
    from sudoku_compare.problems.encodings.row_permutation import energy

    direct = keys_energy(k, EASY.flat(), RK.empty, RK.row_start, RK.missing, EASY.box)
    assert direct == RK.energy(k) == energy(RK.decode(k).reshape(9, 9), 3)


def test_random_swarm_is_the_same_draws_as_one_key_vector_at_a_time():
    swarm = RK.random_swarm(np.random.default_rng(11), 5)
    rng = np.random.default_rng(11)
    assert swarm.shape == (5, RK.dimensions)
    assert np.array_equal(swarm, np.array([RK.random_keys(rng) for _ in range(5)]))
