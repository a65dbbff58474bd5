import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_compare.problems.errors import PuzzleFormatError
from sudoku_compare.problems.formatting import format_boxed, format_framed, format_line
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
    assert parse_text(format_framed(p.cells, box))[0] == p


def test_sixteen_alphabet_and_case():
    from sudoku_compare.problems.alphabet import DIGITS, value_of
    assert value_of("G", 16) == 16 and value_of("g", 16) == 16 and value_of("H", 16) is None
    assert value_of("P", 25) == 25 and DIGITS[9] == "A"
    line = "123456789ABCDEFG" + "." * 240
    assert parse_line(line).cells[:16] == tuple(range(1, 17))
    with pytest.raises(PuzzleFormatError, match=r":1:17: unknown character 'H'"):
        parse_line(line[:16] + "H" + line[17:])


def test_multiline_grid_plain_rows_and_locations():
    rows = [EASY0[i:i + 9] for i in range(0, 81, 9)]
    text = "# grid\n" + "\n".join(rows) + "\n\n" + "\n".join(rows) + "\n"
    assert parse_text(text) == [parse_line(EASY0)] * 2
    bad = rows.copy()
    bad[4] = bad[4][:3] + "?" + bad[4][4:]
    with pytest.raises(PuzzleFormatError, match=r"f:5:4: unknown character '\?'"):
        parse_text("\n".join(bad), "f")


def test_not_n4_grid_rejected():
    with pytest.raises(PuzzleFormatError, match=r"n\*\*4"):
        parse_line("1" * 50)


def test_duplicate_in_column_and_box():
    col = "1" + "." * 8 + "1" + "." * 71
    with pytest.raises(PuzzleFormatError, match="given twice in column 1"):
        parse_line(col)
    box = "1" + "." * 9 + "1" + "." * 70
    with pytest.raises(PuzzleFormatError, match="given twice in box 1"):
        parse_line(box)


# The two displays printed in the seed notebooks (Python print(grid), and the C# framed one,
# trailing spaces included).
def _trailing_space(text: str) -> str:
    """The seeds print a space after every row (not after rules)."""
    return "".join(ln + ("" if ln.startswith("-") else " ") + "\n" for ln in text.splitlines())


SEED_PYTHON = _trailing_space("""9 . 2 | . . 5 | 4 . 3
1 . . | . 6 3 | . 2 5
5 . 8 | 4 . 7 | . 6 .
---------------------
. 2 6 | 3 . 9 | . . 1
. 5 7 | . 1 . | 2 9 .
. 9 . | 6 7 . | 5 3 .
---------------------
2 4 . | 5 3 . | 6 . .
7 . 5 | 2 . . | 3 . 4
. 8 . | . 4 1 | 9 5 .
""")

SEED_FRAMED = _trailing_space("""-------------------------------
| 9     2 |       5 | 4     3 |
| 1       |    6  3 |    2  5 |
| 5     8 | 4     7 |    6    |
-------------------------------
|    2  6 | 3     9 |       1 |
|    5  7 |    1    | 2  9    |
|    9    | 6  7    | 5  3    |
-------------------------------
| 2  4    | 5  3    | 6       |
| 7     5 | 2       | 3     4 |
|    8    |    4  1 | 9  5    |
-------------------------------
""")


def test_seed_displays_parse_to_easy51_0():
    assert parse_text(SEED_PYTHON) == [parse_line(EASY0)]
    assert parse_text(SEED_FRAMED) == [parse_line(EASY0)]
    assert parse_text(SEED_FRAMED + "\n" + SEED_PYTHON) == [parse_line(EASY0)] * 2
    assert format_boxed(parse_line(EASY0).cells, 3) + "\n" == SEED_PYTHON.replace(" \n", "\n")
    assert format_framed(parse_line(EASY0).cells, 3) + "\n" == SEED_FRAMED.replace(" \n", "\n")


def test_framed_error_location():
    bad = SEED_FRAMED.replace("| 1       |", "| 1     ? |")
    with pytest.raises(PuzzleFormatError, match=r"f:3:9: unknown character '\?'"):
        parse_text(bad, "f")
