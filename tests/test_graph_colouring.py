"""Graph colouring on the shared CSP model and the same search functions as Sudoku."""

import random

import pytest

from sudoku_compare.bench.perf import graph_colouring as perf
from sudoku_compare.native.csp import backtracking_search, conflict_directed_backjumping
from sudoku_compare.native.csp_search import forward_checking, lcv, mac, mrv_degree
from sudoku_compare.problems.graph_colouring import (
    Graph,
    colouring_csp,
    is_colouring,
    random_graph,
)


def test_random_graph_is_the_seeds_erdos_renyi_draw():
    g = random_graph(15, 0.3, seed=42)
    rng = random.Random(42)
    expected = [(i, j) for i in range(15) for j in range(i + 1, 15) if rng.random() < 0.3]
    assert g.edges == expected
    assert random_graph(15, 0.3, seed=42) == g
    assert random_graph(15, 0.3, seed=43) != g
    assert random_graph(6, 0.0).n_edges == 0 and random_graph(6, 1.0).n_edges == 15
    with pytest.raises(ValueError):
        random_graph(5, 1.5)


def test_complete_graph_needs_n_colours():
    k4 = Graph.from_edges(4, [(i, j) for i in range(4) for j in range(i + 1, 4)])
    for inference in (forward_checking, mac):
        for engine in ("auto", "python"):
            none = backtracking_search(colouring_csp(k4, 3), mrv_degree, lcv, inference,
                                       engine=engine)
            assert none.assignment is None and not none.timed_out
            some = backtracking_search(colouring_csp(k4, 4), mrv_degree, lcv, inference,
                                       engine=engine)
            assert is_colouring(k4, some.assignment, 4)
    assert conflict_directed_backjumping(colouring_csp(k4, 3)).assignment is None
    assert not is_colouring(k4, [0, 0, 1, 2], 4)


@pytest.mark.parametrize("n,p,k", perf.SEED_SETTINGS)
def test_fc_and_mac_agree_on_the_seed_settings(n, p, k):
    for seed in range(20):
        g = random_graph(n, p, seed)
        csp = colouring_csp(g, k)
        fc = backtracking_search(csp, mrv_degree, lcv, forward_checking)
        ma = backtracking_search(csp, mrv_degree, lcv, mac)
        assert (fc.assignment is None) == (ma.assignment is None), seed
        for res in (fc, ma):
            assert res.assignment is None or is_colouring(g, res.assignment, k)
        # the Python reference counts alike
        py = backtracking_search(csp, mrv_degree, lcv, mac, engine="python")
        assert (py.assignments, py.backtracks) == (ma.assignments, ma.backtracks)


def test_perf_section_runs_quickly_and_reports_both_methods():
    tables = perf.run(quick=True)
    assert len(tables) == 2
    methods = [row[3] for row in tables[0].rows]
    assert methods == ["FC", "MAC"] * len(perf.SEED_SETTINGS)
    assert all(row[-1] == 0 for row in tables[0].rows)  # no timeout on 15 vertices
