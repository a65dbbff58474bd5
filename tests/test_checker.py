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
