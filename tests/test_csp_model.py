"""The shared binary CSP model: the seed's SudokuCSPBuilder and the generic CSP structure."""

import numpy as np
import pytest

from sudoku_compare.problems.encodings.csp_model import (
    SudokuCSPBuilder,
    make_csp,
    seed_neighbour_order,
    sudoku_csp,
)
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.topology import topology

EASY = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
SOLVED = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"


def test_variables_domains_and_neighbours_follow_the_seed():
    pz = Puzzle.from_string(EASY)
    csp = sudoku_csp(pz)
    assert csp.n_vars == 81 and csp.n_values == 9
    assert csp.names[0] == (0, 0) and csp.names[80] == (8, 8)
    flat = pz.flat()
    for v in range(81):
        if flat[v]:
            assert csp.domain_of(v) == [int(flat[v]) - 1]  # a given is a singleton
        else:
            assert csp.domain_of(v) == list(range(9))  # not pruned by the givens (seed)
        assert sorted(csp.neighbours_of(v)) == sorted(topology(3).peers[v])
    assert csp.units.shape == (27, 9)
    assert len(csp.edges()) == 81 * 20 // 2
    assert list(csp.labels) == list(range(1, 10))


def test_pruned_domains_are_the_candidates():
    pz = Puzzle.from_string(EASY)
    csp = sudoku_csp(pz, prune_givens=True)
    for v in range(81):
        if not pz.flat()[v]:
            assert [k + 1 for k in csp.domain_of(v)] == sorted(pz.candidates(v))


def test_seed_neighbour_order_is_the_python_set_order():
    order = seed_neighbour_order(3)
    # cell (0, 0): list(set) of the row, column and box tuples, as the seed built it
    s = set()
    for k in range(1, 9):
        s.add((0, k))
    for k in range(1, 9):
        s.add((k, 0))
    for r in range(3):
        for c in range(3):
            if r or c:
                s.add((r, c))
    assert order[0] == tuple(r * 9 + c for r, c in list(s))
    sorted_csp = sudoku_csp(Puzzle.from_string(EASY), neighbour_order="sorted")
    assert list(sorted_csp.neighbours_of(0)) == sorted(order[0])


def test_apply_solution_and_is_solution():
    pz = Puzzle.from_string(EASY)
    csp = sudoku_csp(pz)
    assignment = [int(ch) - 1 for ch in SOLVED]
    assert csp.is_solution(assignment)
    grid = SudokuCSPBuilder.apply_solution(pz, assignment)
    assert "".join(str(x) for x in grid.ravel()) == SOLVED
    bad = list(assignment)
    bad[1], bad[2] = bad[2], bad[1]
    assert not csp.is_solution(bad)
    partial = SudokuCSPBuilder.apply_solution(pz, [-1] * 81)
    assert np.array_equal(partial.ravel(), pz.flat())


def test_other_box_sizes():
    pz = Puzzle.from_string("1000" "0010" "0000" "0002")
    csp = sudoku_csp(pz)
    assert csp.n_vars == 16 and csp.n_values == 4
    assert all(len(csp.neighbours_of(v)) == 7 for v in range(16))


def test_make_csp_refuses_asymmetric_neighbours():
    with pytest.raises(ValueError):
        make_csp([0, 1], [[0, 1], [0, 1]], [[1], []])
    csp = make_csp([0, 1], [[0, 1], [0, 1]], [[1], [0]])
    assert csp.arcs() == [(0, 1), (1, 0)] and csp.n_domain_values() == 4
