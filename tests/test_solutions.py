import numpy as np
import pytest

from sudoku_compare.problems.checker import is_solution
from sudoku_compare.problems.parsing import parse_line
from sudoku_compare.problems.puzzle import Puzzle
from sudoku_compare.problems.rating import rate
from sudoku_compare.problems.sets import load_set
from sudoku_compare.problems.solutions import count_solutions, first_solution, random_solution

from .conftest import needs_public

EASY0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"
SOL0 = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"


def test_unique_puzzle_counts_one():
    assert count_solutions(parse_line(EASY0)) == 1
    assert "".join(map(str, first_solution(parse_line(EASY0)))) == SOL0


def test_limit_stops_the_count():
    empty = Puzzle(3, (0,) * 81)
    assert count_solutions(empty) == 2
    assert count_solutions(empty, limit=50) == 50
    # 4x4 has exactly 288 complete grids
    assert count_solutions(Puzzle(2, (0,) * 16), limit=10_000) == 288


def test_two_solutions_when_a_deadly_pattern_is_opened():
    sol = [int(c) for c in SOL0]
    # an unavoidable rectangle: two rows, two columns, same box band, digits a/b swapped
    grid = np.array(sol).reshape(9, 9)
    found = None
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            if r1 // 3 != r2 // 3:
                continue
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    if (grid[r1, c1] == grid[r2, c2] and grid[r1, c2] == grid[r2, c1]):
                        found = (r1, r2, c1, c2)
    assert found is not None
    r1, r2, c1, c2 = found
    holes = grid.copy()
    for r, c in ((r1, c1), (r1, c2), (r2, c1), (r2, c2)):
        holes[r, c] = 0
    assert count_solutions(Puzzle.from_grid(holes), limit=5) == 2


def test_clashing_givens_have_no_solution():
    cells = [0] * 81
    cells[0] = cells[1] = 5
    assert count_solutions(Puzzle(3, tuple(cells))) == 0
    assert first_solution(Puzzle(3, tuple(cells))) is None


@pytest.mark.parametrize("box", [2, 3, 4, 5])
def test_random_solution_is_a_valid_grid(box):
    rng = np.random.default_rng(box)
    g = random_solution(box, rng)
    side = box * box
    assert is_solution(Puzzle(box, (0,) * side**2), g.reshape(side, side))
    assert np.array_equal(g, random_solution(box, np.random.default_rng(box)))


@needs_public
def test_public_hard_sets_are_unique_and_agree_with_rating_search():
    for p in load_set("hardest") + load_set("top95")[:10]:
        assert count_solutions(p) == 1
        assert rate(p).solutions == 1
        assert is_solution(p, first_solution(p).reshape(9, 9))
