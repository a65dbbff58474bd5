import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_compare.problems.errors import PuzzleFormatError
from sudoku_compare.problems.formatting import format_boxed, format_framed, format_line
from sudoku_compare.problems.parsing import parse_file, parse_line, parse_text
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


# -- layouts decided by the block (issue 17) ---------------------------------------------------

ROWS = [EASY0[i:i + 9] for i in range(0, 81, 9)]
SOL0 = "962185473174963825538427169826359741357814296491672538249538617715296384683741952"


def test_grids_one_after_another_without_blank_lines():
    assert parse_text("\n".join(ROWS * 3)) == [parse_line(EASY0)] * 3


def test_project_euler_layout_with_titles():
    text = "".join(f"Grid {k:02}\n" + "\n".join(ROWS) + "\n" for k in range(1, 4))
    assert parse_text(text) == [parse_line(EASY0)] * 3


def test_rows_of_comma_separated_cells():
    assert parse_text("\n".join(",".join(r) for r in ROWS)) == [parse_line(EASY0)]


def test_rows_of_numbers_for_a_16x16_grid():
    rng = np.random.default_rng(4)
    grid = _solved_grid(4, rng).ravel()
    grid[rng.random(256) < 0.5] = 0
    text = "\n".join(" ".join(str(v) for v in grid[r * 16:(r + 1) * 16]) for r in range(16))
    assert parse_text(text) == [Puzzle.from_grid(grid)]


@pytest.mark.parametrize("header", ["", "quizzes,solutions\n", "id,puzzle,solution,clues\n"])
def test_csv_puzzle_solution_layout(header):
    extra = "0," if "id" in header else ""
    tail = ",36" if "id" in header else ""
    text = header + f"{extra}{EASY0},{SOL0}{tail}\n" * 3
    assert parse_text(text) == [parse_line(EASY0)] * 3


def test_csv_header_names_the_puzzle_column():
    text = f"solution,puzzle\n{SOL0},{EASY0}\n"
    assert parse_text(text) == [parse_line(EASY0)]


def test_csv_bad_field_located_at_its_column():
    with pytest.raises(PuzzleFormatError, match=r"f:3:1: field 1 .* 80 cells"):
        parse_text(f"puzzle,solution\n{EASY0},{SOL0}\n{EASY0[:-1]},{SOL0}\n", "f")
    with pytest.raises(PuzzleFormatError, match=r"f:2:84: unknown character 'z'"):
        parse_text(f"id,puzzle\n0,\"{EASY0[:80]}z\"\n", "f")


def test_sixteen_rows_of_sixteen_are_one_16x16_and_16_lines_of_4x4_are_16_puzzles():
    rng = np.random.default_rng(8)
    grid = _solved_grid(4, rng).ravel()
    grid[rng.random(256) < 0.7] = 0
    line = format_line(grid, 4)
    assert parse_text("\n".join(line[r * 16:(r + 1) * 16] for r in range(16))) == [Puzzle.from_grid(grid)]
    fours = ["1.3....2.1...32.", "12..34..........", ".2.4............", "4..........3...."]
    lines = [fours[k % 4] for k in range(16)]
    assert [p.box for p in parse_text("\n".join(lines))] == [2] * 16
    assert parse_text("\n".join(["." * 16] * 16))[0].box == 4  # ambiguous: the 16x16 reading


def test_fewer_than_16_lines_of_16_are_4x4_puzzles_with_a_hint_when_bad():
    assert len(parse_text("1.3....2.1...32.\n1.3....2.1...32.\n")) == 2
    with pytest.raises(PuzzleFormatError, match=r"f:2:3: unknown character 'G' .*rows of a 16x16 grid"):
        parse_text("1.3....2.1...32.\n..G.............\n", "f")


def test_incomplete_grid_and_ragged_row():
    with pytest.raises(PuzzleFormatError, match=r"f:2:1: this 9x9 grid has 5 rows \(lines 2-6\)"):
        parse_text("# x\n" + "\n".join(ROWS[:5]) + "\n\n" + EASY0, "f")
    bad = ROWS.copy()
    bad[3] += "5"
    with pytest.raises(PuzzleFormatError, match=r"f:4:1: a row of the 9x9 grid that starts at line 1 "
                                                r"has 9 cells, this line has 10"):
        parse_text("\n".join(bad), "f")


def test_first_bad_line_wins_inside_a_grid():
    bad = ROWS.copy()
    bad[1] = "?" + bad[1][1:]
    bad[6] = bad[6] + "1"
    with pytest.raises(PuzzleFormatError, match=r"f:2:1: unknown character"):
        parse_text("\n".join(bad), "f")


def test_line_endings_and_byte_order_mark():
    for eol in ("\n", "\r\n", "\r"):
        assert parse_text("\ufeff" + eol.join(ROWS + ["", EASY0])) == [parse_line(EASY0)] * 2


def test_long_line_and_nul_refused_at_their_column():
    with pytest.raises(PuzzleFormatError, match=r"f:2:2049: line longer than 2048"):
        parse_text(EASY0 + "\n" + "1" * 5000, "f")
    with pytest.raises(PuzzleFormatError, match=r"f:1:4: a NUL character"):
        parse_text("123\x00", "f")


def test_file_not_utf8_located(tmp_path):
    f = tmp_path / "latin1.txt"
    f.write_bytes(EASY0.encode() + b"\n" + b"90200\xe9403" + EASY0[10:].encode() + b"\n")
    with pytest.raises(PuzzleFormatError, match=r"latin1.txt:2:6: not UTF-8 text \(byte 0xe9\)"):
        parse_file(f)


def test_file_lines_across_chunk_boundaries(tmp_path):
    from sudoku_compare.problems.parsing import _file_lines

    data = ("\ufeff" + "\r\n".join([EASY0] * 5) + "\r" + EASY0 + "\n").encode()
    f = tmp_path / "chunks.txt"
    f.write_bytes(data)
    for chunk in (1, 7, 81, 82, 83, 1 << 16):
        with f.open("rb") as fh:
            lines = list(_file_lines(fh, "f", chunk=chunk))
        assert lines == [(i, EASY0) for i in range(1, 7)], chunk


def test_file_with_a_long_line_is_refused_without_reading_the_rest(tmp_path):
    f = tmp_path / "long.txt"
    f.write_bytes(EASY0.encode() + b"\n" + b"7" * 50_000_000)
    with pytest.raises(PuzzleFormatError, match=r"long.txt:2:2049"):
        parse_file(f)


def test_a_title_never_hides_a_puzzle():
    assert parse_text("Grid 01\n" + "\n".join(ROWS) + "\nPuzzle no. 2 (hard)\n" + EASY0) == [parse_line(EASY0)] * 2
    with pytest.raises(PuzzleFormatError, match=r"f:1:"):
        parse_text("Puzzle 1.3....2.1...32.\n", "f")
    with pytest.raises(PuzzleFormatError, match=r"f:1:"):
        parse_text(f"Sudoku {EASY0}\n", "f")
