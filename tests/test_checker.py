from sudoku_compare.problems.checker import is_solution, nb_errors, violations
from sudoku_compare.problems.parsing import parse_line

EASY0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
SOL0 = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"


def test_solution_accepted():
    p = parse_line(EASY0)
    assert is_solution(p, parse_line(SOL0).grid())
    assert nb_errors(parse_line(SOL0).grid()) == 0


def test_changed_given_and_duplicates_reported():
    p = parse_line(EASY0)
    bad = list(SOL0)
    bad[0], bad[1] = bad[1], bad[0]  # moves a given
    kinds = {v.kind for v in violations(p, [int(c) for c in bad])}
    assert "changed-given" in kinds and "duplicate" in kinds


def test_empty_cells_are_violations():
    p = parse_line(EASY0)
    assert any(v.kind == "empty" for v in violations(p, p.grid()))


def test_nb_errors_of_a_swap_in_a_row():
    # swapping cells 0 and 3 (row 1, boxes 1 and 2) breaks two columns and two boxes
    g = [int(c) for c in SOL0]
    g[0], g[3] = g[3], g[0]
    assert nb_errors(g) == 4
    assert nb_errors([0] * 81) == 27 * 9


def test_shape_and_out_of_range():
    p = parse_line(EASY0)
    assert [v.kind for v in violations(p, [1] * 80)] == ["shape"]
    g = [int(c) for c in SOL0]
    g[1] = 10
    kinds = {v.kind for v in violations(p, g)}
    assert "out-of-range" in kinds and not is_solution(p, g)


def test_sixteen_by_sixteen_solution():
    import numpy as np

    from sudoku_compare.problems.puzzle import Puzzle
    from sudoku_compare.problems.solutions import random_solution

    g = random_solution(4, np.random.default_rng(0))
    p = Puzzle(4, tuple(int(v) if i % 3 else 0 for i, v in enumerate(g)))
    assert is_solution(p, g) and nb_errors(g, box=4) == 0
    g2 = g.copy()
    g2[[1, 2]] = g2[[2, 1]]
    assert not is_solution(p, g2)
