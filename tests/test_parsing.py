import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_compare.problems.errors import PuzzleFormatError
from sudoku_compare.problems.formatting import format_boxed, format_line
from sudoku_compare.problems.parsing import parse_line, parse_text
from sudoku_compare.problems.puzzle import Puzzle

EASY0 = "902005403100063025508407060026309001057010290090670530240530600705200304080041950"


def test_parse_easy51_0():
    p = parse_line(EASY0)
    assert p.box == 3 and p.n_empty == 36


@pytest.mark.parametrize("empty", ["0", ".", "-", "X", "_"])
def test_empty_symbols(empty):
    assert parse_line(EASY0.replace("0", empty)) == parse_line(EASY0)


def test_wrong_length_names_line():
    with pytest.raises(PuzzleFormatError, match=r"f.txt:3:1: .*80"):
        parse_line(EASY0[:-1], "f.txt", 3)


def test_unknown_character_names_column():
    with pytest.raises(PuzzleFormatError, match=r"<string>:1:5: unknown character 'z'"):
        parse_line(EASY0[:4] + "z" + EASY0[5:])


def test_duplicate_given():
    with pytest.raises(PuzzleFormatError, match="given twice in row 1"):
        parse_line("99" + EASY0[2:])


def test_boxed_display_round_trip():
    p = parse_line(EASY0)
    assert parse_text(format_boxed(p.cells, 3))[0] == p


def test_comments_and_blank_lines():
    text = f"# a comment\n\n{EASY0}\n\n# another\n{EASY0}\n"
    assert len(parse_text(text)) == 2


def _solved_grid(box: int, rng: np.random.Generator) -> np.ndarray:
    side = box * box
    base = np.array([[(box * (r % box) + r // box + c) % side for c in range(side)]
                     for r in range(side)]) + 1
    perm = rng.permutation(side) + 1
    return perm[base - 1]


@settings(max_examples=60, deadline=None)
@given(box=st.integers(2, 5), seed=st.integers(0, 2**32 - 1), holes=st.floats(0, 1))
def test_format_parse_round_trip(box, seed, holes):
    rng = np.random.default_rng(seed)
    grid = _solved_grid(box, rng).ravel()
    grid[rng.random(grid.size) < holes] = 0
    p = Puzzle.from_grid(grid)
    assert parse_line(format_line(p.cells, box)) == p
    assert parse_text(format_boxed(p.cells, box))[0] == p
